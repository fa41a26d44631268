//! Garbage-collector log lines on a VM's stdout (`-Xlog:gc`: jxvm and HotSpot both print
//! unified-logging lines such as `[0.342s][info][gc] GC(0) Pause Young (...) 19M->18M(64M)
//! 21.228ms`): separating them from the program's own output, and reading the pause times.

use crate::stats::{median, percentile};

/// A VM's stdout with the GC log taken out.
#[derive(Debug, Default, PartialEq)]
pub struct GcLog {
    /// The program's own output: stdout without the GC log lines, line ends kept.
    pub output: String,
    /// Every stop-the-world pause, in milliseconds, in log order.
    pub pauses_ms: Vec<f64>,
    /// The collector HotSpot names in its `Using G1` line, if any.
    pub collector: Option<String>,
}

/// Splits `stdout` into the program's output and the GC log's pauses.
pub fn split(stdout: &str) -> GcLog {
    let mut log = GcLog::default();
    for piece in stdout.split_inclusive('\n') {
        let line = piece.trim_end();
        if !is_gc_log(line) {
            log.output.push_str(piece);
        } else if let Some(ms) = pause_ms(line) {
            log.pauses_ms.push(ms);
        } else if let Some((_, name)) = line.split_once("] Using ") {
            log.collector = Some(name.trim().to_string());
        }
    }
    log
}

/// Whether `line` is a unified-logging line tagged gc: `[<uptime>][<level>][gc] ...` (also
/// `[gc,heap]` and the like).
pub fn is_gc_log(line: &str) -> bool {
    line.starts_with('[') && (line.contains("][gc]") || line.contains("][gc,"))
}

/// The pause time of a GC log line that reports a pause: it names a `Pause` (Young, Full,
/// Remark, Cleanup...) and ends in a figure in milliseconds such as `21.228ms`. Concurrent
/// phases (no `Pause`) and other lines give `None`.
pub fn pause_ms(line: &str) -> Option<f64> {
    if !line.contains(" Pause ") {
        return None;
    }
    let figure = line.split_whitespace().next_back()?.strip_suffix("ms")?;
    let ms: f64 = figure.parse().ok()?;
    (ms.is_finite() && ms >= 0.0).then_some(ms)
}

/// The pauses of a kernel on one VM over all its runs.
#[derive(Debug, Clone, PartialEq)]
pub struct PauseSummary {
    /// Pauses per run (median over the runs).
    pub count: f64,
    /// Median, 99th percentile and longest pause, over the pauses of all runs (ms); `None`
    /// without pauses.
    pub median_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub max_ms: Option<f64>,
    /// Time paused per run (median over the runs, seconds).
    pub total_secs: f64,
}

/// Summarises the pauses of several runs (one vector per run); `None` without runs.
pub fn summarize(runs: &[Vec<f64>]) -> Option<PauseSummary> {
    let all: Vec<f64> = runs.iter().flatten().copied().collect();
    let counts: Vec<f64> = runs.iter().map(|r| r.len() as f64).collect();
    let totals: Vec<f64> = runs
        .iter()
        .map(|r| r.iter().sum::<f64>() / 1000.0)
        .collect();
    Some(PauseSummary {
        count: median(&counts)?,
        median_ms: median(&all),
        p99_ms: percentile(&all, 99.0),
        max_ms: percentile(&all, 100.0),
        total_secs: median(&totals)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const JXVM_YOUNG: &str =
        "[0.342s][info][gc] GC(0) Pause Young (Allocation Failure) 19M->18M(6026M) 21.228ms";
    const JXVM_FULL: &str =
        "[1.5s][info][gc] GC(7) Pause Full (Allocation Failure) 90M->50M(128M) 140.5ms";
    const G1_YOUNG: &str =
        "[0.015s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 23M->2M(128M) 1.719ms";
    const G1_REMARK: &str = "[16.355s][info][gc] GC(75) Pause Remark 87M->87M(128M) 0.197ms";

    #[test]
    fn pause_lines_of_both_vms() {
        assert_eq!(pause_ms(JXVM_YOUNG), Some(21.228));
        assert_eq!(pause_ms(JXVM_FULL), Some(140.5));
        assert_eq!(pause_ms(G1_YOUNG), Some(1.719));
        assert_eq!(pause_ms(G1_REMARK), Some(0.197));
        assert_eq!(
            pause_ms(&format!("{G1_YOUNG}  \r")),
            Some(1.719),
            "trailing blanks"
        );
    }

    #[test]
    fn other_lines_are_not_pauses() {
        for line in [
            "[0.577s][info][gc] GC(8) Concurrent Mark Cycle",
            "[0.703s][info][gc] GC(8) Concurrent Mark Cycle 125.567ms",
            "[0.003s][info][gc] Using G1",
            "[0.3s][info][gc] GC(1) Pause Young (Normal) 3M->1M(8M)",
            "[0.3s][info][gc] GC(1) Pause Young (Normal) 3M->1M(8M) fast",
            "[0.3s][info][gc] GC(1) Pause Young (Normal) 3M->1M(8M) -1.0ms",
            "[0.3s][info][gc] GC(1) Pause Young (Normal) 3M->1M(8M) NaNms",
            "",
            "ms",
        ] {
            assert_eq!(pause_ms(line), None, "{line}");
        }
    }

    #[test]
    fn split_keeps_program_output_and_collects_the_log() {
        let stdout = format!(
            "[0.003s][info][gc] Using G1\n{G1_YOUNG}\nresult 42\n[0.5s][info][gc] GC(1) Concurrent Mark Cycle\n{G1_REMARK}\r\n[not a log] line\nlast"
        );
        let log = split(&stdout);
        assert_eq!(log.output, "result 42\n[not a log] line\nlast");
        assert_eq!(log.pauses_ms, vec![1.719, 0.197]);
        assert_eq!(log.collector.as_deref(), Some("G1"));
        assert_eq!(
            split("plain\n"),
            GcLog {
                output: "plain\n".into(),
                ..GcLog::default()
            }
        );
    }

    #[test]
    fn gc_log_lines_are_recognised_by_their_tags() {
        assert!(is_gc_log(JXVM_YOUNG));
        assert!(is_gc_log("[0.1s][info][gc,heap,exit] Heap"));
        assert!(!is_gc_log("[gc] output of the program"));
        assert!(!is_gc_log("GC(0) Pause Young 1.0ms"));
    }

    #[test]
    fn summary_over_runs() {
        let s = summarize(&[vec![1.0, 3.0], vec![2.0, 10.0, 4.0], vec![5.0]]).unwrap();
        assert_eq!(s.count, 2.0);
        assert_eq!(s.median_ms, Some(3.5));
        assert_eq!(s.p99_ms, Some(10.0));
        assert_eq!(s.max_ms, Some(10.0));
        assert!((s.total_secs - 0.005).abs() < 1e-12);
        let none = summarize(&[vec![], vec![]]).unwrap();
        assert_eq!(
            (none.count, none.median_ms, none.max_ms, none.total_secs),
            (0.0, None, None, 0.0)
        );
        assert_eq!(summarize(&[]), None);
    }
}
