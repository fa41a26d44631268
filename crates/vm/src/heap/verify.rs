//! Verification of roots and heap structure (a debugging mode, and the basis of the
//! collector's `-XX:+VerifyAfterGC`-style checking): every slot a reference map calls a
//! reference must be null or point at an object of this domain's heap whose header names a
//! class the VM knows.

use rustc_hash::FxHashSet;

use crate::heap::ObjRef;
use crate::interp::oopmap::{MethodOperands, Operands, maps_of};
use crate::thread::JThread;

/// Checks one slot value claimed to be a reference.
pub fn check_reference(t: &JThread, classes: &FxHashSet<usize>, v: u64) -> Result<(), String> {
    if v == 0 {
        return Ok(());
    }
    let Some(o): Option<ObjRef> = t.domain.heap.object_at(v as usize) else {
        return Err(format!("{v:#x} is not inside the domain's heap"));
    };
    let k = o.raw_class_word();
    if !classes.contains(&k) {
        return Err(format!("{v:#x} has no valid class word ({k:#x})"));
    }
    Ok(())
}

/// The addresses of every class the VM has defined.
pub fn known_classes(t: &JThread) -> FxHashSet<usize> {
    (0..t.vm.classes.class_count())
        .filter_map(|id| t.vm.classes.class_by_id(id))
        .map(|c| c as *const _ as usize)
        .collect()
}

/// Checks every interpreter frame of `t` against its reference map.
pub fn verify_frames(t: &JThread) -> Result<(), String> {
    let classes = known_classes(t);
    let n = t.frames.len();
    for (i, f) in t.frames.iter().enumerate() {
        if f.pc == u32::MAX {
            continue;
        }
        let Some(Ok(prep)) = f.method.prepared.get() else { continue };
        let maps = maps_of(f.method, prep)?;
        let Some(map) = maps.at(f.pc as usize) else {
            return Err(format!("{:?} pc {} has no map (unreachable?)", f.method, f.pc));
        };
        // A caller's outgoing arguments belong to the callee's frame now.
        let mut depth = map.depth as usize;
        if i + 1 < n {
            let op = prep.ops[f.pc as usize];
            let operands = MethodOperands { class: f.method.class, prep };
            if let Some((pops, _)) = operands.invoke(&op) {
                let args_base = f.bp as usize + prep.max_locals as usize + depth.saturating_sub(pops);
                if t.frames[i + 1].bp as usize == args_base {
                    depth = depth.saturating_sub(pops);
                }
            }
        }
        let width = prep.max_locals as usize + depth;
        for slot in 0..width {
            if map.is_ref(slot) {
                let v = t.stack[f.bp as usize + slot];
                check_reference(t, &classes, v).map_err(|e| format!("{:?} pc {} slot {slot}: {e}", f.method, f.pc))?;
            }
        }
    }
    Ok(())
}
