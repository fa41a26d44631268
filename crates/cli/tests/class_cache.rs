//! The class cache end to end (issue 19): concurrent cold starts, a writer killed mid-write,
//! damaged and foreign cache files, a class changed between runs, `-Xshare:off` and `:on`
//! (against java's own failure), and `jxvm cache`. Every test has a cache directory of its
//! own (`XDG_CACHE_HOME` or `-XX:SharedArchiveFile`), never the user's.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::scratch;

fn have_jdk() -> bool {
    Command::new("javac").arg("-version").output().is_ok()
}

/// Writes `files` (name, source) into `dir/src` and compiles them into `dir/classes`.
fn compile(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&src).unwrap();
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|(name, text)| {
            let p = src.join(name);
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect();
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .args(&paths)
        .status()
        .unwrap();
    assert!(ok.success(), "javac failed");
    classes
}

const HELLO: (&str, &str) = (
    "Hello.java",
    "public class Hello { public static void main(String[] a) { System.out.println(\"Hello, \" + java.util.List.of(1, 2, 3)); } }",
);

/// jxvm with its cache at `cache` (an `XDG_CACHE_HOME`).
fn jxvm(cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jxvm"));
    c.env("XDG_CACHE_HOME", cache)
        .env_remove("JXVM_CACHE_TEST_PAUSE");
    c
}

fn run(cache: &Path, args: &[&str]) -> Output {
    jxvm(cache).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The one cache file under `cache`.
fn cache_file(cache: &Path) -> PathBuf {
    let dir = cache.join("jxvm");
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jxc"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

fn verify(cache: &Path) -> String {
    let o = run(cache, &["cache", "verify"]);
    assert!(o.status.success(), "verify: {}{}", stdout(&o), stderr(&o));
    stdout(&o)
}

fn hello_runs(cache: &Path, classes: &Path) -> Output {
    let o = run(cache, &["-cp", classes.to_str().unwrap(), "Hello"]);
    assert_eq!(stdout(&o), "Hello, [1, 2, 3]\n", "stderr: {}", stderr(&o));
    assert!(o.status.success());
    o
}

#[test]
fn eight_concurrent_cold_starts_are_correct_and_leave_a_sound_cache() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-concurrent");
    let classes = compile(&dir, &[HELLO]);
    let cache = dir.join("xdg");
    let children: Vec<_> = (0..8)
        .map(|_| {
            jxvm(&cache)
                .args(["-cp", classes.to_str().unwrap(), "Hello"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert_eq!(stdout(&o), "Hello, [1, 2, 3]\n", "stderr: {}", stderr(&o));
        assert_eq!(stderr(&o), "");
    }
    assert!(verify(&cache).contains("all checksums correct"));
    let stats = stdout(&run(&cache, &["cache", "stats"]));
    assert!(stats.contains("runs:      8"), "{stats}");
    // Warm: every class comes from the cache.
    hello_runs(&cache, &classes);
    let list = stdout(&run(&cache, &["cache", "list"]));
    assert!(list.lines().count() > 300, "{list}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits until `done` holds (a writer reached its pause), at most 60 s.
fn wait_for(mut done: impl FnMut() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the writer never got there");
}

#[test]
fn a_writer_killed_mid_write_loses_nothing_committed() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-kill");
    let classes = compile(
        &dir,
        &[
            HELLO,
            (
                "Other.java",
                "public class Other { public static void main(String[] a) { System.out.println(new java.util.TreeMap<>(java.util.Map.of(2, \"b\", 1, \"a\"))); } }",
            ),
        ],
    );
    let cache = dir.join("xdg");
    // Killed while writing a new cache (before its rename): no cache, and no harm.
    let mut c = jxvm(&cache)
        .env("JXVM_CACHE_TEST_PAUSE", "60")
        .args(["-cp", classes.to_str().unwrap(), "Hello"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let jxvm_dir = cache.join("jxvm");
    wait_for(|| {
        std::fs::read_dir(&jxvm_dir)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().contains(".tmp"))
            })
            .unwrap_or(false)
    });
    c.kill().unwrap();
    c.wait().unwrap();
    let o = hello_runs(&cache, &classes);
    assert_eq!(stderr(&o), "");
    let file = cache_file(&cache);
    let committed = std::fs::metadata(&file).unwrap().len();
    let before = verify(&cache);
    // Killed after appending its entries and before committing them.
    let mut c = jxvm(&cache)
        .env("JXVM_CACHE_TEST_PAUSE", "60")
        .args(["-cp", classes.to_str().unwrap(), "Other"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for(|| std::fs::metadata(&file).unwrap().len() > committed);
    c.kill().unwrap();
    c.wait().unwrap();
    let after = verify(&cache);
    assert!(after.contains("uncommitted bytes"), "{after}");
    assert_eq!(
        before.split(" bytes,").next(),
        after.split(" bytes,").next(),
        "the committed entries are those before"
    );
    let o = hello_runs(&cache, &classes);
    assert_eq!(stderr(&o), "", "a killed writer's remains are not damage");
    let o = run(&cache, &["-cp", classes.to_str().unwrap(), "Other"]);
    assert_eq!(stdout(&o), "{1=a, 2=b}\n");
    assert!(
        !verify(&cache).contains("uncommitted"),
        "cut off by the next writer"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Damages the warm cache with `damage`: the next run is correct and says so once on stderr,
/// the one after is silent, and the cache verifies again.
fn damaged_cache_is_reported_once_and_rebuilt(what: &str, damage: impl Fn(&Path)) {
    if !have_jdk() {
        return;
    }
    let dir = scratch(what);
    let classes = compile(&dir, &[HELLO]);
    let cache = dir.join("xdg");
    hello_runs(&cache, &classes);
    hello_runs(&cache, &classes);
    damage(&cache_file(&cache));
    let o = hello_runs(&cache, &classes);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("ignored, it will be rebuilt"), "{err}");
    let o = hello_runs(&cache, &classes);
    assert_eq!(stderr(&o), "");
    assert!(verify(&cache).contains("all checksums correct"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_truncated_cache_is_reported_and_rebuilt() {
    damaged_cache_is_reported_once_and_rebuilt("cache-truncated", |f| {
        let len = std::fs::metadata(f).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(f)
            .unwrap()
            .set_len(len / 2)
            .unwrap();
    });
}

#[test]
fn a_bit_flipped_cache_is_reported_and_rebuilt() {
    damaged_cache_is_reported_once_and_rebuilt("cache-flipped", |f| {
        let mut b = std::fs::read(f).unwrap();
        // In an entry's payload, past the header and the first record headers.
        let at = b.len() / 2;
        b[at] ^= 0x20;
        std::fs::write(f, b).unwrap();
    });
}

#[test]
fn a_cache_replaced_by_garbage_is_reported_and_rebuilt() {
    damaged_cache_is_reported_once_and_rebuilt("cache-garbage", |f| {
        let garbage: Vec<u8> = (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        std::fs::write(f, garbage).unwrap();
    });
}

#[test]
fn a_changed_class_is_seen_and_its_subclass_with_it() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-changed");
    let main = (
        "Main.java",
        "public class Main { public static void main(String[] a) { B b = new B(); System.out.println(b.who() + \" \" + b.count()); } }",
    );
    let b = (
        "B.java",
        "public class B extends A { int mine = 7; int count() { return mine + extra(); } }",
    );
    let v1 = (
        "A.java",
        "public class A { String who() { return \"A1\"; } int extra() { return 0; } }",
    );
    let v2 = (
        "A.java",
        "public class A { long pad = 1; int more = 35; String who() { return \"A2\"; } int extra() { return more; } }",
    );
    let classes = compile(&dir, &[main, b, v1]);
    let cache = dir.join("xdg");
    let cp = classes.to_str().unwrap();
    for _ in 0..2 {
        assert_eq!(stdout(&run(&cache, &["-cp", cp, "Main"])), "A1 7\n");
    }
    // Only A changes: B's class file is the same, its layout is not.
    let b_before = std::fs::read(classes.join("B.class")).unwrap();
    compile(&dir, &[v2]);
    assert_eq!(std::fs::read(classes.join("B.class")).unwrap(), b_before);
    let o = run(&cache, &["-cp", cp, "Main"]);
    assert_eq!(stdout(&o), "A2 42\n", "stderr: {}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cache_of_another_build_is_never_used() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-foreign");
    let classes = compile(&dir, &[HELLO]);
    let file = dir.join("shared.jxc");
    // Another build's cache at the file this run is told to use.
    let mut theirs = cache::Cache::open(cache::Settings::at(
        file.clone(),
        "jxvm 0.0.1 other build\njdk other",
    ))
    .unwrap();
    theirs.put(
        1,
        cache::Key([1; 16]),
        b"not a class summary of this build".to_vec(),
    );
    theirs.flush().unwrap();
    let archive = format!("-XX:SharedArchiveFile={}", file.display());
    let cp = classes.to_str().unwrap();
    let o = run(&dir, &[&archive, "-cp", cp, "Hello"]);
    assert_eq!(stdout(&o), "Hello, [1, 2, 3]\n");
    assert!(
        stderr(&o).contains("made by another jxvm build or JDK"),
        "{}",
        stderr(&o)
    );
    let o = run(&dir, &[&archive, "-cp", cp, "Hello"]);
    assert_eq!(
        (stdout(&o).as_str(), stderr(&o).as_str()),
        ("Hello, [1, 2, 3]\n", "")
    );
    let v = run(&dir, &["cache", "verify", &archive]);
    assert!(
        stdout(&v).contains("all checksums correct"),
        "{}",
        stdout(&v)
    );
    assert!(
        !dir.join("jxvm").exists(),
        "the default cache was not touched"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn share_off_never_touches_the_cache() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-off");
    let classes = compile(&dir, &[HELLO]);
    let cache = dir.join("xdg");
    let file = dir.join("chosen.jxc");
    let archive = format!("-XX:SharedArchiveFile={}", file.display());
    let cp = classes.to_str().unwrap();
    let o = run(&cache, &["-Xshare:off", "-cp", cp, "Hello"]);
    assert_eq!(stdout(&o), "Hello, [1, 2, 3]\n");
    let o = run(&cache, &["-Xshare:off", &archive, "-cp", cp, "Hello"]);
    assert_eq!(stdout(&o), "Hello, [1, 2, 3]\n");
    assert!(!cache.exists() && !file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn share_on_with_an_unusable_cache_fails_as_java_does() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-on");
    let classes = compile(&dir, &[HELLO]);
    let file = dir.join("garbage.jsa");
    std::fs::write(&file, b"garbage\n").unwrap();
    let args = [
        "-Xshare:on".to_string(),
        format!("-XX:SharedArchiveFile={}", file.display()),
        "-cp".into(),
        classes.to_str().unwrap().into(),
        "Hello".into(),
    ];
    let java = Command::new("java").args(&args).output().unwrap();
    let ours = jxvm(&dir).args(&args).output().unwrap();
    assert_eq!(stdout(&ours), stdout(&java));
    assert_eq!(ours.status.code(), java.status.code());
    assert!(
        stderr(&ours)
            .starts_with("An error has occurred while processing the shared archive file.\n")
    );
    // A usable cache is used with -Xshare:on (made on the first run).
    let cache = dir.join("xdg");
    let cp = classes.to_str().unwrap();
    for _ in 0..2 {
        let o = run(&cache, &["-Xshare:on", "-cp", cp, "Hello"]);
        assert_eq!(stdout(&o), "Hello, [1, 2, 3]\n");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cache_commands_report_and_clear() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("cache-commands");
    let classes = compile(&dir, &[HELLO]);
    let cache = dir.join("xdg");
    let o = run(&cache, &["cache", "stats"]);
    assert_eq!(o.status.code(), Some(1), "no cache yet");
    assert!(stderr(&o).contains("no class cache at"));
    hello_runs(&cache, &classes);
    hello_runs(&cache, &classes);
    let stats = stdout(&run(&cache, &["cache", "stats"]));
    assert!(stats.contains("runs:      2"), "{stats}");
    let hits: u64 = stats
        .lines()
        .find_map(|l| l.strip_prefix("hits:"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(hits > 300, "{stats}");
    let list = stdout(&run(&cache, &["cache", "list"]));
    assert!(
        list.lines().skip(1).all(|l| l.starts_with("class ")),
        "{list}"
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(cache.join("jxvm")).unwrap().permissions(),
    );
    assert_eq!(mode & 0o777, 0o700);
    let o = run(&cache, &["cache", "clear"]);
    assert!(
        stdout(&o).starts_with("removed 1 class cache file"),
        "{}",
        stdout(&o)
    );
    assert_eq!(run(&cache, &["cache", "verify"]).status.code(), Some(1));
    assert_eq!(run(&cache, &["cache", "bogus"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
