//! Natives of the jxvm API's memory objects (`jx.memory.ReadOnlyMemory`, `jx.memory.Memory`):
//! the bridge between Java objects and [`crate::memory::View`]s.
//!
//! A memory object's view lives in a VM slot at the end of `ReadOnlyMemory`'s fields (Java
//! code can neither see nor forge it) as a raw `Arc<View>` pointer; the domain's table of
//! memory objects owns that Arc until the collector finds the object dead. Faults become the
//! API's exceptions: `RevokedMemoryException`, `IndexOutOfBoundsException`.

use std::sync::Arc;

use super::{Registry, bytes_of, jint, jlong, nonnull, ret_bool, ret_int};
use crate::class::BasicType;
use crate::domain::budget::Resource;
use crate::heap::ObjRef;
use crate::memory::{Fault, VIEW_CLASS, View};
use crate::thread::{JResult, JThread};

const MEMORY: &str = "jx/memory/Memory";

pub fn register(r: &mut Registry) {
    let ro = VIEW_CLASS;
    r.add(ro, "size", "()J", |t, a| Ok(view(t, a[0])?.len() as u64));
    r.add(ro, "isValid", "()Z", |t, a| {
        Ok(ret_bool(view(t, a[0])?.is_valid()))
    });
    r.add(ro, "getByte", "(J)B", |t, a| {
        get(t, a[0], jlong(a[1]), BasicType::Byte)
    });
    r.add(ro, "getShort", "(J)S", |t, a| {
        get(t, a[0], jlong(a[1]), BasicType::Short)
    });
    r.add(ro, "getInt", "(J)I", |t, a| {
        get(t, a[0], jlong(a[1]), BasicType::Int)
    });
    r.add(ro, "getLong", "(J)J", |t, a| {
        get(t, a[0], jlong(a[1]), BasicType::Long)
    });
    r.add(ro, "copyTo", "(J[BII)V", copy_to);
    r.add(ro, "subRange", "(JJ)Ljx/memory/ReadOnlyMemory;", |t, a| {
        derive(t, a[0], VIEW_CLASS, |v| {
            v.sub_range(jlong(a[1]), jlong(a[3]))
        })
    });
    let m = MEMORY;
    r.add(m, "allocate", "(J)Ljx/memory/Memory;", |t, a| {
        allocate(t, a, false)
    });
    r.add(m, "allocateShared", "(J)Ljx/memory/Memory;", |t, a| {
        allocate(t, a, true)
    });
    r.add(m, "setByte", "(JB)V", |t, a| set(t, a, BasicType::Byte));
    r.add(m, "setShort", "(JS)V", |t, a| set(t, a, BasicType::Short));
    r.add(m, "setInt", "(JI)V", |t, a| set(t, a, BasicType::Int));
    r.add(m, "setLong", "(JJ)V", |t, a| set(t, a, BasicType::Long));
    r.add(m, "copyFrom", "([BIJI)V", |t, a| {
        let bytes = bytes_of(t, a[1], jint(a[2]), jint(a[5]))?;
        let v = view(t, a[0])?;
        v.write(jlong(a[3]), &bytes).map_err(|f| fault(t, f))?;
        Ok(0)
    });
    r.add(m, "subRange", "(JJ)Ljx/memory/Memory;", |t, a| {
        derive(t, a[0], MEMORY, |v| v.sub_range(jlong(a[1]), jlong(a[3])))
    });
    r.add(m, "readOnly", "()Ljx/memory/ReadOnlyMemory;", |t, a| {
        derive(t, a[0], VIEW_CLASS, View::read_only)
    });
    r.add(m, "revoke", "()Ljx/memory/Memory;", |t, a| {
        derive(t, a[0], MEMORY, View::revoke)
    });
}

/// Off-heap bytes a domain may allocate between two full collections before `allocate` runs one
/// (small Java objects can hold large memory: without this, a program dropping memory objects
/// would run out of memory long before its heap fills).
const COLLECT_EVERY: u64 = 256 << 20;

/// `Memory.allocate` (or `allocateShared`: a region other processes can map).
fn allocate(t: &mut JThread, a: &[u64], shared: bool) -> JResult<u64> {
    let size = jlong(a[0]);
    let since = t
        .domain
        .memory_allocated
        .fetch_add(size.max(0) as u64, std::sync::atomic::Ordering::Relaxed);
    if since + size.max(0) as u64 > COLLECT_EVERY {
        // No reference is held here (a static native with a long argument): a safe place.
        t.domain
            .memory_allocated
            .store(0, std::sync::atomic::Ordering::Relaxed);
        crate::gc::collect(t, crate::gc::Collection::Full, "Memory objects");
    }
    if size > 0 && !t.domain.budget.reserve_off_heap(size as u64) {
        return Err(off_heap_exhausted(t, size as u64));
    }
    let account = (size > 0).then(|| t.domain.budget.account(Resource::OffHeap));
    let v = if shared {
        View::allocate_shared(size, account)
    } else {
        View::allocate_charged(size, account)
    };
    let v = v.map_err(|f| fault(t, f))?;
    new_memory_object(t, MEMORY, v)
}

/// The OutOfMemoryError for an off-heap allocation of `bytes` past the domain's budget (its
/// own off-heap limit or one of its creators').
pub fn off_heap_exhausted(t: &mut JThread, bytes: u64) -> crate::thread::Thrown {
    let d = &t.domain;
    let msg = format!(
        "cannot allocate {bytes} bytes off the heap: domain {} holds {} of its limit of {} bytes (limits of the domains that created it count too)",
        d.name,
        d.budget.off_heap_used(),
        d.budget.limits.off_heap_bytes
    );
    t.throw_new("java/lang/OutOfMemoryError", Some(&msg))
}

/// The offset of the view slot (the last 8 bytes of a ReadOnlyMemory instance), if `o` is a
/// memory object. The offset is the same for both memory classes (`Memory` adds no field) and
/// in every domain (they are the boot loader's), so it is found once; the class check is kept
/// as the guard it is.
fn slot_offset(o: ObjRef) -> Option<usize> {
    static AT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let c = o.class();
    match AT.get() {
        Some(&at) if std::ptr::eq(c, memory_class(c)?) => Some(at),
        _ => {
            let at = crate::api::vm_slot_offset(c, VIEW_CLASS)?;
            Some(*AT.get_or_init(|| at))
        }
    }
}

/// `c` if it is one of the two memory classes of the API.
fn memory_class(c: &'static crate::class::Class) -> Option<&'static crate::class::Class> {
    let named = &*c.name == VIEW_CLASS || &*c.name == MEMORY;
    (named && crate::api::in_module(c)).then_some(c)
}

/// The view behind memory object `v` (`this` of a native).
#[allow(unsafe_code)]
pub fn view(t: &mut JThread, v: u64) -> JResult<&'static View> {
    let o = nonnull(t, v)?;
    let p = slot_offset(o).map_or(0, |off| o.read::<u64>(off)) as *const View;
    if p.is_null() {
        return Err(t.throw_new(
            "java/lang/IllegalStateException",
            Some("not a memory object made by the VM"),
        ));
    }
    // SAFETY: only `new_memory_object` stores into the slot: a pointer from `Arc::into_raw`
    // whose Arc the domain's memory-object table owns until the collector finds this object
    // dead. The object is alive (it is this native's receiver), so the View is too; 'static is
    // a lie bounded by the caller's native call, which is the only place the reference is
    // used (`pso` keeps addresses derived from it only in objects that keep `v` reachable).
    Ok(unsafe { &*p })
}

/// `getX(offset)` of memory object `this` for `ty` Byte, Short, Int or Long: the value as a
/// slot (also the code mapping `MemoryGet`).
pub fn get(t: &mut JThread, this: u64, offset: i64, ty: BasicType) -> JResult<u64> {
    let v = view(t, this)?;
    let r = match ty {
        BasicType::Byte => v.read::<1>(offset).map(|b| ret_int(b[0] as i8 as i32)),
        BasicType::Short => v
            .read::<2>(offset)
            .map(|b| ret_int(i16::from_le_bytes(b) as i32)),
        BasicType::Int => v.read::<4>(offset).map(|b| ret_int(i32::from_le_bytes(b))),
        _ => v.read::<8>(offset).map(u64::from_le_bytes),
    };
    r.map_err(|f| fault(t, f))
}

/// `setX(offset, value)` of memory object `a[0]` (arguments as slots) for `ty` Byte, Short,
/// Int or Long (also the code mapping `MemorySet`).
pub fn set(t: &mut JThread, a: &[u64], ty: BasicType) -> JResult<u64> {
    let v = view(t, a[0])?;
    let bytes = a[3].to_le_bytes();
    v.write(jlong(a[1]), &bytes[..ty.size()])
        .map_err(|f| fault(t, f))?;
    Ok(0)
}

fn copy_to(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let v = view(t, a[0])?;
    let dst = nonnull(t, a[3])?;
    let (off, len) = (jint(a[4]), jint(a[5]));
    let data = dst.array_slice::<u8>();
    if off < 0 || len < 0 || off as usize + len as usize > data.len() {
        let msg = format!(
            "Range [{off}, {off} + {len}) out of bounds for length {}",
            data.len()
        );
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", Some(&msg)));
    }
    v.copy_out(jlong(a[1]), &mut data[off as usize..(off + len) as usize])
        .map_err(|f| fault(t, f))?;
    Ok(0)
}

/// A new memory object of class `class` for the view `make` derives from `this`'s.
fn derive(
    t: &mut JThread,
    this: u64,
    class: &str,
    make: impl FnOnce(&View) -> Result<View, Fault>,
) -> JResult<u64> {
    let v = view(t, this)?;
    let derived = make(v).map_err(|f| fault(t, f))?;
    new_memory_object(t, class, derived)
}

/// Wraps `v` in a new Java object of `class` and records it in the domain's table.
pub fn new_memory_object(t: &mut JThread, class: &str, v: View) -> JResult<u64> {
    let c = t.load_boot(class)?;
    t.ensure_initialized(c)?;
    let o = t.alloc_object(c)?;
    let off = slot_offset(o).expect("memory classes carry the view slot");
    let v = Arc::new(v);
    o.write_word(off, Arc::as_ptr(&v) as usize);
    t.domain.memory_objects.lock().insert(o.addr(), v);
    Ok(o.slot())
}

/// The Java exception for a fault.
fn fault(t: &mut JThread, f: Fault) -> crate::thread::Thrown {
    match f {
        Fault::Revoked => t.throw_new(
            "jx/memory/RevokedMemoryException",
            Some("the memory was revoked"),
        ),
        Fault::OutOfBounds {
            offset,
            length,
            size,
        } if offset == 0 && size == 0 && length < 0 => t.throw_new(
            "java/lang/IllegalArgumentException",
            Some(&format!("negative size: {length}")),
        ),
        Fault::OutOfBounds {
            offset,
            length,
            size,
        } => {
            let msg =
                format!("Range [{offset}, {offset} + {length}) out of bounds for length {size}");
            t.throw_new("java/lang/IndexOutOfBoundsException", Some(&msg))
        }
        Fault::ReadOnly => t.throw_new(
            "java/lang/UnsupportedOperationException",
            Some("read-only memory"),
        ),
        Fault::NoMemory => t.throw_new(
            "java/lang/OutOfMemoryError",
            Some("cannot map memory for a memory object"),
        ),
        Fault::NoSlot => t.throw_new(
            "java/lang/OutOfMemoryError",
            Some("too many views of one shared memory object (each sub-range, read-only view and revocation takes one of its table's slots)"),
        ),
    }
}
