//! The interpreter loop: runs a method's [`Op`]s on the thread's slot stack.
//!
//! Exceptions are Rust `Err(Thrown)` with the exception object in `JThread::exception`; each
//! frame searches its handler table and either continues at the handler or returns the error
//! to its caller. Calls recurse on the native stack (the thread's stack is sized for it) and
//! a depth limit turns runaway recursion into a catchable `StackOverflowError`.

use super::frame::{Code, Refused, Slots};
use crate::class::resolve::{self, Resolved, ResolvedField};
use crate::class::{BasicType, Class, Method};
use crate::code::decode::Prepared;
use crate::code::op::Op;
use crate::gc::alloc_at_safepoint;
use crate::heap::{ObjRef, from_slot, to_slot};
use crate::runtime::fields::{load_field, store_field};
use crate::runtime::raw_alloc_array;
use crate::thread::monitor;
use crate::thread::{FrameRec, JResult, JThread, Thrown};
use base::layout::ARRAY_BASE;

#[inline(always)]
fn vi(v: i32) -> u64 {
    v as u32 as u64
}
#[inline(always)]
fn vf(v: f32) -> u64 {
    v.to_bits() as u64
}
#[inline(always)]
fn vd(v: f64) -> u64 {
    v.to_bits()
}
#[inline(always)]
fn ai(v: u64) -> i32 {
    v as i32
}
#[inline(always)]
fn af(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
fn ad(v: u64) -> f64 {
    f64::from_bits(v)
}

/// Calls `m` from Rust with `args` (slot values, receiver first for instance methods).
pub fn call(t: &mut JThread, m: &'static Method, args: &[u64]) -> JResult<u64> {
    let base = t.sp;
    if base + args.len() + 8 > t.stack.len() {
        return Err(t.stack_overflow());
    }
    t.stack[base..base + args.len()].copy_from_slice(args);
    let r = invoke(t, m, base);
    t.sp = base;
    r
}

/// Invokes `m` whose arguments are at `t.stack[base..]`.
pub fn invoke(t: &mut JThread, m: &'static Method, base: usize) -> JResult<u64> {
    if let Some(f) = m.intrinsic {
        return Ok(f(&t.stack[base..base + m.arg_slots as usize]));
    }
    if m.is_native() {
        // The mapped API methods are all natives: the check costs other calls nothing.
        if let Some(p) = m.mapped {
            return super::mapped::run(t, p, base);
        }
        return crate::native::invoke_native(t, m, base);
    }
    if m.is_abstract() {
        let msg = format!(
            "'{}'",
            resolve::pretty_method(m.class, &m.name, &m.descriptor)
        );
        return Err(t.throw_new("java/lang/AbstractMethodError", Some(&msg)));
    }
    execute(t, m, base)
}

fn prepared(t: &mut JThread, m: &'static Method) -> JResult<&'static Prepared> {
    let table = &t.vm.classes;
    let p = m
        .prepared
        .get_or_init(|| match (&m.info.code, &m.class.file) {
            (Some(code), Some(cf)) => {
                crate::code::decode::prepare(code, &cf.constant_pool, |ops| {
                    quicken(ops, m.class, table);
                    if is_object_init(m) && code.max_locals >= 1 {
                        for op in ops.iter_mut().filter(|op| matches!(op, Op::Return)) {
                            *op = Op::ReturnRegister;
                        }
                    }
                })
                .and_then(|p| {
                    crate::code::depth::check(
                        &p,
                        &crate::code::oopmap::MethodOperands {
                            class: m.class,
                            prep: &p,
                        },
                    )?;
                    Ok(p)
                })
            }
            (None, _) => Err(format!(
                "Method {}.{}{} has no code",
                m.class.java_name(),
                m.name,
                m.descriptor
            )),
            (_, None) => Err("method of a class without a class file".into()),
        });
    match p {
        Ok(p) => Ok(p),
        Err(e) => {
            let msg = format!(
                "{} in method {}.{}{}",
                e,
                m.class.java_name(),
                m.name,
                m.descriptor
            );
            Err(t.throw_new("java/lang/VerifyError", Some(&msg)))
        }
    }
}

/// Whether `m` is `java.lang.Object.<init>()`, whose returns register finalizable objects
/// (`Op::ReturnRegister`): HotSpot's `RegisterFinalizersAtInit`, on by default. A constructor
/// runs its superclass's, so every object made by `new` and a constructor (whichever engine,
/// reflection or method handle runs it) passes there once it is fully made; one made without
/// (`Unsafe.allocateInstance`, a constructor that threw before `super()`) is never finalized.
fn is_object_init(m: &Method) -> bool {
    m.class.super_class.is_none()
        && m.class.loader == crate::class::LoaderId::BOOT
        && &*m.class.name == "java/lang/Object"
        && &*m.name == "<init>"
        && &*m.descriptor == "()V"
}

/// Rewrites `getfield`/`putfield` of non-volatile fields that resolve without side effects
/// (the holder is the method's own class or already loaded by its loader) into ops carrying
/// the field's type and offset. The JVM allows resolving early as long as errors surface at
/// first execution, so a reference that would fail or need loading is left as it is.
fn quicken(ops: &mut [Op], class: &'static Class, table: &crate::class::loader::ClassTable) {
    for op in ops.iter_mut() {
        let (Op::GetField(idx) | Op::PutField(idx)) = *op else {
            continue;
        };
        let Some(f) = resolve::resolve_field_if_loaded(table, class, idx) else {
            continue;
        };
        if let Some(quick) = Op::for_field(matches!(op, Op::PutField(_)), &f) {
            *op = quick;
        }
    }
}

/// Finds the handler for the pending exception at op `pc`.
fn find_handler(t: &mut JThread, m: &'static Method, prep: &Prepared, pc: u32) -> Option<u32> {
    let exc = t.exception?;
    if t.in_dead_domain() {
        // A terminated domain's code runs no handler: its threads unwind to their base.
        return None;
    }
    let ec = exc.class();
    for h in prep.handlers.iter() {
        if pc < h.start || pc >= h.end {
            continue;
        }
        if h.catch_type == 0 {
            return Some(h.target);
        }
        let saved = t.exception.take();
        let cc = resolve::resolve_class(&t.vm.classes, m.class, h.catch_type);
        t.exception = saved;
        if let Ok(cc) = cc
            && ec.is_subtype_of(cc)
        {
            return Some(h.target);
        }
    }
    None
}

fn execute(t: &mut JThread, m: &'static Method, bp: usize) -> JResult<u64> {
    let prep = prepared(t, m)?;
    let stack_base = bp + prep.max_locals as usize;
    let frame_end = bp + prep.proven_frame_slots();
    let limit = t.stack_limit();
    let (code, slots) = match super::frame::enter(prep, &mut t.stack, bp, limit) {
        Ok(entered) => entered,
        Err(Refused::Overflow) => return Err(t.stack_overflow()),
        Err(Refused::Unproven) => return Err(unproven(t, m)),
    };
    if t.frames.len() >= t.depth_limit() {
        return Err(t.stack_overflow());
    }
    for s in &mut t.stack[bp + m.arg_slots as usize..stack_base] {
        *s = 0;
    }
    let saved_sp = t.sp;
    let handles_mark = t.handles.len();
    t.sp = frame_end;
    t.frames.push(FrameRec {
        method: m,
        pc: 0,
        bp: bp as u32,
    });
    let fi = t.frames.len() - 1;
    if t.verify_frames_every != 0 {
        t.calls_since_verify += 1;
        if t.calls_since_verify >= t.verify_frames_every {
            t.calls_since_verify = 0;
            if let Err(e) = crate::gc::verify::verify_frames(t) {
                panic!("frame verification failed: {e}");
            }
        }
    }
    let sync_obj = if m.is_synchronized() {
        let o = if m.is_static() {
            match t.mirror(m.class) {
                Ok(o) => o,
                Err(e) => {
                    t.frames.pop();
                    t.sp = saved_sp;
                    return Err(e);
                }
            }
        } else {
            from_slot(t.stack[bp]).expect("null receiver in synchronized method")
        };
        // In a handle before entering: a contended entry blocks, and a collection meanwhile
        // moves the object.
        let h = t.handle(o);
        if let Err(e) = monitor_enter(t, o, fi) {
            t.handles.truncate(handles_mark);
            t.frames.pop();
            t.sp = saved_sp;
            return Err(e);
        }
        Some(h)
    } else {
        None
    };
    let r = t
        .poll_safepoint()
        .and_then(|()| super::tiers::run_method(t, m, prep, code, slots, bp, fi));
    if let Some(h) = sync_obj {
        let o = t.handle_get(h);
        let _ = monitor::unlock(&t.domain, o, t.lock_id.0);
    }
    t.drop_lock_records_from(fi);
    t.handles.truncate(handles_mark);
    t.frames.pop();
    t.sp = saved_sp;
    r
}

/// A method whose code lacks the frame proof or whose frame does not fit reached the loop:
/// a VM bug, reported as an error rather than run unchecked.
#[cold]
fn unproven(t: &mut JThread, m: &'static Method) -> Thrown {
    let msg = format!(
        "{}.{}{}: code without a frame proof",
        m.class.java_name(),
        m.name,
        m.descriptor
    );
    t.throw_new("java/lang/InternalError", Some(&msg))
}

/// Enters `o`'s monitor for frame `fi` (recording which frame holds it); a contended entry
/// blocks as a safepoint-safe operation (and fails once the domain is terminated: the owner
/// may never release it).
#[inline]
fn monitor_enter(t: &mut JThread, o: ObjRef, fi: usize) -> JResult<()> {
    let me = t.lock_id.0;
    t.push_lock_record(fi, o);
    match monitor::try_lock(&t.domain, o, me) {
        Some(mon) => enter_contended(t, o, &mon, fi),
        None => Ok(()),
    }
}

/// `aastore` after the null and bounds checks: the store check, then the store with the
/// write barrier (out of line, to keep the interpreter loop small).
#[inline(never)]
fn store_reference_element(t: &mut JThread, arr: ObjRef, i: usize, v: u64) -> JResult<()> {
    array_store_check(t, arr, from_slot(v))?;
    t.domain.heap.write_slot(arr, ARRAY_BASE + i * 8, v);
    Ok(())
}

/// Waits for a monitor another thread holds, as a safepoint-safe blocking operation.
#[cold]
#[inline(never)]
fn enter_contended(t: &mut JThread, o: ObjRef, mon: &monitor::Monitor, fi: usize) -> JResult<()> {
    use crate::native::thread::{BLOCKED, RUNNABLE, set_current_status};
    set_current_status(t, BLOCKED);
    if !monitor::enter_blocked(t, o, mon) {
        t.drop_lock_records_from(fi);
        return Err(t.die());
    }
    set_current_status(t, RUNNABLE);
    Ok(())
}

#[inline(always)]
fn null_check(t: &mut JThread, v: u64) -> JResult<ObjRef> {
    match from_slot(v) {
        Some(o) => Ok(o),
        None => Err(t.throw_new("java/lang/NullPointerException", None)),
    }
}

/// Whether op index `pc` follows a `jsr` (a place `ret` may go back to).
fn is_return_point(prep: &Prepared, pc: usize) -> bool {
    pc > 0 && matches!(prep.ops.get(pc - 1), Some(Op::Jsr(_)))
}

/// The array and index of an element access that needs no exception (a superinstruction's
/// fast path); `None` for a null array or an index out of bounds.
#[inline(always)]
fn checked_element(array: u64, index: u64) -> Option<(ObjRef, usize)> {
    let i = ai(index) as u32 as usize;
    from_slot(array)
        .filter(|arr| i < arr.array_len())
        .map(|arr| (arr, i))
}

#[inline(always)]
fn array_index(t: &mut JThread, arr: ObjRef, idx: i32) -> JResult<usize> {
    let len = arr.array_len();
    if idx < 0 || idx as usize >= len {
        let msg = format!("Index {idx} out of bounds for length {len}");
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", Some(&msg)));
    }
    Ok(idx as usize)
}

#[inline(always)]
fn static_field(t: &mut JThread, m: &'static Method, idx: u16) -> JResult<(ObjRef, ResolvedField)> {
    if let Some(Resolved::Field(f)) = m.class.cp_cache[idx as usize].get()
        && f.is_static
        && t.domain.is_initialized(f.holder)
        && let Some(mirror) = t.domain.mirror_of(f.holder.id)
    {
        let off = t.vm.wk().statics_base + f.offset;
        return Ok((mirror, ResolvedField { offset: off, ..*f }));
    }
    static_field_slow(t, m, idx)
}

#[cold]
fn static_field_slow(
    t: &mut JThread,
    m: &'static Method,
    idx: u16,
) -> JResult<(ObjRef, ResolvedField)> {
    let f = match resolve::resolve_field(&t.vm.classes, m.class, idx) {
        Ok(f) => f,
        Err(e) => return Err(t.throw_resolve(e)),
    };
    if !f.is_static {
        let msg = format!("Expected static field {}", f.holder.java_name());
        return Err(t.throw_new("java/lang/IncompatibleClassChangeError", Some(&msg)));
    }
    t.ensure_initialized(f.holder)?;
    let mirror = t.mirror(f.holder)?;
    let off = t.vm.wk().statics_base + f.offset;
    Ok((mirror, ResolvedField { offset: off, ..f }))
}

fn instance_field(t: &mut JThread, m: &'static Method, idx: u16) -> JResult<ResolvedField> {
    let f = match resolve::resolve_field(&t.vm.classes, m.class, idx) {
        Ok(f) => f,
        Err(e) => return Err(t.throw_resolve(e)),
    };
    if f.is_static {
        let msg = format!("Expected non-static field {}", f.holder.java_name());
        return Err(t.throw_new("java/lang/IncompatibleClassChangeError", Some(&msg)));
    }
    Ok(f)
}

#[inline(always)]
fn resolve_class(t: &mut JThread, m: &'static Method, idx: u16) -> JResult<&'static Class> {
    if let Some(Resolved::Class(c)) = m.class.cp_cache[idx as usize].get() {
        return Ok(c);
    }
    resolve_class_slow(t, m, idx)
}

#[cold]
fn resolve_class_slow(t: &mut JThread, m: &'static Method, idx: u16) -> JResult<&'static Class> {
    t.resolve_class_ref(m.class, idx)
}

#[inline(always)]
fn resolve_method(
    t: &mut JThread,
    m: &'static Method,
    idx: u16,
) -> JResult<(&'static Method, u32)> {
    if let Some(Resolved::Method { method, sig }) = m.class.cp_cache[idx as usize].get() {
        return Ok((method, *sig));
    }
    resolve_method_slow(t, m, idx)
}

#[cold]
fn resolve_method_slow(
    t: &mut JThread,
    m: &'static Method,
    idx: u16,
) -> JResult<(&'static Method, u32)> {
    match resolve::resolve_method(&t.vm.classes, m.class, idx) {
        Ok(r) => Ok(r),
        Err(e) => Err(t.throw_resolve(e)),
    }
}

/// A signature-polymorphic call (MethodHandle/VarHandle): typed by the call site's descriptor.
fn invoke_polymorphic(
    t: &mut JThread,
    m: &'static Method,
    rm: &'static Method,
    idx: u16,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    let call_desc = m
        .class
        .file
        .as_ref()
        .and_then(|f| f.constant_pool.member_ref(idx))
        .map_or("", |r| r.descriptor);
    crate::invoke::invoke_polymorphic(t, rm, call_desc, sp)
}

/// Selects the target of invokevirtual for receiver class `rc`.
#[inline]
pub(super) fn select_virtual(rc: &'static Class, m: &'static Method, sig: u32) -> &'static Method {
    if m.is_private() || m.access & classfile::access::ACC_FINAL != 0 {
        return m;
    }
    if let Some(vi) = m.vtable_slot()
        && let Some(&sel) = rc.vtable().get(vi as usize)
    {
        return sel;
    }
    rc.dispatch
        .get()
        .and_then(|d| d.itable.get(&sig))
        .copied()
        .unwrap_or(m)
}

/// The target of invokeinterface for receiver class `rc`, if selecting it throws nothing.
pub(super) fn select_interface_quietly(
    rc: &'static Class,
    m: &'static Method,
    sig: u32,
) -> Option<&'static Method> {
    if m.is_private() {
        return Some(m);
    }
    if !m.class.is_interface() && m.vtable_index.get().is_some() {
        return Some(select_virtual(rc, m, sig));
    }
    let sel = rc.dispatch.get().and_then(|d| d.itable.get(&sig)).copied();
    sel.filter(|sel| !sel.is_abstract())
}

fn select_interface(
    t: &mut JThread,
    rc: &'static Class,
    m: &'static Method,
    sig: u32,
) -> JResult<&'static Method> {
    match select_interface_quietly(rc, m, sig) {
        Some(sel) => Ok(sel),
        _ if !rc.is_subtype_of(m.class) => {
            let msg = format!(
                "Class {} does not implement the requested interface {}",
                rc.java_name(),
                m.class.java_name()
            );
            Err(t.throw_new("java/lang/IncompatibleClassChangeError", Some(&msg)))
        }
        _ => {
            let msg = format!(
                "Receiver class {} does not define or inherit an implementation of the resolved method '{}' of interface {}.",
                rc.java_name(),
                format!(
                    "abstract {}",
                    resolve::pretty_method(m.class, &m.name, &m.descriptor)
                )
                .replace(&format!(" {}.", m.class.java_name()), " "),
                m.class.java_name()
            );
            Err(t.throw_new("java/lang/AbstractMethodError", Some(&msg)))
        }
    }
}

fn array_store_check(t: &mut JThread, arr: ObjRef, v: Option<ObjRef>) -> JResult<()> {
    if let Some(v) = v {
        let comp = arr.class().array_component().expect("aastore on non-array");
        if !v.class().is_subtype_of(comp) {
            let msg = v.class().java_name();
            return Err(t.throw_new("java/lang/ArrayStoreException", Some(&msg)));
        }
    }
    Ok(())
}

/// Where [`run`] starts: at op `pc` with the operand stack's top at slot `sp`; with a pending
/// exception it first searches `pc`'s handlers (compiled code left at an op that threw).
#[derive(Clone, Copy, Debug)]
pub(super) struct Start {
    pub pc: usize,
    pub sp: usize,
    pub exception: bool,
}

/// How [`run`] ended, other than by an exception.
pub(super) enum Flow {
    /// The method returned this value.
    Return(u64),
    /// A loop header where the method's compiled code may be entered (on-stack replacement).
    Enter(usize),
    /// One op done (`STEP`).
    Stepped,
}

/// Runs a method's ops in its frame at `bp`, from `start`. With `STEP`, runs the one op at
/// `start.pc` and returns; an exception then goes back to the caller without a handler
/// search (compiled code's generic stub: see `tiers`).
#[allow(clippy::too_many_arguments)]
pub(super) fn run<const STEP: bool>(
    t: &mut JThread,
    m: &'static Method,
    prep: &'static Prepared,
    code: Code<'static>,
    slots: Slots,
    bp: usize,
    fi: usize,
    start: Start,
) -> JResult<Flow> {
    let stack_base = bp + prep.max_locals as usize;
    let mut pc: usize = start.pc;
    let mut sp: usize = start.sp;

    // Frame slots without bounds checks (see `interp::frame`).
    macro_rules! S {
        ($i:expr) => {
            *slots.at($i)
        };
    }
    macro_rules! push {
        ($v:expr) => {{
            let v = $v;
            S!(sp) = v;
            sp += 1;
        }};
    }
    macro_rules! pop {
        () => {{
            sp -= 1;
            S!(sp)
        }};
    }
    macro_rules! sync {
        () => {
            t.frames[fi].pc = (pc - 1) as u32;
        };
    }
    // Evaluates a JResult; on error, dispatches to a handler or leaves the method.
    macro_rules! tri {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(Thrown) if STEP => return Err(Thrown),
                Err(Thrown) => {
                    match find_handler(t, m, prep, (pc - 1) as u32) {
                        Some(h) => {
                            sp = stack_base;
                            let exc = t.exception.take();
                            push!(to_slot(exc));
                            pc = h as usize;
                            continue;
                        }
                        None => return Err(Thrown),
                    }
                }
            }
        };
    }
    macro_rules! throw {
        ($cls:expr, $msg:expr) => {{
            sync!();
            let e: JResult<std::convert::Infallible> = Err(t.throw_new($cls, $msg));
            let never = tri!(e);
            match never {}
        }};
    }
    // The object a field op works on, or a NullPointerException.
    macro_rules! null_checked {
        ($v:expr) => {
            match from_slot($v) {
                Some(o) => o,
                None => throw!("java/lang/NullPointerException", None),
            }
        };
    }
    // aload n; getfield: `$push` pushes the field of the object in local n; a null goes on
    // to the plain getfield, which throws with the exact state.
    macro_rules! load_get_field {
        ($n:expr, |$o:ident| $push:block) => {{
            let v = S!(bp + $n as usize);
            match from_slot(v) {
                Some($o) => {
                    $push
                    pc += 1;
                }
                None => push!(v),
            }
        }};
    }
    // Pushes element `i` of `arr` (bounds already checked), as an xaload of type `ty` would.
    macro_rules! push_element {
        ($ty:expr, $arr:expr, $i:expr) => {{
            let (arr, i) = ($arr, $i);
            match $ty {
                BasicType::Int | BasicType::Float => {
                    push!(arr.read::<u32>(ARRAY_BASE + i * 4) as u64)
                }
                BasicType::Long | BasicType::Double => {
                    push!(arr.read::<u64>(ARRAY_BASE + i * 8));
                    push!(0);
                }
                BasicType::Ref => push!(arr.read::<u64>(ARRAY_BASE + i * 8)),
                BasicType::Byte | BasicType::Boolean => {
                    push!(vi(arr.read::<i8>(ARRAY_BASE + i) as i32))
                }
                BasicType::Char => push!(arr.read::<u16>(ARRAY_BASE + i * 2) as u64),
                BasicType::Short => push!(vi(arr.read::<i16>(ARRAY_BASE + i * 2) as i32)),
                BasicType::Void => unreachable!("void array"),
            }
        }};
    }
    macro_rules! int_binop {
        ($f:expr) => {{
            let b = ai(pop!());
            let a = ai(S!(sp - 1));
            S!(sp - 1) = vi($f(a, b));
        }};
    }
    macro_rules! long_binop {
        ($f:expr) => {{
            let b = S!(sp - 2) as i64;
            let a = S!(sp - 4) as i64;
            S!(sp - 4) = $f(a, b) as u64;
            sp -= 2;
        }};
    }
    macro_rules! float_binop {
        ($f:expr) => {{
            let b = af(pop!());
            let a = af(S!(sp - 1));
            S!(sp - 1) = vf($f(a, b));
        }};
    }
    macro_rules! double_binop {
        ($f:expr) => {{
            let b = ad(S!(sp - 2));
            let a = ad(S!(sp - 4));
            S!(sp - 4) = vd($f(a, b));
            sp -= 2;
        }};
    }
    macro_rules! push_result {
        ($ret:expr, $v:expr) => {{
            let v = $v;
            match $ret {
                BasicType::Void => {}
                BasicType::Long | BasicType::Double => {
                    push!(v);
                    push!(0);
                }
                _ => push!(v),
            }
        }};
    }

    // A backward branch to op `$target` taken: poll for a safepoint, count the loop, and
    // enter compiled code there if the method has it.
    macro_rules! backedge {
        ($target:expr) => {{
            sync!();
            tri!(t.poll_safepoint());
            if !STEP && let Some(flow) = super::tiers::at_backedge(t, m, prep, $target) {
                return Ok(flow);
            }
        }};
    }

    if start.exception {
        // Compiled code left at op `pc`, which threw: search its handlers as `tri!` does.
        match find_handler(t, m, prep, pc as u32) {
            Some(h) => {
                sp = stack_base;
                let exc = t.exception.take();
                push!(to_slot(exc));
                pc = h as usize;
            }
            None => return Err(Thrown),
        }
    }
    let mut stepped = false;
    loop {
        if STEP {
            if stepped {
                return Ok(Flow::Stepped);
            }
            stepped = true;
        }
        let op = code.at(pc);
        pc += 1;
        match *op {
            Op::Nop => {}
            Op::AconstNull => push!(0),
            Op::Iconst(v) => push!(vi(v)),
            Op::Fconst(v) => push!(vf(v)),
            Op::Const2(i) => {
                push!(prep.wide[i as usize]);
                push!(0);
            }
            Op::LdcString(idx) => {
                sync!();
                let s = tri!(t.ldc_string(m.class, idx));
                push!(s.slot());
            }
            Op::LdcClass(idx) => {
                sync!();
                let c = tri!(resolve_class(t, m, idx));
                let mirror = tri!(t.mirror(c));
                push!(mirror.slot());
            }
            Op::LdcOther(idx) => {
                sync!();
                let v = tri!(crate::invoke::ldc_other(t, m.class, idx));
                push!(to_slot(v));
            }
            Op::Load(n) => push!(S!(bp + n as usize)),
            Op::Load2(n) => {
                push!(S!(bp + n as usize));
                push!(0);
            }
            Op::Store(n) => {
                let v = pop!();
                S!(bp + n as usize) = v;
            }
            Op::Store2(n) => {
                sp -= 2;
                S!(bp + n as usize) = S!(sp);
                S!(bp + n as usize + 1) = 0;
            }
            Op::ArrayLoad(ty) => {
                let idx = ai(pop!());
                sync!();
                let a = pop!();
                let arr = tri!(null_check(t, a));
                let i = tri!(array_index(t, arr, idx));
                let v = match ty {
                    BasicType::Int | BasicType::Float => arr.read::<u32>(ARRAY_BASE + i * 4) as u64,
                    BasicType::Long | BasicType::Double => {
                        push!(arr.read::<u64>(ARRAY_BASE + i * 8));
                        push!(0);
                        continue;
                    }
                    BasicType::Ref => arr.read::<u64>(ARRAY_BASE + i * 8),
                    BasicType::Byte | BasicType::Boolean => {
                        vi(arr.read::<i8>(ARRAY_BASE + i) as i32)
                    }
                    BasicType::Char => arr.read::<u16>(ARRAY_BASE + i * 2) as u64,
                    BasicType::Short => vi(arr.read::<i16>(ARRAY_BASE + i * 2) as i32),
                    BasicType::Void => unreachable!("void array"),
                };
                push!(v);
            }
            Op::ArrayStore(ty) => {
                let wide = matches!(ty, BasicType::Long | BasicType::Double);
                if wide {
                    sp -= 1;
                }
                let v = pop!();
                let idx = ai(pop!());
                sync!();
                let a = pop!();
                let arr = tri!(null_check(t, a));
                let i = tri!(array_index(t, arr, idx));
                match ty {
                    BasicType::Int | BasicType::Float => {
                        arr.write::<u32>(ARRAY_BASE + i * 4, v as u32)
                    }
                    BasicType::Long | BasicType::Double => {
                        arr.write::<i64>(ARRAY_BASE + i * 8, v as i64)
                    }
                    BasicType::Ref => tri!(store_reference_element(t, arr, i, v)),
                    BasicType::Byte | BasicType::Boolean => {
                        let b = if arr.class().array_elem() == BasicType::Boolean {
                            v as u8 & 1
                        } else {
                            v as u8
                        };
                        arr.write::<u8>(ARRAY_BASE + i, b)
                    }
                    BasicType::Char | BasicType::Short => {
                        arr.write::<u16>(ARRAY_BASE + i * 2, v as u16)
                    }
                    BasicType::Void => unreachable!("void array"),
                }
            }
            Op::Pop => sp -= 1,
            Op::Pop2 => sp -= 2,
            Op::Dup => {
                let v = S!(sp - 1);
                push!(v);
            }
            Op::DupX1 => {
                let v1 = S!(sp - 1);
                let v2 = S!(sp - 2);
                S!(sp - 2) = v1;
                S!(sp - 1) = v2;
                push!(v1);
            }
            Op::DupX2 => {
                let v1 = S!(sp - 1);
                let v2 = S!(sp - 2);
                let v3 = S!(sp - 3);
                S!(sp - 3) = v1;
                S!(sp - 2) = v3;
                S!(sp - 1) = v2;
                push!(v1);
            }
            Op::Dup2 => {
                let v1 = S!(sp - 1);
                let v2 = S!(sp - 2);
                push!(v2);
                push!(v1);
            }
            Op::Dup2X1 => {
                let v1 = S!(sp - 1);
                let v2 = S!(sp - 2);
                let v3 = S!(sp - 3);
                S!(sp - 3) = v2;
                S!(sp - 2) = v1;
                S!(sp - 1) = v3;
                push!(v2);
                push!(v1);
            }
            Op::Dup2X2 => {
                let v1 = S!(sp - 1);
                let v2 = S!(sp - 2);
                let v3 = S!(sp - 3);
                let v4 = S!(sp - 4);
                S!(sp - 4) = v2;
                S!(sp - 3) = v1;
                S!(sp - 2) = v4;
                S!(sp - 1) = v3;
                push!(v2);
                push!(v1);
            }
            Op::Swap => {
                let (a, b) = (S!(sp - 1), S!(sp - 2));
                S!(sp - 1) = b;
                S!(sp - 2) = a;
            }
            Op::Iadd => int_binop!(|a: i32, b: i32| a.wrapping_add(b)),
            Op::Ladd => long_binop!(|a: i64, b: i64| a.wrapping_add(b)),
            Op::Fadd => float_binop!(|a: f32, b: f32| a + b),
            Op::Dadd => double_binop!(|a: f64, b: f64| a + b),
            Op::Isub => int_binop!(|a: i32, b: i32| a.wrapping_sub(b)),
            Op::Lsub => long_binop!(|a: i64, b: i64| a.wrapping_sub(b)),
            Op::Fsub => float_binop!(|a: f32, b: f32| a - b),
            Op::Dsub => double_binop!(|a: f64, b: f64| a - b),
            Op::Imul => int_binop!(|a: i32, b: i32| a.wrapping_mul(b)),
            Op::Lmul => long_binop!(|a: i64, b: i64| a.wrapping_mul(b)),
            Op::Fmul => float_binop!(|a: f32, b: f32| a * b),
            Op::Dmul => double_binop!(|a: f64, b: f64| a * b),
            Op::Idiv | Op::Irem => {
                if ai(S!(sp - 1)) == 0 {
                    throw!("java/lang/ArithmeticException", Some("/ by zero"));
                }
                if matches!(op, Op::Idiv) {
                    int_binop!(|a: i32, b: i32| a.wrapping_div(b))
                } else {
                    int_binop!(|a: i32, b: i32| a.wrapping_rem(b))
                }
            }
            Op::Ldiv | Op::Lrem => {
                if S!(sp - 2) == 0 {
                    throw!("java/lang/ArithmeticException", Some("/ by zero"));
                }
                if matches!(op, Op::Ldiv) {
                    long_binop!(|a: i64, b: i64| a.wrapping_div(b))
                } else {
                    long_binop!(|a: i64, b: i64| a.wrapping_rem(b))
                }
            }
            Op::Fdiv => float_binop!(|a: f32, b: f32| a / b),
            Op::Ddiv => double_binop!(|a: f64, b: f64| a / b),
            Op::Frem => float_binop!(|a: f32, b: f32| a % b),
            Op::Drem => double_binop!(|a: f64, b: f64| a % b),
            Op::Ineg => S!(sp - 1) = vi(ai(S!(sp - 1)).wrapping_neg()),
            Op::Lneg => S!(sp - 2) = (S!(sp - 2) as i64).wrapping_neg() as u64,
            Op::Fneg => S!(sp - 1) = vf(-af(S!(sp - 1))),
            Op::Dneg => S!(sp - 2) = vd(-ad(S!(sp - 2))),
            Op::Ishl => int_binop!(|a: i32, b: i32| a.wrapping_shl(b as u32 & 31)),
            Op::Ishr => int_binop!(|a: i32, b: i32| a.wrapping_shr(b as u32 & 31)),
            Op::Iushr => int_binop!(|a: i32, b: i32| ((a as u32) >> (b as u32 & 31)) as i32),
            Op::Lshl | Op::Lshr | Op::Lushr => {
                let s = ai(pop!()) as u32 & 63;
                let a = S!(sp - 2) as i64;
                S!(sp - 2) = match op {
                    Op::Lshl => a.wrapping_shl(s) as u64,
                    Op::Lshr => a.wrapping_shr(s) as u64,
                    _ => (a as u64) >> s,
                };
            }
            Op::Iand => int_binop!(|a: i32, b: i32| a & b),
            Op::Land => long_binop!(|a: i64, b: i64| a & b),
            Op::Ior => int_binop!(|a: i32, b: i32| a | b),
            Op::Lor => long_binop!(|a: i64, b: i64| a | b),
            Op::Ixor => int_binop!(|a: i32, b: i32| a ^ b),
            Op::Lxor => long_binop!(|a: i64, b: i64| a ^ b),
            Op::Iinc(n, d) => {
                let i = bp + n as usize;
                S!(i) = vi(ai(S!(i)).wrapping_add(d as i32));
            }
            Op::I2l => {
                let v = ai(S!(sp - 1)) as i64;
                S!(sp - 1) = v as u64;
                push!(0);
            }
            Op::I2f => S!(sp - 1) = vf(ai(S!(sp - 1)) as f32),
            Op::I2d => {
                let v = ai(S!(sp - 1)) as f64;
                S!(sp - 1) = vd(v);
                push!(0);
            }
            Op::L2i => {
                sp -= 1;
                S!(sp - 1) = vi(S!(sp - 1) as i64 as i32);
            }
            Op::L2f => {
                sp -= 1;
                S!(sp - 1) = vf(S!(sp - 1) as i64 as f32);
            }
            Op::L2d => S!(sp - 2) = vd(S!(sp - 2) as i64 as f64),
            Op::F2i => S!(sp - 1) = vi(af(S!(sp - 1)) as i32),
            Op::F2l => {
                let v = af(S!(sp - 1)) as i64;
                S!(sp - 1) = v as u64;
                push!(0);
            }
            Op::F2d => {
                let v = af(S!(sp - 1)) as f64;
                S!(sp - 1) = vd(v);
                push!(0);
            }
            Op::D2i => {
                sp -= 1;
                S!(sp - 1) = vi(ad(S!(sp - 1)) as i32);
            }
            Op::D2l => S!(sp - 2) = ad(S!(sp - 2)) as i64 as u64,
            Op::D2f => {
                sp -= 1;
                S!(sp - 1) = vf(ad(S!(sp - 1)) as f32);
            }
            Op::I2b => S!(sp - 1) = vi(ai(S!(sp - 1)) as i8 as i32),
            Op::I2c => S!(sp - 1) = vi(ai(S!(sp - 1)) as u16 as i32),
            Op::I2s => S!(sp - 1) = vi(ai(S!(sp - 1)) as i16 as i32),
            Op::Lcmp => {
                let b = S!(sp - 2) as i64;
                let a = S!(sp - 4) as i64;
                sp -= 4;
                push!(vi(a.cmp(&b) as i32));
            }
            Op::Fcmpl | Op::Fcmpg => {
                let b = af(pop!());
                let a = af(pop!());
                let r = match a.partial_cmp(&b) {
                    Some(o) => o as i32,
                    None => {
                        if matches!(*op, Op::Fcmpg) {
                            1
                        } else {
                            -1
                        }
                    }
                };
                push!(vi(r));
            }
            Op::Dcmpl | Op::Dcmpg => {
                let b = ad(S!(sp - 2));
                let a = ad(S!(sp - 4));
                sp -= 4;
                let r = match a.partial_cmp(&b) {
                    Some(o) => o as i32,
                    None => {
                        if matches!(*op, Op::Dcmpg) {
                            1
                        } else {
                            -1
                        }
                    }
                };
                push!(vi(r));
            }
            Op::If(c, target) => {
                if c.test(ai(pop!()), 0) {
                    if (target as usize) < pc {
                        backedge!(target as usize);
                    }
                    pc = target as usize;
                }
            }
            Op::IfIcmp(c, target) => {
                let b = ai(pop!());
                let a = ai(pop!());
                if c.test(a, b) {
                    if (target as usize) < pc {
                        backedge!(target as usize);
                    }
                    pc = target as usize;
                }
            }
            Op::IfAcmpEq(target) => {
                let b = pop!();
                let a = pop!();
                if a == b {
                    pc = target as usize;
                }
            }
            Op::IfAcmpNe(target) => {
                let b = pop!();
                let a = pop!();
                if a != b {
                    pc = target as usize;
                }
            }
            Op::IfNull(target) => {
                if pop!() == 0 {
                    pc = target as usize;
                }
            }
            Op::IfNonNull(target) => {
                if pop!() != 0 {
                    pc = target as usize;
                }
            }
            Op::Goto(target) => {
                if (target as usize) < pc {
                    backedge!(target as usize);
                }
                pc = target as usize
            }
            Op::Jsr(target) => {
                push!(pc as u64);
                pc = target as usize;
            }
            Op::Ret(n) => {
                // The local holds a return address only in verified code. The frame proof
                // covers return points (the ops after a jsr) at this ret's depth, so anything
                // else goes to the final FellOff op, which throws VerifyError.
                pc = S!(bp + n as usize) as usize;
                if !is_return_point(prep, pc) {
                    pc = code.last();
                }
            }
            Op::TableSwitch(i) => {
                let sw = &prep.switches[i as usize];
                let k = ai(pop!()) as i64 - sw.low as i64;
                pc = if k >= 0 && (k as usize) < sw.dense.len() {
                    sw.dense[k as usize]
                } else {
                    sw.default
                } as usize;
            }
            Op::LookupSwitch(i) => {
                let sw = &prep.switches[i as usize];
                let k = ai(pop!());
                pc = match sw.pairs.binary_search_by_key(&k, |p| p.0) {
                    Ok(j) => sw.pairs[j].1,
                    Err(_) => sw.default,
                } as usize;
            }
            Op::Return1 => return Ok(Flow::Return(S!(sp - 1))),
            Op::Return2 => return Ok(Flow::Return(S!(sp - 2))),
            Op::Return => return Ok(Flow::Return(0)),
            Op::ReturnRegister => {
                if let Some(o) = from_slot(S!(bp))
                    && o.class().finalizable
                {
                    sync!();
                    tri!(t.register_finalizer(o));
                }
                return Ok(Flow::Return(0));
            }
            Op::GetStatic(idx) => {
                sync!();
                let (mirror, f) = tri!(static_field(t, m, idx));
                let v = load_field(mirror, f.offset as usize, f.ty, f.volatile);
                push_result!(f.ty, v);
            }
            Op::PutStatic(idx) => {
                sync!();
                let (mirror, f) = tri!(static_field(t, m, idx));
                if f.ty.slots() == 2 {
                    sp -= 1;
                }
                let v = pop!();
                store_field(
                    &t.domain.heap,
                    mirror,
                    f.offset as usize,
                    f.ty,
                    f.volatile,
                    v,
                );
            }
            Op::GetField(idx) => {
                let f = match m.class.cp_cache[idx as usize].get() {
                    Some(Resolved::Field(f)) if !f.is_static => *f,
                    _ => {
                        sync!();
                        tri!(instance_field(t, m, idx))
                    }
                };
                if f.place.is_some() {
                    sync!();
                    let o = null_checked!(S!(sp - 1));
                    let v = tri!(crate::pso::get_field(t, o, &f));
                    sp -= 1;
                    push_result!(f.ty, v);
                    continue;
                }
                let o = pop!();
                let o = match from_slot(o) {
                    Some(o) => o,
                    None => throw!("java/lang/NullPointerException", None),
                };
                let v = load_field(o, f.offset as usize, f.ty, f.volatile);
                push_result!(f.ty, v);
            }
            Op::PutField(idx) => {
                let f = match m.class.cp_cache[idx as usize].get() {
                    Some(Resolved::Field(f)) if !f.is_static => *f,
                    _ => {
                        sync!();
                        tri!(instance_field(t, m, idx))
                    }
                };
                if f.place.is_some() {
                    sync!();
                    let n = f.ty.slots();
                    let v = S!(sp - n);
                    let o = null_checked!(S!(sp - n - 1));
                    tri!(crate::pso::put_field(t, o, &f, v));
                    sp -= n + 1;
                    continue;
                }
                if f.ty.slots() == 2 {
                    sp -= 1;
                }
                let v = pop!();
                let o = pop!();
                let o = match from_slot(o) {
                    Some(o) => o,
                    None => throw!("java/lang/NullPointerException", None),
                };
                store_field(&t.domain.heap, o, f.offset as usize, f.ty, f.volatile, v);
            }
            Op::GetFieldInt(off) => {
                let o = null_checked!(S!(sp - 1));
                S!(sp - 1) = o.read::<u32>(off as usize) as u64;
            }
            Op::GetFieldWide(off) => {
                let o = null_checked!(S!(sp - 1));
                S!(sp - 1) = o.read::<u64>(off as usize);
                push!(0);
            }
            Op::GetFieldRef(off) => {
                let o = null_checked!(S!(sp - 1));
                S!(sp - 1) = o.read::<u64>(off as usize);
            }
            Op::GetFieldQ(ty, off) => {
                let o = null_checked!(S!(sp - 1));
                S!(sp - 1) = crate::runtime::fields::load_plain(o, off as usize, ty);
            }
            Op::PsoGet(ty, place) => {
                sync!();
                let o = null_checked!(S!(sp - 1));
                S!(sp - 1) = tri!(crate::pso::load(t, o, ty, place));
                if ty.slots() == 2 {
                    push!(0);
                }
            }
            Op::PsoPut(ty, place) => {
                sync!();
                let n = ty.slots();
                let o = null_checked!(S!(sp - n - 1));
                tri!(crate::pso::store(t, o, ty, place, S!(sp - n)));
                sp -= n + 1;
            }
            Op::PutFieldInt(off) => {
                let o = null_checked!(S!(sp - 2));
                o.write::<u32>(off as usize, S!(sp - 1) as u32);
                sp -= 2;
            }
            Op::PutFieldWide(off) => {
                let o = null_checked!(S!(sp - 3));
                o.write::<i64>(off as usize, S!(sp - 2) as i64);
                sp -= 3;
            }
            Op::PutFieldRef(off) => {
                let o = null_checked!(S!(sp - 2));
                t.domain.heap.write_slot(o, off as usize, S!(sp - 1));
                sp -= 2;
            }
            Op::PutFieldQ(ty, off) => {
                let o = null_checked!(S!(sp - 2));
                crate::runtime::fields::store_plain(
                    &t.domain.heap,
                    o,
                    off as usize,
                    ty,
                    S!(sp - 1),
                );
                sp -= 2;
            }
            // `fuse` gives every invokevirtual of the executable ops an inline cache.
            Op::InvokeVirtual(_) => unreachable!("invokevirtual without an inline cache"),
            Op::InvokeVirtualIC(idx, site) => {
                sync!();
                let (rm, sig) = tri!(resolve_method(t, m, idx));
                if rm.is_signature_polymorphic() {
                    let (v, ret, nslots) = tri!(invoke_polymorphic(t, m, rm, idx, sp));
                    sp -= nslots;
                    push_result!(ret, v);
                    continue;
                }
                let n = rm.arg_slots as usize;
                let recv = S!(sp - n);
                let recv = match from_slot(recv) {
                    Some(o) => o,
                    None => throw!("java/lang/NullPointerException", None),
                };
                let rc = recv.class();
                let target = select_virtual(rc, rm, sig);
                // The profile compiled code checks for: the receiver classes seen.
                let cache = &prep.icache[site as usize];
                if cache.lookup(rc).is_none() {
                    cache.insert(rc, target);
                }
                let v = tri!(invoke(t, target, sp - n));
                sp -= n;
                push_result!(rm.ret, v);
            }
            Op::InvokeSpecial(idx) => {
                sync!();
                let (rm, _) = tri!(resolve_method(t, m, idx));
                let n = rm.arg_slots as usize;
                if S!(sp - n) == 0 {
                    throw!("java/lang/NullPointerException", None);
                }
                let target = resolve::select_special(m.class, rm);
                let v = tri!(invoke(t, target, sp - n));
                sp -= n;
                push_result!(rm.ret, v);
            }
            Op::InvokeStatic(idx) => {
                sync!();
                let (rm, _) = tri!(resolve_method(t, m, idx));
                if let Some(f) = rm.intrinsic {
                    // A pure primitive: no frame, no class initialization needed.
                    let n = rm.arg_slots as usize;
                    let v = f(&t.stack[sp - n..sp]);
                    sp -= n;
                    push_result!(rm.ret, v);
                    continue;
                }
                if rm.is_signature_polymorphic() {
                    let (v, ret, nslots) = tri!(invoke_polymorphic(t, m, rm, idx, sp));
                    sp -= nslots;
                    push_result!(ret, v);
                    continue;
                }
                if !rm.is_static() {
                    let msg = format!(
                        "Expected static method '{}'",
                        resolve::pretty_method(rm.class, &rm.name, &rm.descriptor)
                    );
                    throw!("java/lang/IncompatibleClassChangeError", Some(&msg));
                }
                tri!(t.ensure_initialized(rm.class));
                let n = rm.arg_slots as usize;
                let v = tri!(invoke(t, rm, sp - n));
                sp -= n;
                push_result!(rm.ret, v);
            }
            // `fuse` gives every invokeinterface of the executable ops an inline cache.
            Op::InvokeInterface(_) => unreachable!("invokeinterface without an inline cache"),
            Op::InvokeInterfaceIC(idx, site) => {
                sync!();
                let (rm, sig) = tri!(resolve_method(t, m, idx));
                let n = rm.arg_slots as usize;
                let recv = match from_slot(S!(sp - n)) {
                    Some(o) => o,
                    None => throw!("java/lang/NullPointerException", None),
                };
                let rc = recv.class();
                let cache = &prep.icache[site as usize];
                let target = match cache.lookup(rc) {
                    Some(target) => target,
                    None => {
                        let target = tri!(select_interface(t, rc, rm, sig));
                        cache.insert(rc, target);
                        target
                    }
                };
                let v = tri!(invoke(t, target, sp - n));
                sp -= n;
                push_result!(rm.ret, v);
            }
            Op::InvokeDynamic(site) => {
                sync!();
                let (v, ret, nslots) = tri!(crate::invoke::invokedynamic(
                    t,
                    m,
                    &prep.indy[site as usize],
                    sp
                ));
                sp -= nslots;
                push_result!(ret, v);
            }
            Op::New(idx) => {
                sync!();
                let c = tri!(resolve_class(t, m, idx));
                if c.is_interface() || c.is_abstract() {
                    let name = c.java_name();
                    throw!("java/lang/InstantiationError", Some(&name));
                }
                tri!(t.ensure_initialized(c));
                let size = c.instance_size as usize;
                let o = tri!(alloc_at_safepoint(t, size, |h, tlab| h.alloc_local(tlab, c, size)));
                push!(o.slot());
            }
            Op::NewArray(ty) => {
                sync!();
                let len = ai(S!(sp - 1));
                sp -= 1;
                let ac = tri!(t.array_class_of(t.vm.classes.primitive(ty)));
                let size = tri!(t.array_size(ac, len));
                let a = tri!(alloc_at_safepoint(t, size, |h, tlab| raw_alloc_array(
                    h, tlab, ac, len, size
                )));
                push!(a.slot());
            }
            Op::ANewArray(idx) => {
                sync!();
                let len = ai(S!(sp - 1));
                let c = tri!(resolve_class(t, m, idx));
                sp -= 1;
                let ac = tri!(t.array_class_of(c));
                let size = tri!(t.array_size(ac, len));
                let a = tri!(alloc_at_safepoint(t, size, |h, tlab| raw_alloc_array(
                    h, tlab, ac, len, size
                )));
                push!(a.slot());
            }
            Op::ArrayLength => {
                let a = pop!();
                let a = match from_slot(a) {
                    Some(a) => a,
                    None => throw!("java/lang/NullPointerException", None),
                };
                push!(vi(a.array_len() as i32));
            }
            Op::Athrow => {
                let e = pop!();
                let e = match from_slot(e) {
                    Some(e) => e,
                    None => throw!("java/lang/NullPointerException", None),
                };
                sync!();
                t.exception = Some(e);
                let r: JResult<()> = Err(Thrown);
                tri!(r);
            }
            Op::CheckCast(idx) => {
                if let Some(o) = from_slot(S!(sp - 1)) {
                    sync!();
                    let c = tri!(resolve_class(t, m, idx));
                    if !o.class().is_subtype_of(c) {
                        let msg = crate::runtime::class_cast_message(o.class(), c);
                        throw!("java/lang/ClassCastException", Some(&msg));
                    }
                }
            }
            Op::InstanceOf(idx) => {
                let o = pop!();
                let r = match from_slot(o) {
                    Some(o) => {
                        sync!();
                        let c = tri!(resolve_class(t, m, idx));
                        o.class().is_subtype_of(c) as i32
                    }
                    None => 0,
                };
                push!(vi(r));
            }
            Op::MonitorEnter => {
                let o = pop!();
                let o = match from_slot(o) {
                    Some(o) => o,
                    None => throw!("java/lang/NullPointerException", None),
                };
                // While it blocks, the frame is at the next instruction, as HotSpot's
                // interpreter has it (stack traces show the line after the monitorenter).
                t.frames[fi].pc = pc as u32;
                tri!(monitor_enter(t, o, fi));
            }
            Op::MonitorExit => {
                let o = pop!();
                let o = match from_slot(o) {
                    Some(o) => o,
                    None => throw!("java/lang/NullPointerException", None),
                };
                if monitor::unlock(&t.domain, o, t.lock_id.0).is_err() {
                    throw!("java/lang/IllegalMonitorStateException", None);
                }
                t.pop_lock_record(fi, o);
            }
            Op::LoadLoad(a, b) => {
                push!(S!(bp + a as usize));
                push!(S!(bp + b as usize));
                pc += 1;
            }
            Op::StoreLoad(a, b) => {
                S!(bp + a as usize) = S!(sp - 1);
                S!(sp - 1) = S!(bp + b as usize);
                pc += 1;
            }
            Op::ArrayLoadLL(ty, a, i) => {
                let (av, iv) = (S!(bp + a as usize), S!(bp + i as usize));
                match checked_element(av, iv) {
                    Some((arr, i)) => {
                        push_element!(ty, arr, i);
                        pc += 2;
                    }
                    // Null or out of bounds: the plain xaload throws with the exact state.
                    None => {
                        push!(av);
                        push!(iv);
                        pc += 1;
                    }
                }
            }
            Op::ArrayLoadL(ty, n) => {
                let (av, iv) = (S!(sp - 1), S!(bp + n as usize));
                match checked_element(av, iv) {
                    Some((arr, i)) => {
                        sp -= 1;
                        push_element!(ty, arr, i);
                        pc += 1;
                    }
                    None => push!(iv),
                }
            }
            Op::Dup2ArrayLoad(ty) => {
                let (av, iv) = (S!(sp - 2), S!(sp - 1));
                match checked_element(av, iv) {
                    Some((arr, i)) => {
                        push_element!(ty, arr, i);
                        pc += 1;
                    }
                    None => {
                        push!(av);
                        push!(iv);
                    }
                }
            }
            Op::AddConst(k) => {
                S!(sp - 1) = vi(ai(S!(sp - 1)).wrapping_add(k));
                pc += 1;
            }
            Op::Store2Load2(a, b) => {
                S!(bp + a as usize) = S!(sp - 2);
                S!(bp + a as usize + 1) = 0;
                S!(sp - 2) = S!(bp + b as usize);
                S!(sp - 1) = 0;
                pc += 1;
            }
            Op::LoadGetFieldInt(n, off) => {
                load_get_field!(n, |o| { push!(o.read::<u32>(off as usize) as u64) })
            }
            Op::LoadGetFieldWide(n, off) => load_get_field!(n, |o| {
                push!(o.read::<u64>(off as usize));
                push!(0);
            }),
            Op::LoadGetFieldRef(n, off) => {
                load_get_field!(n, |o| { push!(o.read::<u64>(off as usize)) })
            }
            Op::IfIcmpLL(c, a, b, target) => {
                if c.test(ai(S!(bp + a as usize)), ai(S!(bp + b as usize))) {
                    if (target as usize) < pc {
                        backedge!(target as usize);
                    }
                    pc = target as usize;
                } else {
                    pc += 2;
                }
            }
            Op::IincGoto(n, d, target) => {
                let i = bp + n as usize;
                S!(i) = vi(ai(S!(i)).wrapping_add(d as i32));
                // `fuse` makes one only of a backward goto.
                backedge!(target as usize);
                pc = target as usize;
            }
            Op::LoadAddConst(n, k) => {
                push!(vi(ai(S!(bp + n as usize)).wrapping_add(k)));
                pc += 2;
            }
            Op::DaddL(n) => {
                S!(sp - 2) = vd(ad(S!(sp - 2)) + ad(S!(bp + n as usize)));
                pc += 1;
            }
            Op::DsubL(n) => {
                S!(sp - 2) = vd(ad(S!(sp - 2)) - ad(S!(bp + n as usize)));
                pc += 1;
            }
            Op::DmulL(n) => {
                S!(sp - 2) = vd(ad(S!(sp - 2)) * ad(S!(bp + n as usize)));
                pc += 1;
            }
            Op::FellOff => throw!(
                "java/lang/VerifyError",
                Some("Falling off the end of the code")
            ),
            Op::MultiANewArray(idx, dims) => {
                sync!();
                let c = tri!(resolve_class(t, m, idx));
                let n = dims as usize;
                let lens: Vec<i32> = t.stack[sp - n..sp].iter().map(|&v| ai(v)).collect();
                tri!(crate::gc::poll_alloc(
                    t,
                    crate::gc::array_bytes(BasicType::Ref, lens[0])
                ));
                sp -= n;
                let a = tri!(t.multi_array(c, &lens));
                push!(a.slot());
            }
        }
    }
}
