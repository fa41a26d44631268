//! Typed loads and stores of fields and array elements in slot form (ints zero-extended to
//! 64 bits, floats as their bits), with `volatile` fields accessed sequentially consistently.
//!
//! # The Java memory model on x86-64, and the fences jxvm relies on
//!
//! x86-64 is TSO: loads are not reordered with loads, stores not with stores, and a load is not
//! moved before an earlier load or store to the same place; the one reordering it does is a
//! later load passing an earlier store to another place (StoreLoad). So:
//!
//! - plain field and element accesses are plain loads and stores (Java data races are allowed;
//!   final-field publication needs only StoreStore ordering, which TSO gives for free);
//! - a `volatile` load is a `SeqCst` load (a plain `mov`); a `volatile` store of 32 or 64 bits is
//!   a `SeqCst` store (`xchg`), which provides the StoreLoad barrier a volatile store needs;
//!   `volatile` byte, short, char and boolean fields are accessed between two `SeqCst` fences
//!   (`mfence`);
//! - `Unsafe` get/put*Volatile (and the Acquire, Release and Opaque variants, which the JDK
//!   implements with them in 17) are bracketed by `SeqCst` fences (`native::misc`);
//!   compareAndSet/compareAndExchange are `SeqCst` compare-exchanges (`lock cmpxchg`);
//!   `loadFence`/`storeFence` are acquire/release fences (compiler barriers on x86) and
//!   `fullFence` a `SeqCst` fence (`mfence`);
//! - monitors: taking a thin lock is an acquire compare-exchange on the mark word and
//!   releasing it a release compare-exchange; inflated monitors use a mutex, whose lock and
//!   unlock are acquire and release (`thread::monitor`); Thread.start, join, park/unpark and
//!   wait/notify synchronize through mutexes and condition variables, which order everything
//!   before them.

use std::sync::atomic::{Ordering, fence};

use crate::class::BasicType;
use crate::heap::{Heap, ObjRef};

/// Loads a field of type `ty` at `off` as a slot value.
#[inline(always)]
pub fn load_field(o: ObjRef, off: usize, ty: BasicType, volatile: bool) -> u64 {
    if volatile {
        return match ty {
            BasicType::Long | BasicType::Double => o.atomic_i64(off).load(Ordering::SeqCst) as u64,
            BasicType::Ref => o.read_slot_volatile(off),
            BasicType::Int | BasicType::Float => o.atomic_u32(off).load(Ordering::SeqCst) as u64,
            _ => {
                fence(Ordering::SeqCst);
                let v = load_plain(o, off, ty);
                fence(Ordering::SeqCst);
                v
            }
        };
    }
    load_plain(o, off, ty)
}

/// Loads a non-volatile field of type `ty` at `off` as a slot value.
#[inline(always)]
pub fn load_plain(o: ObjRef, off: usize, ty: BasicType) -> u64 {
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
            BasicType::Long | BasicType::Double => {
                o.atomic_i64(off).store(v as i64, Ordering::SeqCst)
            }
            BasicType::Ref => heap.write_slot_volatile(o, off, v),
            BasicType::Int | BasicType::Float => {
                o.atomic_u32(off).store(v as u32, Ordering::SeqCst)
            }
            _ => {
                fence(Ordering::SeqCst);
                store_plain(heap, o, off, ty, v);
                fence(Ordering::SeqCst);
            }
        }
        return;
    }
    store_plain(heap, o, off, ty, v)
}

/// Stores slot value `v` into a non-volatile field of type `ty` at `off` (references through
/// `heap`'s write barrier).
#[inline(always)]
pub fn store_plain(heap: &Heap, o: ObjRef, off: usize, ty: BasicType, v: u64) {
    match ty {
        BasicType::Int | BasicType::Float => o.write::<u32>(off, v as u32),
        BasicType::Long | BasicType::Double => o.write::<i64>(off, v as i64),
        BasicType::Ref => heap.write_slot(o, off, v),
        BasicType::Boolean => o.write::<u8>(off, v as u8 & 1),
        BasicType::Byte => o.write::<u8>(off, v as u8),
        BasicType::Char | BasicType::Short => o.write::<u16>(off, v as u16),
        BasicType::Void => {}
    }
}
