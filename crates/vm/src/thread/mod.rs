//! Java threads: one [`JThread`] per OS thread that runs Java code.
//!
//! A `JThread` owns the thread's Java stack (an array of 64-bit slots holding every
//! interpreter frame's locals and operand stack, so the collector can find them), the list of
//! frame records (method + current instruction, for stack traces and stack walks), the
//! monitors its frames hold ([`LockRecord`]), its contention statistics, the pending
//! exception and the domain the thread currently runs in. It is passed as `&mut`
//! through the interpreter and natives; other threads never touch it.

pub mod contention;
pub mod dump;
#[allow(unsafe_code)] // the records' storage, shared with compiled code
pub mod frames;
pub mod locks;
pub mod monitor;
pub mod safepoint;
pub mod signal;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::class::Method;
use crate::domain::Domain;
use crate::heap::ObjRef;
use crate::vm::Vm;

/// Marker: a Java exception is pending in the thread (`JThread::exception`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thrown;

pub type JResult<T> = Result<T, Thrown>;

/// Waits on `cond` (with `guard` held) until `ready` gives a value, `timeout` passes, or
/// `interrupted()` turns true (polled every 50 ms): a host-side wait a Java thread can be
/// interrupted out of. Call inside `JThread::blocking`.
pub fn wait_interruptibly<T, R>(
    cond: &parking_lot::Condvar,
    guard: &mut parking_lot::MutexGuard<'_, T>,
    timeout: std::time::Duration,
    interrupted: &dyn Fn() -> bool,
    mut ready: impl FnMut(&mut T) -> Option<R>,
) -> Option<R> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(r) = ready(guard) {
            return Some(r);
        }
        let now = std::time::Instant::now();
        if now >= deadline || interrupted() {
            return None;
        }
        cond.wait_for(
            guard,
            (deadline - now).min(std::time::Duration::from_millis(50)),
        );
    }
}

/// One interpreter (or native) frame, as seen by stack walks; compiled code writes them too
/// (at the offsets of [`crate::offsets::Offsets`]).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct FrameRec {
    pub method: &'static Method,
    /// Index of the current instruction in the method's prepared code (u32::MAX for natives).
    pub pc: u32,
    /// First slot of the frame (its locals; for natives, its arguments) in the thread's stack.
    pub bp: u32,
}

impl FrameRec {
    /// The bytecode index of the current instruction (u32::MAX for a native frame).
    pub fn bci(&self) -> u32 {
        if self.pc == u32::MAX {
            return u32::MAX;
        }
        self.method
            .prepared
            .get()
            .and_then(|p| p.as_ref().ok())
            .map_or(0, |p| p.bci(self.pc))
    }
}

/// A monitor that frame `frame` (an index of `JThread::frames`) entered, by `monitorenter` or
/// as a synchronized method, and has not exited: pushed before a contended entry blocks (it
/// is then the monitor the frame waits to lock), dropped by the `monitorexit` of the same
/// object in the same frame or when the frame ends. This is how thread dumps and
/// `ThreadInfo.getLockedMonitors` know which frame holds which monitor. `obj` is a root the
/// collector updates.
#[derive(Clone, Copy, Debug)]
pub struct LockRecord {
    pub frame: u32,
    pub obj: u64,
}

#[repr(C)]
pub struct JThread {
    /// What compiled code reads and writes in its thread; first, at offset 0.
    pub area: ThreadArea,
    pub vm: &'static Vm,
    pub domain: Arc<Domain>,
    /// The VM's thread id (Java's Thread.tid for threads the VM starts).
    pub id: u64,
    /// Identifies this thread as the owner of monitors (see `monitor`).
    pub lock_id: monitor::LockId,
    /// The handle of the object whose monitor this thread is blocked entering
    /// (`monitor::enter_blocked`), read by other threads while it is stopped.
    pub pending_monitor: Option<usize>,
    /// The monitors this thread's frames entered and have not exited, oldest first (see
    /// [`LockRecord`]).
    pub lock_records: Vec<LockRecord>,
    /// Its blocked and waited counts and times (`ThreadInfo`'s).
    pub contention: contention::Contention,
    /// Locals and operand stacks of all interpreter frames.
    pub stack: Vec<u64>,
    /// First free slot of `stack` (frames above it belong to nobody).
    pub sp: usize,
    pub frames: frames::FrameStack,
    pub exception: Option<ObjRef>,
    pub thread_obj: Option<ObjRef>,
    /// Maximum Java call depth before StackOverflowError.
    pub max_depth: usize,
    /// Set while a StackOverflowError is being constructed (so it can use some reserve).
    pub in_overflow: bool,
    pub interrupted: Arc<AtomicBool>,
    /// Check every frame's reference map against the heap every this many calls (0 = never).
    pub verify_frames_every: u32,
    pub calls_since_verify: u32,
    /// References held by VM code across calls into Java (roots, updated by the collector).
    pub handles: Vec<u64>,
    /// Set while an OutOfMemoryError is being built.
    pub in_oom: bool,
    /// Whether this thread is registered with its domain's safepoint (see `attach`).
    attached: bool,
    /// The OS thread's id (Linux `gettid`), set by `attach`; thread dumps show it as `nid`.
    pub os_tid: i64,
    /// A portal activation's clock (None for the domain's own threads): see `ActivationClock`.
    pub activation: Option<Arc<crate::domain::lifecycle::ActivationClock>>,
}

/// The part of a thread that compiled code reads and writes, at the offsets
/// [`crate::offsets::Offsets`] gives: its allocation buffer, its heap's nursery bounds (the
/// write barrier's check, [`crate::heap::barrier`]) and its domain's safepoint poll word. A
/// thread never changes domain (a portal call runs on an activation of the callee's), so the
/// bounds and the poll word are fixed when the thread is made.
#[repr(C)]
pub struct ThreadArea {
    pub tlab: crate::heap::Tlab,
    pub nursery_start: usize,
    pub nursery_size: usize,
    /// The address of the domain's `Safepoint::requested` (an `AtomicBool`, kept alive by
    /// `JThread::domain`): set while a collection or an inspection wants the domain's threads
    /// to stop, and for ever once the domain is terminated.
    pub poll_word: usize,
    /// The address of the domain's initialized flags ([`Domain::init_flags_base`]), which
    /// compiled code tests before it allocates an object inline.
    pub init_flags: usize,
    /// The address of the domain's class mirrors ([`Domain::mirrors_base`]), where compiled
    /// code finds static fields.
    pub mirrors: usize,
    /// The address of the thread's stack's first slot (`JThread::stack`, which never moves).
    pub stack_base: usize,
    /// The address no frame a compiled caller pushes may reach: the stack's end less the
    /// reserve a StackOverflowError is built in (calls past it take the VM's path, which
    /// throws).
    pub stack_limit: usize,
    /// 1 if the thread's domain is not trusted (its `Unsafe` accesses are checked), else 0:
    /// compiled code's inline `Unsafe` accesses are for trusted domains only.
    pub untrusted: usize,
}

impl ThreadArea {
    fn of(domain: &Domain) -> ThreadArea {
        let (nursery_start, nursery_size) = domain.heap.nursery_bounds();
        ThreadArea {
            tlab: Default::default(),
            nursery_start,
            nursery_size,
            poll_word: &domain.safepoint.requested as *const AtomicBool as usize,
            init_flags: domain.init_flags_base(),
            mirrors: domain.mirrors_base(),
            stack_base: 0,
            stack_limit: 0,
            untrusted: !domain.trusted as usize,
        }
    }
}

impl JThread {
    pub fn new(
        vm: &'static Vm,
        domain: Arc<Domain>,
        id: u64,
        stack_slots: usize,
        max_depth: usize,
    ) -> JThread {
        let mut t = JThread {
            area: ThreadArea::of(&domain),
            vm,
            domain,
            id,
            lock_id: monitor::LockId::new(),
            pending_monitor: None,
            lock_records: Vec::new(),
            contention: Default::default(),
            stack: vec![0; stack_slots],
            sp: 0,
            frames: frames::FrameStack::with_capacity(256),
            exception: None,
            thread_obj: None,
            max_depth,
            in_overflow: false,
            interrupted: Arc::new(AtomicBool::new(false)),
            verify_frames_every: 0,
            calls_since_verify: 0,
            handles: Vec::new(),
            in_oom: false,
            attached: false,
            os_tid: 0,
            activation: None,
        };
        let base = t.stack.as_ptr() as usize;
        t.area.stack_base = base;
        t.area.stack_limit = base + t.stack_limit() * 8;
        t
    }

    /// Registers this thread with its domain's safepoint, on the OS thread that will run it,
    /// before it runs Java code (collections then wait for it to stop, and find its roots).
    /// False if the domain was terminated: the thread must then not touch its heap (which an
    /// ended domain gives back) and should `detach` and go.
    #[must_use]
    pub fn attach(&mut self) -> bool {
        self.attach_registered();
        !self.in_dead_domain()
    }

    fn attach_registered(&mut self) {
        if !self.attached {
            self.attached = true;
            // A collection while detached emptied the nursery the buffer was part of.
            self.area.tlab.retire();
            if self.os_tid == 0 {
                self.os_tid = port::os::gettid();
            }
            self.domain.safepoint.enter();
            self.domain
                .thread_entered(self.id, self.activation.as_ref());
        }
    }

    /// Unregisters this thread from its domain's safepoint (the reverse of `attach`), for a
    /// portal activation kept for the next call. The thread must hold no reference then (its
    /// Thread object is found again through the domain's thread table).
    pub fn detach(&mut self) {
        if !self.attached {
            return;
        }
        self.attached = false;
        let last = self.domain.safepoint.leave();
        self.domain
            .thread_left(self.vm, self.id, self.activation.as_ref(), last);
    }

    /// Argument `i` (a slot) of the running native method, read from the thread's stack, where
    /// the collector keeps it current.
    pub fn arg(&self, i: usize) -> u64 {
        let f = self.frames.last().expect("no frame");
        self.stack[f.bp as usize + i]
    }

    /// Keeps `o` as a root; returns its handle index.
    pub fn handle(&mut self, o: crate::heap::ObjRef) -> usize {
        self.handles.push(o.slot());
        self.handles.len() - 1
    }

    /// Records that frame `frame` entered (or is about to block entering) `o`'s monitor.
    #[inline]
    pub fn push_lock_record(&mut self, frame: usize, o: ObjRef) {
        self.lock_records.push(LockRecord {
            frame: frame as u32,
            obj: o.slot(),
        });
    }

    /// Drops the newest record of frame `frame` for `o` (its `monitorexit`); none if the frame
    /// has none (an exit without an enter, which fails anyway).
    #[inline]
    pub fn pop_lock_record(&mut self, frame: usize, o: ObjRef) {
        let (frame, obj) = (frame as u32, o.slot());
        if let Some(r) = self.lock_records.last()
            && r.frame == frame
            && r.obj == obj
        {
            self.lock_records.pop();
            return;
        }
        self.pop_lock_record_below(frame, obj);
    }

    /// `pop_lock_record` when the record is not the newest (monitors exited out of order).
    #[cold]
    fn pop_lock_record_below(&mut self, frame: u32, obj: u64) {
        let newest = self
            .lock_records
            .iter()
            .rposition(|r| r.frame == frame && r.obj == obj);
        if let Some(i) = newest {
            self.lock_records.remove(i);
        }
    }

    /// Drops the records of frame `frame` and of the frames above it (they ended).
    #[inline]
    pub fn drop_lock_records_from(&mut self, frame: usize) {
        while self
            .lock_records
            .last()
            .is_some_and(|r| r.frame as usize >= frame)
        {
            self.lock_records.pop();
        }
    }

    /// The current address of the object behind handle `h`.
    pub fn handle_get(&self, h: usize) -> crate::heap::ObjRef {
        crate::heap::from_slot(self.handles[h]).expect("handle to null")
    }

    /// Runs `f` as a blocking operation: the domain may collect meanwhile (updating this
    /// thread's roots, which is why this takes `&mut self`); `f` must not touch the heap.
    pub fn blocking<R>(&mut self, f: impl FnOnce() -> R) -> R {
        if !self.attached {
            return f();
        }
        let domain = self.domain.clone();
        // A portal activation lends its caller's OS thread to this domain's termination (to
        // cancel its system calls) only while blocked.
        let visiting = match &self.activation {
            Some(a) => {
                a.stop();
                crate::native::thread::current_handle(self)
            }
            None => None,
        };
        if let Some(h) = &visiting {
            h.set_os_thread();
        }
        let p: *mut JThread = self;
        let r = domain.safepoint.blocking(p, f);
        if let Some(h) = &visiting {
            h.release_os_thread();
        }
        if let Some(a) = &self.activation {
            a.start();
        }
        r
    }

    /// [`JThread::blocking`] for a wait of `kind`, counted (and timed, when contention
    /// monitoring is on) in the thread's statistics.
    pub fn blocking_counted<R>(&mut self, kind: contention::Kind, f: impl FnOnce() -> R) -> R {
        self.contention.begin(kind, &self.domain.thread_stats);
        let r = self.blocking(f);
        self.contention.end(&self.domain.thread_stats);
        r
    }

    /// Safepoint poll: stops here if another thread of the domain wants to collect; fails
    /// (with the domain's death pending) once the domain is terminated.
    #[inline(always)]
    pub fn poll_safepoint(&mut self) -> JResult<()> {
        if self
            .domain
            .safepoint
            .requested
            .load(std::sync::atomic::Ordering::Relaxed)
            && self.attached
        {
            return self.stop_at_safepoint();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn stop_at_safepoint(&mut self) -> JResult<()> {
        let domain = self.domain.clone();
        let p: *mut JThread = self;
        domain.safepoint.block(p);
        if domain.safepoint.is_killed() {
            return Err(self.die());
        }
        Ok(())
    }

    /// Makes the domain's death pending: the thread of a terminated domain unwinds, and no
    /// handler of its domain catches it (see `in_dead_domain`).
    #[cold]
    pub fn die(&mut self) -> Thrown {
        self.exception = self.domain.death.lock().or(self.exception);
        Thrown
    }

    /// Whether this thread's domain was terminated (its exception handlers no longer run).
    #[inline]
    pub fn in_dead_domain(&self) -> bool {
        self.domain.safepoint.is_killed()
    }

    /// Takes the pending exception (after a `Thrown`).
    pub fn take_exception(&mut self) -> Option<ObjRef> {
        self.exception.take()
    }

    /// Whether this thread is registered with its domain's safepoint.
    pub fn is_attached(&self) -> bool {
        self.attached
    }

    /// The method `depth` frames below the top (0 = top).
    pub fn caller(&self, depth: usize) -> Option<&'static Method> {
        self.frames.iter().rev().nth(depth).map(|f| f.method)
    }
}

impl Drop for JThread {
    fn drop(&mut self) {
        if self.attached {
            let last = self.domain.safepoint.leave();
            self.domain
                .thread_left(self.vm, self.id, self.activation.as_ref(), last);
        }
        if let Some(a) = &self.activation {
            self.domain.unregister_activation(a);
        }
    }
}
