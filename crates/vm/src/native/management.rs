//! Natives of the management API: `java.management`'s sun.management (VMManagementImpl,
//! MemoryImpl, MemoryPoolImpl, MemoryManagerImpl, GarbageCollectorImpl, ThreadImpl) and
//! `jdk.management`'s com.sun.management.internal.OperatingSystemImpl, plus Unsafe's load
//! average. HotSpot implements them in its `jmm` interface; here they read the running
//! thread's domain (its heap and collector statistics, its threads), the class table's load
//! statistics and, for host facts, `port::sysinfo`.
//!
//! Owns the model of jxvm's heap that the API shows: the memory pools (below, [`POOLS`]) and
//! the memory managers that own them ([`MANAGERS`]). Methods it does not implement (thread
//! contention monitoring, allocated-memory measurement, usage thresholds and sensors, GC
//! notifications, HotSpot's internal counters and flags, diagnostic commands) have no entry
//! and throw `UnsatisfiedLinkError`; the support flags say they are unsupported where the JDK
//! lets a VM say so.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{Registry, jint, jlong, nonnull, obj, ret_bool, ret_int};
use crate::gc::{GcEvent, LastGc};
use crate::heap::{Heap, ObjRef};
use crate::jdk::{self, JdkClass};
use crate::thread::{JResult, JThread, contention, locks};
use base::layout::ARRAY_BASE;
use port::sysinfo;

/// A memory pool the API shows: a part of a domain's heap, or the class metadata.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pool {
    /// Where objects are allocated (emptied by every collection).
    Nursery,
    /// Where survivors of the nursery are promoted (compacted by full collections).
    Old,
    /// Large objects, each in its own mapping, never moved.
    Large,
    /// Class metadata (shared by all domains; an estimate, see `class::metadata`).
    Metadata,
}

/// The pools, in the order `MemoryImpl.getMemoryPools0` gives them.
pub const POOLS: [(Pool, &str); 4] = [
    (Pool::Nursery, "nursery"),
    (Pool::Old, "old"),
    (Pool::Large, "large objects"),
    (Pool::Metadata, "class metadata"),
];

/// A memory manager: the two kinds of collection, and what manages class metadata.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Manager {
    Young,
    Full,
    Metadata,
}

/// The managers, in the order `MemoryImpl.getMemoryManagers0` gives them, with their pools.
pub const MANAGERS: [(Manager, &str, &[Pool]); 3] = [
    (
        Manager::Metadata,
        "class metadata manager",
        &[Pool::Metadata],
    ),
    (Manager::Young, "young", &[Pool::Nursery, Pool::Old]),
    (
        Manager::Full,
        "full",
        &[Pool::Nursery, Pool::Old, Pool::Large],
    ),
];

impl Pool {
    fn name(self) -> &'static str {
        POOLS.iter().find(|p| p.0 == self).map_or("", |p| p.1)
    }
    fn is_heap(self) -> bool {
        self != Pool::Metadata
    }
    fn by_name(name: &str) -> Option<Pool> {
        POOLS.iter().find(|p| p.1 == name).map(|p| p.0)
    }
}

impl Manager {
    fn by_name(name: &str) -> Option<Manager> {
        MANAGERS.iter().find(|m| m.1 == name).map(|m| m.0)
    }
    fn pools(self) -> &'static [Pool] {
        MANAGERS.iter().find(|m| m.0 == self).map_or(&[], |m| m.2)
    }
}

/// A `java.lang.management.MemoryUsage`: init (-1: undefined), used, committed, max (-1:
/// undefined). [`Usage::new`] keeps the class's invariants (used <= committed <= max).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Usage {
    pub init: i64,
    pub used: i64,
    pub committed: i64,
    pub max: i64,
}

impl Usage {
    pub fn new(used: u64, committed: u64, max: Option<u64>) -> Usage {
        let cap = |v: u64| v.min(i64::MAX as u64) as i64;
        let used = cap(used);
        let mut committed = cap(committed).max(used);
        let max = match max {
            Some(m) => {
                let m = cap(m).max(used);
                committed = committed.min(m);
                m
            }
            None => -1,
        };
        Usage {
            init: -1,
            used,
            committed,
            max,
        }
    }
}

/// The peak of the class metadata estimate (shared by all domains like the metadata).
static PEAK_METADATA: AtomicU64 = AtomicU64::new(0);

fn metadata_bytes(t: &JThread) -> u64 {
    let bytes = t.vm.classes.stats.get().2;
    PEAK_METADATA.fetch_max(bytes, Ordering::Relaxed);
    bytes
}

/// Current usage of `pool` in `heap` (with class metadata `meta` bytes).
pub fn pool_usage(heap: &Heap, pool: Pool, meta: u64) -> Usage {
    let max = heap.capacity() as u64;
    let nursery = heap.nursery_size() as u64;
    match pool {
        Pool::Nursery => Usage::new(heap.nursery_used() as u64, nursery, Some(nursery)),
        Pool::Old => {
            let used = heap.old_used() as u64;
            let committed = (heap.committed() as u64)
                .saturating_sub(nursery)
                .saturating_sub(heap.large_used() as u64);
            Usage::new(used, committed, Some(max))
        }
        Pool::Large => {
            let used = heap.large_used() as u64;
            Usage::new(used, used, Some(max))
        }
        Pool::Metadata => Usage::new(meta, meta, None),
    }
}

pub fn register(r: &mut Registry) {
    register_vm(r);
    register_memory(r);
    register_threads(r);
    register_os(r);
    register_cgroup(r);
    register_gc_info(r);
    register_notifications(r);
    // RMI's distributed GC (java.rmi's sun.rmi.transport.GC): milliseconds since the heap was
    // last examined whole, its domain's last full collection (before any: since the VM
    // started, as HotSpot counts from the heap's creation). Its daemon runs System.gc() when
    // that passes the latency asked for.
    r.add(
        "sun/rmi/transport/GC",
        "maxObjectInspectionAge",
        "()J",
        |t, _| {
            let since = t.domain.gc.stats.last_full.lock().map(|gc| gc.end);
            let since = since.unwrap_or_else(|| t.vm.started());
            Ok(since.elapsed().as_millis().min(i64::MAX as u128) as u64)
        },
    );
    r.add(
        "jdk/internal/misc/Unsafe",
        "getLoadAverage0",
        "([DI)I",
        load_average,
    );
}

// ---- VMManagementImpl ----

fn register_vm(r: &mut Registry) {
    let vm = "sun/management/VMManagementImpl";
    r.add(vm, "getVersion0", "()Ljava/lang/String;", |t, _| {
        Ok(t.new_string(JMM_VERSION)?.slot())
    });
    r.add(vm, "initOptionalSupportFields", "()V", init_support_fields);
    r.add(vm, "isThreadContentionMonitoringEnabled", "()Z", |t, _| {
        let stats = &t.domain.thread_stats;
        Ok(ret_bool(
            stats.contention_monitoring.load(Ordering::Relaxed),
        ))
    });
    r.add(vm, "isThreadCpuTimeEnabled", "()Z", |_, _| {
        Ok(ret_bool(true))
    });
    r.add(vm, "isThreadAllocatedMemoryEnabled", "()Z", |_, _| {
        Ok(ret_bool(false))
    });
    r.add(vm, "getTotalClassCount", "()J", |t, _| {
        Ok(t.vm.classes.stats.get().0)
    });
    r.add(vm, "getUnloadedClassCount", "()J", |t, _| {
        Ok(t.vm.classes.stats.get().1)
    });
    // jxvm does not log class loading (-verbose:class is accepted and ignored).
    r.add(vm, "getVerboseClass", "()Z", |t, _| {
        Ok(ret_bool(
            t.vm.classes.load_log_verbose.load(Ordering::Relaxed),
        ))
    });
    r.add(vm, "getVerboseGC", "()Z", |t, _| {
        Ok(ret_bool(t.domain.gc.log.load(Ordering::Relaxed)))
    });
    r.add(vm, "getProcessId", "()I", |_, _| {
        Ok(ret_int(port::process::current_pid() as i32))
    });
    r.add(vm, "getVmArguments0", "()[Ljava/lang/String;", |t, _| {
        let args: Vec<Option<String>> = t.vm.vm_args().iter().cloned().map(Some).collect();
        Ok(super::misc::string_array(t, &args)?.slot())
    });
    r.add(vm, "getStartupTime", "()J", |t, _| {
        let up = t.vm.started().elapsed().as_millis() as i64;
        Ok((port::current_time_millis() - up) as u64)
    });
    r.add(vm, "getUptime0", "()J", |t, _| {
        Ok(t.vm.started().elapsed().as_millis() as u64)
    });
    r.add(vm, "getAvailableProcessors", "()I", |_, _| {
        Ok(ret_int(port::available_processors() as i32))
    });
    r.add(vm, "getTotalThreadCount", "()J", |t, _| {
        Ok(t.domain.thread_stats.started.load(Ordering::Relaxed))
    });
    r.add(vm, "getLiveThreadCount", "()I", |t, _| {
        Ok(ret_int(t.domain.alive_java_threads() as i32))
    });
    r.add(vm, "getPeakThreadCount", "()I", |t, _| {
        let live = t.domain.alive_java_threads();
        let peak = &t.domain.thread_stats.peak;
        Ok(ret_int(
            peak.fetch_max(live, Ordering::Relaxed).max(live) as i32
        ))
    });
    r.add(vm, "getDaemonThreadCount", "()I", |t, _| {
        let n = live_threads(t).iter().filter(|&&th| is_daemon(th)).count();
        Ok(ret_int(n as i32))
    });
}

/// What `RuntimeMXBean.getManagementSpecVersion` reports (HotSpot 17's jmm version 3.0).
const JMM_VERSION: &str = "3.0";

/// The optional parts of the API jxvm supports: contention monitoring (blocked and waited
/// times), CPU time of the current and of other threads, object monitor usage (the monitors
/// a thread holds, `thread::locks::locked_monitors`), synchronizer usage (the ownable
/// synchronizers a thread holds, deadlocks through them); not compilation time, allocated
/// memory per thread, or remote diagnostic commands.
fn init_support_fields(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let c = t.load_boot("sun/management/VMManagementImpl")?;
    let mirror = t.mirror(c)?;
    let flags = [
        ("compTimeMonitoringSupport", false),
        ("threadContentionMonitoringSupport", true),
        ("currentThreadCpuTimeSupport", true),
        ("otherThreadCpuTimeSupport", true),
        ("objectMonitorUsageSupport", true),
        ("synchronizerUsageSupport", true),
        ("threadAllocatedMemorySupport", false),
        ("remoteDiagnosticCommandsSupport", false),
    ];
    for (name, on) in flags {
        if let Some(f) = c.field(name, "Z").filter(|f| f.is_static()) {
            let at = t.vm.wk().statics_base + f.offset;
            mirror.write::<u8>(at as usize, on as u8);
        }
    }
    Ok(0)
}

// ---- memory ----

fn register_memory(r: &mut Registry) {
    let mem = "sun/management/MemoryImpl";
    r.add(
        mem,
        "getMemoryPools0",
        "()[Ljava/lang/management/MemoryPoolMXBean;",
        |t, _| Ok(new_pools(t, &POOLS.map(|p| p.0))?.slot()),
    );
    r.add(
        mem,
        "getMemoryManagers0",
        "()[Ljava/lang/management/MemoryManagerMXBean;",
        |t, _| Ok(new_managers(t)?.slot()),
    );
    r.add(
        mem,
        "getMemoryUsage0",
        "(Z)Ljava/lang/management/MemoryUsage;",
        memory_usage,
    );
    // ClassLoadingMXBean.setVerbose: -verbose:class's log switched on or off (every domain's:
    // classes are defined in the one table).
    r.add(
        "sun/management/ClassLoadingImpl",
        "setVerboseClass",
        "(Z)V",
        |t, a| {
            let on = a[0] != 0;
            t.vm.classes.load_log_verbose.store(on, Ordering::Relaxed);
            t.vm.classes.load_log.store(on, Ordering::Relaxed);
            Ok(0)
        },
    );
    r.add(mem, "setVerboseGC", "(Z)V", |t, a| {
        t.domain.gc.log.store(a[1] != 0, Ordering::Relaxed);
        Ok(0)
    });
    let pool = "sun/management/MemoryPoolImpl";
    let usage = "()Ljava/lang/management/MemoryUsage;";
    r.add(pool, "getUsage0", usage, |t, a| {
        let p = pool_of(t, a[0])?;
        let meta = metadata_bytes(t);
        let u = pool_usage(&t.domain.heap, p, meta);
        if p.is_heap() {
            t.domain.gc.stats.note_usage(&t.domain.heap);
        }
        Ok(new_usage(t, u)?.slot())
    });
    r.add(pool, "getPeakUsage0", usage, |t, a| {
        let p = pool_of(t, a[0])?;
        let u = peak_usage(t, p);
        Ok(new_usage(t, u)?.slot())
    });
    r.add(pool, "getCollectionUsage0", usage, |t, a| {
        let p = pool_of(t, a[0])?;
        let Some(u) = collection_usage(t, p) else {
            return Ok(0);
        };
        Ok(new_usage(t, u)?.slot())
    });
    r.add(pool, "resetPeakUsage0", "()V", |t, a| {
        let p = pool_of(t, a[0])?;
        let heap = &t.domain.heap;
        let s = &t.domain.gc.stats;
        match p {
            Pool::Nursery => s
                .peak_nursery
                .store(heap.nursery_used() as u64, Ordering::Relaxed),
            Pool::Old => s.peak_old.store(heap.old_used() as u64, Ordering::Relaxed),
            Pool::Large => s
                .peak_large
                .store(heap.large_used() as u64, Ordering::Relaxed),
            Pool::Metadata => {
                PEAK_METADATA.store(t.vm.classes.stats.get().2, Ordering::Relaxed);
            }
        }
        Ok(0)
    });
    r.add(
        pool,
        "getMemoryManagers0",
        "()[Ljava/lang/management/MemoryManagerMXBean;",
        pool_managers,
    );
    r.add(
        "sun/management/MemoryManagerImpl",
        "getMemoryPools0",
        "()[Ljava/lang/management/MemoryPoolMXBean;",
        manager_pools,
    );
    let gc = "sun/management/GarbageCollectorImpl";
    r.add(gc, "getCollectionCount", "()J", |t, a| {
        let (count, _) = collections(t, a[0])?;
        Ok(count)
    });
    r.add(gc, "getCollectionTime", "()J", |t, a| {
        let (_, nanos) = collections(t, a[0])?;
        Ok(nanos / 1_000_000)
    });
}

/// The `name` field of a MemoryPoolImpl or MemoryManagerImpl.
fn bean_name(t: &mut JThread, v: u64) -> JResult<String> {
    let o = nonnull(t, v)?;
    let name = o
        .class()
        .instance_field("name")
        .and_then(|f| o.read_ref(f.offset as usize));
    Ok(name.map(|n| t.rust_string(n)).unwrap_or_default())
}

fn pool_of(t: &mut JThread, v: u64) -> JResult<Pool> {
    let name = bean_name(t, v)?;
    Pool::by_name(&name).ok_or_else(|| {
        let msg = format!("no memory pool named {name}");
        t.throw_new("java/lang/IllegalArgumentException", Some(&msg))
    })
}

fn manager_of(t: &mut JThread, v: u64) -> JResult<Manager> {
    let name = bean_name(t, v)?;
    Manager::by_name(&name).ok_or_else(|| {
        let msg = format!("no memory manager named {name}");
        t.throw_new("java/lang/IllegalArgumentException", Some(&msg))
    })
}

/// (collections, nanoseconds spent in them) of the GarbageCollectorImpl `v`.
fn collections(t: &mut JThread, v: u64) -> JResult<(u64, u64)> {
    let s = &t.domain.gc.stats;
    let (young, full) = (
        (
            s.young_count.load(Ordering::Relaxed),
            s.young_nanos.load(Ordering::Relaxed),
        ),
        (
            s.full_count.load(Ordering::Relaxed),
            s.full_nanos.load(Ordering::Relaxed),
        ),
    );
    Ok(match manager_of(t, v)? {
        Manager::Young => young,
        Manager::Full => full,
        Manager::Metadata => (0, 0),
    })
}

fn peak_usage(t: &JThread, p: Pool) -> Usage {
    let heap = &t.domain.heap;
    let s = &t.domain.gc.stats;
    s.note_usage(heap);
    let meta = metadata_bytes(t);
    let now = pool_usage(heap, p, meta);
    let peak = match p {
        Pool::Nursery => s.peak_nursery.load(Ordering::Relaxed),
        Pool::Old => s.peak_old.load(Ordering::Relaxed),
        Pool::Large => s.peak_large.load(Ordering::Relaxed),
        Pool::Metadata => PEAK_METADATA.load(Ordering::Relaxed),
    };
    let max = (now.max >= 0).then_some(now.max as u64);
    Usage::new(peak, now.committed as u64, max)
}

/// Usage after the last collection (None for the metadata, which no collector manages here,
/// and for a heap pool before the first collection, as HotSpot reports zero usage then).
fn collection_usage(t: &JThread, p: Pool) -> Option<Usage> {
    let heap = &t.domain.heap;
    let s = &t.domain.gc.stats;
    let after = match p {
        Pool::Nursery => &s.after_nursery,
        Pool::Old => &s.after_old,
        Pool::Large => &s.after_large,
        Pool::Metadata => return None,
    };
    let used = match after.load(Ordering::Relaxed) {
        u64::MAX => 0,
        v => v,
    };
    let now = pool_usage(heap, p, 0);
    Some(Usage::new(used, now.committed as u64, Some(now.max as u64)))
}

fn memory_usage(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let u = if a[1] != 0 {
        let heap = &t.domain.heap;
        Usage::new(
            heap.used() as u64,
            heap.committed() as u64,
            Some(heap.capacity() as u64),
        )
    } else {
        let meta = metadata_bytes(t);
        Usage::new(meta, meta, None)
    };
    Ok(new_usage(t, u)?.slot())
}

fn new_usage(t: &mut JThread, u: Usage) -> JResult<ObjRef> {
    let c = t.load_boot("java/lang/management/MemoryUsage")?;
    let s = |v: i64| v as u64;
    t.construct(
        c,
        "(JJJJ)V",
        &[s(u.init), 0, s(u.used), 0, s(u.committed), 0, s(u.max), 0],
    )
}

/// New pool beans for `pools` (through ManagementFactoryHelper.createMemoryPool; usage
/// thresholds are not supported: -1).
fn new_pools(t: &mut JThread, pools: &[Pool]) -> JResult<ObjRef> {
    let helper = "sun/management/ManagementFactoryHelper";
    let bean = t.load_boot("java/lang/management/MemoryPoolMXBean")?;
    let arr = t.new_array_of(bean, pools.len() as i32)?;
    let h = t.handle(arr);
    for (i, &p) in pools.iter().enumerate() {
        let name = t.new_string(p.name())?;
        let minus1 = -1i64 as u64;
        let o = t.call_static(
            helper,
            "createMemoryPool",
            "(Ljava/lang/String;ZJJ)Ljava/lang/management/MemoryPoolMXBean;",
            &[name.slot(), p.is_heap() as u64, minus1, 0, minus1, 0],
        )?;
        let arr = t.handle_get(h);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, obj(o));
    }
    Ok(t.handle_get(h))
}

/// New manager beans: a GarbageCollectorMXBean per collection kind (jdk.management's
/// extended one when that module is there, as in HotSpot), a MemoryManagerMXBean for the
/// class metadata.
fn new_managers(t: &mut JThread) -> JResult<ObjRef> {
    let bean = t.load_boot("java/lang/management/MemoryManagerMXBean")?;
    let arr = t.new_array_of(bean, MANAGERS.len() as i32)?;
    let h = t.handle(arr);
    let ext = match t.load_boot("com/sun/management/internal/GarbageCollectorExtImpl") {
        Ok(_) => true,
        Err(_) => {
            t.take_exception();
            false
        }
    };
    for (i, &(m, name, _)) in MANAGERS.iter().enumerate() {
        let name = t.new_string(name)?;
        let o = match m {
            Manager::Metadata => t.call_static(
                "sun/management/ManagementFactoryHelper",
                "createMemoryManager",
                "(Ljava/lang/String;)Ljava/lang/management/MemoryManagerMXBean;",
                &[name.slot()],
            )?,
            Manager::Young | Manager::Full => {
                let nh = t.handle(name);
                let kind = t.new_string(match m {
                    Manager::Young => "young",
                    _ => "full",
                })?;
                let name = t.handle_get(nh);
                let class = if ext {
                    "com/sun/management/internal/GarbageCollectorExtImpl"
                } else {
                    "sun/management/ManagementFactoryHelper"
                };
                t.call_static(
                    class,
                    "createGarbageCollector",
                    "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/management/GarbageCollectorMXBean;",
                    &[name.slot(), kind.slot()],
                )?
            }
        };
        let arr = t.handle_get(h);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, obj(o));
    }
    Ok(t.handle_get(h))
}

/// The beans of MemoryImpl's cached array (`getMemoryPools` or `getMemoryManagers`) whose
/// names `keep` accepts, in an array of `elem`.
fn filtered_beans(
    t: &mut JThread,
    getter: &str,
    desc: &str,
    elem: &str,
    keep: &dyn Fn(&str) -> bool,
) -> JResult<u64> {
    let all = t.call_static("sun/management/MemoryImpl", getter, desc, &[])?;
    let all = nonnull(t, all)?;
    // No Java code runs from here on (VM allocations never collect): raw references are safe.
    let mut chosen = Vec::new();
    for i in 0..all.array_len() {
        if let Some(b) = all.read_ref(ARRAY_BASE + i * 8) {
            let name = bean_name(t, b.slot())?;
            if keep(&name) {
                chosen.push(b);
            }
        }
    }
    let h = t.handle(all);
    let c = t.load_boot(elem)?;
    let out = t.new_array_of(c, chosen.len() as i32)?;
    let all = t.handle_get(h);
    // Loading may have run Java code: read the beans again from the (moved) array.
    let mut k = 0;
    for i in 0..all.array_len() {
        if let Some(b) = all.read_ref(ARRAY_BASE + i * 8) {
            let name = bean_name(t, b.slot())?;
            if keep(&name) && k < chosen.len() {
                t.domain.heap.write_ref(out, ARRAY_BASE + k * 8, Some(b));
                k += 1;
            }
        }
    }
    Ok(out.slot())
}

fn pool_managers(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let p = pool_of(t, a[0])?;
    filtered_beans(
        t,
        "getMemoryManagers",
        "()[Ljava/lang/management/MemoryManagerMXBean;",
        "java/lang/management/MemoryManagerMXBean",
        &|name| Manager::by_name(name).is_some_and(|m| m.pools().contains(&p)),
    )
}

fn manager_pools(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let m = manager_of(t, a[0])?;
    filtered_beans(
        t,
        "getMemoryPools",
        "()[Ljava/lang/management/MemoryPoolMXBean;",
        "java/lang/management/MemoryPoolMXBean",
        &|name| Pool::by_name(name).is_some_and(|p| m.pools().contains(&p)),
    )
}

// ---- jdk.management's GcInfoBuilder ----

fn register_gc_info(r: &mut Registry) {
    let b = "com/sun/management/internal/GcInfoBuilder";
    // jxvm's collectors have no attributes of their own beyond GcInfo's.
    r.add(
        b,
        "getNumGcExtAttributes",
        "(Ljava/lang/management/GarbageCollectorMXBean;)I",
        |_, _| Ok(ret_int(0)),
    );
    r.add(
        b,
        "fillGcAttributeInfo",
        "(Ljava/lang/management/GarbageCollectorMXBean;I[Ljava/lang/String;[C[Ljava/lang/String;)V",
        |t, a| {
            if jint(a[2]) != 0 {
                return Err(t.throw_new("java/lang/IllegalArgumentException", None));
            }
            Ok(0)
        },
    );
    r.add(
        b,
        "getLastGcInfo0",
        "(Ljava/lang/management/GarbageCollectorMXBean;I[Ljava/lang/Object;[C[Ljava/lang/management/MemoryUsage;[Ljava/lang/management/MemoryUsage;)Lcom/sun/management/GcInfo;",
        last_gc_info,
    );
}

/// GcInfoBuilder.getLastGcInfo0: the last collection of collector `gc` (null before its
/// first), with the usage of every pool (in [`POOLS`] order, MemoryImpl's) before and after
/// it stored in `before` and `after`; times are milliseconds since the VM started.
fn last_gc_info(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let builder = nonnull(t, a[0])?;
    let m = manager_of(t, a[1])?;
    let last = match m {
        Manager::Young => *t.domain.gc.stats.last_young.lock(),
        Manager::Full => *t.domain.gc.stats.last_full.lock(),
        Manager::Metadata => None,
    };
    let Some(last) = last else { return Ok(0) };
    let before = nonnull(t, a[5])?;
    let after = nonnull(t, a[6])?;
    let handles = [t.handle(builder), t.handle(before), t.handle(after)];
    Ok(gc_info(t, handles, last)?.slot())
}

/// A GcInfo of collection `last` for the GcInfoBuilder, MemoryUsage[] before and
/// MemoryUsage[] after in `handles`, filling the two arrays (in [`POOLS`] order).
fn gc_info(t: &mut JThread, handles: [usize; 3], last: LastGc) -> JResult<ObjRef> {
    let meta = metadata_bytes(t);
    let n = {
        let (b, a) = (t.handle_get(handles[1]), t.handle_get(handles[2]));
        b.array_len().min(a.array_len()).min(POOLS.len())
    };
    for (i, &(pool, _)) in POOLS.iter().enumerate().take(n) {
        let now = pool_usage(&t.domain.heap, pool, meta);
        let max = (now.max >= 0).then_some(now.max as u64);
        let at = |v: [u64; 3]| match pool {
            Pool::Nursery => Usage::new(v[0], now.committed as u64, max),
            Pool::Old => Usage::new(v[1], now.committed as u64, max),
            Pool::Large => Usage::new(v[2], now.committed as u64, max),
            Pool::Metadata => now,
        };
        let b = new_usage(t, at(last.before))?;
        let arr = t.handle_get(handles[1]);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(b));
        let u = new_usage(t, at(last.after))?;
        let arr = t.handle_get(handles[2]);
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(u));
    }
    let ms = |i: std::time::Instant| i.saturating_duration_since(t.vm.started()).as_millis() as u64;
    let (start, end) = (ms(last.start), ms(last.end));
    let object = t.load_boot("java/lang/Object")?;
    let ext = t.new_array_of(object, 0)?;
    let ext_h = t.handle(ext);
    let c = t.load_boot("com/sun/management/GcInfo")?;
    let [builder, before, after] = handles.map(|h| t.handle_get(h));
    let ext = t.handle_get(ext_h);
    t.construct(
        c,
        "(Lcom/sun/management/internal/GcInfoBuilder;JJJ[Ljava/lang/management/MemoryUsage;[Ljava/lang/management/MemoryUsage;[Ljava/lang/Object;)V",
        &[
            builder.slot(),
            last.index,
            0,
            start,
            0,
            end,
            0,
            before.slot(),
            after.slot(),
            ext.slot(),
        ],
    )
}

// ---- GC notifications ----

fn register_notifications(r: &mut Registry) {
    r.add(
        "com/sun/management/internal/GarbageCollectorExtImpl",
        "setNotificationEnabled",
        "(Lcom/sun/management/GarbageCollectorMXBean;Z)V",
        set_notification_enabled,
    );
    r.add("jx/internal/GcNotifier", "send0", "()V", send_notifications);
}

/// GarbageCollectorExtImpl.setNotificationEnabled(gc, enabled): whether collections of `gc`
/// are notified; the first time, starts the daemon thread "GC notifier" (`jx.internal.
/// GcNotifier`) that sends them (HotSpot's service thread, which is not a Java thread).
fn set_notification_enabled(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let m = manager_of(t, a[1])?;
    let on = a[2] != 0;
    let stats = &t.domain.gc.stats;
    match m {
        Manager::Young => stats.notify_young.store(on, Ordering::Relaxed),
        Manager::Full => stats.notify_full.store(on, Ordering::Relaxed),
        Manager::Metadata => return Ok(0),
    }
    if on && !stats.notifier_started.swap(true, Ordering::AcqRel) {
        let started = start_notifier(t);
        if started.is_err() {
            t.domain
                .gc
                .stats
                .notifier_started
                .store(false, Ordering::Release);
        }
        started?;
    }
    Ok(0)
}

fn start_notifier(t: &mut JThread) -> JResult<()> {
    let c = t.load_boot("jx/internal/GcNotifier")?;
    let runnable = t.construct(c, "()V", &[])?;
    let rh = t.handle(runnable);
    let tc = t.load_boot("java/lang/Thread")?;
    let name = t.new_string("GC notifier")?;
    let runnable = t.handle_get(rh);
    let th = t.construct(
        tc,
        "(Ljava/lang/Runnable;Ljava/lang/String;)V",
        &[runnable.slot(), name.slot()],
    )?;
    let th_h = t.handle(th);
    t.call_virtual(th, "setDaemon", "(Z)V", &[1])?;
    let th = t.handle_get(th_h);
    t.call_virtual(th, "start", "()V", &[])?;
    Ok(())
}

/// GcNotifier.send0(): waits up to 200 ms for collections, then sends each to the listeners
/// of its collector (GarbageCollectorExtImpl.createGCNotification, with a GcInfo as
/// getLastGcInfo gives). The collector beans are MemoryImpl's (ManagementFactory's).
fn send_notifications(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let domain = t.domain.clone();
    let events: Vec<GcEvent> = t.blocking(|| {
        let stats = &domain.gc.stats;
        let mut pending = stats.pending.lock();
        if pending.is_empty() {
            stats
                .pending_cond
                .wait_for(&mut pending, std::time::Duration::from_millis(200));
        }
        pending.drain(..).collect()
    });
    t.poll_safepoint()?;
    if events.is_empty() {
        return Ok(0);
    }
    let beans = t.call_static(
        "sun/management/MemoryImpl",
        "getMemoryManagers",
        "()[Ljava/lang/management/MemoryManagerMXBean;",
        &[],
    )?;
    let beans = nonnull(t, beans)?;
    let beans_h = t.handle(beans);
    let mu = t.load_boot("java/lang/management/MemoryUsage")?;
    for ev in events {
        let mark = t.handles.len();
        let name = if ev.full { "full" } else { "young" };
        let beans = t.handle_get(beans_h);
        let mut bean = None;
        for i in 0..beans.array_len() {
            if let Some(b) = beans.read_ref(ARRAY_BASE + i * 8)
                && bean_name(t, b.slot())? == name
            {
                bean = Some(b);
                break;
            }
        }
        let Some(bean) = bean else { continue };
        let bean_h = t.handle(bean);
        let builder = t.call_virtual(
            bean,
            "getGcInfoBuilder",
            "()Lcom/sun/management/internal/GcInfoBuilder;",
            &[],
        )?;
        let builder = nonnull(t, builder)?;
        let builder_h = t.handle(builder);
        let before = t.new_array_of(mu, POOLS.len() as i32)?;
        let before_h = t.handle(before);
        let after = t.new_array_of(mu, POOLS.len() as i32)?;
        let after_h = t.handle(after);
        let info = gc_info(t, [builder_h, before_h, after_h], ev.gc)?;
        let info_h = t.handle(info);
        let strings = [
            name,
            if ev.full {
                "end of major GC"
            } else {
                "end of minor GC"
            },
            &ev.cause,
        ];
        let mut string_h = [0usize; 3];
        for (h, s) in string_h.iter_mut().zip(strings) {
            let o = t.new_string(s)?;
            *h = t.handle(o);
        }
        let [gc_name, action, cause] = string_h.map(|h| t.handle_get(h));
        let (bean, info) = (t.handle_get(bean_h), t.handle_get(info_h));
        t.call_virtual(
            bean,
            "createGCNotification",
            "(JLjava/lang/String;Ljava/lang/String;Ljava/lang/String;Lcom/sun/management/GcInfo;)V",
            &[
                ev.timestamp as u64,
                0,
                gc_name.slot(),
                action.slot(),
                cause.slot(),
                info.slot(),
            ],
        )?;
        t.handles.truncate(mark);
    }
    Ok(0)
}

// ---- threads ----

fn register_threads(r: &mut Registry) {
    let ti = "sun/management/ThreadImpl";
    r.add(ti, "getThreads", "()[Ljava/lang/Thread;", |t, _| {
        let tc = t.load_boot("java/lang/Thread")?;
        // No Java code runs from here on (VM allocations never collect).
        let threads = live_threads(t);
        let arr = t.new_array_of(tc, threads.len() as i32)?;
        for (i, th) in threads.into_iter().enumerate() {
            t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(th));
        }
        Ok(arr.slot())
    });
    r.add(ti, "getThreadTotalCpuTime0", "(J)J", |t, a| {
        Ok(thread_cpu(t, jlong(a[0]), false) as u64)
    });
    r.add(ti, "getThreadUserCpuTime0", "(J)J", |t, a| {
        Ok(thread_cpu(t, jlong(a[0]), true) as u64)
    });
    r.add(ti, "getThreadTotalCpuTime1", "([J[J)V", |t, a| {
        thread_cpu_array(t, a, false)
    });
    r.add(ti, "getThreadUserCpuTime1", "([J[J)V", |t, a| {
        thread_cpu_array(t, a, true)
    });
    r.add(
        ti,
        "getThreadInfo1",
        "([JI[Ljava/lang/management/ThreadInfo;)V",
        thread_info,
    );
    r.add(
        ti,
        "dumpThreads0",
        "([JZZI)[Ljava/lang/management/ThreadInfo;",
        dump_threads,
    );
    r.add(
        ti,
        "findMonitorDeadlockedThreads0",
        "()[Ljava/lang/Thread;",
        |t, _| deadlocked_threads(t, false),
    );
    r.add(
        ti,
        "findDeadlockedThreads0",
        "()[Ljava/lang/Thread;",
        |t, _| deadlocked_threads(t, true),
    );
    // CPU time is always measured (by the host): nothing to switch.
    r.add(ti, "setThreadCpuTimeEnabled0", "(Z)V", |_, _| Ok(0));
    r.add(
        ti,
        "setThreadContentionMonitoringEnabled0",
        "(Z)V",
        |t, a| {
            contention::set_monitoring(&t.domain.thread_stats, a[0] != 0);
            Ok(0)
        },
    );
    // Called with 0 (every thread) before monitoring is turned on, which starts the times
    // from zero anyway (`contention::set_monitoring`); no other id is ever passed.
    r.add(ti, "resetContentionTimes0", "(J)V", |t, _| {
        contention::reset_times(&t.domain.thread_stats);
        Ok(0)
    });
    r.add(ti, "resetPeakThreadCount0", "()V", |t, _| {
        let live = t.domain.alive_java_threads();
        t.domain.thread_stats.peak.store(live, Ordering::Relaxed);
        Ok(0)
    });
}

/// The domain's live Java threads (not portal activations visiting it).
fn live_threads(t: &JThread) -> Vec<ObjRef> {
    t.domain
        .threads
        .lock()
        .iter()
        .filter(|(_, h)| !h.activation && h.alive.load(Ordering::SeqCst))
        .map(|(&a, _)| ObjRef::from_addr(a))
        .collect()
}

/// ThreadImpl.findMonitorDeadlockedThreads0 and findDeadlockedThreads0: the Thread objects of
/// the threads of the domain's deadlocks (`locks::find_deadlocks`: of monitors, and with
/// `synchronizers` of ownable synchronizers too), null if there is none. A portal activation
/// in a deadlock is reported with its Thread object ("portal-N"), which `getThreadInfo` does
/// not know (it is not one of the domain's threads).
fn deadlocked_threads(t: &mut JThread, synchronizers: bool) -> JResult<u64> {
    let domain = t.domain.clone();
    let found: Vec<ObjRef> = domain.safepoint.with_others_stopped(t, |me, others| {
        let threads = all_threads(me, others);
        locks::find_deadlocks(&domain, &threads, synchronizers)
            .into_iter()
            .flatten()
            .filter_map(|i| threads[i].thread_obj)
            .collect()
    });
    if found.is_empty() {
        return Ok(0);
    }
    // This thread ran on since the others were stopped: the references are current, and VM
    // allocations never collect.
    let tc = t.load_boot("java/lang/Thread")?;
    let arr = t.new_array_of(tc, found.len() as i32)?;
    for (i, th) in found.into_iter().enumerate() {
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(th));
    }
    Ok(arr.slot())
}

/// The stopped threads of a domain and the thread that stopped them, oldest first.
fn all_threads<'a>(me: &'a JThread, others: &[&'a JThread]) -> Vec<&'a JThread> {
    let mut all: Vec<&JThread> = others.iter().copied().chain([me]).collect();
    all.sort_by_key(|t| t.id);
    all
}

/// What a ThreadInfo reports of a thread besides its Thread object, read while the domain's
/// threads were stopped: its stack (`lang::encode_frame`, innermost first), the handles of
/// the lock it waits for and of that lock's owner, the monitors it holds (stack depth and
/// handle, if asked for) and its contention statistics.
struct Snapshot {
    frames: Vec<i64>,
    lock: Option<usize>,
    owner: Option<usize>,
    monitors: Vec<(usize, usize)>,
    contention: Contention,
}

/// A thread's blocked count and time, waited count and time (times -1: not measured).
#[derive(Clone, Copy)]
struct Contention {
    blocked: (i64, i64),
    waited: (i64, i64),
}

impl Contention {
    fn of(t: &JThread) -> Contention {
        use contention::Kind::{Blocked, Waited};
        let (c, stats) = (&t.contention, &t.domain.thread_stats);
        Contention {
            blocked: (c.count(Blocked), c.millis(Blocked, stats)),
            waited: (c.count(Waited), c.millis(Waited, stats)),
        }
    }
}

/// Snapshots of the threads with VM thread ids `ids`, with stacks if `frames`, with the
/// monitors they hold if `monitors`.
fn snapshots(
    t: &mut JThread,
    ids: &[u64],
    frames: bool,
    monitors: bool,
) -> rustc_hash::FxHashMap<u64, Snapshot> {
    let domain = t.domain.clone();
    domain.safepoint.with_others_stopped(t, |me, others| {
        let read: Vec<_> = {
            let threads = all_threads(me, others);
            (0..threads.len())
                .filter(|&i| ids.contains(&threads[i].id))
                .map(|i| {
                    let th = threads[i];
                    let stack: Vec<i64> = match frames {
                        true => th
                            .frames
                            .iter()
                            .rev()
                            .map(|f| super::lang::encode_frame(f.method, f.bci()))
                            .collect(),
                        false => Vec::new(),
                    };
                    let b = locks::blocker(&domain, &threads, i);
                    let owner = b.and_then(|b| b.owner.thread_object(&threads));
                    let held = match monitors {
                        true => locks::locked_monitors(th),
                        false => Vec::new(),
                    };
                    let contention = Contention::of(th);
                    (th.id, stack, b.map(|b| b.lock), owner, held, contention)
                })
                .collect()
        };
        read.into_iter()
            .map(|(id, frames, lock, owner, held, contention)| {
                let lock = lock.map(|o| me.handle(o));
                let owner = owner.map(|o| me.handle(o));
                let monitors = held.into_iter().map(|(d, o)| (d, me.handle(o))).collect();
                (
                    id,
                    Snapshot {
                        frames,
                        lock,
                        owner,
                        monitors,
                        contention,
                    },
                )
            })
            .collect()
    })
}

/// ThreadImpl.getThreadInfo1(long[] ids, int maxDepth, ThreadInfo[] result): a ThreadInfo
/// for each live thread of `ids` (null for the others), with up to `maxDepth` frames of its
/// stack (-1: all), the lock it waits for (`locks::blocker`) and its contention statistics.
fn thread_info(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let ids = nonnull(t, a[0])?;
    let max_depth = jint(a[1]);
    let result = nonnull(t, a[2])?;
    let ids: Vec<i64> = ids.array_slice::<i64>().to_vec();
    if result.array_len() < ids.len() {
        return Err(t.throw_new("java/lang/IllegalArgumentException", None));
    }
    let result_h = t.handle(result);
    fill_thread_infos(t, &ids, max_depth, Details::default(), result_h)?;
    Ok(0)
}

/// ThreadImpl.dumpThreads0(long[] ids, boolean lockedMonitors, boolean lockedSynchronizers,
/// int maxDepth): ThreadInfos of `ids` (null: every live thread), with the monitors each
/// holds (`locks::locked_monitors`) and the ownable synchronizers (`owned_synchronizers`) if
/// asked.
fn dump_threads(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let details = Details {
        monitors: a[1] != 0,
        synchronizers: a[2] != 0,
    };
    let max_depth = jint(a[3]);
    let ids: Vec<i64> = match obj(a[0]) {
        Some(ids) => ids.array_slice::<i64>().to_vec(),
        None => {
            let tid_off = jdk::Thread::get().tid;
            live_threads(t)
                .iter()
                .map(|th| th.read::<i64>(tid_off))
                .collect()
        }
    };
    let info = t.load_boot("java/lang/management/ThreadInfo")?;
    let result = t.new_array_of(info, ids.len() as i32)?;
    let result_h = t.handle(result);
    fill_thread_infos(t, &ids, max_depth, details, result_h)?;
    Ok(t.handle_get(result_h).slot())
}

/// Handles of the ownable synchronizers (`AbstractOwnableSynchronizer`s) each of the Thread
/// objects of handles `threads` holds, found by a walk of the heap as in HotSpot (in heap
/// order).
fn owned_synchronizers(t: &mut JThread, threads: &[usize]) -> JResult<Vec<Vec<usize>>> {
    if jdk::AbstractOwnableSynchronizer::load(&t.vm.classes).is_err() {
        let msg = "java.util.concurrent.locks.AbstractOwnableSynchronizer is not what jxvm expects";
        return Err(t.throw_new("java/lang/InternalError", Some(msg)));
    }
    Ok(crate::gc::with_every_object(
        t,
        "Heap Inspection",
        |t, objects| {
            let owners: Vec<ObjRef> = threads.iter().map(|&h| t.handle_get(h)).collect();
            let mut held = vec![Vec::new(); owners.len()];
            for &o in objects {
                let owner = locks::synchronizer_owner(o);
                if let Some(i) = owners.iter().position(|&th| Some(th) == owner) {
                    held[i].push(o);
                }
            }
            held.into_iter()
                .map(|syncs: Vec<ObjRef>| syncs.into_iter().map(|o| t.handle(o)).collect())
                .collect()
        },
    ))
}

/// What a ThreadInfo lists besides its stack: the monitors, the ownable synchronizers the
/// thread holds.
#[derive(Clone, Copy, Default)]
struct Details {
    monitors: bool,
    synchronizers: bool,
}

/// Stores in the ThreadInfo[] of handle `result_h` a ThreadInfo for each live thread of
/// `ids` (leaving null for the others) with up to `max_depth` frames (-1: all), and with the
/// monitors and ownable synchronizers it holds if `details` asks.
fn fill_thread_infos(
    t: &mut JThread,
    ids: &[i64],
    max_depth: i32,
    details: Details,
    result_h: usize,
) -> JResult<()> {
    let fields = super::lang::SteFields::of(t)?;
    let ste = t.load_boot("java/lang/StackTraceElement")?;
    let info_class = t.load_boot("java/lang/management/ThreadInfo")?;
    t.ensure_initialized(info_class)?;
    // (index in ids, handle of the Thread, its VM thread id) of the live ones.
    let tid_off = jdk::Thread::get().tid;
    let eetop_off = jdk::Thread::get().eetop;
    let live = live_threads(t);
    let mut found = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        if let Some(&th) = live.iter().find(|th| th.read::<i64>(tid_off) == id) {
            let vm_id = th.read::<i64>(eetop_off) as u64;
            found.push((i, t.handle(th), vm_id));
        }
    }
    let vm_ids: Vec<u64> = found.iter().map(|f| f.2).collect();
    let snapshots = if found.is_empty() {
        Default::default()
    } else {
        snapshots(t, &vm_ids, max_depth != 0, details.monitors)
    };
    let held = match details.synchronizers {
        true => {
            let threads: Vec<usize> = found.iter().map(|f| f.1).collect();
            Some(owned_synchronizers(t, &threads)?)
        }
        false => None,
    };
    let object = t.load_boot("java/lang/Object")?;
    let depth = if max_depth < 0 {
        usize::MAX
    } else {
        max_depth as usize
    };
    for (k, (i, th_h, vm_id)) in found.into_iter().enumerate() {
        let syncs = match &held {
            Some(held) => {
                let arr = t.new_array_of(object, held[k].len() as i32)?;
                for (j, &h) in held[k].iter().enumerate() {
                    let o = t.handle_get(h);
                    t.domain.heap.write_ref(arr, ARRAY_BASE + j * 8, Some(o));
                }
                arr.slot()
            }
            None => 0,
        };
        let snapshot = snapshots.get(&vm_id);
        let entries: &[i64] = snapshot.map_or(&[], |s| s.frames.as_slice());
        let entries = &entries[..entries.len().min(depth)];
        // No Java code runs while the trace is built (VM allocations never collect).
        let trace = t.new_array_of(ste, entries.len() as i32)?;
        for (j, &e) in entries.iter().enumerate() {
            let el = fields.new_element(t, e)?;
            t.domain.heap.write_ref(trace, ARRAY_BASE + j * 8, Some(el));
        }
        let (monitors, depths) = match (details.monitors, snapshot) {
            (true, Some(s)) => locked_monitor_arrays(t, &s.monitors, entries.len())?,
            _ => (0, 0),
        };
        let c = snapshot.map_or(
            Contention {
                blocked: (0, -1),
                waited: (0, -1),
            },
            |s| s.contention,
        );
        let th = t.handle_get(th_h);
        let slot_of = |h: Option<usize>| h.map_or(0, |h| t.handle_get(h).slot());
        let lock = slot_of(snapshot.and_then(|s| s.lock));
        let owner = slot_of(snapshot.and_then(|s| s.owner));
        let mut status = th.read::<u32>(jdk::Thread::get().thread_status);
        // As HotSpot: a thread blocked on a monitor nobody holds is about to run.
        if status as i32 == super::thread::BLOCKED && lock == 0 {
            status = super::thread::RUNNABLE as u32;
        }
        let info = t.construct(
            info_class,
            "(Ljava/lang/Thread;ILjava/lang/Object;Ljava/lang/Thread;JJJJ[Ljava/lang/StackTraceElement;[Ljava/lang/Object;[I[Ljava/lang/Object;)V",
            &[
                th.slot(),
                status as u64,
                lock,
                owner,
                // Longs take two slots: blocked count, blocked time, waited count and time.
                c.blocked.0 as u64,
                0,
                c.blocked.1 as u64,
                0,
                c.waited.0 as u64,
                0,
                c.waited.1 as u64,
                0,
                trace.slot(),
                monitors,
                depths,
                syncs,
            ],
        )?;
        let result = t.handle_get(result_h);
        t.domain
            .heap
            .write_ref(result, ARRAY_BASE + i * 8, Some(info));
    }
    Ok(())
}

/// The Object[] of the monitors of `held` (stack depth, handle) and the int[] of their
/// depths, for a ThreadInfo whose stack has `frames` frames (those of deeper frames are left
/// out, as HotSpot walks only the frames it reports).
fn locked_monitor_arrays(
    t: &mut JThread,
    held: &[(usize, usize)],
    frames: usize,
) -> JResult<(u64, u64)> {
    let held: Vec<(usize, usize)> = held.iter().copied().filter(|h| h.0 < frames).collect();
    let object = t.load_boot("java/lang/Object")?;
    // No Java code runs while the arrays are filled (VM allocations never collect).
    let monitors = t.new_array_of(object, held.len() as i32)?;
    let int = t.vm.classes.primitive(crate::class::BasicType::Int);
    let depths = t.new_array_of(int, held.len() as i32)?;
    for (j, &(depth, h)) in held.iter().enumerate() {
        let o = t.handle_get(h);
        t.domain
            .heap
            .write_ref(monitors, ARRAY_BASE + j * 8, Some(o));
        depths.array_slice::<i32>()[j] = depth as i32;
    }
    Ok((monitors.slot(), depths.slot()))
}

fn is_daemon(th: ObjRef) -> bool {
    th.read::<u8>(jdk::Thread::get().daemon) != 0
}

/// CPU time (or user time) of the thread whose `Thread.getId()` is `id` (0: the calling
/// thread) in nanoseconds; -1 when it is not alive in this domain.
fn thread_cpu(t: &JThread, id: i64, user: bool) -> i64 {
    let own = t
        .thread_obj
        .map(|th| th.read::<i64>(jdk::Thread::get().tid));
    if id == 0 || own == Some(id) {
        let v = if user {
            sysinfo::thread_user_nanos()
        } else {
            sysinfo::thread_cpu_nanos()
        };
        return v.map_or(-1, |n| n as i64);
    }
    let tid_off = jdk::Thread::get().tid;
    let os = t
        .domain
        .threads
        .lock()
        .iter()
        .filter(|(_, h)| !h.activation && h.alive.load(Ordering::SeqCst))
        .find(|(a, _)| ObjRef::from_addr(**a).read::<i64>(tid_off) == id)
        .and_then(|(_, h)| h.os_thread.lock().as_ref().map(|o| o.0));
    let Some(tid) = os else { return -1 };
    match sysinfo::task_cpu_nanos(tid) {
        Some((u, _)) if user => u as i64,
        Some((u, s)) => (u + s) as i64,
        None => -1,
    }
}

fn thread_cpu_array(t: &mut JThread, a: &[u64], user: bool) -> JResult<u64> {
    let ids = nonnull(t, a[0])?;
    let out = nonnull(t, a[1])?;
    let ids: Vec<i64> = ids.array_slice::<i64>().to_vec();
    let times: Vec<i64> = ids.iter().map(|&id| thread_cpu(t, id, user)).collect();
    let dst = out.array_slice::<i64>();
    for (d, v) in dst.iter_mut().zip(times) {
        *d = v;
    }
    Ok(0)
}

// ---- operating system ----

fn register_os(r: &mut Registry) {
    let os = "com/sun/management/internal/OperatingSystemImpl";
    r.add(os, "initialize0", "()V", |_, _| Ok(0));
    r.add(os, "getCommittedVirtualMemorySize0", "()J", |_, _| {
        Ok(long(sysinfo::virtual_memory_size()))
    });
    r.add(os, "getTotalMemorySize0", "()J", |_, _| {
        Ok(long(sysinfo::total_memory()))
    });
    r.add(os, "getFreeMemorySize0", "()J", |_, _| {
        Ok(long(sysinfo::free_memory()))
    });
    r.add(os, "getTotalSwapSpaceSize0", "()J", |_, _| {
        Ok(long(sysinfo::swap().map(|s| s.0)))
    });
    r.add(os, "getFreeSwapSpaceSize0", "()J", |_, _| {
        Ok(long(sysinfo::swap().map(|s| s.1)))
    });
    r.add(os, "getMaxFileDescriptorCount0", "()J", |_, _| {
        Ok(long(sysinfo::max_descriptors()))
    });
    r.add(os, "getOpenFileDescriptorCount0", "()J", |_, _| {
        Ok(long(sysinfo::open_descriptors()))
    });
    r.add(os, "getProcessCpuTime0", "()J", |_, _| {
        Ok(long(sysinfo::process_cpu_nanos()))
    });
    r.add(os, "getProcessCpuLoad0", "()D", |_, _| {
        Ok(process_cpu_load().to_bits())
    });
    r.add(os, "getCpuLoad0", "()D", |_, _| {
        let v = sysinfo::host_cpu_ticks(None).and_then(|s| HOST_LOAD.load(s));
        Ok(v.unwrap_or(-1.0).to_bits())
    });
    r.add(os, "getSingleCpuLoad0", "(I)D", |_, a| {
        let n = jint(a[1]);
        let v = u32::try_from(n)
            .ok()
            .and_then(|n| sysinfo::host_cpu_ticks(Some(n)))
            .map(|(busy, total)| busy as f64 / total.max(1) as f64);
        Ok(v.unwrap_or(-1.0).to_bits())
    });
    r.add(os, "getHostConfiguredCpuCount0", "()I", |_, _| {
        Ok(ret_int(sysinfo::host_cpus().0 as i32))
    });
    r.add(os, "getHostOnlineCpuCount0", "()I", |_, _| {
        Ok(ret_int(sysinfo::host_cpus().1 as i32))
    });
    r.add(os, "getHostTotalCpuTicks0", "()J", |_, _| {
        Ok(long(sysinfo::host_cpu_ticks(None).map(|s| s.1)))
    });
}

/// A host fact as a Java long (-1: unknown).
fn long(v: Option<u64>) -> u64 {
    v.map_or(-1i64 as u64, |v| v.min(i64::MAX as u64))
}

/// jdk.internal.platform.CgroupMetrics: the container metrics OperatingSystemImpl consults
/// (read by the JDK from the cgroup files; the VM only says whether to, as HotSpot's default
/// `-XX:+UseContainerSupport` does, and gives the host's sizes).
fn register_cgroup(r: &mut Registry) {
    let cg = "jdk/internal/platform/CgroupMetrics";
    r.add(cg, "isUseContainerSupport", "()Z", |_, _| {
        Ok(ret_bool(true))
    });
    r.add(cg, "getTotalMemorySize0", "()J", |_, _| {
        Ok(long(sysinfo::total_memory()))
    });
    r.add(cg, "getTotalSwapSize0", "()J", |_, _| {
        Ok(long(sysinfo::swap().map(|s| s.0)))
    });
}

static HOST_LOAD: sysinfo::Sampler = sysinfo::Sampler::new();
static PROCESS_LOAD: sysinfo::Sampler = sysinfo::Sampler::new();

/// The process's share of all processors' time since the previous call (-1: unknown).
fn process_cpu_load() -> f64 {
    let (Some(cpu), Some((_, total))) =
        (sysinfo::process_cpu_nanos(), sysinfo::host_cpu_ticks(None))
    else {
        return -1.0;
    };
    let total_nanos = total.saturating_mul(sysinfo::tick_nanos());
    PROCESS_LOAD.load((cpu, total_nanos)).unwrap_or(-1.0)
}

/// Unsafe.getLoadAverage0(double[] loadavg, int nelems): how many it filled (-1: unknown).
fn load_average(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let arr = nonnull(t, a[1])?;
    let n = jint(a[2]);
    let Some(avg) = sysinfo::load_average() else {
        return Ok(ret_int(-1));
    };
    let dst = arr.array_slice::<f64>();
    let n = (n.max(0) as usize).min(3).min(dst.len());
    dst[..n].copy_from_slice(&avg[..n]);
    Ok(ret_int(n as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_keeps_memory_usage_invariants() {
        let u = Usage::new(10, 5, Some(8));
        assert!(u.used <= u.committed && u.committed <= u.max);
        assert_eq!(Usage::new(3, 7, None).max, -1);
        assert_eq!(Usage::new(3, 7, None).committed, 7);
        let big = Usage::new(u64::MAX, u64::MAX, Some(u64::MAX));
        assert!(big.used >= 0 && big.committed <= big.max);
    }

    #[test]
    fn pools_and_managers_agree() {
        for (p, name) in POOLS {
            assert_eq!(Pool::by_name(name), Some(p));
            assert_eq!(p.name(), name);
            assert!(
                MANAGERS.iter().any(|m| m.2.contains(&p)),
                "{name} has a manager"
            );
        }
        for (m, name, _) in MANAGERS {
            assert_eq!(Manager::by_name(name), Some(m));
        }
        assert_eq!(Pool::by_name("eden"), None);
    }
}
