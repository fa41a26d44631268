//! Natives of java.lang (Object, Class basics, System, Runtime, String, Float/Double,
//! StrictMath, Throwable and StackTraceElement, Module, ClassLoader, BootLoader, ref,
//! SecurityManager.getClassContext) and of java.security.AccessController and
//! jdk.internal.reflect.Reflection.

use std::sync::atomic::Ordering;

use super::{Registry, jint, nonnull, obj, ret_bool, ret_int};
use crate::class::{BasicType, Class, LoaderId, MethodId};
use crate::heap::{ObjRef, copy_array_bytes};
use crate::jdk::{self, JdkClass};
use crate::thread::monitor::{MonitorError, identity_hash, monitor_of, notify};
use crate::thread::{JResult, JThread, Thrown};
use crate::vm::Vm;
use base::layout::ARRAY_BASE;

pub fn register(r: &mut Registry) {
    let o = "java/lang/Object";
    r.add(o, "getClass", "()Ljava/lang/Class;", object_get_class);
    r.add(o, "hashCode", "()I", object_hash_code);
    r.add(o, "clone", "()Ljava/lang/Object;", object_clone);
    r.add(o, "notify", "()V", |t, a| object_notify(t, a, false));
    r.add(o, "notifyAll", "()V", |t, a| object_notify(t, a, true));
    r.add(o, "wait", "(J)V", object_wait);

    let s = "java/lang/System";
    r.add(s, "arraycopy", "", system_arraycopy);
    r.add(s, "currentTimeMillis", "()J", |t, _| {
        Ok(t.domain.host().current_time_millis() as u64)
    });
    r.add(s, "nanoTime", "()J", |t, _| {
        Ok(t.domain.host().nano_time() as u64)
    });
    r.add(
        s,
        "identityHashCode",
        "(Ljava/lang/Object;)I",
        system_identity_hash,
    );
    r.add(
        s,
        "mapLibraryName",
        "(Ljava/lang/String;)Ljava/lang/String;",
        map_library_name,
    );
    r.add(s, "setIn0", "(Ljava/io/InputStream;)V", |t, a| {
        set_system_stream(t, "in", a[0])
    });
    r.add(s, "setOut0", "(Ljava/io/PrintStream;)V", |t, a| {
        set_system_stream(t, "out", a[0])
    });
    r.add(s, "setErr0", "(Ljava/io/PrintStream;)V", |t, a| {
        set_system_stream(t, "err", a[0])
    });

    let rt = "java/lang/Runtime";
    r.add(rt, "availableProcessors", "()I", |t, _| {
        Ok(ret_int(t.domain.host().available_processors() as i32))
    });
    r.add(rt, "freeMemory", "()J", |t, _| {
        Ok((t.domain.heap.committed() - t.domain.heap.used()) as u64)
    });
    r.add(rt, "totalMemory", "()J", |t, _| {
        Ok(t.domain.heap.committed() as u64)
    });
    r.add(rt, "maxMemory", "()J", |t, _| {
        Ok(t.domain.heap.capacity() as u64)
    });
    r.add(rt, "gc", "()V", |t, _| {
        crate::gc::collect(t, crate::gc::Collection::Full, "System.gc()");
        Ok(0)
    });
    r.add("java/lang/Shutdown", "beforeHalt", "()V", |_, _| Ok(0));
    r.add("java/lang/Shutdown", "halt0", "(I)V", halt);

    r.add(
        "java/lang/String",
        "intern",
        "()Ljava/lang/String;",
        string_intern,
    );
    r.add("java/lang/StringUTF16", "isBigEndian", "()Z", |_, _| Ok(0));
    r.add("java/lang/Float", "floatToRawIntBits", "(F)I", |_, a| {
        Ok(a[0] & 0xFFFF_FFFF)
    });
    r.add("java/lang/Float", "intBitsToFloat", "(I)F", |_, a| {
        Ok(a[0] & 0xFFFF_FFFF)
    });
    r.add("java/lang/Double", "doubleToRawLongBits", "(D)J", |_, a| {
        Ok(a[0])
    });
    r.add("java/lang/Double", "longBitsToDouble", "(J)D", |_, a| {
        Ok(a[0])
    });
    register_strict_math(r);

    r.add(
        "java/lang/Throwable",
        "fillInStackTrace",
        "(I)Ljava/lang/Throwable;",
        throwable_fill_in,
    );
    r.add(
        "java/lang/NullPointerException",
        "getExtendedNPEMessage",
        "()Ljava/lang/String;",
        npe_extended_message,
    );
    r.add(
        "java/lang/StackTraceElement",
        "initStackTraceElements",
        "([Ljava/lang/StackTraceElement;Ljava/lang/Throwable;)V",
        ste_init_all,
    );

    let m = "java/lang/Module";
    r.add(m, "defineModule0", "", module_define);
    r.add(m, "addReads0", "", |_, _| Ok(0));
    r.add(m, "addExports0", "", |_, _| Ok(0));
    r.add(m, "addExportsToAll0", "", |_, _| Ok(0));
    r.add(m, "addExportsToAllUnnamed0", "", |_, _| Ok(0));

    let cl = "java/lang/ClassLoader";
    r.add(
        cl,
        "findBootstrapClass",
        "(Ljava/lang/String;)Ljava/lang/Class;",
        find_bootstrap_class,
    );
    r.add(
        cl,
        "findLoadedClass0",
        "(Ljava/lang/String;)Ljava/lang/Class;",
        find_loaded_class,
    );
    r.add(cl, "defineClass1", "", define_class1);
    r.add(cl, "defineClass0", "", define_class0);
    r.add(cl, "defineClass2", "", define_class2);
    r.add(
        cl,
        "retrieveDirectives",
        "()Ljava/lang/AssertionStatusDirectives;",
        retrieve_directives,
    );
    r.add(
        "jdk/internal/jimage/NativeImageBuffer",
        "getNativeMap",
        "(Ljava/lang/String;)Ljava/nio/ByteBuffer;",
        native_image_map,
    );
    let bl = "jdk/internal/loader/BootLoader";
    r.add(
        bl,
        "setBootLoaderUnnamedModule0",
        "(Ljava/lang/Module;)V",
        |t, a| {
            *t.domain.boot_unnamed_module.lock() = obj(a[0]);
            Ok(0)
        },
    );
    r.add(
        bl,
        "getSystemPackageLocation",
        "(Ljava/lang/String;)Ljava/lang/String;",
        system_package_location,
    );
    r.add(
        bl,
        "getSystemPackageNames",
        "()[Ljava/lang/String;",
        system_package_names,
    );
    let nl = "jdk/internal/loader/NativeLibraries";
    r.add(
        nl,
        "findBuiltinLib",
        "(Ljava/lang/String;)Ljava/lang/String;",
        find_builtin_lib,
    );
    r.add(nl, "load", "", native_libraries_load);
    r.add(nl, "unload", "", |_, _| Ok(0));

    let rf = "java/lang/ref/Reference";
    r.add(
        rf,
        "getAndClearReferencePendingList",
        "()Ljava/lang/ref/Reference;",
        |t, _| Ok(super::ret_obj(t.domain.pending_refs.lock().take())),
    );
    r.add(rf, "hasReferencePendingList", "()Z", |t, _| {
        Ok(ret_bool(t.domain.pending_refs.lock().is_some()))
    });
    r.add(
        rf,
        "waitForReferencePendingList",
        "()V",
        wait_for_pending_list,
    );
    r.add(
        rf,
        "refersTo0",
        "(Ljava/lang/Object;)Z",
        reference_refers_to,
    );
    r.add(
        "java/lang/ref/PhantomReference",
        "refersTo0",
        "(Ljava/lang/Object;)Z",
        reference_refers_to,
    );
    r.add(rf, "clear0", "()V", reference_clear);

    let ac = "java/security/AccessController";
    r.add(
        ac,
        "getStackAccessControlContext",
        "()Ljava/security/AccessControlContext;",
        |_, _| Ok(0),
    );
    r.add(
        ac,
        "getInheritedAccessControlContext",
        "()Ljava/security/AccessControlContext;",
        |_, _| Ok(0),
    );
    r.add(
        ac,
        "ensureMaterializedForStackWalk",
        "(Ljava/lang/Object;)V",
        |_, _| Ok(0),
    );
    r.add(
        ac,
        "getProtectionDomain",
        "(Ljava/lang/Class;)Ljava/security/ProtectionDomain;",
        |_, _| Ok(0),
    );

    r.add(
        "java/lang/SecurityManager",
        "getClassContext",
        "()[Ljava/lang/Class;",
        get_class_context,
    );

    let refl = "jdk/internal/reflect/Reflection";
    r.add(
        refl,
        "getCallerClass",
        "()Ljava/lang/Class;",
        get_caller_class,
    );
    r.add(
        refl,
        "getClassAccessFlags",
        "(Ljava/lang/Class;)I",
        |t, a| {
            let m = nonnull(t, a[0])?;
            Ok(ret_int(t.class_of_mirror(m).access as i32))
        },
    );
    r.add(
        refl,
        "areNestMates",
        "(Ljava/lang/Class;Ljava/lang/Class;)Z",
        are_nest_mates,
    );
}

// ---- Object ----

fn object_get_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = nonnull(t, a[0])?;
    Ok(t.mirror(o.class())?.slot())
}

fn object_hash_code(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = nonnull(t, a[0])?;
    Ok(ret_int(identity_hash(t.vm, &t.domain, o)))
}

fn system_identity_hash(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    Ok(match obj(a[0]) {
        Some(o) => ret_int(identity_hash(t.vm, &t.domain, o)),
        None => 0,
    })
}

fn object_clone(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = nonnull(t, a[0])?;
    let c = o.class();
    if !c.is_array() {
        let cloneable = t.load_boot("java/lang/Cloneable")?;
        if !c.is_subtype_of(cloneable) {
            return Err(t.throw_new("java/lang/CloneNotSupportedException", Some(&c.java_name())));
        }
    }
    let n = t.clone_object(o)?;
    if c.finalizable {
        // A copy of a finalizable object is finalized too (HotSpot's JVM_Clone); it is kept
        // in a handle while Java code registers it.
        let h = t.handle(n);
        let registered = t.register_finalizer(n);
        let n = t.handle_get(h);
        t.handles.truncate(h);
        registered?;
        return Ok(n.slot());
    }
    Ok(n.slot())
}

fn monitor_error(t: &mut JThread, e: MonitorError) -> Thrown {
    match e {
        MonitorError::NotOwner => t.throw_new(
            "java/lang/IllegalMonitorStateException",
            Some("current thread is not owner"),
        ),
        MonitorError::Interrupted => t.throw_new("java/lang/InterruptedException", None),
    }
}

fn object_notify(t: &mut JThread, a: &[u64], all: bool) -> JResult<u64> {
    let o = nonnull(t, a[0])?;
    match notify(&t.domain, o, t.lock_id.0, all) {
        Ok(()) => Ok(0),
        Err(e) => Err(monitor_error(t, e)),
    }
}

fn object_wait(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let o = nonnull(t, a[0])?;
    let ms = a[1] as i64;
    if ms < 0 {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("timeout value is negative"),
        ));
    }
    let timeout = (ms > 0).then(|| std::time::Duration::from_millis(ms as u64));
    let flag = t.interrupted.clone();
    let mon = monitor_of(&t.domain, o);
    let me = t.lock_id.0 as u64;
    let _ = o;
    if flag.swap(false, Ordering::SeqCst) {
        if !mon.is_owner(me) {
            return Err(monitor_error(t, MonitorError::NotOwner));
        }
        super::thread::clear_interrupt_field(t);
        return Err(monitor_error(t, MonitorError::Interrupted));
    }
    let status = if timeout.is_some() {
        super::thread::TIMED_WAITING
    } else {
        super::thread::WAITING
    };
    super::thread::set_current_status(t, status);
    let handle = super::thread::current_handle(t);
    if let Some(h) = &handle {
        *h.waiting_on.lock() = Some(mon.clone());
    }
    let r = t.blocking_counted(crate::thread::contention::Kind::Waited, || {
        mon.wait(me, timeout, &|| flag.load(Ordering::SeqCst))
    });
    if let Some(h) = &handle {
        *h.waiting_on.lock() = None;
    }
    super::thread::set_current_status(t, super::thread::RUNNABLE);
    match r {
        Ok(()) => Ok(0),
        Err(MonitorError::Interrupted) => {
            flag.store(false, Ordering::SeqCst);
            super::thread::clear_interrupt_field(t);
            Err(monitor_error(t, MonitorError::Interrupted))
        }
        Err(e) => Err(monitor_error(t, e)),
    }
}

// ---- System ----

fn system_arraycopy(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (Some(src), Some(dst)) = (obj(a[0]), obj(a[2])) else {
        return Err(t.throw_new("java/lang/NullPointerException", None));
    };
    let (sp, dp, len) = (jint(a[1]), jint(a[3]), jint(a[4]));
    let (sc, dc) = (src.class(), dst.class());
    if !sc.is_array() || !dc.is_array() {
        let which = if !sc.is_array() {
            ("source", sc)
        } else {
            ("destination", dc)
        };
        let msg = format!(
            "arraycopy: {} type {} is not an array",
            which.0,
            which.1.java_name()
        );
        return Err(t.throw_new("java/lang/ArrayStoreException", Some(&msg)));
    }
    let (se, de) = (sc.array_elem(), dc.array_elem());
    if se != de || (se != BasicType::Ref && !std::ptr::eq(sc, dc)) {
        let msg = format!(
            "arraycopy: type mismatch: can not copy {}[] into {}[]",
            array_type_name(sc),
            array_type_name(dc)
        );
        return Err(t.throw_new("java/lang/ArrayStoreException", Some(&msg)));
    }
    let (slen, dlen) = (src.array_len() as i64, dst.array_len() as i64);
    let bad = |what: &str, idx: i64, l: i64| -> String {
        format!(
            "arraycopy: {what} index {idx} out of bounds for {}[{l}]",
            array_type_name(sc)
        )
    };
    if sp < 0 || dp < 0 || len < 0 || sp as i64 + len as i64 > slen || dp as i64 + len as i64 > dlen
    {
        let msg = if sp < 0 {
            bad("source", sp as i64, slen)
        } else if dp < 0 {
            format!(
                "arraycopy: destination index {dp} out of bounds for {}[{dlen}]",
                array_type_name(dc)
            )
        } else if len < 0 {
            format!("arraycopy: length {len} is negative")
        } else if sp as i64 + len as i64 > slen {
            format!(
                "arraycopy: last source index {} out of bounds for {}[{slen}]",
                sp as i64 + len as i64,
                array_type_name(sc)
            )
        } else {
            format!(
                "arraycopy: last destination index {} out of bounds for {}[{dlen}]",
                dp as i64 + len as i64,
                array_type_name(dc)
            )
        };
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", Some(&msg)));
    }
    let es = se.size();
    if se == BasicType::Ref
        && !sc
            .array_component()
            .zip(dc.array_component())
            .is_some_and(|(s, d)| s.is_subtype_of(d))
    {
        // Element-wise with store checks.
        let comp = dc.array_component().expect("array");
        for i in 0..len as usize {
            let v = src.read_ref(ARRAY_BASE + (sp as usize + i) * 8);
            if let Some(v) = v
                && !v.class().is_subtype_of(comp)
            {
                let msg = format!(
                    "arraycopy: element type mismatch: can not cast one of the elements of {}[] to the type of the destination array, {}",
                    sc.array_component()
                        .map_or(String::new(), |c| c.java_name()),
                    comp.java_name()
                );
                return Err(t.throw_new("java/lang/ArrayStoreException", Some(&msg)));
            }
            t.domain
                .heap
                .write_ref(dst, ARRAY_BASE + (dp as usize + i) * 8, v);
        }
        return Ok(0);
    }
    copy_array_bytes(
        src,
        ARRAY_BASE + sp as usize * es,
        dst,
        ARRAY_BASE + dp as usize * es,
        len as usize * es,
    );
    if se == BasicType::Ref && len > 0 {
        t.domain.heap.post_bulk_write(dst);
    }
    Ok(0)
}

fn array_type_name(c: &Class) -> String {
    match c.array_elem() {
        BasicType::Ref => "object array".to_string(),
        t => t.java_name().to_string(),
    }
}

fn map_library_name(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let n = nonnull(t, a[0])?;
    let s = format!("lib{}.so", t.rust_string(n));
    Ok(t.new_string(&s)?.slot())
}

fn set_system_stream(t: &mut JThread, name: &str, v: u64) -> JResult<u64> {
    let sys = t.load_boot("java/lang/System")?;
    let f = sys
        .fields
        .iter()
        .find(|f| &*f.name == name && f.is_static())
        .expect("System stream field");
    let mirror = t.mirror(sys)?;
    t.domain
        .heap
        .write_slot(mirror, (t.vm.wk().statics_base + f.offset) as usize, v);
    Ok(0)
}

fn string_intern(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let s = nonnull(t, a[0])?;
    let units = t.string_utf16(s);
    let mut table = t.domain.strings.lock();
    Ok(table.entry(units.into()).or_insert(s).slot())
}

// ---- StrictMath (fdlibm semantics via the libm crate, a port of the same algorithms) ----

fn register_strict_math(r: &mut Registry) {
    macro_rules! d1 {
        ($name:literal, $f:expr) => {
            r.add("java/lang/StrictMath", $name, "(D)D", |_, a| {
                Ok(($f)(f64::from_bits(a[0])).to_bits())
            });
        };
    }
    macro_rules! d2 {
        ($name:literal, $f:expr) => {
            r.add("java/lang/StrictMath", $name, "(DD)D", |_, a| {
                Ok(($f)(f64::from_bits(a[0]), f64::from_bits(a[2])).to_bits())
            });
        };
    }
    d1!("sin", libm::sin);
    d1!("cos", libm::cos);
    d1!("tan", libm::tan);
    d1!("asin", libm::asin);
    d1!("acos", libm::acos);
    d1!("atan", libm::atan);
    d1!("exp", libm::exp);
    d1!("log", libm::log);
    d1!("log10", libm::log10);
    d1!("sqrt", libm::sqrt);
    d1!("cbrt", libm::cbrt);
    d1!("sinh", libm::sinh);
    d1!("cosh", libm::cosh);
    d1!("tanh", libm::tanh);
    d1!("expm1", libm::expm1);
    d1!("log1p", libm::log1p);
    d2!("atan2", libm::atan2);
    d2!("pow", libm::pow);
    d2!("hypot", libm::hypot);
    d2!("IEEEremainder", libm::remainder);
}

// ---- Throwable backtraces ----

/// One frame of a backtrace: method id and bytecode index (u32::MAX for native).
/// A backtrace entry: method `m`'s id and generation (so that a method unloaded since, whose
/// id was given to another, is not taken for that one: `class::ids`) and the bytecode index
/// (`u32::MAX` for a native frame; real ones are below 65535).
pub(crate) fn encode_frame(m: &crate::class::Method, bci: u32) -> i64 {
    let bci = if bci == u32::MAX {
        0xFFFF
    } else {
        bci.min(0xFFFE)
    };
    ((m.id.raw() as i64) << 32) | ((m.generation as i64) << 16) | bci as i64
}

/// The method and bytecode index of backtrace entry `e`; None if the method was unloaded.
pub(crate) fn decode_frame(vm: &Vm, e: i64) -> Option<(&'static crate::class::Method, u32)> {
    let m = vm.classes.method_by_id(MethodId((e >> 32) as u32))?;
    if m.generation != (e >> 16) as u16 {
        return None;
    }
    let bci = match e as u16 {
        0xFFFF => u32::MAX,
        b => b as u32,
    };
    Some((m, bci))
}

fn throwable_fill_in(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = nonnull(t, a[0])?;
    let ec = this.class();
    let frames: Vec<(&'static crate::class::Method, u32)> = {
        let mut it = t.frames.iter().rev().peekable();
        // Skip fillInStackTrace frames, then the exception's constructors.
        while it
            .peek()
            .is_some_and(|f| &*f.method.name == "fillInStackTrace")
        {
            it.next();
        }
        while it
            .peek()
            .is_some_and(|f| &*f.method.name == "<init>" && ec.is_subtype_of(f.method.class))
        {
            it.next();
        }
        it.filter(|f| !super::jli::is_hidden_frame(f.method))
            .map(|f| {
                let bci = if f.pc == u32::MAX {
                    u32::MAX
                } else {
                    f.method
                        .prepared
                        .get()
                        .and_then(|p| p.as_ref().ok())
                        .map_or(0, |p| p.bci(f.pc))
                };
                (f.method, bci)
            })
            .collect()
    };
    let long_class = t.vm.classes.primitive(BasicType::Long);
    let bt = t.new_array_of(long_class, frames.len() as i32)?;
    for (i, (m, bci)) in frames.iter().enumerate() {
        bt.write::<i64>(ARRAY_BASE + i * 8, encode_frame(m, *bci));
    }
    if std::env::var_os("JXVM_TRACE_EXCEPTIONS").is_some() {
        eprintln!("[exception] {}", ec.java_name());
        for f in backtrace_frames(t.vm, bt).iter().take(8) {
            eprintln!("[exception]     at {f}");
        }
    }
    let this_h = t.handle(this);
    let bt = with_mirrors(t, bt, &frames)?;
    let this = t.handle_get(this_h);
    let wk = t.vm.wk();
    t.domain
        .heap
        .write_ref(this, wk.throwable_backtrace as usize, Some(bt));
    this.write::<u32>(wk.throwable_depth as usize, frames.len() as u32);
    Ok(this.slot())
}

/// The backtrace to keep for `frames` (encoded in `bt`, a long[]): if some of their methods
/// are of classes that may be unloaded (see `Unit`), an Object[] of `bt` and their mirrors, so
/// that they stay loaded while the throwable lives (as on HotSpot: a stack trace printed later
/// names them); else `bt` alone.
fn with_mirrors(
    t: &mut JThread,
    bt: ObjRef,
    frames: &[(&'static crate::class::Method, u32)],
) -> JResult<ObjRef> {
    let mut classes: Vec<&'static Class> = Vec::new();
    for (m, _) in frames {
        if m.class.unit().is_collectible() && !classes.iter().any(|c| std::ptr::eq(*c, m.class)) {
            classes.push(m.class);
        }
    }
    if classes.is_empty() {
        return Ok(bt);
    }
    let bt = t.handle(bt);
    let object = t.load_boot("java/lang/Object")?;
    let objects = t.array_class_of(object)?;
    let holder = t.new_array_of(objects, 1 + classes.len() as i32)?;
    let holder = t.handle(holder);
    let frames_array = t.handle_get(bt);
    let h = t.handle_get(holder);
    t.domain.heap.write_ref(h, ARRAY_BASE, Some(frames_array));
    for (i, c) in classes.into_iter().enumerate() {
        let mirror = t.mirror(c)?;
        let h = t.handle_get(holder);
        t.domain
            .heap
            .write_ref(h, ARRAY_BASE + (1 + i) * 8, Some(mirror));
    }
    Ok(t.handle_get(holder))
}

/// The encoded frames (a long[]) of backtrace `bt` (see [`with_mirrors`]).
pub(crate) fn backtrace_entries(bt: ObjRef) -> Option<ObjRef> {
    let is_longs = |o: ObjRef| o.class().is_array() && o.class().array_elem() == BasicType::Long;
    if is_longs(bt) {
        return Some(bt);
    }
    if bt.class().is_array() && bt.class().array_elem() == BasicType::Ref && bt.array_len() > 0 {
        return bt.read_ref(ARRAY_BASE).filter(|&f| is_longs(f));
    }
    None
}

/// NullPointerException.getExtendedNPEMessage: analyzes the bytecode at the top frame.
fn npe_extended_message(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = nonnull(t, a[0])?;
    let Some(bt) = this
        .read_ref(t.vm.wk().throwable_backtrace as usize)
        .and_then(backtrace_entries)
    else {
        return Ok(0);
    };
    if bt.array_len() == 0 {
        return Ok(0);
    }
    let top = bt.array_slice::<i64>()[0];
    let Some((m, bci)) = decode_frame(t.vm, top) else {
        return Ok(0);
    };
    if bci == u32::MAX {
        return Ok(0);
    }
    match crate::code::npe::extended_message(m, bci) {
        Some(msg) => Ok(t.new_string(&msg)?.slot()),
        None => Ok(0),
    }
}

/// Decodes a backtrace into "Class.method(File:line)" strings (for boot diagnostics).
pub fn backtrace_frames(vm: &Vm, bt: ObjRef) -> Vec<String> {
    let Some(bt) = backtrace_entries(bt) else {
        return Vec::new();
    };
    bt.array_slice::<i64>()
        .iter()
        .filter_map(|&e| {
            let (m, bci) = decode_frame(vm, e)?;
            Some(m.frame_text(bci, ""))
        })
        .collect()
}

fn ste_init_all(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let elems = nonnull(t, a[0])?;
    let thr = nonnull(t, a[1])?;
    let wk = t.vm.wk();
    let Some(bt) = thr
        .read_ref(wk.throwable_backtrace as usize)
        .and_then(backtrace_entries)
    else {
        return Ok(0);
    };
    let entries: Vec<i64> = bt.array_slice::<i64>().to_vec();
    let fields = SteFields::of(t)?;
    let n = elems.array_len().min(entries.len());
    for (i, &e) in entries.iter().enumerate().take(n) {
        let Some(el) = elems.read_ref(ARRAY_BASE + i * 8) else {
            continue;
        };
        fields.fill(t, el, e)?;
    }
    Ok(0)
}

/// Fills java.lang.StackTraceElements.
pub(crate) struct SteFields {
    class: &'static Class,
    cls_obj: usize,
    loader: usize,
    module: usize,
    version: usize,
    decl: usize,
    method: usize,
    file: usize,
    line: usize,
}

impl SteFields {
    pub(crate) fn of(t: &mut JThread) -> JResult<SteFields> {
        let f = t.jdk_class::<jdk::StackTraceElement>()?;
        Ok(SteFields {
            class: f.class(),
            cls_obj: f.class_object,
            loader: f.loader,
            module: f.module,
            version: f.version,
            decl: f.declaring,
            method: f.method,
            file: f.file,
            line: f.line,
        })
    }

    /// The `name` of loader `id`'s object (None for the boot loader and unnamed loaders).
    fn loader_name(&self, t: &mut JThread, id: LoaderId) -> JResult<Option<ObjRef>> {
        let Some(l) = t.domain.loader_object(id) else {
            return Ok(None);
        };
        Ok(l.read_ref(t.jdk::<jdk::ClassLoader>(l)?.name))
    }

    /// A new StackTraceElement for backtrace entry `e` (method id << 32 | bci). VM allocations
    /// never collect, so callers may hold raw references across this.
    pub(crate) fn new_element(&self, t: &mut JThread, e: i64) -> JResult<ObjRef> {
        let el = t.alloc_object(self.class)?;
        self.fill(t, el, e)?;
        Ok(el)
    }

    /// Fills StackTraceElement `el` for frame `m` at `bci` (u32::MAX for a native frame).
    pub(crate) fn fill_frame(
        &self,
        t: &mut JThread,
        el: ObjRef,
        m: &crate::class::Method,
        bci: u32,
    ) -> JResult<()> {
        self.fill(t, el, encode_frame(m, bci))
    }

    /// Fills StackTraceElement `el` for backtrace entry `e`.
    fn fill(&self, t: &mut JThread, el: ObjRef, e: i64) -> JResult<()> {
        let Some((m, bci)) = decode_frame(t.vm, e) else {
            return Ok(());
        };
        let c = m.class;
        let mirror = t.mirror(c)?;
        t.domain.heap.write_ref(el, self.cls_obj, Some(mirror));
        let decl = t.intern(&c.java_name())?;
        t.domain.heap.write_ref(el, self.decl, Some(decl));
        let mname = t.intern(&m.name)?;
        t.domain.heap.write_ref(el, self.method, Some(mname));
        if let Some(file) = c.source_file() {
            let s = t.intern(file)?;
            t.domain.heap.write_ref(el, self.file, Some(s));
        }
        let line = if bci == u32::MAX {
            -2
        } else {
            m.line_number(bci).map_or(-1, |l| l as i32)
        };
        el.write::<i32>(self.line, line);
        // A class loader's name, as ClassLoader.getName() reports it ("app", "platform", or
        // what a user-defined loader was given).
        if let Some(name) = self.loader_name(t, c.loader)? {
            t.domain.heap.write_ref(el, self.loader, Some(name));
        }
        if let Some(module) = &c.module {
            let s = t.intern(module)?;
            t.domain.heap.write_ref(el, self.module, Some(s));
            // JDK modules carry the JDK's version; the API module has none.
            if **module != *crate::api::MODULE {
                let v = t.intern(crate::native::misc::java_version(t.vm))?;
                t.domain.heap.write_ref(el, self.version, Some(v));
            }
        }
        Ok(())
    }
}

// ---- Module and loaders ----

fn module_define(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let module = nonnull(t, a[0])?;
    let f = t.jdk::<jdk::Module>(module)?;
    let Some(name) = module.read_ref(f.name) else {
        return Ok(0);
    };
    let name = t.rust_string(name);
    t.domain.modules.lock().insert(name.clone(), module);
    let loader_obj = module.read_ref(f.loader);
    let loader = builtin_loader_id(t, loader_obj);
    t.vm.classes.set_module_loader(&name, loader);
    // Fix up mirrors created before the module existed.
    let wk = t.vm.wk();
    let domain = &t.domain;
    t.vm.classes.for_each_class(|c| {
        if c.module.as_deref() != Some(name.as_str()) {
            return;
        }
        if let Some(m) = domain.mirror_of(c.id) {
            domain
                .heap
                .write_ref(m, wk.class_module as usize, Some(module));
        }
    });
    Ok(0)
}

/// The loader id of a module's loader object, binding the JDK's platform and application
/// loaders to their well-known ids the first time they are seen.
fn builtin_loader_id(t: &mut JThread, loader: Option<ObjRef>) -> LoaderId {
    let Some(l) = loader else {
        return LoaderId::BOOT;
    };
    let id = match &*l.class().name {
        "jdk/internal/loader/ClassLoaders$PlatformClassLoader" => LoaderId::PLATFORM,
        "jdk/internal/loader/ClassLoaders$AppClassLoader" => t.domain.app_loader,
        _ => return t.domain.loader_id(Some(l)),
    };
    t.domain.bind_loader(id, l);
    id
}

fn find_bootstrap_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let n = nonnull(t, a[0])?;
    let name = t.rust_string(n).replace('.', "/");
    match t.vm.classes.load(LoaderId::BOOT, &name) {
        Ok(c) => Ok(t.mirror(c)?.slot()),
        Err(_) => Ok(0),
    }
}

/// findLoadedClass0. The VM defines the JDK image's classes itself (with the loader their
/// module belongs to), so the JDK's built-in loaders find those here instead of defining a
/// second copy from the image's bytes.
fn find_loaded_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let loader = t.domain.loader_id(obj(a[0]));
    let Some(n) = obj(a[1]) else { return Ok(0) };
    let name = t.rust_string(n).replace('.', "/");
    let private = t.domain.defining_loader(loader);
    if let Some(c) =
        t.vm.classes
            .find_loaded(loader, &name)
            .or_else(|| t.vm.classes.find_loaded(private, &name))
    {
        return Ok(t.mirror(c)?.slot());
    }
    let in_image = name.rfind('/').is_some_and(|i| {
        t.vm.classes
            .sources
            .jimage
            .module_of_package(&name[..i])
            .is_some()
    });
    if in_image
        && (loader == LoaderId::PLATFORM || loader.is_app())
        && let Ok(c) = t.vm.classes.load(loader, &name)
    {
        return Ok(t.mirror(c)?.slot());
    }
    Ok(0)
}

/// NativeImageBuffer.getNativeMap: a direct ByteBuffer over the VM's mapping of lib/modules.
fn native_image_map(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let bytes = t.vm.classes.sources.jimage.bytes();
    let (addr, len) = (bytes.as_ptr() as u64, bytes.len());
    let Ok(cap) = i32::try_from(len) else {
        return Ok(0);
    };
    let c = t.load_boot("java/nio/DirectByteBuffer")?;
    Ok(t.construct(c, "(JI)V", &[addr, 0, cap as u32 as u64])?
        .slot())
}

fn define_from_bytes(
    t: &mut JThread,
    loader: Option<ObjRef>,
    name: Option<ObjRef>,
    bytes: &[u8],
) -> JResult<u64> {
    define_in_module(t, loader, name, bytes, None)
}

/// As `define_from_bytes`, the class in named module `module` (None: its loader's unnamed one).
fn define_in_module(
    t: &mut JThread,
    loader: Option<ObjRef>,
    name: Option<ObjRef>,
    bytes: &[u8],
    module: Option<&str>,
) -> JResult<u64> {
    let id = t.domain.defining_loader(t.domain.loader_id(loader));
    let name = name.map(|n| t.rust_string(n).replace('.', "/"));
    let c = t.define_with_loader_in(id, name.as_deref(), bytes, module)?;
    Ok(t.mirror(c)?.slot())
}

/// The source `java.lang.reflect.Proxy` gives for the classes it spins (a program's own
/// `defineClass` gives its code source's URL, which cannot read so).
const DYNAMIC_PROXY_SOURCE: &str = "__dynamic_proxy__";

/// defineClass1(ClassLoader, String, byte[], int off, int len, ProtectionDomain, String source).
/// A proxy class of public interfaces is of the dynamic module its package is named after
/// (`com.sun.proxy.jdk.proxy1` in `jdk.proxy1`), as in HotSpot: the JDK's own code, which may
/// link to the packages the JDK exports to that module.
fn define_class1(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let bytes = super::bytes_of(t, a[2], jint(a[3]), jint(a[4]))?;
    let source = obj(a[6]).map(|s| t.rust_string(s));
    let name = obj(a[1]).map(|n| t.rust_string(n));
    let module = match (
        source.as_deref(),
        name.as_deref()
            .and_then(|n| n.strip_prefix("com.sun.proxy.")),
    ) {
        (Some(DYNAMIC_PROXY_SOURCE), Some(rest)) => {
            rest.rsplit_once('.').map(|(m, _)| m.to_string())
        }
        _ => None,
    };
    let c = define_in_module(t, obj(a[0]), obj(a[1]), &bytes, module.as_deref())?;
    // The ProtectionDomain argument, where the collector kept it current.
    super::reflect::keep_protection_domain(t, c, t.arg(5));
    Ok(c)
}

/// defineClass2(ClassLoader, String, ByteBuffer (direct), int off, int len, ProtectionDomain,
/// String source): the class bytes are in the buffer's native memory.
#[allow(unsafe_code)]
fn define_class2(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let buf = nonnull(t, a[2])?;
    let (off, len) = (jint(a[3]), jint(a[4]));
    let b = t.jdk::<jdk::Buffer>(buf)?;
    let (base, cap) = (buf.read::<i64>(b.address), buf.read::<i32>(b.capacity));
    if base == 0 || off < 0 || len < 0 || off as i64 + len as i64 > cap as i64 {
        return Err(t.throw_new(
            "java/lang/IllegalArgumentException",
            Some("bad class bytes buffer"),
        ));
    }
    let mut bytes = vec![0u8; len as usize];
    // SAFETY: a direct buffer's `address` spans `capacity` bytes of native memory it owns; the
    // range was checked against it above.
    let src = unsafe { crate::heap::raw::Addr::new(None, base + off as i64, len as usize) };
    src.copy_to(crate::heap::raw::Addr::of_slice(&mut bytes));
    let c = define_from_bytes(t, obj(a[0]), obj(a[1]), &bytes)?;
    super::reflect::keep_protection_domain(t, c, t.arg(5));
    Ok(c)
}

/// defineClass0(ClassLoader, Class lookup, String, byte[], int, int, ProtectionDomain, boolean, int, Object)
fn define_class0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = if jint(a[8]) & super::jli::HIDDEN_CLASS != 0 {
        super::jli::define_hidden_class(t, a)?
    } else {
        let bytes = super::bytes_of(t, a[3], jint(a[4]), jint(a[5]))?;
        define_from_bytes(t, obj(a[0]), obj(a[2]), &bytes)?
    };
    super::reflect::keep_protection_domain(t, c, t.arg(6));
    Ok(c)
}

/// ClassLoader.retrieveDirectives(): the launcher's -ea/-da switches (names with dots, in
/// command-line order, so that the last one of a name wins) and the default for classes of
/// loaders other than the boot loader.
fn retrieve_directives(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let c = t.load_boot("java/lang/AssertionStatusDirectives")?;
    t.ensure_initialized(c)?;
    let o = t.alloc_object(c)?;
    let f = t.jdk::<jdk::AssertionStatusDirectives>(o)?;
    let o = t.handle(o);
    let assertions = t.vm.assertions();
    for (packages, names_at, enabled_at) in [
        (false, f.classes, f.class_enabled),
        (true, f.packages, f.package_enabled),
    ] {
        let switches = assertions.directives(packages);
        let names: Vec<Option<String>> = switches.iter().map(|(n, _)| Some(n.clone())).collect();
        let names = super::misc::string_array(t, &names)?;
        let holder = t.handle_get(o);
        t.domain.heap.write_ref(holder, names_at, Some(names));
        let flags: Vec<u8> = switches.iter().map(|&(_, e)| e as u8).collect();
        let bool_class = t.vm.classes.primitive(BasicType::Boolean);
        let arr = t.new_array_of(bool_class, flags.len() as i32)?;
        arr.array_slice::<u8>().copy_from_slice(&flags);
        let holder = t.handle_get(o);
        t.domain.heap.write_ref(holder, enabled_at, Some(arr));
    }
    let holder = t.handle_get(o);
    holder.write::<u8>(f.deflt, assertions.user_default as u8);
    Ok(holder.slot())
}

fn system_package_location(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let n = nonnull(t, a[0])?;
    let pkg = t.rust_string(n);
    match t.vm.classes.sources.jimage.module_of_package(&pkg) {
        Some(m) => Ok(t.new_string(&format!("jrt:/{m}"))?.slot()),
        None => Ok(0),
    }
}

fn system_package_names(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let mut names: Vec<String> = Vec::new();
    t.vm.classes.for_each_class(|c| {
        if c.loader == LoaderId::BOOT && !c.is_array() && !c.is_primitive() {
            let p = c.package().to_string();
            if !p.is_empty() && !names.contains(&p) {
                names.push(p);
            }
        }
    });
    let string = t.vm.wk().string;
    let arr = t.new_array_of(string, names.len() as i32)?;
    for (i, n) in names.iter().enumerate() {
        let s = t.new_string(n)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(s));
    }
    Ok(arr.slot())
}

fn find_builtin_lib(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    // Every JDK native library's functions are built into the VM.
    let n = nonnull(t, a[0])?;
    let name = t.rust_string(n);
    let lib = name
        .strip_prefix("lib")
        .and_then(|s| s.strip_suffix(".so"))
        .unwrap_or(&name)
        .to_string();
    Ok(t.new_string(&lib)?.slot())
}

/// NativeLibraries.load(NativeLibraryImpl impl, String name, boolean isBuiltin, boolean isJNI, boolean throwExceptionIfFail)
fn native_libraries_load(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let is_builtin = a[2] != 0;
    if is_builtin {
        let imp = nonnull(t, a[0])?;
        let f = t.jdk::<jdk::NativeLibraryImpl>(imp)?;
        imp.write::<i64>(f.handle, 1);
        imp.write::<i32>(f.jni_version, 0x0001_0008);
        return Ok(1);
    }
    let name = obj(a[1]).map(|n| t.rust_string(n)).unwrap_or_default();
    let msg = format!("Can't load library: {name} (jxvm runs no native code)");
    if a[4] != 0 {
        return Err(t.throw_new("java/lang/UnsatisfiedLinkError", Some(&msg)));
    }
    Ok(0)
}

// ---- java.lang.ref ----

fn referent_offset(_: &mut JThread) -> JResult<usize> {
    use crate::jdk::JdkClass;
    Ok(crate::jdk::Reference::get().referent)
}

fn reference_refers_to(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = nonnull(t, a[0])?;
    let off = referent_offset(t)?;
    Ok(ret_bool(this.read::<u64>(off) == a[1]))
}

fn reference_clear(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = nonnull(t, a[0])?;
    let off = referent_offset(t)?;
    this.clear_slot(off);
    Ok(0)
}

/// Reference.waitForReferencePendingList: blocks (safely for collections) until a collection
/// has cleared references (or the domain is terminated).
fn wait_for_pending_list(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let domain = t.domain.clone();
    t.blocking(|| {
        let mut p = domain.pending_refs.lock();
        while p.is_none() && !domain.safepoint.is_killed() {
            domain.pending_refs_cond.wait(&mut p);
        }
    });
    if t.in_dead_domain() {
        return Err(t.die());
    }
    Ok(0)
}

/// Shutdown.halt0: ends the process from the launcher's domain; any other domain is
/// terminated instead (a domain never ends the system).
fn halt(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let status = jint(a[0]);
    if t.domain.is_system() {
        crate::class_cache::flush(&t.vm.classes);
        port::remote::dump::write_all();
        port::exit(status);
    }
    let domain = t.domain.clone();
    crate::domain::lifecycle::terminate(t.vm, &domain, &format!("System.exit({status})"));
    Err(t.die())
}

// ---- Reflection ----

fn get_caller_class(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    // frames: [..., caller, @CallerSensitive method, getCallerClass]
    let skip_reflective = |m: &crate::class::Method| {
        let c = &*m.class.name;
        (c == "java/lang/reflect/Method" && &*m.name == "invoke")
            || c.starts_with("jdk/internal/reflect/")
            || c.starts_with("java/lang/invoke/")
    };
    let caller = t
        .frames
        .iter()
        .rev()
        .skip(2)
        .map(|f| f.method)
        .find(|m| !skip_reflective(m));
    match caller {
        Some(m) => Ok(t.mirror(m.class)?.slot()),
        None => Ok(0),
    }
}

/// SecurityManager.getClassContext: the classes of the methods on the stack, innermost first,
/// leaving out native methods and, as HotSpot's security stack walk does, reflection's
/// invocation frames and hidden frames.
fn get_class_context(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let ignored = |m: &crate::class::Method| {
        let c = m.class;
        m.is_native()
            || (&*c.name == "java/lang/reflect/Method" && &*m.name == "invoke")
            || c.supers.iter().any(|s| {
                matches!(
                    &*s.name,
                    "jdk/internal/reflect/MethodAccessorImpl"
                        | "jdk/internal/reflect/ConstructorAccessorImpl"
                )
            })
            || super::jli::is_hidden_frame(m)
    };
    let classes: Vec<&'static Class> = t
        .frames
        .iter()
        .rev()
        .map(|f| f.method)
        .filter(|m| !ignored(m))
        .map(|m| m.class)
        .collect();
    Ok(super::reflect::class_array(t, &classes)?.slot())
}

fn nest_host(t: &JThread, c: &'static Class) -> &'static Class {
    let Some(cf) = &c.file else { return c };
    let Some(idx) = cf.nest_host else { return c };
    let Some(name) = cf.constant_pool.class_name(idx) else {
        return c;
    };
    t.vm.classes.load(c.loader, name).unwrap_or(c)
}

fn are_nest_mates(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let x = nonnull(t, a[0])?;
    let y = nonnull(t, a[1])?;
    let (cx, cy) = (t.class_of_mirror(x), t.class_of_mirror(y));
    Ok(ret_bool(std::ptr::eq(nest_host(t, cx), nest_host(t, cy))))
}

pub fn class_nest_host(t: &JThread, c: &'static Class) -> &'static Class {
    nest_host(t, c)
}
