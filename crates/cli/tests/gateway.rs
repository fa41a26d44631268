//! `jxvm gateway` end to end: the built binary serving a temporary directory, used by jxvm's
//! own 9P client (`ninep`) and by diod's client tools (`diodls`, `diodcat`, `diodload`;
//! Debian package `diod`, installed by `scripts/ensure-diod.sh` — without them the tests
//! fail naming the script). Escapes, read-only, malformed messages, `--stats`, and a gateway
//! killed under a client.

mod common;
#[path = "../../ninep/tests/common/mod.rs"]
mod ninep_common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{jxvm, scratch};
use ninep::Errno;
use ninep::client::{Client, Error};
use ninep::msg::{self, Rmsg, Tmsg};
use ninep_common::{O_RDONLY, O_RDWR, O_WRONLY, exercise, exercise_threads};

/// A running `jxvm gateway`, killed if still running when dropped.
struct Gateway {
    child: Child,
    /// The address it printed (`unix:…` or `tcp:…` with the port chosen).
    addr: String,
    stderr: Arc<Mutex<String>>,
}

impl Gateway {
    /// Starts `jxvm gateway ARGS` in `cwd` and waits for its "serving" line.
    fn start(args: &[&str], cwd: &Path) -> Gateway {
        let mut child = jxvm()
            .arg("gateway")
            .args(args)
            .current_dir(cwd)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start jxvm gateway");
        let mut lines = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        lines.read_line(&mut first).unwrap();
        let addr = first
            .trim()
            .rsplit(" on ")
            .next()
            .unwrap()
            .trim_end_matches(" (read-only)")
            .to_string();
        assert!(first.starts_with("jxvm gateway: serving "), "{first}");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = lines.read_to_string(&mut rest);
            sink.lock().unwrap().push_str(&rest);
        });
        Gateway {
            child,
            addr,
            stderr,
        }
    }

    fn client(&self, msize: u32) -> Client {
        Client::connect(&self.addr, msize).expect("connect to the gateway")
    }

    /// `HOST:PORT` of a TCP gateway (for diod's tools).
    fn hostport(&self) -> &str {
        self.addr.strip_prefix("tcp:").expect("a TCP gateway")
    }

    /// Stops it with `signal`; its exit status code and what it printed after starting.
    fn stop(mut self, signal: i32) -> (Option<i32>, String) {
        // SAFETY: sending a signal to our own child process, which has not been reaped.
        unsafe { libc::kill(self.child.id() as i32, signal) };
        let status = self.child.wait().unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let text = self.stderr.lock().unwrap().clone();
        (status.code(), text)
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn diod_tool(name: &str) -> PathBuf {
    for dir in ["/usr/sbin", "/usr/bin", "/sbin"] {
        let p = Path::new(dir).join(name);
        if p.exists() {
            return p;
        }
    }
    panic!("{name} is not installed: run scripts/ensure-diod.sh (apt-get install -y diod)");
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn command_line_errors_are_one_line() {
    let dir = scratch("gw-args");
    for (args, want) in [
        (vec![], "missing --export"),
        (
            vec![
                "--export",
                "/nonexistent-dir",
                "--listen",
                "tcp:127.0.0.1:0",
            ],
            "not a directory",
        ),
        (vec!["--export", ".", "--listen", "udp:1"], "bad 9P address"),
        (
            vec!["--export", ".", "--listen", "tcp:256.1.1.1:1"],
            "cannot listen",
        ),
        (vec!["--export", ".", "--frobnicate"], "unknown option"),
    ] {
        let out = jxvm()
            .arg("gateway")
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let help = jxvm().args(["gateway", "--help"]).output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--read-only"));
}

#[test]
fn the_ninep_client_against_the_gateway_over_unix_and_tcp() {
    let dir = scratch("gw-ops");
    let export = dir.join("export");
    std::fs::create_dir(&export).unwrap();
    let sock = dir.join("gw.sock");
    let listen = format!("unix:{}", sock.display());
    let gw = Gateway::start(
        &["--export", export.to_str().unwrap(), "--listen", &listen],
        &dir,
    );
    assert_eq!(gw.addr, listen);
    let c = gw.client(65536);
    let (root, _) = c.attach("root", export.to_str().unwrap(), 0).unwrap();
    exercise(&c, root, &export);
    let (code, _) = gw.stop(libc::SIGTERM);
    assert_eq!(code, Some(0));
    assert!(
        !sock.exists(),
        "the gateway removes its socket when it stops"
    );

    let export2 = dir.join("export2");
    std::fs::create_dir(&export2).unwrap();
    let gw = Gateway::start(
        &["--export", "export2", "--listen", "tcp:127.0.0.1:0"],
        &dir,
    );
    let c = gw.client(8192);
    let (root, _) = c.attach("", "", 0).unwrap();
    exercise_threads(&c, root);
    // The aname as the gateway was given it attaches too; another does not.
    let (r2, _) = c.attach("", "export2", 0).unwrap();
    c.clunk(r2).unwrap();
    assert_eq!(
        c.attach("", "/tmp", 0).unwrap_err().errno(),
        Some(Errno::ENOENT)
    );
}

#[test]
fn diods_tools_against_the_gateway() {
    let dir = scratch("gw-diod");
    // diodload attaches aname `ctl` and reads `zero`, writes `null` (diod's control files):
    // a gateway exporting a directory given as `ctl` with such files serves it.
    let ctl = dir.join("ctl");
    std::fs::create_dir_all(ctl.join("sub")).unwrap();
    std::fs::write(ctl.join("zero"), vec![0u8; 1 << 16]).unwrap();
    std::fs::write(ctl.join("null"), b"").unwrap();
    std::fs::write(ctl.join("hello.txt"), b"hello from the gateway\n").unwrap();
    std::fs::write(ctl.join("sub/deep.txt"), b"deep\n").unwrap();
    let gw = Gateway::start(
        &["--export", "ctl", "--listen", "tcp:127.0.0.1:0", "--stats"],
        &dir,
    );
    let s = gw.hostport().to_string();
    let aname = ctl.to_str().unwrap();

    let ls = run(Command::new(diod_tool("diodls")).args(["-s", &s, "-a", aname, "/"]));
    let mut names: Vec<String> = String::from_utf8(ls.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    names.sort();
    assert_eq!(names, ["hello.txt", "null", "sub", "zero"]);
    let long = run(Command::new(diod_tool("diodls")).args(["-l", "-s", &s, "-a", aname, "/sub"]));
    let long = String::from_utf8(long.stdout).unwrap();
    assert!(
        long.lines()
            .any(|l| l.starts_with("-rw") && l.ends_with(" deep.txt") && l.contains(" 5 ")),
        "{long}"
    );

    let cat = run(Command::new(diod_tool("diodcat")).args([
        "-s",
        &s,
        "-a",
        aname,
        "hello.txt",
        "sub/deep.txt",
    ]));
    assert_eq!(cat.stdout, b"hello from the gateway\ndeep\n");
    let small =
        run(Command::new(diod_tool("diodcat")).args(["-m", "4096", "-s", &s, "-a", "ctl", "zero"]));
    assert_eq!(small.stdout, vec![0u8; 1 << 16]);
    let missing = Command::new(diod_tool("diodcat"))
        .args(["-s", &s, "-a", aname, "nope"])
        .output()
        .unwrap();
    assert!(!missing.status.success());

    for extra in [&[][..], &["-g"][..]] {
        let load = run(Command::new(diod_tool("diodload"))
            .args(["-s", &s, "-r", "1", "-n", "4"])
            .args(extra));
        let report = String::from_utf8_lossy(&load.stderr).to_string();
        let ops: u64 = report
            .split("diodload: ")
            .last()
            .and_then(|l| l.split(" ops/s").next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        assert!(
            ops > 0 && !report.contains("error"),
            "diodload {extra:?}: {report}"
        );
    }
    let (code, stats) = gw.stop(libc::SIGINT);
    assert_eq!(code, Some(0));
    for m in [
        "Tversion", "Tattach", "Twalk", "Treaddir", "Rread", "Twrite", "Tgetattr",
    ] {
        assert!(stats.contains(m), "{m} missing from --stats:\n{stats}");
    }
}

/// An export with a file inside and links pointing outside.
fn escape_fixture(dir: &Path) -> (PathBuf, PathBuf) {
    let outside = dir.join("outside");
    let export = dir.join("export");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(export.join("sub")).unwrap();
    std::fs::write(outside.join("secret"), b"secret").unwrap();
    std::fs::write(export.join("inside"), b"inside").unwrap();
    std::os::unix::fs::symlink(&outside, export.join("out-dir")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), export.join("out-file")).unwrap();
    (export, outside)
}

#[test]
fn nothing_escapes_the_gateway() {
    let dir = scratch("gw-escape");
    let (export, outside) = escape_fixture(&dir);
    let gw = Gateway::start(
        &[
            "--export",
            export.to_str().unwrap(),
            "--listen",
            "tcp:127.0.0.1:0",
        ],
        &dir,
    );
    let c = gw.client(8192);
    let (root, root_qid) = c.attach("", "/", 0).unwrap();
    let (_, qids) = c.walk(root, &["..", "..", "sub", "..", ".."]).unwrap();
    assert_eq!(qids.last(), Some(&root_qid), ".. never leaves the export");
    assert!(c.walk(root, &["out-dir", "secret"]).is_err());
    let (od, _) = c.walk(root, &["out-dir"]).unwrap();
    assert_eq!(
        c.walk(od, &["secret"]).unwrap_err().errno(),
        Some(Errno::ENOTDIR)
    );
    let (of, _) = c.walk(root, &["out-file"]).unwrap();
    assert_eq!(
        c.lopen(of, O_RDONLY).unwrap_err().errno(),
        Some(Errno::ELOOP)
    );
    assert_eq!(
        c.readlink(of).unwrap(),
        outside.join("secret").as_os_str().as_encoded_bytes()
    );
    let (i, _) = c.walk(root, &["inside"]).unwrap();
    assert!(c.renameat(root, "inside", od, "stolen").is_err());
    assert!(c.renameat(root, "inside", root, "../stolen").is_err());
    assert!(c.rename(i, od, "stolen").is_err());
    assert!(c.link(od, i, "stolen").is_err());
    assert!(c.link(root, i, "../stolen").is_err());
    let (g, _) = c.walk::<&str>(root, &[]).unwrap();
    assert!(c.lcreate(g, "out-file", O_WRONLY, 0o644, 0).is_err());
    assert_eq!(std::fs::read(outside.join("secret")).unwrap(), b"secret");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    assert!(!dir.join("stolen").exists());
    assert_eq!(std::fs::read(export.join("inside")).unwrap(), b"inside");
}

#[test]
fn a_read_only_gateway_refuses_writes() {
    let dir = scratch("gw-ro");
    let (export, _) = escape_fixture(&dir);
    let gw = Gateway::start(
        &[
            "--export",
            export.to_str().unwrap(),
            "--read-only",
            "--listen",
            "tcp:127.0.0.1:0",
        ],
        &dir,
    );
    let c = gw.client(8192);
    let (root, _) = c.attach("", "", 0).unwrap();
    let rofs = Some(Errno::EROFS);
    let (f, _) = c.walk(root, &["inside"]).unwrap();
    assert_eq!(c.lopen(f, O_RDWR).unwrap_err().errno(), rofs);
    c.lopen(f, O_RDONLY).unwrap();
    assert_eq!(c.read_to_end(f, 0).unwrap(), b"inside");
    let (g, _) = c.walk::<&str>(root, &[]).unwrap();
    assert_eq!(
        c.lcreate(g, "new", O_WRONLY, 0o644, 0).unwrap_err().errno(),
        rofs
    );
    assert_eq!(c.mkdir(root, "d", 0o755, 0).unwrap_err().errno(), rofs);
    assert_eq!(c.unlinkat(root, "inside", 0).unwrap_err().errno(), rofs);
    assert_eq!(
        c.renameat(root, "inside", root, "x").unwrap_err().errno(),
        rofs
    );
    assert_eq!(c.symlink(root, "s", "x", 0).unwrap_err().errno(), rofs);
    let truncate = msg::SetAttr {
        valid: msg::SETATTR_SIZE,
        ..Default::default()
    };
    assert_eq!(c.setattr(f, truncate).unwrap_err().errno(), rofs);
    assert_eq!(std::fs::read(export.join("inside")).unwrap(), b"inside");
}

#[test]
fn malformed_messages_get_errors_and_the_gateway_serves_on() {
    let dir = scratch("gw-malformed");
    let export = dir.join("export");
    std::fs::create_dir(&export).unwrap();
    let sock = dir.join("gw.sock");
    let gw = Gateway::start(
        &[
            "--export",
            "export",
            "--listen",
            &format!("unix:{}", sock.display()),
        ],
        &dir,
    );
    let mut s = std::os::unix::net::UnixStream::connect(&sock).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(
        &Tmsg::Version {
            msize: 8192,
            version: msg::VERSION.into(),
        }
        .encode(0xFFFF),
    )
    .unwrap();
    let reply = |s: &mut std::os::unix::net::UnixStream| {
        let f = ninep::wire::read_frame(s, 8192).unwrap().unwrap();
        Rmsg::decode(&f, 8192).unwrap()
    };
    assert!(matches!(
        reply(&mut s),
        (0xFFFF, Rmsg::Version { msize: 8192, .. })
    ));
    // Tattach cut after its fid: EPROTO.
    s.write_all(&[11, 0, 0, 0, 104, 5, 0, 1, 0, 0, 0]).unwrap();
    assert_eq!(
        reply(&mut s),
        (
            5,
            Rmsg::Lerror {
                ecode: Errno::EPROTO.0
            }
        )
    );
    // A Twalk of 17 names: EPROTO.
    let mut walk = Tmsg::Walk {
        fid: 0,
        newfid: 1,
        names: vec![b"a".to_vec(); 17],
    }
    .encode(6);
    walk.truncate(walk.len());
    s.write_all(&walk).unwrap();
    assert_eq!(
        reply(&mut s),
        (
            6,
            Rmsg::Lerror {
                ecode: Errno::EPROTO.0
            }
        )
    );
    // A truncated frame, then the client goes away.
    let mut t = std::os::unix::net::UnixStream::connect(&sock).unwrap();
    t.write_all(&[200, 0, 0, 0, 100, 0xFF]).unwrap();
    drop(t);
    // A size beyond msize: the connection closes.
    s.write_all(&u32::MAX.to_le_bytes()).unwrap();
    let mut rest = Vec::new();
    assert_eq!(s.read_to_end(&mut rest).map(|_| rest.len()).unwrap_or(0), 0);
    // Other connections are served.
    let c = gw.client(8192);
    let (root, _) = c.attach("", "", 0).unwrap();
    assert!(c.statfs(root).is_ok());
}

#[test]
fn a_client_of_a_killed_gateway_gets_errors_not_a_hang() {
    let dir = scratch("gw-kill");
    let export = dir.join("export");
    std::fs::create_dir(&export).unwrap();
    std::fs::write(export.join("f"), b"data").unwrap();
    let gw = Gateway::start(&["--export", "export", "--listen", "tcp:127.0.0.1:0"], &dir);
    let c = gw.client(8192);
    let (root, _) = c.attach("", "", 0).unwrap();
    let (f, _) = c.walk(root, &["f"]).unwrap();
    c.lopen(f, O_RDONLY).unwrap();
    // Threads with requests going while the gateway dies.
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let c = c.clone();
            std::thread::spawn(move || {
                loop {
                    if let Err(e) = c.read(f, 0, 4) {
                        return e;
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let (code, _) = gw.stop(libc::SIGKILL);
    assert_eq!(code, None);
    for w in workers {
        assert!(matches!(w.join().unwrap(), Error::Disconnected(_)));
    }
    assert!(matches!(c.statfs(root), Err(Error::Disconnected(_))));
}
