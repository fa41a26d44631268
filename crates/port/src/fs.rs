//! File-system host calls for NIO (sun.nio.fs / sun.nio.ch): typed wrappers around the POSIX
//! calls the JDK's libnio makes. Failures are reported as the OS `errno` so that the Java side
//! (UnixException, IOStatus) can interpret them exactly as on HotSpot.
//!
//! Paths are byte strings without the terminating NUL. Flag and mode values are the host's
//! (the JDK's UnixConstants are generated from the same headers).
//!
//! NIO also hands us raw native-memory addresses (direct buffers, NativeBuffers). The few
//! functions that read or write such memory document the contract they rely on: the address
//! range was allocated by `Unsafe.allocateMemory` (or is a live mapping) and is at least
//! `len` bytes long — the same contract the JDK's C code relies on.

use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use super::held::{self, Closing, Handle, Owner};

use super::{Errno, PortResult};

fn errno() -> Errno {
    Errno::last()
}

fn cpath(path: &[u8]) -> PortResult<CString> {
    CString::new(path).map_err(|_| Errno::EINVAL)
}

/// Runs `f` until it does not fail with EINTR (unless the thread's blocking calls are
/// cancelled: then EINTR); maps -1 to the errno.
fn restartable<T: Copy + PartialEq + From<i8>>(mut f: impl FnMut() -> T) -> PortResult<T> {
    loop {
        if super::cancelled() {
            return Err(Errno::EINTR);
        }
        let r = f();
        if r != T::from(-1) {
            return Ok(r);
        }
        let e = errno();
        if e != Errno::EINTR {
            return Err(e);
        }
    }
}

/// Like [`restartable`] for calls returning 0 on success.
pub(super) fn check(r: libc::c_int) -> PortResult<()> {
    if r == -1 { Err(errno()) } else { Ok(()) }
}

// ---- native memory ----

/// The NUL-terminated byte string at `addr` (without the NUL).
pub fn read_cstring(addr: usize) -> Vec<u8> {
    if addr == 0 {
        return Vec::new();
    }
    // SAFETY: NIO passes the address of a NativeBuffer holding a NUL-terminated string.
    unsafe { CStr::from_ptr(addr as *const libc::c_char) }
        .to_bytes()
        .to_vec()
}

/// Copies `dst.len()` bytes of native memory at `addr` into `dst`.
pub fn copy_from_native(addr: usize, dst: &mut [u8]) {
    if dst.is_empty() {
        return;
    }
    // SAFETY: the caller's address range is live native memory of at least dst.len() bytes
    // (module contract); dst is a distinct Rust buffer.
    unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, dst.as_mut_ptr(), dst.len()) }
}

/// Copies `src` into native memory at `addr`.
pub fn copy_to_native(addr: usize, src: &[u8]) {
    if src.is_empty() {
        return;
    }
    // SAFETY: the caller's address range is live native memory of at least src.len() bytes
    // (module contract); src is a distinct Rust buffer.
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), addr as *mut u8, src.len()) }
}

/// The `int` at native address `addr` (read volatile: another thread may set it).
pub fn read_native_i32(addr: usize) -> i32 {
    // SAFETY: the caller passes the address of a live, aligned int in native memory.
    unsafe { std::ptr::read_volatile(addr as *const i32) }
}

// ---- file status ----

/// The fields of `struct stat` that UnixFileAttributes records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileStat {
    pub mode: u32,
    pub ino: u64,
    pub dev: u64,
    pub rdev: u64,
    pub nlink: u64,
    pub uid: u32,
    pub gid: u32,
    pub size: i64,
    pub atime_sec: i64,
    pub atime_nsec: i64,
    pub mtime_sec: i64,
    pub mtime_nsec: i64,
    pub ctime_sec: i64,
    pub ctime_nsec: i64,
    /// Creation time; zero when the file system does not record it.
    pub birthtime_sec: i64,
    pub birthtime_nsec: i64,
}

impl FileStat {
    pub fn is_dir(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFDIR
    }
    pub fn is_file(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFREG
    }
    pub fn is_symlink(&self) -> bool {
        self.mode & libc::S_IFMT == libc::S_IFLNK
    }
}

fn from_statx(st: &libc::statx) -> FileStat {
    let btime = st.stx_mask & libc::STATX_BTIME != 0;
    FileStat {
        mode: st.stx_mode as u32,
        ino: st.stx_ino,
        dev: libc::makedev(st.stx_dev_major, st.stx_dev_minor),
        rdev: libc::makedev(st.stx_rdev_major, st.stx_rdev_minor),
        nlink: st.stx_nlink as u64,
        uid: st.stx_uid,
        gid: st.stx_gid,
        size: st.stx_size as i64,
        atime_sec: st.stx_atime.tv_sec,
        atime_nsec: st.stx_atime.tv_nsec as i64,
        mtime_sec: st.stx_mtime.tv_sec,
        mtime_nsec: st.stx_mtime.tv_nsec as i64,
        ctime_sec: st.stx_ctime.tv_sec,
        ctime_nsec: st.stx_ctime.tv_nsec as i64,
        birthtime_sec: if btime { st.stx_btime.tv_sec } else { 0 },
        birthtime_nsec: if btime {
            st.stx_btime.tv_nsec as i64
        } else {
            0
        },
    }
}

/// `statx(dfd, path, flags | AT_STATX_SYNC_AS_STAT, STATX_ALL)`, as the JDK's libnio does.
fn do_statx(dfd: i32, path: &CStr, flags: i32) -> PortResult<FileStat> {
    // SAFETY: struct statx is plain old data; all-zero is a valid value.
    let mut st: libc::statx = unsafe { std::mem::zeroed() };
    // SAFETY: path is NUL-terminated and st a valid out-pointer.
    restartable(|| unsafe {
        libc::statx(
            dfd,
            path.as_ptr(),
            flags | libc::AT_STATX_SYNC_AS_STAT,
            libc::STATX_ALL,
            &mut st,
        )
    })?;
    Ok(from_statx(&st))
}

/// `stat` (following symbolic links) or `lstat`.
pub fn stat(path: &[u8], follow: bool) -> PortResult<FileStat> {
    let c = cpath(path)?;
    do_statx(
        libc::AT_FDCWD,
        &c,
        if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW },
    )
}

pub fn fstat(fd: i32) -> PortResult<FileStat> {
    do_statx(fd, c"", libc::AT_EMPTY_PATH)
}

/// `fstatat(dfd, path, flags)`; `flags` may hold AT_SYMLINK_NOFOLLOW.
pub fn fstatat(dfd: i32, path: &[u8], flags: i32) -> PortResult<FileStat> {
    let c = cpath(path)?;
    do_statx(dfd, &c, flags)
}

/// Whether file creation times are available (statx works on this host).
pub fn birthtime_supported() -> bool {
    static OK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OK.get_or_init(|| fstat(0).is_ok() || stat(b"/", true).is_ok())
}

/// File-system statistics (`struct statvfs`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FsStat {
    pub frsize: u64,
    pub blocks: u64,
    pub bfree: u64,
    pub bavail: u64,
}

pub fn statvfs(path: &[u8]) -> PortResult<FsStat> {
    let c = cpath(path)?;
    // SAFETY: struct statvfs is plain old data.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is NUL-terminated and s a valid out-pointer.
    restartable(|| unsafe { libc::statvfs(c.as_ptr(), &mut s) })?;
    Ok(FsStat {
        frsize: s.f_frsize as u64,
        blocks: s.f_blocks as u64,
        bfree: s.f_bfree as u64,
        bavail: s.f_bavail as u64,
    })
}

fn fstatvfs_frsize(fd: i32) -> PortResult<u64> {
    // SAFETY: struct statvfs is plain old data.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: s is a valid out-pointer.
    restartable(|| unsafe { libc::fstatvfs(fd, &mut s) })?;
    Ok(s.f_frsize as u64)
}

// ---- paths ----

pub fn getcwd() -> PortResult<Vec<u8>> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize + 1];
    // SAFETY: buf is writable for buf.len() bytes.
    let p = unsafe { libc::getcwd(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
    if p.is_null() {
        return Err(errno());
    }
    let n = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    buf.truncate(n);
    Ok(buf)
}

pub fn access(path: &[u8], mode: i32) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe { libc::access(c.as_ptr(), mode) }).map(|_| ())
}

pub fn exists(path: &[u8]) -> bool {
    access(path, libc::F_OK).is_ok()
}

pub fn link(existing: &[u8], new: &[u8]) -> PortResult<()> {
    let (a, b) = (cpath(existing)?, cpath(new)?);
    // SAFETY: both paths are NUL-terminated.
    restartable(|| unsafe { libc::link(a.as_ptr(), b.as_ptr()) }).map(|_| ())
}

pub fn unlink(path: &[u8]) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    check(unsafe { libc::unlink(c.as_ptr()) })
}

/// `unlinkat(dfd, path, flags)`; `flags` may hold AT_REMOVEDIR.
pub fn unlinkat(dfd: i32, path: &[u8], flags: i32) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    check(unsafe { libc::unlinkat(dfd, c.as_ptr(), flags) })
}

pub fn mknod(path: &[u8], mode: u32, dev: u64) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe { libc::mknod(c.as_ptr(), mode as libc::mode_t, dev as libc::dev_t) })
        .map(|_| ())
}

pub fn rename(from: &[u8], to: &[u8]) -> PortResult<()> {
    let (a, b) = (cpath(from)?, cpath(to)?);
    // SAFETY: both paths are NUL-terminated.
    check(unsafe { libc::rename(a.as_ptr(), b.as_ptr()) })
}

pub fn renameat(from_dfd: i32, from: &[u8], to_dfd: i32, to: &[u8]) -> PortResult<()> {
    let (a, b) = (cpath(from)?, cpath(to)?);
    // SAFETY: both paths are NUL-terminated.
    check(unsafe { libc::renameat(from_dfd, a.as_ptr(), to_dfd, b.as_ptr()) })
}

pub fn mkdir(path: &[u8], mode: u32) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    check(unsafe { libc::mkdir(c.as_ptr(), mode as libc::mode_t) })
}

pub fn rmdir(path: &[u8]) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    check(unsafe { libc::rmdir(c.as_ptr()) })
}

/// The target of symbolic link `path`.
pub fn readlink(path: &[u8]) -> PortResult<Vec<u8>> {
    let c = cpath(path)?;
    let mut size = libc::PATH_MAX as usize + 1;
    loop {
        let mut buf = vec![0u8; size];
        // SAFETY: c is NUL-terminated and buf writable for buf.len() bytes.
        let n = restartable(|| unsafe {
            libc::readlink(c.as_ptr(), buf.as_mut_ptr() as *mut libc::c_char, buf.len())
        })?;
        let n = n as usize;
        if n < buf.len() {
            buf.truncate(n);
            return Ok(buf);
        }
        size *= 2;
    }
}

/// `realpath(path)`: absolute, with symbolic links, `.` and `..` resolved.
pub fn realpath(path: &[u8]) -> PortResult<Vec<u8>> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated; a null buffer makes realpath malloc the result.
    let p = unsafe { libc::realpath(c.as_ptr(), std::ptr::null_mut()) };
    if p.is_null() {
        return Err(errno());
    }
    // SAFETY: p is the NUL-terminated string realpath allocated; copied before freeing it.
    let v = unsafe { CStr::from_ptr(p) }.to_bytes().to_vec();
    // SAFETY: p was allocated by realpath with malloc.
    unsafe { libc::free(p as *mut libc::c_void) };
    Ok(v)
}

/// Creates symbolic link `link` pointing at `target`.
pub fn symlink(target: &[u8], link: &[u8]) -> PortResult<()> {
    let (a, b) = (cpath(target)?, cpath(link)?);
    // SAFETY: both paths are NUL-terminated.
    check(unsafe { libc::symlink(a.as_ptr(), b.as_ptr()) })
}

/// `chown` (following links) or `lchown`.
pub fn chown(path: &[u8], uid: u32, gid: u32, follow: bool) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe {
        if follow {
            libc::chown(c.as_ptr(), uid, gid)
        } else {
            libc::lchown(c.as_ptr(), uid, gid)
        }
    })
    .map(|_| ())
}

pub fn fchown(fd: i32, uid: u32, gid: u32) -> PortResult<()> {
    // SAFETY: fchown has no memory-safety preconditions.
    restartable(|| unsafe { libc::fchown(fd, uid, gid) }).map(|_| ())
}

pub fn chmod(path: &[u8], mode: u32) -> PortResult<()> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe { libc::chmod(c.as_ptr(), mode as libc::mode_t) }).map(|_| ())
}

pub fn fchmod(fd: i32, mode: u32) -> PortResult<()> {
    // SAFETY: fchmod has no memory-safety preconditions.
    restartable(|| unsafe { libc::fchmod(fd, mode as libc::mode_t) }).map(|_| ())
}

fn timevals(atime_us: i64, mtime_us: i64) -> [libc::timeval; 2] {
    let tv = |us: i64| libc::timeval {
        tv_sec: us / 1_000_000,
        tv_usec: us % 1_000_000,
    };
    [tv(atime_us), tv(mtime_us)]
}

/// Sets access and modification times (microseconds since the epoch): `utimes` or `lutimes`.
pub fn utimes(path: &[u8], atime_us: i64, mtime_us: i64, follow: bool) -> PortResult<()> {
    let c = cpath(path)?;
    let tv = timevals(atime_us, mtime_us);
    // SAFETY: c is NUL-terminated and tv points at two timevals.
    restartable(|| unsafe {
        if follow {
            libc::utimes(c.as_ptr(), tv.as_ptr())
        } else {
            libc::lutimes(c.as_ptr(), tv.as_ptr())
        }
    })
    .map(|_| ())
}

/// `futimes` with microsecond times.
pub fn futimes(fd: i32, atime_us: i64, mtime_us: i64) -> PortResult<()> {
    let tv = timevals(atime_us, mtime_us);
    // SAFETY: tv points at two timevals.
    restartable(|| unsafe { libc::futimes(fd, tv.as_ptr()) }).map(|_| ())
}

/// `futimens` with nanosecond times.
pub fn futimens(fd: i32, atime_ns: i64, mtime_ns: i64) -> PortResult<()> {
    let ts = |ns: i64| libc::timespec {
        tv_sec: ns / 1_000_000_000,
        tv_nsec: ns % 1_000_000_000,
    };
    let t = [ts(atime_ns), ts(mtime_ns)];
    // SAFETY: t points at two timespecs.
    restartable(|| unsafe { libc::futimens(fd, t.as_ptr()) }).map(|_| ())
}

// ---- file descriptors ----

pub fn open(owner: Owner, path: &[u8], flags: i32, mode: u32) -> PortResult<i32> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe { libc::open(c.as_ptr(), flags, mode as libc::c_uint) })
        .and_then(|fd| held::took_fd(owner, fd))
}

pub fn openat(owner: Owner, dfd: i32, path: &[u8], flags: i32, mode: u32) -> PortResult<i32> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe { libc::openat(dfd, c.as_ptr(), flags, mode as libc::c_uint) })
        .and_then(|fd| held::took_fd(owner, fd))
}

/// `owner` closes `fd` (see `held` for what a created domain may close); an EINTR failure
/// counts as closed (the descriptor is gone on Linux).
pub fn close(owner: Owner, fd: i32) -> PortResult<()> {
    match held::letting_go(owner, Handle::Fd(fd))? {
        Closing::Close => close_raw(fd),
        Closing::Keep => Ok(()),
    }
}

/// Closes `fd`, which no owner holds any more.
pub(super) fn close_raw(fd: i32) -> PortResult<()> {
    // SAFETY: close has no memory-safety preconditions.
    match check(unsafe { libc::close(fd) }) {
        Err(Errno::EINTR) => Ok(()),
        r => r,
    }
}

pub fn dup(owner: Owner, fd: i32) -> PortResult<i32> {
    // SAFETY: dup has no memory-safety preconditions.
    restartable(|| unsafe { libc::dup(fd) }).and_then(|fd| held::took_fd(owner, fd))
}

/// Makes `to` (which `owner` holds, and keeps holding) refer to the same open file as `from`.
pub fn dup2(owner: Owner, from: i32, to: i32) -> PortResult<()> {
    if !held::holds(owner, Handle::Fd(to)) {
        return Err(Errno::EBADF);
    }
    // SAFETY: dup2 has no memory-safety preconditions.
    restartable(|| unsafe { libc::dup2(from, to) }).map(|_| ())
}

/// `read(fd, addr, len)` into native memory; EINTR is reported, not retried (IOStatus).
pub fn read(fd: i32, addr: usize, len: usize) -> PortResult<usize> {
    // SAFETY: [addr, addr+len) is live native memory (module contract).
    let n = unsafe { libc::read(fd, addr as *mut libc::c_void, len) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

pub fn write(fd: i32, addr: usize, len: usize) -> PortResult<usize> {
    // SAFETY: [addr, addr+len) is live native memory (module contract).
    let n = unsafe { libc::write(fd, addr as *const libc::c_void, len) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

pub fn pread(fd: i32, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
    // SAFETY: [addr, addr+len) is live native memory (module contract).
    let n = unsafe { libc::pread(fd, addr as *mut libc::c_void, len, pos) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

pub fn pwrite(fd: i32, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
    // SAFETY: [addr, addr+len) is live native memory (module contract).
    let n = unsafe { libc::pwrite(fd, addr as *const libc::c_void, len, pos) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

/// `readv` with `count` iovecs at native address `iov` (built by IOVecWrapper).
pub fn readv(fd: i32, iov: usize, count: i32) -> PortResult<usize> {
    // SAFETY: iov holds `count` iovec structs describing live native buffers (module contract).
    let n = unsafe { libc::readv(fd, iov as *const libc::iovec, count) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

pub fn writev(fd: i32, iov: usize, count: i32) -> PortResult<usize> {
    // SAFETY: iov holds `count` iovec structs describing live native buffers (module contract).
    let n = unsafe { libc::writev(fd, iov as *const libc::iovec, count) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

/// Reads into a Rust buffer (EINTR retried).
pub fn read_buf(fd: i32, buf: &mut [u8]) -> PortResult<usize> {
    // SAFETY: buf is writable for buf.len() bytes.
    restartable(|| unsafe { libc::read(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len()) })
        .map(|n| n as usize)
}

/// Writes from a Rust buffer (EINTR retried); returns the count written.
pub fn write_buf(fd: i32, buf: &[u8]) -> PortResult<usize> {
    // SAFETY: buf is readable for buf.len() bytes.
    restartable(|| unsafe { libc::write(fd, buf.as_ptr() as *const libc::c_void, buf.len()) })
        .map(|n| n as usize)
}

/// Moves the file offset to `offset`, or reports it when `offset` is negative.
pub fn seek(fd: i32, offset: i64) -> PortResult<i64> {
    // SAFETY: lseek has no memory-safety preconditions.
    let r = unsafe {
        if offset < 0 {
            libc::lseek(fd, 0, libc::SEEK_CUR)
        } else {
            libc::lseek(fd, offset, libc::SEEK_SET)
        }
    };
    if r < 0 { Err(errno()) } else { Ok(r) }
}

/// `fsync` (with metadata) or `fdatasync`.
pub fn sync(fd: i32, metadata: bool) -> PortResult<()> {
    // SAFETY: fsync/fdatasync have no memory-safety preconditions.
    check(unsafe {
        if metadata {
            libc::fsync(fd)
        } else {
            libc::fdatasync(fd)
        }
    })
}

pub fn truncate(fd: i32, size: i64) -> PortResult<()> {
    // SAFETY: ftruncate has no memory-safety preconditions.
    check(unsafe { libc::ftruncate(fd, size) })
}

fn flock_struct(kind: i32, pos: i64, size: i64) -> libc::flock {
    // SAFETY: struct flock is plain old data.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_whence = libc::SEEK_SET as i16;
    fl.l_start = pos;
    // Long.MAX_VALUE means "to the end of the file, however it grows".
    fl.l_len = if size == i64::MAX { 0 } else { size };
    fl.l_type = kind as i16;
    fl
}

/// Outcome of a record-lock request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockResult {
    Locked,
    WouldBlock,
    Interrupted,
}

/// `fcntl(F_SETLK[W])` on `[pos, pos+size)`.
pub fn lock(fd: i32, blocking: bool, pos: i64, size: i64, shared: bool) -> PortResult<LockResult> {
    let fl = flock_struct(
        if shared { libc::F_RDLCK } else { libc::F_WRLCK },
        pos,
        size,
    );
    let cmd = if blocking {
        libc::F_SETLKW
    } else {
        libc::F_SETLK
    };
    // SAFETY: fl is a valid struct flock.
    if unsafe { libc::fcntl(fd, cmd, &fl) } < 0 {
        let e = errno();
        if !blocking && (e == Errno::EAGAIN || e == Errno::EACCES) {
            return Ok(LockResult::WouldBlock);
        }
        if e == Errno::EINTR {
            return Ok(LockResult::Interrupted);
        }
        return Err(e);
    }
    Ok(LockResult::Locked)
}

pub fn unlock(fd: i32, pos: i64, size: i64) -> PortResult<()> {
    let fl = flock_struct(libc::F_UNLCK, pos, size);
    // SAFETY: fl is a valid struct flock.
    check(unsafe { libc::fcntl(fd, libc::F_SETLK, &fl) })
}

pub fn set_blocking(fd: i32, blocking: bool) -> PortResult<()> {
    // SAFETY: fcntl F_GETFL/F_SETFL have no memory-safety preconditions.
    let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if fl < 0 {
        return Err(errno());
    }
    let new = if blocking {
        fl & !libc::O_NONBLOCK
    } else {
        fl | libc::O_NONBLOCK
    };
    if new == fl {
        return Ok(());
    }
    // SAFETY: as above.
    check(unsafe { libc::fcntl(fd, libc::F_SETFL, new) })
}

/// Sets O_DIRECT on `fd`; returns the file system's block size (alignment for direct I/O).
pub fn set_direct(fd: i32) -> PortResult<i64> {
    // SAFETY: fcntl F_GETFL/F_SETFL have no memory-safety preconditions.
    let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if fl < 0 {
        return Err(errno());
    }
    // SAFETY: as above.
    check(unsafe { libc::fcntl(fd, libc::F_SETFL, fl | libc::O_DIRECT) })?;
    Ok(fstatvfs_frsize(fd)? as i64)
}

/// A pipe as (read end, write end), optionally non-blocking.
pub fn pipe(owner: Owner, blocking: bool) -> PortResult<(i32, i32)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds has room for the two descriptors.
    check(unsafe { libc::pipe(fds.as_mut_ptr()) })?;
    if !blocking {
        for &fd in &fds {
            if let Err(e) = set_blocking(fd, false) {
                close_raw(fds[0]).ok();
                close_raw(fds[1]).ok();
                return Err(e);
            }
        }
    }
    held::took_pair(owner, fds[0], fds[1])
}

/// A descriptor whose reads see end-of-file and whose writes fail: `dup2`ed over a
/// descriptor that is being closed (FileDispatcherImpl.preClose0), created on first use.
pub fn pre_close_fd() -> PortResult<i32> {
    static FD: AtomicI32 = AtomicI32::new(-1);
    let fd = FD.load(Ordering::Acquire);
    if fd >= 0 {
        return Ok(fd);
    }
    let mut sp = [0 as libc::c_int; 2];
    // SAFETY: sp has room for the two descriptors.
    check(unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, sp.as_mut_ptr()) })?;
    close_raw(sp[1]).ok();
    match FD.compare_exchange(-1, sp[0], Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => Ok(sp[0]),
        Err(existing) => {
            close_raw(sp[0]).ok();
            Ok(existing)
        }
    }
}

/// The soft limit on open descriptors, clamped to `i32::MAX`.
pub fn fd_limit() -> PortResult<i32> {
    // SAFETY: struct rlimit is plain old data.
    let mut rl: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: rl is a valid out-pointer.
    check(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) })?;
    Ok(
        if rl.rlim_cur == libc::RLIM_INFINITY || rl.rlim_cur > i32::MAX as libc::rlim_t {
            i32::MAX
        } else {
            rl.rlim_cur as i32
        },
    )
}

/// The maximum number of iovecs per readv/writev (16 if unknown).
pub fn iov_max() -> i32 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_IOV_MAX) };
    if n < 0 {
        16
    } else {
        n.min(i32::MAX as libc::c_long) as i32
    }
}

/// `sendfile(out, in, &pos, count)`: bytes transferred.
pub fn sendfile(out_fd: i32, in_fd: i32, pos: i64, count: usize) -> PortResult<i64> {
    let mut off: libc::off_t = pos;
    // SAFETY: off is a valid in/out offset.
    let n = unsafe { libc::sendfile(out_fd, in_fd, &mut off, count) };
    if n < 0 { Err(errno()) } else { Ok(n as i64) }
}

/// How a file is mapped (FileChannelImpl's MAP_RO / MAP_RW / MAP_PV).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapMode {
    ReadOnly,
    ReadWrite,
    Private,
}

/// Maps `len` bytes of `fd` at `pos` for `owner`; returns the address.
pub fn mmap(owner: Owner, fd: i32, mode: MapMode, pos: i64, len: usize) -> PortResult<usize> {
    let (prot, flags) = match mode {
        MapMode::ReadOnly => (libc::PROT_READ, libc::MAP_SHARED),
        MapMode::ReadWrite => (libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED),
        MapMode::Private => (libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE),
    };
    // SAFETY: a fresh mapping chosen by the kernel (null hint) does not alias Rust memory.
    let p = unsafe { libc::mmap(std::ptr::null_mut(), len, prot, flags, fd, pos) };
    if p == libc::MAP_FAILED {
        return Err(errno());
    }
    held::took(owner, Handle::Mapping(p as usize, len));
    Ok(p as usize)
}

/// Maps the first `len` bytes of `fd` shared, for a caller that owns the mapping and unmaps
/// it itself with `munmap(2)` (not recorded in any domain's held table).
pub fn map_unowned(fd: i32, writable: bool, len: usize) -> PortResult<usize> {
    let prot = if writable {
        libc::PROT_READ | libc::PROT_WRITE
    } else {
        libc::PROT_READ
    };
    // SAFETY: a fresh mapping chosen by the kernel (null hint) does not alias Rust memory.
    let p = unsafe { libc::mmap(std::ptr::null_mut(), len, prot, libc::MAP_SHARED, fd, 0) };
    if p == libc::MAP_FAILED {
        return Err(errno());
    }
    Ok(p as usize)
}

/// `owner` unmaps the whole of a mapping [`mmap`] made for it (only that: an address range
/// the port did not map for the owner is refused, EINVAL, never unmapped).
pub fn munmap(owner: Owner, addr: usize, len: usize) -> PortResult<()> {
    match held::letting_go(owner, Handle::Mapping(addr, len)) {
        Ok(Closing::Close) => munmap_raw(addr, len),
        _ => Err(Errno::EINVAL),
    }
}

/// Unmaps a mapping taken out of the held table (so unmapped exactly once).
pub(super) fn munmap_raw(addr: usize, len: usize) -> PortResult<()> {
    // SAFETY: the range is a whole mapping `mmap` made and its owner no longer uses (its
    // caller took it out of the table): no Rust reference points into it.
    check(unsafe { libc::munmap(addr as *mut libc::c_void, len) })
}

/// Whether all `pages` pages of the mapping at `addr` are resident (`mincore`).
pub fn mapping_resident(addr: usize, len: usize, pages: usize) -> PortResult<bool> {
    let mut vec = vec![0u8; pages.max(1)];
    // SAFETY: [addr, addr+len) is a live mapping from mmap (MappedByteBuffer) and vec has one
    // byte per page of it.
    check(unsafe { libc::mincore(addr as *mut libc::c_void, len, vec.as_mut_ptr()) })?;
    Ok(vec[..pages].iter().all(|b| b & 1 != 0))
}

/// `madvise(MADV_WILLNEED)` (load) or `madvise(MADV_DONTNEED)` (unload) on a mapping.
pub fn advise_mapping(addr: usize, len: usize, will_need: bool) -> PortResult<()> {
    let advice = if will_need {
        libc::MADV_WILLNEED
    } else {
        libc::MADV_DONTNEED
    };
    // SAFETY: [addr, addr+len) is a live file mapping from mmap (MappedByteBuffer); these
    // advices do not change its contents (file-backed pages are re-read on access).
    check(unsafe { libc::madvise(addr as *mut libc::c_void, len, advice) })
}

/// Writes a shared mapping's dirty pages back to the file (`msync(MS_SYNC)`).
pub fn sync_mapping(addr: usize, len: usize) -> PortResult<()> {
    // SAFETY: [addr, addr+len) is a live mapping from mmap (MappedByteBuffer).
    check(unsafe { libc::msync(addr as *mut libc::c_void, len, libc::MS_SYNC) })
}

pub fn page_size() -> usize {
    // SAFETY: sysconf has no memory-safety preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n <= 0 { 4096 } else { n as usize }
}

/// Copies all of `src` (from its offset) to `dst`, as UnixCopyFile.transfer does. If
/// `cancel_addr` is non-zero it is polled between chunks; a non-zero int there cancels the
/// copy with ECANCELED.
pub fn copy_fd(dst: i32, src: i32, cancel_addr: usize) -> PortResult<()> {
    let mut buf = vec![0u8; 8192];
    loop {
        let n = read_buf(src, &mut buf)?;
        if n == 0 {
            return Ok(());
        }
        let mut off = 0;
        while off < n {
            off += write_buf(dst, &buf[off..n])?;
        }
        if cancel_addr != 0 && read_native_i32(cancel_addr) != 0 {
            return Err(Errno::ECANCELED);
        }
    }
}

// ---- directory streams ----

/// Records `d` (a new `DIR*`, or null on failure) for `owner`, within its descriptor limit;
/// Java holds it as a long, and only handles in the table are accepted back.
fn register_dir(owner: Owner, d: *mut libc::DIR) -> PortResult<u64> {
    if d.is_null() {
        return Err(errno());
    }
    let h = d as usize as u64;
    if !held::admit(owner, Handle::Dir(h)) {
        let _ = closedir_raw(h);
        return Err(Errno::EMFILE);
    }
    Ok(h)
}

pub fn opendir(owner: Owner, path: &[u8]) -> PortResult<u64> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    register_dir(owner, unsafe { libc::opendir(c.as_ptr()) })
}

/// Opens a directory stream on `fd` (which the stream then owns: `owner` holds the stream
/// instead of the descriptor).
pub fn fdopendir(owner: Owner, fd: i32) -> PortResult<u64> {
    if !held::holds(owner, Handle::Fd(fd)) {
        return Err(Errno::EBADF);
    }
    // SAFETY: fdopendir has no memory-safety preconditions.
    let d = unsafe { libc::fdopendir(fd) };
    if d.is_null() {
        return Err(errno());
    }
    // The stream takes over the descriptor, and its place in the domain's limit.
    let h = d as usize as u64;
    held::became(owner, Handle::Fd(fd), Handle::Dir(h))?;
    Ok(h)
}

fn live_dir(handle: u64) -> PortResult<*mut libc::DIR> {
    if held::is_live(Handle::Dir(handle)) {
        Ok(handle as usize as *mut libc::DIR)
    } else {
        Err(Errno::EBADF)
    }
}

/// The next entry name (including "." and ".."), or None at the end.
pub fn readdir(handle: u64) -> PortResult<Option<Vec<u8>>> {
    let d = live_dir(handle)?;
    // SAFETY: errno is thread-local; clearing it distinguishes end-of-stream from errors.
    unsafe { *libc::__errno_location() = 0 };
    // SAFETY: d is a live DIR* from opendir/fdopendir (checked against the table).
    let e = unsafe { libc::readdir(d) };
    if e.is_null() {
        let err = errno();
        return if err.0 != 0 { Err(err) } else { Ok(None) };
    }
    // SAFETY: e points at a dirent whose d_name is NUL-terminated; copied at once.
    Ok(Some(
        unsafe { CStr::from_ptr((*e).d_name.as_ptr()) }
            .to_bytes()
            .to_vec(),
    ))
}

pub fn closedir(owner: Owner, handle: u64) -> PortResult<()> {
    live_dir(handle)?;
    match held::letting_go(owner, Handle::Dir(handle))? {
        Closing::Close => closedir_raw(handle),
        Closing::Keep => Ok(()),
    }
}

/// Closes directory stream `handle`, just taken out of the table (so closed exactly once).
pub(super) fn closedir_raw(handle: u64) -> PortResult<()> {
    // SAFETY: handle is a DIR* from opendir/fdopendir that its caller took out of the table.
    match check(unsafe { libc::closedir(handle as usize as *mut libc::DIR) }) {
        Err(Errno::EINTR) => Ok(()),
        r => r,
    }
}

// ---- users and groups ----

fn name_lookup(
    f: impl Fn(&mut [u8]) -> (libc::c_int, *const libc::c_char),
) -> PortResult<Option<Vec<u8>>> {
    let mut size = 1024;
    loop {
        let mut buf = vec![0u8; size];
        let (r, name) = f(&mut buf);
        let r = Errno(r);
        if r == Errno::ERANGE && size < 1 << 20 {
            size *= 4;
            continue;
        }
        if r.0 != 0 {
            return Err(r);
        }
        if name.is_null() {
            return Ok(None);
        }
        // SAFETY: name points into buf (still alive) at a NUL-terminated string.
        let v = unsafe { CStr::from_ptr(name) }.to_bytes().to_vec();
        return Ok(if v.is_empty() { None } else { Some(v) });
    }
}

/// The user name of `uid` (ENOENT when there is none).
pub fn user_name(uid: u32) -> PortResult<Vec<u8>> {
    if let Some(db) = crate::sandbox::names() {
        return db.user_name(uid).ok_or(Errno::ENOENT);
    }
    let r = name_lookup(|buf| {
        // SAFETY: struct passwd is plain old data.
        let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
        let mut out: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: pw, buf and out are valid for getpwuid_r to fill.
        let r = unsafe {
            libc::getpwuid_r(
                uid,
                &mut pw,
                buf.as_mut_ptr() as *mut libc::c_char,
                buf.len(),
                &mut out,
            )
        };
        (
            r,
            if out.is_null() {
                std::ptr::null()
            } else {
                pw.pw_name
            },
        )
    })?;
    r.ok_or(Errno::ENOENT)
}

/// The group name of `gid` (ENOENT when there is none).
pub fn group_name(gid: u32) -> PortResult<Vec<u8>> {
    if let Some(db) = crate::sandbox::names() {
        return db.group_name(gid).ok_or(Errno::ENOENT);
    }
    let r = name_lookup(|buf| {
        // SAFETY: struct group is plain old data.
        let mut gr: libc::group = unsafe { std::mem::zeroed() };
        let mut out: *mut libc::group = std::ptr::null_mut();
        // SAFETY: gr, buf and out are valid for getgrgid_r to fill.
        let r = unsafe {
            libc::getgrgid_r(
                gid,
                &mut gr,
                buf.as_mut_ptr() as *mut libc::c_char,
                buf.len(),
                &mut out,
            )
        };
        (
            r,
            if out.is_null() {
                std::ptr::null()
            } else {
                gr.gr_name
            },
        )
    })?;
    r.ok_or(Errno::ENOENT)
}

fn not_found_errno(e: Errno) -> bool {
    matches!(
        e,
        Errno(0) | Errno::ENOENT | Errno::ESRCH | Errno::EBADF | Errno::EPERM
    )
}

/// The uid of user `name`, None if there is no such user.
pub fn user_id(name: &[u8]) -> PortResult<Option<u32>> {
    if let Some(db) = crate::sandbox::names() {
        return Ok(db.user_id(name));
    }
    let c = cpath(name)?;
    reentrant_lookup(|buf| {
        // SAFETY: struct passwd is plain old data.
        let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
        let mut out: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: c is NUL-terminated; pw, buf and out are valid for getpwnam_r to fill.
        let r = unsafe {
            libc::getpwnam_r(
                c.as_ptr(),
                &mut pw,
                buf.as_mut_ptr() as *mut libc::c_char,
                buf.len(),
                &mut out,
            )
        };
        (Errno(r), (!out.is_null()).then_some(pw.pw_uid))
    })
}

/// The gid of group `name`, None if there is no such group.
pub fn group_id(name: &[u8]) -> PortResult<Option<u32>> {
    if let Some(db) = crate::sandbox::names() {
        return Ok(db.group_id(name));
    }
    let c = cpath(name)?;
    reentrant_lookup(|buf| {
        // SAFETY: struct group is plain old data.
        let mut gr: libc::group = unsafe { std::mem::zeroed() };
        let mut out: *mut libc::group = std::ptr::null_mut();
        // SAFETY: c is NUL-terminated; gr, buf and out are valid for getgrnam_r to fill.
        let r = unsafe {
            libc::getgrnam_r(
                c.as_ptr(),
                &mut gr,
                buf.as_mut_ptr() as *mut libc::c_char,
                buf.len(),
                &mut out,
            )
        };
        (Errno(r), (!out.is_null()).then_some(gr.gr_gid))
    })
}

/// Runs a `get*nam_r` lookup with a buffer that grows (to 1 MiB) while it answers ERANGE:
/// `call` returns the lookup's error and what it found; None when there is no such entry.
fn reentrant_lookup<T>(
    mut call: impl FnMut(&mut [u8]) -> (Errno, Option<T>),
) -> PortResult<Option<T>> {
    let mut size = 1024;
    loop {
        let mut buf = vec![0u8; size];
        let (r, found) = call(&mut buf);
        if r == Errno::ERANGE && size < 1 << 20 {
            size *= 4;
            continue;
        }
        return match found {
            Some(v) if r.0 == 0 => Ok(Some(v)),
            _ if not_found_errno(r) => Ok(None),
            _ => Err(r),
        };
    }
}

// ---- extended attributes ----

/// `fgetxattr` into native memory (`len` 0 asks for the size).
pub fn fgetxattr(fd: i32, name: &[u8], addr: usize, len: usize) -> PortResult<usize> {
    let c = cpath(name)?;
    // SAFETY: c is NUL-terminated; [addr, addr+len) is live native memory (module contract).
    let n = unsafe { libc::fgetxattr(fd, c.as_ptr(), addr as *mut libc::c_void, len) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

pub fn fsetxattr(fd: i32, name: &[u8], addr: usize, len: usize) -> PortResult<()> {
    let c = cpath(name)?;
    // SAFETY: c is NUL-terminated; [addr, addr+len) is live native memory (module contract).
    check(unsafe { libc::fsetxattr(fd, c.as_ptr(), addr as *const libc::c_void, len, 0) })
}

pub fn fremovexattr(fd: i32, name: &[u8]) -> PortResult<()> {
    let c = cpath(name)?;
    // SAFETY: c is NUL-terminated.
    check(unsafe { libc::fremovexattr(fd, c.as_ptr()) })
}

/// `flistxattr` into native memory: NUL-separated names.
pub fn flistxattr(fd: i32, addr: usize, len: usize) -> PortResult<usize> {
    // SAFETY: [addr, addr+len) is live native memory (module contract).
    let n = unsafe { libc::flistxattr(fd, addr as *mut libc::c_char, len) };
    if n < 0 { Err(errno()) } else { Ok(n as usize) }
}

// ---- change notification (LinuxWatchService) ----

/// Layout of `struct inotify_event`: its size and the offsets of wd, mask, cookie, len, name.
pub fn inotify_event_layout() -> (usize, [usize; 5]) {
    (
        std::mem::size_of::<libc::inotify_event>(),
        [
            std::mem::offset_of!(libc::inotify_event, wd),
            std::mem::offset_of!(libc::inotify_event, mask),
            std::mem::offset_of!(libc::inotify_event, cookie),
            std::mem::offset_of!(libc::inotify_event, len),
            std::mem::size_of::<libc::inotify_event>(),
        ],
    )
}

pub fn inotify_init(owner: Owner) -> PortResult<i32> {
    // SAFETY: inotify_init has no memory-safety preconditions.
    restartable(|| unsafe { libc::inotify_init() }).and_then(|fd| held::took_fd(owner, fd))
}

/// Adds a watch on `path`; returns the watch descriptor.
pub fn inotify_add_watch(fd: i32, path: &[u8], mask: u32) -> PortResult<i32> {
    let c = cpath(path)?;
    // SAFETY: c is NUL-terminated.
    restartable(|| unsafe { libc::inotify_add_watch(fd, c.as_ptr(), mask) })
}

pub fn inotify_rm_watch(fd: i32, wd: i32) -> PortResult<()> {
    // SAFETY: inotify_rm_watch has no memory-safety preconditions.
    check(unsafe { libc::inotify_rm_watch(fd, wd) })
}

/// A connected pair of Unix stream sockets.
pub fn socketpair(owner: Owner) -> PortResult<(i32, i32)> {
    let mut sp = [0 as libc::c_int; 2];
    // SAFETY: sp has room for the two descriptors.
    check(unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, sp.as_mut_ptr()) })?;
    held::took_pair(owner, sp[0], sp[1])
}

/// Waits until `fd1` or `fd2` is readable; the number of ready descriptors (0 if interrupted).
pub fn poll_readable(fd1: i32, fd2: i32) -> PortResult<i32> {
    let mut fds = [
        libc::pollfd {
            fd: fd1,
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: fd2,
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    // SAFETY: fds is an array of two valid pollfd structs.
    let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
    match n {
        -1 if errno() == Errno::EINTR => Ok(0),
        -1 => Err(errno()),
        n => Ok(n),
    }
}

// ---- mount tables (setmntent / getmntent over /etc/mtab, /proc/mounts) ----

/// One mount-table entry: file system, mount point, type, options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MountEntry {
    pub name: Vec<u8>,
    pub dir: Vec<u8>,
    pub fstype: Vec<u8>,
    pub opts: Vec<u8>,
}

struct MountTable {
    lines: Vec<Vec<u8>>,
    pos: usize,
}

fn mount_tables() -> &'static Mutex<HashMap<u64, MountTable>> {
    static TABLES: std::sync::OnceLock<Mutex<HashMap<u64, MountTable>>> =
        std::sync::OnceLock::new();
    TABLES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Opens `path` for reading without waiting for a FIFO's writer (`O_NONBLOCK`; it makes no
/// difference to reads of plain files), for the VM's own reads of class path files.
pub fn open_without_blocking(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// Opens a mount table file; returns a handle for the functions below.
pub fn mount_table_open(owner: Owner, path: &[u8]) -> PortResult<u64> {
    use std::os::unix::ffi::OsStrExt;
    let data = std::fs::read(std::ffi::OsStr::from_bytes(path)).map_err(Errno::from)?;
    let mut lines: Vec<Vec<u8>> = data
        .split_inclusive(|&b| b == b'\n')
        .map(|l| l.to_vec())
        .collect();
    lines.retain(|l| !l.is_empty());
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let h = NEXT.fetch_add(1, Ordering::Relaxed);
    mount_tables()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(h, MountTable { lines, pos: 0 });
    held::took(owner, Handle::MountTable(h));
    Ok(h)
}

fn with_table<T>(h: u64, f: impl FnOnce(&mut MountTable) -> T) -> PortResult<T> {
    let mut m = mount_tables().lock().unwrap_or_else(|e| e.into_inner());
    m.get_mut(&h).map(f).ok_or(Errno::EBADF)
}

/// Length of the next raw line (like `getline`), None at the end.
pub fn mount_table_line_len(h: u64) -> PortResult<Option<usize>> {
    with_table(h, |t| {
        let l = t.lines.get(t.pos).map(Vec::len);
        if l.is_some() {
            t.pos += 1;
        }
        l
    })
}

pub fn mount_table_rewind(h: u64) -> PortResult<()> {
    with_table(h, |t| t.pos = 0)
}

/// Decodes getmntent's octal escapes (`\040` for a space).
fn unescape_mount_field(f: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(f.len());
    let mut i = 0;
    while i < f.len() {
        if f[i] == b'\\'
            && i + 3 < f.len()
            && f[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            out.push((f[i + 1] - b'0') * 64 + (f[i + 2] - b'0') * 8 + (f[i + 3] - b'0'));
            i += 4;
        } else {
            out.push(f[i]);
            i += 1;
        }
    }
    out
}

/// The next entry (skipping blank and comment lines), None at the end.
pub fn mount_table_next(h: u64) -> PortResult<Option<MountEntry>> {
    with_table(h, |t| {
        while let Some(line) = t.lines.get(t.pos) {
            t.pos += 1;
            let fields: Vec<&[u8]> = line
                .split(|b| b" \t\n".contains(b))
                .filter(|f| !f.is_empty())
                .collect();
            if fields.is_empty() || fields[0].starts_with(b"#") {
                continue;
            }
            let get = |i: usize| {
                fields
                    .get(i)
                    .map(|f| unescape_mount_field(f))
                    .unwrap_or_default()
            };
            return Some(MountEntry {
                name: get(0),
                dir: get(1),
                fstype: get(2),
                opts: get(3),
            });
        }
        None
    })
}

pub fn mount_table_close(owner: Owner, h: u64) -> PortResult<()> {
    match held::letting_go(owner, Handle::MountTable(h))? {
        Closing::Close if drop_mount_table(h) => Ok(()),
        _ => Err(Errno::EBADF),
    }
}

/// Drops mount table `h`, just taken out of the held table; whether there was one.
pub(super) fn drop_mount_table(h: u64) -> bool {
    mount_tables()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&h)
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_and_groups_are_looked_up_by_name() {
        assert_eq!(user_id(b"root"), Ok(Some(0)));
        assert_eq!(group_id(b"root"), Ok(Some(0)));
        assert_eq!(user_id(b"no-such-user-jxvm"), Ok(None));
        assert_eq!(group_id(b"no-such-group-jxvm"), Ok(None));
    }

    fn temp_dir(tag: &str) -> Vec<u8> {
        static N: AtomicU64 = AtomicU64::new(0);
        let p = std::env::temp_dir().join(format!(
            "jxvm-fs-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let p = p.to_str().unwrap().as_bytes().to_vec();
        mkdir(&p, 0o755).unwrap();
        p
    }

    fn join(dir: &[u8], name: &str) -> Vec<u8> {
        let mut p = dir.to_vec();
        p.push(b'/');
        p.extend_from_slice(name.as_bytes());
        p
    }

    #[test]
    fn stat_of_created_file() {
        let d = temp_dir("stat");
        let f = join(&d, "a.txt");
        let fd = open(
            Owner::SYSTEM,
            &f,
            libc::O_CREAT | libc::O_WRONLY | libc::O_EXCL,
            0o640,
        )
        .unwrap();
        assert_eq!(write_buf(fd, b"hello").unwrap(), 5);
        let fs = fstat(fd).unwrap();
        close(Owner::SYSTEM, fd).unwrap();
        let s = stat(&f, true).unwrap();
        assert_eq!(s, fs);
        assert!(s.is_file() && !s.is_dir());
        assert_eq!(s.size, 5);
        assert_eq!(s.mode & 0o777, 0o640 & !current_umask());
        assert_eq!(s.nlink, 1);
        assert!(stat(&d, true).unwrap().is_dir());
        symlink(b"a.txt", &join(&d, "l")).unwrap();
        assert!(stat(&join(&d, "l"), false).unwrap().is_symlink());
        assert_eq!(stat(&join(&d, "l"), true).unwrap().ino, s.ino);
        assert_eq!(readlink(&join(&d, "l")).unwrap(), b"a.txt");
        unlink(&join(&d, "l")).unwrap();
        unlink(&f).unwrap();
        rmdir(&d).unwrap();
    }

    fn current_umask() -> u32 {
        // SAFETY: umask has no memory-safety preconditions; the old mask is restored at once.
        unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m as u32
        }
    }

    #[test]
    fn readdir_lists_entries() {
        let d = temp_dir("readdir");
        for n in ["x", "y", "z"] {
            let fd = open(
                Owner::SYSTEM,
                &join(&d, n),
                libc::O_CREAT | libc::O_WRONLY,
                0o644,
            )
            .unwrap();
            close(Owner::SYSTEM, fd).unwrap();
        }
        mkdir(&join(&d, "sub"), 0o755).unwrap();
        let h = opendir(Owner::SYSTEM, &d).unwrap();
        let mut names = Vec::new();
        while let Some(n) = readdir(h).unwrap() {
            names.push(String::from_utf8(n).unwrap());
        }
        closedir(Owner::SYSTEM, h).unwrap();
        assert_eq!(readdir(h), Err(Errno::EBADF));
        names.sort();
        assert_eq!(names, [".", "..", "sub", "x", "y", "z"]);
        for n in ["x", "y", "z"] {
            unlink(&join(&d, n)).unwrap();
        }
        let dfd = open(Owner::SYSTEM, &d, libc::O_RDONLY | libc::O_DIRECTORY, 0).unwrap();
        assert!(
            fstatat(dfd, b"sub", libc::AT_SYMLINK_NOFOLLOW)
                .unwrap()
                .is_dir()
        );
        unlinkat(dfd, b"sub", libc::AT_REMOVEDIR).unwrap();
        close(Owner::SYSTEM, dfd).unwrap();
        rmdir(&d).unwrap();
    }

    #[test]
    fn errno_on_missing_file() {
        let d = temp_dir("missing");
        let f = join(&d, "nope");
        assert_eq!(stat(&f, true), Err(Errno::ENOENT));
        assert_eq!(
            open(Owner::SYSTEM, &f, libc::O_RDONLY, 0),
            Err(Errno::ENOENT)
        );
        assert_eq!(unlink(&f), Err(Errno::ENOENT));
        assert_eq!(access(&f, libc::F_OK), Err(Errno::ENOENT));
        assert!(!exists(&f));
        assert_eq!(mkdir(&d, 0o755), Err(Errno::EEXIST));
        rmdir(&d).unwrap();
        assert_eq!(opendir(Owner::SYSTEM, &d), Err(Errno::ENOENT));
    }

    #[test]
    fn native_memory_io() {
        let d = temp_dir("mem");
        let f = join(&d, "data");
        let fd = open(Owner::SYSTEM, &f, libc::O_CREAT | libc::O_RDWR, 0o644).unwrap();
        let mut src = *b"0123456789";
        assert_eq!(write(fd, src.as_mut_ptr() as usize, 10).unwrap(), 10);
        let mut dst = [0u8; 4];
        assert_eq!(pread(fd, dst.as_mut_ptr() as usize, 4, 3).unwrap(), 4);
        assert_eq!(&dst, b"3456");
        assert_eq!(seek(fd, -1).unwrap(), 10);
        assert_eq!(seek(fd, 2).unwrap(), 2);
        truncate(fd, 5).unwrap();
        assert_eq!(fstat(fd).unwrap().size, 5);
        close(Owner::SYSTEM, fd).unwrap();
        let mut buf = vec![0u8; 6];
        copy_to_native(buf.as_mut_ptr() as usize, b"abc\0");
        assert_eq!(read_cstring(buf.as_ptr() as usize), b"abc");
        let mut out = [0u8; 2];
        copy_from_native(buf.as_ptr() as usize + 1, &mut out);
        assert_eq!(&out, b"bc");
        unlink(&f).unwrap();
        rmdir(&d).unwrap();
    }

    #[test]
    fn mount_table_parsing() {
        let d = temp_dir("mtab");
        let f = join(&d, "mtab");
        std::fs::write(
            std::str::from_utf8(&f).unwrap(),
            "# c\n\nproc /proc proc rw,nosuid 0 0\n/dev/a /mnt/my\\040disk ext4 rw 0 0\n",
        )
        .unwrap();
        let h = mount_table_open(Owner::SYSTEM, &f).unwrap();
        let e = mount_table_next(h).unwrap().unwrap();
        assert_eq!(
            (
                e.name.as_slice(),
                e.dir.as_slice(),
                e.fstype.as_slice(),
                e.opts.as_slice()
            ),
            (&b"proc"[..], &b"/proc"[..], &b"proc"[..], &b"rw,nosuid"[..])
        );
        assert_eq!(mount_table_next(h).unwrap().unwrap().dir, b"/mnt/my disk");
        assert_eq!(mount_table_next(h).unwrap(), None);
        mount_table_rewind(h).unwrap();
        assert_eq!(mount_table_line_len(h).unwrap(), Some(4));
        mount_table_close(Owner::SYSTEM, h).unwrap();
        unlink(&f).unwrap();
        rmdir(&d).unwrap();
    }
}
