//! An account: where one kind of resource a domain holds is counted against its limits. The
//! layers below the domains (class metadata, memory objects, the port's descriptors) charge
//! and release through it without knowing what a domain or a budget is; `domain::budget`
//! implements it, one account per kind of resource, along a domain's chain of creators.
//!
//! Owns the trait only.

/// Counts one kind of resource against limits.
pub trait Account: Send + Sync {
    /// Takes `n` more; false (nothing taken) if that would pass a limit.
    fn reserve(&self, n: u64) -> bool;
    /// Gives back `n` taken with [`Account::reserve`].
    fn release(&self, n: u64);
}

/// An account that allows `max` at once: the tests of the layers that charge one use it.
pub struct Limited {
    pub used: std::sync::atomic::AtomicU64,
    pub max: u64,
}

impl Limited {
    pub fn new(max: u64) -> std::sync::Arc<Limited> {
        std::sync::Arc::new(Limited {
            used: 0.into(),
            max,
        })
    }

    pub fn used(&self) -> u64 {
        self.used.load(std::sync::atomic::Ordering::Acquire)
    }
}

impl Account for Limited {
    fn reserve(&self, n: u64) -> bool {
        use std::sync::atomic::Ordering;
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |u| {
                (u + n <= self.max).then_some(u + n)
            })
            .is_ok()
    }
    fn release(&self, n: u64) {
        self.used.fetch_sub(n, std::sync::atomic::Ordering::AcqRel);
    }
}
