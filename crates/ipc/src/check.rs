//! What a receiver checks and fixes in a graph decoded from a peer's frame, before any Java
//! code sees it. The copier (`heap::graph::decode`) guarantees that every reference slot is
//! null or an object of the heap; a peer is not trusted for more, so this walk checks what
//! the VM relies on and Java's verifier would have guaranteed in-process:
//!
//! - every reference in a field or array element is of the field's declared type (a `byte[]`
//!   field holding a `Node` would let bytecode read past an object); classes are compared by
//!   name within the receiver's loader, which resolved every class of the frame;
//! - a `java.lang.String` has a `byte[]` value and a valid coder, with an even length for
//!   UTF-16 (the VM's string natives read it without further checks);
//! - a transient field of an application class (not of the JDK, whose collections keep their
//!   state in transient fields and are copied whole) is cleared: it arrives at its default.
//!
//! Objects that crossed by name (enum constants, `Class` objects: the receiver's own) are not
//! walked. Owns the walk; knows nothing of frames or channels.

use rustc_hash::FxHashSet;

use base::layout::ARRAY_BASE;
use heap::ObjRef;
use meta::class::{BasicType, Class, LoaderId};

/// `ACC_TRANSIENT` of a field.
const TRANSIENT: u16 = 0x0080;

/// Why a decoded graph is refused.
#[derive(Debug, PartialEq, Eq)]
pub struct BadGraph(pub String);

/// Checks (and fixes transient fields of) the graph decoded from `roots`; `foreign` are the
/// receiver's own objects the frame's tokens stood for, not walked. `fix` is called on every
/// object walked once it is checked, for the receiver's own fixes (it must not collect).
pub fn check_graph(
    roots: &[Option<ObjRef>],
    foreign: &[Option<ObjRef>],
    fix: &mut dyn FnMut(ObjRef),
) -> Result<(), BadGraph> {
    let mut seen: FxHashSet<usize> = foreign.iter().flatten().map(|o| o.addr()).collect();
    let mut todo: Vec<ObjRef> = Vec::new();
    for &r in roots.iter().flatten() {
        if seen.insert(r.addr()) {
            todo.push(r);
        }
    }
    while let Some(o) = todo.pop() {
        let c = o.class();
        let mut visit = |r: ObjRef, desc: &str| -> Result<(), BadGraph> {
            if !conforms(r.class(), desc) {
                return Err(BadGraph(format!(
                    "a reference to a {} where {} declares {desc}",
                    r.class().java_name(),
                    c.java_name()
                )));
            }
            if seen.insert(r.addr()) {
                todo.push(r);
            }
            Ok(())
        };
        if c.is_array() {
            if c.array_elem() == BasicType::Ref {
                let desc = &c.name[1..];
                for i in 0..o.array_len() {
                    if let Some(e) = o.read_ref(ARRAY_BASE + i * 8) {
                        visit(e, desc)?;
                    }
                }
            }
            continue;
        }
        for k in c.supers.iter().copied().chain([c]) {
            let app = k.loader != LoaderId::BOOT && k.loader != LoaderId::PLATFORM;
            for f in k.fields.iter().filter(|f| !f.is_static()) {
                let off = f.offset as usize;
                if app && f.access & TRANSIENT != 0 {
                    if f.ty == BasicType::Ref {
                        o.clear_slot(off);
                    } else {
                        o.write_bytes(off, &[0u8; 8][..f.ty.size()]);
                    }
                    continue;
                }
                if f.ty == BasicType::Ref
                    && let Some(r) = o.read_ref(off)
                {
                    visit(r, &f.descriptor)?;
                }
            }
        }
        if &*c.name == "java/lang/String" {
            check_string(c, o)?;
        }
        fix(o);
    }
    Ok(())
}

/// A String's value is a byte[] (checked by the walk when set), present, and its coder is
/// Latin-1 (0) or UTF-16 (1, with an even length).
fn check_string(c: &'static Class, o: ObjRef) -> Result<(), BadGraph> {
    let field = |name: &str| c.fields.iter().find(|f| &*f.name == name && !f.is_static());
    let bad = |m: &str| Err(BadGraph(format!("a malformed String: {m}")));
    let (Some(value), Some(coder)) = (field("value"), field("coder")) else {
        return Ok(());
    };
    let Some(v) = o.read_ref(value.offset as usize) else {
        return bad("no value");
    };
    match o.read::<u8>(coder.offset as usize) {
        0 => Ok(()),
        1 if v.array_len() % 2 == 0 => Ok(()),
        1 => bad("UTF-16 of odd length"),
        _ => bad("unknown coder"),
    }
}

/// Whether an object of class `k` may be stored where descriptor `desc` is declared.
pub fn conforms(k: &'static Class, desc: &str) -> bool {
    match desc.as_bytes().first() {
        Some(b'L') if desc.len() > 2 && desc.ends_with(';') => {
            let name = &desc[1..desc.len() - 1];
            name == "java/lang/Object" || is_a(k, name)
        }
        Some(b'[') => {
            let Some(comp) = k.array_component() else {
                return false;
            };
            let inner = &desc[1..];
            if comp.is_primitive() {
                // The array class's name is its descriptor: "[I".
                &*k.name == desc
            } else {
                matches!(inner.as_bytes().first(), Some(b'L' | b'[')) && conforms(comp, inner)
            }
        }
        _ => false,
    }
}

/// Whether `k` is, extends or implements the class named `name`.
fn is_a(k: &'static Class, name: &str) -> bool {
    &*k.name == name
        || k.supers.iter().any(|s| &*s.name == name)
        || k.all_interfaces.iter().any(|i| &*i.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use heap::Heap;
    use meta::class::{ClassId, ClassKind};

    fn leak(c: Class) -> &'static Class {
        Box::leak(Box::new(c))
    }

    #[test]
    fn references_must_be_of_the_declared_type() {
        let object = leak(Class::bare(
            ClassId(1),
            "java/lang/Object",
            ClassKind::Instance,
            None,
            0,
        ));
        let prim = leak(Class::bare(
            ClassId(2),
            "byte",
            ClassKind::Primitive(BasicType::Byte),
            None,
            0,
        ));
        let bytes = leak(Class::bare(
            ClassId(3),
            "[B",
            ClassKind::Array {
                component: prim,
                elem: BasicType::Byte,
            },
            Some(object),
            0,
        ));
        let mut holder = Class::bare(ClassId(4), "Holder", ClassKind::Instance, Some(object), 0);
        holder.supers = vec![object];
        holder.instance_size = 24;
        holder.ref_offsets = vec![16];
        holder.fields = vec![meta::class::Field {
            name: "data".into(),
            descriptor: "[B".into(),
            access: 0,
            ty: BasicType::Ref,
            offset: 16,
            constant_value: None,
            index: 0,
            place: None,
        }];
        let holder = leak(holder);
        let h = Heap::new(1 << 20, 1 << 18, 1 << 18, 1 << 18).unwrap();
        let a = h.alloc(holder, 24).unwrap();
        let arr = h.alloc(bytes, ARRAY_BASE + 8).unwrap();
        h.write_ref(a, 16, Some(arr));
        assert_eq!(check_graph(&[Some(a)], &[], &mut |_| {}), Ok(()));
        let other = h.alloc(holder, 24).unwrap();
        h.write_ref(a, 16, Some(other));
        assert!(
            check_graph(&[Some(a)], &[], &mut |_| {}).is_err(),
            "a Holder where [B is declared"
        );
        // The same object as a token of the receiver's own is not walked.
        assert_eq!(
            check_graph(&[Some(other)], &[Some(other)], &mut |_| {}),
            Ok(())
        );
        assert!(conforms(bytes, "[B") && conforms(bytes, "Ljava/lang/Object;"));
        assert!(!conforms(bytes, "[I") && !conforms(holder, "[LHolder;"));
    }
}
