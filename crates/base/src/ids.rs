//! Class and method ids: small numbers that index the VM's id tables (the class table's
//! `by_id` and `methods`, each domain's class states). Ids are handed out densely; the ids of
//! unloaded classes and their methods are given back once the classes are freed, and handed
//! out again once no fresh one is left, so domains that come and go, or loaders that a living
//! domain drops, never run the VM out of ids. Only when every id is in use is a definition
//! refused (`OutOfMemoryError: Metaspace`, as HotSpot past its metaspace limit), never a crash.
//!
//! Fresh ids go first: while there are any, the id tables and class states stay as they were
//! before any class was unloaded (reused ids' slots are cleared before they are given back).
//!
//! A reused id comes with a new generation (a 16-bit count of its reuses): what names a method
//! by id beyond its life (a `Throwable`'s backtrace) records the generation too and finds no
//! method when it differs.
//!
//! Owns the numbering of classes and methods and the id types ([`ClassId`], [`MethodId`],
//! [`LoaderId`], [`DomainId`], and the [`Unit`] classes are unloaded with; loaders and domains
//! are numbered by their owners); what each table keeps under an id is its owner's to clear
//! before the id is given back (the runtime's `class::unload::Unloaded::free`).

use parking_lot::Mutex;

/// An id and its generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbered {
    pub id: u32,
    pub generation: u16,
}

/// One kind of id (classes, or methods).
pub struct IdPool {
    inner: Mutex<Inner>,
    capacity: u32,
}

struct Inner {
    /// Ids below this were handed out at least once.
    next: u32,
    /// Ids given back, with the generation they had; reused last in, first out.
    free: Vec<Numbered>,
}

impl IdPool {
    pub fn new(capacity: u32) -> IdPool {
        IdPool {
            inner: Mutex::new(Inner {
                next: 0,
                free: Vec::new(),
            }),
            capacity,
        }
    }

    /// A free id (a fresh one while there are any), None when all `capacity` are in use.
    pub fn take(&self) -> Option<Numbered> {
        let mut p = self.inner.lock();
        if p.next < self.capacity {
            p.next += 1;
            return Some(Numbered {
                id: p.next - 1,
                generation: 0,
            });
        }
        let n = p.free.pop()?;
        Some(Numbered {
            id: n.id,
            generation: n.generation.wrapping_add(1),
        })
    }

    /// How many ids can still be taken.
    #[inline]
    pub fn room(&self) -> usize {
        let p = self.inner.lock();
        (self.capacity - p.next) as usize + p.free.len()
    }

    /// One more than the highest id ever handed out (ids below it may be in use).
    #[inline]
    pub fn bound(&self) -> u32 {
        self.inner.lock().next
    }

    /// Gives back ids nothing refers to any more.
    #[inline]
    pub fn give_back(&self, ids: impl IntoIterator<Item = Numbered>) {
        self.inner.lock().free.extend(ids);
    }
}

/// Identifies a class loader within the VM. Loader *objects* are per domain; ids are shared.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LoaderId(pub u32);

impl LoaderId {
    pub const BOOT: LoaderId = LoaderId(0);
    pub const PLATFORM: LoaderId = LoaderId(1);
    pub const APP: LoaderId = LoaderId(2);

    /// Ids of the application loaders of domains other than the first (see
    /// the class table's `app_loader_for`) carry this bit; user-defined loaders' ids do not.
    pub const APP_BIT: u32 = 1 << 31;

    /// A user-defined loader (not the boot, platform or an application loader).
    #[inline]
    pub fn is_user(self) -> bool {
        self.0 > LoaderId::APP.0 && self.0 & LoaderId::APP_BIT == 0
    }

    /// The application loader of some domain (each class path has its own).
    #[inline]
    pub fn is_app(self) -> bool {
        self == LoaderId::APP || self.0 & LoaderId::APP_BIT != 0
    }
}

/// What a class is unloaded with while its domain lives (the class table's `unload` and the collector's unloading):
/// the unit goes once nothing reaches any of its classes — no object, mirror, running method,
/// nor (for a loader) the loader object or a living loader that resolved one of its classes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Unit {
    /// Every class its defining loader defined; only user-defined loaders' classes ever go
    /// (the boot, platform and application loaders' are shared by all domains).
    Loader(LoaderId),
    /// A hidden class defined without `STRONG` (`Lookup.defineHiddenClass`'s default; the
    /// JDK's lambda forms), with its arrays and lambda proxies: it goes on its own whatever its
    /// loader, as HotSpot gives each its own class loader data.
    Hidden(ClassId),
}

impl Unit {
    /// Whether the unit can go before its domain ends.
    #[inline]
    pub fn is_collectible(self) -> bool {
        match self {
            Unit::Loader(l) => l.is_user(),
            Unit::Hidden(_) => true,
        }
    }
}

/// Dense id of a class, used to index per-domain class state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(transparent)]
pub struct ClassId(pub u32);

/// Dense id of a method: its index in the class table's method table (`method_by_id`), and
/// the key of every side table kept per method. Numbered by an [`IdPool`] like classes, so
/// a freed method's id comes back with a new generation (what outlives a method, as a
/// backtrace does, records both).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct MethodId(pub u32);

impl MethodId {
    /// The number itself (for tables indexed by id, and the encodings that store it).
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The number as an index into a table.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for MethodId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Number of a domain: the key of the domain registry, of what is kept per domain outside
/// it (the metadata accounts, the user-defined loaders' owners, portal services, native
/// tables) and what Java sees of a domain. The runtime's domain registry hands the numbers
/// out in order (DomainZero first) and never reuses one while the process lives.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct DomainId(pub u32);

impl DomainId {
    /// The number itself (what Java sees, and the encodings that store it).
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }
}

impl std::fmt::Display for DomainId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_then_reused_with_a_new_generation() {
        let pool = IdPool::new(3);
        let a = pool.take().unwrap();
        let b = pool.take().unwrap();
        assert_eq!((a.id, b.id, a.generation), (0, 1, 0));
        assert_eq!(pool.room(), 1);
        pool.give_back([a]);
        assert_eq!(pool.room(), 2);
        assert_eq!(pool.take().unwrap().id, 2, "fresh ids first");
        let again = pool.take().unwrap();
        assert_eq!((again.id, again.generation), (0, 1));
        assert_eq!(pool.take(), None, "all three in use");
        assert_eq!(pool.bound(), 3);
        pool.give_back([again]);
        assert_eq!(
            pool.take().unwrap().generation,
            2,
            "each reuse a new generation"
        );
    }

    #[test]
    fn typed_ids_are_their_number() {
        assert_eq!(std::mem::size_of::<MethodId>(), 4);
        assert_eq!(std::mem::size_of::<DomainId>(), 4);
        let m = MethodId(7);
        assert_eq!((m.raw(), m.index(), m.to_string()), (7, 7, "7".to_string()));
        assert!(MethodId(1) < MethodId(2));
        let d = DomainId(3);
        assert_eq!((d.raw(), d.to_string()), (3, "3".to_string()));
        assert_ne!(d, DomainId(0));
    }
}
