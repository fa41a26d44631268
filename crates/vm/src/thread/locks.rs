//! What a stopped thread waits for and who holds it, and the cycles of such waits
//! (deadlocks), as HotSpot's `ThreadService` computes them: read by `ThreadInfo`'s lock
//! details, `ThreadMXBean.find(Monitor)DeadlockedThreads` and the SIGQUIT thread dump.
//!
//! A thread waits for a lock when it is blocked entering a monitor (its pending monitor,
//! `monitor::enter_blocked`), waits in `Object.wait` (the object waited on), or is parked
//! (its Thread's `parkBlocker`; when that is an `AbstractOwnableSynchronizer`, such as a
//! `ReentrantLock`'s, its `exclusiveOwnerThread` holds it). A monitor's owner is a lock id,
//! mapped to the stopped thread that has it; a portal activation that re-entered its
//! caller's domain shares its caller's lock id (`domain::portal`), and the thread reported is
//! the one that is itself blocked, else the domain's own thread. Every function here must
//! be given all of a domain's threads while they are stopped (`Safepoint::with_stopped`,
//! `Safepoint::with_others_stopped`), so nothing they read changes or moves meanwhile.

use super::JThread;
use super::monitor;
use crate::domain::Domain;
use crate::heap::{ObjRef, from_slot};
use crate::jdk::{self, JdkClass};

/// JVMTI thread-state bits of `threadStatus` (jdk.internal.misc.VM.toThreadState).
const IN_OBJECT_WAIT: i32 = 0x0100;
const PARKED: i32 = 0x0200;

/// How a thread waits for its lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKind {
    /// Blocked entering the lock's monitor.
    Enter,
    /// In `Object.wait` on the lock.
    ObjectWait,
    /// Parked, the lock being the park blocker.
    Park,
}

/// Who holds a lock a thread waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Nobody,
    /// The thread at this index of the threads given.
    Thread(usize),
    /// A monitor held by a lock id no thread of the domain has (its owner is gone: the
    /// waiter is blocked for ever, which HotSpot counts as a deadlock too).
    UnknownLockId(u32),
    /// A synchronizer owned by a Thread object that is none of the threads given (a thread
    /// that ended holding it).
    Ended(ObjRef),
}

/// The lock a thread waits for.
#[derive(Debug, Clone, Copy)]
pub struct Blocker {
    pub wait: WaitKind,
    pub lock: ObjRef,
    pub owner: Owner,
}

impl Owner {
    /// The owner's Thread object, if it has one.
    pub fn thread_object(self, threads: &[&JThread]) -> Option<ObjRef> {
        match self {
            Owner::Thread(i) => threads[i].thread_obj,
            Owner::Ended(th) => Some(th),
            Owner::Nobody | Owner::UnknownLockId(_) => None,
        }
    }
}

/// What thread `i` of `threads` waits for: the monitor it is blocked entering (None if that
/// monitor has no owner or the thread already holds it: it is about to run), the object of
/// its `Object.wait`, or its park blocker when parked.
pub fn blocker(domain: &Domain, threads: &[&JThread], i: usize) -> Option<Blocker> {
    if let Some(b) = pending_enter(domain, threads, i) {
        return Some(b);
    }
    let t = threads[i];
    let status = t.thread_obj?.read::<i32>(jdk::Thread::get().thread_status);
    if status & IN_OBJECT_WAIT != 0 {
        let lock = waited_object(t)?;
        let owner = monitor::owner_of(domain, lock).map_or(Owner::Nobody, |id| {
            thread_with_lock_id(threads, id).map_or(Owner::UnknownLockId(id), Owner::Thread)
        });
        return Some(Blocker {
            wait: WaitKind::ObjectWait,
            lock,
            owner,
        });
    }
    if status & PARKED != 0 {
        return parked_on(threads, i);
    }
    None
}

/// The monitor thread `i` is blocked entering, with its owner.
fn pending_enter(domain: &Domain, threads: &[&JThread], i: usize) -> Option<Blocker> {
    let t = threads[i];
    let lock = t.handle_get(t.pending_monitor?);
    let id = monitor::owner_of(domain, lock)?;
    if id == t.lock_id.0 {
        return None;
    }
    let owner = thread_with_lock_id(threads, id).map_or(Owner::UnknownLockId(id), Owner::Thread);
    Some(Blocker {
        wait: WaitKind::Enter,
        lock,
        owner,
    })
}

/// Thread `i`'s park blocker, with the owner when it is an ownable synchronizer.
fn parked_on(threads: &[&JThread], i: usize) -> Option<Blocker> {
    let th = threads[i].thread_obj?;
    let lock = th.read_ref(jdk::Thread::get().park_blocker)?;
    let owner = match synchronizer_owner(lock) {
        None => Owner::Nobody,
        Some(owner) => threads
            .iter()
            .position(|t| t.thread_obj == Some(owner))
            .map_or(Owner::Ended(owner), Owner::Thread),
    };
    Some(Blocker {
        wait: WaitKind::Park,
        lock,
        owner,
    })
}

/// The `exclusiveOwnerThread` of `o` if it is an `AbstractOwnableSynchronizer`.
pub fn synchronizer_owner(o: ObjRef) -> Option<ObjRef> {
    use jdk::AbstractOwnableSynchronizer as Aos;
    // Once resolved, a subtype check (heap walks ask this of every object).
    let f = match Aos::cell().get() {
        Some(f) if o.class().is_subtype_of(f.class()) => f,
        Some(_) => return None,
        None => Aos::of(o.class()).ok()?,
    };
    o.read_ref(f.exclusive_owner_thread)
}

/// The objects of the monitors frame `fi` of `t` (an index of its frames) entered and has
/// not exited, newest first: its lock records (`super::LockRecord`), among them the monitor
/// it is blocked entering.
pub fn frame_monitors(t: &JThread, fi: usize) -> impl Iterator<Item = ObjRef> + '_ {
    t.lock_records
        .iter()
        .rev()
        .filter(move |r| r.frame as usize == fi)
        .filter_map(|r| from_slot(r.obj))
}

/// The object of the monitor `t` is blocked entering.
pub fn pending_monitor(t: &JThread) -> Option<ObjRef> {
    t.pending_monitor.map(|h| t.handle_get(h))
}

/// The monitors `t` holds, as `ThreadInfo.getLockedMonitors` lists them (HotSpot's
/// `javaVFrame::locked_monitors`): (stack depth, object), the top frame's first and each
/// frame's newest first; a frame's newest monitors are left out while they are the one the
/// thread waits on in `Object.wait` (which released it) or is blocked entering.
pub fn locked_monitors(t: &JThread) -> Vec<(usize, ObjRef)> {
    let status = t
        .thread_obj
        .map_or(0, |th| th.read::<i32>(jdk::Thread::get().thread_status));
    let waiting = match status & IN_OBJECT_WAIT {
        0 => None,
        _ => waited_object(t),
    };
    let pending = waiting.is_none().then(|| pending_monitor(t)).flatten();
    let n = t.frames.len();
    let mut held = Vec::new();
    for fi in (0..n).rev() {
        let mut found_first = false;
        for o in frame_monitors(t, fi) {
            if !found_first && (Some(o) == waiting || Some(o) == pending) {
                continue;
            }
            found_first = true;
            held.push((n - 1 - fi, o));
        }
    }
    held
}

/// The receiver of the `Object.wait` that is `t`'s top frame.
fn waited_object(t: &JThread) -> Option<ObjRef> {
    let top = t.frames.last()?;
    let m = top.method;
    let in_wait = top.pc == u32::MAX && &*m.class.name == "java/lang/Object" && &*m.name == "wait";
    in_wait
        .then(|| t.stack.get(top.bp as usize).and_then(|&v| from_slot(v)))
        .flatten()
}

/// The thread whose lock id is `id`: of two (an activation running as the caller it re-entered
/// the domain for, see the module doc) the one blocked on a monitor, else the domain's own.
fn thread_with_lock_id(threads: &[&JThread], id: u32) -> Option<usize> {
    let with_id: Vec<usize> = (0..threads.len())
        .filter(|&i| threads[i].lock_id.0 == id)
        .collect();
    let blocked = with_id
        .iter()
        .copied()
        .find(|&i| threads[i].pending_monitor.is_some());
    let own = with_id
        .iter()
        .copied()
        .find(|&i| threads[i].activation.is_none());
    blocked.or(own).or(with_id.first().copied())
}

/// The next thread in a wait chain after thread `i`: the owner of the monitor it is blocked
/// entering, or (with `synchronizers`) of the ownable synchronizer it is parked on. HotSpot's
/// edges: a thread in `Object.wait` waits for a notification, not for a lock.
fn waits_for(
    domain: &Domain,
    threads: &[&JThread],
    i: usize,
    synchronizers: bool,
) -> Option<Owner> {
    if let Some(b) = pending_enter(domain, threads, i) {
        return Some(b.owner);
    }
    if !synchronizers {
        return None;
    }
    let th = threads[i].thread_obj?;
    let lock = th.read_ref(jdk::Thread::get().park_blocker)?;
    synchronizer_owner(lock)?;
    parked_on(threads, i).map(|b| b.owner)
}

/// The deadlocks among `threads` (HotSpot's `find_deadlocks_at_safepoint`): each a chain of
/// thread indices, each thread waiting for a lock the next holds, the last's lock held by one
/// of the chain (or by a lock id no thread has). A thread waiting for a deadlocked thread is
/// part of the chain it was found in when it comes first in `threads`' order, as in HotSpot.
/// Monitors only, unless `synchronizers`.
pub fn find_deadlocks(
    domain: &Domain,
    threads: &[&JThread],
    synchronizers: bool,
) -> Vec<Vec<usize>> {
    let mut visit = vec![None::<usize>; threads.len()];
    let mut next_visit = 0;
    let mut deadlocks = Vec::new();
    for start in 0..threads.len() {
        if visit[start].is_some() {
            continue;
        }
        let this_visit = next_visit;
        visit[start] = Some(next_visit);
        next_visit += 1;
        let mut chain = Vec::new();
        let mut current = start;
        while let Some(owner) = waits_for(domain, threads, current, synchronizers) {
            chain.push(current);
            let next = match owner {
                Owner::Thread(next) => next,
                Owner::UnknownLockId(_) => {
                    deadlocks.push(std::mem::take(&mut chain));
                    break;
                }
                Owner::Nobody | Owner::Ended(_) => break,
            };
            match visit[next] {
                None => {
                    visit[next] = Some(next_visit);
                    next_visit += 1;
                }
                // Visited from an earlier start: not a new cycle.
                Some(v) if v < this_visit => break,
                // A thread waiting for itself: not a deadlock.
                Some(_) if next == current => break,
                Some(_) => {
                    deadlocks.push(std::mem::take(&mut chain));
                    break;
                }
            }
            current = next;
        }
    }
    deadlocks
}
