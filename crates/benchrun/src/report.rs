//! The report of a suite: the tables (printed and written as markdown) and the environment they
//! were measured in (date, machine, commit, HotSpot's version, load average).

use crate::compiles::CompileStats;
use crate::gclog::PauseSummary;
use crate::metrics::is_time;
use crate::options::Options;
use crate::runner::{Results, Row, VmResult};
use crate::stats::{geomean, ratio};
use crate::suite::{Layout, Suite};
use crate::vms::{Vm, pair_label};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// The table (or tables) of a suite's results.
pub fn tables(o: &Options, rows: &[Row]) -> String {
    let suite = o.suite;
    let mut s = match suite.layout {
        Layout::Times => time_table(suite, rows),
        Layout::Gc => format!("{}\n{}", gc_table(o, rows), ratio_table(suite, rows)),
        Layout::Metrics => format!(
            "{}\nWhole runs, start-up included:\n\n{}",
            metric_table(suite, rows),
            time_table(suite, rows)
        ),
    };
    if rows.iter().any(|r| r.compiles.is_some()) {
        s.push_str(
            "\nJIT compilation, from one more jxvm run per kernel with -XX:+PrintCompilation \
             (not timed):\n\n",
        );
        s.push_str(&compile_table(rows));
    }
    if rows.iter().any(|r| !r.warmup.is_empty()) {
        s.push_str(
            "\nWarm-up: seconds per run of the kernel, run again and again in one VM (the \
             Warmup harness; not timed in the medians):\n\n",
        );
        s.push_str(&warmup_table(rows));
    }
    s
}

/// The heading and alignment lines: the `first` columns (left-aligned), one column per VM of
/// the suite (its label then `unit`) and one per ratio, all right-aligned.
fn heading(suite: &Suite, first: &[&str], unit: &str) -> String {
    let vms = suite.vms.iter().map(|v| format!("{}{unit}", v.label()));
    let ratios = suite.ratios.iter().map(|&p| pair_label(p));
    let names: Vec<String> = first
        .iter()
        .map(|f| f.to_string())
        .chain(vms)
        .chain(ratios)
        .collect();
    let aligns: Vec<&str> = (0..names.len())
        .map(|i| if i < first.len() { "---" } else { "---:" })
        .collect();
    format!("| {} |\n|{}|\n", names.join(" | "), aligns.join("|"))
}

/// The geometric mean of each ratio column (`None` for a missing ratio), with the count of
/// kernels in it when some are missing.
fn mean_cells(columns: &[Vec<Option<f64>>], of: usize) -> String {
    let cells: Vec<String> = columns
        .iter()
        .map(|c| {
            let n = c.iter().flatten().count();
            let g = format!("**{}**", fmt_ratio(geomean(c.iter().flatten().copied())));
            if n == of {
                g
            } else {
                format!("{g} ({n} of {of})")
            }
        })
        .collect();
    cells.join(" | ")
}

/// The figures the programs measured (medians of their `metric` lines), one line per figure,
/// with the suite's ratios and their geometric means over the time figures.
fn metric_table(suite: &Suite, rows: &[Row]) -> String {
    let mut s = heading(suite, &["kernel", "figure", "unit"], "");
    let mut columns: Vec<Vec<Option<f64>>> = vec![Vec::new(); suite.ratios.len()];
    for r in rows {
        let keys = r.metric_keys();
        if keys.is_empty() {
            let cells: Vec<_> = r
                .vms
                .iter()
                .map(|(_, v)| fmt_cell(v, None, fmt_figure))
                .collect();
            let dashes = vec!["-"; suite.ratios.len()].join(" | ");
            let _ = writeln!(
                s,
                "| {} | - | - | {} | {dashes} |",
                r.name(),
                cells.join(" | ")
            );
        }
        for (i, (name, unit)) in keys.into_iter().enumerate() {
            let value = |vm| r.result(vm).and_then(|v| v.metric(name, unit));
            let ratios: Vec<_> = suite
                .ratios
                .iter()
                .map(|&(a, b)| ratio(value(a), value(b)))
                .collect();
            if is_time(unit) {
                columns
                    .iter_mut()
                    .zip(&ratios)
                    .for_each(|(c, x)| c.push(*x));
            }
            let cells: Vec<_> = r
                .vms
                .iter()
                .map(|(_, v)| fmt_cell(v, v.metric(name, unit), fmt_figure))
                .collect();
            let ratios: Vec<_> = ratios.into_iter().map(fmt_ratio).collect();
            let _ = writeln!(
                s,
                "| {} | {name} | {unit} | {} | {} |",
                if i == 0 { r.name() } else { "" },
                cells.join(" | "),
                ratios.join(" | "),
            );
        }
    }
    let blanks = "| ".repeat(3 + suite.vms.len());
    let of = columns.first().map_or(0, Vec::len);
    let _ = writeln!(
        s,
        "| **geometric mean** (of the {of} time figures) {blanks}{} |",
        mean_cells(&columns, of)
    );
    s
}

/// Median wall times on each VM and the suite's ratios, with their geometric means.
fn time_table(suite: &Suite, rows: &[Row]) -> String {
    let mut s = heading(suite, &["kernel"], " (s)");
    let mut columns: Vec<Vec<Option<f64>>> = vec![Vec::new(); suite.ratios.len()];
    for r in rows {
        let cells: Vec<_> = r.vms.iter().map(|(_, v)| fmt_secs(v)).collect();
        let ratios: Vec<_> = suite.ratios.iter().map(|&p| r.ratio(p)).collect();
        columns
            .iter_mut()
            .zip(&ratios)
            .for_each(|(c, x)| c.push(*x));
        let ratios: Vec<_> = ratios.into_iter().map(fmt_ratio).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            r.name(),
            cells.join(" | "),
            ratios.join(" | ")
        );
    }
    let all = rows.iter().filter(|r| r.all_ran()).count();
    let _ = writeln!(
        s,
        "| **geometric mean** ({all} of {} kernels ran on every VM) {}{} |",
        rows.len(),
        "| ".repeat(1 + suite.vms.len()),
        mean_cells(&columns, rows.len())
    );
    s
}

/// The warm-up runs: seconds per in-process iteration, one line per kernel and VM.
fn warmup_table(rows: &[Row]) -> String {
    let n = rows
        .iter()
        .flat_map(|r| &r.warmup)
        .filter_map(|(_, w)| w.as_ref().ok().map(Vec::len))
        .max()
        .unwrap_or(0);
    let heads: Vec<_> = (1..=n).map(|i| i.to_string()).collect();
    let mut s = format!(
        "| kernel | VM | {} |\n|---|---|{}\n",
        heads.join(" | "),
        "---:|".repeat(n)
    );
    for r in rows {
        for (i, (vm, w)) in r.warmup.iter().enumerate() {
            let cells: Vec<_> = (0..n)
                .map(|k| match w {
                    Ok(secs) => secs.get(k).map_or("-".into(), |t| format!("{t:.3}")),
                    Err(_) => "FAIL".into(),
                })
                .collect();
            let name = if i == 0 { r.name() } else { "" };
            let _ = writeln!(s, "| {name} | {} | {} |", vm.label(), cells.join(" | "));
        }
    }
    s
}

/// The compile statistics of the `-XX:+PrintCompilation` runs, with their totals.
fn compile_table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| kernel | methods compiled | skipped | bytecode (bytes) | code (bytes) | \
         code / bytecode | compile time (ms) |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = CompileStats::default();
    for r in rows {
        match &r.compiles {
            Some(Ok(c)) => {
                let _ = writeln!(s, "| {} | {} |", r.name(), compile_cells(c));
                total.methods += c.methods;
                total.skipped += c.skipped;
                total.bytecode_bytes += c.bytecode_bytes;
                total.code_bytes += c.code_bytes;
                total.compile_us += c.compile_us;
            }
            Some(Err(_)) => {
                let _ = writeln!(s, "| {} | FAIL | | | | | |", r.name());
            }
            None => {}
        }
    }
    let _ = writeln!(s, "| **total** | {} |", compile_cells(&total));
    s
}

/// The cells of one line of the compile table.
fn compile_cells(c: &CompileStats) -> String {
    let per = ratio(Some(c.code_bytes as f64), Some(c.bytecode_bytes as f64));
    format!(
        "{} | {} | {} | {} | {} | {:.1}",
        c.methods,
        c.skipped,
        c.bytecode_bytes,
        c.code_bytes,
        per.map_or("-".into(), |x| format!("{x:.1}")),
        c.compile_us as f64 / 1000.0
    )
}

/// The GC suite's table: one line per kernel and VM.
fn gc_table(o: &Options, rows: &[Row]) -> String {
    let mut s = String::from(
        "| kernel | VM | time (s) | peak RSS (MB) | allocation (MB/s) | GC pauses | \
         median pause (ms) | p99 pause (ms) | max pause (ms) | paused (s) |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let allocated = r.kernel.allocated_mb(&o.size);
        for (i, (vm, v)) in r.vms.iter().enumerate() {
            let name = if i == 0 { r.name() } else { "" };
            let rate = allocated.and_then(|mb| v.secs.map(|t| fmt_rate(mb, t)));
            let _ = writeln!(
                s,
                "| {name} | {} | {} | {} | {} | {} |",
                vm.label(),
                fmt_secs(v),
                v.peak_rss_kb.map_or("-".into(), fmt_rss),
                rate.unwrap_or_else(|| "-".into()),
                fmt_pauses(v.pauses.as_ref()),
            );
        }
    }
    s
}

/// jxvm over HotSpot per kernel: wall time (the suite's ratios), and peak RSS against `java`.
fn ratio_table(suite: &Suite, rows: &[Row]) -> String {
    let times: Vec<_> = suite
        .ratios
        .iter()
        .map(|&p| format!("time {}", pair_label(p)))
        .collect();
    let mut s = format!(
        "| kernel | {} | peak RSS jxvm / java |\n|---|{}---:|\n",
        times.join(" | "),
        "---:|".repeat(times.len())
    );
    for r in rows {
        let rss = |vm| r.result(vm).and_then(|v| v.peak_rss_kb);
        let ratios: Vec<_> = suite
            .ratios
            .iter()
            .map(|&p| fmt_ratio(r.ratio(p)))
            .collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            r.name(),
            ratios.join(" | "),
            fmt_ratio(ratio(rss(Vm::Jxvm), rss(Vm::Java)))
        );
    }
    s
}

/// A time cell: the median, or what went wrong.
fn fmt_secs(v: &VmResult) -> String {
    fmt_cell(v, v.secs, |s| format!("{s:.3}"))
}

/// A cell of VM `v`'s: what went wrong, else `value` formatted, else `-`.
fn fmt_cell(v: &VmResult, value: Option<f64>, fmt: fn(f64) -> String) -> String {
    match (value, &v.problem) {
        (_, Some(p)) if p.starts_with("WRONG") => "WRONG".into(),
        (_, Some(p)) if p.starts_with("timed out") => "TIMEOUT".into(),
        (_, Some(_)) => "FAIL".into(),
        (Some(x), None) => fmt(x),
        (None, None) => "-".into(),
    }
}

/// A measured figure with four significant digits or so (whole numbers from 1000 on).
fn fmt_figure(v: f64) -> String {
    let decimals = match v.abs() {
        a if a >= 1000.0 => 0,
        a if a >= 100.0 => 1,
        a if a >= 10.0 => 2,
        _ => 3,
    };
    format!("{v:.decimals$}")
}

fn fmt_ratio(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

/// Kilobytes as whole megabytes (MiB).
fn fmt_rss(kb: f64) -> String {
    format!("{:.0}", kb / 1024.0)
}

/// Megabytes allocated over seconds taken, as whole MB/s.
fn fmt_rate(mb: f64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.0}", mb / secs)
    } else {
        "-".into()
    }
}

/// Milliseconds with three significant digits or so.
fn fmt_ms(ms: Option<f64>) -> String {
    match ms {
        Some(ms) if ms < 10.0 => format!("{ms:.2}"),
        Some(ms) if ms < 100.0 => format!("{ms:.1}"),
        Some(ms) => format!("{ms:.0}"),
        None => "-".into(),
    }
}

/// The pause columns: count, median, p99, max and total.
fn fmt_pauses(p: Option<&PauseSummary>) -> String {
    let Some(p) = p else {
        return "- | - | - | - | -".into();
    };
    let count = if p.count.fract() == 0.0 {
        format!("{:.0}", p.count)
    } else {
        format!("{:.1}", p.count)
    };
    format!(
        "{count} | {} | {} | {} | {:.2}",
        fmt_ms(p.median_ms),
        fmt_ms(p.p99_ms),
        fmt_ms(p.max_ms),
        p.total_secs
    )
}

/// The markdown file: the environment, the tables, the problems and the kernels.
pub fn markdown(o: &Options, results: &Results, tables: &str) -> String {
    let mut s = format!("# {}\n\n", o.suite.title);
    s.push_str(&environment(o, results));
    s.push('\n');
    s.push_str(tables);
    s.push('\n');
    s.push_str(notes(o));
    if results.problems.is_empty() {
        s.push_str("All checksums match HotSpot's.\n");
    } else {
        s.push_str("## Problems\n\n");
        for p in &results.problems {
            let _ = writeln!(s, "- {p}");
        }
    }
    s.push_str("\n## Kernels\n\n");
    for r in &results.rows {
        let _ = write!(s, "- `{}`", r.name());
        if !r.kernel.vm_args.is_empty() {
            let _ = write!(s, " (`{}`)", r.kernel.vm_args.join(" "));
        }
        let _ = writeln!(s, ": {}", r.kernel.what);
    }
    s
}

fn notes(o: &Options) -> &'static str {
    match o.suite.layout {
        Layout::Gc => {
            "Wall time and peak RSS are medians over the runs. MB/s is the volume the program \
         allocates (counted with HotSpot's object sizes) over the wall time, start-up included. \
         Pauses: the `Pause` lines of `-Xlog:gc`; count and total are medians per run, median, \
         p99 and max are over the pauses of all runs. Ratios above 1 mean jxvm is slower or \
         bigger. Every program's stdout, GC log taken out, is compared with HotSpot's.\n\n"
        }
        Layout::Metrics => {
            "The figures are measured by each program itself with \
         `System.nanoTime` around its timed loop only, after a warm-up (start-up and warm-up \
         excluded), and printed as `metric NAME VALUE UNIT` lines on stderr; the table gives \
         their medians over the runs (us = microseconds). Ratios above 1 mean jxvm is slower, \
         except for the speed-up (unit x: 1-thread time over 2-thread time, higher is better), \
         whose ratio compares the speed-ups and is left out of the geometric mean. The machine \
         is shared: figures that involve 2 threads depend on the other load on its 2 cores. \
         Every program's stdout (its checksum line) is compared with HotSpot's.\n\n"
        }
        Layout::Times => {
            "Ratios above 1 mean the first VM is slower; `java C1` is \
         `java -XX:TieredStopAtLevel=1`, and jxvm / jxvm -Xint is the JIT's own gain. Every \
         program's stdout (its checksum line) is compared with HotSpot's (`java`). The compile \
         table sums the `-XX:+PrintCompilation` lines of one more jxvm run per kernel (the class \
         library's methods included; compile time is on the background compiler threads).\n\n"
        }
    }
}

fn environment(o: &Options, results: &Results) -> String {
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut s = String::new();
    let _ = writeln!(s, "- date: {}", today());
    let _ = writeln!(s, "- machine: nproc {nproc}, {}", cpu_model());
    let _ = writeln!(
        s,
        "- size: `{}`; {} iterations of each VM, interleaved; wall time per run, median shown",
        o.size, o.iterations
    );
    if !o.label.is_empty() {
        let _ = writeln!(s, "- jxvm: {}", o.label);
    }
    let _ = writeln!(s, "- HotSpot: {}", java_version(&o.java));
    if let Some(c) = &results.collector {
        let _ = writeln!(s, "- HotSpot's collector (from its log): {c}");
    }
    let _ = writeln!(
        s,
        "- load average (1 min) at the start and at the end: {} and {}",
        o.load_start,
        load_average()
    );
    let _ = writeln!(s, "- total time of the run: {:.0} s", results.secs);
    s
}

/// The one-minute load average: other work on the machine while the suite ran.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| "unknown".into())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn java_version(java: &Path) -> String {
    Command::new(java)
        .arg("-version")
        .output()
        .ok()
        .map(|o| {
            let s = String::from_utf8_lossy(&o.stderr).into_owned();
            s.lines().nth(1).unwrap_or("").trim().to_string()
        })
        .unwrap_or_default()
}

/// Today's UTC date and time, from the system clock (days-to-civil conversion).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_and_rate_formatting() {
        assert_eq!(fmt_rss(76220.0), "74");
        assert_eq!(fmt_rss(279_184.0), "273");
        assert_eq!(fmt_rate(2048.0, 9.44), "217");
        assert_eq!(fmt_rate(2048.0, 0.0), "-");
    }

    #[test]
    fn time_and_problem_cells() {
        let ok = VmResult {
            secs: Some(1.23456),
            ..VmResult::default()
        };
        assert_eq!(fmt_secs(&ok), "1.235");
        let wrong = VmResult {
            problem: Some("WRONG CHECKSUM: x".into()),
            ..VmResult::default()
        };
        assert_eq!(fmt_secs(&wrong), "WRONG");
        let slow = VmResult {
            problem: Some("timed out after 9 s".into()),
            ..VmResult::default()
        };
        assert_eq!(fmt_secs(&slow), "TIMEOUT");
        assert_eq!(fmt_secs(&VmResult::default()), "-");
    }

    #[test]
    fn figure_cells() {
        assert_eq!(fmt_figure(1234.56), "1235");
        assert_eq!(fmt_figure(588.72), "588.7");
        assert_eq!(fmt_figure(35.424), "35.42");
        assert_eq!(fmt_figure(1.3416), "1.342");
        assert_eq!(fmt_figure(0.0123), "0.012");
    }

    #[test]
    fn metric_table_lines() {
        use crate::metrics::MetricSummary;
        let fig = |name: &str, unit: &str, median: f64| MetricSummary {
            name: name.into(),
            unit: unit.into(),
            median,
        };
        let vm = |figs: Vec<MetricSummary>| VmResult {
            metrics: figs,
            ..VmResult::default()
        };
        let kernel = &crate::suite::THREADS.kernels[0];
        let rows = [Row {
            kernel,
            vms: vec![
                (
                    Vm::Jxvm,
                    vm(vec![fig("lock", "ns", 40.0), fig("speedup", "x", 1.5)]),
                ),
                (
                    Vm::JavaInt,
                    vm(vec![fig("lock", "ns", 20.0), fig("speedup", "x", 1.8)]),
                ),
                (Vm::Java, failed()),
            ],
            compiles: None,
            warmup: Vec::new(),
        }];
        let t = metric_table(&crate::suite::THREADS, &rows);
        let lines: Vec<_> = t.lines().collect();
        assert_eq!(
            lines[0],
            "| kernel | figure | unit | jxvm | java -Xint | java | jxvm / java -Xint | jxvm / java |"
        );
        assert_eq!(lines[1], "|---|---|---|---:|---:|---:|---:|---:|");
        assert_eq!(
            lines[2],
            format!(
                "| {} | lock | ns | 40.00 | 20.00 | FAIL | 2.00 | - |",
                kernel.name
            )
        );
        assert_eq!(
            lines[3],
            "|  | speedup | x | 1.500 | 1.800 | FAIL | 0.83 | - |"
        );
        assert_eq!(
            lines[4],
            "| **geometric mean** (of the 1 time figures) | | | | | | **2.00** | **-** (0 of 1) |"
        );
    }

    fn failed() -> VmResult {
        VmResult {
            problem: Some("failed (exit 1)".into()),
            ..VmResult::default()
        }
    }

    /// A row of the main suite with the given medians (`None`: the VM failed), in the order of
    /// `vms::FIVE`.
    fn five(secs: [Option<f64>; 5], compiles: Option<Result<CompileStats, String>>) -> Row {
        let vms = crate::vms::FIVE.iter().zip(secs);
        Row {
            kernel: &crate::suite::MAIN.kernels[0],
            vms: vms
                .map(|(&vm, s)| match s {
                    Some(_) => (
                        vm,
                        VmResult {
                            secs: s,
                            ..VmResult::default()
                        },
                    ),
                    None => (vm, failed()),
                })
                .collect(),
            compiles,
            warmup: Vec::new(),
        }
    }

    #[test]
    fn time_table_of_five_vms() {
        let rows = [
            five(
                [Some(2.0), Some(8.0), Some(1.0), Some(4.0), Some(4.0)],
                None,
            ),
            five([Some(1.0), Some(2.0), Some(2.0), Some(1.0), None], None),
        ];
        let t = time_table(&crate::suite::MAIN, &rows);
        let lines: Vec<_> = t.lines().collect();
        assert_eq!(
            lines[0],
            "| kernel | jxvm (s) | jxvm -Xint (s) | java (s) | java C1 (s) | java -Xint (s) | \
             jxvm / java | jxvm / java C1 | jxvm -Xint / java -Xint | jxvm / jxvm -Xint |"
        );
        assert_eq!(
            lines[1],
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        assert_eq!(
            lines[2],
            "| Series | 2.000 | 8.000 | 1.000 | 4.000 | 4.000 | 2.00 | 0.50 | 2.00 | 0.25 |"
        );
        assert_eq!(
            lines[3],
            "| Series | 1.000 | 2.000 | 2.000 | 1.000 | FAIL | 0.50 | 1.00 | - | 0.50 |"
        );
        // Geometric means: sqrt(2 * 0.5) = 1, sqrt(0.5 * 1), 2 alone, sqrt(0.25 * 0.5).
        assert_eq!(
            lines[4],
            "| **geometric mean** (1 of 2 kernels ran on every VM) | | | | | | \
             **1.00** | **0.71** | **2.00** (1 of 2) | **0.35** |"
        );
    }

    #[test]
    fn compile_table_with_totals() {
        let stats = CompileStats {
            methods: 3,
            skipped: 1,
            bytecode_bytes: 400,
            code_bytes: 5000,
            compile_us: 17_650,
        };
        let t = [Some(1.0); 5];
        let rows = [
            five(t, Some(Ok(stats.clone()))),
            five(t, Some(Err("failed (exit 1)".into()))),
            five(t, Some(Ok(stats))),
        ];
        let s = tables_of(&rows);
        let table = s.split("(not timed):\n\n").nth(1).expect("a compile table");
        let lines: Vec<_> = table.lines().collect();
        assert_eq!(lines[2], "| Series | 3 | 1 | 400 | 5000 | 12.5 | 17.6 |");
        assert_eq!(lines[3], "| Series | FAIL | | | | | |");
        assert_eq!(
            lines[5],
            "| **total** | 6 | 2 | 800 | 10000 | 12.5 | 35.3 |"
        );
        assert!(!tables_of(&[five(t, None)]).contains("PrintCompilation"));
    }

    #[test]
    fn warmup_lines() {
        let mut row = five([Some(1.0); 5], None);
        row.warmup = vec![
            (Vm::Jxvm, Ok(vec![0.5, 0.25])),
            (Vm::Java, Err("failed (exit 1)".into())),
        ];
        let t = tables_of(&[row]);
        let table = t
            .split("in the medians):\n\n")
            .nth(1)
            .expect("a warm-up table");
        let lines: Vec<_> = table.lines().collect();
        assert_eq!(lines[0], "| kernel | VM | 1 | 2 |");
        assert_eq!(lines[1], "|---|---|---:|---:|");
        assert_eq!(lines[2], "| Series | jxvm | 0.500 | 0.250 |");
        assert_eq!(lines[3], "|  | java | FAIL | FAIL |");
        assert!(!tables_of(&[five([Some(1.0); 5], None)]).contains("Warm-up"));
    }

    fn tables_of(rows: &[Row]) -> String {
        let o = crate::options::parse(["--iterations".to_string(), "1".to_string()]).unwrap();
        tables(&o, rows)
    }

    #[test]
    fn pause_cells() {
        let p = PauseSummary {
            count: 162.0,
            median_ms: Some(3.4461),
            p99_ms: Some(21.23),
            max_ms: Some(140.5),
            total_secs: 0.6789,
        };
        assert_eq!(fmt_pauses(Some(&p)), "162 | 3.45 | 21.2 | 140 | 0.68");
        let none = PauseSummary {
            count: 0.5,
            median_ms: None,
            p99_ms: None,
            max_ms: None,
            total_secs: 0.0,
        };
        assert_eq!(fmt_pauses(Some(&none)), "0.5 | - | - | - | 0.00");
        assert_eq!(fmt_pauses(None), "- | - | - | - | -");
    }

    #[test]
    fn today_is_a_date() {
        let t = today();
        assert_eq!(t.len(), "2026-11-22 16:39 UTC".len());
        assert!(t.ends_with(" UTC"));
    }
}
