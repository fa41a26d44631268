//! Java monitors (`synchronized`, `wait`/`notify`) and identity hashes in the mark word.
//!
//! Mark word: bits 32..63 hold the identity hash (0 = not yet assigned); bit 31 belongs to the
//! collector's write barrier (see `base::layout::MARK_REMEMBERED`); bits 0..31 are the lock:
//!
//! ```text
//! 0                                   unlocked, never inflated
//! owner lock id (20 bits) << 10 | n   thin lock: held by that thread, n + 1 times
//! 1 << 30 | monitor index             inflated: the domain's monitor table entry
//! ```
//!
//! A thin lock is taken and released with one compare-and-swap on the mark word and no system
//! call; it is inflated into a [`Monitor`] (a mutex and condition variables) when another
//! thread contends for it, when its owner waits on it, or when its recursion count overflows.
//! Inflation transfers the owner and count, so the owner's later exit finds the monitor. All
//! updates are compare-and-swaps on the whole word, so they never lose a concurrent update of
//! the hash or the remembered bit, and every value is stable when a moving collector copies the
//! header. Monitors are not deflated.
//!
//! Owners are identified by small per-thread *lock ids* ([`LockId`]), not Java thread ids.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::JThread;
use crate::domain::Domain;
use crate::heap::ObjRef;

#[derive(Default)]
struct State {
    owner: u64,
    count: u32,
    /// The wait set in arrival order: (waiter ticket, notified). `notify` marks the oldest
    /// unnotified waiter, `notifyAll` every waiter; a waiter leaves when it sees its mark, its
    /// timeout or an interrupt.
    waiting: std::collections::VecDeque<(u64, bool)>,
    next_ticket: u64,
}

/// An inflated monitor.
#[derive(Default)]
pub struct Monitor {
    state: Mutex<State>,
    entry: Condvar,
    waitset: Condvar,
}

/// Why a monitor operation failed.
#[derive(Debug, PartialEq, Eq)]
pub enum MonitorError {
    NotOwner,
    Interrupted,
}

impl Monitor {
    /// Enters if the monitor is free or already owned by `me`; never blocks.
    #[inline]
    pub fn try_enter(&self, me: u64) -> bool {
        let mut s = self.state.lock();
        if s.owner == me {
            s.count += 1;
            return true;
        }
        if s.owner == 0 {
            s.owner = me;
            s.count = 1;
            return true;
        }
        false
    }

    pub fn enter(&self, me: u64) {
        let mut s = self.state.lock();
        if s.owner == me {
            s.count += 1;
            return;
        }
        while s.owner != 0 {
            self.entry.wait(&mut s);
        }
        s.owner = me;
        s.count = 1;
    }
    /// Enters like `enter`, but gives up (returning false) once `abandon()` is true, checked
    /// before each wait and whenever the waiter is woken (`wake_entrants` wakes them all after
    /// making it true).
    pub fn enter_unless(&self, me: u64, abandon: &dyn Fn() -> bool) -> bool {
        let mut s = self.state.lock();
        if s.owner == me {
            s.count += 1;
            return true;
        }
        while s.owner != 0 {
            if abandon() {
                return false;
            }
            self.entry.wait(&mut s);
        }
        s.owner = me;
        s.count = 1;
        true
    }

    /// Wakes every thread in the wait set to look at its interrupt flag (under the state lock,
    /// so none misses it); the ones not interrupted wait on.
    pub fn wake_waiters(&self) {
        let _s = self.state.lock();
        self.waitset.notify_all();
    }

    /// Wakes every thread waiting to enter (under the state lock, so none misses it).
    fn wake_entrants(&self) {
        let _s = self.state.lock();
        self.entry.notify_all();
    }

    pub fn exit(&self, me: u64) -> Result<(), MonitorError> {
        let mut s = self.state.lock();
        if s.owner != me {
            return Err(MonitorError::NotOwner);
        }
        s.count -= 1;
        if s.count == 0 {
            s.owner = 0;
            self.entry.notify_one();
        }
        Ok(())
    }
    /// Sets the owner and count of a monitor nobody else can see yet (inflation).
    fn preset(&self, owner: u64, count: u32) {
        let mut s = self.state.lock();
        s.owner = owner;
        s.count = count;
    }
    pub fn is_owner(&self, me: u64) -> bool {
        self.state.lock().owner == me
    }
    /// The lock id of the owner (0: none).
    fn owner(&self) -> u64 {
        self.state.lock().owner
    }
    /// `Object.wait(timeout)`; `interrupted` is polled while waiting.
    pub fn wait(
        &self,
        me: u64,
        timeout: Option<Duration>,
        interrupted: &dyn Fn() -> bool,
    ) -> Result<(), MonitorError> {
        let mut s = self.state.lock();
        if s.owner != me {
            return Err(MonitorError::NotOwner);
        }
        let count = s.count;
        s.owner = 0;
        s.count = 0;
        self.entry.notify_one();
        let ticket = s.next_ticket;
        s.next_ticket += 1;
        s.waiting.push_back((ticket, false));
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut result = Ok(());
        loop {
            let at = s
                .waiting
                .iter()
                .position(|w| w.0 == ticket)
                .expect("a waiter stays in the wait set until it leaves");
            let notified = s.waiting[at].1;
            let timed_out = deadline.is_some_and(|d| Instant::now() >= d);
            // A notified thread returns normally even if also interrupted or timed out, so that
            // no notification is lost (JLS 17.2.4); its interrupt stays pending.
            if notified || timed_out || interrupted() {
                s.waiting.remove(at);
                if !notified && !timed_out {
                    result = Err(MonitorError::Interrupted);
                }
                break;
            }
            // Interrupts are polled: wake at least this often to look.
            let slice = Duration::from_millis(50);
            let wait = deadline.map_or(slice, |d| {
                d.saturating_duration_since(Instant::now()).min(slice)
            });
            self.waitset.wait_for(&mut s, wait);
        }
        while s.owner != 0 {
            self.entry.wait(&mut s);
        }
        s.owner = me;
        s.count = count;
        result
    }
    pub fn notify(&self, me: u64, all: bool) -> Result<(), MonitorError> {
        let mut s = self.state.lock();
        if s.owner != me {
            return Err(MonitorError::NotOwner);
        }
        let mut woke = false;
        for w in s.waiting.iter_mut().filter(|w| !w.1) {
            w.1 = true;
            woke = true;
            if !all {
                break;
            }
        }
        if woke {
            self.waitset.notify_all();
        }
        Ok(())
    }
}

/// The lock bits of the mark word (below the remembered bit).
const LOCK_BITS: u64 = base::layout::MARK_MONITOR;
const INFLATED: u64 = 1 << 30;
const MONITOR_INDEX: u64 = INFLATED - 1;
const OWNER_SHIFT: u32 = 10;
/// The recursion count of a thin lock (number of re-entries).
const RECURSION: u64 = (1 << OWNER_SHIFT) - 1;

/// The largest lock id: lock ids fill the 20 bits above the recursion count.
pub const MAX_LOCK_ID: u32 = (1 << 20) - 1;

/// A thread's lock id, unique among live threads, returned to the pool when dropped.
pub struct LockId(pub u32);

static LOCK_IDS: Mutex<(u32, Vec<u32>)> = Mutex::new((0, Vec::new()));

impl LockId {
    pub fn new() -> LockId {
        let mut ids = LOCK_IDS.lock();
        if let Some(id) = ids.1.pop() {
            return LockId(id);
        }
        ids.0 += 1;
        assert!(ids.0 <= MAX_LOCK_ID, "more than {MAX_LOCK_ID} live threads");
        LockId(ids.0)
    }
}

impl Default for LockId {
    fn default() -> Self {
        LockId::new()
    }
}

impl Drop for LockId {
    fn drop(&mut self) {
        LOCK_IDS.lock().1.push(self.0);
    }
}

/// What a thin-lock operation on the mark word found.
#[derive(Debug, PartialEq, Eq)]
enum Thin {
    Done,
    /// The lock is inflated: the monitor's index.
    Inflated(u32),
    /// Held by another thread, or the recursion count is full: inflate.
    Contended,
    NotOwner,
}

fn inflated_index(low: u64) -> Option<u32> {
    (low & INFLATED != 0).then_some((low & MONITOR_INDEX) as u32)
}

fn thin_owner(low: u64) -> u32 {
    (low >> OWNER_SHIFT) as u32
}

/// Takes a thin lock for `me` (or re-enters it).
fn thin_enter(mark: &AtomicU64, me: u32) -> Thin {
    let mut m = mark.load(Ordering::Relaxed);
    loop {
        let low = m & LOCK_BITS;
        let new = if low == 0 {
            m | (me as u64) << OWNER_SHIFT
        } else if let Some(idx) = inflated_index(low) {
            return Thin::Inflated(idx);
        } else if thin_owner(low) == me && low & RECURSION != RECURSION {
            m + 1
        } else {
            return Thin::Contended;
        };
        match mark.compare_exchange_weak(m, new, Ordering::Acquire, Ordering::Relaxed) {
            Ok(_) => return Thin::Done,
            Err(cur) => m = cur,
        }
    }
}

/// Releases (one level of) a thin lock held by `me`.
fn thin_exit(mark: &AtomicU64, me: u32) -> Thin {
    let mut m = mark.load(Ordering::Relaxed);
    loop {
        let low = m & LOCK_BITS;
        if let Some(idx) = inflated_index(low) {
            return Thin::Inflated(idx);
        }
        if low == 0 || thin_owner(low) != me {
            return Thin::NotOwner;
        }
        let new = if low & RECURSION == 0 {
            m & !LOCK_BITS
        } else {
            m - 1
        };
        match mark.compare_exchange_weak(m, new, Ordering::Release, Ordering::Relaxed) {
            Ok(_) => return Thin::Done,
            Err(cur) => m = cur,
        }
    }
}

/// Enters `obj`'s monitor for the thread with lock id `me` if that needs no waiting; otherwise
/// returns the (inflated) monitor to block on with [`Monitor::enter`].
#[inline]
pub fn try_lock(domain: &Domain, obj: ObjRef, me: u32) -> Option<Arc<Monitor>> {
    let mon = match thin_enter(obj.mark(), me) {
        Thin::Done => return None,
        Thin::Inflated(idx) => monitor_at(domain, obj, idx),
        _ => inflate(domain, obj),
    };
    if mon.try_enter(me as u64) {
        None
    } else {
        Some(mon)
    }
}

/// Exits `obj`'s monitor once.
#[inline]
pub fn unlock(domain: &Domain, obj: ObjRef, me: u32) -> Result<(), MonitorError> {
    match thin_exit(obj.mark(), me) {
        Thin::Done => Ok(()),
        Thin::Inflated(idx) => monitor_at(domain, obj, idx).exit(me as u64),
        _ => Err(MonitorError::NotOwner),
    }
}

/// Whether the thread with lock id `me` holds `obj`'s monitor (Thread.holdsLock).
pub fn holds_lock(domain: &Domain, obj: ObjRef, me: u32) -> bool {
    let low = obj.mark().load(Ordering::Acquire) & LOCK_BITS;
    match inflated_index(low) {
        Some(idx) => monitor_at(domain, obj, idx).is_owner(me as u64),
        None => low != 0 && thin_owner(low) == me,
    }
}

/// The lock id of the thread holding `obj`'s monitor (None if nobody holds it).
pub fn owner_of(domain: &Domain, obj: ObjRef) -> Option<u32> {
    let low = obj.mark().load(Ordering::Acquire) & LOCK_BITS;
    let id = match inflated_index(low) {
        Some(idx) => monitor_at(domain, obj, idx).owner() as u32,
        None => thin_owner(low),
    };
    (id != 0).then_some(id)
}

/// The address of `obj`'s inflated monitor (0 for a thin lock), as thread dumps show it.
pub fn monitor_address(domain: &Domain, obj: ObjRef) -> usize {
    match inflated_index(obj.mark().load(Ordering::Acquire) & LOCK_BITS) {
        Some(idx) => Arc::as_ptr(&monitor_at(domain, obj, idx)) as usize,
        None => 0,
    }
}

/// Waits to enter `obj`'s monitor `mon`, which another thread holds ([`try_lock`] said so),
/// as a blocking operation; meanwhile `obj` is the thread's pending monitor (kept in a handle,
/// where the collector updates it), which deadlock detection, `ThreadInfo` and thread dumps
/// report (`super::locks`); it counts as the thread's being blocked (`super::contention`).
/// False if the domain was terminated meanwhile (the owner may never
/// release it).
pub fn enter_blocked(t: &mut JThread, obj: ObjRef, mon: &Monitor) -> bool {
    let me = t.lock_id.0 as u64;
    let h = t.handle(obj);
    t.pending_monitor = Some(h);
    let domain = t.domain.clone();
    let entered = t.blocking_counted(super::contention::Kind::Blocked, || {
        mon.enter_unless(me, &|| domain.safepoint.is_killed())
    });
    t.pending_monitor = None;
    t.handles.truncate(h);
    entered
}

/// Object.notify/notifyAll: nobody waits on a thin lock, so its owner's notify is a no-op.
pub fn notify(domain: &Domain, obj: ObjRef, me: u32, all: bool) -> Result<(), MonitorError> {
    let low = obj.mark().load(Ordering::Acquire) & LOCK_BITS;
    match inflated_index(low) {
        Some(idx) => monitor_at(domain, obj, idx).notify(me as u64, all),
        None if low != 0 && thin_owner(low) == me => Ok(()),
        None => Err(MonitorError::NotOwner),
    }
}

/// The monitor of `obj`, inflating its lock if needed (for `wait`, which needs a wait set).
pub fn monitor_of(domain: &Domain, obj: ObjRef) -> Arc<Monitor> {
    match inflated_index(obj.mark().load(Ordering::Acquire) & LOCK_BITS) {
        Some(idx) => monitor_at(domain, obj, idx),
        None => inflate(domain, obj),
    }
}

fn monitor_at(domain: &Domain, obj: ObjRef, idx: u32) -> Arc<Monitor> {
    match domain.monitors.get(idx) {
        Some(mon) => mon.clone(),
        // Published before the mark word names it, so only a bug gets here.
        None => panic!(
            "{:#x}'s mark word names monitor {idx}, which does not exist",
            obj.addr()
        ),
    }
}

/// Wakes the threads waiting to enter any monitor of `domain`, for them to re-check whether
/// to give up (`Monitor::enter_unless`: the domain was terminated).
pub fn wake_entrants(domain: &Domain) {
    let count = domain.monitor_count.lock();
    for idx in 1..=*count {
        if let Some(m) = domain.monitors.get(idx) {
            m.wake_entrants();
        }
    }
}

/// Replaces `obj`'s lock bits with a new monitor that takes over a thin lock's owner and count.
#[cold]
fn inflate(domain: &Domain, obj: ObjRef) -> Arc<Monitor> {
    let mark = obj.mark();
    // Inflations of a domain are serialized, so nobody else inflates `obj` meanwhile.
    let mut count = domain.monitor_count.lock();
    if let Some(idx) = inflated_index(mark.load(Ordering::Acquire) & LOCK_BITS) {
        return monitor_at(domain, obj, idx);
    }
    *count += 1;
    let idx = *count;
    assert!((idx as u64) < INFLATED, "monitor table full");
    let mon = domain
        .monitors
        .get_or_init(idx, || Arc::new(Monitor::default()))
        .clone();
    let mut m = mark.load(Ordering::Acquire);
    loop {
        let low = m & LOCK_BITS;
        let owner = thin_owner(low) as u64;
        let held = if low == 0 {
            0
        } else {
            (low & RECURSION) as u32 + 1
        };
        mon.preset(owner, held);
        match mark.compare_exchange(
            m,
            (m & !LOCK_BITS) | INFLATED | idx as u64,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => return mon,
            Err(cur) => m = cur,
        }
    }
}

/// An enum constant's identity hash: the same in every domain (from its enum's name and its
/// ordinal), so that a hash table keyed by enum constants, copied across a portal (where each
/// constant stands for the target domain's own), still finds them.
fn enum_constant_hash(obj: ObjRef) -> Option<u32> {
    let e = obj.class().enum_type()?;
    use crate::jdk::JdkClass;
    let ordinal = obj.read::<i32>(crate::jdk::Enum::get().ordinal);
    let mut h = rustc_hash::FxHasher::default();
    std::hash::Hash::hash(&*e.name, &mut h);
    std::hash::Hash::hash(&ordinal, &mut h);
    let h = std::hash::Hasher::finish(&h);
    Some(((h ^ (h >> 32)) as u32 & 0x7FFF_FFFF).max(1))
}

/// A `Class` object's identity hash: the same in every domain and every jxvm process (from
/// the class's name), so that a hash table keyed by classes, copied across a portal or a
/// channel between processes (where each Class object stands for the receiver's own), still
/// finds them.
fn mirror_hash(vm: &crate::vm::Vm, obj: ObjRef) -> Option<u32> {
    if !std::ptr::eq(obj.class(), vm.wk().class) {
        return None;
    }
    let c = crate::runtime::class_of_mirror(vm, obj);
    let mut h = rustc_hash::FxHasher::default();
    std::hash::Hash::hash("java/lang/Class", &mut h);
    std::hash::Hash::hash(&*c.name, &mut h);
    let h = std::hash::Hasher::finish(&h);
    Some(((h ^ (h >> 32)) as u32 & 0x7FFF_FFFF).max(1))
}

/// The identity hash of `obj`, assigned on first request.
pub fn identity_hash(vm: &crate::vm::Vm, domain: &Domain, obj: ObjRef) -> i32 {
    let mark = obj.mark();
    let m = mark.load(Ordering::Acquire);
    if m >> 32 != 0 {
        return (m >> 32) as i32;
    }
    let h = enum_constant_hash(obj)
        .or_else(|| mirror_hash(vm, obj))
        .unwrap_or_else(|| domain.new_identity_hash()) as u64;
    let mut cur = m;
    loop {
        if cur >> 32 != 0 {
            return (cur >> 32) as i32;
        }
        match mark.compare_exchange(
            cur,
            (cur & 0xFFFF_FFFF) | (h << 32),
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => return h as i32,
            Err(c) => cur = c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_excludes_under_contention() {
        let m = Arc::new(Monitor::default());
        let counter = Arc::new(AtomicU64::new(0));
        let hs: Vec<_> = (1..=4u64)
            .map(|id| {
                let (m, c) = (m.clone(), counter.clone());
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        m.enter(id);
                        m.enter(id);
                        let v = c.load(Ordering::Relaxed);
                        c.store(v + 1, Ordering::Relaxed);
                        m.exit(id).unwrap();
                        m.exit(id).unwrap();
                    }
                })
            })
            .collect();
        for h in hs {
            h.join().unwrap();
        }
        assert_eq!(counter.load(Ordering::Relaxed), 80_000);
        assert_eq!(m.exit(1), Err(MonitorError::NotOwner));
    }

    #[test]
    fn thin_locks_nest_release_and_keep_the_other_mark_bits() {
        let hash_and_remembered = 0xABCD_0000_0000_0000 | base::layout::MARK_REMEMBERED;
        let mark = AtomicU64::new(hash_and_remembered);
        assert_eq!(thin_enter(&mark, 7), Thin::Done);
        assert_eq!(thin_enter(&mark, 7), Thin::Done);
        assert_eq!(thin_enter(&mark, 8), Thin::Contended);
        assert_eq!(thin_exit(&mark, 8), Thin::NotOwner);
        assert_eq!(thin_exit(&mark, 7), Thin::Done);
        assert_eq!(thin_exit(&mark, 7), Thin::Done);
        assert_eq!(mark.load(Ordering::Relaxed), hash_and_remembered);
        assert_eq!(thin_exit(&mark, 7), Thin::NotOwner);
    }

    #[test]
    fn a_full_recursion_count_asks_for_inflation() {
        let mark = AtomicU64::new(0);
        for _ in 0..=RECURSION {
            assert_eq!(thin_enter(&mark, MAX_LOCK_ID), Thin::Done);
        }
        assert_eq!(thin_enter(&mark, MAX_LOCK_ID), Thin::Contended);
        assert_eq!(
            thin_owner(mark.load(Ordering::Relaxed) & LOCK_BITS),
            MAX_LOCK_ID
        );
    }

    #[test]
    fn inflated_words_are_reported_not_changed() {
        let mark = AtomicU64::new(INFLATED | 5);
        assert_eq!(thin_enter(&mark, 1), Thin::Inflated(5));
        assert_eq!(thin_exit(&mark, 1), Thin::Inflated(5));
        assert_eq!(mark.load(Ordering::Relaxed), INFLATED | 5);
    }

    #[test]
    fn lock_ids_are_unique_among_live_threads_and_reused() {
        let a = LockId::new();
        let b = LockId::new();
        assert_ne!(a.0, b.0);
        assert!(a.0 >= 1 && b.0 <= MAX_LOCK_ID);
        let freed = a.0;
        drop(a);
        let c = LockId::new();
        assert_eq!(c.0, freed);
    }

    #[test]
    fn notify_wakes_one_waiter_and_notify_all_the_rest() {
        let m = Arc::new(Monitor::default());
        let woken = Arc::new(AtomicU64::new(0));
        let hs: Vec<_> = (1..=3u64)
            .map(|id| {
                let (m, w) = (m.clone(), woken.clone());
                std::thread::spawn(move || {
                    m.enter(id);
                    m.wait(id, Some(Duration::from_secs(20)), &|| false)
                        .unwrap();
                    w.fetch_add(1, Ordering::SeqCst);
                    m.exit(id).unwrap();
                })
            })
            .collect();
        let waiting = || m.state.lock().waiting.len();
        let deadline = Instant::now() + Duration::from_secs(10);
        while waiting() < 3 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        m.enter(9);
        m.notify(9, false).unwrap();
        m.exit(9).unwrap();
        while woken.load(Ordering::SeqCst) < 1 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!((woken.load(Ordering::SeqCst), waiting()), (1, 2));
        m.enter(9);
        m.notify(9, true).unwrap();
        m.exit(9).unwrap();
        for h in hs {
            h.join().unwrap();
        }
        assert_eq!(woken.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_timed_wait_returns_after_its_timeout_owning_the_monitor() {
        let m = Monitor::default();
        m.enter(1);
        let start = Instant::now();
        m.wait(1, Some(Duration::from_millis(30)), &|| false)
            .unwrap();
        assert!(start.elapsed() >= Duration::from_millis(30));
        assert!(m.is_owner(1));
        assert_eq!(m.wait(2, None, &|| false), Err(MonitorError::NotOwner));
        assert_eq!(m.wait(1, None, &|| true), Err(MonitorError::Interrupted));
        assert!(m.is_owner(1));
    }
}
