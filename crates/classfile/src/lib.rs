//! `classfile`: parsing and format checking of Java class files (JVMS 17 chapter 4) for jxvm.
//!
//! [`ClassFile::parse`] reads a class file into a [`ClassFile`] and applies the format checks
//! of JVMS §4.8 (the checks HotSpot's class file parser makes): it never panics, on any input,
//! and reports every problem as a [`ClassFormatError`]. The crate holds no VM state.
//!
//! Modules: [`mutf8`] (modified UTF-8), [`descriptor`] (field/method descriptors),
//! [`access`] (ACC_ flags), [`opcodes`] (instruction opcodes); the constant pool and class
//! model types are re-exported at the crate root.
//!
//! Notes on the model:
//! - Access flags are masked to the flags the JVM recognizes (unassigned bits are ignored, as
//!   JVMS requires); `<clinit>` keeps only ACC_STATIC/ACC_STRICT.
//! - Attributes the class file version predates (e.g. StackMapTable before 50, Record before
//!   60, PermittedSubclasses before 61) are skipped like unknown attributes.
//! - [`ConstantPool::get`] returns `None` for index 0 and for the slot after a Long/Double.

#![forbid(unsafe_code)]

pub mod access;
mod check;
mod constant_pool;
pub mod descriptor;
mod error;
mod model;
mod module_info;
pub mod mutf8;
pub mod opcodes;
mod parse;
mod reader;
pub mod summary;

pub use constant_pool::{Constant, ConstantPool, MemberRef, Utf8, ref_kind, tag};
pub use error::{
    ClassFormatError, NOT_A_CLASS_SUFFIX, PREVIEW_NOT_ENABLED_PREFIX, UNSUPPORTED_VERSION_PREFIX,
};
pub use model::{
    BootstrapMethod, ClassFile, Code, ExceptionHandler, FieldInfo, InnerClass, LocalVariable,
    MethodInfo, RecordComponent, StackMapFrame, VType,
};
pub use module_info::{ModuleExports, module_exports};
pub use parse::{
    MAX_MAJOR_VERSION, MIN_MAJOR_VERSION, enable_preview, parse_stack_map_frames,
    parse_stack_map_table,
};

#[cfg(test)]
mod tests;
