//! The runner of the jxvm benchmark suite (`bench/run` calls it).
//!
//! It runs every kernel of `bench/java` on jxvm, `java -Xint` and `java`, interleaved round
//! robin (one run of each VM per kernel and iteration, the starting VM rotating), measures the
//! wall time of each run, checks every program's stdout against HotSpot's, and prints a table
//! of medians with the ratios jxvm/`java -Xint` and jxvm/`java` and their geometric means. It
//! writes the table as markdown and a PNG bar chart of jxvm/`java -Xint`.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod chart;

/// The kernels, in the order of the table.
const KERNELS: &[(&str, &str)] = &[
    (
        "Series",
        "Java Grande: Fourier coefficients (pow, sin, cos)",
    ),
    ("LUFact", "Java Grande: LU factorisation and solve"),
    ("SOR", "Java Grande: successive over-relaxation"),
    ("FFT", "Java Grande: complex radix-2 FFT"),
    ("SparseMatmult", "Java Grande: sparse matrix times vector"),
    ("HeapSort", "Java Grande: heap sort of ints"),
    ("Crypt", "Java Grande: IDEA encrypt and decrypt"),
    ("NBody", "Benchmarks Game: n-body"),
    ("SpectralNorm", "Benchmarks Game: spectral-norm"),
    ("Fannkuch", "Benchmarks Game: fannkuch-redux"),
    ("BinaryTrees", "Benchmarks Game: binary-trees (allocation)"),
    ("Mandelbrot", "Benchmarks Game: mandelbrot"),
    ("Fasta", "Benchmarks Game: fasta"),
    (
        "CollStrings",
        "HashMap, ArrayList, StringBuilder, split, sort",
    ),
    (
        "Dispatch",
        "virtual and interface calls, mono- to megamorphic",
    ),
    ("Hello", "start-up: Hello World"),
];

const VMS: [&str; 3] = ["jxvm", "java -Xint", "java"];
const JXVM: usize = 0;
const XINT: usize = 1;
const JIT: usize = 2;

struct Options {
    jxvm: PathBuf,
    java: PathBuf,
    classes: PathBuf,
    results: PathBuf,
    size: String,
    iterations: usize,
    timeout: Duration,
    only: Vec<String>,
    label: String,
    load_start: String,
}

fn usage() -> String {
    "usage: benchrun --jxvm PATH --classes DIR [--java PATH] [--results DIR] [--size small|large] \
     [--iterations N] [--timeout SECONDS] [--label TEXT] [--only NAME...]"
        .to_string()
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        jxvm: PathBuf::from("target/release/jxvm"),
        java: PathBuf::from("java"),
        classes: PathBuf::from("target/bench-classes"),
        results: PathBuf::from("bench/results"),
        size: "small".into(),
        iterations: 5,
        timeout: Duration::from_secs(300),
        only: Vec::new(),
        label: String::new(),
        load_start: load_average(),
    };
    let mut args = std::env::args().skip(1).peekable();
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{a} needs a value\n{}", usage()))
        };
        match a.as_str() {
            "--jxvm" => o.jxvm = value()?.into(),
            "--java" => o.java = value()?.into(),
            "--classes" => o.classes = value()?.into(),
            "--results" => o.results = value()?.into(),
            "--label" => o.label = value()?,
            "--size" => {
                o.size = value()?;
                if o.size != "small" && o.size != "large" {
                    return Err(format!("--size must be small or large, not {}", o.size));
                }
            }
            "--iterations" => {
                o.iterations = value()?.parse().map_err(|e| format!("--iterations: {e}"))?;
                if o.iterations == 0 {
                    return Err("--iterations must be at least 1".into());
                }
            }
            "--timeout" => {
                let s: f64 = value()?.parse().map_err(|e| format!("--timeout: {e}"))?;
                o.timeout = Duration::from_secs_f64(s);
            }
            "--only" => {
                while let Some(n) = args.next_if(|n| !n.starts_with("--")) {
                    o.only
                        .extend(n.split(',').filter(|s| !s.is_empty()).map(String::from));
                }
            }
            "-h" | "--help" => return Err(usage()),
            _ => return Err(format!("unknown argument {a}\n{}", usage())),
        }
    }
    for name in &o.only {
        if !KERNELS.iter().any(|(k, _)| k.eq_ignore_ascii_case(name)) {
            let all: Vec<_> = KERNELS.iter().map(|k| k.0).collect();
            return Err(format!(
                "unknown kernel {name}; the kernels: {}",
                all.join(" ")
            ));
        }
    }
    Ok(o)
}

/// What one run of one kernel on one VM gave.
enum Outcome {
    Ok { secs: f64, stdout: String },
    Failed { secs: f64, why: String },
    TimedOut,
}

fn vm_command(o: &Options, vm: usize, kernel: &str) -> Command {
    let mut c = match vm {
        JXVM => Command::new(&o.jxvm),
        XINT => {
            let mut c = Command::new(&o.java);
            c.arg("-Xint");
            c
        }
        _ => Command::new(&o.java),
    };
    c.arg("-cp").arg(&o.classes).arg(kernel).arg(&o.size);
    c
}

fn run_once(mut cmd: Command, timeout: Duration) -> Outcome {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so that a time-out kills whatever it started too.
    cmd.process_group(0);
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Failed {
                secs: 0.0,
                why: format!("cannot start: {e}"),
            };
        }
    };
    let pipe_reader = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            String::from_utf8_lossy(&v).into_owned()
        })
    };
    let out = pipe_reader(Box::new(child.stdout.take().expect("piped stdout")));
    let err = pipe_reader(Box::new(child.stderr.take().expect("piped stderr")));
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let secs = start.elapsed().as_secs_f64();
        let _ = tx.send(());
        (status, secs)
    });
    let timed_out = rx.recv_timeout(timeout).is_err();
    if timed_out {
        // Our own child's group: the child is not reaped yet (the waiter is still blocked in
        // wait()), so the pid cannot have been reused.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .status();
    }
    let (status, secs) = waiter.join().expect("waiter thread");
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if timed_out {
        return Outcome::TimedOut;
    }
    match status {
        Ok(s) if s.success() => Outcome::Ok { secs, stdout },
        Ok(s) => {
            let first = stderr
                .lines()
                .find(|l| !l.trim().is_empty())
                .or_else(|| stdout.lines().last())
                .unwrap_or("")
                .trim()
                .to_string();
            let mut why = match s.code() {
                Some(c) => format!("exit {c}"),
                None => format!("killed by signal ({s})"),
            };
            if !first.is_empty() {
                why.push_str(": ");
                why.push_str(&first.chars().take(200).collect::<String>());
            }
            Outcome::Failed { secs, why }
        }
        Err(e) => Outcome::Failed {
            secs,
            why: format!("wait failed: {e}"),
        },
    }
}

/// The state of one kernel on one VM across the iterations.
#[derive(Default, Clone)]
struct Cell {
    times: Vec<f64>,
    /// Set once the VM failed on this kernel (failure, time-out or wrong output).
    problem: Option<String>,
    stdout: Option<String>,
}

impl Cell {
    fn median(&self) -> Option<f64> {
        if self.problem.is_some() || self.times.is_empty() {
            return None;
        }
        let mut t = self.times.clone();
        t.sort_by(f64::total_cmp);
        let n = t.len();
        Some(if n % 2 == 1 {
            t[n / 2]
        } else {
            (t[n / 2 - 1] + t[n / 2]) / 2.0
        })
    }
}

pub struct Row {
    pub name: String,
    pub medians: [Option<f64>; 3],
    pub problems: [Option<String>; 3],
}

impl Row {
    pub fn ratio(&self, other: usize) -> Option<f64> {
        match (self.medians[JXVM], self.medians[other]) {
            (Some(a), Some(b)) if b > 0.0 => Some(a / b),
            _ => None,
        }
    }
}

fn geomean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut s, mut n) = (0.0, 0usize);
    for x in v {
        s += x.ln();
        n += 1;
    }
    (n > 0).then(|| (s / n as f64).exp())
}

/// The first line where two outputs differ, from each.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let (mut la, mut lb) = (a.lines(), b.lines());
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return ("(same lines, different line ends)".into(), String::new()),
            (x, y) => {
                let show = |l: Option<&str>| {
                    l.map_or("(end of output)".into(), |l| l.chars().take(300).collect())
                };
                return (show(x), show(y));
            }
        }
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let kernels: Vec<&str> = KERNELS
        .iter()
        .map(|k| k.0)
        .filter(|k| o.only.is_empty() || o.only.iter().any(|n| n.eq_ignore_ascii_case(k)))
        .collect();
    let mut cells: BTreeMap<(&str, usize), Cell> = BTreeMap::new();
    let total = Instant::now();
    eprintln!(
        "benchrun: {} kernels, size {}, {} iterations, VMs interleaved: {}",
        kernels.len(),
        o.size,
        o.iterations,
        VMS.join(", ")
    );
    let mut rotation = 0usize;
    for it in 0..o.iterations {
        for &k in &kernels {
            let mut line = format!("[{}/{}] {k:<14}", it + 1, o.iterations);
            for step in 0..3 {
                let vm = (rotation + step) % 3;
                let cell = cells.entry((k, vm)).or_default();
                if cell.problem.is_some() {
                    continue;
                }
                match run_once(vm_command(&o, vm, k), o.timeout) {
                    Outcome::Ok { secs, stdout } => {
                        if cell.stdout.as_ref().is_some_and(|prev| *prev != stdout) {
                            let (now, before) =
                                first_difference(&stdout, cell.stdout.as_ref().unwrap());
                            cell.problem = Some(format!(
                                "output changed between runs: `{now}`, before `{before}`"
                            ));
                        }
                        cell.stdout.get_or_insert(stdout);
                        cell.times.push(secs);
                        line.push_str(&format!("  {}={secs:.3}s", VMS[vm]));
                    }
                    Outcome::Failed { secs, why } => {
                        line.push_str(&format!("  {}=FAILED after {secs:.1}s", VMS[vm]));
                        cell.problem = Some(format!("failed ({why})"));
                    }
                    Outcome::TimedOut => {
                        line.push_str(&format!("  {}=TIMEOUT", VMS[vm]));
                        cell.problem =
                            Some(format!("timed out after {:.0} s", o.timeout.as_secs_f64()));
                    }
                }
            }
            rotation += 1;
            // Checksums: HotSpot's (java) output is the reference for the other two.
            let reference = cells.get(&(k, JIT)).and_then(|c| c.stdout.clone());
            if let Some(reference) = reference {
                for vm in [JXVM, XINT] {
                    let cell = cells.get_mut(&(k, vm)).expect("cell");
                    let wrong = match (&cell.problem, &cell.stdout) {
                        (None, Some(out)) if *out != reference => {
                            Some(first_difference(out, &reference))
                        }
                        _ => None,
                    };
                    if let Some((got, want)) = wrong {
                        cell.problem = Some(format!(
                            "WRONG CHECKSUM: printed `{got}` where HotSpot printed `{want}`"
                        ));
                        line.push_str(&format!("  {}=WRONG CHECKSUM", VMS[vm]));
                    }
                }
            }
            eprintln!("{line}");
        }
    }
    let rows: Vec<Row> = kernels
        .iter()
        .map(|&k| {
            let c = |vm| cells.get(&(k, vm)).cloned().unwrap_or_default();
            Row {
                name: k.to_string(),
                medians: [c(JXVM).median(), c(XINT).median(), c(JIT).median()],
                problems: [c(JXVM).problem, c(XINT).problem, c(JIT).problem],
            }
        })
        .collect();
    let problems: Vec<String> = rows
        .iter()
        .flat_map(|r| {
            r.problems.iter().enumerate().filter_map(move |(vm, p)| {
                p.as_ref()
                    .map(|p| format!("{} on {}: {p}", r.name, VMS[vm]))
            })
        })
        .collect();
    let elapsed = total.elapsed().as_secs_f64();
    let table = markdown_table(&rows);
    println!("{table}");
    if !problems.is_empty() {
        println!("PROBLEMS ({}):", problems.len());
        for p in &problems {
            println!("  !! {p}");
        }
    }
    let md = markdown_report(&o, &rows, &table, &problems, elapsed);
    if let Err(e) = std::fs::create_dir_all(&o.results) {
        eprintln!("benchrun: cannot create {}: {e}", o.results.display());
        return ExitCode::from(2);
    }
    let md_path = o.results.join("latest.md");
    let png_path = o.results.join("latest.png");
    if let Err(e) = std::fs::write(&md_path, md) {
        eprintln!("benchrun: cannot write {}: {e}", md_path.display());
    }
    let subtitle = format!("size {}, {} iterations, {}", o.size, o.iterations, today());
    match chart::draw(&png_path, &rows, &subtitle) {
        Ok(()) => {}
        Err(e) => eprintln!("benchrun: cannot draw {}: {e}", png_path.display()),
    }
    eprintln!(
        "benchrun: wrote {} and {} ({elapsed:.0} s in all)",
        md_path.display(),
        png_path.display()
    );
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!("benchrun: {} PROBLEM(S), see above", problems.len());
        ExitCode::from(1)
    }
}

fn fmt_secs(v: Option<f64>, problem: &Option<String>) -> String {
    match (v, problem) {
        (_, Some(p)) if p.starts_with("WRONG") => "WRONG".into(),
        (_, Some(p)) if p.starts_with("timed out") => "TIMEOUT".into(),
        (_, Some(_)) => "FAIL".into(),
        (Some(v), None) => format!("{v:.3}"),
        (None, None) => "-".into(),
    }
}

fn fmt_ratio(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

fn markdown_table(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str(
        "| kernel | jxvm (s) | java -Xint (s) | java (s) | jxvm / java -Xint | jxvm / java |\n",
    );
    s.push_str("|---|---:|---:|---:|---:|---:|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.name,
            fmt_secs(r.medians[JXVM], &r.problems[JXVM]),
            fmt_secs(r.medians[XINT], &r.problems[XINT]),
            fmt_secs(r.medians[JIT], &r.problems[JIT]),
            fmt_ratio(r.ratio(XINT)),
            fmt_ratio(r.ratio(JIT)),
        ));
    }
    let gx = geomean(rows.iter().filter_map(|r| r.ratio(XINT)));
    let gj = geomean(rows.iter().filter_map(|r| r.ratio(JIT)));
    let counted = rows.iter().filter(|r| r.ratio(XINT).is_some()).count();
    s.push_str(&format!(
        "| **geometric mean** ({counted} of {} kernels) | | | | **{}** | **{}** |\n",
        rows.len(),
        fmt_ratio(gx),
        fmt_ratio(gj)
    ));
    s
}

/// The one-minute load average: other work on the machine while the suite ran.
fn load_average() -> String {
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
fn today() -> String {
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

fn markdown_report(
    o: &Options,
    rows: &[Row],
    table: &str,
    problems: &[String],
    secs: f64,
) -> String {
    let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut s = String::new();
    s.push_str("# jxvm benchmarks\n\n");
    s.push_str(&format!("- date: {}\n", today()));
    s.push_str(&format!("- machine: nproc {nproc}, {}\n", cpu_model()));
    s.push_str(&format!(
        "- size: `{}`; {} iterations of each VM, interleaved; wall time per run, median shown\n",
        o.size, o.iterations
    ));
    if !o.label.is_empty() {
        s.push_str(&format!("- jxvm: {}\n", o.label));
    }
    s.push_str(&format!("- HotSpot: {}\n", java_version(&o.java)));
    s.push_str(&format!(
        "- load average (1 min) at the start and at the end: {} and {}\n",
        o.load_start,
        load_average()
    ));
    s.push_str(&format!("- total time of the run: {secs:.0} s\n\n"));
    s.push_str(table);
    s.push('\n');
    s.push_str("Ratios above 1 mean jxvm is slower. Every program's stdout (its checksum line) is compared with HotSpot's.\n\n");
    if problems.is_empty() {
        s.push_str("All checksums match HotSpot's.\n");
    } else {
        s.push_str("## Problems\n\n");
        for p in problems {
            s.push_str(&format!("- {p}\n"));
        }
    }
    s.push_str("\n## Kernels\n\n");
    for r in rows {
        let what = KERNELS.iter().find(|k| k.0 == r.name).map_or("", |k| k.1);
        s.push_str(&format!("- `{}`: {what}\n", r.name));
    }
    s
}
