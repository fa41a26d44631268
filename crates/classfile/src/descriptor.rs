//! Field and method descriptors (JVMS 17 §4.3): strict validation, parsing into
//! [`FieldType`]/[`MethodDescriptor`], and cheap non-allocating validators used by the format
//! checker.

use crate::error::{ClassFormatError, Result};

/// Maximum number of array dimensions in a descriptor (JVMS §4.3.2).
pub const MAX_ARRAY_DIMENSIONS: usize = 255;

/// A field type (JVMS §4.3.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldType {
    Byte,
    Char,
    Double,
    Float,
    Int,
    Long,
    Short,
    Boolean,
    /// A class or interface type; the name is in internal form ("java/lang/String").
    Object(String),
    /// An array type with the given component type.
    Array(Box<FieldType>),
}

impl FieldType {
    /// Number of local variable / operand stack slots: 2 for `long` and `double`, else 1.
    pub fn slots(&self) -> usize {
        match self {
            FieldType::Long | FieldType::Double => 2,
            _ => 1,
        }
    }

    /// True for class, interface and array types.
    pub fn is_reference(&self) -> bool {
        matches!(self, FieldType::Object(_) | FieldType::Array(_))
    }

    /// True for the eight primitive types.
    pub fn is_primitive(&self) -> bool {
        !self.is_reference()
    }

    /// The descriptor character of a primitive type (`None` for references).
    pub fn primitive_char(&self) -> Option<char> {
        Some(match self {
            FieldType::Byte => 'B',
            FieldType::Char => 'C',
            FieldType::Double => 'D',
            FieldType::Float => 'F',
            FieldType::Int => 'I',
            FieldType::Long => 'J',
            FieldType::Short => 'S',
            FieldType::Boolean => 'Z',
            FieldType::Object(_) | FieldType::Array(_) => return None,
        })
    }

    /// The primitive type for a descriptor character.
    pub fn from_primitive_char(c: u8) -> Option<FieldType> {
        Some(match c {
            b'B' => FieldType::Byte,
            b'C' => FieldType::Char,
            b'D' => FieldType::Double,
            b'F' => FieldType::Float,
            b'I' => FieldType::Int,
            b'J' => FieldType::Long,
            b'S' => FieldType::Short,
            b'Z' => FieldType::Boolean,
            _ => return None,
        })
    }

    /// Back to descriptor form: "I", "Ljava/lang/String;", "[I".
    pub fn descriptor(&self) -> String {
        let mut out = String::new();
        self.write_descriptor(&mut out);
        out
    }

    /// Appends the descriptor form to `out`.
    pub fn write_descriptor(&self, out: &mut String) {
        let mut t = self;
        while let FieldType::Array(component) = t {
            out.push('[');
            t = component;
        }
        match t {
            FieldType::Object(name) => {
                out.push('L');
                out.push_str(name);
                out.push(';');
            }
            other => {
                if let Some(c) = other.primitive_char() {
                    out.push(c);
                }
            }
        }
    }
}

/// A method descriptor (JVMS §4.3.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodDescriptor {
    pub params: Vec<FieldType>,
    /// `None` = void.
    pub ret: Option<FieldType>,
}

impl MethodDescriptor {
    /// Total slots taken by the parameters (long/double count 2), not counting `this`.
    pub fn param_slots(&self) -> usize {
        self.params.iter().map(FieldType::slots).sum()
    }

    /// Back to descriptor form: "(ILjava/lang/String;)V".
    pub fn descriptor(&self) -> String {
        let mut out = String::from("(");
        for p in &self.params {
            p.write_descriptor(&mut out);
        }
        out.push(')');
        match &self.ret {
            Some(t) => t.write_descriptor(&mut out),
            None => out.push('V'),
        }
        out
    }
}

/// Is `name` a valid class or interface name in internal form (JVMS §4.2.1), e.g.
/// "java/lang/Object"? Identifiers are non-empty and contain none of `. ; [ /`.
/// Array descriptors are not accepted here.
pub fn is_valid_internal_name(name: &str) -> bool {
    is_valid_internal_name_bytes(name.as_bytes())
}

fn is_valid_internal_name_bytes(name: &[u8]) -> bool {
    if name.is_empty() {
        return false;
    }
    let mut prev_slash = true; // no leading '/'
    for &c in name {
        match c {
            b'.' | b';' | b'[' => return false,
            b'/' => {
                if prev_slash {
                    return false;
                }
                prev_slash = true;
            }
            _ => prev_slash = false,
        }
    }
    !prev_slash // no trailing '/'
}

/// If a valid field type starts at `start`, the index just past it.
fn skip_field_type(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    while b.get(i) == Some(&b'[') {
        i += 1;
        if i - start > MAX_ARRAY_DIMENSIONS {
            return None;
        }
    }
    match *b.get(i)? {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => Some(i + 1),
        b'L' => {
            let rest = b.get(i + 1..)?;
            let semi = rest.iter().position(|&c| c == b';')?;
            if is_valid_internal_name_bytes(rest.get(..semi)?) {
                Some(i + 1 + semi + 1)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Is `s` exactly one valid field descriptor?
pub fn is_valid_field_descriptor(s: &str) -> bool {
    skip_field_type(s.as_bytes(), 0) == Some(s.len())
}

/// Is `s` a valid class name for a CONSTANT_Class entry: an internal name or an array
/// descriptor?
pub fn is_valid_class_name(s: &str) -> bool {
    if s.starts_with('[') {
        is_valid_field_descriptor(s)
    } else {
        is_valid_internal_name(s)
    }
}

/// The shape of a method descriptor, found without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodShape {
    /// Parameter slots (long/double count 2), without `this`.
    pub param_slots: usize,
    pub returns_void: bool,
}

/// Validates a method descriptor without allocating; `None` when invalid.
pub fn method_shape(s: &str) -> Option<MethodShape> {
    let b = s.as_bytes();
    if b.first() != Some(&b'(') {
        return None;
    }
    let mut i = 1;
    let mut param_slots = 0usize;
    loop {
        let c = *b.get(i)?;
        if c == b')' {
            i += 1;
            break;
        }
        i = skip_field_type(b, i)?;
        param_slots += if c == b'J' || c == b'D' { 2 } else { 1 };
    }
    if b.get(i) == Some(&b'V') {
        return (i + 1 == b.len()).then_some(MethodShape {
            param_slots,
            returns_void: true,
        });
    }
    (skip_field_type(b, i)? == b.len()).then_some(MethodShape {
        param_slots,
        returns_void: false,
    })
}

/// Parses the field type starting at `start`; returns it and the index past it.
fn parse_field_type_at(s: &str, start: usize) -> Option<(FieldType, usize)> {
    let b = s.as_bytes();
    let end = skip_field_type(b, start)?;
    let mut i = start;
    while b.get(i) == Some(&b'[') {
        i += 1;
    }
    let dims = i - start;
    let mut t = match *b.get(i)? {
        b'L' => FieldType::Object(s.get(i + 1..end - 1)?.to_owned()),
        c => FieldType::from_primitive_char(c)?,
    };
    for _ in 0..dims {
        t = FieldType::Array(Box::new(t));
    }
    Some((t, end))
}

/// Parses a field descriptor such as "I", "Ljava/lang/String;" or "[[J".
pub fn parse_field_descriptor(s: &str) -> Result<FieldType> {
    match parse_field_type_at(s, 0) {
        Some((t, end)) if end == s.len() => Ok(t),
        _ => Err(ClassFormatError(format!(
            "Illegal field descriptor \"{s}\""
        ))),
    }
}

/// Parses a method descriptor such as "(ILjava/lang/String;)V".
pub fn parse_method_descriptor(s: &str) -> Result<MethodDescriptor> {
    let bad = || ClassFormatError(format!("Illegal method descriptor \"{s}\""));
    let b = s.as_bytes();
    if b.first() != Some(&b'(') {
        return Err(bad());
    }
    let mut i = 1;
    let mut params = Vec::new();
    loop {
        match b.get(i) {
            None => return Err(bad()),
            Some(b')') => {
                i += 1;
                break;
            }
            Some(_) => {
                let (t, end) = parse_field_type_at(s, i).ok_or_else(bad)?;
                params.push(t);
                i = end;
            }
        }
    }
    if b.get(i) == Some(&b'V') {
        return if i + 1 == b.len() {
            Ok(MethodDescriptor { params, ret: None })
        } else {
            Err(bad())
        };
    }
    match parse_field_type_at(s, i) {
        Some((t, end)) if end == b.len() => Ok(MethodDescriptor {
            params,
            ret: Some(t),
        }),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(n: &str) -> FieldType {
        FieldType::Object(n.to_owned())
    }
    fn arr(t: FieldType) -> FieldType {
        FieldType::Array(Box::new(t))
    }

    #[test]
    fn field_descriptors() {
        assert_eq!(parse_field_descriptor("I").unwrap(), FieldType::Int);
        assert_eq!(parse_field_descriptor("J").unwrap().slots(), 2);
        assert_eq!(
            parse_field_descriptor("Ljava/lang/String;").unwrap(),
            obj("java/lang/String")
        );
        assert_eq!(
            parse_field_descriptor("[[D").unwrap(),
            arr(arr(FieldType::Double))
        );
        assert_eq!(
            parse_field_descriptor("[La/B$C;").unwrap(),
            arr(obj("a/B$C"))
        );
        assert_eq!(parse_field_descriptor("[J").unwrap().slots(), 1);
        assert!(parse_field_descriptor("[I").unwrap().is_reference());
        assert!(!FieldType::Boolean.is_reference());
        for t in [
            "B",
            "C",
            "D",
            "F",
            "I",
            "J",
            "S",
            "Z",
            "Lx;",
            "[[Ljava/lang/Object;",
            "[Z",
        ] {
            assert_eq!(parse_field_descriptor(t).unwrap().descriptor(), t);
            assert!(is_valid_field_descriptor(t));
        }
    }

    #[test]
    fn bad_field_descriptors() {
        for t in [
            "",
            "V",
            "II",
            "L;",
            "Ljava/lang/String",
            "La//b;",
            "L/a;",
            "La/;",
            "La.b;",
            "La[b;",
            "[",
            "[V",
            "Q",
            "Ljava/lang/String;I",
            "La;;",
            "i",
        ] {
            assert!(parse_field_descriptor(t).is_err(), "{t}");
            assert!(!is_valid_field_descriptor(t), "{t}");
        }
    }

    #[test]
    fn array_dimension_limit() {
        let ok = format!("{}I", "[".repeat(255));
        let bad = format!("{}I", "[".repeat(256));
        assert!(parse_field_descriptor(&ok).is_ok());
        assert!(is_valid_field_descriptor(&ok));
        assert!(parse_field_descriptor(&bad).is_err());
        assert!(!is_valid_field_descriptor(&bad));
        assert_eq!(parse_field_descriptor(&ok).unwrap().descriptor(), ok);
    }

    #[test]
    fn method_descriptors() {
        let m = parse_method_descriptor("(IDLjava/lang/Thread;[J)Ljava/lang/Object;").unwrap();
        assert_eq!(
            m.params,
            vec![
                FieldType::Int,
                FieldType::Double,
                obj("java/lang/Thread"),
                arr(FieldType::Long)
            ]
        );
        assert_eq!(m.ret, Some(obj("java/lang/Object")));
        assert_eq!(m.param_slots(), 5);
        assert_eq!(m.descriptor(), "(IDLjava/lang/Thread;[J)Ljava/lang/Object;");
        let v = parse_method_descriptor("()V").unwrap();
        assert!(v.params.is_empty() && v.ret.is_none());
        assert_eq!(
            method_shape("(IDLjava/lang/Thread;[J)Ljava/lang/Object;"),
            Some(MethodShape {
                param_slots: 5,
                returns_void: false
            })
        );
        assert_eq!(
            method_shape("(JJ)V"),
            Some(MethodShape {
                param_slots: 4,
                returns_void: true
            })
        );
    }

    #[test]
    fn bad_method_descriptors() {
        for t in [
            "",
            "(",
            "()",
            "V",
            "I",
            "(V)V",
            "()VV",
            "()II",
            "(I",
            "(I)",
            "(L;)V",
            "(Ljava/lang/String)V",
            ")V",
            "(I)Q",
            "()[V",
            "(I)V ",
        ] {
            assert!(parse_method_descriptor(t).is_err(), "{t}");
            assert!(method_shape(t).is_none(), "{t}");
        }
    }

    #[test]
    fn class_names() {
        for ok in [
            "java/lang/Object",
            "A",
            "a/b$c",
            "[I",
            "[[Ljava/lang/String;",
            "<weird>",
        ] {
            assert!(is_valid_class_name(ok), "{ok}");
        }
        for bad in [
            "", "/a", "a/", "a//b", "a.b", "a;b", "[", "[a", "La;", "a[b",
        ] {
            assert!(!is_valid_class_name(bad), "{bad}");
        }
    }
}
