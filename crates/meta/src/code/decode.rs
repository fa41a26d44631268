//! Pre-decoding: JVM bytecode -> [`Op`] array, once per method.
//!
//! Branch targets become op indices; `ldc` of numbers becomes an immediate; long/double
//! loads and stores become two-slot ops; exception handler ranges are translated to op
//! indices. Malformed code (bad opcode, branch outside the method or into an instruction)
//! is reported as an error string that the caller throws as `VerifyError`.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use classfile::{Code, Constant, ConstantPool};

use super::op::{Cond, Op};
use crate::class::BasicType;

/// A `tableswitch`/`lookupswitch` in op-index form.
#[derive(Debug)]
pub struct Switch {
    pub default: u32,
    /// tableswitch: low bound; targets are dense from `low`.
    pub low: i32,
    pub dense: Vec<u32>,
    /// lookupswitch: sorted (key, target) pairs.
    pub pairs: Vec<(i32, u32)>,
}

/// An exception handler in op-index form.
#[derive(Debug, Clone, Copy)]
pub struct Handler {
    pub start: u32,
    pub end: u32,
    pub target: u32,
    pub catch_type: u16,
}

/// One invokedynamic call site.
#[derive(Debug)]
pub struct IndySite {
    pub cp_index: u16,
    /// What the invokedynamic layer bound the site to: its own type (`vm::invoke`'s
    /// `IndyBinding`), which code metadata does not know.
    pub binding: OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

/// A method's decoded code.
#[derive(Debug)]
pub struct Prepared {
    /// The plain ops: what the method means, read by every analysis.
    pub ops: Box<[Op]>,
    /// What the interpreter runs: `ops` with superinstructions (see `fuse`); same length.
    pub fast: Box<[Op]>,
    /// One inline cache per `invokeinterface` and `invokevirtual` site of `fast`.
    pub icache: Box<[super::icache::InlineCache]>,
    /// Bytecode index of each op.
    pub bcis: Box<[u32]>,
    pub handlers: Box<[Handler]>,
    pub switches: Box<[Switch]>,
    pub indy: Box<[IndySite]>,
    /// Long and double constants of `Op::Const2`, as raw bits.
    pub wide: Box<[u64]>,
    pub max_locals: u16,
    pub max_stack: u16,
    /// Reference maps for the collector, computed on first use.
    pub oopmaps: OnceLock<Result<super::oopmap::OopMaps, String>>,
    /// The profile and the compiled code.
    pub tier: super::compiled::Tier,
    /// The slots a frame of this code takes (`max_locals + max_stack + 2`), set by
    /// `depth::check` once it proved the frame bounds; 0 before (see `interp::frame`).
    proven_frame: AtomicU32,
}

impl Prepared {
    /// Where compiled callers that select a method at run time find what a direct call needs
    /// (`vm::offsets`): the entry word (a `usize`), the proven frame size in slots (a `u32`,
    /// see [`Prepared::proven_frame_slots`]) and `max_locals` (a `u16`).
    pub const ENTRY_AT: usize =
        std::mem::offset_of!(Prepared, tier) + super::compiled::Tier::ENTRY_AT;
    pub const FRAME_SLOTS_AT: usize = std::mem::offset_of!(Prepared, proven_frame);
    pub const MAX_LOCALS_AT: usize = std::mem::offset_of!(Prepared, max_locals);

    /// Wraps decoded ops, appending [`Op::FellOff`] so that every op has a successor inside
    /// the array: the interpreter may then fetch the next op without a bounds check.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mut ops: Vec<Op>,
        mut bcis: Vec<u32>,
        handlers: Vec<Handler>,
        switches: Vec<Switch>,
        indy: Vec<IndySite>,
        wide: Vec<u64>,
        max_locals: u16,
        max_stack: u16,
    ) -> Prepared {
        bcis.push(bcis.last().copied().unwrap_or(0));
        ops.push(Op::FellOff);
        let (fast, sites) = super::fuse::fuse(&ops);
        Prepared {
            fast,
            icache: (0..sites).map(|_| Default::default()).collect(),
            ops: ops.into(),
            bcis: bcis.into(),
            handlers: handlers.into(),
            switches: switches.into(),
            indy: indy.into(),
            wide: wide.into(),
            max_locals,
            max_stack,
            oopmaps: OnceLock::new(),
            tier: Default::default(),
            proven_frame: AtomicU32::new(0),
        }
    }

    /// Marks the code proven (`depth::check` only: it alone makes a [`FrameProof`]).
    ///
    /// [`FrameProof`]: super::depth::FrameProof
    #[inline]
    pub fn set_proven(&self, _proof: super::depth::FrameProof) {
        let slots = self.max_locals as u32 + self.max_stack as u32 + 2;
        self.proven_frame.store(slots, Ordering::Release);
    }

    /// The slots a frame of this code takes, once `depth::check` proved it; 0 before.
    #[inline(always)]
    pub fn proven_frame_slots(&self) -> usize {
        self.proven_frame.load(Ordering::Relaxed) as usize
    }

    #[inline]
    pub fn bci(&self, pc: u32) -> u32 {
        self.bcis.get(pc as usize).copied().unwrap_or(0)
    }
}

struct Reader<'a> {
    code: &'a [u8],
}

impl Reader<'_> {
    fn u8(&self, at: usize) -> Result<u8, String> {
        self.code
            .get(at)
            .copied()
            .ok_or_else(|| "truncated instruction".to_string())
    }
    fn u16(&self, at: usize) -> Result<u16, String> {
        Ok(u16::from_be_bytes([self.u8(at)?, self.u8(at + 1)?]))
    }
    fn i16(&self, at: usize) -> Result<i16, String> {
        Ok(self.u16(at)? as i16)
    }
    fn i32(&self, at: usize) -> Result<i32, String> {
        Ok(i32::from_be_bytes([
            self.u8(at)?,
            self.u8(at + 1)?,
            self.u8(at + 2)?,
            self.u8(at + 3)?,
        ]))
    }
}

/// Decodes `code` of a method in a class with constant pool `cp`; `rewrite` may then replace
/// ops with equivalent ones (quickening) before the executable copy is built.
pub fn prepare(
    code: &Code,
    cp: &ConstantPool,
    rewrite: impl FnOnce(&mut [Op]),
) -> Result<Prepared, String> {
    let bytes = &code.code;
    let r = Reader { code: bytes };
    // Pass 1: instruction boundaries.
    let mut op_at = vec![u32::MAX; bytes.len() + 1];
    let mut starts = Vec::new();
    let mut pc = 0usize;
    while pc < bytes.len() {
        op_at[pc] = starts.len() as u32;
        starts.push(pc);
        pc += insn_len(&r, pc)?;
    }
    if pc != bytes.len() {
        return Err("last instruction runs past the end of the code".into());
    }
    op_at[bytes.len()] = starts.len() as u32;
    let target = |from: usize, off: i32| -> Result<u32, String> {
        let t = from as i64 + off as i64;
        if t < 0 || t as usize >= bytes.len() || op_at[t as usize] == u32::MAX {
            return Err(format!("bad branch target {t} at {from}"));
        }
        Ok(op_at[t as usize])
    };
    let mut ops = Vec::with_capacity(starts.len());
    let mut switches = Vec::new();
    let mut indy = Vec::new();
    let mut wide = Vec::new();
    for &pc in &starts {
        let op = decode_one(&r, pc, cp, &target, &mut switches, &mut indy, &mut wide)?;
        ops.push(op);
    }
    let mut handlers = Vec::with_capacity(code.exception_table.len());
    for h in &code.exception_table {
        let at = |p: u16| -> Result<u32, String> {
            op_at
                .get(p as usize)
                .copied()
                .filter(|&x| x != u32::MAX)
                .ok_or_else(|| format!("bad exception table pc {p}"))
        };
        handlers.push(Handler {
            start: at(h.start_pc)?,
            end: at(h.end_pc)?,
            target: at(h.handler_pc)?,
            catch_type: h.catch_type,
        });
    }
    let bcis = starts.iter().map(|&p| p as u32).collect();
    rewrite(&mut ops);
    Ok(Prepared::new(
        ops,
        bcis,
        handlers,
        switches,
        indy,
        wide,
        code.max_locals,
        code.max_stack,
    ))
}

fn insn_len(r: &Reader, pc: usize) -> Result<usize, String> {
    let op = r.u8(pc)?;
    Ok(match op {
        0x10 | 0x12 | 0x15..=0x19 | 0x36..=0x3a | 0xa9 | 0xbc => 2,
        0x11
        | 0x13
        | 0x14
        | 0x84
        | 0x99..=0xa8
        | 0xb2..=0xb8
        | 0xbb
        | 0xbd
        | 0xc0
        | 0xc1
        | 0xc6
        | 0xc7 => 3,
        0xc5 => 4,
        0xb9 | 0xba | 0xc8 | 0xc9 => 5,
        0xaa => {
            let base = (pc + 4) & !3;
            let lo = r.i32(base + 4)?;
            let hi = r.i32(base + 8)?;
            if hi < lo {
                return Err("tableswitch high < low".into());
            }
            let n = (hi as i64 - lo as i64 + 1) as usize;
            base + 12 + n * 4 - pc
        }
        0xab => {
            let base = (pc + 4) & !3;
            let n = r.i32(base + 4)?;
            if n < 0 {
                return Err("lookupswitch npairs < 0".into());
            }
            base + 8 + n as usize * 8 - pc
        }
        0xc4 => {
            let inner = r.u8(pc + 1)?;
            match inner {
                0x84 => 6,
                0x15..=0x19 | 0x36..=0x3a | 0xa9 => 4,
                _ => return Err(format!("bad wide opcode {inner}")),
            }
        }
        0x00..=0x0f
        | 0x1a..=0x35
        | 0x3b..=0x83
        | 0x85..=0x98
        | 0xac..=0xb1
        | 0xbe
        | 0xbf
        | 0xc2
        | 0xc3 => 1,
        _ => return Err(format!("Bad instruction: {op:#x}")),
    })
}

/// The index of `bits` in the method's wide-constant table, adding it if new.
fn wide_const(wide: &mut Vec<u64>, bits: u64) -> Op {
    let i = wide.iter().position(|&w| w == bits).unwrap_or_else(|| {
        wide.push(bits);
        wide.len() - 1
    });
    Op::Const2(i as u32)
}

fn ldc(cp: &ConstantPool, index: u16, wide: &mut Vec<u64>) -> Result<Op, String> {
    Ok(match cp.get(index) {
        Some(Constant::Integer(v)) => Op::Iconst(*v),
        Some(Constant::Float(v)) => Op::Fconst(*v),
        Some(Constant::Long(v)) => wide_const(wide, *v as u64),
        Some(Constant::Double(v)) => wide_const(wide, v.to_bits()),
        Some(Constant::String { .. }) => Op::LdcString(index),
        Some(Constant::Class { .. }) => Op::LdcClass(index),
        Some(
            Constant::MethodType { .. } | Constant::MethodHandle { .. } | Constant::Dynamic { .. },
        ) => Op::LdcOther(index),
        _ => return Err(format!("bad ldc constant index {index}")),
    })
}

const ARRAY_TYPES: [BasicType; 8] = [
    BasicType::Int,
    BasicType::Long,
    BasicType::Float,
    BasicType::Double,
    BasicType::Ref,
    BasicType::Byte, // baload/bastore also serve boolean arrays
    BasicType::Char,
    BasicType::Short,
];

fn decode_one(
    r: &Reader,
    pc: usize,
    cp: &ConstantPool,
    target: &dyn Fn(usize, i32) -> Result<u32, String>,
    switches: &mut Vec<Switch>,
    indy: &mut Vec<IndySite>,
    wide: &mut Vec<u64>,
) -> Result<Op, String> {
    use Op::*;
    let opc = r.u8(pc)?;
    let u8a = || r.u8(pc + 1);
    let u16a = || r.u16(pc + 1);
    let cond = |i: u8| [Cond::Eq, Cond::Ne, Cond::Lt, Cond::Ge, Cond::Gt, Cond::Le][i as usize];
    Ok(match opc {
        0x00 => Nop,
        0x01 => AconstNull,
        0x02..=0x08 => Iconst(opc as i32 - 3),
        0x09 | 0x0a => wide_const(wide, (opc - 0x09) as u64),
        0x0b..=0x0d => Fconst((opc - 0x0b) as f32),
        0x0e | 0x0f => wide_const(wide, ((opc - 0x0e) as f64).to_bits()),
        0x10 => Iconst(u8a()? as i8 as i32),
        0x11 => Iconst(r.i16(pc + 1)? as i32),
        0x12 => ldc(cp, u8a()? as u16, wide)?,
        0x13 | 0x14 => ldc(cp, u16a()?, wide)?,
        0x15 | 0x17 | 0x19 => Load(u8a()? as u16),
        0x16 | 0x18 => Load2(u8a()? as u16),
        0x1a..=0x1d => Load((opc - 0x1a) as u16),
        0x1e..=0x21 => Load2((opc - 0x1e) as u16),
        0x22..=0x25 => Load((opc - 0x22) as u16),
        0x26..=0x29 => Load2((opc - 0x26) as u16),
        0x2a..=0x2d => Load((opc - 0x2a) as u16),
        0x2e..=0x35 => ArrayLoad(ARRAY_TYPES[(opc - 0x2e) as usize]),
        0x36 | 0x38 | 0x3a => Store(u8a()? as u16),
        0x37 | 0x39 => Store2(u8a()? as u16),
        0x3b..=0x3e => Store((opc - 0x3b) as u16),
        0x3f..=0x42 => Store2((opc - 0x3f) as u16),
        0x43..=0x46 => Store((opc - 0x43) as u16),
        0x47..=0x4a => Store2((opc - 0x47) as u16),
        0x4b..=0x4e => Store((opc - 0x4b) as u16),
        0x4f..=0x56 => ArrayStore(ARRAY_TYPES[(opc - 0x4f) as usize]),
        0x57 => Pop,
        0x58 => Pop2,
        0x59 => Dup,
        0x5a => DupX1,
        0x5b => DupX2,
        0x5c => Dup2,
        0x5d => Dup2X1,
        0x5e => Dup2X2,
        0x5f => Swap,
        0x60 => Iadd,
        0x61 => Ladd,
        0x62 => Fadd,
        0x63 => Dadd,
        0x64 => Isub,
        0x65 => Lsub,
        0x66 => Fsub,
        0x67 => Dsub,
        0x68 => Imul,
        0x69 => Lmul,
        0x6a => Fmul,
        0x6b => Dmul,
        0x6c => Idiv,
        0x6d => Ldiv,
        0x6e => Fdiv,
        0x6f => Ddiv,
        0x70 => Irem,
        0x71 => Lrem,
        0x72 => Frem,
        0x73 => Drem,
        0x74 => Ineg,
        0x75 => Lneg,
        0x76 => Fneg,
        0x77 => Dneg,
        0x78 => Ishl,
        0x79 => Lshl,
        0x7a => Ishr,
        0x7b => Lshr,
        0x7c => Iushr,
        0x7d => Lushr,
        0x7e => Iand,
        0x7f => Land,
        0x80 => Ior,
        0x81 => Lor,
        0x82 => Ixor,
        0x83 => Lxor,
        0x84 => Iinc(u8a()? as u16, r.u8(pc + 2)? as i8 as i16),
        0x85 => I2l,
        0x86 => I2f,
        0x87 => I2d,
        0x88 => L2i,
        0x89 => L2f,
        0x8a => L2d,
        0x8b => F2i,
        0x8c => F2l,
        0x8d => F2d,
        0x8e => D2i,
        0x8f => D2l,
        0x90 => D2f,
        0x91 => I2b,
        0x92 => I2c,
        0x93 => I2s,
        0x94 => Lcmp,
        0x95 => Fcmpl,
        0x96 => Fcmpg,
        0x97 => Dcmpl,
        0x98 => Dcmpg,
        0x99..=0x9e => If(cond(opc - 0x99), target(pc, r.i16(pc + 1)? as i32)?),
        0x9f..=0xa4 => IfIcmp(cond(opc - 0x9f), target(pc, r.i16(pc + 1)? as i32)?),
        0xa5 => IfAcmpEq(target(pc, r.i16(pc + 1)? as i32)?),
        0xa6 => IfAcmpNe(target(pc, r.i16(pc + 1)? as i32)?),
        0xa7 => Goto(target(pc, r.i16(pc + 1)? as i32)?),
        0xa8 => Jsr(target(pc, r.i16(pc + 1)? as i32)?),
        0xa9 => Ret(u8a()? as u16),
        0xaa => {
            let base = (pc + 4) & !3;
            let default = target(pc, r.i32(base)?)?;
            let low = r.i32(base + 4)?;
            let high = r.i32(base + 8)?;
            let mut dense = Vec::new();
            for i in 0..=(high as i64 - low as i64) as usize {
                dense.push(target(pc, r.i32(base + 12 + i * 4)?)?);
            }
            switches.push(Switch {
                default,
                low,
                dense,
                pairs: Vec::new(),
            });
            TableSwitch(switches.len() as u32 - 1)
        }
        0xab => {
            let base = (pc + 4) & !3;
            let default = target(pc, r.i32(base)?)?;
            let n = r.i32(base + 4)? as usize;
            let mut pairs = Vec::with_capacity(n);
            for i in 0..n {
                let k = r.i32(base + 8 + i * 8)?;
                pairs.push((k, target(pc, r.i32(base + 12 + i * 8)?)?));
            }
            pairs.sort_by_key(|p| p.0);
            switches.push(Switch {
                default,
                low: 0,
                dense: Vec::new(),
                pairs,
            });
            LookupSwitch(switches.len() as u32 - 1)
        }
        0xac | 0xae | 0xb0 => Return1,
        0xad | 0xaf => Return2,
        0xb1 => Return,
        0xb2 => GetStatic(u16a()?),
        0xb3 => PutStatic(u16a()?),
        0xb4 => GetField(u16a()?),
        0xb5 => PutField(u16a()?),
        0xb6 => InvokeVirtual(u16a()?),
        0xb7 => InvokeSpecial(u16a()?),
        0xb8 => InvokeStatic(u16a()?),
        0xb9 => InvokeInterface(u16a()?),
        0xba => {
            indy.push(IndySite {
                cp_index: u16a()?,
                binding: OnceLock::new(),
            });
            InvokeDynamic(indy.len() as u32 - 1)
        }
        0xbb => New(u16a()?),
        0xbc => NewArray(match u8a()? {
            4 => BasicType::Boolean,
            5 => BasicType::Char,
            6 => BasicType::Float,
            7 => BasicType::Double,
            8 => BasicType::Byte,
            9 => BasicType::Short,
            10 => BasicType::Int,
            11 => BasicType::Long,
            t => return Err(format!("bad newarray type {t}")),
        }),
        0xbd => ANewArray(u16a()?),
        0xbe => ArrayLength,
        0xbf => Athrow,
        0xc0 => CheckCast(u16a()?),
        0xc1 => InstanceOf(u16a()?),
        0xc2 => MonitorEnter,
        0xc3 => MonitorExit,
        0xc4 => {
            let inner = r.u8(pc + 1)?;
            let idx = r.u16(pc + 2)?;
            match inner {
                0x15 | 0x17 | 0x19 => Load(idx),
                0x16 | 0x18 => Load2(idx),
                0x36 | 0x38 | 0x3a => Store(idx),
                0x37 | 0x39 => Store2(idx),
                0xa9 => Ret(idx),
                0x84 => Iinc(idx, r.i16(pc + 4)?),
                _ => return Err(format!("bad wide opcode {inner}")),
            }
        }
        0xc5 => MultiANewArray(u16a()?, r.u8(pc + 3)?),
        0xc6 => IfNull(target(pc, r.i16(pc + 1)? as i32)?),
        0xc7 => IfNonNull(target(pc, r.i16(pc + 1)? as i32)?),
        0xc8 => Goto(target(pc, r.i32(pc + 1)?)?),
        0xc9 => Jsr(target(pc, r.i32(pc + 1)?)?),
        _ => return Err(format!("Bad instruction: {opc:#x}")),
    })
}
