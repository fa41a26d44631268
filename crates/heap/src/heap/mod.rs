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
//! Objects are 8-byte aligned. A heap is generational: a nursery where objects are
//! bump-allocated with an atomic pointer, an old generation of two semispaces of `-Xmx` bytes
//! each in the same reserved range (committed lazily by the OS), and a large-object space. The
//! copying collector ([`collector`], driven by the runtime's `gc` module, which knows threads
//! and domains) promotes the nursery's survivors in young collections and copies everything
//! in full ones. Every store of a reference into an object goes through the write barrier
//! ([`Heap::write_ref`] and its kin), which records old objects that come to refer
//! into the nursery. `java.lang.ref` references (soft, weak, final, phantom) are discovered by
//! the copier and processed by the runtime's `gc` module, which also does finalization: it keeps
//! the unreached referent of a `FinalReference` (the class library's `Finalizer`, registered
//! for finalizable objects when `Object.<init>` returns) alive for its `finalize`.
//!
//! Lives in crate `heap` (below the runtime, beside the graph copier); the runtime names it
//! `crate::heap`.

pub mod barrier;
pub mod collector;
pub use base::layout;

use std::ptr::NonNull;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};

use meta::class::Class;

/// The header every object starts with.
#[repr(C)]
pub struct ObjHeader {
    pub class: *const Class,
    pub mark: AtomicU64,
}

/// The values [`ObjRef::write`] and [`raw::Addr::write`] store: Java's primitive representations.
/// Neither a reference slot (`u64`) nor an [`ObjRef`] is one, so a reference store must go
/// through the write barrier ([`barrier`]). A `long` or `double` bit pattern is an `i64`.
pub trait Primitive: Copy + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! primitives {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Primitive for $t {}
    )*};
}
primitives!(u8, i8, u16, i16, u32, i32, i64, f32, f64);

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
    #[inline]
    pub fn from_addr(addr: usize) -> ObjRef {
        ObjRef(NonNull::new(addr as *mut ObjHeader).expect("null object address"))
    }
    /// Overwrites the class word (the collector's forwarding pointer, tagged with bit 0).
    #[inline]
    pub fn set_raw_class_word(self, w: usize) {
        self.write_raw::<u64>(layout::CLASS_OFFSET, w as u64)
    }
    /// Copies `size` bytes of this object (header included) to `dst`.
    #[inline]
    pub fn copy_to(self, dst: usize, size: usize) {
        // SAFETY: the collector copies a whole object from the evacuated space into fresh,
        // non-overlapping to-space memory it reserved for it.
        unsafe { std::ptr::copy_nonoverlapping(self.0.as_ptr() as *const u8, dst as *mut u8, size) }
    }
    /// The raw class pointer in the header (for heap verification).
    #[inline]
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
    /// Writes the primitive `v` at byte `offset`. References are stored with the write
    /// barrier instead ([`barrier`]): no [`Primitive`] is a reference slot.
    #[inline(always)]
    pub fn write<T: Primitive>(self, offset: usize, v: T) {
        self.write_raw(offset, v)
    }
    /// Writes a VM word that is not a heap reference (a metadata pointer, an id) into a hidden
    /// field the collector does not scan.
    #[inline(always)]
    pub fn write_word(self, offset: usize, w: usize) {
        self.write_raw(offset, w)
    }
    /// Clears the reference slot at `offset` (storing null needs no barrier).
    #[inline(always)]
    pub fn clear_slot(self, offset: usize) {
        self.write_raw::<u64>(offset, 0)
    }
    /// Moves the non-null reference at `offset` by `delta` bytes: a heap image copied to a new
    /// address as a whole (`Heap::load_image`), whose old-generation objects refer only into
    /// the image, so the write barrier has nothing to record.
    #[inline]
    pub fn relocate_slot(self, offset: usize, delta: u64) {
        let v = self.read::<u64>(offset);
        if v != 0 {
            self.write_raw::<u64>(offset, v.wrapping_add(delta));
        }
    }
    /// Writes any `T`, references included, without the barrier: the barrier's own store and
    /// the collector's header and slot updates.
    #[inline(always)]
    pub(in crate::heap) fn write_raw<T: Copy>(self, offset: usize, v: T) {
        // SAFETY: as for `read`.
        unsafe { (self.ptr(offset) as *mut T).write(v) }
    }
    /// The `long` or `double` field or element at `offset`, for volatile and atomic access.
    #[inline(always)]
    pub fn atomic_i64(self, offset: usize) -> &'static AtomicI64 {
        // SAFETY: 8-byte fields are 8-aligned inside 8-aligned objects; the memory lives as
        // long as the heap.
        unsafe { &*(self.ptr(offset) as *const AtomicI64) }
    }
    /// The reference slot at `offset`, for volatile and atomic access: stores go through the
    /// barrier ([`barrier`]), so only the heap gets the cell itself.
    #[inline(always)]
    pub(in crate::heap) fn atomic_slot(self, offset: usize) -> &'static AtomicU64 {
        // SAFETY: as for `atomic_i64`.
        unsafe { &*(self.ptr(offset) as *const AtomicU64) }
    }
    /// A volatile (sequentially consistent) load of the reference slot at `offset`.
    #[inline(always)]
    pub fn read_slot_volatile(self, offset: usize) -> u64 {
        self.atomic_slot(offset).load(Ordering::SeqCst)
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
    /// Raw pointer to array element storage (for bulk copies by natives).
    #[inline(always)]
    pub fn array_data(self) -> *mut u8 {
        self.ptr(layout::ARRAY_BASE)
    }
    /// The elements of a primitive array as a slice (caller knows the element type).
    pub fn array_slice<T: Primitive>(self) -> &'static mut [T] {
        // SAFETY: the array holds `array_len` elements of the element type the caller names,
        // starting at the 8-aligned ARRAY_BASE. Java code may race on the same memory; that
        // is Java's data race semantics, not UB we rely on for soundness of the VM itself.
        unsafe { std::slice::from_raw_parts_mut(self.array_data() as *mut T, self.array_len()) }
    }
    /// Appends bytes `[start, end)` of this object to `out`.
    #[inline]
    pub fn append_bytes(self, start: usize, end: usize, out: &mut Vec<u8>) {
        let n = end - start;
        out.reserve(n);
        // SAFETY: [start, end) lies inside the object (callers take it from its class layout or
        // array length); `out` has room for n more bytes, which the copy initializes.
        unsafe {
            std::ptr::copy_nonoverlapping(self.ptr(start), out.as_mut_ptr().add(out.len()), n);
            out.set_len(out.len() + n);
        }
    }
    /// Writes `bytes` into this object at byte `start`.
    #[inline]
    pub fn write_bytes(self, start: usize, bytes: &[u8]) {
        // SAFETY: [start, start + bytes.len()) lies inside the object (as for `append_bytes`),
        // and `bytes` is not heap memory of this object.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr(start), bytes.len()) }
    }
    /// Copies `size` raw bytes of this object's body (after the header) to `dst`.
    #[inline]
    pub fn copy_body_to(self, dst: ObjRef, size: usize) {
        let n = size - layout::HEADER_SIZE;
        // SAFETY: both objects have at least `size` bytes (same class / same array shape) and
        // do not overlap (dst is freshly allocated).
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.ptr(layout::HEADER_SIZE),
                dst.ptr(layout::HEADER_SIZE),
                n,
            )
        }
    }
}

/// Raw memory copy between (possibly overlapping) array regions, for `System.arraycopy`.
#[inline]
pub fn copy_array_bytes(src: ObjRef, src_off: usize, dst: ObjRef, dst_off: usize, len: usize) {
    // SAFETY: callers bounds-check indices against both arrays' lengths before calling.
    unsafe { std::ptr::copy(src.ptr(src_off), dst.ptr(dst_off), len) }
}

/// Error returned when a heap cannot satisfy an allocation.
#[derive(Debug)]
pub struct OutOfMemory;

/// One domain's heap. One reservation holds two old semispaces of `max` bytes each and the
/// nursery:
/// ```text
/// base: [ old semispace A: max | old semispace B: max | nursery ]
/// ```
/// Objects are bump-allocated in the nursery (or, when it is full and the allocation may not
/// collect, in the current old semispace). A young collection promotes the nursery's live
/// objects into the current old semispace; a full collection copies the nursery and the old
/// semispace into the other old semispace and flips. Invariant: old bytes + nursery bytes never
/// exceed `max`, so both always fit their destination.
pub struct Heap {
    base: usize,
    max: usize,
    /// Start of the current old semispace, and its bump pointer.
    space: AtomicUsize,
    top: AtomicUsize,
    nursery_start: usize,
    /// The nursery's reserved extent: the write barrier's bounds, fixed for the heap's life.
    nursery_reserve: usize,
    /// How much of it a cycle may fill: `nursery_reserve` when -Xmn fixed it, else grown by
    /// [`Heap::finish_young`] while young collections find much of it alive.
    nursery_capacity: AtomicUsize,
    nursery_top: AtomicUsize,
    /// The nursery allocates below this (less than its end when the old generation is so full
    /// that a whole nursery would not fit beside it).
    nursery_limit: AtomicUsize,
    /// A full collection follows a young one once old and large bytes pass this.
    threshold: AtomicUsize,
    min_threshold: usize,
    /// Large objects, each in its own mapping (start -> mapped length); never moved.
    large: parking_lot::Mutex<std::collections::BTreeMap<usize, usize>>,
    large_bytes: AtomicUsize,
    /// Old objects (and large ones) that may hold references into the nursery: the roots of a
    /// young collection, recorded by the write barrier, each once (MARK_REMEMBERED).
    remembered: parking_lot::Mutex<Vec<ObjRef>>,
    /// The size of the nursery chunks threads take as their [`Tlab`]s (0: no buffers, every
    /// allocation bumps the shared pointer, as GC stress mode wants).
    tlab_size: AtomicUsize,
}

/// A thread's allocation buffer: a chunk `[top, end)` of one heap's nursery that only its
/// thread allocates from, without atomic operations (compiled code bumps `top` inline, at the
/// offsets the runtime's `offsets` module gives). Empty (`top == end == 0`) until the first
/// allocation, and again after every collection, which empties the nursery ([`Tlab::retire`]).
/// The unused tail of a retired buffer is never parsed: nothing walks the nursery object by
/// object.
#[repr(C)]
#[derive(Default, Debug)]
pub struct Tlab {
    pub top: usize,
    pub end: usize,
}

impl Tlab {
    /// Gives the buffer up (its memory is the nursery's again at the next collection).
    #[inline]
    pub fn retire(&mut self) {
        *self = Tlab::default();
    }

    /// Whether `size` bytes (a multiple of 8) fit in the buffer.
    #[inline(always)]
    pub fn fits(&self, size: usize) -> bool {
        self.top + size <= self.end
    }
}

/// The nursery chunk a thread takes as its allocation buffer: 1/64 of the nursery, between
/// 4 KiB and 32 KiB (a thread retires at most a quarter of one per refill, see `alloc_local`).
#[inline]
fn tlab_size_for(nursery: usize) -> usize {
    (nursery / 64).clamp(4 << 10, 32 << 10)
}

/// Maps `len` bytes of zeroed, private, lazily committed memory; returns its address.
pub fn map_anonymous(len: usize) -> Option<usize> {
    // SAFETY: an anonymous private mapping at no fixed address touches no existing memory; the
    // result is checked.
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
    (p != libc::MAP_FAILED).then_some(p as usize)
}

/// Objects at least this big live in the large-object space instead of a semispace, so the
/// collector marks them in place rather than copying them.
pub const LARGE_OBJECT: usize = 256 << 10;

/// The most old-generation (and large-object) bytes before a young collection is followed by a
/// full one: below the heap size by a whole nursery (so the nursery keeps its size) and an
/// eighth (so threads racing between their allocation poll and their allocation find room).
fn full_ceiling(max: usize, nursery: usize) -> usize {
    (max - max / 8).saturating_sub(nursery).max(max / 4)
}

/// The nursery size for a heap of `max` bytes unless -Xmn says otherwise: a quarter of the heap,
/// between 1 MB and 16 MB (big enough that most objects die before a collection, small enough
/// that allocation stays in cache-friendly, quickly recycled memory).
#[inline]
pub fn default_nursery(max: usize) -> usize {
    (max / 4).clamp(1 << 20, 16 << 20)
}

/// How far the nursery of a heap of `max` bytes may grow unless -Xmn fixed it: a quarter of
/// the heap, at most 256 MB. A program whose young collections keep finding much of the
/// nursery alive (objects that live a little longer than one cycle: trees being built,
/// buffers being filled) gets a bigger one, so that they die young instead of being promoted
/// and copied again by full collections; HotSpot's collectors grow their young generations
/// for the same reason.
#[inline]
pub fn max_adaptive_nursery(max: usize) -> usize {
    (max / 4).clamp(1 << 20, 256 << 20)
}

/// A young collection that promotes more than this fraction (1/n) of the nursery's capacity
/// doubles the capacity, up to the reserve.
const GROW_WHEN_SURVIVING: usize = 8;

// SAFETY: the heap is a range of raw memory; concurrent allocation uses atomic bump pointers,
// and the collector runs only while every thread of the domain is stopped.
unsafe impl Send for Heap {}
// SAFETY: as above.
unsafe impl Sync for Heap {}

/// Makes the `size` bytes at `at` an object of `class`: zeroes them (they may hold a previous
/// cycle's dead objects) and writes the header.
///
/// # Safety
///
/// `[at, at + size)` is heap memory claimed by the calling thread alone, 8-aligned, and
/// `size` is at least the header's.
#[inline(always)]
unsafe fn init_object(at: usize, class: &'static Class, size: usize) -> ObjRef {
    let p = at as *mut ObjHeader;
    // SAFETY: the caller owns the range, which is aligned and big enough for the header.
    unsafe {
        std::ptr::write_bytes(p as *mut u8, 0, size);
        p.write(ObjHeader {
            class: class as *const Class,
            mark: AtomicU64::new(0),
        });
        ObjRef(NonNull::new_unchecked(p))
    }
}

/// Claims `size` bytes below `limit` from the bump pointer `top`.
#[inline(always)]
fn bump(top: &AtomicUsize, size: usize, limit: usize) -> Option<usize> {
    let mut cur = top.load(Ordering::Relaxed);
    loop {
        let end = cur.checked_add(size)?;
        if end > limit {
            return None;
        }
        match top.compare_exchange_weak(cur, end, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(cur),
            Err(t) => cur = t,
        }
    }
}

/// What a collection evacuates and where to.
pub struct Plan {
    /// The ranges being evacuated (the second may be empty).
    pub from: [(usize, usize); 2],
    /// Where survivors are copied: [start, end).
    pub to: (usize, usize),
}

impl Heap {
    /// Reserves the old semispaces and a nursery of `nursery_bytes` (committed lazily by the OS
    /// on first touch) that may grow to `nursery_reserve` bytes; full collections start when
    /// old data passes `initial_bytes` (and the threshold grows from there).
    pub fn new(
        max_bytes: usize,
        initial_bytes: usize,
        nursery_bytes: usize,
        nursery_reserve: usize,
    ) -> std::io::Result<Heap> {
        let max = max_bytes.max(1 << 20).next_multiple_of(4096);
        let nursery_capacity = nursery_bytes
            .clamp(64 << 10, max / 2)
            .next_multiple_of(4096);
        let nursery_reserve = nursery_reserve
            .clamp(nursery_capacity, (max / 2).max(nursery_capacity))
            .next_multiple_of(4096);
        let total = max
            .checked_mul(2)
            .and_then(|t| t.checked_add(nursery_reserve))
            .ok_or_else(|| std::io::Error::other("heap size overflows"))?;
        let base = map_anonymous(total).ok_or_else(std::io::Error::last_os_error)?;
        let min_threshold = initial_bytes
            .max(1 << 20)
            .min(full_ceiling(max, nursery_capacity));
        let nursery_start = base + 2 * max;
        Ok(Heap {
            base,
            max,
            space: AtomicUsize::new(base),
            top: AtomicUsize::new(base),
            nursery_start,
            nursery_reserve,
            nursery_capacity: AtomicUsize::new(nursery_capacity),
            nursery_top: AtomicUsize::new(nursery_start),
            nursery_limit: AtomicUsize::new(nursery_start + nursery_capacity),
            threshold: AtomicUsize::new(min_threshold),
            min_threshold,
            large: parking_lot::Mutex::new(std::collections::BTreeMap::new()),
            large_bytes: AtomicUsize::new(0),
            remembered: parking_lot::Mutex::new(Vec::new()),
            tlab_size: AtomicUsize::new(tlab_size_for(nursery_capacity)),
        })
    }

    /// Allocates `size` zeroed bytes with `class` in the header, up to the heap's maximum.
    /// Never collects: VM code may hold raw references across its own allocations.
    #[inline]
    pub fn alloc(&self, class: &'static Class, size: usize) -> Result<ObjRef, OutOfMemory> {
        let size = size.next_multiple_of(8);
        if size >= LARGE_OBJECT {
            return self.alloc_large(class, size);
        }
        let at = match bump(
            &self.nursery_top,
            size,
            self.nursery_limit.load(Ordering::Relaxed),
        ) {
            Some(at) => at,
            None => self.alloc_old(size)?,
        };
        // SAFETY: [at, at+size) was just claimed by this thread alone inside the nursery or the
        // current old space.
        Ok(unsafe { init_object(at, class, size) })
    }

    /// Allocates like [`Heap::alloc`], from the thread's buffer `tlab` when it has room (no
    /// atomic operation), else after taking a new buffer from the nursery; objects bigger than
    /// a quarter of a buffer, and any allocation when the nursery has no whole buffer left, go
    /// through the shared pointer. `tlab` must be retired whenever this heap collects.
    #[inline(always)]
    pub fn alloc_local(
        &self,
        tlab: &mut Tlab,
        class: &'static Class,
        size: usize,
    ) -> Result<ObjRef, OutOfMemory> {
        let size = size.next_multiple_of(8);
        if tlab.fits(size) {
            let at = tlab.top;
            tlab.top += size;
            // SAFETY: [at, at+size) lies in the thread's own buffer, claimed from the nursery.
            return Ok(unsafe { init_object(at, class, size) });
        }
        self.refill_and_alloc(tlab, class, size)
    }

    #[cold]
    fn refill_and_alloc(
        &self,
        tlab: &mut Tlab,
        class: &'static Class,
        size: usize,
    ) -> Result<ObjRef, OutOfMemory> {
        let chunk = self.tlab_size.load(Ordering::Relaxed);
        if size <= chunk / 4 {
            let limit = self.nursery_limit.load(Ordering::Relaxed);
            if let Some(at) = bump(&self.nursery_top, chunk, limit) {
                *tlab = Tlab {
                    top: at + size,
                    end: at + chunk,
                };
                // SAFETY: [at, at+chunk) was just claimed from the nursery for this buffer.
                return Ok(unsafe { init_object(at, class, size) });
            }
        }
        self.alloc(class, size)
    }

    /// Turns thread allocation buffers off (GC stress mode: every allocation reaches the
    /// shared pointer, so every allocation poll sees the nursery's true fill) or on.
    pub fn set_tlabs(&self, on: bool) {
        let size = if on {
            tlab_size_for(self.nursery_capacity.load(Ordering::Relaxed))
        } else {
            0
        };
        self.tlab_size.store(size, Ordering::Relaxed);
    }

    /// Allocation straight into the old generation, when the nursery is full and the caller may
    /// not collect. Leaves room for the nursery's current capacity (the invariant above).
    #[cold]
    fn alloc_old(&self, size: usize) -> Result<usize, OutOfMemory> {
        let nursery_cap = self.nursery_limit.load(Ordering::Relaxed) - self.nursery_start;
        let limit = self.space.load(Ordering::Relaxed) + self.max - nursery_cap;
        if self.used() + size > self.max {
            return Err(OutOfMemory);
        }
        bump(&self.top, size, limit).ok_or(OutOfMemory)
    }

    #[cold]
    fn alloc_large(&self, class: &'static Class, size: usize) -> Result<ObjRef, OutOfMemory> {
        if self.used() + size > self.max {
            return Err(OutOfMemory);
        }
        let len = size.next_multiple_of(4096);
        let p = map_anonymous(len).ok_or(OutOfMemory)?;
        self.large.lock().insert(p, len);
        self.large_bytes.fetch_add(len, Ordering::Relaxed);
        let p = p as *mut ObjHeader;
        // SAFETY: a fresh zeroed mapping of at least `size` bytes, owned by this object alone.
        unsafe {
            p.write(ObjHeader {
                class: class as *const Class,
                mark: AtomicU64::new(0),
            });
            Ok(ObjRef(NonNull::new_unchecked(p)))
        }
    }

    /// Starts of the large objects.
    pub fn large_objects(&self) -> Vec<usize> {
        self.large.lock().keys().copied().collect()
    }

    /// Frees the large objects not in `live` (after a full collection).
    pub fn sweep_large(&self, live: &rustc_hash::FxHashSet<usize>) {
        let mut large = self.large.lock();
        let dead: Vec<(usize, usize)> = large
            .iter()
            .filter(|(s, _)| !live.contains(s))
            .map(|(s, l)| (*s, *l))
            .collect();
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

    // ---- sizes and policy ----

    /// Whether an allocation of `size` bytes should first run a collection: the nursery is
    /// full, or a large object would take the old generation past its threshold.
    #[inline]
    pub fn should_collect(&self, size: usize) -> bool {
        if size >= LARGE_OBJECT {
            return self.wants_full(size);
        }
        self.nursery_top.load(Ordering::Relaxed) + size > self.nursery_limit.load(Ordering::Relaxed)
    }

    /// Whether a young collection should be followed by a full one, before allocating
    /// `pending` more bytes.
    #[inline]
    pub fn wants_full(&self, pending: usize) -> bool {
        let pending = if pending >= LARGE_OBJECT { pending } else { 0 };
        self.old_used() + self.large_bytes.load(Ordering::Relaxed) + pending
            > self.threshold.load(Ordering::Relaxed)
    }

    /// Whether `size` more bytes fit at all.
    #[inline]
    pub fn fits(&self, size: usize) -> bool {
        self.used() + size <= self.max
    }

    /// Bytes in use: the old space's allocated part, the nursery's, and the large objects.
    #[inline]
    pub fn used(&self) -> usize {
        self.old_used() + self.nursery_used() + self.large_bytes.load(Ordering::Relaxed)
    }
    /// Bytes allocated in the current old semispace.
    #[inline]
    pub fn old_used(&self) -> usize {
        self.top.load(Ordering::Relaxed) - self.space.load(Ordering::Relaxed)
    }
    /// Bytes allocated in the nursery.
    #[inline]
    pub fn nursery_used(&self) -> usize {
        self.nursery_top.load(Ordering::Relaxed) - self.nursery_start
    }
    /// Bytes of the large objects (each in its own mapping).
    #[inline]
    pub fn large_used(&self) -> usize {
        self.large_bytes.load(Ordering::Relaxed)
    }
    /// How much the nursery may hold in this cycle (grown by [`Heap::finish_young`]).
    #[inline]
    pub fn nursery_size(&self) -> usize {
        self.nursery_capacity.load(Ordering::Relaxed)
    }
    /// The maximum heap size (-Xmx).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.max
    }
    /// The current collection threshold plus the nursery (what Runtime.totalMemory reports).
    #[inline]
    pub fn committed(&self) -> usize {
        (self.threshold.load(Ordering::Relaxed) + self.nursery_size())
            .min(self.max)
            .max(self.used())
    }

    /// (start, top) of the current old space.
    #[inline]
    pub fn old_space(&self) -> (usize, usize) {
        (
            self.space.load(Ordering::Relaxed),
            self.top.load(Ordering::Relaxed),
        )
    }
    /// (start, size) of the nursery: the write barrier's bounds ([`Heap::is_young`]), fixed
    /// for the heap's life.
    #[inline]
    pub fn nursery_bounds(&self) -> (usize, usize) {
        (self.nursery_start, self.nursery_reserve)
    }

    /// (start, top) of the nursery.
    #[inline]
    pub fn nursery(&self) -> (usize, usize) {
        (self.nursery_start, self.nursery_top.load(Ordering::Relaxed))
    }

    /// A young collection: the nursery into the free part of the old space.
    pub fn young_plan(&self) -> Plan {
        let (space, top) = self.old_space();
        Plan {
            from: [self.nursery(), (0, 0)],
            to: (top, space + self.max),
        }
    }

    /// A full collection: the old space and the nursery into the other old semispace.
    pub fn full_plan(&self) -> Plan {
        let cur = self.space.load(Ordering::Relaxed);
        let other = if cur == self.base {
            self.base + self.max
        } else {
            self.base
        };
        Plan {
            from: [self.old_space(), self.nursery()],
            to: (other, other + self.max),
        }
    }

    /// After a young collection promoted the nursery's survivors up to `new_top`. A nursery
    /// whose survivors were more than an eighth of it doubles, up to its reserve.
    pub fn finish_young(&self, new_top: usize) {
        let promoted = new_top - self.top.load(Ordering::Relaxed);
        self.top.store(new_top, Ordering::Relaxed);
        let capacity = self.nursery_capacity.load(Ordering::Relaxed);
        if promoted > capacity / GROW_WHEN_SURVIVING && capacity < self.nursery_reserve {
            let grown = (capacity * 2).min(self.nursery_reserve);
            self.nursery_capacity.store(grown, Ordering::Relaxed);
        }
        self.reset_nursery();
    }

    /// After a full collection copied `live` bytes to the other semispace starting at its base:
    /// makes it current, returns the evacuated space's pages beyond what the next cycle is likely
    /// to reuse to the OS, and sets the next threshold.
    pub fn finish_full(&self, live: usize) {
        let plan = self.full_plan();
        let (from, from_top) = plan.from[0];
        let to = plan.to.0;
        self.space.store(to, Ordering::Relaxed);
        self.top.store(to + live, Ordering::Relaxed);
        // Give the evacuated space back to the OS: it is idle until the next full collection
        // copies into it (faulting in only what it then receives), so the resident size stays
        // near the old generation's plus the nursery's instead of twice that.
        let used = (from_top - from).next_multiple_of(4096).min(self.max);
        if used > 0 {
            // SAFETY: [from, from+used) lies inside our mapping and no live object remains there:
            // every reachable object was copied and every root updated before the flip.
            unsafe {
                libc::madvise(from as *mut libc::c_void, used, libc::MADV_DONTNEED);
            }
        }
        let live_total = live + self.large_bytes.load(Ordering::Relaxed);
        let ceiling = full_ceiling(self.max, self.nursery_size());
        let next = (live_total.saturating_mul(3))
            .max(self.min_threshold)
            .min(ceiling);
        self.threshold.store(next, Ordering::Relaxed);
        self.reset_nursery();
    }

    /// Whether an image of `len` bytes leaves this heap room for the program (it may take half).
    pub fn can_hold_image(&self, len: usize) -> bool {
        len <= self.max / 2
    }

    /// Copies `len` bytes of objects from `src` (a domain template's old space, compacted) to
    /// the start of this heap's old space, which must be empty, and returns where they now
    /// start. The caller relocates their references. None if the heap is not empty or
    /// cannot hold them (`can_hold_image`).
    pub fn load_image(&self, src: usize, len: usize) -> Option<usize> {
        if !self.can_hold_image(len) || self.used() != 0 {
            return None;
        }
        let dst = self.space.load(Ordering::Relaxed);
        // One call faults the pages in, instead of one fault per page while copying (Linux
        // 5.14; older kernels refuse it and the copy faults them in).
        const MADV_POPULATE_WRITE: libc::c_int = 23; // not named by libc 0.2
        // SAFETY: [dst, dst+len) lies inside this heap's mapping; populating only commits it.
        unsafe {
            libc::madvise(
                dst as *mut libc::c_void,
                len.next_multiple_of(4096),
                MADV_POPULATE_WRITE,
            )
        };
        // SAFETY: [dst, dst+len) is inside this heap's current old semispace, empty and owned
        // by the caller (the domain has no thread yet); [src, src+len) is a frozen template's
        // allocated old space, a different mapping nobody writes.
        unsafe { std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, len) };
        self.top.store(dst + len, Ordering::Relaxed);
        let next = len
            .saturating_mul(3)
            .max(self.min_threshold)
            .min(full_ceiling(self.max, self.nursery_size()));
        self.threshold.store(next, Ordering::Relaxed);
        self.reset_nursery();
        Some(dst)
    }

    /// Returns the pages of the nursery, which must be empty and stay so (a frozen domain
    /// template), to the OS.
    pub fn release_nursery(&self) {
        debug_assert_eq!(self.nursery_used(), 0);
        // SAFETY: [nursery_start, +nursery_reserve) lies inside this heap's mapping and holds no
        // object (the nursery is empty); the pages read as zeroes if it is used again.
        unsafe {
            libc::madvise(
                self.nursery_start as *mut libc::c_void,
                self.nursery_reserve,
                libc::MADV_DONTNEED,
            )
        };
    }

    /// Gives all of the heap's memory back to the OS: the pages of its spaces (which read as
    /// zeroes afterwards) and its large objects' mappings. For a domain that has ended, whose
    /// memory must not wait for the last reference to its `Domain`.
    ///
    /// # Safety
    ///
    /// No object of this heap may be used again: no thread runs in its domain and none will
    /// (the domain has ended), and no other heap refers into it (the domains' invariant).
    pub unsafe fn discard(&self) {
        self.sweep_large(&rustc_hash::FxHashSet::default());
        self.remembered.lock().clear();
        // SAFETY: [base, base + 2 * max + nursery) is this heap's own mapping (`Heap::new`);
        // the caller guarantees nothing reads it again, and if something did it would read
        // zeroes, not freed memory (the mapping stays until the heap is dropped).
        unsafe {
            libc::madvise(
                self.base as *mut libc::c_void,
                self.max * 2 + self.nursery_reserve,
                libc::MADV_DONTNEED,
            )
        };
    }

    /// Whether the heap holds large objects.
    #[inline]
    pub fn has_large_objects(&self) -> bool {
        self.large_bytes.load(Ordering::Relaxed) != 0
    }

    /// Empties the nursery; it may fill only as far as the old space leaves room for.
    fn reset_nursery(&self) {
        self.nursery_top
            .store(self.nursery_start, Ordering::Relaxed);
        let room = self
            .max
            .saturating_sub(self.old_used() + self.large_bytes.load(Ordering::Relaxed));
        let cap = self.nursery_size().min(room) & !7;
        self.nursery_limit
            .store(self.nursery_start + cap, Ordering::Relaxed);
    }

    /// The object starting at `addr`, if `addr` is an 8-aligned address inside the allocated
    /// part of the heap (the header is not checked).
    #[inline]
    pub fn object_at(&self, addr: usize) -> Option<ObjRef> {
        if !addr.is_multiple_of(8) || !self.contains(addr) {
            return None;
        }
        NonNull::new(addr as *mut ObjHeader).map(ObjRef)
    }

    /// Whether `addr` points into the allocated part of the old space, the nursery or a large
    /// object.
    #[inline]
    pub fn contains(&self, addr: usize) -> bool {
        let in_range = |(s, t): (usize, usize)| addr >= s && addr < t;
        if in_range(self.old_space()) || in_range(self.nursery()) {
            return true;
        }
        self.large
            .lock()
            .range(..=addr)
            .next_back()
            .is_some_and(|(s, l)| addr < s + l)
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        self.sweep_large(&rustc_hash::FxHashSet::default());
        // SAFETY: the range was mapped by `Heap::new` and no object of it outlives the heap.
        unsafe {
            libc::munmap(
                self.base as *mut libc::c_void,
                self.max * 2 + self.nursery_reserve,
            );
        }
    }
}

/// Raw memory access for `jdk.internal.misc.Unsafe`: an object base plus offset, or an
/// absolute address when the base is null. Like HotSpot, offsets are trusted: Unsafe is only
/// reachable from privileged JDK code, which computes them from field and array layout.
/// Trusting them is one step, [`raw::Addr::new`], an `unsafe fn`; what is done with an
/// address afterwards stays inside the range it was made for.
pub mod raw {
    use super::ObjRef;
    use std::sync::atomic::{AtomicI64, AtomicU8, AtomicU32};

    /// `len` bytes at an address that Unsafe's caller may access: a field or elements of a
    /// live object, or native memory.
    #[derive(Clone, Copy, Debug)]
    pub struct Addr {
        at: usize,
        len: usize,
    }

    impl Addr {
        /// The `len` bytes at `offset` from `base` (from 0 when `base` is None).
        ///
        /// # Safety
        ///
        /// Unsafe's contract with privileged code: the range lies inside `base` (fields or
        /// elements, at offsets computed from its layout) or, without a base, inside native
        /// memory the caller owns; it stays valid while the address is used (no safepoint in
        /// between, or the object cannot move); 2-, 4- and 8-byte atomic accesses are aligned.
        #[inline]
        pub unsafe fn new(base: Option<ObjRef>, offset: i64, len: usize) -> Addr {
            let at = base.map_or(0, |b| b.addr()).wrapping_add(offset as usize);
            Addr { at, len }
        }

        /// A Rust buffer's bytes, as the other end of a [`Addr::copy_to`].
        #[inline]
        pub fn of_slice(bytes: &mut [u8]) -> Addr {
            Addr {
                at: bytes.as_mut_ptr() as usize,
                len: bytes.len(),
            }
        }

        #[inline]
        fn fits<T>(self) {
            assert!(std::mem::size_of::<T>() <= self.len, "access past {self:?}");
        }

        #[inline]
        pub fn read<T: Copy>(self) -> T {
            self.fits::<T>();
            // SAFETY: `new`'s contract: the range is accessible, and T fits in it.
            unsafe { (self.at as *const T).read_unaligned() }
        }

        /// A primitive store (references go through `Heap::write_slot_at`, with the barrier).
        #[inline]
        pub fn write<T: super::Primitive>(self, v: T) {
            self.fits::<T>();
            // SAFETY: as for `read`.
            unsafe { (self.at as *mut T).write_unaligned(v) }
        }

        /// A reference store, for the barrier's `Heap::write_slot_at` only.
        #[inline]
        pub(in crate::heap) fn write_slot(self, slot: u64) {
            self.fits::<u64>();
            // SAFETY: as for `read`.
            unsafe { (self.at as *mut u64).write_unaligned(slot) }
        }

        #[inline]
        pub fn atomic_i64(self) -> &'static AtomicI64 {
            self.fits::<i64>();
            // SAFETY: as for `read`; 8-byte CAS targets are 8-aligned fields or elements.
            unsafe { &*(self.at as *const AtomicI64) }
        }

        #[inline]
        pub fn atomic_u32(self) -> &'static AtomicU32 {
            self.fits::<u32>();
            // SAFETY: as for `read`; 4-byte CAS targets are 4-aligned.
            unsafe { &*(self.at as *const AtomicU32) }
        }

        #[inline]
        pub fn atomic_u8(self) -> &'static AtomicU8 {
            self.fits::<u8>();
            // SAFETY: as for `read`.
            unsafe { &*(self.at as *const AtomicU8) }
        }

        /// memset of the whole range, for Unsafe.setMemory.
        #[inline]
        pub fn fill(self, value: u8) {
            // SAFETY: the range is accessible (`new`'s contract).
            unsafe { std::ptr::write_bytes(self.at as *mut u8, value, self.len) }
        }

        /// memmove of the whole range to `dst` (at least as long), for Unsafe.copyMemory.
        #[inline]
        pub fn copy_to(self, dst: Addr) {
            assert!(self.len <= dst.len, "copy of {self:?} into {dst:?}");
            // SAFETY: both ranges are accessible (`new`'s contract, or a Rust buffer).
            unsafe { std::ptr::copy(self.at as *const u8, dst.at as *mut u8, self.len) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use meta::class::{ClassId, ClassKind};

    /// A synthetic class of 24-byte instances with one reference field at offset 16.
    fn node_class() -> &'static Class {
        let mut c = Class::bare(ClassId(1), "T", ClassKind::Instance, None, 0);
        c.instance_size = 24;
        c.ref_offsets = vec![16];
        Box::leak(Box::new(c))
    }

    const NURSERY: usize = 64 << 10;

    /// Fills the nursery; returns one young object and one allocated in the old space.
    fn young_and_old(heap: &Heap, c: &'static Class) -> (ObjRef, ObjRef) {
        let young = heap.alloc(c, 24).unwrap();
        while !heap.should_collect(24) {
            heap.alloc(c, 24).unwrap();
        }
        let old = heap.alloc(c, 24).unwrap();
        (young, old)
    }

    #[test]
    fn an_image_loads_at_the_bottom_of_an_empty_old_space_only() {
        let c = node_class();
        let from = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let a = from.alloc_old(24).map(ObjRef::from_addr).unwrap();
        a.set_raw_class_word(c as *const Class as usize);
        a.write::<i64>(16, 0x1234);
        let (src, top) = from.old_space();
        let to = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let dst = to.load_image(src, top - src).expect("fits");
        assert_eq!(to.old_space(), (dst, dst + 24));
        assert_eq!(
            ObjRef::from_addr(dst).read::<u64>(16),
            0x1234,
            "the bytes are copied"
        );
        assert!(
            to.load_image(src, top - src).is_none(),
            "only into an empty heap"
        );
        let small = Heap::new(1 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        assert!(
            small.load_image(src, (1 << 20) / 2 + 8).is_none(),
            "not more than half the heap"
        );
    }

    #[test]
    fn a_nursery_that_survives_much_grows_to_its_reserve_and_a_fixed_one_does_not() {
        let heap = Heap::new(16 << 20, 1 << 20, NURSERY, 4 * NURSERY).unwrap();
        let (start, size) = heap.nursery_bounds();
        assert_eq!(size, 4 * NURSERY, "the barrier's bounds are the reserve");
        assert_eq!(heap.nursery_size(), NURSERY);
        let top = heap.old_space().1;
        heap.finish_young(top + NURSERY / 16);
        assert_eq!(heap.nursery_size(), NURSERY, "few survivors: unchanged");
        for grown in [2 * NURSERY, 4 * NURSERY, 4 * NURSERY] {
            let top = heap.old_space().1;
            heap.finish_young(top + heap.nursery_size() / 4);
            assert_eq!(heap.nursery_size(), grown);
            assert_eq!(heap.nursery_limit.load(Ordering::Relaxed), start + grown);
        }
        let fixed = Heap::new(16 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let top = fixed.old_space().1;
        fixed.finish_young(top + NURSERY / 2);
        assert_eq!(fixed.nursery_size(), NURSERY);
    }

    #[test]
    fn allocation_fills_the_nursery_then_spills_into_the_old_space() {
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let (young, old) = young_and_old(&heap, node_class());
        assert!(heap.is_young(young.addr()));
        assert!(!heap.is_young(old.addr()));
        assert_eq!(heap.nursery_used(), NURSERY - NURSERY % 24);
        assert_eq!(heap.old_used(), 24);
        assert!(heap.contains(old.addr()) && heap.contains(young.addr()));
        assert_eq!(old.read_ref(16), None, "allocation zeroes");
    }

    #[test]
    fn the_barrier_remembers_an_old_holder_of_a_young_reference_once() {
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let c = node_class();
        let (young, old) = young_and_old(&heap, c);
        heap.write_ref(young, 16, Some(old));
        heap.write_ref(old, 16, Some(old));
        heap.write_ref(old, 16, None);
        assert!(
            heap.take_remembered().is_empty(),
            "only old-to-young stores are remembered"
        );
        heap.write_ref(old, 16, Some(young));
        heap.write_ref(old, 16, Some(young));
        assert_eq!(
            old.mark().load(Ordering::Relaxed) & layout::MARK_REMEMBERED,
            layout::MARK_REMEMBERED
        );
        assert_eq!(heap.take_remembered(), vec![old]);
        assert_eq!(
            old.mark().load(Ordering::Relaxed) & layout::MARK_REMEMBERED,
            0,
            "taking clears the bit"
        );
        heap.post_bulk_write(young);
        heap.post_bulk_write(old);
        assert_eq!(heap.take_remembered(), vec![old]);
    }

    #[test]
    fn the_remembered_bit_leaves_hash_and_monitor_alone() {
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let (young, old) = young_and_old(&heap, node_class());
        old.mark().store(0x1234_5678_0000_0042, Ordering::Relaxed);
        heap.write_ref(old, 16, Some(young));
        heap.take_remembered();
        assert_eq!(old.mark().load(Ordering::Relaxed), 0x1234_5678_0000_0042);
    }

    #[test]
    fn a_young_collection_plan_promotes_into_the_old_space_and_empties_the_nursery() {
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        young_and_old(&heap, node_class());
        let plan = heap.young_plan();
        assert_eq!(plan.from[0], heap.nursery());
        assert_eq!(plan.to.0, heap.old_space().1);
        heap.finish_young(plan.to.0 + 4096);
        assert_eq!(heap.nursery_used(), 0);
        assert_eq!(heap.old_used(), 24 + 4096);
        assert!(!heap.should_collect(24));
    }

    #[test]
    fn the_nursery_shrinks_when_the_old_generation_nearly_fills_the_heap() {
        let heap = Heap::new(1 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let (space, _) = heap.old_space();
        heap.finish_young(space + (1 << 20) - 8192);
        assert!(
            heap.should_collect(8192 + 8),
            "old + nursery must fit one semispace"
        );
        assert!(!heap.should_collect(8192));
    }

    #[test]
    fn a_full_collection_plan_evacuates_both_generations_into_the_other_semispace() {
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        young_and_old(&heap, node_class());
        let plan = heap.full_plan();
        assert_eq!(plan.from, [heap.old_space(), heap.nursery()]);
        assert_ne!(plan.to.0, heap.old_space().0);
        heap.finish_full(48);
        assert_eq!(
            (heap.old_space().0, heap.old_used(), heap.nursery_used()),
            (plan.to.0, 48, 0)
        );
    }

    #[test]
    fn large_objects_are_old_and_count_against_the_threshold() {
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let c = node_class();
        let big = heap.alloc(c, LARGE_OBJECT).unwrap();
        assert!(!heap.is_young(big.addr()) && heap.contains(big.addr()));
        assert!(
            heap.should_collect(LARGE_OBJECT * 4),
            "a large allocation past the threshold collects"
        );
        assert!(!heap.fits(4 << 20));
    }

    #[test]
    fn a_thread_buffer_serves_small_objects_without_the_shared_pointer() {
        let c = node_class();
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let mut tlab = Tlab::default();
        let first = heap.alloc_local(&mut tlab, c, 24).unwrap();
        let chunk = tlab_size_for(NURSERY);
        assert_eq!(
            (tlab.top, tlab.end),
            (first.addr() + 24, first.addr() + chunk)
        );
        assert_eq!(heap.nursery_used(), chunk, "one buffer taken");
        let second = heap.alloc_local(&mut tlab, c, 20).unwrap();
        assert_eq!(second.addr(), first.addr() + 24, "bumped inside the buffer");
        assert_eq!(heap.nursery_used(), chunk, "no more taken from the nursery");
        assert!(std::ptr::eq(second.class(), c));
        // A bigger object that does not fit the rest of the buffer, bigger than a quarter of
        // one: straight from the shared pointer, and the buffer is kept.
        while tlab.fits(chunk / 2) {
            heap.alloc_local(&mut tlab, c, 24).unwrap();
        }
        let kept = tlab.top;
        let big = heap.alloc_local(&mut tlab, c, chunk / 2).unwrap();
        assert_eq!(big.addr(), first.addr() + chunk);
        assert_eq!(tlab.top, kept, "the buffer is kept");
        // A small object that does not fit takes the next buffer.
        while tlab.fits(24) {
            heap.alloc_local(&mut tlab, c, 24).unwrap();
        }
        let next = heap.alloc_local(&mut tlab, c, 24).unwrap();
        assert_eq!(next.addr(), big.addr() + chunk / 2);
        assert_eq!(heap.nursery_used(), chunk * 2 + chunk / 2);
        tlab.retire();
        assert!(!tlab.fits(8));
    }

    #[test]
    fn without_buffers_every_allocation_bumps_the_shared_pointer() {
        let c = node_class();
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        heap.set_tlabs(false);
        let mut tlab = Tlab::default();
        heap.alloc_local(&mut tlab, c, 24).unwrap();
        assert_eq!(heap.nursery_used(), 24);
        assert!(!tlab.fits(8));
    }

    #[test]
    fn buffer_memory_is_zeroed_per_object() {
        let c = node_class();
        let heap = Heap::new(4 << 20, 1 << 20, NURSERY, NURSERY).unwrap();
        let mut tlab = Tlab::default();
        let a = heap.alloc_local(&mut tlab, c, 24).unwrap();
        a.write::<i64>(16, -1);
        tlab.top = a.addr(); // the same memory handed out again
        let b = heap.alloc_local(&mut tlab, c, 24).unwrap();
        assert_eq!(b, a);
        assert_eq!(b.read::<i64>(16), 0);
    }
}
