//! The parsed class file model: [`ClassFile`] and the field, method, code and attribute types
//! it contains. Parsing lives in `parse.rs`.

use crate::constant_pool::ConstantPool;
use crate::error::ClassFormatError;

/// One entry of a Code attribute's exception table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExceptionHandler {
    pub start_pc: u16,
    pub end_pc: u16,
    pub handler_pc: u16,
    /// CONSTANT_Class index, 0 = any.
    pub catch_type: u16,
}

/// A verification type in a StackMapTable frame (JVMS §4.7.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VType {
    Top,
    Integer,
    Float,
    Double,
    Long,
    Null,
    UninitializedThis,
    /// CONSTANT_Class index.
    Object(u16),
    /// Offset of the `new` instruction.
    Uninitialized(u16),
}

impl VType {
    /// The class file's tag of this type (JVMS §4.7.4) and its argument (0 if it has none).
    pub fn tag(&self) -> (u8, u16) {
        match *self {
            VType::Top => (0, 0),
            VType::Integer => (1, 0),
            VType::Float => (2, 0),
            VType::Double => (3, 0),
            VType::Long => (4, 0),
            VType::Null => (5, 0),
            VType::UninitializedThis => (6, 0),
            VType::Object(i) => (7, i),
            VType::Uninitialized(o) => (8, o),
        }
    }

    /// Whether a type of tag `tag` is followed by a u2 argument.
    pub fn tag_has_arg(tag: u8) -> bool {
        matches!(tag, 7 | 8)
    }

    /// The type of tag `tag` with argument `arg` (ignored by tags without one); None for an
    /// unknown tag.
    pub fn from_tag(tag: u8, arg: u16) -> Option<VType> {
        Some(match tag {
            0 => VType::Top,
            1 => VType::Integer,
            2 => VType::Float,
            3 => VType::Double,
            4 => VType::Long,
            5 => VType::Null,
            6 => VType::UninitializedThis,
            7 => VType::Object(arg),
            8 => VType::Uninitialized(arg),
            _ => return None,
        })
    }
}

/// A StackMapTable frame (JVMS §4.7.4). `Same` covers both `same_frame` and
/// `same_frame_extended`; `SameLocals1StackItem` covers the extended form too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StackMapFrame {
    Same {
        offset_delta: u16,
    },
    SameLocals1StackItem {
        offset_delta: u16,
        stack: VType,
    },
    /// Drops the last `k` (1..=3) locals.
    Chop {
        offset_delta: u16,
        k: u8,
    },
    /// Adds 1..=3 locals.
    Append {
        offset_delta: u16,
        locals: Vec<VType>,
    },
    Full {
        offset_delta: u16,
        locals: Vec<VType>,
        stack: Vec<VType>,
    },
}

impl StackMapFrame {
    /// The frame's `offset_delta`.
    pub fn offset_delta(&self) -> u16 {
        match self {
            StackMapFrame::Same { offset_delta }
            | StackMapFrame::SameLocals1StackItem { offset_delta, .. }
            | StackMapFrame::Chop { offset_delta, .. }
            | StackMapFrame::Append { offset_delta, .. }
            | StackMapFrame::Full { offset_delta, .. } => *offset_delta,
        }
    }
}

/// A Code attribute (JVMS §4.7.3).
#[derive(Debug, Clone)]
pub struct Code {
    pub max_stack: u16,
    pub max_locals: u16,
    /// The bytecode; 1..=65535 bytes.
    pub code: Vec<u8>,
    pub exception_table: Vec<ExceptionHandler>,
    /// (start_pc, line): all LineNumberTable attributes concatenated, sorted by start_pc.
    pub line_numbers: Vec<(u16, u16)>,
    /// `None` when the method has no StackMapTable attribute (or the class file is older
    /// than version 50, where the attribute is not recognized).
    pub stack_map_table: Option<Vec<StackMapFrame>>,
    /// A malformed StackMapTable: the format error met after the frames of
    /// `stack_map_table`, which could be read. As in HotSpot, it is not an error when the
    /// class is loaded but when the method is verified (ClassFormatError), after the frames
    /// before it were checked.
    pub stack_map_error: Option<ClassFormatError>,
    /// Entries of every LocalVariableTable attribute, in file order.
    pub local_variables: Vec<LocalVariable>,
}

/// One LocalVariableTable entry: local `index` is named `name_index` for pcs
/// `start_pc..start_pc + length`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalVariable {
    pub start_pc: u16,
    pub length: u16,
    pub name_index: u16,
    pub descriptor_index: u16,
    pub index: u16,
}

impl Code {
    /// The source line of the instruction at `pc` (from the LineNumberTable), if known.
    pub fn line_number(&self, pc: u16) -> Option<u16> {
        let i = self.line_numbers.partition_point(|&(start, _)| start <= pc);
        i.checked_sub(1)
            .and_then(|i| self.line_numbers.get(i))
            .map(|&(_, line)| line)
    }
}

/// A field_info (JVMS §4.5).
#[derive(Debug, Clone)]
pub struct FieldInfo {
    /// Masked with [`crate::access::RECOGNIZED_FIELD_FLAGS`].
    pub access_flags: u16,
    pub name: String,
    pub descriptor: String,
    /// cp index from ConstantValue (static fields only; ignored on instance fields per JVMS).
    pub constant_value: Option<u16>,
    pub signature: Option<String>,
    /// Raw attribute bytes (without the 6-byte attribute header).
    pub runtime_visible_annotations: Option<Vec<u8>>,
    pub runtime_visible_type_annotations: Option<Vec<u8>>,
}

/// A method_info (JVMS §4.6).
#[derive(Debug, Clone)]
pub struct MethodInfo {
    /// Masked with [`crate::access::RECOGNIZED_METHOD_FLAGS`]; for `<clinit>` only
    /// ACC_STATIC (and ACC_STRICT) are kept, like HotSpot.
    pub access_flags: u16,
    pub name: String,
    pub descriptor: String,
    pub code: Option<Code>,
    /// cp class indices.
    pub exceptions: Vec<u16>,
    pub signature: Option<String>,
    pub runtime_visible_annotations: Option<Vec<u8>>,
    pub runtime_visible_parameter_annotations: Option<Vec<u8>>,
    pub annotation_default: Option<Vec<u8>>,
    pub runtime_visible_type_annotations: Option<Vec<u8>>,
    /// (name cp index, 0 = none; flags).
    pub method_parameters: Vec<(u16, u16)>,
}

impl MethodInfo {
    /// A method with no attributes yet (the parser then reads them; a VM's synthetic methods
    /// keep none).
    pub fn new(access_flags: u16, name: &str, descriptor: &str) -> MethodInfo {
        MethodInfo {
            access_flags,
            name: name.to_owned(),
            descriptor: descriptor.to_owned(),
            code: None,
            exceptions: Vec::new(),
            signature: None,
            runtime_visible_annotations: None,
            runtime_visible_parameter_annotations: None,
            annotation_default: None,
            runtime_visible_type_annotations: None,
            method_parameters: Vec::new(),
        }
    }
}

/// A BootstrapMethods entry (JVMS §4.7.23).
#[derive(Debug, Clone)]
pub struct BootstrapMethod {
    /// CONSTANT_MethodHandle index.
    pub method_ref: u16,
    /// Loadable constant indices.
    pub arguments: Vec<u16>,
}

/// An InnerClasses entry (JVMS §4.7.6).
#[derive(Debug, Clone)]
pub struct InnerClass {
    pub inner_class_info: u16,
    /// 0 when not a member.
    pub outer_class_info: u16,
    /// 0 when anonymous.
    pub inner_name: u16,
    pub inner_flags: u16,
}

/// A Record component (JVMS §4.7.30).
#[derive(Debug, Clone)]
pub struct RecordComponent {
    pub name: String,
    pub descriptor: String,
    pub signature: Option<String>,
    pub runtime_visible_annotations: Option<Vec<u8>>,
    pub runtime_visible_type_annotations: Option<Vec<u8>>,
}

/// A parsed and format-checked class file.
#[derive(Debug, Clone)]
pub struct ClassFile {
    pub minor_version: u16,
    pub major_version: u16,
    pub constant_pool: ConstantPool,
    /// Masked with [`crate::access::RECOGNIZED_CLASS_FLAGS`].
    pub access_flags: u16,
    /// this_class, internal form "a/b/C".
    pub name: String,
    /// None only for java/lang/Object (and module-info).
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    pub fields: Vec<FieldInfo>,
    pub methods: Vec<MethodInfo>,
    pub source_file: Option<String>,
    pub signature: Option<String>,
    pub bootstrap_methods: Vec<BootstrapMethod>,
    pub inner_classes: Vec<InnerClass>,
    /// (class index, name_and_type index or 0).
    pub enclosing_method: Option<(u16, u16)>,
    /// cp class index.
    pub nest_host: Option<u16>,
    pub nest_members: Vec<u16>,
    pub permitted_subclasses: Vec<u16>,
    pub record: Option<Vec<RecordComponent>>,
    pub runtime_visible_annotations: Option<Vec<u8>>,
    pub runtime_visible_type_annotations: Option<Vec<u8>>,
    /// Bytes of the class file it was parsed from.
    pub file_len: usize,
}

impl ClassFile {
    /// True if ACC_INTERFACE is set.
    pub fn is_interface(&self) -> bool {
        self.access_flags & crate::access::ACC_INTERFACE != 0
    }

    /// The method with this name and descriptor.
    pub fn method(&self, name: &str, descriptor: &str) -> Option<&MethodInfo> {
        self.methods
            .iter()
            .find(|m| m.name == name && m.descriptor == descriptor)
    }

    /// The field with this name and descriptor.
    pub fn field(&self, name: &str, descriptor: &str) -> Option<&FieldInfo> {
        self.fields
            .iter()
            .find(|f| f.name == name && f.descriptor == descriptor)
    }
}
