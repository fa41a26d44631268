//! The runner's command line: which suite, kernels, size, iterations and time-out, and where the
//! VMs, the compiled classes and the results are.

use crate::report::load_average;
use crate::suite::{Kernel, Suite};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug)]
pub struct Options {
    pub suite: &'static Suite,
    pub jxvm: PathBuf,
    pub java: PathBuf,
    pub classes: PathBuf,
    pub results: PathBuf,
    pub size: String,
    pub iterations: usize,
    /// In-process iterations of the warm-up runs (0: none).
    pub warmup: usize,
    pub timeout: Duration,
    /// The kernels to run, in the suite's order.
    pub kernels: Vec<&'static Kernel>,
    pub label: String,
    /// The load average when the runner started.
    pub load_start: String,
}

pub fn usage() -> String {
    "usage: benchrun --jxvm PATH --classes DIR [--suite main|gc|threads] [--java PATH] \
     [--results DIR] [--size small|large] [--iterations N] [--warmup N] [--timeout SECONDS] [--label TEXT] \
     [--only NAME...]"
        .to_string()
}

/// The options given on the command line (without the program name); `Err` holds the message.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        suite: &crate::suite::MAIN,
        jxvm: PathBuf::from("target/release/jxvm"),
        java: PathBuf::from("java"),
        classes: PathBuf::from("target/bench-classes"),
        results: PathBuf::from("bench/results"),
        size: "small".into(),
        iterations: 0,
        warmup: 5,
        timeout: Duration::ZERO,
        kernels: Vec::new(),
        label: String::new(),
        load_start: load_average(),
    };
    let mut only = Vec::new();
    let mut args = args.into_iter().peekable();
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{a} needs a value\n{}", usage()))
        };
        match a.as_str() {
            "--suite" => o.suite = Suite::named(&value()?)?,
            "--jxvm" => o.jxvm = value()?.into(),
            "--java" => o.java = value()?.into(),
            "--classes" => o.classes = value()?.into(),
            "--results" => o.results = value()?.into(),
            "--label" => o.label = value()?,
            "--size" => o.size = size(value()?)?,
            "--iterations" => o.iterations = iterations(&value()?)?,
            "--warmup" => {
                o.warmup = value()?.parse().map_err(|e| format!("--warmup: {e}"))?;
            }
            "--timeout" => o.timeout = timeout(&value()?)?,
            "--only" => {
                while let Some(n) = args.next_if(|n| !n.starts_with("--")) {
                    only.extend(n.split(',').filter(|s| !s.is_empty()).map(String::from));
                }
            }
            "-h" | "--help" => return Err(usage()),
            _ => return Err(format!("unknown argument {a}\n{}", usage())),
        }
    }
    if o.iterations == 0 {
        o.iterations = o.suite.default_iterations;
    }
    if o.timeout.is_zero() {
        o.timeout = Duration::from_secs_f64(o.suite.default_timeout_secs);
    }
    o.kernels = selected(o.suite, &only)?;
    Ok(o)
}

fn size(s: String) -> Result<String, String> {
    match s.as_str() {
        "small" | "large" => Ok(s),
        _ => Err(format!("--size must be small or large, not {s}")),
    }
}

fn iterations(s: &str) -> Result<usize, String> {
    match s.parse() {
        Ok(0) => Err("--iterations must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("--iterations: {e}")),
    }
}

fn timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|e| format!("--timeout: {e}"))?;
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("--timeout must be a positive number of seconds, not {s}"))
}

/// The suite's kernels named in `only` (all of them if it is empty), in the suite's order.
fn selected(suite: &'static Suite, only: &[String]) -> Result<Vec<&'static Kernel>, String> {
    if let Some(unknown) = only.iter().find(|n| suite.kernel(n).is_none()) {
        return Err(format!(
            "unknown kernel {unknown} in suite {}; its kernels: {}",
            suite.name,
            suite.kernel_names().join(" ")
        ));
    }
    Ok(suite
        .kernels
        .iter()
        .filter(|k| only.is_empty() || only.iter().any(|n| n.eq_ignore_ascii_case(k.name)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(s: &str) -> Result<Options, String> {
        parse(s.split_whitespace().map(String::from))
    }

    #[test]
    fn defaults_come_from_the_suite() {
        let o = parse_str("").unwrap();
        assert_eq!(
            (o.suite.name, o.iterations, o.kernels.len()),
            ("main", 5, 16)
        );
        assert_eq!(o.warmup, 5);
        assert_eq!(parse_str("--warmup 0").unwrap().warmup, 0);
        let o = parse_str("--suite gc --size large").unwrap();
        assert_eq!(
            (o.suite.name, o.iterations, o.size.as_str()),
            ("gc", 3, "large")
        );
        assert_eq!(o.timeout, Duration::from_secs(900));
        let o = parse_str("--suite threads --only pingpong").unwrap();
        assert_eq!(
            (o.iterations, o.kernels[0].name, o.timeout),
            (3, "PingPong", Duration::from_secs(300))
        );
    }

    #[test]
    fn only_picks_kernels_in_suite_order() {
        let o = parse_str("--suite gc --only gcpauses,GcBinaryTrees --iterations 1").unwrap();
        let names: Vec<_> = o.kernels.iter().map(|k| k.name).collect();
        assert_eq!(names, ["GcBinaryTrees", "GcPauses"]);
        assert!(
            parse_str("--only GcPauses")
                .unwrap_err()
                .contains("unknown kernel GcPauses")
        );
    }

    #[test]
    fn bad_values_are_one_line_errors() {
        for bad in [
            "--size huge",
            "--iterations 0",
            "--iterations x",
            "--timeout -1",
            "--timeout nan",
            "--warmup -1",
            "--timeout 0",
            "--suite x",
        ] {
            let e = parse_str(bad).err().unwrap_or_default();
            assert!(!e.is_empty() && !e.contains('\n'), "{bad}: {e}");
        }
        assert!(
            parse_str("--jxvm")
                .unwrap_err()
                .starts_with("--jxvm needs a value")
        );
    }
}
