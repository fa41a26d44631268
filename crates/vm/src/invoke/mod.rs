//! invokedynamic and signature-polymorphic calls.
//!
//! jxvm implements the bootstraps javac 17 emits as VM intrinsics rather than running
//! java.lang.invoke: `LambdaMetafactory.metafactory`/`altMetafactory` spin a hidden proxy class
//! whose interface method is pre-decoded ops that adapt arguments and call the implementation
//! ([`lambda`]); `StringConcatFactory.makeConcatWithConstants`/`makeConcat` concatenate
//! directly from the recipe ([`concat`]); `ObjectMethods.bootstrap` gives records their
//! toString/equals/hashCode ([`objmethods`]). Each call site is bound once, on first
//! execution, and the binding (which holds no heap reference) is cached in the site.
//! Any other bootstrap method links its call site through the JDK ([`callsite`]).
//!
//! java.lang.invoke itself is the JDK's: method handles run their LambdaForms (pre-generated
//! holder classes or hidden classes spun by `InvokerBytecodeGenerator`), with the VM providing
//! the signature-polymorphic entry points and `ldc` of MethodHandle/MethodType ([`handles`],
//! member resolution in `native/jli.rs`). VarHandle access modes call the handle class's
//! static implementation methods directly ([`varhandle`]).

pub mod callsite;
pub mod checks;
pub mod concat;
pub mod handles;
pub mod lambda;
pub mod objmethods;
pub mod varhandle;

use crate::class::{BasicType, Class, Method};
use crate::code::decode::IndySite;
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};

/// What an invokedynamic call site is bound to.
#[derive(Debug)]
pub enum IndyBinding {
    Lambda(&'static Class),
    Concat(concat::Recipe),
    ObjectMethod(objmethods::RecordMethod),
    /// Any other bootstrap: a CallSite, kept per domain ([`callsite`]).
    CallSite,
}

/// A bootstrap method reference, decoded from the constant pool.
pub struct Bootstrap<'a> {
    /// The CONSTANT_MethodHandle of the bootstrap method.
    pub handle: u16,
    pub owner: &'a str,
    pub name: &'a str,
    pub args: &'a [u16],
    /// Name and descriptor of the call site.
    pub site_name: &'a str,
    pub site_desc: &'a str,
}

pub(crate) fn decode_bootstrap<'a>(c: &'a Class, cp_index: u16) -> Option<Bootstrap<'a>> {
    let cf = c.file.as_ref()?;
    let cp = &cf.constant_pool;
    let classfile::Constant::InvokeDynamic {
        bootstrap_method_attr_index,
        name_and_type_index,
    } = cp.get(cp_index)?
    else {
        return None;
    };
    let (site_name, site_desc) = cp.name_and_type(*name_and_type_index)?;
    let bsm = cf
        .bootstrap_methods
        .get(*bootstrap_method_attr_index as usize)?;
    let classfile::Constant::MethodHandle {
        reference_index, ..
    } = cp.get(bsm.method_ref)?
    else {
        return None;
    };
    let r = cp.member_ref(*reference_index)?;
    Some(Bootstrap {
        handle: bsm.method_ref,
        owner: r.class_name,
        name: r.name,
        args: &bsm.arguments,
        site_name,
        site_desc,
    })
}

/// Executes invokedynamic at `site` of method `m`, with its arguments on top of the stack
/// (ending at `sp`). Returns (result, result type, argument slots consumed).
pub fn invokedynamic(
    t: &mut JThread,
    m: &'static Method,
    site: &'static IndySite,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    let binding = match site.binding.get() {
        Some(b) => b,
        None => {
            let b = bind(t, m.class, site.cp_index)?;
            let _ = site.binding.set(Box::new(b));
            site.binding.get().expect("binding just set")
        }
    };
    let Some(binding) = binding.downcast_ref::<IndyBinding>() else {
        unreachable!("an invokedynamic site holds only this module's IndyBinding")
    };
    match binding {
        IndyBinding::Lambda(proxy) => lambda::instantiate(t, proxy, sp),
        IndyBinding::Concat(r) => concat::run(t, r, sp),
        IndyBinding::ObjectMethod(r) => objmethods::run(t, r, sp),
        IndyBinding::CallSite => callsite::run(t, m.class, site, sp),
    }
}

fn bind(t: &mut JThread, caller: &'static Class, cp_index: u16) -> JResult<IndyBinding> {
    let Some(b) = decode_bootstrap(caller, cp_index) else {
        return Err(t.throw_new(
            "java/lang/BootstrapMethodError",
            Some("malformed invokedynamic constant"),
        ));
    };
    // An intrinsic runs only for what the JDK's bootstrap would accept; anything else is
    // linked (and rejected) by the JDK's bootstrap method itself.
    if !checks::intrinsic_applies(t, caller, &b)? {
        return Ok(IndyBinding::CallSite);
    }
    match (b.owner, b.name) {
        ("java/lang/invoke/LambdaMetafactory", "metafactory" | "altMetafactory") => {
            lambda::spin(t, caller, &b).map(IndyBinding::Lambda)
        }
        ("java/lang/invoke/StringConcatFactory", "makeConcatWithConstants" | "makeConcat") => {
            concat::Recipe::new(t, caller, &b).map(IndyBinding::Concat)
        }
        ("java/lang/runtime/ObjectMethods", "bootstrap") => {
            objmethods::RecordMethod::new(t, caller, &b).map(IndyBinding::ObjectMethod)
        }
        _ => Ok(IndyBinding::CallSite),
    }
}

/// `ldc` of a MethodType or MethodHandle constant ([`handles::ldc`]); dynamic constants are
/// not supported.
pub fn ldc_other(t: &mut JThread, c: &'static Class, idx: u16) -> JResult<Option<ObjRef>> {
    handles::ldc(t, c, idx)
}

/// MethodHandle.invoke*/linkTo* ([`handles`]) and VarHandle access modes ([`varhandle`]),
/// the signature-polymorphic methods. Returns (result, result type, argument slots consumed
/// including the receiver).
pub fn invoke_polymorphic(
    t: &mut JThread,
    m: &'static Method,
    call_desc: &str,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    if &*m.class.name == "java/lang/invoke/VarHandle" {
        varhandle::invoke(t, m, call_desc, sp)
    } else {
        handles::invoke(t, m, call_desc, sp)
    }
}

/// Reads the arguments of a call descriptor from the stack ending at `sp`: (type, value) per
/// parameter, and the slot count.
pub fn stack_args(t: &JThread, desc: &str, sp: usize) -> (Vec<(BasicType, u64)>, usize) {
    let (params, _, slots) = crate::class::loader::parse_sig(desc);
    let mut at = sp - slots as usize;
    let mut out = Vec::with_capacity(params.len());
    for &p in params.iter() {
        out.push((p, t.stack[at]));
        at += p.slots();
    }
    (out, slots as usize)
}
