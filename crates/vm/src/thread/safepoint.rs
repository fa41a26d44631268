//! Stopping a domain's threads for a collection (JX: a collection stops only the threads of
//! the domain it collects).
//!
//! Every attached thread counts as *running* while it executes Java code or VM code that may
//! hold raw object references. A thread stops being running at a safepoint poll (the
//! interpreter polls at allocations, back edges and method entries) and around blocking
//! operations (sleep, wait, park, contended monitor entry, class-initialization waits). A
//! collector sets `requested`, waits until no other thread is running, collects, and releases
//! them. A thread that stops lends its `JThread` to the collector: it publishes a pointer derived
//! from its own `&mut JThread` for exactly as long as it is stopped (the collector reads and
//! updates its roots through it) and takes it back before touching the `JThread` again.

use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::{Condvar, Mutex};

use super::JThread;

#[derive(Default)]
struct State {
    /// Attached threads currently running (not stopped or blocked).
    running: usize,
    collecting: bool,
    /// Threads lent to the collector while stopped (addresses of their JThreads).
    stopped: Vec<usize>,
}

#[derive(Default)]
pub struct Safepoint {
    pub requested: AtomicBool,
    state: Mutex<State>,
    cond: Condvar,
    /// Number of attached threads.
    attached: Mutex<usize>,
}

impl Safepoint {
    /// Counts the calling OS thread as running (waiting out a collection in progress). A
    /// thread enters once, on its own OS thread, before it runs Java code.
    pub fn enter(&self) {
        *self.attached.lock() += 1;
        let mut s = self.state.lock();
        while s.collecting {
            self.cond.wait(&mut s);
        }
        s.running += 1;
    }

    /// The entered thread ends.
    pub fn leave(&self) {
        *self.attached.lock() -= 1;
        let mut s = self.state.lock();
        s.running -= 1;
        self.cond.notify_all();
    }

    /// Called by a running thread when `requested` is set: stops (lending `t`) until the
    /// collection ends.
    #[cold]
    pub fn block(&self, t: *mut JThread) {
        let mut s = self.state.lock();
        s.running -= 1;
        s.stopped.push(t as usize);
        self.cond.notify_all();
        while s.collecting || self.requested.load(Ordering::Acquire) {
            self.cond.wait(&mut s);
        }
        s.stopped.retain(|&p| p != t as usize);
        s.running += 1;
    }

    /// Marks the calling thread as blocked (safe for collection, lending `t`) while `f` runs;
    /// `f` must not touch the heap or `t`.
    pub fn blocking<R>(&self, t: *mut JThread, f: impl FnOnce() -> R) -> R {
        {
            let mut s = self.state.lock();
            s.running -= 1;
            s.stopped.push(t as usize);
            self.cond.notify_all();
        }
        let r = f();
        let mut s = self.state.lock();
        while s.collecting {
            self.cond.wait(&mut s);
        }
        s.stopped.retain(|&p| p != t as usize);
        s.running += 1;
        r
    }

    /// Stops every other thread; returns false (after waiting) if another thread is already
    /// collecting, in which case the caller must not collect.
    pub fn begin_collection(&self, t: *mut JThread) -> bool {
        let mut s = self.state.lock();
        if s.collecting {
            s.running -= 1;
            s.stopped.push(t as usize);
            self.cond.notify_all();
            while s.collecting {
                self.cond.wait(&mut s);
            }
            s.stopped.retain(|&p| p != t as usize);
            s.running += 1;
            return false;
        }
        s.collecting = true;
        self.requested.store(true, Ordering::Release);
        s.running -= 1;
        while s.running > 0 {
            self.cond.wait(&mut s);
        }
        true
    }

    pub fn end_collection(&self) {
        let mut s = self.state.lock();
        s.collecting = false;
        self.requested.store(false, Ordering::Release);
        s.running += 1;
        self.cond.notify_all();
    }

    /// The threads lent to the collector (valid only between begin and end of a collection,
    /// when every attached thread but the collector's is stopped).
    pub fn stopped_threads(&self) -> Vec<usize> {
        self.state.lock().stopped.clone()
    }
}
