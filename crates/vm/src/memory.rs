//! Memory objects (JX §2.3): off-heap ranges shared by reference between domains, with
//! sub-ranges, read-only views and revocation. One mechanism for every later user (portals'
//! shared data, External Objects, mapped files, channel buffers).
//!
//! - A [`Region`] owns one anonymous mapping; it is unmapped when the last view of it is gone
//!   (an `Arc`), so a racing access can never touch freed memory.
//! - A [`Grant`] is a revocable right to a range: `revoke` clears its valid flag and those of all
//!   grants derived from it (sub-ranges and read-only views), then gives the caller a fresh
//!   grant for the same range. Checking validity is one atomic load.
//! - A [`View`] is what a Java `jx.memory.ReadOnlyMemory`/`Memory` object holds (in a VM slot the
//!   Java code cannot see or forge): region, offset, length, writability and grant. Each Java
//!   object keeps its view alive through its domain's table of memory objects, which the
//!   collector re-keys and prunes (see `gc`), releasing the views of dead objects.
//!
//! Owns the raw memory and every access to it; knows nothing about Java objects beyond the
//! slot layout constant.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;

/// The class whose instances carry a view slot (its subclass `Memory` inherits it).
pub const VIEW_CLASS: &str = "jx/memory/ReadOnlyMemory";

use base::account::Account;

/// One anonymous mapping, zeroed.
pub struct Region {
    base: usize,
    size: usize,
    /// Charged for the region's bytes; released when the region is unmapped.
    account: Option<Arc<dyn Account>>,
}

// SAFETY: the region is plain memory; concurrent access to its bytes has Java's data-race
// semantics (like array elements) and never touches Rust-managed state.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl Region {
    fn new(size: usize, account: Option<Arc<dyn Account>>) -> Option<Region> {
        if size == 0 {
            return Some(Region {
                base: 0,
                size: 0,
                account,
            });
        }
        crate::heap::map_anonymous(size).map(|base| Region {
            base,
            size,
            account,
        })
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if self.size != 0 {
            // SAFETY: the mapping was created by `Region::new` and no view refers to it any more
            // (the last Arc is being dropped).
            unsafe {
                libc::munmap(self.base as *mut libc::c_void, self.size);
            }
        }
        if let Some(a) = &self.account {
            a.release(self.size as u64);
        }
    }
}

/// A revocable right to a range. Grants form a tree: revoking one revokes its descendants.
///
/// A grant holds its parent strongly and its children weakly, so every live grant stays
/// reachable from the root of its tree however many intermediate views were dropped: a view
/// derived through sub-ranges that are gone is still revoked with its ancestors.
pub struct Grant {
    valid: AtomicBool,
    children: Mutex<Vec<std::sync::Weak<Grant>>>,
    /// The grant this one was derived from (None for a whole allocation).
    parent: Option<Arc<Grant>>,
}

impl Drop for Grant {
    /// Releases the chain of ancestors iteratively (a chain of any length must not recurse
    /// once per link).
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(p) = next {
            next = match Arc::try_unwrap(p) {
                Ok(mut g) => g.parent.take(),
                Err(_) => None,
            };
        }
    }
}

/// Serializes changes to grant trees (derivation and revocation), so that a grant derived
/// while its parent is being revoked is revoked too.
static GRANTS: Mutex<()> = Mutex::new(());

impl Grant {
    fn root() -> Arc<Grant> {
        Arc::new(Grant {
            valid: AtomicBool::new(true),
            children: Mutex::new(Vec::new()),
            parent: None,
        })
    }

    fn derive(self: &Arc<Grant>) -> Arc<Grant> {
        let _g = GRANTS.lock();
        let child = Arc::new(Grant {
            valid: AtomicBool::new(self.is_valid()),
            children: Mutex::new(Vec::new()),
            parent: Some(self.clone()),
        });
        let mut kids = self.children.lock();
        kids.retain(|k| k.strong_count() > 0);
        kids.push(Arc::downgrade(&child));
        child
    }

    #[inline]
    fn is_valid(&self) -> bool {
        self.valid.load(Ordering::Acquire)
    }

    /// Revokes this grant and its descendants (iteratively: trees may be of any depth).
    fn revoke_tree(&self) {
        self.valid.store(false, Ordering::Release);
        let mut pending: Vec<Arc<Grant>> = self
            .children
            .lock()
            .drain(..)
            .filter_map(|k| k.upgrade())
            .collect();
        while let Some(g) = pending.pop() {
            g.valid.store(false, Ordering::Release);
            pending.extend(g.children.lock().drain(..).filter_map(|k| k.upgrade()));
        }
    }
}

/// Why an access failed.
#[derive(Debug, PartialEq, Eq)]
pub enum Fault {
    /// The range was revoked.
    Revoked,
    /// `offset`/`length` fall outside a view of `size` bytes.
    OutOfBounds {
        offset: i64,
        length: i64,
        size: usize,
    },
    /// A write through a read-only view (the Java API never allows one; a bug guard).
    ReadOnly,
    /// The host could not provide the memory.
    NoMemory,
}

/// A view of a region: what one Java memory object stands for. A clone is the same view
/// (the same grant: revoking one revokes the other), as a memory object passed to another
/// domain must be.
#[derive(Clone)]
pub struct View {
    region: Arc<Region>,
    offset: usize,
    len: usize,
    writable: bool,
    /// This view's right; `revoke` derives the fresh grant from its parent, so revoking an
    /// enclosing range still reaches the views re-granted inside it.
    grant: Arc<Grant>,
}

impl View {
    /// A new zeroed region of `size` bytes and a writable view of all of it.
    pub fn allocate(size: i64) -> Result<View, Fault> {
        Self::allocate_charged(size, None)
    }

    /// As [`View::allocate`], the region's bytes (already charged to `account`) released to
    /// `account` when it is unmapped — or at once if it cannot be made.
    pub fn allocate_charged(size: i64, account: Option<Arc<dyn Account>>) -> Result<View, Fault> {
        let size = usize::try_from(size).map_err(|_| Fault::OutOfBounds {
            offset: 0,
            length: size,
            size: 0,
        })?;
        let Some(region) = Region::new(size, account.clone()) else {
            if let Some(a) = account {
                a.release(size as u64);
            }
            return Err(Fault::NoMemory);
        };
        Ok(View {
            region: Arc::new(region),
            offset: 0,
            len: size,
            writable: true,
            grant: Grant::root(),
        })
    }

    /// A view of all of a shared file mapping of `len` bytes at `base` (made by
    /// `Host::map_for_memory`), whose region owns the mapping from now on and unmaps it when
    /// the last view of it is gone.
    ///
    /// # Safety
    /// `[base, base+len)` must be a whole mapping nothing else owns or unmaps.
    pub unsafe fn over_mapping(base: usize, len: usize, writable: bool) -> View {
        View {
            region: Arc::new(Region {
                base,
                size: len,
                account: None,
            }),
            offset: 0,
            len,
            writable,
            grant: Grant::root(),
        }
    }

    /// The address of `[offset, offset+length)` of this view, after checking validity and
    /// bounds. It stays mapped as long as this view (or any view of its region) lives.
    pub fn address(&self, offset: i64, length: i64) -> Result<usize, Fault> {
        self.at(offset, length)
    }

    /// The flag that says whether this view is still valid (cleared when it is revoked): code
    /// that caches an address from [`View::address`] checks it before each access. It lives as
    /// long as this view.
    pub fn valid_flag(&self) -> &AtomicBool {
        &self.grant.valid
    }

    /// The whole mapping this view is part of (address and length), for `msync`.
    pub fn mapping(&self) -> (usize, usize) {
        (self.region.base, self.region.size)
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn writable(&self) -> bool {
        self.writable
    }
    pub fn is_valid(&self) -> bool {
        self.grant.is_valid()
    }

    /// The address of `[offset, offset+length)` after checking validity and bounds.
    #[inline]
    fn at(&self, offset: i64, length: i64) -> Result<usize, Fault> {
        if !self.grant.is_valid() {
            return Err(Fault::Revoked);
        }
        let in_range = offset >= 0
            && length >= 0
            && (offset as u64)
                .checked_add(length as u64)
                .is_some_and(|end| end <= self.len as u64);
        if !in_range {
            return Err(Fault::OutOfBounds {
                offset,
                length,
                size: self.len,
            });
        }
        Ok(self.region.base + self.offset + offset as usize)
    }

    /// Reads a little-endian value of `N` bytes.
    #[inline]
    pub fn read<const N: usize>(&self, offset: i64) -> Result<[u8; N], Fault> {
        let p = self.at(offset, N as i64)?;
        let mut v = [0u8; N];
        // SAFETY: `at` checked that [p, p+N) lies inside this view, hence inside the region,
        // which stays mapped while `self` holds its Arc.
        unsafe { std::ptr::copy_nonoverlapping(p as *const u8, v.as_mut_ptr(), N) };
        Ok(v)
    }

    /// Writes `bytes` at `offset`.
    #[inline]
    pub fn write(&self, offset: i64, bytes: &[u8]) -> Result<(), Fault> {
        if !self.writable {
            return Err(Fault::ReadOnly);
        }
        let p = self.at(offset, bytes.len() as i64)?;
        // SAFETY: as for `read`; the destination range was bounds-checked.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p as *mut u8, bytes.len()) };
        Ok(())
    }

    /// Copies `dst.len()` bytes at `offset` into `dst`.
    pub fn copy_out(&self, offset: i64, dst: &mut [u8]) -> Result<(), Fault> {
        let p = self.at(offset, dst.len() as i64)?;
        // SAFETY: as for `read`.
        unsafe { std::ptr::copy_nonoverlapping(p as *const u8, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }

    /// A view of `[offset, offset+length)` of this one, with the same writability.
    pub fn sub_range(&self, offset: i64, length: i64) -> Result<View, Fault> {
        let p = self.at(offset, length)?;
        Ok(View {
            region: self.region.clone(),
            offset: p - self.region.base,
            len: length as usize,
            writable: self.writable,
            grant: self.grant.derive(),
        })
    }

    /// A read-only view of the same range.
    pub fn read_only(&self) -> Result<View, Fault> {
        let mut v = self.sub_range(0, self.len as i64)?;
        v.writable = false;
        Ok(v)
    }

    /// Revokes this view and every view derived from it; returns a fresh writable view of the
    /// same range (itself revoked if an enclosing range is revoked later).
    pub fn revoke(&self) -> Result<View, Fault> {
        if !self.writable {
            return Err(Fault::ReadOnly);
        }
        {
            let _trees = GRANTS.lock();
            if !self.grant.is_valid() {
                return Err(Fault::Revoked);
            }
            self.grant.revoke_tree();
        }
        let grant = match &self.grant.parent {
            Some(p) => p.derive(),
            None => Grant::root(),
        };
        Ok(View {
            region: self.region.clone(),
            offset: self.offset,
            len: self.len,
            writable: true,
            grant,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_are_little_endian_and_bounds_checked() {
        let m = View::allocate(16).unwrap();
        m.write(3, &0x1122_3344u32.to_le_bytes()).unwrap();
        assert_eq!(u32::from_le_bytes(m.read::<4>(3).unwrap()), 0x1122_3344);
        assert_eq!(m.read::<1>(3).unwrap(), [0x44]);
        assert_eq!(
            m.read::<8>(9),
            Err(Fault::OutOfBounds {
                offset: 9,
                length: 8,
                size: 16
            })
        );
        assert_eq!(
            m.read::<1>(-1),
            Err(Fault::OutOfBounds {
                offset: -1,
                length: 1,
                size: 16
            })
        );
        assert!(m.read::<8>(i64::MAX).is_err());
        assert_eq!(m.read::<8>(8).unwrap(), [0; 8], "allocation zeroes");
        assert!(View::allocate(-1).is_err());
        assert!(View::allocate(0).unwrap().read::<1>(0).is_err());
    }

    #[test]
    fn sub_ranges_share_memory_and_read_only_views_refuse_writes() {
        let m = View::allocate(32).unwrap();
        let s = m.sub_range(8, 8).unwrap();
        s.write(0, &[7]).unwrap();
        assert_eq!(m.read::<1>(8).unwrap(), [7]);
        assert!(s.sub_range(4, 5).is_err());
        let r = m.read_only().unwrap();
        assert_eq!(r.write(0, &[1]), Err(Fault::ReadOnly));
        assert_eq!(r.read::<1>(8).unwrap(), [7]);
        assert_eq!(r.revoke().err(), Some(Fault::ReadOnly));
    }

    #[test]
    fn revoking_invalidates_every_derived_view_and_returns_a_fresh_one() {
        let m = View::allocate(32).unwrap();
        let s = m.sub_range(0, 16).unwrap();
        let ss = s.sub_range(0, 8).unwrap();
        let r = m.read_only().unwrap();
        let fresh = m.revoke().unwrap();
        for v in [&m, &s, &ss, &r] {
            assert!(!v.is_valid());
            assert_eq!(v.read::<1>(0), Err(Fault::Revoked));
        }
        assert_eq!(m.revoke().err(), Some(Fault::Revoked));
        assert!(fresh.is_valid());
        fresh.write(0, &[9]).unwrap();
        // A sub-range revoked on its own leaves its parent alone.
        let sub = fresh.sub_range(8, 8).unwrap();
        let sub2 = sub.revoke().unwrap();
        assert!(fresh.is_valid() && !sub.is_valid() && sub2.is_valid());
        let again = fresh.revoke().unwrap();
        assert!(
            !sub2.is_valid(),
            "revoking the enclosing range reaches views re-granted inside it"
        );
        assert!(again.is_valid());
    }

    #[test]
    fn revocation_reaches_views_derived_through_dropped_intermediates() {
        let m = View::allocate(64).unwrap();
        let mut v = m.sub_range(0, 64).unwrap();
        for i in 1..40i64 {
            let next = if i % 3 == 0 {
                v.read_only().unwrap()
            } else {
                v.sub_range(i % 2, v.len() as i64 - (i % 2)).unwrap()
            };
            v = next; // the previous view is dropped
        }
        let fresh = m.revoke().unwrap();
        assert_eq!(v.read::<1>(0), Err(Fault::Revoked));
        assert!(fresh.is_valid());
        // The same through re-granted ranges: revoke a sub-range, derive from the fresh one.
        let s = fresh.sub_range(0, 32).unwrap().revoke().unwrap();
        let deep = s.sub_range(0, 16).unwrap().sub_range(0, 8).unwrap();
        drop(s);
        fresh.revoke().unwrap();
        assert_eq!(deep.read::<1>(0), Err(Fault::Revoked));
    }

    #[test]
    fn a_long_chain_of_grants_is_dropped_without_recursion() {
        let m = View::allocate(8).unwrap();
        let mut v = m.sub_range(0, 8).unwrap();
        for _ in 0..1_000_000 {
            v = v.sub_range(0, 8).unwrap();
        }
        drop(m);
        drop(v);
    }

    #[test]
    fn readers_racing_with_revocation_see_data_or_revoked_never_garbage() {
        let m = Arc::new(View::allocate(1 << 16).unwrap());
        m.write(0, &[0xAB; 1 << 16]).unwrap();
        let readers: Vec<_> = (0..4)
            .map(|_| {
                let v = Arc::new(m.sub_range(0, 1 << 16).unwrap());
                std::thread::spawn(move || {
                    let mut ok = 0u64;
                    loop {
                        match v.read::<8>(1000) {
                            Ok(b) => {
                                assert_eq!(b, [0xAB; 8]);
                                ok += 1;
                            }
                            Err(Fault::Revoked) => return ok,
                            Err(e) => panic!("{e:?}"),
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let fresh = m.revoke().unwrap();
        drop(m);
        for r in readers {
            r.join().unwrap();
        }
        assert_eq!(fresh.read::<1>(5).unwrap(), [0xAB]);
    }
}
