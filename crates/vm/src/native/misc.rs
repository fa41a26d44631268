//! Natives of jdk.internal.misc (Unsafe, VM, CDS, Signal, ScopedMemoryAccess),
//! jdk.internal.util.SystemProps$Raw, jdk.internal.perf.Perf and ProcessEnvironment.

use std::sync::atomic::Ordering;

use super::confine::Kind;
use super::{Registry, jint, jlong, nonnull, obj, ret_bool, ret_int};
use crate::class::BasicType;
use crate::heap::raw;
use crate::thread::{JResult, JThread, Thrown};
use crate::vm::Vm;
use base::layout::ARRAY_BASE;

pub fn register(r: &mut Registry) {
    register_unsafe(r);
    let vm = "jdk/internal/misc/VM";
    r.add(vm, "initialize", "()V", |_, _| Ok(0));
    r.add(
        vm,
        "latestUserDefinedLoader0",
        "()Ljava/lang/ClassLoader;",
        latest_user_defined_loader,
    );
    r.add(vm, "getuid", "()J", |t, _| Ok(t.domain.host().ids().0));
    r.add(vm, "geteuid", "()J", |t, _| Ok(t.domain.host().ids().1));
    r.add(vm, "getgid", "()J", |t, _| Ok(t.domain.host().ids().2));
    r.add(vm, "getegid", "()J", |t, _| Ok(t.domain.host().ids().3));
    r.add(vm, "getNanoTimeAdjustment", "(J)J", nano_time_adjustment);
    r.add(
        vm,
        "getRuntimeArguments",
        "()[Ljava/lang/String;",
        runtime_arguments,
    );
    let cds = "jdk/internal/misc/CDS";
    r.add(cds, "isDumpingClassList0", "()Z", |_, _| Ok(0));
    r.add(cds, "isDumpingArchive0", "()Z", |_, _| Ok(0));
    r.add(cds, "isSharingEnabled0", "()Z", |_, _| Ok(0));
    r.add(
        cds,
        "logLambdaFormInvoker",
        "(Ljava/lang/String;)V",
        |_, _| Ok(0),
    );
    r.add(
        cds,
        "initializeFromArchive",
        "(Ljava/lang/Class;)V",
        |_, _| Ok(0),
    );
    r.add(
        cds,
        "defineArchivedModules",
        "(Ljava/lang/ClassLoader;Ljava/lang/ClassLoader;)V",
        |_, _| Ok(0),
    );
    r.add(cds, "getRandomSeedForDumping", "()J", |_, _| Ok(0));
    let sig = "jdk/internal/misc/Signal";
    r.add(sig, "findSignal0", "(Ljava/lang/String;)I", find_signal);
    r.add(sig, "handle0", "(IJ)J", |t, a| {
        Ok(
            crate::thread::signal::handle0(jint(a[0]), jlong(a[1]), t.vm.opts.reduce_signal_usage)
                as u64,
        )
    });
    r.add(sig, "raise0", "(I)V", |_, a| {
        port::raise(jint(a[0]));
        Ok(0)
    });
    r.add(
        "jdk/internal/misc/ScopedMemoryAccess",
        "closeScope0",
        "",
        |_, _| Ok(1),
    );
    let raw_props = "jdk/internal/util/SystemProps$Raw";
    r.add(
        raw_props,
        "vmProperties",
        "()[Ljava/lang/String;",
        vm_properties,
    );
    r.add(
        raw_props,
        "platformProperties",
        "()[Ljava/lang/String;",
        platform_properties,
    );
    let perf = "jdk/internal/perf/Perf";
    r.add(perf, "createLong", "", perf_create_long);
    r.add(perf, "createByteArray", "", perf_create_bytes);
    r.add(perf, "highResCounter", "()J", |t, _| {
        Ok(t.domain.host().nano_time() as u64)
    });
    r.add(perf, "highResFrequency", "()J", |_, _| Ok(1_000_000_000));
    r.add("java/lang/ProcessEnvironment", "environ", "()[[B", environ);
}

// ---- Unsafe ----

fn register_unsafe(r: &mut Registry) {
    let u = "jdk/internal/misc/Unsafe";
    macro_rules! getter {
        ($name:literal, $vname:literal, $t:ty, $conv:expr) => {
            getter!(
                $name,
                $vname,
                $t,
                $conv,
                Kind::Prim(std::mem::size_of::<$t>())
            );
        };
        ($name:literal, $vname:literal, $t:ty, $conv:expr, $kind:expr) => {
            r.add(u, $name, "", |t, a| {
                Ok(($conv)(at(t, a[1], a[2], $kind)?.read::<$t>()))
            });
            r.add(u, $vname, "", |t, a| {
                std::sync::atomic::fence(Ordering::SeqCst);
                let v = ($conv)(at(t, a[1], a[2], $kind)?.read::<$t>());
                std::sync::atomic::fence(Ordering::SeqCst);
                Ok(v)
            });
        };
    }
    macro_rules! putter {
        ($name:literal, $vname:literal, $t:ty) => {
            r.add(u, $name, "", |t, a| {
                at(t, a[1], a[2], Kind::Prim(std::mem::size_of::<$t>()))?.write::<$t>(a[4] as $t);
                Ok(0)
            });
            r.add(u, $vname, "", |t, a| {
                std::sync::atomic::fence(Ordering::SeqCst);
                at(t, a[1], a[2], Kind::Prim(std::mem::size_of::<$t>()))?.write::<$t>(a[4] as $t);
                std::sync::atomic::fence(Ordering::SeqCst);
                Ok(0)
            });
        };
    }
    getter!("getInt", "getIntVolatile", u32, |v: u32| v as u64);
    getter!("getLong", "getLongVolatile", u64, |v: u64| v);
    getter!(
        "getReference",
        "getReferenceVolatile",
        u64,
        |v: u64| v,
        Kind::Ref
    );
    getter!("getBoolean", "getBooleanVolatile", u8, |v: u8| (v != 0)
        as u64);
    getter!("getByte", "getByteVolatile", i8, |v: i8| v as i32 as u32
        as u64);
    getter!(
        "getShort",
        "getShortVolatile",
        i16,
        |v: i16| v as i32 as u32 as u64
    );
    getter!("getChar", "getCharVolatile", u16, |v: u16| v as u64);
    getter!("getFloat", "getFloatVolatile", u32, |v: u32| v as u64);
    getter!("getDouble", "getDoubleVolatile", u64, |v: u64| v);
    putter!("putInt", "putIntVolatile", u32);
    putter!("putLong", "putLongVolatile", i64);
    r.add(u, "putReference", "", |t, a| {
        put_reference(t, a)?;
        Ok(0)
    });
    r.add(u, "putReferenceVolatile", "", |t, a| {
        std::sync::atomic::fence(Ordering::SeqCst);
        put_reference(t, a)?;
        std::sync::atomic::fence(Ordering::SeqCst);
        Ok(0)
    });
    putter!("putByte", "putByteVolatile", u8);
    putter!("putShort", "putShortVolatile", u16);
    putter!("putChar", "putCharVolatile", u16);
    putter!("putFloat", "putFloatVolatile", u32);
    putter!("putDouble", "putDoubleVolatile", i64);
    r.add(u, "putBoolean", "", |t, a| {
        at(t, a[1], a[2], Kind::Prim(1))?.write::<u8>((a[4] != 0) as u8);
        Ok(0)
    });
    r.add(u, "putBooleanVolatile", "", |t, a| {
        at(t, a[1], a[2], Kind::Prim(1))?
            .atomic_u8()
            .store((a[4] != 0) as u8, Ordering::SeqCst);
        Ok(0)
    });
    r.add(u, "compareAndSetInt", "", |t, a| {
        let at = at(t, a[1], a[2], Kind::Prim(4))?.atomic_u32();
        Ok(ret_bool(
            at.compare_exchange(a[4] as u32, a[5] as u32, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok(),
        ))
    });
    r.add(u, "compareAndExchangeInt", "", |t, a| {
        let at = at(t, a[1], a[2], Kind::Prim(4))?.atomic_u32();
        Ok(
            match at.compare_exchange(a[4] as u32, a[5] as u32, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(v) | Err(v) => v as u64,
            },
        )
    });
    r.add(u, "compareAndSetLong", "", |t, a| {
        let at = at(t, a[1], a[2], Kind::Prim(8))?.atomic_i64();
        Ok(ret_bool(
            at.compare_exchange(jlong(a[4]), jlong(a[6]), Ordering::SeqCst, Ordering::SeqCst)
                .is_ok(),
        ))
    });
    r.add(u, "compareAndExchangeLong", "", |t, a| {
        let at = at(t, a[1], a[2], Kind::Prim(8))?.atomic_i64();
        Ok(
            match at.compare_exchange(jlong(a[4]), jlong(a[6]), Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(v) | Err(v) => v as u64,
            },
        )
    });
    r.add(u, "compareAndSetReference", "", |t, a| {
        Ok(ret_bool(cas_reference(t, a)?.is_ok()))
    });
    r.add(u, "compareAndExchangeReference", "", |t, a| {
        Ok(match cas_reference(t, a)? {
            Ok(v) | Err(v) => v,
        })
    });
    r.add(u, "loadFence", "()V", |_, _| {
        std::sync::atomic::fence(Ordering::Acquire);
        Ok(0)
    });
    r.add(u, "storeFence", "()V", |_, _| {
        std::sync::atomic::fence(Ordering::Release);
        Ok(0)
    });
    r.add(u, "fullFence", "()V", |_, _| {
        std::sync::atomic::fence(Ordering::SeqCst);
        Ok(0)
    });
    r.add(u, "arrayBaseOffset0", "(Ljava/lang/Class;)I", |_, _| {
        Ok(ARRAY_BASE as u64)
    });
    r.add(u, "arrayIndexScale0", "(Ljava/lang/Class;)I", |t, a| {
        let c = super::reflect::mirror_class(t, a[1])?;
        Ok(ret_int(c.array_elem().size() as i32))
    });
    r.add(u, "addressSize0", "()I", |_, _| Ok(8));
    r.add(u, "pageSize", "()I", |_, _| Ok(4096));
    r.add(
        u,
        "objectFieldOffset0",
        "(Ljava/lang/reflect/Field;)J",
        object_field_offset0,
    );
    r.add(
        u,
        "objectFieldOffset1",
        "(Ljava/lang/Class;Ljava/lang/String;)J",
        object_field_offset1,
    );
    r.add(
        u,
        "staticFieldOffset0",
        "(Ljava/lang/reflect/Field;)J",
        static_field_offset0,
    );
    r.add(
        u,
        "staticFieldBase0",
        "(Ljava/lang/reflect/Field;)Ljava/lang/Object;",
        static_field_base0,
    );
    r.add(u, "shouldBeInitialized0", "(Ljava/lang/Class;)Z", |t, a| {
        let c = super::reflect::mirror_class(t, a[1])?;
        Ok(ret_bool(!t.domain.is_initialized(c)))
    });
    r.add(
        u,
        "ensureClassInitialized0",
        "(Ljava/lang/Class;)V",
        |t, a| {
            let c = super::reflect::mirror_class(t, a[1])?;
            t.ensure_initialized(c)?;
            Ok(0)
        },
    );
    r.add(
        u,
        "allocateInstance",
        "(Ljava/lang/Class;)Ljava/lang/Object;",
        |t, a| {
            let c = super::reflect::mirror_class(t, a[1])?;
            if c.is_abstract() || c.is_array() || c.is_primitive() {
                return Err(t.throw_new("java/lang/InstantiationException", Some(&c.java_name())));
            }
            guard_class(t, c)?;
            if super::confine::confined(t) {
                super::confine::check_instance(t, c)?;
            }
            t.ensure_initialized(c)?;
            Ok(t.alloc_object(c)?.slot())
        },
    );
    r.add(u, "throwException", "(Ljava/lang/Throwable;)V", |t, a| {
        let e = nonnull(t, a[1])?;
        t.exception = Some(e);
        Err(Thrown)
    });
    r.add(u, "allocateMemory0", "(J)J", |t, a| {
        allocate_memory(t, jlong(a[1]) as u64)
    });
    r.add(u, "reallocateMemory0", "(JJ)J", reallocate_memory);
    r.add(u, "freeMemory0", "(J)V", free_memory);
    r.add(u, "setMemory0", "(Ljava/lang/Object;JJB)V", |t, a| {
        at(t, a[1], a[2], Kind::Prim(a[4] as usize))?.fill(a[6] as u8);
        Ok(0)
    });
    r.add(
        u,
        "copyMemory0",
        "(Ljava/lang/Object;JLjava/lang/Object;JJ)V",
        |t, a| {
            let src = at(t, a[1], a[2], Kind::Prim(a[7] as usize))?;
            src.copy_to(at(t, a[4], a[5], Kind::Prim(a[7] as usize))?);
            Ok(0)
        },
    );
    r.add(
        u,
        "copySwapMemory0",
        "(Ljava/lang/Object;JLjava/lang/Object;JJJ)V",
        copy_swap_memory,
    );
    r.add(u, "park", "(ZJ)V", park);
    r.add(u, "unpark", "(Ljava/lang/Object;)V", unpark);
    r.add(u, "defineClass0", "", unsafe_define_class);
}

// ---- native memory: charged to the domain's off-heap budget, recorded per domain ----

/// Unsafe.allocateMemory0: `bytes` of native memory charged to the domain's budget (0, which
/// the JDK turns into OutOfMemoryError, if the host has none).
fn allocate_memory(t: &mut JThread, bytes: u64) -> JResult<u64> {
    if !t.domain.budget.reserve_off_heap(bytes) {
        return Err(super::memory::off_heap_exhausted(t, bytes));
    }
    let addr = usize::try_from(bytes).map_or(0, port::malloc);
    if addr == 0 {
        t.domain.budget.release_off_heap(bytes);
        return Ok(0);
    }
    t.domain.native_blocks.lock().insert(addr, bytes as usize);
    Ok(addr as u64)
}

/// Refuses to free or resize native memory the calling domain did not allocate: a created
/// domain may not release (and so corrupt) memory it was never given. The launcher's
/// domain and DomainZero keep java's behaviour.
fn not_allocated_here(t: &mut JThread, addr: usize) -> JResult<()> {
    if t.domain.is_system() {
        return Ok(());
    }
    let msg = format!("0x{addr:x} is not native memory this domain allocated");
    Err(t.throw_new("java/lang/SecurityException", Some(&msg)))
}

/// Unsafe.freeMemory0(address)
fn free_memory(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let addr = a[1] as usize;
    let known = t.domain.native_blocks.lock().remove(&addr);
    match known {
        Some(size) => t.domain.budget.release_off_heap(size as u64),
        None => not_allocated_here(t, addr)?,
    }
    port::free(addr);
    Ok(0)
}

/// Unsafe.reallocateMemory0(address, bytes): the block's size change charged or released.
fn reallocate_memory(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (addr, bytes) = (a[1] as usize, jlong(a[3]) as u64);
    if addr == 0 {
        return allocate_memory(t, bytes);
    }
    let old = t.domain.native_blocks.lock().get(&addr).copied();
    let Some(old) = old else {
        not_allocated_here(t, addr)?;
        return Ok(usize::try_from(bytes).map_or(0, |b| port::realloc(addr, b)) as u64);
    };
    let old = old as u64;
    if bytes > old && !t.domain.budget.reserve_off_heap(bytes - old) {
        return Err(super::memory::off_heap_exhausted(t, bytes - old));
    }
    let moved = usize::try_from(bytes).map_or(0, |b| port::realloc(addr, b));
    if moved == 0 {
        t.domain.budget.release_off_heap(bytes.saturating_sub(old));
        return Ok(0);
    }
    t.domain.budget.release_off_heap(old.saturating_sub(bytes));
    let mut blocks = t.domain.native_blocks.lock();
    blocks.remove(&addr);
    blocks.insert(moved, bytes as usize);
    Ok(moved as u64)
}

fn field_from_reflect(
    t: &mut JThread,
    f: u64,
) -> JResult<(&'static crate::class::Class, &'static crate::class::Field)> {
    let fo = nonnull(t, f)?;
    let Some((clazz, slot)) = crate::jdk::reflect_member(fo.class()) else {
        return Err(t.throw_new("java/lang/IllegalArgumentException", Some("not a Field")));
    };
    let mirror = fo.read_ref(clazz).expect("Field without class");
    let c = t.class_of_mirror(mirror);
    let idx = fo.read::<i32>(slot) as u16;
    let field = c
        .fields
        .iter()
        .find(|f| f.index == idx)
        .expect("Field slot");
    Ok((c, field))
}

fn object_field_offset0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (c, f) = field_from_reflect(t, a[1])?;
    guard_field(t, c, f)?;
    Ok(f.offset as u64)
}

fn object_field_offset1(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = super::reflect::mirror_class(t, a[1])?;
    guard_class(t, c)?;
    let n = nonnull(t, a[2])?;
    let name = t.rust_string(n);
    match c.fields.iter().find(|f| *f.name == *name && !f.is_static()) {
        Some(f) => Ok(f.offset as u64),
        None => Err(t.throw_new("java/lang/InternalError", Some(&name))),
    }
}

fn static_field_offset0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (c, f) = field_from_reflect(t, a[1])?;
    guard_field(t, c, f)?;
    Ok((t.vm.wk().statics_base + f.offset) as u64)
}

fn static_field_base0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let (c, f) = field_from_reflect(t, a[1])?;
    guard_field(t, c, f)?;
    Ok(t.mirror(c)?.slot())
}

fn copy_swap_memory(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let src = at(t, a[1], a[2], Kind::Prim(a[7] as usize))?;
    let dst = at(t, a[4], a[5], Kind::Prim(a[7] as usize))?;
    let (bytes, elem) = (a[7] as usize, a[9] as usize);
    let mut buf = vec![0u8; bytes];
    src.copy_to(raw::Addr::of_slice(&mut buf));
    for chunk in buf.chunks_mut(elem.max(1)) {
        chunk.reverse();
    }
    raw::Addr::of_slice(&mut buf).copy_to(dst);
    Ok(0)
}

/// Unsafe.park(boolean isAbsolute, long time)
fn park(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let Some(h) = super::thread::current_handle(t) else {
        return Ok(0);
    };
    let absolute = a[1] != 0;
    let time = a[2] as i64;
    let deadline = if absolute {
        let now_ms = t.domain.host().current_time_millis();
        if time <= now_ms {
            return Ok(0);
        }
        Some(std::time::Instant::now() + std::time::Duration::from_millis((time - now_ms) as u64))
    } else if time > 0 {
        Some(std::time::Instant::now() + std::time::Duration::from_nanos(time as u64))
    } else if time < 0 {
        return Ok(0);
    } else {
        None
    };
    super::thread::set_current_status(
        t,
        if deadline.is_some() {
            super::thread::PARKED_TIMED
        } else {
            super::thread::PARKED
        },
    );
    t.blocking_counted(crate::thread::contention::Kind::Waited, || {
        let mut p = h.permit.lock();
        loop {
            if *p {
                *p = false;
                break;
            }
            if h.interrupted.load(Ordering::SeqCst) {
                break;
            }
            let slice = std::time::Duration::from_millis(20);
            match deadline {
                Some(d) => {
                    let now = std::time::Instant::now();
                    if now >= d {
                        break;
                    }
                    h.permit_cond.wait_for(&mut p, (d - now).min(slice));
                }
                None => {
                    h.permit_cond.wait_for(&mut p, slice);
                }
            }
        }
    });
    super::thread::set_current_status(t, super::thread::RUNNABLE);
    Ok(0)
}

fn unpark(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let Some(th) = obj(a[1]) else { return Ok(0) };
    let h = t.domain.threads.lock().get(&th.addr()).cloned();
    if let Some(h) = h {
        *h.permit.lock() = true;
        h.permit_cond.notify_all();
    }
    Ok(0)
}

/// Unsafe.defineClass0(String name, byte[] b, int off, int len, ClassLoader loader, ProtectionDomain pd)
fn unsafe_define_class(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let bytes = super::bytes_of(t, a[2], jint(a[3]), jint(a[4]))?;
    let loader = t.domain.defining_loader(t.domain.loader_id(obj(a[5])));
    let name = obj(a[1]).map(|n| t.rust_string(n).replace('.', "/"));
    match t.vm.classes.define(loader, name.as_deref(), &bytes, None) {
        Ok(c) => Ok(t.mirror(c)?.slot()),
        Err(e) => Err(t.throw_resolve(e.into())),
    }
}

// ---- VM ----

fn nano_time_adjustment(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let offset = a[0] as i64;
    let (secs, nanos) = t.domain.host().wall_clock();
    let diff = secs - offset;
    if !(-(1i64 << 32)..(1i64 << 32)).contains(&diff) {
        return Ok(-1i64 as u64);
    }
    Ok((diff * 1_000_000_000 + nanos) as u64)
}

pub(super) fn string_array(
    t: &mut JThread,
    items: &[Option<String>],
) -> JResult<crate::heap::ObjRef> {
    let string = t.vm.wk().string;
    let arr = t.new_array_of(string, items.len() as i32)?;
    for (i, s) in items.iter().enumerate() {
        if let Some(s) = s {
            let o = t.new_string(s)?;
            t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(o));
        }
    }
    Ok(arr)
}

fn runtime_arguments(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let args: Vec<Option<String>> = t.vm.vm_args().iter().cloned().map(Some).collect();
    Ok(string_array(t, &args)?.slot())
}

fn find_signal(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let n = nonnull(t, a[0])?;
    let name = t.rust_string(n);
    Ok(ret_int(port::signal_number(&name)))
}

/// The JDK's version string ("17.0.21.1"), from its `release` file.
pub fn java_version(vm: &Vm) -> &str {
    vm.java_version
        .get_or_init(|| release_value(vm, "JAVA_VERSION").unwrap_or_else(|| "17".into()))
}

fn release_value(vm: &Vm, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(vm.opts.java_home.join("release")).ok()?;
    text.lines().find_map(|l| {
        l.strip_prefix(&format!("{key}="))
            .map(|v| v.trim_matches('"').to_string())
    })
}

fn vm_properties(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let vm = t.vm;
    let home = vm.opts.java_home.display().to_string();
    let version =
        release_value(vm, "JAVA_RUNTIME_VERSION").unwrap_or_else(|| java_version(vm).to_string());
    let mut props: Vec<(String, String)> = vec![
        ("java.home".into(), home.clone()),
        (
            "java.vm.specification.name".into(),
            "Java Virtual Machine Specification".into(),
        ),
        (
            "java.vm.specification.vendor".into(),
            "Oracle Corporation".into(),
        ),
        ("java.vm.specification.version".into(), "17".into()),
        ("java.vm.name".into(), "jxvm".into()),
        ("java.vm.vendor".into(), "jxvm developers".into()),
        ("java.vm.version".into(), version),
        ("java.vm.info".into(), t.vm.opts.jit.mode.info().into()),
        ("jdk.debug".into(), "release".into()),
        ("sun.boot.library.path".into(), format!("{home}/lib")),
        ("java.library.path".into(), library_path()),
        ("java.class.path".into(), class_path(t)),
        ("sun.java.launcher".into(), "SUN_STANDARD".into()),
        ("sun.java.command".into(), vm.java_command().to_string()),
        ("sun.nio.MaxDirectMemorySize".into(), "-1".into()),
        ("sun.nio.PageAlignDirectMemory".into(), "false".into()),
    ];
    for (k, v) in vm.props() {
        props.retain(|(pk, _)| pk != k);
        props.push((k.clone(), v.clone()));
    }
    let flat: Vec<Option<String>> = props
        .into_iter()
        .flat_map(|(k, v)| [Some(k), Some(v)])
        .collect();
    Ok(string_array(t, &flat)?.slot())
}

/// `java.class.path`: the domain's class path (in a fork server's child, its client's).
fn class_path(t: &JThread) -> String {
    match t.vm.adopted.get() {
        Some(a) if std::sync::Arc::ptr_eq(&t.domain, &t.vm.app_domain) => a.class_path.clone(),
        _ => t.domain.class_path.clone(),
    }
}

/// java.library.path as the Debian JDK computes it: LD_LIBRARY_PATH, then the system list.
fn library_path() -> String {
    let system = "/usr/java/packages/lib:/usr/lib/x86_64-linux-gnu/jni:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/usr/lib/jni:/lib:/usr/lib";
    match std::env::var("LD_LIBRARY_PATH") {
        Ok(p) if !p.is_empty() => format!("{p}:{system}"),
        _ => system.to_string(),
    }
}

fn platform_properties(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let p = t.domain.host().platform_properties();
    Ok(string_array(t, &p)?.slot())
}

fn perf_buffer(t: &mut JThread, size: i32) -> JResult<u64> {
    t.call_static(
        "java/nio/ByteBuffer",
        "allocate",
        "(I)Ljava/nio/ByteBuffer;",
        &[size as u32 as u64],
    )
}

fn perf_create_long(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    perf_buffer(t, 8)
}

fn perf_create_bytes(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    // createByteArray(String name, int variability, int units, byte[] value, int maxLength)
    let max = jint(a[5]).max(obj(a[4]).map_or(0, |v| v.array_len() as i32));
    perf_buffer(t, max.max(1))
}

fn environ(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let vars = t.domain.host().environment();
    let bytes_class = t.array_class_of(t.vm.classes.primitive(BasicType::Byte))?;
    let arr = t.new_array_of(bytes_class, (vars.len() * 2) as i32)?;
    for (i, (k, v)) in vars.iter().enumerate() {
        let ko = t.new_byte_array(k)?;
        let vo = t.new_byte_array(v)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 16, Some(ko));
        t.domain
            .heap
            .write_ref(arr, ARRAY_BASE + i * 16 + 8, Some(vo));
    }
    Ok(arr.slot())
}

/// Unsafe.putReference(o, offset, x), with the write barrier when `o` is an object.
fn put_reference(t: &mut JThread, a: &[u64]) -> JResult<()> {
    let addr = at(t, a[1], a[2], Kind::Ref)?;
    t.domain.heap.write_slot_at(obj(a[1]), addr, a[4]);
    Ok(())
}

/// Unsafe.compareAndSetReference(o, offset, expected, x): the witness value, Ok if swapped.
fn cas_reference(t: &mut JThread, a: &[u64]) -> JResult<Result<u64, u64>> {
    let addr = at(t, a[1], a[2], Kind::Ref)?;
    Ok(t.domain.heap.cas_slot_at(obj(a[1]), addr, a[4], a[5]))
}

/// The address `Unsafe` reaches from base object `base` (a slot; null for a raw address) and
/// `offset` for an access of `kind`, after refusing the objects that hold capabilities
/// ([`guard_object`]) and, for a program of an untrusted domain, what `confine` refuses.
#[allow(unsafe_code)]
fn at(t: &mut JThread, base: u64, offset: u64, kind: Kind) -> JResult<raw::Addr> {
    let o = obj(base);
    if let Some(o) = o {
        guard_object(t, o, jlong(offset))?;
    }
    if super::confine::confined(t) {
        super::confine::check_access(t, base, jlong(offset), kind)?;
    }
    let len = match kind {
        Kind::Prim(n) => n,
        Kind::Ref => 8,
    };
    // SAFETY: Unsafe's contract, as HotSpot trusts it: privileged JDK code passes offsets it
    // computed from the base's field or array layout (or native memory it allocated), and the
    // native uses the address before any safepoint. A confined domain's program gets here only
    // past `confine::check_access`, which checks the range against the object it names.
    Ok(unsafe { raw::Addr::new(o, jlong(offset), len) })
}

/// Refuses `Unsafe` access to an instance of an API class or to the statics of one (through
/// its mirror, at or past the statics), in every domain: their VM slots and fields are
/// capabilities (`crate::api`). A mirror's own fields are the JDK's (reflection caches); the
/// VM trusts none of them for access decisions.
fn guard_object(t: &mut JThread, o: crate::heap::ObjRef, offset: i64) -> JResult<()> {
    let wk = t.vm.wk();
    let c = o.class();
    if std::ptr::eq(c, wk.class) {
        if offset < wk.statics_base as i64 {
            return Ok(());
        }
        let target = t.class_of_mirror(o);
        return guard_class(t, target);
    }
    guard_class(t, c)
}

/// Refuses the offset or base of field `f` of `c`: an API class's (see [`guard_class`]), and
/// for a program of an untrusted domain one it could not open by reflection (`confine`).
fn guard_field(
    t: &mut JThread,
    c: &'static crate::class::Class,
    f: &crate::class::Field,
) -> JResult<()> {
    guard_class(t, c)?;
    if super::confine::confined(t) {
        super::confine::check_field(t, c, f)?;
    }
    Ok(())
}

/// Refuses `Unsafe` use of API class `c`'s fields or instances (see [`guard_object`]).
fn guard_class(t: &mut JThread, c: &'static crate::class::Class) -> JResult<()> {
    if c.api {
        let msg = format!("Unsafe access to {} is not allowed", c.java_name());
        return Err(t.throw_new("java/lang/SecurityException", Some(&msg)));
    }
    Ok(())
}

/// VM.latestUserDefinedLoader0: the loader of the innermost frame whose class is defined by
/// neither the boot nor the platform loader, skipping reflection's accessor frames (how
/// ObjectInputStream finds the application's classes).
fn latest_user_defined_loader(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    use crate::class::LoaderId;
    let found = t.frames.iter().rev().map(|f| f.method.class).find(|c| {
        c.loader != LoaderId::BOOT
            && c.loader != LoaderId::PLATFORM
            && !c.name.starts_with("jdk/internal/reflect/")
    });
    Ok(super::ret_obj(
        found.and_then(|c| t.domain.loader_object(c.loader)),
    ))
}
