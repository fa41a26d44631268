//! Java monitors (`synchronized`, `wait`/`notify`) and identity hashes in the mark word.
//!
//! Mark word: bits 0..32 hold the index + 1 of the object's inflated monitor in its domain's
//! monitor table (0 = none); bits 32..63 hold the identity hash (0 = not yet assigned). Both
//! are installed with compare-and-swap, so they are stable when a moving collector copies
//! the header. Monitors are always inflated for now; thin locks come with the threads issue.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use crate::domain::Domain;
use crate::heap::ObjRef;

#[derive(Default)]
struct State {
    owner: u64,
    count: u32,
    /// Incremented by notify/notifyAll; waiters wake when it passes their ticket.
    notify_seq: u64,
    notify_all_seq: u64,
    waiters: u32,
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
    pub fn is_owner(&self, me: u64) -> bool {
        self.state.lock().owner == me
    }
    /// `Object.wait(timeout)`; `interrupted` is polled while waiting.
    pub fn wait(&self, me: u64, timeout: Option<Duration>, interrupted: &dyn Fn() -> bool) -> Result<(), MonitorError> {
        let mut s = self.state.lock();
        if s.owner != me {
            return Err(MonitorError::NotOwner);
        }
        let count = s.count;
        s.owner = 0;
        s.count = 0;
        self.entry.notify_one();
        let ticket = s.notify_seq;
        let all_ticket = s.notify_all_seq;
        s.waiters += 1;
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut result = Ok(());
        loop {
            if s.notify_all_seq != all_ticket {
                break;
            }
            if s.notify_seq != ticket {
                // Consume one notification.
                break;
            }
            if interrupted() {
                result = Err(MonitorError::Interrupted);
                break;
            }
            let slice = Duration::from_millis(50);
            match deadline {
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        break;
                    }
                    self.waitset.wait_for(&mut s, (d - now).min(slice));
                }
                None => {
                    self.waitset.wait_for(&mut s, slice);
                }
            }
        }
        s.waiters -= 1;
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
        if s.waiters > 0 {
            if all {
                s.notify_all_seq += 1;
                self.waitset.notify_all();
            } else {
                s.notify_seq += 1;
                self.waitset.notify_all();
            }
        }
        Ok(())
    }
}

const MON_MASK: u64 = 0xFFFF_FFFF;

/// The monitor of `obj`, inflating it on first use. The common case (already inflated) is
/// one atomic load of the mark word and a lock-free table lookup.
pub fn monitor_of(domain: &Domain, obj: ObjRef) -> Arc<Monitor> {
    let mark = obj.mark();
    let idx = mark.load(Ordering::Acquire) & MON_MASK;
    if idx != 0 {
        if let Some(mon) = domain.monitors.get(idx as u32) {
            return mon.clone();
        }
    }
    inflate(domain, obj)
}

#[cold]
fn inflate(domain: &Domain, obj: ObjRef) -> Arc<Monitor> {
    let mark = obj.mark();
    let mut count = domain.monitor_count.lock();
    let m = mark.load(Ordering::Acquire);
    let idx = m & MON_MASK;
    if idx != 0 {
        if let Some(mon) = domain.monitors.get(idx as u32) {
            return mon.clone();
        }
    }
    *count += 1;
    let new_idx = *count;
    let mon = domain.monitors.get_or_init(new_idx, || Arc::new(Monitor::default())).clone();
    let mut cur = m;
    loop {
        match mark.compare_exchange(cur, (cur & !MON_MASK) | new_idx as u64, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => break,
            Err(c) => cur = c,
        }
    }
    mon
}

/// The identity hash of `obj`, assigned on first request.
pub fn identity_hash(domain: &Domain, obj: ObjRef) -> i32 {
    let mark = obj.mark();
    let m = mark.load(Ordering::Acquire);
    if m >> 32 != 0 {
        return (m >> 32) as i32;
    }
    let h = domain.new_identity_hash() as u64;
    let mut cur = m;
    loop {
        if cur >> 32 != 0 {
            return (cur >> 32) as i32;
        }
        match mark.compare_exchange(cur, (cur & MON_MASK) | (h << 32), Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return h as i32,
            Err(c) => cur = c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

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
}
