//! Access-flag format checks for classes, nested classes, fields and methods (JVMS 17 §4.1,
//! §4.5, §4.6, §4.7.6), following HotSpot's `verify_legal_*_modifiers` rules, which every
//! javac-produced class satisfies.

use crate::access::*;
use crate::error::{Result, bail};

fn has_illegal_visibility(flags: u16) -> bool {
    (flags & (ACC_PUBLIC | ACC_PRIVATE | ACC_PROTECTED)).count_ones() > 1
}

/// Class (or nested class) modifiers. Call after the pre-version-50 fixup that makes
/// interfaces abstract.
pub(crate) fn check_class_flags(flags: u16, major: u16) -> Result<()> {
    let is = |f: u16| flags & f != 0;
    let interface = is(ACC_INTERFACE);
    let abstract_ = is(ACC_ABSTRACT);
    let gte_1_5 = major >= 49;
    if (abstract_ && is(ACC_FINAL))
        || (interface && !abstract_)
        || (interface && gte_1_5 && (is(ACC_SUPER) || is(ACC_ENUM)))
        || (!interface && gte_1_5 && is(ACC_ANNOTATION))
    {
        bail!("Illegal class modifiers: 0x{flags:X}");
    }
    Ok(())
}

/// Field modifiers.
pub(crate) fn check_field_flags(flags: u16, in_interface: bool, major: u16) -> Result<()> {
    let is = |f: u16| flags & f != 0;
    let illegal = if in_interface {
        !is(ACC_PUBLIC)
            || !is(ACC_STATIC)
            || !is(ACC_FINAL)
            || is(ACC_PRIVATE)
            || is(ACC_PROTECTED)
            || is(ACC_VOLATILE)
            || is(ACC_TRANSIENT)
            || (major >= 49 && is(ACC_ENUM))
    } else {
        has_illegal_visibility(flags) || (is(ACC_FINAL) && is(ACC_VOLATILE))
    };
    if illegal {
        bail!("Illegal field modifiers: 0x{flags:X}");
    }
    Ok(())
}

/// Method modifiers (not used for `<clinit>`, whose flags are ignored except ACC_STATIC).
pub(crate) fn check_method_flags(
    name: &str,
    flags: u16,
    in_interface: bool,
    major: u16,
) -> Result<()> {
    let is = |f: u16| flags & f != 0;
    let (public, private, protected, static_) = (
        is(ACC_PUBLIC),
        is(ACC_PRIVATE),
        is(ACC_PROTECTED),
        is(ACC_STATIC),
    );
    let (final_, synchronized, native, abstract_, strict, bridge) = (
        is(ACC_FINAL),
        is(ACC_SYNCHRONIZED),
        is(ACC_NATIVE),
        is(ACC_ABSTRACT),
        is(ACC_STRICT),
        is(ACC_BRIDGE),
    );
    let gte_1_5 = major >= 49;
    let gte_8 = major >= 52;
    let gte_17 = major >= 61;
    let illegal = if in_interface {
        if gte_8 {
            (public == private)
                || native
                || protected
                || final_
                || synchronized
                || (abstract_ && (private || static_ || (!gte_17 && strict)))
        } else if gte_1_5 {
            !public
                || private
                || protected
                || static_
                || final_
                || synchronized
                || native
                || !abstract_
                || strict
        } else {
            !public || static_ || final_ || native || !abstract_
        }
    } else if has_illegal_visibility(flags) {
        true
    } else if name == "<init>" {
        static_ || final_ || synchronized || native || abstract_ || (gte_1_5 && bridge)
    } else {
        abstract_
            && (final_
                || native
                || private
                || static_
                || (gte_1_5 && (synchronized || (!gte_17 && strict))))
    };
    if illegal {
        bail!("Method {name} has illegal modifiers: 0x{flags:X}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_flags() {
        assert!(check_class_flags(ACC_PUBLIC | ACC_SUPER, 61).is_ok());
        assert!(check_class_flags(ACC_PUBLIC | ACC_INTERFACE | ACC_ABSTRACT, 61).is_ok());
        assert!(check_class_flags(ACC_INTERFACE | ACC_ABSTRACT | ACC_ANNOTATION, 61).is_ok());
        assert!(check_class_flags(ACC_PUBLIC | ACC_INTERFACE, 61).is_err());
        assert!(check_class_flags(ACC_FINAL | ACC_ABSTRACT, 61).is_err());
        assert!(check_class_flags(ACC_INTERFACE | ACC_ABSTRACT | ACC_SUPER, 61).is_err());
        assert!(check_class_flags(ACC_INTERFACE | ACC_ABSTRACT | ACC_SUPER, 48).is_ok());
        assert!(check_class_flags(ACC_ANNOTATION, 61).is_err());
        assert!(check_class_flags(ACC_FINAL | ACC_SUPER | ACC_ENUM, 61).is_ok());
    }

    #[test]
    fn field_flags() {
        assert!(check_field_flags(ACC_PRIVATE | ACC_FINAL, false, 61).is_ok());
        assert!(check_field_flags(ACC_PRIVATE | ACC_PUBLIC, false, 61).is_err());
        assert!(check_field_flags(ACC_FINAL | ACC_VOLATILE, false, 61).is_err());
        assert!(check_field_flags(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, true, 61).is_ok());
        assert!(check_field_flags(ACC_PUBLIC | ACC_STATIC, true, 61).is_err());
    }

    #[test]
    fn method_flags() {
        assert!(check_method_flags("m", ACC_PUBLIC | ACC_ABSTRACT, true, 61).is_ok());
        assert!(check_method_flags("m", ACC_PRIVATE | ACC_STATIC, true, 61).is_ok());
        assert!(check_method_flags("m", ACC_PUBLIC | ACC_STATIC, true, 52).is_ok());
        assert!(check_method_flags("m", ACC_PUBLIC | ACC_STATIC, true, 51).is_err());
        assert!(check_method_flags("m", ACC_ABSTRACT, true, 61).is_err());
        assert!(check_method_flags("m", ACC_PUBLIC | ACC_FINAL, true, 61).is_err());
        assert!(check_method_flags("<init>", ACC_PUBLIC, false, 61).is_ok());
        assert!(check_method_flags("<init>", ACC_STATIC, false, 61).is_err());
        assert!(check_method_flags("m", ACC_ABSTRACT | ACC_FINAL, false, 61).is_err());
        assert!(check_method_flags("m", ACC_ABSTRACT | ACC_STRICT, false, 61).is_ok());
        assert!(check_method_flags("m", ACC_ABSTRACT | ACC_STRICT, false, 60).is_err());
        assert!(check_method_flags("m", ACC_PUBLIC | ACC_PRIVATE, false, 61).is_err());
    }
}
