//! VarHandle access modes (`vh.get(...)`, `vh.compareAndSet(...)`, ...) as direct calls.
//!
//! Every concrete VarHandle class of the JDK (`VarHandleInts$FieldInstanceReadWrite`,
//! `VarHandleReferences$Array`, ...) implements each access mode it supports as a *static*
//! method named after the mode, taking `(VarHandle handle, coordinates..., values...)` with
//! reference types erased to Object. A call `vh.compareAndSet(obj, 1, 2)` with call-site
//! descriptor `(LFoo;II)Z` runs the static `compareAndSet` with one more parameter found in
//! the receiver's class or its superclasses, with `vh` prepended. Arguments and the result are
//! adapted like `MethodHandle.invoke` would: primitive widening, boxing and unboxing where the
//! call site's types differ, and a cast of a reference result to the call site's return type.
//! The selection (a [`Plan`]) is cached per (VarHandle class, access mode, call descriptor,
//! the calling class's loader: the descriptor's class names mean that loader's classes).
//!
//! VarHandles without such a static method (e.g. `IndirectVarHandle`, or modes a read-only
//! handle lacks) fall back to the JDK: `vh.toMethodHandle(mode)` invoked with `invoke`
//! semantics, which also produces the JDK's UnsupportedOperationException for unsupported
//! modes.
//!
//! Moving collector: boxing an argument (`Integer.valueOf`...), `toMethodHandle` and the
//! WrongMethodTypeException message run Java, so around them the handle and the reference
//! arguments on the caller's stack are kept in handles ([`SavedArgs`]), never in locals.

use std::sync::{Arc, OnceLock};

use parking_lot::RwLock;
use rustc_hash::FxHashMap;

use crate::class::loader::parse_sig;
use crate::class::{BasicType, Class, ClassId, LoaderId, Method, MethodId};
use crate::heap::{ObjRef, from_slot, to_slot};
use crate::interp::exec;
use crate::invoke::handles::SavedArgs;
use crate::jdk::{self, JdkClass};
use crate::native::reflect::{box_value, unbox_value, widen};
use crate::thread::{JResult, JThread};

#[derive(Clone, Copy, Debug)]
enum Conv {
    Move,
    Widen(BasicType, BasicType),
    Box(BasicType),
    Unbox(BasicType),
}

struct Plan {
    target: &'static Method,
    args: Vec<Conv>,
    ret: Conv,
    /// Class the reference result must be an instance of (call site return type).
    ret_cast: Option<&'static Class>,
}

/// (VarHandle class, access-mode method: both the boot loader's, so their ids are never
/// reused; calling loader; address of the call descriptor);
/// the entries under a key are told apart by the whole descriptor. The calling loader makes
/// the key safe against the descriptor's memory being reused after its class was unloaded:
/// a loader's id is never reused, and the plans of an unloaded loader are forgotten.
type Key = (ClassId, MethodId, LoaderId, usize);
type Cache = RwLock<FxHashMap<Key, Vec<(Box<str>, Option<Arc<Plan>>)>>>;

static PLANS: OnceLock<Cache> = OnceLock::new();

fn cache() -> &'static Cache {
    PLANS.get_or_init(|| RwLock::new(FxHashMap::default()))
}

/// Forgets the plans made for calling loaders among `loaders` or casting to classes among
/// `gone` (being unloaded).
pub fn forget_classes(gone: &crate::class::unload::Unloaded) {
    let Some(plans) = PLANS.get() else { return };
    plans.write().retain(|key, entries| {
        entries.retain(|(_, plan)| {
            plan.as_ref().is_none_or(|p| {
                !p.ret_cast.is_some_and(|c| gone.contains(c)) && !gone.contains(p.target.class)
            })
        });
        !gone.has_loader(key.2) && !entries.is_empty()
    });
}

/// Runs VarHandle access-mode method `m` with call-site descriptor `call_desc`; the handle and
/// its arguments end at `sp`.
pub fn invoke(
    t: &mut JThread,
    m: &'static Method,
    call_desc: &str,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    let (params, ret, slots) = parse_sig(call_desc);
    let slots = slots as usize;
    let base = sp - slots - 1;
    let Some(vh) = from_slot(t.stack[base]) else {
        return Err(t.throw_new("java/lang/NullPointerException", None));
    };
    let exact = vh.read::<u8>(exact_offset(t)?) != 0;
    // A handle with invoke-exact behavior takes the direct path only when the call site's
    // type is the access mode type itself; otherwise the JDK's path throws
    // WrongMethodTypeException.
    let plan = if exact && !exact_type_matches(t, m, call_desc, base)? {
        None
    } else {
        // Re-read: the exactness check runs Java, which may move the handle.
        let vh = from_slot(t.stack[base]).expect("VarHandle checked non-null");
        plan_for(t, vh, m, call_desc)?
    };
    let Some(plan) = plan else {
        let v = via_method_handle(t, m, call_desc, base, exact)?;
        return Ok((v, ret, slots + 1));
    };
    let args = if plan.args.iter().any(|c| matches!(c, Conv::Box(_))) {
        // Boxing runs Java: keep the stack arguments and the boxes made so far in handles.
        let saved = SavedArgs::save(t, call_desc, base, true);
        let r = convert_args(t, &plan, &params, base, Some(&saved));
        saved.restore(t);
        r?
    } else {
        convert_args(t, &plan, &params, base, None)?
    };
    let r = exec::call(t, plan.target, &args)?;
    let r = match plan.ret {
        Conv::Move => r,
        Conv::Widen(s, d) => widen(t, s, d, r)?,
        Conv::Box(s) => to_slot(Some(box_value(t, s, r)?)),
        Conv::Unbox(d) => unbox(t, r, d)?,
    };
    if let (Some(c), Some(o)) = (plan.ret_cast, from_slot(r))
        && !o.class().is_subtype_of(c)
    {
        let msg = crate::runtime::class_cast_message(o.class(), c);
        return Err(t.throw_new("java/lang/ClassCastException", Some(&msg)));
    }
    let r = if ret == BasicType::Void { 0 } else { r };
    Ok((r, ret, slots + 1))
}

/// A converted argument: a value, or a reference kept in handle `.0`.
enum Arg {
    Val(u64),
    Handle(usize),
}

/// The implementation method's arguments for the call at `t.stack[base..]`: the handle, then
/// the call's arguments converted by the plan. With `saved` (the stack's references in
/// handles) the conversions may run Java; without, the plan must not box.
fn convert_args(
    t: &mut JThread,
    plan: &Plan,
    params: &[BasicType],
    base: usize,
    saved: Option<&SavedArgs>,
) -> JResult<Vec<u64>> {
    let mut conv: Vec<Arg> = Vec::with_capacity(plan.args.len());
    let mut tys: Vec<BasicType> = Vec::with_capacity(plan.args.len());
    let mut at = base + 1;
    for (i, c) in plan.args.iter().enumerate() {
        let p = params[i];
        let v = match saved {
            Some(s) if p == BasicType::Ref => s.get(t, at),
            _ => t.stack[at],
        };
        let (a, ty) = match *c {
            Conv::Move => match saved {
                Some(s) if p == BasicType::Ref => (Arg::Handle(s.handle_of(at)), p),
                _ => (Arg::Val(v), p),
            },
            Conv::Widen(s, d) => (Arg::Val(widen(t, s, d, v)?), d),
            Conv::Box(s) => {
                assert!(saved.is_some(), "boxing without saved arguments");
                let b = box_value(t, s, v)?;
                (Arg::Handle(t.handle(b)), BasicType::Ref)
            }
            Conv::Unbox(d) => (Arg::Val(unbox(t, v, d)?), d),
        };
        at += p.slots();
        conv.push(a);
        tys.push(ty);
    }
    let mut args: Vec<u64> = Vec::with_capacity(plan.target.arg_slots as usize);
    args.push(match saved {
        Some(s) => s.get(t, base),
        None => t.stack[base],
    });
    for (a, ty) in conv.into_iter().zip(tys) {
        args.push(match a {
            Arg::Val(v) => v,
            Arg::Handle(h) => t.handles[h],
        });
        if ty.slots() == 2 {
            args.push(0);
        }
    }
    Ok(args)
}

/// Offset of `VarHandle.exact` (handles made by `withInvokeExactBehavior`).
fn exact_offset(t: &mut JThread) -> JResult<usize> {
    Ok(t.jdk_class::<jdk::VarHandle>()?.exact)
}

/// Whether the call site's descriptor is exactly `vh.accessModeType(mode)` for the handle at
/// `t.stack[base]` (what `VarHandle.checkExactAccessMode` requires of exact handles).
fn exact_type_matches(t: &mut JThread, m: &Method, call_desc: &str, base: usize) -> JResult<bool> {
    let ordinal = access_type_ordinal(t, m)?;
    let amt = access_mode_type_method(t)?;
    let o = crate::native::jli::offsets(t)?;
    // accessModeType runs Java: keep the handle and the reference arguments in handles.
    let saved = SavedArgs::save(t, call_desc, base, true);
    let vh = saved.get(t, base);
    let r = exec::call(t, amt, &[vh, ordinal as u64]);
    saved.restore(t);
    let Some(mt) = from_slot(r?) else {
        return Ok(false);
    };
    Ok(crate::native::jli::method_type_matches(t, o, mt, call_desc))
}

/// `VarHandle.accessModeType(int)`: the access mode type for an `AccessType` ordinal, cached
/// per handle by the JDK.
fn access_mode_type_method(t: &mut JThread) -> JResult<&'static Method> {
    static METHOD: OnceLock<&'static Method> = OnceLock::new();
    if let Some(&m) = METHOD.get() {
        return Ok(m);
    }
    let c = t.load_boot("java/lang/invoke/VarHandle")?;
    let Some(m) = c.declared_method("accessModeType", "(I)Ljava/lang/invoke/MethodType;") else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("jxvm: no method VarHandle.accessModeType(int)"),
        ));
    };
    Ok(*METHOD.get_or_init(|| m))
}

/// `AccessMode.at.ordinal()` for access-mode method `m` (of VarHandle, a boot class: its id
/// is never reused), cached per method.
fn access_type_ordinal(t: &mut JThread, m: &Method) -> JResult<i32> {
    static ORDINALS: OnceLock<RwLock<FxHashMap<MethodId, i32>>> = OnceLock::new();
    let cache = ORDINALS.get_or_init(|| RwLock::new(FxHashMap::default()));
    let key = m.id;
    if let Some(&o) = cache.read().get(&key) {
        return Ok(o);
    }
    let mode = from_slot(access_mode(t, m)?);
    let at = match mode {
        Some(md) => md.read_ref(t.jdk::<jdk::AccessMode>(md)?.at),
        None => None,
    };
    let ordinal = at.map(|a| a.read::<i32>(jdk::Enum::get().ordinal));
    let Some(ordinal) = ordinal else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("jxvm: no VarHandle.AccessMode.at ordinal"),
        ));
    };
    cache.write().insert(key, ordinal);
    Ok(ordinal)
}

fn unbox(t: &mut JThread, v: u64, ty: BasicType) -> JResult<u64> {
    match from_slot(v) {
        None => Err(t.throw_new("java/lang/NullPointerException", None)),
        Some(o) => unbox_value(t, Some(o), ty),
    }
}

fn plan_for(
    t: &mut JThread,
    vh: ObjRef,
    m: &'static Method,
    call_desc: &str,
) -> JResult<Option<Arc<Plan>>> {
    let vc = vh.class();
    let key = (vc.id, m.id, calling_loader(t), call_desc.as_ptr() as usize);
    if let Some(v) = cache().read().get(&key)
        && let Some((_, p)) = v.iter().find(|(d, _)| **d == *call_desc)
    {
        return Ok(p.clone());
    }
    let plan = build_plan(t, vh, m, call_desc)?.map(Arc::new);
    cache()
        .write()
        .entry(key)
        .or_default()
        .push((call_desc.into(), plan.clone()));
    Ok(plan)
}

fn prim_conv(src: BasicType, dst: BasicType) -> Option<Conv> {
    if src == dst {
        return Some(Conv::Move);
    }
    src.widens_to(dst).then_some(Conv::Widen(src, dst))
}

fn wrapper_name(ty: BasicType) -> &'static str {
    ty.wrapper_class()
}

fn wrapped_type(c: &Class) -> Option<BasicType> {
    use BasicType::*;
    Some(match &*c.name {
        "java/lang/Boolean" => Boolean,
        "java/lang/Byte" => Byte,
        "java/lang/Character" => Char,
        "java/lang/Short" => Short,
        "java/lang/Integer" => Int,
        "java/lang/Float" => Float,
        "java/lang/Long" => Long,
        "java/lang/Double" => Double,
        _ => return None,
    })
}

/// `MethodType.canConvert` for a reference of class `src` to primitive `dst`: unboxing from
/// a dynamically chosen wrapper, or from a wrapper whose primitive widens to `dst`.
fn can_unbox(t: &mut JThread, src: &'static Class, dst: BasicType) -> JResult<bool> {
    let w = t.load_boot(wrapper_name(dst))?;
    Ok(w.is_subtype_of(src) || wrapped_type(src).is_some_and(|s| prim_conv(s, dst).is_some()))
}

/// The class named by field descriptor `d`, loaded by the calling method's loader.
fn call_site_class(t: &mut JThread, d: &str) -> JResult<&'static Class> {
    let loader = calling_loader(t);
    crate::native::jli::class_for_descriptor(t, loader, d)
}

/// The loader of the class whose code calls the access mode (its descriptor's names are its).
fn calling_loader(t: &JThread) -> LoaderId {
    t.frames
        .last()
        .map_or(LoaderId::BOOT, |f| f.method.class.loader)
}

/// Conversion of a call-site value of type `src` (descriptor `src_desc`) to `dst`, where a
/// reference `dst` is the erased type of the implementation method.
fn conv(t: &mut JThread, src: BasicType, src_desc: &str, dst: BasicType) -> JResult<Option<Conv>> {
    Ok(match (src, dst) {
        (BasicType::Ref, BasicType::Ref) => Some(Conv::Move),
        (BasicType::Ref, d) => {
            let c = call_site_class(t, src_desc)?;
            can_unbox(t, c, d)?.then_some(Conv::Unbox(d))
        }
        (s, BasicType::Ref) => Some(Conv::Box(s)),
        (s, d) => prim_conv(s, d),
    })
}

fn build_plan(
    t: &mut JThread,
    vh: ObjRef,
    m: &'static Method,
    call_desc: &str,
) -> JResult<Option<Plan>> {
    let (params, ret, _) = parse_sig(call_desc);
    let (pdescs, ret_desc) = crate::native::reflect::split_method_descriptor(call_desc);
    let mut k = Some(vh.class());
    let mut target = None;
    while let Some(c) = k {
        if &*c.name == "java/lang/invoke/VarHandle" {
            break;
        }
        target = c
            .methods()
            .iter()
            .find(|x| x.is_static() && x.name == m.name && x.param_types.len() == params.len() + 1);
        if target.is_some() {
            break;
        }
        k = c.super_class;
    }
    let Some(target) = target else {
        return Ok(None);
    };
    let mut args = Vec::with_capacity(params.len());
    for (i, &p) in params.iter().enumerate() {
        match conv(t, p, pdescs[i], target.param_types[i + 1])? {
            Some(c) => args.push(c),
            None => return Err(wrong_type(t, vh, m, call_desc)),
        }
    }
    let ret_conv = match (target.ret, ret) {
        (_, BasicType::Void) | (BasicType::Void, _) => Conv::Move,
        (BasicType::Ref, d) if d != BasicType::Ref => Conv::Unbox(d),
        (s, BasicType::Ref) if s != BasicType::Ref => {
            let c = call_site_class(t, ret_desc)?;
            let w = t.load_boot(wrapper_name(s))?;
            if !w.is_subtype_of(c) {
                return Err(wrong_type(t, vh, m, call_desc));
            }
            Conv::Box(s)
        }
        (s, d) => match prim_conv(s, d) {
            Some(c) => c,
            None => return Err(wrong_type(t, vh, m, call_desc)),
        },
    };
    let ret_cast = if ret == BasicType::Ref && ret_desc != "Ljava/lang/Object;" {
        Some(call_site_class(t, ret_desc)?)
    } else {
        None
    };
    Ok(Some(Plan {
        target,
        args,
        ret: ret_conv,
        ret_cast,
    }))
}

fn access_mode(t: &mut JThread, m: &Method) -> JResult<u64> {
    let name = t.new_string(&m.name)?;
    t.call_static(
        "java/lang/invoke/VarHandle$AccessMode",
        "valueFromMethodName",
        "(Ljava/lang/String;)Ljava/lang/invoke/VarHandle$AccessMode;",
        &[name.slot()],
    )
}

/// WrongMethodTypeException as `asType` from the access mode's type would throw it.
fn wrong_type(t: &mut JThread, vh: ObjRef, m: &Method, call_desc: &str) -> crate::thread::Thrown {
    // `vh` is used after a call into Java: keep it in a handle.
    let h = t.handle(vh);
    let r: JResult<String> = (|| {
        let mode = access_mode(t, m)?;
        let vh = t.handle_get(h);
        let amt = t.call_virtual(
            vh,
            "accessModeType",
            "(Ljava/lang/invoke/VarHandle$AccessMode;)Ljava/lang/invoke/MethodType;",
            &[mode],
        )?;
        let amt = t.call_virtual(
            from_slot(amt).expect("accessModeType"),
            "toString",
            "()Ljava/lang/String;",
            &[],
        )?;
        let amt = t.opt_rust_string(amt).unwrap_or_default();
        let loader = t
            .frames
            .last()
            .map_or(LoaderId::BOOT, |f| f.method.class.loader);
        let ct = crate::native::jli::method_type_for(t, loader, call_desc)?;
        let ct = t.call_virtual(ct, "toString", "()Ljava/lang/String;", &[])?;
        let ct = t.opt_rust_string(ct).unwrap_or_default();
        let with_vh = |s: &str| {
            if s.starts_with("()") {
                format!("(VarHandle{}", &s[1..])
            } else {
                format!("(VarHandle,{}", &s[1..])
            }
        };
        Ok(format!(
            "cannot convert MethodHandle{} to {}",
            with_vh(&amt),
            with_vh(&ct)
        ))
    })();
    t.handles.truncate(h);
    match r {
        Ok(msg) => t.throw_new("java/lang/invoke/WrongMethodTypeException", Some(&msg)),
        Err(e) => e,
    }
}

/// Generic path: `vh.toMethodHandle(mode).invoke(args...)`, or `invokeExact` for a handle
/// with exact invocation behavior.
fn via_method_handle(
    t: &mut JThread,
    m: &'static Method,
    call_desc: &str,
    base: usize,
    exact: bool,
) -> JResult<u64> {
    let saved = SavedArgs::save(t, call_desc, base, true);
    let r = to_method_handle(t, m, base, &saved);
    saved.restore(t);
    t.stack[base] = r?;
    super::handles::invoke_checked(t, !exact, call_desc, base)
}

/// `vh.toMethodHandle(mode)` for the handle saved at stack slot `base`.
fn to_method_handle(t: &mut JThread, m: &Method, base: usize, saved: &SavedArgs) -> JResult<u64> {
    let mode = access_mode(t, m)?;
    let vh = from_slot(saved.get(t, base)).expect("null VarHandle");
    t.call_virtual(
        vh,
        "toMethodHandle",
        "(Ljava/lang/invoke/VarHandle$AccessMode;)Ljava/lang/invoke/MethodHandle;",
        &[mode],
    )
}
