//! Stopping a domain's threads for a collection (JX: a collection stops only the threads of
//! the domain it collects).
//!
//! Every attached thread counts as *running* while it executes Java code or VM code that may
//! hold raw object references. A thread stops being running at a safepoint poll (the
//! interpreter polls at allocations, back edges and method entries) and around blocking
//! operations (sleep, wait, park, contended monitor entry, class-initialization waits). A
//! collector sets `requested`, waits until no other thread is running, collects, and releases
//! them. Stopped threads' stacks are read and updated by the collector through the registry of
//! attached threads: a stopped thread is parked inside this module and does not touch its
//! `JThread` until released.

use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::{Condvar, Mutex};

use super::JThread;

#[derive(Default)]
struct State {
    /// Attached threads currently running (not stopped or blocked).
    running: usize,
    collecting: bool,
}

#[derive(Default)]
pub struct Safepoint {
    pub requested: AtomicBool,
    state: Mutex<State>,
    cond: Condvar,
    /// Addresses of attached threads' `JThread`s (boxed, so they do not move).
    threads: Mutex<Vec<usize>>,
}

impl Safepoint {
    pub fn attach(&self, t: *mut JThread) {
        self.threads.lock().push(t as usize);
        let mut s = self.state.lock();
        while s.collecting {
            self.cond.wait(&mut s);
        }
        s.running += 1;
    }

    pub fn detach(&self, t: *mut JThread) {
        self.threads.lock().retain(|&p| p != t as usize);
        let mut s = self.state.lock();
        s.running -= 1;
        self.cond.notify_all();
    }

    /// Called by a running thread when `requested` is set: stops until the collection ends.
    #[cold]
    pub fn block(&self) {
        let mut s = self.state.lock();
        s.running -= 1;
        self.cond.notify_all();
        while s.collecting || self.requested.load(Ordering::Acquire) {
            self.cond.wait(&mut s);
        }
        s.running += 1;
    }

    /// Marks the calling thread as blocked (safe for collection) while `f` runs; `f` must not
    /// touch the heap.
    pub fn blocking<R>(&self, f: impl FnOnce() -> R) -> R {
        {
            let mut s = self.state.lock();
            s.running -= 1;
            self.cond.notify_all();
        }
        let r = f();
        let mut s = self.state.lock();
        while s.collecting {
            self.cond.wait(&mut s);
        }
        s.running += 1;
        r
    }

    /// Stops every other thread; returns false (after waiting) if another thread is already
    /// collecting, in which case the caller must not collect.
    pub fn begin_collection(&self) -> bool {
        let mut s = self.state.lock();
        if s.collecting {
            s.running -= 1;
            self.cond.notify_all();
            while s.collecting {
                self.cond.wait(&mut s);
            }
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

    /// The attached threads (valid only between begin and end of a collection).
    pub fn threads(&self) -> Vec<usize> {
        self.threads.lock().clone()
    }
}
