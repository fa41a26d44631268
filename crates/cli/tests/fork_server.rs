//! The fork server (`jxvm serve`, issue 19 item 5): programs run through `--via` behave as
//! plain runs (stdout, stderr, exit code; arguments, stdin, environment, working directory,
//! signals), the server survives children killed or crashing and serves clients at once, and
//! a client with no server, or with options that change how the VM boots, runs in-process.

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{jxvm, repo, scratch};

/// The environment every VM of these tests gets (the server's and the clients' must agree on
/// what fixes the boot's properties, such as the encodings).
fn pinned(c: &mut Command) -> &mut Command {
    c.env("LC_ALL", "C.UTF-8")
        .env("LANG", "C.UTF-8")
        .env("TZ", "UTC")
        .env_remove("JAVA_TOOL_OPTIONS")
        .env_remove("JDK_JAVA_OPTIONS")
        .env_remove("_JAVA_OPTIONS")
        .env_remove("JXVM_SERVER")
        .env_remove("JXVM_VIA_LOG")
}

/// A running `jxvm serve`, killed when dropped.
struct Server {
    child: Child,
    socket: PathBuf,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let socket = dir.join("run/serve.sock");
        let mut c = jxvm();
        c.arg("serve").arg("--socket").arg(&socket);
        Server::spawn(c, socket)
    }

    /// `jxvm serve` with its default socket, under `XDG_RUNTIME_DIR=xdg`.
    fn start_default(xdg: &Path) -> Server {
        let mut c = jxvm();
        c.arg("serve").env("XDG_RUNTIME_DIR", xdg);
        Server::spawn(c, xdg.join("jxvm/serve.sock"))
    }

    fn spawn(mut c: Command, socket: PathBuf) -> Server {
        let mut child = pinned(&mut c)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        err.read_line(&mut line).unwrap();
        assert!(
            line.contains("ready on"),
            "the server did not start: {line}"
        );
        // Keep reading its stderr so that it never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        Server { child, socket }
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The test programs, compiled once into one directory.
fn programs() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let out = scratch("fork-programs");
        let root = repo();
        let mut javac = Command::new("javac");
        javac.args(["--release", "17", "-encoding", "UTF-8", "-nowarn", "-d"]);
        javac.arg(&out);
        for n in CONFORMANCE {
            javac.arg(root.join(format!("tests/java/{n}.java")));
        }
        std::fs::write(out.join("Client.java"), CLIENT).unwrap();
        std::fs::write(out.join("Hook.java"), HOOK).unwrap();
        std::fs::write(out.join("Asserts.java"), ASSERTS).unwrap();
        std::fs::write(out.join("Salt.java"), SALT).unwrap();
        for f in ["Client.java", "Hook.java", "Asserts.java", "Salt.java"] {
            javac.arg(out.join(f));
        }
        let ok = javac.stderr(Stdio::null()).status().unwrap();
        assert!(ok.success(), "javac failed");
        out
    })
    .clone()
}

/// Conformance programs of `tests/java`: output, exit codes through `System.exit`, uncaught
/// exceptions (in main, in a class initializer, in other threads), stderr, threads, child
/// processes, references, files, properties and logging.
const CONFORMANCE: [&str; 18] = [
    "CommandLineArgs",
    "ExitCode3",
    "StderrOutput",
    "UncaughtRuntime",
    "UncaughtInClinit",
    "ThreadExitNonDaemon",
    "ThreadExitSystemExit",
    "ThreadExitUncaughtMain",
    "ConsoleRedirected",
    "PropertiesLogging",
    "ProcessBasics",
    "GcWeakRefs",
    "NioFiles",
    "HashMapOps",
    "StringFormatBasic",
    "StackOverflow",
    "ExceptionsNested",
    "ThreadMonitors",
];

/// What a client sees of its process: arguments, stdin, environment, working directory
/// (a relative file), `-D`, the VM's arguments, its own pid, the exit code.
const CLIENT: &str = r#"
import java.io.*;
import java.nio.file.*;
import java.lang.management.ManagementFactory;
public class Client {
    public static void main(String[] a) throws Exception {
        System.out.println("args " + String.join("|", a));
        System.out.println("dir " + System.getProperty("user.dir") + " " + new File("x").getAbsolutePath());
        System.out.println("file " + Files.readString(Path.of("data.txt")).trim());
        System.out.println("env " + System.getenv("FORK_TEST_VAR") + " " + System.getenv().containsKey("FORK_TEST_UNSET"));
        System.out.println("prop " + System.getProperty("fork.test") + " " + System.getProperty("sun.java.command"));
        System.out.println("vmargs " + ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.println("cp " + System.getProperty("java.class.path"));
        String self = new File("/proc/self").getCanonicalFile().getName();
        System.out.println("pid " + (ProcessHandle.current().pid() == Long.parseLong(self)));
        System.out.println("uptime " + (ManagementFactory.getRuntimeMXBean().getUptime() < 60000));
        Path made = Path.of("made.txt");
        Files.deleteIfExists(made);
        Files.writeString(made, "x");
        System.out.println("umask " + java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
        for (String l : Files.readAllLines(Path.of("/proc/self/limits")))
            if (l.startsWith("Max open files")) System.out.println("limit " + l.replaceAll(" +", " "));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("stdin " + in.readLine() + " " + in.readLine());
        System.err.println("to stderr");
        System.exit(a.length);
    }
}
"#;

/// Waits for a signal with a shutdown hook.
const HOOK: &str = r#"
public class Hook {
    public static void main(String[] a) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook ran")));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(60000);
        System.out.println("not interrupted");
    }
}
"#;

/// Fails an assertion when assertions are enabled.
const ASSERTS: &str = r#"
public class Asserts {
    public static void main(String[] a) {
        assert a.length > 5 : "assertions are on";
        System.out.println("assertions are off");
    }
}
"#;

/// The iteration order of an immutable set: drawn at random once per process.
const SALT: &str = r#"
public class Salt {
    public static void main(String[] a) {
        System.out.println(java.util.Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9));
    }
}
"#;

/// `// ARGS:` of a conformance program.
fn program_args(name: &str) -> Vec<String> {
    let src = std::fs::read_to_string(repo().join(format!("tests/java/{name}.java"))).unwrap();
    src.lines()
        .take(10)
        .find_map(|l| l.trim().strip_prefix("// ARGS:"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// Runs jxvm (through `via` if given) with `args` in `dir`, stdin `input`; with `via`, the
/// log lines of the client are checked (it must have run in a forked child) and removed.
fn run(via: Option<&Path>, dir: &Path, args: &[String], input: &[u8]) -> Output {
    let mut c = jxvm();
    pinned(&mut c).current_dir(dir);
    if let Some(s) = via {
        c.arg("--via").arg(s).env("JXVM_VIA_LOG", "1");
    }
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let mut out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    if via.is_some() {
        strip_log(&format!("{args:?}"), &mut out);
    }
    out
}

/// Checks that a client with `JXVM_VIA_LOG` ran its program in a forked child, and removes
/// its log lines from its stderr.
fn strip_log(what: &str, out: &mut Output) {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains("jxvm: --via: forked as pid") && !err.contains("running in-process"),
        "{what} did not run in a forked child: {err}"
    );
    let kept: String = err
        .lines()
        .filter(|l| !l.starts_with("jxvm: --via:"))
        .map(|l| format!("{l}\n"))
        .collect();
    out.stderr = kept.into_bytes();
}

fn assert_same(what: &str, plain: &Output, via: &Output) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert_eq!(
        text(&plain.stdout),
        text(&via.stdout),
        "{what}: stdout differs"
    );
    assert_eq!(
        text(&plain.stderr),
        text(&via.stderr),
        "{what}: stderr differs"
    );
    assert_eq!(plain.status.code(), via.status.code(), "{what}: exit code");
}

#[test]
fn conformance_programs_run_through_the_server_as_plain_runs() {
    let classes = programs();
    let dir = scratch("fork-conformance");
    let server = Server::start(&dir);
    for name in CONFORMANCE {
        let mut args = vec![
            "-cp".to_string(),
            classes.display().to_string(),
            name.into(),
        ];
        args.extend(program_args(name));
        let plain = run(None, &dir, &args, b"");
        let via = run(Some(&server.socket), &dir, &args, b"");
        assert_same(name, &plain, &via);
    }
}

#[test]
fn assertion_switches_of_the_program_are_taken_by_the_child() {
    let classes = programs();
    let dir = scratch("fork-asserts");
    let server = Server::start(&dir);
    let cp = classes.display().to_string();
    for opts in [&["-ea"][..], &["-ea", "-da:Asserts"], &[]] {
        let mut args: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
        args.extend(["-cp", &cp, "Asserts"].map(String::from));
        let plain = run(None, &dir, &args, b"");
        let via = run(Some(&server.socket), &dir, &args, b"");
        assert_same(&format!("{opts:?}"), &plain, &via);
    }
    let enabled = run(
        Some(&server.socket),
        &dir,
        &["-ea", "-cp", &cp, "Asserts"].map(String::from),
        b"",
    );
    assert_eq!(enabled.status.code(), Some(1));
    let err = String::from_utf8_lossy(&enabled.stderr);
    assert!(err.contains("AssertionError: assertions are on"), "{err}");
}

#[test]
fn children_do_not_share_the_boots_random_draws() {
    let classes = programs();
    let dir = scratch("fork-salt");
    let server = Server::start(&dir);
    let args = ["-cp", &classes.display().to_string(), "Salt"].map(String::from);
    let orders: std::collections::HashSet<Vec<u8>> = (0..8)
        .map(|_| run(Some(&server.socket), &dir, &args, b"").stdout)
        .collect();
    // 36 orders are equally likely: 8 runs drawing the same one is a shared draw.
    assert!(
        orders.len() > 1,
        "every child iterated Set.of alike: {orders:?}"
    );
}

#[test]
fn a_client_gets_its_arguments_stdin_environment_and_directory() {
    let classes = programs();
    let dir = scratch("fork-client");
    let server = Server::start(&dir);
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("data.txt"), "relative file\n").unwrap();
    // Copied to a relative class path entry: the child resolves it against its directory.
    std::fs::copy(classes.join("Client.class"), work.join("Client.class")).unwrap();
    let args: Vec<String> = ["-Dfork.test=yes", "-cp", ".", "Client", "one", "two words"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let input = b"first line\nsecond line\n";
    let with_env = |via: Option<&Path>| {
        // Through a shell that sets the umask and a resource limit first.
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("umask 027; ulimit -n 300; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_jxvm"));
        pinned(&mut c)
            .current_dir(&work)
            .env("FORK_TEST_VAR", "from the client")
            .env_remove("FORK_TEST_UNSET");
        if let Some(s) = via {
            c.arg("--via").arg(s).env("JXVM_VIA_LOG", "1");
        }
        c.args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input).unwrap();
        }
        let mut out = child.wait_with_output().unwrap();
        if via.is_some() {
            strip_log("Client", &mut out);
        }
        out
    };
    let plain = with_env(None);
    let via = with_env(Some(&server.socket));
    assert_same("Client", &plain, &via);
    let out = String::from_utf8_lossy(&via.stdout);
    for want in [
        "args one|two words",
        "file relative file",
        "env from the client false",
        "prop yes Client one two words",
        "vmargs [-Dfork.test=yes]",
        "cp .",
        "pid true",
        "uptime true",
        "stdin first line second line",
        "umask rw-r-----",
        "limit Max open files 300 300 files",
    ] {
        assert!(out.contains(want), "missing {want:?} in {out}");
    }
    let work = work.canonicalize().unwrap();
    assert!(
        out.contains(&format!("dir {0} {0}/x", work.display())),
        "{out}"
    );
    assert_eq!(via.status.code(), Some(2));
    // JXVM_SERVER names the server too.
    let mut c = jxvm();
    pinned(&mut c)
        .current_dir(&work)
        .env("JXVM_SERVER", &server.socket)
        .env("JXVM_VIA_LOG", "1")
        .args(["-cp", ".", "Client"])
        .stdin(Stdio::null());
    let out = c.output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("forked as pid"));
    assert_eq!(out.status.code(), Some(0));
}

/// Starts `Hook` through `via` (or plainly), waits for it to be ready; returns the client
/// and, through a server, the child's pid.
fn start_hook(via: Option<&Path>) -> (Child, Option<i32>, BufReader<std::process::ChildStdout>) {
    start_hook_signalled(via, None)
}

/// As [`start_hook`]; through a server, sends `early` to the client as soon as it knows its
/// child's pid (before the child's VM took its signals back, most likely).
fn start_hook_signalled(
    via: Option<&Path>,
    early: Option<i32>,
) -> (Child, Option<i32>, BufReader<std::process::ChildStdout>) {
    let mut c = jxvm();
    pinned(&mut c);
    if let Some(s) = via {
        c.arg("--via").arg(s).env("JXVM_VIA_LOG", "1");
    }
    let mut child = c
        .arg("-cp")
        .arg(programs())
        .arg("Hook")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = via.map(|_| {
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        err.read_line(&mut line).unwrap();
        if let Some(sig) = early {
            signal(child.id() as i32, sig);
        }
        // Back to the child, so that the client's later messages have a reader (reading one
        // line took nothing after it: the client writes nothing more until it ends).
        child.stderr = Some(err.into_inner());
        line.trim().rsplit(' ').next().unwrap().parse().unwrap()
    });
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    if early == Some(libc::SIGQUIT) {
        // The dump may come first (the VM took the signal before main ran).
        while line != "ready\n" {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "no ready line");
            EARLY_TEXT.with(|t| t.borrow_mut().push_str(&line));
        }
    }
    assert_eq!(line, "ready\n");
    (child, pid, out)
}

thread_local! {
    /// What `start_hook_signalled` read before `ready` (a thread dump).
    static EARLY_TEXT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

fn signal(pid: i32, sig: i32) {
    // SAFETY: kill has no memory preconditions.
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
}

fn rest(mut r: impl std::io::Read) -> String {
    let mut s = String::new();
    r.read_to_string(&mut s).unwrap();
    s
}

#[test]
fn sigint_to_the_client_runs_the_shutdown_hooks_as_in_a_plain_run() {
    let dir = scratch("fork-sigint");
    let server = Server::start(&dir);
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let (mut plain, _, plain_out) = start_hook(None);
        signal(plain.id() as i32, sig);
        let plain_status = plain.wait().unwrap();
        let (mut via, _, via_out) = start_hook(Some(&server.socket));
        signal(via.id() as i32, sig);
        let via_status = via.wait().unwrap();
        assert_eq!(plain_status.code(), Some(128 + sig));
        assert_eq!(via_status.code(), plain_status.code());
        assert_eq!(rest(plain_out), "hook ran\n");
        assert_eq!(rest(via_out), "hook ran\n");
    }
}

#[test]
fn sigquit_to_the_client_prints_the_childs_thread_dump() {
    let dir = scratch("fork-sigquit");
    let server = Server::start(&dir);
    // The first SIGQUIT comes while the child is being made: it waits for the VM's handler.
    let (mut via, _, out) = start_hook_signalled(Some(&server.socket), Some(libc::SIGQUIT));
    // Apart, so that the host does not merge the two into one pending signal.
    std::thread::sleep(Duration::from_millis(500));
    signal(via.id() as i32, libc::SIGQUIT);
    std::thread::sleep(Duration::from_millis(500));
    signal(via.id() as i32, libc::SIGTERM);
    assert_eq!(via.wait().unwrap().code(), Some(128 + libc::SIGTERM));
    let text = EARLY_TEXT.with(|t| t.borrow().clone()) + &rest(out);
    assert_eq!(text.matches("Full thread dump").count(), 2, "{text}");
    for thread in [
        "\"main\"",
        "\"Reference Handler\"",
        "\"Finalizer\"",
        "\"Signal Dispatcher\"",
    ] {
        assert!(text.contains(thread), "no {thread} in the dump: {text}");
    }
}

#[test]
fn killed_and_crashing_children_leave_the_server_serving() {
    let classes = programs();
    let dir = scratch("fork-kill");
    let mut server = Server::start(&dir);
    // SIGABRT is how a crashing VM ends (abort). The VM takes SIGSEGV and SIGBUS for itself
    // and ignores them when another process sends them, so they cannot stand for a crash.
    for sig in [libc::SIGKILL, libc::SIGABRT] {
        let (mut via, pid, _) = start_hook(Some(&server.socket));
        signal(pid.unwrap(), sig);
        let status = via.wait().unwrap();
        // The client ends as its child did.
        assert_eq!(status.signal(), Some(sig), "{status:?}");
        assert!(server.alive(), "the server died with its child");
    }
    // A client killed outright takes its program with it, as a plain run's process would.
    let (mut via, pid, _) = start_hook(Some(&server.socket));
    let pid = pid.unwrap();
    signal(via.id() as i32, libc::SIGKILL);
    via.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    // SAFETY: kill with signal 0 only asks whether the process exists.
    while unsafe { libc::kill(pid, 0) } == 0 {
        assert!(Instant::now() < deadline, "the child outlived its client");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(server.alive());
    let args = ["-cp", &classes.display().to_string(), "ExitCode3"].map(String::from);
    let out = run(Some(&server.socket), &dir, &args, b"");
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn a_client_whose_server_dies_waits_for_its_program() {
    let dir = scratch("fork-server-dies");
    let mut server = Server::start(&dir);
    let (mut via, pid, _) = start_hook(Some(&server.socket));
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        via.try_wait().unwrap().is_none(),
        "the client left its program running"
    );
    signal(pid.unwrap(), libc::SIGTERM);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut via.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(via.wait().unwrap().code(), Some(1));
    assert!(err.contains("exit code is lost"), "{err}");
}

#[test]
fn clients_at_once_each_get_their_own_child() {
    let classes = programs();
    let dir = scratch("fork-concurrent");
    let server = Server::start(&dir);
    let clients: Vec<_> = (0..6)
        .map(|i| {
            let socket = server.socket.clone();
            let classes = classes.clone();
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut args = vec!["-cp".to_string(), classes.display().to_string()];
                args.push("CommandLineArgs".into());
                args.extend((0..i).map(|n| format!("arg{n}")));
                (i, run(Some(&socket), &dir, &args, b""))
            })
        })
        .collect();
    for c in clients {
        let (i, via) = c.join().unwrap();
        let mut args = vec!["-cp".to_string(), classes.display().to_string()];
        args.push("CommandLineArgs".into());
        args.extend((0..i).map(|n| format!("arg{n}")));
        let plain = run(None, &dir, &args, b"");
        assert_same(&format!("client {i}"), &plain, &via);
        if i > 0 {
            let text = String::from_utf8_lossy(&via.stdout);
            assert!(text.contains(&format!("arg{}", i - 1)), "{text}");
        }
    }
}

#[test]
fn without_a_server_or_with_boot_options_the_client_runs_in_process() {
    let classes = programs();
    let dir = scratch("fork-fallback");
    let cp = classes.display().to_string();
    let args = ["-cp", &cp, "ExitCode3"].map(String::from);
    let plain = run(None, &dir, &args, b"");
    // No socket at all, and a socket nobody listens on.
    let stale = dir.join("stale.sock");
    drop(std::os::unix::net::UnixListener::bind(&stale).unwrap());
    for socket in [dir.join("missing.sock"), stale] {
        let out = pinned(&mut jxvm())
            .arg("--via")
            .arg(&socket)
            .env("JXVM_VIA_LOG", "1")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), plain.status.code());
        assert_eq!(out.stdout, plain.stdout);
        assert!(String::from_utf8_lossy(&out.stderr).contains("running in-process"));
    }
    // Options that change how the VM boots: the child refuses, the client runs it.
    let server = Server::start(&dir);
    for opt in [
        "-Xmx64m",
        "-Xint",
        "-Djava.lang.Integer.IntegerCache.high=4096",
    ] {
        let out = pinned(&mut jxvm())
            .arg("--via")
            .arg(&server.socket)
            .env("JXVM_VIA_LOG", "1")
            .arg(opt)
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("running in-process"), "{opt}: {err}");
        assert_eq!(out.status.code(), Some(3), "{opt}");
        assert_eq!(out.stdout, plain.stdout, "{opt}");
    }
    // An environment that changes properties fixed at boot (the encodings).
    let out = pinned(&mut jxvm())
        .arg("--via")
        .arg(&server.socket)
        .env("JXVM_VIA_LOG", "1")
        .env("LC_ALL", "POSIX")
        .args(&args)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("running in-process"));
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn the_default_socket_is_under_xdg_runtime_dir() {
    let dir = scratch("fork-xdg");
    let xdg = dir.join("xdg");
    std::fs::create_dir_all(&xdg).unwrap();
    let server = Server::start_default(&xdg);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&xdg.join("jxvm")), 0o700);
    assert_eq!(mode(&server.socket), 0o600);
    let classes = programs();
    let args = ["-cp", &classes.display().to_string(), "ExitCode3"].map(String::from);
    assert_eq!(
        run(Some(&server.socket), &dir, &args, b"").status.code(),
        Some(3)
    );
    drop(server);
    // A default directory open to others is refused.
    std::fs::set_permissions(xdg.join("jxvm"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = pinned(&mut jxvm())
        .arg("serve")
        .env("XDG_RUNTIME_DIR", &xdg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("open to other users"));
}

#[test]
fn the_socket_is_private_to_its_user() {
    let dir = scratch("fork-socket");
    let server = Server::start(&dir);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&server.socket), 0o600);
    assert_eq!(mode(server.socket.parent().unwrap()), 0o700);
    // A second server on the same socket is refused while the first answers.
    let out = jxvm()
        .arg("serve")
        .arg("--socket")
        .arg(&server.socket)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already answers"));
    let started = Instant::now();
    // A bad request (not the protocol) is dropped, and the server goes on.
    {
        use std::io::Write;
        let mut s = std::os::unix::net::UnixStream::connect(&server.socket).unwrap();
        let _ = s.write_all(b"\x10\x00\x00\x00garbage garbage!");
    }
    assert!(started.elapsed() < Duration::from_secs(10));
    let classes = programs();
    let args = ["-cp", &classes.display().to_string(), "ExitCode3"].map(String::from);
    assert_eq!(
        run(Some(&server.socket), &dir, &args, b"").status.code(),
        Some(3)
    );
}
