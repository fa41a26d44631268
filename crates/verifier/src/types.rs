//! Verification types (JVMS 17 §4.10.1.2) and the assignability lattice.
//!
//! A [`Type`] is a small `Copy` enum. Reference types carry a [`NameId`], an
//! index into the per-class [`Names`] interner; names are borrowed from the
//! class file (constant pool, descriptors) whenever possible and only
//! allocated when the verifier synthesises a new array type (`anewarray`).
//! Because every name is interned, two reference types are the same type iff
//! their ids are equal.
//!
//! Values of category 2 (`long`, `double`) occupy two slots both in local
//! variables and on the operand stack: the type itself followed by `Top`
//! (the same representation as the JVMS Prolog rules).
//!
//! [`TypeContext::is_assignable`] implements `isAssignable` / `isJavaAssignable`:
//! array cases are decided locally, class-to-class questions are delegated to
//! the [`ClassHierarchy`] and cached per verified class.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ClassHierarchy;

/// A small, fast, non-cryptographic hasher (the FxHash algorithm).
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Index of an interned class or array name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NameId(u32);

/// A verification type. Category-2 values are followed by a `Top` slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Top,
    Integer,
    Float,
    Long,
    Double,
    Null,
    UninitializedThis,
    /// Object created by the `new` instruction at this offset, not yet initialised.
    Uninitialized(u16),
    /// An initialised class or array type.
    Reference(NameId),
}

impl Type {
    /// Number of slots (2 for long/double).
    #[inline]
    pub fn size(self) -> usize {
        if matches!(self, Type::Long | Type::Double) {
            2
        } else {
            1
        }
    }

    /// `long` or `double`.
    #[inline]
    pub fn is_category2(self) -> bool {
        matches!(self, Type::Long | Type::Double)
    }

    /// A value that can be a category-1 operand (not `Top`, not the first slot of a long/double).
    #[inline]
    pub fn is_category1(self) -> bool {
        !matches!(self, Type::Top | Type::Long | Type::Double)
    }

    /// Any reference type, including `null` and uninitialised objects (JVMS `reference`).
    #[inline]
    pub fn is_reference(self) -> bool {
        matches!(
            self,
            Type::Null | Type::Reference(_) | Type::Uninitialized(_) | Type::UninitializedThis
        )
    }

    /// Initialised reference (assignable to `java/lang/Object`).
    #[inline]
    pub fn is_initialized_reference(self) -> bool {
        matches!(self, Type::Null | Type::Reference(_))
    }
}

/// Interner for class and array names, plus cached array-component relations.
pub struct Names<'a> {
    list: Vec<Cow<'a, str>>,
    map: FxMap<Cow<'a, str>, NameId>,
    component: FxMap<NameId, Type>,
    array_of: FxMap<NameId, NameId>,
    pub object: NameId,
    pub string: NameId,
    pub class: NameId,
    pub throwable: NameId,
    pub method_type: NameId,
    pub method_handle: NameId,
    pub cloneable: NameId,
    pub serializable: NameId,
    pub object_array: NameId,
}

impl Default for Names<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Names<'a> {
    pub fn new() -> Self {
        let placeholder = NameId(0);
        let mut n = Names {
            list: Vec::with_capacity(64),
            map: FxMap::default(),
            component: FxMap::default(),
            array_of: FxMap::default(),
            object: placeholder,
            string: placeholder,
            class: placeholder,
            throwable: placeholder,
            method_type: placeholder,
            method_handle: placeholder,
            cloneable: placeholder,
            serializable: placeholder,
            object_array: placeholder,
        };
        n.object = n.intern("java/lang/Object");
        n.string = n.intern("java/lang/String");
        n.class = n.intern("java/lang/Class");
        n.throwable = n.intern("java/lang/Throwable");
        n.method_type = n.intern("java/lang/invoke/MethodType");
        n.method_handle = n.intern("java/lang/invoke/MethodHandle");
        n.cloneable = n.intern("java/lang/Cloneable");
        n.serializable = n.intern("java/io/Serializable");
        n.object_array = n.intern("[Ljava/lang/Object;");
        n
    }

    /// Intern a name borrowed from the class file.
    pub fn intern(&mut self, name: &'a str) -> NameId {
        if let Some(&id) = self.map.get(name) {
            return id;
        }
        self.insert(Cow::Borrowed(name))
    }

    /// Intern a freshly built name.
    pub fn intern_owned(&mut self, name: String) -> NameId {
        if let Some(&id) = self.map.get(name.as_str()) {
            return id;
        }
        self.insert(Cow::Owned(name))
    }

    fn insert(&mut self, name: Cow<'a, str>) -> NameId {
        let id = NameId(u32::try_from(self.list.len()).unwrap_or(u32::MAX));
        self.map.insert(name.clone(), id);
        self.list.push(name);
        id
    }

    /// The text of an interned name.
    pub fn name(&self, id: NameId) -> &str {
        self.list.get(id.0 as usize).map_or("", |c| c.as_ref())
    }

    /// Is the name an array descriptor?
    pub fn is_array(&self, id: NameId) -> bool {
        self.name(id).starts_with('[')
    }

    /// Component type of an array name (`None` when `id` is not a valid array name).
    pub fn component(&mut self, id: NameId) -> Option<Type> {
        if let Some(&t) = self.component.get(&id) {
            return Some(t);
        }
        // Borrow the component from the class file when the array name itself is borrowed.
        let borrowed: Option<&'a str> = match self.list.get(id.0 as usize)? {
            Cow::Borrowed(s) => Some(s),
            Cow::Owned(_) => None,
        };
        let name = self.name(id);
        let rest = name.strip_prefix('[')?;
        let (start, end) = match rest.as_bytes().first()? {
            b'Z' | b'B' | b'C' | b'S' | b'I' if rest.len() == 1 => {
                return self.cache_component(id, Type::Integer);
            }
            b'F' if rest.len() == 1 => return self.cache_component(id, Type::Float),
            b'J' if rest.len() == 1 => return self.cache_component(id, Type::Long),
            b'D' if rest.len() == 1 => return self.cache_component(id, Type::Double),
            b'[' => (1, name.len()),
            b'L' if rest.len() > 2 && rest.ends_with(';') => (2, name.len() - 1),
            _ => return None,
        };
        let comp = match borrowed {
            Some(s) => self.intern(&s[start..end]),
            None => {
                let owned = name[start..end].to_string();
                self.intern_owned(owned)
            }
        };
        self.cache_component(id, Type::Reference(comp))
    }

    fn cache_component(&mut self, id: NameId, t: Type) -> Option<Type> {
        self.component.insert(id, t);
        Some(t)
    }

    /// The array type whose component is the reference type `elem`.
    pub fn array_of(&mut self, elem: NameId) -> NameId {
        if let Some(&id) = self.array_of.get(&elem) {
            return id;
        }
        let e = self.name(elem);
        let name = if e.starts_with('[') {
            format!("[{e}")
        } else {
            format!("[L{e};")
        };
        let id = self.intern_owned(name);
        self.array_of.insert(elem, id);
        self.component.insert(id, Type::Reference(elem));
        id
    }

    /// Human-readable form of a type, in HotSpot's style.
    pub fn describe(&self, t: Type) -> String {
        match t {
            Type::Top => "top".into(),
            Type::Integer => "integer".into(),
            Type::Float => "float".into(),
            Type::Long => "long".into(),
            Type::Double => "double".into(),
            Type::Null => "null".into(),
            Type::UninitializedThis => "uninitializedThis".into(),
            Type::Uninitialized(pc) => format!("uninitialized({pc})"),
            Type::Reference(id) => format!("'{}'", self.name(id)),
        }
    }
}

/// Number of array dimensions of a descriptor/name (leading `[`s).
pub fn array_dimensions(name: &str) -> usize {
    name.bytes().take_while(|&b| b == b'[').count()
}

/// End index (exclusive) of the field type starting at `start` in `s`, validating
/// the grammar of JVMS §4.3.2 (at most 255 array dimensions).
pub fn field_type_end(s: &str, start: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = start;
    while b.get(i) == Some(&b'[') {
        i += 1;
    }
    if i - start > 255 {
        return None;
    }
    match *b.get(i)? {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => Some(i + 1),
        b'L' => {
            let semi = i + 1 + s.get(i + 1..)?.find(';')?;
            let name = &s[i + 1..semi];
            if name.is_empty() || name.contains(['.', '[']) {
                return None;
            }
            Some(semi + 1)
        }
        _ => None,
    }
}

/// Is `s` a single valid field descriptor?
pub fn is_field_descriptor(s: &str) -> bool {
    field_type_end(s, 0) == Some(s.len())
}

/// Number of argument slots of a method descriptor (long/double count 2), validating
/// the descriptor's grammar. Returns `(slots, return descriptor)`.
pub fn method_param_slots(desc: &str) -> Option<(usize, &str)> {
    if !desc.starts_with('(') {
        return None;
    }
    let mut i = 1usize;
    let mut slots = 0usize;
    loop {
        match desc.as_bytes().get(i)? {
            b')' => break,
            b'J' | b'D' => {
                slots += 2;
                i += 1;
            }
            _ => {
                i = field_type_end(desc, i)?;
                slots += 1;
            }
        }
    }
    let ret = &desc[i + 1..];
    if ret != "V" && !is_field_descriptor(ret) {
        return None;
    }
    Some((slots, ret))
}

/// Per-class typing context: interned names, the class hierarchy and a cache of
/// assignability answers.
pub struct TypeContext<'a, 'h> {
    pub names: Names<'a>,
    hierarchy: &'h dyn ClassHierarchy,
    cache: FxMap<(NameId, NameId), bool>,
}

impl<'a, 'h> TypeContext<'a, 'h> {
    pub fn new(hierarchy: &'h dyn ClassHierarchy) -> Self {
        TypeContext {
            names: Names::new(),
            hierarchy,
            cache: FxMap::default(),
        }
    }

    pub fn hierarchy(&self) -> &'h dyn ClassHierarchy {
        self.hierarchy
    }

    /// Parse the field type at `desc[start..]`; returns the type and the end index.
    /// `boolean`, `byte`, `char`, `short` become `Integer`.
    pub fn field_type(&mut self, desc: &'a str, start: usize) -> Option<(Type, usize)> {
        let end = field_type_end(desc, start)?;
        let t = match desc.as_bytes()[start] {
            b'B' | b'C' | b'I' | b'S' | b'Z' => Type::Integer,
            b'F' => Type::Float,
            b'J' => Type::Long,
            b'D' => Type::Double,
            b'L' => Type::Reference(self.names.intern(&desc[start + 1..end - 1])),
            _ => Type::Reference(self.names.intern(&desc[start..end])),
        };
        Some((t, end))
    }

    /// Parse a method descriptor, appending argument types (one entry per
    /// argument, not expanded) to `args`. Returns the return type (`None` = void).
    pub fn method_type(&mut self, desc: &'a str, args: &mut Vec<Type>) -> Result<Option<Type>, ()> {
        if !desc.starts_with('(') {
            return Err(());
        }
        let mut i = 1;
        loop {
            if desc.as_bytes().get(i) == Some(&b')') {
                break;
            }
            let (t, end) = self.field_type(desc, i).ok_or(())?;
            args.push(t);
            i = end;
        }
        let ret = &desc[i + 1..];
        if ret == "V" {
            return Ok(None);
        }
        match self.field_type(desc, i + 1) {
            Some((t, end)) if end == desc.len() => Ok(Some(t)),
            _ => Err(()),
        }
    }

    /// JVMS `isAssignable(from, to)`.
    pub fn is_assignable(&mut self, from: Type, to: Type) -> Result<bool, String> {
        if from == to {
            return Ok(true);
        }
        match to {
            Type::Top => Ok(true),
            Type::Reference(t) => match from {
                Type::Null => Ok(true),
                Type::Reference(f) => self.ref_assignable(f, t),
                _ => Ok(false),
            },
            _ => Ok(false),
        }
    }

    /// `isJavaAssignable` for two initialised reference types.
    pub fn ref_assignable(&mut self, from: NameId, to: NameId) -> Result<bool, String> {
        if from == to || to == self.names.object {
            return Ok(true);
        }
        if let Some(&r) = self.cache.get(&(from, to)) {
            return Ok(r);
        }
        let to_array = self.names.is_array(to);
        let from_array = self.names.is_array(from);
        let result = if to_array {
            if from_array {
                match (self.names.component(from), self.names.component(to)) {
                    (Some(Type::Reference(fc)), Some(Type::Reference(tc))) => {
                        self.ref_assignable(fc, tc)?
                    }
                    _ => false,
                }
            } else {
                false
            }
        } else if from_array {
            to == self.names.cloneable || to == self.names.serializable
        } else {
            let (f, t) = (self.names.name(from), self.names.name(to));
            self.hierarchy.is_assignable(f, t)?
        };
        self.cache.insert((from, to), result);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Flat;
    impl ClassHierarchy for Flat {
        fn is_assignable(&self, from: &str, to: &str) -> Result<bool, String> {
            match (from, to) {
                ("java/lang/Integer", "java/lang/Number") => Ok(true),
                ("Missing", _) | (_, "Missing") => Err("Missing".into()),
                _ => Ok(false),
            }
        }
        fn is_interface(&self, _: &str) -> Result<bool, String> {
            Ok(false)
        }
        fn superclasses(&self, _: &str) -> Result<Vec<String>, String> {
            Ok(vec!["java/lang/Object".into()])
        }
        fn protected_in_other_package(
            &self,
            _: &str,
            _: &str,
            _: &str,
            _: &str,
            _: bool,
        ) -> Result<bool, String> {
            Ok(false)
        }
    }

    #[test]
    fn interning_is_canonical() {
        let mut n = Names::new();
        let a = n.intern("a/B");
        let b = n.intern_owned("a/B".to_string());
        assert_eq!(a, b);
        assert_eq!(n.name(a), "a/B");
        let arr = n.array_of(a);
        assert_eq!(n.name(arr), "[La/B;");
        assert_eq!(n.component(arr), Some(Type::Reference(a)));
        let arr2 = n.array_of(arr);
        assert_eq!(n.name(arr2), "[[La/B;");
        let ia = n.intern("[I");
        assert_eq!(n.component(ia), Some(Type::Integer));
        let bad = n.intern("[Q");
        assert_eq!(n.component(bad), None);
        let not_array = n.intern("Foo");
        assert_eq!(n.component(not_array), None);
    }

    #[test]
    fn primitive_lattice() {
        let h = Flat;
        let mut c = TypeContext::new(&h);
        assert!(c.is_assignable(Type::Integer, Type::Integer).unwrap());
        assert!(c.is_assignable(Type::Long, Type::Top).unwrap());
        assert!(!c.is_assignable(Type::Integer, Type::Float).unwrap());
        assert!(!c.is_assignable(Type::Top, Type::Integer).unwrap());
        let obj = Type::Reference(c.names.object);
        assert!(c.is_assignable(Type::Null, obj).unwrap());
        assert!(!c.is_assignable(Type::Integer, obj).unwrap());
        assert!(!c.is_assignable(Type::UninitializedThis, obj).unwrap());
        assert!(!c.is_assignable(Type::Uninitialized(3), obj).unwrap());
        assert!(c.is_assignable(Type::Uninitialized(3), Type::Top).unwrap());
        assert!(
            !c.is_assignable(Type::Null, Type::UninitializedThis)
                .unwrap()
        );
    }

    #[test]
    fn reference_lattice() {
        let h = Flat;
        let mut c = TypeContext::new(&h);
        let integer = c.names.intern("java/lang/Integer");
        let number = c.names.intern("java/lang/Number");
        let int_arr = c.names.intern("[Ljava/lang/Integer;");
        let num_arr = c.names.intern("[Ljava/lang/Number;");
        let obj_arr = c.names.object_array;
        let prim_i = c.names.intern("[I");
        let prim_b = c.names.intern("[B");
        let prim_z = c.names.intern("[Z");
        let r = Type::Reference;
        assert!(c.is_assignable(r(integer), r(number)).unwrap());
        assert!(!c.is_assignable(r(number), r(integer)).unwrap());
        assert!(c.is_assignable(r(int_arr), r(num_arr)).unwrap());
        assert!(c.is_assignable(r(int_arr), r(obj_arr)).unwrap());
        assert!(!c.is_assignable(r(prim_i), r(obj_arr)).unwrap());
        assert!(!c.is_assignable(r(prim_b), r(prim_z)).unwrap());
        assert!(c.is_assignable(r(prim_i), r(c.names.object)).unwrap());
        assert!(c.is_assignable(r(prim_i), r(c.names.cloneable)).unwrap());
        assert!(
            c.is_assignable(r(int_arr), r(c.names.serializable))
                .unwrap()
        );
        assert!(!c.is_assignable(r(integer), r(int_arr)).unwrap());
        let nested = c.names.intern("[[I");
        assert!(c.is_assignable(r(nested), r(obj_arr)).unwrap());
        let missing = c.names.intern("Missing");
        assert_eq!(
            c.is_assignable(r(missing), r(number)),
            Err("Missing".to_string())
        );
    }

    #[test]
    fn descriptors() {
        assert!(is_field_descriptor("I"));
        assert!(is_field_descriptor("[[Ljava/lang/String;"));
        assert!(!is_field_descriptor("L;"));
        assert!(!is_field_descriptor("V"));
        assert!(!is_field_descriptor("II"));
        assert!(!is_field_descriptor("Ljava/lang/String"));
        assert_eq!(
            method_param_slots("(IJLjava/lang/Object;[D)V"),
            Some((5, "V"))
        );
        assert_eq!(method_param_slots("()[I"), Some((0, "[I")));
        assert_eq!(method_param_slots("(I"), None);
        assert_eq!(method_param_slots("(I)"), None);
        assert_eq!(method_param_slots("I)V"), None);
        assert_eq!(method_param_slots("(V)V"), None);
        let deep = format!("{}I", "[".repeat(256));
        assert!(!is_field_descriptor(&deep));
        let h = Flat;
        let mut c = TypeContext::new(&h);
        let mut args = Vec::new();
        let ret = c
            .method_type("(ZJ[BLjava/lang/String;)Ljava/lang/Object;", &mut args)
            .unwrap();
        assert_eq!(ret, Some(Type::Reference(c.names.object)));
        assert_eq!(args.len(), 4);
        assert_eq!(args[0], Type::Integer);
        assert_eq!(args[1], Type::Long);
        assert_eq!(args[3], Type::Reference(c.names.string));
        assert!(c.method_type("(X)V", &mut args).is_err());
        assert!(c.method_type("()", &mut args).is_err());
    }
}
