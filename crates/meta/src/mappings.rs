//! Code mappings (Jaguar §3): the one declarative table from a method call or a field access to
//! the VM primitive that replaces it. Applied when code is prepared — a method's mapping is
//! found when its class is loaded ([`Method::intrinsic`](crate::class::Method),
//! [`Method::mapped`](crate::class::Method)), a field's when a `getfield`/`putfield` resolves
//! (`class::pso`) — and honoured alike by the interpreter (which runs the primitive instead of
//! the call or the field access) and by the JIT (which emits it inline where it has a form
//! for it, and otherwise calls the interpreter's). `jxvm --print-mappings` prints [`rows`].
//!
//! Every primitive keeps the checks of what it replaces: a PSO array's bounds, a container's
//! read-only state and revocation, a memory object's bounds and revocation.
//!
//! Rows name classes of the boot loader only: the `jx` API module's (which no other loader can
//! define in its place for code that names them, see [`method_primitive`]) and `java.base`'s.

use crate::class::BasicType;
use crate::intrinsics::{PURE_CLASSES, inline_form, pure_table};

/// A primitive that replaces a method of the API (the pure intrinsics are `intrinsics`').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    /// `get(int)` of a PSO array of this element type: bounds, validity, a load.
    PsoArrayGet(BasicType),
    /// `set(int, value)` of a PSO array: bounds, validity, writability, a store.
    PsoArraySet(BasicType),
    /// `getX(long)` of a memory object: bounds, validity, a little-endian load.
    MemoryGet(BasicType),
    /// `setX(long, value)` of a memory object.
    MemorySet(BasicType),
}

type Row = (&'static str, &'static str, &'static str, Primitive);

/// The API's mapped methods.
static API: [Row; 16] = {
    use BasicType::*;
    use Primitive::*;
    [
        ("jx/pso/IntArray", "get", "(I)I", PsoArrayGet(Int)),
        ("jx/pso/IntArray", "set", "(II)V", PsoArraySet(Int)),
        ("jx/pso/LongArray", "get", "(I)J", PsoArrayGet(Long)),
        ("jx/pso/LongArray", "set", "(IJ)V", PsoArraySet(Long)),
        ("jx/pso/DoubleArray", "get", "(I)D", PsoArrayGet(Double)),
        ("jx/pso/DoubleArray", "set", "(ID)V", PsoArraySet(Double)),
        ("jx/pso/ByteArray", "get", "(I)B", PsoArrayGet(Byte)),
        ("jx/pso/ByteArray", "set", "(IB)V", PsoArraySet(Byte)),
        (
            "jx/memory/ReadOnlyMemory",
            "getByte",
            "(J)B",
            MemoryGet(Byte),
        ),
        (
            "jx/memory/ReadOnlyMemory",
            "getShort",
            "(J)S",
            MemoryGet(Short),
        ),
        ("jx/memory/ReadOnlyMemory", "getInt", "(J)I", MemoryGet(Int)),
        (
            "jx/memory/ReadOnlyMemory",
            "getLong",
            "(J)J",
            MemoryGet(Long),
        ),
        ("jx/memory/Memory", "setByte", "(JB)V", MemorySet(Byte)),
        ("jx/memory/Memory", "setShort", "(JS)V", MemorySet(Short)),
        ("jx/memory/Memory", "setInt", "(JI)V", MemorySet(Int)),
        ("jx/memory/Memory", "setLong", "(JJ)V", MemorySet(Long)),
    ]
};

/// The field-access rules (access, primitive, compiled form), as `--print-mappings` shows
/// them.
pub const FIELD_RULES: [(&str, &str, &str); 2] = [
    (
        "getfield/putfield of a primitive instance field declared by a subclass of jx.pso.PSO",
        "PsoGet/PsoPut: the container's validity (and, to store, writability) checked, then one load or store at the field's place in the container",
        "inline",
    ),
    (
        "getfield/putfield of a reference instance field declared by a subclass of jx.pso.PSO",
        "the slot holds 1 + the target's offset in the same container: a read recovers (and caches) the PSO it names, a store writes the offset",
        "a call to the primitive",
    ),
];

/// The primitive that replaces instance method `name descriptor` of class `class` (of
/// `module`, defined by the boot loader iff `boot`), if there is one.
pub fn method_primitive(
    class: &str,
    module: Option<&str>,
    boot: bool,
    name: &str,
    descriptor: &str,
) -> Option<Primitive> {
    if !boot || module != Some(crate::api::MODULE) {
        return None;
    }
    API.iter()
        .find(|(c, n, d, _)| *c == class && *n == name && *d == descriptor)
        .map(|&(_, _, _, p)| p)
}

/// Every mapping, one line each, as `jxvm --print-mappings` prints them.
pub fn rows() -> Vec<String> {
    let java = |c: &str| c.replace('/', ".");
    let mut out = Vec::new();
    for class in PURE_CLASSES {
        for (name, desc, _) in pure_table(class).unwrap_or(&[]) {
            let compiled = match inline_form(class, name, desc) {
                Some(form) => format!("; compiled: inline {form:?}"),
                None => String::new(),
            };
            out.push(format!(
                "{}.{name}{desc} -> pure primitive (interpreted: a call to Rust{compiled})",
                java(class)
            ));
        }
    }
    for (class, name, desc, p) in API.iter() {
        let compiled = match p {
            Primitive::PsoArrayGet(_) | Primitive::PsoArraySet(_) => "inline",
            Primitive::MemoryGet(_) | Primitive::MemorySet(_) => "a call to the primitive",
        };
        out.push(format!(
            "{}.{name}{desc} -> {p:?} (compiled: {compiled})",
            java(class)
        ));
    }
    for (access, primitive, compiled) in FIELD_RULES {
        out.push(format!("{access} -> {primitive} (compiled: {compiled})"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_methods_map_only_for_the_boot_loaders_api_classes() {
        let p = method_primitive("jx/pso/IntArray", Some("jx"), true, "get", "(I)I");
        assert_eq!(p, Some(Primitive::PsoArrayGet(BasicType::Int)));
        assert_eq!(
            method_primitive("jx/pso/IntArray", None, false, "get", "(I)I"),
            None
        );
        assert_eq!(
            method_primitive("jx/pso/IntArray", Some("jx"), true, "get", "(J)I"),
            None
        );
    }

    #[test]
    fn every_mapping_is_listed() {
        let rows = rows();
        assert!(
            rows.iter()
                .any(|r| r.starts_with("java.lang.Math.sqrt(D)D"))
        );
        assert!(
            rows.iter()
                .any(|r| r.starts_with("jx.pso.LongArray.set(IJ)V"))
        );
        assert!(rows.iter().any(|r| r.contains("jx.pso.PSO")));
        assert_eq!(rows.len(), 27 + 16 + API.len() + FIELD_RULES.len());
    }
}
