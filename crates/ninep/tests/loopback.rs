//! jxvm's client against jxvm's own server and export, in process, over a Unix socket and
//! over TCP: every operation, threads, escapes, read-only, malformed frames, and a server
//! that goes away.

mod common;

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use common::*;
use ninep::Errno;
use ninep::addr::Addr;
use ninep::client::{Client, Error};
use ninep::export::Export;
use ninep::msg::{self, Rmsg, Tmsg};
use ninep::server::Server;

/// Starts a server of `dir` on `addr` in a background thread; returns the bound address.
fn start(
    dir: &Path,
    read_only: bool,
    addr: &str,
) -> (String, std::sync::Arc<ninep::server::Stats>) {
    let server = Server::new(Export::new(dir, read_only).unwrap());
    let stats = server.stats();
    let listener = Addr::parse(addr).unwrap().listen().unwrap();
    let bound = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || server.serve(&listener));
    (bound, stats)
}

fn unix_addr(tag: &str) -> (TempDir, String) {
    let sock = TempDir::new(tag);
    let a = format!("unix:{}", sock.path().join("s").display());
    (sock, a)
}

#[test]
fn every_operation_over_a_unix_socket() {
    let dir = TempDir::new("unix");
    let (_s, addr) = unix_addr("sock");
    let (addr, stats) = start(dir.path(), false, &addr);
    let c = Client::connect(&addr, 65536).unwrap();
    assert_eq!(c.msize(), 65536);
    let (root, qid) = c.attach("root", "", 0).unwrap();
    assert_eq!(qid.qtype, msg::QTDIR);
    exercise(&c, root, dir.path());
    exercise_locks(&c, root);
    let report = stats.report();
    assert!(
        report.contains("Twalk") && report.contains("Rread"),
        "{report}"
    );
}

#[test]
fn every_operation_over_tcp_with_a_small_msize() {
    let dir = TempDir::new("tcp");
    let (addr, _) = start(dir.path(), false, "tcp:127.0.0.1:0");
    // A small msize makes every read, write and readdir split.
    let c = Client::connect(&addr, 4096).unwrap();
    let (root, _) = c.attach("root", "/", 0).unwrap();
    exercise(&c, root, dir.path());
}

#[test]
fn concurrent_requests_from_threads() {
    let dir = TempDir::new("threads");
    let (addr, _) = start(dir.path(), false, "tcp:127.0.0.1:0");
    let c = Client::connect(&addr, 65536).unwrap();
    let (root, _) = c.attach("", "", 0).unwrap();
    exercise_threads(&c, root);
}

#[test]
fn anames_empty_slash_and_the_directory_attach_others_do_not() {
    let dir = TempDir::new("aname");
    let (addr, _) = start(dir.path(), false, "tcp:127.0.0.1:0");
    let c = Client::connect(&addr, 8192).unwrap();
    let d = dir.path().display().to_string();
    for aname in ["", "/", d.as_str(), &format!("{d}/")] {
        let (f, _) = c.attach("u", aname, 0).unwrap();
        c.clunk(f).unwrap();
    }
    assert_eq!(
        c.attach("u", "/etc", 0).unwrap_err().errno(),
        Some(Errno::ENOENT)
    );
}

/// An export with a file, a directory, and links pointing out of it.
fn escape_fixture(tag: &str) -> (TempDir, TempDir) {
    let outside = TempDir::new(&format!("{tag}-outside"));
    std::fs::write(outside.path().join("secret"), b"secret").unwrap();
    let dir = TempDir::new(tag);
    std::fs::write(dir.path().join("inside"), b"inside").unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out-dir")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("out-file")).unwrap();
    std::os::unix::fs::symlink("../../../../../../../../etc/passwd", dir.path().join("rel"))
        .unwrap();
    (dir, outside)
}

#[test]
fn nothing_escapes_the_export() {
    let (dir, outside) = escape_fixture("escape");
    let (addr, _) = start(dir.path(), false, "tcp:127.0.0.1:0");
    let c = Client::connect(&addr, 8192).unwrap();
    let (root, root_qid) = c.attach("", "", 0).unwrap();
    // `..` from the root stays at the root.
    let (up, qids) = c.walk(root, &["..", "..", ".."]).unwrap();
    assert_eq!(qids[2], root_qid);
    let (f, _) = c.walk(up, &["sub", "..", "inside"]).unwrap();
    c.lopen(f, O_RDONLY).unwrap();
    assert_eq!(c.read_to_end(f, 0).unwrap(), b"inside");
    // Names with a slash are not paths.
    assert!(c.walk(root, &["../etc"]).is_err());
    assert!(c.walk(root, &["sub/../inside"]).is_err());
    // Walking through a symlink to a directory outside fails: as a partial walk, and from
    // the link's own fid.
    assert_eq!(
        c.walk(root, &["out-dir", "secret"]).unwrap_err().errno(),
        Some(Errno::ENOENT)
    );
    let (od, _) = c.walk(root, &["out-dir"]).unwrap();
    assert_eq!(
        c.walk(od, &["secret"]).unwrap_err().errno(),
        Some(Errno::ENOTDIR)
    );
    assert_eq!(
        c.walk(od, &[".."]).unwrap_err().errno(),
        Some(Errno::ENOTDIR)
    );
    assert_eq!(
        c.lopen(od, O_RDONLY).unwrap_err().errno(),
        Some(Errno::ELOOP)
    );
    c.clunk(od).unwrap();
    // Opening a symlink to a file outside fails; reading it gives its text only.
    let (l, _) = c.walk(root, &["out-file"]).unwrap();
    assert_eq!(
        c.lopen(l, O_RDONLY).unwrap_err().errno(),
        Some(Errno::ELOOP)
    );
    assert_eq!(
        c.readlink(l).unwrap(),
        outside.path().join("secret").as_os_str().as_encoded_bytes()
    );
    // Its attributes are the link's, not the target's.
    assert_eq!(
        c.getattr(l, msg::GETATTR_BASIC).unwrap().qid.qtype,
        msg::QTSYMLINK
    );
    c.clunk(l).unwrap();
    let (r, _) = c.walk(root, &["rel"]).unwrap();
    assert_eq!(
        c.lopen(r, O_RDONLY).unwrap_err().errno(),
        Some(Errno::ELOOP)
    );
    c.clunk(r).unwrap();
    // Creating through a link name does not write through it.
    let (g, _) = c.walk::<&str>(root, &[]).unwrap();
    assert_eq!(
        c.lcreate(g, "out-file", O_WRONLY | O_TRUNC, 0o644, 0)
            .unwrap_err()
            .errno(),
        Some(Errno::ELOOP)
    );
    c.clunk(g).unwrap();
    assert_eq!(
        std::fs::read(outside.path().join("secret")).unwrap(),
        b"secret"
    );
    // Rename and link targets are names in a directory of the export, never paths.
    let (o, _) = c.walk(root, &["out-dir"]).unwrap();
    assert!(c.renameat(root, "inside", o, "stolen").is_err());
    assert!(c.renameat(root, "inside", root, "../stolen").is_err());
    assert!(c.renameat(root, "inside", root, "out-dir/stolen").is_err());
    let (i, _) = c.walk(root, &["inside"]).unwrap();
    assert!(c.rename(i, o, "stolen").is_err());
    assert!(c.link(o, i, "stolen").is_err());
    assert!(c.link(root, i, "../stolen").is_err());
    assert!(c.symlink(o, "x", "/", 0).is_err());
    assert!(c.mkdir(o, "x", 0o755, 0).is_err());
    c.clunk(o).unwrap();
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
    assert!(!dir.path().parent().unwrap().join("stolen").exists());
    // Device nodes cannot be made.
    assert_eq!(
        c.mknod(root, "dev", 0o20666, (1, 3), 0)
            .unwrap_err()
            .errno(),
        Some(Errno::EPERM)
    );
    c.mknod(root, "fifo", 0o10644, (0, 0), 0).unwrap();
}

#[test]
fn a_read_only_export_refuses_every_change() {
    let (dir, _outside) = escape_fixture("ro");
    let (addr, _) = start(dir.path(), true, "tcp:127.0.0.1:0");
    let c = Client::connect(&addr, 8192).unwrap();
    let (root, _) = c.attach("", "", 0).unwrap();
    let rofs = Some(Errno::EROFS);
    let (f, _) = c.walk(root, &["inside"]).unwrap();
    assert_eq!(c.lopen(f, O_RDWR).unwrap_err().errno(), rofs);
    assert_eq!(c.lopen(f, O_RDONLY | O_TRUNC).unwrap_err().errno(), rofs);
    c.lopen(f, O_RDONLY).unwrap();
    assert_eq!(c.read_to_end(f, 0).unwrap(), b"inside");
    assert_eq!(c.write(f, 0, b"x").unwrap_err().errno(), rofs);
    let set = msg::SetAttr {
        valid: msg::SETATTR_SIZE,
        ..Default::default()
    };
    assert_eq!(c.setattr(f, set).unwrap_err().errno(), rofs);
    assert_eq!(c.link(root, f, "l").unwrap_err().errno(), rofs);
    let (g, _) = c.walk::<&str>(root, &[]).unwrap();
    assert_eq!(
        c.lcreate(g, "new", O_WRONLY, 0o644, 0).unwrap_err().errno(),
        rofs
    );
    assert_eq!(c.mkdir(root, "d", 0o755, 0).unwrap_err().errno(), rofs);
    assert_eq!(c.symlink(root, "s", "x", 0).unwrap_err().errno(), rofs);
    assert_eq!(
        c.mknod(root, "p", 0o10644, (0, 0), 0).unwrap_err().errno(),
        rofs
    );
    assert_eq!(c.unlinkat(root, "inside", 0).unwrap_err().errno(), rofs);
    assert_eq!(
        c.renameat(root, "inside", root, "x").unwrap_err().errno(),
        rofs
    );
    let (s, _) = c.walk(root, &["sub"]).unwrap();
    assert_eq!(c.rename(s, root, "sub2").unwrap_err().errno(), rofs);
    assert_eq!(c.remove(s).unwrap_err().errno(), rofs);
    assert_eq!(std::fs::read(dir.path().join("inside")).unwrap(), b"inside");
    assert!(dir.path().join("sub").is_dir());
}

fn version_frame() -> Vec<u8> {
    Tmsg::Version {
        msize: 8192,
        version: msg::VERSION.into(),
    }
    .encode(0xFFFF)
}

fn read_reply(s: &mut UnixStream) -> Option<(u16, Rmsg)> {
    let f = ninep::wire::read_frame(s, 8192).ok()??;
    Rmsg::decode(&f, 8192).ok()
}

#[test]
fn malformed_frames_get_errors_or_a_close_and_others_are_served() {
    let dir = TempDir::new("malformed");
    let (_s, addr) = unix_addr("msock");
    let (addr, _) = start(dir.path(), false, &addr);
    let path = addr.strip_prefix("unix:").unwrap().to_string();
    let mut s = UnixStream::connect(&path).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(&version_frame()).unwrap();
    assert!(matches!(
        read_reply(&mut s),
        Some((0xFFFF, Rmsg::Version { .. }))
    ));
    // A well-sized frame whose body is cut: Rlerror(EPROTO) with its tag.
    s.write_all(&[9, 0, 0, 0, 104, 7, 0, 1, 0]).unwrap();
    assert_eq!(
        read_reply(&mut s),
        Some((
            7,
            Rmsg::Lerror {
                ecode: Errno::EPROTO.0
            }
        ))
    );
    // A type 9P2000.L does not have (9P2000's Tstat): EOPNOTSUPP.
    s.write_all(&[11, 0, 0, 0, 124, 8, 0, 1, 0, 0, 0]).unwrap();
    assert_eq!(
        read_reply(&mut s),
        Some((
            8,
            Rmsg::Lerror {
                ecode: Errno::EOPNOTSUPP.0
            }
        ))
    );
    // Operations on fids never attached: EBADF.
    s.write_all(&Tmsg::Clunk { fid: 99 }.encode(9)).unwrap();
    assert_eq!(
        read_reply(&mut s),
        Some((
            9,
            Rmsg::Lerror {
                ecode: Errno::EBADF.0
            }
        ))
    );
    // A flush of nothing in flight is answered at once.
    s.write_all(&Tmsg::Flush { oldtag: 3 }.encode(10)).unwrap();
    assert_eq!(read_reply(&mut s), Some((10, Rmsg::Flush {})));
    // A frame larger than msize closes the connection.
    s.write_all(&100_000u32.to_le_bytes()).unwrap();
    let mut rest = Vec::new();
    assert_eq!(s.read_to_end(&mut rest).map(|_| rest.len()).unwrap_or(0), 0);
    // A frame cut short by the client closing.
    let mut t = UnixStream::connect(&path).unwrap();
    t.write_all(&version_frame()[..9]).unwrap();
    drop(t);
    // Garbage before any version.
    let mut g = UnixStream::connect(&path).unwrap();
    g.write_all(&[0xFF; 64]).unwrap();
    drop(g);
    // The server still serves.
    let c = Client::connect(&addr, 8192).unwrap();
    let (root, _) = c.attach("", "", 0).unwrap();
    c.statfs(root).unwrap();
}

#[test]
fn a_client_whose_server_dies_gets_errors_not_a_hang() {
    // A server that answers version and attach, then closes while a request is pending.
    let (_s, addr) = unix_addr("dying");
    let listener = Addr::parse(&addr).unwrap().listen().unwrap();
    let server = std::thread::spawn(move || {
        let mut s = listener.accept().unwrap();
        for _ in 0..2 {
            let f = ninep::wire::read_frame(&mut s, 8192).unwrap().unwrap();
            let (tag, m) = Tmsg::decode(&f, 8192).unwrap();
            let reply = match m {
                Tmsg::Version { .. } => Rmsg::Version {
                    msize: 8192,
                    version: msg::VERSION.into(),
                },
                _ => Rmsg::Attach {
                    qid: msg::Qid::default(),
                },
            };
            s.write_all(&reply.encode(tag)).unwrap();
        }
        // Read the next request, then die without answering.
        let _ = ninep::wire::read_frame(&mut s, 8192);
        s.shutdown();
    });
    let c = Client::connect(&addr, 8192).unwrap();
    let (root, _) = c.attach("", "", 0).unwrap();
    let pending = c.getattr(root, msg::GETATTR_BASIC).unwrap_err();
    assert!(matches!(pending, Error::Disconnected(_)), "{pending:?}");
    let later = c.statfs(root).unwrap_err();
    assert!(matches!(later, Error::Disconnected(_)), "{later:?}");
    server.join().unwrap();
}

#[test]
fn a_server_sending_garbage_fails_every_call() {
    let (_s, addr) = unix_addr("garbage");
    let listener = Addr::parse(&addr).unwrap().listen().unwrap();
    std::thread::spawn(move || {
        let mut s = listener.accept().unwrap();
        let _ = ninep::wire::read_frame(&mut s, 8192);
        s.write_all(
            &Rmsg::Version {
                msize: 8192,
                version: msg::VERSION.into(),
            }
            .encode(0xFFFF),
        )
        .unwrap();
        let _ = ninep::wire::read_frame(&mut s, 8192);
        // A reply whose body is cut: the client must not accept it.
        s.write_all(&[9, 0, 0, 0, 105, 0, 0, 1, 2]).unwrap();
        std::thread::sleep(Duration::from_secs(2));
    });
    let c = Client::connect(&addr, 8192).unwrap();
    assert!(matches!(c.attach("", "", 0), Err(Error::Disconnected(_))));
    assert!(matches!(c.attach("", "", 0), Err(Error::Disconnected(_))));
}
