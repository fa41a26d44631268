//! Helpers shared by the end-to-end tests: the jxvm binary, its API jar, and javac against it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The jxvm binary, with its class cache in this test process's own directory (never the
/// user's).
pub fn jxvm() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jxvm"));
    c.env("XDG_CACHE_HOME", test_cache_home());
    c
}

/// The `XDG_CACHE_HOME` of the jxvm processes of this test process.
pub fn test_cache_home() -> PathBuf {
    std::env::temp_dir().join(format!("jxvm-test-cache-{}", std::process::id()))
}

/// The path `jxvm --api-jar` prints.
pub fn api_jar() -> PathBuf {
    let out = jxvm().arg("--api-jar").output().unwrap();
    assert!(
        out.status.success(),
        "--api-jar failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// The repository's root directory.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh scratch directory of its own (tests run in parallel), named after `what`.
pub fn scratch(what: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("jxvm-test-{}-{n}-{what}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `sources` (relative to the repository) against the API jar into `out`.
pub fn javac(sources: &[&str], out: &Path) {
    let root = repo();
    let ok = Command::new("javac")
        .args(["--release", "17", "-cp"])
        .arg(api_jar())
        .arg("-d")
        .arg(out)
        .args(sources.iter().map(|s| root.join(s)))
        .status()
        .unwrap();
    assert!(ok.success(), "javac failed for {sources:?}");
}

/// `jxvm gateway --export dir [extra] --listen listen`, once it says it serves: the gateway
/// and the address it serves on (`unix:PATH` or `tcp:IP:PORT`, as its first line says).
pub fn start_gateway(dir: &Path, extra: &[&str], listen: &str) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = jxvm()
        .args(["gateway", "--export"])
        .arg(dir)
        .args(extra)
        .args(["--listen", listen])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start jxvm gateway");
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("jxvm gateway: serving "), "{first}");
    let addr = first.trim().rsplit(" on ").next().unwrap().to_string();
    (child, addr)
}
