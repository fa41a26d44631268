//! Natives of java.lang.Thread: the current thread, starting threads on new OS threads,
//! sleeping, interrupts, status, and the registry of a domain's live threads.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::{Registry, nonnull, ret_bool};
use crate::domain::ThreadHandle;
use crate::heap::ObjRef;
use crate::jdk::{self, JdkClass};
use crate::thread::{JResult, JThread};

/// java.lang.Thread.State encodings used by `threadStatus` (JVMTI bits, as HotSpot).
#[allow(dead_code)] // the encodings, whole; a thread is never read as NEW
pub const NEW: i32 = 0;
pub const RUNNABLE: i32 = 0x0005;
/// Alive, waiting in Object.wait (JVMTI_THREAD_STATE_IN_OBJECT_WAIT), without or with a timeout.
pub const WAITING: i32 = 0x0191;
pub const TIMED_WAITING: i32 = 0x01a1;
/// Alive, parked (JVMTI_THREAD_STATE_PARKED), without or with a timeout.
pub const PARKED: i32 = 0x0291;
pub const PARKED_TIMED: i32 = 0x02a1;
/// Alive, in Thread.sleep (JVMTI_THREAD_STATE_SLEEPING, with a timeout).
pub const SLEEPING: i32 = 0x00e1;
pub const TERMINATED: i32 = 0x0002;
/// Alive and blocked entering a monitor (JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER).
pub const BLOCKED: i32 = 0x0401;

pub fn register(r: &mut Registry) {
    let th = "java/lang/Thread";
    r.add(th, "currentThread", "()Ljava/lang/Thread;", |t, _| {
        Ok(super::ret_obj(t.thread_obj))
    });
    r.add(th, "start0", "()V", start0);
    r.add(th, "holdsLock", "(Ljava/lang/Object;)Z", |t, a| {
        let o = nonnull(t, a[0])?;
        Ok(ret_bool(crate::thread::monitor::holds_lock(
            &t.domain,
            o,
            t.lock_id.0,
        )))
    });
    r.add(th, "setPriority0", "(I)V", |_, _| Ok(0));
    r.add(th, "yield", "()V", |_, _| {
        std::thread::yield_now();
        Ok(0)
    });
    r.add(th, "sleep", "(J)V", sleep);
    r.add(th, "interrupt0", "()V", interrupt0);
    r.add(th, "setNativeName", "(Ljava/lang/String;)V", |_, _| Ok(0));
    // Thread.interrupted() cleared the Java field; the VM's copy of the flag follows it.
    r.add(th, "clearInterruptEvent", "()V", |t, _| {
        t.interrupted.store(false, Ordering::SeqCst);
        Ok(0)
    });
    r.add(th, "getStackTrace0", "()Ljava/lang/Object;", |_, _| Ok(0));
    r.add(th, "getThreads", "()[Ljava/lang/Thread;", get_threads);
    r.add(
        th,
        "dumpThreads",
        "([Ljava/lang/Thread;)[[Ljava/lang/StackTraceElement;",
        dump_threads,
    );
}

/// The handle of the calling thread (None before it has a Thread object).
pub fn current_handle(t: &JThread) -> Option<Arc<ThreadHandle>> {
    let th = t.thread_obj?;
    t.domain.threads.lock().get(&th.addr()).cloned()
}

/// Records `th` as the Thread object of thread `t` in its domain.
pub fn register_thread(t: &JThread, th: ObjRef) {
    let h = Arc::new(ThreadHandle::new(
        t.id,
        t.interrupted.clone(),
        t.activation.is_some(),
    ));
    if t.is_attached() {
        record_os_thread(t, &h);
    }
    t.domain.threads.lock().insert(th.addr(), h);
    if t.activation.is_none() {
        let stats = &t.domain.thread_stats;
        stats.started.fetch_add(1, Ordering::Relaxed);
        stats
            .peak
            .fetch_max(t.domain.alive_java_threads(), Ordering::Relaxed);
    }
    set_eetop(th, t.id);
    let off = jdk::Thread::get().tid;
    if th.read::<i64>(off) == 0 {
        th.write::<i64>(off, t.id as i64);
    }
}

/// Notes the OS thread `t` runs on (the calling one), for termination to cancel its blocking
/// system calls; not for portal activations (the OS thread is the caller's: see
/// `JThread::blocking`).
fn record_os_thread(t: &JThread, h: &ThreadHandle) {
    if t.activation.is_none() {
        h.set_os_thread();
    }
}

/// `eetop` is non-zero exactly while the thread is alive (Thread.isAlive reads it).
fn set_eetop(th: ObjRef, v: u64) {
    th.atomic_i64(jdk::Thread::get().eetop)
        .store(v as i64, Ordering::SeqCst);
}

pub fn set_thread_status(_t: &JThread, th: ObjRef, status: i32) {
    th.atomic_u32(jdk::Thread::get().thread_status)
        .store(status as u32, Ordering::SeqCst);
}

pub fn set_current_status(t: &JThread, status: i32) {
    if let Some(th) = t.thread_obj {
        set_thread_status(t, th, status);
    }
}

/// Clears the Java-level `interrupted` field of the current thread.
pub fn clear_interrupt_field(t: &JThread) {
    if let Some(th) = t.thread_obj {
        th.write::<u8>(jdk::Thread::get().interrupted, 0);
    }
}

fn sleep(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let ms = a[0] as i64;
    if ms < 0 {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("timeout value is negative"),
        ));
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms as u64);
    set_current_status(t, SLEEPING);
    let flag = t.interrupted.clone();
    let handle = current_handle(t);
    let interrupted = t.blocking_counted(crate::thread::contention::Kind::Waited, || {
        // On the permit's condvar, which `interrupt` notifies (the permit itself stays).
        let lock = parking_lot::Mutex::new(false);
        let cond = parking_lot::Condvar::new();
        let (lock, cond) = handle
            .as_deref()
            .map_or((&lock, &cond), |h| (&h.permit, &h.permit_cond));
        let mut guard = lock.lock();
        loop {
            if flag.swap(false, Ordering::SeqCst) {
                return true;
            }
            let now = std::time::Instant::now();
            if now >= deadline {
                return false;
            }
            cond.wait_for(&mut guard, deadline - now);
        }
    });
    if interrupted {
        clear_interrupt_field(t);
        set_current_status(t, RUNNABLE);
        return Err(t.throw_new("java/lang/InterruptedException", Some("sleep interrupted")));
    }
    set_current_status(t, RUNNABLE);
    Ok(0)
}

fn interrupt0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let th = nonnull(t, a[0])?;
    if let Some(h) = t.domain.threads.lock().get(&th.addr()) {
        h.interrupted.store(true, Ordering::SeqCst);
        h.wake();
    }
    Ok(0)
}

fn get_threads(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let addrs: Vec<usize> = t
        .domain
        .threads
        .lock()
        .iter()
        .filter(|(_, h)| h.alive.load(Ordering::SeqCst))
        .map(|(a, _)| *a)
        .collect();
    let tc = t.load_boot("java/lang/Thread")?;
    let arr = t.new_array_of(tc, addrs.len() as i32)?;
    for (i, a) in addrs.iter().enumerate() {
        t.domain
            .heap
            .write_slot(arr, base::layout::ARRAY_BASE + i * 8, *a as u64);
    }
    Ok(arr.slot())
}

fn start0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let th = nonnull(t, a[0])?;
    let domain = t.domain.clone();
    if domain.safepoint.is_killed() {
        return Err(t.die());
    }
    // Threads the class library starts while the domain boots are not counted.
    let counted = domain.system_threads.load(Ordering::Relaxed) != u32::MAX;
    if counted && !domain.budget.start_thread() {
        let msg = format!(
            "unable to create native thread: domain {} may run at most {} threads (with the domains it created; its creators' limits bind it too)",
            domain.name,
            domain.budget.tightest(|l| l.max_threads as u64)
        );
        return Err(t.throw_new("java/lang/OutOfMemoryError", Some(&msg)));
    }
    if !start_java_thread_counted(t.vm, &domain, th, counted) {
        return Err(t.throw_new("java/lang/OutOfMemoryError", Some("unable to create native thread: possibly out of memory or process/resource limits reached")));
    }
    Ok(0)
}

/// Starts Java thread `th` of `domain` on an OS thread of its own (in a domain template, only
/// registers it: see `domain::image`). False if no OS thread could be started.
pub fn start_java_thread(
    vm: &'static crate::vm::Vm,
    domain: &Arc<crate::domain::Domain>,
    th: ObjRef,
) -> bool {
    start_java_thread_counted(vm, domain, th, false)
}

/// As [`start_java_thread`]; a `counted` thread gives its place in the domain's budget back
/// when it ends (or fails to start).
fn start_java_thread_counted(
    vm: &'static crate::vm::Vm,
    domain: &Arc<crate::domain::Domain>,
    th: ObjRef,
    counted: bool,
) -> bool {
    let daemon = th.read::<u8>(jdk::Thread::get().daemon) != 0;
    let mut nt = vm.new_thread(domain.clone());
    nt.thread_obj = Some(th);
    register_thread(&nt, th);
    set_thread_status(&nt, th, RUNNABLE);
    let handle = domain.threads.lock().get(&th.addr()).cloned();
    if let Some(h) = handle.as_ref().filter(|_| counted) {
        h.counted.store(true, Ordering::Release);
    }
    if domain.template || domain.held.load(Ordering::Acquire) {
        // Started in each domain made from the template, never in the template itself; in a
        // fork server's child, not in the server.
        return true;
    }
    if !daemon {
        *domain.non_daemon.lock() += 1;
    }
    let name = format!("jxvm-{}", nt.id);
    let handle_in_thread = handle.clone();
    let spawned = std::thread::Builder::new()
        .name(name)
        .stack_size(vm.thread_stack_size())
        .spawn(move || {
            let alive = nt.attach();
            // Collections between start0 and here moved the Thread object; the domain's thread
            // table (re-keyed by every collection) knows where it is now.
            if let Some(th) = nt.domain.thread_object(nt.id).filter(|_| alive) {
                nt.thread_obj = Some(th);
                if let Some(h) = current_handle(&nt) {
                    record_os_thread(&nt, &h);
                }
                run_thread(&mut nt, th);
            }
            if let Some(h) = &handle_in_thread {
                h.end_counted(&nt.domain.budget);
            }
            if !daemon {
                nt.domain.non_daemon_finished();
            }
        });
    if spawned.is_err() {
        if let Some(h) = &handle {
            h.end_counted(&domain.budget);
        }
        if !daemon {
            domain.non_daemon_finished();
        }
    }
    spawned.is_ok()
}

/// Body of a started Java thread: `run()`, uncaught-exception dispatch, `exit()`, then wake
/// joiners.
fn run_thread(t: &mut JThread, th: ObjRef) {
    if t.call_virtual(th, "run", "()V", &[]).is_err() {
        crate::vm::dispatch_uncaught(t);
    }
    exit_thread(t);
}

/// The end of a Java thread (also of the main thread once `main` returned or threw, as in
/// HotSpot's DestroyJavaVM): `Thread.exit()`, state TERMINATED, not alive, joiners woken.
pub fn exit_thread(t: &mut JThread) {
    // The Thread object may have moved: `thread_obj` is a root the collector updates.
    let Some(th) = t.thread_obj else { return };
    if t.call_virtual(th, "exit", "()V", &[]).is_err() {
        t.exception = None;
    }
    let th = t.thread_obj.unwrap_or(th);
    set_thread_status(t, th, TERMINATED);
    if let Some(h) = t.domain.threads.lock().get(&th.addr()) {
        h.alive.store(false, Ordering::SeqCst);
        // Before joiners wake: a program that joins one thread may start the next at once.
        h.end_counted(&t.domain.budget);
    }
    set_eetop(th, 0);
    use crate::thread::monitor;
    let me = t.lock_id.0;
    let entered = match monitor::try_lock(&t.domain, th, me) {
        Some(mon) => monitor::enter_blocked(t, th, &mon),
        None => true,
    };
    if entered {
        // Moved if a collection ran while this thread waited.
        let th = t.thread_obj.unwrap_or(th);
        let _ = monitor::notify(&t.domain, th, me, true);
        let _ = monitor::unlock(&t.domain, th, me);
    }
}

/// Waits until every non-daemon thread of the domain has finished (DestroyJavaVM).
pub fn wait_for_non_daemon(t: &mut JThread) {
    let domain = t.domain.clone();
    t.blocking(|| {
        let mut n = domain.non_daemon.lock();
        while *n > 0 {
            domain.non_daemon_cond.wait(&mut n);
        }
    });
}

/// The encoded stack (`lang::encode_frame`, innermost first) of every thread of the calling
/// thread's domain, by VM thread id, read while they are stopped at a safepoint (empty if
/// some thread did not stop within 10 s).
pub(super) fn stacks_of_domain_threads(t: &mut JThread) -> rustc_hash::FxHashMap<u64, Vec<i64>> {
    let domain = t.domain.clone();
    // This thread counts as stopped while it waits for the others (it is one of them).
    t.blocking(|| {
        domain
            .safepoint
            .with_stopped(std::time::Duration::from_secs(10), |threads| {
                threads
                    .iter()
                    .map(|th| {
                        let frames = th
                            .frames
                            .iter()
                            .rev()
                            .map(|f| super::lang::encode_frame(f.method, f.bci()));
                        (th.id, frames.collect())
                    })
                    .collect()
            })
    })
    .unwrap_or_default()
}

/// Thread.dumpThreads: the stacks of the given threads (null for one that is not running),
/// read while the domain's threads are stopped at a safepoint.
fn dump_threads(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    nonnull(t, a[0])?;
    let stacks = stacks_of_domain_threads(t);
    let fields = super::lang::SteFields::of(t)?;
    let ste = t.load_boot("java/lang/StackTraceElement")?;
    let ste_array = t.array_class_of(ste)?;
    // No Java code runs from here on (VM allocations never collect): raw references are safe.
    let threads = nonnull(t, t.arg(0))?;
    let out = t.new_array_of(ste_array, threads.array_len() as i32)?;
    for i in 0..threads.array_len() {
        let at = base::layout::ARRAY_BASE + i * 8;
        let Some(th) = threads.read_ref(at) else {
            continue;
        };
        let id = th.read::<i64>(jdk::Thread::get().eetop) as u64;
        let Some(entries) = stacks.get(&id).filter(|_| id != 0) else {
            continue;
        };
        let trace = t.new_array_of(ste, entries.len() as i32)?;
        for (j, &e) in entries.iter().enumerate() {
            let el = fields.new_element(t, e)?;
            t.domain
                .heap
                .write_ref(trace, base::layout::ARRAY_BASE + j * 8, Some(el));
        }
        t.domain.heap.write_ref(out, at, Some(trace));
    }
    Ok(out.slot())
}
