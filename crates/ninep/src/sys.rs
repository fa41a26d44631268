//! Owns every raw system call of the crate (the only module allowed `unsafe`): the
//! `*at` calls the export resolves and changes files with, relative to `O_PATH` descriptors
//! and never following symbolic links; re-opening an `O_PATH` descriptor through
//! `/proc/self/fd`; open-file-description locks; and blocking/awaiting the stop signals.
#![allow(unsafe_code)]

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd};

/// `name` as a C string (`EINVAL` if it holds a NUL).
pub fn cstring(name: &[u8]) -> io::Result<CString> {
    CString::new(name).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

/// The path that re-opens descriptor `fd` of this process.
pub fn proc_path(fd: BorrowedFd<'_>) -> CString {
    // A decimal number never holds a NUL.
    CString::new(format!("/proc/self/fd/{}", fd.as_raw_fd())).unwrap_or_default()
}

fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

fn owned(ret: libc::c_int) -> io::Result<OwnedFd> {
    let fd = check(ret)?;
    // SAFETY: `fd` was just returned by a successful open-like call and is owned by no one
    // else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)`.
pub fn openat(dir: BorrowedFd<'_>, name: &[u8], flags: i32, mode: u32) -> io::Result<OwnedFd> {
    let c = cstring(name)?;
    let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: `c` is a valid NUL-terminated string for the duration of the call.
    owned(unsafe { libc::openat(dir.as_raw_fd(), c.as_ptr(), flags, mode as libc::c_uint) })
}

/// `open(path, flags | O_CLOEXEC)` of an absolute path (the export's root, `/proc` paths).
pub fn open(path: &CString, flags: i32) -> io::Result<OwnedFd> {
    // SAFETY: `path` is a valid NUL-terminated string.
    owned(unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC) })
}

/// Opens the file `fd` (an `O_PATH` descriptor) refers to, for I/O.
pub fn reopen(fd: BorrowedFd<'_>, flags: i32) -> io::Result<File> {
    open(&proc_path(fd), flags).map(File::from)
}

/// `fstat` (of an `O_PATH` descriptor too; a symbolic link's own status).
pub fn fstat(fd: BorrowedFd<'_>) -> io::Result<libc::stat> {
    let mut st = MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `st` is writable memory of the right size; fstat fills it on success.
    check(unsafe { libc::fstat(fd.as_raw_fd(), st.as_mut_ptr()) })?;
    // SAFETY: fstat succeeded, so `st` is initialized.
    Ok(unsafe { st.assume_init() })
}

/// `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)`.
pub fn fstatat(dir: BorrowedFd<'_>, name: &[u8]) -> io::Result<libc::stat> {
    let c = cstring(name)?;
    let mut st = MaybeUninit::<libc::stat>::uninit();
    // SAFETY: valid string and writable `stat` buffer.
    check(unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            c.as_ptr(),
            st.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    })?;
    // SAFETY: fstatat succeeded.
    Ok(unsafe { st.assume_init() })
}

pub fn fstatfs(fd: BorrowedFd<'_>) -> io::Result<libc::statfs> {
    let mut st = MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: writable `statfs` buffer of the right size.
    check(unsafe { libc::fstatfs(fd.as_raw_fd(), st.as_mut_ptr()) })?;
    // SAFETY: fstatfs succeeded.
    Ok(unsafe { st.assume_init() })
}

pub fn mkdirat(dir: BorrowedFd<'_>, name: &[u8], mode: u32) -> io::Result<()> {
    let c = cstring(name)?;
    // SAFETY: valid string.
    check(unsafe { libc::mkdirat(dir.as_raw_fd(), c.as_ptr(), mode as libc::mode_t) }).map(drop)
}

pub fn mknodat(dir: BorrowedFd<'_>, name: &[u8], mode: u32) -> io::Result<()> {
    let c = cstring(name)?;
    // SAFETY: valid string; no device number (only regular files, FIFOs and sockets).
    check(unsafe { libc::mknodat(dir.as_raw_fd(), c.as_ptr(), mode as libc::mode_t, 0) }).map(drop)
}

/// Waits until `fd` is readable (or at its end, or failed): `Ok(false)` when `timeout`
/// (`None`: for ever) passes first.
pub fn wait_readable(fd: BorrowedFd<'_>, timeout: Option<std::time::Duration>) -> io::Result<bool> {
    let ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as libc::c_int);
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, which poll only writes `revents` of.
    let n = check(unsafe { libc::poll(&mut p, 1, ms) })?;
    Ok(n > 0)
}

pub fn symlinkat(target: &[u8], dir: BorrowedFd<'_>, name: &[u8]) -> io::Result<()> {
    let (t, c) = (cstring(target)?, cstring(name)?);
    // SAFETY: valid strings.
    check(unsafe { libc::symlinkat(t.as_ptr(), dir.as_raw_fd(), c.as_ptr()) }).map(drop)
}

/// The text of the symbolic link `fd` (an `O_PATH|O_NOFOLLOW` descriptor of it).
pub fn readlink(fd: BorrowedFd<'_>) -> io::Result<Vec<u8>> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: `buf` is writable for `buf.len()` bytes; the empty path names `fd` itself.
    let n = unsafe {
        libc::readlinkat(
            fd.as_raw_fd(),
            c"".as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    buf.truncate(n as usize);
    Ok(buf)
}

pub fn unlinkat(dir: BorrowedFd<'_>, name: &[u8], flags: i32) -> io::Result<()> {
    let c = cstring(name)?;
    // SAFETY: valid string.
    check(unsafe { libc::unlinkat(dir.as_raw_fd(), c.as_ptr(), flags) }).map(drop)
}

pub fn renameat(
    old: BorrowedFd<'_>,
    oldname: &[u8],
    new: BorrowedFd<'_>,
    newname: &[u8],
) -> io::Result<()> {
    let (o, n) = (cstring(oldname)?, cstring(newname)?);
    // SAFETY: valid strings.
    check(unsafe { libc::renameat(old.as_raw_fd(), o.as_ptr(), new.as_raw_fd(), n.as_ptr()) })
        .map(drop)
}

/// A hard link `name` in `dir` to the file `fd` refers to (the link itself, never its target).
pub fn linkat(fd: BorrowedFd<'_>, dir: BorrowedFd<'_>, name: &[u8]) -> io::Result<()> {
    let c = cstring(name)?;
    // SAFETY: valid strings; AT_EMPTY_PATH links the file of `fd`.
    let r = unsafe {
        libc::linkat(
            fd.as_raw_fd(),
            c"".as_ptr(),
            dir.as_raw_fd(),
            c.as_ptr(),
            libc::AT_EMPTY_PATH,
        )
    };
    check(r).map(drop)
}

/// `fchownat(fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)`; `u32::MAX` keeps one.
pub fn chown(fd: BorrowedFd<'_>, uid: u32, gid: u32) -> io::Result<()> {
    let flags = libc::AT_EMPTY_PATH | libc::AT_SYMLINK_NOFOLLOW;
    // SAFETY: empty path with AT_EMPTY_PATH names `fd` itself.
    check(unsafe { libc::fchownat(fd.as_raw_fd(), c"".as_ptr(), uid, gid, flags) }).map(drop)
}

/// Changes the mode of the file (not a symbolic link) `fd` refers to.
pub fn chmod(fd: BorrowedFd<'_>, mode: u32) -> io::Result<()> {
    let p = proc_path(fd);
    // SAFETY: valid string.
    check(unsafe { libc::chmod(p.as_ptr(), mode as libc::mode_t) }).map(drop)
}

/// Truncates the regular file `fd` refers to.
pub fn truncate(fd: BorrowedFd<'_>, size: u64) -> io::Result<()> {
    let p = proc_path(fd);
    let size =
        libc::off_t::try_from(size).map_err(|_| io::Error::from_raw_os_error(libc::EFBIG))?;
    // SAFETY: valid string.
    check(unsafe { libc::truncate(p.as_ptr(), size) }).map(drop)
}

/// A time for [`utimes`]: keep, now, or seconds and nanoseconds.
#[derive(Clone, Copy)]
pub enum Time {
    Omit,
    Now,
    At(u64, u64),
}

fn timespec(t: Time) -> libc::timespec {
    let (sec, nsec) = match t {
        Time::Omit => (0, libc::UTIME_OMIT),
        Time::Now => (0, libc::UTIME_NOW),
        Time::At(s, n) => (s as libc::time_t, (n % 1_000_000_000) as libc::c_long),
    };
    libc::timespec {
        tv_sec: sec,
        tv_nsec: nsec,
    }
}

/// Sets access and modification times of the file (not a symbolic link) `fd` refers to.
pub fn utimes(fd: BorrowedFd<'_>, atime: Time, mtime: Time) -> io::Result<()> {
    let p = proc_path(fd);
    let times = [timespec(atime), timespec(mtime)];
    // SAFETY: valid string and a two-element timespec array.
    check(unsafe { libc::utimensat(libc::AT_FDCWD, p.as_ptr(), times.as_ptr(), 0) }).map(drop)
}

/// An open-file-description lock request or test (`F_OFD_SETLK`/`F_OFD_GETLK`) on `file`.
/// Returns the (possibly updated, for a test) lock.
pub fn ofd_lock(
    file: &File,
    test: bool,
    ltype: i16,
    start: u64,
    len: u64,
) -> io::Result<(i16, u64, u64, i32)> {
    // SAFETY: `flock` is plain data; zero is a valid value of every field.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = ltype;
    fl.l_whence = libc::SEEK_SET as i16;
    fl.l_start = start as libc::off_t;
    fl.l_len = len as libc::off_t;
    let cmd = if test {
        libc::F_OFD_GETLK
    } else {
        libc::F_OFD_SETLK
    };
    // SAFETY: `fl` is a valid flock for the duration of the call.
    check(unsafe { libc::fcntl(file.as_raw_fd(), cmd, &mut fl as *mut libc::flock) })?;
    Ok((fl.l_type, fl.l_start as u64, fl.l_len as u64, fl.l_pid))
}

fn stop_set() -> libc::sigset_t {
    // SAFETY: sigemptyset initializes the set; sigaddset adds valid signal numbers.
    unsafe {
        let mut set = MaybeUninit::<libc::sigset_t>::uninit();
        libc::sigemptyset(set.as_mut_ptr());
        let mut set = set.assume_init();
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        set
    }
}

/// Blocks SIGINT and SIGTERM in the calling thread (and the threads it starts later), so
/// [`wait_stop_signal`] can take them.
pub fn block_stop_signals() -> io::Result<()> {
    let set = stop_set();
    // SAFETY: a valid signal set; the old mask is not wanted.
    let r = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if r != 0 {
        return Err(io::Error::from_raw_os_error(r));
    }
    Ok(())
}

/// Waits for SIGINT or SIGTERM (blocked by [`block_stop_signals`]); returns its number.
pub fn wait_stop_signal() -> i32 {
    let set = stop_set();
    let mut sig: libc::c_int = 0;
    // SAFETY: valid set and output location.
    unsafe { libc::sigwait(&set, &mut sig) };
    sig
}

/// `shutdown(fd, SHUT_RDWR)`: on a listening socket, wakes a thread blocked in `accept`
/// (which then fails); errors are of no use to the caller and ignored.
pub fn shutdown(fd: BorrowedFd<'_>) {
    // SAFETY: shutdown has no memory-safety preconditions; `fd` is a live descriptor.
    unsafe { libc::shutdown(fd.as_raw_fd(), libc::SHUT_RDWR) };
}

/// `setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, on)`.
pub fn set_keepalive(fd: BorrowedFd<'_>, on: bool) -> io::Result<()> {
    let v: libc::c_int = on.into();
    // SAFETY: `v` is a valid c_int for the duration of the call, and its size is passed.
    check(unsafe {
        libc::setsockopt(
            fd.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_KEEPALIVE,
            (&v as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    })
    .map(drop)
}
