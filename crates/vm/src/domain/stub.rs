//! Portal stub classes: the classes of portals, made by the VM.
//!
//! A portal is an instance of a final class the VM spins per (class loader, set of Portal
//! interfaces): a subclass of `jx.portal.PortalStub` (which holds the service id) implementing
//! those interfaces, with one native method per interface method. The native is
//! [`forward`]: it reads the service id and hands the call, its arguments still in the
//! caller's slots, to [`super::portal::call`]. So a portal call boxes nothing and builds no
//! `Object[]` or `Method`, unlike a `java.lang.reflect.Proxy` (which the first portals were);
//! a call whose parameters and result are primitives copies no objects at all.
//!
//! Owns only the making of stub classes; what a call does is `portal`'s.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use crate::class::{Class, ClassId, ClassKind, LoaderId, Method};
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};

/// The superclass of every stub (its field `service` is the service id).
pub const BASE: &str = "jx/portal/PortalStub";

/// Stub classes made so far, by defining loader and interfaces (in order).
static STUBS: Mutex<Option<FxHashMap<(LoaderId, Vec<ClassId>), &'static Class>>> = Mutex::new(None);
static COUNTER: AtomicU32 = AtomicU32::new(1);
/// Offset of `PortalStub.service` in every stub object.
static SERVICE_OFFSET: OnceLock<u32> = OnceLock::new();

/// The stub class implementing `interfaces`, defined by `loader`, ready to instantiate in
/// `t`'s domain (the base class initialized).
pub fn stub_class(t: &mut JThread, loader: LoaderId, interfaces: &[&'static Class]) -> JResult<&'static Class> {
    let base = t.load_boot(BASE)?;
    t.ensure_initialized(base)?;
    SERVICE_OFFSET.get_or_init(|| base.instance_field("service").expect("PortalStub.service").offset);
    let key = (loader, interfaces.iter().map(|i| i.id).collect::<Vec<_>>());
    let mut stubs = STUBS.lock();
    let c = *stubs.get_or_insert_with(FxHashMap::default).entry(key).or_insert_with(|| spin(t, base, loader, interfaces));
    drop(stubs);
    // A stub has no statics and no initializer: initialized in every domain that uses it.
    t.domain.class_state(c).initialized.store(true, Ordering::Release);
    Ok(c)
}

/// The service id of portal `o` (None if `o` is not a portal).
pub fn service_of(o: ObjRef) -> Option<u64> {
    let base = o.class().super_class?;
    if &*base.name != BASE {
        return None;
    }
    Some(o.read::<u64>(*SERVICE_OFFSET.get()? as usize))
}

/// Writes the service id of a new portal.
pub fn set_service(o: ObjRef, id: u64) {
    o.write::<u64>(*SERVICE_OFFSET.get().expect("a stub class was made first") as usize, id);
}

fn spin(t: &JThread, base: &'static Class, loader: LoaderId, interfaces: &[&'static Class]) -> &'static Class {
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
    let name = format!("jx/portal/$Portal{}", COUNTER.fetch_add(1, Ordering::Relaxed));
    table.publish_synthetic(
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
            ..Class::bare(id, "", ClassKind::Instance, Some(base), 0)
        },
        |c| {
            forwarded
                .iter()
                .enumerate()
                .map(|(i, (name, desc))| {
                    let m = table.synthetic_method(c, name, desc, ACC_PUBLIC | ACC_FINAL | ACC_NATIVE, i as u16);
                    let _ = m.native.set(Some(forward as crate::native::NativeFn));
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
            let own = matches!((&*m.name, &*m.descriptor), ("equals", "(Ljava/lang/Object;)Z") | ("hashCode", "()I") | ("toString", "()Ljava/lang/String;"));
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
fn forward(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let m: &'static Method = t.frames.last().expect("a native runs in its frame").method;
    let this = crate::native::nonnull(t, a[0])?;
    let id = service_of(this).expect("a stub method runs on a stub");
    super::portal::call(t, id, m, &a[1..])
}
