//! Which calls compiled code inlines, and the bodies it inlines: the analysis, not the code
//! generation (that is [`crate::translate`]'s).
//!
//! Compiled code runs in interpreter frames (see [`meta::code::compiled`]): whenever it calls
//! into the VM or leaves, the frame's slots must hold the method's state, so that the
//! collector, stack walks and the interpreter see exactly what an interpreted run would. An
//! inlined callee has no frame of its own. So only bodies that can never need one are inlined:
//! straight-line code (no branch, no handler) with no op that could throw, call into the VM,
//! poll for a safepoint or leave. Field reads and writes are allowed on the callee's own
//! receiver, which the caller has checked against null, and calls are allowed to methods that
//! are themselves inlined (on the same receiver): constructors, getters and setters, `super`
//! calls, the empty `Object.<init>`. Such a body is invisible to everything that looks at frames, as HotSpot's
//! inlined frames are to its stack walks: it cannot be on the stack at a safepoint.
//!
//! `Object.<init>` registers an object of a finalizable class (its `ReturnRegister`), which
//! calls Java code and needs the frame; an inlined chain that reaches it is marked
//! ([`Body::registers`]) and its call site checks the receiver's class first, calling as
//! usual when it is finalizable.
//!
//! Must not emit code or touch anything of the runtime but the metadata it reads.

use meta::class::resolve::Resolved;
use meta::class::{BasicType, Class, Method};
use meta::code::compiled::InvokeKind;
use meta::code::decode::Prepared;
use meta::code::effect::{self, Push};
use meta::code::oopmap::Operands;
use meta::code::op::Op;

/// The largest callee inlined, in bytecode bytes (HotSpot's `MaxInlineSize`).
pub const MAX_INLINE_SIZE: usize = 35;
/// How deep inlined calls nest.
pub const MAX_INLINE_LEVEL: u32 = 4;

/// A method body compiled code can inline at a call site.
pub struct Body {
    pub method: &'static Method,
    pub steps: Vec<Step>,
    /// Whether the body (or one it inlines) ends in `Object.<init>`'s registration of a
    /// finalizable receiver: the call site must check the receiver's class first.
    pub registers: bool,
}

/// One step of an inlined body.
pub enum Step {
    /// An op the translator emits as it would in the caller; it never leaves compiled code
    /// (no exception, no VM call): locals, constants, stack shapes, arithmetic that cannot
    /// throw. `Const2` is given as [`Step::Const2`] instead, since it names the callee's table.
    Plain(Op),
    /// A long or double constant (its bits).
    Const2(u64),
    /// A read or write of a field of the receiver (checked against null by the call site).
    Field {
        put: bool,
        ty: BasicType,
        offset: u32,
    },
    /// A call (at bytecode index `bci`) of another inlined body on the same receiver (or a
    /// static one).
    Call { bci: u32, body: Body },
    /// The return: the value on top of the stack, if the method returns one.
    Return,
}

/// The body of `m` if it can be inlined at nesting `level` (0: called from the compiled
/// method itself), else why not (as `-XX:+PrintInlining` says it). `m` must be a method the
/// call site always runs (its caller checks that, as for a direct call).
pub fn body(m: &'static Method, level: u32) -> Result<Body, &'static str> {
    if level >= MAX_INLINE_LEVEL {
        return Err("inlining too deep");
    }
    if m.is_native() || m.intrinsic.is_some() || m.mapped.is_some() {
        return Err("native method");
    }
    if m.is_synchronized() {
        return Err("callee is synchronized");
    }
    let code = m.info.code.as_ref().ok_or("no code")?;
    if code.code.len() > MAX_INLINE_SIZE {
        return Err("too big");
    }
    if !code.exception_table.is_empty() {
        return Err("callee has exception handlers");
    }
    let Some(Ok(prep)) = m.prepared.get() else {
        return Err("callee not prepared");
    };
    let mut walk = Walk {
        method: m,
        bytecode: &code.code,
        this_fixed: receiver_fixed(m.is_static(), prep),
        stack: Vec::new(),
        registers: false,
        level,
        last_const: None,
    };
    let mut steps = Vec::new();
    for (pc, op) in prep.ops.iter().enumerate() {
        let bci = prep.bcis.get(pc).copied().ok_or("no bytecode index")?;
        let step = walk.step(bci, op, &prep.wide)?;
        let done = matches!(step, Step::Return);
        steps.push(step);
        if done {
            return Ok(Body {
                method: m,
                steps,
                registers: walk.registers,
            });
        }
    }
    Err("falls off its code")
}

/// Why a body is not inlined, for ops the walk refuses.
const MAY_LEAVE: &str = "callee may throw, branch or call the VM";

/// The walk of one body: its operand stack, slot by slot, as "is the receiver" flags.
struct Walk<'a> {
    method: &'static Method,
    bytecode: &'a [u8],
    /// Whether local 0 holds the receiver throughout (an instance method that never stores
    /// to it).
    this_fixed: bool,
    stack: Vec<bool>,
    registers: bool,
    level: u32,
    /// The constant the previous op pushed, if it pushed one: a division by a non-zero
    /// constant cannot throw.
    last_const: Option<i64>,
}

impl Walk<'_> {
    fn step(&mut self, bci: u32, op: &Op, wide: &[u64]) -> Result<Step, &'static str> {
        let divisor = self.last_const.take();
        self.last_const = match *op {
            Op::Iconst(k) => Some(k as i64),
            Op::Const2(i) => wide.get(i as usize).map(|&bits| bits as i64),
            _ => None,
        };
        use Op::*;
        Ok(match *op {
            // The translator emits no zero check for a constant divisor.
            Idiv | Irem | Ldiv | Lrem if divisor.is_some_and(|k| k != 0) => {
                self.plain(op).ok_or(MAY_LEAVE)?;
                Step::Plain(*op)
            }
            Return | Return1 | Return2 => Step::Return,
            ReturnRegister => {
                self.registers = true;
                Step::Return
            }
            Const2(i) => {
                self.stack.extend([false, false]);
                Step::Const2(*wide.get(i as usize).ok_or(MAY_LEAVE)?)
            }
            GetField(_) | PutField(_) | GetFieldInt(_) | GetFieldWide(_) | GetFieldRef(_)
            | GetFieldQ(..) | PutFieldInt(_) | PutFieldWide(_) | PutFieldRef(_) | PutFieldQ(..) => {
                self.field(bci as usize, op).ok_or(MAY_LEAVE)?
            }
            InvokeSpecial(_) | InvokeStatic(_) | InvokeVirtual(_) => self.call(bci, op)?,
            Nop | AconstNull | Iconst(_) | Fconst(_) | Load(_) | Load2(_) | Store(_)
            | Store2(_) | Pop | Pop2 | Dup | DupX1 | DupX2 | Dup2 | Dup2X1 | Dup2X2 | Swap
            | Iadd | Ladd | Fadd | Dadd | Isub | Lsub | Fsub | Dsub | Imul | Lmul | Fmul | Dmul
            | Fdiv | Ddiv | Frem | Drem | Ineg | Lneg | Fneg | Dneg | Ishl | Lshl | Ishr | Lshr
            | Iushr | Lushr | Iand | Land | Ior | Lor | Ixor | Lxor | Iinc(..) | I2l | I2f
            | I2d | L2i | L2f | L2d | F2i | F2l | F2d | D2i | D2l | D2f | I2b | I2c | I2s
            | Lcmp | Fcmpl | Fcmpg | Dcmpl | Dcmpg => {
                self.plain(op).ok_or(MAY_LEAVE)?;
                Step::Plain(*op)
            }
            _ => return Err(MAY_LEAVE),
        })
    }

    /// Tracks a plain op's effect on which slots hold the receiver.
    fn plain(&mut self, op: &Op) -> Option<()> {
        let e = effect::of(op, &NoOperands).ok()?;
        let popped = self.stack.split_off(self.stack.len().checked_sub(e.pops)?);
        match e.push {
            Push::Local(0) => self.stack.push(self.this_fixed),
            Push::Shuffle(order) => {
                // Indexes count from the top of what was popped.
                let top = popped.len().checked_sub(1)?;
                for &k in order {
                    self.stack.push(*popped.get(top.checked_sub(k as usize)?)?);
                }
            }
            push => self.stack.extend(std::iter::repeat_n(false, push.slots())),
        }
        Some(())
    }

    /// The constant-pool entry the op at `bci` names, resolved.
    fn resolved(&self, bci: usize) -> Option<&'static Resolved> {
        let idx = match self.bytecode.get(bci + 1..bci + 3)? {
            &[hi, lo] => u16::from_be_bytes([hi, lo]),
            _ => return None,
        };
        self.method.class.cp_cache.get(idx as usize)?.get()
    }

    fn field(&mut self, bci: usize, op: &Op) -> Option<Step> {
        let Resolved::Field(f) = self.resolved(bci)? else {
            return None;
        };
        let put = matches!(
            op,
            Op::PutField(_)
                | Op::PutFieldInt(_)
                | Op::PutFieldWide(_)
                | Op::PutFieldRef(_)
                | Op::PutFieldQ(..)
        );
        // Plain fields only: no static, volatile or PSO field (those take the VM's paths).
        if f.is_static || f.volatile || f.place.is_some() {
            return None;
        }
        let value = if put { f.ty.slots() } else { 0 };
        let holder_at = self.stack.len().checked_sub(value + 1)?;
        if !self.stack[holder_at] {
            return None;
        }
        self.stack.truncate(holder_at);
        if !put {
            self.stack.extend(std::iter::repeat_n(false, f.ty.slots()));
        }
        Some(Step::Field {
            put,
            ty: f.ty,
            offset: f.offset,
        })
    }

    fn call(&mut self, bci: u32, op: &Op) -> Result<Step, &'static str> {
        let Some(Resolved::Method { method, .. }) = self.resolved(bci as usize) else {
            return Err("call not resolved");
        };
        let kind = match op {
            Op::InvokeStatic(_) => InvokeKind::Static,
            Op::InvokeSpecial(_) => InvokeKind::Special,
            _ => InvokeKind::Virtual,
        };
        let static_call = kind == InvokeKind::Static;
        let method = match kind {
            // `super.m()` (or a private method, a constructor): known from the class alone.
            InvokeKind::Special => meta::class::resolve::select_special(self.method.class, method),
            _ if names_target(self.method.class, method, kind) => method,
            _ => return Err("calls a method it cannot name"),
        };
        if method.is_static() != static_call {
            return Err("calls a method it cannot name");
        }
        let args = method.arg_slots as usize;
        let base = self.stack.len().checked_sub(args).ok_or(MAY_LEAVE)?;
        if !method.is_static() && !self.stack[base] {
            return Err("calls a method of another object");
        }
        let inner = body(method, self.level + 1)?;
        self.registers |= inner.registers;
        self.stack.truncate(base);
        self.stack
            .extend(std::iter::repeat_n(false, method.ret.slots()));
        Ok(Step::Call { bci, body: inner })
    }
}

/// Whether a call of kind `kind` from code of class `caller` that resolved to `m` always
/// runs `m`, and `m`'s class is initialized wherever `caller`'s code runs: a static method
/// of `caller` or a superclass, a private method or constructor, or a method no class can
/// override. The one rule for direct calls and inlined ones.
pub fn names_target(caller: &Class, m: &Method, kind: InvokeKind) -> bool {
    use classfile::access::ACC_FINAL;
    match kind {
        InvokeKind::Static => {
            std::iter::successors(Some(caller), |c| c.super_class).any(|c| std::ptr::eq(c, m.class))
        }
        InvokeKind::Special => m.is_private() || &*m.name == "<init>",
        InvokeKind::Virtual => {
            m.is_private() || m.access & ACC_FINAL != 0 || m.class.access & ACC_FINAL != 0
        }
        InvokeKind::Exact => true,
    }
}

/// Whether local 0 holds the receiver throughout a method (`is_static` false) with code
/// `prep`: it never stores to local 0.
pub fn receiver_fixed(is_static: bool, prep: &Prepared) -> bool {
    !is_static
        && !prep
            .ops
            .iter()
            .any(|op| matches!(op, Op::Store(0) | Op::Store2(0)))
}

/// The inlined ops the walk gives the stack-effect table name no field or call.
struct NoOperands;

impl Operands for NoOperands {
    fn field_type(&self, _: &Op) -> Option<BasicType> {
        None
    }
    fn invoke(&self, _: &Op) -> Option<(usize, BasicType)> {
        None
    }
}
