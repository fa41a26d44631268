//! The heap: raw object memory of one domain.
//!
//! Owns the object layout (header, array length, element base) and every raw load and store
//! into object memory; the rest of the VM goes through [`ObjRef`] accessors and never touches
//! pointers itself. Must not know about classes beyond the `*const Class` stored in a header.
//!
//! Layout (all offsets in [`layout`], shared by the interpreter and later the JIT):
//! ```text
//! object: [ class: *const Class | mark: u64 (identity hash, monitor index) | fields... ]
//! array:  [ class: *const Class | mark: u64 | length: u32 | pad: u32 | elements... ]
//! ```
//! Objects are 8-byte aligned. A heap is two semispaces of `-Xmx` bytes each in one reserved
//! range (committed lazily by the OS) plus a large-object space; objects are bump-allocated
//! with an atomic pointer, and the copying collector ([`collector`], driven by [`roots`])
//! evacuates the live ones. Finalization (`Object.finalize`) is not supported: objects are
//! never registered with `java.lang.ref.Finalizer`, so `finalize` methods never run (the
//! method is deprecated for removal); `java.lang.ref` references and `Cleaner` work.

pub mod collector;
pub mod layout;
pub mod roots;
pub mod verify;

use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::class::Class;

/// The header every object starts with.
#[repr(C)]
pub struct ObjHeader {
    pub class: *const Class,
    pub mark: AtomicU64,
}

/// A non-null reference to an object in some domain's heap.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(transparent)]
pub struct ObjRef(NonNull<ObjHeader>);

// SAFETY: object memory is shared between the threads of a domain; Java's memory model, not
// Rust's, governs concurrent field access, and all accesses go through raw loads/stores here.
unsafe impl Send for ObjRef {}
// SAFETY: as above.
unsafe impl Sync for ObjRef {}

/// Reads `slot` (a frame or field slot holding a reference) as an optional object.
#[inline(always)]
pub fn from_slot(slot: u64) -> Option<ObjRef> {
    NonNull::new(slot as usize as *mut ObjHeader).map(ObjRef)
}

/// Writes an optional object as a slot value (0 for null).
#[inline(always)]
pub fn to_slot(r: Option<ObjRef>) -> u64 {
    r.map_or(0, |o| o.addr() as u64)
}

impl ObjRef {
    #[inline(always)]
    pub fn addr(self) -> usize {
        self.0.as_ptr() as usize
    }
    #[inline(always)]
    pub fn slot(self) -> u64 {
        self.addr() as u64
    }
    /// Makes an object reference from an address the caller knows holds an object (the
    /// collector, walking a space it filled).
    pub fn from_addr(addr: usize) -> ObjRef {
        ObjRef(NonNull::new(addr as *mut ObjHeader).expect("null object address"))
    }
    /// Overwrites the class word (the collector's forwarding pointer, tagged with bit 0).
    pub fn set_raw_class_word(self, w: usize) {
        self.write::<u64>(layout::CLASS_OFFSET, w as u64)
    }
    /// Copies `size` bytes of this object (header included) to `dst`.
    pub fn copy_to(self, dst: usize, size: usize) {
        // SAFETY: the collector copies a whole object from the evacuated space into fresh,
        // non-overlapping to-space memory it reserved for it.
        unsafe { std::ptr::copy_nonoverlapping(self.0.as_ptr() as *const u8, dst as *mut u8, size) }
    }
    /// The raw class pointer in the header (for heap verification).
    pub fn raw_class_word(self) -> usize {
        self.read::<u64>(layout::CLASS_OFFSET) as usize
    }
    #[inline(always)]
    pub fn class(self) -> &'static Class {
        // SAFETY: every object is created by `Heap::alloc` with a class pointer to a leaked,
        // never-freed `Class`, and the header is never rewritten afterwards.
        unsafe { &*(*self.0.as_ptr()).class }
    }
    #[inline(always)]
    pub fn mark(self) -> &'static AtomicU64 {
        // SAFETY: the header lives as long as the heap, which outlives every reference to it
        // (heaps are never unmapped while the domain runs).
        unsafe { &(*self.0.as_ptr()).mark }
    }
    #[inline(always)]
    fn ptr(self, offset: usize) -> *mut u8 {
        // SAFETY: callers pass offsets computed by class layout or checked array indexing,
        // so the result stays inside this object's allocation.
        unsafe { (self.0.as_ptr() as *mut u8).add(offset) }
    }

    /// Array length (only valid on arrays).
    #[inline(always)]
    pub fn array_len(self) -> usize {
        // SAFETY: arrays carry a u32 length at ARRAY_LENGTH; callers only call this on arrays.
        unsafe { (self.ptr(layout::ARRAY_LENGTH) as *const u32).read() as usize }
    }

    /// Reads a `T` at byte `offset`. Offsets come from class layout or array indexing.
    #[inline(always)]
    pub fn read<T: Copy>(self, offset: usize) -> T {
        // SAFETY: offset was computed from this object's class layout (or a bounds-checked
        // array index), so `size_of::<T>()` bytes at it belong to the object and are aligned
        // for T (fields are laid out at multiples of their size).
        unsafe { (self.ptr(offset) as *const T).read() }
    }
    /// Writes a `T` at byte `offset`.
    #[inline(always)]
    pub fn write<T: Copy>(self, offset: usize, v: T) {
        // SAFETY: as for `read`.
        unsafe { (self.ptr(offset) as *mut T).write(v) }
    }
    /// Volatile (sequentially consistent) 64-bit load for `volatile` fields and Unsafe.
    #[inline(always)]
    pub fn atomic_u64(self, offset: usize) -> &'static AtomicU64 {
        // SAFETY: 8-byte fields are 8-aligned inside 8-aligned objects; the memory lives as
        // long as the heap.
        unsafe { &*(self.ptr(offset) as *const AtomicU64) }
    }
    #[inline(always)]
    pub fn atomic_u32(self, offset: usize) -> &'static std::sync::atomic::AtomicU32 {
        // SAFETY: 4-byte fields are 4-aligned; memory lives as long as the heap.
        unsafe { &*(self.ptr(offset) as *const std::sync::atomic::AtomicU32) }
    }
    #[inline(always)]
    pub fn read_ref(self, offset: usize) -> Option<ObjRef> {
        from_slot(self.read::<u64>(offset))
    }
    #[inline(always)]
    pub fn write_ref(self, offset: usize, v: Option<ObjRef>) {
        self.write::<u64>(offset, to_slot(v))
    }
    /// Raw pointer to array element storage (for bulk copies by natives).
    #[inline(always)]
    pub fn array_data(self) -> *mut u8 {
        self.ptr(layout::ARRAY_BASE)
    }
    /// The elements of a primitive array as a slice (caller knows the element type).
    pub fn array_slice<T: Copy>(self) -> &'static mut [T] {
        // SAFETY: the array holds `array_len` elements of the element type the caller names,
        // starting at the 8-aligned ARRAY_BASE. Java code may race on the same memory; that
        // is Java's data race semantics, not UB we rely on for soundness of the VM itself.
        unsafe { std::slice::from_raw_parts_mut(self.array_data() as *mut T, self.array_len()) }
    }
    /// Copies `size` raw bytes of this object's body (after the header) to `dst`.
    pub fn copy_body_to(self, dst: ObjRef, size: usize) {
        let n = size - layout::HEADER_SIZE;
        // SAFETY: both objects have at least `size` bytes (same class / same array shape) and
        // do not overlap (dst is freshly allocated).
        unsafe {
            std::ptr::copy_nonoverlapping(self.ptr(layout::HEADER_SIZE), dst.ptr(layout::HEADER_SIZE), n)
        }
    }
}

/// Raw memory copy between (possibly overlapping) array regions, for `System.arraycopy`.
pub fn copy_array_bytes(src: ObjRef, src_off: usize, dst: ObjRef, dst_off: usize, len: usize) {
    // SAFETY: callers bounds-check indices against both arrays' lengths before calling.
    unsafe { std::ptr::copy(src.ptr(src_off), dst.ptr(dst_off), len) }
}

/// Error returned when a heap cannot satisfy an allocation.
#[derive(Debug)]
pub struct OutOfMemory;

/// One domain's heap: two semispaces of `max` bytes each in one reservation; objects are
/// bump-allocated in the current space, and the copying collector ([`collector`]) evacuates
/// the live ones into the other space and flips.
pub struct Heap {
    base: usize,
    max: usize,
    /// Start of the space being allocated in.
    space: AtomicUsize,
    top: AtomicUsize,
    /// Allocation polls start a collection once `used()` passes this.
    threshold: AtomicUsize,
    min_threshold: usize,
    /// Large objects, each in its own mapping (start -> mapped length); never moved.
    large: parking_lot::Mutex<std::collections::BTreeMap<usize, usize>>,
    large_bytes: AtomicUsize,
}

/// Objects at least this big live in the large-object space instead of a semispace, so the
/// collector marks them in place rather than copying them.
pub const LARGE_OBJECT: usize = 256 << 10;

// SAFETY: the heap is a range of raw memory; concurrent allocation uses an atomic bump pointer,
// and the collector runs only while every thread of the domain is stopped.
unsafe impl Send for Heap {}
// SAFETY: as above.
unsafe impl Sync for Heap {}

impl Heap {
    /// Reserves two semispaces of `max_bytes` (committed lazily by the OS on first touch);
    /// collections start when the live part passes `initial_bytes` (and grow from there).
    pub fn new(max_bytes: usize, initial_bytes: usize) -> std::io::Result<Heap> {
        let max = max_bytes.max(1 << 20).next_multiple_of(4096);
        let total = max.checked_mul(2).ok_or_else(|| std::io::Error::other("heap size overflows"))?;
        // SAFETY: an anonymous private mapping with no fixed address; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let base = p as usize;
        let min_threshold = initial_bytes.clamp(1 << 20, max - max / 8);
        Ok(Heap {
            base,
            max,
            space: AtomicUsize::new(base),
            top: AtomicUsize::new(base),
            threshold: AtomicUsize::new(min_threshold),
            min_threshold,
            large: parking_lot::Mutex::new(std::collections::BTreeMap::new()),
            large_bytes: AtomicUsize::new(0),
        })
    }

    /// Allocates `size` zeroed bytes with `class` in the header, up to the heap's maximum.
    #[inline]
    pub fn alloc(&self, class: &'static Class, size: usize) -> Result<ObjRef, OutOfMemory> {
        let size = size.next_multiple_of(8);
        if size >= LARGE_OBJECT {
            return self.alloc_large(class, size);
        }
        let limit = self.space.load(Ordering::Relaxed) + self.max;
        let mut top = self.top.load(Ordering::Relaxed);
        loop {
            let end = top.checked_add(size).ok_or(OutOfMemory)?;
            if end > limit {
                return Err(OutOfMemory);
            }
            match self.top.compare_exchange_weak(top, end, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => break,
                Err(t) => top = t,
            }
        }
        let p = top as *mut ObjHeader;
        // SAFETY: [top, top+size) was just claimed by this thread alone and lies inside the
        // current space; it may hold a previous cycle's dead objects, so it is zeroed here.
        unsafe {
            std::ptr::write_bytes(p as *mut u8, 0, size);
            p.write(ObjHeader { class: class as *const Class, mark: AtomicU64::new(0) });
            Ok(ObjRef(NonNull::new_unchecked(p)))
        }
    }

    #[cold]
    fn alloc_large(&self, class: &'static Class, size: usize) -> Result<ObjRef, OutOfMemory> {
        if self.used() + size > self.max {
            return Err(OutOfMemory);
        }
        let len = size.next_multiple_of(4096);
        // SAFETY: an anonymous private mapping with no fixed address; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(OutOfMemory);
        }
        self.large.lock().insert(p as usize, len);
        self.large_bytes.fetch_add(len, Ordering::Relaxed);
        let p = p as *mut ObjHeader;
        // SAFETY: a fresh zeroed mapping of at least `size` bytes, owned by this object alone.
        unsafe {
            p.write(ObjHeader { class: class as *const Class, mark: AtomicU64::new(0) });
            Ok(ObjRef(NonNull::new_unchecked(p)))
        }
    }

    /// Starts of the large objects.
    pub fn large_objects(&self) -> Vec<usize> {
        self.large.lock().keys().copied().collect()
    }

    /// Frees the large objects not in `live` (after a collection).
    pub fn sweep_large(&self, live: &rustc_hash::FxHashSet<usize>) {
        let mut large = self.large.lock();
        let dead: Vec<(usize, usize)> = large.iter().filter(|(s, _)| !live.contains(s)).map(|(s, l)| (*s, *l)).collect();
        for (start, len) in dead {
            large.remove(&start);
            self.large_bytes.fetch_sub(len, Ordering::Relaxed);
            // SAFETY: the mapping was created by `alloc_large` and nothing refers to the object:
            // the collection found no path to it.
            unsafe {
                libc::munmap(start as *mut libc::c_void, len);
            }
        }
    }

    /// Whether an allocation of `size` more bytes should first run a collection.
    #[inline]
    pub fn should_collect(&self, size: usize) -> bool {
        self.used() + size > self.threshold.load(Ordering::Relaxed)
    }

    /// Whether `size` more bytes fit at all.
    pub fn fits(&self, size: usize) -> bool {
        self.used() + size <= self.max
    }

    /// Bytes in use: the current space's allocated part plus the large objects.
    pub fn used(&self) -> usize {
        self.space_used() + self.large_bytes.load(Ordering::Relaxed)
    }
    /// Bytes allocated in the current semispace.
    pub fn space_used(&self) -> usize {
        self.top.load(Ordering::Relaxed) - self.space.load(Ordering::Relaxed)
    }
    /// The maximum heap size (-Xmx).
    pub fn capacity(&self) -> usize {
        self.max
    }
    /// The current collection threshold (what Runtime.totalMemory reports).
    pub fn committed(&self) -> usize {
        self.threshold.load(Ordering::Relaxed).max(self.used())
    }

    /// (start, end) of the space being allocated in, and of the other one.
    pub fn spaces(&self) -> ((usize, usize), (usize, usize)) {
        let cur = self.space.load(Ordering::Relaxed);
        let other = if cur == self.base { self.base + self.max } else { self.base };
        ((cur, self.top.load(Ordering::Relaxed)), (other, other + self.max))
    }

    /// After a collection copied `live` bytes to the other space starting at its base: makes
    /// it current, returns the evacuated space's pages beyond what the next cycle is likely to
    /// reuse to the OS, and sets the next threshold.
    pub fn flip(&self, live: usize) {
        let ((from, from_top), (to, _)) = self.spaces();
        self.space.store(to, Ordering::Relaxed);
        self.top.store(to + live, Ordering::Relaxed);
        // Keep as much of the evacuated space mapped as the next cycle will allocate (it is
        // zeroed at allocation); give back the rest, so the resident size follows the heap.
        let keep = (live.saturating_mul(3)).max(self.min_threshold).next_multiple_of(4096);
        let used = (from_top - from).next_multiple_of(4096).min(self.max);
        if used > keep {
            // SAFETY: [from+keep, from+used) lies inside our mapping and no live object remains
            // there: every reachable object was copied and every root updated before the flip.
            unsafe {
                libc::madvise((from + keep) as *mut libc::c_void, used - keep, libc::MADV_DONTNEED);
            }
        }
        let live_total = live + self.large_bytes.load(Ordering::Relaxed);
        // Collect before the heap is full, so that threads racing between their allocation
        // poll and their allocation still find room.
        let ceiling = self.max - self.max / 8;
        let next = (live_total.saturating_mul(3)).max(self.min_threshold).min(ceiling);
        self.threshold.store(next, Ordering::Relaxed);
    }

    /// The object starting at `addr`, if `addr` is an 8-aligned address inside the allocated
    /// part of the current space (the header is not checked).
    pub fn object_at(&self, addr: usize) -> Option<ObjRef> {
        if addr % 8 != 0 || !self.contains(addr) {
            return None;
        }
        NonNull::new(addr as *mut ObjHeader).map(ObjRef)
    }

    /// Whether `addr` points into the allocated part of the current space or a large object.
    pub fn contains(&self, addr: usize) -> bool {
        let ((start, top), _) = self.spaces();
        if addr >= start && addr < top {
            return true;
        }
        self.large.lock().range(..=addr).next_back().is_some_and(|(s, l)| addr < s + l)
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        self.sweep_large(&rustc_hash::FxHashSet::default());
        // SAFETY: the range was mapped by `Heap::new` and no object of it outlives the heap.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.max * 2);
        }
    }
}

/// Raw memory access for `jdk.internal.misc.Unsafe`: an object base plus offset, or an
/// absolute address when the base is null. Like HotSpot, offsets are trusted: Unsafe is only
/// reachable from privileged JDK code, which computes them from field and array layout.
pub mod raw {
    use super::ObjRef;
    use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64};

    #[inline]
    pub fn addr(base: Option<ObjRef>, offset: i64) -> usize {
        base.map_or(0, |b| b.addr()).wrapping_add(offset as usize)
    }
    #[inline]
    pub fn read<T: Copy>(addr: usize) -> T {
        // SAFETY: Unsafe's contract: the privileged caller passes an address inside a live
        // object (base + field/array offset) or inside memory it allocated with allocateMemory.
        unsafe { (addr as *const T).read_unaligned() }
    }
    #[inline]
    pub fn write<T: Copy>(addr: usize, v: T) {
        // SAFETY: as for `read`.
        unsafe { (addr as *mut T).write_unaligned(v) }
    }
    pub fn atomic_u64(addr: usize) -> &'static AtomicU64 {
        // SAFETY: as for `read`; 8-byte CAS targets are 8-aligned fields or elements.
        unsafe { &*(addr as *const AtomicU64) }
    }
    pub fn atomic_u32(addr: usize) -> &'static AtomicU32 {
        // SAFETY: as for `read`; 4-byte CAS targets are 4-aligned.
        unsafe { &*(addr as *const AtomicU32) }
    }
    pub fn atomic_u16(addr: usize) -> &'static AtomicU16 {
        // SAFETY: as for `read`.
        unsafe { &*(addr as *const AtomicU16) }
    }
    pub fn atomic_u8(addr: usize) -> &'static AtomicU8 {
        // SAFETY: as for `read`.
        unsafe { &*(addr as *const AtomicU8) }
    }
    /// memset for Unsafe.setMemory.
    pub fn fill(addr: usize, len: usize, value: u8) {
        // SAFETY: as for `read`; the range belongs to one object or one allocation.
        unsafe { std::ptr::write_bytes(addr as *mut u8, value, len) }
    }
    /// memmove for Unsafe.copyMemory.
    pub fn copy(src: usize, dst: usize, len: usize) {
        // SAFETY: as for `read`; both ranges are valid for `len` bytes.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, len) }
    }
}
