//! Typed loads and stores of fields and array elements in slot form (ints zero-extended to
//! 64 bits, floats as their bits), with `volatile` fields accessed sequentially consistently.

use std::sync::atomic::{Ordering, fence};

use crate::class::BasicType;
use crate::heap::{Heap, ObjRef};

/// Loads a field of type `ty` at `off` as a slot value.
#[inline(always)]
pub fn load_field(o: ObjRef, off: usize, ty: BasicType, volatile: bool) -> u64 {
    if volatile {
        return match ty {
            BasicType::Long | BasicType::Double | BasicType::Ref => o.atomic_u64(off).load(Ordering::SeqCst),
            BasicType::Int | BasicType::Float => o.atomic_u32(off).load(Ordering::SeqCst) as u64,
            _ => {
                fence(Ordering::SeqCst);
                let v = load_field(o, off, ty, false);
                fence(Ordering::SeqCst);
                v
            }
        };
    }
    match ty {
        BasicType::Int | BasicType::Float => o.read::<u32>(off) as u64,
        BasicType::Long | BasicType::Double | BasicType::Ref => o.read::<u64>(off),
        BasicType::Boolean => o.read::<u8>(off) as u64,
        BasicType::Byte => o.read::<i8>(off) as i32 as u32 as u64,
        BasicType::Char => o.read::<u16>(off) as u64,
        BasicType::Short => o.read::<i16>(off) as i32 as u32 as u64,
        BasicType::Void => 0,
    }
}

/// Stores slot value `v` into a field of type `ty` at `off` (references through `heap`'s write
/// barrier).
#[inline(always)]
pub fn store_field(heap: &Heap, o: ObjRef, off: usize, ty: BasicType, volatile: bool, v: u64) {
    if volatile {
        match ty {
            BasicType::Long | BasicType::Double => o.atomic_u64(off).store(v, Ordering::SeqCst),
            BasicType::Ref => {
                o.atomic_u64(off).store(v, Ordering::SeqCst);
                heap.post_write(o, v);
            }
            BasicType::Int | BasicType::Float => o.atomic_u32(off).store(v as u32, Ordering::SeqCst),
            _ => {
                fence(Ordering::SeqCst);
                store_field(heap, o, off, ty, false, v);
                fence(Ordering::SeqCst);
            }
        }
        return;
    }
    match ty {
        BasicType::Int | BasicType::Float => o.write::<u32>(off, v as u32),
        BasicType::Long | BasicType::Double => o.write::<u64>(off, v),
        BasicType::Ref => heap.write_slot(o, off, v),
        BasicType::Boolean => o.write::<u8>(off, v as u8 & 1),
        BasicType::Byte => o.write::<u8>(off, v as u8),
        BasicType::Char | BasicType::Short => o.write::<u16>(off, v as u16),
        BasicType::Void => {}
    }
}
