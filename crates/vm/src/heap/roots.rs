//! A domain's collections: stopping its threads, enumerating every root exactly, driving the
//! copier, processing `java.lang.ref` references, flipping the heap, verification, logging.
//!
//! Roots: each attached thread's interpreter frames (through their reference maps), native
//! frames' arguments (through the native method's parameter types), the thread's handles,
//! pending exception and Thread object; and the domain's tables (mirrors, which hold the
//! static fields; resolved constants; initialization errors; interned strings; modules; class
//! loaders; thread objects; the pending-reference list). Collections start only at safepoints:
//! allocation polls in the interpreter (never inside an allocation made by VM code, so VM code
//! may hold raw references across its own allocations), `System.gc()`, or another thread's
//! request. VM code that holds a reference across a call into Java keeps it in a handle.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use super::collector::{Copier, Layouts};
use super::{ObjRef, from_slot};
use crate::class::{BasicType, LoaderId};
use crate::domain::Domain;
use crate::interp::oopmap::{MethodOperands, Operands, maps_of};
use crate::thread::{JResult, JThread};

/// Per-domain collector options and statistics.
pub struct GcState {
    /// Print one line per collection (-verbose:gc, -Xlog:gc).
    pub log: AtomicBool,
    /// Collect at every allocation poll.
    pub stress: AtomicBool,
    /// Check the heap and all frames after every collection.
    pub verify: AtomicBool,
    pub count: AtomicU32,
    start: Instant,
}

impl Default for GcState {
    fn default() -> Self {
        GcState {
            log: AtomicBool::new(false),
            stress: AtomicBool::new(false),
            verify: AtomicBool::new(false),
            count: AtomicU32::new(0),
            start: Instant::now(),
        }
    }
}

/// Allocation poll: collects if the heap passed its threshold (or in stress mode), and throws
/// `OutOfMemoryError: Java heap space` if `size` bytes still do not fit after a collection that
/// also cleared soft references.
pub fn poll_alloc(t: &mut JThread, size: usize) -> JResult<()> {
    let heap = &t.domain.heap;
    if !t.domain.gc.stress.load(Ordering::Relaxed) && !heap.should_collect(size) {
        return Ok(());
    }
    collect(t, false, "Allocation Failure");
    if !t.domain.heap.fits(size) {
        collect(t, true, "Allocation Failure, clearing soft references");
        if !t.domain.heap.fits(size) {
            return Err(t.throw_new("java/lang/OutOfMemoryError", Some("Java heap space")));
        }
    }
    Ok(())
}

/// Runs a collection of `t`'s domain (or waits for one another thread is running).
pub fn collect(t: &mut JThread, clear_soft: bool, cause: &str) {
    let domain = t.domain.clone();
    if !t.is_attached() {
        return;
    }
    let me: *mut JThread = t;
    if !domain.safepoint.begin_collection(me) {
        return;
    }
    let start = Instant::now();
    let before = domain.heap.used();
    let vm = t.vm;
    let wk = vm.wk();
    let reference = vm
        .classes
        .find_loaded(LoaderId::BOOT, "java/lang/ref/Reference")
        .and_then(|c| c.instance_field("referent").map(|f| (c, f.offset as usize)));
    let layouts = Layouts {
        class_class: wk.class,
        mirror_slot: wk.mirror_slot as usize,
        statics_base: wk.statics_base as usize,
        reference,
    };
    let ((from, from_top), to) = domain.heap.spaces();
    let large: rustc_hash::FxHashSet<usize> = domain.heap.large_objects().into_iter().collect();
    let mut cp = Copier::new(&layouts, (from, from_top), to, large);
    thread_roots(&mut cp, t);
    for p in domain.safepoint.stopped_threads() {
        // SAFETY: `p` was derived from a stopped thread's own `&mut JThread` when it stopped
        // (safepoint `block`/`blocking`); that thread does not use its JThread again until it
        // resumes after `end_collection`, so for the collection this is the only live access.
        let other = unsafe { &mut *(p as *mut JThread) };
        thread_roots(&mut cp, other);
    }
    domain_roots(&mut cp, &domain, vm);
    let at = cp.scan(cp.scan_start());
    process_references(&mut cp, &domain, vm, clear_soft, at);
    rekey_tables(&cp, &domain);
    domain.heap.sweep_large(&cp.large_live);
    let live = cp.live_bytes();
    domain.heap.flip(live);
    let n = domain.gc.count.fetch_add(1, Ordering::Relaxed);
    if domain.gc.verify.load(Ordering::Relaxed) {
        if let Err(e) = verify_heap(t) {
            panic!("heap verification failed after GC({n}): {e}");
        }
    }
    if domain.gc.log.load(Ordering::Relaxed) {
        let mb = |b: usize| b >> 20;
        println!(
            "[{:.3}s][info][gc] GC({n}) Pause Copy ({cause}) {}M->{}M({}M) {:.3}ms",
            domain.gc.start.elapsed().as_secs_f64(),
            mb(before),
            mb(domain.heap.used()),
            mb(domain.heap.capacity()),
            start.elapsed().as_secs_f64() * 1000.0
        );
    }
    if domain.pending_refs.lock().is_some() {
        domain.pending_refs_cond.notify_all();
    }
    domain.safepoint.end_collection();
}

fn thread_roots(cp: &mut Copier, th: &mut JThread) {
    let n = th.frames.len();
    for i in 0..n {
        let f = th.frames[i];
        let bp = f.bp as usize;
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
        let Some(Ok(prep)) = f.method.prepared.get() else { continue };
        let maps = match maps_of(f.method, prep) {
            Ok(m) => m,
            Err(e) => panic!("no reference map for {:?}: {e}", f.method),
        };
        let Some(map) = maps.at(f.pc as usize) else { continue };
        let mut depth = map.depth as usize;
        if i + 1 < n {
            // A callee invoked by this instruction owns the arguments it was passed (its
            // frame starts at them). Frames above that were not called by it (a class
            // initializer run before an invokestatic) leave the arguments to this frame.
            let op = prep.ops[f.pc as usize];
            if let Some((pops, _)) = (MethodOperands { class: f.method.class, prep }).invoke(&op) {
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
    forward_opt(cp, &mut th.exception);
    forward_opt(cp, &mut th.thread_obj);
}

fn forward_opt(cp: &mut Copier, o: &mut Option<ObjRef>) {
    if let Some(x) = *o {
        *o = Some(cp.forward(x));
    }
}

fn forward_atomic(cp: &mut Copier, a: &std::sync::atomic::AtomicU64) {
    let mut v = a.load(Ordering::Relaxed);
    if v != 0 {
        cp.forward_slot(&mut v);
        a.store(v, Ordering::Relaxed);
    }
}

fn domain_roots(cp: &mut Copier, d: &Domain, vm: &crate::vm::Vm) {
    for id in 0..vm.classes.class_count() {
        let Some(st) = d.existing_class_state(id) else { continue };
        forward_atomic(cp, &st.mirror);
        if let Some(consts) = st.cp_strings.get() {
            for c in consts.iter() {
                forward_atomic(cp, c);
            }
        }
        let mut e = st.init_error.lock();
        forward_opt(cp, &mut e);
    }
    for v in d.strings.lock().values_mut() {
        *v = cp.forward(*v);
    }
    for v in d.modules.lock().values_mut() {
        *v = cp.forward(*v);
    }
    forward_opt(cp, &mut *d.boot_unnamed_module.lock());
    for v in d.loaders.lock().by_id.values_mut() {
        *v = cp.forward(*v);
    }
    forward_opt(cp, &mut *d.pending_refs.lock());
    forward_opt(cp, &mut *d.oom_error.lock());
    // Thread objects of live threads are roots (their keys are rewritten by `rekey_tables`).
    let keys: Vec<usize> = d.threads.lock().keys().copied().collect();
    for k in keys {
        cp.forward(ObjRef::from_addr(k));
    }
}

/// Tables keyed by object address get their new keys (must run before the flip).
fn rekey_tables(cp: &Copier, d: &Domain) {
    let mut threads = d.threads.lock();
    let old = std::mem::take(&mut *threads);
    for (k, h) in old {
        if let Some(n) = cp.forwardee(ObjRef::from_addr(k)) {
            threads.insert(n.addr(), h);
        }
    }
    let mut loaders = d.loaders.lock();
    let by_id: Vec<(u32, ObjRef)> = loaders.by_id.iter().map(|(k, v)| (*k, *v)).collect();
    loaders.by_obj.clear();
    for (id, o) in by_id {
        loaders.by_obj.insert(o.addr(), LoaderId(id));
    }
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum RefKind {
    Soft,
    Weak,
    Phantom,
    /// FinalReference and anything else: treated as strong (finalization is not supported).
    Strong,
}

/// The soft, weak and phantom reference classes, looked up once per collection.
struct RefClasses([Option<&'static crate::class::Class>; 3]);

impl RefClasses {
    fn new(vm: &crate::vm::Vm) -> RefClasses {
        let find = |n: &str| vm.classes.find_loaded(LoaderId::BOOT, n);
        RefClasses([find("java/lang/ref/SoftReference"), find("java/lang/ref/WeakReference"), find("java/lang/ref/PhantomReference")])
    }

    fn kind(&self, c: &'static crate::class::Class) -> RefKind {
        let is = |k: Option<&'static crate::class::Class>| k.is_some_and(|k| c.is_subtype_of(k));
        match self.0 {
            [soft, _, _] if is(soft) => RefKind::Soft,
            [_, weak, _] if is(weak) => RefKind::Weak,
            [_, _, phantom] if is(phantom) => RefKind::Phantom,
            _ => RefKind::Strong,
        }
    }
}

/// Soft references keep their referents unless `clear_soft`; then weak and phantom references
/// whose referents were not reached are cleared and put on the pending list.
fn process_references(cp: &mut Copier, d: &Domain, vm: &crate::vm::Vm, clear_soft: bool, mut at: usize) {
    let Some(reference) = vm.classes.find_loaded(LoaderId::BOOT, "java/lang/ref/Reference") else { return };
    let Some(referent_off) = reference.instance_field("referent").map(|f| f.offset as usize) else { return };
    let Some(discovered_off) = reference.instance_field("discovered").map(|f| f.offset as usize) else { return };
    let kinds = RefClasses::new(vm);
    let mut deferred: Vec<(ObjRef, RefKind)> = Vec::new();
    loop {
        let batch = std::mem::take(&mut cp.discovered);
        if batch.is_empty() {
            break;
        }
        for r in batch {
            let Some(referent) = from_slot(r.read::<u64>(referent_off)) else { continue };
            if let Some(n) = cp.forwardee(referent) {
                r.write::<u64>(referent_off, n.slot());
                continue;
            }
            let kind = kinds.kind(r.class());
            if kind == RefKind::Strong || (kind == RefKind::Soft && !clear_soft) {
                let n = cp.forward(referent);
                r.write::<u64>(referent_off, n.slot());
            } else {
                deferred.push((r, kind));
            }
        }
        at = cp.scan(at);
    }
    let mut pending = d.pending_refs.lock();
    for (r, _) in deferred {
        let referent = from_slot(r.read::<u64>(referent_off)).expect("deferred reference has a referent");
        if let Some(n) = cp.forwardee(referent) {
            r.write::<u64>(referent_off, n.slot());
            continue;
        }
        r.write::<u64>(referent_off, 0);
        r.write::<u64>(discovered_off, pending.map_or(0, |p| p.slot()));
        *pending = Some(r);
    }
}

/// Checks every object of the domain's heap (class words valid, every reference field null or
/// pointing at an object start) and every attached thread's frames.
pub fn verify_heap(t: &JThread) -> Result<(), String> {
    let classes = super::verify::known_classes(t);
    let ((start, top), _) = t.domain.heap.spaces();
    let wk = t.vm.wk();
    let layouts = Layouts {
        class_class: wk.class,
        mirror_slot: wk.mirror_slot as usize,
        statics_base: wk.statics_base as usize,
        reference: None,
    };
    // Object starts: a bitmap over the space (one bit per 8 bytes), plus the large objects.
    let mut bits = vec![0u64; (top - start) / 8 / 64 + 1];
    let mut large_starts = rustc_hash::FxHashSet::default();
    let large = t.domain.heap.large_objects();
    for &l in &large {
        let w = ObjRef::from_addr(l).raw_class_word();
        if !classes.contains(&w) {
            return Err(format!("large object at {l:#x} has an invalid class word {w:#x}"));
        }
        large_starts.insert(l);
    }
    let mut at = start;
    while at < top {
        let o = ObjRef::from_addr(at);
        let w = o.raw_class_word();
        if !classes.contains(&w) {
            return Err(format!("object at {at:#x} has an invalid class word {w:#x}"));
        }
        let i = (at - start) / 8;
        bits[i / 64] |= 1 << (i % 64);
        at += super::collector::object_size(&layouts, o, o.class());
    }
    let is_start = |v: usize| -> bool {
        if v >= start && v < top && v % 8 == 0 {
            let i = (v - start) / 8;
            return bits[i / 64] >> (i % 64) & 1 == 1;
        }
        large_starts.contains(&v)
    };
    let check = |v: u64, what: &dyn Fn() -> String| -> Result<(), String> {
        if v != 0 && !is_start(v as usize) {
            return Err(format!("{} = {v:#x} is not an object of the heap", what()));
        }
        Ok(())
    };
    let mut objects: Vec<usize> = large;
    let mut at = start;
    while at < top {
        objects.push(at);
        at += super::collector::object_size(&layouts, ObjRef::from_addr(at), ObjRef::from_addr(at).class());
    }
    for at in objects {
        let o = ObjRef::from_addr(at);
        let c = o.class();
        if c.is_array() {
            if c.array_elem() == BasicType::Ref {
                for i in 0..o.array_len() {
                    check(o.read::<u64>(super::layout::ARRAY_BASE + i * 8), &|| format!("{}[{i}] at {at:#x}", c.name))?;
                }
            }
        } else {
            for &off in &c.ref_offsets {
                check(o.read::<u64>(off as usize), &|| format!("{}+{off} at {at:#x}", c.name))?;
            }
        }
    }
    super::verify::verify_frames(t)
}

/// Whether a collection is needed before allocating an array of `len` elements of `elem`.
pub fn array_bytes(elem: BasicType, len: i32) -> usize {
    super::layout::ARRAY_BASE + (len.max(0) as usize) * elem.size()
}
