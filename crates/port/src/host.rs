//! The host interface: one trait, [`Host`], through which natives reach the host's files,
//! directories, sockets, processes, clock and environment, and its host backend,
//! [`HostBackend`], which makes the system calls (the functions of this module's siblings).
//!
//! Every domain holds one `Arc<dyn Host>` (`Domain::host`), made for it when it is created; the
//! natives call only its methods, so a domain can be given another backend (a 9P2000.L client
//! to a gateway, issue 22) without a native changing. A backend is bound to its domain: the
//! descriptors, directory streams, mappings and child processes it creates are that domain's
//! (the host backend records them in [`super::held`] under the domain's [`Owner`]), a domain
//! may close only what it holds, and [`Host::give_back`] releases what an ended domain left.
//!
//! Failures are [`Errno`]s (a Linux errno, what 9P2000.L's `Rlerror` carries). Descriptors are
//! the backend's numbers, handed to Java as ints; directory streams and mount tables are the
//! backend's handles, handed to Java as longs. Addresses (`addr`, `iov`, ...) are native
//! memory of this process that the Java side allocated, as the JDK's C code takes them: the
//! backend reads or writes them (the contracts are those of [`super::fs`] and [`super::net`]).
//!
//! Owns the trait and the host backend's binding to an owner; no system call is made here.

use std::net::{IpAddr, SocketAddr};

use super::fs::{self, FileStat, FsStat, LockResult, MapMode, MountEntry};
use super::held::{self, Owner};
use super::net::{self, Interface};
use super::process::{self, ProcStat, SpawnRequest, Spawned};
use super::{Errno, OpenMode, PortResult, Stat, Whence};

/// A descriptor of a backend: for the host backend, the process's file descriptor number.
/// Java holds the number (`FileDescriptor.fd`, the ints of `sun.nio`); natives convert at
/// their boundary (`native::io::fdval`, `set_fd`, and the `fd` arguments of NIO's calls).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Fd(pub i32);

/// An open directory stream of a backend (for the host backend, the `DIR*`), which Java holds
/// as a long (`UnixNativeDispatcher.opendir`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DirStream(pub u64);

/// A mount table a backend has read (`LinuxNativeDispatcher.setmntent`), which Java holds as
/// a long.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MountTable(pub u64);

/// Host access for one domain. Object-safe: natives hold it as `&dyn Host`.
pub trait Host: Send + Sync {
    /// Closes the descriptors and directory streams, unmaps the mappings and kills the child
    /// processes this backend still holds for its domain, which has ended (none of its
    /// threads runs again).
    fn give_back(&self);

    // ---- files, as java.io uses them (whole-file calls on paths and descriptors) ----
    /// See [`super::open`].
    fn io_open(&self, path: &str, mode: OpenMode) -> PortResult<Fd>;
    /// Closes `fd` (java.io's close).
    fn io_close(&self, fd: Fd) -> PortResult<()>;
    /// See [`super::write_all`].
    fn io_write_all(&self, fd: Fd, data: &[u8]) -> PortResult<()>;
    /// See [`super::read`].
    fn io_read(&self, fd: Fd, buf: &mut [u8]) -> PortResult<usize>;
    /// Reads up to `len` bytes at `fd`'s offset from what the backend holds in memory,
    /// handing them to `out` in order, without waiting for anything (no system call, no
    /// message, no lock another thread may hold while it waits): `None` when it cannot answer
    /// so, and the caller then reads as usual. The 9P backend's file cache answers; a caller
    /// may pass memory that must not be touched once it waits (a Java array).
    fn io_read_held(
        &self,
        _fd: Fd,
        _len: usize,
        _out: &mut dyn FnMut(&[u8]),
    ) -> Option<PortResult<usize>> {
        None
    }
    /// See [`super::seek`].
    fn io_seek(&self, fd: Fd, off: i64, whence: Whence) -> PortResult<i64>;
    /// See [`super::file_length`].
    fn io_file_length(&self, fd: Fd) -> PortResult<i64>;
    /// See [`super::fsync`].
    fn io_fsync(&self, fd: Fd) -> PortResult<()>;
    /// See [`super::set_length`].
    fn io_set_length(&self, fd: Fd, len: i64) -> PortResult<()>;
    /// See [`super::available`].
    fn io_available(&self, fd: Fd) -> PortResult<i64>;
    /// See [`super::is_append`].
    fn io_is_append(&self, fd: Fd) -> bool;
    /// See [`super::isatty`].
    fn isatty(&self, fd: Fd) -> bool;
    /// See [`super::stat`].
    fn io_stat(&self, path: &str) -> Option<Stat>;
    /// See [`super::access`].
    fn io_access(&self, path: &str, mode: i32) -> bool;
    /// See [`super::set_permission`].
    fn io_set_permission(&self, path: &str, access: i32, enable: bool, owner_only: bool) -> bool;
    /// See [`super::create_exclusive`].
    fn io_create_exclusive(&self, path: &str) -> PortResult<bool>;
    /// See [`super::delete`].
    fn io_delete(&self, path: &str) -> bool;
    /// See [`super::mkdir`].
    fn io_mkdir(&self, path: &str) -> bool;
    /// See [`super::rename`].
    fn io_rename(&self, from: &str, to: &str) -> bool;
    /// See [`super::set_mtime`].
    fn io_set_mtime(&self, path: &str, ms: i64) -> bool;
    /// See [`super::space`].
    fn io_space(&self, path: &str, which: i32) -> i64;
    /// See [`super::list_dir`].
    fn io_list_dir(&self, path: &str) -> Option<Vec<String>>;
    /// Canonical form of `path`: symlinks resolved for the existing prefix, `.`/`..` collapsed.
    fn io_canonicalize(&self, path: &str) -> String;

    // ---- files, as NIO uses them (the POSIX calls of libnio) ----
    /// `stat` (following symbolic links) or `lstat`.
    fn stat(&self, path: &[u8], follow: bool) -> PortResult<FileStat>;
    /// See [`fs::fstat`].
    fn fstat(&self, fd: Fd) -> PortResult<FileStat>;
    /// `fstatat(dfd, path, flags)`; `flags` may hold AT_SYMLINK_NOFOLLOW.
    fn fstatat(&self, dfd: Fd, path: &[u8], flags: i32) -> PortResult<FileStat>;
    /// Whether file creation times are available (statx works on this host).
    fn birthtime_supported(&self) -> bool;
    /// See [`fs::statvfs`].
    fn statvfs(&self, path: &[u8]) -> PortResult<FsStat>;
    /// See [`fs::getcwd`].
    fn getcwd(&self) -> PortResult<Vec<u8>>;
    /// See [`fs::access`].
    fn access(&self, path: &[u8], mode: i32) -> PortResult<()>;
    /// See [`fs::exists`].
    fn exists(&self, path: &[u8]) -> bool;
    /// See [`fs::link`].
    fn link(&self, existing: &[u8], new: &[u8]) -> PortResult<()>;
    /// See [`fs::unlink`].
    fn unlink(&self, path: &[u8]) -> PortResult<()>;
    /// `unlinkat(dfd, path, flags)`; `flags` may hold AT_REMOVEDIR.
    fn unlinkat(&self, dfd: Fd, path: &[u8], flags: i32) -> PortResult<()>;
    /// See [`fs::mknod`].
    fn mknod(&self, path: &[u8], mode: u32, dev: u64) -> PortResult<()>;
    /// See [`fs::rename`].
    fn rename(&self, from: &[u8], to: &[u8]) -> PortResult<()>;
    /// See [`fs::renameat`].
    fn renameat(&self, from_dfd: Fd, from: &[u8], to_dfd: Fd, to: &[u8]) -> PortResult<()>;
    /// See [`fs::mkdir`].
    fn mkdir(&self, path: &[u8], mode: u32) -> PortResult<()>;
    /// See [`fs::rmdir`].
    fn rmdir(&self, path: &[u8]) -> PortResult<()>;
    /// The target of symbolic link `path`.
    fn readlink(&self, path: &[u8]) -> PortResult<Vec<u8>>;
    /// `realpath(path)`: absolute, with symbolic links, `.` and `..` resolved.
    fn realpath(&self, path: &[u8]) -> PortResult<Vec<u8>>;
    /// Creates symbolic link `link` pointing at `target`.
    fn symlink(&self, target: &[u8], link: &[u8]) -> PortResult<()>;
    /// `chown` (following links) or `lchown`.
    fn chown(&self, path: &[u8], uid: u32, gid: u32, follow: bool) -> PortResult<()>;
    /// See [`fs::fchown`].
    fn fchown(&self, fd: Fd, uid: u32, gid: u32) -> PortResult<()>;
    /// See [`fs::chmod`].
    fn chmod(&self, path: &[u8], mode: u32) -> PortResult<()>;
    /// See [`fs::fchmod`].
    fn fchmod(&self, fd: Fd, mode: u32) -> PortResult<()>;
    /// Sets access and modification times (microseconds since the epoch): `utimes` or `lutimes`.
    fn utimes(&self, path: &[u8], atime_us: i64, mtime_us: i64, follow: bool) -> PortResult<()>;
    /// `futimes` with microsecond times.
    fn futimes(&self, fd: Fd, atime_us: i64, mtime_us: i64) -> PortResult<()>;
    /// `futimens` with nanosecond times.
    fn futimens(&self, fd: Fd, atime_ns: i64, mtime_ns: i64) -> PortResult<()>;
    /// See [`fs::open`].
    fn open(&self, path: &[u8], flags: i32, mode: u32) -> PortResult<Fd>;
    /// See [`fs::openat`].
    fn openat(&self, dfd: Fd, path: &[u8], flags: i32, mode: u32) -> PortResult<Fd>;
    /// Closes `fd` (a created domain may close only what it holds); an EINTR failure
    /// counts as closed (the descriptor is gone on Linux).
    fn close(&self, fd: Fd) -> PortResult<()>;
    /// See [`fs::dup`].
    fn dup(&self, fd: Fd) -> PortResult<Fd>;
    /// Makes `to` (which the domain holds, and keeps holding) refer to the same open file as `from`.
    fn dup2(&self, from: Fd, to: Fd) -> PortResult<()>;
    /// `read(fd, addr, len)` into native memory; EINTR is reported, not retried (IOStatus).
    fn read(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::write`].
    fn write(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::pread`].
    fn pread(&self, fd: Fd, addr: usize, len: usize, pos: i64) -> PortResult<usize>;
    /// See [`fs::pwrite`].
    fn pwrite(&self, fd: Fd, addr: usize, len: usize, pos: i64) -> PortResult<usize>;
    /// `readv` with `count` iovecs at native address `iov` (built by IOVecWrapper).
    fn readv(&self, fd: Fd, iov: usize, count: i32) -> PortResult<usize>;
    /// See [`fs::writev`].
    fn writev(&self, fd: Fd, iov: usize, count: i32) -> PortResult<usize>;
    /// Reads into a Rust buffer (EINTR retried).
    fn read_buf(&self, fd: Fd, buf: &mut [u8]) -> PortResult<usize>;
    /// Writes from a Rust buffer (EINTR retried); returns the count written.
    fn write_buf(&self, fd: Fd, buf: &[u8]) -> PortResult<usize>;
    /// Moves the file offset to `offset`, or reports it when `offset` is negative.
    fn seek(&self, fd: Fd, offset: i64) -> PortResult<i64>;
    /// `fsync` (with metadata) or `fdatasync`.
    fn sync(&self, fd: Fd, metadata: bool) -> PortResult<()>;
    /// See [`fs::truncate`].
    fn truncate(&self, fd: Fd, size: i64) -> PortResult<()>;
    /// `fcntl(F_SETLK[W])` on `[pos, pos+size)`.
    fn lock(
        &self,
        fd: Fd,
        blocking: bool,
        pos: i64,
        size: i64,
        shared: bool,
    ) -> PortResult<LockResult>;
    /// See [`fs::unlock`].
    fn unlock(&self, fd: Fd, pos: i64, size: i64) -> PortResult<()>;
    /// See [`fs::set_blocking`].
    fn set_blocking(&self, fd: Fd, blocking: bool) -> PortResult<()>;
    /// Sets O_DIRECT on `fd`; returns the file system's block size (alignment for direct I/O).
    fn set_direct(&self, fd: Fd) -> PortResult<i64>;
    /// A pipe as (read end, write end), optionally non-blocking.
    fn pipe(&self, blocking: bool) -> PortResult<(Fd, Fd)>;
    /// A descriptor whose reads see end-of-file and whose writes fail: `dup2`ed over a
    /// descriptor that is being closed (FileDispatcherImpl.preClose0), created on first use.
    fn pre_close_fd(&self) -> PortResult<Fd>;
    /// The soft limit on open descriptors, clamped to `i32::MAX`.
    fn fd_limit(&self) -> PortResult<i32>;
    /// `sendfile(out, in, &pos, count)`: bytes transferred.
    fn sendfile(&self, out_fd: Fd, in_fd: Fd, pos: i64, count: usize) -> PortResult<i64>;
    /// Maps `len` bytes of `fd` at `pos` for the domain; returns the address.
    fn mmap(&self, fd: Fd, mode: MapMode, pos: i64, len: usize) -> PortResult<usize>;
    /// Maps the first `len` bytes of `fd` shared (read-write if `writable`) for a memory object
    /// that owns the mapping from then on: unlike [`Host::mmap`]'s, it is not the domain's (a
    /// memory object outlives its domain when another holds it), and its owner unmaps it with
    /// `munmap(2)`. EOPNOTSUPP where the backend cannot share a file's pages.
    fn map_for_memory(&self, fd: Fd, writable: bool, len: usize) -> PortResult<usize>;
    /// Unmaps the whole of a mapping [`Host::mmap`] made for the domain (only that: an address range
    /// the port did not map for the domain is refused, EINVAL, never unmapped).
    fn munmap(&self, addr: usize, len: usize) -> PortResult<()>;
    /// Whether all `pages` pages of the mapping at `addr` are resident (`mincore`).
    fn mapping_resident(&self, addr: usize, len: usize, pages: usize) -> PortResult<bool>;
    /// `madvise(MADV_WILLNEED)` (load) or `madvise(MADV_DONTNEED)` (unload) on a mapping.
    fn advise_mapping(&self, addr: usize, len: usize, will_need: bool) -> PortResult<()>;
    /// Writes a shared mapping's dirty pages back to the file (`msync(MS_SYNC)`).
    fn sync_mapping(&self, addr: usize, len: usize) -> PortResult<()>;
    /// Copies all of `src` (from its offset) to `dst`, as UnixCopyFile.transfer does. If
    /// `cancel_addr` is non-zero it is polled between chunks; a non-zero int there cancels the
    /// copy with ECANCELED.
    fn copy_fd(&self, dst: Fd, src: Fd, cancel_addr: usize) -> PortResult<()>;
    /// `fgetxattr` into native memory (`len` 0 asks for the size).
    fn fgetxattr(&self, fd: Fd, name: &[u8], addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::fsetxattr`].
    fn fsetxattr(&self, fd: Fd, name: &[u8], addr: usize, len: usize) -> PortResult<()>;
    /// See [`fs::fremovexattr`].
    fn fremovexattr(&self, fd: Fd, name: &[u8]) -> PortResult<()>;
    /// `flistxattr` into native memory: NUL-separated names.
    fn flistxattr(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::inotify_init`].
    fn inotify_init(&self) -> PortResult<Fd>;
    /// Adds a watch on `path`; returns the watch descriptor.
    fn inotify_add_watch(&self, fd: Fd, path: &[u8], mask: u32) -> PortResult<i32>;
    /// See [`fs::inotify_rm_watch`].
    fn inotify_rm_watch(&self, fd: Fd, wd: i32) -> PortResult<()>;
    /// A connected pair of Unix stream sockets.
    fn socketpair(&self) -> PortResult<(Fd, Fd)>;
    /// Waits until `fd1` or `fd2` is readable; the number of ready descriptors (0 if interrupted).
    fn poll_readable(&self, fd1: Fd, fd2: Fd) -> PortResult<i32>;

    // ---- directories ----
    /// See [`fs::opendir`].
    fn opendir(&self, path: &[u8]) -> PortResult<DirStream>;
    /// Opens a directory stream on `fd` (which the stream then owns: the domain holds the stream
    /// instead of the descriptor).
    fn fdopendir(&self, fd: Fd) -> PortResult<DirStream>;
    /// The next entry name (including "." and ".."), or None at the end.
    fn readdir(&self, handle: DirStream) -> PortResult<Option<Vec<u8>>>;
    /// See [`fs::closedir`].
    fn closedir(&self, handle: DirStream) -> PortResult<()>;
    /// Opens a mount table file; returns a handle for the functions below.
    fn mount_table_open(&self, path: &[u8]) -> PortResult<MountTable>;
    /// Length of the next raw line (like `getline`), None at the end.
    fn mount_table_line_len(&self, h: MountTable) -> PortResult<Option<usize>>;
    /// See [`fs::mount_table_rewind`].
    fn mount_table_rewind(&self, h: MountTable) -> PortResult<()>;
    /// The next entry (skipping blank and comment lines), None at the end.
    fn mount_table_next(&self, h: MountTable) -> PortResult<Option<MountEntry>>;
    /// See [`fs::mount_table_close`].
    fn mount_table_close(&self, h: MountTable) -> PortResult<()>;

    // ---- users and groups ----
    /// The user name of `uid` (ENOENT when there is none).
    fn user_name(&self, uid: u32) -> PortResult<Vec<u8>>;
    /// The group name of `gid` (ENOENT when there is none).
    fn group_name(&self, gid: u32) -> PortResult<Vec<u8>>;
    /// The uid of user `name`, None if there is no such user.
    fn user_id(&self, name: &[u8]) -> PortResult<Option<u32>>;
    /// The gid of group `name`, None if there is no such group.
    fn group_id(&self, name: &[u8]) -> PortResult<Option<u32>>;

    // ---- sockets ----
    /// Whether IPv6 sockets can be created and the host has IPv6 interfaces (libnet's
    /// `IPv6_supported`).
    fn ipv6_available(&self) -> bool;
    /// Whether SO_REUSEPORT can be set.
    fn reuse_port_available(&self) -> bool;
    /// A new socket (close-on-exec), IPv6 dual-stack when `v6`; with `reuse`, SO_REUSEADDR set.
    fn socket(&self, v6: bool, stream: bool, reuse: bool) -> PortResult<Fd>;
    /// See [`net::bind`].
    fn bind(&self, fd: Fd, v6: bool, addr: SocketAddr) -> PortResult<()>;
    /// See [`net::listen`].
    fn listen(&self, fd: Fd, backlog: i32) -> PortResult<()>;
    /// Starts or makes a connection: `Ok(true)` connected, `Ok(false)` in progress (EINPROGRESS on
    /// a non-blocking socket). EINTR is returned as an error for the caller to map.
    fn connect(&self, fd: Fd, v6: bool, addr: SocketAddr) -> PortResult<bool>;
    /// Accepts a connection: the new (close-on-exec) socket and the peer's address.
    fn accept(&self, fd: Fd) -> PortResult<(Fd, SocketAddr)>;
    /// See [`net::shutdown`].
    fn shutdown(&self, fd: Fd, how: i32) -> PortResult<()>;
    /// See [`net::local_address`].
    fn local_address(&self, fd: Fd) -> PortResult<SocketAddr>;
    /// See [`net::remote_address`].
    fn remote_address(&self, fd: Fd) -> PortResult<SocketAddr>;
    /// See [`net::is_reachable`] (`InetAddress.isReachable`).
    fn is_reachable(
        &self,
        target: SocketAddr,
        timeout_ms: i32,
        source: Option<SocketAddr>,
        ttl: i32,
    ) -> PortResult<bool>;
    /// A new Unix domain stream socket (close-on-exec).
    fn unix_socket(&self) -> PortResult<Fd>;
    /// Binds a Unix domain socket to `path` (ENAMETOOLONG: too long for a `sockaddr_un`).
    fn unix_bind(&self, fd: Fd, path: &[u8]) -> PortResult<()>;
    /// Connects a Unix domain socket to `path`: `Ok(true)` connected, `Ok(false)` in progress.
    fn unix_connect(&self, fd: Fd, path: &[u8]) -> PortResult<bool>;
    /// Accepts a connection on a Unix domain socket: the new socket and the peer's path
    /// (empty when the peer is unnamed).
    fn unix_accept(&self, fd: Fd) -> PortResult<(Fd, Vec<u8>)>;
    /// The path a Unix domain socket is bound to (empty when unnamed).
    fn unix_local_address(&self, fd: Fd) -> PortResult<Vec<u8>>;
    /// The path of a connected Unix domain socket's peer (empty when unnamed).
    fn unix_peer_address(&self, fd: Fd) -> PortResult<Vec<u8>>;
    /// The peer's (uid, gid) of a connected Unix domain socket (SO_PEERCRED).
    fn peer_credentials(&self, fd: Fd) -> PortResult<(u32, u32)>;
    /// An integer socket option; SO_LINGER is its linger time, or -1 when off.
    fn get_int_option(&self, fd: Fd, level: i32, opt: i32) -> PortResult<i32>;
    /// Sets an integer socket option; SO_LINGER takes the linger time, negative for off.
    fn set_int_option(&self, fd: Fd, level: i32, opt: i32, value: i32) -> PortResult<()>;
    /// poll(2) on one descriptor: the returned events (0 on timeout). `timeout_ms` -1 waits
    /// forever. EINTR is returned as an error.
    fn poll(&self, fd: Fd, events: i16, timeout_ms: i64) -> PortResult<i16>;
    /// Waits up to `timeout_ms` for a pending connect to finish: `Ok(true)` connected,
    /// `Ok(false)` still pending, `Err` the connection's error.
    fn poll_connect(&self, fd: Fd, timeout_ms: i64) -> PortResult<bool>;
    /// Bytes ready to read.
    fn socket_available(&self, fd: Fd) -> PortResult<i32>;
    /// Sends one byte of urgent data.
    fn send_oob(&self, fd: Fd, b: u8) -> PortResult<usize>;
    /// recv(2) into native memory at `addr` (a direct buffer the caller owns).
    fn recv(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize>;
    /// send(2) from native memory at `addr` (a direct buffer the caller owns).
    fn send(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize>;
    /// recvfrom(2) into native memory at `addr`, the sender's C address written at `sender` (a
    /// NativeSocketAddress). EINTR, EAGAIN and ECONNREFUSED are returned for the caller to map.
    fn recv_from(&self, fd: Fd, addr: usize, len: usize, sender: usize) -> PortResult<usize>;
    /// sendto(2) from native memory at `addr` to the C address of `target_len` bytes at `target`.
    fn send_to(
        &self,
        fd: Fd,
        addr: usize,
        len: usize,
        target: usize,
        target_len: usize,
    ) -> PortResult<usize>;
    /// Dissolves a datagram socket's association (connect to an AF_UNSPEC address).
    fn disconnect(&self, fd: Fd, v6: bool) -> PortResult<()>;
    /// Joins or leaves IPv4 multicast `group` on interface `interf` (addresses in host order),
    /// only for datagrams from `source` when it is not 0.
    fn join_or_drop4(
        &self,
        fd: Fd,
        join: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()>;
    /// Blocks or unblocks IPv4 `source` for a joined `group`.
    fn block_or_unblock4(
        &self,
        fd: Fd,
        block: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()>;
    /// Joins or leaves IPv6 multicast `group` on interface `index`, only for datagrams from
    /// `source` when given.
    fn join_or_drop6(
        &self,
        fd: Fd,
        join: bool,
        group: [u8; 16],
        index: i32,
        source: Option<[u8; 16]>,
    ) -> PortResult<()>;
    /// Blocks or unblocks IPv6 `source` for a joined `group`.
    fn block_or_unblock6(
        &self,
        fd: Fd,
        block: bool,
        group: [u8; 16],
        index: i32,
        source: [u8; 16],
    ) -> PortResult<()>;
    /// IP_MULTICAST_IF: sets the outgoing interface by its IPv4 address (host order).
    fn set_interface4(&self, fd: Fd, interf: i32) -> PortResult<()>;
    /// IP_MULTICAST_IF: the outgoing interface's IPv4 address (host order).
    fn get_interface4(&self, fd: Fd) -> PortResult<i32>;
    /// IPV6_MULTICAST_IF: sets the outgoing interface by index.
    fn set_interface6(&self, fd: Fd, index: i32) -> PortResult<()>;
    /// IPV6_MULTICAST_IF: the outgoing interface's index.
    fn get_interface6(&self, fd: Fd) -> PortResult<i32>;
    /// See [`net::epoll_create`].
    fn epoll_create(&self) -> PortResult<Fd>;
    /// epoll_ctl with the descriptor itself as the event's data; returns 0 or the errno.
    fn epoll_ctl(&self, epfd: Fd, op: i32, fd: Fd, events: u32) -> PortResult<()>;
    /// epoll_wait into `count` events at native address `addr` (the selector's poll array).
    fn epoll_wait(&self, epfd: Fd, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32>;
    /// See [`net::poll_array`].
    fn poll_array(&self, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32>;
    /// A new blocking eventfd (close-on-exec) with value zero.
    fn eventfd(&self) -> PortResult<Fd>;
    /// The host's name (gethostname).
    fn host_name(&self) -> PortResult<String>;
    /// The addresses of `host` from the host resolver (getaddrinfo), IPv4 ones first, without
    /// duplicates; only IPv4 unless `v6`. The error is the resolver's message.
    fn lookup_host(&self, host: &str, v6: bool) -> Result<Vec<IpAddr>, String>;
    /// The name of address `ip` (getnameinfo with NI_NAMEREQD), or None.
    fn host_by_addr(&self, ip: IpAddr) -> Option<String>;
    /// The interface flags (IFF_*) of `name` (SIOCGIFFLAGS).
    fn interface_flags(&self, name: &str) -> PortResult<i32>;
    /// The MTU of `name` (SIOCGIFMTU).
    fn interface_mtu(&self, name: &str) -> PortResult<i32>;
    /// The 6-byte hardware address of `name` (SIOCGIFHWADDR); None when it is all zeroes (as for
    /// the loopback interface), which libnet reports as no address.
    fn interface_hardware_address(&self, name: &str) -> PortResult<Option<[u8; 6]>>;
    /// The host's interfaces that have addresses, as libnet enumerates them: IPv4 ones first
    /// (SIOCGIFCONF), then, with `ipv6`, the IPv6 addresses of /proc/net/if_inet6. Every list
    /// (interfaces, their addresses and children) comes in libnet's order, which is the reverse
    /// of discovery.
    fn interfaces(&self, ipv6: bool) -> PortResult<Vec<Interface>>;

    // ---- processes ----
    /// Starts a child process (the JDK's `forkAndExec`; all launch mechanisms behave alike).
    /// On failure returns the errno the JDK would report ("error=N, message"). The parent's ends of the child's pipes are the domain's.
    fn spawn(&self, req: &SpawnRequest) -> Result<Spawned, Errno>;
    /// Waits for child `pid` to exit; returns its exit status, or 0x80 + the signal that killed
    /// it (as shells report it), [`process::NOT_A_CHILD`] if `pid` is not a child the domain started, -1 on
    /// another error (also when the calling thread's blocking calls are cancelled: see
    /// `port::cancellation`). With `reap` false the child stays waitable (`WNOWAIT`).
    fn wait_for_exit(&self, pid: i64, reap: bool) -> i32;
    /// Sends SIGTERM (or SIGKILL when `force`) to `pid`, if the domain may (a created domain
    /// signals only children it started and has not waited for); whether the signal was sent.
    fn kill(&self, pid: i64, force: bool) -> bool;
    /// See [`process::current_pid`].
    fn current_pid(&self) -> i64;
    /// See [`process::parent_pid`].
    fn parent_pid(&self) -> i64;
    /// `None` when the process does not exist (the JDK's os_getParentPidAndTimings returning -1).
    fn proc_stat(&self, pid: i64) -> Option<ProcStat>;
    /// The pids under `/proc`.
    fn all_pids(&self) -> Vec<i64>;
    /// The executable of `pid` (`/proc/PID/exe`, readable for one's own processes).
    fn proc_exe(&self, pid: i64) -> Option<Vec<u8>>;
    /// The raw command line of `pid` (arguments separated by NULs).
    fn proc_cmdline(&self, pid: i64) -> Option<Vec<u8>>;
    /// The user id owning `pid`.
    fn proc_uid(&self, pid: i64) -> Option<u32>;
    /// The login name of `uid`, if the password database knows it.
    fn process_user_name(&self, uid: u32) -> Option<Vec<u8>>;

    // ---- clock ----
    /// See [`super::current_time_millis`].
    fn current_time_millis(&self) -> i64;
    /// Seconds and nanoseconds since the epoch.
    fn wall_clock(&self) -> (i64, i64);
    /// See [`super::nano_time`].
    fn nano_time(&self) -> i64;

    // ---- environment ----
    /// See [`super::available_processors`].
    fn available_processors(&self) -> usize;
    /// (uid, euid, gid, egid)
    fn ids(&self) -> (u64, u64, u64, u64);
    /// See [`super::groups`].
    fn groups(&self) -> Vec<u32>;
    /// See [`super::environment`].
    fn environment(&self) -> Vec<(Vec<u8>, Vec<u8>)>;
    /// The values of SystemProps.Raw's `_xxx_NDX` slots (39 entries).
    fn platform_properties(&self) -> Vec<Option<String>>;
    /// The host's time zone id (TZ, /etc/timezone, or the /etc/localtime link), like the JDK's
    /// TimeZone_md.c.
    fn system_time_zone(&self) -> Option<String>;
    /// "GMT+hh:mm" for the host's current offset.
    fn gmt_offset_id(&self) -> String;
}

/// The host backend: today's direct system calls, for the domain of `owner`.
pub struct HostBackend {
    owner: Owner,
}

impl HostBackend {
    /// The host backend of the domain whose resources are held for `owner`.
    pub fn new(owner: Owner) -> HostBackend {
        HostBackend { owner }
    }
}

impl Host for HostBackend {
    fn give_back(&self) {
        held::give_back(self.owner);
    }

    // ---- files, as java.io uses them (whole-file calls on paths and descriptors) ----
    fn io_open(&self, path: &str, mode: OpenMode) -> PortResult<Fd> {
        super::open(self.owner, path, mode).map(Fd)
    }
    fn io_close(&self, fd: Fd) -> PortResult<()> {
        super::close(self.owner, fd.0)
    }
    fn io_write_all(&self, fd: Fd, data: &[u8]) -> PortResult<()> {
        super::write_all(fd.0, data)
    }
    fn io_read(&self, fd: Fd, buf: &mut [u8]) -> PortResult<usize> {
        super::read(fd.0, buf)
    }
    fn io_seek(&self, fd: Fd, off: i64, whence: Whence) -> PortResult<i64> {
        super::seek(fd.0, off, whence)
    }
    fn io_file_length(&self, fd: Fd) -> PortResult<i64> {
        super::file_length(fd.0)
    }
    fn io_fsync(&self, fd: Fd) -> PortResult<()> {
        super::fsync(fd.0)
    }
    fn io_set_length(&self, fd: Fd, len: i64) -> PortResult<()> {
        super::set_length(fd.0, len)
    }
    fn io_available(&self, fd: Fd) -> PortResult<i64> {
        super::available(fd.0)
    }
    fn io_is_append(&self, fd: Fd) -> bool {
        super::is_append(fd.0)
    }
    fn isatty(&self, fd: Fd) -> bool {
        super::isatty(fd.0)
    }
    fn io_stat(&self, path: &str) -> Option<Stat> {
        super::stat(path)
    }
    fn io_access(&self, path: &str, mode: i32) -> bool {
        super::access(path, mode)
    }
    fn io_set_permission(&self, path: &str, access: i32, enable: bool, owner_only: bool) -> bool {
        super::set_permission(path, access, enable, owner_only)
    }
    fn io_create_exclusive(&self, path: &str) -> PortResult<bool> {
        super::create_exclusive(path)
    }
    fn io_delete(&self, path: &str) -> bool {
        super::delete(path)
    }
    fn io_mkdir(&self, path: &str) -> bool {
        super::mkdir(path)
    }
    fn io_rename(&self, from: &str, to: &str) -> bool {
        super::rename(from, to)
    }
    fn io_set_mtime(&self, path: &str, ms: i64) -> bool {
        super::set_mtime(path, ms)
    }
    fn io_space(&self, path: &str, which: i32) -> i64 {
        super::space(path, which)
    }
    fn io_list_dir(&self, path: &str) -> Option<Vec<String>> {
        super::list_dir(path)
    }
    fn io_canonicalize(&self, path: &str) -> String {
        super::canonicalize(path)
    }

    // ---- files, as NIO uses them (the POSIX calls of libnio) ----
    fn stat(&self, path: &[u8], follow: bool) -> PortResult<FileStat> {
        fs::stat(path, follow)
    }
    fn fstat(&self, fd: Fd) -> PortResult<FileStat> {
        fs::fstat(fd.0)
    }
    fn fstatat(&self, dfd: Fd, path: &[u8], flags: i32) -> PortResult<FileStat> {
        fs::fstatat(dfd.0, path, flags)
    }
    fn birthtime_supported(&self) -> bool {
        fs::birthtime_supported()
    }
    fn statvfs(&self, path: &[u8]) -> PortResult<FsStat> {
        fs::statvfs(path)
    }
    fn getcwd(&self) -> PortResult<Vec<u8>> {
        fs::getcwd()
    }
    fn access(&self, path: &[u8], mode: i32) -> PortResult<()> {
        fs::access(path, mode)
    }
    fn exists(&self, path: &[u8]) -> bool {
        fs::exists(path)
    }
    fn link(&self, existing: &[u8], new: &[u8]) -> PortResult<()> {
        fs::link(existing, new)
    }
    fn unlink(&self, path: &[u8]) -> PortResult<()> {
        fs::unlink(path)
    }
    fn unlinkat(&self, dfd: Fd, path: &[u8], flags: i32) -> PortResult<()> {
        fs::unlinkat(dfd.0, path, flags)
    }
    fn mknod(&self, path: &[u8], mode: u32, dev: u64) -> PortResult<()> {
        fs::mknod(path, mode, dev)
    }
    fn rename(&self, from: &[u8], to: &[u8]) -> PortResult<()> {
        fs::rename(from, to)
    }
    fn renameat(&self, from_dfd: Fd, from: &[u8], to_dfd: Fd, to: &[u8]) -> PortResult<()> {
        fs::renameat(from_dfd.0, from, to_dfd.0, to)
    }
    fn mkdir(&self, path: &[u8], mode: u32) -> PortResult<()> {
        fs::mkdir(path, mode)
    }
    fn rmdir(&self, path: &[u8]) -> PortResult<()> {
        fs::rmdir(path)
    }
    fn readlink(&self, path: &[u8]) -> PortResult<Vec<u8>> {
        fs::readlink(path)
    }
    fn realpath(&self, path: &[u8]) -> PortResult<Vec<u8>> {
        fs::realpath(path)
    }
    fn symlink(&self, target: &[u8], link: &[u8]) -> PortResult<()> {
        fs::symlink(target, link)
    }
    fn chown(&self, path: &[u8], uid: u32, gid: u32, follow: bool) -> PortResult<()> {
        fs::chown(path, uid, gid, follow)
    }
    fn fchown(&self, fd: Fd, uid: u32, gid: u32) -> PortResult<()> {
        fs::fchown(fd.0, uid, gid)
    }
    fn chmod(&self, path: &[u8], mode: u32) -> PortResult<()> {
        fs::chmod(path, mode)
    }
    fn fchmod(&self, fd: Fd, mode: u32) -> PortResult<()> {
        fs::fchmod(fd.0, mode)
    }
    fn utimes(&self, path: &[u8], atime_us: i64, mtime_us: i64, follow: bool) -> PortResult<()> {
        fs::utimes(path, atime_us, mtime_us, follow)
    }
    fn futimes(&self, fd: Fd, atime_us: i64, mtime_us: i64) -> PortResult<()> {
        fs::futimes(fd.0, atime_us, mtime_us)
    }
    fn futimens(&self, fd: Fd, atime_ns: i64, mtime_ns: i64) -> PortResult<()> {
        fs::futimens(fd.0, atime_ns, mtime_ns)
    }
    fn open(&self, path: &[u8], flags: i32, mode: u32) -> PortResult<Fd> {
        fs::open(self.owner, path, flags, mode).map(Fd)
    }
    fn openat(&self, dfd: Fd, path: &[u8], flags: i32, mode: u32) -> PortResult<Fd> {
        fs::openat(self.owner, dfd.0, path, flags, mode).map(Fd)
    }
    fn close(&self, fd: Fd) -> PortResult<()> {
        fs::close(self.owner, fd.0)
    }
    fn dup(&self, fd: Fd) -> PortResult<Fd> {
        fs::dup(self.owner, fd.0).map(Fd)
    }
    fn dup2(&self, from: Fd, to: Fd) -> PortResult<()> {
        fs::dup2(self.owner, from.0, to.0)
    }
    fn read(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        fs::read(fd.0, addr, len)
    }
    fn write(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        fs::write(fd.0, addr, len)
    }
    fn pread(&self, fd: Fd, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
        fs::pread(fd.0, addr, len, pos)
    }
    fn pwrite(&self, fd: Fd, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
        fs::pwrite(fd.0, addr, len, pos)
    }
    fn readv(&self, fd: Fd, iov: usize, count: i32) -> PortResult<usize> {
        fs::readv(fd.0, iov, count)
    }
    fn writev(&self, fd: Fd, iov: usize, count: i32) -> PortResult<usize> {
        fs::writev(fd.0, iov, count)
    }
    fn read_buf(&self, fd: Fd, buf: &mut [u8]) -> PortResult<usize> {
        fs::read_buf(fd.0, buf)
    }
    fn write_buf(&self, fd: Fd, buf: &[u8]) -> PortResult<usize> {
        fs::write_buf(fd.0, buf)
    }
    fn seek(&self, fd: Fd, offset: i64) -> PortResult<i64> {
        fs::seek(fd.0, offset)
    }
    fn sync(&self, fd: Fd, metadata: bool) -> PortResult<()> {
        fs::sync(fd.0, metadata)
    }
    fn truncate(&self, fd: Fd, size: i64) -> PortResult<()> {
        fs::truncate(fd.0, size)
    }
    fn lock(
        &self,
        fd: Fd,
        blocking: bool,
        pos: i64,
        size: i64,
        shared: bool,
    ) -> PortResult<LockResult> {
        fs::lock(fd.0, blocking, pos, size, shared)
    }
    fn unlock(&self, fd: Fd, pos: i64, size: i64) -> PortResult<()> {
        fs::unlock(fd.0, pos, size)
    }
    fn set_blocking(&self, fd: Fd, blocking: bool) -> PortResult<()> {
        fs::set_blocking(fd.0, blocking)
    }
    fn set_direct(&self, fd: Fd) -> PortResult<i64> {
        fs::set_direct(fd.0)
    }
    fn pipe(&self, blocking: bool) -> PortResult<(Fd, Fd)> {
        fs::pipe(self.owner, blocking).map(|(a, b)| (Fd(a), Fd(b)))
    }
    fn pre_close_fd(&self) -> PortResult<Fd> {
        fs::pre_close_fd().map(Fd)
    }
    fn fd_limit(&self) -> PortResult<i32> {
        fs::fd_limit()
    }
    fn sendfile(&self, out_fd: Fd, in_fd: Fd, pos: i64, count: usize) -> PortResult<i64> {
        fs::sendfile(out_fd.0, in_fd.0, pos, count)
    }
    fn mmap(&self, fd: Fd, mode: MapMode, pos: i64, len: usize) -> PortResult<usize> {
        fs::mmap(self.owner, fd.0, mode, pos, len)
    }
    fn map_for_memory(&self, fd: Fd, writable: bool, len: usize) -> PortResult<usize> {
        fs::map_unowned(fd.0, writable, len)
    }
    fn munmap(&self, addr: usize, len: usize) -> PortResult<()> {
        fs::munmap(self.owner, addr, len)
    }
    fn mapping_resident(&self, addr: usize, len: usize, pages: usize) -> PortResult<bool> {
        fs::mapping_resident(addr, len, pages)
    }
    fn advise_mapping(&self, addr: usize, len: usize, will_need: bool) -> PortResult<()> {
        fs::advise_mapping(addr, len, will_need)
    }
    fn sync_mapping(&self, addr: usize, len: usize) -> PortResult<()> {
        fs::sync_mapping(addr, len)
    }
    fn copy_fd(&self, dst: Fd, src: Fd, cancel_addr: usize) -> PortResult<()> {
        fs::copy_fd(dst.0, src.0, cancel_addr)
    }
    fn fgetxattr(&self, fd: Fd, name: &[u8], addr: usize, len: usize) -> PortResult<usize> {
        fs::fgetxattr(fd.0, name, addr, len)
    }
    fn fsetxattr(&self, fd: Fd, name: &[u8], addr: usize, len: usize) -> PortResult<()> {
        fs::fsetxattr(fd.0, name, addr, len)
    }
    fn fremovexattr(&self, fd: Fd, name: &[u8]) -> PortResult<()> {
        fs::fremovexattr(fd.0, name)
    }
    fn flistxattr(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        fs::flistxattr(fd.0, addr, len)
    }
    fn inotify_init(&self) -> PortResult<Fd> {
        fs::inotify_init(self.owner).map(Fd)
    }
    fn inotify_add_watch(&self, fd: Fd, path: &[u8], mask: u32) -> PortResult<i32> {
        fs::inotify_add_watch(fd.0, path, mask)
    }
    fn inotify_rm_watch(&self, fd: Fd, wd: i32) -> PortResult<()> {
        fs::inotify_rm_watch(fd.0, wd)
    }
    fn socketpair(&self) -> PortResult<(Fd, Fd)> {
        fs::socketpair(self.owner).map(|(a, b)| (Fd(a), Fd(b)))
    }
    fn poll_readable(&self, fd1: Fd, fd2: Fd) -> PortResult<i32> {
        fs::poll_readable(fd1.0, fd2.0)
    }

    // ---- directories ----
    fn opendir(&self, path: &[u8]) -> PortResult<DirStream> {
        fs::opendir(self.owner, path).map(DirStream)
    }
    fn fdopendir(&self, fd: Fd) -> PortResult<DirStream> {
        fs::fdopendir(self.owner, fd.0).map(DirStream)
    }
    fn readdir(&self, handle: DirStream) -> PortResult<Option<Vec<u8>>> {
        fs::readdir(handle.0)
    }
    fn closedir(&self, handle: DirStream) -> PortResult<()> {
        fs::closedir(self.owner, handle.0)
    }
    fn mount_table_open(&self, path: &[u8]) -> PortResult<MountTable> {
        fs::mount_table_open(self.owner, path).map(MountTable)
    }
    fn mount_table_line_len(&self, h: MountTable) -> PortResult<Option<usize>> {
        fs::mount_table_line_len(h.0)
    }
    fn mount_table_rewind(&self, h: MountTable) -> PortResult<()> {
        fs::mount_table_rewind(h.0)
    }
    fn mount_table_next(&self, h: MountTable) -> PortResult<Option<MountEntry>> {
        fs::mount_table_next(h.0)
    }
    fn mount_table_close(&self, h: MountTable) -> PortResult<()> {
        fs::mount_table_close(self.owner, h.0)
    }

    // ---- users and groups ----
    fn user_name(&self, uid: u32) -> PortResult<Vec<u8>> {
        fs::user_name(uid)
    }
    fn group_name(&self, gid: u32) -> PortResult<Vec<u8>> {
        fs::group_name(gid)
    }
    fn user_id(&self, name: &[u8]) -> PortResult<Option<u32>> {
        fs::user_id(name)
    }
    fn group_id(&self, name: &[u8]) -> PortResult<Option<u32>> {
        fs::group_id(name)
    }

    // ---- sockets ----
    fn ipv6_available(&self) -> bool {
        net::ipv6_available()
    }
    fn reuse_port_available(&self) -> bool {
        net::reuse_port_available()
    }
    fn socket(&self, v6: bool, stream: bool, reuse: bool) -> PortResult<Fd> {
        net::socket(self.owner, v6, stream, reuse).map(Fd)
    }
    fn bind(&self, fd: Fd, v6: bool, addr: SocketAddr) -> PortResult<()> {
        net::bind(fd.0, v6, addr)
    }
    fn listen(&self, fd: Fd, backlog: i32) -> PortResult<()> {
        net::listen(fd.0, backlog)
    }
    fn connect(&self, fd: Fd, v6: bool, addr: SocketAddr) -> PortResult<bool> {
        net::connect(fd.0, v6, addr)
    }
    fn accept(&self, fd: Fd) -> PortResult<(Fd, SocketAddr)> {
        net::accept(self.owner, fd.0).map(|(fd, peer)| (Fd(fd), peer))
    }
    fn shutdown(&self, fd: Fd, how: i32) -> PortResult<()> {
        net::shutdown(fd.0, how)
    }
    fn local_address(&self, fd: Fd) -> PortResult<SocketAddr> {
        net::local_address(fd.0)
    }
    fn is_reachable(
        &self,
        target: SocketAddr,
        timeout_ms: i32,
        source: Option<SocketAddr>,
        ttl: i32,
    ) -> PortResult<bool> {
        net::is_reachable(target, timeout_ms, source, ttl)
    }
    fn unix_socket(&self) -> PortResult<Fd> {
        net::unix_socket(self.owner).map(Fd)
    }
    fn unix_bind(&self, fd: Fd, path: &[u8]) -> PortResult<()> {
        net::unix_bind(fd.0, path)
    }
    fn unix_connect(&self, fd: Fd, path: &[u8]) -> PortResult<bool> {
        net::unix_connect(fd.0, path)
    }
    fn unix_accept(&self, fd: Fd) -> PortResult<(Fd, Vec<u8>)> {
        net::unix_accept(self.owner, fd.0).map(|(fd, path)| (Fd(fd), path))
    }
    fn unix_local_address(&self, fd: Fd) -> PortResult<Vec<u8>> {
        net::unix_local_address(fd.0)
    }
    fn unix_peer_address(&self, fd: Fd) -> PortResult<Vec<u8>> {
        net::unix_peer_address(fd.0)
    }
    fn peer_credentials(&self, fd: Fd) -> PortResult<(u32, u32)> {
        net::peer_credentials(fd.0)
    }
    fn remote_address(&self, fd: Fd) -> PortResult<SocketAddr> {
        net::remote_address(fd.0)
    }
    fn get_int_option(&self, fd: Fd, level: i32, opt: i32) -> PortResult<i32> {
        net::get_int_option(fd.0, level, opt)
    }
    fn set_int_option(&self, fd: Fd, level: i32, opt: i32, value: i32) -> PortResult<()> {
        net::set_int_option(fd.0, level, opt, value)
    }
    fn poll(&self, fd: Fd, events: i16, timeout_ms: i64) -> PortResult<i16> {
        net::poll(fd.0, events, timeout_ms)
    }
    fn poll_connect(&self, fd: Fd, timeout_ms: i64) -> PortResult<bool> {
        net::poll_connect(fd.0, timeout_ms)
    }
    fn socket_available(&self, fd: Fd) -> PortResult<i32> {
        net::available(fd.0)
    }
    fn send_oob(&self, fd: Fd, b: u8) -> PortResult<usize> {
        net::send_oob(fd.0, b)
    }
    fn recv(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        net::recv(fd.0, addr, len)
    }
    fn send(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        net::send(fd.0, addr, len)
    }
    fn recv_from(&self, fd: Fd, addr: usize, len: usize, sender: usize) -> PortResult<usize> {
        net::recv_from(fd.0, addr, len, sender)
    }
    fn send_to(
        &self,
        fd: Fd,
        addr: usize,
        len: usize,
        target: usize,
        target_len: usize,
    ) -> PortResult<usize> {
        net::send_to(fd.0, addr, len, target, target_len)
    }
    fn disconnect(&self, fd: Fd, v6: bool) -> PortResult<()> {
        net::disconnect(fd.0, v6)
    }
    fn join_or_drop4(
        &self,
        fd: Fd,
        join: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()> {
        net::join_or_drop4(fd.0, join, group, interf, source)
    }
    fn block_or_unblock4(
        &self,
        fd: Fd,
        block: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()> {
        net::block_or_unblock4(fd.0, block, group, interf, source)
    }
    fn join_or_drop6(
        &self,
        fd: Fd,
        join: bool,
        group: [u8; 16],
        index: i32,
        source: Option<[u8; 16]>,
    ) -> PortResult<()> {
        net::join_or_drop6(fd.0, join, group, index, source)
    }
    fn block_or_unblock6(
        &self,
        fd: Fd,
        block: bool,
        group: [u8; 16],
        index: i32,
        source: [u8; 16],
    ) -> PortResult<()> {
        net::block_or_unblock6(fd.0, block, group, index, source)
    }
    fn set_interface4(&self, fd: Fd, interf: i32) -> PortResult<()> {
        net::set_interface4(fd.0, interf)
    }
    fn get_interface4(&self, fd: Fd) -> PortResult<i32> {
        net::get_interface4(fd.0)
    }
    fn set_interface6(&self, fd: Fd, index: i32) -> PortResult<()> {
        net::set_interface6(fd.0, index)
    }
    fn get_interface6(&self, fd: Fd) -> PortResult<i32> {
        net::get_interface6(fd.0)
    }
    fn epoll_create(&self) -> PortResult<Fd> {
        net::epoll_create(self.owner).map(Fd)
    }
    fn epoll_ctl(&self, epfd: Fd, op: i32, fd: Fd, events: u32) -> PortResult<()> {
        net::epoll_ctl(epfd.0, op, fd.0, events)
    }
    fn epoll_wait(&self, epfd: Fd, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32> {
        net::epoll_wait(epfd.0, addr, count, timeout_ms)
    }
    fn poll_array(&self, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32> {
        net::poll_array(addr, count, timeout_ms)
    }
    fn eventfd(&self) -> PortResult<Fd> {
        net::eventfd(self.owner).map(Fd)
    }
    fn host_name(&self) -> PortResult<String> {
        net::host_name()
    }
    fn lookup_host(&self, host: &str, v6: bool) -> Result<Vec<IpAddr>, String> {
        net::lookup_host(host, v6)
    }
    fn host_by_addr(&self, ip: IpAddr) -> Option<String> {
        net::host_by_addr(ip)
    }
    fn interface_flags(&self, name: &str) -> PortResult<i32> {
        net::interface_flags(name)
    }
    fn interface_mtu(&self, name: &str) -> PortResult<i32> {
        net::interface_mtu(name)
    }
    fn interface_hardware_address(&self, name: &str) -> PortResult<Option<[u8; 6]>> {
        net::interface_hardware_address(name)
    }
    fn interfaces(&self, ipv6: bool) -> PortResult<Vec<Interface>> {
        net::interfaces(ipv6)
    }

    // ---- processes ----
    fn spawn(&self, req: &SpawnRequest) -> Result<Spawned, Errno> {
        process::spawn(self.owner, req)
    }
    fn wait_for_exit(&self, pid: i64, reap: bool) -> i32 {
        process::wait_for_exit(self.owner, pid, reap)
    }
    fn kill(&self, pid: i64, force: bool) -> bool {
        process::kill(self.owner, pid, force)
    }
    fn current_pid(&self) -> i64 {
        process::current_pid()
    }
    fn parent_pid(&self) -> i64 {
        process::parent_pid()
    }
    fn proc_stat(&self, pid: i64) -> Option<ProcStat> {
        process::proc_stat(pid)
    }
    fn all_pids(&self) -> Vec<i64> {
        process::all_pids()
    }
    fn proc_exe(&self, pid: i64) -> Option<Vec<u8>> {
        process::proc_exe(pid)
    }
    fn proc_cmdline(&self, pid: i64) -> Option<Vec<u8>> {
        process::proc_cmdline(pid)
    }
    fn proc_uid(&self, pid: i64) -> Option<u32> {
        process::proc_uid(pid)
    }
    fn process_user_name(&self, uid: u32) -> Option<Vec<u8>> {
        process::user_name(uid)
    }

    // ---- clock ----
    fn current_time_millis(&self) -> i64 {
        super::current_time_millis()
    }
    fn wall_clock(&self) -> (i64, i64) {
        super::wall_clock()
    }
    fn nano_time(&self) -> i64 {
        super::nano_time()
    }

    // ---- environment ----
    fn available_processors(&self) -> usize {
        super::available_processors()
    }
    fn ids(&self) -> (u64, u64, u64, u64) {
        super::ids()
    }
    fn groups(&self) -> Vec<u32> {
        super::groups()
    }
    fn environment(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        super::environment()
    }
    fn platform_properties(&self) -> Vec<Option<String>> {
        super::platform_properties()
    }
    fn system_time_zone(&self) -> Option<String> {
        super::system_time_zone()
    }
    fn gmt_offset_id(&self) -> String {
        super::gmt_offset_id()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_backend_acts_for_its_domain_only() {
        let a: Arc<dyn Host> = Arc::new(HostBackend::new(Owner::domain(9031)));
        let b: Arc<dyn Host> = Arc::new(HostBackend::new(Owner::domain(9032)));
        let fd = a
            .open(b"/dev/null", libc::O_RDONLY | libc::O_CLOEXEC, 0)
            .unwrap();
        assert!(held::holds(Owner::domain(9031), held::Handle::Fd(fd.0)));
        assert_eq!(b.close(fd), Err(Errno::EBADF), "not b's to close");
        assert!(a.fstat(fd).is_ok(), "still open");
        let dir = a.opendir(b"/").unwrap();
        assert_eq!(b.closedir(dir), Err(Errno::EBADF));
        assert_eq!(
            a.open(b"/no/such/file", libc::O_RDONLY, 0),
            Err(Errno::ENOENT)
        );
        assert_eq!(a.io_open("/", OpenMode::Read), Err(Errno::EISDIR));
        a.give_back();
        assert!(!held::holds(Owner::domain(9031), held::Handle::Fd(fd.0)));
    }
}
