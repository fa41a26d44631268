//! Thread dumps on SIGQUIT (`kill -3`), in HotSpot's format: every Java thread of every
//! domain with its name, id, daemon flag, priority, `java.lang.Thread.State` and Java stack.
//!
//! As in HotSpot, a signal handler only wakes the "Signal Dispatcher" thread (here by writing
//! the signal's number to a pipe, which is async-signal-safe), and that thread does the work:
//! a dump for SIGQUIT, and for the signals Java code handles (`jdk.internal.misc.Signal`, see
//! `super::signal`) a Java call in the launcher's domain. The VM blocks
//! SIGQUIT in the thread that creates it, so every thread the VM starts afterwards inherits
//! the mask and is never interrupted by it; the dispatcher unblocks it for itself, and threads
//! the embedder made before the VM (the launcher's first thread) take it through the handler.
//! The dispatcher is a detached OS thread that is not attached to any domain: it neither keeps
//! the process alive nor delays its exit.
//!
//! A dump stops each domain's threads in turn (`Safepoint::with_stopped`), reads their frames
//! and Thread objects while nothing can change or move them, formats the text, resumes them,
//! and only then writes it to stdout (so a slow reader of stdout never keeps a domain stopped).

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Once;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use super::{FrameRec, JThread};
use crate::domain::Domain;
use crate::heap::{ObjRef, from_slot};
use crate::jdk::{self, JdkClass};
use crate::native::misc::java_version;
use crate::vm::Vm;
use port::held::Owner;
use port::os;

/// How long a dump waits for a domain's threads to reach a safepoint before it gives up on
/// that domain (and lets the threads that did stop run on).
const PATIENCE: Duration = Duration::from_secs(5);

/// The VMs of this process (dumped in creation order).
static VMS: parking_lot::Mutex<Vec<&'static Vm>> = parking_lot::const_mutex(Vec::new());
/// Write end of the pipe the signal handler wakes the dispatcher through (-1: none).
static WAKE_FD: AtomicI32 = AtomicI32::new(-1);
/// The dispatcher's OS thread id and pthread handle, for its own line in the dump.
static DISPATCHER_NID: AtomicI64 = AtomicI64::new(0);
static DISPATCHER_TID: AtomicU64 = AtomicU64::new(0);

/// Makes `vm` part of the thread dumps SIGQUIT prints; the first call (at VM creation, before
/// the VM starts any thread) blocks SIGQUIT in the calling thread, starts the Signal
/// Dispatcher and installs the handler. If any of that fails, SIGQUIT keeps its default action.
/// A fork server's VM (`Options::fork_server`) gets the pipe and the handlers but no
/// dispatcher: each forked child starts its own with [`start_in_child`].
pub fn install(vm: &'static Vm) {
    VMS.lock().push(vm);
    static START: Once = Once::new();
    START.call_once(|| start_dispatcher(!vm.opts.fork_server));
}

fn start_dispatcher(run: bool) {
    let Ok((read_end, write_end)) = os::signal_pipe(Owner::SYSTEM) else {
        return;
    };
    os::block_signal(libc::SIGQUIT, true);
    if run && !spawn_dispatcher(read_end) {
        os::block_signal(libc::SIGQUIT, false);
        port::fs::close(Owner::SYSTEM, read_end).ok();
        port::fs::close(Owner::SYSTEM, write_end).ok();
        return;
    }
    if !run {
        HELD_READ_FD.store(read_end, Ordering::Release);
    }
    WAKE_FD.store(write_end, Ordering::Release);
    // `on_signal` only makes async-signal-safe calls. SIGQUIT can always be handled, unless
    // the VM is to use no signals of its own (-Xrs).
    let reduced = VMS.lock().iter().any(|vm| vm.opts.reduce_signal_usage);
    if !reduced {
        let _ = port::set_signal_action(libc::SIGQUIT, port::SetSignal::Call(on_signal));
    }
}

/// The read end of the pipe of a fork server's VM, whose dispatcher is not started (-1: none).
static HELD_READ_FD: AtomicI32 = AtomicI32::new(-1);

fn spawn_dispatcher(read_end: i32) -> bool {
    std::thread::Builder::new()
        .name("Signal Dispatcher".into())
        .spawn(move || dispatch(read_end))
        .is_ok()
}

/// In a child forked from a fork server's VM: a wake-up pipe of its own (the server's is
/// shared by all its children) and a Signal Dispatcher reading it. False if either could
/// not be made (the VM's signals then do nothing, as when the dispatcher cannot start).
pub fn start_in_child() -> bool {
    let Ok((read_end, write_end)) = os::signal_pipe(Owner::SYSTEM) else {
        return false;
    };
    // The handler writes to the new pipe from now on: nothing is lost before the dispatcher
    // reads it.
    let old_write = WAKE_FD.swap(write_end, Ordering::AcqRel);
    let held = HELD_READ_FD.swap(-1, Ordering::AcqRel);
    for fd in [held, old_write] {
        if fd >= 0 {
            port::fs::close(Owner::SYSTEM, fd).ok();
        }
    }
    spawn_dispatcher(read_end)
}

/// Whether the Signal Dispatcher runs (signals can be taken).
pub(super) fn dispatcher_running() -> bool {
    WAKE_FD.load(Ordering::Acquire) >= 0
}

/// The handler of every signal the VM takes: wakes the dispatcher with the signal's number
/// (write(2) is async-signal-safe; errno is kept).
pub(crate) extern "C" fn on_signal(sig: libc::c_int) {
    let fd = WAKE_FD.load(Ordering::Acquire);
    if fd < 0 {
        return;
    }
    os::write_from_signal_handler(fd, sig as u8);
}

/// Body of the Signal Dispatcher: one dump per SIGQUIT, one Java dispatch per other signal,
/// until the pipe fails.
fn dispatch(read_end: i32) {
    os::block_signal(libc::SIGQUIT, false);
    let (nid, tid) = (os::gettid(), os::pthread_self());
    DISPATCHER_NID.store(nid, Ordering::Relaxed);
    DISPATCHER_TID.store(tid, Ordering::Relaxed);
    let mut b = [0u8; 1];
    while let Ok(1) = port::fs::read_buf(read_end, &mut b) {
        let vms: Vec<&'static Vm> = VMS.lock().clone();
        if i32::from(b[0]) != libc::SIGQUIT {
            for vm in vms {
                super::signal::dispatch(vm, i32::from(b[0]));
            }
            continue;
        }
        for vm in vms {
            // A bug in the dump must cost the dump, not the VM (the safepoint resumes the
            // threads when unwinding).
            let text = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| thread_dump(vm)))
                .unwrap_or_else(|_| "jxvm: the thread dump failed\n".into());
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        }
    }
}

/// The text of a full thread dump of `vm`. Must not be called from a thread attached to one
/// of its domains (it would wait for itself to stop).
pub fn thread_dump(vm: &'static Vm) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", local_time());
    let _ = writeln!(
        out,
        "Full thread dump jxvm ({} {}):\n",
        java_version(vm),
        vm.opts.jit.mode.info()
    );
    let domains = vm.domains.live_domains();
    let mut deadlocks = Deadlocks::default();
    for domain in &domains {
        match domain.safepoint.with_stopped(PATIENCE, |threads| {
            let mut sorted = threads.to_vec();
            sorted.sort_by_key(|t| t.id);
            deadlocks.add(vm, domain, &sorted);
            domain_threads(vm, domain, &sorted)
        }) {
            Some(text) => out.push_str(&text),
            None => {
                let _ = writeln!(
                    out,
                    "jxvm: no stacks of domain \"{}\": its threads did not all reach a safepoint within {}s\n",
                    domain.name,
                    PATIENCE.as_secs()
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "\"Signal Dispatcher\" os_prio=0 tid=0x{:016x} nid=0x{:x} runnable  \n",
        DISPATCHER_TID.load(Ordering::Relaxed),
        DISPATCHER_NID.load(Ordering::Relaxed)
    );
    out.push_str(&deadlocks.text());
    out.push_str("Heap\n");
    for domain in &domains {
        let kb = |b: usize| b >> 10;
        let _ = writeln!(
            out,
            " domain \"{}\" copying heap   total {}K, used {}K, max {}K",
            domain.name,
            kb(domain.heap.committed()),
            kb(domain.heap.used()),
            kb(domain.heap.capacity())
        );
    }
    out.push('\n');
    out
}

/// The entries of a stopped domain's threads (given oldest first).
fn domain_threads(vm: &Vm, domain: &Domain, threads: &[&JThread]) -> String {
    let mut out = String::new();
    for i in 0..threads.len() {
        thread_entry(vm, domain, threads, i, &mut out);
    }
    out
}

/// The deadlocks of a dump's domains (monitors and ownable synchronizers, as HotSpot's
/// dump): HotSpot's section for each, and how many there were.
#[derive(Default)]
struct Deadlocks {
    text: String,
    count: usize,
}

impl Deadlocks {
    /// Finds the deadlocks among a stopped domain's threads (oldest first).
    fn add(&mut self, vm: &Vm, domain: &Domain, threads: &[&JThread]) {
        for cycle in super::locks::find_deadlocks(domain, threads, true) {
            self.count += 1;
            self.text
                .push_str(&deadlock_text(vm, domain, threads, &cycle));
        }
    }

    /// The sections and the count line (nothing without a deadlock).
    fn text(&self) -> String {
        match self.count {
            0 => String::new(),
            1 => format!("{}\nFound 1 deadlock.\n\n", self.text),
            n => format!("{}\nFound {n} deadlocks.\n\n", self.text),
        }
    }
}

/// The name a dump gives thread `t`.
fn thread_name(vm: &Vm, t: &JThread) -> String {
    t.thread_obj.map_or_else(
        || "<no Thread object>".into(),
        |th| ThreadFields::read(vm, th).name,
    )
}

/// One deadlock, as HotSpot's `DeadlockCycle::print_on_with`: what each thread of the chain
/// waits for and who holds it, then their stacks. A monitor whose owner's lock id no thread
/// has shows that id (HotSpot shows the unknown owner's address).
fn deadlock_text(vm: &Vm, domain: &Domain, threads: &[&JThread], cycle: &[usize]) -> String {
    use super::locks::{Owner, WaitKind, blocker};
    let mut out = String::from("\nFound one Java-level deadlock:\n=============================");
    for &i in cycle {
        let _ = write!(out, "\n\"{}\":\n", thread_name(vm, threads[i]));
        let Some(b) = blocker(domain, threads, i) else {
            continue;
        };
        let class = b.lock.class().java_name();
        match b.wait {
            WaitKind::Enter => {
                let _ = write!(
                    out,
                    "  waiting to lock monitor 0x{:016x} (object 0x{:016x}, a {class}),",
                    super::monitor::monitor_address(domain, b.lock),
                    b.lock.addr()
                );
            }
            _ => {
                let _ = write!(
                    out,
                    "  waiting for ownable synchronizer 0x{:016x}, (a {class}),",
                    b.lock.addr()
                );
            }
        }
        match b.owner {
            Owner::Thread(o) => {
                let _ = writeln!(
                    out,
                    "\n  which is held by \"{}\"",
                    thread_name(vm, threads[o])
                );
            }
            Owner::UnknownLockId(id) => {
                let _ = writeln!(out, "\n  which is held by UNKNOWN_owner_lock_id={id}");
            }
            Owner::Ended(th) => {
                let _ = writeln!(
                    out,
                    "\n  which is held by \"{}\"",
                    ThreadFields::read(vm, th).name
                );
            }
            Owner::Nobody => out.push('\n'),
        }
    }
    out.push_str("\nJava stack information for the threads listed above:\n");
    out.push_str("===================================================\n");
    for &i in cycle {
        let _ = writeln!(out, "\"{}\":", thread_name(vm, threads[i]));
        let t = threads[i];
        let status = t
            .thread_obj
            .map_or(0, |th| ThreadFields::read(vm, th).status);
        frames_text(vm, domain, threads, i, status, &mut out);
    }
    out
}

// JVMTI thread-state bits, as `threadStatus` holds them (jdk.internal.misc.VM.toThreadState).
const ALIVE: i32 = 0x0001;
const TERMINATED: i32 = 0x0002;
const RUNNABLE: i32 = 0x0004;
const WAITING_INDEFINITELY: i32 = 0x0010;
const WAITING_WITH_TIMEOUT: i32 = 0x0020;
const SLEEPING: i32 = 0x0040;
const PARKED: i32 = 0x0200;
const BLOCKED_ON_MONITOR_ENTER: i32 = 0x0400;

/// What a waiting thread waits in, from its top (native) frame, or from the status bits.
#[derive(Clone, Copy)]
enum Wait {
    Sleeping,
    Parking,
    ObjectMonitor,
}

impl Wait {
    fn of(status: i32, top: Option<&FrameRec>) -> Wait {
        let top = top
            .filter(|f| f.pc == u32::MAX)
            .map(|f| (&*f.method.class.name, &*f.method.name));
        match top {
            Some(("java/lang/Thread", "sleep")) => Wait::Sleeping,
            Some(("jdk/internal/misc/Unsafe", "park")) => Wait::Parking,
            Some(("java/lang/Object", "wait")) => Wait::ObjectMonitor,
            _ if status & SLEEPING != 0 => Wait::Sleeping,
            _ if status & PARKED != 0 => Wait::Parking,
            _ => Wait::ObjectMonitor,
        }
    }
}

/// The Thread object's fields a dump shows.
struct ThreadFields {
    name: String,
    tid: i64,
    daemon: bool,
    priority: i32,
    status: i32,
}

impl ThreadFields {
    fn read(vm: &Vm, th: ObjRef) -> ThreadFields {
        let f = jdk::Thread::get();
        ThreadFields {
            name: th.read_ref(f.name).map_or_else(String::new, |s| {
                String::from_utf16_lossy(&crate::runtime::string_utf16(vm, s))
            }),
            tid: th.read::<i64>(f.tid),
            daemon: th.read::<u8>(f.daemon) != 0,
            priority: th.read::<i32>(f.priority),
            status: th.read::<i32>(f.thread_status),
        }
    }
}

/// One thread's entry: header, state line, frames, blank line.
fn thread_entry(vm: &Vm, domain: &Domain, threads: &[&JThread], i: usize, out: &mut String) {
    let t = threads[i];
    // The Thread object is a root of its stopped thread: nothing moves it while we look.
    let Some(fields) = t.thread_obj.map(|th| ThreadFields::read(vm, th)) else {
        let tid = t as *const JThread as usize;
        let _ = writeln!(
            out,
            "\"<no Thread object>\" os_prio=0 tid=0x{tid:016x} nid=0x{:x} runnable  \n",
            t.os_tid
        );
        return;
    };
    let status = fields.status;
    let wait = Wait::of(status, t.frames.last());
    let waits = status & (WAITING_INDEFINITELY | WAITING_WITH_TIMEOUT);
    let (state, condition) = if status & RUNNABLE != 0 {
        ("RUNNABLE", "runnable")
    } else if status & BLOCKED_ON_MONITOR_ENTER != 0 {
        ("BLOCKED (on object monitor)", "waiting for monitor entry")
    } else if waits != 0 {
        let timed = status & WAITING_INDEFINITELY == 0;
        match (wait, timed) {
            (Wait::Sleeping, _) => ("TIMED_WAITING (sleeping)", "waiting on condition"),
            (Wait::Parking, false) => ("WAITING (parking)", "waiting on condition"),
            (Wait::Parking, true) => ("TIMED_WAITING (parking)", "waiting on condition"),
            (Wait::ObjectMonitor, false) => ("WAITING (on object monitor)", "in Object.wait()"),
            (Wait::ObjectMonitor, true) => {
                ("TIMED_WAITING (on object monitor)", "in Object.wait()")
            }
        }
    } else if status & TERMINATED != 0 {
        ("TERMINATED", "zombie")
    } else if status & ALIVE == 0 {
        ("NEW", "allocated")
    } else {
        ("RUNNABLE", "runnable")
    };
    let _ = writeln!(
        out,
        "\"{}\" #{}{} prio={} os_prio=0 domain={} tid=0x{:016x} nid=0x{:x} {condition}  ",
        fields.name,
        fields.tid,
        if fields.daemon { " daemon" } else { "" },
        fields.priority,
        domain.name,
        t as *const JThread as usize,
        t.os_tid
    );
    let _ = writeln!(out, "   java.lang.Thread.State: {state}");
    frames_text(vm, domain, threads, i, status, out);
    out.push('\n');
}

/// Thread `i`'s frames, each followed by the monitors it holds, newest first ("- locked",
/// HotSpot's `javaVFrame::print_lock_info_on`), the top one first by what it waits for: the
/// object of its `Object.wait`, its park blocker, or the monitor it is blocked entering.
fn frames_text(
    vm: &Vm,
    domain: &Domain,
    threads: &[&JThread],
    i: usize,
    status: i32,
    out: &mut String,
) {
    let t = threads[i];
    let n = t.frames.len();
    for (depth, f) in t.frames.iter().rev().enumerate() {
        let _ = writeln!(out, "\tat {}", frame_text(vm, f));
        let mut monitors = super::locks::frame_monitors(t, n - 1 - depth).peekable();
        if depth == 0 {
            let blocked_on = top_frame_wait(vm, domain, threads, i, status, out);
            // The monitor it is blocked entering is its newest record, if it has one.
            if blocked_on.is_some() && monitors.peek().copied() == blocked_on {
                monitors.next();
            }
        }
        for o in monitors {
            let _ = writeln!(out, "\t- locked {}", described(vm, o));
        }
    }
}

/// The line under thread `i`'s top frame that says what it waits for; the monitor it is
/// blocked entering, if that is what.
fn top_frame_wait(
    vm: &Vm,
    domain: &Domain,
    threads: &[&JThread],
    i: usize,
    status: i32,
    out: &mut String,
) -> Option<ObjRef> {
    let t = threads[i];
    let f = t.frames.last()?;
    if status & BLOCKED_ON_MONITOR_ENTER != 0 {
        let b = super::locks::blocker(domain, threads, i)
            .filter(|b| b.wait == super::locks::WaitKind::Enter)?;
        let _ = writeln!(out, "\t- waiting to lock {}", described(vm, b.lock));
        return Some(b.lock);
    }
    let waits = status & (WAITING_INDEFINITELY | WAITING_WITH_TIMEOUT);
    let waiting = status & RUNNABLE == 0 && waits != 0;
    if f.pc != u32::MAX || !waiting {
        return None;
    }
    match Wait::of(status, Some(f)) {
        Wait::ObjectMonitor => {
            // The receiver of Object.wait, the native frame's first argument slot.
            if let Some(o) = t.stack.get(f.bp as usize).and_then(|&v| from_slot(v)) {
                let _ = writeln!(out, "\t- waiting on {}", described(vm, o));
            }
        }
        Wait::Parking => {
            let blocker = t
                .thread_obj
                .and_then(|th| th.read_ref(jdk::Thread::get().park_blocker));
            if let Some(o) = blocker {
                let _ = writeln!(out, "\t- parking to wait for  {}", described(vm, o));
            }
        }
        Wait::Sleeping => {}
    }
    None
}

/// "<0x...> (a java.lang.Object)", or for a Class object "(a java.lang.Class for Foo)", as
/// HotSpot describes a lock.
fn described(vm: &Vm, o: ObjRef) -> String {
    let class = if std::ptr::eq(o.class(), vm.wk().class) {
        let c = crate::runtime::class_of_mirror(vm, o);
        format!("java.lang.Class for {}", c.java_name())
    } else {
        o.class().java_name().to_string()
    };
    format!("<0x{:016x}> (a {class})", o.addr())
}

/// "java.lang.Thread.sleep(java.base@17.0.21.1/Native Method)", "Main.work(Main.java:12)".
fn frame_text(vm: &Vm, f: &FrameRec) -> String {
    let prefix = match &f.method.class.module {
        Some(module) if **module == *crate::api::MODULE => format!("{module}/"),
        Some(module) => format!("{module}@{}/", java_version(vm)),
        None => String::new(),
    };
    f.method.frame_text(f.bci(), &prefix)
}

/// The local date and time, as HotSpot's dump starts ("2026-11-22 18:50:01").
fn local_time() -> String {
    let Some((y, mo, d, h, mi, s)) = os::local_time() else {
        return String::new();
    };
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}")
}
