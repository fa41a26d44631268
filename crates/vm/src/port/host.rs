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

/// Host access for one domain. Object-safe: natives hold it as `&dyn Host`.
pub trait Host: Send + Sync {
    /// Closes the descriptors and directory streams, unmaps the mappings and kills the child
    /// processes this backend still holds for its domain, which has ended (none of its
    /// threads runs again).
    fn give_back(&self);

    // ---- files, as java.io uses them (whole-file calls on paths and descriptors) ----
    /// See [`super::open`].
    fn io_open(&self, path: &str, mode: OpenMode) -> PortResult<i32>;
    /// `owner` closes `fd` (see [`held`]).
    fn io_close(&self, fd: i32) -> PortResult<()>;
    /// See [`super::write_all`].
    fn io_write_all(&self, fd: i32, data: &[u8]) -> PortResult<()>;
    /// See [`super::read`].
    fn io_read(&self, fd: i32, buf: &mut [u8]) -> PortResult<usize>;
    /// See [`super::seek`].
    fn io_seek(&self, fd: i32, off: i64, whence: Whence) -> PortResult<i64>;
    /// See [`super::file_length`].
    fn io_file_length(&self, fd: i32) -> PortResult<i64>;
    /// See [`super::fsync`].
    fn io_fsync(&self, fd: i32) -> PortResult<()>;
    /// See [`super::set_length`].
    fn io_set_length(&self, fd: i32, len: i64) -> PortResult<()>;
    /// See [`super::available`].
    fn io_available(&self, fd: i32) -> PortResult<i64>;
    /// See [`super::is_append`].
    fn io_is_append(&self, fd: i32) -> bool;
    /// See [`super::isatty`].
    fn isatty(&self, fd: i32) -> bool;
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
    fn fstat(&self, fd: i32) -> PortResult<FileStat>;
    /// `fstatat(dfd, path, flags)`; `flags` may hold AT_SYMLINK_NOFOLLOW.
    fn fstatat(&self, dfd: i32, path: &[u8], flags: i32) -> PortResult<FileStat>;
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
    fn unlinkat(&self, dfd: i32, path: &[u8], flags: i32) -> PortResult<()>;
    /// See [`fs::mknod`].
    fn mknod(&self, path: &[u8], mode: u32, dev: u64) -> PortResult<()>;
    /// See [`fs::rename`].
    fn rename(&self, from: &[u8], to: &[u8]) -> PortResult<()>;
    /// See [`fs::renameat`].
    fn renameat(&self, from_dfd: i32, from: &[u8], to_dfd: i32, to: &[u8]) -> PortResult<()>;
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
    fn fchown(&self, fd: i32, uid: u32, gid: u32) -> PortResult<()>;
    /// See [`fs::chmod`].
    fn chmod(&self, path: &[u8], mode: u32) -> PortResult<()>;
    /// See [`fs::fchmod`].
    fn fchmod(&self, fd: i32, mode: u32) -> PortResult<()>;
    /// Sets access and modification times (microseconds since the epoch): `utimes` or `lutimes`.
    fn utimes(&self, path: &[u8], atime_us: i64, mtime_us: i64, follow: bool) -> PortResult<()>;
    /// `futimes` with microsecond times.
    fn futimes(&self, fd: i32, atime_us: i64, mtime_us: i64) -> PortResult<()>;
    /// `futimens` with nanosecond times.
    fn futimens(&self, fd: i32, atime_ns: i64, mtime_ns: i64) -> PortResult<()>;
    /// See [`fs::open`].
    fn open(&self, path: &[u8], flags: i32, mode: u32) -> PortResult<i32>;
    /// See [`fs::openat`].
    fn openat(&self, dfd: i32, path: &[u8], flags: i32, mode: u32) -> PortResult<i32>;
    /// `owner` closes `fd` (see `held` for what a created domain may close); an EINTR failure
    /// counts as closed (the descriptor is gone on Linux).
    fn close(&self, fd: i32) -> PortResult<()>;
    /// See [`fs::dup`].
    fn dup(&self, fd: i32) -> PortResult<i32>;
    /// Makes `to` (which `owner` holds, and keeps holding) refer to the same open file as `from`.
    fn dup2(&self, from: i32, to: i32) -> PortResult<()>;
    /// `read(fd, addr, len)` into native memory; EINTR is reported, not retried (IOStatus).
    fn read(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::write`].
    fn write(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::pread`].
    fn pread(&self, fd: i32, addr: usize, len: usize, pos: i64) -> PortResult<usize>;
    /// See [`fs::pwrite`].
    fn pwrite(&self, fd: i32, addr: usize, len: usize, pos: i64) -> PortResult<usize>;
    /// `readv` with `count` iovecs at native address `iov` (built by IOVecWrapper).
    fn readv(&self, fd: i32, iov: usize, count: i32) -> PortResult<usize>;
    /// See [`fs::writev`].
    fn writev(&self, fd: i32, iov: usize, count: i32) -> PortResult<usize>;
    /// Reads into a Rust buffer (EINTR retried).
    fn read_buf(&self, fd: i32, buf: &mut [u8]) -> PortResult<usize>;
    /// Writes from a Rust buffer (EINTR retried); returns the count written.
    fn write_buf(&self, fd: i32, buf: &[u8]) -> PortResult<usize>;
    /// Moves the file offset to `offset`, or reports it when `offset` is negative.
    fn seek(&self, fd: i32, offset: i64) -> PortResult<i64>;
    /// `fsync` (with metadata) or `fdatasync`.
    fn sync(&self, fd: i32, metadata: bool) -> PortResult<()>;
    /// See [`fs::truncate`].
    fn truncate(&self, fd: i32, size: i64) -> PortResult<()>;
    /// `fcntl(F_SETLK[W])` on `[pos, pos+size)`.
    fn lock(
        &self,
        fd: i32,
        blocking: bool,
        pos: i64,
        size: i64,
        shared: bool,
    ) -> PortResult<LockResult>;
    /// See [`fs::unlock`].
    fn unlock(&self, fd: i32, pos: i64, size: i64) -> PortResult<()>;
    /// See [`fs::set_blocking`].
    fn set_blocking(&self, fd: i32, blocking: bool) -> PortResult<()>;
    /// Sets O_DIRECT on `fd`; returns the file system's block size (alignment for direct I/O).
    fn set_direct(&self, fd: i32) -> PortResult<i64>;
    /// A pipe as (read end, write end), optionally non-blocking.
    fn pipe(&self, blocking: bool) -> PortResult<(i32, i32)>;
    /// A descriptor whose reads see end-of-file and whose writes fail: `dup2`ed over a
    /// descriptor that is being closed (FileDispatcherImpl.preClose0), created on first use.
    fn pre_close_fd(&self) -> PortResult<i32>;
    /// The soft limit on open descriptors, clamped to `i32::MAX`.
    fn fd_limit(&self) -> PortResult<i32>;
    /// `sendfile(out, in, &pos, count)`: bytes transferred.
    fn sendfile(&self, out_fd: i32, in_fd: i32, pos: i64, count: usize) -> PortResult<i64>;
    /// Maps `len` bytes of `fd` at `pos` for `owner`; returns the address.
    fn mmap(&self, fd: i32, mode: MapMode, pos: i64, len: usize) -> PortResult<usize>;
    /// `owner` unmaps the whole of a mapping [`mmap`] made for it (only that: an address range
    /// the port did not map for the owner is refused, EINVAL, never unmapped).
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
    fn copy_fd(&self, dst: i32, src: i32, cancel_addr: usize) -> PortResult<()>;
    /// `fgetxattr` into native memory (`len` 0 asks for the size).
    fn fgetxattr(&self, fd: i32, name: &[u8], addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::fsetxattr`].
    fn fsetxattr(&self, fd: i32, name: &[u8], addr: usize, len: usize) -> PortResult<()>;
    /// See [`fs::fremovexattr`].
    fn fremovexattr(&self, fd: i32, name: &[u8]) -> PortResult<()>;
    /// `flistxattr` into native memory: NUL-separated names.
    fn flistxattr(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize>;
    /// See [`fs::inotify_init`].
    fn inotify_init(&self) -> PortResult<i32>;
    /// Adds a watch on `path`; returns the watch descriptor.
    fn inotify_add_watch(&self, fd: i32, path: &[u8], mask: u32) -> PortResult<i32>;
    /// See [`fs::inotify_rm_watch`].
    fn inotify_rm_watch(&self, fd: i32, wd: i32) -> PortResult<()>;
    /// A connected pair of Unix stream sockets.
    fn socketpair(&self) -> PortResult<(i32, i32)>;
    /// Waits until `fd1` or `fd2` is readable; the number of ready descriptors (0 if interrupted).
    fn poll_readable(&self, fd1: i32, fd2: i32) -> PortResult<i32>;

    // ---- directories ----
    /// See [`fs::opendir`].
    fn opendir(&self, path: &[u8]) -> PortResult<u64>;
    /// Opens a directory stream on `fd` (which the stream then owns: `owner` holds the stream
    /// instead of the descriptor).
    fn fdopendir(&self, fd: i32) -> PortResult<u64>;
    /// The next entry name (including "." and ".."), or None at the end.
    fn readdir(&self, handle: u64) -> PortResult<Option<Vec<u8>>>;
    /// See [`fs::closedir`].
    fn closedir(&self, handle: u64) -> PortResult<()>;
    /// Opens a mount table file; returns a handle for the functions below.
    fn mount_table_open(&self, path: &[u8]) -> PortResult<u64>;
    /// Length of the next raw line (like `getline`), None at the end.
    fn mount_table_line_len(&self, h: u64) -> PortResult<Option<usize>>;
    /// See [`fs::mount_table_rewind`].
    fn mount_table_rewind(&self, h: u64) -> PortResult<()>;
    /// The next entry (skipping blank and comment lines), None at the end.
    fn mount_table_next(&self, h: u64) -> PortResult<Option<MountEntry>>;
    /// See [`fs::mount_table_close`].
    fn mount_table_close(&self, h: u64) -> PortResult<()>;

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
    fn socket(&self, v6: bool, stream: bool, reuse: bool) -> PortResult<i32>;
    /// See [`net::bind`].
    fn bind(&self, fd: i32, v6: bool, addr: SocketAddr) -> PortResult<()>;
    /// See [`net::listen`].
    fn listen(&self, fd: i32, backlog: i32) -> PortResult<()>;
    /// Starts or makes a connection: `Ok(true)` connected, `Ok(false)` in progress (EINPROGRESS on
    /// a non-blocking socket). EINTR is returned as an error for the caller to map.
    fn connect(&self, fd: i32, v6: bool, addr: SocketAddr) -> PortResult<bool>;
    /// Accepts a connection: the new (close-on-exec) socket and the peer's address.
    fn accept(&self, fd: i32) -> PortResult<(i32, SocketAddr)>;
    /// See [`net::shutdown`].
    fn shutdown(&self, fd: i32, how: i32) -> PortResult<()>;
    /// See [`net::local_address`].
    fn local_address(&self, fd: i32) -> PortResult<SocketAddr>;
    /// See [`net::remote_address`].
    fn remote_address(&self, fd: i32) -> PortResult<SocketAddr>;
    /// An integer socket option; SO_LINGER is its linger time, or -1 when off.
    fn get_int_option(&self, fd: i32, level: i32, opt: i32) -> PortResult<i32>;
    /// Sets an integer socket option; SO_LINGER takes the linger time, negative for off.
    fn set_int_option(&self, fd: i32, level: i32, opt: i32, value: i32) -> PortResult<()>;
    /// poll(2) on one descriptor: the returned events (0 on timeout). `timeout_ms` -1 waits
    /// forever. EINTR is returned as an error.
    fn poll(&self, fd: i32, events: i16, timeout_ms: i64) -> PortResult<i16>;
    /// Waits up to `timeout_ms` for a pending connect to finish: `Ok(true)` connected,
    /// `Ok(false)` still pending, `Err` the connection's error.
    fn poll_connect(&self, fd: i32, timeout_ms: i64) -> PortResult<bool>;
    /// Bytes ready to read.
    fn socket_available(&self, fd: i32) -> PortResult<i32>;
    /// Sends one byte of urgent data.
    fn send_oob(&self, fd: i32, b: u8) -> PortResult<usize>;
    /// recv(2) into native memory at `addr` (a direct buffer the caller owns).
    fn recv(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize>;
    /// send(2) from native memory at `addr` (a direct buffer the caller owns).
    fn send(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize>;
    /// recvfrom(2) into native memory at `addr`, the sender's C address written at `sender` (a
    /// NativeSocketAddress). EINTR, EAGAIN and ECONNREFUSED are returned for the caller to map.
    fn recv_from(&self, fd: i32, addr: usize, len: usize, sender: usize) -> PortResult<usize>;
    /// sendto(2) from native memory at `addr` to the C address of `target_len` bytes at `target`.
    fn send_to(
        &self,
        fd: i32,
        addr: usize,
        len: usize,
        target: usize,
        target_len: usize,
    ) -> PortResult<usize>;
    /// Dissolves a datagram socket's association (connect to an AF_UNSPEC address).
    fn disconnect(&self, fd: i32, v6: bool) -> PortResult<()>;
    /// Joins or leaves IPv4 multicast `group` on interface `interf` (addresses in host order),
    /// only for datagrams from `source` when it is not 0.
    fn join_or_drop4(
        &self,
        fd: i32,
        join: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()>;
    /// Blocks or unblocks IPv4 `source` for a joined `group`.
    fn block_or_unblock4(
        &self,
        fd: i32,
        block: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()>;
    /// Joins or leaves IPv6 multicast `group` on interface `index`, only for datagrams from
    /// `source` when given.
    fn join_or_drop6(
        &self,
        fd: i32,
        join: bool,
        group: [u8; 16],
        index: i32,
        source: Option<[u8; 16]>,
    ) -> PortResult<()>;
    /// Blocks or unblocks IPv6 `source` for a joined `group`.
    fn block_or_unblock6(
        &self,
        fd: i32,
        block: bool,
        group: [u8; 16],
        index: i32,
        source: [u8; 16],
    ) -> PortResult<()>;
    /// IP_MULTICAST_IF: sets the outgoing interface by its IPv4 address (host order).
    fn set_interface4(&self, fd: i32, interf: i32) -> PortResult<()>;
    /// IP_MULTICAST_IF: the outgoing interface's IPv4 address (host order).
    fn get_interface4(&self, fd: i32) -> PortResult<i32>;
    /// IPV6_MULTICAST_IF: sets the outgoing interface by index.
    fn set_interface6(&self, fd: i32, index: i32) -> PortResult<()>;
    /// IPV6_MULTICAST_IF: the outgoing interface's index.
    fn get_interface6(&self, fd: i32) -> PortResult<i32>;
    /// See [`net::epoll_create`].
    fn epoll_create(&self) -> PortResult<i32>;
    /// epoll_ctl with the descriptor itself as the event's data; returns 0 or the errno.
    fn epoll_ctl(&self, epfd: i32, op: i32, fd: i32, events: u32) -> PortResult<()>;
    /// epoll_wait into `count` events at native address `addr` (the selector's poll array).
    fn epoll_wait(&self, epfd: i32, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32>;
    /// A new blocking eventfd (close-on-exec) with value zero.
    fn eventfd(&self) -> PortResult<i32>;
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
    /// On failure returns the errno the JDK would report ("error=N, message"). The parent's ends of the child's pipes are `owner`'s.
    fn spawn(&self, req: &SpawnRequest) -> Result<Spawned, Errno>;
    /// Waits for child `pid` to exit; returns its exit status, or 0x80 + the signal that killed
    /// it (as shells report it), [`NOT_A_CHILD`] if `pid` is not a child `owner` started, -1 on
    /// another error (also when the calling thread's blocking calls are cancelled: see
    /// `port::cancellation`). With `reap` false the child stays waitable (`WNOWAIT`).
    fn wait_for_exit(&self, pid: i64, reap: bool) -> i32;
    /// Sends SIGTERM (or SIGKILL when `force`) to `pid`, if `owner` may (a created domain
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
    fn io_open(&self, path: &str, mode: OpenMode) -> PortResult<i32> {
        super::open(self.owner, path, mode)
    }
    fn io_close(&self, fd: i32) -> PortResult<()> {
        super::close(self.owner, fd)
    }
    fn io_write_all(&self, fd: i32, data: &[u8]) -> PortResult<()> {
        super::write_all(fd, data)
    }
    fn io_read(&self, fd: i32, buf: &mut [u8]) -> PortResult<usize> {
        super::read(fd, buf)
    }
    fn io_seek(&self, fd: i32, off: i64, whence: Whence) -> PortResult<i64> {
        super::seek(fd, off, whence)
    }
    fn io_file_length(&self, fd: i32) -> PortResult<i64> {
        super::file_length(fd)
    }
    fn io_fsync(&self, fd: i32) -> PortResult<()> {
        super::fsync(fd)
    }
    fn io_set_length(&self, fd: i32, len: i64) -> PortResult<()> {
        super::set_length(fd, len)
    }
    fn io_available(&self, fd: i32) -> PortResult<i64> {
        super::available(fd)
    }
    fn io_is_append(&self, fd: i32) -> bool {
        super::is_append(fd)
    }
    fn isatty(&self, fd: i32) -> bool {
        super::isatty(fd)
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
    fn fstat(&self, fd: i32) -> PortResult<FileStat> {
        fs::fstat(fd)
    }
    fn fstatat(&self, dfd: i32, path: &[u8], flags: i32) -> PortResult<FileStat> {
        fs::fstatat(dfd, path, flags)
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
    fn unlinkat(&self, dfd: i32, path: &[u8], flags: i32) -> PortResult<()> {
        fs::unlinkat(dfd, path, flags)
    }
    fn mknod(&self, path: &[u8], mode: u32, dev: u64) -> PortResult<()> {
        fs::mknod(path, mode, dev)
    }
    fn rename(&self, from: &[u8], to: &[u8]) -> PortResult<()> {
        fs::rename(from, to)
    }
    fn renameat(&self, from_dfd: i32, from: &[u8], to_dfd: i32, to: &[u8]) -> PortResult<()> {
        fs::renameat(from_dfd, from, to_dfd, to)
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
    fn fchown(&self, fd: i32, uid: u32, gid: u32) -> PortResult<()> {
        fs::fchown(fd, uid, gid)
    }
    fn chmod(&self, path: &[u8], mode: u32) -> PortResult<()> {
        fs::chmod(path, mode)
    }
    fn fchmod(&self, fd: i32, mode: u32) -> PortResult<()> {
        fs::fchmod(fd, mode)
    }
    fn utimes(&self, path: &[u8], atime_us: i64, mtime_us: i64, follow: bool) -> PortResult<()> {
        fs::utimes(path, atime_us, mtime_us, follow)
    }
    fn futimes(&self, fd: i32, atime_us: i64, mtime_us: i64) -> PortResult<()> {
        fs::futimes(fd, atime_us, mtime_us)
    }
    fn futimens(&self, fd: i32, atime_ns: i64, mtime_ns: i64) -> PortResult<()> {
        fs::futimens(fd, atime_ns, mtime_ns)
    }
    fn open(&self, path: &[u8], flags: i32, mode: u32) -> PortResult<i32> {
        fs::open(self.owner, path, flags, mode)
    }
    fn openat(&self, dfd: i32, path: &[u8], flags: i32, mode: u32) -> PortResult<i32> {
        fs::openat(self.owner, dfd, path, flags, mode)
    }
    fn close(&self, fd: i32) -> PortResult<()> {
        fs::close(self.owner, fd)
    }
    fn dup(&self, fd: i32) -> PortResult<i32> {
        fs::dup(self.owner, fd)
    }
    fn dup2(&self, from: i32, to: i32) -> PortResult<()> {
        fs::dup2(self.owner, from, to)
    }
    fn read(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize> {
        fs::read(fd, addr, len)
    }
    fn write(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize> {
        fs::write(fd, addr, len)
    }
    fn pread(&self, fd: i32, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
        fs::pread(fd, addr, len, pos)
    }
    fn pwrite(&self, fd: i32, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
        fs::pwrite(fd, addr, len, pos)
    }
    fn readv(&self, fd: i32, iov: usize, count: i32) -> PortResult<usize> {
        fs::readv(fd, iov, count)
    }
    fn writev(&self, fd: i32, iov: usize, count: i32) -> PortResult<usize> {
        fs::writev(fd, iov, count)
    }
    fn read_buf(&self, fd: i32, buf: &mut [u8]) -> PortResult<usize> {
        fs::read_buf(fd, buf)
    }
    fn write_buf(&self, fd: i32, buf: &[u8]) -> PortResult<usize> {
        fs::write_buf(fd, buf)
    }
    fn seek(&self, fd: i32, offset: i64) -> PortResult<i64> {
        fs::seek(fd, offset)
    }
    fn sync(&self, fd: i32, metadata: bool) -> PortResult<()> {
        fs::sync(fd, metadata)
    }
    fn truncate(&self, fd: i32, size: i64) -> PortResult<()> {
        fs::truncate(fd, size)
    }
    fn lock(
        &self,
        fd: i32,
        blocking: bool,
        pos: i64,
        size: i64,
        shared: bool,
    ) -> PortResult<LockResult> {
        fs::lock(fd, blocking, pos, size, shared)
    }
    fn unlock(&self, fd: i32, pos: i64, size: i64) -> PortResult<()> {
        fs::unlock(fd, pos, size)
    }
    fn set_blocking(&self, fd: i32, blocking: bool) -> PortResult<()> {
        fs::set_blocking(fd, blocking)
    }
    fn set_direct(&self, fd: i32) -> PortResult<i64> {
        fs::set_direct(fd)
    }
    fn pipe(&self, blocking: bool) -> PortResult<(i32, i32)> {
        fs::pipe(self.owner, blocking)
    }
    fn pre_close_fd(&self) -> PortResult<i32> {
        fs::pre_close_fd()
    }
    fn fd_limit(&self) -> PortResult<i32> {
        fs::fd_limit()
    }
    fn sendfile(&self, out_fd: i32, in_fd: i32, pos: i64, count: usize) -> PortResult<i64> {
        fs::sendfile(out_fd, in_fd, pos, count)
    }
    fn mmap(&self, fd: i32, mode: MapMode, pos: i64, len: usize) -> PortResult<usize> {
        fs::mmap(self.owner, fd, mode, pos, len)
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
    fn copy_fd(&self, dst: i32, src: i32, cancel_addr: usize) -> PortResult<()> {
        fs::copy_fd(dst, src, cancel_addr)
    }
    fn fgetxattr(&self, fd: i32, name: &[u8], addr: usize, len: usize) -> PortResult<usize> {
        fs::fgetxattr(fd, name, addr, len)
    }
    fn fsetxattr(&self, fd: i32, name: &[u8], addr: usize, len: usize) -> PortResult<()> {
        fs::fsetxattr(fd, name, addr, len)
    }
    fn fremovexattr(&self, fd: i32, name: &[u8]) -> PortResult<()> {
        fs::fremovexattr(fd, name)
    }
    fn flistxattr(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize> {
        fs::flistxattr(fd, addr, len)
    }
    fn inotify_init(&self) -> PortResult<i32> {
        fs::inotify_init(self.owner)
    }
    fn inotify_add_watch(&self, fd: i32, path: &[u8], mask: u32) -> PortResult<i32> {
        fs::inotify_add_watch(fd, path, mask)
    }
    fn inotify_rm_watch(&self, fd: i32, wd: i32) -> PortResult<()> {
        fs::inotify_rm_watch(fd, wd)
    }
    fn socketpair(&self) -> PortResult<(i32, i32)> {
        fs::socketpair(self.owner)
    }
    fn poll_readable(&self, fd1: i32, fd2: i32) -> PortResult<i32> {
        fs::poll_readable(fd1, fd2)
    }

    // ---- directories ----
    fn opendir(&self, path: &[u8]) -> PortResult<u64> {
        fs::opendir(self.owner, path)
    }
    fn fdopendir(&self, fd: i32) -> PortResult<u64> {
        fs::fdopendir(self.owner, fd)
    }
    fn readdir(&self, handle: u64) -> PortResult<Option<Vec<u8>>> {
        fs::readdir(handle)
    }
    fn closedir(&self, handle: u64) -> PortResult<()> {
        fs::closedir(self.owner, handle)
    }
    fn mount_table_open(&self, path: &[u8]) -> PortResult<u64> {
        fs::mount_table_open(self.owner, path)
    }
    fn mount_table_line_len(&self, h: u64) -> PortResult<Option<usize>> {
        fs::mount_table_line_len(h)
    }
    fn mount_table_rewind(&self, h: u64) -> PortResult<()> {
        fs::mount_table_rewind(h)
    }
    fn mount_table_next(&self, h: u64) -> PortResult<Option<MountEntry>> {
        fs::mount_table_next(h)
    }
    fn mount_table_close(&self, h: u64) -> PortResult<()> {
        fs::mount_table_close(self.owner, h)
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
    fn socket(&self, v6: bool, stream: bool, reuse: bool) -> PortResult<i32> {
        net::socket(self.owner, v6, stream, reuse)
    }
    fn bind(&self, fd: i32, v6: bool, addr: SocketAddr) -> PortResult<()> {
        net::bind(fd, v6, addr)
    }
    fn listen(&self, fd: i32, backlog: i32) -> PortResult<()> {
        net::listen(fd, backlog)
    }
    fn connect(&self, fd: i32, v6: bool, addr: SocketAddr) -> PortResult<bool> {
        net::connect(fd, v6, addr)
    }
    fn accept(&self, fd: i32) -> PortResult<(i32, SocketAddr)> {
        net::accept(self.owner, fd)
    }
    fn shutdown(&self, fd: i32, how: i32) -> PortResult<()> {
        net::shutdown(fd, how)
    }
    fn local_address(&self, fd: i32) -> PortResult<SocketAddr> {
        net::local_address(fd)
    }
    fn remote_address(&self, fd: i32) -> PortResult<SocketAddr> {
        net::remote_address(fd)
    }
    fn get_int_option(&self, fd: i32, level: i32, opt: i32) -> PortResult<i32> {
        net::get_int_option(fd, level, opt)
    }
    fn set_int_option(&self, fd: i32, level: i32, opt: i32, value: i32) -> PortResult<()> {
        net::set_int_option(fd, level, opt, value)
    }
    fn poll(&self, fd: i32, events: i16, timeout_ms: i64) -> PortResult<i16> {
        net::poll(fd, events, timeout_ms)
    }
    fn poll_connect(&self, fd: i32, timeout_ms: i64) -> PortResult<bool> {
        net::poll_connect(fd, timeout_ms)
    }
    fn socket_available(&self, fd: i32) -> PortResult<i32> {
        net::available(fd)
    }
    fn send_oob(&self, fd: i32, b: u8) -> PortResult<usize> {
        net::send_oob(fd, b)
    }
    fn recv(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize> {
        net::recv(fd, addr, len)
    }
    fn send(&self, fd: i32, addr: usize, len: usize) -> PortResult<usize> {
        net::send(fd, addr, len)
    }
    fn recv_from(&self, fd: i32, addr: usize, len: usize, sender: usize) -> PortResult<usize> {
        net::recv_from(fd, addr, len, sender)
    }
    fn send_to(
        &self,
        fd: i32,
        addr: usize,
        len: usize,
        target: usize,
        target_len: usize,
    ) -> PortResult<usize> {
        net::send_to(fd, addr, len, target, target_len)
    }
    fn disconnect(&self, fd: i32, v6: bool) -> PortResult<()> {
        net::disconnect(fd, v6)
    }
    fn join_or_drop4(
        &self,
        fd: i32,
        join: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()> {
        net::join_or_drop4(fd, join, group, interf, source)
    }
    fn block_or_unblock4(
        &self,
        fd: i32,
        block: bool,
        group: i32,
        interf: i32,
        source: i32,
    ) -> PortResult<()> {
        net::block_or_unblock4(fd, block, group, interf, source)
    }
    fn join_or_drop6(
        &self,
        fd: i32,
        join: bool,
        group: [u8; 16],
        index: i32,
        source: Option<[u8; 16]>,
    ) -> PortResult<()> {
        net::join_or_drop6(fd, join, group, index, source)
    }
    fn block_or_unblock6(
        &self,
        fd: i32,
        block: bool,
        group: [u8; 16],
        index: i32,
        source: [u8; 16],
    ) -> PortResult<()> {
        net::block_or_unblock6(fd, block, group, index, source)
    }
    fn set_interface4(&self, fd: i32, interf: i32) -> PortResult<()> {
        net::set_interface4(fd, interf)
    }
    fn get_interface4(&self, fd: i32) -> PortResult<i32> {
        net::get_interface4(fd)
    }
    fn set_interface6(&self, fd: i32, index: i32) -> PortResult<()> {
        net::set_interface6(fd, index)
    }
    fn get_interface6(&self, fd: i32) -> PortResult<i32> {
        net::get_interface6(fd)
    }
    fn epoll_create(&self) -> PortResult<i32> {
        net::epoll_create(self.owner)
    }
    fn epoll_ctl(&self, epfd: i32, op: i32, fd: i32, events: u32) -> PortResult<()> {
        net::epoll_ctl(epfd, op, fd, events)
    }
    fn epoll_wait(&self, epfd: i32, addr: usize, count: i32, timeout_ms: i32) -> PortResult<i32> {
        net::epoll_wait(epfd, addr, count, timeout_ms)
    }
    fn eventfd(&self) -> PortResult<i32> {
        net::eventfd(self.owner)
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
