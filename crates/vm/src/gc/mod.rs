//! A domain's collections: stopping its threads, enumerating every root exactly, driving the
//! copier, processing `java.lang.ref` references, the young/full policy, verification, logging.
//!
//! A young collection evacuates the nursery into the old generation; its roots are those below
//! plus the remembered set (old objects the write barrier recorded as referring into the
//! nursery). A full collection evacuates the nursery and the old semispace into the other
//! semispace and frees unreachable large objects. An allocation poll runs a young collection,
//! followed in the same stop by a full one when the old generation passed its threshold.
//!
//! Roots: each attached thread's interpreter frames (through their reference maps), native
//! frames' arguments (through the native method's parameter types), the thread's handles,
//! lock records, pending exception and Thread object; and the domain's tables (mirrors, which hold the
//! static fields; resolved constants; initialization errors; interned strings; modules; linked
//! call sites; class
//! loaders; thread objects; the pending-reference list). Collections start only at safepoints:
//! allocation polls in the interpreter (never inside an allocation made by VM code, so VM code
//! may hold raw references across its own allocations), `System.gc()`, or another thread's
//! request. VM code that holds a reference across a call into Java keeps it in a handle.
//!
//! References (`process_references`) are handled in HotSpot's order, soft, weak, final,
//! phantom, which is what finalization needs: an unreached finalizable object (the referent of
//! an active `FinalReference`) survives its first collection, with everything it reaches, and
//! its reference goes on the pending list; the domain's finalizer thread then runs `finalize`
//! and clears the reference, so the next collection that finds the object unreachable frees it
//! (HotSpot's semantics: `finalize` runs at most once, a resurrected object is collected
//! normally later). Finalizable objects are registered by the engines, not here
//! (`JThread::register_finalizer`).

pub mod unloading;
pub mod verify;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use crate::class::{BasicType, LoaderId, Unit};
use crate::code::oopmap::{MethodOperands, Operands, maps_of};
use crate::domain::Domain;
use crate::heap::collector::{Copier, Layouts};
use crate::heap::{Heap, ObjRef, OutOfMemory, Tlab, from_slot};
use crate::jdk::{self, JdkClass};
use crate::thread::{JResult, JThread};
use unloading::Liveness;

/// Per-domain collector options and statistics.
pub struct GcState {
    /// Print one line per collection (-verbose:gc, -Xlog:gc).
    pub log: AtomicBool,
    /// Collect at every allocation poll.
    pub stress: AtomicBool,
    /// Check the heap and all frames after every collection.
    pub verify: AtomicBool,
    pub count: AtomicU32,
    /// Collections and their times, and peak usage, for the management API.
    pub stats: GcStats,
    start: Instant,
    /// Bookkeeping of the collecting thread (collections of a domain never overlap).
    policy: parking_lot::Mutex<Policy>,
}

impl GcState {
    /// Takes -verbose:gc, -Xgc:stress and -Xgc:verify from the VM's options (stress mode
    /// turns `heap`'s thread allocation buffers off).
    pub fn apply_options(&self, heap: &Heap, opts: &crate::vm::Options) {
        self.log.store(opts.gc_log, Ordering::Relaxed);
        self.stress.store(opts.gc_stress, Ordering::Relaxed);
        heap.set_tlabs(!opts.gc_stress);
        self.verify.store(opts.gc_verify, Ordering::Relaxed);
    }
}

/// What the management API reports of a domain's collections: how many young and full ones
/// ran and how long they took, and the most each part of the heap held.
pub struct GcStats {
    pub young_count: AtomicU64,
    pub young_nanos: AtomicU64,
    pub full_count: AtomicU64,
    pub full_nanos: AtomicU64,
    /// Peak bytes of the nursery, the old space and the large objects.
    pub peak_nursery: AtomicU64,
    pub peak_old: AtomicU64,
    pub peak_large: AtomicU64,
    /// Bytes of the nursery, the old space and the large objects after the last collection
    /// (u64::MAX before the first).
    pub after_nursery: AtomicU64,
    pub after_old: AtomicU64,
    pub after_large: AtomicU64,
    /// The last young and the last full collection.
    pub last_young: parking_lot::Mutex<Option<LastGc>>,
    pub last_full: parking_lot::Mutex<Option<LastGc>>,
    /// Whether listeners want notifications of young and of full collections.
    pub notify_young: AtomicBool,
    pub notify_full: AtomicBool,
    /// Whether the thread that sends them has been started.
    pub notifier_started: AtomicBool,
    /// Collections not yet notified (only while notifications are wanted; the oldest are
    /// dropped past [`GcStats::MAX_PENDING`]), and the condition the sender waits on.
    pub pending: parking_lot::Mutex<std::collections::VecDeque<GcEvent>>,
    pub pending_cond: parking_lot::Condvar,
}

/// A collection waiting to be notified.
#[derive(Clone, Debug)]
pub struct GcEvent {
    pub full: bool,
    /// Why it ran ("System.gc()", "Allocation Failure"), as HotSpot names its causes.
    pub cause: String,
    /// When it ended, in milliseconds since the epoch.
    pub timestamp: i64,
    pub gc: LastGc,
}

/// One collection, as `GarbageCollectorMXBean.getLastGcInfo` shows it.
#[derive(Clone, Copy, Debug)]
pub struct LastGc {
    /// Its number among the collections of its kind (1 for the first).
    pub index: u64,
    pub start: Instant,
    pub end: Instant,
    /// Bytes of the nursery, the old space and the large objects before and after it.
    pub before: [u64; 3],
    pub after: [u64; 3],
}

/// Bytes of the nursery, the old space and the large objects of `heap`.
fn usage_of(heap: &Heap) -> [u64; 3] {
    [
        heap.nursery_used() as u64,
        heap.old_used() as u64,
        heap.large_used() as u64,
    ]
}

impl Default for GcStats {
    fn default() -> Self {
        GcStats {
            young_count: AtomicU64::new(0),
            young_nanos: AtomicU64::new(0),
            full_count: AtomicU64::new(0),
            full_nanos: AtomicU64::new(0),
            peak_nursery: AtomicU64::new(0),
            peak_old: AtomicU64::new(0),
            peak_large: AtomicU64::new(0),
            after_nursery: AtomicU64::new(u64::MAX),
            after_old: AtomicU64::new(u64::MAX),
            after_large: AtomicU64::new(u64::MAX),
            last_young: Default::default(),
            last_full: Default::default(),
            notify_young: AtomicBool::new(false),
            notify_full: AtomicBool::new(false),
            notifier_started: AtomicBool::new(false),
            pending: Default::default(),
            pending_cond: Default::default(),
        }
    }
}

impl GcStats {
    /// Notes the heap's current usage in the peaks.
    pub fn note_usage(&self, heap: &Heap) {
        self.peak_nursery
            .fetch_max(heap.nursery_used() as u64, Ordering::Relaxed);
        self.peak_old
            .fetch_max(heap.old_used() as u64, Ordering::Relaxed);
        self.peak_large
            .fetch_max(heap.large_used() as u64, Ordering::Relaxed);
    }

    /// Counts one collection that started at `start` with the heap's parts holding `before`
    /// bytes, and left `heap` as it is now.
    fn record(&self, heap: &Heap, full: bool, cause: &str, start: Instant, before: [u64; 3]) {
        let after = usage_of(heap);
        self.after_nursery.store(after[0], Ordering::Relaxed);
        self.after_old.store(after[1], Ordering::Relaxed);
        self.after_large.store(after[2], Ordering::Relaxed);
        let (count, time, last) = if full {
            (&self.full_count, &self.full_nanos, &self.last_full)
        } else {
            (&self.young_count, &self.young_nanos, &self.last_young)
        };
        let end = Instant::now();
        let nanos = end.duration_since(start).as_nanos().min(u64::MAX as u128) as u64;
        let index = count.fetch_add(1, Ordering::Relaxed) + 1;
        time.fetch_add(nanos, Ordering::Relaxed);
        let gc = LastGc {
            index,
            start,
            end,
            before,
            after,
        };
        *last.lock() = Some(gc);
        let wanted = if full {
            &self.notify_full
        } else {
            &self.notify_young
        };
        if wanted.load(Ordering::Relaxed) {
            let mut pending = self.pending.lock();
            if pending.len() >= Self::MAX_PENDING {
                pending.pop_front();
            }
            pending.push_back(GcEvent {
                full,
                cause: cause.to_string(),
                timestamp: port::current_time_millis(),
                gc,
            });
            self.pending_cond.notify_all();
        }
    }

    /// Collections kept for notification at most (as HotSpot, a slow listener loses some).
    pub const MAX_PENDING: usize = 256;
}

/// When stress mode runs a full collection, and when verification checks the whole heap.
#[derive(Default)]
struct Policy {
    promoted_since_full: usize,
    live_after_full: usize,
    promoted_since_verify: usize,
    old_at_verify: usize,
}

impl Default for GcState {
    fn default() -> Self {
        GcState {
            log: AtomicBool::new(false),
            stress: AtomicBool::new(false),
            verify: AtomicBool::new(false),
            count: AtomicU32::new(0),
            stats: GcStats::default(),
            start: Instant::now(),
            policy: Default::default(),
        }
    }
}

/// What a caller asks of the collector.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Collection {
    /// A young collection, followed by a full one if the old generation passed its threshold
    /// (counting a pending large allocation of this many bytes).
    Auto(usize),
    /// A full collection (System.gc()).
    Full,
    /// A full collection that also clears soft references (the last try before an
    /// OutOfMemoryError).
    FullClearSoft,
}

/// Allocation poll: collects if the nursery cannot take `size` more bytes (or in stress mode),
/// and throws `OutOfMemoryError: Java heap space` if `size` bytes still do not fit after a full
/// collection that also cleared soft references.
pub fn poll_alloc(t: &mut JThread, size: usize) -> JResult<()> {
    let heap = &t.domain.heap;
    if !t.domain.gc.stress.load(Ordering::Relaxed) && !heap.should_collect(size) {
        return Ok(());
    }
    collect(t, Collection::Auto(size), "Allocation Failure");
    if !t.domain.heap.fits(size) {
        collect(
            t,
            Collection::FullClearSoft,
            "Allocation Failure, clearing soft references",
        );
        if !t.domain.heap.fits(size) {
            return Err(t.throw_new("java/lang/OutOfMemoryError", Some("Java heap space")));
        }
    }
    Ok(())
}

/// One allocation at an allocation safepoint (the interpreter's `new`, `newarray`,
/// `anewarray`): from the thread's buffer when it has room, else the poll, then `alloc`; if
/// that fails anyway (other threads took the room the poll found), a collection and another
/// try, then a full one clearing soft references and a last try, before `OutOfMemoryError`.
/// Kept out of line, buffer path included: it is called from the interpreter's loop, whose code
/// quality suffers from what is inlined into it (inlined, the buffer path made BinaryTrees 3%
/// cheaper in instructions but Fasta, CollStrings and Dispatch 1-1.4% dearer).
#[inline(never)]
pub fn alloc_at_safepoint(
    t: &mut JThread,
    size: usize,
    alloc: impl Fn(&Heap, &mut Tlab) -> Result<ObjRef, OutOfMemory>,
) -> JResult<ObjRef> {
    if t.area.tlab.fits(size.next_multiple_of(8))
        && let Ok(o) = alloc(&t.domain.heap, &mut t.area.tlab)
    {
        return Ok(o);
    }
    alloc_at_safepoint_slow(t, size, alloc)
}

#[inline(never)]
fn alloc_at_safepoint_slow(
    t: &mut JThread,
    size: usize,
    alloc: impl Fn(&Heap, &mut Tlab) -> Result<ObjRef, OutOfMemory>,
) -> JResult<ObjRef> {
    poll_alloc(t, size)?;
    for what in [Collection::Auto(size), Collection::FullClearSoft] {
        if let Ok(o) = alloc(&t.domain.heap, &mut t.area.tlab) {
            return Ok(o);
        }
        collect(t, what, "Allocation Failure");
    }
    alloc(&t.domain.heap, &mut t.area.tlab).map_err(|_| t.out_of_memory())
}

/// Runs a collection of `t`'s domain (or waits for one another thread is running).
pub fn collect(t: &mut JThread, what: Collection, cause: &str) {
    let domain = t.domain.clone();
    if !t.is_attached() {
        return;
    }
    let me: *mut JThread = t;
    if !domain.safepoint.begin_collection(me) {
        return;
    }
    collect_stopped(t, what, cause);
    domain.safepoint.end_collection();
}

/// The collection `collect` runs once the domain is stopped.
fn collect_stopped(t: &mut JThread, what: Collection, cause: &str) {
    let domain = t.domain.clone();
    let gc = &domain.gc;
    let mut full = !matches!(what, Collection::Auto(_));
    if let Collection::Auto(pending) = what {
        let promoted = run_phase(t, false, false, cause);
        let mut p = gc.policy.lock();
        p.promoted_since_full += promoted;
        let stress_due = gc.stress.load(Ordering::Relaxed)
            && p.promoted_since_full >= (p.live_after_full / 8).max(64 << 10);
        full = domain.heap.wants_full(pending) || stress_due;
    }
    if full {
        let live = run_phase(t, true, what == Collection::FullClearSoft, cause);
        let mut p = gc.policy.lock();
        p.promoted_since_full = 0;
        p.live_after_full = live;
    }
    if domain.pending_refs.lock().is_some() {
        domain.pending_refs_cond.notify_all();
    }
}

/// Runs `f` on every object of `t`'s domain's heap while its other threads are stopped: a
/// collection (cause `cause`; young, and full if the policy says so) first empties the
/// nursery, which leaves the old generation a run of objects, walked from its start, and the
/// large objects. `f` must not run Java code or collect. (HotSpot's heap inspections, e.g. for
/// the ownable synchronizers a thread holds.)
pub fn with_every_object<R>(
    t: &mut JThread,
    cause: &str,
    f: impl FnOnce(&mut JThread, &[ObjRef]) -> R,
) -> R {
    let domain = t.domain.clone();
    if !t.is_attached() {
        // Not possible for a thread running Java code; nothing could be walked safely.
        return f(t, &[]);
    }
    let me: *mut JThread = t;
    while !domain.safepoint.begin_collection(me) {}
    collect_stopped(t, Collection::Auto(0), cause);
    let layouts = layouts_of(t);
    let (mut at, top) = domain.heap.old_space();
    let mut objects = Vec::new();
    while at < top {
        let o = ObjRef::from_addr(at);
        objects.push(o);
        at += crate::heap::collector::object_size(&layouts, o, o.class());
    }
    objects.extend(
        domain
            .heap
            .large_objects()
            .into_iter()
            .map(ObjRef::from_addr),
    );
    let r = f(t, &objects);
    domain.safepoint.end_collection();
    r
}

/// One young (promoting) or full collection while the domain is stopped; verifies and logs
/// it. Returns the bytes promoted (young) or live afterwards (full).
fn run_phase(t: &mut JThread, full: bool, clear_soft: bool, cause: &str) -> usize {
    let domain = t.domain.clone();
    let gc = &domain.gc;
    let start = Instant::now();
    gc.stats.note_usage(&domain.heap);
    let parts_before = usage_of(&domain.heap);
    let before = domain.heap.used();
    let verify = gc.verify.load(Ordering::Relaxed);
    // Verification checks the whole heap after every collection, except for the young
    // collections of stress mode (one per allocation): those check what they touched, and the
    // whole heap once as many bytes were promoted as the old generation held at the last
    // whole check, which keeps stress+verify runs linear in the bytes allocated.
    let whole = verify && {
        let p = gc.policy.lock();
        full || !gc.stress.load(Ordering::Relaxed)
            || p.promoted_since_verify >= p.old_at_verify.max(1 << 20)
    };
    if whole
        && !full
        && let Err(e) = verify::verify_remembered(t)
    {
        panic!(
            "heap verification failed before GC({}): {e}",
            gc.count.load(Ordering::Relaxed)
        );
    }
    let remembered = domain.heap.take_remembered();
    let layouts = layouts_of(t);
    let (plan, large) = if full {
        (
            domain.heap.full_plan(),
            domain.heap.large_objects().into_iter().collect(),
        )
    } else {
        (domain.heap.young_plan(), Default::default())
    };
    let mut cp = Copier::new(&layouts, &plan, large);
    if !full {
        for &o in &remembered {
            cp.scan_remembered(o);
        }
    }
    // A full collection unloads the classes of user-defined loaders no longer reachable.
    evacuate(t, &mut cp, clear_soft, full);
    let moved = cp.live_bytes();
    let promoted_range = (plan.to.0, cp.to_top());
    if full {
        domain.heap.sweep_large(&cp.large_live);
        domain.heap.finish_full(moved);
    } else {
        domain.heap.finish_young(cp.to_top());
    }
    let n = gc.count.fetch_add(1, Ordering::Relaxed);
    gc.stats
        .record(&domain.heap, full, cause, start, parts_before);
    if verify {
        let result = if whole {
            verify::verify_heap(t)
        } else {
            verify::verify_young(t, promoted_range, &remembered)
        };
        if let Err(e) = result {
            panic!("heap verification failed after GC({n}): {e}");
        }
        let mut p = gc.policy.lock();
        if whole {
            p.promoted_since_verify = 0;
            p.old_at_verify = domain.heap.old_used();
        } else {
            p.promoted_since_verify += moved;
        }
    }
    if gc.log.load(Ordering::Relaxed) {
        let mb = |b: usize| b >> 20;
        println!(
            "[{:.3}s][info][gc] GC({n}) Pause {} ({cause}) {}M->{}M({}M) {:.3}ms",
            gc.start.elapsed().as_secs_f64(),
            if full { "Full" } else { "Young" },
            mb(before),
            mb(domain.heap.used()),
            mb(domain.heap.capacity()),
            start.elapsed().as_secs_f64() * 1000.0
        );
    }
    moved
}

/// The object layouts the copier and the verifier need, from the VM's well-known classes.
pub fn layouts_of(t: &JThread) -> Layouts {
    layouts(t.vm)
}

/// What the collector needs to know about the VM's classes.
pub fn layouts(vm: &crate::vm::Vm) -> Layouts {
    let wk = vm.wk();
    let reference = {
        let r = jdk::Reference::get();
        Some((r.class(), r.referent))
    };
    Layouts {
        class_class: wk.class,
        mirror_slot: wk.mirror_slot as usize,
        statics_base: wk.statics_base as usize,
        reference,
    }
}

/// Forwards every root of the stopped domain, evacuates what they reach, processes
/// references and re-keys the address-keyed tables.
#[allow(unsafe_code)] // the stopped threads, lent to the collector
fn evacuate(t: &mut JThread, cp: &mut Copier, clear_soft: bool, unload: bool) {
    let domain = t.domain.clone();
    let vm = t.vm;
    let mut liveness = unload.then(|| Liveness::new(&domain, vm));
    cp.track_loaders = unload;
    thread_roots(cp, t);
    t.area.tlab.retire();
    for p in domain.safepoint.stopped_threads() {
        // SAFETY: `p` was derived from a stopped thread's own `&mut JThread` when it stopped
        // (safepoint `block`/`blocking`); that thread does not use its JThread again until it
        // resumes after `end_collection`, so for the collection this is the only live access.
        let other = unsafe { &mut *(p as *mut JThread) };
        thread_roots(cp, other);
        // The nursery is emptied: no buffer in it may be used again.
        other.area.tlab.retire();
    }
    domain_roots(cp, &domain, vm, liveness.as_ref());
    let mut close = |cp: &mut Copier, at: usize| match liveness.as_mut() {
        Some(l) => l.close(cp, at),
        None => cp.scan(at),
    };
    let at = close(cp, cp.scan_start());
    process_references(cp, &domain, vm, clear_soft, at, &mut close);
    if let Some(l) = liveness {
        l.finish(cp);
    }
    domain.rekey_tables(&|o| cp.forwardee(o));
}

fn thread_roots(cp: &mut Copier, th: &mut JThread) {
    let n = th.frames.len();
    for i in 0..n {
        let f = th.frames[i];
        let bp = f.bp as usize;
        if cp.track_loaders && f.method.class.unit().is_collectible() {
            // A running method keeps its class's unit alive.
            cp.loaders_seen.push(f.method.class.unit());
        }
        if f.pc == u32::MAX {
            // A native frame: its arguments, typed by the method's descriptor.
            let mut at = bp;
            if !f.method.is_static() {
                cp.forward_slot(&mut th.stack[at]);
                at += 1;
            }
            for &ty in f.method.param_types.iter() {
                if ty == BasicType::Ref {
                    cp.forward_slot(&mut th.stack[at]);
                }
                at += ty.slots();
            }
            continue;
        }
        let Some(Ok(prep)) = f.method.prepared.get() else {
            continue;
        };
        let maps = match maps_of(f.method, prep) {
            Ok(m) => m,
            Err(e) => panic!("no reference map for {:?}: {e}", f.method),
        };
        let Some(map) = maps.at(f.pc as usize) else {
            continue;
        };
        let mut depth = map.depth as usize;
        if i + 1 < n {
            // A callee invoked by this instruction owns the arguments it was passed (its
            // frame starts at them). Frames above that were not called by it (a class
            // initializer run before an invokestatic) leave the arguments to this frame.
            let op = prep.ops[f.pc as usize];
            if let Some((pops, _)) = (MethodOperands {
                class: f.method.class,
                prep,
            })
            .invoke(&op)
            {
                let args_base = bp + prep.max_locals as usize + depth.saturating_sub(pops);
                if th.frames[i + 1].bp as usize == args_base {
                    depth = depth.saturating_sub(pops);
                }
            }
        }
        for slot in 0..prep.max_locals as usize + depth {
            if map.is_ref(slot) {
                cp.forward_slot(&mut th.stack[bp + slot]);
            }
        }
    }
    for h in th.handles.iter_mut() {
        cp.forward_slot(h);
    }
    for r in th.lock_records.iter_mut() {
        cp.forward_slot(&mut r.obj);
    }
    map_opt(&mut th.exception, &mut |o| cp.forward(o));
    map_opt(&mut th.thread_obj, &mut |o| cp.forward(o));
}

/// Replaces a reference held in an Option by `f` of it.
fn map_opt(o: &mut Option<ObjRef>, f: &mut dyn FnMut(ObjRef) -> ObjRef) {
    if let Some(x) = *o {
        *o = Some(f(x));
    }
}

fn domain_roots(cp: &mut Copier, d: &Domain, vm: &crate::vm::Vm, weak: Option<&Liveness>) {
    // Only a collection that unloads looks classes up.
    let class_waits = |id: u32| {
        weak.is_some_and(|w| {
            vm.classes
                .class_by_id(id)
                .is_some_and(|c| w.is_weak(c.unit()))
        })
    };
    let unit_waits = |u: Unit| weak.is_some_and(|w| w.is_weak(u));
    d.map_table_refs(
        vm.classes.class_count(),
        &mut |o| cp.forward(o),
        &class_waits,
        &unit_waits,
    );
    // Thread objects of live threads are roots (their keys are rewritten by `rekey_tables`).
    for o in d.thread_objects() {
        cp.forward(o);
    }
}

/// Replaces every reference a domain's tables hold (all but the address-keyed ones: threads,
/// memory objects, portals) with `f` of it: the collector forwards them, a domain made from a
/// template relocates them.
pub fn for_each_table_ref(d: &Domain, vm: &crate::vm::Vm, f: &mut dyn FnMut(ObjRef) -> ObjRef) {
    d.map_table_refs(vm.classes.class_count(), f, &|_| false, &|_| false);
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum RefKind {
    Soft,
    Weak,
    /// `FinalReference` (the class library's `Finalizer`s).
    Final,
    Phantom,
    /// Any other (no such class exists: `Reference`'s constructors are package-private):
    /// strong.
    Strong,
}

/// The soft, weak, final and phantom reference classes, looked up once per collection.
struct RefClasses([Option<&'static crate::class::Class>; 4]);

impl RefClasses {
    fn new(vm: &crate::vm::Vm) -> RefClasses {
        let find = |n: &str| vm.classes.find_loaded(LoaderId::BOOT, n);
        RefClasses([
            find("java/lang/ref/SoftReference"),
            find("java/lang/ref/WeakReference"),
            find("java/lang/ref/FinalReference"),
            find("java/lang/ref/PhantomReference"),
        ])
    }

    fn kind(&self, c: &'static crate::class::Class) -> RefKind {
        let is = |k: Option<&'static crate::class::Class>| k.is_some_and(|k| c.is_subtype_of(k));
        match self.0 {
            [soft, ..] if is(soft) => RefKind::Soft,
            [_, weak, ..] if is(weak) => RefKind::Weak,
            [_, _, fin, _] if is(fin) => RefKind::Final,
            [.., phantom] if is(phantom) => RefKind::Phantom,
            _ => RefKind::Strong,
        }
    }
}

/// Processes the references discovered while tracing, as HotSpot's reference processor
/// does, in its order: soft references keep their referents unless `clear_soft`; then soft
/// and weak references whose referents were not reached are cleared and put on the pending
/// list; then final references (one `Finalizer` per finalizable object, see
/// `JThread::register_finalizer`) whose referents were not reached keep them, and all they
/// reach, alive for one more cycle and go on the pending list too, made inactive (`next`
/// pointing at itself, as the collector and `ReferenceQueue` both mark a final reference that
/// is no longer to be discovered), so that the Reference Handler hands them to the finalizer
/// thread; then phantom references whose referents are still not reached (finalization
/// keeps a referent reachable, so such a phantom reference waits for a later collection) are
/// cleared and put on the pending list. References reached only through what finalization
/// keeps are traced as strong this time. An inactive final reference's referent (queued for
/// `finalize`, not yet run) is strong as well.
fn process_references(
    cp: &mut Copier,
    d: &Domain,
    vm: &crate::vm::Vm,
    clear_soft: bool,
    mut at: usize,
    close: &mut dyn FnMut(&mut Copier, usize) -> usize,
) -> usize {
    let r = jdk::Reference::get();
    let (referent_off, discovered_off, next_off) = (r.referent, r.discovered, r.next);
    let kinds = RefClasses::new(vm);
    let mut deferred: Vec<(ObjRef, RefKind)> = Vec::new();
    // Discovery: what tracing from the roots finds.
    loop {
        let batch = std::mem::take(&mut cp.discovered);
        if batch.is_empty() {
            break;
        }
        for r in batch {
            let Some(referent) = from_slot(r.read::<u64>(referent_off)) else {
                continue;
            };
            if let Some(n) = cp.forwardee(referent) {
                cp.store_traced(r, referent_off, Some(n));
                continue;
            }
            let kind = kinds.kind(r.class());
            let strong = match kind {
                RefKind::Strong => true,
                RefKind::Soft => !clear_soft,
                RefKind::Final => r.read::<u64>(next_off) != 0,
                RefKind::Weak | RefKind::Phantom => false,
            };
            if strong {
                let n = cp.forward(referent);
                cp.store_traced(r, referent_off, Some(n));
            } else {
                deferred.push((r, kind));
            }
        }
        at = close(cp, at);
    }
    let mut pending = d.pending_refs.lock();
    // The referent of deferred reference `r` if it was not reached; if it was, `r` now refers
    // to its copy.
    let unreached = |cp: &mut Copier, r: ObjRef| -> Option<ObjRef> {
        let referent =
            from_slot(r.read::<u64>(referent_off)).expect("deferred reference has a referent");
        match cp.forwardee(referent) {
            Some(n) => {
                cp.store_traced(r, referent_off, Some(n));
                None
            }
            None => Some(referent),
        }
    };
    let enqueue = |cp: &mut Copier, r: ObjRef, pending: &mut Option<ObjRef>| {
        cp.store_traced(r, discovered_off, *pending);
        *pending = Some(r);
    };
    // Soft and weak.
    for &(r, kind) in &deferred {
        if matches!(kind, RefKind::Soft | RefKind::Weak) && unreached(cp, r).is_some() {
            cp.store_traced(r, referent_off, None);
            enqueue(cp, r, &mut pending);
        }
    }
    // Final: the unreached referents are kept, with all they reach.
    let mut finalizable = false;
    for &(r, kind) in &deferred {
        if kind == RefKind::Final
            && let Some(referent) = unreached(cp, r)
        {
            let n = cp.forward(referent);
            cp.store_traced(r, referent_off, Some(n));
            cp.store_traced(r, next_off, Some(r));
            enqueue(cp, r, &mut pending);
            finalizable = true;
        }
    }
    if finalizable {
        loop {
            at = close(cp, at);
            let batch = std::mem::take(&mut cp.discovered);
            if batch.is_empty() {
                break;
            }
            for r in batch {
                if let Some(referent) = from_slot(r.read::<u64>(referent_off)) {
                    let n = cp.forward(referent);
                    cp.store_traced(r, referent_off, Some(n));
                }
            }
        }
    }
    // Phantom.
    for &(r, kind) in &deferred {
        if kind == RefKind::Phantom && unreached(cp, r).is_some() {
            cp.store_traced(r, referent_off, None);
            enqueue(cp, r, &mut pending);
        }
    }
    at
}

/// Whether a collection is needed before allocating an array of `len` elements of `elem`.
pub fn array_bytes(elem: BasicType, len: i32) -> usize {
    base::layout::ARRAY_BASE + (len.max(0) as usize) * elem.size()
}
