//! Owns the 9P backend's readiness machinery, made in the process since the kernel cannot
//! see a socket that lives on the gateway: [`Bell`] (rung whenever something a selector
//! may watch changes), [`EventFd`] (an eventfd's counter, the JDK selector's wake-up) and
//! [`Epoll`] (an interest list that `epoll_wait` scans: level-triggered, `EPOLLONESHOT`
//! honoured), pipes ([`pipe`]), and [`Local`], what reads and writes of such descriptors
//! do.
//!
//! Must not: make system calls; the scan asks each descriptor's own state.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::lock;
use crate::{Errno, PortResult};

/// How often a blocked wait looks whether the thread's blocking calls were cancelled.
const SLICE: Duration = Duration::from_millis(100);

/// A generation counter with a condition: `ring` after a change, `wait` for one.
#[derive(Default)]
pub struct Bell {
    generation: Mutex<u64>,
    cond: Condvar,
}

impl Bell {
    pub fn ring(&self) {
        *lock(&self.generation) += 1;
        self.cond.notify_all();
    }

    pub fn now(&self) -> u64 {
        *lock(&self.generation)
    }

    /// Asks `check` until it gives something, again after every ring; None once `deadline`
    /// passes (at once for a deadline of now), `EINTR` once the thread's blocking calls are
    /// cancelled.
    pub fn wait_for<T>(
        &self,
        deadline: Option<Instant>,
        mut check: impl FnMut() -> Option<T>,
    ) -> PortResult<Option<T>> {
        loop {
            let seen = self.now();
            if let Some(v) = check() {
                return Ok(Some(v));
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(None);
            }
            if crate::cancelled() {
                return Err(Errno::EINTR);
            }
            self.wait(seen, deadline);
        }
    }

    /// Waits until the generation is past `seen` (true) or `until` passes (false); at most
    /// one [`SLICE`] (the caller loops, checking cancellation).
    pub fn wait(&self, seen: u64, until: Option<Instant>) -> bool {
        let mut g = lock(&self.generation);
        if *g != seen {
            return true;
        }
        let slice = match until {
            Some(u) => u.saturating_duration_since(Instant::now()).min(SLICE),
            None => SLICE,
        };
        if slice.is_zero() {
            return false;
        }
        g = self
            .cond
            .wait_timeout(g, slice)
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .0;
        *g != seen
    }
}

/// Reads and writes of a descriptor that lives in this process.
pub trait Local: Send + Sync {
    /// Up to `len` bytes (an empty result: end of stream).
    fn read(&self, len: usize) -> PortResult<Vec<u8>>;
    fn write(&self, data: &[u8]) -> PortResult<usize>;
    fn set_blocking(&self, blocking: bool);
    /// Bytes readable without waiting.
    fn available(&self) -> i32;
    /// The poll events of `events` ready now.
    fn ready(&self, events: i16) -> i16;
}

/// An eventfd: a counter; a read takes it all (waiting while it is zero, unless
/// non-blocking), a write adds to it.
pub struct EventFd {
    count: Mutex<u64>,
    nonblocking: AtomicBool,
    bell: Arc<Bell>,
}

impl EventFd {
    pub fn new(bell: Arc<Bell>) -> EventFd {
        EventFd {
            count: Mutex::new(0),
            nonblocking: AtomicBool::new(false),
            bell,
        }
    }
}

impl Local for EventFd {
    fn read(&self, len: usize) -> PortResult<Vec<u8>> {
        if len < 8 {
            return Err(Errno::EINVAL);
        }
        loop {
            let seen = self.bell.now();
            {
                let mut c = lock(&self.count);
                if *c > 0 {
                    let v = std::mem::take(&mut *c);
                    return Ok(v.to_ne_bytes().to_vec());
                }
            }
            if self.nonblocking.load(Ordering::SeqCst) {
                return Err(Errno::EAGAIN);
            }
            if crate::cancelled() {
                return Err(Errno::EINTR);
            }
            self.bell.wait(seen, None);
        }
    }

    fn write(&self, data: &[u8]) -> PortResult<usize> {
        let bytes: [u8; 8] = data
            .get(..8)
            .and_then(|b| b.try_into().ok())
            .ok_or(Errno::EINVAL)?;
        let add = u64::from_ne_bytes(bytes);
        if add == u64::MAX {
            return Err(Errno::EINVAL);
        }
        {
            let mut c = lock(&self.count);
            *c = c.saturating_add(add).min(u64::MAX - 1);
        }
        self.bell.ring();
        Ok(8)
    }

    fn set_blocking(&self, blocking: bool) {
        self.nonblocking.store(!blocking, Ordering::SeqCst);
    }

    fn available(&self) -> i32 {
        0
    }

    fn ready(&self, events: i16) -> i16 {
        let mut r = libc::POLLOUT;
        if *lock(&self.count) > 0 {
            r |= libc::POLLIN;
        }
        r & events
    }
}

/// `EPOLLONESHOT`: report once, then wait for `EPOLL_CTL_MOD`.
const ONESHOT: u32 = 1 << 30;

/// An epoll set: descriptor → (events, armed).
#[derive(Default)]
pub struct Epoll {
    interest: Mutex<BTreeMap<i32, (u32, bool)>>,
}

impl Epoll {
    pub fn ctl(&self, op: i32, fd: i32, events: u32) -> PortResult<()> {
        let mut m = lock(&self.interest);
        match op {
            libc::EPOLL_CTL_ADD if m.contains_key(&fd) => Err(Errno::EEXIST),
            libc::EPOLL_CTL_ADD | libc::EPOLL_CTL_MOD => {
                if op == libc::EPOLL_CTL_MOD && !m.contains_key(&fd) {
                    return Err(Errno::ENOENT);
                }
                m.insert(fd, (events, true));
                Ok(())
            }
            libc::EPOLL_CTL_DEL => m.remove(&fd).map(drop).ok_or(Errno::ENOENT),
            _ => Err(Errno::EINVAL),
        }
    }

    /// The armed descriptors ready now (at most `max`), each with its events, as
    /// `readiness` reports them for a descriptor (None: it is gone, and is forgotten, as
    /// the kernel forgets a closed descriptor). One-shot entries are disarmed.
    pub fn scan(&self, max: usize, readiness: impl Fn(i32, i16) -> Option<i16>) -> Vec<(i32, u32)> {
        let mut m = lock(&self.interest);
        let mut out = Vec::new();
        let mut gone = Vec::new();
        for (&fd, (events, armed)) in m.iter_mut() {
            if !*armed || out.len() >= max {
                continue;
            }
            let Some(r) = readiness(fd, *events as i16) else {
                gone.push(fd);
                continue;
            };
            if r != 0 {
                out.push((fd, r as u16 as u32));
                if *events & ONESHOT != 0 {
                    *armed = false;
                }
            }
        }
        for fd in gone {
            m.remove(&fd);
        }
        out
    }
}

/// What a pipe holds at most before a writer waits.
const PIPE_CAPACITY: usize = 64 * 1024;

/// A pipe in the process (the JDK's selectors and `Pipe.open` over 9P).
struct Pipe {
    state: Mutex<PipeState>,
    bell: Arc<Bell>,
}

#[derive(Default)]
struct PipeState {
    data: std::collections::VecDeque<u8>,
    readers: usize,
    writers: usize,
}

/// One end of a pipe; the pipe sees it closed when the last descriptor of it goes.
pub struct PipeEnd {
    pipe: Arc<Pipe>,
    writes: bool,
    nonblocking: AtomicBool,
}

/// A new pipe: its read end and its write end.
pub fn pipe(bell: Arc<Bell>, blocking: bool) -> (PipeEnd, PipeEnd) {
    let pipe = Arc::new(Pipe {
        state: Mutex::new(PipeState {
            readers: 1,
            writers: 1,
            ..PipeState::default()
        }),
        bell,
    });
    let end = |writes| PipeEnd {
        pipe: pipe.clone(),
        writes,
        nonblocking: AtomicBool::new(!blocking),
    };
    (end(false), end(true))
}

impl Drop for PipeEnd {
    fn drop(&mut self) {
        {
            let mut st = lock(&self.pipe.state);
            if self.writes {
                st.writers -= 1;
            } else {
                st.readers -= 1;
            }
        }
        self.pipe.bell.ring();
    }
}

impl PipeEnd {
    /// Waits for a change unless non-blocking (`EAGAIN`) or cancelled (`EINTR`).
    fn wait(&self, seen: u64) -> PortResult<()> {
        if self.nonblocking.load(Ordering::SeqCst) {
            return Err(Errno::EAGAIN);
        }
        if crate::cancelled() {
            return Err(Errno::EINTR);
        }
        self.pipe.bell.wait(seen, None);
        Ok(())
    }
}

impl Local for PipeEnd {
    fn read(&self, len: usize) -> PortResult<Vec<u8>> {
        if self.writes {
            return Err(Errno::EBADF);
        }
        loop {
            let seen = self.pipe.bell.now();
            {
                let mut st = lock(&self.pipe.state);
                if !st.data.is_empty() {
                    let n = len.min(st.data.len());
                    let out: Vec<u8> = st.data.drain(..n).collect();
                    drop(st);
                    self.pipe.bell.ring();
                    return Ok(out);
                }
                if st.writers == 0 || len == 0 {
                    return Ok(Vec::new());
                }
            }
            self.wait(seen)?;
        }
    }

    fn write(&self, data: &[u8]) -> PortResult<usize> {
        if !self.writes {
            return Err(Errno::EBADF);
        }
        loop {
            let seen = self.pipe.bell.now();
            {
                let mut st = lock(&self.pipe.state);
                if st.readers == 0 {
                    return Err(Errno::EPIPE);
                }
                let room = PIPE_CAPACITY.saturating_sub(st.data.len());
                if room > 0 || data.is_empty() {
                    let n = room.min(data.len());
                    st.data.extend(&data[..n]);
                    drop(st);
                    self.pipe.bell.ring();
                    return Ok(n);
                }
            }
            self.wait(seen)?;
        }
    }

    fn set_blocking(&self, blocking: bool) {
        self.nonblocking.store(!blocking, Ordering::SeqCst);
    }

    fn available(&self) -> i32 {
        let st = lock(&self.pipe.state);
        if self.writes {
            0
        } else {
            st.data.len().min(i32::MAX as usize) as i32
        }
    }

    fn ready(&self, events: i16) -> i16 {
        let st = lock(&self.pipe.state);
        if self.writes {
            let mut r = 0;
            if st.data.len() < PIPE_CAPACITY {
                r |= libc::POLLOUT & events;
            }
            if st.readers == 0 {
                r |= libc::POLLERR;
            }
            r
        } else {
            let mut r = 0;
            if !st.data.is_empty() || st.writers == 0 {
                r |= libc::POLLIN & events;
            }
            if st.writers == 0 {
                r |= libc::POLLHUP;
            }
            r
        }
    }
}
