//! The verifier's error type.
//!
//! A [`VerifyError`] names the class, the method (name + descriptor), the
//! bytecode offset when the failure is tied to an instruction, and a message.
//!
//! The `message` field is a headline such as `Bad type on operand stack`,
//! optionally followed by a newline and a longer reason. `Display` renders
//! the error the way HotSpot does:
//!
//! ```text
//! Bad type on operand stack
//! Exception Details:
//!   Location:
//!     Foo.bar()V @3
//!   Reason:
//!     Type integer (current frame, stack[0]) is not assignable to 'java/lang/Object'
//! ```

use std::fmt;

/// Which Java error reports a failure. HotSpot's verifier reports the format problems it finds
/// in code as `ClassFormatError` (exception-table and local-variable-table pcs that are not
/// instruction starts, malformed StackMapTable frames), the rest as `VerifyError`; a class the
/// verifier needed but could not load keeps that loading error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorKind {
    /// `java.lang.VerifyError`.
    #[default]
    Verify,
    /// `java.lang.ClassFormatError`.
    Format,
    /// The error of the [`crate::ClassHierarchy`] call that failed (its message is kept).
    Hierarchy,
}

/// A verification failure (the VM turns it into `java.lang.VerifyError`, or what `kind` says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    /// Internal name of the class being verified.
    pub class: String,
    /// Method name followed by its descriptor, e.g. `bar()V` (empty for class-level errors).
    pub method: String,
    /// Offset of the offending instruction, when there is one.
    pub pc: Option<u16>,
    /// Headline, optionally followed by `\n` and a detailed reason.
    pub message: String,
    /// Which Java error this is.
    pub kind: ErrorKind,
}

impl VerifyError {
    /// The first line of the message (the HotSpot-style headline).
    pub fn headline(&self) -> &str {
        self.message.split('\n').next().unwrap_or("")
    }

    /// The detailed reason (everything after the headline), if any.
    pub fn reason(&self) -> Option<&str> {
        self.message.split_once('\n').map(|(_, r)| r)
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.headline())?;
        f.write_str("\nException Details:\n  Location:\n    ")?;
        if self.method.is_empty() {
            f.write_str(&self.class)?;
        } else {
            write!(f, "{}.{}", self.class, self.method)?;
        }
        if let Some(pc) = self.pc {
            write!(f, " @{pc}")?;
        }
        if let Some(reason) = self.reason() {
            f.write_str("\n  Reason:")?;
            for line in reason.lines() {
                write!(f, "\n    {line}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for VerifyError {}

/// An error found inside one method, before the class/method names are attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MethodError {
    pub pc: Option<u16>,
    pub message: String,
    pub kind: ErrorKind,
}

impl MethodError {
    pub(crate) fn at(pc: u16, headline: &str, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        let message = if reason.is_empty() {
            headline.to_string()
        } else {
            format!("{headline}\n{reason}")
        };
        MethodError {
            pc: Some(pc),
            message,
            kind: ErrorKind::Verify,
        }
    }

    /// A format error (ClassFormatError in HotSpot), at `pc`.
    pub(crate) fn format_at(pc: u16, headline: &str, reason: impl Into<String>) -> Self {
        MethodError {
            kind: ErrorKind::Format,
            ..Self::at(pc, headline, reason)
        }
    }

    /// A method-level format error (ClassFormatError in HotSpot).
    pub(crate) fn format(headline: &str, reason: impl Into<String>) -> Self {
        MethodError {
            kind: ErrorKind::Format,
            ..Self::method(headline, reason)
        }
    }

    /// A failure of the class hierarchy (a class that could not be loaded), message verbatim.
    pub(crate) fn hierarchy(pc: u16, message: String) -> Self {
        MethodError {
            pc: Some(pc),
            message,
            kind: ErrorKind::Hierarchy,
        }
    }

    pub(crate) fn method(headline: &str, reason: impl Into<String>) -> Self {
        let mut e = Self::at(0, headline, reason);
        e.pc = None;
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_hotspot_like() {
        let e = VerifyError {
            class: "a/Foo".into(),
            method: "bar()V".into(),
            pc: Some(3),
            message: "Bad type on operand stack\nType integer is not assignable to reference"
                .into(),
            kind: ErrorKind::Verify,
        };
        let s = e.to_string();
        assert!(s.starts_with(
            "Bad type on operand stack\nException Details:\n  Location:\n    a/Foo.bar()V @3"
        ));
        assert!(s.ends_with("  Reason:\n    Type integer is not assignable to reference"));
        assert_eq!(e.headline(), "Bad type on operand stack");
    }

    #[test]
    fn display_without_pc_or_reason() {
        let e = VerifyError {
            class: "Foo".into(),
            method: String::new(),
            pc: None,
            message: "Bad".into(),
            kind: ErrorKind::Verify,
        };
        assert_eq!(
            e.to_string(),
            "Bad\nException Details:\n  Location:\n    Foo"
        );
    }
}
