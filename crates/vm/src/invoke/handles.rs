//! Method handles: jxvm runs the JDK's own LambdaForm machinery, like HotSpot. The VM supplies
//! only the signature-polymorphic entry points and constant-pool linkage:
//!
//! - `MethodHandle.invokeBasic(mh, args...)` calls the method behind `mh.form.vmentry` (a
//!   static method of a LambdaForm holder class or of a hidden class spun by the JDK's
//!   `InvokerBytecodeGenerator`) with the very same slots: LambdaForm methods take the handle
//!   first and basic-type-erased arguments, which have the same slot layout as the call.
//! - `MethodHandle.linkToStatic/Special/Virtual/Interface(args..., MemberName)` call the method
//!   the trailing MemberName was resolved to (see `native/jli.rs`), dispatching on the
//!   receiver for virtual and interface calls.
//! - `invokeExact`/`invoke` from ordinary bytecode: when the handle's type is exactly the call
//!   site's descriptor this is `invokeBasic`; otherwise `invokeExact` throws
//!   WrongMethodTypeException and `invoke` adapts the handle with `asType` (reusing
//!   `asTypeCache` when its type matches, without building a MethodType) and invokes that.
//!   The call site's MethodType is built from the descriptor with the caller's loader.
//! - `ldc` of MethodType constants goes through `MethodHandleNatives.findMethodHandleType`,
//!   of MethodHandle constants through `MethodHandleNatives.linkMethodHandleConstant`; the
//!   results are cached per domain in the class's constant-pool object cache.
//!
//! Moving collector: the arguments of these calls sit on the caller's operand stack. Code
//! here that calls into Java before passing them on (building a MethodType, `asType`, a
//! class initializer before `linkToStatic`) keeps their references in handles
//! ([`SavedArgs`]) and writes the current addresses back to the stack afterwards; a local
//! `ObjRef` is never used across such a call.

use std::sync::atomic::Ordering;

use crate::class::loader::parse_sig;
use crate::class::{BasicType, Class, Method};
use crate::heap::{ObjRef, from_slot};
use crate::interp::exec;
use crate::native::jli::{self, Offsets};
use crate::thread::{JResult, JThread};

/// Dispatches a signature-polymorphic MethodHandle method (see module docs).
pub fn invoke(
    t: &mut JThread,
    m: &'static Method,
    call_desc: &str,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    let (_, ret, slots) = parse_sig(call_desc);
    let slots = slots as usize;
    match &*m.name {
        "invokeBasic" => {
            let base = sp - slots - 1;
            let mh = receiver(t, base)?;
            let v = invoke_basic(t, mh, base)?;
            Ok((v, ret, slots + 1))
        }
        "invokeExact" | "invoke" => {
            let base = sp - slots - 1;
            let v = invoke_checked(t, &*m.name == "invoke", call_desc, base)?;
            Ok((v, ret, slots + 1))
        }
        "linkToStatic" | "linkToSpecial" | "linkToVirtual" | "linkToInterface" => {
            let base = sp - slots;
            let v = link_to(t, &m.name, call_desc, base, sp)?;
            Ok((v, ret, slots))
        }
        _ => {
            let msg = format!("jxvm does not support MethodHandle.{}{call_desc}", m.name);
            Err(t.throw_new("java/lang/UnsupportedOperationException", Some(&msg)))
        }
    }
}

fn receiver(t: &mut JThread, base: usize) -> JResult<ObjRef> {
    match from_slot(t.stack[base]) {
        Some(o) => Ok(o),
        None => Err(t.throw_new("java/lang/NullPointerException", None)),
    }
}

/// The method a handle's LambdaForm runs.
fn vmentry(t: &mut JThread, o: &Offsets, mh: ObjRef) -> JResult<&'static Method> {
    let entry = mh
        .read_ref(o.mh_form)
        .and_then(|f| f.read_ref(o.lf_vmentry));
    match entry.and_then(|e| jli::member_method(o, e)) {
        Some(m) => Ok(m),
        None => Err(t.throw_new(
            "java/lang/InternalError",
            Some("method handle without a compiled LambdaForm"),
        )),
    }
}

/// Runs `mh` (at `t.stack[base]`, arguments after it) through its LambdaForm.
fn invoke_basic(t: &mut JThread, mh: ObjRef, base: usize) -> JResult<u64> {
    let o = jli::offsets(t)?;
    let target = vmentry(t, o, mh)?;
    exec::invoke(t, target, base)
}

/// The reference arguments of a signature-polymorphic call at `t.stack[base..]`, kept in
/// handles while VM code calls into Java (the calling frame is not relied on to keep them
/// current meanwhile). [`SavedArgs::restore`] writes their current addresses back to the
/// stack and releases the handles; it must run on every path, errors included.
pub(crate) struct SavedArgs {
    mark: usize,
    /// Stack slots holding references, in handle order from `mark`.
    slots: Vec<usize>,
}

impl SavedArgs {
    /// Saves the receiver at `t.stack[base]` (if `receiver`) and the reference parameters of
    /// `desc` after it.
    pub(crate) fn save(t: &mut JThread, desc: &str, base: usize, receiver: bool) -> SavedArgs {
        let (params, _, _) = parse_sig(desc);
        let mark = t.handles.len();
        let mut slots = Vec::with_capacity(params.len() + 1);
        let mut at = base;
        if receiver {
            slots.push(at);
            at += 1;
        }
        for &p in params.iter() {
            if p == BasicType::Ref {
                slots.push(at);
            }
            at += p.slots();
        }
        for &s in &slots {
            t.handles.push(t.stack[s]);
        }
        SavedArgs { mark, slots }
    }

    /// The handle index of saved stack slot `slot`.
    pub(crate) fn handle_of(&self, slot: usize) -> usize {
        let i = self
            .slots
            .iter()
            .position(|&s| s == slot)
            .expect("stack slot not saved");
        self.mark + i
    }

    /// The current value of saved stack slot `slot`.
    pub(crate) fn get(&self, t: &JThread, slot: usize) -> u64 {
        t.handles[self.handle_of(slot)]
    }

    /// Writes the current references back to the stack and releases the handles (and any
    /// taken after them).
    pub(crate) fn restore(self, t: &mut JThread) {
        for (i, &s) in self.slots.iter().enumerate() {
            t.stack[s] = t.handles[self.mark + i];
        }
        t.handles.truncate(self.mark);
    }
}

/// `invokeExact` (`generic == false`) or `invoke` of the handle at `t.stack[base]`.
pub(crate) fn invoke_checked(
    t: &mut JThread,
    generic: bool,
    call_desc: &str,
    base: usize,
) -> JResult<u64> {
    let o = jli::offsets(t)?;
    let mh = receiver(t, base)?;
    let ty = mh.read_ref(o.mh_type).expect("MethodHandle without a type");
    if jli::method_type_matches(t, o, ty, call_desc) {
        return invoke_basic(t, mh, base);
    }
    if generic
        && let Some(cached) = mh.read_ref(o.mh_as_type_cache)
        && cached
            .read_ref(o.mh_type)
            .is_some_and(|ct| jli::method_type_matches(t, o, ct, call_desc))
    {
        t.stack[base] = cached.slot();
        return invoke_basic(t, cached, base);
    }
    // Slow path: calls into Java, so the arguments (the handle included) live in handles.
    let saved = SavedArgs::save(t, call_desc, base, true);
    let r = adapt(t, o, generic, call_desc, base, &saved);
    saved.restore(t);
    match r? {
        Ok(adapted) => {
            t.stack[base] = adapted.slot();
            invoke_basic(t, adapted, base)
        }
        Err(msg) => Err(t.throw_new("java/lang/invoke/WrongMethodTypeException", Some(&msg))),
    }
}

/// The handle at `t.stack[base]` (saved in `saved`) adapted to `call_desc` with `asType`, or,
/// for `invokeExact`, the WrongMethodTypeException message.
fn adapt(
    t: &mut JThread,
    o: &Offsets,
    generic: bool,
    call_desc: &str,
    base: usize,
    saved: &SavedArgs,
) -> JResult<Result<ObjRef, String>> {
    let loader = caller_class(t).map_or(crate::class::LoaderId::BOOT, |c| c.loader);
    let call_type = jli::method_type_for(t, loader, call_desc)?;
    let mh = from_slot(saved.get(t, base)).expect("null MethodHandle");
    if !generic {
        let ct = t.handle(call_type);
        let ty = mh.read_ref(o.mh_type).expect("MethodHandle without a type");
        let expected = java_to_string(t, ty)?;
        let ct = t.handle_get(ct);
        let found = java_to_string(t, ct)?;
        return Ok(Err(format!("expected {expected} but found {found}")));
    }
    let adapted = t.call_virtual(
        mh,
        "asType",
        "(Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;",
        &[call_type.slot()],
    )?;
    Ok(Ok(from_slot(adapted).expect("asType returned null")))
}

fn caller_class(t: &JThread) -> Option<&'static Class> {
    t.frames.last().map(|f| f.method.class)
}

fn java_to_string(t: &mut JThread, o: ObjRef) -> JResult<String> {
    let s = t.call_virtual(o, "toString", "()Ljava/lang/String;", &[])?;
    Ok(t.opt_rust_string(s).unwrap_or_default())
}

/// `linkTo*(args..., MemberName)` with the arguments at `t.stack[base..sp]` (call-site
/// descriptor `call_desc`, the MemberName last).
fn link_to(t: &mut JThread, kind: &str, call_desc: &str, base: usize, sp: usize) -> JResult<u64> {
    let o = jli::offsets(t)?;
    let mn = match from_slot(t.stack[sp - 1]) {
        Some(mn) => mn,
        None => return Err(t.throw_new("java/lang/NullPointerException", None)),
    };
    let Some(m) = jli::member_method(o, mn) else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("linkTo with an unresolved MemberName"),
        ));
    };
    let target = match kind {
        "linkToStatic" => {
            if !t.domain.is_initialized(m.class) {
                // The class initializer runs Java: keep the arguments in handles meanwhile.
                let saved = SavedArgs::save(t, call_desc, base, false);
                let r = t.ensure_initialized(m.class);
                saved.restore(t);
                r?;
            }
            m
        }
        _ => {
            let recv = receiver(t, base)?;
            if kind == "linkToSpecial" {
                m
            } else {
                select(t, recv.class(), m)?
            }
        }
    };
    if target.is_signature_polymorphic() {
        // A MemberName for MethodHandle.invokeBasic & co. (invokers): its type is the call's.
        // (Re-read: a class initializer may have run since.)
        let mn = from_slot(t.stack[sp - 1]).expect("MemberName");
        let ty = mn.read_ref(o.mn_type);
        let desc = match ty {
            Some(ty) if std::ptr::eq(ty.class(), o.mt_class) => {
                jli::method_type_descriptor(t, o, ty)
            }
            Some(ty) => t.rust_string(ty),
            None => String::from("()V"),
        };
        let (_, _, slots) = parse_sig(&desc);
        let extra = if target.is_static() { 0 } else { 1 };
        let (v, _, _) = super::invoke_polymorphic(t, target, &desc, base + slots as usize + extra)?;
        return Ok(v);
    }
    exec::invoke(t, target, base)
}

/// Selects the implementation of `m` for receiver class `rc` (invokevirtual/invokeinterface).
fn select(t: &mut JThread, rc: &'static Class, m: &'static Method) -> JResult<&'static Method> {
    if m.is_private()
        || m.is_static()
        || m.access & classfile::access::ACC_FINAL != 0
        || &*m.name == "<init>"
    {
        return Ok(m);
    }
    if !m.class.is_interface()
        && let Some(&vi) = m.vtable_index.get()
        && let Some(&sel) = rc.vtable().get(vi as usize)
    {
        return Ok(sel);
    }
    let sig = t.vm.classes.sig_id(&m.name, &m.descriptor);
    let sel = rc
        .dispatch
        .get()
        .and_then(|d| d.itable.get(&sig))
        .copied()
        .or_else(|| crate::class::loader::select_interface_method(rc, &m.name, &m.descriptor));
    match sel {
        Some(s) if !s.is_abstract() => Ok(s),
        _ if m.is_abstract() => {
            let msg = format!(
                "Receiver class {} does not define or inherit an implementation of the resolved method '{}'",
                rc.java_name(),
                crate::class::resolve::pretty_method(m.class, &m.name, &m.descriptor)
            );
            Err(t.throw_new("java/lang/AbstractMethodError", Some(&msg)))
        }
        _ => Ok(m),
    }
}

/// The object this domain resolved constant `idx` of `c` to (MethodType, MethodHandle,
/// CallSite), if any.
fn cached_constant(t: &JThread, c: &'static Class, idx: u16) -> Option<ObjRef> {
    let st = t.domain.class_state(c);
    let cache = st.cp_strings.get()?;
    from_slot(cache.get(idx as usize)?.load(Ordering::Acquire))
}

/// Records `v` as this domain's value of constant `idx` of `c`; when another thread got
/// there first, its value wins (resolution happens once per domain).
fn cache_constant(t: &JThread, c: &'static Class, idx: u16, v: ObjRef) -> ObjRef {
    let st = t.domain.class_state(c);
    let cache = st.cp_strings.get_or_init(|| {
        (0..c.cp_cache.len())
            .map(|_| std::sync::atomic::AtomicU64::new(0))
            .collect()
    });
    match cache[idx as usize].compare_exchange(0, v.slot(), Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => v,
        Err(existing) => from_slot(existing).unwrap_or(v),
    }
}

/// `ldc` of a MethodType or MethodHandle constant (cached per domain).
pub fn ldc(t: &mut JThread, c: &'static Class, idx: u16) -> JResult<Option<ObjRef>> {
    if let Some(v) = cached_constant(t, c, idx) {
        return Ok(Some(v));
    }
    let cp = &c
        .file
        .as_ref()
        .expect("ldc in a class without a class file")
        .constant_pool;
    let v = match cp.get(idx) {
        Some(classfile::Constant::MethodType { descriptor_index }) => {
            let desc = cp.utf8(*descriptor_index).unwrap_or("()V");
            jli::method_type_for(t, c.loader, desc)?
        }
        Some(classfile::Constant::MethodHandle {
            reference_kind,
            reference_index,
        }) => {
            let Some(r) = cp.member_ref(*reference_index) else {
                return Err(t.throw_new(
                    "java/lang/ClassFormatError",
                    Some("bad MethodHandle constant"),
                ));
            };
            let kind = *reference_kind as i32;
            let defc = t.load_class(c.loader, r.class_name)?;
            // The MethodType first: building it runs Java (class loading, mirrors and
            // interning below do not collect, so no reference goes stale after it).
            let ty = if kind <= jli::REF_PUT_STATIC {
                let fc = jli::class_for_descriptor(t, c.loader, r.descriptor)?;
                t.mirror(fc)?
            } else {
                jli::method_type_for(t, c.loader, r.descriptor)?
            };
            let defm = t.mirror(defc)?;
            let caller = t.mirror(c)?;
            let name = t.intern(r.name)?;
            let mh = t.call_static(
                "java/lang/invoke/MethodHandleNatives",
                "linkMethodHandleConstant",
                "(Ljava/lang/Class;ILjava/lang/Class;Ljava/lang/String;Ljava/lang/Object;)Ljava/lang/invoke/MethodHandle;",
                &[caller.slot(), kind as u32 as u64, defm.slot(), name.slot(), ty.slot()],
            )?;
            from_slot(mh).expect("linkMethodHandleConstant returned null")
        }
        _ => {
            let msg = format!(
                "jxvm does not support ldc of constant #{idx} (dynamic constant) in {}",
                c.java_name()
            );
            return Err(t.throw_new("java/lang/InternalError", Some(&msg)));
        }
    };
    Ok(Some(cache_constant(t, c, idx, v)))
}
