//! Pre-Serialized Object layouts (Jaguar's PSOs, issue 21): where the instance fields that a
//! subclass of `jx.pso.PSO` declares live in a container, as opposed to the heap object.
//!
//! The layout is machine-independent and fixed by the API: the fields of a C struct of the
//! same fields in declaration order, superclass fields first, each at the next offset aligned
//! to its size (boolean and byte 1, char and short 2, int and float 4, long, double and
//! references 8), the whole rounded up to 8. A reference field holds 1 + the offset of its
//! target in the same container (0 for null).
//!
//! Computed once when the class is made ([`Field::place`], [`PsoLayout`]). Whether a reference
//! field's type is a PSO class needs loading that type, which this layer does not do: the VM
//! checks it at a class's first `allocate` or `at` and records the result in
//! [`PsoLayout::targets`]. Owns the layout rules only; the heap object, the hidden words and
//! the accesses belong to `vm::pso`.

use std::sync::OnceLock;

use super::{BasicType, Class, Field};

/// The API class every PSO class extends.
pub const PSO_CLASS: &str = "jx/pso/PSO";

/// The API's arrays in containers, by element type.
pub const ARRAY_CLASSES: [(&str, BasicType); 4] = [
    ("jx/pso/IntArray", BasicType::Int),
    ("jx/pso/LongArray", BasicType::Long),
    ("jx/pso/DoubleArray", BasicType::Double),
    ("jx/pso/ByteArray", BasicType::Byte),
];

/// The VM words a PSO (or PSO array) heap object carries after the API class's own Java
/// fields, which no Java code can name: the address of the object's bytes, the address of its
/// container's validity flag (0: no container), and whether the container is writable (see
/// `vm::pso`). They are at the end of the API class's part of the object.
pub const VM_WORDS: u32 = 3;

/// Where the Java fields of the API's PSO classes are (`container`, `offset` and, in arrays,
/// `length`), and where their VM words start: fixed by the API's sources, checked when those
/// classes are loaded ([`check_api_layout`]), read by the runtime and by compiled code.
pub const CONTAINER_AT: u32 = base::layout::HEADER_SIZE as u32;
pub const OFFSET_AT: u32 = CONTAINER_AT + 8;
pub const LENGTH_AT: u32 = OFFSET_AT + 8;
pub const PSO_WORDS_AT: u32 = OFFSET_AT + 8;
pub const ARRAY_WORDS_AT: u32 = LENGTH_AT + 8;

/// Checks that the API class `name` (one with VM words) has its fields where the constants
/// above say. A failure is a bug in the API's sources, found at its first load.
pub fn check_api_layout(name: &str, fields: &[Field], instance_size: u32) {
    let at = |n: &str| {
        fields
            .iter()
            .find(|f| &*f.name == n && !f.is_static())
            .map(|f| f.offset)
    };
    assert_eq!(at("container"), Some(CONTAINER_AT), "{name}.container");
    assert_eq!(at("offset"), Some(OFFSET_AT), "{name}.offset");
    let words = if name == PSO_CLASS {
        PSO_WORDS_AT
    } else {
        assert_eq!(at("length"), Some(LENGTH_AT), "{name}.length");
        ARRAY_WORDS_AT
    };
    assert_eq!(instance_size, words + 8 * VM_WORDS, "{name}'s VM words");
}

/// Whether instances of the class named `name` end with the [`VM_WORDS`] (classes of other
/// loaders with these names get them too; only the API's own are read).
pub fn has_vm_words(name: &str) -> bool {
    name == PSO_CLASS || ARRAY_CLASSES.iter().any(|(n, _)| *n == name)
}

/// The container layout of a PSO class (`jx.pso.PSO` itself included, with size 0).
pub struct PsoLayout {
    /// Bytes an instance takes in a container: the fields of this class and its superclasses,
    /// rounded up to 8.
    pub size: u32,
    /// For each declared field of this class (by index), the PSO class a reference field
    /// points to, or the message of the `IllegalArgumentException` that the first `allocate`
    /// or `at` of the class throws; filled by the VM on that first use.
    pub targets: OnceLock<Result<Targets, Box<str>>>,
    /// Whether the class's no-argument constructor has no effect ([`constructor_is_trivial`]),
    /// found on first use.
    pub trivial_init: OnceLock<bool>,
}

/// For each declared field of a PSO class (by index), the PSO class a reference field points
/// to (None for the others).
pub type Targets = Box<[Option<&'static Class>]>;

/// Whether a class named `name` of `module` with superclass `super_class` is a PSO class.
pub fn is_pso_class(name: &str, module: Option<&str>, super_class: Option<&Class>) -> bool {
    (name == PSO_CLASS && module == Some(crate::api::MODULE))
        || super_class.is_some_and(|s| s.pso.is_some())
}

/// Places the instance fields of a PSO class (in declaration order, after the superclass's
/// `super_size` bytes) and returns the layout.
pub fn place_fields(fields: &mut [Field], super_size: u32) -> PsoLayout {
    let mut end = super_size;
    for f in fields.iter_mut().filter(|f| !f.is_static()) {
        let size = f.ty.size() as u32;
        let at = end.next_multiple_of(size);
        f.place = Some(at);
        end = at + size;
    }
    PsoLayout {
        size: end.next_multiple_of(8),
        targets: OnceLock::new(),
        trivial_init: OnceLock::new(),
    }
}

/// Whether `<init>()V` of PSO class `c` does nothing but call its superclass's, down to
/// `PSO`'s, whose one check (that the object has a container) holds for every PSO the VM
/// makes: then `Container.allocate` need not run it (javac's default constructor, and any
/// written as `{ super(); }`).
pub fn constructor_is_trivial(c: &Class) -> bool {
    match c.pso.as_ref() {
        Some(layout) => *layout.trivial_init.get_or_init(|| only_calls_super(c)),
        None => false,
    }
}

fn only_calls_super(c: &Class) -> bool {
    if &*c.name == PSO_CLASS && crate::api::in_module(c) {
        return true;
    }
    let Some(sup) = c.super_class else {
        return false;
    };
    let code = c
        .declared_method("<init>", "()V")
        .and_then(|m| m.info.code.as_ref());
    let (Some(code), Some(file)) = (code, c.file.as_ref()) else {
        return false;
    };
    // aload_0; invokespecial #super.<init>()V; return
    let &[0x2a, 0xb7, hi, lo, 0xb1] = code.code.as_slice() else {
        return false;
    };
    file.constant_pool
        .member_ref(u16::from_be_bytes([hi, lo]))
        .is_some_and(|r| r.class_name == &*sup.name && r.name == "<init>" && r.descriptor == "()V")
        && constructor_is_trivial(sup)
}

/// Why instance field `f` of a PSO class may not live in a container, judged from its
/// descriptor alone (an array, which is neither a primitive nor a PSO); None if only its
/// class's being a PSO class is left to check.
pub fn descriptor_refusal(holder: &Class, f: &Field) -> Option<String> {
    (f.ty == BasicType::Ref && f.descriptor.starts_with('[')).then(|| refusal(holder, f))
}

/// The message for field `f` of `holder`, whose type is not allowed in a container.
pub fn refusal(holder: &Class, f: &Field) -> String {
    format!(
        "PSO field {}.{} has type {}: a PSO field must be a primitive or a PSO class",
        holder.java_name(),
        f.name,
        java_type_name(&f.descriptor)
    )
}

/// `[I` → `int[]`, `Ljava/lang/String;` → `java.lang.String`.
fn java_type_name(descriptor: &str) -> String {
    let dims = descriptor.bytes().take_while(|&b| b == b'[').count();
    let elem = &descriptor[dims..];
    let base = match elem.strip_prefix('L').and_then(|s| s.strip_suffix(';')) {
        Some(class) => class.replace('/', "."),
        None => BasicType::from_descriptor_char(elem.as_bytes()[0])
            .java_name()
            .to_string(),
    };
    base + &"[]".repeat(dims)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, descriptor: &str, access: u16) -> Field {
        Field {
            name: name.into(),
            descriptor: descriptor.into(),
            access,
            ty: BasicType::from_descriptor_char(descriptor.as_bytes()[0]),
            offset: 0,
            constant_value: None,
            index: 0,
            place: None,
        }
    }

    #[test]
    fn fields_are_placed_as_a_c_struct_in_declaration_order() {
        let mut fs = vec![
            field("flag", "Z", 0),
            field("count", "I", 0),
            field("shared", "J", classfile::access::ACC_STATIC),
            field("c", "C", 0),
            field("next", "LNode;", 0),
            field("b", "B", 0),
        ];
        let l = place_fields(&mut fs, 0);
        let places: Vec<Option<u32>> = fs.iter().map(|f| f.place).collect();
        assert_eq!(
            places,
            [Some(0), Some(4), None, Some(8), Some(16), Some(24)]
        );
        assert_eq!(l.size, 32);
    }

    #[test]
    fn subclass_fields_follow_the_superclass_bytes() {
        let mut fs = vec![field("s", "S", 0), field("d", "D", 0)];
        let l = place_fields(&mut fs, 12);
        assert_eq!((fs[0].place, fs[1].place, l.size), (Some(12), Some(16), 24));
        let mut none: Vec<Field> = Vec::new();
        assert_eq!(place_fields(&mut none, 0).size, 0);
        assert_eq!(place_fields(&mut none, 1).size, 8);
    }

    #[test]
    fn type_names_read_as_java_writes_them() {
        assert_eq!(java_type_name("[I"), "int[]");
        assert_eq!(
            java_type_name("[[Ljava/lang/String;"),
            "java.lang.String[][]"
        );
        assert_eq!(java_type_name("Ljava/lang/Object;"), "java.lang.Object");
    }
}
