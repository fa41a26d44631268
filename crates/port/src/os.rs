//! The calling OS thread and the machine: thread ids, per-thread CPU clocks, signal masks, the
//! async-signal-safe wake-up write and local time.
//!
//! Owns these system calls and their `unsafe` for the VM's own machinery (thread dumps, the
//! signal dispatcher, CPU-time limits, heap sizing), which would otherwise call libc itself.
//! Knows nothing about Java objects or domains.

use super::PortResult;
use super::held::{self, Owner};

/// The calling thread's Linux thread id (`gettid`, a thread dump's `nid`).
pub fn gettid() -> i64 {
    // SAFETY: gettid has no preconditions.
    unsafe { libc::gettid() as i64 }
}

/// The calling thread's pthread handle, as a number (a thread dump's `tid`).
pub fn pthread_self() -> u64 {
    // SAFETY: pthread_self has no preconditions.
    unsafe { libc::pthread_self() as u64 }
}

/// A thread's CPU-time clock, readable from other threads while the thread lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuClock(libc::clockid_t);

impl CpuClock {
    /// The calling thread's clock (one that reads as no time if it cannot be had).
    pub fn of_current_thread() -> CpuClock {
        let mut clock: libc::clockid_t = 0;
        // SAFETY: pthread_self() is the calling thread, alive; `clock` is a valid out-pointer.
        let r = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
        // It fails only for a thread that has exited; a bad clock id then reads as no time.
        CpuClock(if r == 0 { clock } else { -1 })
    }

    /// The clock's reading in nanoseconds (None once its thread has exited).
    pub fn read(self) -> Option<u64> {
        super::sysinfo::clock_nanos(self.0)
    }
}

/// Blocks (`block`) or unblocks `sig` in the calling thread.
pub fn block_signal(sig: i32, block: bool) {
    let how = if block {
        libc::SIG_BLOCK
    } else {
        libc::SIG_UNBLOCK
    };
    // SAFETY: the set is initialized by sigemptyset before use, and pthread_sigmask only reads
    // it (the old mask is not requested).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::pthread_sigmask(how, &set, std::ptr::null_mut());
    }
}

/// A pipe for waking a thread from a signal handler: (read end, write end), closed on exec,
/// the write end non-blocking (a burst of signals must never block the handler), owned by
/// `owner`.
pub fn signal_pipe(owner: Owner) -> PortResult<(i32, i32)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 stores.
    super::fs::check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    let (read_end, write_end) = held::took_pair(owner, fds[0], fds[1])?;
    if let Err(e) = super::fs::set_blocking(write_end, false) {
        super::fs::close(owner, read_end).ok();
        super::fs::close(owner, write_end).ok();
        return Err(e);
    }
    Ok((read_end, write_end))
}

/// Writes `byte` to `fd` from a signal handler: only async-signal-safe calls, errno kept. A
/// full pipe drops the byte (a burst of one signal is one signal to the host, too).
pub fn write_from_signal_handler(fd: i32, byte: u8) {
    // SAFETY: __errno_location returns the calling thread's errno slot; the write reads one
    // byte from a live local.
    unsafe {
        let errno = libc::__errno_location();
        let saved = *errno;
        libc::write(fd, (&byte as *const u8).cast(), 1);
        *errno = saved;
    }
}

/// The local date and time now: (year, month 1-12, day, hour, minute, second).
pub fn local_time() -> Option<(i32, i32, i32, i32, i32, i32)> {
    // SAFETY: time(NULL) has no preconditions; localtime_r fills the zero-initialized `tm`
    // (a plain C struct) and reports failure with NULL.
    let tm = unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() {
            return None;
        }
        tm
    };
    Some((
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min,
        tm.tm_sec,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_threads_cpu_clock_advances() {
        let clock = CpuClock::of_current_thread();
        let before = clock.read().expect("a live thread's clock");
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(clock.read().unwrap() > before);
        assert_eq!(CpuClock(-1).read(), None);
    }

    #[test]
    fn a_signal_pipe_carries_bytes_and_never_blocks_its_writer() {
        let (r, w) = signal_pipe(Owner::SYSTEM).unwrap();
        write_from_signal_handler(w, 3);
        let mut b = [0u8; 1];
        assert_eq!(crate::fs::read_buf(r, &mut b).unwrap(), 1);
        assert_eq!(b[0], 3);
        for _ in 0..100_000 {
            write_from_signal_handler(w, 1); // past the pipe's capacity: dropped, no block
        }
        crate::fs::close(Owner::SYSTEM, r).unwrap();
        crate::fs::close(Owner::SYSTEM, w).unwrap();
    }

    #[test]
    fn ids_and_time_are_plausible() {
        assert!(gettid() > 0);
        let (y, mo, d, ..) = local_time().unwrap();
        assert!(y >= 2024 && (1..=12).contains(&mo) && (1..=31).contains(&d));
    }
}
