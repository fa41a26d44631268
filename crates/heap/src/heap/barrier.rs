//! The write barrier: the one definition of how a reference is stored into an object.
//!
//! Owns every store of a reference into object memory outside the collector: plain, volatile,
//! compare-and-set, `Unsafe`'s raw-address form and bulk copies. The rule, for the interpreter,
//! natives and compiled code alike: after a reference `value` is stored into `holder`, if
//! `value` lies in the nursery and `holder` does not, `holder` joins the remembered set (once:
//! its mark word's `MARK_REMEMBERED` bit). No safepoint may fall between the store and the
//! check. Compiled code emits the check inline from the nursery bounds its thread carries
//! (the runtime's `offsets::Offsets`: `thread_nursery_start`, `thread_nursery_size`) and calls
//! [`Heap::remember`] when it holds.
//!
//! The types enforce the rule: [`ObjRef::write`] and
//! [`raw::Addr::write`](super::raw::Addr::write) take only [`Primitive`](super::Primitive)
//! values, which exclude reference slots, so a reference store that bypasses this module does
//! not compile outside the heap. Must not know about classes or threads.
//!
//! ```
//! # fn store(heap: &heap::Heap, holder: heap::ObjRef, value: heap::ObjRef) {
//! heap.write_ref(holder, 16, Some(value)); // the barrier's store
//! holder.write::<i32>(24, 7); // a primitive needs none
//! # }
//! ```
//! A reference slot is not a primitive:
//! ```compile_fail
//! # fn store(holder: heap::ObjRef, value: heap::ObjRef) {
//! holder.write::<u64>(16, value.slot());
//! # }
//! ```
//! nor is a reference:
//! ```compile_fail
//! # fn store(holder: heap::ObjRef, value: heap::ObjRef) {
//! holder.write(16, value);
//! # }
//! ```
//! and `Unsafe`'s raw stores are primitive too:
//! ```compile_fail
//! # fn store(addr: heap::raw::Addr, value: heap::ObjRef) {
//! addr.write::<u64>(value.slot());
//! # }
//! ```

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use super::raw::Addr;
use super::{Heap, ObjRef, layout, to_slot};

impl Heap {
    /// Whether `addr` lies in the nursery.
    #[inline(always)]
    pub fn is_young(&self, addr: usize) -> bool {
        addr.wrapping_sub(self.nursery_start) < self.nursery_reserve
    }

    /// The barrier's check, after the reference slot `value` was stored into `holder`.
    #[inline(always)]
    fn post_write(&self, holder: ObjRef, value: u64) {
        if self.is_young(value as usize) && !self.is_young(holder.addr()) {
            self.remember(holder);
        }
    }

    /// Stores a reference field or element, with the write barrier.
    #[inline(always)]
    pub fn write_ref(&self, holder: ObjRef, offset: usize, v: Option<ObjRef>) {
        self.write_slot(holder, offset, to_slot(v));
    }

    /// Stores a reference in slot form (0 for null) into a field or element, with the write
    /// barrier.
    #[inline(always)]
    pub fn write_slot(&self, holder: ObjRef, offset: usize, slot: u64) {
        holder.write_raw::<u64>(offset, slot);
        self.post_write(holder, slot);
    }

    /// A volatile (sequentially consistent) reference store, with the write barrier.
    #[inline]
    pub fn write_slot_volatile(&self, holder: ObjRef, offset: usize, slot: u64) {
        holder.atomic_slot(offset).store(slot, Ordering::SeqCst);
        self.post_write(holder, slot);
    }

    /// Compare-and-set of a reference slot of `holder` (sequentially consistent), with the
    /// write barrier when it stores: the witness value, Ok if swapped.
    #[inline]
    pub fn cas_slot(
        &self,
        holder: ObjRef,
        offset: usize,
        expected: u64,
        new: u64,
    ) -> Result<u64, u64> {
        let r = holder.atomic_slot(offset).compare_exchange(
            expected,
            new,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        if r.is_ok() {
            self.post_write(holder, new);
        }
        r
    }

    /// Unsafe's reference store at an address: `addr` is `holder`'s field or element when
    /// `holder` is an object (then with the barrier), else off-heap memory (no barrier: the
    /// collector does not scan it).
    #[inline]
    pub fn write_slot_at(&self, holder: Option<ObjRef>, addr: Addr, slot: u64) {
        addr.write_slot(slot);
        if let Some(h) = holder {
            self.post_write(h, slot);
        }
    }

    /// Unsafe's compare-and-set of a reference at an address (see [`Heap::write_slot_at`]).
    #[inline]
    pub fn cas_slot_at(
        &self,
        holder: Option<ObjRef>,
        addr: Addr,
        expected: u64,
        new: u64,
    ) -> Result<u64, u64> {
        let r = Self::slot_cell(addr).compare_exchange(
            expected,
            new,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        if let (Ok(_), Some(h)) = (r, holder) {
            self.post_write(h, new);
        }
        r
    }

    /// The 8-byte cell of a reference slot at an Unsafe address.
    #[inline]
    fn slot_cell(addr: Addr) -> &'static AtomicU64 {
        let cell = addr.atomic_i64();
        // SAFETY: AtomicI64 and AtomicU64 have the same size and alignment; the cell is
        // accessible for 8 bytes (`Addr`'s contract, checked by `atomic_i64`).
        unsafe { &*(cell as *const AtomicI64 as *const AtomicU64) }
    }

    /// The write barrier after references were copied into `holder` in bulk (arraycopy,
    /// clone): an old holder is remembered whatever was copied.
    #[inline]
    pub fn post_bulk_write(&self, holder: ObjRef) {
        if !self.is_young(holder.addr()) {
            self.remember(holder);
        }
    }

    /// The barrier's slow path: `holder` (old) now refers into the nursery.
    #[cold]
    #[inline]
    pub fn remember(&self, holder: ObjRef) {
        let mark = holder.mark();
        if mark.load(Ordering::Relaxed) & layout::MARK_REMEMBERED != 0 {
            return;
        }
        if mark.fetch_or(layout::MARK_REMEMBERED, Ordering::AcqRel) & layout::MARK_REMEMBERED == 0 {
            self.remembered.lock().push(holder);
        }
    }

    /// Empties the remembered set (at the start of a collection, before anything moves) and
    /// clears the objects' remembered bits.
    pub fn take_remembered(&self) -> Vec<ObjRef> {
        let set = std::mem::take(&mut *self.remembered.lock());
        for o in &set {
            o.mark()
                .fetch_and(!layout::MARK_REMEMBERED, Ordering::Relaxed);
        }
        set
    }
}
