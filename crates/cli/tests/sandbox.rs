//! `--sandbox` end to end: a Java program over `jxvm gateway` that tries the host (files
//! outside the export, `/proc/self`, sockets, processes, escapes by `..`, links and rename)
//! and the raw system calls of the hidden `--sandbox-probe`, with and without the sandbox;
//! conformance programs sandboxed against HotSpot; the launcher's errors. The gateway's own
//! escape tests (`..`, links, rename and link out of the export, at the protocol level) are
//! `nothing_escapes_the_gateway` in `gateway.rs`.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use common::{jxvm, repo, scratch};

/// `jxvm gateway --export DIR EXTRA...` on a Unix socket, killed when dropped.
struct Gateway {
    child: Child,
    io: String,
}

impl Gateway {
    /// On a Unix socket.
    fn start(dir: &Path, extra: &[&str]) -> Gateway {
        let sock = scratch("sandbox-sock").join("gw.sock");
        Gateway::listen(dir, extra, &format!("unix:{}", sock.display()))
    }

    /// On `listen` (`unix:PATH`, `tcp:HOST:PORT`); `--io` names the address it says it
    /// serves on, a TCP one with the host name `localhost`.
    fn listen(dir: &Path, extra: &[&str], listen: &str) -> Gateway {
        let (child, addr) = common::start_gateway(dir, extra, listen);
        let addr = addr.replace("tcp:127.0.0.1:", "tcp:localhost:");
        Gateway {
            child,
            io: format!("--io=9p:{addr}"),
        }
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the program tries, one line each: `WHAT: ok RESULT` or `WHAT: EXCEPTION[: MESSAGE]`.
const TRIES: &str = r#"
import java.io.*;
import java.net.*;
import java.nio.file.*;
import java.util.concurrent.Callable;

public class Tries {
    static void t(String what, Callable<Object> c) {
        try {
            System.out.println(what + ": ok " + c.call());
        } catch (Exception e) {
            System.out.println(what + ": " + e.getClass().getName() + ": " + e.getMessage());
        }
    }

    public static void main(String[] a) throws Exception {
        String jdk = System.getProperty("java.home");
        t("inside", () -> Files.readString(Path.of("/data.txt")).trim());
        t("dot-dot", () -> Files.readString(Path.of("/../../data.txt")).trim());
        t("passwd", () -> Files.readAllBytes(Path.of("/etc/passwd")).length);
        t("proc", () -> Files.readAllBytes(Path.of("/proc/self/status")).length);
        t("jdk", () -> Files.readAllBytes(Path.of(jdk, "release")).length > 0);
        t("jdk-dot-dot", () -> new FileInputStream(jdk + "/../../../../etc/passwd").read());
        t("jdk-write", () -> new FileOutputStream(jdk + "/jxvm-sandbox-test").getClass());
        t("link-out", () -> Files.readString(Path.of("/out-file")));
        t("rename-out", () -> Files.move(Files.writeString(Path.of("/m1"), "m"),
                Path.of("/out-dir/stolen")));
        t("rename-up", () -> Files.move(Files.writeString(Path.of("/m2"), "m"),
                Path.of("/../moved"), StandardCopyOption.REPLACE_EXISTING));
        t("socket", () -> {
            try (Socket s = new Socket("127.0.0.1", Integer.parseInt(a[0]))) {
                return s.isConnected();
            }
        });
        t("process", () -> new ProcessBuilder("true").start().waitFor());
        t("thread", () -> {
            Thread th = new Thread(() -> {});
            th.start();
            th.join();
            return th.getState();
        });
        t("user", () -> System.getProperty("user.name"));
        t("owner", () -> Files.getOwner(Path.of("/data.txt")).getName());
    }
}
"#;

/// An export holding `Tries` (compiled), `data.txt` and links to an outside
/// directory (`out-dir`) and file (`out-file`); returns it and the outside directory.
fn fixture() -> (PathBuf, PathBuf) {
    let dir = scratch("sandbox");
    let (export, outside) = (dir.join("export"), dir.join("outside"));
    std::fs::create_dir_all(&export).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret"), "secret").unwrap();
    std::fs::write(export.join("data.txt"), "inside\n").unwrap();
    std::os::unix::fs::symlink(&outside, export.join("out-dir")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), export.join("out-file")).unwrap();
    let src = dir.join("Tries.java");
    std::fs::write(&src, TRIES).unwrap();
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&export)
        .arg(&src)
        .status()
        .unwrap();
    assert!(ok.success());
    (export, outside)
}

/// jxvm running `Tries PORT` over `gw` with `extra` options.
fn tries(gw: &Gateway, extra: &[&str], port: u16) -> Output {
    tries_in(jxvm(), gw, extra, port)
}

/// `jxvm` (a command) running `Tries PORT` over `gw` with `extra` options.
fn tries_in(mut jxvm: Command, gw: &Gateway, extra: &[&str], port: u16) -> Output {
    jxvm.arg(&gw.io)
        .args(extra)
        .arg(format!("--sandbox-probe={port}"))
        .args(["Tries", &port.to_string()])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The text after `WHAT: ` on `WHAT`'s line (the probe's lines start `[sandbox-probe] `).
fn answer<'a>(out: &'a str, what: &str) -> &'a str {
    let start = format!("{what}: ");
    out.lines()
        .find_map(|l| {
            l.strip_prefix("[sandbox-probe] ")
                .unwrap_or(l)
                .strip_prefix(&start)
        })
        .unwrap_or_else(|| panic!("no line for {what} in\n{out}"))
}

fn stdout(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The raw calls the probe makes, and whether the sandbox must refuse them (with this text).
const PROBED: &[(&str, Option<&str>)] = &[
    ("read /etc/passwd", Some("Permission denied")),
    ("read /proc/self/status", Some("Permission denied")),
    ("read the JDK's release", None),
    ("create a file in /tmp", Some("Permission denied")),
    (
        "connect to the host's listener",
        Some("Operation not permitted"),
    ),
    ("a Unix socket", Some("Operation not permitted")),
    ("fork", Some("Operation not permitted")),
    ("start /bin/true", Some("Operation not permitted")),
    ("signal the parent", Some("Operation not permitted")),
    ("start a thread", None),
];

#[test]
fn a_sandboxed_program_reaches_the_host_only_through_its_gateway() {
    let (export, outside) = fixture();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let gw = Gateway::start(&export, &[]);

    // The control: the same raw calls succeed in a process that is not sandboxed.
    let open = stdout(&tries(&gw, &[], port));
    for (what, _) in PROBED {
        assert_eq!(answer(&open, what), "ok", "{what} without --sandbox");
    }
    let closed = stdout(&tries(&gw, &["--sandbox"], port));
    for (what, refused) in PROBED {
        assert_eq!(answer(&closed, what), refused.unwrap_or("ok"), "{what}");
    }

    // What Java sees is the same with and without the sandbox: the host is not there.
    for out in [&open, &closed] {
        let no_file = "java.nio.file.NoSuchFileException";
        assert_eq!(answer(out, "inside"), "ok inside");
        assert_eq!(answer(out, "dot-dot"), "ok inside");
        assert_eq!(answer(out, "passwd"), format!("{no_file}: /etc/passwd"));
        assert_eq!(answer(out, "proc"), format!("{no_file}: /proc/self/status"));
        assert_eq!(answer(out, "jdk"), "ok true");
        assert!(
            answer(out, "jdk-dot-dot").starts_with("java.io.FileNotFoundException: ")
                && answer(out, "jdk-dot-dot").ends_with("(No such file or directory)"),
            "{out}"
        );
        assert!(
            answer(out, "jdk-write").ends_with("(Read-only file system)"),
            "{out}"
        );
        assert!(answer(out, "link-out").starts_with(no_file), "{out}");
        assert!(answer(out, "rename-out").starts_with(no_file), "{out}");
        assert_eq!(
            answer(out, "socket"),
            "java.net.SocketException: Operation not permitted"
        );
        assert!(
            answer(out, "process").starts_with("java.io.IOException: Cannot run program"),
            "{out}"
        );
        assert_eq!(answer(out, "thread"), "ok TERMINATED");
    }
    // The host's user database was read before the sandbox closed it.
    assert_eq!(answer(&closed, "user"), answer(&open, "user"));
    assert_eq!(answer(&closed, "owner"), answer(&open, "owner"));
    // `..` at the root is the root: the file moved to the export's top.
    for out in [&open, &closed] {
        assert_eq!(answer(out, "rename-up"), "ok /../moved");
    }
    assert!(export.join("moved").exists());
    assert!(!export.join("../moved").exists());
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    drop(listener);
}

#[test]
fn sockets_go_over_the_gateway_in_a_sandbox() {
    let (export, _) = fixture();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let gw = Gateway::start(&export, &["--net"]);
    let out = stdout(&tries(&gw, &["--sandbox"], port));
    assert_eq!(answer(&out, "socket"), "ok true");
    assert_eq!(
        answer(&out, "connect to the host's listener"),
        "Operation not permitted"
    );
}

#[test]
fn a_tcp_gateway_named_by_host_name_is_reached_in_a_sandbox() {
    let (export, _) = fixture();
    let gw = Gateway::listen(&export, &[], "tcp:127.0.0.1:0");
    assert!(gw.io.starts_with("--io=9p:tcp:localhost:"), "{}", gw.io);
    let out = stdout(&tries(&gw, &["--sandbox"], 9));
    assert_eq!(answer(&out, "inside"), "ok inside");
    assert_eq!(answer(&out, "read /etc/passwd"), "Permission denied");
    assert_eq!(
        answer(&out, "connect to the host's listener"),
        "Operation not permitted"
    );
}

/// A kernel without Landlock, as a process under a seccomp filter that answers `ENOSYS` to
/// Landlock's calls sees it: the sandbox says so and refuses every file open by path.
#[test]
fn without_landlock_the_sandbox_refuses_every_open() {
    use std::os::unix::process::CommandExt;
    let (export, _) = fixture();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let gw = Gateway::start(&export, &[]);
    let calls = [
        libc::SYS_landlock_create_ruleset,
        libc::SYS_landlock_add_rule,
        libc::SYS_landlock_restrict_self,
    ];
    let no_landlock: seccompiler::BpfProgram = seccompiler::SeccompFilter::new(
        calls.into_iter().map(|c| (c, vec![])).collect(),
        seccompiler::SeccompAction::Allow,
        seccompiler::SeccompAction::Errno(libc::ENOSYS as u32),
        std::env::consts::ARCH.try_into().unwrap(),
    )
    .and_then(TryInto::try_into)
    .unwrap();
    let mut cmd = jxvm();
    // SAFETY: between fork and exec the child only installs the filter built before (a
    // prctl and a seccomp call; no allocation on success).
    unsafe {
        cmd.pre_exec(move || {
            seccompiler::apply_filter(&no_landlock).map_err(std::io::Error::other)
        });
    }
    let out = tries_in(cmd, &gw, &["--sandbox"], port);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("jxvm: warning: Landlock is not available on this kernel"),
        "{err}"
    );
    let text = stdout(&out);
    let refused = |what: &str, why: &str| assert_eq!(answer(&text, what), why, "{what}");
    refused("read /etc/passwd", "Permission denied");
    refused("read /proc/self/status", "Permission denied");
    refused("read the JDK's release", "Permission denied");
    refused("create a file in /tmp", "Permission denied");
    refused("connect to the host's listener", "Operation not permitted");
    refused("fork", "Operation not permitted");
    refused("start /bin/true", "Operation not permitted");
    refused("signal the parent", "Operation not permitted");
    assert_eq!(answer(&text, "start a thread"), "ok");
    assert_eq!(answer(&text, "inside"), "ok inside");
    assert!(
        answer(&text, "jdk").starts_with("java.nio.file.AccessDeniedException"),
        "{text}"
    );
}

/// Conformance programs that touch files, threads, the JIT, user names and `/proc` (the
/// management counters).
const PROGRAMS: &[&str] = &[
    "NioFiles",
    "NioDirectories",
    "PropertiesLogging",
    "ManagementBeans",
    "ToolJavac",
];

#[test]
fn file_programs_in_a_sandbox_match_hotspot() {
    let dir = scratch("sandbox-programs");
    std::fs::create_dir(dir.join("tmp")).unwrap();
    let mut javac = Command::new("javac");
    javac
        .args(["--release", "17", "-encoding", "UTF-8", "-d"])
        .arg(&dir);
    for p in PROGRAMS {
        javac.arg(repo().join(format!("tests/java/{p}.java")));
    }
    assert!(javac.status().unwrap().success());
    let gw = Gateway::start(&dir, &[]);
    let env = [("LC_ALL", "C.UTF-8"), ("TZ", "UTC")];
    for name in PROGRAMS {
        let flags = jvm_flags(name);
        let want = Command::new("java")
            .args(&flags)
            .arg(format!("-Djava.io.tmpdir={}", dir.join("tmp").display()))
            .args(["-cp", ".", name])
            .current_dir(&dir)
            .envs(env)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let got = jxvm()
            .arg(&gw.io)
            .arg("--sandbox")
            .args(&flags)
            .arg(name)
            .current_dir(std::env::temp_dir())
            .envs(env)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            (String::from_utf8_lossy(&got.stdout), got.status.code()),
            (String::from_utf8_lossy(&want.stdout), want.status.code()),
            "{name}: {}",
            String::from_utf8_lossy(&got.stderr)
        );
    }
}

/// The `// JVMFLAGS:` of a conformance program.
fn jvm_flags(name: &str) -> Vec<String> {
    let src = std::fs::read_to_string(repo().join(format!("tests/java/{name}.java"))).unwrap();
    src.lines()
        .take(10)
        .find_map(|l| l.trim().strip_prefix("// JVMFLAGS:"))
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

#[test]
fn the_sandbox_is_refused_where_it_cannot_hold() {
    let dir = scratch("sandbox-errors");
    let one_line_error = |args: &[&str], want: &str| {
        let out = jxvm().args(args).current_dir(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    };
    one_line_error(
        &["--sandbox", "Main"],
        "Error: --sandbox needs a 9P backend (--io=9p:...)",
    );
    one_line_error(
        &["--io=host", "--sandbox", "Main"],
        "Error: --sandbox needs a 9P backend",
    );
    let domain = "[[domain]]\nname = \"a\"\nclass-path = [\".\"]\n";
    std::fs::write(dir.join("s.toml"), domain).unwrap();
    one_line_error(
        &[
            "--io=9p:unix:/nonexistent",
            "--sandbox",
            "--system",
            "s.toml",
        ],
        "Error: --sandbox is for the whole process: it cannot be given with --system",
    );
    // Not a domain's key: a sandbox is the whole process's.
    std::fs::write(dir.join("d.toml"), format!("{domain}sandbox = true\n")).unwrap();
    one_line_error(&["--system", "d.toml"], "sandbox");
    one_line_error(&["--sandbox-probe=x", "Main"], "Error: bad port");
    one_line_error(
        &["serve", "--io=9p:unix:/nonexistent", "--sandbox"],
        "--sandbox cannot be given to `serve`",
    );
}
