//! Where compiled code finds things: one definition of every offset a JIT reads or writes.
//!
//! Owns nothing but numbers. Each structure compiled code touches is `#[repr(C)]` where it is
//! defined (the object header in [`crate::heap`], [`crate::thread::ThreadArea`] at the start of
//! every `JThread`, [`crate::class::Class`]); this module turns their fields into offsets with
//! `offset_of!` once, so the interpreter, the natives and a code generator agree by
//! construction, and the tests below check each offset against a real instance. The write
//! barrier compiled code emits is [`crate::heap::barrier`]'s: the check against the thread's
//! nursery bounds, then [`crate::heap::Heap::remember`]. Must not hold behaviour.
//!
//! A virtual call in compiled code reads the receiver's class's vtable (`Class::vtable_base`),
//! the selected method's published code (`Method::direct`) and, in that `Prepared`, the entry
//! word, frame size and local count. Interface tables are hash maps, read by a stub.

use std::mem::offset_of;

use crate::class::{Class, Method};
use crate::code::Prepared;
use crate::heap::{ObjHeader, Tlab, layout};
use crate::thread::{FrameRec, JThread, ThreadArea, frames};

/// Byte offsets (and the few constants) compiled code needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offsets {
    /// The class pointer (`*const Class`) in every object's header.
    pub object_class: usize,
    /// The mark word (identity hash, remembered bit, monitor index) in every header.
    pub object_mark: usize,
    /// Size of the header: the first field's offset.
    pub object_header_size: usize,
    /// The mark word's bit the write barrier sets on an old object it remembers.
    pub mark_remembered: u64,
    /// An array's `u32` length.
    pub array_length: usize,
    /// An array's first element (8-aligned).
    pub array_base: usize,
    /// The running thread's allocation buffer: next free byte and end (`JThread` pointer +).
    pub thread_tlab_top: usize,
    pub thread_tlab_end: usize,
    /// The thread's heap's nursery: start and size, the write barrier's bounds.
    pub thread_nursery_start: usize,
    pub thread_nursery_size: usize,
    /// Pointer to the thread's domain's safepoint request flag (a byte, non-zero: stop).
    pub thread_poll_word: usize,
    /// Pointer to the thread's domain's initialized flags (a byte per class id).
    pub thread_init_flags: usize,
    pub thread_mirrors: usize,
    /// The addresses of the thread's stack's first slot and of the limit of its frames.
    pub thread_stack_base: usize,
    pub thread_stack_limit: usize,
    /// `JThread::sp`, the first slot no frame uses.
    pub thread_sp: usize,
    /// `JThread::max_depth`, the frame count at which a call throws StackOverflowError.
    pub thread_max_depth: usize,
    /// `JThread::frames`: its records' base address, count and capacity.
    pub thread_frames_base: usize,
    pub thread_frames_len: usize,
    pub thread_frames_cap: usize,
    /// A `FrameRec`: its size and its method, pc (`u32`) and bp (`u32`) fields.
    pub frame_size: usize,
    pub frame_method: usize,
    pub frame_pc: usize,
    pub frame_bp: usize,
    /// A class's dense id (`u32`), which indexes per-domain class state.
    pub class_id: usize,
    /// A class's instance size in bytes (`u32`, header included).
    pub class_instance_size: usize,
    /// A class's `finalizable` flag (`bool`: one byte, 0 or 1).
    pub class_finalizable: usize,
    /// `ThreadArea::untrusted`: non-zero in a domain whose `Unsafe` accesses are checked.
    pub thread_untrusted: usize,
    /// A class's `api` flag (`bool`): `Unsafe` may not touch its objects.
    pub class_api: usize,
    /// A class's vtable's address (a pointer to `&Method`s; null before it is linked).
    pub class_vtable: usize,
    /// A method's code published for compiled callers (a pointer to `Prepared`, or null).
    pub method_direct: usize,
    /// In a `Prepared`: the entry word (`usize`, 0 while no code is installed), the proven
    /// frame size in slots (`u32`) and `max_locals` (`u16`).
    pub prepared_entry: usize,
    pub prepared_frame_slots: usize,
    pub prepared_max_locals: usize,
}

/// The offsets of this build.
pub const OFFSETS: Offsets = Offsets {
    object_class: offset_of!(ObjHeader, class),
    object_mark: offset_of!(ObjHeader, mark),
    object_header_size: std::mem::size_of::<ObjHeader>(),
    mark_remembered: layout::MARK_REMEMBERED,
    array_length: layout::ARRAY_LENGTH,
    array_base: layout::ARRAY_BASE,
    thread_tlab_top: offset_of!(JThread, area)
        + offset_of!(ThreadArea, tlab)
        + offset_of!(Tlab, top),
    thread_tlab_end: offset_of!(JThread, area)
        + offset_of!(ThreadArea, tlab)
        + offset_of!(Tlab, end),
    thread_nursery_start: offset_of!(JThread, area) + offset_of!(ThreadArea, nursery_start),
    thread_nursery_size: offset_of!(JThread, area) + offset_of!(ThreadArea, nursery_size),
    thread_poll_word: offset_of!(JThread, area) + offset_of!(ThreadArea, poll_word),
    thread_init_flags: offset_of!(JThread, area) + offset_of!(ThreadArea, init_flags),
    thread_mirrors: offset_of!(JThread, area) + offset_of!(ThreadArea, mirrors),
    thread_stack_base: offset_of!(JThread, area) + offset_of!(ThreadArea, stack_base),
    thread_stack_limit: offset_of!(JThread, area) + offset_of!(ThreadArea, stack_limit),
    thread_sp: offset_of!(JThread, sp),
    thread_max_depth: offset_of!(JThread, max_depth),
    thread_frames_base: offset_of!(JThread, frames) + frames::layout::BASE,
    thread_frames_len: offset_of!(JThread, frames) + frames::layout::LEN,
    thread_frames_cap: offset_of!(JThread, frames) + frames::layout::CAP,
    frame_size: std::mem::size_of::<FrameRec>(),
    frame_method: offset_of!(FrameRec, method),
    frame_pc: offset_of!(FrameRec, pc),
    frame_bp: offset_of!(FrameRec, bp),
    class_id: offset_of!(Class, id),
    class_instance_size: offset_of!(Class, instance_size),
    class_finalizable: offset_of!(Class, finalizable),
    thread_untrusted: offset_of!(JThread, area) + offset_of!(ThreadArea, untrusted),
    class_api: offset_of!(Class, api),
    class_vtable: offset_of!(Class, vtable_base),
    method_direct: offset_of!(Method, direct),
    prepared_entry: Prepared::ENTRY_AT,
    prepared_frame_slots: Prepared::FRAME_SLOTS_AT,
    prepared_max_locals: Prepared::MAX_LOCALS_AT,
};

// What compiled code may assume without reading the table: the thread pointer is the area
// pointer, an array's length follows the header, and elements are 8-aligned.
const _: () = {
    assert!(offset_of!(JThread, area) == 0);
    assert!(OFFSETS.array_length >= OFFSETS.object_header_size);
    assert!(OFFSETS.array_base.is_multiple_of(8));
};

#[cfg(test)]
#[allow(unsafe_code)] // reads the structures at the offsets under test
mod tests {
    use super::*;
    use crate::class::{ClassId, ClassKind};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Reads a `T` at `offset` bytes from `base`.
    fn at<T: Copy, B>(base: &B, offset: usize) -> T {
        // SAFETY: every caller passes an offset of a `T` field inside `B` (what is under test).
        unsafe { ((base as *const B as *const u8).add(offset) as *const T).read() }
    }

    #[test]
    fn the_header_and_array_offsets_are_the_heap_layouts() {
        assert_eq!(OFFSETS.object_class, layout::CLASS_OFFSET);
        assert_eq!(OFFSETS.object_mark, layout::MARK_OFFSET);
        assert_eq!(OFFSETS.object_header_size, layout::HEADER_SIZE);
        let class = 0x1000 as *const Class;
        let h = ObjHeader {
            class,
            mark: std::sync::atomic::AtomicU64::new(0x55),
        };
        assert_eq!(at::<usize, _>(&h, OFFSETS.object_class), 0x1000);
        assert_eq!(at::<u64, _>(&h, OFFSETS.object_mark), 0x55);
    }

    #[test]
    fn the_thread_area_is_where_compiled_code_looks() {
        let flag = AtomicBool::new(false);
        let area = ThreadArea {
            tlab: Tlab { top: 11, end: 22 },
            nursery_start: 33,
            nursery_size: 44,
            poll_word: &flag as *const AtomicBool as usize,
            init_flags: 77,
            mirrors: 88,
            stack_base: 55,
            stack_limit: 66,
            untrusted: 99,
        };
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_tlab_top), 11);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_tlab_end), 22);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_nursery_start), 33);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_nursery_size), 44);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_stack_base), 55);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_stack_limit), 66);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_init_flags), 77);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_mirrors), 88);
        assert_eq!(at::<usize, _>(&area, OFFSETS.thread_untrusted), 99);
        let poll: *const AtomicBool = at(&area, OFFSETS.thread_poll_word);
        flag.store(true, Ordering::Relaxed);
        // SAFETY: the poll word points at `flag`, alive for the test.
        assert!(unsafe { &*poll }.load(Ordering::Relaxed));
    }

    #[test]
    fn a_class_id_size_and_flag_are_where_compiled_code_looks() {
        let mut c = Class::bare(ClassId(77), "T", ClassKind::Instance, None, 0);
        c.instance_size = 40;
        assert_eq!(at::<u32, _>(&c, OFFSETS.class_id), 77);
        assert_eq!(at::<u32, _>(&c, OFFSETS.class_instance_size), 40);
        assert_eq!(at::<u8, _>(&c, OFFSETS.class_finalizable), 0);
        c.finalizable = true;
        assert_eq!(at::<u8, _>(&c, OFFSETS.class_finalizable), 1);
        assert_eq!(at::<u8, _>(&c, OFFSETS.class_api), 0);
        c.api = true;
        assert_eq!(at::<u8, _>(&c, OFFSETS.class_api), 1);
    }

    #[test]
    fn a_vtable_is_where_compiled_code_looks_once_published() {
        let c = Class::bare(ClassId(78), "T", ClassKind::Instance, None, 0);
        assert_eq!(at::<usize, _>(&c, OFFSETS.class_vtable), 0);
        c.set_dispatch(Default::default());
        let base = c.vtable().as_ptr() as usize;
        assert_eq!(at::<usize, _>(&c, OFFSETS.class_vtable), base);
    }

    #[test]
    fn a_prepared_frame_is_where_compiled_code_looks() {
        use crate::code::op::Op;
        struct NoOperands;
        impl crate::code::oopmap::Operands for NoOperands {
            fn field_type(&self, _: &Op) -> Option<crate::class::BasicType> {
                None
            }
            fn invoke(&self, _: &Op) -> Option<(usize, crate::class::BasicType)> {
                None
            }
        }
        let p = Prepared::new(
            vec![Op::Return],
            vec![0],
            vec![],
            vec![],
            vec![],
            vec![],
            5,
            3,
        );
        assert_eq!(at::<u16, _>(&p, OFFSETS.prepared_max_locals), 5);
        assert_eq!(at::<u32, _>(&p, OFFSETS.prepared_frame_slots), 0);
        crate::code::depth::check(&p, &NoOperands).expect("a return is proven");
        assert_eq!(at::<u32, _>(&p, OFFSETS.prepared_frame_slots), 5 + 3 + 2);
        assert_eq!(at::<usize, _>(&p, OFFSETS.prepared_entry), 0);
        assert_eq!(
            p.tier.entry_word(),
            &p as *const Prepared as usize + OFFSETS.prepared_entry
        );
    }
}
