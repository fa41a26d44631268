//! Bytecode verifier for jxvm.
//!
//! [`verify_class`] checks every method with a `Code` attribute of a parsed
//! class file:
//!
//! * **All versions** — the static constraints of JVMS 17 §4.9.1 (see
//!   `instructions.rs`): valid opcodes and operands, branch targets on
//!   instruction boundaries inside the code, constant-pool operands of the right
//!   kind, local indices below `max_locals`, `wide` forms, switch tables,
//!   `invokespecial`/`invokeinterface`/`invokedynamic` operand rules, `new` not
//!   creating arrays, `multianewarray` dimensions; plus exception-table ranges.
//! * **Version >= 50.0** — verification by type checking (JVMS 17 §4.10.1, see
//!   `typecheck.rs`) using the `StackMapTable` attribute (see `frames.rs`):
//!   operand types of every instruction, stack overflow/underflow, local variable
//!   types (with the two-slot long/double rules), stack map frames at every
//!   branch target, exception handler and after every unconditional transfer,
//!   frame assignability at branches, fall-through and handlers, return types,
//!   `athrow` of `Throwable`s, object initialisation (`new`/`uninitialized(pc)`,
//!   `uninitializedThis` and `flagThisUninit`: constructors must call
//!   `super()`/`this()` on every path before returning), `invokespecial` target
//!   classes and protected member access (§4.10.1.8). `jsr`/`ret` are rejected.
//! * **Version < 50.0** — these class files have no stack maps and may use
//!   `jsr`/`ret`; they get **only the static checks** above plus a reachability
//!   check that execution cannot fall off the end of the code. No type inference
//!   (the old JVMS §4.10.2 verifier) is performed for them.
//! * **Version == 50.0** — type checking is attempted; if it fails, the class is
//!   accepted when the static checks pass, mimicking HotSpot's failover to the
//!   inference verifier for this version (which we do not implement).
//!
//! Knowledge about other classes comes from the [`ClassHierarchy`]
//! implementation supplied by the VM, which answers for the class being verified: names are
//! resolved through that class's defining loader, and what depends on loaders (superclass
//! chains, run-time packages) is decided by the VM.
//!
//! Errors from the hierarchy (a class that cannot be loaded) are returned as a
//! [`VerifyError`] whose message is the hierarchy's message verbatim.

pub mod arbitrary;
mod error;
mod frames;
mod instructions;
mod typecheck;
mod types;

pub use error::{ErrorKind, VerifyError};

use classfile::{ClassFile, MethodInfo};

use crate::error::MethodError;
use crate::instructions::{
    StaticEnv, check_exception_table, check_no_fall_off, check_statics, decode_layout,
};
use crate::typecheck::{ClassState, check_frames, check_method};
use crate::types::TypeContext;

/// What the verifier needs to know about other classes. Names are internal
/// forms (`java/lang/String`) or array descriptors (`[I`, `[Ljava/lang/Object;`).
pub trait ClassHierarchy {
    /// Is `from` assignable to `to` per JVMS §4.10.1.2 isJavaAssignable for
    /// reference types (interfaces are treated like Object as the JVMS says).
    /// May load classes; Err(message) when a class cannot be loaded (the VM
    /// turns that into NoClassDefFoundError).
    fn is_assignable(&self, from: &str, to: &str) -> Result<bool, String>;
    /// Is `class` an interface?
    fn is_interface(&self, class: &str) -> Result<bool, String>;
    /// The strict superclasses of `class`, nearest first, ending with java/lang/Object (empty
    /// for java/lang/Object). `class` is resolved as the class being verified sees it; each
    /// further superclass is the one its subclass's *defining* loader resolved (JVMS §5.3.5):
    /// a VM walks its loaded class metadata and never looks a superclass's name up again
    /// through the loader of the class being verified, which may not know it.
    fn superclasses(&self, class: &str) -> Result<Vec<String>, String>;
    /// The protected-access test of §4.10.1.8 for a member referenced through `class`: does
    /// lookup of field or method `name`/`descriptor` from `class` find a protected member
    /// declared in another run-time package (package name *and* defining loader, JVMS §5.3)
    /// than `current`, the class being verified?
    fn protected_in_other_package(
        &self,
        current: &str,
        class: &str,
        name: &str,
        descriptor: &str,
        is_method: bool,
    ) -> Result<bool, String>;
}

/// Verify every method of `class` (see the crate docs for what is checked).
pub fn verify_class(class: &ClassFile, hierarchy: &dyn ClassHierarchy) -> Result<(), VerifyError> {
    let mut ctx = TypeContext::new(hierarchy);
    let mut state = ClassState::new(class, &mut ctx);
    for method in &class.methods {
        verify_method(&mut ctx, &mut state, method).map_err(|e| VerifyError {
            class: class.name.clone(),
            method: format!("{}{}", method.name, method.descriptor),
            pc: e.pc,
            message: e.message,
            kind: e.kind,
        })?;
    }
    Ok(())
}

fn verify_method<'a>(
    ctx: &mut TypeContext<'a, '_>,
    state: &mut ClassState<'a>,
    method: &'a MethodInfo,
) -> Result<(), MethodError> {
    let Some(code) = &method.code else {
        return Ok(());
    };
    let cf = state.cf;
    let env = StaticEnv {
        cp: &cf.constant_pool,
        major_version: cf.major_version,
        max_locals: code.max_locals,
    };
    // HotSpot's order: the instructions' layout, the exception table, the whole StackMapTable
    // (whose format errors are ClassFormatError), then the main loop with the other static
    // checks and type checking.
    let decoded = decode_layout(&code.code, &env)?;
    check_exception_table(
        &code.exception_table,
        &decoded,
        code.code.len(),
        &cf.constant_pool,
    )?;
    if cf.major_version > 50 {
        check_frames(ctx, state, method, code, &decoded)?;
    }
    check_statics(&decoded, &env)?;
    match cf.major_version {
        0..50 => check_no_fall_off(&decoded, &code.exception_table),
        50 => match check_method(ctx, state, method, code, &decoded) {
            Ok(()) => Ok(()),
            Err(_) => check_no_fall_off(&decoded, &code.exception_table),
        },
        _ => check_method(ctx, state, method, code, &decoded),
    }
}

#[cfg(test)]
mod tests;
