// CONTRACT for crates/classfile (crate name `classfile`). The VM codes against exactly these
// public items; you may add more, but do not rename or change these signatures.
// No VM state in this crate. No panics on any input (fuzzed).

pub mod mutf8 {
    /// Decode JVM "modified UTF-8" into UTF-16 code units (lone surrogates kept).
    pub fn decode(bytes: &[u8]) -> Result<Vec<u16>, crate::ClassFormatError>;
    /// Encode UTF-16 units as modified UTF-8 (NUL as C0 80, supplementary as surrogate pairs).
    pub fn encode(units: &[u16]) -> Vec<u8>;
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFormatError(pub String);        // impl Display (just the message) + std::error::Error

/// A CONSTANT_Utf8 entry: raw modified-UTF-8 bytes plus a Rust string decoded lossily
/// (lone surrogates become U+FFFD). `utf16()` gives exact Java chars.
#[derive(Debug, Clone)]
pub struct Utf8 { pub bytes: Box<[u8]>, pub text: Box<str> }
impl Utf8 { pub fn utf16(&self) -> Vec<u16>; }

#[derive(Debug, Clone)]
pub enum Constant {
    Unusable,                       // index 0, and the slot after a Long/Double
    Utf8(Utf8),
    Integer(i32), Float(f32), Long(i64), Double(f64),
    Class { name_index: u16 },
    String { string_index: u16 },
    FieldRef { class_index: u16, name_and_type_index: u16 },
    MethodRef { class_index: u16, name_and_type_index: u16 },
    InterfaceMethodRef { class_index: u16, name_and_type_index: u16 },
    NameAndType { name_index: u16, descriptor_index: u16 },
    MethodHandle { reference_kind: u8, reference_index: u16 },
    MethodType { descriptor_index: u16 },
    Dynamic { bootstrap_method_attr_index: u16, name_and_type_index: u16 },
    InvokeDynamic { bootstrap_method_attr_index: u16, name_and_type_index: u16 },
    Module { name_index: u16 },
    Package { name_index: u16 },
}

/// A member reference with its names resolved to strings.
#[derive(Debug, Clone, Copy)]
pub struct MemberRef<'a> { pub class_name: &'a str, pub name: &'a str, pub descriptor: &'a str }

#[derive(Debug, Clone)]
pub struct ConstantPool { pub entries: Vec<Constant> }   // entries[0] is Unusable
impl ConstantPool {
    pub fn len(&self) -> usize;
    pub fn get(&self, index: u16) -> Option<&Constant>;
    pub fn utf8(&self, index: u16) -> Option<&str>;           // text of a Utf8 entry
    pub fn utf8_entry(&self, index: u16) -> Option<&Utf8>;
    pub fn class_name(&self, index: u16) -> Option<&str>;     // CONSTANT_Class -> its name ("java/lang/String", "[I")
    pub fn string(&self, index: u16) -> Option<&Utf8>;        // CONSTANT_String -> its Utf8
    pub fn name_and_type(&self, index: u16) -> Option<(&str, &str)>;
    /// FieldRef, MethodRef or InterfaceMethodRef at index.
    pub fn member_ref(&self, index: u16) -> Option<MemberRef<'_>>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExceptionHandler { pub start_pc: u16, pub end_pc: u16, pub handler_pc: u16, pub catch_type: u16 /* 0 = any */ }

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VType { Top, Integer, Float, Double, Long, Null, UninitializedThis, Object(u16 /*cp class index*/), Uninitialized(u16 /*offset of new*/) }

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StackMapFrame {
    Same { offset_delta: u16 },
    SameLocals1StackItem { offset_delta: u16, stack: VType },
    Chop { offset_delta: u16, k: u8 },
    Append { offset_delta: u16, locals: Vec<VType> },
    Full { offset_delta: u16, locals: Vec<VType>, stack: Vec<VType> },
}

#[derive(Debug, Clone)]
pub struct Code {
    pub max_stack: u16,
    pub max_locals: u16,
    pub code: Vec<u8>,
    pub exception_table: Vec<ExceptionHandler>,
    pub line_numbers: Vec<(u16 /*start_pc*/, u16 /*line*/)>,   // all LineNumberTable attrs concatenated, sorted by start_pc
    pub stack_map_table: Option<Vec<StackMapFrame>>,
}

#[derive(Debug, Clone)]
pub struct FieldInfo {
    pub access_flags: u16,
    pub name: String,
    pub descriptor: String,
    pub constant_value: Option<u16>,          // cp index from ConstantValue
    pub signature: Option<String>,
    pub runtime_visible_annotations: Option<Vec<u8>>,   // raw attribute bytes
}

#[derive(Debug, Clone)]
pub struct MethodInfo {
    pub access_flags: u16,
    pub name: String,
    pub descriptor: String,
    pub code: Option<Code>,
    pub exceptions: Vec<u16>,                 // cp class indices
    pub signature: Option<String>,
    pub runtime_visible_annotations: Option<Vec<u8>>,
    pub runtime_visible_parameter_annotations: Option<Vec<u8>>,
    pub annotation_default: Option<Vec<u8>>,
    pub method_parameters: Vec<(u16 /*name cp index, 0 = none*/, u16 /*flags*/)>,
}

#[derive(Debug, Clone)]
pub struct BootstrapMethod { pub method_ref: u16, pub arguments: Vec<u16> }
#[derive(Debug, Clone)]
pub struct InnerClass { pub inner_class_info: u16, pub outer_class_info: u16, pub inner_name: u16, pub inner_flags: u16 }
#[derive(Debug, Clone)]
pub struct RecordComponent { pub name: String, pub descriptor: String, pub signature: Option<String>, pub runtime_visible_annotations: Option<Vec<u8>> }

#[derive(Debug, Clone)]
pub struct ClassFile {
    pub minor_version: u16,
    pub major_version: u16,
    pub constant_pool: ConstantPool,
    pub access_flags: u16,
    pub name: String,                         // this_class, internal form "a/b/C"
    pub super_name: Option<String>,           // None only for java/lang/Object (and module-info)
    pub interfaces: Vec<String>,
    pub fields: Vec<FieldInfo>,
    pub methods: Vec<MethodInfo>,
    pub source_file: Option<String>,
    pub signature: Option<String>,
    pub bootstrap_methods: Vec<BootstrapMethod>,
    pub inner_classes: Vec<InnerClass>,
    pub enclosing_method: Option<(u16 /*class*/, u16 /*name_and_type or 0*/)>,
    pub nest_host: Option<u16>,               // cp class index
    pub nest_members: Vec<u16>,
    pub permitted_subclasses: Vec<u16>,
    pub record: Option<Vec<RecordComponent>>,
    pub runtime_visible_annotations: Option<Vec<u8>>,
}
impl ClassFile {
    /// Parse and format-check (JVMS 17 §4, §4.8) a class file. Never panics.
    pub fn parse(bytes: &[u8]) -> Result<ClassFile, ClassFormatError>;
}

pub mod access { pub const ACC_PUBLIC: u16 = 0x0001; /* ... every ACC_ constant of JVMS 17 tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A */ }

pub mod descriptor {
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    pub enum FieldType { Byte, Char, Double, Float, Int, Long, Short, Boolean, Object(String), Array(Box<FieldType>) }
    impl FieldType {
        pub fn slots(&self) -> usize;          // 2 for Long/Double, else 1
        pub fn is_reference(&self) -> bool;
        pub fn descriptor(&self) -> String;    // back to "I", "Ljava/lang/String;", "[I"
    }
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct MethodDescriptor { pub params: Vec<FieldType>, pub ret: Option<FieldType> /* None = void */ }
    impl MethodDescriptor { pub fn param_slots(&self) -> usize; }
    pub fn parse_field_descriptor(s: &str) -> Result<FieldType, crate::ClassFormatError>;
    pub fn parse_method_descriptor(s: &str) -> Result<MethodDescriptor, crate::ClassFormatError>;
}

pub mod opcodes { /* pub const for every JVMS 17 opcode, NOP = 0x00 ... JSR_W = 0xc9, IMPDEP etc not needed */ }
