//! The interleaved runs of a suite: each iteration runs each kernel once on each VM, the VM
//! that goes first rotating, so that machine noise falls on all three alike. Every output (GC
//! log lines taken out) is checked against HotSpot's; wall times, peak RSS, GC pauses and the
//! programs' own `metric` lines are gathered into one row per kernel.

use crate::gclog::{self, PauseSummary};
use crate::metrics::{self, Metric, MetricSummary};
use crate::options::Options;
use crate::process::{Outcome, run_once};
use crate::stats::{median, ratio};
use crate::suite::Kernel;
use std::process::Command;
use std::time::Instant;

pub const VMS: [&str; 3] = ["jxvm", "java -Xint", "java"];
pub const JXVM: usize = 0;
pub const XINT: usize = 1;
pub const JIT: usize = 2;

/// What one kernel gave on one VM over the iterations; all `None` but `problem` after a
/// failure, a time-out or a wrong output.
#[derive(Default, Clone)]
pub struct VmResult {
    /// Median wall time, seconds.
    pub secs: Option<f64>,
    /// Median peak resident set size, kilobytes.
    pub peak_rss_kb: Option<f64>,
    /// The GC pauses, for kernels run with `-Xlog:gc`.
    pub pauses: Option<PauseSummary>,
    /// The medians of the figures the program printed as `metric` lines on stderr.
    pub metrics: Vec<MetricSummary>,
    pub problem: Option<String>,
}

impl VmResult {
    /// The median of the metric `name` in `unit`, if the program printed it.
    pub fn metric(&self, name: &str, unit: &str) -> Option<f64> {
        self.metrics
            .iter()
            .find(|m| m.name == name && m.unit == unit)
            .map(|m| m.median)
    }
}

pub struct Row {
    pub kernel: &'static Kernel,
    pub vms: [VmResult; 3],
}

impl Row {
    pub fn name(&self) -> &'static str {
        self.kernel.name
    }

    /// jxvm's median time over VM `other`'s.
    pub fn ratio(&self, other: usize) -> Option<f64> {
        ratio(self.vms[JXVM].secs, self.vms[other].secs)
    }

    /// The metrics (name and unit) any VM reported, in the order they first appear (jxvm's
    /// first).
    pub fn metric_keys(&self) -> Vec<(&str, &str)> {
        let mut keys = Vec::new();
        for m in self.vms.iter().flat_map(|v| &v.metrics) {
            let key = (m.name.as_str(), m.unit.as_str());
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys
    }
}

pub struct Results {
    pub rows: Vec<Row>,
    /// One line per VM that failed a kernel.
    pub problems: Vec<String>,
    /// The collector HotSpot said it used, if it logged one.
    pub collector: Option<String>,
    pub secs: f64,
}

/// The runs of one kernel on one VM so far.
#[derive(Default)]
struct Cell {
    times: Vec<f64>,
    rss_kb: Vec<f64>,
    pauses: Vec<Vec<f64>>,
    metrics: Vec<Vec<Metric>>,
    collector: Option<String>,
    /// Set once the VM failed on this kernel; it is not run on it again.
    problem: Option<String>,
    /// The program's output (GC log taken out) of the first run.
    stdout: Option<String>,
}

/// Runs the selected kernels of the suite, printing one progress line per kernel and iteration
/// on stderr.
pub fn run_suite(o: &Options) -> Results {
    let start = Instant::now();
    eprintln!(
        "benchrun: suite {}, {} kernels, size {}, {} iterations, VMs interleaved: {}",
        o.suite.name,
        o.kernels.len(),
        o.size,
        o.iterations,
        VMS.join(", ")
    );
    let mut cells: Vec<[Cell; 3]> = o.kernels.iter().map(|_| Default::default()).collect();
    for it in 0..o.iterations {
        for (i, (kernel, cells)) in o.kernels.iter().zip(&mut cells).enumerate() {
            let line = run_round(o, kernel, it * o.kernels.len() + i, cells);
            eprintln!("[{}/{}] {:<14}{line}", it + 1, o.iterations, kernel.name);
        }
    }
    let collector = cells.iter().find_map(|c| {
        c[JIT]
            .collector
            .clone()
            .or_else(|| c[XINT].collector.clone())
    });
    let rows: Vec<Row> = o
        .kernels
        .iter()
        .zip(cells)
        .map(|(&kernel, cells)| Row {
            kernel,
            vms: cells.map(|c| summarize(c, kernel)),
        })
        .collect();
    Results {
        problems: problems(&rows),
        rows,
        collector,
        secs: start.elapsed().as_secs_f64(),
    }
}

/// One run of `kernel` on each VM still in the race, starting with VM `rotation % 3`; then the
/// check against HotSpot's output. Gives the progress line.
fn run_round(o: &Options, kernel: &Kernel, rotation: usize, cells: &mut [Cell; 3]) -> String {
    let mut line = String::new();
    for step in 0..3 {
        let vm = (rotation + step) % 3;
        if cells[vm].problem.is_none() {
            let outcome = run_once(vm_command(o, vm, kernel), o.timeout);
            line.push_str(&format!(
                "  {}={}",
                VMS[vm],
                record(&mut cells[vm], outcome, o)
            ));
        }
    }
    // HotSpot's (java's) output is the reference for the other two.
    if let Some(reference) = cells[JIT].stdout.clone() {
        for vm in [JXVM, XINT] {
            if check(&mut cells[vm], &reference) {
                line.push_str(&format!("  {}=WRONG CHECKSUM", VMS[vm]));
            }
        }
    }
    line
}

/// `VM [-Xint] ARGS -cp CLASSES Kernel SIZE`.
fn vm_command(o: &Options, vm: usize, kernel: &Kernel) -> Command {
    let mut c = Command::new(if vm == JXVM { &o.jxvm } else { &o.java });
    if vm == XINT {
        c.arg("-Xint");
    }
    c.args(kernel.vm_args)
        .arg("-cp")
        .arg(&o.classes)
        .arg(kernel.name)
        .arg(&o.size);
    c
}

/// Adds a run to the cell; gives its figure for the progress line.
fn record(cell: &mut Cell, outcome: Outcome, o: &Options) -> String {
    match outcome {
        Outcome::Ok {
            secs,
            stdout,
            stderr,
            peak_rss_kb,
        } => {
            let log = gclog::split(&stdout);
            if let Some(before) = cell.stdout.as_ref().filter(|b| **b != log.output) {
                let (now, before) = first_difference(&log.output, before);
                cell.problem = Some(format!(
                    "output changed between runs: `{now}`, before `{before}`"
                ));
            }
            cell.stdout.get_or_insert(log.output);
            cell.collector = log.collector.or(cell.collector.take());
            cell.times.push(secs);
            cell.rss_kb.push(peak_rss_kb as f64);
            cell.pauses.push(log.pauses_ms);
            cell.metrics.push(metrics::parse(&stderr));
            format!("{secs:.3}s")
        }
        Outcome::Failed { secs, why } => {
            cell.problem = Some(format!("failed ({why})"));
            format!("FAILED after {secs:.1}s")
        }
        Outcome::TimedOut => {
            cell.problem = Some(format!("timed out after {:.0} s", o.timeout.as_secs_f64()));
            "TIMEOUT".into()
        }
    }
}

/// Marks the cell WRONG if its output differs from `reference`; tells whether it did now.
fn check(cell: &mut Cell, reference: &str) -> bool {
    let Some(out) = cell.stdout.as_deref().filter(|_| cell.problem.is_none()) else {
        return false;
    };
    if out == reference {
        return false;
    }
    let (got, want) = first_difference(out, reference);
    cell.problem = Some(format!(
        "WRONG CHECKSUM: printed `{got}` where HotSpot printed `{want}`"
    ));
    true
}

fn summarize(cell: Cell, kernel: &Kernel) -> VmResult {
    if cell.problem.is_some() {
        return VmResult {
            problem: cell.problem,
            ..VmResult::default()
        };
    }
    VmResult {
        secs: median(&cell.times),
        peak_rss_kb: median(&cell.rss_kb),
        pauses: kernel
            .logs_gc()
            .then(|| gclog::summarize(&cell.pauses))
            .flatten(),
        metrics: metrics::summarize(&cell.metrics),
        problem: None,
    }
}

fn problems(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .flat_map(|r| {
            r.vms.iter().zip(VMS).filter_map(move |(v, vm)| {
                v.problem
                    .as_ref()
                    .map(|p| format!("{} on {vm}: {p}", r.name()))
            })
        })
        .collect()
}

/// The first line where two outputs differ, from each.
pub fn first_difference(a: &str, b: &str) -> (String, String) {
    let show =
        |l: Option<&str>| l.map_or("(end of output)".into(), |l| l.chars().take(300).collect());
    let (mut la, mut lb) = (a.lines(), b.lines());
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return ("(same lines, different line ends)".into(), String::new()),
            (x, y) => return (show(x), show(y)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_of_outputs() {
        assert_eq!(
            first_difference("a\nb\nc\n", "a\nx\nc\n"),
            ("b".to_string(), "x".to_string())
        );
        assert_eq!(first_difference("a\n", "a\nb\n").0, "(end of output)");
        assert_eq!(
            first_difference("a\r\n", "a\n").0,
            "(same lines, different line ends)"
        );
    }

    #[test]
    fn a_differing_output_is_wrong_once() {
        let mut cell = Cell {
            stdout: Some("checksum 1\n".into()),
            ..Cell::default()
        };
        assert!(!check(&mut cell, "checksum 1\n"));
        assert!(check(&mut cell, "checksum 2\n"));
        assert!(
            cell.problem
                .as_deref()
                .unwrap()
                .starts_with("WRONG CHECKSUM")
        );
        assert!(!check(&mut cell, "checksum 2\n"), "reported once");
    }
}
