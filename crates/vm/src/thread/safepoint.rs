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
//!
//! A requester that is not an attached thread of the domain (the thread dump of `dump`) stops
//! the domain the same way through [`Safepoint::with_stopped`]: it *inspects* the lent threads
//! instead of collecting. A collection and an inspection are never in progress together; each
//! waits for the other to end, and threads attaching meanwhile wait for both.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::JThread;

#[derive(Default)]
struct State {
    /// Attached threads (entered and not left), running or not.
    entered: usize,
    /// Attached threads currently running (not stopped or blocked).
    running: usize,
    collecting: bool,
    /// A requester that is not an attached thread has the domain stopped (`with_stopped`).
    inspecting: bool,
    /// Threads lent while stopped (addresses of their JThreads).
    stopped: Vec<usize>,
}

impl State {
    /// Whether a collection or an inspection has the domain stopped (stopped threads must not
    /// resume, attaching threads must not start).
    fn stopping(&self) -> bool {
        self.collecting || self.inspecting
    }

    /// The running thread `t` stops, lending its JThread.
    fn lend(&mut self, t: *mut JThread) {
        self.running -= 1;
        self.stopped.push(t as usize);
    }

    /// The stopped thread `t` takes its JThread back and runs again.
    fn take_back(&mut self, t: *mut JThread) {
        self.stopped.retain(|&p| p != t as usize);
        self.running += 1;
    }
}

#[derive(Default)]
pub struct Safepoint {
    pub requested: AtomicBool,
    /// The domain is terminated: `requested` stays set, so every poll takes the slow path,
    /// where the thread stops running Java code instead of stopping for a collection.
    killed: AtomicBool,
    state: Mutex<State>,
    cond: Condvar,
}

impl Safepoint {
    /// Counts the calling OS thread as running (waiting out a collection or inspection in
    /// progress). A thread enters once, on its own OS thread, before it runs Java code.
    pub fn enter(&self) {
        let mut s = self.state.lock();
        while s.stopping() {
            self.cond.wait(&mut s);
        }
        s.running += 1;
        s.entered += 1;
    }

    /// The entered thread leaves. Returns whether it was the last thread of a killed domain
    /// (which then ends: see `kill`).
    pub fn leave(&self) -> bool {
        let mut s = self.state.lock();
        s.running -= 1;
        s.entered -= 1;
        self.cond.notify_all();
        s.entered == 0 && self.is_killed()
    }

    /// Called by a running thread when `requested` is set: stops (lending `t`) until the
    /// collection or inspection ends. In a killed domain, returns at once once no collection
    /// or inspection is in progress (the caller then unwinds).
    #[cold]
    pub fn block(&self, t: *mut JThread) {
        let mut s = self.state.lock();
        s.lend(t);
        self.cond.notify_all();
        while s.stopping() || (self.requested.load(Ordering::Acquire) && !self.is_killed()) {
            self.cond.wait(&mut s);
        }
        s.take_back(t);
    }

    /// Marks the domain terminated: every poll of its threads now takes the slow path.
    /// Returns whether no thread is entered (else the last to leave sees it: `leave`).
    pub fn kill(&self) -> bool {
        let s = self.state.lock();
        self.killed.store(true, Ordering::Release);
        self.requested.store(true, Ordering::Release);
        self.cond.notify_all();
        s.entered == 0
    }

    /// Whether the domain was terminated (see `kill`).
    #[inline]
    pub fn is_killed(&self) -> bool {
        self.killed.load(Ordering::Acquire)
    }

    /// Marks the calling thread as blocked (safe for collection, lending `t`) while `f` runs;
    /// `f` must not touch the heap or `t`.
    pub fn blocking<R>(&self, t: *mut JThread, f: impl FnOnce() -> R) -> R {
        {
            let mut s = self.state.lock();
            s.lend(t);
            self.cond.notify_all();
        }
        let r = f();
        let mut s = self.state.lock();
        while s.stopping() {
            self.cond.wait(&mut s);
        }
        s.take_back(t);
        r
    }

    /// Stops every other thread; returns false (after waiting) if another thread is already
    /// collecting, in which case the caller must not collect.
    pub fn begin_collection(&self, t: *mut JThread) -> bool {
        let mut s = self.state.lock();
        while s.inspecting {
            // Stopped for an inspection: stop with the others, then collect (unless another
            // thread started collecting meanwhile).
            s.lend(t);
            self.cond.notify_all();
            while s.inspecting {
                self.cond.wait(&mut s);
            }
            s.take_back(t);
        }
        if s.collecting {
            s.lend(t);
            self.cond.notify_all();
            while s.stopping() {
                self.cond.wait(&mut s);
            }
            s.take_back(t);
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
        self.requested.store(self.is_killed(), Ordering::Release);
        s.running += 1;
        self.cond.notify_all();
    }

    /// The threads lent to the collector (valid only between begin and end of a collection,
    /// when every attached thread but the collector's is stopped).
    pub fn stopped_threads(&self) -> Vec<usize> {
        self.state.lock().stopped.clone()
    }

    /// Stops every other attached thread of the domain for the attached, running thread `me`,
    /// as a collection does (waiting for one in progress to end first), runs `f` with `me`
    /// and the stopped threads, and resumes them. `me` keeps running meanwhile, so references
    /// `f` reads stay valid until `me` next polls or blocks; `f` may keep them in `me`'s
    /// handles, but must not run Java code or collect. For a thread that is not attached
    /// (holding no references the others could move), `f` sees no other thread.
    #[allow(unsafe_code)]
    pub fn with_others_stopped<R>(
        &self,
        me: &mut JThread,
        f: impl FnOnce(&mut JThread, &[&JThread]) -> R,
    ) -> R {
        if !me.is_attached() {
            return f(me, &[]);
        }
        let p: *mut JThread = me;
        while !self.begin_collection(p) {}
        // Resumes the threads however this ends (also if `f` panics).
        struct Resume<'s>(&'s Safepoint);
        impl Drop for Resume<'_> {
            fn drop(&mut self) {
                self.0.end_collection();
            }
        }
        let resume = Resume(self);
        let lent = self.stopped_threads();
        let threads: Vec<&JThread> = lent
            .iter()
            // SAFETY: `q` was derived from a stopped thread's own `&mut JThread` when it stopped
            // (`block`, `blocking`, `begin_collection`), and it stays stopped, not touching its
            // JThread, until the collection `me` began ends, which `resume` does only after `f`
            // returned; `me` is not among them (it is the collector). The references cannot
            // outlive `f`, which receives them with a lifetime local to this call.
            .map(|&q| unsafe { &*(q as *const JThread) })
            .collect();
        let r = f(me, &threads);
        drop(threads);
        drop(resume);
        r
    }

    /// Stops every attached thread of the domain for a requester that is not one of them (it
    /// must not be attached to this domain: it would wait for itself), runs `f` on the lent
    /// threads, and resumes them. Waits for a collection in progress to end first; a
    /// collection requested meanwhile waits for this to end. Returns None, without calling
    /// `f`, if some thread is still running after `patience` (one that runs long without
    /// polling, or blocks outside `blocking`): the others resume rather than stay stopped.
    #[allow(unsafe_code)]
    pub fn with_stopped<R>(
        &self,
        patience: Duration,
        f: impl FnOnce(&[&JThread]) -> R,
    ) -> Option<R> {
        let deadline = Instant::now() + patience;
        let mut s = self.state.lock();
        while s.stopping() {
            if self.cond.wait_until(&mut s, deadline).timed_out() {
                return None;
            }
        }
        s.inspecting = true;
        self.requested.store(true, Ordering::Release);
        // Resumes the threads however this ends (also if `f` panics).
        struct Resume<'s>(&'s Safepoint);
        impl Drop for Resume<'_> {
            fn drop(&mut self) {
                let mut s = self.0.state.lock();
                s.inspecting = false;
                self.0
                    .requested
                    .store(self.0.is_killed(), Ordering::Release);
                self.0.cond.notify_all();
            }
        }
        let resume = Resume(self);
        while s.running > 0 {
            if self.cond.wait_until(&mut s, deadline).timed_out() && s.running > 0 {
                drop(s);
                drop(resume);
                return None;
            }
        }
        let lent = s.stopped.clone();
        drop(s);
        let threads: Vec<&JThread> = lent
            .iter()
            // SAFETY: `p` was derived from a stopped thread's own `&mut JThread` when it stopped
            // (`block`, `blocking`, `begin_collection`), and it stays stopped, not touching its
            // JThread, until `inspecting` is cleared, which `resume` does only after `f`
            // returned; no collection runs meanwhile (it would wait for `inspecting` to clear),
            // so this shared view is the only access to it. The references cannot outlive `f`,
            // which receives them with a lifetime local to this call.
            .map(|&p| unsafe { &*(p as *const JThread) })
            .collect();
        let r = f(&threads);
        drop(threads);
        drop(resume);
        Some(r)
    }
}
