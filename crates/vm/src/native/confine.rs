//! What `sun.misc.Unsafe` may touch in a domain that is not trusted (issue 15: created domains
//! are hostile unless their spec says `trusted`).
//!
//! A program reaches the VM's Unsafe natives through `sun.misc.Unsafe` (jdk.unsupported opens
//! it to everyone); the JDK's own code calls `jdk.internal.misc.Unsafe` directly, which no
//! program can (its package is not exported). So a native called with a `sun.misc.Unsafe`
//! frame just below it acts for the program, and in an untrusted domain:
//!
//! - an object-relative access must fit the object's real layout: a reference access at a
//!   reference field or element, a primitive access inside one primitive field or within the
//!   elements of a primitive array, never the header or a VM slot — and the field must be one
//!   the program could open by reflection (a JDK object's private field is not, whatever
//!   offset the program computed);
//! - a raw address must lie inside a block of native memory the domain allocated itself
//!   (`Unsafe.allocateMemory`), and no reference is read or written through one;
//! - field offsets are given only for fields the program could open by reflection (its own,
//!   or those of packages their module opens to it), so Unsafe reaches no more than deep
//!   reflection would — not `MethodHandles.Lookup.IMPL_LOOKUP`, say;
//! - `allocateInstance` makes only instances of the domain's own classes (not of the JDK's,
//!   whose objects the VM trusts to be built by their constructors).
//!
//! Anything else is a `SecurityException`, so libraries that use Unsafe the usual way (field
//! offsets of their own classes, arrays, their own native buffers) keep working.
//!
//! Owns these rules; the natives themselves stay in `misc`.

use super::obj;
use crate::class::{BasicType, Class, LoaderId};
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread};
use base::layout::ARRAY_BASE;

/// What an access reads or writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A primitive value of this many bytes (or a bulk range).
    Prim(usize),
    /// A reference slot.
    Ref,
}

/// Whether this native call acts for a program of an untrusted domain (see the module doc).
pub fn confined(t: &JThread) -> bool {
    !t.domain.trusted
        && t.frames
            .iter()
            .rev()
            .take(4)
            .any(|f| &*f.method.class.name == "sun/misc/Unsafe")
}

fn refuse(t: &mut JThread, what: &str) -> crate::thread::Thrown {
    let msg = format!("Unsafe {what} is not allowed in domain {}", t.domain.name);
    t.throw_new("java/lang/SecurityException", Some(&msg))
}

/// Checks an access of `kind` at `offset` of object `base` (a slot; 0 for a raw address).
pub fn check_access(t: &mut JThread, base: u64, offset: i64, kind: Kind) -> JResult<()> {
    let ok = match obj(base) {
        None => kind != Kind::Ref && in_own_block(t, offset, kind),
        Some(o) => fits_layout(t, o, offset, kind),
    };
    if ok {
        Ok(())
    } else {
        Err(refuse(t, &format!("access at offset {offset} ({kind:?})")))
    }
}

fn in_own_block(t: &JThread, addr: i64, kind: Kind) -> bool {
    let Kind::Prim(size) = kind else { return false };
    let (Ok(addr), Some(end)) = (usize::try_from(addr), (addr as usize).checked_add(size)) else {
        return false;
    };
    let blocks = t.domain.native_blocks.lock();
    blocks
        .range(..=addr)
        .next_back()
        .is_some_and(|(&start, &len)| end <= start + len)
}

fn fits_layout(t: &JThread, o: ObjRef, offset: i64, kind: Kind) -> bool {
    let Ok(offset) = usize::try_from(offset) else {
        return false;
    };
    let c = o.class();
    if c.is_array() {
        let elem = c.array_elem();
        let (base, len) = (ARRAY_BASE, o.array_len() * elem.size());
        return match kind {
            Kind::Ref => {
                elem == BasicType::Ref
                    && offset >= base
                    && offset < base + len
                    && (offset - base) % 8 == 0
            }
            Kind::Prim(n) => {
                elem != BasicType::Ref
                    && offset >= base
                    && offset.checked_add(n).is_some_and(|e| e <= base + len)
            }
        };
    }
    let wk = t.vm.wk();
    if std::ptr::eq(c, wk.class) && offset >= wk.statics_base as usize {
        let target = t.class_of_mirror(o);
        let offset = offset - wk.statics_base as usize;
        return target
            .fields
            .iter()
            .any(|f| f.is_static() && fits(f, offset, kind) && may_open(target, f));
    }
    std::iter::successors(Some(c), |k| k.super_class).any(|k| {
        k.fields
            .iter()
            .any(|f| !f.is_static() && fits(f, offset, kind) && may_open(k, f))
    })
}

/// Whether an access of `kind` at `offset` lies inside field `f`, of its kind.
fn fits(f: &crate::class::Field, offset: usize, kind: Kind) -> bool {
    let start = f.offset as usize;
    match kind {
        Kind::Ref => f.ty == BasicType::Ref && offset == start,
        Kind::Prim(n) => {
            f.ty != BasicType::Ref
                && offset >= start
                && offset
                    .checked_add(n)
                    .is_some_and(|e| e <= start + f.ty.size())
        }
    }
}

/// Whether a program could open field `f` of `holder` by reflection: its class is not the
/// JDK's, or it is a public field of a public class, or its package is one the JDK opens to
/// everyone (jdk.unsupported's).
fn may_open(holder: &Class, f: &crate::class::Field) -> bool {
    use classfile::access::ACC_PUBLIC;
    let jdk = matches!(holder.loader, LoaderId::BOOT | LoaderId::PLATFORM);
    let public = f.access & ACC_PUBLIC != 0 && holder.access & ACC_PUBLIC != 0;
    !jdk || public || matches!(holder.package(), "sun/misc" | "sun/reflect")
}

/// Refuses the offset of field `f` of `holder` unless the program could open it by reflection,
/// so that Unsafe reaches no more than deep reflection would.
pub fn check_field(
    t: &mut JThread,
    holder: &'static Class,
    f: &crate::class::Field,
) -> JResult<()> {
    if may_open(holder, f) {
        return Ok(());
    }
    Err(refuse(
        t,
        &format!("access to {}.{}", holder.java_name(), f.name),
    ))
}

/// Whether a program of this domain may `allocateInstance` class `c`: one of its own.
pub fn check_instance(t: &mut JThread, c: &'static Class) -> JResult<()> {
    if matches!(c.loader, LoaderId::BOOT | LoaderId::PLATFORM) {
        return Err(refuse(t, &format!("allocateInstance of {}", c.java_name())));
    }
    Ok(())
}
