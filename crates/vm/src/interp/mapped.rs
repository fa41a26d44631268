//! Runs the code mapping of an API method (`meta::mappings::Primitive`) in place of a call to
//! it: what every engine falls back to (the interpreter always, compiled code where it has no
//! inline form). The primitives themselves are `crate::pso`'s and `native::memory`'s.

use crate::native::{jint, jlong, nonnull};
use crate::thread::{JResult, JThread};
use meta::mappings::Primitive;

/// Runs `p` on the arguments at `t.stack[base..]` (receiver first); the result as a slot.
pub fn run(t: &mut JThread, p: Primitive, base: usize) -> JResult<u64> {
    let a = [t.stack[base], t.stack[base + 1], t.stack[base + 2], 0];
    match p {
        Primitive::PsoArrayGet(ty) => {
            let arr = nonnull(t, a[0])?;
            crate::pso::array_load(t, arr, ty, jint(a[1]))
        }
        Primitive::PsoArraySet(ty) => {
            let arr = nonnull(t, a[0])?;
            crate::pso::array_store(t, arr, ty, jint(a[1]), a[2]).map(|_| 0)
        }
        Primitive::MemoryGet(ty) => crate::native::memory::get(t, a[0], jlong(a[1]), ty),
        Primitive::MemorySet(ty) => {
            let args = [a[0], a[1], 0, t.stack[base + 3]];
            crate::native::memory::set(t, &args, ty)
        }
    }
}
