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
pub fn fuse(ops: &[Op]) -> Box<[Op]> {
    (0..ops.len()).map(|i| fused_at(&ops[i..], i).unwrap_or(ops[i])).collect()
}

/// The superinstruction for the plain ops starting at `at` (index `i`), if one applies.
fn fused_at(at: &[Op], i: usize) -> Option<Op> {
    use Op::*;
    let op = |k: usize| at.get(k).copied();
    Some(match (op(0)?, op(1), op(2)) {
        (Load(a), Some(Load(b)), Some(ArrayLoad(ty))) => ArrayLoadLL(ty, a, b),
        (Load(a), Some(Load(b)), Some(IfIcmp(c, target))) => IfIcmpLL(c, a, b, u16::try_from(target).ok()?),
        (Load(n), Some(Iconst(k)), Some(Iadd)) => LoadAddConst(n, k),
        (Load(n), Some(Iconst(k)), Some(Isub)) => LoadAddConst(n, k.wrapping_neg()),
        (Iinc(n, d), Some(Goto(target)), _) if (target as usize) <= i => IincGoto(n, d, u16::try_from(target).ok()?),
        (Load2(n), Some(Dadd), _) => DaddL(n),
        (Load2(n), Some(Dsub), _) => DsubL(n),
        (Load2(n), Some(Dmul), _) => DmulL(n),
        (Load(a), Some(Load(b)), _) => LoadLoad(a, b),
        (Store(a), Some(Load(b)), _) => StoreLoad(a, b),
        _ => return None,
    })
}

/// How many plain ops a fused op stands for (1 for a plain op).
pub fn span(op: &Op) -> usize {
    use Op::*;
    match op {
        ArrayLoadLL(..) | IfIcmpLL(..) | LoadAddConst(..) => 3,
        LoadLoad(..) | StoreLoad(..) | IincGoto(..) | DaddL(_) | DsubL(_) | DmulL(_) => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::BasicType;
    use crate::interp::op::Cond;

    #[test]
    fn sequences_fuse_and_the_plain_ops_stay_behind() {
        let ops = [Op::Load(1), Op::Load(2), Op::ArrayLoad(BasicType::Int), Op::Store(3), Op::Load(4), Op::Return1];
        let fast = fuse(&ops);
        assert!(matches!(fast[0], Op::ArrayLoadLL(BasicType::Int, 1, 2)));
        assert!(matches!(fast[1], Op::Load(2)), "index 1 starts a sequence of its own");
        assert!(matches!(fast[2], Op::ArrayLoad(BasicType::Int)));
        assert!(matches!(fast[3], Op::StoreLoad(3, 4)));
        assert_eq!(fast.len(), ops.len());
        assert_eq!(span(&fast[0]), 3);
    }

    #[test]
    fn only_backward_gotos_fuse_with_iinc_and_isub_negates() {
        let ops = [Op::Iinc(1, 1), Op::Goto(5), Op::Iinc(1, 1), Op::Goto(0), Op::Load(0), Op::Iconst(i32::MIN), Op::Isub];
        let fast = fuse(&ops);
        assert!(matches!(fast[0], Op::Iinc(1, 1)));
        assert!(matches!(fast[2], Op::IincGoto(1, 1, 0)));
        assert!(matches!(fast[4], Op::LoadAddConst(0, i32::MIN)));
        let cmp = [Op::Load(0), Op::Load(1), Op::IfIcmp(Cond::Lt, 0)];
        assert!(matches!(fuse(&cmp)[0], Op::IfIcmpLL(Cond::Lt, 0, 1, 0)));
    }
}
