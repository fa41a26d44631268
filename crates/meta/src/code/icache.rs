//! Inline caches for `invokeinterface`: per call site, the receiver classes seen so far and
//! the method each one selected, so that a repeated call skips the interface-table lookup.
//!
//! A cache holds up to [`WAYS`] classes (monomorphic, then polymorphic); a site that sees
//! more is megamorphic and keeps the first ones. Entries are immutable pairs published with
//! one pointer store, so threads racing to fill a cache never see a class paired with another
//! class's method. `invokevirtual` needs no cache: its selection is one vtable load.
//! This module owns the cache only; selection itself stays in `exec::select_interface`.

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use crate::class::{Class, Method};

/// Receiver classes remembered per call site.
pub const WAYS: usize = 4;

/// An `invokeinterface` site's cache: receiver class to selected method.
pub type InlineCache = Cache<Class, Method>;

struct Entry<K: 'static, V: 'static> {
    class: &'static K,
    method: &'static V,
}

/// Up to [`WAYS`] pairs of `&'static K` (compared by address) to `&'static V`.
pub struct Cache<K: 'static, V: 'static> {
    entries: [AtomicPtr<Entry<K, V>>; WAYS],
}

impl<K, V> Default for Cache<K, V> {
    fn default() -> Self {
        Cache {
            entries: std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())),
        }
    }
}

impl<K, V> std::fmt::Debug for Cache<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filled = self
            .entries
            .iter()
            .filter(|e| !e.load(Ordering::Relaxed).is_null())
            .count();
        write!(f, "InlineCache({filled}/{WAYS})")
    }
}

impl<K, V> Cache<K, V> {
    /// The method cached for receiver class `c`.
    #[inline(always)]
    pub fn lookup(&self, c: &'static K) -> Option<&'static V> {
        for slot in &self.entries {
            let e = slot.load(Ordering::Acquire);
            if e.is_null() {
                return None;
            }
            // SAFETY: a non-null entry was published by `insert` from a leaked Box and is
            // freed only when the cache itself is dropped.
            let e = unsafe { &*e };
            if ptr::eq(e.class, c) {
                return Some(e.method);
            }
        }
        None
    }

    /// The pairs seen so far, in the order they were.
    pub fn seen(&self) -> Vec<(&'static K, &'static V)> {
        let mut pairs = Vec::with_capacity(WAYS);
        for slot in &self.entries {
            let e = slot.load(Ordering::Acquire);
            if e.is_null() {
                break;
            }
            // SAFETY: as in `lookup`.
            let e = unsafe { &*e };
            pairs.push((e.class, e.method));
        }
        pairs
    }

    /// Remembers that receiver class `c` selects `m` (ignored when the cache is full).
    pub fn insert(&self, c: &'static K, m: &'static V) {
        // A full cache (a megamorphic site) takes no more: no allocation, no exchanges.
        if !self.entries[WAYS - 1].load(Ordering::Relaxed).is_null() {
            return;
        }
        let new = Box::into_raw(Box::new(Entry {
            class: c,
            method: m,
        }));
        for slot in &self.entries {
            match slot.compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                // SAFETY: as in `lookup`.
                Err(existing) if ptr::eq(unsafe { &*existing }.class, c) => break,
                Err(_) => {}
            }
        }
        // SAFETY: `new` was not published, so this is its only owner.
        drop(unsafe { Box::from_raw(new) });
    }
}

impl<K, V> Cache<K, V> {
    /// Takes out the entries of receiver classes that `gone` says are being unloaded. A
    /// thread may be reading one right now, so they are not freed here but handed to
    /// `retired`, which frees them when dropped (after a grace period).
    pub fn forget(&self, gone: impl Fn(&K) -> bool, retired: &mut Retired<K, V>) {
        for slot in &self.entries {
            let e = slot.load(Ordering::Acquire);
            // SAFETY: as in `lookup`.
            if e.is_null() || !gone(unsafe { &*e }.class) {
                continue;
            }
            // Only this call takes entries out (the unloader runs one at a time), and a
            // racing `insert` only fills empty slots, so the exchange cannot fail.
            if slot
                .compare_exchange(e, ptr::null_mut(), Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                retired.entries.push(e);
            }
        }
    }
}

/// Cache entries taken out by [`Cache::forget`], freed when this is dropped: once no thread
/// can be reading them (every thread has passed a safepoint since).
pub struct Retired<K: 'static, V: 'static> {
    entries: Vec<*mut Entry<K, V>>,
}

impl<K, V> Default for Retired<K, V> {
    fn default() -> Self {
        Retired {
            entries: Vec::new(),
        }
    }
}

impl<K, V> Retired<K, V> {
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<K, V> Drop for Retired<K, V> {
    fn drop(&mut self) {
        for &e in &self.entries {
            // SAFETY: each entry was published by `insert` from a Box and taken out of its
            // cache exactly once (`forget`), and its holder drops this only after every thread
            // that could have loaded it has passed a safepoint.
            drop(unsafe { Box::from_raw(e) });
        }
    }
}

// SAFETY: the entries are owned boxes of `&'static` pairs, read-only, freed by whoever holds
// this.
unsafe impl<K: Sync, V: Sync> Send for Retired<K, V> {}

impl<K, V> Drop for Cache<K, V> {
    fn drop(&mut self) {
        for slot in &mut self.entries {
            let e = *slot.get_mut();
            if !e.is_null() {
                // SAFETY: published entries are owned by the cache, and `&mut self` means no
                // reader is left.
                drop(unsafe { Box::from_raw(e) });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_up_to_ways_classes() {
        let classes: Vec<&'static u32> = (0..WAYS as u32 + 1)
            .map(|i| &*Box::leak(Box::new(i)))
            .collect();
        let methods: Vec<&'static u64> = (0..WAYS as u64 + 1)
            .map(|i| &*Box::leak(Box::new(i)))
            .collect();
        let ic: Cache<u32, u64> = Cache::default();
        assert!(ic.lookup(classes[0]).is_none());
        for (c, m) in classes.iter().zip(&methods) {
            ic.insert(c, m);
        }
        for i in 0..WAYS {
            assert!(ptr::eq(ic.lookup(classes[i]).unwrap(), methods[i]));
        }
        assert!(
            ic.lookup(classes[WAYS]).is_none(),
            "megamorphic: the extra class is not cached"
        );
        ic.insert(classes[0], methods[0]);
        assert!(ptr::eq(ic.lookup(classes[0]).unwrap(), methods[0]));
    }

    #[test]
    fn forgotten_classes_are_not_found_and_their_slots_fill_again() {
        let classes: Vec<&'static u32> = (0..3u32).map(|i| &*Box::leak(Box::new(i))).collect();
        let methods: Vec<&'static u64> = (0..3u64).map(|i| &*Box::leak(Box::new(i))).collect();
        let ic: Cache<u32, u64> = Cache::default();
        ic.insert(classes[0], methods[0]);
        ic.insert(classes[1], methods[1]);
        let mut retired = Retired::default();
        ic.forget(|c| ptr::eq(c, classes[0]), &mut retired);
        assert_eq!(retired.len(), 1);
        assert!(
            ic.lookup(classes[0]).is_none(),
            "an unloaded class is not found"
        );
        ic.insert(classes[2], methods[2]);
        assert!(ptr::eq(ic.lookup(classes[2]).unwrap(), methods[2]));
        ic.forget(|_| false, &mut retired);
        assert_eq!(retired.len(), 1, "nothing else taken out");
        drop(retired);
    }

    #[test]
    fn racing_fills_never_mix_pairs() {
        let keys: Vec<&'static u32> = (0..8u32).map(|i| &*Box::leak(Box::new(i))).collect();
        let vals: Vec<&'static u64> = (0..8u64).map(|i| &*Box::leak(Box::new(i * 10))).collect();
        for _ in 0..200 {
            let ic: Cache<u32, u64> = Cache::default();
            std::thread::scope(|s| {
                for t in 0..4 {
                    let (ic, keys, vals) = (&ic, &keys, &vals);
                    s.spawn(move || {
                        for k in [t, t + 4, t] {
                            ic.insert(keys[k], vals[k]);
                            for key in keys.iter() {
                                if let Some(v) = ic.lookup(key) {
                                    assert_eq!(*v, **key as u64 * 10);
                                }
                            }
                        }
                    });
                }
            });
        }
    }
}
