//! invokedynamic with a bootstrap method the VM has no intrinsic for (JVMS §5.4.3.6, §6.5).
//!
//! Linking is the JDK's own: `CallSite.makeSite` runs the bootstrap method through
//! `BootstrapMethodInvoker` with the caller's lookup, the call site's name and MethodType and the
//! static arguments (resolved here, boxed into an `Object[]`), checks the target's type and wraps
//! failures in BootstrapMethodError. Each invokedynamic instruction is its own call site (as
//! on HotSpot, even when instructions share a constant); the CallSite is a heap object, so it
//! is kept per domain in `Domain::call_sites` (a collector root) under the address of the
//! instruction's `IndySite`. Each execution then runs the site's current target as `invokeExact` with the call site's
//! descriptor, so MutableCallSite and VolatileCallSite retargeting is seen at once.
//!
//! Not supported: dynamic constants (CONSTANT_Dynamic) as static arguments.

use super::handles::invoke_checked;
use super::{Bootstrap, decode_bootstrap};
use crate::class::loader::parse_sig;
use crate::class::{BasicType, Class};
use crate::code::decode::IndySite;
use crate::heap::{ObjRef, from_slot};
use crate::native::jli;
use crate::thread::{JResult, JThread};

/// Runs the invokedynamic instruction `indy` of a method of `caller`, its arguments on the
/// stack ending at `sp`. Returns (result, result type, argument slots consumed).
pub fn run(
    t: &mut JThread,
    caller: &'static Class,
    indy: &'static IndySite,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    let Some(b) = decode_bootstrap(caller, indy.cp_index) else {
        return Err(t.throw_new(
            "java/lang/BootstrapMethodError",
            Some("malformed invokedynamic constant"),
        ));
    };
    let key = indy as *const IndySite as usize;
    let linked = t.domain.call_sites.lock().get(&key).map(|&(site, _)| site);
    let site = match linked {
        Some(site) => site,
        None => {
            let site = link(t, caller, &b)?;
            // Another thread may have linked the site meanwhile: the first one wins.
            t.domain
                .call_sites
                .lock()
                .entry(key)
                .or_insert((site, caller.unit()))
                .0
        }
    };
    let o = jli::offsets(t)?;
    let Some(target) = site.read_ref(o.callsite_target) else {
        return Err(t.throw_new(
            "java/lang/IllegalStateException",
            Some("call site has no target"),
        ));
    };
    let (_, ret, slots) = parse_sig(b.site_desc);
    let slots = slots as usize;
    // The target and a copy of the arguments go above the operand stack, where the callee's
    // frame begins: the caller's frame keeps its arguments exactly as its reference map
    // describes them.
    if sp + slots + 1 + 8 > t.stack_limit() {
        return Err(t.stack_overflow());
    }
    t.stack.copy_within(sp - slots..sp, sp + 1);
    t.stack[sp] = target.slot();
    let v = invoke_checked(t, false, b.site_desc, sp)?;
    Ok((v, ret, slots))
}

/// Runs the bootstrap method: the CallSite it returns, or its (Java) error.
fn link(t: &mut JThread, caller: &'static Class, b: &Bootstrap<'static>) -> JResult<ObjRef> {
    let mark = t.handles.len();
    let r = link_with_handles(t, caller, b);
    t.handles.truncate(mark);
    r
}

fn link_with_handles(
    t: &mut JThread,
    caller: &'static Class,
    b: &Bootstrap<'static>,
) -> JResult<ObjRef> {
    let Some(bsm) = super::handles::ldc(t, caller, b.handle)? else {
        return Err(t.throw_new(
            "java/lang/BootstrapMethodError",
            Some("bootstrap method handle"),
        ));
    };
    let bsm = t.handle(bsm);
    let info = match b.args.len() {
        0 => None,
        _ => Some(static_arguments(t, caller, b.args)?),
    };
    let info = info.map(|a| t.handle(a));
    let ty = jli::method_type_for(t, caller.loader, b.site_desc)?;
    let ty = t.handle(ty);
    let name = t.intern(b.site_name)?;
    let name = t.handle(name);
    let mirror = t.mirror(caller)?;
    let args = [
        t.handle_get(bsm).slot(),
        t.handle_get(name).slot(),
        t.handle_get(ty).slot(),
        info.map_or(0, |h| t.handle_get(h).slot()),
        mirror.slot(),
    ];
    let site = t.call_static(
        "java/lang/invoke/CallSite",
        "makeSite",
        "(Ljava/lang/invoke/MethodHandle;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/Object;Ljava/lang/Class;)Ljava/lang/invoke/CallSite;",
        &args,
    )?;
    match from_slot(site) {
        Some(site) => Ok(site),
        None => Err(t.throw_new(
            "java/lang/BootstrapMethodError",
            Some("bootstrap method returned null"),
        )),
    }
}

/// The bootstrap method's static arguments, resolved and boxed, in an `Object[]`.
fn static_arguments(t: &mut JThread, caller: &'static Class, indices: &[u16]) -> JResult<ObjRef> {
    let object = t.vm.wk().object;
    let array = t.new_array_of(object, indices.len() as i32)?;
    let array = t.handle(array);
    for (i, &idx) in indices.iter().enumerate() {
        let v = static_argument(t, caller, idx)?;
        let a = t.handle_get(array);
        t.domain
            .heap
            .write_slot(a, base::layout::ARRAY_BASE + i * 8, v.slot());
    }
    Ok(t.handle_get(array))
}

fn static_argument(t: &mut JThread, caller: &'static Class, idx: u16) -> JResult<ObjRef> {
    use crate::native::reflect::box_value;
    use classfile::Constant;
    let cp = &caller
        .file
        .as_ref()
        .expect("invokedynamic in a class without a class file")
        .constant_pool;
    match cp.get(idx) {
        Some(Constant::Integer(v)) => box_value(t, BasicType::Int, *v as u32 as u64),
        Some(Constant::Float(v)) => box_value(t, BasicType::Float, v.to_bits() as u64),
        Some(Constant::Long(v)) => box_value(t, BasicType::Long, *v as u64),
        Some(Constant::Double(v)) => box_value(t, BasicType::Double, v.to_bits()),
        Some(Constant::String { .. }) => t.ldc_string(caller, idx),
        Some(Constant::Class { .. }) => {
            let c = t.resolve_class_ref(caller, idx)?;
            t.mirror(c)
        }
        Some(Constant::MethodType { .. } | Constant::MethodHandle { .. }) => {
            match super::handles::ldc(t, caller, idx)? {
                Some(v) => Ok(v),
                None => Err(t.throw_new(
                    "java/lang/BootstrapMethodError",
                    Some("unresolvable static argument"),
                )),
            }
        }
        _ => {
            let msg = format!(
                "jxvm does not support static argument #{idx} (a dynamic constant) of a bootstrap method"
            );
            Err(t.throw_new("java/lang/BootstrapMethodError", Some(&msg)))
        }
    }
}
