//! Class metadata charged to the domains that own it (issue 15: limits on everything a domain
//! holds). A class a created domain owns (see `unload`: its user-defined loaders' classes, the
//! hidden classes and lambda proxies it makes, their arrays) costs native memory that the
//! collector never sees; HotSpot bounds the same with `MaxMetaspaceSize`. Each such class is
//! charged an estimate of that memory to its owner's account before it is published, refused
//! (`OutOfMemoryError: Metaspace`) when the account says no, and released when the class is
//! freed, whether its loader died in a living domain or its domain ended.
//!
//! Owns the per-class charges and the open accounts, keyed by domain id; knows nothing of what
//! an account counts against (a domain's budget), nor of when
//! classes are unloaded (`vm::domain::unloading` says so).

use std::sync::Arc;

use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use super::DomainId;
use super::loader::LoadError;
use base::account::Account;

/// Native memory a class of `file_len` bytes of class file costs, estimated: its parsed
/// constant pool, methods with their prepared code, dispatch tables and each domain's state of
/// it grow with the class file. Measured on this VM (release build, resident memory over
/// 3,000 classes each): 338 B of class file cost 12 KB, 1,821 B 30 KB, 9,102 B 189 KB.
pub fn estimate(file_len: usize) -> u64 {
    PER_CLASS + PER_FILE_BYTE * file_len as u64
}

/// What a class without a class file (an array class, a lambda proxy) is charged.
pub const PER_CLASS: u64 = 6 << 10;
const PER_FILE_BYTE: u64 = 18;

/// A charge reserved for a class about to be published.
#[must_use = "a reserved charge is recorded for its class or given back"]
pub struct Charge {
    domain: DomainId,
    bytes: u64,
}

/// The open accounts and what each class was charged.
#[derive(Default)]
pub struct Charges {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    accounts: FxHashMap<DomainId, Arc<dyn Account>>,
    /// Class id -> (owner, bytes charged).
    by_class: FxHashMap<u32, (DomainId, u64)>,
}

impl Charges {
    /// Classes domain `domain` comes to own are charged to `account` from now on.
    pub fn open(&self, domain: DomainId, account: Arc<dyn Account>) {
        self.inner.lock().accounts.insert(domain, account);
    }

    /// Domain `domain` has ended and its classes are freed: its account is forgotten (a charge
    /// still recorded for it is dropped without a release: nothing is left to give it to).
    pub fn close(&self, domain: DomainId) {
        let mut t = self.inner.lock();
        t.accounts.remove(&domain);
        t.by_class.retain(|_, (d, _)| *d != domain);
    }

    /// Reserves `bytes` for a class `owner` is about to own (None, or a domain without an
    /// account: nothing is charged).
    pub fn reserve(
        &self,
        owner: Option<DomainId>,
        bytes: u64,
    ) -> Result<Option<Charge>, LoadError> {
        let Some(domain) = owner else { return Ok(None) };
        let Some(account) = self.inner.lock().accounts.get(&domain).cloned() else {
            return Ok(None);
        };
        if !account.reserve(bytes) {
            return Err(LoadError::OutOfMetadata);
        }
        Ok(Some(Charge { domain, bytes }))
    }

    /// Records that class `class` was published with `charge`.
    pub fn record(&self, class: u32, charge: Option<Charge>) {
        if let Some(Charge { domain, bytes }) = charge {
            self.inner.lock().by_class.insert(class, (domain, bytes));
        }
    }

    /// Classes `classes` are being freed: what they were charged goes back to their owners.
    pub fn release(&self, classes: impl IntoIterator<Item = u32>) {
        let mut t = self.inner.lock();
        for id in classes {
            let Some((domain, bytes)) = t.by_class.remove(&id) else {
                continue;
            };
            if let Some(account) = t.accounts.get(&domain) {
                account.release(bytes);
            }
        }
    }

    /// Bytes charged to `domain` for the classes it owns now.
    #[cfg(test)]
    fn charged(&self, domain: DomainId) -> u64 {
        let t = self.inner.lock();
        t.by_class
            .values()
            .filter(|(d, _)| *d == domain)
            .map(|(_, b)| b)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base::account::Limited;

    #[test]
    fn classes_are_charged_to_their_owner_until_freed() {
        let charges = Charges::default();
        let account = Limited::new(100);
        charges.open(DomainId(7), account.clone());
        assert!(charges.reserve(None, 1000).unwrap().is_none(), "shared");
        assert!(
            charges.reserve(Some(DomainId(8)), 1000).unwrap().is_none(),
            "no account"
        );
        let c = charges.reserve(Some(DomainId(7)), 60).unwrap();
        charges.record(1, c);
        assert!(matches!(
            charges.reserve(Some(DomainId(7)), 60),
            Err(LoadError::OutOfMetadata)
        ));
        let c = charges.reserve(Some(DomainId(7)), 40).unwrap();
        charges.record(2, c);
        assert_eq!((charges.charged(DomainId(7)), account.used()), (100, 100));
        charges.release([1, 3]);
        assert_eq!(account.used(), 40);
        charges.close(DomainId(7));
        charges.release([2]);
        assert_eq!(account.used(), 40, "closed: kept");
        assert_eq!(charges.charged(DomainId(7)), 0);
    }
}

/// Counts of the classes defined from class files (HotSpot's "loaded classes": not arrays or
/// primitives) and of those unloaded, with the estimated metadata of the loaded ones.
#[derive(Default)]
pub struct LoadStats {
    inner: Mutex<StatsInner>,
}

#[derive(Default)]
struct StatsInner {
    defined: u64,
    unloaded: u64,
    bytes: u64,
    /// Class id -> its estimate, for the classes defined and not unloaded.
    by_class: FxHashMap<u32, u64>,
}

impl LoadStats {
    /// Class `class` was defined from a class file, costing about `bytes`.
    pub fn defined(&self, class: u32, bytes: u64) {
        let mut s = self.inner.lock();
        s.defined += 1;
        s.bytes += bytes;
        s.by_class.insert(class, bytes);
    }

    /// Classes `classes` are freed (those not defined from class files are not counted).
    pub fn unloaded(&self, classes: impl IntoIterator<Item = u32>) {
        let mut s = self.inner.lock();
        for id in classes {
            if let Some(bytes) = s.by_class.remove(&id) {
                s.unloaded += 1;
                s.bytes -= bytes;
            }
        }
    }

    /// (defined in all, unloaded, estimated metadata bytes of those loaded now).
    pub fn get(&self) -> (u64, u64, u64) {
        let s = self.inner.lock();
        (s.defined, s.unloaded, s.bytes)
    }
}
