//! Portal stub classes: the classes of portals, made by the VM.
//!
//! A portal is an instance of a final class the VM spins per (class loader, set of Portal
//! interfaces): a subclass of `jx.portal.PortalStub` (whose VM slot holds the service id)
//! implementing those interfaces, with one native method per interface method. The native is
//! [`forward`]: it reads the service id and hands the call, its arguments still in the
//! caller's slots, to [`super::portal::call`]. So a portal call boxes nothing and builds no
//! `Object[]` or `Method`, unlike a `java.lang.reflect.Proxy` (which the first portals were);
//! a call whose parameters and result are primitives copies no objects at all.
//!
//! Owns only the making of stub classes; what a call does is `portal`'s.

use std::sync::atomic::{AtomicU32, Ordering};

use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use crate::class::{Class, ClassId, ClassKind, LoaderId, Method};
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};

/// The superclass of every stub (its VM slot holds the service id).
pub const BASE: &str = "jx/portal/PortalStub";

/// Stub classes made so far, by defining loader and interfaces (in order).
type Stubs = FxHashMap<(LoaderId, Vec<ClassId>), &'static Class>;
static STUBS: Mutex<Option<Stubs>> = Mutex::new(None);
static COUNTER: AtomicU32 = AtomicU32::new(1);
/// The stub class implementing `interfaces`, defined by `loader`, ready to instantiate in
/// `t`'s domain (the base class initialized).
pub fn stub_class(
    t: &mut JThread,
    loader: LoaderId,
    interfaces: &[&'static Class],
) -> JResult<&'static Class> {
    let base = t.load_boot(BASE)?;
    t.ensure_initialized(base)?;
    let key = (loader, interfaces.iter().map(|i| i.id).collect::<Vec<_>>());
    let mut stubs = STUBS.lock();
    let stubs = stubs.get_or_insert_with(FxHashMap::default);
    let c = match stubs.get(&key) {
        Some(&c) => c,
        None => match spin(t, base, loader, interfaces) {
            Ok(c) => *stubs.entry(key).or_insert(c),
            Err(e) => return Err(t.throw_new(e.java_class(), Some(e.message()))),
        },
    };
    // A stub has no statics and no initializer: initialized in every domain that uses it.
    t.domain.set_initialized(c.id, true);
    Ok(c)
}

/// Forgets the stub classes among `gone` (classes being unloaded).
pub fn forget_classes(gone: &crate::class::unload::Unloaded) {
    if let Some(stubs) = STUBS.lock().as_mut() {
        stubs.retain(|(_, ifaces), c| {
            !gone.contains(c) && !ifaces.iter().any(|i| gone.contains_id(i.0))
        });
    }
}

/// The service id of portal `o` (None if `o` is not a portal the VM made): it is kept in the
/// VM slot `PortalStub` ends with (`api::SLOT_CLASSES`), which only [`set_service`] writes.
pub fn service_of(o: ObjRef) -> Option<u64> {
    let base = o.class().super_class?;
    if &*base.name != BASE {
        return None;
    }
    let id = o.read::<u64>(crate::api::vm_slot_offset(base, BASE)?);
    (id != 0).then_some(id)
}

/// Writes the service id (never 0) of a new portal.
pub fn set_service(o: ObjRef, id: u64) {
    let offset = crate::api::vm_slot_offset(o.class(), BASE).expect("a portal is a PortalStub");
    o.write_word(offset, id as usize);
}

/// PortalStub.service(): the id `toString` shows.
pub fn service_native(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = crate::native::nonnull(t, a[0])?;
    Ok(service_of(this).unwrap_or(0))
}

fn spin(
    t: &JThread,
    base: &'static Class,
    loader: LoaderId,
    interfaces: &[&'static Class],
) -> Result<&'static Class, crate::class::loader::LoadError> {
    use classfile::access::{ACC_FINAL, ACC_NATIVE, ACC_PUBLIC, ACC_SUPER, ACC_SYNTHETIC};
    let table = &t.vm.classes;
    let mut all_interfaces: Vec<&'static Class> = base.all_interfaces.clone();
    for i in interfaces {
        for j in i.all_interfaces.iter().chain(std::iter::once(i)) {
            if !all_interfaces.iter().any(|k| std::ptr::eq(*k, *j)) {
                all_interfaces.push(j);
            }
        }
    }
    let forwarded = forwarded_methods(&all_interfaces);
    let name = format!(
        "jx/portal/$Portal{}",
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    table.publish_synthetic(
        None,
        |id: ClassId| Class {
            name: name.into(),
            loader,
            access: ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC,
            interfaces: interfaces.to_vec(),
            supers: crate::class::loader::supers_of(Some(base)),
            all_interfaces,
            instance_size: base.instance_size,
            ref_offsets: base.ref_offsets.clone(),
            module: base.module.clone(),
            hidden: true,
            api: true,
            ..Class::bare(id, "", ClassKind::Instance, Some(base), 0)
        },
        |c| {
            forwarded
                .iter()
                .enumerate()
                .map(|(i, (name, desc))| {
                    let m = table.synthetic_method(
                        c,
                        name,
                        desc,
                        ACC_PUBLIC | ACC_FINAL | ACC_NATIVE,
                        i as u16,
                    );
                    let _ = m.native.set(Some(crate::native::PORTAL_FORWARD));
                    m
                })
                .collect()
        },
    )
}

/// The (name, descriptor) of every instance method of `interfaces` a portal forwards: all
/// but those `PortalStub` answers itself (equals, hashCode, toString).
fn forwarded_methods(interfaces: &[&'static Class]) -> Vec<(Box<str>, Box<str>)> {
    let mut out: Vec<(Box<str>, Box<str>)> = Vec::new();
    for i in interfaces {
        for m in i.methods() {
            let own = matches!(
                (&*m.name, &*m.descriptor),
                ("equals", "(Ljava/lang/Object;)Z")
                    | ("hashCode", "()I")
                    | ("toString", "()Ljava/lang/String;")
            );
            if m.is_static() || m.is_private() || &*m.name == "<clinit>" || own {
                continue;
            }
            if !out.iter().any(|(n, d)| *n == m.name && *d == m.descriptor) {
                out.push((m.name.clone(), m.descriptor.clone()));
            }
        }
    }
    out
}

/// The native of every stub method: the call goes to the service, arguments as they are.
pub(crate) fn forward(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let m: &'static Method = t.frames.last().expect("a native runs in its frame").method;
    let this = crate::native::nonnull(t, a[0])?;
    let Some(id) = service_of(this) else {
        return Err(t.throw_new(
            "java/lang/IllegalStateException",
            Some("not a portal made by the VM"),
        ));
    };
    super::portal::call(t, id, m, &a[1..])
}
