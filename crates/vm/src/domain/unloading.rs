//! Unloading the classes of ended domains: once a domain has ended, the classes only it could
//! reach (`crate::class::unload` says which) are taken out of the class table and of every
//! cache that remembers classes, then freed after a grace period.
//!
//! The grace period: a thread of another domain may be in the middle of reading an inline
//! cache entry it loaded just before the entry was taken out (a lookup compares the entry's
//! class with its receiver's and never matches an unloaded class, but it does read the entry).
//! Threads read such entries only while running, never across a safepoint; so once every live
//! domain has been stopped once (`Safepoint::with_stopped`) after the forgetting, no thread
//! holds anything it read before, and the classes and entries are freed. A domain that does
//! not stop in time (a thread long in a system call outside `blocking`) is tried again later;
//! the classes wait meanwhile.
//!
//! Runs on a thread of its own (`jxvm-unloader`, started when the first domain ends), so that
//! whoever buries a domain (maybe a caller returning from a portal call) does not wait, and so
//! that it is attached to no domain it stops. Owns the order of unloading; what each cache
//! forgets is its owner's (`interp::forget_classes`, `invoke::varhandle`, `stub`, `portal`).

use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use rustc_hash::FxHashSet;

use crate::class::unload::Unloaded;
use crate::class::{Class, DomainId, Method, Unit};
use crate::code::icache::Retired;
use crate::vm::Vm;

/// Work for the unloader, with a condvar to wait for some.
static QUEUE: Mutex<Option<Work>> = Mutex::new(None);
static QUEUED: Condvar = Condvar::new();
/// Whether the unloader is working on a batch it took from the queue, and the condvar it
/// signals when it has finished one.
static BUSY: Mutex<bool> = Mutex::new(false);
static DONE: Condvar = Condvar::new();

/// Waits (up to `timeout`) until the unloader has no work queued or under way: the ids of
/// classes found unreachable before the call are free again. For a definition that found no
/// ids left after a collection.
pub fn wait_until_idle(timeout: Duration) {
    let deadline = std::time::Instant::now() + timeout;
    let mut busy = BUSY.lock();
    loop {
        let queued = QUEUE.lock().as_ref().is_some_and(|w| !w.is_empty());
        if !queued && !*busy {
            return;
        }
        if DONE.wait_until(&mut busy, deadline).timed_out() {
            return;
        }
    }
}

#[derive(Default)]
struct Work {
    /// Ended domains whose classes are still to be unloaded.
    ended: Vec<DomainId>,
    /// Units (user-defined loaders, non-strong hidden classes) a living domain's collection
    /// found unreachable.
    dead_units: FxHashSet<Unit>,
    /// Memory was freed that should go back to the kernel.
    trim: bool,
}

impl Work {
    fn is_empty(&self) -> bool {
        self.ended.is_empty() && self.dead_units.is_empty() && !self.trim
    }
}

/// How long a live domain may take to stop for the grace period before it is tried again.
const PATIENCE: Duration = Duration::from_secs(1);
/// Domains that end close together are unloaded together (one grace period for all).
const GATHER: Duration = Duration::from_millis(20);

/// Domain `id` has ended (its heap is gone, no thread of it runs again): its classes are
/// unloaded in the background.
pub fn domain_ended(vm: &'static Vm, id: DomainId) {
    queue(vm, |w| w.ended.push(id));
}

/// A full collection found units `dead` (user-defined loaders, non-strong hidden classes) of
/// a living domain unreachable (and cleared what the domain held of them): their classes are
/// unloaded in the background.
pub fn units_died(vm: &'static Vm, dead: FxHashSet<Unit>) {
    queue(vm, |w| w.dead_units.extend(dead));
}

/// An ended domain's last tables were freed (its `Domain` dropped, maybe after it was
/// buried): the unloader, if running, gives the freed memory back to the kernel.
pub fn domain_dropped() {
    QUEUE.lock().get_or_insert_with(Work::default).trim = true;
    QUEUED.notify_one();
}

/// Adds work for the unloader (started the first time).
fn queue(vm: &'static Vm, add: impl FnOnce(&mut Work)) {
    static UNLOADER: std::sync::Once = std::sync::Once::new();
    add(QUEUE.lock().get_or_insert_with(Work::default));
    QUEUED.notify_one();
    UNLOADER.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("jxvm-unloader".into())
            .spawn(move || unload_forever(vm));
    });
}

fn unload_forever(vm: &'static Vm) {
    loop {
        {
            let mut q = QUEUE.lock();
            while q.as_ref().is_none_or(Work::is_empty) {
                QUEUED.wait(&mut q);
            }
        }
        std::thread::sleep(GATHER);
        // Taken under BUSY, so a waiter never sees the work neither queued nor under way.
        let work = {
            let mut busy = BUSY.lock();
            *busy = true;
            QUEUE.lock().take().unwrap_or_default()
        };
        let batch = forget(vm, &work);
        if !batch.gone.is_empty() {
            wait_for_grace_period(vm, &batch.gone);
            batch.free(vm);
        }
        // Their classes' metadata went back to their budgets as it was freed.
        for &id in &work.ended {
            vm.classes.metadata.close(id);
        }
        // What the ended domains' threads allocated (their tables, metadata) was freed into
        // their threads' arenas, which later threads may never use again.
        port::give_back_free_memory();
        *BUSY.lock() = false;
        DONE.notify_all();
    }
}

/// What a batch of ended domains leaves to free after the grace period.
struct Batch {
    gone: Unloaded,
    entries: Retired<Class, Method>,
}

impl Batch {
    #[allow(unsafe_code)]
    fn free(self, vm: &Vm) {
        drop(self.entries);
        // SAFETY: the classes are out of the class table (`unload_domain`) and of every cache
        // that remembered them (`forget`), their domains' heaps are gone (they ended), and
        // every thread that could have read a table or cache entry before it went has since
        // stopped at a safepoint (`wait_for_grace_period`), which also cleared every live
        // domain's class states under their ids. `unload_domain` hands out each class once.
        unsafe { self.gone.free(&vm.classes) };
    }
}

/// Takes the classes of the ended domains and dead loaders out of the class table and every
/// cache.
fn forget(vm: &'static Vm, work: &Work) -> Batch {
    let mut gone = Unloaded::default();
    for &id in &work.ended {
        gone.merge(vm.classes.unload_domain(id));
    }
    if !work.dead_units.is_empty() {
        gone.merge(vm.classes.unload_units(&work.dead_units));
    }
    let entries = if gone.is_empty() {
        Retired::default()
    } else {
        crate::invoke::varhandle::forget_classes(&gone);
        super::stub::forget_classes(&gone);
        super::portal::forget_classes(&gone);
        crate::interp::forget_classes(&vm.classes, &gone)
    };
    if vm.opts.class_unload_log && !gone.is_empty() {
        log(vm, work, &gone);
    }
    Batch { gone, entries }
}

/// Returns once every live domain has stopped at a safepoint once; while stopped, each forgets
/// its states of the classes `gone` (their ids are about to be reused).
#[allow(unsafe_code)]
fn wait_for_grace_period(vm: &'static Vm, gone: &Unloaded) {
    let mut pending = vm.domains.live_domains();
    while !pending.is_empty() {
        pending.retain(|d| {
            let forget = |_: &[&crate::thread::JThread]| {
                for c in gone.classes() {
                    // SAFETY: the domain is stopped, and nothing reaches the class any more
                    // (it is out of the class table and every cache), so no thread holds or
                    // will take a reference to its resolved constants.
                    unsafe { d.forget_class(c.id) };
                }
            };
            d.safepoint.with_stopped(PATIENCE, forget).is_none()
        });
        if !pending.is_empty() {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// `-Xlog:class+unload`: one line per unloaded class, as HotSpot writes them.
fn log(vm: &'static Vm, work: &Work, gone: &Unloaded) {
    let up = vm.started().elapsed().as_secs_f64();
    for c in gone.classes() {
        println!(
            "[{up:.3}s][info][class,unload] unloading class {} {:#018x}",
            c.java_name(),
            c as *const Class as usize
        );
    }
    println!(
        "[{up:.3}s][info][class,unload] {} classes unloaded (ended domains {:?}, {} unreachable loaders or hidden classes)",
        gone.len(),
        work.ended,
        work.dead_units.len()
    );
}
