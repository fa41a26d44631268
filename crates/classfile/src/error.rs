//! The crate's single error type, [`ClassFormatError`], and the internal `bail!`/`cfe!` helpers
//! used to build it.

use std::fmt;

/// A class file failed to parse or violated a format check (JVMS 17 §4.8).
///
/// The message follows HotSpot's wording where there is one ("Truncated class file",
/// "Invalid constant pool index 70 in class file a/B", ...). Once the class's own name is known
/// (right after the constant pool), every message ends with " in class file NAME".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFormatError(pub String);

/// End of the message for a class file with ACC_MODULE set (a module descriptor): Java
/// reports it as `java.lang.NoClassDefFoundError`, not ClassFormatError.
pub const NOT_A_CLASS_SUFFIX: &str = " is not a class because access_flag ACC_MODULE is set";

/// Between the requested and the actual name in [`ClassFormatError::wrong_name`]'s message.
const WRONG_NAME_INFIX: &str = " (wrong name: ";

/// Prefix of the message used for versions this crate does not support; the VM should throw
/// `java.lang.UnsupportedClassVersionError` instead of `ClassFormatError` for these.
pub const UNSUPPORTED_VERSION_PREFIX: &str = "Unsupported major.minor version";

/// Prefix of the message for a class file using preview features when they are not enabled
/// (also `java.lang.UnsupportedClassVersionError`); the version follows.
pub const PREVIEW_NOT_ENABLED_PREFIX: &str = "Preview features are not enabled, class file version";

impl ClassFormatError {
    /// Builds an error from a message.
    pub fn new(message: impl Into<String>) -> Self {
        ClassFormatError(message.into())
    }

    /// The message (same as `Display`).
    pub fn message(&self) -> &str {
        &self.0
    }

    /// The error for a module descriptor (ACC_MODULE) named `name`, which is not a class.
    pub fn not_a_class(name: &str) -> Self {
        ClassFormatError(format!("{name}{NOT_A_CLASS_SUFFIX}"))
    }

    /// The error for a class file named `actual` where class `expected` was asked for
    /// (Java's NoClassDefFoundError "EXPECTED (wrong name: ACTUAL)").
    pub fn wrong_name(expected: &str, actual: &str) -> Self {
        ClassFormatError(format!("{expected}{WRONG_NAME_INFIX}{actual})"))
    }

    /// True for [`ClassFormatError::wrong_name`]'s error.
    pub fn is_wrong_name(&self) -> bool {
        self.0.contains(WRONG_NAME_INFIX) && self.0.ends_with(')')
    }

    /// True when the class file is a module descriptor (ACC_MODULE), which Java reports as
    /// `NoClassDefFoundError` rather than `ClassFormatError`.
    pub fn is_not_a_class(&self) -> bool {
        self.0.ends_with(NOT_A_CLASS_SUFFIX)
    }

    /// True when the error is about an unsupported class file version, which Java reports as
    /// `UnsupportedClassVersionError` rather than `ClassFormatError`.
    pub fn is_unsupported_version(&self) -> bool {
        self.0.starts_with(UNSUPPORTED_VERSION_PREFIX)
            || self.0.starts_with(PREVIEW_NOT_ENABLED_PREFIX)
    }
}

impl fmt::Display for ClassFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ClassFormatError {}

/// `cfe!("fmt", args..)` builds a `ClassFormatError` with a formatted message.
macro_rules! cfe {
    ($($arg:tt)*) => {
        $crate::error::ClassFormatError(format!($($arg)*))
    };
}

/// `bail!("fmt", args..)` returns early with a `ClassFormatError`.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::ClassFormatError(format!($($arg)*)))
    };
}

pub(crate) use {bail, cfe};

/// Crate-internal result alias.
pub(crate) type Result<T> = std::result::Result<T, ClassFormatError>;
