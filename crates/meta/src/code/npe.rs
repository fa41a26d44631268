//! Helpful NullPointerException messages (JEP 358): describes, from a method's bytecode, which
//! value was null at a given instruction.
//!
//! The message has two parts. The *failed action* comes from the instruction at the faulting
//! bci ("Cannot invoke \"String.length()\"", "Cannot read field \"next\"", ...). The *null
//! source* comes from a small abstract interpretation of the method: for every instruction we
//! record a simulated operand stack whose slots remember which instruction pushed them (or
//! nothing, when paths disagree), plus which locals may have been written. The instruction that
//! pushed the null reference is then printed as a Java-like expression ("<local1>.next",
//! "Foo.bar()[<local2>]", ...).
//!
//! The simulation follows HotSpot 17's observable behaviour: linear passes over the code that
//! merge each instruction's outgoing stack into its successors, repeated until every instruction
//! has a stack or a pass adds none, and stopping early as soon as the faulting instruction has
//! been given a stack. Exception handlers start with a stack holding just the exception, and
//! are not merged from their protected ranges. Descriptions nest at most five instructions deep.
//!
//! Locals are named from the LocalVariableTable when there is one ([`LocalVar`]), otherwise as
//! HotSpot names them without debug info: "this", "<parameterN>" (a parameter slot not yet
//! written to on the way to the instruction) or "<localN>". The class file model does not keep
//! LocalVariableTable yet, so for now the table is always empty.

use crate::class::Method;
use classfile::opcodes as op;
use classfile::{Constant, ConstantPool};

/// How many instructions deep a null-source description may go.
const MAX_DETAIL: u32 = 5;

/// Upper bound on the total number of simulated stack slots created, against pathological code.
const MAX_ENTRIES: usize = 1_000_000;

/// Upper bound on the instructions visited while describing one value (index expressions do
/// not count against [`MAX_DETAIL`]).
const MAX_NODES: u32 = 256;

/// The extended message for an implicit NullPointerException raised at bytecode index `bci`
/// of `m`, or None when none applies (explicitly constructed NPEs, unknown instruction).
pub fn extended_message(m: &Method, bci: u32) -> Option<String> {
    if m.is_native() {
        return None;
    }
    let code = m.info.code.as_ref()?;
    let cp = &m.class.file.as_ref()?.constant_pool;
    let exc_handlers: Vec<u32> = code
        .exception_table
        .iter()
        .map(|h| u32::from(h.handler_pc))
        .collect();
    let vars: Vec<LocalVar<'_>> = code
        .local_variables
        .iter()
        .filter_map(|v| {
            Some(LocalVar {
                start: v.start_pc,
                length: v.length,
                slot: v.index,
                name: cp.utf8(v.name_index)?,
            })
        })
        .collect();
    let ctx = MethodCtx {
        code: &code.code,
        cp,
        is_static: m.is_static(),
        descriptor: &m.descriptor,
        local_vars: &vars,
    };
    message(&ctx, &exc_handlers, bci)
}

/// What the analysis needs to know about the method.
struct MethodCtx<'a> {
    code: &'a [u8],
    cp: &'a ConstantPool,
    is_static: bool,
    descriptor: &'a str,
    local_vars: &'a [LocalVar<'a>],
}

/// One LocalVariableTable entry: `name` is local `slot` for bcis `start..start + length`.
#[derive(Debug, Clone, Copy)]
pub struct LocalVar<'a> {
    pub start: u16,
    pub length: u16,
    pub slot: u16,
    pub name: &'a str,
}

fn message(ctx: &MethodCtx<'_>, handlers: &[u32], bci: u32) -> Option<String> {
    let bci = bci as usize;
    if bci >= ctx.code.len() {
        return None;
    }
    let slot = null_slot(ctx, bci)?;
    let mut msg = failed_action(ctx, bci)?;
    let analysis = Analysis::run(ctx, handlers, bci)?;
    let printer = Printer {
        ctx,
        analysis: &analysis,
    };
    if let Some((desc, is_invoke)) = printer.top_cause(bci, slot) {
        if is_invoke {
            msg.push_str(" because the return value of \"");
        } else {
            msg.push_str(" because \"");
        }
        msg.push_str(&desc);
        msg.push_str("\" is null");
    }
    Some(msg)
}

// ---------------------------------------------------------------------------------------------
// Bytecode reading helpers
// ---------------------------------------------------------------------------------------------

fn u1(code: &[u8], at: usize) -> Option<u8> {
    code.get(at).copied()
}

fn u2(code: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*code.get(at)?, *code.get(at + 1)?]))
}

fn i4(code: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_be_bytes([
        *code.get(at)?,
        *code.get(at + 1)?,
        *code.get(at + 2)?,
        *code.get(at + 3)?,
    ]))
}

/// `bci + offset` as a valid index into the code, or None.
fn branch_target(code: &[u8], bci: usize, offset: i64) -> Option<usize> {
    let t = i64::try_from(bci).ok()? + offset;
    let t = usize::try_from(t).ok()?;
    (t < code.len()).then_some(t)
}

/// Length in bytes of the instruction at `bci`.
fn insn_len(code: &[u8], bci: usize) -> Option<usize> {
    let opc = u1(code, bci)?;
    let len = match opc {
        op::BIPUSH | op::LDC | op::NEWARRAY => 2,
        op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE | op::RET => 2,
        op::SIPUSH | op::LDC_W | op::LDC2_W | op::IINC => 3,
        op::IFEQ..=op::JSR | op::IFNULL | op::IFNONNULL => 3,
        op::GETSTATIC..=op::INVOKESTATIC | op::NEW | op::ANEWARRAY | op::CHECKCAST => 3,
        op::INSTANCEOF => 3,
        op::MULTIANEWARRAY => 4,
        op::INVOKEINTERFACE | op::INVOKEDYNAMIC | op::GOTO_W | op::JSR_W => 5,
        op::TABLESWITCH => {
            let base = (bci + 4) & !3;
            let low = i64::from(i4(code, base + 4)?);
            let high = i64::from(i4(code, base + 8)?);
            if high < low {
                return None;
            }
            let n = usize::try_from(high - low + 1).ok()?;
            base + 12 + n.checked_mul(4)? - bci
        }
        op::LOOKUPSWITCH => {
            let base = (bci + 4) & !3;
            let n = usize::try_from(i4(code, base + 4)?).ok()?;
            base + 8 + n.checked_mul(8)? - bci
        }
        op::WIDE => match u1(code, bci + 1)? {
            op::IINC => 6,
            op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE | op::RET => 4,
            _ => return None,
        },
        0..=op::JSR_W => 1,
        _ => return None,
    };
    (bci + len <= code.len()).then_some(len)
}

/// Stack slots taken by a value of this descriptor type (0 for void).
fn type_slots(descriptor_char: u8) -> usize {
    match descriptor_char {
        b'J' | b'D' => 2,
        b'V' => 0,
        _ => 1,
    }
}

/// The parameter type descriptors of a method descriptor, and its return descriptor.
fn split_method_descriptor(desc: &str) -> Option<(Vec<&str>, &str)> {
    let rest = desc.strip_prefix('(')?;
    let close = rest.find(')')?;
    let (params, ret) = (&rest[..close], &rest[close + 1..]);
    let bytes = params.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while bytes.get(i) == Some(&b'[') {
            i += 1;
        }
        match bytes.get(i)? {
            b'L' => i += params[i..].find(';')? + 1,
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => i += 1,
            _ => return None,
        }
        out.push(&params[start..i]);
    }
    if ret.is_empty() {
        return None;
    }
    Some((out, ret))
}

/// Stack slots taken by a method's arguments (without the receiver), and by its result.
fn call_slots(desc: &str) -> Option<(usize, usize)> {
    let (params, ret) = split_method_descriptor(desc)?;
    let args = params
        .iter()
        .map(|p| type_slots(p.as_bytes()[0]).max(1))
        .sum();
    Some((args, type_slots(ret.as_bytes()[0])))
}

/// The descriptor of the field or method referenced at `idx`, for invokedynamic too.
fn ref_descriptor(cp: &ConstantPool, idx: u16) -> Option<&str> {
    if let Some(r) = cp.member_ref(idx) {
        return Some(r.descriptor);
    }
    match cp.get(idx)? {
        Constant::InvokeDynamic {
            name_and_type_index,
            ..
        }
        | Constant::Dynamic {
            name_and_type_index,
            ..
        } => cp.name_and_type(*name_and_type_index).map(|(_, d)| d),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Failed action and null slot
// ---------------------------------------------------------------------------------------------

/// The operand stack slot (0 = top) that holds the null reference when the instruction at
/// `bci` throws, or None when it cannot throw an implicit NPE (or constructs one explicitly).
fn null_slot(ctx: &MethodCtx<'_>, bci: usize) -> Option<usize> {
    let code = ctx.code;
    match u1(code, bci)? {
        op::IALOAD..=op::SALOAD => Some(1),
        op::IASTORE | op::FASTORE | op::AASTORE | op::BASTORE | op::CASTORE | op::SASTORE => {
            Some(2)
        }
        op::LASTORE | op::DASTORE => Some(3),
        op::ARRAYLENGTH | op::ATHROW | op::MONITORENTER | op::MONITOREXIT | op::GETFIELD => Some(0),
        op::PUTFIELD => {
            let r = ctx.cp.member_ref(u2(code, bci + 1)?)?;
            Some(type_slots(*r.descriptor.as_bytes().first()?))
        }
        op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKEINTERFACE => {
            let r = ctx.cp.member_ref(u2(code, bci + 1)?)?;
            if r.name == "<init>" {
                // A constructor call never dereferences null in Java code: this is where an
                // explicitly constructed NPE got its stack trace.
                return None;
            }
            call_slots(r.descriptor).map(|(args, _)| args)
        }
        _ => None,
    }
}

/// The first part of the message, describing what the instruction at `bci` failed to do.
fn failed_action(ctx: &MethodCtx<'_>, bci: usize) -> Option<String> {
    let code = ctx.code;
    let s = match u1(code, bci)? {
        op::IALOAD => "Cannot load from int array".to_string(),
        op::LALOAD => "Cannot load from long array".to_string(),
        op::FALOAD => "Cannot load from float array".to_string(),
        op::DALOAD => "Cannot load from double array".to_string(),
        op::AALOAD => "Cannot load from object array".to_string(),
        op::BALOAD => "Cannot load from byte/boolean array".to_string(),
        op::CALOAD => "Cannot load from char array".to_string(),
        op::SALOAD => "Cannot load from short array".to_string(),
        op::IASTORE => "Cannot store to int array".to_string(),
        op::LASTORE => "Cannot store to long array".to_string(),
        op::FASTORE => "Cannot store to float array".to_string(),
        op::DASTORE => "Cannot store to double array".to_string(),
        op::AASTORE => "Cannot store to object array".to_string(),
        op::BASTORE => "Cannot store to byte/boolean array".to_string(),
        op::CASTORE => "Cannot store to char array".to_string(),
        op::SASTORE => "Cannot store to short array".to_string(),
        op::ARRAYLENGTH => "Cannot read the array length".to_string(),
        op::ATHROW => "Cannot throw exception".to_string(),
        op::MONITORENTER => "Cannot enter synchronized block".to_string(),
        op::MONITOREXIT => "Cannot exit synchronized block".to_string(),
        op::GETFIELD => {
            let r = ctx.cp.member_ref(u2(code, bci + 1)?)?;
            format!("Cannot read field \"{}\"", r.name)
        }
        op::PUTFIELD => {
            let r = ctx.cp.member_ref(u2(code, bci + 1)?)?;
            format!("Cannot assign field \"{}\"", r.name)
        }
        op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKEINTERFACE => {
            format!(
                "Cannot invoke \"{}\"",
                method_name(ctx.cp, u2(code, bci + 1)?)?
            )
        }
        _ => return None,
    };
    Some(s)
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/// A class name as HotSpot prints it in these messages: external form ("java.util.List",
/// "[Ljava.lang.String;"), with java.lang.Object and java.lang.String shortened.
fn class_name(internal: &str) -> String {
    let external = internal.replace('/', ".");
    match external.as_str() {
        "java.lang.Object" => "Object".to_string(),
        "java.lang.String" => "String".to_string(),
        _ => external,
    }
}

/// A field type descriptor as a Java type name ("int", "String", "pk.Q[]").
fn type_name(desc: &str) -> Option<String> {
    let dims = desc.bytes().take_while(|&b| b == b'[').count();
    let elem = &desc[dims..];
    let mut s = match elem.as_bytes().first()? {
        b'B' => "byte".to_string(),
        b'C' => "char".to_string(),
        b'D' => "double".to_string(),
        b'F' => "float".to_string(),
        b'I' => "int".to_string(),
        b'J' => "long".to_string(),
        b'S' => "short".to_string(),
        b'Z' => "boolean".to_string(),
        b'L' => class_name(elem.strip_prefix('L')?.strip_suffix(';')?),
        _ => return None,
    };
    for _ in 0..dims {
        s.push_str("[]");
    }
    Some(s)
}

/// "Class.method(ParamType, ...)" for the method referenced at `idx`.
fn method_name(cp: &ConstantPool, idx: u16) -> Option<String> {
    let r = cp.member_ref(idx)?;
    let (params, _) = split_method_descriptor(r.descriptor)?;
    let params = params
        .iter()
        .map(|p| type_name(p))
        .collect::<Option<Vec<_>>>()?;
    Some(format!(
        "{}.{}({})",
        class_name(r.class_name),
        r.name,
        params.join(", ")
    ))
}

/// The name of local variable `slot` as loaded by the instruction at `bci`: from the
/// LocalVariableTable if it covers it, otherwise "this", "<parameterN>" or "<localN>";
/// `is_parameter` is false once the slot may have been written to.
fn local_name(ctx: &MethodCtx<'_>, bci: usize, slot: usize, is_parameter: bool) -> String {
    if let Some(v) = ctx.local_vars.iter().find(|v| {
        let start = usize::from(v.start);
        usize::from(v.slot) == slot && bci >= start && bci < start + usize::from(v.length)
    }) {
        return v.name.to_string();
    }
    if !ctx.is_static && slot == 0 && is_parameter {
        return "this".to_string();
    }
    if is_parameter && let Some((params, _)) = split_method_descriptor(ctx.descriptor) {
        let mut curr = usize::from(!ctx.is_static);
        for (i, p) in params.iter().enumerate() {
            let size = type_slots(p.as_bytes()[0]).max(1);
            if slot >= curr && slot < curr + size {
                return format!("<parameter{}>", i + 1);
            }
            curr += size;
        }
    }
    format!("<local{slot}>")
}

// ---------------------------------------------------------------------------------------------
// Simulation
// ---------------------------------------------------------------------------------------------

/// A simulated operand stack: for each slot, the bci of the instruction that pushed it (None
/// when unknown or when merged paths disagree), and the locals (below 64) possibly written.
#[derive(Clone, Debug, Default, PartialEq)]
struct SimStack {
    slots: Vec<Option<u32>>,
    written: u64,
}

impl SimStack {
    fn push(&mut self, bci: usize, n: usize) {
        for _ in 0..n {
            self.slots.push(Some(bci as u32));
        }
    }

    fn pop(&mut self, n: usize) -> Option<()> {
        let len = self.slots.len().checked_sub(n)?;
        self.slots.truncate(len);
        Some(())
    }

    fn write_local(&mut self, slot: usize) {
        if slot < 64 {
            self.written |= 1 << slot;
        }
    }

    /// Slots of 64 and above are not tracked and count as written.
    fn local_written(&self, slot: usize) -> bool {
        slot >= 64 || self.written & (1 << slot) != 0
    }

    /// The source of slot `depth` (0 = top).
    fn get(&self, depth: usize) -> Option<u32> {
        let i = self.slots.len().checked_sub(depth + 1)?;
        self.slots[i]
    }

    fn merge(&mut self, other: &SimStack) -> Option<()> {
        if self.slots.len() != other.slots.len() {
            return None;
        }
        for (a, b) in self.slots.iter_mut().zip(&other.slots) {
            if *a != *b {
                *a = None;
            }
        }
        self.written |= other.written;
        Some(())
    }
}

/// The simulated stacks at each instruction reached before the analysis stopped.
struct Analysis {
    stacks: Vec<Option<SimStack>>,
}

/// What follows an instruction.
struct Flow {
    len: usize,
    /// False when control never falls through to the next instruction.
    falls_through: bool,
    targets: Vec<usize>,
    /// For jsr: the stack (without the return address) with which the next instruction is
    /// reached once the subroutine returns.
    after_jsr: Option<SimStack>,
}

impl Analysis {
    fn run(ctx: &MethodCtx<'_>, handlers: &[u32], bci: usize) -> Option<Analysis> {
        let code = ctx.code;
        let mut a = Analysis {
            stacks: vec![None; code.len() + 1],
        };
        let mut entries = 0usize;
        a.stacks[0] = Some(SimStack::default());
        for &h in handlers {
            let h = h as usize;
            if h < code.len() && a.stacks[h].is_none() {
                let mut s = SimStack::default();
                s.push(h, 1);
                a.stacks[h] = Some(s);
            }
        }
        let mut all_processed = false;
        let mut added_one = true;
        'passes: while !all_processed && added_one {
            all_processed = true;
            added_one = false;
            let mut i = 0;
            while i < code.len() {
                let len = insn_len(code, i)?;
                match a.stacks[i].clone() {
                    None => all_processed = false,
                    Some(mut stack) => {
                        let flow = simulate(ctx, i, &mut stack)?;
                        debug_assert_eq!(flow.len, len);
                        let mut dests: Vec<(usize, &SimStack)> = Vec::new();
                        if flow.falls_through {
                            dests.push((i + len, &stack));
                        }
                        if let Some(after) = &flow.after_jsr {
                            dests.push((i + len, after));
                        }
                        dests.extend(flow.targets.iter().map(|&t| (t, &stack)));
                        for (d, st) in dests {
                            let slot = a.stacks.get_mut(d)?;
                            match slot {
                                Some(existing) => existing.merge(st)?,
                                None => {
                                    added_one = true;
                                    entries += st.slots.len();
                                    *slot = Some(st.clone());
                                }
                            }
                        }
                    }
                }
                i += len;
                if i == bci && a.stacks[i].is_some() {
                    break 'passes;
                }
                if entries > MAX_ENTRIES {
                    break 'passes;
                }
            }
        }
        Some(a)
    }
}

/// Applies the instruction at `bci` to `s`; returns its control flow, or None on bytecode it
/// does not understand.
fn simulate(ctx: &MethodCtx<'_>, bci: usize, s: &mut SimStack) -> Option<Flow> {
    let code = ctx.code;
    let len = insn_len(code, bci)?;
    let opc = code[bci];
    let mut flow = Flow {
        len,
        falls_through: true,
        targets: Vec::new(),
        after_jsr: None,
    };
    // (slots popped, slots pushed): the class-file crate's table, but for what also writes a
    // local, branches, or ends the block, and for checkcast, whose result keeps its source.
    let (pop, push): (usize, usize) = match opc {
        op::CHECKCAST => (0, 0),
        op::ISTORE | op::FSTORE | op::ASTORE => {
            s.write_local(usize::from(u1(code, bci + 1)?));
            (1, 0)
        }
        op::LSTORE | op::DSTORE => {
            let n = usize::from(u1(code, bci + 1)?);
            s.write_local(n);
            s.write_local(n + 1);
            (2, 0)
        }
        op::ISTORE_0..=op::ISTORE_3 => {
            s.write_local(usize::from(opc - op::ISTORE_0));
            (1, 0)
        }
        op::FSTORE_0..=op::FSTORE_3 => {
            s.write_local(usize::from(opc - op::FSTORE_0));
            (1, 0)
        }
        op::ASTORE_0..=op::ASTORE_3 => {
            s.write_local(usize::from(opc - op::ASTORE_0));
            (1, 0)
        }
        op::LSTORE_0..=op::LSTORE_3 => {
            let n = usize::from(opc - op::LSTORE_0);
            s.write_local(n);
            s.write_local(n + 1);
            (2, 0)
        }
        op::DSTORE_0..=op::DSTORE_3 => {
            let n = usize::from(opc - op::DSTORE_0);
            s.write_local(n);
            s.write_local(n + 1);
            (2, 0)
        }
        op::DUP..=op::SWAP => {
            stack_shuffle(opc, &mut s.slots)?;
            (0, 0)
        }
        op::IFEQ..=op::IFLE | op::IFNULL | op::IFNONNULL => {
            let off = i64::from(u2(code, bci + 1)? as i16);
            flow.targets.push(branch_target(code, bci, off)?);
            (1, 0)
        }
        op::IF_ICMPEQ..=op::IF_ACMPNE => {
            let off = i64::from(u2(code, bci + 1)? as i16);
            flow.targets.push(branch_target(code, bci, off)?);
            (2, 0)
        }
        op::GOTO | op::GOTO_W => {
            let off = if opc == op::GOTO {
                i64::from(u2(code, bci + 1)? as i16)
            } else {
                i64::from(i4(code, bci + 1)?)
            };
            flow.targets.push(branch_target(code, bci, off)?);
            flow.falls_through = false;
            (0, 0)
        }
        op::JSR | op::JSR_W => {
            // The subroutine starts with the return address pushed; the code after the jsr
            // continues (after the subroutine returns) with the stack as it was.
            let off = if opc == op::JSR {
                i64::from(u2(code, bci + 1)? as i16)
            } else {
                i64::from(i4(code, bci + 1)?)
            };
            let target = branch_target(code, bci, off)?;
            flow.targets.push(target);
            flow.falls_through = false;
            flow.after_jsr = Some(s.clone());
            (0, 1)
        }
        op::RET => {
            flow.falls_through = false;
            (0, 0)
        }
        op::TABLESWITCH => {
            let base = (bci + 4) & !3;
            flow.targets
                .push(branch_target(code, bci, i64::from(i4(code, base)?))?);
            let low = i64::from(i4(code, base + 4)?);
            let high = i64::from(i4(code, base + 8)?);
            for k in 0..(high - low + 1) {
                let at = base + 12 + usize::try_from(k).ok()? * 4;
                flow.targets
                    .push(branch_target(code, bci, i64::from(i4(code, at)?))?);
            }
            flow.falls_through = false;
            (1, 0)
        }
        op::LOOKUPSWITCH => {
            let base = (bci + 4) & !3;
            flow.targets
                .push(branch_target(code, bci, i64::from(i4(code, base)?))?);
            let n = usize::try_from(i4(code, base + 4)?).ok()?;
            for k in 0..n {
                let at = base + 8 + k * 8 + 4;
                flow.targets
                    .push(branch_target(code, bci, i64::from(i4(code, at)?))?);
            }
            flow.falls_through = false;
            (1, 0)
        }
        op::IRETURN..=op::RETURN | op::ATHROW => {
            flow.falls_through = false;
            (0, 0)
        }
        op::GETSTATIC | op::PUTSTATIC | op::GETFIELD | op::PUTFIELD => {
            let desc = ref_descriptor(ctx.cp, u2(code, bci + 1)?)?;
            let size = type_slots(*desc.as_bytes().first()?);
            match opc {
                op::GETSTATIC => (0, size),
                op::PUTSTATIC => (size, 0),
                op::GETFIELD => (1, size),
                _ => (1 + size, 0),
            }
        }
        op::INVOKEVIRTUAL..=op::INVOKEDYNAMIC => {
            let desc = ref_descriptor(ctx.cp, u2(code, bci + 1)?)?;
            let (args, ret) = call_slots(desc)?;
            let receiver = usize::from(opc != op::INVOKESTATIC && opc != op::INVOKEDYNAMIC);
            (args + receiver, ret)
        }
        op::MULTIANEWARRAY => (usize::from(u1(code, bci + 3)?), 1),
        op::WIDE => {
            let inner = u1(code, bci + 1)?;
            let n = usize::from(u2(code, bci + 2)?);
            match inner {
                op::ILOAD | op::FLOAD | op::ALOAD => (0, 1),
                op::LLOAD | op::DLOAD => (0, 2),
                op::ISTORE | op::FSTORE | op::ASTORE => {
                    s.write_local(n);
                    (1, 0)
                }
                op::LSTORE | op::DSTORE => {
                    s.write_local(n);
                    s.write_local(n + 1);
                    (2, 0)
                }
                op::IINC => (0, 0),
                op::RET => {
                    flow.falls_through = false;
                    (0, 0)
                }
                _ => return None,
            }
        }
        _ => {
            let (pop, push) = op::stack_effect(opc)?;
            (usize::from(pop), usize::from(push))
        }
    };
    if opc == op::ATHROW || (op::IRETURN..=op::RETURN).contains(&opc) {
        // The operands do not matter: nothing follows.
        return Some(flow);
    }
    s.pop(pop)?;
    s.push(bci, push);
    Some(flow)
}

/// The dup/swap family, on slots (a long or double takes two).
fn stack_shuffle(opc: u8, v: &mut Vec<Option<u32>>) -> Option<()> {
    let (pops, order) = op::shuffle(opc)?;
    let base = v.len().checked_sub(pops)?;
    // What was popped, the top first.
    let popped: Vec<Option<u32>> = v[base..].iter().rev().copied().collect();
    v.truncate(base);
    v.extend(order.iter().map(|&i| popped[usize::from(i)]));
    Some(())
}

// ---------------------------------------------------------------------------------------------
// Describing the null source
// ---------------------------------------------------------------------------------------------

struct Printer<'a> {
    ctx: &'a MethodCtx<'a>,
    analysis: &'a Analysis,
}

impl Printer<'_> {
    /// The description of stack slot `slot` at `bci`, and whether it is a method's return
    /// value (printed as "the return value of ...").
    fn top_cause(&self, bci: usize, slot: usize) -> Option<(String, bool)> {
        let src = self.source(bci, slot)?;
        let is_invoke = matches!(
            self.ctx.code[src],
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC | op::INVOKEINTERFACE
        );
        let mut out = String::new();
        self.describe(&mut out, bci, slot, MAX_DETAIL, MAX_NODES)?;
        Some((out, is_invoke))
    }

    /// The bci of the instruction that pushed stack slot `slot` (0 = top) at `bci`.
    fn source(&self, bci: usize, slot: usize) -> Option<usize> {
        let stack = self.analysis.stacks.get(bci)?.as_ref()?;
        let src = stack.get(slot)? as usize;
        (src < self.ctx.code.len()).then_some(src)
    }

    /// Appends a Java-like expression for stack slot `slot` at `bci`; None when it cannot be
    /// described. `detail` limits the nesting of array and field sources (index expressions
    /// keep their array access's limit); `fuel` guards against cycles in odd bytecode.
    fn describe(
        &self,
        out: &mut String,
        bci: usize,
        slot: usize,
        detail: u32,
        fuel: u32,
    ) -> Option<()> {
        let mark = out.len();
        let r = self.describe_inner(out, bci, slot, detail, fuel);
        if r.is_none() {
            out.truncate(mark);
        }
        r
    }

    fn describe_inner(
        &self,
        out: &mut String,
        bci: usize,
        slot: usize,
        detail: u32,
        fuel: u32,
    ) -> Option<()> {
        if detail == 0 || fuel == 0 {
            return None;
        }
        let stack = self.analysis.stacks.get(bci)?.as_ref()?;
        let src = stack.get(slot)? as usize;
        let code = self.ctx.code;
        let opc = *code.get(src)?;
        let local = |n: usize, out: &mut String| {
            out.push_str(&local_name(self.ctx, src, n, !stack.local_written(n)));
        };
        match opc {
            op::ILOAD | op::LLOAD | op::FLOAD | op::DLOAD | op::ALOAD => {
                local(usize::from(u1(code, src + 1)?), out)
            }
            op::ILOAD_0..=op::ALOAD_3 => local(usize::from((opc - op::ILOAD_0) % 4), out),
            op::WIDE => match u1(code, src + 1)? {
                op::ILOAD..=op::ALOAD => local(usize::from(u2(code, src + 2)?), out),
                _ => return None,
            },
            op::ACONST_NULL => out.push_str("null"),
            op::ICONST_M1..=op::ICONST_5 => {
                out.push_str(&(i32::from(opc) - i32::from(op::ICONST_0)).to_string())
            }
            op::BIPUSH => out.push_str(&(u1(code, src + 1)? as i8).to_string()),
            op::SIPUSH => out.push_str(&(u2(code, src + 1)? as i16).to_string()),
            op::IALOAD..=op::SALOAD => {
                if self.describe(out, src, 1, detail - 1, fuel - 1).is_none() {
                    out.push_str("<array>");
                }
                out.push('[');
                if self.describe(out, src, 0, detail, fuel - 1).is_none() {
                    out.push_str("...");
                }
                out.push(']');
            }
            op::GETSTATIC => {
                let r = self.ctx.cp.member_ref(u2(code, src + 1)?)?;
                out.push_str(&class_name(r.class_name));
                out.push('.');
                out.push_str(r.name);
            }
            op::GETFIELD => {
                let r = self.ctx.cp.member_ref(u2(code, src + 1)?)?;
                if self.describe(out, src, 0, detail - 1, fuel - 1).is_some() {
                    out.push('.');
                }
                out.push_str(r.name);
            }
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC | op::INVOKEINTERFACE => {
                out.push_str(&method_name(self.ctx.cp, u2(code, src + 1)?)?);
            }
            _ => return None,
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use classfile::Utf8;

    /// A constant pool builder for hand-written bytecode.
    struct Pool(Vec<Constant>);

    impl Pool {
        fn new() -> Pool {
            Pool(vec![Constant::Unusable])
        }

        fn add(&mut self, c: Constant) -> u16 {
            self.0.push(c);
            (self.0.len() - 1) as u16
        }

        fn utf8(&mut self, s: &str) -> u16 {
            self.add(Constant::Utf8(Utf8::from_text(s)))
        }

        fn class(&mut self, name: &str) -> u16 {
            let name_index = self.utf8(name);
            self.add(Constant::Class { name_index })
        }

        fn nat(&mut self, name: &str, desc: &str) -> u16 {
            let name_index = self.utf8(name);
            let descriptor_index = self.utf8(desc);
            self.add(Constant::NameAndType {
                name_index,
                descriptor_index,
            })
        }

        fn field(&mut self, class: &str, name: &str, desc: &str) -> u16 {
            let class_index = self.class(class);
            let name_and_type_index = self.nat(name, desc);
            self.add(Constant::FieldRef {
                class_index,
                name_and_type_index,
            })
        }

        fn method(&mut self, class: &str, name: &str, desc: &str) -> u16 {
            let class_index = self.class(class);
            let name_and_type_index = self.nat(name, desc);
            self.add(Constant::MethodRef {
                class_index,
                name_and_type_index,
            })
        }

        fn finish(self) -> ConstantPool {
            ConstantPool { entries: self.0 }
        }
    }

    fn hi(i: u16) -> u8 {
        (i >> 8) as u8
    }

    fn lo(i: u16) -> u8 {
        i as u8
    }

    fn msg_full(
        code: &[u8],
        cp: &ConstantPool,
        is_static: bool,
        desc: &str,
        handlers: &[u32],
        vars: &[LocalVar<'_>],
        bci: u32,
    ) -> Option<String> {
        let ctx = MethodCtx {
            code,
            cp,
            is_static,
            descriptor: desc,
            local_vars: vars,
        };
        message(&ctx, handlers, bci)
    }

    fn msg(
        code: &[u8],
        cp: &ConstantPool,
        is_static: bool,
        desc: &str,
        bci: u32,
    ) -> Option<String> {
        msg_full(code, cp, is_static, desc, &[], &[], bci)
    }

    #[test]
    fn getfield_on_parameter_and_this() {
        let mut p = Pool::new();
        let next = p.field("pk/Node", "next", "Lpk/Node;");
        let name = p.field("pk/Node", "name", "Ljava/lang/String;");
        let cp = p.finish();
        // aload_0; getfield next; getfield name; areturn
        let code = [
            0x2a,
            op::GETFIELD,
            hi(next),
            lo(next),
            op::GETFIELD,
            hi(name),
            lo(name),
            0xb0,
        ];
        assert_eq!(
            msg(&code, &cp, true, "(Lpk/Node;)Ljava/lang/String;", 1).as_deref(),
            Some("Cannot read field \"next\" because \"<parameter1>\" is null")
        );
        assert_eq!(
            msg(&code, &cp, true, "(Lpk/Node;)Ljava/lang/String;", 4).as_deref(),
            Some("Cannot read field \"name\" because \"<parameter1>.next\" is null")
        );
        assert_eq!(
            msg(&code, &cp, false, "()Ljava/lang/String;", 4).as_deref(),
            Some("Cannot read field \"name\" because \"this.next\" is null")
        );
        // Not an instruction that can throw an NPE.
        assert_eq!(
            msg(&code, &cp, true, "(Lpk/Node;)Ljava/lang/String;", 0),
            None
        );
        // Out of range.
        assert_eq!(
            msg(&code, &cp, true, "(Lpk/Node;)Ljava/lang/String;", 100),
            None
        );
    }

    #[test]
    fn throw_null_and_written_local() {
        let cp = Pool::new().finish();
        // aconst_null; athrow
        let code = [op::ACONST_NULL, op::ATHROW];
        assert_eq!(
            msg(&code, &cp, true, "()V", 1).as_deref(),
            Some("Cannot throw exception because \"null\" is null")
        );
        // aconst_null; astore_0; aload_0; monitorenter; return
        let code = [op::ACONST_NULL, 0x4b, 0x2a, op::MONITORENTER, op::RETURN];
        assert_eq!(
            msg(&code, &cp, true, "(Ljava/lang/Object;)V", 3).as_deref(),
            Some("Cannot enter synchronized block because \"<local0>\" is null")
        );
        // Slot 1 is the second half of the long parameter; slot 2 the String one.
        // aload_2; monitorexit; return
        let code = [0x2c, op::MONITOREXIT, op::RETURN];
        assert_eq!(
            msg(&code, &cp, true, "(JLjava/lang/String;)V", 1).as_deref(),
            Some("Cannot exit synchronized block because \"<parameter2>\" is null")
        );
    }

    #[test]
    fn invoke_receivers_and_return_values() {
        let mut p = Pool::new();
        let make = p.method("Foo", "make", "()[[I");
        let len = p.method("java/lang/String", "indexOf", "(Ljava/lang/String;I)I");
        let init = p.method("java/lang/NullPointerException", "<init>", "()V");
        let npe = p.class("java/lang/NullPointerException");
        let cp = p.finish();
        // invokestatic make; iconst_2; aaload; iconst_0; iaload; ireturn
        let code = [
            op::INVOKESTATIC,
            hi(make),
            lo(make),
            op::ICONST_2,
            op::AALOAD,
            op::ICONST_0,
            op::IALOAD,
            op::IRETURN,
        ];
        assert_eq!(
            msg(&code, &cp, true, "()I", 4).as_deref(),
            Some(
                "Cannot load from object array because the return value of \"Foo.make()\" is null"
            )
        );
        assert_eq!(
            msg(&code, &cp, true, "()I", 6).as_deref(),
            Some("Cannot load from int array because \"Foo.make()[2]\" is null")
        );
        // aload_0; aload_1; bipush 7; invokevirtual indexOf; ireturn
        let code = [
            0x2a,
            0x2b,
            op::BIPUSH,
            7,
            op::INVOKEVIRTUAL,
            hi(len),
            lo(len),
            op::IRETURN,
        ];
        assert_eq!(
            msg(
                &code,
                &cp,
                true,
                "(Ljava/lang/String;Ljava/lang/String;)I",
                4
            )
            .as_deref(),
            Some("Cannot invoke \"String.indexOf(String, int)\" because \"<parameter1>\" is null")
        );
        // new NPE; dup; invokespecial <init>; athrow: explicitly constructed.
        let code = [
            op::NEW,
            hi(npe),
            lo(npe),
            op::DUP,
            op::INVOKESPECIAL,
            hi(init),
            lo(init),
            op::ATHROW,
        ];
        assert_eq!(msg(&code, &cp, true, "()V", 4), None);
    }

    #[test]
    fn shuffles_move_the_sources_with_the_slots() {
        let cp = Pool::new().finish();
        let want = Some("Cannot read the array length because \"<parameter2>\" is null");
        // aload_1; aload_0; swap; arraylength; ireturn
        let code = [0x2b, 0x2a, op::SWAP, op::ARRAYLENGTH, op::IRETURN];
        assert_eq!(msg(&code, &cp, true, "([I[I)I", 3).as_deref(), want);
        // aload_0; aload_1; dup_x1; pop; pop; arraylength; ireturn
        let code = [
            0x2a,
            0x2b,
            op::DUP_X1,
            op::POP,
            op::POP,
            op::ARRAYLENGTH,
            op::IRETURN,
        ];
        assert_eq!(msg(&code, &cp, true, "([I[I)I", 5).as_deref(), want);
    }

    #[test]
    fn merged_sources_and_indexes() {
        let cp = Pool::new().finish();
        // 0 iload_0; 1 ifeq 8; 4 aload_1; 5 goto 9; 8 aload_2; 9 arraylength; 10 ireturn
        let code = [
            0x1a,
            op::IFEQ,
            0,
            7,
            0x2b,
            op::GOTO,
            0,
            4,
            0x2c,
            op::ARRAYLENGTH,
            op::IRETURN,
        ];
        assert_eq!(
            msg(&code, &cp, true, "(I[I[I)I", 9).as_deref(),
            Some("Cannot read the array length")
        );
        // aload_1; iload_0; iload_0; iadd; aaload; sipush 300; iaload; ireturn
        let code = [
            0x2b,
            0x1a,
            0x1a,
            op::IADD,
            op::AALOAD,
            op::SIPUSH,
            1,
            44,
            op::IALOAD,
            op::IRETURN,
        ];
        assert_eq!(
            msg(&code, &cp, true, "(I[[I)I", 8).as_deref(),
            Some("Cannot load from int array because \"<parameter2>[...]\" is null")
        );
        // aload_1; iload_0; aaload; iconst_m1; lconst_1; lastore
        let code = [
            0x2b,
            0x1a,
            op::AALOAD,
            op::ICONST_M1,
            op::LCONST_1,
            op::LASTORE,
            op::RETURN,
        ];
        assert_eq!(
            msg(&code, &cp, true, "(I[[J)V", 5).as_deref(),
            Some("Cannot store to long array because \"<parameter2>[<parameter1>]\" is null")
        );
    }

    #[test]
    fn handlers_and_local_variable_table() {
        let cp = Pool::new().finish();
        // 0 aload_0; 1 arraylength; 2 ireturn; 3 (handler) astore_1; 4 aload_0; 5 arraylength; 6 ireturn
        let code = [
            0x2a,
            op::ARRAYLENGTH,
            op::IRETURN,
            0x4c,
            0x2a,
            op::ARRAYLENGTH,
            op::IRETURN,
        ];
        assert_eq!(
            msg_full(&code, &cp, true, "([I)I", &[3], &[], 5).as_deref(),
            Some("Cannot read the array length because \"<parameter1>\" is null")
        );
        let vars = [LocalVar {
            start: 0,
            length: 7,
            slot: 0,
            name: "values",
        }];
        assert_eq!(
            msg_full(&code, &cp, true, "([I)I", &[3], &vars, 5).as_deref(),
            Some("Cannot read the array length because \"values\" is null")
        );
    }

    #[test]
    fn detail_limit() {
        let mut p = Pool::new();
        let next = p.field("N", "next", "LN;");
        let cp = p.finish();
        let mut code = vec![0x2a];
        for _ in 0..6 {
            code.extend([op::GETFIELD, hi(next), lo(next)]);
        }
        code.push(0xb0);
        // The sixth getfield reads through five others and the load of `this`.
        assert_eq!(
            msg(&code, &cp, false, "()LN;", 16).as_deref(),
            Some("Cannot read field \"next\" because \"next.next.next.next.next\" is null")
        );
        assert_eq!(
            msg(&code, &cp, false, "()LN;", 13).as_deref(),
            Some("Cannot read field \"next\" because \"this.next.next.next.next\" is null")
        );
    }

    #[test]
    fn garbage_never_panics() {
        let mut p = Pool::new();
        let f = p.field("A", "f", "J");
        let m = p.method("A", "m", "(JD)Ljava/lang/Object;");
        let cp = p.finish();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for round in 0..2000 {
            let len = 1 + (round % 40);
            let code: Vec<u8> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match seed % 5 {
                        0 => lo(f),
                        1 => lo(m),
                        2 => 0,
                        _ => (seed >> 8) as u8 ^ i as u8,
                    }
                })
                .collect();
            for bci in 0..=len as u32 {
                let _ = msg_full(&code, &cp, round % 2 == 0, "(I)V", &[1, 3, 99], &[], bci);
            }
        }
    }

    #[test]
    fn jsr_and_wide() {
        let cp = Pool::new().finish();
        // 0 jsr 6; 3 aload_0; 4 arraylength; 5 ireturn; 6 astore_1; 7 ret 1
        let code = [
            op::JSR,
            0,
            6,
            0x2a,
            op::ARRAYLENGTH,
            op::IRETURN,
            0x4c,
            op::RET,
            1,
        ];
        assert_eq!(
            msg(&code, &cp, true, "([I)I", 4).as_deref(),
            Some("Cannot read the array length because \"<parameter1>\" is null")
        );
        // wide aload 300; arraylength; ireturn
        let code = [op::WIDE, op::ALOAD, 1, 44, op::ARRAYLENGTH, op::IRETURN];
        assert_eq!(
            msg(&code, &cp, true, "()I", 4).as_deref(),
            Some("Cannot read the array length because \"<local300>\" is null")
        );
    }

    #[test]
    fn type_names() {
        assert_eq!(
            type_name("[[Ljava/lang/String;").as_deref(),
            Some("String[][]")
        );
        assert_eq!(
            type_name("Ljava/lang/Integer;").as_deref(),
            Some("java.lang.Integer")
        );
        assert_eq!(type_name("Z").as_deref(), Some("boolean"));
        assert_eq!(class_name("[Ljava/lang/String;"), "[Ljava.lang.String;");
        assert_eq!(class_name("java/lang/Object"), "Object");
        assert_eq!(class_name("a/B$C"), "a.B$C");
    }
}
