//! Superinstructions: the executable copy of a method's ops, where common short sequences
//! (found by counting op pairs and triples over the benchmark kernels) are replaced by one op
//! that does their work in one dispatch.
//!
//! The plain ops stay the method's meaning: the reference maps, the frame-bounds proof and
//! the helpful NullPointerException analysis read `Prepared::ops`, and only the interpreter
//! runs `Prepared::fast`. A fused op at index i stands for the plain ops i..i+k and only
//! replaces the first of them, so a branch into the middle of a sequence still finds its op,
//! and a fused op whose fast path does not apply (a null array, an index out of bounds)
//! pushes what the plain ops would have pushed and continues with the next of them — which
//! keeps exceptions, their bytecode index and the collector's view of the frame exact.
//! Fused ops never contain a call or an allocation; the only safepoint inside one is a
//! backward branch's poll, taken with the frame in the state of the sequence's first op.

use super::op::Op;

/// The executable ops for `ops`: the same length, fused where a pattern matches.
///
/// Straight-line code runs from a fused op to the op after its span, so which op starts at
/// each index is chosen from the end backwards to need the fewest dispatches from there on
/// (`Load a; Load i; Iconst 1; Iadd; ArrayLoad` becomes `Load a; LoadAddConst; ArrayLoad`
/// rather than `LoadLoad; Iconst; Iadd; ArrayLoad`).
///
/// Each `invokeinterface` and `invokevirtual` also gets its own inline cache: the second
/// result is how many.
pub fn fuse(ops: &[Op]) -> (Box<[Op]>, usize) {
    let n = ops.len();
    let mut fast = ops.to_vec();
    // dispatches[i]: ops dispatched from index i to the end of its straight-line run.
    let mut dispatches = vec![0u32; n + 1];
    for i in (0..n).rev() {
        dispatches[i] = 1 + dispatches[i + 1];
        for (op, len) in candidates(&ops[i..], i) {
            let cost = 1 + dispatches[i + len];
            if cost < dispatches[i] {
                dispatches[i] = cost;
                fast[i] = op;
            }
        }
    }
    let mut sites = 0;
    for op in fast.iter_mut() {
        match *op {
            Op::InvokeInterface(idx) => *op = Op::InvokeInterfaceIC(idx, sites as u32),
            Op::InvokeVirtual(idx) => *op = Op::InvokeVirtualIC(idx, sites as u32),
            _ => continue,
        }
        sites += 1;
    }
    (fast.into(), sites)
}

/// The superinstructions that could start at `at` (index `i`), with the plain ops each spans.
fn candidates(at: &[Op], i: usize) -> impl Iterator<Item = (Op, usize)> {
    use Op::*;
    let op = |k: usize| at.get(k).copied();
    let target16 = |t: u32| u16::try_from(t).ok();
    let three = match (op(0), op(1), op(2)) {
        (Some(Load(a)), Some(Load(b)), Some(ArrayLoad(ty))) => Some(ArrayLoadLL(ty, a, b)),
        (Some(Load(a)), Some(Load(b)), Some(IfIcmp(c, t))) => {
            target16(t).map(|t| IfIcmpLL(c, a, b, t))
        }
        (Some(Load(n)), Some(Iconst(k)), Some(Iadd)) => Some(LoadAddConst(n, k)),
        (Some(Load(n)), Some(Iconst(k)), Some(Isub)) => Some(LoadAddConst(n, k.wrapping_neg())),
        _ => None,
    };
    let two = match (op(0), op(1)) {
        (Some(Iinc(n, d)), Some(Goto(t))) if (t as usize) <= i => {
            target16(t).map(|t| IincGoto(n, d, t))
        }
        (Some(Load2(n)), Some(Dadd)) => Some(DaddL(n)),
        (Some(Load2(n)), Some(Dsub)) => Some(DsubL(n)),
        (Some(Load2(n)), Some(Dmul)) => Some(DmulL(n)),
        (Some(Load(a)), Some(Load(b))) => Some(LoadLoad(a, b)),
        (Some(Store(a)), Some(Load(b))) => Some(StoreLoad(a, b)),
        (Some(Store2(a)), Some(Load2(b))) => Some(Store2Load2(a, b)),
        (Some(Iconst(k)), Some(Iadd)) => Some(AddConst(k)),
        (Some(Iconst(k)), Some(Isub)) => Some(AddConst(k.wrapping_neg())),
        (Some(Dup2), Some(ArrayLoad(ty))) => Some(Dup2ArrayLoad(ty)),
        (Some(Load(n)), Some(ArrayLoad(ty))) => Some(ArrayLoadL(ty, n)),
        (Some(Load(n)), Some(GetFieldInt(off))) => Some(LoadGetFieldInt(n, off)),
        (Some(Load(n)), Some(GetFieldWide(off))) => Some(LoadGetFieldWide(n, off)),
        (Some(Load(n)), Some(GetFieldRef(off))) => Some(LoadGetFieldRef(n, off)),
        _ => None,
    };
    three.into_iter().chain(two).map(|o| (o, span(&o)))
}

/// How many plain ops a fused op stands for (1 for a plain op).
pub fn span(op: &Op) -> usize {
    use Op::*;
    match op {
        ArrayLoadLL(..) | IfIcmpLL(..) | LoadAddConst(..) => 3,
        LoadLoad(..) | StoreLoad(..) | IincGoto(..) | DaddL(_) | DsubL(_) | DmulL(_)
        | AddConst(_) | Store2Load2(..) | Dup2ArrayLoad(_) | ArrayLoadL(..)
        | LoadGetFieldInt(..) | LoadGetFieldWide(..) | LoadGetFieldRef(..) => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::BasicType;
    use crate::code::op::Cond;

    #[test]
    fn sequences_fuse_and_the_plain_ops_stay_behind() {
        let ops = [
            Op::Load(1),
            Op::Load(2),
            Op::ArrayLoad(BasicType::Int),
            Op::Store(3),
            Op::Load(4),
            Op::Return1,
        ];
        let fast = fuse(&ops).0;
        assert!(matches!(fast[0], Op::ArrayLoadLL(BasicType::Int, 1, 2)));
        assert!(
            matches!(fast[1], Op::ArrayLoadL(BasicType::Int, 2)),
            "index 1 starts a sequence of its own"
        );
        assert!(matches!(fast[2], Op::ArrayLoad(BasicType::Int)));
        assert!(matches!(fast[3], Op::StoreLoad(3, 4)));
        assert_eq!(fast.len(), ops.len());
        assert_eq!(span(&fast[0]), 3);
    }

    #[test]
    fn the_fewest_dispatches_win() {
        let ops = [
            Op::Load(0),
            Op::Load(1),
            Op::Iconst(1),
            Op::Iadd,
            Op::ArrayLoad(BasicType::Double),
            Op::Return2,
        ];
        let fast = fuse(&ops).0;
        assert!(
            matches!(fast[0], Op::Load(0)),
            "LoadLoad would leave Iconst and Iadd unfused"
        );
        assert!(matches!(fast[1], Op::LoadAddConst(1, 1)));
        assert!(matches!(fast[2], Op::AddConst(1)));
    }

    #[test]
    fn only_backward_gotos_fuse_with_iinc_and_isub_negates() {
        let ops = [
            Op::Iinc(1, 1),
            Op::Goto(5),
            Op::Iinc(1, 1),
            Op::Goto(0),
            Op::Load(0),
            Op::Iconst(i32::MIN),
            Op::Isub,
        ];
        let fast = fuse(&ops).0;
        assert!(matches!(fast[0], Op::Iinc(1, 1)));
        assert!(matches!(fast[2], Op::IincGoto(1, 1, 0)));
        assert!(matches!(fast[4], Op::LoadAddConst(0, i32::MIN)));
        let cmp = [Op::Load(0), Op::Load(1), Op::IfIcmp(Cond::Lt, 0)];
        assert!(matches!(fuse(&cmp).0[0], Op::IfIcmpLL(Cond::Lt, 0, 1, 0)));
    }
}
