//! Natives of java.lang.Class and core reflection: class queries, `forName0`, reflective
//! Field/Method/Constructor objects (built with the JDK's own constructors), their annotations
//! and type annotations, reflective invocation (`NativeMethodAccessorImpl.invoke0`,
//! `NativeConstructorAccessorImpl`), `jdk.internal.reflect.ConstantPool` and
//! java.lang.reflect.Array. Reflection on a class of a user-defined loader first loads the
//! classes it names through that loader (see [`crate::runtime::loading`]).

use super::{Registry, jint, nonnull, obj, ret_bool, ret_int};
use crate::class::{BasicType, Class, ClassKind, LoaderId, Method};
use crate::heap::{ObjRef, to_slot};
use crate::jdk;
use crate::thread::{JResult, JThread, Thrown};
use base::layout::ARRAY_BASE;
use classfile::access::*;

pub fn register(r: &mut Registry) {
    let c = "java/lang/Class";
    r.add(
        c,
        "getPrimitiveClass",
        "(Ljava/lang/String;)Ljava/lang/Class;",
        get_primitive_class,
    );
    r.add(
        c,
        "desiredAssertionStatus0",
        "(Ljava/lang/Class;)Z",
        |t, a| {
            let c = mirror_class(t, a[0])?;
            let system = c.loader == crate::class::LoaderId::BOOT;
            let instance = !c.is_array() && !c.is_primitive();
            Ok(ret_bool(
                instance && t.vm.assertions().enabled(&c.name, system),
            ))
        },
    );
    r.add(c, "isInstance", "(Ljava/lang/Object;)Z", |t, a| {
        let c = mirror_class(t, a[0])?;
        Ok(ret_bool(
            obj(a[1]).is_some_and(|o| o.class().is_subtype_of(c)),
        ))
    });
    r.add(c, "isAssignableFrom", "(Ljava/lang/Class;)Z", |t, a| {
        let c = mirror_class(t, a[0])?;
        let other = mirror_class(t, a[1])?;
        Ok(ret_bool(other.is_subtype_of(c)))
    });
    r.add(c, "isInterface", "()Z", |t, a| {
        Ok(ret_bool(mirror_class(t, a[0])?.is_interface()))
    });
    r.add(c, "isArray", "()Z", |t, a| {
        Ok(ret_bool(mirror_class(t, a[0])?.is_array()))
    });
    r.add(c, "isPrimitive", "()Z", |t, a| {
        Ok(ret_bool(mirror_class(t, a[0])?.is_primitive()))
    });
    r.add(c, "isHidden", "()Z", |t, a| {
        Ok(ret_bool(mirror_class(t, a[0])?.hidden))
    });
    r.add(c, "isRecord0", "()Z", |t, a| {
        let c = mirror_class(t, a[0])?;
        Ok(ret_bool(
            c.file.as_ref().is_some_and(|f| f.record.is_some())
                && c.super_class
                    .is_some_and(|s| &*s.name == "java/lang/Record"),
        ))
    });
    r.add(c, "initClassName", "()Ljava/lang/String;", init_class_name);
    r.add(c, "getSuperclass", "()Ljava/lang/Class;", get_superclass);
    r.add(c, "getInterfaces0", "()[Ljava/lang/Class;", get_interfaces);
    r.add(c, "getModifiers", "()I", get_modifiers);
    r.add(
        c,
        "getDeclaringClass0",
        "()Ljava/lang/Class;",
        get_declaring_class,
    );
    r.add(
        c,
        "getSimpleBinaryName0",
        "()Ljava/lang/String;",
        get_simple_binary_name,
    );
    r.add(
        c,
        "getEnclosingMethod0",
        "()[Ljava/lang/Object;",
        get_enclosing_method,
    );
    r.add(c, "getGenericSignature0", "()Ljava/lang/String;", |t, a| {
        let c = mirror_class(t, a[0])?;
        match c.file.as_ref().and_then(|f| f.signature.clone()) {
            Some(s) => Ok(t.new_string(&s)?.slot()),
            None => Ok(0),
        }
    });
    r.add(c, "getRawAnnotations", "()[B", |t, a| {
        let c = mirror_class(t, a[0])?;
        opt_bytes(
            t,
            c.file
                .as_ref()
                .and_then(|f| f.runtime_visible_annotations.as_deref()),
        )
    });
    r.add(c, "getRawTypeAnnotations", "()[B", |t, a| {
        let c = mirror_class(t, a[0])?;
        opt_bytes(
            t,
            c.file
                .as_ref()
                .and_then(|f| f.runtime_visible_type_annotations.as_deref()),
        )
    });
    r.add(
        c,
        "getConstantPool",
        "()Ljdk/internal/reflect/ConstantPool;",
        get_constant_pool,
    );
    r.add(
        c,
        "getProtectionDomain0",
        "()Ljava/security/ProtectionDomain;",
        protection_domain,
    );
    r.add(c, "getSigners", "()[Ljava/lang/Object;", |_, _| Ok(0));
    r.add(c, "setSigners", "([Ljava/lang/Object;)V", |_, _| Ok(0));
    r.add(
        c,
        "forName0",
        "(Ljava/lang/String;ZLjava/lang/ClassLoader;Ljava/lang/Class;)Ljava/lang/Class;",
        for_name0,
    );
    r.add(
        c,
        "getDeclaredFields0",
        "(Z)[Ljava/lang/reflect/Field;",
        get_declared_fields,
    );
    r.add(
        c,
        "getDeclaredMethods0",
        "(Z)[Ljava/lang/reflect/Method;",
        |t, a| get_declared_methods(t, a, false),
    );
    r.add(
        c,
        "getDeclaredConstructors0",
        "(Z)[Ljava/lang/reflect/Constructor;",
        |t, a| get_declared_methods(t, a, true),
    );
    r.add(
        c,
        "getDeclaredClasses0",
        "()[Ljava/lang/Class;",
        get_declared_classes,
    );
    r.add(c, "getNestHost0", "()Ljava/lang/Class;", |t, a| {
        let c = reflected_class(t, a[0])?;
        let h = super::lang::class_nest_host(t, c);
        Ok(t.mirror(h)?.slot())
    });
    r.add(
        c,
        "getNestMembers0",
        "()[Ljava/lang/Class;",
        get_nest_members,
    );
    r.add(
        c,
        "getPermittedSubclasses0",
        "()[Ljava/lang/Class;",
        get_permitted_subclasses,
    );
    r.add(
        c,
        "getRecordComponents0",
        "()[Ljava/lang/reflect/RecordComponent;",
        get_record_components,
    );

    let ar = "java/lang/reflect/Array";
    r.add(
        ar,
        "newArray",
        "(Ljava/lang/Class;I)Ljava/lang/Object;",
        array_new,
    );
    r.add(ar, "getLength", "(Ljava/lang/Object;)I", array_get_length);
    r.add(
        ar,
        "multiNewArray",
        "(Ljava/lang/Class;[I)Ljava/lang/Object;",
        array_multi_new,
    );
    r.add(
        ar,
        "get",
        "(Ljava/lang/Object;I)Ljava/lang/Object;",
        array_get,
    );
    r.add(
        ar,
        "set",
        "(Ljava/lang/Object;ILjava/lang/Object;)V",
        array_set,
    );
    macro_rules! typed {
        ($get:literal, $gdesc:literal, $set:literal, $sdesc:literal, $ty:expr) => {
            r.add(ar, $get, $gdesc, |t, a| array_get_typed(t, a, $ty));
            r.add(ar, $set, $sdesc, |t, a| array_set_typed(t, a, $ty));
        };
    }
    typed!(
        "getBoolean",
        "(Ljava/lang/Object;I)Z",
        "setBoolean",
        "(Ljava/lang/Object;IZ)V",
        BasicType::Boolean
    );
    typed!(
        "getByte",
        "(Ljava/lang/Object;I)B",
        "setByte",
        "(Ljava/lang/Object;IB)V",
        BasicType::Byte
    );
    typed!(
        "getChar",
        "(Ljava/lang/Object;I)C",
        "setChar",
        "(Ljava/lang/Object;IC)V",
        BasicType::Char
    );
    typed!(
        "getShort",
        "(Ljava/lang/Object;I)S",
        "setShort",
        "(Ljava/lang/Object;IS)V",
        BasicType::Short
    );
    typed!(
        "getInt",
        "(Ljava/lang/Object;I)I",
        "setInt",
        "(Ljava/lang/Object;II)V",
        BasicType::Int
    );
    typed!(
        "getLong",
        "(Ljava/lang/Object;I)J",
        "setLong",
        "(Ljava/lang/Object;IJ)V",
        BasicType::Long
    );
    typed!(
        "getFloat",
        "(Ljava/lang/Object;I)F",
        "setFloat",
        "(Ljava/lang/Object;IF)V",
        BasicType::Float
    );
    typed!(
        "getDouble",
        "(Ljava/lang/Object;I)D",
        "setDouble",
        "(Ljava/lang/Object;ID)V",
        BasicType::Double
    );

    r.add(
        "jdk/internal/reflect/NativeMethodAccessorImpl",
        "invoke0",
        "",
        method_invoke0,
    );
    r.add(
        "java/lang/reflect/Executable",
        "getParameters0",
        "()[Ljava/lang/reflect/Parameter;",
        get_parameters,
    );
    r.add(
        "java/lang/reflect/Executable",
        "getTypeAnnotationBytes0",
        "()[B",
        |t, a| {
            let o = nonnull(t, a[0])?;
            let m = method_from_reflect(t, o)?;
            opt_bytes(t, m.info.runtime_visible_type_annotations.as_deref())
        },
    );
    r.add(
        "java/lang/reflect/Field",
        "getTypeAnnotationBytes0",
        "()[B",
        |t, a| {
            let o = nonnull(t, a[0])?;
            let (c, slot) = reflect_holder_and_slot(t, o);
            let info = c.file.as_ref().and_then(|f| f.fields.get(slot as usize));
            opt_bytes(
                t,
                info.and_then(|f| f.runtime_visible_type_annotations.as_deref()),
            )
        },
    );
    register_constant_pool(r);
    r.add(
        "jdk/internal/reflect/NativeConstructorAccessorImpl",
        "newInstance0",
        "",
        constructor_new_instance0,
    );
}

/// The class behind a non-null mirror argument.
pub fn mirror_class(t: &mut JThread, v: u64) -> JResult<&'static Class> {
    let m = nonnull(t, v)?;
    Ok(t.class_of_mirror(m))
}

/// The class behind a mirror argument, with the classes it names loaded when its loader is
/// user-defined (reflection resolves them without running Java; see
/// [`crate::runtime::loading`]). Loading may run Java: callers hold no references yet.
fn reflected_class(t: &mut JThread, v: u64) -> JResult<&'static Class> {
    let c = mirror_class(t, v)?;
    t.load_references(c)?;
    Ok(c)
}

fn opt_bytes(t: &mut JThread, b: Option<&[u8]>) -> JResult<u64> {
    match b {
        Some(b) => Ok(t.new_byte_array(b)?.slot()),
        None => Ok(0),
    }
}

fn get_primitive_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let n = nonnull(t, a[0])?;
    let name = t.rust_string(n);
    use BasicType::*;
    let ty = match name.as_str() {
        "boolean" => Boolean,
        "byte" => Byte,
        "char" => Char,
        "short" => Short,
        "int" => Int,
        "float" => Float,
        "long" => Long,
        "double" => Double,
        "void" => Void,
        _ => return Err(t.throw_new("java/lang/ClassNotFoundException", Some(&name))),
    };
    let c = t.vm.classes.primitive(ty);
    Ok(t.mirror(c)?.slot())
}

fn init_class_name(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let m = nonnull(t, a[0])?;
    let c = t.class_of_mirror(m);
    let s = t.intern(&c.java_name())?;
    t.domain
        .heap
        .write_ref(m, t.vm.wk().class_name as usize, Some(s));
    Ok(s.slot())
}

fn get_superclass(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = mirror_class(t, a[0])?;
    if c.is_interface() || c.is_primitive() {
        return Ok(0);
    }
    match c.super_class {
        Some(s) => Ok(t.mirror(s)?.slot()),
        None => Ok(0),
    }
}

/// A `Class[]` of the mirrors of `classes` (only the VM allocates: no collection).
pub fn class_array(t: &mut JThread, classes: &[&'static Class]) -> JResult<ObjRef> {
    let cc = t.vm.wk().class;
    let arr = t.new_array_of(cc, classes.len() as i32)?;
    for (i, c) in classes.iter().enumerate() {
        let m = t.mirror(c)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(m));
    }
    Ok(arr)
}

fn get_interfaces(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = mirror_class(t, a[0])?;
    let ifaces = c.interfaces.clone();
    Ok(class_array(t, &ifaces)?.slot())
}

/// Inner-class flags for `c` from its own InnerClasses attribute, if listed.
fn inner_class_entry(c: &Class) -> Option<&classfile::InnerClass> {
    let cf = c.file.as_ref()?;
    cf.inner_classes
        .iter()
        .find(|ic| cf.constant_pool.class_name(ic.inner_class_info) == Some(&*c.name))
}

fn get_modifiers(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = mirror_class(t, a[0])?;
    let flags = match c.kind {
        ClassKind::Primitive(_) => ACC_PUBLIC | ACC_FINAL | ACC_ABSTRACT,
        ClassKind::Array { .. } => c.access,
        ClassKind::Instance => match inner_class_entry(c) {
            Some(ic) => ic.inner_flags,
            None => c.access,
        },
    };
    Ok(ret_int((flags & !ACC_SUPER & 0x7FFF) as i32))
}

fn get_declaring_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let Some(ic) = inner_class_entry(c) else {
        return Ok(0);
    };
    let cp = &c.file.as_ref().expect("file").constant_pool;
    // The enclosing class: the member's outer class, or a local or anonymous class's
    // EnclosingMethod class; as HotSpot, it must list `c` in its InnerClasses attribute too.
    let member = ic.outer_class_info != 0;
    let outer = if member {
        cp.class_name(ic.outer_class_info)
    } else {
        c.file
            .as_ref()
            .and_then(|f| f.enclosing_method)
            .and_then(|(k, _)| cp.class_name(k))
    };
    let Some(outer) = outer else { return Ok(0) };
    let oc = t.load_class(c.loader, outer)?;
    let listed = oc.file.as_ref().is_some_and(|of| {
        of.inner_classes.iter().any(|e| {
            of.constant_pool.class_name(e.inner_class_info) == Some(&*c.name)
                && if member {
                    of.constant_pool.class_name(e.outer_class_info) == Some(&*oc.name)
                } else {
                    e.outer_class_info == 0
                }
        })
    });
    if !listed {
        let msg = format!(
            "{} and {} disagree on InnerClasses attribute",
            oc.java_name(),
            c.java_name()
        );
        return Err(t.throw_new("java/lang/IncompatibleClassChangeError", Some(&msg)));
    }
    if !member {
        return Ok(0);
    }
    Ok(t.mirror(oc)?.slot())
}

fn get_simple_binary_name(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = mirror_class(t, a[0])?;
    match c.simple_binary_name() {
        Some(n) => Ok(t.new_string(n)?.slot()),
        None => Ok(0),
    }
}

fn get_enclosing_method(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let Some(cf) = &c.file else { return Ok(0) };
    let Some((cls, nat)) = cf.enclosing_method else {
        return Ok(0);
    };
    let cp = &cf.constant_pool;
    let Some(outer) = cp.class_name(cls) else {
        return Ok(0);
    };
    let oc = t.load_class(c.loader, outer)?;
    let object = t.vm.wk().object;
    let arr = t.new_array_of(object, 3)?;
    let om = t.mirror(oc)?;
    t.domain.heap.write_ref(arr, ARRAY_BASE, Some(om));
    if nat != 0
        && let Some((n, d)) = cp.name_and_type(nat)
    {
        let (n, d) = (n.to_string(), d.to_string());
        let ns = t.new_string(&n)?;
        let ds = t.new_string(&d)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + 8, Some(ns));
        t.domain.heap.write_ref(arr, ARRAY_BASE + 16, Some(ds));
    }
    Ok(arr.slot())
}

fn get_constant_pool(t: &mut JThread, _a: &[u64]) -> JResult<u64> {
    let cpc = t.load_boot("jdk/internal/reflect/ConstantPool")?;
    t.ensure_initialized(cpc)?;
    let o = t.alloc_object(cpc)?;
    // Initializing ConstantPool may have run a collection: read the argument afresh.
    let holder = t.arg(0);
    let off = t.jdk::<jdk::ConstantPool>(o)?.constant_pool_oop;
    t.domain.heap.write_slot(o, off, holder);
    Ok(o.slot())
}

fn for_name0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let n = nonnull(t, a[0])?;
    let java_name = t.rust_string(n);
    let initialize = a[1] != 0;
    let loader = t.domain.loader_id(obj(a[2]));
    let bad = java_name.contains('/')
        || java_name.is_empty()
        || (java_name.starts_with('[') && java_name.ends_with('.'));
    let internal = java_name.replace('.', "/");
    let r = if bad {
        Err(())
    } else if loader.is_user() {
        // The loader's own loadClass decides (its exceptions propagate).
        t.load_with_loader(loader, &internal)?.ok_or(())
    } else {
        t.vm.classes.load(loader, &internal).map_err(|_| ())
    };
    match r {
        Ok(c) => {
            if initialize {
                t.ensure_initialized(c)?;
            }
            Ok(t.mirror(c)?.slot())
        }
        Err(()) => Err(t.throw_new("java/lang/ClassNotFoundException", Some(&java_name))),
    }
}

/// The Class for a field descriptor, loaded through `loader`.
fn class_for_descriptor(t: &mut JThread, loader: LoaderId, desc: &str) -> JResult<&'static Class> {
    let b = desc.as_bytes();
    match b.first() {
        Some(b'L') => t.load_class(loader, &desc[1..desc.len() - 1]),
        Some(b'[') => t.load_class(loader, desc),
        Some(&c) => Ok(t.vm.classes.primitive(BasicType::from_descriptor_char(c))),
        None => Err(t.throw_new("java/lang/NoClassDefFoundError", Some(desc))),
    }
}

/// Splits "(I[JLjava/lang/String;)V" into parameter descriptors and the return descriptor.
pub fn split_method_descriptor(desc: &str) -> (Vec<&str>, &str) {
    (
        crate::class::param_descriptors(desc).collect(),
        crate::class::return_descriptor(desc),
    )
}

fn get_declared_fields(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let public_only = a[1] != 0;
    let fc = t.load_boot("java/lang/reflect/Field")?;
    t.ensure_initialized(fc)?;
    let fields: Vec<&crate::class::Field> = c
        .fields
        .iter()
        .filter(|f| !public_only || f.access & ACC_PUBLIC != 0)
        .collect();
    let arr = t.new_array_of(fc, fields.len() as i32)?;
    let arr_h = t.handle(arr);
    for (i, f) in fields.iter().enumerate() {
        let o = reflect_field(t, c, f)?;
        let arr = t.handle_get(arr_h);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(o));
    }
    let arr = t.handle_get(arr_h);
    Ok(arr.slot())
}

/// Builds a java.lang.reflect.Field for field `f` of class `c`.
fn reflect_field(t: &mut JThread, c: &'static Class, f: &crate::class::Field) -> JResult<ObjRef> {
    let fc = t.load_boot("java/lang/reflect/Field")?;
    t.ensure_initialized(fc)?;
    let mirror = t.mirror(c)?;
    let name = t.intern(&f.name)?;
    let ty = class_for_descriptor(t, c.loader, &f.descriptor)?;
    let tm = t.mirror(ty)?;
    // Classes the VM synthesizes (lambda proxies) have no class file: no signature or
    // annotations.
    let info = c
        .file
        .as_ref()
        .and_then(|cf| cf.fields.get(f.index as usize));
    let sig = match info.and_then(|i| i.signature.as_deref()) {
        Some(s) => t.new_string(s)?.slot(),
        None => 0,
    };
    let ann = opt_bytes(
        t,
        info.and_then(|i| i.runtime_visible_annotations.as_deref()),
    )?;
    let trusted_final = f.access & ACC_FINAL != 0
        && (f.is_static() || c.file.as_ref().is_some_and(|cf| cf.record.is_some()) || c.hidden);
    t.construct(
        fc,
        "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/Class;IZILjava/lang/String;[B)V",
        &[
            mirror.slot(),
            name.slot(),
            tm.slot(),
            (f.access & 0x50df) as u64,
            trusted_final as u64,
            f.index as u64,
            sig,
            ann,
        ],
    )
}

fn get_declared_methods(t: &mut JThread, a: &[u64], constructors: bool) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let public_only = a[1] != 0;
    let methods: Vec<&'static Method> = c
        .methods()
        .iter()
        .filter(|m| (&*m.name == "<init>") == constructors && &*m.name != "<clinit>")
        .filter(|m| !public_only || m.is_public())
        .collect();
    let rc = t.load_boot(if constructors {
        "java/lang/reflect/Constructor"
    } else {
        "java/lang/reflect/Method"
    })?;
    t.ensure_initialized(rc)?;
    let arr = t.new_array_of(rc, methods.len() as i32)?;
    let arr_h = t.handle(arr);
    for (i, m) in methods.iter().enumerate() {
        let o = reflect_method(t, m)?;
        let arr = t.handle_get(arr_h);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(o));
    }
    Ok(t.handle_get(arr_h).slot())
}

/// Builds a java.lang.reflect.Method or Constructor for `m`.
pub fn reflect_method(t: &mut JThread, m: &'static Method) -> JResult<ObjRef> {
    let c = m.class;
    let is_ctor = &*m.name == "<init>";
    let rc = t.load_boot(if is_ctor {
        "java/lang/reflect/Constructor"
    } else {
        "java/lang/reflect/Method"
    })?;
    t.ensure_initialized(rc)?;
    let mirror = t.mirror(c)?;
    let (params, ret) = split_method_descriptor(&m.descriptor);
    let cc = t.vm.wk().class;
    let ptypes = t.new_array_of(cc, params.len() as i32)?;
    for (j, p) in params.iter().enumerate() {
        let pc = class_for_descriptor(t, c.loader, p)?;
        let pm = t.mirror(pc)?;
        t.domain
            .heap
            .write_ref(ptypes, ARRAY_BASE + j * 8, Some(pm));
    }
    let exc_names: Vec<String> = match &c.file {
        Some(cf) => m
            .info
            .exceptions
            .iter()
            .filter_map(|&i| cf.constant_pool.class_name(i).map(str::to_string))
            .collect(),
        None => Vec::new(),
    };
    let excs = t.new_array_of(cc, exc_names.len() as i32)?;
    for (j, n) in exc_names.iter().enumerate() {
        let ec = t.load_class(c.loader, n)?;
        let em = t.mirror(ec)?;
        t.domain.heap.write_ref(excs, ARRAY_BASE + j * 8, Some(em));
    }
    let sig = match &m.info.signature {
        Some(s) => t.new_string(s)?.slot(),
        None => 0,
    };
    let ann = opt_bytes(t, m.info.runtime_visible_annotations.as_deref())?;
    let pann = opt_bytes(t, m.info.runtime_visible_parameter_annotations.as_deref())?;
    let mods = (m.access & 0x1dff) as u64;
    if is_ctor {
        t.construct(
            rc,
            "(Ljava/lang/Class;[Ljava/lang/Class;[Ljava/lang/Class;IILjava/lang/String;[B[B)V",
            &[
                mirror.slot(),
                ptypes.slot(),
                excs.slot(),
                mods,
                m.index as u64,
                sig,
                ann,
                pann,
            ],
        )
    } else {
        let rt = class_for_descriptor(t, c.loader, ret)?;
        let rtm = t.mirror(rt)?;
        let name = t.intern(&m.name)?;
        let adef = opt_bytes(t, m.info.annotation_default.as_deref())?;
        t.construct(
            rc,
            "(Ljava/lang/Class;Ljava/lang/String;[Ljava/lang/Class;Ljava/lang/Class;[Ljava/lang/Class;IILjava/lang/String;[B[B[B)V",
            &[mirror.slot(), name.slot(), ptypes.slot(), rtm.slot(), excs.slot(), mods, m.index as u64, sig, ann, pann, adef],
        )
    }
}

fn get_declared_classes(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let mut out = Vec::new();
    if let Some(cf) = &c.file {
        for ic in &cf.inner_classes {
            if ic.outer_class_info == 0 || ic.inner_name == 0 {
                continue;
            }
            if cf.constant_pool.class_name(ic.outer_class_info) != Some(&*c.name) {
                continue;
            }
            if let Some(n) = cf.constant_pool.class_name(ic.inner_class_info) {
                let n = n.to_string();
                out.push(t.load_class(c.loader, &n)?);
            }
        }
    }
    Ok(class_array(t, &out)?.slot())
}

/// getNestMembers0: the nest host, then the members it lists that load and agree that it is
/// their host (HotSpot skips the others; VirtualMachineErrors propagate).
fn get_nest_members(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let host = super::lang::class_nest_host(t, c);
    t.load_references(host)?;
    let mut out = vec![host];
    if let Some(cf) = &host.file {
        let names: Vec<String> = cf
            .nest_members
            .iter()
            .filter_map(|&i| cf.constant_pool.class_name(i).map(str::to_string))
            .collect();
        for n in names {
            let member = t.vm.classes.load(host.loader, &n).ok();
            if let Some(k) = member
                .filter(|k| !k.is_array() && std::ptr::eq(super::lang::class_nest_host(t, k), host))
            {
                out.push(k);
            }
        }
    }
    Ok(class_array(t, &out)?.slot())
}

fn get_permitted_subclasses(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let Some(cf) = &c.file else { return Ok(0) };
    if cf.permitted_subclasses.is_empty() {
        return Ok(0);
    }
    let names: Vec<String> = cf
        .permitted_subclasses
        .iter()
        .filter_map(|&i| cf.constant_pool.class_name(i).map(str::to_string))
        .collect();
    let mut out = Vec::new();
    for n in names {
        out.push(t.load_class(c.loader, &n)?);
    }
    Ok(class_array(t, &out)?.slot())
}

fn get_record_components(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = reflected_class(t, a[0])?;
    let Some(comps) = c.file.as_ref().and_then(|f| f.record.clone()) else {
        return Ok(0);
    };
    let rcc = t.load_boot("java/lang/reflect/RecordComponent")?;
    t.ensure_initialized(rcc)?;
    let arr = t.new_array_of(rcc, comps.len() as i32)?;
    let arr_h = t.handle(arr);
    for (i, rc) in comps.iter().enumerate() {
        let accessor = match c.declared_method(&rc.name, &format!("(){}", rc.descriptor)) {
            Some(acc) => Some(reflect_method(t, acc)?),
            None => None,
        };
        let acc_h = accessor.map(|a| t.handle(a));
        let o = t.alloc_object(rcc)?;
        let f = t.jdk::<jdk::RecordComponent>(o)?;
        let domain = t.domain.clone();
        let set = |o: ObjRef, off: usize, v: u64| domain.heap.write_slot(o, off, v);
        let mirror = t.mirror(c)?;
        set(o, f.clazz, mirror.slot());
        let name = t.intern(&rc.name)?;
        set(o, f.name, name.slot());
        let ty = class_for_descriptor(t, c.loader, &rc.descriptor)?;
        let tm = t.mirror(ty)?;
        set(o, f.type_, tm.slot());
        if let Some(h) = acc_h {
            set(o, f.accessor, t.handle_get(h).slot());
        }
        if let Some(s) = &rc.signature {
            let s = t.new_string(s)?;
            set(o, f.signature, s.slot());
        }
        let ann = opt_bytes(t, rc.runtime_visible_annotations.as_deref())?;
        set(o, f.annotations, ann);
        let type_ann = opt_bytes(t, rc.runtime_visible_type_annotations.as_deref())?;
        set(o, f.type_annotations, type_ann);
        let arr = t.handle_get(arr_h);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(o));
        if let Some(h) = acc_h {
            t.handles.truncate(h);
        }
    }
    Ok(t.handle_get(arr_h).slot())
}

fn get_parameters(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = nonnull(t, a[0])?;
    let m = method_from_reflect(t, this)?;
    let params = &m.info.method_parameters;
    if params.is_empty() {
        return Ok(0);
    }
    let pc = t.load_boot("java/lang/reflect/Parameter")?;
    t.ensure_initialized(pc)?;
    let arr = t.new_array_of(pc, params.len() as i32)?;
    let arr_h = t.handle(arr);
    let cp = m.class.file.as_ref().map(|f| &f.constant_pool);
    for (i, &(name_idx, flags)) in params.iter().enumerate() {
        let name = match (name_idx != 0)
            .then(|| cp.and_then(|cp| cp.utf8(name_idx)))
            .flatten()
        {
            Some(n) => t.new_string(n)?.slot(),
            None => 0,
        };
        let this = t.arg(0);
        let p = t.construct(
            pc,
            "(Ljava/lang/String;ILjava/lang/reflect/Executable;I)V",
            &[name, flags as u64, this, i as u64],
        )?;
        let arr = t.handle_get(arr_h);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(p));
    }
    Ok(t.handle_get(arr_h).slot())
}

// ---- jdk.internal.reflect.ConstantPool (used by annotation parsing) ----

fn register_constant_pool(r: &mut Registry) {
    let k = "jdk/internal/reflect/ConstantPool";
    r.add(k, "getSize0", "(Ljava/lang/Object;)I", |t, a| {
        let c = mirror_class(t, a[1])?;
        Ok(ret_int(
            c.file.as_ref().map_or(0, |f| f.constant_pool.len() as i32),
        ))
    });
    r.add(k, "getTagAt0", "(Ljava/lang/Object;I)B", |t, a| {
        let c = cp_holder(t, a, &[])?;
        Ok(ret_int(constant(c, jint(a[2])).map_or(0, tag_of) as i32))
    });
    r.add(
        k,
        "getIntAt0",
        "(Ljava/lang/Object;I)I",
        |t, a| match cp_entry(t, a)? {
            classfile::Constant::Integer(v) => Ok(ret_int(v)),
            _ => Err(bad_cp(t)),
        },
    );
    r.add(
        k,
        "getLongAt0",
        "(Ljava/lang/Object;I)J",
        |t, a| match cp_entry(t, a)? {
            classfile::Constant::Long(v) => Ok(v as u64),
            _ => Err(bad_cp(t)),
        },
    );
    r.add(
        k,
        "getFloatAt0",
        "(Ljava/lang/Object;I)F",
        |t, a| match cp_entry(t, a)? {
            classfile::Constant::Float(v) => Ok(v.to_bits() as u64),
            _ => Err(bad_cp(t)),
        },
    );
    r.add(
        k,
        "getDoubleAt0",
        "(Ljava/lang/Object;I)D",
        |t, a| match cp_entry(t, a)? {
            classfile::Constant::Double(v) => Ok(v.to_bits()),
            _ => Err(bad_cp(t)),
        },
    );
    r.add(
        k,
        "getUTF8At0",
        "(Ljava/lang/Object;I)Ljava/lang/String;",
        |t, a| {
            let c = cp_holder(t, a, &[classfile::tag::UTF8])?;
            let u = c
                .file
                .as_ref()
                .and_then(|f| f.constant_pool.utf8_entry(jint(a[2]) as u16))
                .map(|u| u.utf16());
            match u {
                Some(u) => Ok(t.intern_utf16(&u)?.slot()),
                None => Err(bad_cp(t)),
            }
        },
    );
    r.add(
        k,
        "getStringAt0",
        "(Ljava/lang/Object;I)Ljava/lang/String;",
        |t, a| {
            let c = cp_holder(t, a, &[classfile::tag::STRING])?;
            let u = c
                .file
                .as_ref()
                .and_then(|f| f.constant_pool.string(jint(a[2]) as u16))
                .map(|u| u.utf16());
            match u {
                Some(u) => Ok(t.intern_utf16(&u)?.slot()),
                None => Err(bad_cp(t)),
            }
        },
    );
    r.add(
        k,
        "getClassAt0",
        "(Ljava/lang/Object;I)Ljava/lang/Class;",
        |t, a| {
            let c = cp_holder(t, a, &[classfile::tag::CLASS])?;
            t.load_references(c)?;
            let k = t.resolve_class_ref(c, jint(a[2]) as u16)?;
            Ok(t.mirror(k)?.slot())
        },
    );
    r.add(
        k,
        "getClassAtIfLoaded0",
        "(Ljava/lang/Object;I)Ljava/lang/Class;",
        |t, a| {
            let c = cp_holder(t, a, &[classfile::tag::CLASS])?;
            let i = jint(a[2]) as u16;
            let resolved = match c.cp_cache[i as usize].get() {
                Some(crate::class::resolve::Resolved::Class(k)) => Some(*k),
                _ => None,
            };
            let name = c.file.as_ref().and_then(|f| f.constant_pool.class_name(i));
            match resolved.or_else(|| name.and_then(|n| loaded_for(t, c.loader, n))) {
                Some(k) => Ok(t.mirror(k)?.slot()),
                None => Ok(0),
            }
        },
    );
    r.add(
        k,
        "getClassRefIndexAt0",
        "(Ljava/lang/Object;I)I",
        |t, a| {
            let c = cp_holder(t, a, &MEMBER_REFS)?;
            match constant(c, jint(a[2])) {
                Some(classfile::Constant::FieldRef { class_index, .. })
                | Some(classfile::Constant::MethodRef { class_index, .. })
                | Some(classfile::Constant::InterfaceMethodRef { class_index, .. }) => {
                    Ok(ret_int(*class_index as i32))
                }
                _ => Err(bad_cp(t)),
            }
        },
    );
    r.add(
        k,
        "getNameAndTypeRefIndexAt0",
        "(Ljava/lang/Object;I)I",
        |t, a| {
            use classfile::tag;
            let c = cp_holder(
                t,
                a,
                &[
                    tag::FIELDREF,
                    tag::METHODREF,
                    tag::INTERFACE_METHODREF,
                    tag::INVOKE_DYNAMIC,
                    tag::DYNAMIC,
                ],
            )?;
            match constant(c, jint(a[2])) {
                Some(classfile::Constant::FieldRef {
                    name_and_type_index,
                    ..
                })
                | Some(classfile::Constant::MethodRef {
                    name_and_type_index,
                    ..
                })
                | Some(classfile::Constant::InterfaceMethodRef {
                    name_and_type_index,
                    ..
                })
                | Some(classfile::Constant::InvokeDynamic {
                    name_and_type_index,
                    ..
                })
                | Some(classfile::Constant::Dynamic {
                    name_and_type_index,
                    ..
                }) => Ok(ret_int(*name_and_type_index as i32)),
                _ => Err(bad_cp(t)),
            }
        },
    );
    r.add(
        k,
        "getNameAndTypeRefInfoAt0",
        "(Ljava/lang/Object;I)[Ljava/lang/String;",
        |t, a| {
            let c = cp_holder(t, a, &[classfile::tag::NAME_AND_TYPE])?;
            let nt = c
                .file
                .as_ref()
                .and_then(|f| f.constant_pool.name_and_type(jint(a[2]) as u16))
                .map(|(n, d)| [n.to_string(), d.to_string()]);
            match nt {
                Some(parts) => string_array(t, &parts),
                None => Err(bad_cp(t)),
            }
        },
    );
    r.add(
        k,
        "getMemberRefInfoAt0",
        "(Ljava/lang/Object;I)[Ljava/lang/String;",
        |t, a| {
            let c = cp_holder(t, a, &MEMBER_REFS)?;
            let r = c
                .file
                .as_ref()
                .and_then(|f| f.constant_pool.member_ref(jint(a[2]) as u16));
            match r.map(|r| {
                [
                    r.class_name.to_string(),
                    r.name.to_string(),
                    r.descriptor.to_string(),
                ]
            }) {
                Some(parts) => string_array(t, &parts),
                None => Err(bad_cp(t)),
            }
        },
    );
    r.add(
        k,
        "getMethodAt0",
        "(Ljava/lang/Object;I)Ljava/lang/reflect/Member;",
        |t, a| cp_method(t, a, false),
    );
    r.add(
        k,
        "getMethodAtIfLoaded0",
        "(Ljava/lang/Object;I)Ljava/lang/reflect/Member;",
        |t, a| cp_method(t, a, true),
    );
    r.add(
        k,
        "getFieldAt0",
        "(Ljava/lang/Object;I)Ljava/lang/reflect/Field;",
        |t, a| cp_field(t, a, false),
    );
    r.add(
        k,
        "getFieldAtIfLoaded0",
        "(Ljava/lang/Object;I)Ljava/lang/reflect/Field;",
        |t, a| cp_field(t, a, true),
    );
}

const MEMBER_REFS: [u8; 3] = [
    classfile::tag::FIELDREF,
    classfile::tag::METHODREF,
    classfile::tag::INTERFACE_METHODREF,
];

/// The class whose pool a ConstantPool native reads, after HotSpot's checks: the index is in
/// range (else "Constant pool index out of bounds") and tagged as one of `tags` (any tag if
/// `tags` is empty).
fn cp_holder(t: &mut JThread, a: &[u64], tags: &[u8]) -> JResult<&'static Class> {
    let c = mirror_class(t, a[1])?;
    let i = jint(a[2]);
    let len = c.file.as_ref().map_or(0, |f| f.constant_pool.len() as i32);
    if i < 0 || i >= len {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("Constant pool index out of bounds"),
        ));
    }
    if !tags.is_empty() && !constant(c, i).is_some_and(|k| tags.contains(&tag_of(k))) {
        return Err(bad_cp(t));
    }
    Ok(c)
}

fn string_array(t: &mut JThread, parts: &[String]) -> JResult<u64> {
    let string = t.vm.wk().string;
    let arr = t.new_array_of(string, parts.len() as i32)?;
    for (i, p) in parts.iter().enumerate() {
        let s = t.intern(p)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(s));
    }
    Ok(arr.slot())
}

/// getMethodAt0 / getMethodAtIfLoaded0: the Method or Constructor a method reference names
/// (null from the IfLoaded form when its class is not loaded).
fn cp_method(t: &mut JThread, a: &[u64], if_loaded: bool) -> JResult<u64> {
    use classfile::tag;
    let Some((k, name, desc)) =
        cp_member(t, a, &[tag::METHODREF, tag::INTERFACE_METHODREF], if_loaded)?
    else {
        return Ok(0);
    };
    // As HotSpot: only the named class's own methods.
    match k.declared_method(name, desc) {
        Some(m) if &*m.name != "<clinit>" => Ok(reflect_method(t, m)?.slot()),
        _ => Err(t.throw_new(
            "java/lang/RuntimeException",
            Some("Unable to look up method in target class"),
        )),
    }
}

/// getFieldAt0 / getFieldAtIfLoaded0: the Field a field reference names.
fn cp_field(t: &mut JThread, a: &[u64], if_loaded: bool) -> JResult<u64> {
    let Some((k, name, desc)) = cp_member(t, a, &[classfile::tag::FIELDREF], if_loaded)? else {
        return Ok(0);
    };
    let Some((holder, f)) = crate::class::resolve::find_field(k, name, desc) else {
        return Err(t.throw_new(
            "java/lang/RuntimeException",
            Some("Unable to look up field in target class"),
        ));
    };
    Ok(reflect_field(t, holder, f)?.slot())
}

/// The member reference at the pool index in `a` (one of `tags`): its class, loaded, with the
/// member's name and descriptor; `None` for the IfLoaded forms when the class is not loaded.
fn cp_member(
    t: &mut JThread,
    a: &[u64],
    tags: &[u8],
    if_loaded: bool,
) -> JResult<Option<(&'static Class, &'static str, &'static str)>> {
    let c = cp_holder(t, a, tags)?;
    let idx = jint(a[2]) as u16;
    if if_loaded && !member_class_loaded(t, c, idx) {
        return Ok(None);
    }
    t.load_references(c)?;
    let Some(r) = c
        .file
        .as_ref()
        .and_then(|f| f.constant_pool.member_ref(idx))
    else {
        return Err(bad_cp(t));
    };
    let k = t.load_class(c.loader, r.class_name)?;
    Ok(Some((k, r.name, r.descriptor)))
}

/// Whether the class named by member reference `idx` of `c` is loaded for `c`'s loader.
fn member_class_loaded(t: &JThread, c: &Class, idx: u16) -> bool {
    let name = c
        .file
        .as_ref()
        .and_then(|f| f.constant_pool.member_ref(idx))
        .map(|r| r.class_name);
    name.is_some_and(|n| loaded_for(t, c.loader, n).is_some())
}

/// Class `name` if `loader` can see it without loading anything: recorded for that loader, or
/// already defined by the boot or (for others than boot) platform loader it delegates to.
fn loaded_for(t: &JThread, loader: LoaderId, name: &str) -> Option<&'static Class> {
    let table = &t.vm.classes;
    table
        .find_loaded(loader, name)
        .or_else(|| table.find_loaded(LoaderId::BOOT, name))
        .or_else(|| {
            if loader != LoaderId::BOOT {
                table.find_loaded(LoaderId::PLATFORM, name)
            } else {
                None
            }
        })
}

fn constant(c: &Class, i: i32) -> Option<&classfile::Constant> {
    c.file.as_ref()?.constant_pool.get(u16::try_from(i).ok()?)
}

fn tag_of(k: &classfile::Constant) -> u8 {
    use classfile::{Constant as K, tag};
    match k {
        K::Unusable => 0,
        K::Utf8(_) => tag::UTF8,
        K::Integer(_) => tag::INTEGER,
        K::Float(_) => tag::FLOAT,
        K::Long(_) => tag::LONG,
        K::Double(_) => tag::DOUBLE,
        K::Class { .. } => tag::CLASS,
        K::String { .. } => tag::STRING,
        K::FieldRef { .. } => tag::FIELDREF,
        K::MethodRef { .. } => tag::METHODREF,
        K::InterfaceMethodRef { .. } => tag::INTERFACE_METHODREF,
        K::NameAndType { .. } => tag::NAME_AND_TYPE,
        K::MethodHandle { .. } => tag::METHOD_HANDLE,
        K::MethodType { .. } => tag::METHOD_TYPE,
        K::Dynamic { .. } => tag::DYNAMIC,
        K::InvokeDynamic { .. } => tag::INVOKE_DYNAMIC,
        K::Module { .. } => tag::MODULE,
        K::Package { .. } => tag::PACKAGE,
    }
}

fn cp_entry(t: &mut JThread, a: &[u64]) -> JResult<classfile::Constant> {
    use classfile::tag;
    let c = cp_holder(t, a, &[tag::INTEGER, tag::FLOAT, tag::LONG, tag::DOUBLE])?;
    match constant(c, jint(a[2])) {
        Some(k) => Ok(k.clone()),
        None => Err(bad_cp(t)),
    }
}

fn bad_cp(t: &mut JThread) -> Thrown {
    t.throw_new(
        "java/lang/IllegalArgumentException",
        Some("Wrong type at constant pool index"),
    )
}

// ---- java.lang.reflect.Array ----

/// Array classes have at most this many dimensions (JVMS §4.4.1).
const MAX_DIMS: usize = 255;

fn array_new(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = mirror_class(t, a[0])?;
    let len = jint(a[1]);
    if len < 0 {
        return Err(t.throw_new(
            "java/lang/NegativeArraySizeException",
            Some(&len.to_string()),
        ));
    }
    if (c.is_primitive() && c.name.as_ref() == "void") || c.dims as usize >= MAX_DIMS {
        return Err(t.throw_new("java/lang/IllegalArgumentException", None));
    }
    Ok(t.new_array_of(c, len)?.slot())
}

fn array_multi_new(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let mut c = mirror_class(t, a[0])?;
    let dims = nonnull(t, a[1])?;
    let lens: Vec<i32> = dims.array_slice::<i32>().to_vec();
    if lens.is_empty() || lens.len() > MAX_DIMS {
        return Err(t.throw_new("java/lang/IllegalArgumentException", None));
    }
    if let Some(&neg) = lens.iter().find(|&&l| l < 0) {
        return Err(t.throw_new(
            "java/lang/NegativeArraySizeException",
            Some(&neg.to_string()),
        ));
    }
    if (c.is_primitive() && c.name.as_ref() == "void") || c.dims as usize + lens.len() > MAX_DIMS {
        return Err(t.throw_new("java/lang/IllegalArgumentException", None));
    }
    for _ in 0..lens.len() {
        c = t.array_class_of(c)?;
    }
    Ok(t.multi_array(c, &lens)?.slot())
}

fn checked_array(t: &mut JThread, v: u64) -> JResult<ObjRef> {
    let arr = nonnull(t, v)?;
    if !arr.class().is_array() {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("Argument is not an array"),
        ));
    }
    Ok(arr)
}

fn array_get_length(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let arr = checked_array(t, a[0])?;
    Ok(ret_int(arr.array_len() as i32))
}

fn array_get(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (arr, ty, off) = element(t, a[0], jint(a[1]))?;
    let v = crate::runtime::fields::load_field(arr, off, ty, false);
    if ty == BasicType::Ref {
        return Ok(v);
    }
    Ok(to_slot(Some(box_value(t, ty, v)?)))
}

/// Array.set: a primitive array's value is unboxed (and widened) before the bounds check, as
/// HotSpot does.
fn array_set(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let arr = checked_array(t, a[0])?;
    let ty = arr.class().array_elem();
    let v = if ty == BasicType::Ref {
        a[2]
    } else {
        unbox_value(t, obj(a[2]), ty)?
    };
    let (arr, _, off) = element(t, arr.slot(), jint(a[1]))?;
    if ty == BasicType::Ref {
        if let Some(v) = obj(v) {
            let comp = arr.class().array_component().expect("array");
            if !v.class().is_subtype_of(comp) {
                return Err(t.throw_new(
                    "java/lang/IllegalArgumentException",
                    Some("array element type mismatch"),
                ));
            }
        }
        t.domain.heap.write_slot(arr, off, v);
        return Ok(0);
    }
    crate::runtime::fields::store_field(&t.domain.heap, arr, off, ty, false, v);
    Ok(0)
}

/// The element offset of `a[i]` after null, array and bounds checks.
fn element(t: &mut JThread, arr: u64, i: i32) -> JResult<(ObjRef, BasicType, usize)> {
    let arr = checked_array(t, arr)?;
    if i < 0 || i as usize >= arr.array_len() {
        // HotSpot's reflective array access throws it without a message.
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
    }
    let ty = arr.class().array_elem();
    Ok((arr, ty, ARRAY_BASE + i as usize * ty.size()))
}

/// A non-null array of primitives, or IllegalArgumentException.
fn primitive_array(t: &mut JThread, v: u64) -> JResult<()> {
    let arr = checked_array(t, v)?;
    if arr.class().array_elem() == BasicType::Ref {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("Argument is not an array of primitive type"),
        ));
    }
    Ok(())
}

/// Array.getInt and friends: reads a primitive element and widens it to `want`.
fn array_get_typed(t: &mut JThread, a: &[u64], want: BasicType) -> JResult<u64> {
    primitive_array(t, a[0])?;
    let (arr, ty, off) = element(t, a[0], jint(a[1]))?;
    let v = crate::runtime::fields::load_field(arr, off, ty, false);
    widen(t, ty, want, v)
}

/// Array.setInt and friends: widens the value to the element type and stores it.
fn array_set_typed(t: &mut JThread, a: &[u64], have: BasicType) -> JResult<u64> {
    primitive_array(t, a[0])?;
    let (arr, ty, off) = element(t, a[0], jint(a[1]))?;
    let v = widen(t, have, ty, a[2])?;
    crate::runtime::fields::store_field(&t.domain.heap, arr, off, ty, false, v);
    Ok(0)
}

// ---- boxing ----

fn wrapper_name(ty: BasicType) -> &'static str {
    ty.wrapper_class()
}

/// Boxes a primitive slot value with the wrapper's `valueOf`.
pub fn box_value(t: &mut JThread, ty: BasicType, v: u64) -> JResult<ObjRef> {
    let desc = format!("({})L{};", ty.descriptor_char(), wrapper_name(ty));
    let r = t.call_static(wrapper_name(ty), "valueOf", &desc, &[v, 0])?;
    Ok(obj(r).expect("valueOf returned null"))
}

/// Unboxes (with widening) a wrapper into a primitive of type `ty`.
pub fn unbox_value(t: &mut JThread, o: Option<ObjRef>, ty: BasicType) -> JResult<u64> {
    let Some(o) = o else {
        return Err(t.throw_new("java/lang/IllegalArgumentException", None));
    };
    let name = &*o.class().name;
    let src = match name {
        "java/lang/Boolean" => BasicType::Boolean,
        "java/lang/Byte" => BasicType::Byte,
        "java/lang/Character" => BasicType::Char,
        "java/lang/Short" => BasicType::Short,
        "java/lang/Integer" => BasicType::Int,
        "java/lang/Float" => BasicType::Float,
        "java/lang/Long" => BasicType::Long,
        "java/lang/Double" => BasicType::Double,
        _ => {
            return Err(t.throw_new(
                "java/lang/IllegalArgumentException",
                Some("argument type mismatch"),
            ));
        }
    };
    let off = match src {
        BasicType::Boolean => t.jdk::<jdk::BooleanBox>(o)?.value,
        BasicType::Byte => t.jdk::<jdk::ByteBox>(o)?.value,
        BasicType::Char => t.jdk::<jdk::CharacterBox>(o)?.value,
        BasicType::Short => t.jdk::<jdk::ShortBox>(o)?.value,
        BasicType::Int => t.jdk::<jdk::IntegerBox>(o)?.value,
        BasicType::Float => t.jdk::<jdk::FloatBox>(o)?.value,
        BasicType::Long => t.jdk::<jdk::LongBox>(o)?.value,
        _ => t.jdk::<jdk::DoubleBox>(o)?.value,
    };
    let raw = crate::runtime::fields::load_field(o, off, src, false);
    widen(t, src, ty, raw)
}

/// Primitive widening conversion of a slot value (JLS §5.1.2); error if not allowed.
pub fn widen(t: &mut JThread, src: BasicType, dst: BasicType, v: u64) -> JResult<u64> {
    use BasicType::*;
    if src == dst {
        return Ok(v);
    }
    let as_i64 = |v: u64| -> i64 {
        match src {
            Long => v as i64,
            Char => v as u16 as i64,
            _ => v as i32 as i64,
        }
    };
    if !src.widens_to(dst) {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("argument type mismatch"),
        ));
    }
    Ok(match dst {
        Short | Int => as_i64(v) as i32 as u32 as u64,
        Long => as_i64(v) as u64,
        Float => {
            let f = if src == Long {
                as_i64(v) as f32
            } else {
                as_i64(v) as i32 as f32
            };
            f.to_bits() as u64
        }
        Double => {
            let d = match src {
                Float => f32::from_bits(v as u32) as f64,
                _ => as_i64(v) as f64,
            };
            d.to_bits()
        }
        _ => v,
    })
}

// ---- reflective invocation ----

/// The declaring class and `slot` of a reflective Field, Method or Constructor.
fn reflect_holder_and_slot(t: &JThread, o: ObjRef) -> (&'static Class, i32) {
    let (clazz, slot) =
        crate::jdk::reflect_member(o.class()).expect("a Field, Method or Constructor");
    let mirror = o.read_ref(clazz).expect("reflect object without class");
    (t.class_of_mirror(mirror), o.read::<i32>(slot))
}

pub fn method_from_reflect(t: &mut JThread, o: ObjRef) -> JResult<&'static Method> {
    let (k, idx) = reflect_holder_and_slot(t, o);
    Ok(&k.methods()[idx as usize])
}

/// Unboxes `args` (an Object[]) into slots for `m`'s parameters.
pub fn unpack_args(
    t: &mut JThread,
    m: &'static Method,
    args: Option<ObjRef>,
    out: &mut Vec<u64>,
) -> JResult<()> {
    let n = args.map_or(0, |a| a.array_len());
    if n != m.param_types.len() {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("wrong number of arguments"),
        ));
    }
    let (pdescs, _) = split_method_descriptor(&m.descriptor);
    for (i, &ty) in m.param_types.iter().enumerate() {
        let v = args.and_then(|a| a.read_ref(ARRAY_BASE + i * 8));
        if ty == BasicType::Ref {
            if let Some(v) = v {
                let pc = class_for_descriptor(t, m.class.loader, pdescs[i])?;
                if !v.class().is_subtype_of(pc) {
                    return Err(t.throw_new(
                        "java/lang/IllegalArgumentException",
                        Some("argument type mismatch"),
                    ));
                }
            }
            out.push(to_slot(v));
        } else {
            let raw = unbox_value(t, v, ty)?;
            out.push(raw);
            if ty.slots() == 2 {
                out.push(0);
            }
        }
    }
    Ok(())
}

fn wrap_invocation_target(t: &mut JThread) -> Thrown {
    let cause = t.exception.take();
    match t.load_boot("java/lang/reflect/InvocationTargetException") {
        Ok(c) => {
            if let Ok(o) = t.construct(c, "(Ljava/lang/Throwable;)V", &[to_slot(cause)]) {
                t.exception = Some(o);
            }
            Thrown
        }
        Err(e) => e,
    }
}

/// Refuses reflective use of a member the API module does not export, even after
/// `setAccessible` (which java.base code may have called on a program's behalf, as
/// `ReflectionFactory.newConstructorForSerialization` does): see `crate::api::may_access`.
fn check_api_access(t: &mut JThread, m: &'static crate::class::Method) -> JResult<()> {
    if crate::api::may_access(None, m.class, m.access) {
        return Ok(());
    }
    let msg = format!(
        "{} is not accessible: module {} does not open it",
        crate::class::resolve::pretty_method(m.class, &m.name, &m.descriptor),
        crate::api::MODULE
    );
    Err(t.throw_new("java/lang/IllegalAccessException", Some(&msg)))
}

fn method_invoke0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let mo = nonnull(t, a[0])?;
    let m = method_from_reflect(t, mo)?;
    check_api_access(t, m)?;
    let mut slots = Vec::with_capacity(m.arg_slots as usize);
    let target = if m.is_static() {
        t.ensure_initialized(m.class)?;
        m
    } else {
        let recv = nonnull(t, a[1])?;
        if !recv.class().is_subtype_of(m.class) {
            return Err(t.throw_new(
                "java/lang/IllegalArgumentException",
                Some("object is not an instance of declaring class"),
            ));
        }
        slots.push(recv.slot());
        if m.is_private() {
            m
        } else {
            crate::class::loader::select_interface_method(recv.class(), &m.name, &m.descriptor)
                .filter(|s| !s.is_abstract())
                .unwrap_or(m)
        }
    };
    // Initializing a static method's class may have run a collection: read `args` afresh.
    unpack_args(t, m, obj(t.arg(2)), &mut slots)?;
    let r = match crate::interp::exec::call(t, target, &slots) {
        Ok(r) => r,
        Err(Thrown) => return Err(wrap_invocation_target(t)),
    };
    match m.ret {
        BasicType::Void => Ok(0),
        BasicType::Ref => Ok(r),
        ty => Ok(box_value(t, ty, r)?.slot()),
    }
}

fn constructor_new_instance0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let co = nonnull(t, a[0])?;
    let m = method_from_reflect(t, co)?;
    check_api_access(t, m)?;
    let c = m.class;
    if c.is_abstract() {
        return Err(t.throw_new("java/lang/InstantiationException", None));
    }
    t.ensure_initialized(c)?;
    let o = t.alloc_object(c)?;
    let h = t.handle(o);
    let mut slots = vec![o.slot()];
    // Initializing the class may have run a collection: read `args` afresh.
    unpack_args(t, m, obj(t.arg(1)), &mut slots)?;
    if crate::interp::exec::call(t, m, &slots).is_err() {
        return Err(wrap_invocation_target(t));
    }
    Ok(t.handle_get(h).slot())
}

/// Class.getProtectionDomain0: the ProtectionDomain the class was defined with
/// (`ClassLoader.defineClass`'s, kept in the domain's state of the class); for a class the VM
/// loaded itself from the application class path, the one `BuiltinClassLoader.defineClass`
/// would have given it: its loader's `getProtectionDomain` of the class path entry's
/// `CodeSource` (made on first request, then kept; the loader caches one per entry); for a
/// lambda proxy, its caller's (HotSpot defines it with the caller's lookup). Null
/// (all permissions, no code source) for the others: boot and platform classes, classes
/// defined without one, arrays and primitives.
fn protection_domain(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let mirror = nonnull(t, a[0])?;
    let c = t.class_of_mirror(mirror);
    protection_domain_of(t, c)
}

/// The ProtectionDomain of `c` (see `protection_domain`); a lambda proxy's is its caller's.
fn protection_domain_of(t: &mut JThread, c: &'static Class) -> JResult<u64> {
    if let Some(pd) = *t.domain.class_state(c).protection_domain.lock() {
        return Ok(pd.slot());
    }
    if let Some(shape) = &c.lambda {
        return protection_domain_of(t, shape.caller);
    }
    if c.hidden || !matches!(c.kind, ClassKind::Instance) || !c.loader.is_app() {
        return Ok(0);
    }
    let (Some(url), Some(loader)) = (
        t.vm.classes.app_entry_url(c.loader, &c.name),
        t.domain.loader_object(c.loader),
    ) else {
        return Ok(0);
    };
    let loader = t.handle(loader);
    let url_class = t.load_boot("java/net/URL")?;
    let spec = t.new_string(&url)?;
    let url = t.construct(url_class, "(Ljava/lang/String;)V", &[spec.slot()])?;
    let cs_class = t.load_boot("java/security/CodeSource")?;
    let cs = t.construct(
        cs_class,
        "(Ljava/net/URL;[Ljava/security/CodeSigner;)V",
        &[url.slot(), 0],
    )?;
    let recv = t.handle_get(loader);
    t.handles.truncate(loader);
    let pd = t.call_virtual(
        recv,
        "getProtectionDomain",
        "(Ljava/security/CodeSource;)Ljava/security/ProtectionDomain;",
        &[cs.slot()],
    )?;
    if let Some(pd) = obj(pd) {
        t.domain
            .class_state(c)
            .protection_domain
            .lock()
            .get_or_insert(pd);
    }
    Ok(pd)
}

/// Keeps `pd` (a `ClassLoader.defineClass` argument) as the ProtectionDomain of the class
/// whose mirror is `defined`.
pub fn keep_protection_domain(t: &JThread, defined: u64, pd: u64) {
    if let (Some(mirror), Some(pd)) = (obj(defined), obj(pd)) {
        let c = t.class_of_mirror(mirror);
        *t.domain.class_state(c).protection_domain.lock() = Some(pd);
    }
}
