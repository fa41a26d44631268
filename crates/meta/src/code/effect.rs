//! The operand-stack effect of each plain op: how many slots it pops and what it pushes. One
//! table for every analysis that walks ops — the frame-bounds proof (`depth`), the collector's
//! reference maps (`oopmap`), and later a JIT — so that they cannot disagree about an op.
//!
//! Owns the table only. The effects on locals (loads read one, stores write one) are the
//! analyses' own; superinstructions exist only in the executable copy of a method, never
//! among the plain ops an analysis walks, and have no entry.

use super::oopmap::Operands;
use super::op::Op;
use crate::class::BasicType;
use classfile::opcodes as op;

/// What an op does to the operand stack: pops `pops` slots, then pushes `push`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub pops: usize,
    pub push: Push,
}

/// What an op pushes once it has popped its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Push {
    /// `n` slots that hold no reference (ints, floats, halves of longs and doubles,
    /// return addresses).
    Vals(usize),
    /// One reference.
    Ref,
    /// A value of this type: its slots, references if it is one (nothing for void).
    Value(BasicType),
    /// The local it loads, one slot of whatever kind the local holds.
    Local(u16),
    /// Popped slots again, by their index from the top of what was popped (0: the top),
    /// the bottom one first: the dup forms, swap and checkcast.
    Shuffle(&'static [u8]),
}

impl Push {
    /// Slots pushed.
    pub fn slots(&self) -> usize {
        match *self {
            Push::Vals(n) => n,
            Push::Ref | Push::Local(_) => 1,
            Push::Value(t) => t.slots(),
            Push::Shuffle(s) => s.len(),
        }
    }
}

const fn vals(pops: usize, pushes: usize) -> Effect {
    Effect {
        pops,
        push: Push::Vals(pushes),
    }
}

/// The effect of a dup form or swap (`opcode`), from the class-file crate's table.
fn shuffle(opcode: u8) -> Effect {
    let (pops, order) = classfile::opcodes::shuffle(opcode).expect("a dup form or swap");
    Effect {
        pops,
        push: Push::Shuffle(order),
    }
}

const fn value(pops: usize, t: BasicType) -> Effect {
    Effect {
        pops,
        push: Push::Value(t),
    }
}

/// The effect of `op`; an error if an operand's type is unknown or `op` is a
/// superinstruction.
pub fn of(op: &Op, operands: &dyn Operands) -> Result<Effect, &'static str> {
    use Op::*;
    let field = || operands.field_type(op).ok_or("unknown field type");
    Ok(match *op {
        Nop | Iinc(..) | Goto(_) | Ret(_) | Return | ReturnRegister | FellOff => vals(0, 0),
        AconstNull | LdcString(_) | LdcClass(_) | LdcOther(_) | New(_) => Effect {
            pops: 0,
            push: Push::Ref,
        },
        Iconst(_) | Fconst(_) | Jsr(_) => vals(0, 1),
        Load(n) => Effect {
            pops: 0,
            push: Push::Local(n),
        },
        Const2(_) | Load2(_) => vals(0, 2),
        Store(_) | Pop => vals(1, 0),
        Store2(_) | Pop2 => vals(2, 0),
        ArrayLoad(t) => value(2, t),
        ArrayStore(t) => vals(2 + t.slots(), 0),
        Dup => shuffle(op::DUP),
        DupX1 => shuffle(op::DUP_X1),
        DupX2 => shuffle(op::DUP_X2),
        Dup2 => shuffle(op::DUP2),
        Dup2X1 => shuffle(op::DUP2_X1),
        Dup2X2 => shuffle(op::DUP2_X2),
        Swap => shuffle(op::SWAP),
        // The reference stays what it was (a reference, or null).
        CheckCast(_) => Effect {
            pops: 1,
            push: Push::Shuffle(&[0]),
        },
        Iadd | Isub | Imul | Idiv | Irem | Ishl | Ishr | Iushr | Iand | Ior | Ixor | Fadd
        | Fsub | Fmul | Fdiv | Frem | Fcmpl | Fcmpg => vals(2, 1),
        Ladd | Lsub | Lmul | Ldiv | Lrem | Land | Lor | Lxor | Dadd | Dsub | Dmul | Ddiv | Drem => {
            vals(4, 2)
        }
        Lshl | Lshr | Lushr => vals(3, 2),
        Ineg | Fneg | I2f | F2i | I2b | I2c | I2s | ArrayLength | InstanceOf(_) => vals(1, 1),
        NewArray(_) | ANewArray(_) => Effect {
            pops: 1,
            push: Push::Ref,
        },
        MultiANewArray(_, d) => Effect {
            pops: d as usize,
            push: Push::Ref,
        },
        Lneg | Dneg | L2d | D2l => vals(2, 2),
        I2l | I2d | F2l | F2d => vals(1, 2),
        L2i | L2f | D2i | D2f => vals(2, 1),
        Lcmp | Dcmpl | Dcmpg => vals(4, 1),
        If(..) | IfNull(_) | IfNonNull(_) | TableSwitch(_) | LookupSwitch(_) | MonitorEnter
        | MonitorExit | Athrow | Return1 => vals(1, 0),
        IfIcmp(..) | IfAcmpEq(_) | IfAcmpNe(_) | Return2 => vals(2, 0),
        GetStatic(_) => value(0, field()?),
        PutStatic(_) => vals(field()?.slots(), 0),
        GetField(_) => value(1, field()?),
        PutField(_) => vals(1 + field()?.slots(), 0),
        GetFieldInt(_) | GetFieldWide(_) | GetFieldRef(_) | GetFieldQ(..) | PutFieldInt(_)
        | PutFieldWide(_) | PutFieldRef(_) | PutFieldQ(..) | PsoGet(..) | PsoPut(..) => {
            match op
                .quick_field_shape()
                .ok_or("quickened field op without a shape")?
            {
                (false, t) => value(1, t),
                (true, t) => vals(1 + t.slots(), 0),
            }
        }
        InvokeVirtual(_) | InvokeSpecial(_) | InvokeStatic(_) | InvokeInterface(_)
        | InvokeDynamic(_) => {
            let (pops, ret) = operands.invoke(op).ok_or("unknown invoke signature")?;
            value(pops, ret)
        }
        LoadLoad(..)
        | StoreLoad(..)
        | ArrayLoadLL(..)
        | IfIcmpLL(..)
        | IincGoto(..)
        | LoadAddConst(..)
        | DaddL(_)
        | DsubL(_)
        | DmulL(_)
        | AddConst(_)
        | Store2Load2(..)
        | Dup2ArrayLoad(_)
        | ArrayLoadL(..)
        | LoadGetFieldInt(..)
        | LoadGetFieldWide(..)
        | LoadGetFieldRef(..)
        | InvokeInterfaceIC(..)
        | InvokeVirtualIC(..) => return Err("superinstruction among the plain ops"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_put_back_only_what_they_popped() {
        for op in [
            Op::Dup,
            Op::DupX1,
            Op::DupX2,
            Op::Dup2,
            Op::Dup2X1,
            Op::Dup2X2,
            Op::Swap,
        ] {
            struct None_;
            impl Operands for None_ {
                fn field_type(&self, _: &Op) -> Option<BasicType> {
                    None
                }
                fn invoke(&self, _: &Op) -> Option<(usize, BasicType)> {
                    None
                }
            }
            let e = of(&op, &None_).unwrap();
            let Push::Shuffle(order) = e.push else {
                panic!("{op:?} is a shuffle")
            };
            assert!(order.iter().all(|&i| (i as usize) < e.pops), "{op:?}");
            // Every popped slot comes back at least once.
            for i in 0..e.pops {
                assert!(order.contains(&(i as u8)), "{op:?} loses slot {i}");
            }
        }
    }
}
