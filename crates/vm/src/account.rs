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
