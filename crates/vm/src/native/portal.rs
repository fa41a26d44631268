//! Natives of the jxvm API's name service (`jx.naming.Naming`; a portal's own
//! methods are `crate::domain::stub`'s); the mechanism is `crate::domain::portal`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{Registry, jlong, nonnull};
use crate::domain::portal;
use crate::thread::{JResult, JThread};

pub fn register(r: &mut Registry) {
    let n = "jx/naming/Naming";
    r.add(
        n,
        "register0",
        "(Ljava/lang/String;Ljx/portal/Portal;)V",
        register_name,
    );
    r.add(
        crate::domain::stub::BASE,
        "service",
        "()J",
        crate::domain::stub::service_native,
    );
    r.add(
        n,
        "lookup0",
        "(Ljava/lang/String;Ljava/lang/Class;J)Ljava/lang/Object;",
        lookup_name,
    );
    r.add(n, "unregister0", "(Ljava/lang/String;)V", |t, a| {
        let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
        portal::unregister_name(&name);
        Ok(0)
    });
}

/// Naming.register0(String name, Portal service)
fn register_name(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
    let service = nonnull(t, t.arg(1))?;
    let id = match portal::portal_service(service) {
        Some(id) => id,
        None => {
            let domain = t.domain.clone();
            match portal::export(&domain, service) {
                Some(id) => id,
                None => {
                    let msg = format!(
                        "{} implements no interface extending jx.portal.Portal",
                        service.class().java_name()
                    );
                    return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
                }
            }
        }
    };
    portal::register_name(&name, id);
    Ok(0)
}

/// Naming.lookup0(String name, Class type, long timeoutMillis)
fn lookup_name(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
    let timeout = Duration::from_millis(jlong(a[2]).max(0) as u64);
    let flag = t.interrupted.clone();
    let found = t.blocking(|| portal::lookup_name(&name, timeout, &|| flag.load(Ordering::SeqCst)));
    let Some(id) = found else {
        if flag.swap(false, Ordering::SeqCst) && !timeout.is_zero() {
            super::thread::clear_interrupt_field(t);
            return Err(t.throw_new("java/lang/InterruptedException", None));
        }
        return Ok(0);
    };
    Ok(portal::materialize(t, id)?.slot())
}
