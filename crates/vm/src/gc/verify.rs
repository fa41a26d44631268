//! Verification of roots and heap structure (a debugging mode, and the basis of the
//! collector's `-XX:+VerifyAfterGC`-style checking): every slot a reference map calls a
//! reference must be null or point at an object of this domain's heap whose header names a
//! class the VM knows.

use std::sync::atomic::Ordering;

use rustc_hash::FxHashSet;

use super::layouts_of;
use crate::class::BasicType;
use crate::code::oopmap::{MethodOperands, Operands, maps_of};
use crate::heap::ObjRef;
use crate::heap::collector::{Layouts, object_size};
use crate::thread::JThread;
use base::layout::{ARRAY_BASE, MARK_REMEMBERED};

/// Checks one slot value claimed to be a reference.
pub fn check_reference(t: &JThread, classes: &FxHashSet<usize>, v: u64) -> Result<(), String> {
    if v == 0 {
        return Ok(());
    }
    let Some(o): Option<ObjRef> = t.domain.heap.object_at(v as usize) else {
        return Err(format!("{v:#x} is not inside the domain's heap"));
    };
    let k = o.raw_class_word();
    if !classes.contains(&k) {
        return Err(format!("{v:#x} has no valid class word ({k:#x})"));
    }
    Ok(())
}

/// The addresses of every class the VM has defined.
pub fn known_classes(t: &JThread) -> FxHashSet<usize> {
    let mut known = FxHashSet::default();
    t.vm.classes.for_each_class(|c| {
        known.insert(c as *const _ as usize);
    });
    known
}

/// Checks every interpreter frame of `t` against its reference map.
pub fn verify_frames(t: &JThread) -> Result<(), String> {
    let classes = known_classes(t);
    let n = t.frames.len();
    for (i, f) in t.frames.iter().enumerate() {
        if f.pc == u32::MAX {
            continue;
        }
        let Some(Ok(prep)) = f.method.prepared.get() else {
            continue;
        };
        let maps = maps_of(f.method, prep)?;
        let Some(map) = maps.at(f.pc as usize) else {
            return Err(format!(
                "{:?} pc {} has no map (unreachable?)",
                f.method, f.pc
            ));
        };
        // A caller's outgoing arguments belong to the callee's frame now.
        let mut depth = map.depth as usize;
        if i + 1 < n {
            let op = prep.ops[f.pc as usize];
            let operands = MethodOperands {
                class: f.method.class,
                prep,
            };
            if let Some((pops, _)) = operands.invoke(&op) {
                let args_base =
                    f.bp as usize + prep.max_locals as usize + depth.saturating_sub(pops);
                if t.frames[i + 1].bp as usize == args_base {
                    depth = depth.saturating_sub(pops);
                }
            }
        }
        let width = prep.max_locals as usize + depth;
        for slot in 0..width {
            if map.is_ref(slot) {
                let v = t.stack[f.bp as usize + slot];
                check_reference(t, &classes, v)
                    .map_err(|e| format!("{:?} pc {} slot {slot}: {e}", f.method, f.pc))?;
            }
        }
    }
    Ok(())
}

/// Calls `f(offset, value)` for every reference slot of object `o`: instance fields, elements
/// of a reference array, and a mirror's static fields.
#[allow(unsafe_code)] // a mirror's class pointer, read from an object under verification
fn for_each_ref(
    l: &Layouts,
    o: ObjRef,
    mut f: impl FnMut(usize, u64) -> Result<(), String>,
) -> Result<(), String> {
    let c = o.class();
    if c.is_array() {
        if c.array_elem() == BasicType::Ref {
            for i in 0..o.array_len() {
                let off = ARRAY_BASE + i * 8;
                f(off, o.read::<u64>(off))?;
            }
        }
        return Ok(());
    }
    for &off in &c.ref_offsets {
        f(off as usize, o.read::<u64>(off as usize))?;
    }
    if std::ptr::eq(c, l.class_class) {
        let mirrored = o.read::<u64>(l.mirror_slot) as *const crate::class::Class;
        if !mirrored.is_null() {
            // SAFETY: mirrors hold a pointer to a leaked, never-freed Class in their VM slot.
            let m = unsafe { &*mirrored };
            for &off in &m.static_ref_offsets {
                let off = l.statics_base + off as usize;
                f(off, o.read::<u64>(off))?;
            }
        }
    }
    Ok(())
}

/// The objects of the contiguous range `[start, end)`, checking each class word.
fn objects_in(
    l: &Layouts,
    classes: &FxHashSet<usize>,
    (start, end): (usize, usize),
) -> Result<Vec<ObjRef>, String> {
    let mut out = Vec::new();
    let mut at = start;
    while at < end {
        let o = ObjRef::from_addr(at);
        let w = o.raw_class_word();
        if !classes.contains(&w) {
            return Err(format!(
                "object at {at:#x} has an invalid class word {w:#x}"
            ));
        }
        out.push(o);
        at += object_size(l, o, o.class());
    }
    Ok(out)
}

/// Object starts of some contiguous ranges (one bit per 8 bytes) and of the large objects.
struct Starts {
    ranges: Vec<(usize, usize, Vec<u64>)>,
    large: FxHashSet<usize>,
}

impl Starts {
    fn new(spaces: &[((usize, usize), &[ObjRef])], large: &[ObjRef]) -> Starts {
        let ranges = spaces
            .iter()
            .map(|&((start, end), objs)| {
                let mut bits = vec![0u64; (end - start) / 8 / 64 + 1];
                for o in objs {
                    let i = (o.addr() - start) / 8;
                    bits[i / 64] |= 1 << (i % 64);
                }
                (start, end, bits)
            })
            .collect();
        Starts {
            ranges,
            large: large.iter().map(|o| o.addr()).collect(),
        }
    }

    fn contains(&self, v: usize) -> bool {
        for (start, end, bits) in &self.ranges {
            if v >= *start && v < *end {
                let i = (v - start) / 8;
                return v.is_multiple_of(8) && bits[i / 64] >> (i % 64) & 1 == 1;
            }
        }
        self.large.contains(&v)
    }
}

fn large_objects(t: &JThread, classes: &FxHashSet<usize>) -> Result<Vec<ObjRef>, String> {
    let mut out = Vec::new();
    for l in t.domain.heap.large_objects() {
        let w = ObjRef::from_addr(l).raw_class_word();
        if !classes.contains(&w) {
            return Err(format!(
                "large object at {l:#x} has an invalid class word {w:#x}"
            ));
        }
        out.push(ObjRef::from_addr(l));
    }
    Ok(out)
}

fn describe(o: ObjRef, off: usize) -> String {
    format!("{}+{off} at {:#x}", o.class().name, o.addr())
}

/// After a collection: the nursery is empty, the remembered set too, and every object of the
/// heap has a valid class word and reference slots that are null or point at object starts;
/// every attached thread's frames check out.
pub fn verify_heap(t: &JThread) -> Result<(), String> {
    let heap = &t.domain.heap;
    if heap.nursery_used() != 0 {
        return Err(format!(
            "the nursery holds {} bytes after a collection",
            heap.nursery_used()
        ));
    }
    let classes = known_classes(t);
    let l = layouts_of(t);
    let old = heap.old_space();
    let old_objects = objects_in(&l, &classes, old)?;
    let large = large_objects(t, &classes)?;
    let starts = Starts::new(&[(old, &old_objects)], &large);
    for &o in old_objects.iter().chain(&large) {
        if o.mark().load(Ordering::Relaxed) & MARK_REMEMBERED != 0 {
            return Err(format!(
                "{:#x} is still marked remembered after a collection",
                o.addr()
            ));
        }
        for_each_ref(&l, o, |off, v| {
            if v != 0 && !starts.contains(v as usize) {
                return Err(format!(
                    "{} = {v:#x} is not an object of the heap",
                    describe(o, off)
                ));
            }
            Ok(())
        })?;
    }
    verify_frames(t)
}

/// After a young collection, the part it touched: the nursery is empty; the promoted objects
/// and the remembered objects have valid headers and refer only to objects outside the
/// nursery; frames check out. (The whole heap is checked by [`verify_heap`] at intervals.)
pub fn verify_young(
    t: &JThread,
    promoted: (usize, usize),
    remembered: &[ObjRef],
) -> Result<(), String> {
    let heap = &t.domain.heap;
    if heap.nursery_used() != 0 {
        return Err(format!(
            "the nursery holds {} bytes after a young collection",
            heap.nursery_used()
        ));
    }
    let classes = known_classes(t);
    let l = layouts_of(t);
    let promoted_objects = objects_in(&l, &classes, promoted)?;
    let starts = Starts::new(&[(promoted, &promoted_objects)], &[]);
    for &o in promoted_objects.iter().chain(remembered) {
        for_each_ref(&l, o, |off, v| {
            let a = v as usize;
            let ok = v == 0
                || if a >= promoted.0 && a < promoted.1 {
                    starts.contains(a)
                } else {
                    check_reference(t, &classes, v).is_ok()
                };
            if !ok {
                return Err(format!(
                    "{} = {v:#x} is not an object of the heap",
                    describe(o, off)
                ));
            }
            Ok(())
        })?;
    }
    verify_frames(t)
}

/// Before a young collection, the write barrier's invariant: every old or large object that
/// refers into the nursery is in the remembered set.
pub fn verify_remembered(t: &JThread) -> Result<(), String> {
    let heap = &t.domain.heap;
    let classes = known_classes(t);
    let l = layouts_of(t);
    let mut objects = objects_in(&l, &classes, heap.old_space())?;
    objects.extend(large_objects(t, &classes)?);
    for o in objects {
        let remembered = o.mark().load(Ordering::Relaxed) & MARK_REMEMBERED != 0;
        for_each_ref(&l, o, |off, v| {
            if !remembered && heap.is_young(v as usize) {
                return Err(format!(
                    "{} = {v:#x} refers into the nursery but is not remembered (missing write barrier)",
                    describe(o, off)
                ));
            }
            Ok(())
        })?;
    }
    Ok(())
}
