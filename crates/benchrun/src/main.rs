//! The runner of the jxvm benchmark suites (`bench/run`, `bench/gc-run` and `bench/threads-run`
//! call it).
//!
//! It runs every kernel of a suite on the suite's VMs (the main suite: jxvm, `jxvm -Xint`,
//! `java`, `java -XX:TieredStopAtLevel=1` and `java -Xint`; the others: jxvm, `java -Xint` and
//! `java`), interleaved round robin, checks every program's output against HotSpot's, prints the
//! table of medians and ratios (and for the main suite jxvm's compile statistics and the
//! warm-up of jxvm and java in one VM) and writes it
//! as markdown (with a PNG chart for the main suite).
//!
//! - [`suite`]: the suites and their kernels
//! - [`vms`]: the VMs compared, their flags and the ratio columns
//! - [`options`]: the command line
//! - [`process`]: one VM run (time-out, wall time, peak RSS)
//! - [`runner`]: the interleaved runs and the checks against HotSpot
//! - [`compiles`]: jxvm's `-XX:+PrintCompilation` lines and their totals
//! - [`gclog`]: GC log lines on stdout and their pauses
//! - [`metrics`]: the figures programs measure themselves (`metric` lines on stderr)
//! - [`stats`]: median, percentile, geometric mean
//! - [`report`]: the tables and the markdown report
//! - [`chart`]: the PNG chart

use std::process::ExitCode;

mod chart;
mod compiles;
mod gclog;
mod metrics;
mod options;
mod process;
mod report;
mod runner;
mod stats;
mod suite;
mod vms;

fn main() -> ExitCode {
    let o = match options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let results = runner::run_suite(&o);
    let tables = report::tables(&o, &results.rows);
    println!("{tables}");
    if !results.problems.is_empty() {
        println!("PROBLEMS ({}):", results.problems.len());
        for p in &results.problems {
            println!("  !! {p}");
        }
    }
    if let Err(e) = write_results(&o, &results, &tables) {
        eprintln!("benchrun: {e}");
        return ExitCode::from(2);
    }
    if results.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("benchrun: {} PROBLEM(S), see above", results.problems.len());
        ExitCode::from(1)
    }
}

/// Writes `<stem>.md` (and `<stem>.png` for a suite with a chart) in the results directory.
fn write_results(
    o: &options::Options,
    results: &runner::Results,
    tables: &str,
) -> Result<(), String> {
    std::fs::create_dir_all(&o.results)
        .map_err(|e| format!("cannot create {}: {e}", o.results.display()))?;
    let md_path = o.results.join(format!("{}.md", o.suite.stem));
    std::fs::write(&md_path, report::markdown(o, results, tables))
        .map_err(|e| format!("cannot write {}: {e}", md_path.display()))?;
    let mut written = md_path.display().to_string();
    if o.suite.chart {
        let png_path = o.results.join(format!("{}.png", o.suite.stem));
        let subtitle = format!(
            "size {}, {} iterations, {}",
            o.size,
            o.iterations,
            report::today()
        );
        match chart::draw(&png_path, &results.rows, &subtitle) {
            Ok(()) => written.push_str(&format!(" and {}", png_path.display())),
            Err(e) => eprintln!("benchrun: cannot draw {}: {e}", png_path.display()),
        }
    }
    eprintln!("benchrun: wrote {written} ({:.0} s in all)", results.secs);
    Ok(())
}
