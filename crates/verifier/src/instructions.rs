//! Bytecode decoding and the static constraints of JVMS 17 §4.9.1.
//!
//! [`decode`] turns a `code` array into a list of [`Insn`]s (offset, opcode,
//! decoded operand) and checks, for every instruction:
//!
//! * the opcode is defined (no `breakpoint`/`impdep*`/unassigned values) and the
//!   instruction is not truncated by the end of the code;
//! * `wide` only modifies `iload`…`astore`, `iinc` and `ret`;
//! * local variable indices are below `max_locals` (index + 1 for long/double);
//! * `tableswitch`/`lookupswitch` have `low <= high`, sorted `lookupswitch` keys and,
//!   for class files older than 51.0 (as HotSpot does), zero padding bytes;
//! * constant-pool operands exist and have the kind each instruction requires
//!   (with the class-file version gates for `ldc` of Class/MethodType/MethodHandle/
//!   Dynamic constants and for interface method refs in `invokestatic`/`invokespecial`);
//! * only `invokespecial` may name `<init>`, nobody may name `<clinit>`, `<init>` must
//!   return void; `invokeinterface` count byte equals the argument size + 1 and its
//!   fourth byte is zero; `invokedynamic`'s third and fourth bytes are zero;
//! * `new` does not name an array class, `anewarray` does not create more than 255
//!   dimensions, `multianewarray` names an array class with at least `dimensions`
//!   dimensions and `dimensions >= 1`, `newarray` has a valid `atype`;
//! * `jsr`, `jsr_w` and `ret` do not appear in class files of version 51.0 or above;
//! * every branch and switch target is the start of an instruction in the code.
//!
//! [`check_exception_table`] checks handler ranges and catch types, and
//! [`check_no_fall_off`] is the reachability-based "execution never falls off
//! the end of the code" check used for class files without stack maps.

use classfile::{Constant, ConstantPool, ExceptionHandler};

use crate::error::MethodError;
use crate::types::{array_dimensions, is_field_descriptor, method_param_slots};

/// Opcode values (JVMS 17 chapter 6), as the class-file crate defines them.
pub use classfile::opcodes as op;

/// The mnemonic of an opcode (`"<illegal>"` for undefined values).
pub fn mnemonic(opcode: u8) -> &'static str {
    op::name(opcode).unwrap_or("<illegal>")
}

/// A decoded operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    None,
    /// Local variable index (explicit or implied by `xload_n`/`xstore_n`).
    Local(u16),
    Iinc {
        index: u16,
        delta: i16,
    },
    /// `bipush`/`sipush` immediate.
    Int(i32),
    /// Constant pool index.
    Cp(u16),
    /// Absolute branch target.
    Branch(u16),
    /// `newarray` element type code.
    NewArray(u8),
    MultiANewArray {
        cp: u16,
        dims: u8,
    },
    InvokeInterface {
        cp: u16,
        count: u8,
    },
    /// `tableswitch`/`lookupswitch`: default target and `count` (key, target)
    /// pairs in [`Decoded::switch_targets`] starting at `first`.
    Switch {
        default: u16,
        first: u32,
        count: u32,
    },
}

/// One decoded instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insn {
    pub pc: u16,
    pub opcode: u8,
    pub operand: Operand,
}

/// A decoded code array.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub insns: Vec<Insn>,
    /// (key, absolute target) pairs of all switches.
    pub switch_targets: Vec<(i32, u16)>,
    /// `index_of[pc]` = index in `insns` of the instruction starting at `pc`, or `u32::MAX`.
    index_of: Vec<u32>,
    /// Operand-byte errors found while decoding, which HotSpot reports in its main loop (in
    /// instruction order with the other static checks, after the StackMapTable is read).
    deferred: Vec<MethodError>,
}

impl Decoded {
    /// Index of the instruction starting at `pc`, if any.
    #[inline]
    pub fn index_at(&self, pc: usize) -> Option<usize> {
        match self.index_of.get(pc) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }

    /// Is `pc` the start of an instruction?
    #[inline]
    pub fn is_start(&self, pc: usize) -> bool {
        self.index_at(pc).is_some()
    }

    /// Is there a `new` instruction at `pc`?
    pub fn is_new_at(&self, pc: usize) -> bool {
        self.index_at(pc)
            .is_some_and(|i| self.insns[i].opcode == op::NEW)
    }

    /// The targets (key, pc) of a switch operand.
    pub fn switch(&self, first: u32, count: u32) -> &[(i32, u16)] {
        let start = first as usize;
        self.switch_targets
            .get(start..start + count as usize)
            .unwrap_or(&[])
    }
}

struct Reader<'c> {
    code: &'c [u8],
}

impl Reader<'_> {
    fn u1(&self, at: usize) -> Option<u8> {
        self.code.get(at).copied()
    }
    fn u2(&self, at: usize) -> Option<u16> {
        Some(u16::from_be_bytes([self.u1(at)?, self.u1(at + 1)?]))
    }
    fn i4(&self, at: usize) -> Option<i32> {
        let b = self.code.get(at..at + 4)?;
        Some(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Static information the decoder needs about the method and class.
pub struct StaticEnv<'a> {
    pub cp: &'a ConstantPool,
    pub major_version: u16,
    pub max_locals: u16,
}

fn bad(pc: usize, headline: &str, reason: impl Into<String>) -> MethodError {
    MethodError::at(u16::try_from(pc).unwrap_or(u16::MAX), headline, reason)
}

/// A branch target; one outside the code is an error HotSpot finds in its main loop, so it is
/// deferred (see [`Decoded`]) and the target taken as 0.
fn target(pc: usize, offset: i64, len: usize, deferred: &mut Vec<MethodError>) -> u16 {
    let t = pc as i64 + offset;
    if t < 0 || t >= len as i64 {
        deferred.push(bad(
            pc,
            "Illegal target of jump or branch",
            format!("Target {t} is outside the code"),
        ));
        return 0;
    }
    t as u16
}

/// Decode `code` and check the static constraints listed in the module docs.
#[cfg(test)]
pub fn decode(code: &[u8], env: &StaticEnv<'_>) -> Result<Decoded, MethodError> {
    let decoded = decode_layout(code, env)?;
    check_statics(&decoded, env)?;
    Ok(decoded)
}

/// Decode `code` into instructions: their opcodes, lengths and operands (an illegal opcode or
/// a truncated instruction is an error, as are a few operand-byte rules); the other static
/// checks are [`check_statics`].
pub fn decode_layout(code: &[u8], env: &StaticEnv<'_>) -> Result<Decoded, MethodError> {
    let len = code.len();
    if len == 0 || len > 65535 {
        return Err(MethodError::method(
            "Invalid method Code length",
            format!("Code length {len}"),
        ));
    }
    let r = Reader { code };
    let mut insns = Vec::with_capacity(len / 2 + 1);
    let mut switch_targets = Vec::new();
    let mut index_of = vec![u32::MAX; len + 1];
    let mut deferred = Vec::new();
    let mut pc = 0usize;
    let truncated = |pc| {
        bad(
            pc,
            "Bad instruction",
            "Instruction extends past the end of the code",
        )
    };
    while pc < len {
        let opcode = code[pc];
        index_of[pc] = insns.len() as u32;
        let (operand, size) = match opcode {
            op::NOP..=op::DCONST_1 => (Operand::None, 1),
            op::BIPUSH => (
                Operand::Int(i32::from(r.u1(pc + 1).ok_or_else(|| truncated(pc))? as i8)),
                2,
            ),
            op::SIPUSH => (
                Operand::Int(i32::from(r.u2(pc + 1).ok_or_else(|| truncated(pc))? as i16)),
                3,
            ),
            op::LDC => (
                Operand::Cp(u16::from(r.u1(pc + 1).ok_or_else(|| truncated(pc))?)),
                2,
            ),
            op::LDC_W | op::LDC2_W => (Operand::Cp(r.u2(pc + 1).ok_or_else(|| truncated(pc))?), 3),
            op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE | op::RET => (
                Operand::Local(u16::from(r.u1(pc + 1).ok_or_else(|| truncated(pc))?)),
                2,
            ),
            op::ILOAD_0..=op::ALOAD_3 => (Operand::Local(u16::from((opcode - op::ILOAD_0) % 4)), 1),
            op::ISTORE_0..=op::ASTORE_3 => {
                (Operand::Local(u16::from((opcode - op::ISTORE_0) % 4)), 1)
            }
            op::IALOAD..=op::SALOAD | op::IASTORE..=op::LXOR => (Operand::None, 1),
            op::IINC => {
                let index = u16::from(r.u1(pc + 1).ok_or_else(|| truncated(pc))?);
                let delta = i16::from(r.u1(pc + 2).ok_or_else(|| truncated(pc))? as i8);
                (Operand::Iinc { index, delta }, 3)
            }
            op::I2L..=op::DCMPG => (Operand::None, 1),
            op::IFEQ..=op::JSR | op::IFNULL | op::IFNONNULL => {
                let off = r.u2(pc + 1).ok_or_else(|| truncated(pc))? as i16;
                (
                    Operand::Branch(target(pc, i64::from(off), len, &mut deferred)),
                    3,
                )
            }
            op::GOTO_W | op::JSR_W => {
                let off = r.i4(pc + 1).ok_or_else(|| truncated(pc))?;
                (
                    Operand::Branch(target(pc, i64::from(off), len, &mut deferred)),
                    5,
                )
            }
            op::TABLESWITCH | op::LOOKUPSWITCH => {
                let base = (pc + 4) & !3;
                if base > len {
                    return Err(truncated(pc));
                }
                if env.major_version < 51 && code[pc + 1..base].iter().any(|&b| b != 0) {
                    return Err(bad(
                        pc,
                        "Nonzero padding byte in lookupswitch or tableswitch",
                        "",
                    ));
                }
                let default = r.i4(base).ok_or_else(|| truncated(pc))?;
                let default = target(pc, i64::from(default), len, &mut deferred);
                let first = switch_targets.len() as u32;
                let (count, size) = if opcode == op::TABLESWITCH {
                    let low = r.i4(base + 4).ok_or_else(|| truncated(pc))?;
                    let high = r.i4(base + 8).ok_or_else(|| truncated(pc))?;
                    if low > high {
                        return Err(bad(
                            pc,
                            "low must be less than or equal to high in tableswitch",
                            "",
                        ));
                    }
                    let n = (i64::from(high) - i64::from(low) + 1) as usize;
                    let end = base + 12 + n * 4;
                    if end > len {
                        return Err(truncated(pc));
                    }
                    for k in 0..n {
                        let off = r.i4(base + 12 + 4 * k).ok_or_else(|| truncated(pc))?;
                        let key = (i64::from(low) + k as i64) as i32;
                        switch_targets.push((key, target(pc, i64::from(off), len, &mut deferred)));
                    }
                    (n, end - pc)
                } else {
                    let npairs = r.i4(base + 4).ok_or_else(|| truncated(pc))?;
                    if npairs < 0 {
                        return Err(bad(pc, "npairs must be nonnegative in lookupswitch", ""));
                    }
                    let n = npairs as usize;
                    let end = base + 8 + n * 8;
                    if end > len {
                        return Err(truncated(pc));
                    }
                    let mut prev: Option<i32> = None;
                    for k in 0..n {
                        let key = r.i4(base + 8 + 8 * k).ok_or_else(|| truncated(pc))?;
                        let off = r.i4(base + 12 + 8 * k).ok_or_else(|| truncated(pc))?;
                        if prev.is_some_and(|p| key <= p) {
                            return Err(bad(
                                pc,
                                "Bad lookupswitch instruction",
                                "Keys are not sorted",
                            ));
                        }
                        prev = Some(key);
                        switch_targets.push((key, target(pc, i64::from(off), len, &mut deferred)));
                    }
                    (n, end - pc)
                };
                (
                    Operand::Switch {
                        default,
                        first,
                        count: count as u32,
                    },
                    size,
                )
            }
            op::IRETURN..=op::RETURN
            | op::ARRAYLENGTH
            | op::ATHROW
            | op::MONITORENTER
            | op::MONITOREXIT => (Operand::None, 1),
            op::GETSTATIC..=op::INVOKESTATIC
            | op::NEW
            | op::ANEWARRAY
            | op::CHECKCAST
            | op::INSTANCEOF => (Operand::Cp(r.u2(pc + 1).ok_or_else(|| truncated(pc))?), 3),
            op::INVOKEINTERFACE => {
                let cp = r.u2(pc + 1).ok_or_else(|| truncated(pc))?;
                let count = r.u1(pc + 3).ok_or_else(|| truncated(pc))?;
                let zero = r.u1(pc + 4).ok_or_else(|| truncated(pc))?;
                if zero != 0 {
                    deferred.push(bad(
                        pc,
                        "Bad invokeinterface instruction",
                        "Fourth operand byte must be zero",
                    ));
                }
                (Operand::InvokeInterface { cp, count }, 5)
            }
            op::INVOKEDYNAMIC => {
                let cp = r.u2(pc + 1).ok_or_else(|| truncated(pc))?;
                if r.u2(pc + 3).ok_or_else(|| truncated(pc))? != 0 {
                    deferred.push(bad(
                        pc,
                        "Bad invokedynamic instruction",
                        "Third and fourth operand bytes must be zero",
                    ));
                }
                (Operand::Cp(cp), 5)
            }
            op::NEWARRAY => (
                Operand::NewArray(r.u1(pc + 1).ok_or_else(|| truncated(pc))?),
                2,
            ),
            op::MULTIANEWARRAY => {
                let cp = r.u2(pc + 1).ok_or_else(|| truncated(pc))?;
                let dims = r.u1(pc + 3).ok_or_else(|| truncated(pc))?;
                (Operand::MultiANewArray { cp, dims }, 4)
            }
            op::WIDE => {
                let inner = r.u1(pc + 1).ok_or_else(|| truncated(pc))?;
                let index = r.u2(pc + 2).ok_or_else(|| truncated(pc))?;
                match inner {
                    op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE | op::RET => {
                        insns.push(Insn {
                            pc: pc as u16,
                            opcode: inner,
                            operand: Operand::Local(index),
                        });
                        pc += 4;
                        continue;
                    }
                    op::IINC => {
                        let delta = r.u2(pc + 4).ok_or_else(|| truncated(pc))? as i16;
                        insns.push(Insn {
                            pc: pc as u16,
                            opcode: inner,
                            operand: Operand::Iinc { index, delta },
                        });
                        pc += 6;
                        continue;
                    }
                    _ => {
                        return Err(bad(
                            pc,
                            "Bad instruction",
                            format!("Invalid opcode {inner} after wide"),
                        ));
                    }
                }
            }
            _ => {
                return Err(bad(
                    pc,
                    "Bad instruction",
                    format!("Illegal opcode {opcode}"),
                ));
            }
        };
        insns.push(Insn {
            pc: pc as u16,
            opcode,
            operand,
        });
        pc += size;
    }
    if pc != len {
        return Err(truncated(insns.last().map_or(0, |i| i.pc as usize)));
    }
    Ok(Decoded {
        insns,
        switch_targets,
        index_of,
        deferred,
    })
}

/// The static checks of every decoded instruction (operands, constant-pool kinds, locals,
/// branch targets on instruction starts).
pub fn check_statics(decoded: &Decoded, env: &StaticEnv<'_>) -> Result<(), MethodError> {
    for insn in &decoded.insns {
        if let Some(e) = decoded.deferred.iter().find(|e| e.pc == Some(insn.pc)) {
            return Err(e.clone());
        }
        check_static(insn, decoded, env)?;
    }
    Ok(())
}

fn check_target(decoded: &Decoded, pc: u16, t: u16) -> Result<(), MethodError> {
    if decoded.is_start(t as usize) {
        Ok(())
    } else {
        Err(bad(
            pc as usize,
            "Illegal target of jump or branch",
            format!("Target {t} is not the start of an instruction"),
        ))
    }
}

fn check_local(insn: &Insn, index: u16, size: u16, env: &StaticEnv<'_>) -> Result<(), MethodError> {
    if u32::from(index) + u32::from(size) > u32::from(env.max_locals) {
        return Err(bad(
            insn.pc as usize,
            "Illegal local variable number",
            format!(
                "Local index {index} is not below max_locals {}",
                env.max_locals
            ),
        ));
    }
    Ok(())
}

/// Kind of a member a `Constant` must be for an instruction.
fn cp_error(pc: u16, what: &str, index: u16) -> MethodError {
    bad(
        pc as usize,
        "Illegal type in constant pool",
        format!("Constant pool index {index} is not a {what}"),
    )
}

fn check_static(insn: &Insn, decoded: &Decoded, env: &StaticEnv<'_>) -> Result<(), MethodError> {
    let pc = insn.pc;
    let cp = env.cp;
    let major = env.major_version;
    match insn.operand {
        Operand::Branch(t) => check_target(decoded, pc, t)?,
        Operand::Switch {
            default,
            first,
            count,
        } => {
            check_target(decoded, pc, default)?;
            for &(_, t) in decoded.switch(first, count) {
                check_target(decoded, pc, t)?;
            }
        }
        Operand::Local(index) => {
            let size = if matches!(insn.opcode, op::LLOAD | op::DLOAD | op::LSTORE | op::DSTORE)
                || matches!(insn.opcode, 30..=33 | 38..=41 | 63..=66 | 71..=74)
            {
                2
            } else {
                1
            };
            check_local(insn, index, size, env)?;
        }
        Operand::Iinc { index, .. } => check_local(insn, index, 1, env)?,
        _ => {}
    }
    if major >= 51 && matches!(insn.opcode, op::JSR | op::JSR_W | op::RET) {
        return Err(bad(
            pc as usize,
            "Bad instruction",
            "jsr/ret are not allowed in class files of version 51.0 or above",
        ));
    }
    match (insn.opcode, insn.operand) {
        (op::LDC | op::LDC_W, Operand::Cp(i)) => {
            let ok = match cp.get(i) {
                Some(Constant::Integer(_) | Constant::Float(_) | Constant::String { .. }) => true,
                Some(Constant::Class { .. }) => major >= 49,
                Some(Constant::MethodType { .. } | Constant::MethodHandle { .. }) => major >= 51,
                Some(Constant::Dynamic {
                    name_and_type_index,
                    ..
                }) => {
                    major >= 55
                        && cp
                            .name_and_type(*name_and_type_index)
                            .is_some_and(|(_, d)| is_field_descriptor(d) && d != "J" && d != "D")
                }
                _ => false,
            };
            if !ok {
                return Err(cp_error(pc, "loadable single-word constant", i));
            }
        }
        (op::LDC2_W, Operand::Cp(i)) => {
            let ok = match cp.get(i) {
                Some(Constant::Long(_) | Constant::Double(_)) => true,
                Some(Constant::Dynamic {
                    name_and_type_index,
                    ..
                }) => {
                    major >= 55
                        && cp
                            .name_and_type(*name_and_type_index)
                            .is_some_and(|(_, d)| d == "J" || d == "D")
                }
                _ => false,
            };
            if !ok {
                return Err(cp_error(pc, "long, double or dynamic constant", i));
            }
        }
        (op::GETSTATIC..=op::PUTFIELD, Operand::Cp(i)) => {
            let ok = matches!(cp.get(i), Some(Constant::FieldRef { .. }))
                && cp
                    .member_ref(i)
                    .is_some_and(|m| is_field_descriptor(m.descriptor));
            if !ok {
                return Err(cp_error(pc, "field reference", i));
            }
        }
        (op::INVOKEVIRTUAL..=op::INVOKESTATIC, Operand::Cp(i))
        | (op::INVOKEINTERFACE, Operand::InvokeInterface { cp: i, .. }) => {
            let kind_ok = match (insn.opcode, cp.get(i)) {
                (op::INVOKEVIRTUAL, Some(Constant::MethodRef { .. })) => true,
                (op::INVOKESPECIAL | op::INVOKESTATIC, Some(Constant::MethodRef { .. })) => true,
                (
                    op::INVOKESPECIAL | op::INVOKESTATIC,
                    Some(Constant::InterfaceMethodRef { .. }),
                ) => major >= 52,
                (op::INVOKEINTERFACE, Some(Constant::InterfaceMethodRef { .. })) => true,
                _ => false,
            };
            let m = match cp.member_ref(i) {
                Some(m) if kind_ok => m,
                _ => return Err(cp_error(pc, "method reference of the right kind", i)),
            };
            let Some((slots, ret)) = method_param_slots(m.descriptor) else {
                return Err(cp_error(pc, "method reference with a valid descriptor", i));
            };
            if m.name.starts_with('<') {
                let init_ok = m.name == "<init>"
                    && insn.opcode == op::INVOKESPECIAL
                    && ret == "V"
                    && matches!(cp.get(i), Some(Constant::MethodRef { .. }));
                if !init_ok {
                    return Err(bad(
                        pc as usize,
                        "Illegal call to internal method",
                        format!("Cannot invoke {} with {}", m.name, mnemonic(insn.opcode)),
                    ));
                }
            }
            let bad_count = match insn.operand {
                Operand::InvokeInterface { count, .. } => {
                    count == 0 || usize::from(count) != slots + 1
                }
                _ => false,
            };
            if bad_count {
                return Err(bad(
                    pc as usize,
                    "Inconsistent args count operand in invokeinterface",
                    "",
                ));
            }
            if m.class_name.starts_with('[') && !is_field_descriptor(m.class_name) {
                return Err(cp_error(pc, "method reference with a valid class", i));
            }
        }
        (op::INVOKEDYNAMIC, Operand::Cp(i)) => {
            let ok = major >= 51
                && match cp.get(i) {
                    Some(Constant::InvokeDynamic {
                        name_and_type_index,
                        ..
                    }) => cp
                        .name_and_type(*name_and_type_index)
                        .is_some_and(|(n, d)| {
                            !n.starts_with('<') && method_param_slots(d).is_some()
                        }),
                    _ => false,
                };
            if !ok {
                return Err(cp_error(pc, "invokedynamic constant", i));
            }
        }
        (op::NEW | op::ANEWARRAY | op::CHECKCAST | op::INSTANCEOF, Operand::Cp(i))
        | (op::MULTIANEWARRAY, Operand::MultiANewArray { cp: i, .. }) => {
            let Some(name) = cp.class_name(i) else {
                return Err(cp_error(pc, "class", i));
            };
            let dims = array_dimensions(name);
            if dims > 0 && !is_field_descriptor(name) {
                return Err(cp_error(pc, "valid class or array type", i));
            }
            match insn.operand {
                Operand::MultiANewArray { dims: d, .. } if d == 0 || dims < usize::from(d) => {
                    return Err(bad(
                        pc as usize,
                        "Illegal creation of multi-dimensional array",
                        "",
                    ));
                }
                _ if insn.opcode == op::NEW && dims > 0 => {
                    return Err(bad(
                        pc as usize,
                        "Illegal creation of an array with new",
                        "",
                    ));
                }
                _ if insn.opcode == op::ANEWARRAY && dims >= 255 => {
                    return Err(bad(pc as usize, "Array with too many dimensions", ""));
                }
                _ => {}
            }
        }
        (op::NEWARRAY, Operand::NewArray(t)) if !(4..=11).contains(&t) => {
            return Err(bad(
                pc as usize,
                "Illegal newarray instruction",
                format!("Bad atype {t}"),
            ));
        }
        _ => {}
    }
    Ok(())
}

/// Check the exception table against the decoded code: ranges non-empty and on
/// instruction boundaries, handler at an instruction, catch type a class.
pub fn check_exception_table(
    table: &[ExceptionHandler],
    decoded: &Decoded,
    code_len: usize,
    cp: &ConstantPool,
) -> Result<(), MethodError> {
    for h in table {
        let start = h.start_pc as usize;
        let end = h.end_pc as usize;
        let ok_range = start < end
            && decoded.is_start(start)
            && (end == code_len || (end < code_len && decoded.is_start(end)));
        // HotSpot's verifier reports these pcs as ClassFormatError.
        if !ok_range {
            return Err(MethodError::format(
                "Illegal exception table range",
                format!("Range [{start}, {end}) is not valid"),
            ));
        }
        if !decoded.is_start(h.handler_pc as usize) {
            return Err(MethodError::format(
                "Illegal exception table handler",
                format!(
                    "Handler {} is not the start of an instruction",
                    h.handler_pc
                ),
            ));
        }
        if h.catch_type != 0
            && cp
                .class_name(h.catch_type)
                .is_none_or(|n| n.starts_with('['))
        {
            return Err(MethodError::method(
                "Catch type is not a class",
                format!("Constant pool index {}", h.catch_type),
            ));
        }
    }
    Ok(())
}

/// Does control flow continue to the next instruction after `insn`?
pub fn falls_through(opcode: u8) -> bool {
    !matches!(
        opcode,
        op::GOTO | op::GOTO_W | op::TABLESWITCH | op::LOOKUPSWITCH | op::IRETURN
            ..=op::RETURN | op::ATHROW | op::RET
    )
}

/// For code without stack maps: no reachable instruction may fall off the end of
/// the code (a `jsr` is assumed to return to the following instruction).
pub fn check_no_fall_off(decoded: &Decoded, table: &[ExceptionHandler]) -> Result<(), MethodError> {
    let n = decoded.insns.len();
    let mut reached = vec![false; n];
    let mut work = vec![0usize];
    reached[0] = true;
    let push =
        |pc: usize, reached: &mut Vec<bool>, work: &mut Vec<usize>| match decoded.index_at(pc) {
            Some(i) if !reached[i] => {
                reached[i] = true;
                work.push(i);
            }
            _ => {}
        };
    while let Some(i) = work.pop() {
        let insn = decoded.insns[i];
        if falls_through(insn.opcode) {
            if i + 1 >= n {
                return Err(bad(insn.pc as usize, "Falling off the end of the code", ""));
            }
            let next = decoded.insns[i + 1].pc as usize;
            push(next, &mut reached, &mut work);
        }
        match insn.operand {
            Operand::Branch(t) => push(t as usize, &mut reached, &mut work),
            Operand::Switch {
                default,
                first,
                count,
            } => {
                push(default as usize, &mut reached, &mut work);
                for &(_, t) in decoded.switch(first, count) {
                    push(t as usize, &mut reached, &mut work);
                }
            }
            _ => {}
        }
        for h in table {
            if (h.start_pc..h.end_pc).contains(&insn.pc) {
                push(h.handler_pc as usize, &mut reached, &mut work);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use classfile::Utf8;

    fn utf8(s: &str) -> Constant {
        Constant::Utf8(Utf8::from_text(s))
    }

    /// cp: 1 Utf8 "java/lang/Object", 2 Class #1, 3 Utf8 "[I", 4 Class #3,
    /// 5 Utf8 "f", 6 Utf8 "I", 7 NameAndType 5/6, 8 FieldRef 2/7, 9 Integer 7,
    /// 10 Utf8 "<init>", 11 Utf8 "()V", 12 NameAndType 10/11, 13 MethodRef 2/12,
    /// 14 Utf8 "m", 15 Utf8 "(IJ)V", 16 NameAndType 14/15, 17 InterfaceMethodRef 2/16
    fn pool() -> ConstantPool {
        ConstantPool {
            entries: vec![
                Constant::Unusable,
                utf8("java/lang/Object"),
                Constant::Class { name_index: 1 },
                utf8("[I"),
                Constant::Class { name_index: 3 },
                utf8("f"),
                utf8("I"),
                Constant::NameAndType {
                    name_index: 5,
                    descriptor_index: 6,
                },
                Constant::FieldRef {
                    class_index: 2,
                    name_and_type_index: 7,
                },
                Constant::Integer(7),
                utf8("<init>"),
                utf8("()V"),
                Constant::NameAndType {
                    name_index: 10,
                    descriptor_index: 11,
                },
                Constant::MethodRef {
                    class_index: 2,
                    name_and_type_index: 12,
                },
                utf8("m"),
                utf8("(IJ)V"),
                Constant::NameAndType {
                    name_index: 14,
                    descriptor_index: 15,
                },
                Constant::InterfaceMethodRef {
                    class_index: 2,
                    name_and_type_index: 16,
                },
            ],
        }
    }

    fn dec(code: &[u8]) -> Result<Decoded, MethodError> {
        let cp = pool();
        decode(
            code,
            &StaticEnv {
                cp: &cp,
                major_version: 61,
                max_locals: 4,
            },
        )
    }

    fn headline(r: Result<Decoded, MethodError>) -> String {
        r.unwrap_err()
            .message
            .lines()
            .next()
            .unwrap_or("")
            .to_string()
    }

    #[test]
    fn decodes_simple_code() {
        let d = dec(&[0x03, 0x3c, 0x84, 1, 0xff, 0x1b, 0xac]).unwrap();
        assert_eq!(d.insns.len(), 5);
        assert_eq!(d.insns[1].operand, Operand::Local(1));
        assert_eq!(
            d.insns[2].operand,
            Operand::Iinc {
                index: 1,
                delta: -1
            }
        );
        assert!(d.is_start(5));
        assert!(!d.is_start(3));
        assert_eq!(mnemonic(d.insns[4].opcode), "ireturn");
    }

    #[test]
    fn rejects_bad_opcodes_and_truncation() {
        assert_eq!(headline(dec(&[0xca])), "Bad instruction");
        assert_eq!(headline(dec(&[0xff])), "Bad instruction");
        assert_eq!(headline(dec(&[0x10])), "Bad instruction");
        assert_eq!(headline(dec(&[0xc4, 0x60, 0, 1])), "Bad instruction");
        assert!(dec(&[]).is_err());
    }

    #[test]
    fn wide_forms() {
        let d = dec(&[0xc4, 0x15, 0, 3, 0xc4, 0x84, 0, 2, 0xff, 0xfe, 0xb1]).unwrap();
        assert_eq!(
            d.insns[0],
            Insn {
                pc: 0,
                opcode: op::ILOAD,
                operand: Operand::Local(3)
            }
        );
        assert_eq!(
            d.insns[1].operand,
            Operand::Iinc {
                index: 2,
                delta: -2
            }
        );
        assert_eq!(d.insns[2].pc, 10);
        assert_eq!(
            headline(dec(&[0xc4, 0x15, 0, 4, 0xb1])),
            "Illegal local variable number"
        );
    }

    #[test]
    fn branch_targets() {
        // goto +2 lands in the middle of nothing? code: goto 0x0002 -> pc 2 is the middle of the goto
        assert_eq!(
            headline(dec(&[0xa7, 0, 2, 0xb1])),
            "Illegal target of jump or branch"
        );
        assert_eq!(
            headline(dec(&[0xa7, 0, 9, 0xb1])),
            "Illegal target of jump or branch"
        );
        assert_eq!(
            headline(dec(&[0xa7, 0xff, 0xff, 0xb1])),
            "Illegal target of jump or branch"
        );
        assert!(dec(&[0xa7, 0, 3, 0xb1]).is_ok());
    }

    #[test]
    fn switches() {
        // iconst_0; tableswitch (pad 2) default=+19 low=0 high=0 [+19]; return at 20? compute:
        // pc0 iconst_0, pc1 tableswitch, base=4, default@4, low@8, high@12, jump@16, next pc 20
        let mut code = vec![0x03, 0xaa, 0, 0];
        code.extend_from_slice(&19i32.to_be_bytes());
        code.extend_from_slice(&0i32.to_be_bytes());
        code.extend_from_slice(&0i32.to_be_bytes());
        code.extend_from_slice(&19i32.to_be_bytes());
        code.push(0xb1);
        let d = dec(&code).unwrap();
        assert_eq!(d.insns.len(), 3);
        // low > high
        let mut bad_code = code.clone();
        bad_code[8..12].copy_from_slice(&5i32.to_be_bytes());
        assert!(dec(&bad_code).is_err());
        // lookupswitch with unsorted keys: pc1, base 4: default@4, npairs@8, pairs @12..28, next 28
        let mut ls = vec![0x03, 0xab, 0, 0];
        ls.extend_from_slice(&27i32.to_be_bytes());
        ls.extend_from_slice(&2i32.to_be_bytes());
        for key in [5i32, 3] {
            ls.extend_from_slice(&key.to_be_bytes());
            ls.extend_from_slice(&27i32.to_be_bytes());
        }
        ls.push(0xb1);
        assert_eq!(headline(dec(&ls)), "Bad lookupswitch instruction");
        ls[12..16].copy_from_slice(&1i32.to_be_bytes());
        assert!(dec(&ls).is_ok());
        // nonzero padding only matters before version 51
        ls[2] = 1;
        assert!(dec(&ls).is_ok());
        let cp = pool();
        assert!(
            decode(
                &ls,
                &StaticEnv {
                    cp: &cp,
                    major_version: 50,
                    max_locals: 4
                }
            )
            .is_err()
        );
    }

    #[test]
    fn constant_pool_kinds() {
        assert!(dec(&[0x12, 9, 0x57, 0xb1]).is_ok()); // ldc int
        assert_eq!(
            headline(dec(&[0x12, 1, 0xb1])),
            "Illegal type in constant pool"
        ); // ldc utf8
        assert_eq!(
            headline(dec(&[0x14, 0, 9, 0xb1])),
            "Illegal type in constant pool"
        ); // ldc2_w int
        assert_eq!(
            headline(dec(&[0xb2, 0, 2, 0xb1])),
            "Illegal type in constant pool"
        ); // getstatic class
        assert!(dec(&[0xb2, 0, 8, 0xb1]).is_ok());
        assert_eq!(
            headline(dec(&[0xbb, 0, 4, 0xb1])),
            "Illegal creation of an array with new"
        );
        assert!(dec(&[0xbb, 0, 2, 0xb1]).is_ok());
        assert_eq!(
            headline(dec(&[0xb6, 0, 13, 0xb1])),
            "Illegal call to internal method"
        ); // invokevirtual <init>
        assert!(dec(&[0xb7, 0, 13, 0xb1]).is_ok());
        assert_eq!(
            headline(dec(&[0xb6, 0, 17, 0xb1])),
            "Illegal type in constant pool"
        ); // invokevirtual imethod
        assert!(dec(&[0xb9, 0, 17, 4, 0, 0xb1]).is_ok());
        assert!(dec(&[0xb9, 0, 17, 3, 0, 0xb1]).is_err());
        assert!(dec(&[0xb9, 0, 17, 4, 1, 0xb1]).is_err());
        assert_eq!(
            headline(dec(&[0xc5, 0, 4, 2, 0xb1])),
            "Illegal creation of multi-dimensional array"
        );
        assert!(dec(&[0xc5, 0, 4, 1, 0xb1]).is_ok());
        assert!(dec(&[0xc5, 0, 4, 0, 0xb1]).is_err());
        assert!(dec(&[0xbc, 3, 0xb1]).is_err());
        assert!(dec(&[0xbc, 10, 0xb1]).is_ok());
        assert!(dec(&[0xa8, 0, 3, 0xb1]).is_err()); // jsr in version 61
    }

    #[test]
    fn exception_table_checks() {
        let cp = pool();
        // 0: iconst_0 1: pop 2: return
        let d = dec(&[0x03, 0x57, 0xb1]).unwrap();
        let h = |start, end, handler_pc, catch_type| ExceptionHandler {
            start_pc: start,
            end_pc: end,
            handler_pc,
            catch_type,
        };
        assert!(check_exception_table(&[h(0, 2, 2, 0)], &d, 3, &cp).is_ok());
        assert!(check_exception_table(&[h(0, 3, 2, 2)], &d, 3, &cp).is_ok());
        assert!(check_exception_table(&[h(1, 1, 2, 0)], &d, 3, &cp).is_err());
        assert!(check_exception_table(&[h(0, 4, 2, 0)], &d, 3, &cp).is_err());
        assert!(check_exception_table(&[h(0, 2, 3, 0)], &d, 3, &cp).is_err());
        assert!(check_exception_table(&[h(0, 2, 2, 1)], &d, 3, &cp).is_err());
        assert!(check_exception_table(&[h(0, 2, 2, 4)], &d, 3, &cp).is_err());
    }

    #[test]
    fn fall_off_reachability() {
        let d = dec(&[0x03, 0x99, 0, 3, 0xb1]).unwrap(); // iconst_0; ifeq +3 ; return
        assert!(check_no_fall_off(&d, &[]).is_ok());
        let d = dec(&[0x03, 0x57]).unwrap();
        assert!(check_no_fall_off(&d, &[]).is_err());
        // unreachable tail that falls off is fine
        let d = dec(&[0xb1, 0x00]).unwrap();
        assert!(check_no_fall_off(&d, &[]).is_ok());
    }
}
