//! Figures a program measures itself and prints on stderr as `metric NAME VALUE UNIT` lines
//! (the thread suite's programs: ns per lock, us per round trip...), timed inside the program so
//! that the VM's start-up is left out; reading them, and their medians over the runs.

use crate::stats::median;

/// One `metric NAME VALUE UNIT` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

/// The metric of `line`, if it is a well-formed metric line: the word `metric`, a name, a
/// finite number and a unit, separated by blanks. Anything else gives `None`.
pub fn parse_line(line: &str) -> Option<Metric> {
    let mut words = line.split_whitespace();
    if words.next()? != "metric" {
        return None;
    }
    let (name, value, unit) = (words.next()?, words.next()?, words.next()?);
    if words.next().is_some() {
        return None;
    }
    let value: f64 = value.parse().ok()?;
    value.is_finite().then(|| Metric {
        name: name.into(),
        value,
        unit: unit.into(),
    })
}

/// Every metric line of a program's stderr, in order; other lines are ignored.
pub fn parse(stderr: &str) -> Vec<Metric> {
    stderr.lines().filter_map(parse_line).collect()
}

/// A metric over the runs of a kernel on one VM: the median of its values.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricSummary {
    pub name: String,
    pub unit: String,
    pub median: f64,
}

/// The median of each metric (a name with its unit) over `runs`, one vector per run, in the
/// order the metrics first appear.
pub fn summarize(runs: &[Vec<Metric>]) -> Vec<MetricSummary> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for m in runs.iter().flatten() {
        if !keys.contains(&(m.name.as_str(), m.unit.as_str())) {
            keys.push((&m.name, &m.unit));
        }
    }
    keys.into_iter()
        .filter_map(|(name, unit)| {
            let values: Vec<f64> = runs
                .iter()
                .flatten()
                .filter(|m| m.name == name && m.unit == unit)
                .map(|m| m.value)
                .collect();
            Some(MetricSummary {
                name: name.into(),
                unit: unit.into(),
                median: median(&values)?,
            })
        })
        .collect()
}

/// Whether a unit is a time (`ns`, `us`, `ms`, `s`): smaller is better, and ratios of such
/// figures go into the geometric mean. Other units (a speed-up `x`) do not.
pub fn is_time(unit: &str) -> bool {
    matches!(unit, "ns" | "us" | "µs" | "ms" | "s")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str, value: f64, unit: &str) -> Metric {
        Metric {
            name: name.into(),
            value,
            unit: unit.into(),
        }
    }

    #[test]
    fn metric_lines() {
        assert_eq!(
            parse_line("metric synchronized_block 35.42 ns"),
            Some(m("synchronized_block", 35.42, "ns"))
        );
        assert_eq!(
            parse_line("  metric  speedup\t1.5e0 x \r"),
            Some(m("speedup", 1.5, "x")),
            "blanks, exponent, CR"
        );
        assert_eq!(parse_line("metric a -2 us"), Some(m("a", -2.0, "us")));
    }

    #[test]
    fn other_lines_are_not_metrics() {
        for line in [
            "",
            "metric",
            "metric a",
            "metric a 1",
            "metric a 1 ns extra",
            "metric a fast ns",
            "metric a NaN ns",
            "metric a inf ns",
            "metrics a 1 ns",
            "Metric a 1 ns",
            "Exception in thread \"main\" java.lang.Error: metric a 1 ns",
        ] {
            assert_eq!(parse_line(line), None, "{line:?}");
        }
    }

    #[test]
    fn parse_keeps_metric_lines_in_order() {
        let stderr = "warning: something\nmetric b 2 ns\nmetric a 1.25 us\nmetric broken\n";
        assert_eq!(parse(stderr), vec![m("b", 2.0, "ns"), m("a", 1.25, "us")]);
        assert_eq!(parse(""), vec![]);
    }

    #[test]
    fn medians_per_metric_over_runs() {
        let runs = vec![
            vec![m("lock", 30.0, "ns"), m("start", 100.0, "us")],
            vec![m("lock", 10.0, "ns")],
            vec![
                m("lock", 20.0, "ns"),
                m("start", 300.0, "us"),
                m("lock", 5.0, "x"),
            ],
        ];
        let s = summarize(&runs);
        let got: Vec<_> = s
            .iter()
            .map(|s| (s.name.as_str(), s.unit.as_str(), s.median))
            .collect();
        assert_eq!(
            got,
            [
                ("lock", "ns", 20.0),
                ("start", "us", 200.0),
                ("lock", "x", 5.0)
            ]
        );
        assert!(summarize(&[vec![], vec![]]).is_empty());
    }

    #[test]
    fn time_units() {
        assert!(is_time("ns") && is_time("us") && is_time("ms") && is_time("s"));
        assert!(!is_time("x") && !is_time("MB/s"));
    }
}
