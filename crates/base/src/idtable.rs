//! A lock-free table from dense `u32` ids to values set once, grown in chunks.
//!
//! Used for per-domain class state, so that the interpreter can look an id up with two atomic
//! loads and no lock; [`Slots`] is the same table of pointers that can also be cleared, for the
//! VM's id -> class and id -> method tables (classes are unloaded).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

const CHUNK_BITS: u32 = 10;
const CHUNK: usize = 1 << CHUNK_BITS;
const CHUNKS: usize = 1 << 12;

type Chunk<T> = [OnceLock<T>; CHUNK];

pub struct IdTable<T> {
    chunks: Box<[AtomicPtr<Chunk<T>>]>,
}

impl<T> Default for IdTable<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> IdTable<T> {
    #[inline]
    pub fn new() -> Self {
        let chunks = (0..CHUNKS)
            .map(|_| AtomicPtr::new(std::ptr::null_mut()))
            .collect();
        IdTable { chunks }
    }

    /// Capacity in ids.
    pub const CAPACITY: usize = CHUNK * CHUNKS;

    fn chunk(&self, id: u32) -> Option<&Chunk<T>> {
        let slot = self.chunks.get((id >> CHUNK_BITS) as usize)?;
        let p = slot.load(Ordering::Acquire);
        // SAFETY: a non-null chunk pointer was published by `chunk_or_create` from a leaked
        // Box and is only freed in Drop, which needs `&mut self`.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    fn chunk_or_create(&self, id: u32) -> &Chunk<T> {
        if let Some(c) = self.chunk(id) {
            return c;
        }
        let slot = &self.chunks[(id >> CHUNK_BITS) as usize];
        // Chunks are freed only in Drop, which needs `&mut self`.
        publish(slot, Box::new(std::array::from_fn(|_| OnceLock::new())))
    }

    #[inline]
    pub fn get(&self, id: u32) -> Option<&T> {
        self.chunk(id)?[(id as usize) & (CHUNK - 1)].get()
    }

    /// Gets the value for `id`, creating it with `f` if absent. Panics if `id` exceeds capacity.
    #[inline]
    pub fn get_or_init(&self, id: u32, f: impl FnOnce() -> T) -> &T {
        self.chunk_or_create(id)[(id as usize) & (CHUNK - 1)].get_or_init(f)
    }
}

impl<T> Drop for IdTable<T> {
    fn drop(&mut self) {
        for slot in self.chunks.iter() {
            let p = slot.load(Ordering::Acquire);
            if !p.is_null() {
                // SAFETY: chunk pointers come from Box::into_raw and are dropped once, here.
                unsafe { drop(Box::from_raw(p)) };
            }
        }
    }
}

// SAFETY: values are only reachable through OnceLock, which is Sync when T is Send + Sync.
unsafe impl<T: Send + Sync> Sync for IdTable<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Send for IdTable<T> {}

/// A cell for every id an [`IdTable`] can hold, in one block at a fixed address, which
/// compiled code reads with a single load at [`IdBlock::base`] + id × the cell's size: a
/// domain's "class is initialized" flags ([`IdFlags`]) and its class mirrors ([`IdWords`]).
/// The block is reserved whole and zeroed by the allocator, which maps fresh pages for it, so
/// only the pages of ids in use are ever touched.
pub struct IdBlock<T: ZeroedCell> {
    cells: std::ptr::NonNull<T>,
}

/// A cell type whose all-zero bytes are a valid value (the atomic integers).
///
/// # Safety
/// Zeroed memory of the type's size and alignment must be a valid value of it.
pub unsafe trait ZeroedCell: Sync {}
// SAFETY: atomic integers are plain integers in memory; zero is one.
unsafe impl ZeroedCell for AtomicU8 {}
// SAFETY: as above.
unsafe impl ZeroedCell for std::sync::atomic::AtomicU64 {}

/// A byte per id: nonzero means set.
pub type IdFlags = IdBlock<AtomicU8>;
/// A word per id.
pub type IdWords = IdBlock<std::sync::atomic::AtomicU64>;

impl<T: ZeroedCell> IdBlock<T> {
    const LAYOUT: std::alloc::Layout = match std::alloc::Layout::array::<T>(CHUNK * CHUNKS) {
        Ok(l) => l,
        Err(_) => panic!("the block's size fits a layout"),
    };

    pub fn new() -> IdBlock<T> {
        // SAFETY: the layout's size is not zero.
        let p = unsafe { std::alloc::alloc_zeroed(Self::LAYOUT) } as *mut T;
        match std::ptr::NonNull::new(p) {
            Some(cells) => IdBlock { cells },
            None => std::alloc::handle_alloc_error(Self::LAYOUT),
        }
    }

    /// The address of id 0's cell: id `n`'s is `base() + n * size_of::<T>()`.
    pub fn base(&self) -> usize {
        self.cells.as_ptr() as usize
    }

    /// The cell of `id` (None beyond the table's capacity).
    #[inline]
    pub fn cell(&self, id: u32) -> Option<&T> {
        // SAFETY: the block holds CHUNK * CHUNKS zeroed cells, valid values of `T`
        // (`ZeroedCell`), for as long as `self` lives.
        ((id as usize) < CHUNK * CHUNKS).then(|| unsafe { &*self.cells.as_ptr().add(id as usize) })
    }

    fn expect_cell(&self, id: u32) -> &T {
        self.cell(id)
            .expect("class id within the id table's capacity")
    }
}

impl IdFlags {
    /// The flag of `id` (false beyond the table's capacity).
    #[inline]
    pub fn get(&self, id: u32) -> bool {
        self.cell(id)
            .is_some_and(|b| b.load(Ordering::Acquire) != 0)
    }

    /// Sets the flag of `id`. Panics if `id` exceeds capacity, as [`IdTable::get_or_init`].
    #[inline]
    pub fn set(&self, id: u32, on: bool) {
        self.expect_cell(id).store(on as u8, Ordering::Release);
    }
}

impl IdWords {
    /// The word of `id` (0 beyond the table's capacity).
    #[inline]
    pub fn load(&self, id: u32) -> u64 {
        self.cell(id).map_or(0, |w| w.load(Ordering::Acquire))
    }

    /// Sets the word of `id`. Panics if `id` exceeds capacity, as [`IdTable::get_or_init`].
    #[inline]
    pub fn store(&self, id: u32, v: u64) {
        self.expect_cell(id).store(v, Ordering::Release);
    }
}

impl<T: ZeroedCell> Default for IdBlock<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: ZeroedCell> Drop for IdBlock<T> {
    fn drop(&mut self) {
        // SAFETY: the block came from `alloc_zeroed` with this layout and is freed once.
        unsafe { std::alloc::dealloc(self.cells.as_ptr() as *mut u8, Self::LAYOUT) };
    }
}

// SAFETY: the cells are atomics (`ZeroedCell: Sync`); the block is owned by the value.
unsafe impl<T: ZeroedCell> Sync for IdBlock<T> {}
// SAFETY: as above.
unsafe impl<T: ZeroedCell> Send for IdBlock<T> {}

/// Ids to `&'static T` that can be cleared again: the class table's id -> class and
/// id -> method maps, whose entries go when their class is unloaded.
///
/// A value is "`'static`" in the sense the class table gives the word: it lives until its
/// owner has cleared every table entry that leads to it and then waited until no thread can
/// still hold what it read before (the runtime's `class::unload`).
pub struct Slots<T: 'static> {
    table: IdTable<AtomicPtr<T>>,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots {
            table: IdTable::new(),
        }
    }
}

impl<T: Sync> Slots<T> {
    #[inline]
    pub fn get(&self, id: u32) -> Option<&'static T> {
        let p = self.table.get(id)?.load(Ordering::Acquire);
        // SAFETY: a non-null pointer was stored by `set` from a `&'static T`, which its owner
        // frees only after clearing this slot and a grace period (see the type's doc).
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// Sets `id` to `v` unless it holds a value already. Panics if `id` exceeds capacity.
    pub fn set(&self, id: u32, v: &'static T) {
        let slot = self
            .table
            .get_or_init(id, || AtomicPtr::new(std::ptr::null_mut()));
        let _ = slot.compare_exchange(
            std::ptr::null_mut(),
            v as *const T as *mut T,
            Ordering::AcqRel,
            Ordering::Acquire,
        );
    }

    /// Forgets the value of `id`.
    #[inline]
    pub fn clear(&self, id: u32) {
        if let Some(slot) = self.table.get(id) {
            slot.store(std::ptr::null_mut(), Ordering::Release);
        }
    }
}

/// Publishes `fresh` in the empty `slot`, or drops it if another thread published first;
/// returns what the slot holds. The slot's owner frees its value only when no reference from
/// here can be left (each caller says when).
fn publish<T>(slot: &AtomicPtr<T>, fresh: Box<T>) -> &T {
    let fresh = Box::into_raw(fresh);
    match slot.compare_exchange(
        std::ptr::null_mut(),
        fresh,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        // SAFETY: we just published `fresh`; it lives as long as the slot's owner keeps it.
        Ok(_) => unsafe { &*fresh },
        Err(existing) => {
            // SAFETY: `fresh` was never shared; `existing` was published by another thread.
            unsafe {
                drop(Box::from_raw(fresh));
                &*existing
            }
        }
    }
}

/// A value set once and read without a lock, which its owner may take back and free when no
/// reader can be left: a domain's resolved constants of a class, freed when the class is
/// unloaded.
pub struct Clearable<T> {
    value: AtomicPtr<T>,
}

impl<T> Default for Clearable<T> {
    fn default() -> Self {
        Clearable {
            value: AtomicPtr::new(std::ptr::null_mut()),
        }
    }
}

impl<T: Sync> Clearable<T> {
    #[inline]
    pub fn get(&self) -> Option<&T> {
        let p = self.value.load(Ordering::Acquire);
        // SAFETY: a non-null pointer was published by `get_or_init` from a Box and is freed
        // only by `clear` (whose caller guarantees no reference is left) or Drop (`&mut`).
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// The value, made by `f` if there is none (racing makers: the first one wins).
    #[inline]
    pub fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        if let Some(v) = self.get() {
            return v;
        }
        // The value is freed only by `clear` or Drop (see `get`).
        publish(&self.value, Box::new(f()))
    }

    /// Frees the value; `get` finds none afterwards.
    ///
    /// # Safety
    /// No reference obtained from `get` or `get_or_init` may be alive or used afterwards, and
    /// no other thread may call them meanwhile.
    pub unsafe fn clear(&self) {
        let p = self.value.swap(std::ptr::null_mut(), Ordering::AcqRel);
        if !p.is_null() {
            // SAFETY: `p` came from `get_or_init`'s Box and the caller guarantees nothing
            // refers to it any more.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

impl<T> Drop for Clearable<T> {
    fn drop(&mut self) {
        let p = *self.value.get_mut();
        if !p.is_null() {
            // SAFETY: `&mut self`: no reference to the value is left.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearable_values_are_made_once_and_freed_on_clear() {
        let c = Clearable::<Vec<u32>>::default();
        assert!(c.get().is_none());
        assert_eq!(c.get_or_init(|| vec![1, 2]), &vec![1, 2]);
        assert_eq!(c.get_or_init(|| vec![3]), &vec![1, 2]);
        // SAFETY: no reference from `get` is alive, and no other thread uses `c`.
        unsafe { c.clear() };
        assert!(c.get().is_none());
        assert_eq!(c.get_or_init(|| vec![3]), &vec![3]);
    }

    #[test]
    fn id_flags_are_bytes_at_base_plus_id() {
        let f = IdFlags::new();
        let last = (CHUNK * CHUNKS - 1) as u32;
        assert!(!f.get(7) && !f.get(last));
        f.set(7, true);
        f.set(last, true);
        assert!(f.get(7) && f.get(last) && !f.get(8));
        // SAFETY: id 7's byte lies in the block `f` owns.
        assert_eq!(unsafe { *((f.base() + 7) as *const u8) }, 1);
        f.set(7, false);
        assert!(!f.get(7));
        assert!(!f.get(last + 1));
    }

    #[test]
    fn slots_are_set_once_until_cleared() {
        static A: u8 = 1;
        static B: u8 = 2;
        let s = Slots::<u8>::default();
        assert!(s.get(3).is_none());
        s.set(3, &A);
        s.set(3, &B);
        assert_eq!(s.get(3), Some(&1));
        s.clear(3);
        assert!(s.get(3).is_none());
        s.set(3, &B);
        assert_eq!(s.get(3), Some(&2));
        s.clear(5000);
        assert!(s.get(5000).is_none());
    }
    #[test]
    fn set_and_get_across_chunks() {
        let t = IdTable::new();
        assert!(t.get(5).is_none());
        assert_eq!(*t.get_or_init(5, || 50), 50);
        assert_eq!(*t.get_or_init(5, || 51), 50);
        assert_eq!(*t.get_or_init(70_000, || 7), 7);
        assert_eq!(t.get(70_000), Some(&7));
        assert!(t.get(u32::MAX).is_none());
    }
}
