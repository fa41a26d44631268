//! Fuzz target: the object-graph decoder (`heap::graph`, crate `crates/heap`). Every input is
//! read by `tokens`, `heap_bytes` and `decode` into a fresh heap of synthetic classes (and,
//! when it does not start with the format's magic, once more with the magic put in front, so
//! that the fuzzer spends its time past the first check). Each call must return `Ok` or a
//! `CopyError`, never panic; a decode must allocate no more than `heap_bytes` promised; and
//! afterwards every object in the heap must have a class of the world and every reference
//! slot must be null or point at an object of the heap. `crates/heap/src/graph.rs`'s
//! `fuzz_decode_mutated_buffers` runs a bounded, seeded round of the same checks (from valid
//! buffers it encodes) inside `cargo test`.
#![no_main]

use std::sync::OnceLock;

use base::layout::{ARRAY_BASE, HEADER_SIZE};
use heap::graph::{decode, heap_bytes, tokens};
use heap::{Heap, ObjRef};
use libfuzzer_sys::fuzz_target;
use meta::class::{BasicType, Class, ClassId, ClassKind};

/// Synthetic classes with ids 100..=106: Object, Node { long @16; Node @24; Object @32 },
/// long, long[], Object[], Secret, Portal { long @16 }.
struct World {
    classes: Vec<&'static Class>,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let leak = |c: Class| -> &'static Class { Box::leak(Box::new(c)) };
        let bare = |id, name, kind, sup| Class::bare(ClassId(id), name, kind, sup, 0);
        let object = leak(bare(100, "java/lang/Object", ClassKind::Instance, None));
        let mut node = bare(101, "Node", ClassKind::Instance, Some(object));
        node.instance_size = 40;
        node.ref_offsets = vec![24, 32];
        let prim = leak(bare(
            102,
            "long",
            ClassKind::Primitive(BasicType::Long),
            None,
        ));
        let longs = ClassKind::Array {
            component: prim,
            elem: BasicType::Long,
        };
        let objects = ClassKind::Array {
            component: object,
            elem: BasicType::Ref,
        };
        let mut portal = bare(106, "Portal", ClassKind::Instance, Some(object));
        portal.instance_size = 24;
        World {
            classes: vec![
                object,
                leak(node),
                prim,
                leak(bare(103, "[J", longs, Some(object))),
                leak(bare(104, "[Ljava/lang/Object;", objects, Some(object))),
                leak(bare(105, "Secret", ClassKind::Instance, Some(object))),
                leak(portal),
            ],
        }
    })
}

impl World {
    fn class(&self, id: u32) -> Option<&'static Class> {
        self.classes.iter().copied().find(|c| c.id.0 == id)
    }
}

/// Every object of the nursery and the old space is of a class of the world, and each of its
/// reference slots is null or an object of `heap`.
fn check_heap(w: &World, heap: &Heap) {
    for (start, end) in [heap.nursery(), heap.old_space()] {
        let mut at = start;
        while at < end {
            let o = ObjRef::from_addr(at);
            let c = o.class();
            assert!(w.class(c.id.0).is_some(), "a class word at {at:#x}");
            let (size, slots): (usize, Vec<usize>) = if c.is_array() {
                let n = o.array_len();
                let refs = if c.array_elem() == BasicType::Ref {
                    n
                } else {
                    0
                };
                (
                    ARRAY_BASE + n * c.array_elem().size(),
                    (0..refs).map(|i| ARRAY_BASE + i * 8).collect(),
                )
            } else {
                let slots = c.ref_offsets.iter().map(|&s| s as usize).collect();
                (c.instance_size as usize, slots)
            };
            for slot in slots {
                let v = o.read::<u64>(slot);
                assert!(
                    v == 0 || heap.object_at(v as usize).is_some(),
                    "slot {slot} of {c:?} holds {v:#x}"
                );
            }
            at += size.max(HEADER_SIZE).next_multiple_of(8);
        }
    }
}

fn run(w: &World, buf: &[u8]) {
    let target = Heap::new(8 << 20, 1 << 20, 1 << 20).expect("a heap");
    let promised = heap_bytes(buf);
    let Ok(wanted) = tokens(buf) else {
        assert!(decode(buf, &target, |id| w.class(id), &[]).is_err());
        return;
    };
    // What the tokens stand for: a Portal object, or null for every third token.
    let portal = w.class(106).expect("Portal");
    let x = target.alloc(portal, 24).expect("room for a token's object");
    let supplied: Vec<_> = wanted.iter().map(|&t| (t % 3 != 0).then_some(x)).collect();
    let before = target.used();
    if let Ok(roots) = decode(buf, &target, |id| w.class(id), &supplied) {
        assert_eq!(
            roots.len(),
            u32::from_le_bytes(buf[8..12].try_into().expect("4 bytes")) as usize
        );
    }
    let used = target.used() - before;
    assert!(
        used <= promised,
        "decode allocated {used} bytes, heap_bytes promised {promised}"
    );
    check_heap(w, &target);
}

fuzz_target!(|data: &[u8]| {
    let w = world();
    run(w, data);
    if !data.starts_with(b"JXG3") {
        let mut framed = b"JXG3".to_vec();
        framed.extend_from_slice(data);
        run(w, &framed);
    }
});
