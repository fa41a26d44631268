//! The object-graph copier (DESIGN: one mechanism for portals, IPC channels, domain images
//! and cluster messages): [`encode`] walks the graph reachable from some roots in one heap and
//! writes it into a self-contained byte buffer — no heap address survives in it — and
//! [`decode`] rebuilds it in another heap. Cycles and sharing are kept (every object is written
//! once and referred to by its index); identity hashes and lock state are not (a copy is a new
//! object). A size quota bounds what one encoding may write.
//!
//! Hand-written because it is the VM's own substance: it walks objects by their class layout
//! and must agree with the collector on where references are.
//!
//! Buffer layout (little-endian):
//! ```text
//! magic "JXG1" | object count: u32 | root count: u32 | roots: u32 each (index + 1, 0 = null)
//! per object: class id: u32 | array length: u32 (u32::MAX for an instance) | body
//! ```
//! The body is the object's bytes after its header (after the length word for an array),
//! with every reference slot replaced by the referent's index + 1 (0 for null).
//!
//! Owns the format and the walk; which classes may be copied is the caller's policy (a
//! `java.lang.Class` mirror or a Thread, say, is refused, or handled before), and what a class
//! id means is the caller's class table.

use rustc_hash::FxHashMap;

use crate::class::{BasicType, Class};
use crate::heap::layout::{ARRAY_BASE, ARRAY_LENGTH, HEADER_SIZE};
use crate::heap::{Heap, ObjRef, from_slot};

const MAGIC: &[u8; 4] = b"JXG1";
const INSTANCE: u32 = u32::MAX;

/// Why a graph could not be copied.
#[derive(Debug, PartialEq, Eq)]
pub enum CopyError {
    /// The encoding would exceed the quota (bytes).
    Quota(usize),
    /// An object of a class the policy refuses (its name).
    NotCopyable(String),
    /// The target heap has no room.
    OutOfMemory,
    /// The buffer is not a graph this module wrote (truncated, corrupt, unknown class id).
    Malformed(&'static str),
}

/// Where the reference slots of an object of class `c` are, as byte offsets from its start.
fn ref_slots(c: &'static Class, o: ObjRef) -> Vec<usize> {
    if c.is_array() {
        if c.array_elem() != BasicType::Ref {
            return Vec::new();
        }
        return (0..o.array_len()).map(|i| ARRAY_BASE + i * 8).collect();
    }
    c.ref_offsets.iter().map(|&off| off as usize).collect()
}

/// Where an object's body starts and ends (from its start).
fn body(c: &'static Class, o: ObjRef) -> (usize, usize) {
    if c.is_array() {
        (ARRAY_BASE, ARRAY_BASE + o.array_len() * c.array_elem().size())
    } else {
        (HEADER_SIZE, c.instance_size as usize)
    }
}

/// Encodes the graph reachable from `roots`. `refuse(c)` names the classes that may not be
/// copied; `quota` bounds the buffer's size.
pub fn encode(roots: &[Option<ObjRef>], quota: usize, refuse: impl Fn(&'static Class) -> bool) -> Result<Vec<u8>, CopyError> {
    let mut index: FxHashMap<usize, u32> = FxHashMap::default();
    let mut order: Vec<ObjRef> = Vec::new();
    let mut visit = |o: ObjRef, order: &mut Vec<ObjRef>| -> Result<u32, CopyError> {
        if let Some(&i) = index.get(&o.addr()) {
            return Ok(i + 1);
        }
        let c = o.class();
        if refuse(c) {
            return Err(CopyError::NotCopyable(c.java_name()));
        }
        let i = order.len() as u32;
        index.insert(o.addr(), i);
        order.push(o);
        Ok(i + 1)
    };
    let mut root_ids = Vec::with_capacity(roots.len());
    for r in roots {
        root_ids.push(match r {
            Some(o) => visit(*o, &mut order)?,
            None => 0,
        });
    }
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&0u32.to_le_bytes()); // object count, patched at the end
    out.extend_from_slice(&(root_ids.len() as u32).to_le_bytes());
    for id in root_ids {
        out.extend_from_slice(&id.to_le_bytes());
    }
    let mut next = 0;
    while next < order.len() {
        let o = order[next];
        next += 1;
        let c = o.class();
        let (start, end) = body(c, o);
        if out.len() + 8 + (end - start) > quota {
            return Err(CopyError::Quota(quota));
        }
        out.extend_from_slice(&c.id.0.to_le_bytes());
        out.extend_from_slice(&(if c.is_array() { o.array_len() as u32 } else { INSTANCE }).to_le_bytes());
        let at = out.len();
        for off in start..end {
            out.push(o.read::<u8>(off));
        }
        for slot in ref_slots(c, o) {
            let id = match from_slot(o.read::<u64>(slot)) {
                Some(r) => visit(r, &mut order)? as u64,
                None => 0,
            };
            let p = at + slot - start;
            out[p..p + 8].copy_from_slice(&id.to_le_bytes());
        }
    }
    let count = order.len() as u32;
    out[4..8].copy_from_slice(&count.to_le_bytes());
    Ok(out)
}

/// A little-endian reader over a buffer that reports truncation.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn u32(&mut self) -> Result<u32, CopyError> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], CopyError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.buf.len()).ok_or(CopyError::Malformed("truncated"))?;
        let b = &self.buf[self.at..end];
        self.at = end;
        Ok(b)
    }
}

/// Rebuilds a graph written by [`encode`] in `heap`; returns the roots. `class_of` maps class
/// ids to classes. Allocation never collects, so the caller may hold the results raw until it
/// next reaches a safepoint.
pub fn decode(buf: &[u8], heap: &Heap, class_of: impl Fn(u32) -> Option<&'static Class>) -> Result<Vec<Option<ObjRef>>, CopyError> {
    let mut r = Reader { buf, at: 0 };
    if r.bytes(4)? != MAGIC {
        return Err(CopyError::Malformed("not an object graph"));
    }
    let count = r.u32()? as usize;
    let nroots = r.u32()? as usize;
    let mut roots = Vec::with_capacity(nroots.min(buf.len()));
    for _ in 0..nroots {
        roots.push(r.u32()?);
    }
    // First pass: allocate every object and copy its body (reference slots still hold ids).
    let mut objects: Vec<ObjRef> = Vec::with_capacity(count.min(buf.len() / 8));
    for _ in 0..count {
        let c = class_of(r.u32()?).ok_or(CopyError::Malformed("unknown class id"))?;
        let len = r.u32()?;
        let o = match (c.is_array(), len) {
            (false, INSTANCE) => heap.alloc(c, c.instance_size as usize).map_err(|_| CopyError::OutOfMemory)?,
            (true, n) if n != INSTANCE && n <= i32::MAX as u32 => {
                let size = (n as usize).checked_mul(c.array_elem().size()).and_then(|s| s.checked_add(ARRAY_BASE));
                let size = size.ok_or(CopyError::Malformed("array too long"))?;
                // Checked before allocating, so a short hostile buffer cannot ask for a huge array.
                if size - ARRAY_BASE > buf.len() - r.at {
                    return Err(CopyError::Malformed("truncated"));
                }
                let a = heap.alloc(c, size).map_err(|_| CopyError::OutOfMemory)?;
                a.write::<u32>(ARRAY_LENGTH, n);
                a
            }
            _ => return Err(CopyError::Malformed("array length on an instance or none on an array")),
        };
        let (start, end) = body(c, o);
        let bytes = r.bytes(end - start)?;
        for (i, &b) in bytes.iter().enumerate() {
            o.write::<u8>(start + i, b);
        }
        objects.push(o);
    }
    // Second pass: turn ids into references (through the write barrier: an object may have
    // landed in the old space when the nursery was full).
    let resolve = |id: u64| -> Result<u64, CopyError> {
        match id {
            0 => Ok(0),
            i => objects.get(i as usize - 1).map(|o| o.slot()).ok_or(CopyError::Malformed("reference to a missing object")),
        }
    };
    for &o in &objects {
        for slot in ref_slots(o.class(), o) {
            let v = resolve(o.read::<u64>(slot))?;
            heap.write_slot(o, slot, v);
        }
    }
    roots.into_iter().map(|id| resolve(id as u64).map(from_slot)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::{ClassId, ClassKind};

    /// Synthetic classes: Node { long value @16; Node next @24; Object other @32 }, long[],
    /// Object[], and a class the policy refuses.
    struct World {
        node: &'static Class,
        longs: &'static Class,
        objects: &'static Class,
        secret: &'static Class,
    }

    fn world() -> World {
        let leak = |c: Class| -> &'static Class { Box::leak(Box::new(c)) };
        let object = leak(Class::bare(ClassId(100), "java/lang/Object", ClassKind::Instance, None, 0));
        let mut node = Class::bare(ClassId(101), "Node", ClassKind::Instance, Some(object), 0);
        node.instance_size = 40;
        node.ref_offsets = vec![24, 32];
        let prim = leak(Class::bare(ClassId(102), "long", ClassKind::Primitive(BasicType::Long), None, 0));
        let longs = leak(Class::bare(ClassId(103), "[J", ClassKind::Array { component: prim, elem: BasicType::Long }, Some(object), 0));
        let objects = leak(Class::bare(ClassId(104), "[Ljava/lang/Object;", ClassKind::Array { component: object, elem: BasicType::Ref }, Some(object), 0));
        let secret = leak(Class::bare(ClassId(105), "Secret", ClassKind::Instance, Some(object), 0));
        World { node: leak(node), longs, objects, secret }
    }

    impl World {
        fn class(&self, id: u32) -> Option<&'static Class> {
            [self.node, self.longs, self.objects, self.secret].into_iter().find(|c| c.id.0 == id)
        }
        fn node(&self, heap: &Heap, value: i64) -> ObjRef {
            let n = heap.alloc(self.node, 40).unwrap();
            n.write::<i64>(16, value);
            n
        }
    }

    fn heap() -> Heap {
        Heap::new(8 << 20, 1 << 20, 1 << 20).unwrap()
    }

    #[test]
    fn cycles_sharing_and_arrays_survive_a_copy_into_another_heap() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n1 = w.node(&a, 1);
        let n2 = w.node(&a, 2);
        n1.write::<u64>(24, n2.slot());
        n2.write::<u64>(24, n1.slot()); // a cycle
        let longs = a.alloc(w.longs, ARRAY_BASE + 3 * 8).unwrap();
        longs.write::<u32>(ARRAY_LENGTH, 3);
        longs.write::<i64>(ARRAY_BASE + 16, -7);
        n1.write::<u64>(32, longs.slot());
        n2.write::<u64>(32, longs.slot()); // shared
        let arr = a.alloc(w.objects, ARRAY_BASE + 2 * 8).unwrap();
        arr.write::<u32>(ARRAY_LENGTH, 2);
        arr.write::<u64>(ARRAY_BASE, n2.slot());

        let buf = encode(&[Some(n1), None, Some(arr)], 1 << 20, |c| std::ptr::eq(c, w.secret)).unwrap();
        let roots = decode(&buf, &b, |id| w.class(id)).unwrap();
        let (c1, c3) = (roots[0].unwrap(), roots[2].unwrap());
        assert!(roots[1].is_none());
        assert!(b.contains(c1.addr()) && !a.contains(c1.addr()), "the copy lives in the target heap");
        let c2 = c1.read_ref(24).unwrap();
        assert_eq!((c1.read::<i64>(16), c2.read::<i64>(16)), (1, 2));
        assert_eq!(c2.read_ref(24), Some(c1), "the cycle is kept");
        let l1 = c1.read_ref(32).unwrap();
        assert_eq!(c2.read_ref(32), Some(l1), "sharing is kept");
        assert_eq!((l1.array_len(), l1.read::<i64>(ARRAY_BASE + 16)), (3, -7));
        assert_eq!(c3.read_ref(ARRAY_BASE), Some(c2), "roots share objects too");
        assert_eq!(c3.read_ref(ARRAY_BASE + 8), None);
    }

    #[test]
    fn the_quota_and_the_policy_are_enforced() {
        let w = world();
        let a = heap();
        let mut head = w.node(&a, 0);
        for i in 1..1000 {
            let n = w.node(&a, i);
            n.write::<u64>(24, head.slot());
            head = n;
        }
        assert_eq!(encode(&[Some(head)], 10_000, |_| false), Err(CopyError::Quota(10_000)));
        assert!(encode(&[Some(head)], 100_000, |_| false).is_ok());
        let s = a.alloc(w.secret, 16).unwrap();
        head.write::<u64>(32, s.slot());
        assert_eq!(encode(&[Some(head)], 100_000, |c| std::ptr::eq(c, w.secret)), Err(CopyError::NotCopyable("Secret".into())));
    }

    #[test]
    fn malformed_buffers_are_errors_not_crashes() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n = w.node(&a, 5);
        n.write::<u64>(24, n.slot());
        let good = encode(&[Some(n)], 1 << 20, |_| false).unwrap();
        for len in 0..good.len() {
            assert!(decode(&good[..len], &b, |id| w.class(id)).is_err(), "truncated at {len}");
        }
        let mut bad = good.clone();
        bad[16..20].copy_from_slice(&999u32.to_le_bytes()); // the class id
        assert_eq!(decode(&bad, &b, |id| w.class(id)), Err(CopyError::Malformed("unknown class id")));
        let mut bad = good.clone();
        let at = bad.len() - 16; // the `next` slot of the node
        bad[at..at + 8].copy_from_slice(&77u64.to_le_bytes());
        assert_eq!(decode(&bad, &b, |id| w.class(id)), Err(CopyError::Malformed("reference to a missing object")));
        let mut bad = good;
        bad[20..24].copy_from_slice(&u32::MAX.wrapping_sub(1).to_le_bytes()); // an instance with a length
        assert!(decode(&bad, &b, |id| w.class(id)).is_err());
    }

    #[test]
    fn a_full_target_heap_is_out_of_memory() {
        let w = world();
        let a = Heap::new(64 << 20, 1 << 20, 1 << 20).unwrap();
        let big = a.alloc(w.longs, ARRAY_BASE + (3 << 20) * 8).unwrap();
        big.write::<u32>(ARRAY_LENGTH, 3 << 20);
        let buf = encode(&[Some(big)], usize::MAX, |_| false).unwrap();
        let small = Heap::new(4 << 20, 1 << 20, 1 << 20).unwrap();
        assert_eq!(decode(&buf, &small, |id| w.class(id)), Err(CopyError::OutOfMemory));
    }

    #[test]
    fn corrupted_buffers_never_panic() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n1 = w.node(&a, 1);
        let arr = a.alloc(w.objects, ARRAY_BASE + 3 * 8).unwrap();
        arr.write::<u32>(ARRAY_LENGTH, 3);
        arr.write::<u64>(ARRAY_BASE + 8, n1.slot());
        n1.write::<u64>(32, arr.slot());
        let good = encode(&[Some(n1)], 1 << 20, |_| false).unwrap();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..5000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut bad = good.clone();
            let at = (seed % bad.len() as u64) as usize;
            bad[at] ^= (seed >> 32) as u8 | 1;
            let _ = decode(&bad, &b, |id| w.class(id));
        }
    }
}
