//! Pre-Serialized Objects at run time (Jaguar's PSOs, issue 21): making PSO and PSO-array
//! objects over a container's bytes, and every access to the fields and elements that live
//! there. The layout rules are `class::pso`'s; the natives of `jx.pso` are `native::pso`'s;
//! the interpreter and compiled code call [`load`], [`store`], [`load_ref`] and [`store_ref`]
//! for field accesses that the code mappings turned into PSO accesses.
//!
//! A PSO heap object holds its container and offset (Java fields of `jx.pso.PSO`) and three VM
//! words after them ([`PSO_WORDS`]): the address of its bytes, the address of its container's
//! validity flag, and whether the container is writable. Only [`make`] writes them, after
//! checking that the object's bytes lie inside the container; the container keeps its memory
//! object, hence the mapping and the flag, alive as long as the PSO is reachable. So an access
//! is a load of the flag and a load or store at a fixed offset from the address: no bounds
//! check is left to do, and revocation is seen at the next access.
//!
//! The heap slot of a reference field caches the PSO last read or written through it (so
//! reading an unchanged slot twice gives the same object); the container's bytes stay the
//! only truth: the cache is used only while the slot still names that object's offset.
//!
//! Must not touch: the layout rules, the memory objects' internals (it uses `memory::View`'s
//! public interface).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::class::pso::{ARRAY_CLASSES, PsoLayout};
use crate::class::resolve::ResolvedField;
use crate::class::{BasicType, Class};
use crate::heap::{ObjRef, from_slot};
use crate::memory::{Fault, View};
use crate::thread::{JResult, JThread, Thrown};

pub use crate::class::pso::{ARRAY_WORDS_AT, CONTAINER_AT, LENGTH_AT, OFFSET_AT, PSO_WORDS_AT};

/// Where a PSO object's VM words start.
pub const PSO_WORDS: usize = PSO_WORDS_AT as usize;
/// Where a PSO array object's VM words start.
pub const ARRAY_WORDS: usize = ARRAY_WORDS_AT as usize;
const CONTAINER: usize = CONTAINER_AT as usize;
const OFFSET: usize = OFFSET_AT as usize;
const LENGTH: usize = LENGTH_AT as usize;

/// The VM words of a PSO or PSO array object.
#[derive(Clone, Copy)]
struct Words {
    addr: usize,
    flag: usize,
    writable: bool,
}

/// Why an access is refused.
enum Denied {
    /// The object was made without a container (not by `Container.allocate` or `at`).
    NoContainer,
    Revoked,
    ReadOnly,
}

fn words(o: ObjRef, at: usize) -> Words {
    Words {
        addr: o.read::<u64>(at) as usize,
        flag: o.read::<u64>(at + 8) as usize,
        writable: o.read::<u64>(at + 16) != 0,
    }
}

fn set_words(o: ObjRef, at: usize, addr: usize, view: &View) {
    o.write_word(at, addr);
    o.write_word(at + 8, view.valid_flag() as *const AtomicU8 as usize);
    o.write_word(at + 16, view.writable() as usize);
}

impl Words {
    /// The address of the object's bytes, if they may be read now.
    #[inline]
    fn readable(self) -> Result<usize, Denied> {
        if self.flag == 0 {
            return Err(Denied::NoContainer);
        }
        // SAFETY: only `set_words` writes a non-zero flag word: the address of the validity
        // flag of the view of the memory object the object's container holds. The container
        // field is never written after that, so the memory object, its view and the flag live
        // at least as long as this object, which the caller holds.
        let valid = unsafe { &*(self.flag as *const AtomicU8) };
        if valid.load(Ordering::Acquire) == 0 {
            return Err(Denied::Revoked);
        }
        Ok(self.addr)
    }

    /// The address of the object's bytes, if they may be written now.
    #[inline]
    fn writable(self) -> Result<usize, Denied> {
        let a = self.readable()?;
        if self.writable {
            Ok(a)
        } else {
            Err(Denied::ReadOnly)
        }
    }
}

fn denied(t: &mut JThread, d: Denied) -> Thrown {
    match d {
        Denied::NoContainer => t.throw_new(
            "java/lang/IllegalStateException",
            Some("a PSO made without a container (only Container.allocate and at make PSOs)"),
        ),
        Denied::Revoked => t.throw_new(
            "jx/memory/RevokedMemoryException",
            Some("the memory was revoked"),
        ),
        Denied::ReadOnly => t.throw_new("java/nio/ReadOnlyBufferException", None),
    }
}

/// Reads a value of type `ty` at `addr` as an interpreter slot (sub-word ints extended as
/// `getfield` extends them; little-endian, at any alignment: a recovered PSO may start at any
/// offset).
///
/// # Safety
/// `[addr, addr + ty.size())` must be mapped and readable.
unsafe fn read_raw(addr: usize, ty: BasicType) -> u64 {
    let mut b = [0u8; 8];
    // SAFETY: the caller guarantees the `ty.size()` (at most 8) bytes at `addr` are readable.
    unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, b.as_mut_ptr(), ty.size()) };
    let word = u64::from_le_bytes(b);
    match ty {
        BasicType::Byte => word as i8 as i32 as u32 as u64,
        BasicType::Short => word as i16 as i32 as u32 as u64,
        _ => word,
    }
}

/// Writes slot value `v` as a value of type `ty` at `addr` (a boolean as `v & 1`;
/// little-endian, at any alignment).
///
/// # Safety
/// `[addr, addr + ty.size())` must be mapped and writable.
unsafe fn write_raw(addr: usize, ty: BasicType, v: u64) {
    let v = if ty == BasicType::Boolean { v & 1 } else { v };
    let b = v.to_le_bytes();
    // SAFETY: the caller guarantees the `ty.size()` (at most 8) bytes at `addr` are writable.
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), addr as *mut u8, ty.size()) };
}

/// `getfield` of a primitive field of type `ty` at `place` in PSO `o`.
#[inline]
pub fn load(t: &mut JThread, o: ObjRef, ty: BasicType, place: u32) -> JResult<u64> {
    let base = words(o, PSO_WORDS).readable().map_err(|d| denied(t, d))?;
    // SAFETY: `make` checked that the object's bytes, which hold every field at its place,
    // lie inside the container's mapping, which `readable` found still valid (and which the
    // object keeps mapped).
    Ok(unsafe { read_raw(base + place as usize, ty) })
}

/// `putfield` of a primitive field of type `ty` at `place` in PSO `o`.
#[inline]
pub fn store(t: &mut JThread, o: ObjRef, ty: BasicType, place: u32, v: u64) -> JResult<()> {
    let base = words(o, PSO_WORDS).writable().map_err(|d| denied(t, d))?;
    // SAFETY: as in `load`; `writable` found the container writable.
    unsafe { write_raw(base + place as usize, ty, v) };
    Ok(())
}

/// `getfield` of field `f` (of any type) of PSO `o`, as the interpreter's plain op runs it: a
/// volatile field's read is followed by a full fence, so no later access moves above it (an
/// acquire); the bytes are read as any field's (a recovered PSO may be unaligned).
pub fn get_field(t: &mut JThread, o: ObjRef, f: &ResolvedField) -> JResult<u64> {
    let place = f.place.expect("a PSO field");
    let v = if f.ty == BasicType::Ref {
        load_ref(t, o, f)?
    } else {
        load(t, o, f.ty, place)?
    };
    if f.volatile {
        std::sync::atomic::fence(Ordering::SeqCst);
    }
    Ok(v)
}

/// `putfield` of field `f` of PSO `o`: a volatile field's write is fenced on both sides, as
/// HotSpot orders a volatile store (release before, a full fence after).
pub fn put_field(t: &mut JThread, o: ObjRef, f: &ResolvedField, v: u64) -> JResult<()> {
    let place = f.place.expect("a PSO field");
    if f.volatile {
        std::sync::atomic::fence(Ordering::SeqCst);
    }
    if f.ty == BasicType::Ref {
        store_ref(t, o, f, v)?;
    } else {
        store(t, o, f.ty, place, v)?;
    }
    if f.volatile {
        std::sync::atomic::fence(Ordering::SeqCst);
    }
    Ok(())
}

/// `getfield` of reference field `f` of PSO `o`: the PSO its slot names (the cached one if
/// the slot still names it), or null.
fn load_ref(t: &mut JThread, o: ObjRef, f: &ResolvedField) -> JResult<u64> {
    let place = f.place.expect("a PSO field");
    let slot = load(t, o, BasicType::Ref, place)?;
    if slot == 0 {
        return Ok(0);
    }
    let target = slot.wrapping_sub(1) as i64;
    if let Some(cached) = o.read_ref(f.offset as usize)
        && cached.read::<i64>(OFFSET) == target
        && cached.read::<u64>(CONTAINER) == o.read::<u64>(CONTAINER)
    {
        return Ok(cached.slot());
    }
    let class = target_class(f);
    let Some(container) = o.read_ref(CONTAINER) else {
        return Err(denied(t, Denied::NoContainer));
    };
    let (o, made) = make_keeping(t, o, container, class, target, false)?;
    t.domain.heap.write_slot(o, f.offset as usize, made.slot());
    Ok(made.slot())
}

/// `putfield` of reference field `f` of PSO `o`: stores 1 + the offset of `value` (a PSO of
/// the same container), or 0 for null.
fn store_ref(t: &mut JThread, o: ObjRef, f: &ResolvedField, value: u64) -> JResult<()> {
    let place = f.place.expect("a PSO field");
    let slot = match from_slot(value) {
        None => 0,
        Some(p) if p.read::<u64>(CONTAINER) == o.read::<u64>(CONTAINER) => {
            p.read::<i64>(OFFSET) as u64 + 1
        }
        Some(_) => {
            return Err(t.throw_new(
                "java/lang/IllegalArgumentException",
                Some("a PSO field can only refer to a PSO of the same container"),
            ));
        }
    };
    store(t, o, BasicType::Ref, place, slot)?;
    t.domain.heap.write_slot(o, f.offset as usize, value);
    Ok(())
}

/// The PSO class reference field `f` points to (checked by the first `allocate` or `at` of
/// its holder, without which no object of it exists).
fn target_class(f: &ResolvedField) -> &'static Class {
    let layout = f.holder.pso.as_ref().expect("a PSO class");
    match layout.targets.get() {
        Some(Ok(targets)) => targets[f.index as usize].expect("a reference field"),
        _ => unreachable!("a PSO object of a class whose layout was not checked"),
    }
}

/// The bytes an instance of `c` takes in a container, after checking (once per class) that
/// every field may live there: `IllegalArgumentException` naming the first one that may not.
pub fn checked_size(t: &mut JThread, c: &'static Class) -> JResult<u32> {
    let Some(layout) = c.pso.as_ref() else {
        let msg = format!("{} is not a PSO class", c.java_name());
        return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
    };
    if let Some(Ok(_)) = layout.targets.get() {
        // The superclasses were checked before the class itself.
        return Ok(layout.size);
    }
    // Superclasses first: their fields come first in the layout, and in the messages.
    for k in c.supers.iter().copied().chain(std::iter::once(c)) {
        if let Some(l) = k.pso.as_ref() {
            check_targets(t, k, l)?;
        }
    }
    Ok(layout.size)
}

fn check_targets(t: &mut JThread, c: &'static Class, layout: &PsoLayout) -> JResult<()> {
    if layout.targets.get().is_none() {
        let mut targets = vec![None; c.fields.len()];
        let mut refusal = None;
        for (i, f) in c.fields.iter().enumerate() {
            if f.place.is_none() || f.ty != BasicType::Ref {
                continue;
            }
            if let Some(msg) = crate::class::pso::descriptor_refusal(c, f) {
                refusal = Some(msg);
                break;
            }
            let name = &f.descriptor[1..f.descriptor.len() - 1];
            let target = t.load_class(c.loader, name)?;
            if target.pso.is_none() {
                refusal = Some(crate::class::pso::refusal(c, f));
                break;
            }
            targets[i] = Some(target);
        }
        let _ = layout.targets.set(match refusal {
            None => Ok(targets.into()),
            Some(msg) => Err(msg.into()),
        });
    }
    match layout.targets.get() {
        Some(Err(msg)) => {
            let msg = msg.to_string();
            Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)))
        }
        _ => Ok(()),
    }
}

/// The view of the memory object `container` (a `jx.pso.Container`) holds.
fn container_view(t: &mut JThread, container: ObjRef) -> JResult<&'static View> {
    let memory = container.read::<u64>(container_field(container.class(), "memory"));
    crate::native::memory::view(t, memory)
}

/// The offset of instance field `name` of `jx.pso.Container` (`c`), found once: the API's
/// classes are the boot loader's, the same in every domain.
fn container_field(c: &Class, name: &str) -> usize {
    static MEMORY: OnceLock<usize> = OnceLock::new();
    static USED: OnceLock<usize> = OnceLock::new();
    let cell = if name == "memory" { &MEMORY } else { &USED };
    *cell.get_or_init(|| {
        c.fields
            .iter()
            .find(|f| &*f.name == name && !f.is_static())
            .expect("jx.pso.Container's fields")
            .offset as usize
    })
}

/// `Container.allocate`: a new PSO of class `c` at `container`'s `used()` rounded up to 8,
/// zeroed and constructed; `used()` moves past it. `ContainerFullException` if it does not
/// fit.
pub fn allocate(t: &mut JThread, container: ObjRef, c: &'static Class) -> JResult<ObjRef> {
    let size = checked_size(t, c)? as i64;
    let used_at = container_field(container.class(), "used");
    let used = container.read::<i64>(used_at);
    let len = container_view(t, container)?.len() as i64;
    let at = used.wrapping_add(7) & !7;
    if at < used || at > len || size > len - at {
        let msg = format!(
            "{} ({size} bytes) does not fit at {at} in a container of {len} bytes",
            c.java_name()
        );
        return Err(t.throw_new("jx/pso/ContainerFullException", Some(&msg)));
    }
    let (container, made) = make_keeping(t, container, container, c, at, true)?;
    container.write::<i64>(used_at, at + size);
    Ok(made)
}

/// [`make`], keeping `keep` alive across it (the collector may run): gives `keep`'s address
/// after it, and the PSO made.
fn make_keeping(
    t: &mut JThread,
    keep: ObjRef,
    container: ObjRef,
    c: &'static Class,
    offset: i64,
    fresh: bool,
) -> JResult<(ObjRef, ObjRef)> {
    let mark = t.handles.len();
    let h = t.handle(keep);
    let made = make(t, container, c, offset, fresh);
    let keep = t.handle_get(h);
    t.handles.truncate(mark);
    Ok((keep, made?))
}

/// The exception for a fault of a container's memory.
fn fault(t: &mut JThread, f: Fault, what: &str) -> Thrown {
    match f {
        Fault::Revoked => denied(t, Denied::Revoked),
        Fault::ReadOnly => denied(t, Denied::ReadOnly),
        Fault::OutOfBounds {
            offset,
            length,
            size,
        } => {
            let msg = format!(
                "{what} of {length} bytes at offset {offset} does not fit in a container of {size} bytes"
            );
            t.throw_new("java/lang/IndexOutOfBoundsException", Some(&msg))
        }
        Fault::NoMemory => t.throw_new("java/lang/OutOfMemoryError", None),
        Fault::NoSlot => t.throw_new(
            "java/lang/OutOfMemoryError",
            Some("too many views of one shared memory object"),
        ),
    }
}

/// A PSO of class `c` over the bytes at `offset` of `container`: zeroed and constructed (its
/// no-argument constructor runs) if `fresh` (`Container.allocate`), else recovered as the
/// bytes are (`Container.at`, or a reference field read).
pub fn make(
    t: &mut JThread,
    container: ObjRef,
    c: &'static Class,
    offset: i64,
    fresh: bool,
) -> JResult<ObjRef> {
    let size = checked_size(t, c)?;
    if c.is_abstract() {
        let msg = format!(
            "{} is abstract: a PSO must be of a concrete class",
            c.java_name()
        );
        return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
    }
    let view = container_view(t, container)?;
    let addr = view
        .address(offset, size as i64)
        .map_err(|f| fault(t, f, &c.java_name()))?;
    let ctor = if fresh {
        if !view.writable() {
            return Err(denied(t, Denied::ReadOnly));
        }
        let Some(ctor) = c.declared_method("<init>", "()V") else {
            let msg = format!("{} has no no-argument constructor", c.java_name());
            return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
        };
        // SAFETY: `address` checked that [addr, addr+size) lies inside the writable view.
        unsafe { std::ptr::write_bytes(addr as *mut u8, 0, size as usize) };
        (!crate::class::pso::constructor_is_trivial(c)).then_some(ctor)
    } else {
        None
    };
    let o = new_over(t, c, container, offset, (PSO_WORDS, addr, view), |_| {})?;
    let Some(ctor) = ctor else {
        return Ok(o);
    };
    let mark = t.handles.len();
    let h = t.handle(o);
    let r = crate::interp::exec::call(t, ctor, &[o.slot()]);
    let o = t.handle_get(h);
    t.handles.truncate(mark);
    r.map(|_| o)
}

/// Initializes `c`, allocates an instance (the collector may run, `container` is kept) and
/// writes its container, offset and VM words (`words`: where they start, the address of its
/// bytes, the view they are in), then lets `fill` write the rest, before anything else can
/// see it.
fn new_over(
    t: &mut JThread,
    c: &'static Class,
    container: ObjRef,
    offset: i64,
    words: (usize, usize, &View),
    fill: impl FnOnce(ObjRef),
) -> JResult<ObjRef> {
    let mark = t.handles.len();
    let hc = t.handle(container);
    let made = t.ensure_initialized(c).and_then(|()| {
        let size = c.instance_size as usize;
        crate::gc::alloc_at_safepoint(t, size, |h, tlab| h.alloc_local(tlab, c, size))
    });
    let container = t.handle_get(hc);
    t.handles.truncate(mark);
    let o = made?;
    t.domain.heap.write_slot(o, CONTAINER, container.slot());
    o.write::<i64>(OFFSET, offset);
    let (at, addr, view) = words;
    set_words(o, at, addr, view);
    fill(o);
    Ok(o)
}

/// The element type of PSO array class `c` (`jx.pso.IntArray`...).
pub fn array_element(c: &Class) -> Option<BasicType> {
    if !crate::api::in_module(c) {
        return None;
    }
    ARRAY_CLASSES
        .iter()
        .find(|(n, _)| **n == *c.name)
        .map(|&(_, ty)| ty)
}

/// An array of `length` elements of PSO array class `c` over the bytes at `offset` of
/// `container`, zeroed if `fresh`.
pub fn make_array(
    t: &mut JThread,
    container: ObjRef,
    c: &'static Class,
    offset: i64,
    length: i32,
    fresh: bool,
) -> JResult<ObjRef> {
    let ty = array_element(c).expect("a PSO array class");
    if length < 0 {
        let msg = length.to_string();
        return Err(t.throw_new("java/lang/NegativeArraySizeException", Some(&msg)));
    }
    let bytes = length as i64 * ty.size() as i64;
    let view = container_view(t, container)?;
    let addr = view
        .address(offset, bytes)
        .map_err(|f| fault(t, f, &c.java_name()))?;
    if fresh {
        if !view.writable() {
            return Err(denied(t, Denied::ReadOnly));
        }
        // SAFETY: `address` checked that [addr, addr+bytes) lies inside the writable view.
        unsafe { std::ptr::write_bytes(addr as *mut u8, 0, bytes as usize) };
    }
    new_over(t, c, container, offset, (ARRAY_WORDS, addr, view), |o| {
        o.write::<i32>(LENGTH, length)
    })
}

/// The address of element `index` of PSO array `a` (elements of `ty`), checked against its
/// length and its container's state.
fn element(t: &mut JThread, a: ObjRef, ty: BasicType, index: i32, write: bool) -> JResult<usize> {
    let w = words(a, ARRAY_WORDS);
    let base = if write { w.writable() } else { w.readable() };
    let base = base.map_err(|d| denied(t, d))?;
    let length = a.read::<i32>(LENGTH);
    if index < 0 || index >= length {
        let msg = format!("Index {index} out of bounds for length {length}");
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", Some(&msg)));
    }
    Ok(base + index as usize * ty.size())
}

/// `get(index)` of PSO array `a` of `ty`s, as a slot.
pub fn array_load(t: &mut JThread, a: ObjRef, ty: BasicType, index: i32) -> JResult<u64> {
    let p = element(t, a, ty, index, false)?;
    // SAFETY: `make_array` checked that every element lies inside the container's mapping,
    // `element` that the index is one of them and the container still valid.
    Ok(unsafe { read_raw(p, ty) })
}

/// `set(index, v)` of PSO array `a` of `ty`s.
pub fn array_store(t: &mut JThread, a: ObjRef, ty: BasicType, index: i32, v: u64) -> JResult<()> {
    let p = element(t, a, ty, index, true)?;
    // SAFETY: as in `array_load`; `element` found the container writable.
    unsafe { write_raw(p, ty, v) };
    Ok(())
}
