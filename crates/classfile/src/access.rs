//! Access and property flag constants (JVMS 17 tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A, plus the
//! MethodParameters and Module attribute flags) and the masks of flags the JVM recognizes.

// Table 4.1-B: class access and property modifiers.
pub const ACC_PUBLIC: u16 = 0x0001;
pub const ACC_FINAL: u16 = 0x0010;
pub const ACC_SUPER: u16 = 0x0020;
pub const ACC_INTERFACE: u16 = 0x0200;
pub const ACC_ABSTRACT: u16 = 0x0400;
pub const ACC_SYNTHETIC: u16 = 0x1000;
pub const ACC_ANNOTATION: u16 = 0x2000;
pub const ACC_ENUM: u16 = 0x4000;
pub const ACC_MODULE: u16 = 0x8000;

// Table 4.5-A (fields), 4.6-A (methods) and 4.7.6-A (nested classes) add:
pub const ACC_PRIVATE: u16 = 0x0002;
pub const ACC_PROTECTED: u16 = 0x0004;
pub const ACC_STATIC: u16 = 0x0008;
pub const ACC_SYNCHRONIZED: u16 = 0x0020;
pub const ACC_VOLATILE: u16 = 0x0040;
pub const ACC_BRIDGE: u16 = 0x0040;
pub const ACC_TRANSIENT: u16 = 0x0080;
pub const ACC_VARARGS: u16 = 0x0080;
pub const ACC_NATIVE: u16 = 0x0100;
pub const ACC_STRICT: u16 = 0x0800;

// MethodParameters (4.7.24) and Module (4.7.25) attribute flags.
pub const ACC_MANDATED: u16 = 0x8000;
pub const ACC_OPEN: u16 = 0x0020;
pub const ACC_TRANSITIVE: u16 = 0x0020;
pub const ACC_STATIC_PHASE: u16 = 0x0040;

/// Class flags the JVM recognizes; `ClassFile::access_flags` is masked with this.
pub const RECOGNIZED_CLASS_FLAGS: u16 = ACC_PUBLIC
    | ACC_FINAL
    | ACC_SUPER
    | ACC_INTERFACE
    | ACC_ABSTRACT
    | ACC_SYNTHETIC
    | ACC_ANNOTATION
    | ACC_ENUM
    | ACC_MODULE;

/// Field flags the JVM recognizes; `FieldInfo::access_flags` is masked with this.
pub const RECOGNIZED_FIELD_FLAGS: u16 = ACC_PUBLIC
    | ACC_PRIVATE
    | ACC_PROTECTED
    | ACC_STATIC
    | ACC_FINAL
    | ACC_VOLATILE
    | ACC_TRANSIENT
    | ACC_SYNTHETIC
    | ACC_ENUM;

/// Method flags the JVM recognizes; `MethodInfo::access_flags` is masked with this.
pub const RECOGNIZED_METHOD_FLAGS: u16 = ACC_PUBLIC
    | ACC_PRIVATE
    | ACC_PROTECTED
    | ACC_STATIC
    | ACC_FINAL
    | ACC_SYNCHRONIZED
    | ACC_BRIDGE
    | ACC_VARARGS
    | ACC_NATIVE
    | ACC_ABSTRACT
    | ACC_STRICT
    | ACC_SYNTHETIC;

/// Nested class flags the JVM recognizes (InnerClasses `inner_class_access_flags`): the class
/// flags (ACC_SUPER included, as in HotSpot, so that an interface with it is rejected) and
/// the member visibility and static flags.
pub const RECOGNIZED_INNER_CLASS_FLAGS: u16 = ACC_PUBLIC
    | ACC_SUPER
    | ACC_PRIVATE
    | ACC_PROTECTED
    | ACC_STATIC
    | ACC_FINAL
    | ACC_INTERFACE
    | ACC_ABSTRACT
    | ACC_SYNTHETIC
    | ACC_ANNOTATION
    | ACC_ENUM;
