//! The interleaved runs of a suite: each iteration runs each kernel once on each of the suite's
//! VMs, the VM that goes first rotating, so that machine noise falls on all alike. Every output
//! (GC log lines taken out) is checked against HotSpot's (`java`, C2); wall times, peak RSS, GC
//! pauses and the programs' own `metric` lines are gathered into one row per kernel. In the
//! first iteration a suite with JIT figures runs each kernel once more on jxvm with
//! `-XX:+PrintCompilation` (not timed, not checked: compile lines may cut into the program's),
//! and under the `Warmup` harness on jxvm and java (several runs of the kernel in one VM, each
//! timed by the harness).

use crate::compiles::{self, CompileStats};
use crate::gclog::{self, PauseSummary};
use crate::metrics::{self, Metric, MetricSummary};
use crate::options::Options;
use crate::process::{Outcome, run_once};
use crate::stats::{median, ratio};
use crate::suite::Kernel;
use crate::vms::{Pair, Vm};
use std::process::Command;
use std::time::Instant;

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
    /// The suite's VMs, in its order, with what each gave.
    pub vms: Vec<(Vm, VmResult)>,
    /// The totals of the `-XX:+PrintCompilation` run, or why it failed; `None` if not run.
    pub compiles: Option<Result<CompileStats, String>>,
    /// The warm-up runs: each VM's seconds per in-process iteration, or why the run failed.
    pub warmup: Vec<(Vm, Result<Vec<f64>, String>)>,
}

impl Row {
    pub fn name(&self) -> &'static str {
        self.kernel.name
    }

    /// What `vm` gave, if the suite runs it.
    pub fn result(&self, vm: Vm) -> Option<&VmResult> {
        self.vms.iter().find(|(v, _)| *v == vm).map(|(_, r)| r)
    }

    /// The median time of `vm`, if it ran the kernel correctly.
    pub fn secs(&self, vm: Vm) -> Option<f64> {
        self.result(vm).and_then(|r| r.secs)
    }

    /// The first VM's median time over the second's.
    pub fn ratio(&self, (a, b): Pair) -> Option<f64> {
        ratio(self.secs(a), self.secs(b))
    }

    /// Whether every VM ran the kernel correctly.
    pub fn all_ran(&self) -> bool {
        self.vms.iter().all(|(_, r)| r.secs.is_some())
    }

    /// The metrics (name and unit) any VM reported, in the order they first appear (jxvm's
    /// first).
    pub fn metric_keys(&self) -> Vec<(&str, &str)> {
        let mut keys = Vec::new();
        for m in self.vms.iter().flat_map(|(_, v)| &v.metrics) {
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
    let labels: Vec<_> = o.suite.vms.iter().map(|v| v.label()).collect();
    eprintln!(
        "benchrun: suite {}, {} kernels, size {}, {} iterations, VMs interleaved: {}",
        o.suite.name,
        o.kernels.len(),
        o.size,
        o.iterations,
        labels.join(", ")
    );
    let mut runs: Vec<KernelRuns> = o.kernels.iter().map(|_| KernelRuns::new(o)).collect();
    for it in 0..o.iterations {
        for (i, (kernel, runs)) in o.kernels.iter().zip(&mut runs).enumerate() {
            let mut line = run_round(o, kernel, it * o.kernels.len() + i, &mut runs.cells);
            if it == 0 && o.suite.jit_figures {
                line.push_str(&runs.add_jit_figures(o, kernel));
            }
            eprintln!("[{}/{}] {:<14}{line}", it + 1, o.iterations, kernel.name);
        }
    }
    let collector = runs.iter().find_map(|r| r.collector(o));
    let rows: Vec<Row> = o
        .kernels
        .iter()
        .zip(runs)
        .map(|(&kernel, r)| r.into_row(o, kernel))
        .collect();
    Results {
        problems: problems(&rows),
        rows,
        collector,
        secs: start.elapsed().as_secs_f64(),
    }
}

/// Everything run of one kernel so far.
struct KernelRuns {
    /// One per VM of the suite, in its order.
    cells: Vec<Cell>,
    compiles: Option<Result<CompileStats, String>>,
    warmup: Vec<(Vm, Result<Vec<f64>, String>)>,
}

impl KernelRuns {
    fn new(o: &Options) -> Self {
        KernelRuns {
            cells: o.suite.vms.iter().map(|_| Cell::default()).collect(),
            compiles: None,
            warmup: Vec::new(),
        }
    }

    /// The `-XX:+PrintCompilation` run and the warm-up runs; gives their progress line.
    fn add_jit_figures(&mut self, o: &Options, kernel: &Kernel) -> String {
        let stats = compile_run(o, kernel);
        let mut line = compile_progress(&stats);
        self.compiles = Some(stats);
        self.warmup = warmup_runs(o, kernel, &mut line);
        line
    }

    /// The collector HotSpot named in its log, if any.
    fn collector(&self, o: &Options) -> Option<String> {
        self.cells
            .iter()
            .zip(o.suite.vms)
            .filter(|(_, vm)| !vm.is_jxvm())
            .find_map(|(c, _)| c.collector.clone())
    }

    fn into_row(self, o: &Options, kernel: &'static Kernel) -> Row {
        Row {
            kernel,
            vms: o
                .suite
                .vms
                .iter()
                .zip(self.cells)
                .map(|(&vm, c)| (vm, summarize(c, kernel)))
                .collect(),
            compiles: self.compiles,
            warmup: self.warmup,
        }
    }
}

/// One run of `kernel` on each VM still in the race (`cells` in the suite's VM order), starting
/// with VM `rotation % n`; then the check against HotSpot's output. Gives the progress line.
fn run_round(o: &Options, kernel: &Kernel, rotation: usize, cells: &mut [Cell]) -> String {
    let vms = o.suite.vms;
    let mut line = String::new();
    for step in 0..vms.len() {
        let i = (rotation + step) % vms.len();
        if cells[i].problem.is_none() {
            let outcome = run_once(vm_command(o, vms[i], &[], kernel), o.timeout);
            let figure = record(&mut cells[i], outcome, o);
            line.push_str(&format!("  {}={figure}", vms[i].label()));
        }
    }
    // HotSpot's (java's) output is the reference for the others.
    let java = vms.iter().position(|&v| v == Vm::Java);
    if let Some(reference) = java.and_then(|j| cells[j].stdout.clone()) {
        for (i, vm) in vms.iter().enumerate().filter(|(_, v)| **v != Vm::Java) {
            if check(&mut cells[i], &reference) {
                line.push_str(&format!("  {}=WRONG CHECKSUM", vm.label()));
            }
        }
    }
    line
}

/// The extra jxvm run with `-XX:+PrintCompilation` and the totals of its compile lines.
fn compile_run(o: &Options, kernel: &Kernel) -> Result<CompileStats, String> {
    let cmd = vm_command(o, Vm::Jxvm, &["-XX:+PrintCompilation"], kernel);
    match run_once(cmd, o.timeout) {
        Outcome::Ok { stdout, .. } => Ok(compiles::parse(&stdout)),
        Outcome::Failed { why, .. } => Err(format!("failed ({why})")),
        Outcome::TimedOut => Err(format!("timed out after {:.0} s", o.timeout.as_secs_f64())),
    }
}

/// The compile run's part of the progress line.
fn compile_progress(stats: &Result<CompileStats, String>) -> String {
    match stats {
        Ok(s) => format!(
            "  compiled={} ({} B, {:.0} ms)",
            s.methods,
            s.code_bytes,
            s.compile_us as f64 / 1000.0
        ),
        Err(e) => format!("  PrintCompilation run {e}"),
    }
}

/// The warm-up runs of `kernel` on jxvm and java (none with `--warmup 0`), their part of the
/// progress line added to `line`.
fn warmup_runs(
    o: &Options,
    kernel: &Kernel,
    line: &mut String,
) -> Vec<(Vm, Result<Vec<f64>, String>)> {
    if o.warmup == 0 {
        return Vec::new();
    }
    let runs: Vec<_> = [Vm::Jxvm, Vm::Java]
        .into_iter()
        .map(|vm| (vm, warmup_run(o, vm, kernel)))
        .collect();
    for (vm, run) in &runs {
        let figure = match run {
            Ok(secs) => {
                let secs: Vec<_> = secs.iter().map(|t| format!("{t:.3}")).collect();
                format!("{}s", secs.join("/"))
            }
            Err(e) => e.clone(),
        };
        line.push_str(&format!("  warm-up {}={figure}", vm.label()));
    }
    runs
}

/// `VM FLAGS ARGS -cp CLASSES Warmup N Kernel SIZE`: the seconds of each in-process iteration.
fn warmup_run(o: &Options, vm: Vm, kernel: &Kernel) -> Result<Vec<f64>, String> {
    let n = o.warmup;
    let mut cmd = base_command(o, vm, &[], kernel);
    cmd.arg("Warmup")
        .arg(n.to_string())
        .arg(kernel.name)
        .arg(&o.size);
    let timeout = o
        .timeout
        .saturating_mul(u32::try_from(n).unwrap_or(u32::MAX));
    match run_once(cmd, timeout) {
        Outcome::Ok { stderr, .. } => iteration_secs(&stderr, n),
        Outcome::Failed { why, .. } => Err(format!("failed ({why})")),
        Outcome::TimedOut => Err(format!("timed out after {:.0} s", timeout.as_secs_f64())),
    }
}

/// The seconds of iterations 1 to `n` from the harness's `metric iteration_K MS ms` lines.
fn iteration_secs(stderr: &str, n: usize) -> Result<Vec<f64>, String> {
    let found = metrics::parse(stderr);
    let secs: Vec<f64> = (1..=n)
        .map_while(|k| {
            let name = format!("iteration_{k}");
            found.iter().find(|m| m.name == name && m.unit == "ms")
        })
        .map(|m| m.value / 1000.0)
        .collect();
    if secs.len() == n {
        Ok(secs)
    } else {
        Err(format!("printed {} of {n} iteration times", secs.len()))
    }
}

/// `VM FLAGS EXTRA ARGS -cp CLASSES Kernel SIZE`.
fn vm_command(o: &Options, vm: Vm, extra: &[&str], kernel: &Kernel) -> Command {
    let mut c = base_command(o, vm, extra, kernel);
    c.arg(kernel.name).arg(&o.size);
    c
}

/// `VM FLAGS EXTRA ARGS -cp CLASSES`, the main class and its arguments to follow.
fn base_command(o: &Options, vm: Vm, extra: &[&str], kernel: &Kernel) -> Command {
    let mut c = Command::new(if vm.is_jxvm() { &o.jxvm } else { &o.java });
    c.args(vm.flags())
        .args(extra)
        .args(kernel.vm_args)
        .arg("-cp")
        .arg(&o.classes);
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

/// One line per VM that failed a kernel, and per failed compile run.
fn problems(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .flat_map(|r| {
            let runs = r.vms.iter().filter_map(move |(vm, v)| {
                v.problem
                    .as_ref()
                    .map(|p| format!("{} on {}: {p}", r.name(), vm.label()))
            });
            let compile = match &r.compiles {
                Some(Err(e)) => Some(format!("{} on jxvm -XX:+PrintCompilation: {e}", r.name())),
                _ => None,
            };
            let warmup = r.warmup.iter().filter_map(move |(vm, w)| {
                w.as_ref()
                    .err()
                    .map(|e| format!("{} on {} (warm-up harness): {e}", r.name(), vm.label()))
            });
            runs.chain(compile).chain(warmup)
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

    fn args(c: &Command) -> Vec<String> {
        c.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn commands_of_each_vm() {
        let o = crate::options::parse(
            "--jxvm /j/jxvm --java /h/java --classes /c --size large --only NBody"
                .split_whitespace()
                .map(String::from),
        )
        .unwrap();
        let k = o.kernels[0];
        let c1 = vm_command(&o, Vm::JavaC1, &[], k);
        assert_eq!(c1.get_program(), "/h/java");
        assert_eq!(
            args(&c1),
            ["-XX:TieredStopAtLevel=1", "-cp", "/c", "NBody", "large"]
        );
        let print = vm_command(&o, Vm::Jxvm, &["-XX:+PrintCompilation"], k);
        assert_eq!(print.get_program(), "/j/jxvm");
        assert_eq!(args(&print)[0], "-XX:+PrintCompilation");
        assert_eq!(args(&vm_command(&o, Vm::JxvmInt, &[], k))[0], "-Xint");
        let mut warm = base_command(&o, Vm::Java, &[], k);
        warm.arg("Warmup");
        assert_eq!(args(&warm), ["-cp", "/c", "Warmup"]);
    }

    #[test]
    fn problems_name_the_vm_and_the_compile_run() {
        let kernel = &crate::suite::MAIN.kernels[7];
        let row = Row {
            kernel,
            vms: vec![
                (Vm::Jxvm, VmResult::default()),
                (
                    Vm::JavaC1,
                    VmResult {
                        problem: Some("timed out after 9 s".into()),
                        ..VmResult::default()
                    },
                ),
            ],
            compiles: Some(Err("failed (exit 134)".into())),
            warmup: vec![
                (Vm::Jxvm, Ok(vec![1.0])),
                (Vm::Java, Err("printed 0 of 1 iteration times".into())),
            ],
        };
        assert_eq!(
            problems(&[row]),
            [
                "NBody on java C1: timed out after 9 s",
                "NBody on jxvm -XX:+PrintCompilation: failed (exit 134)",
                "NBody on java (warm-up harness): printed 0 of 1 iteration times"
            ]
        );
    }

    #[test]
    fn iteration_times_of_the_harness() {
        let err = "metric iteration_1 64.5 ms\nmetric other 3 ms\nmetric iteration_2 48 ms\n";
        assert_eq!(iteration_secs(err, 2), Ok(vec![0.0645, 0.048]));
        assert_eq!(
            iteration_secs(err, 3),
            Err("printed 2 of 3 iteration times".into())
        );
        assert_eq!(
            iteration_secs("metric iteration_2 48 ms\n", 2),
            Err("printed 0 of 2 iteration times".into())
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
