//! `jxvm --system FILE`: the README's key-value demo run split over three domains and
//! collocated in one by configuration alone, faults staying in their domain, and bad system
//! descriptions refused with a one-line error.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{javac, jxvm, repo, scratch};

/// The demo's sources compiled into `DIR/classes` with its two descriptions beside them.
fn demo() -> PathBuf {
    let dir = scratch("kv-demo");
    let sources: Vec<String> = ["KeyValue", "Store", "Server", "Client"]
        .iter()
        .map(|c| format!("demo/kv/src/kv/{c}.java"))
        .collect();
    javac(
        &sources.iter().map(String::as_str).collect::<Vec<_>>(),
        &dir.join("classes"),
    );
    for f in ["split.toml", "collocated.toml"] {
        std::fs::copy(repo().join("demo/kv").join(f), dir.join(f)).unwrap();
    }
    dir
}

/// `tests/jx/SystemParts.java` compiled into `DIR/classes`.
fn parts() -> PathBuf {
    let dir = scratch("system-parts");
    javac(&["tests/jx/SystemParts.java"], &dir.join("classes"));
    dir
}

fn run_system(file: &Path, env: &[(&str, &str)]) -> (Output, String, String) {
    let out = jxvm()
        .arg("--system")
        .arg(file)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stdout, stderr)
}

fn has_line(out: &str, line: &str) -> bool {
    out.lines().any(|l| l == line)
}

const SPLIT: &[&str] = &[
    "kv: service registered in domain kv",
    "alice: in domain alice, read back 2000 of 2000 values from the service in domain kv through a portal",
    "bob: in domain bob, read back 2000 of 2000 values from the service in domain kv through a portal",
];

const COLLOCATED: &[&str] = &[
    "kv: service registered in domain all",
    "alice: in domain all, read back 2000 of 2000 values from the service in domain all by plain calls",
    "bob: in domain all, read back 2000 of 2000 values from the service in domain all by plain calls",
];

#[test]
fn the_demo_runs_split_and_collocated_by_configuration_alone() {
    let dir = demo();
    for (file, lines) in [("split.toml", SPLIT), ("collocated.toml", COLLOCATED)] {
        let (out, stdout, stderr) = run_system(&dir.join(file), &[]);
        assert!(out.status.success(), "{file}:\n{stdout}\n{stderr}");
        assert_eq!(stdout.lines().count(), 3, "{file}:\n{stdout}");
        for line in lines {
            assert!(
                has_line(&stdout, line),
                "{file}: missing `{line}` in:\n{stdout}\n{stderr}"
            );
        }
    }
}

/// Both ways under collector stress: every allocation collects, also while the clients'
/// threads contend for the store's monitor (a contended synchronized-method entry that lost
/// its receiver to a collection once left the monitor held forever).
#[test]
fn the_demo_under_collector_stress() {
    let dir = demo();
    for (file, lines) in [("split.toml", SPLIT), ("collocated.toml", COLLOCATED)] {
        let (out, stdout, stderr) = run_system(
            &dir.join(file),
            &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")],
        );
        assert!(out.status.success(), "{file}:\n{stdout}\n{stderr}");
        for line in lines {
            assert!(
                has_line(&stdout, line),
                "{file}: missing `{line}` in:\n{stdout}\n{stderr}"
            );
        }
    }
}

/// Writes a description into `dir` whose domains use `dir/classes`.
fn describe(dir: &Path, name: &str, text: &str) -> PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file
}

const DOMAIN: &str = "[[domain]]\nclass-path = [\"classes\"]\n";

fn domain(name: &str, extra: &str, mains: &[&str]) -> String {
    let mut s = format!("{DOMAIN}name = \"{name}\"\n{extra}\n");
    for m in mains {
        let (class, args) = m.split_once(' ').unwrap_or((m, ""));
        let args: Vec<String> = args
            .split_whitespace()
            .map(|a| format!("\"{a}\""))
            .collect();
        s.push_str(&format!(
            "[[domain.component]]\nmain = \"SystemParts${class}\"\nargs = [{}]\n",
            args.join(", ")
        ));
    }
    s
}

#[test]
fn components_of_one_domain_run_in_threads_of_it() {
    let dir = parts();
    let text = domain("two", "max-threads = 2", &["Hello a", "Hello b"])
        + &domain("one", "", &["Hello c"]);
    let (out, stdout, stderr) = run_system(&describe(&dir, "two.toml", &text), &[]);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for line in ["hello from two a", "hello from two b", "hello from one c"] {
        assert!(
            has_line(&stdout, line),
            "missing `{line}` in:\n{stdout}\n{stderr}"
        );
    }
}

#[test]
fn a_runaway_or_failing_component_harms_only_its_domain() {
    let dir = parts();
    let text = domain("spin", "cpu-time-limit = \"300ms\"", &["Spin"])
        + &domain("fail", "", &["Fail"])
        + &domain("fine", "", &["Hello x"]);
    let (out, stdout, stderr) = run_system(&describe(&dir, "faults.toml", &text), &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a terminated domain and a failed component: exit 1\n{stdout}\n{stderr}"
    );
    assert!(has_line(&stdout, "hello from fine x"), "{stdout}\n{stderr}");
    assert!(
        has_line(
            &stderr,
            "jxvm: domain spin was terminated: CPU time limit of 300 ms exceeded"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("java.lang.IllegalStateException: component failed on purpose"),
        "{stderr}"
    );
}

/// Runs a description that must be refused; returns its one-line error.
fn refused(file: &Path) -> String {
    let (out, stdout, stderr) = run_system(file, &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}:\n{stdout}\n{stderr}",
        file.display()
    );
    assert!(stdout.is_empty(), "no component may run: {stdout}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("Run 'jxvm --help'"))
        .collect();
    assert_eq!(lines.len(), 1, "one line:\n{stderr}");
    lines[0].to_string()
}

#[test]
fn bad_descriptions_are_refused_in_one_line() {
    let dir = parts();
    let cases = [
        (
            "syntax.toml",
            "[[domain]]\nname = \"a\"\nclass-path = [\"classes\"\n".to_string(),
            "line 3",
        ),
        (
            "unknown.toml",
            format!("{DOMAIN}name = \"a\"\nheap = 1\n"),
            "unknown field `heap`",
        ),
        (
            "nomain.toml",
            domain("a", "", &["NoMain"]),
            "main class SystemParts$NoMain has no public static void main(String[])",
        ),
        (
            "absent.toml",
            domain("a", "", &["Absent"]),
            "main class SystemParts$Absent not found",
        ),
        (
            "threads.toml",
            domain("a", "max-threads = 1", &["Hello", "Hello"]),
            "2 components need more threads than the limit of 1",
        ),
        (
            "heap.toml",
            domain("a", "heap-limit = \"1m\"", &["Hello"]),
            "heap limit 1048576 is below the minimum",
        ),
        (
            "path.toml",
            domain("a", "", &["Hello"]).replace("\"classes\"", "\"missing-dir\""),
            "is not a directory or a jar",
        ),
    ];
    for (name, text, want) in cases {
        let e = refused(&describe(&dir, name, &text));
        assert!(e.contains(want), "{name}: `{e}` does not say `{want}`");
    }
    let e = refused(&dir.join("no-such-file.toml"));
    assert!(e.contains("cannot read system description"), "{e}");
}
