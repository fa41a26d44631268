//! `LambdaMetafactory` as an intrinsic: spins a hidden proxy class per call site.
//!
//! The proxy has one field per captured value and implements the functional interface's
//! method (plus any bridges) with pre-decoded ops: load captured fields and arguments, adapt
//! them (checkcast, boxing, unboxing, widening) to the implementation method's parameters,
//! invoke it with the instruction its reference kind calls for, adapt the result. The ops'
//! constant-pool operands index the proxy's own resolution cache, filled when it is spun.
//! A serializable lambda's proxy also has a native `writeReplace` that returns the
//! `SerializedLambda` the JDK's metafactory would (deserialization then runs the capturing
//! class's `$deserializeLambda$`, which links the call site again).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use classfile::ref_kind;

use super::Bootstrap;
use crate::class::lambda::{LambdaShape, SerialForm};
use crate::class::resolve::{Resolved, ResolvedField};
use crate::class::{BasicType, Class, ClassKind, Field, Method};
use crate::code::decode::Prepared;
use crate::code::op::Op;
use crate::native::reflect::split_method_descriptor;
use crate::thread::{JResult, JThread};
use base::layout::HEADER_SIZE;

static COUNTER: AtomicU32 = AtomicU32::new(1);

const FLAG_SERIALIZABLE: i32 = 1;
const FLAG_MARKERS: i32 = 2;
const FLAG_BRIDGES: i32 = 4;

fn bt(desc: &str) -> BasicType {
    if desc.starts_with('[') {
        BasicType::Ref
    } else {
        BasicType::from_descriptor_char(desc.as_bytes()[0])
    }
}

fn wrapper(ty: BasicType) -> (&'static str, &'static str) {
    match ty {
        BasicType::Boolean => ("java/lang/Boolean", "booleanValue"),
        BasicType::Byte => ("java/lang/Byte", "byteValue"),
        BasicType::Char => ("java/lang/Character", "charValue"),
        BasicType::Short => ("java/lang/Short", "shortValue"),
        BasicType::Int => ("java/lang/Integer", "intValue"),
        BasicType::Float => ("java/lang/Float", "floatValue"),
        BasicType::Long => ("java/lang/Long", "longValue"),
        BasicType::Double => ("java/lang/Double", "doubleValue"),
        _ => ("java/lang/Object", ""),
    }
}

fn unwrapped(desc: &str) -> Option<BasicType> {
    Some(match desc {
        "Ljava/lang/Boolean;" => BasicType::Boolean,
        "Ljava/lang/Byte;" => BasicType::Byte,
        "Ljava/lang/Character;" => BasicType::Char,
        "Ljava/lang/Short;" => BasicType::Short,
        "Ljava/lang/Integer;" => BasicType::Int,
        "Ljava/lang/Float;" => BasicType::Float,
        "Ljava/lang/Long;" => BasicType::Long,
        "Ljava/lang/Double;" => BasicType::Double,
        _ => return None,
    })
}

/// Builds one proxy method's ops and its resolution-cache entries.
struct Emitter<'a> {
    t: &'a mut JThread,
    loader: crate::class::LoaderId,
    ops: Vec<Op>,
    entries: &'a mut Vec<Resolved>,
}

impl Emitter<'_> {
    fn entry(&mut self, r: Resolved) -> u16 {
        self.entries.push(r);
        self.entries.len() as u16
    }
    fn class(&mut self, name: &str) -> JResult<u16> {
        let c = self.t.load_class(self.loader, name)?;
        Ok(self.entry(Resolved::Class(c)))
    }
    fn method(&mut self, class: &str, name: &str, desc: &str) -> JResult<u16> {
        let c = self.t.load_class(crate::class::LoaderId::BOOT, class)?;
        let m = crate::class::resolve::lookup_method(c, name, desc).expect("wrapper method exists");
        let sig = self.t.vm.classes.sig_id(name, desc);
        Ok(self.entry(Resolved::Method { method: m, sig }))
    }
    fn widen(&mut self, from: BasicType, to: BasicType) {
        use BasicType::*;
        let op = match (from, to) {
            (Byte | Short | Char | Int, Long) => Op::I2l,
            (Byte | Short | Char | Int, Float) => Op::I2f,
            (Byte | Short | Char | Int, Double) => Op::I2d,
            (Long, Float) => Op::L2f,
            (Long, Double) => Op::L2d,
            (Float, Double) => Op::F2d,
            _ => return,
        };
        self.ops.push(op);
    }
    /// Converts the value on top of the stack from descriptor `from` to descriptor `to`.
    fn adapt(&mut self, from: &str, to: &str) -> JResult<()> {
        if from == to {
            return Ok(());
        }
        let (f, tt) = (bt(from), bt(to));
        match (f == BasicType::Ref, tt == BasicType::Ref) {
            (true, true) => {
                if to != "Ljava/lang/Object;" {
                    let name = if to.starts_with('[') {
                        to
                    } else {
                        &to[1..to.len() - 1]
                    };
                    let idx = self.class(name)?;
                    self.ops.push(Op::CheckCast(idx));
                }
            }
            (false, false) => self.widen(f, tt),
            (false, true) => {
                let (w, _) = wrapper(f);
                let desc = format!("({})L{w};", f.descriptor_char());
                let idx = self.method(w, "valueOf", &desc)?;
                self.ops.push(Op::InvokeStatic(idx));
            }
            (true, false) => {
                let src = unwrapped(from).unwrap_or(tt);
                let (w, getter) = wrapper(src);
                let cidx = self.class(w)?;
                self.ops.push(Op::CheckCast(cidx));
                let desc = format!("(){}", src.descriptor_char());
                let idx = self.method(w, getter, &desc)?;
                self.ops.push(Op::InvokeVirtual(idx));
                self.widen(src, tt);
            }
        }
        Ok(())
    }
}

struct Site<'a> {
    captured: Vec<&'a str>,
    impl_method: &'static Method,
    impl_kind: u8,
    impl_sig: u32,
}

/// Creates the proxy class for a LambdaMetafactory call site.
pub fn spin(t: &mut JThread, caller: &'static Class, b: &Bootstrap) -> JResult<&'static Class> {
    let cp = &caller
        .file
        .as_ref()
        .expect("indy caller has a class file")
        .constant_pool;
    let method_type = |i: Option<&u16>| -> Option<String> {
        match cp.get(*i?)? {
            classfile::Constant::MethodType { descriptor_index } => {
                cp.utf8(*descriptor_index).map(str::to_string)
            }
            _ => None,
        }
    };
    let bad = |t: &mut JThread| {
        t.throw_new(
            "java/lang/invoke/LambdaConversionException",
            Some("malformed LambdaMetafactory call site"),
        )
    };
    let Some(sam_desc) = method_type(b.args.first()) else {
        return Err(bad(t));
    };
    let Some(classfile::Constant::MethodHandle {
        reference_kind,
        reference_index,
    }) = b.args.get(1).and_then(|&i| cp.get(i))
    else {
        return Err(bad(t));
    };
    let (impl_kind, impl_ref) = (*reference_kind, *reference_index);
    let (impl_method, impl_sig) =
        match crate::class::resolve::resolve_method(&t.vm.classes, caller, impl_ref) {
            Ok(r) => r,
            Err(e) => return Err(t.throw_resolve(e)),
        };
    let (captured, iface_desc) = split_method_descriptor(b.site_desc);
    let iface_name = iface_desc
        .strip_prefix('L')
        .and_then(|d| d.strip_suffix(';'))
        .unwrap_or(iface_desc)
        .to_string();
    let iface = t.load_class(caller.loader, &iface_name)?;
    // The JDK's metafactory defines a hidden class implementing the interface, which links
    // the interface; a linkage error there reaches the caller as an InternalError.
    if t.link(iface).is_err() {
        let text = t.take_exception_text();
        return Err(t.throw_new("java/lang/InternalError", Some(&text)));
    }
    let mut interfaces = vec![iface];
    let mut bridges: Vec<String> = Vec::new();
    let mut serial = None;
    if b.name == "altMetafactory" {
        let int_at = |i: usize| -> i32 {
            match b.args.get(i).and_then(|&k| cp.get(k)) {
                Some(classfile::Constant::Integer(v)) => *v,
                _ => 0,
            }
        };
        let flags = int_at(3);
        let mut at = 4;
        if flags & FLAG_MARKERS != 0 {
            let n = int_at(at) as usize;
            at += 1;
            for k in 0..n {
                if let Some(name) = b.args.get(at + k).and_then(|&i| cp.class_name(i)) {
                    let name = name.to_string();
                    interfaces.push(t.load_class(caller.loader, &name)?);
                }
            }
            at += n;
        }
        if flags & FLAG_BRIDGES != 0 {
            let n = int_at(at) as usize;
            at += 1;
            for k in 0..n {
                if let Some(d) = method_type(b.args.get(at + k)) {
                    bridges.push(d);
                }
            }
        }
        if flags & FLAG_SERIALIZABLE != 0 {
            interfaces.push(t.load_boot("java/io/Serializable")?);
            serial = Some(Box::new(SerialForm {
                capturing: caller,
                iface: iface_name.clone(),
                sam_name: b.site_name.to_string(),
                sam_desc: sam_desc.clone(),
                impl_kind,
                impl_method,
                instantiated_desc: method_type(b.args.get(2)).unwrap_or_else(|| sam_desc.clone()),
            }));
        }
    }
    let site = Site {
        captured: captured.clone(),
        impl_method,
        impl_kind,
        impl_sig,
    };
    let object = t.vm.wk().object;
    // Captured values: one 8-byte field each.
    let mut fields = Vec::new();
    let mut shape = Vec::new();
    let mut ref_offsets = Vec::new();
    for (i, d) in captured.iter().enumerate() {
        let off = (HEADER_SIZE + i * 8) as u32;
        let ty = bt(d);
        if ty == BasicType::Ref {
            ref_offsets.push(off);
        }
        shape.push((ty, off));
        fields.push(Field {
            name: format!("arg${}", i + 1).into(),
            descriptor: (*d).into(),
            access: classfile::access::ACC_PRIVATE | classfile::access::ACC_FINAL,
            ty,
            offset: off,
            constant_value: None,
            index: i as u16,
            place: None,
        });
    }
    let captured_slots = captured.iter().map(|d| bt(d).slots()).sum();
    // Method bodies.
    let mut entries: Vec<Resolved> = Vec::new();
    let mut bodies: Vec<(String, Prepared)> = Vec::new();
    for desc in std::iter::once(sam_desc.clone()).chain(bridges.iter().cloned()) {
        let p = emit_body(t, caller, &site, &desc, &shape, &mut entries)?;
        bodies.push((desc, p));
    }
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = format!("{}$$Lambda${n}", caller.name);
    let table = &t.vm.classes;
    let method_name = b.site_name.to_string();
    let entry_count = entries.len() + 1;
    let all_interfaces = {
        let mut v: Vec<&'static Class> = Vec::new();
        for i in &interfaces {
            for j in i.all_interfaces.iter().chain(std::iter::once(i)) {
                if !v.iter().any(|k| std::ptr::eq(*k, *j)) {
                    v.push(j);
                }
            }
        }
        v
    };
    // It goes with its caller (a hidden class of some domain, say).
    let proxy = table.publish_synthetic(
        table.owner_of(caller),
        |id| Class {
            id,
            name: name.into(),
            loader: caller.loader,
            access: classfile::access::ACC_FINAL
                | classfile::access::ACC_SYNTHETIC
                | classfile::access::ACC_SUPER,
            kind: ClassKind::Instance,
            super_class: Some(object),
            interfaces,
            supers: vec![object],
            all_interfaces,
            fields,
            instance_size: (HEADER_SIZE + captured.len() * 8) as u32,
            ref_offsets,
            static_ref_offsets: Vec::new(),
            statics_size: 0,
            methods: OnceLock::new(),
            dispatch: OnceLock::new(),
            vtable_base: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
            file: None,
            cp_cache: (0..entry_count).map(|_| OnceLock::new()).collect(),
            module: caller.module.clone(),
            linked: OnceLock::new(),
            hidden: true,
            hidden_unit: caller.hidden_unit,
            lambda: Some(Box::new(LambdaShape {
                caller,
                captured: shape.clone(),
                captured_slots,
                serial,
            })),
            array_of: OnceLock::new(),
            dims: 0,
            api: false,
            pso: None,
            finalizable: false,
        },
        |c| {
            let mut ms: Vec<Method> = bodies
                .into_iter()
                .enumerate()
                .map(|(i, (desc, prep))| {
                    proxy_method(table, c, &method_name, &desc, i as u16, prep)
                })
                .collect();
            if c.lambda.as_ref().is_some_and(|l| l.serial.is_some()) {
                ms.push(write_replace_method(table, c, ms.len() as u16));
            }
            ms
        },
    );
    let proxy = proxy.map_err(|e| t.throw_new(e.java_class(), Some(e.message())))?;
    for (i, e) in entries.into_iter().enumerate() {
        let e = match e {
            // Captured-field entries were recorded with a placeholder holder.
            Resolved::Field(f) => Resolved::Field(ResolvedField { holder: proxy, ..f }),
            other => other,
        };
        let _ = proxy.cp_cache[i + 1].set(e);
    }
    // The generated code gets the frame-bounds proof every method gets (its operand types
    // come from the resolution cache just filled).
    for m in proxy.methods.get().into_iter().flatten() {
        if let Some(Ok(prep)) = m.prepared.get()
            && let Err(why) = crate::code::depth::check(
                prep,
                &crate::code::oopmap::MethodOperands { class: proxy, prep },
            )
        {
            return Err(t.throw_new(
                "java/lang/InternalError",
                Some(&format!("lambda proxy code: {why}")),
            ));
        }
    }
    t.domain.set_initialized(proxy.id, true);
    Ok(proxy)
}

fn proxy_method(
    table: &crate::class::loader::ClassTable,
    c: &'static Class,
    name: &str,
    desc: &str,
    index: u16,
    prep: Prepared,
) -> Method {
    let access = classfile::access::ACC_PUBLIC
        | if index > 0 {
            classfile::access::ACC_BRIDGE | classfile::access::ACC_SYNTHETIC
        } else {
            0
        };
    let m = table.synthetic_method(c, name, desc, access, index);
    let _ = m.prepared.set(Ok(prep));
    m
}

/// `private final Object writeReplace()`, implemented by [`write_replace`].
fn write_replace_method(
    table: &crate::class::loader::ClassTable,
    c: &'static Class,
    index: u16,
) -> Method {
    use classfile::access::{ACC_FINAL, ACC_NATIVE, ACC_PRIVATE};
    let m = table.synthetic_method(
        c,
        "writeReplace",
        "()Ljava/lang/Object;",
        ACC_PRIVATE | ACC_FINAL | ACC_NATIVE,
        index,
    );
    let _ = m.native.set(Some(crate::native::LAMBDA_WRITE_REPLACE));
    m
}

/// writeReplace of a serializable lambda: a `SerializedLambda` with the call site's facts and
/// the captured values (boxed).
pub(crate) fn write_replace(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = crate::native::nonnull(t, a[0])?;
    let proxy = this.class();
    let Some(form) = proxy.lambda.as_ref().and_then(|l| l.serial.as_deref()) else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("writeReplace of a non-serializable lambda"),
        ));
    };
    let captured = &proxy.lambda.as_ref().expect("lambda proxy shape").captured;
    let object = t.vm.wk().object;
    let args = t.new_array_of(object, captured.len() as i32)?;
    let args_h = t.handle(args);
    for (i, &(ty, off)) in captured.iter().enumerate() {
        // Boxing runs Java: read the receiver afresh each time.
        let this = crate::heap::from_slot(t.arg(0)).expect("receiver");
        let v = if ty == BasicType::Ref {
            this.read_ref(off as usize)
        } else {
            let raw = crate::runtime::fields::load_field(this, off as usize, ty, false);
            Some(crate::native::reflect::box_value(t, ty, raw)?)
        };
        t.domain
            .heap
            .write_ref(t.handle_get(args_h), base::layout::ARRAY_BASE + i * 8, v);
    }
    let sl = t.load_boot("java/lang/invoke/SerializedLambda")?;
    let capturing = t.mirror(form.capturing)?;
    let im = form.impl_method;
    let strings = [
        &*form.iface,
        &*form.sam_name,
        &*form.sam_desc,
        &*im.class.name,
        &*im.name,
        &*im.descriptor,
        &*form.instantiated_desc,
    ];
    let mut s = Vec::with_capacity(strings.len());
    for x in strings {
        s.push(t.new_string(x)?.slot());
    }
    let args = t.handle_get(args_h).slot();
    let desc = "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;[Ljava/lang/Object;)V";
    let o = t.construct(
        sl,
        desc,
        &[
            capturing.slot(),
            s[0],
            s[1],
            s[2],
            form.impl_kind as u64,
            s[3],
            s[4],
            s[5],
            s[6],
            args,
        ],
    )?;
    Ok(o.slot())
}

fn emit_body(
    t: &mut JThread,
    caller: &'static Class,
    site: &Site,
    sam_desc: &str,
    shape: &[(BasicType, u32)],
    entries: &mut Vec<Resolved>,
) -> JResult<Prepared> {
    let im = site.impl_method;
    let (impl_params, impl_ret) = split_method_descriptor(&im.descriptor);
    let (sam_params, sam_ret) = split_method_descriptor(sam_desc);
    let receiver_desc = format!("L{};", im.class.name);
    let mut targets: Vec<&str> = Vec::new();
    let is_ctor = site.impl_kind == ref_kind::NEW_INVOKE_SPECIAL;
    if !im.is_static() && !is_ctor {
        targets.push(&receiver_desc);
    }
    targets.extend(impl_params.iter().copied());
    let mut e = Emitter {
        t,
        loader: caller.loader,
        ops: Vec::new(),
        entries,
    };
    let placeholder_holder = im.class;
    if is_ctor {
        let idx = e.entry(Resolved::Class(im.class));
        e.ops.push(Op::New(idx));
        e.ops.push(Op::Dup);
    }
    let mut k = 0;
    for (i, d) in site.captured.iter().enumerate() {
        let (ty, off) = shape[i];
        e.ops.push(Op::Load(0));
        let idx = e.entry(Resolved::Field(ResolvedField {
            holder: placeholder_holder,
            offset: off,
            ty,
            is_static: false,
            volatile: false,
            place: None,
            index: i as u16,
        }));
        e.ops.push(Op::GetField(idx));
        if let Some(to) = targets.get(k) {
            e.adapt(d, to)?;
        }
        k += 1;
    }
    let mut local = 1u16;
    for d in &sam_params {
        let ty = bt(d);
        e.ops.push(if ty.slots() == 2 {
            Op::Load2(local)
        } else {
            Op::Load(local)
        });
        local += ty.slots() as u16;
        if let Some(to) = targets.get(k) {
            e.adapt(d, to)?;
        }
        k += 1;
    }
    let midx = e.entry(Resolved::Method {
        method: im,
        sig: site.impl_sig,
    });
    e.ops.push(match site.impl_kind {
        ref_kind::INVOKE_STATIC => Op::InvokeStatic(midx),
        ref_kind::INVOKE_INTERFACE => Op::InvokeInterface(midx),
        ref_kind::INVOKE_SPECIAL | ref_kind::NEW_INVOKE_SPECIAL => Op::InvokeSpecial(midx),
        _ => Op::InvokeVirtual(midx),
    });
    let produced = if is_ctor {
        receiver_desc.clone()
    } else {
        impl_ret.to_string()
    };
    if sam_ret == "V" {
        match bt(&produced) {
            BasicType::Void => {}
            ty if ty.slots() == 2 => e.ops.push(Op::Pop2),
            _ => e.ops.push(Op::Pop),
        }
        e.ops.push(Op::Return);
    } else {
        e.adapt(&produced, sam_ret)?;
        e.ops.push(if bt(sam_ret).slots() == 2 {
            Op::Return2
        } else {
            Op::Return1
        });
    }
    let ops = e.ops;
    let max_locals = local;
    let max_stack = (shape.len() * 2 + local as usize * 2 + 8) as u16;
    let bcis = (0..ops.len() as u32).collect();
    let prep = Prepared::new(
        ops,
        bcis,
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        max_locals,
        max_stack,
    );
    Ok(prep)
}

/// Creates a proxy instance from the captured values on the stack (ending at `sp`).
pub fn instantiate(
    t: &mut JThread,
    proxy: &'static Class,
    sp: usize,
) -> JResult<(u64, BasicType, usize)> {
    let shape = proxy.lambda.as_ref().expect("lambda proxy shape");
    let o = t.alloc_object(proxy)?;
    let mut at = sp - shape.captured_slots;
    for &(ty, off) in &shape.captured {
        if ty == BasicType::Ref {
            t.domain.heap.write_slot(o, off as usize, t.stack[at]);
        } else {
            o.write::<i64>(off as usize, t.stack[at] as i64);
        }
        at += ty.slots();
    }
    Ok((o.slot(), BasicType::Ref, shape.captured_slots))
}
