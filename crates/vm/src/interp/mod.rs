//! The interpreter: [`exec`] runs a method's pre-decoded ops (`crate::code`: branch targets
//! are instruction indices, constant-pool operands index the class's resolution cache) on the
//! thread's slot stack, through [`frame`]'s unchecked access.
//!
//! Frame layout: locals at `stack[bp .. bp + max_locals]`, the operand stack right above.
//! A call's arguments on the caller's operand stack become the callee's first locals (no
//! copy). Longs and doubles take two slots (value, then a padding slot) in locals and on the
//! operand stack, exactly as JVMS counts them, so `dup2`/`pop2` need no type information.

pub mod exec;
#[allow(unsafe_code)] // the interpreter's unchecked frame and code access
mod frame;
pub mod mapped;
pub mod tiers;

use crate::code::icache;

/// Takes the inline-cache entries of classes among `gone` (being unloaded) out of every method
/// of the classes left in `table`; the entries are freed when what this returns is dropped,
/// after a grace period (see `crate::class::unload`).
pub fn forget_classes(
    table: &crate::class::loader::ClassTable,
    gone: &crate::class::unload::Unloaded,
) -> icache::Retired<crate::class::Class, crate::class::Method> {
    let mut retired = icache::Retired::default();
    table.for_each_class(|c| {
        for m in c.methods() {
            if let Some(Ok(p)) = m.prepared.get() {
                for ic in p.icache.iter() {
                    ic.forget(|k| gone.contains(k), &mut retired);
                }
            }
        }
    });
    retired
}
