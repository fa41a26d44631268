//! End-to-end tests of the `jxvm` command line against HotSpot (`java` on PATH): exit codes,
//! launcher error messages for bad or missing classes, `-jar`, `-D`, `-version`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The jxvm binary, with its class cache in this test process's own directory.
fn jxvm() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jxvm"));
    let home = std::env::temp_dir().join(format!("jxvm-test-cache-{}", std::process::id()));
    c.env("XDG_CACHE_HOME", home);
    c
}

fn have_jdk() -> bool {
    Command::new("javac")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jxvm-launcher-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compile(dir: &Path, file: &str, src: &str) {
    std::fs::write(dir.join(file), src).unwrap();
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(dir)
        .arg(dir.join(file))
        .status()
        .unwrap();
    assert!(ok.success(), "javac failed for {file}");
}

fn run_both(dir: &Path, args: &[&str]) -> (Output, Output) {
    let j = Command::new("java")
        .arg("-cp")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    let x = jxvm().arg("-cp").arg(dir).args(args).output().unwrap();
    (j, x)
}

/// As `run_both`, with environment variables `env` set for both.
fn run_both_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Output, Output) {
    let run = |mut c: Command| {
        for (k, v) in env {
            c.env(k, v);
        }
        c.arg("-cp").arg(dir).args(args).output().unwrap()
    };
    (run(Command::new("java")), run(jxvm()))
}

fn first_lines(b: &[u8], n: usize) -> String {
    String::from_utf8_lossy(b)
        .lines()
        .take(n)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Same exit code, same stdout, same first `n` lines of stderr.
fn assert_same(j: &Output, x: &Output, n: usize) {
    assert_eq!(
        j.status.code(),
        x.status.code(),
        "exit codes; jxvm stderr: {}",
        String::from_utf8_lossy(&x.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&j.stdout),
        String::from_utf8_lossy(&x.stdout)
    );
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

/// JDK_JAVA_OPTIONS (the launcher's), JAVA_TOOL_OPTIONS and _JAVA_OPTIONS (the VM's): taken
/// in java's order (the last one wins), with quotes, announced on stderr as java does; a main
/// class or -jar in JDK_JAVA_OPTIONS is refused.
#[test]
fn options_from_the_environment() {
    if !have_jdk() {
        return;
    }
    let d = scratch("envopts");
    compile(
        &d,
        "Props.java",
        "public class Props { public static void main(String[] a) { for (String k : new String[] {\"q\", \"t\", \"u\", \"w\"}) System.out.println(k + \"=\" + System.getProperty(k)); } }",
    );
    let env = [
        ("JDK_JAVA_OPTIONS", "-Dq='a b' -Dw=launcher"),
        ("JAVA_TOOL_OPTIONS", "-Dt=\"c d\" -Dw=tool -Du=tool"),
        ("_JAVA_OPTIONS", "-Du=last"),
    ];
    let (j, x) = run_both_with(&d, &["-Dw=cmdline", "Props"], &env);
    assert_same(&j, &x, 3);
    assert!(String::from_utf8_lossy(&x.stdout).contains("q=a b\nt=c d\nu=last\nw=cmdline"));
    for bad in ["Props", "-jar x.jar"] {
        let (j, x) = run_both_with(&d, &["Props"], &[("JDK_JAVA_OPTIONS", bad)]);
        assert_same(&j, &x, 2);
    }
}

/// Options HotSpot takes that change nothing here run the program as java does, with java's
/// warnings; -showversion prints the version (its VM line is jxvm's) and runs it.
#[test]
fn java_options_without_effect_are_taken() {
    if !have_jdk() {
        return;
    }
    let d = scratch("noeffect");
    compile(&d, "Hello.java", HELLO);
    for opt in [
        "-Xcomp",
        "-Xmixed",
        "-Xdiag",
        "-Xcheck:jni",
        "-Xdebug",
        "-splash:x.png",
        "-Xfuture",
        "-Xprof",
    ] {
        let (j, x) = run_both(&d, &[opt, "Hello"]);
        assert_same(&j, &x, 2);
    }
    let (j, x) = run_both(&d, &["-showversion", "Hello"]);
    assert_eq!(j.stdout, x.stdout);
    assert_eq!(first_lines(&j.stderr, 2), first_lines(&x.stderr, 2));
}

/// `DIR/*` in -cp or CLASSPATH stands for the directory's jars (java.class.path shows them),
/// and `@argfiles` hold arguments (comments, quotes, the main class), as java's launcher reads
/// them; an argfile that cannot be opened is java's error.
#[test]
fn class_path_wildcards_and_argument_files() {
    if !have_jdk() {
        return;
    }
    let d = scratch("wildcards");
    let (lib, classes) = (d.join("lib"), d.join("jarred"));
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::create_dir_all(&classes).unwrap();
    compile(
        &classes,
        "A.java",
        "package p; public class A { public static String s() { return \"A\"; } }",
    );
    let jarred = Command::new("jar")
        .arg("cf")
        .arg(lib.join("a.JAR"))
        .arg("-C")
        .arg(&classes)
        .arg("p")
        .status()
        .unwrap();
    assert!(jarred.success());
    std::fs::write(lib.join("notes.txt"), "not a jar").unwrap();
    std::fs::write(
        d.join("W.java"),
        "public class W { public static void main(String[] a) { System.out.println(p.A.s() + \" \" + System.getProperty(\"k\") + \" \" + a.length + \" \" + System.getProperty(\"java.class.path\").replace(System.getProperty(\"user.dir\"), \"~\")); } }",
    )
    .unwrap();
    let built = Command::new("javac")
        .arg("-cp")
        .arg(lib.join("a.JAR"))
        .arg("-d")
        .arg(&d)
        .arg(d.join("W.java"))
        .status()
        .unwrap();
    assert!(built.success());
    let both = |args: &[&str], env: Option<&str>| {
        let run = |mut c: Command| {
            c.current_dir(&d).args(args);
            if let Some(cp) = env {
                c.env("CLASSPATH", cp);
            }
            c.output().unwrap()
        };
        (run(Command::new("java")), run(jxvm()))
    };
    let (j, x) = both(&["-cp", ".:lib/*", "W"], None);
    assert_same(&j, &x, 2);
    assert!(
        String::from_utf8_lossy(&x.stdout).contains("lib/a.JAR"),
        "{x:?}"
    );
    let (j, x) = both(&["W"], Some(".:lib/*"));
    assert_same(&j, &x, 2);
    std::fs::write(
        d.join("args.txt"),
        "# the class path\n-cp \".:lib/*\"\n-Dk='x y'   W one \"two three\"\n",
    )
    .unwrap();
    let (j, x) = both(&["@args.txt", "four"], None);
    assert_same(&j, &x, 2);
    assert!(
        String::from_utf8_lossy(&x.stdout).starts_with("A x y 3"),
        "{x:?}"
    );
    let (j, x) = both(&["@missing.txt", "W"], None);
    assert_same(&j, &x, 2);
}

#[test]
fn missing_main_class_and_method() {
    if !have_jdk() {
        return;
    }
    let d = scratch("missing");
    compile(
        &d,
        "NoMain.java",
        "public class NoMain { static void other() {} }",
    );
    let (j, x) = run_both(&d, &["DoesNotExist"]);
    assert_same(&j, &x, 2);
    let (j, x) = run_both(&d, &["NoMain"]);
    assert_same(&j, &x, 3);
    // java's launcher takes a name with slashes as the binary name with dots.
    let (j, x) = run_both(&d, &["no/such/Main"]);
    assert_same(&j, &x, 2);
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
    assert!(
        String::from_utf8_lossy(&x.stderr)
            .contains("java.lang.ClassFormatError: Incompatible magic value")
    );
}

#[test]
fn bad_bytecode_gives_verify_error() {
    if !have_jdk() {
        return;
    }
    let d = scratch("verify");
    compile(
        &d,
        "Bad.java",
        "public class Bad { static int f() { return 0; } public static void main(String[] a) { System.out.println(f()); } }",
    );
    let mut b = std::fs::read(d.join("Bad.class")).unwrap();
    // iconst_0; ireturn  ->  aconst_null; ireturn
    let i = b
        .windows(2)
        .position(|w| w == [0x03, 0xac])
        .expect("code of f()");
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
    let j = Command::new("java")
        .arg("-Dx.y=z")
        .arg("-cp")
        .arg(&d)
        .args(["Exit", "a", "b"])
        .output()
        .unwrap();
    let x = jxvm()
        .arg("-Dx.y=z")
        .arg("-cp")
        .arg(&d)
        .args(["Exit", "a", "b"])
        .output()
        .unwrap();
    assert_same(&j, &x, 1);
    assert_eq!(x.status.code(), Some(7));
    std::fs::write(d.join("manifest.txt"), "Main-Class: Exit\n").unwrap();
    let jar = d.join("app.jar");
    let made = Command::new("jar")
        .arg("cfm")
        .arg(&jar)
        .arg(d.join("manifest.txt"))
        .arg("-C")
        .arg(&d)
        .arg("Exit.class")
        .status();
    if made.is_ok_and(|s| s.success()) {
        let j = Command::new("java")
            .arg("-jar")
            .arg(&jar)
            .arg("q")
            .output()
            .unwrap();
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
    let tiny = jxvm()
        .args(["-Xmx1m", "-cp", ".", "Hello"])
        .output()
        .unwrap();
    assert_eq!(tiny.status.code(), Some(1));
    // On stdout, as java prints it.
    assert_eq!(
        first_lines(&tiny.stdout, 2),
        "Error occurred during initialization of VM\nToo small maximum heap"
    );
    let mn = jxvm().arg("-Xmn4x").output().unwrap();
    assert_eq!(mn.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&mn.stderr)
            .contains("Invalid initial young generation size: -Xmn4x")
    );
}

/// A tiny class-file writer for instructions javac no longer emits (jsr/ret, goto_w, wide).
mod asm {
    pub struct Pool {
        pub bytes: Vec<u8>,
        pub count: u16,
    }
    impl Pool {
        pub fn new() -> Pool {
            Pool {
                bytes: Vec::new(),
                count: 1,
            }
        }
        fn add(&mut self, b: &[u8]) -> u16 {
            self.bytes.extend_from_slice(b);
            self.count += 1;
            self.count - 1
        }
        pub fn utf8(&mut self, s: &str) -> u16 {
            let mut b = vec![1];
            b.extend_from_slice(&(s.len() as u16).to_be_bytes());
            b.extend_from_slice(s.as_bytes());
            self.add(&b)
        }
        pub fn class(&mut self, name: &str) -> u16 {
            let n = self.utf8(name);
            self.add(&[7, (n >> 8) as u8, n as u8])
        }
        pub fn nat(&mut self, name: &str, desc: &str) -> u16 {
            let (n, d) = (self.utf8(name), self.utf8(desc));
            self.add(&[12, (n >> 8) as u8, n as u8, (d >> 8) as u8, d as u8])
        }
        pub fn member(&mut self, tag: u8, class: &str, name: &str, desc: &str) -> u16 {
            let (c, nt) = (self.class(class), self.nat(name, desc));
            self.add(&[tag, (c >> 8) as u8, c as u8, (nt >> 8) as u8, nt as u8])
        }
        pub fn string(&mut self, s: &str) -> u16 {
            let u = self.utf8(s);
            self.add(&[8, (u >> 8) as u8, u as u8])
        }
        pub fn integer(&mut self, v: i32) -> u16 {
            let mut b = vec![3];
            b.extend_from_slice(&v.to_be_bytes());
            self.add(&b)
        }
        /// CONSTANT_MethodHandle of kind REF_invokeStatic (6) for a static method.
        pub fn static_handle(&mut self, class: &str, name: &str, desc: &str) -> u16 {
            let m = self.member(10, class, name, desc);
            self.add(&[15, 6, (m >> 8) as u8, m as u8])
        }
        pub fn invoke_dynamic(&mut self, bootstrap: u16, name: &str, desc: &str) -> u16 {
            let nt = self.nat(name, desc);
            self.add(&[
                18,
                (bootstrap >> 8) as u8,
                bootstrap as u8,
                (nt >> 8) as u8,
                nt as u8,
            ])
        }
    }

    /// A `BootstrapMethods` attribute body: (method handle, static arguments) per entry.
    pub fn bootstrap_methods(entries: &[(u16, Vec<u16>)]) -> Vec<u8> {
        let mut b = (entries.len() as u16).to_be_bytes().to_vec();
        for (mh, args) in entries {
            b.extend_from_slice(&mh.to_be_bytes());
            b.extend_from_slice(&(args.len() as u16).to_be_bytes());
            for a in args {
                b.extend_from_slice(&a.to_be_bytes());
            }
        }
        b
    }

    /// A public class `name` (version 49, no stack maps) with one `public static void
    /// main(String[])` whose code is `code`.
    pub fn class_with_main(
        name: &str,
        pool: &mut Pool,
        code: &[u8],
        max_stack: u16,
        max_locals: u16,
    ) -> Vec<u8> {
        class_file(name, pool, code, max_stack, max_locals, 49, None)
    }

    /// As `class_with_main`, with a class-file version and an optional `BootstrapMethods`
    /// attribute body (straight-line code needs no stack map, even in version 51+).
    pub fn class_file(
        name: &str,
        pool: &mut Pool,
        code: &[u8],
        max_stack: u16,
        max_locals: u16,
        version: u16,
        bootstraps: Option<&[u8]>,
    ) -> Vec<u8> {
        let this = pool.class(name);
        let sup = pool.class("java/lang/Object");
        let (mname, mdesc, code_attr) = (
            pool.utf8("main"),
            pool.utf8("([Ljava/lang/String;)V"),
            pool.utf8("Code"),
        );
        let bsm_attr = bootstraps.map(|_| pool.utf8("BootstrapMethods"));
        let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0];
        out.extend_from_slice(&version.to_be_bytes());
        out.extend_from_slice(&pool.count.to_be_bytes());
        out.extend_from_slice(&pool.bytes);
        for v in [
            0x0021u16, this, sup, 0, 0, 1, 0x0009, mname, mdesc, 1, code_attr,
        ] {
            out.extend_from_slice(&v.to_be_bytes());
        }
        out.extend_from_slice(&((12 + code.len()) as u32).to_be_bytes());
        out.extend_from_slice(&max_stack.to_be_bytes());
        out.extend_from_slice(&max_locals.to_be_bytes());
        out.extend_from_slice(&(code.len() as u32).to_be_bytes());
        out.extend_from_slice(code);
        out.extend_from_slice(&[0, 0, 0, 0]); // no handlers, no code attributes
        match (bsm_attr, bootstraps) {
            (Some(a), Some(body)) => {
                out.extend_from_slice(&1u16.to_be_bytes());
                out.extend_from_slice(&a.to_be_bytes());
                out.extend_from_slice(&(body.len() as u32).to_be_bytes());
                out.extend_from_slice(body);
            }
            _ => out.extend_from_slice(&[0, 0]),
        }
        out
    }
}

#[test]
fn jsr_ret_goto_w_and_wide_run_like_hotspot() {
    if !have_jdk() {
        return;
    }
    let d = scratch("jsr");
    let mut p = asm::Pool::new();
    let out = p.member(9, "java/lang/System", "out", "Ljava/io/PrintStream;");
    let println = p.member(10, "java/io/PrintStream", "println", "(I)V");
    let [o1, o2] = out.to_be_bytes();
    let [p1, p2] = println.to_be_bytes();
    // Main body, then the subroutine, then the tail.
    #[rustfmt::skip]
    let code: Vec<u8> = vec![
        /* 0 */ 0x10, 5, 0x3c,                   // bipush 5; istore_1
        /* 3 */ 0xa8, 0, 15,                     // jsr 18
        /* 6 */ 0xc4, 0x84, 0, 1, 0x03, 0xe8,    // wide iinc 1 1000
        /* 12 */ 0xc8, 0, 0, 0, 17,              // goto_w 29
        /* 17 */ 0x00,                           // nop (skipped)
        /* 18 */ 0x4d,                           // astore_2 (return address)
        /* 19 */ 0xb2, o1, o2, 0x1b, 0xb6, p1, p2, // getstatic out; iload_1; invokevirtual println
        /* 26 */ 0xa9, 2,                        // ret 2
        /* 28 */ 0x00,                           // nop (skipped)
        /* 29 */ 0xb2, o1, o2,                   // getstatic out
        /* 32 */ 0xc4, 0x15, 0, 1,               // wide iload 1
        /* 36 */ 0xb6, p1, p2,                   // invokevirtual println
        /* 39 */ 0xb1,                           // return
    ];
    std::fs::write(
        d.join("Jsr.class"),
        asm::class_with_main("Jsr", &mut p, &code, 2, 3),
    )
    .unwrap();
    let (j, x) = run_both(&d, &["Jsr"]);
    assert_same(&j, &x, 1);
    assert_eq!(String::from_utf8_lossy(&x.stdout), "5\n1005\n");
}

/// invokedynamic with a bootstrap method of the program's own: static arguments of several
/// kinds, a ConstantCallSite, two instructions sharing one constant (each its own call site:
/// retargeting the first site's MutableCallSite does not touch the second), and a bootstrap
/// method that throws (BootstrapMethodError, as on HotSpot).
#[test]
fn invokedynamic_with_user_bootstraps_runs_like_hotspot() {
    if !have_jdk() {
        return;
    }
    let d = scratch("indy");
    compile(
        &d,
        "Boot.java",
        r#"import java.lang.invoke.*;
public class Boot {
  static MutableCallSite site;
  public static CallSite greet(MethodHandles.Lookup l, String name, MethodType type, String greeting, int n, Class<?> c) throws Exception {
    MethodHandle impl = l.findStatic(Boot.class, "impl", MethodType.methodType(String.class, String.class, String.class, int.class, Class.class));
    return new ConstantCallSite(MethodHandles.insertArguments(impl, 1, greeting, n, c).asType(type));
  }
  static String impl(String who, String greeting, int n, Class<?> c) { return greeting + " " + who + " " + n + " " + c.getName(); }
  public static CallSite counter(MethodHandles.Lookup l, String name, MethodType type) throws Exception {
    site = new MutableCallSite(MethodHandles.dropArguments(MethodHandles.constant(String.class, "first"), 0, String.class));
    return site;
  }
  public static void retarget(String s) {
    System.out.println(s);
    site.setTarget(MethodHandles.dropArguments(MethodHandles.constant(String.class, "second"), 0, String.class));
  }
  public static CallSite broken(MethodHandles.Lookup l, String name, MethodType type) { throw new IllegalStateException("no site for " + name); }
}"#,
    );
    let indy_desc = "(Ljava/lang/String;)Ljava/lang/String;";
    let bsm_desc =
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;";
    let mut p = asm::Pool::new();
    let out = p.member(9, "java/lang/System", "out", "Ljava/io/PrintStream;");
    let println = p.member(
        10,
        "java/io/PrintStream",
        "println",
        "(Ljava/lang/String;)V",
    );
    let retarget = p.member(10, "Boot", "retarget", "(Ljava/lang/String;)V");
    let world = p.string("world");
    let greet = p.static_handle(
        "Boot",
        "greet",
        &format!("{bsm_desc}Ljava/lang/String;ILjava/lang/Class;)Ljava/lang/invoke/CallSite;"),
    );
    let counter = p.static_handle(
        "Boot",
        "counter",
        &format!("{bsm_desc})Ljava/lang/invoke/CallSite;"),
    );
    let broken = p.static_handle(
        "Boot",
        "broken",
        &format!("{bsm_desc})Ljava/lang/invoke/CallSite;"),
    );
    let (hello, n, me) = (p.string("hello"), p.integer(42), p.class("Indy"));
    let bsms = asm::bootstrap_methods(&[
        (greet, vec![hello, n, me]),
        (counter, vec![]),
        (broken, vec![]),
    ]);
    let site0 = p.invoke_dynamic(0, "greet", indy_desc);
    let site1 = p.invoke_dynamic(1, "count", indy_desc);
    let site2 = p.invoke_dynamic(2, "nothing", indy_desc);
    let [o1, o2] = out.to_be_bytes();
    let [p1, p2] = println.to_be_bytes();
    let [r1, r2] = retarget.to_be_bytes();
    let [s0a, s0b] = site0.to_be_bytes();
    let [s1a, s1b] = site1.to_be_bytes();
    let [s2a, s2b] = site2.to_be_bytes();
    #[rustfmt::skip]
    let code: Vec<u8> = vec![
        0xb2, o1, o2, 0x12, world as u8, 0xba, s0a, s0b, 0, 0, 0xb6, p1, p2, // println(greet("world"))
        0x12, world as u8, 0xba, s1a, s1b, 0, 0, 0xb8, r1, r2,               // retarget(count("world"))
        0x12, world as u8, 0xba, s1a, s1b, 0, 0, 0xb8, r1, r2,               // same constant, a new site
        0x12, world as u8, 0xba, s2a, s2b, 0, 0, 0x57,                      // broken bootstrap
        0xb1,
    ];
    assert!(world < 256, "ldc needs a one-byte index");
    std::fs::write(
        d.join("Indy.class"),
        asm::class_file("Indy", &mut p, &code, 3, 1, 52, Some(&bsms)),
    )
    .unwrap();
    let (j, x) = run_both(&d, &["Indy"]);
    assert_same(&j, &x, 2);
    assert_eq!(
        String::from_utf8_lossy(&x.stdout),
        "hello world 42 Indy\nfirst\nfirst\n"
    );
    assert!(String::from_utf8_lossy(&x.stderr).contains("BootstrapMethodError"));
}

/// With the verifier off, code that would take the interpreter's frame out of bounds (a stack
/// that grows round a loop, a `ret` to an op that is no return point) is a VerifyError from
/// jxvm's own frame proof, never a crash.
#[test]
fn unverified_code_cannot_leave_the_frame() {
    if !have_jdk() {
        return;
    }
    let d = scratch("unverified");
    #[rustfmt::skip]
    let cases: [(&str, Vec<u8>, &str); 2] = [
        ("Grow", vec![0x03, 0xa7, 0xff, 0xff], "stack depth"),      // iconst_0; goto 0
        ("BadRet", vec![0x05, 0x3c, 0xa9, 1, 0xb1], "Falling off"), // iconst_2; istore_1; ret 1; return
    ];
    for (name, code, why) in cases {
        let mut p = asm::Pool::new();
        std::fs::write(
            d.join(format!("{name}.class")),
            asm::class_with_main(name, &mut p, &code, 2, 2),
        )
        .unwrap();
        let x = jxvm()
            .args(["-Xverify:none", "-cp"])
            .arg(&d)
            .arg(name)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&x.stderr);
        assert_eq!(x.status.code(), Some(1), "{name}: {err}");
        assert!(
            err.contains("java.lang.VerifyError") && err.contains(why),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

#[test]
fn thread_blocked_reading_stdin_does_not_hold_up_collections() {
    if !have_jdk() {
        return;
    }
    use std::io::Write;
    let d = scratch("stdin");
    compile(
        &d,
        "In.java",
        r#"import java.io.*; import java.util.*;
public class In { public static void main(String[] a) throws Exception {
  Thread t = new Thread(() -> { List<int[]> l = new ArrayList<>(); for (int i = 0; i < 200000; i++) { l.add(new int[16]); if (l.size() > 1000) l.clear(); } System.out.println("alloc done"); });
  t.start(); t.join(10000);
  System.out.println("allocator finished while main was running: " + !t.isAlive());
  BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
  Thread u = new Thread(() -> { List<int[]> l = new ArrayList<>(); for (int i = 0; i < 200000; i++) { l.add(new int[16]); if (l.size() > 1000) l.clear(); } System.out.println("alloc done while main reads"); });
  u.start();
  String line = r.readLine();
  System.out.println("other thread finished before the input came: " + !u.isAlive());
  u.join(); System.out.println("read " + line.length()); } }"#,
    );
    let mut child = jxvm()
        .arg("-Xmx16m")
        .arg("-cp")
        .arg(&d)
        .arg("In")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Keep stdin open (main blocked in read) long enough for the other thread to finish.
    std::thread::sleep(std::time::Duration::from_secs(4));
    child.stdin.take().unwrap().write_all(b"hello\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "alloc done while main reads\nother thread finished before the input came: true\nread 5"
        ),
        "{text}"
    );
}

const DUMPED: &str = r#"import java.nio.file.*;
public class Dumped {
    static final Object lock = new Object(), gate = new Object();
    static volatile boolean done, holding;
    static volatile long spins;
    static void sleeper(Path stop) throws Exception {
        long end = System.currentTimeMillis() + 30000;
        while (!Files.exists(stop) && System.currentTimeMillis() < end) {
            Thread.sleep(20); // sleeper line
        }
    }
    static void waiter() throws InterruptedException {
        synchronized (lock) {
            while (!done) lock.wait(); // waiter line
        }
    }
    static void holder() throws InterruptedException {
        synchronized (gate) {
            holding = true;
            while (!done) Thread.sleep(10);
        }
    }
    static void blocker() {
        synchronized (gate) { // blocker line
            spins += 0;
        }
    }
    static void spin() {
        long x = 1;
        while (!done) { x = x * 31 + 7; if ((x & 1023) == 0) spins++; } // spin line
    }
    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }
    public static void main(String[] a) throws Exception {
        Thread w = new Thread(() -> { try { waiter(); } catch (InterruptedException e) { } }, "waiter");
        w.setDaemon(true);
        w.start();
        Thread h = start("holder", () -> { try { holder(); } catch (InterruptedException e) { } });
        while (!holding || w.getState() != Thread.State.WAITING) Thread.sleep(1);
        Thread b = start("blocked", Dumped::blocker);
        Thread s = new Thread(Dumped::spin, "spinner");
        s.setPriority(7);
        s.start();
        System.out.println("ready");
        sleeper(Paths.get(a[0]));
        done = true;
        synchronized (lock) { lock.notifyAll(); }
        for (Thread t : new Thread[] { w, h, b, s }) t.join();
        System.out.println("all threads finished");
        System.out.println("done");
    }
}
"#;

/// The block of a thread dump about thread `name` (from its header line to the blank line).
fn dump_entry<'a>(dump: &'a str, name: &str) -> Option<&'a str> {
    let start = dump.find(&format!("\n\"{name}\" #"))? + 1;
    let len = dump[start..].find("\n\n").unwrap_or(dump.len() - start);
    Some(&dump[start..start + len])
}

/// What a thread dump of `Dumped` must show, or the first thing it lacks.
fn check_dump(dump: &str, src: &str) -> Result<(), String> {
    let line = |marker: &str| {
        src.lines()
            .position(|l| l.contains(marker))
            .expect("marker")
            + 1
    };
    let expect: [(&str, Vec<String>); 5] = [
        ("main", vec![
            "\"main\" #1 prio=5 os_prio=0".into(),
            "java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@".into(),
            "/Native Method)\n".into(),
            format!("\tat Dumped.sleeper(Dumped.java:{})\n\tat Dumped.main(Dumped.java:", line("// sleeper line")),
        ]),
        ("waiter", vec![
            " daemon prio=5 ".into(),
            "in Object.wait()".into(),
            "java.lang.Thread.State: WAITING (on object monitor)\n\tat java.lang.Object.wait(java.base@".into(),
            "\t- waiting on <0x".into(),
            format!("\tat Dumped.waiter(Dumped.java:{})\n", line("// waiter line")),
        ]),
        ("holder", vec!["java.lang.Thread.State: TIMED_WAITING (sleeping)".into(), "\tat Dumped.holder(Dumped.java:".into()]),
        ("blocked", vec![
            "waiting for monitor entry".into(),
            // Past its monitorenter, as HotSpot's interpreter shows a blocked frame.
            format!("java.lang.Thread.State: BLOCKED (on object monitor)\n\tat Dumped.blocker(Dumped.java:{})\n", line("// blocker line") + 1),
        ]),
        ("spinner", vec![" prio=7 ".into(), "java.lang.Thread.State: RUNNABLE\n\tat Dumped.spin(Dumped.java:".into()]),
    ];
    for (name, wants) in expect {
        let entry = dump_entry(dump, name).ok_or(format!("no entry for \"{name}\""))?;
        if let Some(w) = wants.iter().find(|w| !entry.contains(w.as_str())) {
            return Err(format!("entry of \"{name}\" lacks {w:?}:\n{entry}"));
        }
    }
    Ok(())
}

#[test]
fn sigquit_prints_a_thread_dump_and_the_program_runs_on() {
    if !have_jdk() {
        return;
    }
    use std::io::BufRead;
    use std::time::{Duration, Instant};
    let d = scratch("sigquit");
    compile(&d, "Dumped.java", DUMPED);
    let stop = d.join("stop");
    let mut child = jxvm()
        .arg("-cp")
        .arg(&d)
        .arg("Dumped")
        .arg(&stop)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let quit = || {
        assert!(
            Command::new("kill")
                .args(["-QUIT", &pid])
                .status()
                .unwrap()
                .success()
        )
    };
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in std::io::BufReader::new(stdout).lines() {
            if tx.send(l.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut all: Vec<String> = Vec::new();
    // The next line of output, or a failure (with everything so far) once the deadline passed.
    let mut next_line = |all: &mut Vec<String>| -> String {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => {
                all.push(l.clone());
                l
            }
            Err(_) => panic!(
                "no more output (exit: {:?}); so far:\n{}",
                child.try_wait(),
                all.join("\n")
            ),
        }
    };
    while next_line(&mut all) != "ready" {}
    // A dump may catch a thread between two states (main just after printing "ready"): ask
    // again until one shows every thread where it settles.
    let mut dumps = 0;
    loop {
        quit();
        dumps += 1;
        while !next_line(&mut all).starts_with("Full thread dump ") {}
        let mut dump = String::from("\n");
        loop {
            let l = next_line(&mut all);
            if l == "Heap" {
                break;
            }
            dump.push_str(&l);
            dump.push('\n');
        }
        match check_dump(&dump, DUMPED) {
            Ok(()) => break,
            Err(e) if dumps >= 20 => panic!("{e}"),
            Err(_) => {}
        }
    }
    // More signals in a row change nothing for the program.
    for _ in 0..5 {
        quit();
    }
    std::fs::write(&stop, "").unwrap();
    while next_line(&mut all) != "done" {}
    let status = child.wait().unwrap();
    all.extend(rx.iter());
    let text = all.join("\n");
    assert_eq!(status.code(), Some(0), "{text}");
    let own: Vec<&str> = all
        .iter()
        .map(|l| l.as_str())
        .filter(|l| ["ready", "all threads finished", "done"].contains(l))
        .collect();
    assert_eq!(own, ["ready", "all threads finished", "done"], "{text}");
    assert!(
        text.matches("Full thread dump jxvm (").count() >= dumps,
        "{text}"
    );
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(err, "", "stderr");
}

const DEADLOCKED: &str = r#"import java.nio.file.*;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
public class Deadlocked {
    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
    static void await(CountDownLatch l) {
        try { l.await(); } catch (InterruptedException e) { }
    }
    static synchronized void holdClassAndWait(Object z, Object inner) {
        synchronized (inner) {
            synchronized (z) {
                try { z.wait(); } catch (InterruptedException e) { }
            }
        }
    }
    synchronized void holdThisAndWait(Object z) {
        holdClassAndWait(z, this);
    }
    public static void main(String[] a) throws Exception {
        Object z = new Object();
        Thread w0 = start("w-0", () -> new Deadlocked().holdThisAndWait(z));
        Object x = new Object(), y = new Object();
        CountDownLatch both = new CountDownLatch(2);
        Thread m0 = start("m-0", () -> { synchronized (x) { both.countDown(); await(both); synchronized (y) { } } });
        Thread m1 = start("m-1", () -> { synchronized (y) { both.countDown(); await(both); synchronized (x) { } } });
        ReentrantLock r = new ReentrantLock(), s = new ReentrantLock();
        CountDownLatch locked = new CountDownLatch(2);
        Thread r0 = start("r-0", () -> { r.lock(); locked.countDown(); await(locked); s.lock(); });
        Thread r1 = start("r-1", () -> { s.lock(); locked.countDown(); await(locked); r.lock(); });
        while (m0.getState() != Thread.State.BLOCKED || m1.getState() != Thread.State.BLOCKED
                || !(java.util.concurrent.locks.LockSupport.getBlocker(r0) instanceof java.util.concurrent.locks.AbstractOwnableSynchronizer)
                || !(java.util.concurrent.locks.LockSupport.getBlocker(r1) instanceof java.util.concurrent.locks.AbstractOwnableSynchronizer)
                || r0.getState() != Thread.State.WAITING || r1.getState() != Thread.State.WAITING
                || w0.getState() != Thread.State.WAITING) {
            Thread.sleep(5);
        }
        System.out.println("ready");
        long end = System.currentTimeMillis() + 30000;
        while (!Files.exists(Paths.get(a[0])) && System.currentTimeMillis() < end) Thread.sleep(20);
        System.out.println("done");
    }
}
"#;

/// The thread dump `vm` prints on SIGQUIT once `Deadlocked` (in `dir`) is ready, from its
/// first line to the "Heap" line; then lets the program end.
fn deadlocked_dump(mut vm: Command, dir: &Path, stop: &Path) -> String {
    use std::io::BufRead;
    use std::time::Duration;
    let _ = std::fs::remove_file(stop);
    let mut child = vm
        .arg("-cp")
        .arg(dir)
        .arg("Deadlocked")
        .arg(stop)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in std::io::BufReader::new(stdout).lines() {
            if tx.send(l.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let mut all = Vec::new();
    let next_line = |all: &mut Vec<String>| match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(l) => {
            all.push(l.clone());
            l
        }
        Err(_) => panic!("no more output; so far:\n{}", all.join("\n")),
    };
    while next_line(&mut all) != "ready" {}
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-QUIT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let mut dump = String::new();
    loop {
        let l = next_line(&mut all);
        if l == "Heap" {
            break;
        }
        dump.push_str(&l);
        dump.push('\n');
    }
    std::fs::write(stop, "").unwrap();
    while next_line(&mut all) != "done" {}
    assert!(child.wait().unwrap().success(), "{}", all.join("\n"));
    dump
}

/// The frames of thread `name`'s entry in `dump` with the lock lines under them ("- locked",
/// "- waiting to lock", ...), each object's address replaced by the order in which the
/// threads of `names` first show it (the same object, the same number). Lambda proxy frames
/// are not compared (their hidden classes are numbered and named differently).
fn frames_and_locks(dump: &str, names: &[&str]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for name in names {
        let entry = dump_entry(dump, name).unwrap_or_else(|| panic!("no {name}:\n{dump}"));
        out.push(format!("\"{name}\""));
        for l in entry
            .lines()
            .filter(|l| l.starts_with("\tat ") || l.starts_with("\t- "))
        {
            if l.contains("$$Lambda$") {
                out.push("\tat (a lambda proxy)".into());
                continue;
            }
            let Some((before, rest)) = l.split_once("<0x") else {
                out.push(l.to_string());
                continue;
            };
            let (addr, after) = rest.split_once('>').expect("an address ends with '>'");
            let n = match seen.iter().position(|a| a == addr) {
                Some(n) => n,
                None => {
                    seen.push(addr.to_string());
                    seen.len() - 1
                }
            };
            out.push(format!("{before}<object {n}>{after}"));
        }
    }
    out
}

/// The lines of a dump's deadlock sections that say who waits for what held by whom, and the
/// count, addresses blanked out.
fn deadlock_summary(dump: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in dump.lines() {
        if l.starts_with("Found ") {
            inside = true;
        } else if l.starts_with("Java stack information") {
            inside = false;
        }
        if inside && !l.is_empty() {
            let blanked: Vec<&str> = l
                .split(' ')
                .map(|w| if w.contains("0x") { "0x?" } else { w })
                .collect();
            out.push(blanked.join(" "));
        }
    }
    out
}

#[test]
fn sigquit_dump_reports_deadlocks_as_hotspot_does() {
    if !have_jdk() {
        return;
    }
    let d = scratch("deadlocks");
    compile(&d, "Deadlocked.java", DEADLOCKED);
    let stop = d.join("stop");
    let hotspot = deadlocked_dump(Command::new("java"), &d, &stop);
    let ours = deadlocked_dump(jxvm(), &d, &stop);
    let want = deadlock_summary(&hotspot);
    assert!(
        want.contains(&"Found 2 deadlocks.".to_string()),
        "{hotspot}"
    );
    assert_eq!(
        deadlock_summary(&ours),
        want,
        "jxvm:\n{ours}\nHotSpot:\n{hotspot}"
    );
    // Each frame with the monitors it holds ("- locked", the same objects as HotSpot's), and
    // what the top frame waits for.
    let threads = ["m-0", "m-1", "r-0", "r-1", "w-0"];
    let want = frames_and_locks(&hotspot, &threads);
    assert!(
        want.iter().filter(|l| l.starts_with("\t- locked ")).count() >= 5,
        "{hotspot}"
    );
    assert_eq!(
        frames_and_locks(&ours, &threads),
        want,
        "jxvm:\n{ours}\nHotSpot:\n{hotspot}"
    );
    // The stacks: the blocked threads' entries and the deadlock sections show what they wait
    // for under their top frames (each thread twice).
    for (name, wait) in [
        ("m-0", "\t- waiting to lock <0x"),
        ("m-1", "\t- waiting to lock <0x"),
        ("r-0", "\t- parking to wait for  <0x"),
        ("r-1", "\t- parking to wait for  <0x"),
    ] {
        let entry = dump_entry(&ours, name).unwrap_or_else(|| panic!("no {name}:\n{ours}"));
        assert!(entry.contains(wait), "{entry}");
        let section = ours
            .split(&format!("\n\"{name}\":\n\tat "))
            .nth(1)
            .unwrap_or_else(|| panic!("no stack of {name} in a deadlock section:\n{ours}"));
        assert!(
            section.split("\n\"").next().unwrap().contains(wait),
            "{ours}"
        );
    }
}

/// Every size option, good and bad, gives java's messages and exit code.
#[test]
fn size_options_are_checked_as_java_checks_them() {
    if !have_jdk() {
        return;
    }
    let d = scratch("sizes");
    compile(&d, "Hello.java", HELLO);
    let options = [
        "-Xss4g",
        "-Xss2g",
        "-Xss1g",
        "-Xss1",
        "-Xss0",
        "-Xss1k",
        "-Xss135k",
        "-Xss136k",
        "-Xss1x",
        "-Xss",
        "-Xss99999999999999999999",
        "-Xmx0",
        "-Xmx1x",
        "-Xmx",
        "-Xmx1",
        "-Xmx1k",
        "-Xmx99999999g",
        "-Xmx-1",
        "-Xmx1.5g",
        "-Xmx1kk",
        "-Xmx+5m",
        "-Xmx0x1000000",
        "-Xmx18446744073709551616",
        "-Xms0",
        "-Xms1x",
        "-Xms1023k",
        "-Xms1m",
        "-Xms99999999g",
        "-Xmn0",
        "-Xmn1x",
        "-Xmn1",
        "-Xmn99999999g",
    ];
    for o in options {
        let (j, x) = run_both(&d, &[o, "Hello"]);
        assert_eq!(
            j.status.code(),
            x.status.code(),
            "{o}: {}",
            String::from_utf8_lossy(&x.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&j.stdout),
            String::from_utf8_lossy(&x.stdout),
            "{o}"
        );
        assert_eq!(first_lines(&j.stderr, 4), first_lines(&x.stderr, 4), "{o}");
    }
}

/// Arguments that are not UTF-8 are decoded as java decodes them (in the locale's encoding,
/// each bad sequence a U+FFFD), in a UTF-8 locale and in the C/POSIX one.
#[test]
fn non_utf8_arguments_are_decoded_as_java_decodes_them() {
    if !have_jdk() {
        return;
    }
    use std::os::unix::ffi::OsStrExt;
    let d = scratch("args");
    compile(
        &d,
        "Args.java",
        r#"public class Args { public static void main(String[] a) {
  System.out.println(System.getProperty("sun.jnu.encoding") + " " + a.length);
  for (String s : a) { StringBuilder b = new StringBuilder(); s.codePoints().forEach(c -> b.append(Integer.toHexString(c)).append(' ')); System.out.println(b.toString().trim()); } } }"#,
    );
    let args: [&[u8]; 8] = [
        b"a\xffb",
        b"\xc3\xa9",
        b"\xe2\x82",
        b"x\x80",
        b"\xf0\x9f\x98\x80",
        b"\xed\xa0\x80",
        b"plain",
        b"",
    ];
    let args: Vec<&std::ffi::OsStr> = args
        .iter()
        .map(|a| std::ffi::OsStr::from_bytes(a))
        .collect();
    for locale in ["C.UTF-8", "C", "POSIX"] {
        let j = Command::new("java")
            .env("LC_ALL", locale)
            .arg("-cp")
            .arg(&d)
            .arg("Args")
            .args(&args)
            .output()
            .unwrap();
        let x = jxvm()
            .env("LC_ALL", locale)
            .arg("-cp")
            .arg(&d)
            .arg("Args")
            .args(&args)
            .output()
            .unwrap();
        assert_same(&j, &x, 1);
        assert!(
            String::from_utf8_lossy(&x.stdout).contains("\n61 fffd 62\n"),
            "{locale}"
        );
    }
}

/// `main` is found as java's launcher finds it (`Class.getMethod`, then its checks): inherited
/// from a superclass (the main class initialized first), and java's messages for an instance,
/// non-public or non-void main, wherever it is declared.
#[test]
fn main_is_found_as_java_finds_it() {
    if !have_jdk() {
        return;
    }
    let d = scratch("main");
    let sources = [
        (
            "Base.java",
            "public class Base { static { System.out.println(\"Base init\"); } public static void main(String[] a) { System.out.println(\"Base.main \" + a.length); } }",
        ),
        (
            "Sub.java",
            "public class Sub extends Base { static { System.out.println(\"Sub init\"); } }",
        ),
        (
            "Inst.java",
            "public class Inst { static { System.out.println(\"Inst init\"); } public void main(String[] a) { } }",
        ),
        ("InstSub.java", "public class InstSub extends Inst { }"),
        (
            "Priv.java",
            "public class Priv { static void main(String[] a) { System.out.println(\"package-private\"); } }",
        ),
        (
            "Ret.java",
            "public class Ret { public static int main(String[] a) { return 0; } }",
        ),
        ("RetSub.java", "public class RetSub extends Ret { }"),
        (
            "IfaceMain.java",
            "public interface IfaceMain { static void main(String[] a) { System.out.println(\"interface main\"); } }",
        ),
        (
            "ImplIface.java",
            "public class ImplIface implements IfaceMain { }",
        ),
        (
            "Dflt.java",
            "interface HasDefault { default void main(String[] a) { } } public abstract class Dflt implements HasDefault { }",
        ),
        (
            "Outer.java",
            "public class Outer { public static class In extends Ret { } public static class Ok extends Sub { } }",
        ),
        (
            "PkgClass.java",
            "class PkgClass { public static void main(String[] a) { System.out.println(\"package class\"); } }",
        ),
    ];
    for (file, src) in sources {
        std::fs::write(d.join(file), src).unwrap();
    }
    let javac = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&d)
        .args(sources.iter().map(|(f, _)| d.join(f)))
        .status()
        .unwrap();
    assert!(javac.success());
    for class in [
        "Sub",
        "Inst",
        "InstSub",
        "Priv",
        "Ret",
        "RetSub",
        "IfaceMain",
        "ImplIface",
        "Dflt",
        "Outer$In",
        "Outer$Ok",
        "PkgClass",
    ] {
        let (j, x) = run_both(&d, &[class, "x"]);
        assert_same(&j, &x, 4);
    }
}

/// Writes a jar with exactly `manifest` as META-INF/MANIFEST.MF (none if None) and the given
/// (name in the jar, file) entries.
fn write_jar(path: &Path, manifest: Option<&[u8]>, files: &[(&str, PathBuf)]) {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    if let Some(m) = manifest {
        z.start_file("META-INF/MANIFEST.MF", opts).unwrap();
        z.write_all(m).unwrap();
    }
    for (name, file) in files {
        z.start_file(*name, opts).unwrap();
        z.write_all(&std::fs::read(file).unwrap()).unwrap();
    }
    z.finish().unwrap();
}

/// `-jar` reads the manifest by the JAR specification, as java does: continuation lines,
/// attribute names in any case, CR LF / CR / LF line ends, a last line without an end (java
/// drops it), `Class-Path` with several relative URLs (jars and a directory, also split over
/// lines), a missing Main-Class or manifest, and malformed manifests (java's three messages).
#[test]
fn jar_manifests_are_read_as_java_reads_them() {
    if !have_jdk() {
        return;
    }
    let d = scratch("manifest");
    let src = d.join("src");
    std::fs::create_dir_all(src.join("app/main")).unwrap();
    std::fs::create_dir_all(src.join("lib")).unwrap();
    std::fs::create_dir_all(src.join("libb")).unwrap();
    std::fs::create_dir_all(src.join("dirc")).unwrap();
    let files = [
        (
            "app/main/Main.java",
            "package app.main; public class Main { public static void main(String[] a) { System.out.println(\"main \" + a.length + \" \" + lib.A.a() + libb.B.b() + dirc.C.c()); } }",
        ),
        (
            "Simple.java",
            "public class Simple { public static void main(String[] a) { System.out.println(\"simple \" + a.length); } }",
        ),
        (
            "lib/A.java",
            "package lib; public class A { public static String a() { return \"A\"; } }",
        ),
        (
            "libb/B.java",
            "package libb; public class B { public static String b() { return \"B\"; } }",
        ),
        (
            "dirc/C.java",
            "package dirc; public class C { public static String c() { return \"C\"; } }",
        ),
    ];
    for (f, s) in files {
        std::fs::write(src.join(f), s).unwrap();
    }
    let classes = d.join("classes");
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .args(files.iter().map(|(f, _)| src.join(f)))
        .status()
        .unwrap();
    assert!(ok.success());
    std::fs::create_dir_all(d.join("lib")).unwrap();
    std::fs::create_dir_all(d.join("dir/dirc")).unwrap();
    write_jar(
        &d.join("lib/a.jar"),
        Some(b"Manifest-Version: 1.0\n"),
        &[("lib/A.class", classes.join("lib/A.class"))],
    );
    write_jar(
        &d.join("lib/b.jar"),
        None,
        &[("libb/B.class", classes.join("libb/B.class"))],
    );
    std::fs::copy(classes.join("dirc/C.class"), d.join("dir/dirc/C.class")).unwrap();
    let app = [
        ("app/main/Main.class", classes.join("app/main/Main.class")),
        ("Simple.class", classes.join("Simple.class")),
    ];
    // java.util.jar.Manifest reads lines of at most 512 bytes.
    let long = [
        b"Main-Class: Simple\nX-Long: ".as_slice(),
        &[b'a'; 600],
        b"\n",
    ]
    .concat();
    let longest = [b"Main-Class: Simple\nX-L: ".as_slice(), &[b'a'; 506], b"\n"].concat();
    let manifests: [(&str, Option<&[u8]>); 26] = [
        ("longest-line", Some(&longest)),
        ("continued", Some(b"Manifest-Version: 1.0\nMain-Class: app.ma\n in.Main\nClass-Path: lib/a.jar lib/b\n .jar dir/\n")),
        ("lower", Some(b"manifest-version: 1.0\nmain-class: Simple\n")),
        ("upper", Some(b"MAIN-CLASS: Simple\n")),
        ("crlf", Some(b"Manifest-Version: 1.0\r\nMain-Class: app.main.Main\r\nClass-Path: lib/a.jar\r\n  lib/b.jar dir/\r\n\r\n")),
        ("cr", Some(b"Manifest-Version: 1.0\rMain-Class: Simple\r")),
        ("no-end", Some(b"Manifest-Version: 1.0\nMain-Class: Simple")),
        ("class-path-no-end", Some(b"Main-Class: app.main.Main\nClass-Path: lib/a.jar lib/b.jar dir/")),
        ("no-main", Some(b"Manifest-Version: 1.0\nCreated-By: me\n")),
        ("no-manifest", None),
        ("empty", Some(b"")),
        ("no-space", Some(b"Main-Class:Simple\n")),
        ("tab", Some(b"Main-Class:\tSimple\n")),
        ("in-section", Some(b"Manifest-Version: 1.0\n\nName: x\nMain-Class: Simple\n")),
        ("spaces", Some(b"Main-Class:   Simple   \n")),
        ("slashes", Some(b"Main-Class: app/main/Main\nClass-Path: lib/a.jar lib/b.jar dir/\n")),
        ("class-path-spaces", Some(b"Main-Class: app.main.Main\nClass-Path:  lib/a.jar   lib/b.jar\tdir/ missing.jar http://x/y.jar\n")),
        ("class-path-lines", Some(b"Main-Class: app.main.Main\nClass-Path: lib/a.jar\n  lib/b.jar\n  dir/\n")),
        ("dir-without-slash", Some(b"Main-Class: app.main.Main\nClass-Path: lib/a.jar lib/b.jar dir\n")),
        ("misplaced", Some(b" Main-Class: Simple\n")),
        ("blank-first", Some(b"\nMain-Class: Simple\n")),
        ("long-line", Some(&long)),
        ("bad-name", Some(b"Main-Class: Simple\nX Y: z\n")),
        ("no-colon", Some(b"Main-Class: Simple\nNoColonHere\n")),
        ("continued-no-end", Some(b"Main-Class: Sim\n ple")),
        ("bad-section", Some(b"Main-Class: Simple\n\nFoo: bar\n")),
    ];
    for (name, manifest) in manifests {
        let jar = d.join(format!("{name}.jar"));
        write_jar(&jar, manifest, &app);
        let j = Command::new("java")
            .current_dir(&d)
            .arg("-jar")
            .arg(format!("{name}.jar"))
            .arg("q")
            .output()
            .unwrap();
        let x = jxvm()
            .current_dir(&d)
            .arg("-jar")
            .arg(format!("{name}.jar"))
            .arg("q")
            .output()
            .unwrap();
        assert_eq!(
            j.status.code(),
            x.status.code(),
            "{name}: {}",
            String::from_utf8_lossy(&x.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&j.stdout),
            String::from_utf8_lossy(&x.stdout),
            "{name}"
        );
        assert_eq!(
            first_lines(&j.stderr, 1),
            first_lines(&x.stderr, 1),
            "{name}"
        );
    }
    // Class-Path also applies to a jar named by -cp.
    let j = Command::new("java")
        .current_dir(&d)
        .args(["-cp", "continued.jar", "app.main.Main"])
        .output()
        .unwrap();
    let x = jxvm()
        .current_dir(&d)
        .args(["-cp", "continued.jar", "app.main.Main"])
        .output()
        .unwrap();
    assert_same(&j, &x, 1);
    assert_eq!(String::from_utf8_lossy(&x.stdout), "main 0 ABC\n");
}

/// Runs jxvm with `args` in `dir`, failing if it has not ended within 60 seconds.
fn jxvm_within_a_minute(dir: &Path, args: &[&str]) -> Output {
    let mut child = jxvm()
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("jxvm {args:?} still runs after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// Class files are read with a bound, as java's application loader reads them (as many bytes
/// as the file's size, an int, says): /dev/zero as Main.class and a sparse 3 GiB class file
/// read as empty and give java's ClassFormatError instead of being read forever. A FIFO (which
/// java opens and waits on forever, so there is nothing to compare with) is read as empty too,
/// as a class file and as a -jar file.
#[test]
fn class_files_are_read_with_a_bound() {
    if !have_jdk() {
        return;
    }
    let d = scratch("bounded");
    std::os::unix::fs::symlink("/dev/zero", d.join("Zero.class")).unwrap();
    let huge = std::fs::File::create(d.join("Huge.class")).unwrap();
    huge.set_len(3 << 30).unwrap();
    drop(huge);
    for name in ["Zero", "Huge"] {
        let j = Command::new("java")
            .arg("-cp")
            .arg(&d)
            .arg(name)
            .output()
            .unwrap();
        let x = jxvm_within_a_minute(&d, &["-cp", ".", name]);
        assert_same(&j, &x, 2);
    }
    // The same file through a URLClassLoader (the JDK's Java code reads it).
    let ucl = scratch("bounded-ucl");
    compile(
        &ucl,
        "Ucl.java",
        r#"import java.net.*; import java.io.*;
public class Ucl { public static void main(String[] a) throws Exception {
  URLClassLoader l = new URLClassLoader(new URL[] { new File(a[0]).toURI().toURL() }, null);
  try { l.loadClass("Zero"); } catch (Throwable e) { System.out.println(e); }
  try (InputStream in = l.getResourceAsStream("Zero.class")) { System.out.println(in.readNBytes(5).length); } } }"#,
    );
    let dir = d.to_str().unwrap();
    let (j, x) = run_both(&ucl, &["Ucl", dir]);
    assert_same(&j, &x, 1);
    let fifo = d.join("Fifo.class");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let x = jxvm_within_a_minute(&d, &["-cp", ".", "Fifo"]);
    assert_eq!(x.status.code(), Some(1));
    assert_eq!(
        first_lines(&x.stderr, 2),
        "Error: LinkageError occurred while loading main class Fifo\n\tjava.lang.ClassFormatError: Truncated class file"
    );
    let x = jxvm_within_a_minute(&d, &["-jar", "Fifo.class"]);
    assert_eq!(x.status.code(), Some(1));
    assert_eq!(
        first_lines(&x.stderr, 1),
        "Error: Invalid or corrupt jarfile Fifo.class"
    );
}

const HOOKED: &str = r#"public class Hooked {
    public static void main(String[] a) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook ran")));
        System.out.println("ready");
        Thread.sleep(60000);
        System.out.println("not signalled");
    }
}
"#;

/// Runs `cmd`, sends it signal `sig` (a `kill` name) once it printed "ready", and returns its
/// stdout and exit code.
fn signalled_after_ready(mut cmd: Command, sig: &str) -> (String, Option<i32>) {
    use std::io::BufRead;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for l in std::io::BufReader::new(stdout).lines() {
            if tx.send(l.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let mut out = String::new();
    loop {
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(l) => {
                out.push_str(&l);
                out.push('\n');
                if l == "ready" {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("no \"ready\" from {cmd:?}; so far: {out}");
            }
        }
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .arg(format!("-{sig}"))
            .arg(&pid)
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    out.extend(rx.iter().map(|l| l + "\n"));
    (out, status.code())
}

/// SIGTERM, SIGINT and SIGHUP run the shutdown hooks and exit with 128 + the signal, as on
/// HotSpot (its Terminator's handlers, dispatched by the VM to Java).
#[test]
fn shutdown_signals_run_the_hooks() {
    if !have_jdk() {
        return;
    }
    let d = scratch("hooks");
    compile(&d, "Hooked.java", HOOKED);
    for sig in ["TERM", "INT", "HUP"] {
        let mut java = Command::new("java");
        java.arg("-cp").arg(&d).arg("Hooked");
        let mut x = jxvm();
        x.arg("-cp").arg(&d).arg("Hooked");
        let (j_out, j_code) = signalled_after_ready(java, sig);
        let (x_out, x_code) = signalled_after_ready(x, sig);
        assert_eq!((&j_out, j_code), (&x_out, x_code), "SIG{sig}");
        assert_eq!(x_out, "ready\nhook ran\n");
    }
}

/// Under -Xrs the VM takes no signals of its own: SIGTERM and SIGINT end the process without
/// the shutdown hooks, SIGQUIT prints no thread dump but ends it, as with java -Xrs.
#[test]
fn reduced_signal_usage_leaves_the_signals_alone() {
    if !have_jdk() {
        return;
    }
    let d = scratch("xrs");
    compile(&d, "Hooked.java", HOOKED);
    for sig in ["TERM", "INT", "QUIT"] {
        let mut java = Command::new("java");
        java.args(["-Xrs", "-cp"]).arg(&d).arg("Hooked");
        let mut x = jxvm();
        x.args(["-Xrs", "-cp"]).arg(&d).arg("Hooked");
        let (j_out, j_code) = signalled_after_ready(java, sig);
        let (x_out, x_code) = signalled_after_ready(x, sig);
        assert_eq!((&j_out, j_code), (&x_out, x_code), "SIG{sig}");
        assert_eq!(x_out, "ready\n");
    }
}

/// `sun.misc.Signal.handle` takes the signals java lets a program handle and refuses the
/// others with java's message; `Signal.raise` runs the handler on a daemon thread named
/// "SIGxxx handler", as on HotSpot.
#[test]
fn signal_handlers_run_as_on_hotspot() {
    if !have_jdk() {
        return;
    }
    let d = scratch("handlers");
    compile(
        &d,
        "Handled.java",
        r#"import sun.misc.Signal;
import sun.misc.SignalHandler;
import java.util.concurrent.*;
public class Handled { public static void main(String[] a) throws Exception {
  Semaphore handled = new Semaphore(0);
  for (String n : a) {
    try {
      Signal sig = new Signal(n);
      SignalHandler old = Signal.handle(sig, s -> { Thread c = Thread.currentThread(); System.out.println("got " + s + " " + s.getNumber() + " in " + c.getName() + " daemon=" + c.isDaemon()); handled.release(); });
      // HotSpot uses SIGUSR2 itself: the handler it had is a native one, which jxvm has not.
      System.out.println(n + " " + sig.getNumber() + (n.equals("USR2") ? "" : " old=" + (old == SignalHandler.SIG_DFL ? "SIG_DFL" : old == SignalHandler.SIG_IGN ? "SIG_IGN" : old.getClass().getName())));
      Signal.raise(sig);
      if (!handled.tryAcquire(30, TimeUnit.SECONDS)) System.out.println("no handler ran");
    } catch (IllegalArgumentException e) { System.out.println(n + " " + e); }
  }
  System.out.println("done"); } }"#,
    );
    let signals = [
        "USR2", "USR1", "QUIT", "TERM", "HUP", "INT", "KILL", "STOP", "SEGV", "FPE", "ILL", "ALRM",
        "WINCH", "NOPE",
    ];
    let mut args = vec!["Handled"];
    args.extend(signals);
    let (j, x) = run_both(&d, &args);
    assert_same(&j, &x, 1);
    assert!(
        String::from_utf8_lossy(&x.stdout)
            .contains("got SIGUSR2 12 in SIGUSR2 handler daemon=true\n")
    );
}

/// `-jar`'s `Class-Path` as Surefire's booter jar writes it: relative URLs resolved against the
/// jar's directory (not the working directory) and absolute `file:` URLs; a jar naming a
/// `Launcher-Agent-Class` (an agent, which needs java.lang.instrument) is refused in one line.
#[test]
fn jar_class_path_is_relative_to_the_jar_and_agents_are_refused() {
    if !have_jdk() {
        return;
    }
    let d = scratch("booter");
    let src = d.join("src");
    std::fs::create_dir_all(src.join("lib")).unwrap();
    std::fs::write(
        src.join("Boot.java"),
        "public class Boot { public static void main(String[] a) { System.out.println(lib.A.a() + lib.D.d()); } }",
    )
    .unwrap();
    std::fs::write(
        src.join("lib/A.java"),
        "package lib; public class A { public static String a() { return \"A\"; } }",
    )
    .unwrap();
    std::fs::write(
        src.join("lib/D.java"),
        "package lib; public class D { public static String d() { return \"D\"; } }",
    )
    .unwrap();
    let classes = d.join("classes");
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .args(["Boot.java", "lib/A.java", "lib/D.java"].map(|f| src.join(f)))
        .status()
        .unwrap();
    assert!(ok.success());
    for sub in [
        "target/surefire",
        "repo/lib",
        "elsewhere",
        "dir with space/lib",
    ] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    write_jar(
        &d.join("repo/lib/a.jar"),
        None,
        &[("lib/A.class", classes.join("lib/A.class"))],
    );
    std::fs::copy(
        classes.join("lib/D.class"),
        d.join("dir with space/lib/D.class"),
    )
    .unwrap();
    let manifest = format!(
        "Manifest-Version: 1.0\nMain-Class: Boot\nClass-Path: ../../repo/lib/a.jar file:{}/dir%20with%20space/\n",
        d.display()
    );
    let boot = d.join("target/surefire/booter.jar");
    let main = [("Boot.class", classes.join("Boot.class"))];
    write_jar(&boot, Some(manifest.as_bytes()), &main);
    let run = |mut c: Command| {
        c.current_dir(d.join("elsewhere"))
            .arg("-jar")
            .arg(&boot)
            .output()
            .unwrap()
    };
    let (j, x) = (run(Command::new("java")), run(jxvm()));
    assert_same(&j, &x, 1);
    assert_eq!(String::from_utf8_lossy(&x.stdout), "AD\n");
    let agent = "Main-Class: Boot\nLauncher-Agent-Class: lib.A\n";
    write_jar(&boot, Some(agent.as_bytes()), &main);
    let x = run(jxvm());
    assert_eq!(x.status.code(), Some(1));
    let err = String::from_utf8_lossy(&x.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Launcher-Agent-Class lib.A") && err.contains("java.lang.instrument"));
    assert!(x.stdout.is_empty());
}

/// `--make-home DIR` makes a JAVA_HOME whose `bin/java` is jxvm: `-version` and a program run
/// through it as through java, with `java.home` the new home (whatever JAVA_HOME says), and
/// its `release`, `lib/modules` and `conf` there; made again, it is remade; a directory that
/// cannot be one is refused in one line.
#[test]
fn make_home_gives_a_java_home_that_runs_jxvm() {
    if !have_jdk() {
        return;
    }
    let d = scratch("home");
    compile(
        &d,
        "Home.java",
        "public class Home { public static void main(String[] a) { System.out.println(System.getProperty(\"java.home\") + \" \" + a[0]); } }",
    );
    let home = d.join("jdk");
    for _ in 0..2 {
        let x = jxvm().arg("--make-home").arg(&home).output().unwrap();
        assert!(x.status.success(), "{}", String::from_utf8_lossy(&x.stderr));
    }
    for f in [
        "release",
        "lib/modules",
        "conf/security/java.security",
        "bin/javac",
    ] {
        assert!(home.join(f).exists(), "{f}");
    }
    let java = home.join("bin/java");
    let v = Command::new(&java).arg("-version").output().unwrap();
    let j = Command::new("java").arg("-version").output().unwrap();
    assert!(v.status.success());
    assert_eq!(first_lines(&v.stderr, 1), first_lines(&j.stderr, 1));
    assert!(String::from_utf8_lossy(&v.stderr).contains("jxvm"));
    let x = Command::new(&java)
        .env("JAVA_HOME", "/nonexistent")
        .arg("-cp")
        .arg(&d)
        .args(["Home", "arg"])
        .output()
        .unwrap();
    assert!(x.status.success(), "{}", String::from_utf8_lossy(&x.stderr));
    assert_eq!(
        String::from_utf8_lossy(&x.stdout),
        format!("{} arg\n", home.display())
    );
    // Through a link named java to it (as /usr/bin/java is), the home is still the home.
    std::fs::create_dir_all(d.join("links")).unwrap();
    std::os::unix::fs::symlink(&java, d.join("links/java")).unwrap();
    let x = Command::new(d.join("links/java"))
        .arg("-cp")
        .arg(&d)
        .args(["Home", "linked"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&x.stdout),
        format!("{} linked\n", home.display())
    );
    std::fs::write(d.join("file"), "x").unwrap();
    for bad in [d.join("missing/jdk"), d.clone(), d.join("file")] {
        let x = jxvm().arg("--make-home").arg(&bad).output().unwrap();
        assert_eq!(x.status.code(), Some(1), "{}", bad.display());
        let err = String::from_utf8_lossy(&x.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("Error: --make-home"), "{err}");
    }
    let x = jxvm().arg("--make-home").output().unwrap();
    assert_eq!(x.status.code(), Some(1));
}

/// `-javaagent:` and native agents are refused in one line naming what jxvm lacks.
#[test]
fn agents_are_refused_naming_what_is_missing() {
    let d = scratch("agents");
    for (opt, lacks) in [
        ("-javaagent:agent.jar", "java.lang.instrument"),
        ("-agentlib:jdwp=transport=dt_socket", "JVMTI"),
        ("-agentpath:/x.so", "JVMTI"),
    ] {
        let x = jxvm()
            .arg("-cp")
            .arg(&d)
            .args([opt, "Main"])
            .output()
            .unwrap();
        assert_eq!(x.status.code(), Some(1));
        let err = String::from_utf8_lossy(&x.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(opt) && err.contains(lacks), "{err}");
    }
}

/// stderr without the version lines (java's and jxvm's third differ) and GC log lines.
fn errors_only(b: &[u8]) -> String {
    String::from_utf8_lossy(b)
        .lines()
        .filter(|l| {
            !(l.starts_with("openjdk version")
                || l.starts_with("OpenJDK")
                || l.starts_with("jxvm (build")
                || l.starts_with('['))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `-XX:` options as HotSpot 17 takes them: known flags accepted (with values in range, after
/// their unlock option), unknown ones refused with its message, suggestion and exit code,
/// misused ones (`+`/`-` on a value flag, a boolean without them, a malformed or out-of-range
/// value) with its messages; `#` comments one out, IgnoreUnrecognizedVMOptions lets unknown
/// names pass; MaxHeapSize and ThreadStackSize act as -Xmx and -Xss.
#[test]
fn xx_options_are_checked_as_hotspot_checks_them() {
    if !have_jdk() {
        return;
    }
    let cases: &[&[&str]] = &[
        &["-XX:Foo"],
        &["-XX:+Foo"],
        &["-XX:Foo=1"],
        &["-XX:", "-XX:="],
        &[
            "-XX:+UseG1GC",
            "-XX:+UseStringDeduplication",
            "-XX:MaxMetaspaceSize=256m",
        ],
        &["-XX:UseG1GC"],
        &["-XX:UseG1GC=true"],
        &["-XX:+UseG1GC=3"],
        &["-XX:MaxHeapSize"],
        &["-XX:+MaxHeapSize=3"],
        &["-XX:MaxHeapSize=abc"],
        &["-XX:InitialHeapSize=abc"],
        &["-XX:ThreadStackSize=2000000"],
        &["-XX:+PrintInlining"],
        &["-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining"],
        &[
            "-XX:+UnlockDiagnosticVMOptions",
            "-XX:-UnlockDiagnosticVMOptions",
            "-XX:+PrintInlining",
        ],
        &["-XX:+UseEpsilonGC"],
        &["-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC"],
        &["-XX:+UseParallelOldGC"],
        &["-XX:MaxGCPauseMilis=100"],
        &["-XX:ThreadPriorityPolicy=5"],
        &["-XX:AdaptiveSizeDecrementScaleFactor=0"],
        &[
            "-XX:AdaptiveSizeDecrementScaleFactor=0X10",
            "-XX:NewSize=2T",
        ],
        &["-XX:AdaptiveSizeDecrementScaleFactor=1kb"],
        &["-XX:AdaptiveSizeDecrementScaleFactor=-0"],
        &["-XX:AdaptiveSizeDecrementScaleFactor=18446744073709551616"],
        &["-XX:MaxRAMPercentage=200"],
        &["-XX:MaxRAMPercentage=5.5", "-XX:InitialRAMPercentage=0x1"],
        &["-XX:MaxRAMPercentage=1e1"],
        &[
            "-XX:ErrorFile=",
            "-XX:OnError=x",
            "-XX:+HeapDumpOnOutOfMemoryError",
        ],
        &["-XX:#+Foo"],
        &["-XX:+IgnoreUnrecognizedVMOptions", "-XX:+Foo"],
        &["-XX:+IgnoreUnrecognizedVMOptions", "-XX:+PrintInlining"],
    ];
    for &case in cases {
        let j = Command::new("java")
            .args(case)
            .arg("-version")
            .output()
            .unwrap();
        let x = jxvm().args(case).arg("-version").output().unwrap();
        assert_eq!(j.status.code(), x.status.code(), "{case:?}");
        assert_eq!(errors_only(&j.stderr), errors_only(&x.stderr), "{case:?}");
    }
    let d = scratch("xx");
    compile(
        &d,
        "Sizes.java",
        "public class Sizes { public static void main(String[] a) { System.out.println(Runtime.getRuntime().maxMemory() <= (64 << 20)); } }",
    );
    let x = jxvm()
        .arg("-cp")
        .arg(&d)
        .args(["-XX:MaxHeapSize=64m", "-XX:ThreadStackSize=2048", "Sizes"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&x.stdout), "true\n");
    let x = jxvm()
        .args(["-XX:ThreadStackSize=100", "-version"])
        .output()
        .unwrap();
    assert_eq!(x.status.code(), Some(1), "a 100k stack is too small");
}

/// Source-file mode as java runs it: `Prog.java` (or `--source N` and any file name) compiled
/// in memory by javac's source launcher and run with the arguments after it, with java's
/// `sun.java.command`, `jdk.internal.javac.source` and class path; compilation errors and a
/// missing file as java reports them.
#[test]
fn source_files_run_as_java_runs_them() {
    if !have_jdk() {
        return;
    }
    let d = scratch("source");
    let prog = "public class Prog { public static void main(String[] a) { System.out.println(System.getProperty(\"sun.java.command\") + \"|\" + System.getProperty(\"jdk.internal.javac.source\") + \"|\" + String.join(\",\", a) + \"|\" + System.getProperty(\"java.class.path\")); } }";
    std::fs::write(d.join("Prog.java"), prog).unwrap();
    std::fs::write(d.join("script"), prog).unwrap();
    std::fs::write(
        d.join("Bad.java"),
        "class Bad { void f() { int x = \"s\"; } }",
    )
    .unwrap();
    let cases: &[&[&str]] = &[
        &["Prog.java", "x", "y"],
        &["--source", "17", "Prog.java", "x"],
        &["--source=17", "script", "z"],
        &["Bad.java"],
        &["--source", "17", "Missing"],
        &["Missing.java"],
    ];
    for &case in cases {
        let run = |mut c: Command| c.current_dir(&d).args(case).output().unwrap();
        let (j, x) = (run(Command::new("java")), run(jxvm()));
        assert_same(&j, &x, 5);
    }
}

/// A class compiled with preview features (a pattern in a switch, preview in 17) runs with
/// `--enable-preview` and without it is refused with java's message.
#[test]
fn preview_features_need_enable_preview() {
    if !have_jdk() {
        return;
    }
    let d = scratch("preview");
    std::fs::write(
        d.join("Pv.java"),
        "public class Pv { public static void main(String[] a) { Object o = 42; String s = switch (o) { case Integer i -> \"int \" + i; default -> \"other\"; }; System.out.println(s); } }",
    )
    .unwrap();
    let ok = Command::new("javac")
        .args(["--release", "17", "--enable-preview", "-d"])
        .arg(&d)
        .arg(d.join("Pv.java"))
        .output()
        .unwrap();
    assert!(ok.status.success());
    let (j, x) = run_both(&d, &["--enable-preview", "Pv"]);
    assert_same(&j, &x, 1);
    assert_eq!(String::from_utf8_lossy(&x.stdout), "int 42\n");
    let (j, x) = run_both(&d, &["Pv"]);
    assert_same(&j, &x, 2);
}

/// `-XshowSettings` (java's LauncherHelper prints them once the VM is created), before
/// `-showversion`'s or `--show-version`'s version and the program, or before `-version`'s and
/// exit; `--version`'s form of the version. Lines naming the VM differ and are left out.
#[test]
fn settings_and_versions_are_shown_as_java_shows_them() {
    if !have_jdk() {
        return;
    }
    let d = scratch("settings");
    compile(&d, "Hello.java", HELLO);
    let same_vm = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .lines()
            .filter(|l| !l.contains("OpenJDK 64-Bit") && !l.contains("jxvm"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let cases: &[&[&str]] = &[
        &["--version"],
        &["-XshowSettings:vm", "-version"],
        &[
            "-XshowSettings:vm",
            "-Xmx64m",
            "-Xss1m",
            "-Xms8m",
            "-showversion",
            "Hello",
        ],
        &["-XshowSettings:locale", "--show-version", "Hello"],
        &["-XshowSettings:system", "Hello"],
    ];
    for &case in cases {
        let (j, x) = run_both(&d, case);
        assert_eq!(j.status.code(), x.status.code(), "{case:?}");
        assert_eq!(same_vm(&j.stdout), same_vm(&x.stdout), "{case:?}");
        assert_eq!(same_vm(&j.stderr), same_vm(&x.stderr), "{case:?}");
    }
    // With no program, the settings and then the usage (each launcher's own), and exit 1.
    let (j, x) = run_both(&d, &["-XshowSettings:vm"]);
    assert_eq!(j.status.code(), x.status.code());
    assert_eq!(first_lines(&j.stderr, 2), first_lines(&x.stderr, 2));
    assert!(String::from_utf8_lossy(&x.stderr).contains("Usage: jxvm"));
}

/// `-verbose:class` prints a line per class loaded as HotSpot without its shared archive
/// does: `[uptime][info][class,load] NAME source: jrt:/MODULE` for the JDK's classes,
/// `file:` URLs of the class path's directory or jar for the program's.
#[test]
fn verbose_class_logs_each_class_loaded() {
    if !have_jdk() {
        return;
    }
    let d = scratch("verbose-class");
    compile(&d, "Hello.java", HELLO);
    let j = Command::new("java")
        .args(["-Xshare:off", "-verbose:class", "-cp"])
        .arg(&d)
        .arg("Hello")
        .output()
        .unwrap();
    let x = jxvm()
        .args(["-verbose:class", "-cp"])
        .arg(&d)
        .arg("Hello")
        .output()
        .unwrap();
    let tail = |o: &Output, name: &str| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find(|l| l.contains(&format!("] {name} source: ")))
            .and_then(|l| l.split_once("[info]").map(|(_, t)| t.to_string()))
    };
    for name in ["java.lang.Object", "java.lang.String", "Hello"] {
        let (jt, xt) = (tail(&j, name), tail(&x, name));
        assert!(jt.is_some(), "{name}");
        assert_eq!(jt, xt, "{name}");
    }
    let first = String::from_utf8_lossy(&x.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        first.starts_with('[') && first.contains("s][info][class,load] "),
        "{first}"
    );
    let out = String::from_utf8_lossy(&x.stdout);
    assert!(out.contains("\nHello, World!\n"));
    assert!(out.ends_with("] java.lang.Shutdown$Lock source: jrt:/java.base\n"));
}

/// java's module listing options (`--list-modules`, `--describe-module`/`-d`,
/// `--validate-modules`, `--show-module-resolution`; LauncherHelper and ModuleBootstrap print
/// them), `--dry-run` (the main class loaded and checked, not run), the old `-ss`/`-ms`/`-mx` forms of `-Xss`/`-Xms`/`-Xmx`, `-X`, `-Xinternalversion`
/// and the -X options that change nothing in jxvm. Where the JDK prints a hash set, lines are
/// compared sorted; the module path (`-p`, `-m`) is refused in one line.
#[test]
fn module_listings_old_size_forms_and_extra_options() {
    if !have_jdk() {
        return;
    }
    let d = scratch("modules");
    compile(&d, "Hello.java", HELLO);
    compile(&d, "NoMain.java", "public class NoMain {}");
    let sorted = |b: &[u8]| {
        let mut v: Vec<String> = String::from_utf8_lossy(b)
            .lines()
            .map(String::from)
            .collect();
        v.sort();
        v
    };
    let cases: &[&[&str]] = &[
        &["--list-modules"],
        &["--limit-modules", "java.sql", "--list-modules"],
        &["--describe-module", "java.sql"],
        &["-d", "java.logging"],
        &["--describe-module=java.sql"],
        &["-d", "no.such.module"],
        &["--validate-modules"],
        &["--show-module-resolution", "Hello"],
        &["--dry-run", "Hello"],
        &["--dry-run", "Missing"],
        &["--dry-run", "NoMain"],
        &["-ss1m", "-ms8m", "-mx64m", "Hello"],
        &["-mxabc", "Hello"],
        &["-ss10", "Hello"],
        &[
            "-Xnoclassgc",
            "-Xmaxjitcodesize64m",
            "-Xverify:all",
            "Hello",
        ],
        &["-Xshare:on", "Hello"],
        &["-Xverify:remote", "Hello"],
    ];
    for &case in cases {
        let (j, x) = run_both(&d, case);
        assert_eq!(j.status.code(), x.status.code(), "{case:?}");
        assert_eq!(sorted(&j.stdout), sorted(&x.stdout), "{case:?}");
        assert_eq!(
            first_lines(&j.stderr, 2),
            first_lines(&x.stderr, 2),
            "{case:?}"
        );
    }
    let x = jxvm().arg("-X").output().unwrap();
    assert!(x.status.success() && String::from_utf8_lossy(&x.stderr).contains("-Xss<size>"));
    let x = jxvm().arg("--help-extra").output().unwrap();
    assert!(x.status.success() && String::from_utf8_lossy(&x.stdout).contains("-Xss<size>"));
    let x = jxvm().arg("-Xinternalversion").output().unwrap();
    assert!(String::from_utf8_lossy(&x.stdout).starts_with("jxvm ("));
    for opt in [
        "-p",
        "--module-path",
        "-m",
        "--module=a/b",
        "--upgrade-module-path",
    ] {
        let x = jxvm().args([opt, "x", "Hello"]).output().unwrap();
        assert_eq!(x.status.code(), Some(1));
        let err = String::from_utf8_lossy(&x.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("module path"), "{err}");
    }
}

/// `-XX:VMOptionsFile=FILE`: the file's options (quotes group) in its place, as HotSpot reads
/// them; a missing file, a second one, one naming another, and a non-option in it are refused
/// with HotSpot's messages.
#[test]
fn vm_options_files_are_read_as_hotspot_reads_them() {
    if !have_jdk() {
        return;
    }
    let d = scratch("vmoptions");
    compile(
        &d,
        "P.java",
        "public class P { public static void main(String[] a) { System.out.println(System.getProperty(\"k\") + \" \" + (Runtime.getRuntime().maxMemory() <= 64 << 20)); } }",
    );
    let files = [
        ("good", "-Dk=\"a b\"\n-XX:+UseG1GC -Xmx64m\n"),
        ("bad-flag", "-XX:Foo\n"),
        ("nested", "-XX:VMOptionsFile=good\n"),
        ("comment", "# c\n-Dk=x\n"),
    ];
    for (name, text) in files {
        std::fs::write(d.join(name), text).unwrap();
    }
    let cases: &[&[&str]] = &[
        &["-XX:VMOptionsFile=good", "P"],
        &["-XX:VMOptionsFile=bad-flag", "P"],
        &["-XX:VMOptionsFile=nested", "P"],
        &["-XX:VMOptionsFile=good", "-XX:VMOptionsFile=good", "P"],
        &["-XX:VMOptionsFile=comment", "P"],
        &["-XX:VMOptionsFile=missing", "P"],
    ];
    for &case in cases {
        let run = |mut c: Command| {
            c.current_dir(&d)
                .args(["-cp", "."])
                .args(case)
                .output()
                .unwrap()
        };
        let (j, x) = (run(Command::new("java")), run(jxvm()));
        assert_same(&j, &x, 3);
    }
}

/// `-Xbootclasspath/a:`: classes the JDK's image does not have come from the appended
/// directories and jars, defined by the boot loader (no class loader, unnamed module), with
/// their resources found through it, as java does.
#[test]
fn boot_class_path_append_is_the_boot_loaders() {
    if !have_jdk() {
        return;
    }
    let d = scratch("bootappend");
    let src = d.join("src");
    std::fs::create_dir_all(src.join("bx")).unwrap();
    std::fs::write(
        src.join("bx/B.java"),
        "package bx; public class B { public static String hi() { return \"B from \" + B.class.getClassLoader() + \" \" + B.class.getModule().isNamed(); } }",
    )
    .unwrap();
    std::fs::write(
        src.join("U.java"),
        "public class U { public static void main(String[] a) throws Exception { System.out.println(bx.B.hi()); System.out.println(ClassLoader.getSystemResource(\"bx/B.class\") != null); System.out.println(Class.forName(\"bx.B\", false, null).getName()); } }",
    )
    .unwrap();
    let javac = |out: &str, cp: &str, file: &str| {
        let ok = Command::new("javac")
            .args(["--release", "17", "-cp", cp, "-d", out, file])
            .current_dir(&d)
            .status()
            .unwrap();
        assert!(ok.success());
    };
    javac("boot", ".", "src/bx/B.java");
    javac("app", "boot", "src/U.java");
    let run = |mut c: Command| {
        c.current_dir(&d)
            .args(["-Xbootclasspath/a:none:boot", "-cp", "app", "U"])
            .output()
            .unwrap()
    };
    let (j, x) = (run(Command::new("java")), run(jxvm()));
    assert_same(&j, &x, 2);
    assert_eq!(
        String::from_utf8_lossy(&x.stdout),
        "B from null false\ntrue\nbx.B\n"
    );
}

const HOT_LOOP: &str = r#"
public class HotLoop {
    static int sum(int[] a) { int s = 0; for (int i = 0; i < a.length; i++) s += a[i] ^ i; return s; }
    public static void main(String[] args) {
        int[] a = new int[500];
        for (int i = 0; i < a.length; i++) a[i] = i * 31;
        long t = 0;
        for (int k = 0; k < 400; k++) t += sum(a);
        System.out.println(t);
    }
}
"#;

#[test]
fn the_compiler_modes_and_print_compilation() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("jit-modes");
    compile(&dir, "HotLoop.java", HOT_LOOP);
    let (j, x) = run_both(&dir, &["HotLoop"]);
    assert_same(&j, &x, 5);
    // Each mode gives the same answer; -version names the mode as java does.
    for (flag, info) in [
        ("-Xint", "interpreted mode"),
        ("-Xmixed", "mixed mode"),
        ("-Xcomp", "compiled mode"),
    ] {
        let out = jxvm()
            .arg(flag)
            .arg("-cp")
            .arg(&dir)
            .arg("HotLoop")
            .output()
            .unwrap();
        assert_eq!(out.stdout, j.stdout, "{flag}");
        let v = jxvm().args([flag, "-version"]).output().unwrap();
        let text = String::from_utf8_lossy(&v.stderr);
        assert!(text.contains(info), "{flag}: {text}");
    }
    // A line per compiled method: its name, bytecode size and code size.
    let out = jxvm()
        .args(["-XX:+PrintCompilation", "-XX:CompileThreshold=100", "-cp"])
        .arg(&dir)
        .arg("HotLoop")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("HotLoop::sum"))
        .unwrap_or_else(|| panic!("no line for HotLoop::sum in {text}"));
    assert!(
        line.contains("HotLoop::sum (26 bytes)") && line.contains("bytes of code"),
        "{line}"
    );
    assert!(text.ends_with(&String::from_utf8_lossy(&j.stdout).to_string()));
    // -Xint compiles nothing.
    let out = jxvm()
        .args(["-Xint", "-XX:+PrintCompilation", "-cp"])
        .arg(&dir)
        .arg("HotLoop")
        .output()
        .unwrap();
    assert_eq!(out.stdout, j.stdout);
}

const INLINED: &str = r#"
public class Inlined {
    static final class Cell {
        private final int v;
        private Object tag;
        Cell(int v) { this.v = v; }
        int v() { return v; }
        void tag(Object t) { tag = t; }
        int spin() { int s = 0; for (int i = 0; i < 3; i++) s += v; return s; }
    }

    static long run(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            Cell c = new Cell(i);
            c.tag(c);
            s += c.v() + c.spin();
        }
        return s;
    }

    public static void main(String[] a) {
        long s = 0;
        for (int i = 0; i < 50; i++) s += run(2000);
        System.out.println(s);
    }
}
"#;

#[test]
fn print_inlining_names_each_call_inlined_or_why_not() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("jit-inlining");
    compile(&dir, "Inlined.java", INLINED);
    let (j, _) = run_both(&dir, &["Inlined"]);
    let out = jxvm()
        .args(["-XX:+PrintInlining", "-cp"])
        .arg(&dir)
        .arg("Inlined")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("-XX:+UnlockDiagnosticVMOptions"),
        "a diagnostic flag, as in HotSpot"
    );
    let out = jxvm()
        .args([
            "-XX:+UnlockDiagnosticVMOptions",
            "-XX:+PrintCompilation",
            "-XX:+PrintInlining",
            "-XX:CompileThreshold=1000",
            "-cp",
        ])
        .arg(&dir)
        .arg("Inlined")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with(&*String::from_utf8_lossy(&j.stdout)),
        "{text}"
    );
    let after_run = text
        .split_once("Inlined::run")
        .unwrap_or_else(|| panic!("run was compiled: {text}"))
        .1;
    for expected in [
        "@ 14  Inlined$Cell::<init> (10 bytes)   inline",
        "  @ 1   java.lang.Object::<init> (1 bytes)   inline",
        "Inlined$Cell::tag (6 bytes)   inline",
        "Inlined$Cell::v (5 bytes)   inline",
        "Inlined$Cell::spin (24 bytes)   callee may throw, branch or call the VM",
    ] {
        assert!(after_run.contains(expected), "{expected} in {text}");
    }
}

const OVERRIDDEN: &str = r#"
public class Overridden {
    static class Base { int v() { return 1; } }
    static class Later extends Base { int v() { return 2; } }
    static long loop(int n) throws Exception {
        Base b = new Base();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            if (i == n / 2) b = (Base) Class.forName("Overridden$Later").getDeclaredConstructor().newInstance();
            sum += b.v();
        }
        return sum;
    }
    public static void main(String[] args) throws Exception {
        System.out.println(new Base().v());
        System.out.println(loop(200000));
    }
}
"#;

#[test]
fn code_assuming_no_override_is_made_not_entrant_when_a_class_overrides() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("jit-deopt");
    compile(&dir, "Overridden.java", OVERRIDDEN);
    for mode in ["-Xcomp", "-XX:CompileThreshold=1000"] {
        let out = jxvm()
            .args([
                mode,
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:+PrintCompilation",
                "-XX:+PrintInlining",
                "-cp",
            ])
            .arg(&dir)
            .arg("Overridden")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let printed: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
        assert_eq!(printed, ["1", "300000"], "{mode}: {text}");
        let (compiled, after) = text
            .split_once("Overridden::loop (66 bytes)   made not entrant")
            .unwrap_or_else(|| panic!("{mode}: loop's code was taken out: {text}"));
        let first = compiled
            .rsplit_once("Overridden::loop (66 bytes)")
            .unwrap_or_else(|| panic!("{mode}: loop was compiled: {text}"))
            .1;
        assert!(
            first.contains("Overridden$Base::v (2 bytes)   inline"),
            "{mode}: the first code inlined Base.v: {text}"
        );
        let again = after
            .split_once("Overridden::loop (66 bytes)")
            .unwrap_or_else(|| panic!("{mode}: loop was compiled again: {text}"))
            .1;
        let again = again.split_once("\n     ").map_or(again, |(a, _)| a);
        assert!(
            !again.contains("Base::v"),
            "{mode}: not inlined again: {text}"
        );
    }
}

#[test]
fn a_full_code_cache_stops_compiling_once_and_says_so() {
    if !have_jdk() {
        return;
    }
    let dir = scratch("jit-cache");
    compile(&dir, "HotLoop.java", HOT_LOOP);
    let java = Command::new("java")
        .arg("-cp")
        .arg(&dir)
        .arg("HotLoop")
        .output()
        .unwrap();
    let out = jxvm()
        .args(["-Xcomp", "-XX:ReservedCodeCacheSize=2496k", "-cp"])
        .arg(&dir)
        .arg("HotLoop")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, java.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("CodeCache is full").count(), 1, "{err}");
    // Below HotSpot's minimum: its message, and no VM.
    let (j, x) = run_both(&dir, &["-XX:ReservedCodeCacheSize=100k", "HotLoop"]);
    assert_eq!(j.status.code(), x.status.code());
    assert_eq!(first_lines(&j.stderr, 2), first_lines(&x.stderr, 2));
}
