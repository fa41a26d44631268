//! The constant pool (JVMS 17 §4.4): entry types, lookup helpers, parsing of the raw entries,
//! and the cross-reference format checks of §4.8 (each reference points to an entry of the
//! right kind, names and descriptors are well formed, method handles are consistent).

use crate::descriptor::{is_valid_class_name, is_valid_field_descriptor, method_shape};
use crate::error::{Result, bail, cfe};
use crate::mutf8;
use crate::reader::Reader;

/// A CONSTANT_Utf8 entry: a Rust string decoded lossily (lone surrogates become U+FFFD), plus
/// the raw modified-UTF-8 bytes when they are not plain ASCII (for ASCII they are the text's
/// own bytes, and keeping one copy halves the allocations of class parsing). `utf16()` gives
/// exact Java chars.
#[derive(Debug, Clone)]
pub struct Utf8 {
    bytes: Option<Box<[u8]>>,
    pub text: Box<str>,
}

impl Utf8 {
    /// Decodes modified UTF-8 bytes; errors if they are not valid modified UTF-8.
    pub fn from_mutf8(bytes: &[u8]) -> Result<Utf8> {
        let text = mutf8::decode_lossy(bytes)?.into_boxed_str();
        let bytes = (!bytes.is_ascii()).then(|| bytes.into());
        Ok(Utf8 { bytes, text })
    }

    /// Builds an entry from a Rust string.
    pub fn from_text(text: &str) -> Utf8 {
        let bytes = (!text.is_ascii() || text.contains('\0'))
            .then(|| mutf8::encode_str(text).into_boxed_slice());
        Utf8 {
            bytes,
            text: text.into(),
        }
    }

    /// An entry from its parts as [`Utf8::raw`] gives them (the class summary's decoder).
    pub(crate) fn from_parts(text: Box<str>, bytes: Option<Box<[u8]>>) -> Utf8 {
        Utf8 { bytes, text }
    }

    /// The raw modified-UTF-8 bytes when they differ from the text's.
    pub(crate) fn raw(&self) -> Option<&[u8]> {
        self.bytes.as_deref()
    }

    /// The modified-UTF-8 bytes of the entry.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or(self.text.as_bytes())
    }

    /// The exact Java characters (UTF-16 code units, lone surrogates included).
    pub fn utf16(&self) -> Vec<u16> {
        match &self.bytes {
            None => self.text.bytes().map(u16::from).collect(),
            Some(b) => mutf8::decode(b).unwrap_or_else(|_| self.text.encode_utf16().collect()),
        }
    }

    /// The text (lossy for lone surrogates).
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// One constant pool entry.
#[derive(Debug, Clone)]
pub enum Constant {
    /// Index 0, and the slot after a Long/Double.
    Unusable,
    Utf8(Utf8),
    Integer(i32),
    Float(f32),
    Long(i64),
    Double(f64),
    Class {
        name_index: u16,
    },
    String {
        string_index: u16,
    },
    FieldRef {
        class_index: u16,
        name_and_type_index: u16,
    },
    MethodRef {
        class_index: u16,
        name_and_type_index: u16,
    },
    InterfaceMethodRef {
        class_index: u16,
        name_and_type_index: u16,
    },
    NameAndType {
        name_index: u16,
        descriptor_index: u16,
    },
    MethodHandle {
        reference_kind: u8,
        reference_index: u16,
    },
    MethodType {
        descriptor_index: u16,
    },
    Dynamic {
        bootstrap_method_attr_index: u16,
        name_and_type_index: u16,
    },
    InvokeDynamic {
        bootstrap_method_attr_index: u16,
        name_and_type_index: u16,
    },
    Module {
        name_index: u16,
    },
    Package {
        name_index: u16,
    },
}

/// Tag values of constant pool entries (JVMS Table 4.4-B).
pub mod tag {
    pub const UTF8: u8 = 1;
    pub const INTEGER: u8 = 3;
    pub const FLOAT: u8 = 4;
    pub const LONG: u8 = 5;
    pub const DOUBLE: u8 = 6;
    pub const CLASS: u8 = 7;
    pub const STRING: u8 = 8;
    pub const FIELDREF: u8 = 9;
    pub const METHODREF: u8 = 10;
    pub const INTERFACE_METHODREF: u8 = 11;
    pub const NAME_AND_TYPE: u8 = 12;
    pub const METHOD_HANDLE: u8 = 15;
    pub const METHOD_TYPE: u8 = 16;
    pub const DYNAMIC: u8 = 17;
    pub const INVOKE_DYNAMIC: u8 = 18;
    pub const MODULE: u8 = 19;
    pub const PACKAGE: u8 = 20;
}

/// Method handle reference kinds (JVMS Table 5.4.3.5-A).
pub mod ref_kind {
    pub const GET_FIELD: u8 = 1;
    pub const GET_STATIC: u8 = 2;
    pub const PUT_FIELD: u8 = 3;
    pub const PUT_STATIC: u8 = 4;
    pub const INVOKE_VIRTUAL: u8 = 5;
    pub const INVOKE_STATIC: u8 = 6;
    pub const INVOKE_SPECIAL: u8 = 7;
    pub const NEW_INVOKE_SPECIAL: u8 = 8;
    pub const INVOKE_INTERFACE: u8 = 9;
}

impl Constant {
    /// The JVMS tag byte (0 for `Unusable`).
    pub fn tag(&self) -> u8 {
        match self {
            Constant::Unusable => 0,
            Constant::Utf8(_) => tag::UTF8,
            Constant::Integer(_) => tag::INTEGER,
            Constant::Float(_) => tag::FLOAT,
            Constant::Long(_) => tag::LONG,
            Constant::Double(_) => tag::DOUBLE,
            Constant::Class { .. } => tag::CLASS,
            Constant::String { .. } => tag::STRING,
            Constant::FieldRef { .. } => tag::FIELDREF,
            Constant::MethodRef { .. } => tag::METHODREF,
            Constant::InterfaceMethodRef { .. } => tag::INTERFACE_METHODREF,
            Constant::NameAndType { .. } => tag::NAME_AND_TYPE,
            Constant::MethodHandle { .. } => tag::METHOD_HANDLE,
            Constant::MethodType { .. } => tag::METHOD_TYPE,
            Constant::Dynamic { .. } => tag::DYNAMIC,
            Constant::InvokeDynamic { .. } => tag::INVOKE_DYNAMIC,
            Constant::Module { .. } => tag::MODULE,
            Constant::Package { .. } => tag::PACKAGE,
        }
    }

    /// Loadable by `ldc`/bootstrap arguments (JVMS Table 4.4-C).
    pub fn is_loadable(&self) -> bool {
        matches!(
            self,
            Constant::Integer(_)
                | Constant::Float(_)
                | Constant::Long(_)
                | Constant::Double(_)
                | Constant::Class { .. }
                | Constant::String { .. }
                | Constant::MethodHandle { .. }
                | Constant::MethodType { .. }
                | Constant::Dynamic { .. }
        )
    }
}

/// A member reference with its names resolved to strings.
#[derive(Debug, Clone, Copy)]
pub struct MemberRef<'a> {
    pub class_name: &'a str,
    pub name: &'a str,
    pub descriptor: &'a str,
}

/// The constant pool; `entries[0]` is `Unusable`, and `entries.len()` is the class file's
/// `constant_pool_count`.
#[derive(Debug, Clone)]
pub struct ConstantPool {
    pub entries: Vec<Constant>,
}

impl ConstantPool {
    /// `constant_pool_count` (number of entries including the unusable index 0).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True only for a pool with no entries at all (never the case after parsing).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry at `index`; `None` when out of range or `Unusable` (index 0 and the slot
    /// after a Long/Double).
    pub fn get(&self, index: u16) -> Option<&Constant> {
        match self.entries.get(usize::from(index)) {
            Some(Constant::Unusable) | None => None,
            some => some,
        }
    }

    /// Text of a Utf8 entry.
    pub fn utf8(&self, index: u16) -> Option<&str> {
        self.utf8_entry(index).map(|u| &*u.text)
    }

    /// A Utf8 entry.
    pub fn utf8_entry(&self, index: u16) -> Option<&Utf8> {
        match self.get(index)? {
            Constant::Utf8(u) => Some(u),
            _ => None,
        }
    }

    /// CONSTANT_Class -> its name ("java/lang/String", "[I").
    pub fn class_name(&self, index: u16) -> Option<&str> {
        match self.get(index)? {
            Constant::Class { name_index } => self.utf8(*name_index),
            _ => None,
        }
    }

    /// CONSTANT_String -> its Utf8.
    pub fn string(&self, index: u16) -> Option<&Utf8> {
        match self.get(index)? {
            Constant::String { string_index } => self.utf8_entry(*string_index),
            _ => None,
        }
    }

    /// CONSTANT_NameAndType -> (name, descriptor).
    pub fn name_and_type(&self, index: u16) -> Option<(&str, &str)> {
        match self.get(index)? {
            Constant::NameAndType {
                name_index,
                descriptor_index,
            } => Some((self.utf8(*name_index)?, self.utf8(*descriptor_index)?)),
            _ => None,
        }
    }

    /// FieldRef, MethodRef or InterfaceMethodRef at index.
    pub fn member_ref(&self, index: u16) -> Option<MemberRef<'_>> {
        let (class_index, nat) = match self.get(index)? {
            Constant::FieldRef {
                class_index,
                name_and_type_index,
            }
            | Constant::MethodRef {
                class_index,
                name_and_type_index,
            }
            | Constant::InterfaceMethodRef {
                class_index,
                name_and_type_index,
            } => (*class_index, *name_and_type_index),
            _ => return None,
        };
        let (name, descriptor) = self.name_and_type(nat)?;
        Some(MemberRef {
            class_name: self.class_name(class_index)?,
            name,
            descriptor,
        })
    }

    /// Tag of the entry at `index` (0 when out of range or unusable).
    fn tag_at(&self, index: u16) -> u8 {
        self.get(index).map_or(0, Constant::tag)
    }
}

/// Reads `constant_pool_count` and the entries, checking tags against the class file version
/// and Utf8 contents. Cross-references are checked later by [`check_pool`].
pub(crate) fn parse_pool(r: &mut Reader<'_>, major: u16) -> Result<ConstantPool> {
    let count = usize::from(r.u16()?);
    if count == 0 {
        bail!("Illegal constant pool size 0");
    }
    let mut entries = Vec::with_capacity(r.capacity(count, 3));
    entries.push(Constant::Unusable);
    while entries.len() < count {
        let index = entries.len();
        let tag = r.u8()?;
        let min_version = match tag {
            tag::METHOD_HANDLE | tag::METHOD_TYPE | tag::INVOKE_DYNAMIC => 51,
            tag::DYNAMIC => 55,
            tag::MODULE | tag::PACKAGE => 53,
            _ => 0,
        };
        if major < min_version {
            bail!("Class file version does not support constant tag {tag}");
        }
        let entry = match tag {
            tag::UTF8 => {
                let len = usize::from(r.u16()?);
                let bytes = r.bytes(len)?;
                Constant::Utf8(Utf8::from_mutf8(bytes)?)
            }
            tag::INTEGER => Constant::Integer(r.u32()? as i32),
            tag::FLOAT => Constant::Float(f32::from_bits(r.u32()?)),
            tag::LONG | tag::DOUBLE => {
                if index + 1 >= count {
                    bail!("Invalid constant pool entry {index}");
                }
                let bits = r.u64()?;
                entries.push(if tag == tag::LONG {
                    Constant::Long(bits as i64)
                } else {
                    Constant::Double(f64::from_bits(bits))
                });
                Constant::Unusable
            }
            tag::CLASS => Constant::Class {
                name_index: r.u16()?,
            },
            tag::STRING => Constant::String {
                string_index: r.u16()?,
            },
            tag::FIELDREF => Constant::FieldRef {
                class_index: r.u16()?,
                name_and_type_index: r.u16()?,
            },
            tag::METHODREF => Constant::MethodRef {
                class_index: r.u16()?,
                name_and_type_index: r.u16()?,
            },
            tag::INTERFACE_METHODREF => Constant::InterfaceMethodRef {
                class_index: r.u16()?,
                name_and_type_index: r.u16()?,
            },
            tag::NAME_AND_TYPE => Constant::NameAndType {
                name_index: r.u16()?,
                descriptor_index: r.u16()?,
            },
            tag::METHOD_HANDLE => Constant::MethodHandle {
                reference_kind: r.u8()?,
                reference_index: r.u16()?,
            },
            tag::METHOD_TYPE => Constant::MethodType {
                descriptor_index: r.u16()?,
            },
            tag::DYNAMIC => Constant::Dynamic {
                bootstrap_method_attr_index: r.u16()?,
                name_and_type_index: r.u16()?,
            },
            tag::INVOKE_DYNAMIC => Constant::InvokeDynamic {
                bootstrap_method_attr_index: r.u16()?,
                name_and_type_index: r.u16()?,
            },
            tag::MODULE => Constant::Module {
                name_index: r.u16()?,
            },
            tag::PACKAGE => Constant::Package {
                name_index: r.u16()?,
            },
            _ => bail!("Unknown constant tag {tag}"),
        };
        entries.push(entry);
    }
    Ok(ConstantPool { entries })
}

/// Facts about the pool needed by later class-level checks.
#[derive(Debug, Default)]
pub(crate) struct PoolSummary {
    /// Some CONSTANT_Module or CONSTANT_Package entry exists.
    pub has_module_entries: bool,
    /// Largest `bootstrap_method_attr_index` of any Dynamic/InvokeDynamic entry.
    pub max_bootstrap_index: Option<u16>,
}

/// Unqualified name of a field or local (JVMS §4.2.2): non-empty, none of `. ; [ /`.
pub(crate) fn is_unqualified_name(name: &str) -> bool {
    !name.is_empty() && !name.bytes().any(|c| matches!(c, b'.' | b';' | b'[' | b'/'))
}

/// Method name (JVMS §4.2.2): `<init>`, `<clinit>`, or an unqualified name without `<`/`>`.
pub(crate) fn is_method_name(name: &str) -> bool {
    name == "<init>"
        || name == "<clinit>"
        || (!name.is_empty()
            && !name
                .bytes()
                .any(|c| matches!(c, b'.' | b';' | b'[' | b'/' | b'<' | b'>')))
}

/// Checks a (name, descriptor) pair as used by NameAndType entries: a method name with a
/// method descriptor (void for names starting with `<`), or a field name with a field
/// descriptor.
pub(crate) fn check_name_and_descriptor(name: &str, descriptor: &str) -> Result<()> {
    if descriptor.starts_with('(') {
        if !is_method_name(name) {
            bail!("Illegal method name \"{name}\"");
        }
        match method_shape(descriptor) {
            Some(shape) if shape.returns_void || !name.starts_with('<') => Ok(()),
            _ => bail!("Method \"{name}\" has illegal signature \"{descriptor}\""),
        }
    } else {
        if !is_unqualified_name(name) {
            bail!("Illegal field name \"{name}\"");
        }
        if !is_valid_field_descriptor(descriptor) {
            bail!("Field \"{name}\" has illegal signature \"{descriptor}\"");
        }
        Ok(())
    }
}

/// Cross-reference checks of every entry (JVMS §4.4, §4.8).
pub(crate) fn check_pool(cp: &ConstantPool, major: u16) -> Result<PoolSummary> {
    let mut summary = PoolSummary::default();
    let utf8 = |i: u16| {
        cp.utf8(i)
            .ok_or_else(|| cfe!("Invalid constant pool index {i}"))
    };
    let nat = |i: u16| {
        cp.name_and_type(i)
            .ok_or_else(|| cfe!("Invalid constant pool index {i}"))
    };
    for (index, entry) in cp.entries.iter().enumerate() {
        match *entry {
            Constant::Unusable
            | Constant::Utf8(_)
            | Constant::Integer(_)
            | Constant::Float(_)
            | Constant::Long(_)
            | Constant::Double(_) => {}
            Constant::Class { name_index } => {
                let name = utf8(name_index)?;
                if !is_valid_class_name(name) {
                    bail!("Illegal class name \"{name}\"");
                }
            }
            Constant::String { string_index } => {
                utf8(string_index)?;
            }
            Constant::FieldRef {
                class_index,
                name_and_type_index,
            }
            | Constant::MethodRef {
                class_index,
                name_and_type_index,
            }
            | Constant::InterfaceMethodRef {
                class_index,
                name_and_type_index,
            } => {
                if cp.tag_at(class_index) != tag::CLASS {
                    bail!("Invalid constant pool index {class_index}");
                }
                let (name, descriptor) = nat(name_and_type_index)?;
                let is_method = descriptor.starts_with('(');
                if let Constant::FieldRef { .. } = entry {
                    if is_method {
                        bail!("Field \"{name}\" has illegal signature \"{descriptor}\"");
                    }
                } else {
                    if !is_method {
                        bail!("Method \"{name}\" has illegal signature \"{descriptor}\"");
                    }
                    if matches!(entry, Constant::MethodRef { .. })
                        && name.starts_with('<')
                        && name != "<init>"
                    {
                        bail!("Bad method name at constant pool index {index}");
                    }
                }
            }
            Constant::NameAndType {
                name_index,
                descriptor_index,
            } => {
                let name = utf8(name_index)?;
                let descriptor = utf8(descriptor_index)?;
                check_name_and_descriptor(name, descriptor)?;
            }
            Constant::MethodHandle {
                reference_kind,
                reference_index,
            } => {
                check_method_handle(cp, major, index, reference_kind, reference_index)?;
            }
            Constant::MethodType { descriptor_index } => {
                let descriptor = utf8(descriptor_index)?;
                if method_shape(descriptor).is_none() {
                    bail!("Method type has illegal signature \"{descriptor}\"");
                }
            }
            Constant::Dynamic {
                bootstrap_method_attr_index,
                name_and_type_index,
            }
            | Constant::InvokeDynamic {
                bootstrap_method_attr_index,
                name_and_type_index,
            } => {
                let (name, descriptor) = nat(name_and_type_index)?;
                let wants_method = matches!(entry, Constant::InvokeDynamic { .. });
                if descriptor.starts_with('(') != wants_method {
                    let what = if wants_method {
                        "InvokeDynamic"
                    } else {
                        "Dynamic constant"
                    };
                    bail!("{what} \"{name}\" has illegal signature \"{descriptor}\"");
                }
                summary.max_bootstrap_index = Some(
                    summary
                        .max_bootstrap_index
                        .map_or(bootstrap_method_attr_index, |m| {
                            m.max(bootstrap_method_attr_index)
                        }),
                );
            }
            Constant::Module { name_index } | Constant::Package { name_index } => {
                utf8(name_index)?;
                summary.has_module_entries = true;
            }
        }
    }
    Ok(summary)
}

fn check_method_handle(
    cp: &ConstantPool,
    major: u16,
    index: usize,
    kind: u8,
    reference_index: u16,
) -> Result<()> {
    let target = cp.tag_at(reference_index);
    let ok_target = match kind {
        ref_kind::GET_FIELD..=ref_kind::PUT_STATIC => target == tag::FIELDREF,
        ref_kind::INVOKE_VIRTUAL | ref_kind::NEW_INVOKE_SPECIAL => target == tag::METHODREF,
        ref_kind::INVOKE_STATIC | ref_kind::INVOKE_SPECIAL => {
            target == tag::METHODREF || (major >= 52 && target == tag::INTERFACE_METHODREF)
        }
        ref_kind::INVOKE_INTERFACE => target == tag::INTERFACE_METHODREF,
        _ => bail!("Bad method handle kind at constant pool index {index}"),
    };
    if !ok_target {
        bail!("Invalid constant pool index {reference_index}");
    }
    if kind >= ref_kind::INVOKE_VIRTUAL {
        let name = cp.member_ref(reference_index).map_or("", |m| m.name);
        let is_init = name == "<init>";
        let bad = if kind == ref_kind::NEW_INVOKE_SPECIAL {
            !is_init
        } else {
            is_init || name == "<clinit>"
        };
        if bad {
            bail!("Bad method handle name \"{name}\" at constant pool index {index}");
        }
    }
    Ok(())
}
