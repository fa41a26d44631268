//! jxvm's client against an independent 9P2000.L server, diod (Debian package `diod`,
//! installed by `scripts/ensure-diod.sh`): the test starts diod in the foreground on a Unix
//! socket or a loopback port exporting a temporary directory, runs the same operations as
//! against jxvm's own export, and stops it. Without diod the tests fail, naming the script.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use ninep::client::Client;

fn diod_binary() -> PathBuf {
    for p in ["/usr/sbin/diod", "/usr/bin/diod", "/sbin/diod"] {
        if Path::new(p).exists() {
            return PathBuf::from(p);
        }
    }
    panic!("diod is not installed: run scripts/ensure-diod.sh (apt-get install -y diod)");
}

/// A running diod, killed when dropped.
struct Diod(Child);

impl Drop for Diod {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts diod exporting `dir` on `listen` (a socket path or `127.0.0.1:PORT`), without
/// authentication or user database lookups, and waits until it accepts connections.
fn start_diod(dir: &Path, listen: &str, addr: &str) -> (Diod, Client) {
    let child = Command::new(diod_binary())
        .args(["-f", "-n", "-N", "-l", listen, "-e"])
        .arg(dir)
        .args(["-L", "stderr"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start diod");
    let diod = Diod(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match Client::connect(addr, 65536) {
            Ok(c) => return (diod, c),
            Err(e) if Instant::now() > deadline => panic!("diod did not start: {e}"),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

#[test]
fn every_operation_against_diod_over_a_unix_socket() {
    let dir = TempDir::new("diod");
    let sock = TempDir::new("diod-sock");
    let path = sock.path().join("diod.sock");
    let (_diod, c) = start_diod(
        dir.path(),
        path.to_str().unwrap(),
        &format!("unix:{}", path.display()),
    );
    let aname = dir.path().to_str().unwrap();
    let (root, _) = c.attach("root", aname, 0).unwrap();
    exercise(&c, root, dir.path());
    exercise_locks(&c, root);
}

#[test]
fn threads_against_diod_over_tcp() {
    let dir = TempDir::new("diod-tcp");
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let (_diod, c) = start_diod(dir.path(), &listen, &format!("tcp:{listen}"));
    let (root, _) = c.attach("root", dir.path().to_str().unwrap(), 0).unwrap();
    exercise_threads(&c, root);
    // A name diod does not export is refused.
    assert!(c.attach("root", "/nonexistent-export", 0).is_err());
}

#[test]
fn a_client_of_a_killed_diod_gets_errors() {
    let dir = TempDir::new("diod-kill");
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let (mut diod, c) = start_diod(dir.path(), &listen, &format!("tcp:{listen}"));
    let (root, _) = c.attach("root", dir.path().to_str().unwrap(), 0).unwrap();
    c.statfs(root).unwrap();
    diod.0.kill().unwrap();
    diod.0.wait().unwrap();
    let e = c.statfs(root).unwrap_err();
    assert!(matches!(e, ninep::client::Error::Disconnected(_)), "{e:?}");
}
