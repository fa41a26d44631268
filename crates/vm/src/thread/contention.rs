//! A thread's contention statistics, as HotSpot's `ThreadStatistics` keeps them for
//! `ThreadInfo.getBlockedCount/getBlockedTime/getWaitedCount/getWaitedTime`: a contended
//! monitor entry that blocks counts as blocked; `Object.wait`, `Thread.sleep` and
//! `Unsafe.park` count as waited. Counts are kept always, times only while the domain's
//! contention monitoring is on (`ThreadMXBean.setThreadContentionMonitoringEnabled`, off at
//! start); turning it on again starts the times from zero: it opens a new epoch of the
//! domain's, and times a thread gathered in an older epoch read as zero.
//!
//! The owning thread updates its statistics only outside its blocking sections; other
//! threads read them while it is stopped (or blocked), so plain fields suffice.

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::domain::ThreadStats;

/// What a thread waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// To enter a monitor another thread holds.
    Blocked = 0,
    /// A notification, a timeout or an unpark.
    Waited = 1,
}

#[derive(Default)]
pub struct Contention {
    counts: [u64; 2],
    nanos: [u64; 2],
    /// The domain's epoch `nanos` belong to.
    epoch: u64,
    /// The wait in progress, and since when if it is timed.
    current: Option<(Kind, Option<Instant>)>,
}

impl Contention {
    /// A wait of `kind` starts.
    pub fn begin(&mut self, kind: Kind, domain: &ThreadStats) {
        self.counts[kind as usize] += 1;
        let timed = domain.contention_monitoring.load(Ordering::Relaxed);
        self.current = Some((kind, timed.then(Instant::now)));
    }

    /// The wait in progress ends.
    pub fn end(&mut self, domain: &ThreadStats) {
        let Some((kind, Some(since))) = self.current.take() else {
            return;
        };
        let epoch = domain.contention_epoch.load(Ordering::Relaxed);
        if self.epoch != epoch {
            self.nanos = [0; 2];
            self.epoch = epoch;
        }
        self.nanos[kind as usize] += since.elapsed().as_nanos() as u64;
    }

    pub fn count(&self, kind: Kind) -> i64 {
        self.counts[kind as usize] as i64
    }

    /// The time spent in waits of `kind` in milliseconds, the one in progress included; -1
    /// while contention monitoring is off.
    pub fn millis(&self, kind: Kind, domain: &ThreadStats) -> i64 {
        if !domain.contention_monitoring.load(Ordering::Relaxed) {
            return -1;
        }
        let epoch = domain.contention_epoch.load(Ordering::Relaxed);
        let mut nanos = if self.epoch == epoch {
            self.nanos[kind as usize]
        } else {
            0
        };
        if let Some((k, Some(since))) = self.current
            && k == kind
        {
            nanos += since.elapsed().as_nanos() as u64;
        }
        (nanos / 1_000_000) as i64
    }
}

/// Turns `domain`'s contention monitoring on or off; turning it on starts every thread's
/// times from zero.
pub fn set_monitoring(domain: &ThreadStats, on: bool) {
    if on && !domain.contention_monitoring.load(Ordering::Relaxed) {
        reset_times(domain);
    }
    domain.contention_monitoring.store(on, Ordering::Relaxed);
}

/// Starts every thread's times of `domain` from zero (`ThreadImpl.resetContentionTimes0`).
pub fn reset_times(domain: &ThreadStats) {
    domain.contention_epoch.fetch_add(1, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_always_times_only_while_monitoring() {
        let domain = ThreadStats::default();
        let mut c = Contention::default();
        c.begin(Kind::Blocked, &domain);
        c.end(&domain);
        assert_eq!((c.count(Kind::Blocked), c.count(Kind::Waited)), (1, 0));
        assert_eq!(c.millis(Kind::Blocked, &domain), -1);
        set_monitoring(&domain, true);
        c.begin(Kind::Waited, &domain);
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(
            c.millis(Kind::Waited, &domain) >= 20,
            "the wait in progress counts"
        );
        c.end(&domain);
        assert!(c.millis(Kind::Waited, &domain) >= 20);
        assert_eq!(c.millis(Kind::Blocked, &domain), 0);
        set_monitoring(&domain, false);
        set_monitoring(&domain, true);
        assert_eq!(
            c.millis(Kind::Waited, &domain),
            0,
            "re-enabling resets the times"
        );
        assert_eq!(c.count(Kind::Waited), 1);
    }
}
