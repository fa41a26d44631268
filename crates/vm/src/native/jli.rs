//! Natives of java.lang.invoke: `MethodHandleNatives` (member resolution for method handles
//! and var handles), hidden-class definition for `Lookup.defineHiddenClass`, and the field
//! offsets and descriptor helpers shared with [`crate::invoke::handles`] and
//! [`crate::invoke::varhandle`].
//!
//! A resolved `java.lang.invoke.MemberName` carries two VM slots after its Java fields (added by
//! `layout_fields`): `vmtarget` — the `&'static Method` of a method or constructor, or the
//! `&'static Class` holding a field — and `vmindex` — the field offset (for static fields, the
//! offset inside the holder's mirror, so `staticFieldBase` is the mirror). `ResolvedMethodName`
//! is not used: `MemberName.method` stays null.
//!
//! `resolve` follows HotSpot: the reference kind of a field follows the field found, an
//! interface reference to an Object method becomes `invokeVirtual`, JVM access rules are
//! checked against a non-null caller (a failure is an IllegalAccessError, which the JDK turns
//! into IllegalAccessException), and `@CallerSensitive` JDK methods get
//! `MN_CALLER_SENSITIVE` so the JDK binds their caller. Hidden classes get HotSpot's
//! `name/0x...` names; their frames, and frames of `@Hidden` JDK methods (LambdaForms), are
//! left out of stack traces ([`is_hidden_frame`]).

use std::sync::OnceLock;

use super::{Registry, jint, nonnull, obj};
use crate::class::resolve::{find_field, lookup_interface_method, lookup_method};
use crate::class::{BasicType, Class, ClassKind, Field, LoaderId, Method};
use crate::heap::{ObjRef, to_slot};
use crate::thread::{JResult, JThread};
use base::layout::ARRAY_BASE;

/// `ClassLoader.defineClass0` flag: define a hidden class.
pub const HIDDEN_CLASS: i32 = 0x2;
/// `MethodHandleNatives.Constants.STRONG_LOADER_LINK`: the hidden class lives as long as its
/// loader (without it, it goes once unreachable).
const STRONG_LOADER_LINK: i32 = 0x4;

pub const MN_IS_METHOD: i32 = 0x0001_0000;
pub const MN_IS_CONSTRUCTOR: i32 = 0x0002_0000;
pub const MN_IS_FIELD: i32 = 0x0004_0000;
pub const MN_CALLER_SENSITIVE: i32 = 0x0010_0000;
pub const MN_TRUSTED_FINAL: i32 = 0x0020_0000;
pub const MN_REFERENCE_KIND_SHIFT: i32 = 24;
pub const MN_REFERENCE_KIND_MASK: i32 = 0xf;

pub const REF_GET_FIELD: i32 = 1;
pub const REF_GET_STATIC: i32 = 2;
pub const REF_PUT_FIELD: i32 = 3;
pub const REF_PUT_STATIC: i32 = 4;
pub const REF_INVOKE_VIRTUAL: i32 = 5;
pub const REF_INVOKE_STATIC: i32 = 6;
pub const REF_INVOKE_SPECIAL: i32 = 7;
#[allow(dead_code)] // the JVMS's table of kinds, whole; jxvm has no use for this one
pub const REF_NEW_INVOKE_SPECIAL: i32 = 8;
pub const REF_INVOKE_INTERFACE: i32 = 9;

const RECOGNIZED_METHOD_MODIFIERS: i32 = 0x1dff;
const RECOGNIZED_FIELD_MODIFIERS: i32 = 0x50df;

/// Field offsets of the java.lang.invoke classes the VM reads directly.
pub struct Offsets {
    pub mn_clazz: usize,
    pub mn_name: usize,
    pub mn_type: usize,
    pub mn_flags: usize,
    pub mn_vmtarget: usize,
    pub mn_vmindex: usize,
    pub mh_type: usize,
    pub mh_form: usize,
    pub mh_as_type_cache: usize,
    pub lf_vmentry: usize,
    pub mt_class: &'static Class,
    pub mt_rtype: usize,
    pub mt_ptypes: usize,
    pub class_class_data: usize,
    pub callsite_target: usize,
}

static OFFSETS: OnceLock<Offsets> = OnceLock::new();

fn field_offset(t: &mut JThread, c: &'static Class, name: &str) -> JResult<usize> {
    match c.instance_field(name) {
        Some(f) => Ok(f.offset as usize),
        None => {
            let msg = format!("jxvm: no field {}.{name}", c.java_name());
            Err(t.throw_new("java/lang/InternalError", Some(&msg)))
        }
    }
}

/// The offsets, computed on first use (the classes are boot classes shared by every domain).
pub fn offsets(t: &mut JThread) -> JResult<&'static Offsets> {
    if let Some(o) = OFFSETS.get() {
        return Ok(o);
    }
    let mn = t.load_boot("java/lang/invoke/MemberName")?;
    let mh = t.load_boot("java/lang/invoke/MethodHandle")?;
    let lf = t.load_boot("java/lang/invoke/LambdaForm")?;
    let mt = t.load_boot("java/lang/invoke/MethodType")?;
    let cs = t.load_boot("java/lang/invoke/CallSite")?;
    let class = t.vm.wk().class;
    let o = Offsets {
        mn_clazz: field_offset(t, mn, "clazz")?,
        mn_name: field_offset(t, mn, "name")?,
        mn_type: field_offset(t, mn, "type")?,
        mn_flags: field_offset(t, mn, "flags")?,
        mn_vmtarget: mn.instance_size as usize - 16,
        mn_vmindex: mn.instance_size as usize - 8,
        mh_type: field_offset(t, mh, "type")?,
        mh_form: field_offset(t, mh, "form")?,
        mh_as_type_cache: field_offset(t, mh, "asTypeCache")?,
        lf_vmentry: field_offset(t, lf, "vmentry")?,
        mt_class: mt,
        mt_rtype: field_offset(t, mt, "rtype")?,
        mt_ptypes: field_offset(t, mt, "ptypes")?,
        class_class_data: field_offset(t, class, "classData")?,
        callsite_target: field_offset(t, cs, "target")?,
    };
    let _ = OFFSETS.set(o);
    Ok(OFFSETS.get().expect("offsets just set"))
}

// ---- MemberName VM slots ----

/// The method or constructor a resolved MemberName stands for.
#[allow(unsafe_code)]
pub fn member_method(o: &Offsets, mn: ObjRef) -> Option<&'static Method> {
    if mn.read::<i32>(o.mn_flags) & (MN_IS_METHOD | MN_IS_CONSTRUCTOR) == 0 {
        return None;
    }
    let p = mn.read::<u64>(o.mn_vmtarget) as *const Method;
    // SAFETY: only `set_method_target` writes method targets, with pointers to methods of
    // leaked classes; a MemberName of a method whose slot was never set reads 0.
    unsafe { p.as_ref() }
}

fn set_method_target(o: &Offsets, mn: ObjRef, m: &'static Method) {
    mn.write_word(o.mn_vmtarget, m as *const Method as usize);
    mn.write::<i64>(o.mn_vmindex, m.vtable_index.get().map_or(-1, |&v| v as i64));
}

#[allow(unsafe_code)]
fn member_field_holder(o: &Offsets, mn: ObjRef) -> Option<&'static Class> {
    if mn.read::<i32>(o.mn_flags) & MN_IS_FIELD == 0 {
        return None;
    }
    let p = mn.read::<u64>(o.mn_vmtarget) as *const Class;
    // SAFETY: only `set_field_target` writes field targets: pointers to leaked classes.
    unsafe { p.as_ref() }
}

fn set_field_target(t: &JThread, o: &Offsets, mn: ObjRef, holder: &'static Class, f: &Field) {
    mn.write_word(o.mn_vmtarget, holder as *const Class as usize);
    let off = if f.is_static() {
        t.vm.wk().statics_base + f.offset
    } else {
        f.offset
    };
    mn.write::<i64>(o.mn_vmindex, off as i64);
}

// ---- descriptors ----

/// The field descriptor of a class: "I", "[J", "Ljava/lang/String;".
pub fn class_descriptor(c: &Class) -> String {
    match c.kind {
        ClassKind::Primitive(ty) => ty.descriptor_char().to_string(),
        ClassKind::Array { .. } => c.name.to_string(),
        ClassKind::Instance => format!("L{};", c.name),
    }
}

/// Whether field descriptor `d` names class `c`.
pub fn class_matches_descriptor(c: &Class, d: &str) -> bool {
    match c.kind {
        ClassKind::Primitive(ty) => d.len() == 1 && d.as_bytes()[0] as char == ty.descriptor_char(),
        ClassKind::Array { .. } => *c.name == *d,
        ClassKind::Instance => {
            d.len() == c.name.len() + 2
                && d.starts_with('L')
                && d.ends_with(';')
                && d[1..d.len() - 1] == *c.name
        }
    }
}

/// The method descriptor of a java.lang.invoke.MethodType.
pub fn method_type_descriptor(t: &JThread, o: &Offsets, mt: ObjRef) -> String {
    let mut s = String::from("(");
    if let Some(pt) = mt.read_ref(o.mt_ptypes) {
        for i in 0..pt.array_len() {
            if let Some(m) = pt.read_ref(ARRAY_BASE + i * 8) {
                s.push_str(&class_descriptor(t.class_of_mirror(m)));
            }
        }
    }
    s.push(')');
    if let Some(r) = mt.read_ref(o.mt_rtype) {
        s.push_str(&class_descriptor(t.class_of_mirror(r)));
    }
    s
}

/// Whether MethodType `mt` has exactly the method descriptor `desc` (no allocation).
pub fn method_type_matches(t: &JThread, o: &Offsets, mt: ObjRef, desc: &str) -> bool {
    let b = desc.as_bytes();
    let Some(pt) = mt.read_ref(o.mt_ptypes) else {
        return false;
    };
    let n = pt.array_len();
    let mut k = 0;
    for p in crate::class::param_descriptors(desc) {
        if k >= n {
            return false;
        }
        let Some(m) = pt.read_ref(ARRAY_BASE + k * 8) else {
            return false;
        };
        if !class_matches_descriptor(t.class_of_mirror(m), p) {
            return false;
        }
        k += 1;
    }
    if k != n || !b.contains(&b')') {
        return false;
    }
    match mt.read_ref(o.mt_rtype) {
        Some(r) => {
            class_matches_descriptor(t.class_of_mirror(r), crate::class::return_descriptor(desc))
        }
        None => false,
    }
}

/// The descriptor held by a MemberName's `type` (MethodType, Class or String).
fn member_type_descriptor(t: &JThread, o: &Offsets, ty: ObjRef) -> Option<String> {
    let c = ty.class();
    if std::ptr::eq(c, o.mt_class) {
        Some(method_type_descriptor(t, o, ty))
    } else if std::ptr::eq(c, t.vm.wk().class) {
        Some(class_descriptor(t.class_of_mirror(ty)))
    } else if std::ptr::eq(c, t.vm.wk().string) {
        Some(t.rust_string(ty))
    } else {
        None
    }
}

/// The Class for field descriptor `d`, loaded through `loader`.
pub fn class_for_descriptor(t: &mut JThread, loader: LoaderId, d: &str) -> JResult<&'static Class> {
    match d.as_bytes()[0] {
        b'L' => t.load_class(loader, &d[1..d.len() - 1]),
        b'[' => t.load_class(loader, d),
        c => Ok(t.vm.classes.primitive(BasicType::from_descriptor_char(c))),
    }
}

/// A MethodType for method descriptor `desc`, its classes loaded through `loader`.
pub fn method_type_for(t: &mut JThread, loader: LoaderId, desc: &str) -> JResult<ObjRef> {
    let (params, ret) = super::reflect::split_method_descriptor(desc);
    // Classes first (a failed load throws, which runs Java), then the mirrors and the array
    // (VM allocations, which do not collect).
    let rc = class_for_descriptor(t, loader, ret)?;
    let mut pcs = Vec::with_capacity(params.len());
    for p in params.iter() {
        pcs.push(class_for_descriptor(t, loader, p)?);
    }
    let rm = t.mirror(rc)?;
    let cc = t.vm.wk().class;
    let arr = t.new_array_of(cc, pcs.len() as i32)?;
    for (i, &pc) in pcs.iter().enumerate() {
        let pm = t.mirror(pc)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(pm));
    }
    let r = t.call_static(
        "java/lang/invoke/MethodHandleNatives",
        "findMethodHandleType",
        "(Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;",
        &[rm.slot(), arr.slot()],
    )?;
    Ok(obj(r).expect("findMethodHandleType returned null"))
}

// ---- natives ----

pub fn register(r: &mut Registry) {
    let mhn = "java/lang/invoke/MethodHandleNatives";
    r.add(
        mhn,
        "init",
        "(Ljava/lang/invoke/MemberName;Ljava/lang/Object;)V",
        mhn_init,
    );
    r.add(
        mhn,
        "expand",
        "(Ljava/lang/invoke/MemberName;)V",
        mhn_expand,
    );
    r.add(
        mhn,
        "resolve",
        "(Ljava/lang/invoke/MemberName;Ljava/lang/Class;IZ)Ljava/lang/invoke/MemberName;",
        mhn_resolve,
    );
    r.add(
        mhn,
        "objectFieldOffset",
        "(Ljava/lang/invoke/MemberName;)J",
        mhn_field_offset,
    );
    r.add(
        mhn,
        "staticFieldOffset",
        "(Ljava/lang/invoke/MemberName;)J",
        mhn_field_offset,
    );
    r.add(
        mhn,
        "staticFieldBase",
        "(Ljava/lang/invoke/MemberName;)Ljava/lang/Object;",
        mhn_static_field_base,
    );
    r.add(
        mhn,
        "getMemberVMInfo",
        "(Ljava/lang/invoke/MemberName;)Ljava/lang/Object;",
        mhn_get_member_vm_info,
    );
    r.add(mhn, "getNamedCon", "(I[Ljava/lang/Object;)I", |_, _| Ok(0));
    r.add(
        mhn,
        "setCallSiteTargetNormal",
        "(Ljava/lang/invoke/CallSite;Ljava/lang/invoke/MethodHandle;)V",
        set_call_site_target,
    );
    r.add(
        mhn,
        "setCallSiteTargetVolatile",
        "(Ljava/lang/invoke/CallSite;Ljava/lang/invoke/MethodHandle;)V",
        set_call_site_target,
    );
    r.add(
        mhn,
        "clearCallSiteContext",
        "(Ljava/lang/invoke/MethodHandleNatives$CallSiteContext;)V",
        |_, _| Ok(0),
    );
    r.add(mhn, "copyOutBootstrapArguments", "", |t, _| {
        Err(t.throw_new(
            "java/lang/InternalError",
            Some("jxvm does not support copyOutBootstrapArguments"),
        ))
    });
    r.add(mhn, "getMembers", "", |t, _| {
        Err(t.throw_new(
            "java/lang/InternalError",
            Some("jxvm does not support MethodHandleNatives.getMembers"),
        ))
    });

    // Signature-polymorphic methods reached reflectively (invokes go through invoke_polymorphic).
    for name in [
        "invokeExact",
        "invoke",
        "invokeBasic",
        "linkToVirtual",
        "linkToStatic",
        "linkToSpecial",
        "linkToInterface",
        "linkToNative",
    ] {
        r.add(
            "java/lang/invoke/MethodHandle",
            name,
            "",
            reflective_polymorphic,
        );
    }
    for name in VARHANDLE_ACCESS_MODES {
        r.add(
            "java/lang/invoke/VarHandle",
            name,
            "",
            reflective_polymorphic,
        );
    }
}

pub const VARHANDLE_ACCESS_MODES: [&str; 31] = [
    "get",
    "set",
    "getVolatile",
    "setVolatile",
    "getAcquire",
    "setRelease",
    "getOpaque",
    "setOpaque",
    "compareAndSet",
    "compareAndExchange",
    "compareAndExchangeAcquire",
    "compareAndExchangeRelease",
    "weakCompareAndSetPlain",
    "weakCompareAndSet",
    "weakCompareAndSetAcquire",
    "weakCompareAndSetRelease",
    "getAndSet",
    "getAndSetAcquire",
    "getAndSetRelease",
    "getAndAdd",
    "getAndAddAcquire",
    "getAndAddRelease",
    "getAndBitwiseOr",
    "getAndBitwiseOrRelease",
    "getAndBitwiseOrAcquire",
    "getAndBitwiseAnd",
    "getAndBitwiseAndRelease",
    "getAndBitwiseAndAcquire",
    "getAndBitwiseXor",
    "getAndBitwiseXorRelease",
    "getAndBitwiseXorAcquire",
];

fn reflective_polymorphic(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    Err(t.throw_new(
        "java/lang/UnsupportedOperationException",
        Some("cannot reflectively invoke MethodHandle"),
    ))
}

fn set_call_site_target(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let cs = nonnull(t, a[0])?;
    t.domain
        .heap
        .write_slot_volatile(cs, o.callsite_target, a[1]);
    Ok(0)
}

fn reflect_slot(o: ObjRef) -> Option<(ObjRef, i32)> {
    let (clazz, slot) = crate::jdk::reflect_member(o.class())?;
    Some((o.read_ref(clazz)?, o.read::<i32>(slot)))
}

fn is_trusted_final(holder: &Class, f: &Field) -> bool {
    f.access & classfile::access::ACC_FINAL != 0
        && (f.is_static()
            || holder.hidden
            || holder.file.as_ref().is_some_and(|cf| cf.record.is_some()))
}

fn method_flags(m: &Method, ref_kind: i32) -> i32 {
    let kind = if &*m.name == "<init>" {
        MN_IS_CONSTRUCTOR
    } else {
        MN_IS_METHOD
    };
    let cs = if is_caller_sensitive(m) {
        MN_CALLER_SENSITIVE
    } else {
        0
    };
    (m.access as i32 & RECOGNIZED_METHOD_MODIFIERS)
        | kind
        | cs
        | (ref_kind << MN_REFERENCE_KIND_SHIFT)
}

/// Whether `m` is a JDK method annotated `@jdk.internal.reflect.CallerSensitive` (honoured,
/// like HotSpot, only for classes of the boot and platform loaders).
fn is_caller_sensitive(m: &Method) -> bool {
    has_vm_annotation(m, "Ljdk/internal/reflect/CallerSensitive;")
}

/// Whether a frame of `m` is left out of stack traces, as HotSpot does without
/// -XX:+ShowHiddenFrames: methods of hidden classes (LambdaForms, lambda proxies) and JDK
/// methods annotated `@jdk.internal.vm.annotation.Hidden` (LambdaForm holders, invokers).
pub fn is_hidden_frame(m: &Method) -> bool {
    m.class.hidden || has_vm_annotation(m, "Ljdk/internal/vm/annotation/Hidden;")
}

/// Whether JDK method `m` carries annotation `desc` (VM annotations are honoured only for
/// classes of the boot and platform loaders).
fn has_vm_annotation(m: &Method, desc: &str) -> bool {
    if m.class.loader != LoaderId::BOOT && m.class.loader != LoaderId::PLATFORM {
        return false;
    }
    let (Some(bytes), Some(cf)) = (
        m.info.runtime_visible_annotations.as_deref(),
        m.class.file.as_ref(),
    ) else {
        return false;
    };
    annotation_types(bytes)
        .into_iter()
        .any(|i| cf.constant_pool.utf8(i) == Some(desc))
}

/// The type indices of the annotations in a RuntimeVisibleAnnotations attribute.
fn annotation_types(b: &[u8]) -> Vec<u16> {
    fn u2(b: &[u8], at: &mut usize) -> Option<u16> {
        let v = u16::from_be_bytes([*b.get(*at)?, *b.get(*at + 1)?]);
        *at += 2;
        Some(v)
    }
    fn element_value(b: &[u8], at: &mut usize) -> Option<()> {
        let tag = *b.get(*at)?;
        *at += 1;
        match tag {
            b'e' => *at += 4,
            b'@' => annotation(b, at, &mut Vec::new())?,
            b'[' => {
                for _ in 0..u2(b, at)? {
                    element_value(b, at)?;
                }
            }
            _ => *at += 2,
        }
        Some(())
    }
    fn annotation(b: &[u8], at: &mut usize, types: &mut Vec<u16>) -> Option<()> {
        types.push(u2(b, at)?);
        for _ in 0..u2(b, at)? {
            u2(b, at)?;
            element_value(b, at)?;
        }
        Some(())
    }
    let mut types = Vec::new();
    let mut at = 0;
    if let Some(n) = u2(b, &mut at) {
        for _ in 0..n {
            let mut inner = Vec::new();
            if annotation(b, &mut at, &mut inner).is_none() {
                break;
            }
            types.push(inner[0]);
        }
    }
    types
}

fn field_flags(holder: &Class, f: &Field, ref_kind: i32) -> i32 {
    let tf = if is_trusted_final(holder, f) {
        MN_TRUSTED_FINAL
    } else {
        0
    };
    (f.access as i32 & RECOGNIZED_FIELD_MODIFIERS)
        | MN_IS_FIELD
        | tf
        | (ref_kind << MN_REFERENCE_KIND_SHIFT)
}

/// init(MemberName self, Object ref): fills a MemberName from a reflective Method,
/// Constructor or Field.
fn mhn_init(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let mn = nonnull(t, a[0])?;
    let r = nonnull(t, a[1])?;
    let Some((mirror, slot)) = reflect_slot(r) else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("unsupported reference for MemberName.init"),
        ));
    };
    let c = t.class_of_mirror(mirror);
    if &*r.class().name == "java/lang/reflect/Field" {
        let Some(f) = c.fields.iter().find(|f| f.index as i32 == slot) else {
            return Ok(0);
        };
        let kind = if f.is_static() {
            REF_GET_STATIC
        } else {
            REF_GET_FIELD
        };
        mn.write::<i32>(o.mn_flags, field_flags(c, f, kind));
        t.domain.heap.write_ref(mn, o.mn_clazz, Some(mirror));
        set_field_target(t, o, mn, c, f);
        return Ok(0);
    }
    let Some(m) = c.methods().get(slot as usize) else {
        return Ok(0);
    };
    init_method_member(t, mn, mirror, m)?;
    Ok(0)
}

/// Fills MemberName `mn` for method or constructor `m` of the class behind `mirror` (the
/// reference kind a direct call to it would use). VM allocations never collect, so `mn` and
/// `mirror` stay valid.
pub fn init_method_member(
    t: &mut JThread,
    mn: ObjRef,
    mirror: ObjRef,
    m: &'static Method,
) -> JResult<()> {
    let o = offsets(t)?;
    let c = m.class;
    let kind = if m.is_static() {
        REF_INVOKE_STATIC
    } else if &*m.name == "<init>" || (m.is_private() && !c.is_interface()) {
        REF_INVOKE_SPECIAL
    } else if c.is_interface() {
        REF_INVOKE_INTERFACE
    } else {
        REF_INVOKE_VIRTUAL
    };
    mn.write::<i32>(o.mn_flags, method_flags(m, kind));
    t.domain.heap.write_ref(mn, o.mn_clazz, Some(mirror));
    set_method_target(o, mn, m);
    Ok(())
}

/// expand(MemberName self): fills in a resolved MemberName's name and type.
fn mhn_expand(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let mn = nonnull(t, a[0])?;
    if let Some(m) = member_method(o, mn) {
        if mn.read_ref(o.mn_clazz).is_none() {
            let mirror = t.mirror(m.class)?;
            t.domain.heap.write_ref(mn, o.mn_clazz, Some(mirror));
        }
        if mn.read_ref(o.mn_name).is_none() {
            let s = t.intern(&m.name)?;
            t.domain.heap.write_ref(mn, o.mn_name, Some(s));
        }
        if mn.read_ref(o.mn_type).is_none() {
            let s = t.intern(&m.descriptor)?;
            t.domain.heap.write_ref(mn, o.mn_type, Some(s));
        }
    } else if let Some(holder) = member_field_holder(o, mn) {
        let off = mn.read::<i64>(o.mn_vmindex) as u32;
        let is_static = mn.read::<i32>(o.mn_flags) & classfile::access::ACC_STATIC as i32 != 0;
        let base = if is_static { t.vm.wk().statics_base } else { 0 };
        let mut c = Some(holder);
        while let Some(k) = c {
            if let Some(f) = k
                .fields
                .iter()
                .find(|f| f.is_static() == is_static && f.offset + base == off)
            {
                if mn.read_ref(o.mn_name).is_none() {
                    let s = t.intern(&f.name)?;
                    t.domain.heap.write_ref(mn, o.mn_name, Some(s));
                }
                if mn.read_ref(o.mn_type).is_none() {
                    let fc = class_for_descriptor(t, k.loader, &f.descriptor)?;
                    let m = t.mirror(fc)?;
                    t.domain.heap.write_ref(mn, o.mn_type, Some(m));
                }
                break;
            }
            c = if is_static { None } else { k.super_class };
        }
    }
    Ok(0)
}

/// resolve(MemberName self, Class caller, int lookupMode, boolean speculativeResolve)
fn mhn_resolve(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let mn = nonnull(t, a[0])?;
    let speculative = a[3] != 0;
    let fail = |t: &mut JThread, class: &str, msg: &str| -> JResult<u64> {
        if speculative {
            Ok(0)
        } else {
            Err(t.throw_new(class, Some(msg)))
        }
    };
    let Some(clazz) = mn.read_ref(o.mn_clazz) else {
        return fail(t, "java/lang/InternalError", "MemberName without a class");
    };
    let defc = t.class_of_mirror(clazz);
    let Some(name) = mn.read_ref(o.mn_name).map(|n| t.rust_string(n)) else {
        return fail(t, "java/lang/InternalError", "MemberName without a name");
    };
    let Some(desc) = mn
        .read_ref(o.mn_type)
        .and_then(|ty| member_type_descriptor(t, o, ty))
    else {
        return fail(t, "java/lang/InternalError", "MemberName without a type");
    };
    let flags = mn.read::<i32>(o.mn_flags);
    let ref_kind = (flags >> MN_REFERENCE_KIND_SHIFT) & MN_REFERENCE_KIND_MASK;
    // A null caller is a trusted lookup: no access checks.
    let caller = obj(a[1]).map(|c| t.class_of_mirror(c));
    if flags & MN_IS_FIELD != 0 {
        let Some((holder, f)) = find_field(defc, &name, &desc) else {
            return fail(t, "java/lang/NoSuchFieldError", &name);
        };
        // Like HotSpot, the reference kind follows the field found (getter or setter kept).
        let setter = ref_kind == REF_PUT_FIELD || ref_kind == REF_PUT_STATIC;
        let ref_kind = match (f.is_static(), setter) {
            (false, false) => REF_GET_FIELD,
            (true, false) => REF_GET_STATIC,
            (false, true) => REF_PUT_FIELD,
            (true, true) => REF_PUT_STATIC,
        };
        if !crate::api::may_access(caller, holder, f.access)
            || caller.is_some_and(|caller| !accessible(t, caller, holder, f.access))
        {
            let msg = format!(
                "class {} tried to access field {}.{name}",
                caller.map_or_else(|| "java.lang.Object".to_string(), |c| c.java_name()),
                holder.java_name()
            );
            return fail(t, "java/lang/IllegalAccessError", &msg);
        }
        let hm = t.mirror(holder)?;
        t.domain.heap.write_ref(mn, o.mn_clazz, Some(hm));
        mn.write::<i32>(o.mn_flags, field_flags(holder, f, ref_kind));
        set_field_target(t, o, mn, holder, f);
        return Ok(mn.slot());
    }
    if flags & (MN_IS_METHOD | MN_IS_CONSTRUCTOR) == 0 {
        return fail(
            t,
            "java/lang/InternalError",
            "jxvm cannot resolve this kind of MemberName",
        );
    }
    let m = if name == "<init>" {
        defc.declared_method(&name, &desc)
    } else if defc.is_interface() {
        if ref_kind == REF_INVOKE_STATIC {
            defc.declared_method(&name, &desc)
        } else {
            lookup_interface_method(&t.vm.classes, defc, &name, &desc)
        }
    } else {
        lookup_method(defc, &name, &desc)
    };
    let Some(m) = m else {
        let msg = crate::class::resolve::pretty_method(defc, &name, &desc);
        return fail(t, "java/lang/NoSuchMethodError", &format!("'{msg}'"));
    };
    if (ref_kind == REF_INVOKE_STATIC) != m.is_static() {
        let msg = format!(
            "{} method '{}'",
            if m.is_static() {
                "Expected non-static"
            } else {
                "Expected static"
            },
            crate::class::resolve::pretty_method(m.class, &m.name, &m.descriptor)
        );
        return fail(t, "java/lang/IncompatibleClassChangeError", &msg);
    }
    if !crate::api::may_access(caller, m.class, m.access)
        || caller.is_some_and(|caller| !accessible(t, caller, m.class, m.access))
    {
        let msg = format!(
            "class {} tried to access method '{}'",
            caller.map_or_else(|| "java.lang.Object".to_string(), |c| c.java_name()),
            crate::class::resolve::pretty_method(m.class, &m.name, &m.descriptor)
        );
        return fail(t, "java/lang/IllegalAccessError", &msg);
    }
    let mut kind = ref_kind;
    if kind == REF_INVOKE_INTERFACE && !m.class.is_interface() {
        // An Object method looked up through an interface.
        kind = REF_INVOKE_VIRTUAL;
    }
    // A virtual method found in an interface (a default or miranda method) keeps the
    // symbolic class as its holder, like HotSpot.
    let holder = if kind == REF_INVOKE_VIRTUAL && m.class.is_interface() {
        defc
    } else {
        m.class
    };
    let hm = t.mirror(holder)?;
    t.domain.heap.write_ref(mn, o.mn_clazz, Some(hm));
    mn.write::<i32>(o.mn_flags, method_flags(m, kind));
    set_method_target(o, mn, m);
    Ok(mn.slot())
}

/// JVM access rules (JVMS §5.4.4) for a member of `holder` with flags `access`, seen from
/// `caller`; the lookup modes are checked by `MethodHandles.Lookup` itself.
fn accessible(t: &JThread, caller: &'static Class, holder: &'static Class, access: u16) -> bool {
    use classfile::access::{ACC_PRIVATE, ACC_PROTECTED, ACC_PUBLIC};
    if !crate::api::may_access(Some(caller), holder, access) {
        return false;
    }
    if access & ACC_PUBLIC != 0 || std::ptr::eq(caller, holder) {
        return true;
    }
    if access & ACC_PRIVATE != 0 {
        let host = super::lang::class_nest_host(t, caller);
        return std::ptr::eq(host, super::lang::class_nest_host(t, holder));
    }
    let same_package = caller.loader == holder.loader && caller.package() == holder.package();
    same_package || (access & ACC_PROTECTED != 0 && caller.is_subtype_of(holder))
}

fn mhn_field_offset(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let mn = nonnull(t, a[0])?;
    if member_field_holder(o, mn).is_none() {
        return Err(t.throw_new("java/lang/InternalError", Some("not a resolved field")));
    }
    Ok(mn.read::<i64>(o.mn_vmindex) as u64)
}

fn mhn_static_field_base(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let mn = nonnull(t, a[0])?;
    match member_field_holder(o, mn) {
        Some(h) => Ok(t.mirror(h)?.slot()),
        None => Err(t.throw_new("java/lang/InternalError", Some("not a resolved field"))),
    }
}

/// getMemberVMInfo(MemberName): {Long vmindex, Object vmtarget}.
fn mhn_get_member_vm_info(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let mn = nonnull(t, a[0])?;
    // Boxing runs Java (Long.valueOf): box first, then re-read the MemberName and allocate.
    let idx = super::reflect::box_value(t, BasicType::Long, mn.read::<u64>(o.mn_vmindex))?;
    let mn = nonnull(t, t.arg(0))?;
    let object = t.vm.wk().object;
    let arr = t.new_array_of(object, 2)?;
    t.domain.heap.write_ref(arr, ARRAY_BASE, Some(idx));
    let target = if let Some(h) = member_field_holder(o, mn) {
        Some(t.mirror(h)?)
    } else if member_method(o, mn).is_some() {
        Some(mn)
    } else {
        None
    };
    t.domain.heap.write_ref(arr, ARRAY_BASE + 8, target);
    Ok(arr.slot())
}

// ---- hidden classes ----

/// `ClassLoader.defineClass0` for a hidden class: (loader, lookup, name, bytes, off, len, pd,
/// initialize, flags, classData). The class is not registered by name; it shares the lookup
/// class's loader and module, and `classData` goes into its mirror.
pub fn define_hidden_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = offsets(t)?;
    let bytes = super::bytes_of(t, a[3], jint(a[4]), jint(a[5]))?;
    let lookup = nonnull(t, a[1])?;
    let lookup = t.class_of_mirror(lookup);
    let loader = t.domain.loader_id(obj(a[0]));
    // Nothing outside this domain can reach it: this domain owns it (it goes when the domain
    // ends at the latest, and its metadata counts against the domain's limit).
    let strong = jint(a[8]) & STRONG_LOADER_LINK != 0;
    let module = lookup.module.as_deref();
    let defined =
        t.vm.classes
            .define_hidden(loader, &bytes, module, t.domain.id, strong);
    let c = match defined {
        Ok(c) => c,
        Err(e) => return Err(t.throw_resolve(e.into())),
    };
    let mirror = t.mirror(c)?;
    t.domain.heap.write_slot(mirror, o.class_class_data, a[9]);
    // Like HotSpot, a hidden class's name is its given name with a unique suffix.
    // The name given by the JDK wins over the class file's (InjectedInvoker is renamed so).
    let given = obj(a[2]).map(|n| t.rust_string(n).replace('/', "."));
    let given = given.unwrap_or_else(|| c.java_name());
    let name = format!("{given}/0x{:016x}", c as *const Class as usize);
    let name = t.intern(&name)?;
    t.domain
        .heap
        .write_ref(mirror, t.vm.wk().class_name as usize, Some(name));
    if a[7] != 0 {
        t.ensure_initialized(c)?;
        // The initializer ran Java: `mirror` may have moved.
        return Ok(to_slot(Some(t.mirror(c)?)));
    }
    Ok(to_slot(Some(mirror)))
}
