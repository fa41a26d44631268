//! End-to-end tests of the `jxvm` command line against HotSpot (`java` on PATH): exit codes,
//! launcher error messages for bad or missing classes, `-jar`, `-D`, `-version`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn jxvm() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jxvm"))
}

fn have_jdk() -> bool {
    Command::new("javac").arg("-version").output().is_ok_and(|o| o.status.success())
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jxvm-launcher-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compile(dir: &Path, file: &str, src: &str) {
    std::fs::write(dir.join(file), src).unwrap();
    let ok = Command::new("javac").args(["--release", "17", "-d"]).arg(dir).arg(dir.join(file)).status().unwrap();
    assert!(ok.success(), "javac failed for {file}");
}

fn run_both(dir: &Path, args: &[&str]) -> (Output, Output) {
    let j = Command::new("java").arg("-cp").arg(dir).args(args).output().unwrap();
    let x = jxvm().arg("-cp").arg(dir).args(args).output().unwrap();
    (j, x)
}

fn first_lines(b: &[u8], n: usize) -> String {
    String::from_utf8_lossy(b).lines().take(n).collect::<Vec<_>>().join("\n")
}

/// Same exit code, same stdout, same first `n` lines of stderr.
fn assert_same(j: &Output, x: &Output, n: usize) {
    assert_eq!(j.status.code(), x.status.code(), "exit codes; jxvm stderr: {}", String::from_utf8_lossy(&x.stderr));
    assert_eq!(String::from_utf8_lossy(&j.stdout), String::from_utf8_lossy(&x.stdout));
    assert_eq!(first_lines(&j.stderr, n), first_lines(&x.stderr, n));
}

const HELLO: &str = "public class Hello { public static void main(String[] a) { System.out.println(\"Hello, World!\"); } }";

#[test]
fn hello_world_matches_hotspot() {
    if !have_jdk() {
        eprintln!("SKIP: no JDK");
        return;
    }
    let d = scratch("hello");
    compile(&d, "Hello.java", HELLO);
    let (j, x) = run_both(&d, &["Hello"]);
    assert_same(&j, &x, 1);
    assert_eq!(String::from_utf8_lossy(&x.stdout), "Hello, World!\n");
}

#[test]
fn missing_main_class_and_method() {
    if !have_jdk() {
        return;
    }
    let d = scratch("missing");
    compile(&d, "NoMain.java", "public class NoMain { static void other() {} }");
    let (j, x) = run_both(&d, &["DoesNotExist"]);
    assert_same(&j, &x, 2);
    let (j, x) = run_both(&d, &["NoMain"]);
    assert_same(&j, &x, 3);
}

#[test]
fn corrupt_class_files_give_class_format_errors() {
    if !have_jdk() {
        return;
    }
    let d = scratch("corrupt");
    compile(&d, "Hello.java", HELLO);
    let good = std::fs::read(d.join("Hello.class")).unwrap();
    std::fs::write(d.join("Trunc.class"), &good[..100]).unwrap();
    std::fs::write(d.join("Tiny.class"), b"garbage").unwrap();
    let mut magic = good.clone();
    magic[0] = 0xCB;
    std::fs::write(d.join("Magic.class"), &magic).unwrap();
    std::fs::write(d.join("Wrong.class"), &good).unwrap();
    for name in ["Trunc", "Tiny", "Wrong"] {
        let (j, x) = run_both(&d, &[name]);
        assert_same(&j, &x, 2);
    }
    let (j, x) = run_both(&d, &["Magic"]);
    assert_eq!(j.status.code(), x.status.code());
    assert!(String::from_utf8_lossy(&x.stderr).contains("java.lang.ClassFormatError: Incompatible magic value"));
}

#[test]
fn bad_bytecode_gives_verify_error() {
    if !have_jdk() {
        return;
    }
    let d = scratch("verify");
    compile(&d, "Bad.java", "public class Bad { static int f() { return 0; } public static void main(String[] a) { System.out.println(f()); } }");
    let mut b = std::fs::read(d.join("Bad.class")).unwrap();
    // iconst_0; ireturn  ->  aconst_null; ireturn
    let i = b.windows(2).position(|w| w == [0x03, 0xac]).expect("code of f()");
    b[i] = 0x01;
    std::fs::write(d.join("Bad.class"), &b).unwrap();
    let (j, x) = run_both(&d, &["Bad"]);
    assert_same(&j, &x, 2);
}

#[test]
fn exit_codes_properties_and_jar() {
    if !have_jdk() {
        return;
    }
    let d = scratch("exit");
    compile(
        &d,
        "Exit.java",
        "public class Exit { public static void main(String[] a) { System.out.println(System.getProperty(\"x.y\") + \" \" + a.length); System.exit(7); } }",
    );
    let j = Command::new("java").arg("-Dx.y=z").arg("-cp").arg(&d).args(["Exit", "a", "b"]).output().unwrap();
    let x = jxvm().arg("-Dx.y=z").arg("-cp").arg(&d).args(["Exit", "a", "b"]).output().unwrap();
    assert_same(&j, &x, 1);
    assert_eq!(x.status.code(), Some(7));
    std::fs::write(d.join("manifest.txt"), "Main-Class: Exit\n").unwrap();
    let jar = d.join("app.jar");
    let made = Command::new("jar").arg("cfm").arg(&jar).arg(d.join("manifest.txt")).arg("-C").arg(&d).arg("Exit.class").status();
    if made.is_ok_and(|s| s.success()) {
        let j = Command::new("java").arg("-jar").arg(&jar).arg("q").output().unwrap();
        let x = jxvm().arg("-jar").arg(&jar).arg("q").output().unwrap();
        assert_same(&j, &x, 1);
    }
}

#[test]
fn version_help_and_bad_options() {
    let v = jxvm().arg("-version").output().unwrap();
    assert!(v.status.success());
    assert!(String::from_utf8_lossy(&v.stderr).contains("version \"17"));
    let h = jxvm().arg("--help").output().unwrap();
    assert!(h.status.success());
    assert!(String::from_utf8_lossy(&h.stdout).contains("-cp"));
    let b = jxvm().arg("-Xbogus").output().unwrap();
    assert_eq!(b.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&b.stderr).contains("Unrecognized option: -Xbogus"));
    let m = jxvm().arg("-Xmx12q").output().unwrap();
    assert_eq!(m.status.code(), Some(1));
}
