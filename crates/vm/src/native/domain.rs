//! Natives of the jxvm API's domains (`jx.domain.Domain`): creation from a spec, the current
//! domain, termination, waiting for the end, statistics. A `Domain` object is a handle the VM
//! makes ([`new_handle`]); the domain it acts on is the id in its VM slot (id + 1; 0 in an
//! object the VM did not make), which no Java code can read or write (`crate::api`). The VM's
//! registry (`crate::domain::lifecycle::Registry`) maps ids to domains or tombstones.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{Registry, jint, jlong, nonnull, obj, ret_bool};
use crate::domain::lifecycle::{self, Component, Entry, Spec};
use crate::domain::{DomainId, Limits, ZERO_ID};
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};
use base::layout::ARRAY_BASE;

const DOMAIN: &str = "jx/domain/Domain";
const DOMAIN_EXCEPTION: &str = "jx/domain/DomainException";

pub fn register(r: &mut Registry) {
    let d = DOMAIN;
    r.add(d, "create0", "(Ljava/lang/String;[Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;JJJIZIJ)Ljx/domain/Domain;", create);
    r.add(d, "current0", "()Ljx/domain/Domain;", |t, _| {
        let id = t.domain.id;
        Ok(new_handle(t, id)?.slot())
    });
    r.add(d, "zero0", "()Ljx/domain/Domain;", |t, _| {
        Ok(new_handle(t, ZERO_ID)?.slot())
    });
    r.add(d, "isAlive0", "()Z", |t, a| {
        let id = handle_id(t, a[0])?;
        Ok(ret_bool(
            t.vm.domains
                .live(id)
                .is_some_and(|d| !d.safepoint.is_killed()),
        ))
    });
    r.add(d, "terminate0", "()V", terminate);
    r.add(d, "await0", "(J)Z", await_end);
    r.add(d, "stats0", "()[J", stats);
}

/// A new handle of domain `id`: its VM slot says which domain, its fields what Java shows.
fn new_handle(t: &mut JThread, id: DomainId) -> JResult<ObjRef> {
    let name = t.vm.domains.with_entry(id, |e| match e {
        Some(Entry::Live(d)) => Some(d.name.clone()),
        Some(Entry::Ended { name, .. }) => Some(name.clone()),
        None => None,
    });
    let Some(name) = name else {
        return Err(t.throw_new(DOMAIN_EXCEPTION, Some(&format!("no domain {id}"))));
    };
    let c = t.load_boot(DOMAIN)?;
    t.ensure_initialized(c)?;
    let name = t.new_string(&name)?;
    let h = t.handle(name);
    let o = t.alloc_object(c)?;
    let name = t.handle_get(h);
    let f = t.jdk::<crate::jdk::JxDomain>(o)?;
    o.write::<i32>(f.id, id.raw() as i32);
    t.domain.heap.write_ref(o, f.name, Some(name));
    o.write_word(slot_offset(c), id.raw() as usize + 1);
    Ok(o)
}

fn slot_offset(c: &crate::class::Class) -> usize {
    crate::api::vm_slot_offset(c, DOMAIN).expect("jx.domain.Domain has a VM slot")
}

/// The domain id in the slot of handle `this` (the receiver of an instance native).
fn handle_id(t: &mut JThread, this: u64) -> JResult<DomainId> {
    let o = nonnull(t, this)?;
    match o.read::<u64>(slot_offset(o.class())) {
        0 => Err(t.throw_new(
            "java/lang/IllegalStateException",
            Some("not a domain handle made by the VM"),
        )),
        v => Ok(DomainId((v - 1) as u32)),
    }
}

/// create0(name, classPath[], mainClass, args[], heapLimit, offHeapLimit, cpuTimeLimitMillis,
/// maxThreads, trusted, descriptorLimit, metadataLimit): the new domain's limits nest in the creating domain's
/// (`domain::budget`); it is trusted only if its creator is too.
fn create(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
    let class_path = strings(t, a[1])?;
    let main_class = t.opt_rust_string(a[2]);
    let args = strings(t, a[3])?;
    let limits = Limits {
        heap_bytes: jlong(a[4]).max(0) as u64,
        off_heap_bytes: jlong(a[6]).max(0) as u64,
        cpu_nanos: (jlong(a[8]).max(0) as u64).saturating_mul(1_000_000),
        max_threads: jint(a[10]).max(0) as u32,
        max_descriptors: jint(a[12]).max(0) as u32,
        metadata_bytes: jlong(a[13]).max(0) as u64,
    };
    let components = main_class
        .map(|main_class| Component { main_class, args })
        .into_iter()
        .collect();
    let parent = (!t.domain.is_system()).then(|| t.domain.budget.clone());
    let trusted = a[11] != 0 && t.domain.trusted;
    let spec = Spec {
        name,
        class_path,
        components,
        limits,
        parent,
        trusted,
        io: t.domain.io.clone(),
    };
    let vm = t.vm;
    match t.blocking(|| lifecycle::create(vm, spec)) {
        Ok(d) => Ok(new_handle(t, d.id)?.slot()),
        Err(e) => Err(t.throw_new(DOMAIN_EXCEPTION, Some(&e.0))),
    }
}

/// The Rust strings of a `String[]` (null elements are refused).
fn strings(t: &mut JThread, arr: u64) -> JResult<Vec<String>> {
    let arr: ObjRef = nonnull(t, arr)?;
    let mut out = Vec::with_capacity(arr.array_len());
    for i in 0..arr.array_len() {
        match obj(arr.read::<u64>(ARRAY_BASE + i * 8)) {
            Some(s) => out.push(t.rust_string(s)),
            None => {
                return Err(t.throw_new(
                    "java/lang/NullPointerException",
                    Some("a null string in a domain spec"),
                ));
            }
        }
    }
    Ok(out)
}

fn terminate(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let id = handle_id(t, a[0])?;
    let Some(d) = t.vm.domains.live(id) else {
        return Ok(0);
    };
    if d.is_system() {
        let msg = if d.id == ZERO_ID {
            "DomainZero cannot be terminated"
        } else {
            "the launcher's domain cannot be terminated (use System.exit)"
        };
        return Err(t.throw_new(DOMAIN_EXCEPTION, Some(msg)));
    }
    lifecycle::terminate(t.vm, &d, "terminated");
    if d.id == t.domain.id {
        return Err(t.die());
    }
    Ok(0)
}

fn await_end(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let id = handle_id(t, a[0])?;
    let timeout = Duration::from_millis(jlong(a[1]).max(0) as u64);
    let Some(d) = t.vm.domains.live(id) else {
        return Ok(ret_bool(true));
    };
    if d.id == t.domain.id {
        // A domain waiting for its own end would wait for itself.
        return Err(t.throw_new(
            "java/lang/IllegalStateException",
            Some("a domain cannot await its own termination"),
        ));
    }
    let flag = t.interrupted.clone();
    let end = t.blocking(|| d.await_end(timeout, &|| flag.load(Ordering::SeqCst)));
    if end.is_none() && flag.swap(false, Ordering::SeqCst) {
        super::thread::clear_interrupt_field(t);
        return Err(t.throw_new("java/lang/InterruptedException", None));
    }
    Ok(ret_bool(end.is_some()))
}

/// stats0: heapUsed, heapLimit, cpuTimeNanos, liveThreads, collections.
fn stats(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let id = handle_id(t, a[0])?;
    let values: Option<[i64; 5]> = t.vm.domains.with_entry(id, |e| match e {
        Some(Entry::Live(d)) => Some([
            d.heap.used() as i64,
            d.heap.capacity() as i64,
            d.cpu_nanos() as i64,
            d.alive_java_threads() as i64,
            d.collections() as i64,
        ]),
        Some(Entry::Ended {
            cpu_nanos,
            collections,
            ..
        }) => Some([0, 0, *cpu_nanos as i64, 0, *collections as i64]),
        None => None,
    });
    let Some(values) = values else {
        return Err(t.throw_new(DOMAIN_EXCEPTION, Some(&format!("no domain {id}"))));
    };
    let arr = t.new_array_of(t.vm.classes.primitive(crate::class::BasicType::Long), 5)?;
    arr.array_slice::<i64>().copy_from_slice(&values);
    Ok(arr.slot())
}
