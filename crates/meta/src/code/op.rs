//! The pre-decoded instruction set.

use crate::class::BasicType;

/// Comparison of an `if*` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Eq,
    Ne,
    Lt,
    Ge,
    Gt,
    Le,
}

impl Cond {
    #[inline(always)]
    pub fn test(self, a: i32, b: i32) -> bool {
        match self {
            Cond::Eq => a == b,
            Cond::Ne => a != b,
            Cond::Lt => a < b,
            Cond::Ge => a >= b,
            Cond::Gt => a > b,
            Cond::Le => a <= b,
        }
    }
}

/// One decoded instruction. Branch targets are indices into the op array; `u16` operands
/// are constant-pool indices unless named otherwise.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    Nop,
    AconstNull,
    Iconst(i32),
    Fconst(f32),
    /// Push a two-slot constant (long or double bits) from `Prepared::wide`; kept out of line
    /// so that an op stays eight bytes.
    Const2(u32),
    LdcString(u16),
    LdcClass(u16),
    /// MethodType, MethodHandle or dynamic constant.
    LdcOther(u16),
    /// Load/store a one-slot local.
    Load(u16),
    Store(u16),
    /// Load/store a two-slot local (long/double).
    Load2(u16),
    Store2(u16),
    ArrayLoad(BasicType),
    ArrayStore(BasicType),
    Pop,
    Pop2,
    Dup,
    DupX1,
    DupX2,
    Dup2,
    Dup2X1,
    Dup2X2,
    Swap,
    Iadd,
    Ladd,
    Fadd,
    Dadd,
    Isub,
    Lsub,
    Fsub,
    Dsub,
    Imul,
    Lmul,
    Fmul,
    Dmul,
    Idiv,
    Ldiv,
    Fdiv,
    Ddiv,
    Irem,
    Lrem,
    Frem,
    Drem,
    Ineg,
    Lneg,
    Fneg,
    Dneg,
    Ishl,
    Lshl,
    Ishr,
    Lshr,
    Iushr,
    Lushr,
    Iand,
    Land,
    Ior,
    Lor,
    Ixor,
    Lxor,
    Iinc(u16, i16),
    I2l,
    I2f,
    I2d,
    L2i,
    L2f,
    L2d,
    F2i,
    F2l,
    F2d,
    D2i,
    D2l,
    D2f,
    I2b,
    I2c,
    I2s,
    Lcmp,
    Fcmpl,
    Fcmpg,
    Dcmpl,
    Dcmpg,
    If(Cond, u32),
    IfIcmp(Cond, u32),
    IfAcmpEq(u32),
    IfAcmpNe(u32),
    IfNull(u32),
    IfNonNull(u32),
    Goto(u32),
    /// jsr: push the return op index, branch.
    Jsr(u32),
    Ret(u16),
    /// Index into `Prepared::switches`.
    TableSwitch(u32),
    LookupSwitch(u32),
    /// Return a one-slot value.
    Return1,
    /// Return a two-slot value.
    Return2,
    Return,
    /// `Object.<init>`'s `return` (HotSpot's `_return_register_finalizer`): registers the
    /// receiver (local 0) with `java.lang.ref.Finalizer` if its class is finalizable
    /// (`Class::finalizable`), then returns. Made only by rewriting that one method's code.
    ReturnRegister,
    GetStatic(u16),
    PutStatic(u16),
    GetField(u16),
    PutField(u16),
    /// Quickened `getfield`/`putfield` of a non-volatile field, with its byte offset, known
    /// when the method was prepared (see `exec::quicken`): one op per width so that the
    /// interpreter dispatches once; `Q` carries the sub-word types.
    GetFieldInt(u32),
    GetFieldWide(u32),
    GetFieldRef(u32),
    GetFieldQ(BasicType, u32),
    PutFieldInt(u32),
    PutFieldWide(u32),
    PutFieldRef(u32),
    PutFieldQ(BasicType, u32),
    /// A code mapping of `getfield`/`putfield` of a primitive instance field of a PSO class
    /// (`class::pso`): the field's type and its place in the object's container.
    PsoGet(BasicType, u32),
    PsoPut(BasicType, u32),
    InvokeVirtual(u16),
    InvokeSpecial(u16),
    InvokeStatic(u16),
    InvokeInterface(u16),
    /// Index into `Prepared::indy`.
    InvokeDynamic(u32),
    New(u16),
    NewArray(BasicType),
    ANewArray(u16),
    ArrayLength,
    Athrow,
    CheckCast(u16),
    InstanceOf(u16),
    MonitorEnter,
    MonitorExit,
    MultiANewArray(u16, u8),
    /// Appended after the last instruction: reached only by code that runs off its end.
    FellOff,

    // Superinstructions: built by `fuse` into the executable copy of the ops only. Each one
    // at index i does the work of the plain ops i..i+k (which stay in place after it, for
    // branches into them and as the slow path), then continues at i+k.
    /// load a; load b.
    LoadLoad(u16, u16),
    /// store a; load b.
    StoreLoad(u16, u16),
    /// load a (array); load i (index); xaload.
    ArrayLoadLL(BasicType, u16, u16),
    /// iload a; iload b; if_icmp<cond> target.
    IfIcmpLL(Cond, u16, u16, u16),
    /// iinc n d; goto target.
    IincGoto(u16, i16, u16),
    /// iload n; iconst k; iadd (isub becomes the negated constant).
    LoadAddConst(u16, i32),
    /// dload n; dadd / dsub / dmul: the top of stack with a local.
    DaddL(u16),
    DsubL(u16),
    DmulL(u16),
    /// iconst k; iadd (isub becomes the negated constant): the top of stack plus k.
    AddConst(i32),
    /// store2 a; load2 b.
    Store2Load2(u16, u16),
    /// dup2; xaload: an element read for a compound assignment.
    Dup2ArrayLoad(BasicType),
    /// load n (index); xaload: the array on the stack, the index in a local.
    ArrayLoadL(BasicType, u16),
    /// invokeinterface with the index of its inline cache (`Prepared::icache`).
    InvokeInterfaceIC(u16, u32),
    /// `invokevirtual` with the inline cache of site `.1`, which records the receiver
    /// classes seen (the profile compiled code checks for).
    InvokeVirtualIC(u16, u32),
    /// aload n; getfield (quickened, by width).
    LoadGetFieldInt(u16, u32),
    LoadGetFieldWide(u16, u32),
    LoadGetFieldRef(u16, u32),
}

impl Op {
    /// The quickened field forms of a `getfield` (`put` false) or `putfield` of type `ty`.
    pub fn quick_field(put: bool, ty: BasicType, offset: u32) -> Op {
        use BasicType::*;
        match (put, ty) {
            (false, Int | Float) => Op::GetFieldInt(offset),
            (false, Long | Double) => Op::GetFieldWide(offset),
            (false, Ref) => Op::GetFieldRef(offset),
            (false, _) => Op::GetFieldQ(ty, offset),
            (true, Int | Float) => Op::PutFieldInt(offset),
            (true, Long | Double) => Op::PutFieldWide(offset),
            (true, Ref) => Op::PutFieldRef(offset),
            (true, _) => Op::PutFieldQ(ty, offset),
        }
    }

    /// The op a `getfield` (`put` false) or `putfield` of resolved field `f` becomes: a
    /// quickened op of its width, a code mapping's PSO op (`crate::mappings`), or None for a
    /// field that stays with the plain op (static, volatile, a PSO reference or volatile PSO
    /// field).
    pub fn for_field(put: bool, f: &crate::class::resolve::ResolvedField) -> Option<Op> {
        match f.place {
            _ if f.is_static => None,
            Some(_) if f.ty == BasicType::Ref || f.volatile => None,
            Some(place) if put => Some(Op::PsoPut(f.ty, place)),
            Some(place) => Some(Op::PsoGet(f.ty, place)),
            None if f.volatile => None,
            None => Some(Op::quick_field(put, f.ty, f.offset)),
        }
    }

    /// For a quickened field op: whether it stores, and a type of its width and kind.
    pub fn quick_field_shape(&self) -> Option<(bool, BasicType)> {
        Some(match *self {
            Op::GetFieldInt(_) => (false, BasicType::Int),
            Op::GetFieldWide(_) => (false, BasicType::Long),
            Op::GetFieldRef(_) => (false, BasicType::Ref),
            Op::GetFieldQ(t, _) => (false, t),
            Op::PutFieldInt(_) => (true, BasicType::Int),
            Op::PutFieldWide(_) => (true, BasicType::Long),
            Op::PutFieldRef(_) => (true, BasicType::Ref),
            Op::PutFieldQ(t, _) => (true, t),
            Op::PsoGet(t, _) => (false, t),
            Op::PsoPut(t, _) => (true, t),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn op_is_compact() {
        assert!(std::mem::size_of::<super::Op>() <= 8);
    }
}
