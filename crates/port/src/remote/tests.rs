//! The 9P backend against ninep's own export, served in process over a Unix socket.

use std::path::{Path, PathBuf};

use super::*;
use crate::OpenMode;
use crate::fs::{LockResult, MapMode};
use crate::{Fd, Host};
use ninep::addr::Addr;
use ninep::export::Export;
use ninep::server::Server;

/// A fresh directory, and a backend attached to a server exporting it.
fn attached(tag: &str) -> (PathBuf, NinepBackend) {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let top = std::env::temp_dir().join(format!("jxvm-port9p-{}-{n}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    let dir = top.join("exp");
    std::fs::create_dir_all(&dir).unwrap();
    let addr = format!("unix:{}", top.join("s.sock").display());
    let listener = Addr::parse(&addr).unwrap().listen().unwrap();
    let server = Server::new(Export::new(&dir, false).unwrap());
    std::thread::spawn(move || server.serve(&listener));
    (dir, connect(&addr))
}

fn connect(addr: &str) -> NinepBackend {
    let spec = NinepSpec {
        addr: addr.to_string(),
        aname: String::new(),
    };
    NinepBackend::connect(&spec, crate::held::Owner::domain(7001), None).unwrap()
}

/// Another connection to the server `b` is attached to.
fn another(b: &NinepBackend) -> NinepBackend {
    let addr = b.ns.client_addr.clone();
    connect(&addr)
}

const RW_CREATE: i32 = libc::O_RDWR | libc::O_CREAT;

fn write_str(b: &NinepBackend, fd: Fd, s: &str) {
    assert_eq!(b.write(fd, s.as_ptr() as usize, s.len()), Ok(s.len()));
}

fn read_n(b: &NinepBackend, fd: Fd, n: usize, at: Option<i64>) -> Vec<u8> {
    let mut buf = vec![0u8; n];
    let addr = buf.as_mut_ptr() as usize;
    let got = match at {
        Some(p) => b.pread(fd, addr, n, p),
        None => b.read(fd, addr, n),
    }
    .unwrap();
    buf.truncate(got);
    buf
}

#[test]
fn files_read_write_seek_and_share_offsets_across_dup() {
    let (dir, b) = attached("files");
    let fd = b.open(b"/a.txt", RW_CREATE, 0o644).unwrap();
    assert!(fd.0 >= 3, "0-2 are the standard streams");
    write_str(&b, fd, "hello, world");
    assert_eq!(std::fs::read(dir.join("a.txt")).unwrap(), b"hello, world");
    assert_eq!(b.seek(fd, -1), Ok(12));
    assert_eq!(b.seek(fd, 7), Ok(7));
    let dup = b.dup(fd).unwrap();
    assert_eq!(read_n(&b, dup, 3, None), b"wor");
    assert_eq!(b.seek(fd, -1), Ok(10), "a dup shares the offset");
    assert_eq!(read_n(&b, fd, 5, Some(0)), b"hello");
    assert_eq!(b.seek(fd, -1), Ok(10), "pread leaves it");
    assert_eq!(b.fstat(fd).unwrap().size, 12);
    b.truncate(fd, 5).unwrap();
    assert_eq!(b.io_file_length(fd), Ok(5));
    b.close(fd).unwrap();
    assert_eq!(
        read_n(&b, dup, 10, Some(0)),
        b"hello",
        "open until the last dup goes"
    );
    b.close(dup).unwrap();
    assert_eq!(b.close(dup), Err(Errno::EBADF));
    let app = b.io_open("a.txt", OpenMode::Append).unwrap();
    b.io_write_all(app, b"!").unwrap();
    assert_eq!(std::fs::read(dir.join("a.txt")).unwrap(), b"hello!");
    assert_eq!(b.io_open("/", OpenMode::Read), Err(Errno::EISDIR));
    let excl = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL;
    assert_eq!(b.open(b"a.txt", excl, 0o644), Err(Errno::EEXIST));
    assert_eq!(b.open(b"/no/such", libc::O_RDONLY, 0), Err(Errno::ENOENT));
    b.give_back();
}

fn names(b: &NinepBackend, path: &[u8]) -> Vec<String> {
    let d = b.opendir(path).unwrap();
    let mut out = Vec::new();
    while let Some(n) = b.readdir(d).unwrap() {
        out.push(String::from_utf8(n).unwrap());
    }
    b.closedir(d).unwrap();
    out.retain(|n| n != "." && n != "..");
    out.sort();
    out
}

#[test]
fn directories_and_names() {
    let (dir, b) = attached("dirs");
    b.mkdir(b"/d", 0o755).unwrap();
    assert_eq!(b.mkdir(b"d", 0o755), Err(Errno::EEXIST));
    let fd = b.open(b"d/f", RW_CREATE, 0o600).unwrap();
    b.close(fd).unwrap();
    b.rename(b"/d/f", b"/d/g").unwrap();
    b.link(b"/d/g", b"/h").unwrap();
    assert_eq!(b.stat(b"/h", true).unwrap().nlink, 2);
    b.symlink(b"d/g", b"/s").unwrap();
    assert_eq!(b.readlink(b"/s"), Ok(b"d/g".to_vec()));
    assert!(b.stat(b"/s", false).unwrap().is_symlink());
    assert!(b.stat(b"/s", true).unwrap().is_file());
    assert_eq!(b.realpath(b"/s"), Ok(b"/d/g".to_vec()));
    assert_eq!(names(&b, b"/"), ["d", "h", "s"]);
    assert_eq!(names(&b, b"/d/.."), ["d", "h", "s"]);
    assert_eq!(b.io_list_dir("d"), Some(vec!["g".to_string()]));
    assert_eq!(b.rmdir(b"/d"), Err(Errno(libc::ENOTEMPTY)));
    b.unlink(b"/d/g").unwrap();
    b.rmdir(b"/d").unwrap();
    assert!(!dir.join("d").exists());
    assert_eq!(b.getcwd(), Ok(b"/".to_vec()));
    assert_eq!(b.io_canonicalize("/x/../h/./y"), "/h/y");
    let dfd = b.open(b"/", libc::O_RDONLY | libc::O_DIRECTORY, 0).unwrap();
    assert!(b.fstatat(dfd, b"h", 0).unwrap().is_file());
    b.unlinkat(dfd, b"h", 0).unwrap();
    b.close(dfd).unwrap();
    b.give_back();
}

#[test]
fn links_resolve_in_the_namespace_and_loops_end() {
    let (dir, b) = attached("links");
    let outside = dir.parent().unwrap().join("outside.txt");
    std::fs::write(&outside, "host").unwrap();
    std::fs::write(dir.join("outside.txt"), "namespace").unwrap();
    let link = |t: &Path, n: &str| std::os::unix::fs::symlink(t, dir.join(n)).unwrap();
    link(Path::new("../outside.txt"), "up");
    link(&outside, "abs");
    link(Path::new("l2"), "l1");
    link(Path::new("l1"), "l2");
    let fd = b.open(b"up", libc::O_RDONLY, 0).unwrap();
    assert_eq!(read_n(&b, fd, 20, None), b"namespace");
    assert_eq!(b.open(b"abs", libc::O_RDONLY, 0), Err(Errno::ENOENT));
    assert_eq!(
        b.open(b"../../outside.txt", libc::O_RDONLY, 0).map(|_| ()),
        Ok(())
    );
    assert_eq!(b.stat(b"l1", true), Err(Errno::ELOOP));
    let nofollow = libc::O_RDONLY | libc::O_NOFOLLOW;
    assert_eq!(b.open(b"up", nofollow, 0), Err(Errno::ELOOP));
    b.give_back();
}

#[test]
fn what_9p_cannot_do_is_refused_and_stdio_stays_the_hosts() {
    let (_dir, b) = attached("refused");
    assert_eq!(b.socket(false, true, false), Err(Errno::EOPNOTSUPP));
    assert_eq!(b.pipe(true), Err(Errno::EOPNOTSUPP));
    assert_eq!(b.epoll_create(), Err(Errno::EOPNOTSUPP));
    assert!(b.fstat(Fd(1)).is_ok(), "stdout is the process's");
    assert_eq!(b.fstat(Fd(99)), Err(Errno::EBADF));
    assert_eq!(b.platform_properties()[36].as_deref(), Some("/"));
}

#[test]
fn locks_and_mappings() {
    let (dir, b) = attached("locks");
    let fd = b.open(b"m", RW_CREATE, 0o644).unwrap();
    write_str(&b, fd, "0123456789");
    assert_eq!(b.lock(fd, false, 0, 5, false), Ok(LockResult::Locked));
    b.unlock(fd, 0, 5).unwrap();
    let addr = b.mmap(fd, MapMode::ReadWrite, 2, 4).unwrap();
    let mut seen = [0u8; 4];
    crate::fs::copy_from_native(addr, &mut seen);
    assert_eq!(&seen, b"2345");
    crate::fs::copy_to_native(addr, b"ab");
    b.sync_mapping(addr, 4).unwrap();
    assert_eq!(std::fs::read(dir.join("m")).unwrap(), b"01ab456789");
    assert_eq!(
        b.munmap(addr + 1, 3),
        Err(Errno::EINVAL),
        "only whole mappings"
    );
    b.munmap(addr, 4).unwrap();
    let ro = b.open(b"m", libc::O_RDONLY, 0).unwrap();
    assert_eq!(b.mmap(ro, MapMode::ReadWrite, 0, 4), Err(Errno::EACCES));
    b.give_back();
}

#[test]
fn locks_of_two_connections_conflict_and_a_blocking_one_waits() {
    let (_dir, a) = attached("lockpair");
    let b = std::sync::Arc::new(another(&a));
    let fa = a.open(b"f", RW_CREATE, 0o644).unwrap();
    let fb = b.open(b"f", libc::O_RDWR, 0).unwrap();
    assert_eq!(a.lock(fa, false, 0, 10, false), Ok(LockResult::Locked));
    assert_eq!(b.lock(fb, false, 5, 10, true), Ok(LockResult::WouldBlock));
    assert_eq!(b.lock(fb, false, 10, 10, false), Ok(LockResult::Locked));
    let waiter = {
        let b = b.clone();
        std::thread::spawn(move || b.lock(fb, true, 0, 5, false))
    };
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(!waiter.is_finished(), "blocked while a holds it");
    a.unlock(fa, 0, 10).unwrap();
    assert_eq!(waiter.join().unwrap(), Ok(LockResult::Locked));
}
