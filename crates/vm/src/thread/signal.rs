//! Signals handled by Java code: `jdk.internal.misc.Signal.handle0` and the dispatch of a
//! signal to `Signal.dispatch(int)` (how `Runtime.addShutdownHook` hooks run on SIGTERM,
//! SIGINT and SIGHUP: the JDK's `Terminator` handles them with `Shutdown.exit(128 + sig)`,
//! and `sun.misc.Signal.handle` lets a program handle others).
//!
//! As in HotSpot, the host handler (`dump::on_signal`) only records the signal for the Signal
//! Dispatcher, which then calls `Signal.dispatch` on a new Java thread of the launcher's
//! domain (the domain that runs the program's main and owns the process's exit); `dispatch`
//! starts the Java handler on a thread of its own. The dispatching thread is a daemon, as
//! HotSpot's Signal Dispatcher is, so the handler threads it starts are daemons too.
//!
//! What handle0 refuses (-1, "Signal already used by VM or OS"): the signals HotSpot refuses
//! (SIGFPE, SIGILL, SIGSEGV, and SIGQUIT, which prints thread dumps), SIGBUS, the wake-up
//! signal of the port's blocked calls, any signal whose current handler is not the VM's (the
//! Rust runtime's, an embedder's), and those the host refuses (SIGKILL, SIGSTOP).

use super::dump;
use crate::vm::Vm;
use port::{SetSignal, SignalAction};

/// `Signal.handle0(sig, handler)`: makes `sig` take the default action (0), be ignored (1) or
/// be dispatched to Java (2), and returns what it did before in the same terms; -1 if the
/// signal cannot be handled. A shutdown signal the process ignores (as under `nohup`) stays
/// ignored and gives 1, as in HotSpot; under -Xrs (`reduced`) shutdown signals are refused, so
/// that a program's own native handlers keep them.
pub fn handle0(sig: i32, handler: i64, reduced: bool) -> i64 {
    let shutdown = [libc::SIGHUP, libc::SIGINT, libc::SIGTERM].contains(&sig);
    if reduced && shutdown {
        return -1;
    }
    let refused = [
        libc::SIGFPE,
        libc::SIGILL,
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGQUIT,
    ];
    if refused.contains(&sig) || port::signal_used_by_port(sig) || !dump::dispatcher_running() {
        return -1;
    }
    let ours = dump::on_signal as extern "C" fn(libc::c_int) as usize;
    let old = match port::signal_action(sig) {
        Ok(SignalAction::Default) => 0,
        Ok(SignalAction::Ignore) => 1,
        Ok(SignalAction::Handler(h)) if h == ours => 2,
        Ok(SignalAction::Handler(_)) | Err(_) => return -1,
    };
    if old == 1 && shutdown {
        return 1;
    }
    let to = match handler {
        0 => SetSignal::Default,
        1 => SetSignal::Ignore,
        2 => SetSignal::Call(dump::on_signal),
        _ => return -1,
    };
    match port::set_signal_action(sig, to) {
        Ok(()) => old,
        Err(_) => -1,
    }
}

/// Runs `Signal.dispatch(sig)` in the launcher's domain of `vm`, on a new thread (the Signal
/// Dispatcher must stay free for thread dumps, and never belongs to a domain). Nothing
/// happens before that domain has booted.
pub(super) fn dispatch(vm: &'static Vm, sig: i32) {
    let domain = vm.app_domain.clone();
    if domain.main_group.lock().is_none() || domain.safepoint.is_killed() {
        return;
    }
    let body = move || {
        let mut t = vm.new_thread(domain);
        if !t.attach() {
            t.detach();
            return;
        }
        if crate::vm::new_thread_object(&mut t, "Signal Dispatcher").is_err() {
            t.exception = None;
            return;
        }
        if let Some(th) = t.thread_obj {
            use crate::jdk::JdkClass;
            th.write::<u8>(crate::jdk::Thread::get().daemon, 1);
        }
        if t.call_static(
            "jdk/internal/misc/Signal",
            "dispatch",
            "(I)V",
            &[sig as u32 as u64],
        )
        .is_err()
        {
            t.exception = None;
        }
        crate::native::thread::exit_thread(&mut t);
    };
    // Failing to start a thread loses the signal, as a full queue would.
    let _ = std::thread::Builder::new()
        .name("Signal Dispatcher".into())
        .stack_size(vm.thread_stack_size())
        .spawn(body);
}
