//! The 9P backend against ninep's own export, served in process over a Unix socket.

use std::path::{Path, PathBuf};

use super::*;
use crate::OpenMode;
use crate::fs::{LockResult, MapMode};
use crate::{Fd, Host};
use ninep::addr::Addr;
use ninep::export::Export;
use ninep::net::WithNet;
use ninep::server::Server;

/// A fresh directory, and a backend attached to a server exporting it.
fn attached(tag: &str) -> (PathBuf, NinepBackend) {
    attached_with(tag, false)
}

/// As [`attached`]; with `net`, the server also serves `/net`.
fn attached_with(tag: &str, net: bool) -> (PathBuf, NinepBackend) {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let top = std::env::temp_dir().join(format!("jxvm-port9p-{}-{n}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    let dir = top.join("exp");
    std::fs::create_dir_all(&dir).unwrap();
    let addr = format!("unix:{}", top.join("s.sock").display());
    let listener = Addr::parse(&addr).unwrap().listen().unwrap();
    let server = Server::new(WithNet::new(Export::new(&dir, false).unwrap(), net));
    std::thread::spawn(move || server.serve(&listener));
    (dir, connect(&addr))
}

fn connect(addr: &str) -> NinepBackend {
    let spec = NinepSpec::new(addr);
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
fn what_9p_cannot_do_is_refused_pipes_are_local_and_stdio_stays_the_hosts() {
    let (_dir, b) = attached("refused");
    // This server has no /net: refused as a sandbox refuses sockets.
    assert_eq!(b.socket(false, true, false), Err(Errno::EPERM));
    assert!(b.lookup_host("localhost", false).is_err());
    // Pipes are made in the process.
    let (r, w) = b.pipe(true).unwrap();
    assert_eq!(b.write_buf(w, b"abc"), Ok(3));
    let mut buf = [0u8; 8];
    assert_eq!(b.read_buf(r, &mut buf), Ok(3));
    assert_eq!(&buf[..3], b"abc");
    b.set_blocking(r, false).unwrap();
    assert_eq!(b.read_buf(r, &mut buf), Err(Errno::EAGAIN));
    b.close(w).unwrap();
    assert_eq!(b.read_buf(r, &mut buf), Ok(0));
    b.close(r).unwrap();
    let (r, w) = b.pipe(true).unwrap();
    b.close(r).unwrap();
    assert_eq!(b.write_buf(w, b"x"), Err(Errno::EPIPE));
    b.close(w).unwrap();
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

/// Waits up to 10 s for `f` to hold.
fn eventually(mut f: impl FnMut() -> bool) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !f() {
        assert!(std::time::Instant::now() < end, "never happened");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn sockets_go_over_the_gateways_net() {
    use std::io::{Read, Write};
    use std::net::SocketAddr;
    let (_dir, b) = attached_with("net", true);
    let lo = SocketAddr::from(([127, 0, 0, 1], 0));
    let srv = b.socket(false, true, false).unwrap();
    b.bind(srv, false, lo).unwrap();
    b.listen(srv, 5).unwrap();
    let at = b.local_address(srv).unwrap();
    assert!(at.port() > 0 && at.ip().is_loopback(), "{at}");
    // Non-blocking: nothing to accept yet.
    b.set_blocking(srv, false).unwrap();
    assert_eq!(b.accept(srv).map(drop), Err(Errno::EAGAIN));
    assert_eq!(b.poll(srv, libc::POLLIN, 0), Ok(0));
    let mut host = std::net::TcpStream::connect(at).unwrap();
    assert_eq!(b.poll(srv, libc::POLLIN, 10_000), Ok(libc::POLLIN));
    let (c, peer) = b.accept(srv).unwrap();
    assert_eq!(peer, host.local_addr().unwrap());
    assert_eq!(b.remote_address(c), Ok(peer));
    assert_eq!(b.local_address(c).map(|a| a.port()), Ok(at.port()));
    // Read ahead: available() and poll answer without a read.
    host.write_all(b"ping").unwrap();
    assert_eq!(b.poll(c, libc::POLLIN, 10_000), Ok(libc::POLLIN));
    eventually(|| b.socket_available(c) == Ok(4));
    let mut buf = [0u8; 8];
    assert_eq!(b.read_buf(c, &mut buf), Ok(4));
    assert_eq!(&buf[..4], b"ping");
    b.set_blocking(c, false).unwrap();
    assert_eq!(b.read_buf(c, &mut buf), Err(Errno::EAGAIN));
    b.set_blocking(c, true).unwrap();
    assert_eq!(b.write_buf(c, b"pong"), Ok(4));
    let mut got = [0u8; 4];
    host.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"pong");
    // Half close, each way.
    b.shutdown(c, libc::SHUT_WR).unwrap();
    assert_eq!(host.read(&mut got).unwrap(), 0);
    host.write_all(b"late").unwrap();
    drop(host);
    let mut all = Vec::new();
    loop {
        let n = b.read_buf(c, &mut buf).unwrap();
        if n == 0 {
            break;
        }
        all.extend_from_slice(&buf[..n]);
    }
    assert_eq!(all, b"late");
    // Options are kept by the client.
    selectors(&b, c);
    assert_eq!(
        b.get_int_option(c, libc::IPPROTO_TCP, libc::TCP_NODELAY),
        Ok(0)
    );
    b.set_int_option(c, libc::IPPROTO_TCP, libc::TCP_NODELAY, 1)
        .unwrap();
    assert_eq!(
        b.get_int_option(c, libc::IPPROTO_TCP, libc::TCP_NODELAY),
        Ok(1)
    );
    b.close(c).unwrap();
    // A backlog of 1: one call waits to be accepted, the next stays in the gateway's queue.
    let small = b.socket(false, true, false).unwrap();
    b.bind(small, false, lo).unwrap();
    b.listen(small, 1).unwrap();
    let small_at = b.local_address(small).unwrap();
    let callers: Vec<_> = (0..3)
        .map(|_| std::net::TcpStream::connect(small_at).unwrap())
        .collect();
    b.set_blocking(small, false).unwrap();
    eventually(|| b.poll(small, libc::POLLIN, 0) == Ok(libc::POLLIN));
    let mut peers = Vec::new();
    for _ in 0..3 {
        eventually(|| b.poll(small, libc::POLLIN, 0) == Ok(libc::POLLIN));
        let (fd, peer) = b.accept(small).unwrap();
        peers.push(peer);
        b.close(fd).unwrap();
    }
    let mut want: Vec<_> = callers.iter().map(|c| c.local_addr().unwrap()).collect();
    want.sort();
    peers.sort();
    assert_eq!(peers, want);
    b.close(small).unwrap();
    // A blocked accept ends when another thread closes the listener (as the JDK does, by
    // dup2 of a pre-closed descriptor over it).
    b.set_blocking(srv, true).unwrap();
    let dead = b.pre_close_fd().unwrap();
    std::thread::scope(|s| {
        let waiter = s.spawn(|| b.accept(srv).map(drop));
        std::thread::sleep(std::time::Duration::from_millis(200));
        b.dup2(dead, srv).unwrap();
        assert_eq!(waiter.join().unwrap(), Err(Errno::EINTR));
    });
    // The gateway's listener is gone: connecting is refused.
    let s = b.socket(false, true, false).unwrap();
    assert_eq!(b.connect(s, false, at), Err(Errno::ECONNREFUSED));
    assert!(
        b.lookup_host("localhost", false)
            .unwrap()
            .contains(&std::net::IpAddr::from([127, 0, 0, 1]))
    );
    assert!(b.lookup_host("no-such-host.invalid", false).is_err());
    b.give_back();
}

/// An epoll set over socket `c` (at end of stream: readable) and an eventfd.
fn selectors(b: &NinepBackend, c: Fd) {
    let ep = b.epoll_create().unwrap();
    let ev = b.eventfd().unwrap();
    let (size, events_at, data_at) = crate::net::epoll_event_layout();
    let mut out = vec![0u8; size * 4];
    let addr = out.as_mut_ptr() as usize;
    let file = b.open(b"plain", RW_CREATE, 0o644).unwrap();
    assert_eq!(
        b.epoll_ctl(ep, libc::EPOLL_CTL_ADD, file, 1),
        Err(Errno::EPERM)
    );
    b.epoll_ctl(ep, libc::EPOLL_CTL_ADD, ev, libc::EPOLLIN as u32)
        .unwrap();
    assert_eq!(b.epoll_wait(ep, addr, 4, 0), Ok(0));
    // A wake-up from another thread ends a blocked wait.
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            b.write_buf(ev, &1u64.to_ne_bytes()).unwrap();
        });
        assert_eq!(b.epoll_wait(ep, addr, 4, 10_000), Ok(1));
    });
    let word = |at: usize, n: usize| u32::from_ne_bytes(out[at..at + n.min(4)].try_into().unwrap());
    assert_eq!(word(events_at, 4), libc::EPOLLIN as u32);
    assert_eq!(word(data_at, 4), ev.0 as u32);
    let mut eight = [0u8; 8];
    assert_eq!(b.read_buf(ev, &mut eight), Ok(8));
    assert_eq!(u64::from_ne_bytes(eight), 1);
    b.set_blocking(ev, false).unwrap();
    assert_eq!(b.read_buf(ev, &mut eight), Err(Errno::EAGAIN));
    // One-shot: reported once until modified again.
    let oneshot = (libc::EPOLLIN | libc::EPOLLONESHOT) as u32;
    b.epoll_ctl(ep, libc::EPOLL_CTL_ADD, c, oneshot).unwrap();
    assert_eq!(b.epoll_wait(ep, addr, 4, 10_000), Ok(1));
    assert_eq!(word(data_at, 4), c.0 as u32);
    assert_eq!(b.epoll_wait(ep, addr, 4, 0), Ok(0));
    b.epoll_ctl(ep, libc::EPOLL_CTL_MOD, c, oneshot).unwrap();
    assert_eq!(b.epoll_wait(ep, addr, 4, 0), Ok(1));
    b.epoll_ctl(ep, libc::EPOLL_CTL_DEL, c, 0).unwrap();
    assert_eq!(
        b.epoll_ctl(ep, libc::EPOLL_CTL_DEL, c, 0),
        Err(Errno::ENOENT)
    );
    for fd in [ep, ev, file] {
        b.close(fd).unwrap();
    }
}

#[test]
fn dots_inside_a_path_are_walked_in_one_message() {
    let (_dir, b) = attached("dots");
    let fd = b.open(b"/f.txt", RW_CREATE, 0o644).unwrap();
    b.close(fd).unwrap();
    b.mkdir(b"/d", 0o755).unwrap();
    assert!(b.stat(b"./f.txt", true).is_ok_and(|s| s.is_file()));
    assert!(b.stat(b"/./d/./", true).is_ok_and(|s| s.is_dir()));
    assert!(b.stat(b"d/./../f.txt", true).is_ok_and(|s| s.is_file()));
    assert!(b.stat(b"d/.", true).is_ok_and(|s| s.is_dir()));
    assert_eq!(b.realpath(b"./d/./"), Ok(b"/d".to_vec()));
    assert_eq!(b.stat(b"./nothing", true).map(drop), Err(Errno::ENOENT));
}

/// A backend over `dir`'s export whose file cache keeps small blocks in a cache smaller than
/// the files, and keeps a file's blocks however recently it changed (the tests wait past the
/// timestamps' tick themselves).
fn cached(tag: &str) -> (PathBuf, NinepBackend) {
    let (dir, mut b) = attached(tag);
    b.set_cache_config(cache::Config {
        block: 4096,
        capacity: 64 << 10,
        settle: std::time::Duration::ZERO,
        ..cache::Config::default()
    });
    (dir, b)
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 12) as u8)
        .collect()
}

/// Reads `path` from its start to its end in reads of `chunk` bytes, through a new descriptor.
fn slurp(b: &NinepBackend, path: &[u8], chunk: usize) -> Vec<u8> {
    let fd = b.open(path, libc::O_RDONLY, 0).unwrap();
    let mut all = Vec::new();
    loop {
        let got = read_n(b, fd, chunk, None);
        if got.is_empty() {
            break;
        }
        all.extend_from_slice(&got);
    }
    b.close(fd).unwrap();
    all
}

/// Past the tick of the file system's timestamps, so that a change moves them.
fn tick() {
    std::thread::sleep(std::time::Duration::from_millis(30));
}

#[test]
fn cached_reads_give_the_files_bytes_and_see_every_change() {
    let (dir, b) = cached("cache");
    let host = dir.join("f.bin");
    let v1 = pattern(300_000, 1);
    std::fs::write(&host, &v1).unwrap();
    tick();
    for chunk in [1000, 4096, 65_536, 1 << 20] {
        assert_eq!(slurp(&b, b"/f.bin", chunk), v1, "chunk {chunk}");
    }
    let s = b.cache_stats().unwrap();
    assert!(s.hits > 0 && s.misses > 0 && s.evictions > 0, "{s:?}");

    // Another writer changes it, keeping its size: the next open reads it again.
    let v2 = pattern(300_000, 2);
    std::fs::write(&host, &v2).unwrap();
    tick();
    assert_eq!(slurp(&b, b"/f.bin", 8192), v2);
    // It grows, and shrinks.
    let v3 = pattern(310_001, 3);
    std::fs::write(&host, &v3).unwrap();
    tick();
    assert_eq!(slurp(&b, b"/f.bin", 5000), v3);
    let v4 = pattern(1234, 4);
    std::fs::write(&host, &v4).unwrap();
    tick();
    assert_eq!(slurp(&b, b"/f.bin", 5000), v4);
    std::fs::write(&host, b"").unwrap();
    tick();
    assert_eq!(slurp(&b, b"/f.bin", 5000), b"");

    // Random access, beyond the end too.
    std::fs::write(&host, &v1).unwrap();
    tick();
    let fd = b.open(b"/f.bin", libc::O_RDONLY, 0).unwrap();
    let mut seed = 12345u64;
    for _ in 0..200 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let at = (seed >> 33) as usize % 310_000;
        let n = (seed >> 13) as usize % 20_000 + 1;
        let want = &v1[at.min(v1.len())..(at + n).min(v1.len())];
        assert_eq!(read_n(&b, fd, n, Some(at as i64)), want, "{at} {n}");
    }
    b.close(fd).unwrap();
}

#[test]
fn writes_through_the_backend_drop_what_the_cache_holds() {
    let (dir, b) = cached("cachew");
    std::fs::write(dir.join("w.bin"), pattern(20_000, 1)).unwrap();
    tick();
    let r = b.open(b"/w.bin", libc::O_RDONLY, 0).unwrap();
    assert_eq!(read_n(&b, r, 20_000, Some(0)), pattern(20_000, 1));
    // A write by another descriptor, with no tick between: the open reader sees it at once.
    let w = b.open(b"/w.bin", libc::O_WRONLY, 0).unwrap();
    assert_eq!(b.pwrite(w, b"XYZ".as_ptr() as usize, 3, 5000), Ok(3));
    let mut want = pattern(20_000, 1)[4999..5005].to_vec();
    want[1..4].copy_from_slice(b"XYZ");
    assert_eq!(read_n(&b, r, 6, Some(4999)), want);
    b.truncate(w, 100).unwrap();
    assert_eq!(read_n(&b, r, 1000, Some(0)).len(), 100);
    b.close(w).unwrap();
    b.close(r).unwrap();
    assert!(b.cache_stats().unwrap().invalidations >= 2);
}

#[test]
fn a_file_changed_just_now_is_read_around_the_cache() {
    let (dir, b) = attached("cachefresh");
    std::fs::write(dir.join("n.bin"), pattern(10_000, 1)).unwrap();
    assert_eq!(slurp(&b, b"/n.bin", 1000), pattern(10_000, 1));
    std::fs::write(dir.join("n.bin"), pattern(10_000, 2)).unwrap();
    assert_eq!(slurp(&b, b"/n.bin", 1000), pattern(10_000, 2));
    let s = b.cache_stats().unwrap();
    assert_eq!((s.hits, s.misses), (0, 0), "{s:?}");
}

#[test]
fn cache_off_reads_from_the_server_only() {
    let (dir, _) = attached("cacheoff");
    let addr = format!("unix:{}", dir.parent().unwrap().join("s.sock").display());
    let spec = NinepSpec {
        cache: false,
        ..NinepSpec::new(&addr)
    };
    let b = NinepBackend::connect(&spec, crate::held::Owner::domain(7002), None).unwrap();
    std::fs::write(dir.join("o.bin"), pattern(10_000, 1)).unwrap();
    assert_eq!(slurp(&b, b"/o.bin", 1000), pattern(10_000, 1));
    assert_eq!(b.cache_stats(), None);
}

#[test]
fn held_reads_answer_only_from_the_cache() {
    let (dir, b) = cached("cacheheld");
    let v = pattern(50_000, 5);
    std::fs::write(dir.join("h.bin"), &v).unwrap();
    tick();
    let fd = b.open(b"/h.bin", libc::O_RDONLY, 0).unwrap();
    let held = |n: usize| {
        let mut got = Vec::new();
        let r = b.io_read_held(fd, n, &mut |c| got.extend_from_slice(c));
        r.map(|r| (r.unwrap(), got))
    };
    // Not before the descriptor has checked its file.
    assert_eq!(held(100), None);
    assert_eq!(read_n(&b, fd, 100, None), v[..100]);
    // Block 0 (4 KiB here) is held, and read-ahead fetched block 1 too.
    assert_eq!(held(3000), Some((3000, v[100..3100].to_vec())));
    assert_eq!(held(5000), Some((5000, v[3100..8100].to_vec())));
    // Past what is held, the caller reads as usual.
    assert_eq!(held(5000), None);
    assert_eq!(read_n(&b, fd, 5000, None), v[8100..13_100]);
    b.seek(fd, 50_000).unwrap();
    assert_eq!(held(10), Some((0, Vec::new())));
    // A write through the backend: nothing is held until the next read checks again.
    let w = b.open(b"/h.bin", libc::O_WRONLY, 0).unwrap();
    assert_eq!(b.pwrite(w, b"Q".as_ptr() as usize, 1, 0), Ok(1));
    b.seek(fd, 0).unwrap();
    assert_eq!(held(10), None);
    assert_eq!(read_n(&b, fd, 2, None), [b'Q', v[1]]);
    b.close(w).unwrap();
    b.close(fd).unwrap();
}
