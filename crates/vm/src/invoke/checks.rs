//! What the JDK's bootstrap methods check before they link a call site, for the bootstraps
//! the VM runs as intrinsics ([`super::lambda`], [`super::concat`], [`super::objmethods`]).
//!
//! An intrinsic runs only for the shape javac emits: the bootstrap method is the JDK method
//! itself (REF_invokeStatic, its exact descriptor), with static arguments of the kinds and
//! counts that method accepts. Anything else (a mutated or hand-written class file) is linked
//! by the JDK's own bootstrap method through [`super::callsite`], which throws exactly what
//! HotSpot throws (a BootstrapMethodError wrapping the ClassCastException,
//! LambdaConversionException or StringConcatException). Method handle constants whose
//! reference kind does not fit the member (REF_invokeStatic of an instance method, ...) are
//! an IncompatibleClassChangeError when they are resolved, as JVMS §5.4.3.5 says.

use super::Bootstrap;
use crate::class::Class;
use crate::class::loader::parse_sig;
use crate::thread::{JResult, JThread};
use classfile::{Constant, ConstantPool, ref_kind};

const LOOKUP_NAME_TYPE: &str =
    "Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;";

/// The descriptor of each intrinsic bootstrap method, by (owner, name).
fn intrinsic_descriptor(owner: &str, name: &str) -> Option<String> {
    let rest = match (owner, name) {
        ("java/lang/invoke/LambdaMetafactory", "metafactory") => {
            "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;"
        }
        ("java/lang/invoke/LambdaMetafactory", "altMetafactory") => {
            "[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;"
        }
        ("java/lang/invoke/StringConcatFactory", "makeConcatWithConstants") => {
            "Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;"
        }
        ("java/lang/invoke/StringConcatFactory", "makeConcat") => ")Ljava/lang/invoke/CallSite;",
        ("java/lang/runtime/ObjectMethods", "bootstrap") => {
            return Some(
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/TypeDescriptor;Ljava/lang/Class;Ljava/lang/String;[Ljava/lang/invoke/MethodHandle;)Ljava/lang/Object;"
                    .to_string(),
            );
        }
        _ => return None,
    };
    Some(format!("({LOOKUP_NAME_TYPE}{rest}"))
}

fn method_type_desc<'a>(cp: &'a ConstantPool, index: Option<&u16>) -> Option<&'a str> {
    match cp.get(*index?)? {
        Constant::MethodType { descriptor_index } => cp.utf8(*descriptor_index),
        _ => None,
    }
}

fn handle(cp: &ConstantPool, index: Option<&u16>) -> Option<(u8, u16)> {
    match cp.get(*index?)? {
        Constant::MethodHandle {
            reference_kind,
            reference_index,
        } => Some((*reference_kind, *reference_index)),
        _ => None,
    }
}

/// Whether the last parameter of method descriptor `desc` is an array.
fn parse_sig_params_last_is_array(desc: &str) -> bool {
    classfile::descriptor::parse_method_descriptor(desc).is_ok_and(|md| {
        matches!(
            md.params.last(),
            Some(classfile::descriptor::FieldType::Array(_))
        )
    })
}

/// Parameter count of a method descriptor.
fn arity(desc: &str) -> usize {
    parse_sig(desc).0.len()
}

/// Checks the method handle constant at `index` of `caller`: its member resolves and fits its
/// reference kind (IncompatibleClassChangeError otherwise, or the resolution error).
pub fn check_handle(t: &mut JThread, caller: &'static Class, index: u16) -> JResult<()> {
    let cp = &caller
        .file
        .as_ref()
        .expect("indy caller has a class file")
        .constant_pool;
    let Some((kind, member)) = handle(cp, Some(&index)) else {
        return Ok(());
    };
    let table = &t.vm.classes;
    let (is_static, what) = match kind {
        ref_kind::GET_FIELD..=ref_kind::PUT_STATIC => {
            match crate::class::resolve::resolve_field(table, caller, member) {
                Ok(f) => (f.is_static, "field"),
                Err(e) => return Err(t.throw_resolve(e)),
            }
        }
        _ => match crate::class::resolve::resolve_method(table, caller, member) {
            Ok((m, _)) => {
                // A variable-arity method handle needs a trailing array parameter
                // (MethodHandle.setVarargs: "cannot make variable arity").
                let last_is_array = parse_sig_params_last_is_array(&m.descriptor);
                if m.access & classfile::access::ACC_VARARGS != 0 && !last_is_array {
                    let msg = format!(
                        "cannot make variable arity: {}.{}{}",
                        m.class.java_name(),
                        m.name,
                        m.descriptor
                    );
                    return Err(t.throw_new("java/lang/IllegalAccessError", Some(&msg)));
                }
                (m.is_static(), "method")
            }
            Err(e) => return Err(t.throw_resolve(e)),
        },
    };
    // REF_invokeSpecial of an interface method: the interface must be the caller's direct
    // superinterface (HotSpot's linktime_resolve_special_method).
    if kind == ref_kind::INVOKE_SPECIAL
        && matches!(cp.get(member), Some(Constant::InterfaceMethodRef { .. }))
    {
        let iface = cp
            .member_ref(member)
            .map(|r| r.class_name)
            .unwrap_or_default();
        let direct = *caller.name == *iface || caller.interfaces.iter().any(|i| *i.name == *iface);
        if !direct {
            let msg = format!(
                "Interface method reference: {}, is in an indirect superinterface of {}",
                iface.replace('/', "."),
                caller.java_name()
            );
            return Err(t.throw_new("java/lang/IncompatibleClassChangeError", Some(&msg)));
        }
    }
    let wants_static = matches!(
        kind,
        ref_kind::GET_STATIC | ref_kind::PUT_STATIC | ref_kind::INVOKE_STATIC
    );
    if is_static != wants_static {
        let msg = if wants_static {
            format!("Expected static {what}, found an instance {what} (reference kind {kind})")
        } else {
            format!("Expected instance not static {what} (reference kind {kind})")
        };
        return Err(t.throw_new("java/lang/IncompatibleClassChangeError", Some(&msg)));
    }
    Ok(())
}

/// Whether the intrinsic for `b` may run: the bootstrap is the JDK method itself and its static
/// arguments are what it accepts (see the module comment). Throws for a bootstrap or
/// implementation handle that does not resolve or fit its kind.
pub fn intrinsic_applies(t: &mut JThread, caller: &'static Class, b: &Bootstrap) -> JResult<bool> {
    let Some(expected) = intrinsic_descriptor(b.owner, b.name) else {
        return Ok(false);
    };
    let cp = &caller
        .file
        .as_ref()
        .expect("indy caller has a class file")
        .constant_pool;
    let Some((kind, member)) = handle(cp, Some(&b.handle)) else {
        return Ok(false);
    };
    check_handle(t, caller, b.handle)?;
    let exact = kind == ref_kind::INVOKE_STATIC
        && matches!(cp.get(member), Some(Constant::MethodRef { .. }))
        && cp
            .member_ref(member)
            .is_some_and(|r| r.descriptor == expected);
    if !exact {
        return Ok(false);
    }
    let (params, _, slots) = parse_sig(b.site_desc);
    let returns = |d: &str| b.site_desc.ends_with(d);
    Ok(match b.name {
        "metafactory" | "altMetafactory" => {
            let (Some(sam), Some(instantiated), Some((impl_kind, impl_ref))) = (
                method_type_desc(cp, b.args.first()),
                method_type_desc(cp, b.args.get(2)),
                handle(cp, b.args.get(1)),
            ) else {
                return Ok(false);
            };
            if b.name == "metafactory" && b.args.len() != 3 {
                return Ok(false);
            }
            if b.name == "altMetafactory"
                && !matches!(
                    b.args.get(3).and_then(|&i| cp.get(i)),
                    Some(Constant::Integer(_))
                )
            {
                return Ok(false);
            }
            check_handle(t, caller, b.args[1])?;
            let Some(impl_desc) = cp.member_ref(impl_ref).map(|r| r.descriptor) else {
                return Ok(false);
            };
            let receiver = usize::from(matches!(
                impl_kind,
                ref_kind::INVOKE_VIRTUAL | ref_kind::INVOKE_SPECIAL | ref_kind::INVOKE_INTERFACE
            ));
            let site_returns_object = b
                .site_desc
                .rsplit(')')
                .next()
                .is_some_and(|r| r.starts_with('L'));
            site_returns_object
                && (ref_kind::INVOKE_VIRTUAL..=ref_kind::INVOKE_INTERFACE).contains(&impl_kind)
                && arity(sam) == arity(instantiated)
                && arity(impl_desc) + receiver == params.len() + arity(sam)
        }
        "makeConcatWithConstants" => {
            let Some(recipe) = b
                .args
                .first()
                .and_then(|&i| cp.string(i))
                .map(|u| u.utf16())
            else {
                return Ok(false);
            };
            let arg_tags = recipe.iter().filter(|&&u| u == 1).count();
            let const_tags = recipe.iter().filter(|&&u| u == 2).count();
            let consts_ok = b.args[1..].iter().all(|&i| {
                matches!(
                    cp.get(i),
                    Some(Constant::String { .. } | Constant::Integer(_) | Constant::Long(_))
                )
            });
            returns(")Ljava/lang/String;")
                && slots <= 200
                && arg_tags == params.len()
                && const_tags == b.args.len() - 1
                && consts_ok
        }
        "makeConcat" => b.args.is_empty() && returns(")Ljava/lang/String;") && slots <= 200,
        "bootstrap" => {
            let (Some(record), Some(names)) = (
                b.args.first().and_then(|&i| cp.class_name(i)),
                b.args.get(1).and_then(|&i| cp.string(i)),
            ) else {
                return Ok(false);
            };
            let names = names.text.to_string();
            let getters = &b.args[2..];
            if getters.iter().any(|&i| handle(cp, Some(&i)).is_none()) {
                return Ok(false);
            }
            for &g in getters {
                check_handle(t, caller, g)?;
            }
            let n_names = if names.is_empty() {
                0
            } else {
                names.split(';').count()
            };
            let r = format!("L{record};");
            let type_ok = match b.site_name {
                "toString" => b.site_desc == format!("({r})Ljava/lang/String;"),
                "hashCode" => b.site_desc == format!("({r})I"),
                "equals" => b.site_desc == format!("({r}Ljava/lang/Object;)Z"),
                _ => false,
            };
            type_ok && n_names == getters.len()
        }
        _ => false,
    })
}
