//! The system calls channels make (Linux): a sealed memfd and its shared mapping, passing a
//! descriptor over a Unix socket (SCM_RIGHTS), the peer's credentials, poll, flock, futexes.
//! Owns every `unsafe` of the crate outside [`crate::ring`]; each wrapper is safe to call.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::AtomicU32;
use std::time::Duration;

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A new anonymous shared-memory file of `size` bytes, sealed so that it can never shrink or
/// grow (a peer holding it cannot make our mapping fault).
pub fn sealed_memfd(size: u64) -> io::Result<OwnedFd> {
    // SAFETY: the name is a NUL-terminated literal; flags are valid.
    let fd = check(unsafe {
        libc::memfd_create(
            c"jxvm-ipc".as_ptr(),
            libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
        )
    })?;
    // SAFETY: memfd_create just returned this descriptor, owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let size = libc::off_t::try_from(size).map_err(|_| io::Error::other("ring too large"))?;
    // SAFETY: plain system calls on a descriptor we own.
    check(unsafe { libc::ftruncate(fd.as_raw_fd(), size) })?;
    let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
    // SAFETY: as above.
    check(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, seals) })?;
    Ok(fd)
}

/// The size of file `fd` and whether it is sealed against shrinking.
pub fn size_and_sealed(fd: &OwnedFd) -> io::Result<(u64, bool)> {
    // SAFETY: an all-zero stat is a valid value to be overwritten.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is a valid, writable stat.
    check(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) })?;
    // SAFETY: plain system call on a descriptor we own.
    let seals = check(unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GET_SEALS) })?;
    Ok((st.st_size as u64, seals & libc::F_SEAL_SHRINK != 0))
}

/// Maps `len` bytes of `fd` shared, readable and writable.
pub fn map_shared(fd: &OwnedFd, len: usize) -> io::Result<*mut u8> {
    // SAFETY: a fresh mapping chosen by the kernel; no existing memory is affected.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd.as_raw_fd(),
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(p as *mut u8)
}

/// Unmaps what [`map_shared`] mapped.
///
/// # Safety
/// `p` and `len` are a mapping [`map_shared`] returned, and nothing uses it any more.
pub unsafe fn unmap(p: *mut u8, len: usize) {
    // SAFETY: the caller's contract.
    unsafe { libc::munmap(p as *mut libc::c_void, len) };
}

/// The most descriptors one message carries.
pub const FDS_PER_MESSAGE: usize = 16;

/// Sends `bytes` and descriptor `fd` on Unix socket `sock`.
pub fn send_fd(sock: RawFd, bytes: &[u8], fd: RawFd) -> io::Result<()> {
    send_fds(sock, bytes, &[fd])
}

/// Sends `bytes` and descriptors `fds` (at most [`FDS_PER_MESSAGE`]) on Unix socket `sock`.
pub fn send_fds(sock: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    if fds.len() > FDS_PER_MESSAGE {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    let data = std::mem::size_of_val(fds) as u32;
    // SAFETY: CMSG_SPACE is a pure computation.
    let space = unsafe { libc::CMSG_SPACE(data) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: an all-zero msghdr is valid; its pointers are set below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        msg.msg_controllen = space as _;
        // SAFETY: msg_control points at `space` writable bytes, enough for `fds`; the header
        // pointer CMSG_FIRSTHDR gives lies inside it, and CMSG_DATA has room for `data` bytes.
        unsafe {
            let c = libc::CMSG_FIRSTHDR(&msg);
            (*c).cmsg_level = libc::SOL_SOCKET;
            (*c).cmsg_type = libc::SCM_RIGHTS;
            (*c).cmsg_len = libc::CMSG_LEN(data) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr() as *const u8,
                libc::CMSG_DATA(c),
                data as usize,
            );
        }
    }
    // SAFETY: msg and everything it points at live across the call.
    let n = unsafe { libc::sendmsg(sock, &msg, libc::MSG_NOSIGNAL) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    if n as usize != bytes.len() {
        return Err(io::Error::other("short send"));
    }
    Ok(())
}

/// Receives up to `buf.len()` bytes and at most one descriptor from Unix socket `sock`.
pub fn recv_fd(sock: RawFd, buf: &mut [u8]) -> io::Result<(usize, Option<OwnedFd>)> {
    let (n, fds) = recv_fds(sock, buf, false)?;
    Ok((n, fds.into_iter().next()))
}

/// Receives up to `buf.len()` bytes and the descriptors that come with them (at most
/// [`FDS_PER_MESSAGE`]) from Unix socket `sock`; without waiting if `nowait`
/// (`WouldBlock` if nothing is there).
pub fn recv_fds(sock: RawFd, buf: &mut [u8], nowait: bool) -> io::Result<(usize, Vec<OwnedFd>)> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr() as *mut libc::c_void,
        iov_len: buf.len(),
    };
    let room = (FDS_PER_MESSAGE * std::mem::size_of::<RawFd>()) as u32;
    // SAFETY: pure computation.
    let space = unsafe { libc::CMSG_SPACE(room) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: an all-zero msghdr is valid; its pointers are set below.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
    msg.msg_controllen = space as _;
    let flags = libc::MSG_CMSG_CLOEXEC | if nowait { libc::MSG_DONTWAIT } else { 0 };
    // SAFETY: msg points at a writable buffer and control area that live across the call.
    let n = unsafe { libc::recvmsg(sock, &mut msg, flags) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut fds = Vec::new();
    // SAFETY: the kernel filled msg_control/msg_controllen; the CMSG macros stay inside it;
    // a SCM_RIGHTS message holds as many descriptors as its length says (whole ones
    // counted), each now ours.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                let head = libc::CMSG_LEN(0) as usize;
                let count =
                    ((*c).cmsg_len as usize).saturating_sub(head) / std::mem::size_of::<RawFd>();
                let data = libc::CMSG_DATA(c) as *const RawFd;
                for i in 0..count {
                    let raw = std::ptr::read_unaligned(data.add(i));
                    fds.push(OwnedFd::from_raw_fd(raw));
                }
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
    }
    if msg.msg_flags & libc::MSG_CTRUNC != 0 {
        return Err(io::Error::other("descriptor message truncated"));
    }
    Ok((n as usize, fds))
}

/// The user id of the process at the other end of Unix socket `sock`.
pub fn peer_uid(sock: RawFd) -> io::Result<u32> {
    // SAFETY: an all-zero ucred is valid.
    let mut cred: libc::ucred = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: cred and len are valid for writing and len is its size.
    check(unsafe {
        libc::getsockopt(
            sock,
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            &mut cred as *mut libc::ucred as *mut libc::c_void,
            &mut len,
        )
    })?;
    Ok(cred.uid)
}

/// This process's real user id.
pub fn uid() -> u32 {
    // SAFETY: getuid cannot fail.
    unsafe { libc::getuid() }
}

/// Waits up to `ms` milliseconds for `events` on `fd`; the events that happened.
pub fn poll(fd: RawFd, events: i16, ms: i32) -> io::Result<i16> {
    let mut p = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    let n = unsafe { libc::poll(&mut p, 1, ms) };
    if n < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(0);
        }
        return Err(e);
    }
    Ok(if n == 0 { 0 } else { p.revents })
}

/// Whether the peer of connected Unix socket `sock` is gone (closed its end, or died). The
/// socket may hold descriptors the peer sent (readable), so only the hang-up counts.
pub fn peer_gone(sock: RawFd) -> bool {
    match poll(sock, libc::POLLRDHUP, 0) {
        Ok(0) => false,
        Ok(ev) => ev & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0,
        Err(_) => true,
    }
}

/// Takes an exclusive lock on `fd` without waiting; false if another holds it.
pub fn try_lock(fd: RawFd) -> io::Result<bool> {
    // SAFETY: plain system call.
    match check(unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) }) {
        Ok(_) => Ok(true),
        Err(e) if e.raw_os_error() == Some(libc::EWOULDBLOCK) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Shuts both directions of socket `sock` down (the peer sees the end at once).
pub fn shutdown(sock: RawFd) {
    // SAFETY: plain system call; a failure (already shut) changes nothing.
    unsafe { libc::shutdown(sock, libc::SHUT_RDWR) };
}

/// Sleeps while `word` holds `expected`, at most `timeout` (a shared futex: the word is in
/// memory shared with another process).
pub fn futex_wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `word` is a valid, aligned u32 for the duration of the call; FUTEX_WAIT only
    // reads it. Spurious returns (EAGAIN, EINTR, timeout) are fine: callers loop.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
        );
    }
}

/// Wakes every waiter on `word`.
pub fn futex_wake(word: &AtomicU32) {
    // SAFETY: `word` is a valid, aligned u32; FUTEX_WAKE does not touch memory.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX);
    }
}
