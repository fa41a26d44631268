//! Translation of a method's plain ops into one Cranelift function.
//!
//! Every local and operand-stack slot is a Cranelift variable of type `i64` holding the slot's
//! bits as the interpreter keeps them (an int in the low 32 bits, a float's bits, a long or
//! double in the first of its two slots and 0 in the second, a reference's address or 0);
//! Cranelift's SSA construction turns them into registers. The function's entry dispatches on
//! the op index it is entered at (0, or a loop header for on-stack replacement) and reads the
//! state there from the frame's slots. Owns the mapping from ops to IR and nothing else: the
//! frame contract is `meta::code::compiled`'s, the layout numbers and stubs the runtime's.

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I8, I16, I32, I64};
use cranelift_codegen::ir::{
    self, AbiParam, Block, InstBuilder, MemFlagsData as MemFlags, SigRef, Signature, TrapCode,
    UserFuncName, Value,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use meta::class::pso::{ARRAY_WORDS_AT, LENGTH_AT, PSO_WORDS_AT};
use meta::class::resolve::Resolved;
use meta::class::{BasicType, LoaderId};
use meta::code::compiled::{Exit, InvokeKind, STUB_OK};
use meta::code::deps;
use meta::code::effect::{self, Push};
use meta::code::oopmap::OopMaps;
use meta::code::op::{Cond, Op};
use meta::intrinsics::{Inline, UnsafeAccess, UnsafeOp, inline_form, unsafe_access};
use meta::mappings::Primitive;

use std::collections::{HashMap, HashSet};

use crate::{Env, Unit, inline};

/// Why a method cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `jsr`/`ret` subroutines (class files before version 50).
    Subroutines,
    /// An op's stack effect is unknown (unresolvable operand types).
    Effect(&'static str),
    /// Too large for the translation's limits.
    TooLarge,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Subroutines => write!(f, "jsr/ret subroutines"),
            Refusal::Effect(e) => write!(f, "{e}"),
            Refusal::TooLarge => write!(f, "method too large"),
        }
    }
}

/// Ops beyond which a method is left to the interpreter (compile time grows with size).
const MAX_OPS: usize = 8000;

/// A translated method: its function, its entry points other than 0, and what was decided
/// at each call the compiler could name (inlined or not, and why).
pub struct Translation {
    pub function: ir::Function,
    pub entries: Vec<u32>,
    pub inlining: Vec<crate::Inlined>,
    /// Whether the code relies on the unit's assumptions (made a call on one).
    pub assumes: bool,
}

/// Translates `unit` into a function with [`meta::code::compiled::EntryFn`]'s signature.
pub fn function(
    env: &Env,
    target: TargetFrontendConfig,
    unit: &Unit,
) -> Result<Translation, Refusal> {
    let ops = &unit.prep.ops;
    if ops.len() > MAX_OPS {
        return Err(Refusal::TooLarge);
    }
    if ops.iter().any(|op| matches!(op, Op::Jsr(_) | Op::Ret(_))) {
        return Err(Refusal::Subroutines);
    }
    let call_conv = target.default_call_conv;
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(I64)); // frame
    sig.params.push(AbiParam::new(I64)); // thread
    sig.params.push(AbiParam::new(I32)); // entry op
    sig.returns.push(AbiParam::new(I64));
    let mut func = ir::Function::with_name_signature(UserFuncName::default(), sig);
    let mut fctx = FunctionBuilderContext::new();
    let b = FunctionBuilder::new(&mut func, &mut fctx);
    let mut tr = Translator::new(env, call_conv, unit, b);
    let entries = tr.run()?;
    tr.b.seal_all_blocks();
    let inlining = std::mem::take(&mut tr.inlining);
    let assumes = tr.assumes;
    tr.b.finalize(target);
    Ok(Translation {
        function: func,
        entries,
        inlining,
        assumes,
    })
}

/// Signatures of the stubs.
struct Sigs {
    /// (thread, pc, depth) -> status: the op and poll stubs.
    op: SigRef,
    /// (thread, pc, depth, method, sig, kind) -> status.
    invoke: SigRef,
    /// Compiled code's entry: (frame, thread, entry op) -> exit.
    entry: SigRef,
    /// (thread, exit, old sp) -> status.
    resume: SigRef,
    /// (thread, pc, depth, class) -> status.
    new: SigRef,
    /// (thread, holder).
    remember: SigRef,
    /// (class, target) -> 0 or 1.
    subtype: SigRef,
    frem: SigRef,
    /// (function, argument slots' address, count) -> result: a pure intrinsic.
    pure: SigRef,
    drem: SigRef,
}

struct Translator<'a, 'f> {
    b: FunctionBuilder<'f>,
    env: &'a Env,
    unit: &'a Unit<'a>,
    sigs: Sigs,
    locals: Vec<Variable>,
    stack: Vec<Variable>,
    /// The block of each op that starts one.
    leaders: Vec<Option<Block>>,
    frame: Value,
    thread: Value,
    /// Operand-stack depth during translation, and at the start of the current op.
    depth: usize,
    op_depth: usize,
    /// Backward branches' poll blocks still to fill: (block, target op).
    polls: Vec<(Block, usize)>,
    /// The float or double each slot value made from one was made from: a value defines
    /// every use it dominates, so a `double` of a slot that a `double_slot` made is the
    /// original, and doubles stay in vector registers between operations (Cranelift has no
    /// rule folding a bitcast's round trip).
    views: HashMap<Value, Value>,
    /// References already checked against null, valid until the next block that control
    /// can reach from elsewhere (a leader).
    non_null: HashSet<Value>,
    /// Objects this code allocated, and their classes (exact), until the next leader.
    fresh: HashMap<Value, &'static meta::class::Class>,
    /// The calls this compile named, and whether each was inlined.
    inlining: Vec<crate::Inlined>,
    /// How many inlined bodies the ops being translated are in (0: the method's own).
    inline_level: u32,
    /// Whether local 0 holds the receiver throughout: an instance method that never stores
    /// to it. The receiver is never null, so it needs no null check.
    this_fixed: bool,
    /// Whether a call was made on the unit's assumptions (see [`meta::code::deps`]).
    assumes: bool,
}

/// The most receiver classes a call site checks for (HotSpot's bimorphic inlining).
const MAX_PROFILED: usize = 2;

/// A receiver class a call site has seen, and the method it selected.
type Profiled = (&'static meta::class::Class, &'static meta::class::Method);

/// The method a call site always runs, as far as this compile can tell.
#[derive(Clone, Copy)]
struct Target {
    method: &'static meta::class::Method,
    /// Known only while no class overrides it: the site checks the unit's assumptions.
    assumed: bool,
    /// A class the running domain must have initialized before the call (a static method's,
    /// of a class other than the caller's and its superclasses): the site checks.
    init: Option<&'static meta::class::Class>,
}

/// The callee of a direct call between compiled methods.
#[derive(Clone, Copy)]
enum Callee {
    /// Known when compiling.
    Known(Target),
    /// Selected at run time by a virtual or interface call of `resolved`: `method`, whose
    /// code published for direct calls (`Method::direct`, not null) is `prep`.
    Selected {
        resolved: &'static meta::class::Method,
        method: Value,
        prep: Value,
    },
}

impl Callee {
    /// A method of the callee's signature (arguments and result).
    fn shape(&self) -> &'static meta::class::Method {
        match *self {
            Callee::Known(t) => t.method,
            Callee::Selected { resolved, .. } => resolved,
        }
    }
}

/// How a call whose target is selected at run time goes when compiled code cannot select it.
#[derive(Clone, Copy)]
enum ByVm {
    /// The invoke stub, as a virtual call of the resolved method.
    Invoke,
    /// The op stub (an `invokeinterface`).
    Op,
}

/// A callee's local count: known when compiling, or read from its code.
#[derive(Clone, Copy)]
enum LocalCount {
    Known(u16),
    Loaded(Value),
}

const TRUSTED: MemFlags = MemFlags::trusted();
/// The largest object (bytes) compiled code allocates inline; larger ones take the new stub
/// (zeroing them inline would be a long run of stores).
const INLINE_NEW_MAX: usize = 256;
/// Accesses to a PSO's container: checked before (no trap), but a recovered PSO may start at
/// any offset, so not known to be aligned.
const CONTAINER: MemFlags = MemFlags::new().with_notrap();

/// Which locals a read from the frame covers.
#[derive(Clone, Copy)]
enum Locals {
    All,
    /// Those holding references at op `pc` (all where `pc` has no map).
    Refs(usize),
}

impl Locals {
    fn includes(self, maps: &OopMaps, local: usize) -> bool {
        match self {
            Locals::All => true,
            Locals::Refs(pc) => maps.at(pc).is_none_or(|m| m.is_ref(local)),
        }
    }
}

impl<'a, 'f> Translator<'a, 'f> {
    fn new(env: &'a Env, cc: CallConv, unit: &'a Unit<'a>, mut b: FunctionBuilder<'f>) -> Self {
        let sig = |params: &[ir::Type], ret: Option<ir::Type>| {
            let mut s = Signature::new(cc);
            s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
            s.returns.extend(ret.map(AbiParam::new));
            s
        };
        let sigs = Sigs {
            op: b.import_signature(sig(&[I64, I32, I32], Some(I32))),
            invoke: b.import_signature(sig(&[I64, I32, I32, I64, I32, I32], Some(I32))),
            entry: b.import_signature(sig(&[I64, I64, I32], Some(I64))),
            resume: b.import_signature(sig(&[I64, I64, I64], Some(I32))),
            new: b.import_signature(sig(&[I64, I32, I32, I64], Some(I32))),
            remember: b.import_signature(sig(&[I64, I64], None)),
            subtype: b.import_signature(sig(&[I64, I64], Some(I64))),
            frem: b.import_signature(sig(&[F32, F32], Some(F32))),
            pure: b.import_signature(sig(&[I64, I64, I32], Some(I64))),
            drem: b.import_signature(sig(&[F64, F64], Some(F64))),
        };
        let prep = unit.prep;
        let locals = (0..prep.max_locals).map(|_| b.declare_var(I64)).collect();
        let stack = (0..prep.max_stack as usize + 2)
            .map(|_| b.declare_var(I64))
            .collect();
        Translator {
            b,
            env,
            unit,
            sigs,
            locals,
            stack,
            leaders: vec![None; prep.ops.len()],
            frame: Value::reserved_value(),
            thread: Value::reserved_value(),
            depth: 0,
            op_depth: 0,
            polls: Vec::new(),
            views: HashMap::new(),
            non_null: HashSet::new(),
            fresh: HashMap::new(),
            inlining: Vec::new(),
            inline_level: 0,
            this_fixed: inline::receiver_fixed(unit.is_static, unit.prep),
            assumes: false,
        }
    }

    fn depth_at(&self, pc: usize) -> Option<usize> {
        self.unit.maps.at(pc).map(|m| m.depth as usize)
    }

    /// Marks the ops that start blocks; returns the entry points (loop headers).
    fn find_leaders(&mut self) -> Vec<u32> {
        let ops = &self.unit.prep.ops;
        let mut starts = vec![false; ops.len()];
        let mut entries = Vec::new();
        starts[0] = true;
        for (pc, op) in ops.iter().enumerate() {
            if self.depth_at(pc).is_none() {
                continue;
            }
            let mut target = |t: u32, starts: &mut [bool]| {
                starts[t as usize] = true;
                if (t as usize) <= pc && t != 0 {
                    entries.push(t);
                }
            };
            match *op {
                Op::If(_, t)
                | Op::IfIcmp(_, t)
                | Op::IfAcmpEq(t)
                | Op::IfAcmpNe(t)
                | Op::IfNull(t)
                | Op::IfNonNull(t)
                | Op::Goto(t) => target(t, &mut starts),
                Op::TableSwitch(i) | Op::LookupSwitch(i) => {
                    let sw = &self.unit.prep.switches[i as usize];
                    starts[sw.default as usize] = true;
                    for &t in sw.dense.iter().chain(sw.pairs.iter().map(|p| &p.1)) {
                        starts[t as usize] = true;
                    }
                }
                _ => {}
            }
            if ends_block(op) && pc + 1 < ops.len() {
                starts[pc + 1] = true;
            }
        }
        for h in self.unit.prep.handlers.iter() {
            starts[h.target as usize] = true;
        }
        for (pc, s) in starts.iter().enumerate() {
            if *s && self.depth_at(pc).is_some() {
                self.leaders[pc] = Some(self.b.create_block());
            }
        }
        entries.sort_unstable();
        entries.dedup();
        entries
    }

    fn run(&mut self) -> Result<Vec<u32>, Refusal> {
        let entries = self.find_leaders();
        let start = self.b.create_block();
        self.b.append_block_params_for_function_params(start);
        self.b.switch_to_block(start);
        let params = self.b.block_params(start).to_vec();
        self.frame = params[0];
        self.thread = params[1];
        self.dispatch_entries(params[2], &entries);
        let ops = &self.unit.prep.ops;
        let mut open = false;
        for pc in 0..ops.len() {
            let Some(depth) = self.depth_at(pc) else {
                continue;
            };
            if let Some(block) = self.leaders[pc] {
                if open {
                    self.b.ins().jump(block, &[]);
                }
                self.b.switch_to_block(block);
                self.non_null.clear();
                self.fresh.clear();
                open = true;
            }
            if !open {
                // Reachable only through an exception handler's range end: never here.
                continue;
            }
            self.depth = depth;
            self.op_depth = depth;
            open = self.op(pc, &ops[pc])?;
            self.fill_polls();
        }
        if open {
            // The last op is FellOff, which exits; nothing falls off the function.
            self.b.ins().trap(TrapCode::unwrap_user(1));
        }
        Ok(entries)
    }

    /// The entry block's dispatch: for entry op `e`, read the frame's state there and go.
    fn dispatch_entries(&mut self, entry: Value, entries: &[u32]) {
        let mut sw = Switch::new();
        let mut targets = Vec::new();
        for &e in std::iter::once(&0).chain(entries) {
            let block = self.b.create_block();
            sw.set_entry(e as u128, block);
            targets.push((block, e as usize));
        }
        let bad = self.b.create_block();
        self.b.set_cold_block(bad);
        sw.emit(&mut self.b, entry, bad);
        self.b.switch_to_block(bad);
        self.b.ins().trap(TrapCode::unwrap_user(2));
        for (block, e) in targets {
            self.b.switch_to_block(block);
            let depth = self.depth_at(e).unwrap_or(0);
            self.reload(depth);
            let to = self.leaders[e].expect("an entry starts a block");
            self.b.ins().jump(to, &[]);
        }
    }

    // ---- slots ----

    fn slot_offset(&self, stack_index: Option<usize>, local: usize) -> i32 {
        let i = match stack_index {
            Some(j) => self.unit.prep.max_locals as usize + j,
            None => local,
        };
        (i * 8) as i32
    }

    /// Writes the first `depth` stack slots to the frame (the locals are there already: every
    /// store to one writes through, see [`Self::set_local`]).
    fn flush(&mut self, depth: usize) {
        self.store_stack(depth);
    }

    /// Reads locals and the first `depth` stack slots from the frame.
    fn reload(&mut self, depth: usize) {
        self.load_slots(Locals::All, depth);
    }

    /// Writes what the VM may read or move during a call: the first `depth` stack slots (the
    /// op's operands among them). The locals are in the frame already.
    fn flush_for_vm(&mut self, depth: usize) {
        self.store_stack(depth);
    }

    /// Reads back after a call from op `pc` what [`Self::flush_for_vm`] wrote (references may
    /// have moved) and the first `depth` stack slots (the op's results among them).
    fn reload_after_vm(&mut self, pc: usize, depth: usize) {
        self.load_slots(Locals::Refs(pc), depth);
    }

    /// Writes the first `depth` stack slots to the frame.
    fn store_stack(&mut self, depth: usize) {
        self.store_stack_slots(0..depth);
    }

    /// Writes stack slots `slots` to the frame.
    fn store_stack_slots(&mut self, slots: std::ops::Range<usize>) {
        for j in slots {
            let v = self.b.use_var(self.stack[j]);
            let off = self.slot_offset(Some(j), 0);
            self.b.ins().store(TRUSTED, v, self.frame, off);
        }
    }

    /// Reads the `which` locals and the first `depth` stack slots from the frame.
    fn load_slots(&mut self, which: Locals, depth: usize) {
        for i in 0..self.locals.len() {
            if which.includes(self.unit.maps, i) {
                let off = self.slot_offset(None, i);
                let v = self.b.ins().load(I64, TRUSTED, self.frame, off);
                self.b.def_var(self.locals[i], v);
            }
        }
        for j in 0..depth {
            let off = self.slot_offset(Some(j), 0);
            let v = self.b.ins().load(I64, TRUSTED, self.frame, off);
            self.b.def_var(self.stack[j], v);
        }
    }

    fn push(&mut self, v: Value) {
        self.b.def_var(self.stack[self.depth], v);
        self.depth += 1;
    }

    /// Pushes `v` as a value of `slots` slots (0: nothing, as for void).
    fn push_sized(&mut self, v: Value, slots: usize) {
        match slots {
            0 => {}
            1 => self.push(v),
            _ => self.push2(v),
        }
    }

    fn push2(&mut self, v: Value) {
        self.push(v);
        let zero = self.b.ins().iconst(I64, 0);
        self.push(zero);
    }

    fn pop(&mut self) -> Value {
        self.depth -= 1;
        self.b.use_var(self.stack[self.depth])
    }

    fn pop2(&mut self) -> Value {
        self.depth -= 2;
        self.b.use_var(self.stack[self.depth])
    }

    /// The slot `k` below the top (0: the top), without popping.
    fn peek(&mut self, k: usize) -> Value {
        self.b.use_var(self.stack[self.depth - 1 - k])
    }

    fn local(&mut self, n: u16) -> Value {
        self.b.use_var(self.locals[n as usize])
    }

    /// Sets local `n`, writing it through to the frame (but not an inlined body's locals,
    /// which have no frame). So the frame always holds the locals: exits and calls into the
    /// VM write only the operand stack, and a local is not kept alive in a register across a
    /// loop that does not use it just because that loop may exit.
    fn set_local(&mut self, n: u16, v: Value) {
        self.b.def_var(self.locals[n as usize], v);
        if self.inline_level == 0 {
            let off = self.slot_offset(None, n as usize);
            self.b.ins().store(TRUSTED, v, self.frame, off);
        }
    }

    // ---- value views ----

    fn int(&mut self, v: Value) -> Value {
        self.b.ins().ireduce(I32, v)
    }
    fn int_slot(&mut self, v: Value) -> Value {
        self.b.ins().uextend(I64, v)
    }
    fn float(&mut self, v: Value) -> Value {
        if let Some(&f) = self.views.get(&v) {
            return f;
        }
        let i = self.int(v);
        self.b.ins().bitcast(F32, MemFlags::new(), i)
    }
    fn float_slot(&mut self, v: Value) -> Value {
        let i = self.b.ins().bitcast(I32, MemFlags::new(), v);
        let slot = self.int_slot(i);
        self.views.insert(slot, v);
        slot
    }
    fn double(&mut self, v: Value) -> Value {
        if let Some(&d) = self.views.get(&v) {
            return d;
        }
        self.b.ins().bitcast(F64, MemFlags::new(), v)
    }
    fn double_slot(&mut self, v: Value) -> Value {
        let slot = self.b.ins().bitcast(I64, MemFlags::new(), v);
        self.views.insert(slot, v);
        slot
    }

    // ---- leaving ----

    fn exit_value(&mut self, pc: usize, depth: usize, exception: bool) -> Value {
        let e = Exit::At {
            pc: pc as u32,
            depth: depth as u32,
            exception,
        };
        self.b.ins().iconst(I64, e.encode() as i64)
    }

    /// Leaves for the interpreter at `pc`, with the state at the start of the current op.
    fn exit_here(&mut self, pc: usize) {
        let depth = self.op_depth;
        self.flush(depth);
        self.leave_at(pc, depth, false);
    }

    /// Leaves at the current op when `cond` holds (a check that would throw): the interpreter
    /// runs the op again and throws.
    fn exit_if(&mut self, cond: Value, pc: usize) {
        self.leave_if(cond, |t| t.exit_here(pc));
    }

    /// When `cond` holds, goes to a cold block that `leave` fills (ending it with a return);
    /// goes on here otherwise.
    fn leave_if(&mut self, cond: Value, leave: impl FnOnce(&mut Self)) {
        let cold = self.b.create_block();
        let cont = self.b.create_block();
        self.b.set_cold_block(cold);
        self.b.ins().brif(cond, cold, &[], cont, &[]);
        // Each has this one predecessor: sealed now, so a variable read in `cont` is the
        // value it had here (which the null-check memory relies on), not a fresh phi.
        self.b.seal_block(cold);
        self.b.seal_block(cont);
        self.b.switch_to_block(cold);
        leave(self);
        self.b.switch_to_block(cont);
    }

    /// Returns exit `(pc, depth, exception)` to the interpreter, the frame's slots written.
    fn leave_at(&mut self, pc: usize, depth: usize, exception: bool) {
        let v = self.exit_value(pc, depth, exception);
        self.b.ins().return_(&[v]);
    }

    fn exit_if_null(&mut self, r: Value, pc: usize) {
        if !self.non_null.insert(r) || self.is_receiver(r) {
            return;
        }
        let c = self.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
        self.exit_if(c, pc);
    }

    /// Whether `r` is the method's receiver (local 0 of an instance method that never
    /// stores to it): never null.
    fn is_receiver(&mut self, r: Value) -> bool {
        self.this_fixed && self.b.use_var(self.locals[0]) == r
    }

    /// Calls a status stub for op `pc` with `depth` slots flushed; on a throw, leaves with
    /// the exception pending there.
    fn call_status_stub(&mut self, addr: usize, pc: usize, depth: usize, resume_depth: usize) {
        self.flush_for_vm(depth);
        let status = self.call_flushed(self.sigs.op, addr, &[], pc);
        self.exit_if_threw(status, pc, depth);
        self.reload_after_vm(pc, resume_depth);
    }

    /// A call the site has resolved to a known method: directly into the callee's compiled
    /// code when the target is known now and has code when the call runs, else through the
    /// invoke stub (no op decoding, no resolution). False, emitting nothing, if the site is
    /// left to the op stub (unresolved, signature-polymorphic, intrinsic, or a static call of
    /// an instance method that must throw).
    fn invoke_resolved(&mut self, pc: usize, idx: u16, kind: InvokeKind) -> bool {
        let Some((method, sig)) = self.resolved_method(idx) else {
            return false;
        };
        if method.is_signature_polymorphic()
            || (kind == InvokeKind::Static && (!method.is_static() || method.intrinsic.is_some()))
        {
            return false;
        }
        let pops = method.arg_slots as usize;
        let receiver = (kind != InvokeKind::Static).then(|| self.peek(pops - 1));
        if let Some(r) = receiver {
            self.exit_if_null(r, pc);
        }
        let target = self.direct_target(method, kind);
        if target.is_none()
            && kind == InvokeKind::Virtual
            && let Some(seen) = self.profiled(pc, idx)
        {
            self.invoke_profiled(pc, &Op::InvokeVirtual(idx), seen)
                .expect("a resolved call has a stack effect");
            return true;
        }
        if target.is_some_and(|t| t.assumed) {
            self.exit_if_assumption_broken(pc);
        }
        let inlined = target.and_then(|target| {
            let body = inline::body(target.method, 0);
            let bci = self.unit.prep.bcis.get(pc).copied().unwrap_or(0);
            let outcome = body.as_ref().map(|_| ()).map_err(|e| *e);
            self.note_inlining(bci, 0, target.method, outcome);
            body.ok()
        });
        let Some(body) = inlined else {
            match target {
                None if kind == InvokeKind::Virtual => self.call_virtual(pc, method, sig),
                _ => self.call_resolved(pc, method, sig, kind, target),
            }
            return true;
        };
        let target = target.expect("an inlined body has a target");
        if let Some(c) = target.init {
            // Not yet initialized in the running domain: the invoke stub initializes it.
            let initialized = self.initialized(c);
            let call = self.b.ins().icmp_imm_s(IntCC::Equal, initialized, 0);
            self.inline_unless(pc, &body, call, sig, kind, None);
            return true;
        }
        match receiver {
            Some(r) if body.registers && !self.known_not_finalizable(r) => {
                // A finalizable receiver is registered by `Object.<init>`, which needs its frame.
                let l = self.env.layout;
                let class = self.b.ins().load(I64, TRUSTED, r, l.object_class as i32);
                let finalizable =
                    self.b
                        .ins()
                        .uload8(I32, TRUSTED, class, l.class_finalizable as i32);
                self.inline_unless(pc, &body, finalizable, sig, kind, Some(target));
            }
            _ => self.emit_inlined(pc, &body, 0),
        }
        true
    }

    /// Whether the running thread's domain has initialized class `c` (non-zero if so).
    fn initialized(&mut self, c: &meta::class::Class) -> Value {
        let flags = self.b.ins().load(
            I64,
            TRUSTED,
            self.thread,
            self.env.layout.thread_init_flags as i32,
        );
        // Class ids are below the flag table's 2^22 entries, so the id is an offset.
        self.b.ins().uload8(I32, TRUSTED, flags, c.id.0 as i32)
    }

    /// `body` inlined where `call` is zero; where it is not, the call as usual (to `target`
    /// directly when given, else through the invoke stub).
    fn inline_unless(
        &mut self,
        pc: usize,
        body: &inline::Body,
        call: Value,
        sig: u32,
        kind: InvokeKind,
        target: Option<Target>,
    ) {
        let flag = call;
        let inline = self.b.create_block();
        let call = self.b.create_block();
        self.b.set_cold_block(call);
        self.b.ins().brif(flag, call, &[], inline, &[]);
        self.b.seal_block(inline);
        self.b.seal_block(call);
        let emit = |t: &mut Self| t.emit_inlined(pc, body, 0);
        self.fast_or_call(pc, (inline, emit), call, (body.method, sig, kind, target));
    }

    /// Emits `fast`'s code in its block and, in block `call`, the call of `method` (with
    /// `sig`, `kind` and `target` as [`Self::call_resolved`] takes them), both already
    /// branched to and sealed; goes on where they join.
    fn fast_or_call(
        &mut self,
        pc: usize,
        fast: (Block, impl FnOnce(&mut Self)),
        call: Block,
        (method, sig, kind, target): (
            &'static meta::class::Method,
            u32,
            InvokeKind,
            Option<Target>,
        ),
    ) {
        let join = self.b.create_block();
        let (depth, known) = (self.depth, self.non_null.clone());
        self.b.switch_to_block(fast.0);
        (fast.1)(self);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(call);
        (self.depth, self.non_null) = (depth, known.clone());
        self.call_resolved(pc, method, sig, kind, target);
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        // Only what was known before the two paths holds after them.
        self.non_null = known;
    }

    /// Whether reference `r` is known to be of a class that does not register its objects
    /// for finalization (an object this code allocated).
    fn known_not_finalizable(&self, r: Value) -> bool {
        self.fresh.get(&r).is_some_and(|c| !c.finalizable)
    }

    /// Records what was decided for a call of `method` at bytecode index `bci` of the method
    /// inlined at `level` (0: the compiled method).
    fn note_inlining(
        &mut self,
        bci: u32,
        level: u32,
        method: &'static meta::class::Method,
        outcome: Result<(), &'static str>,
    ) {
        self.inlining.push(crate::Inlined {
            bci,
            level,
            method,
            outcome,
        });
    }

    /// Emits inlined `body`, nested `level` inlined calls deep (0: called by the compiled
    /// method), in place of a call (at op `pc`) whose arguments are the top `arg_slots` of
    /// the stack, the receiver among them checked against null; leaves the result there. The
    /// body's ops never leave compiled code (`inline`'s rules), so `pc` is never an exit's.
    fn emit_inlined(&mut self, pc: usize, body: &inline::Body, level: u32) {
        let m = body.method;
        let Some(Ok(prep)) = m.prepared.get() else {
            unreachable!("inline::body checked the callee's code")
        };
        let base = self.depth - m.arg_slots as usize;
        let zero = self.b.ins().iconst(I64, 0);
        let mut locals = Vec::with_capacity(prep.max_locals as usize);
        for i in 0..prep.max_locals as usize {
            let var = self.b.declare_var(I64);
            let v = if i < m.arg_slots as usize {
                self.b.use_var(self.stack[base + i])
            } else {
                zero
            };
            self.b.def_var(var, v);
            locals.push(var);
        }
        while self.stack.len() < base + prep.max_stack as usize + 2 {
            let var = self.b.declare_var(I64);
            self.stack.push(var);
        }
        let callers = std::mem::replace(&mut self.locals, locals);
        self.inline_level += 1;
        self.depth = base;
        for step in &body.steps {
            match step {
                inline::Step::Plain(op) => {
                    let goes_on = self.op(pc, op);
                    debug_assert!(matches!(goes_on, Ok(true)), "an inlined op goes on");
                }
                &inline::Step::Const2(bits) => {
                    let c = self.b.ins().iconst(I64, bits as i64);
                    self.push2(c);
                }
                &inline::Step::Field { put, ty, offset } => self.receiver_field(put, ty, offset),
                &inline::Step::Call { bci, ref body } => {
                    self.note_inlining(bci, level + 1, body.method, Ok(()));
                    self.emit_inlined(pc, body, level + 1);
                }
                inline::Step::Return => {
                    let slots = m.ret.slots();
                    let v = (slots > 0).then(|| self.peek(slots - 1));
                    self.depth = base;
                    if let Some(v) = v {
                        self.push_sized(v, slots);
                    }
                }
            }
        }
        self.locals = callers;
        self.inline_level -= 1;
    }

    /// A read or write of a field of an inlined body's receiver, which the call site checked
    /// against null.
    fn receiver_field(&mut self, put: bool, ty: BasicType, offset: u32) {
        let w = ty.slots();
        if put {
            let v = self.peek(w - 1);
            let o = self.peek(w);
            self.store_typed(ty, v, o, offset as i32);
            if ty == BasicType::Ref {
                self.barrier(o, v);
            }
            self.depth -= 1 + w;
        } else {
            let o = self.peek(0);
            self.depth -= 1;
            let v = self.load_typed(ty, o, offset as i32);
            self.push_sized(v, w);
        }
    }

    /// A call the site has resolved to `method` (its arguments on the stack, the receiver
    /// checked): directly into `target`'s code when it has some when the call runs, else
    /// through the invoke stub. After a call on an assumption, a frame whose assumptions a
    /// class broke meanwhile goes on in the interpreter.
    fn call_resolved(
        &mut self,
        pc: usize,
        method: &'static meta::class::Method,
        sig: u32,
        kind: InvokeKind,
        target: Option<Target>,
    ) {
        let depth = self.depth;
        let after = depth - method.arg_slots as usize + method.ret.slots();
        self.flush_for_vm(depth);
        let join = self.b.create_block();
        let slow = self.b.create_block();
        match target {
            Some(target) => self.direct_call(pc, Callee::Known(target), slow, join),
            None => {
                self.b.ins().jump(slow, &[]);
            }
        }
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        let m = self.b.ins().iconst(I64, method as *const _ as i64);
        self.invoke_stub(pc, m, sig, kind);
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        self.reload_after_vm(pc, after);
        self.depth = after;
        if target.is_some_and(|t| t.assumed) {
            self.leave_if_assumption_broken(pc + 1, after);
        }
    }

    /// A virtual call of `rm` (with interned name-and-descriptor `sig`), its receiver checked
    /// against null, whose target no profile or analysis knows: selected through the
    /// receiver's class's vtable (HotSpot's vtable stub), else by the invoke stub.
    fn call_virtual(&mut self, pc: usize, rm: &'static meta::class::Method, sig: u32) {
        let Some(slot) = rm.vtable_slot().filter(|_| !rm.class.is_interface()) else {
            self.call_resolved(pc, rm, sig, InvokeKind::Virtual, None);
            return;
        };
        let vtable_at = self.env.layout.class_vtable as i32;
        let select = |t: &mut Self, class: Value, by_vm: Block| {
            let vtable = t.b.ins().load(I64, TRUSTED, class, vtable_at);
            let unlinked = t.b.ins().icmp_imm_s(IntCC::Equal, vtable, 0);
            t.branch_unless(unlinked, by_vm);
            let entry = slot as i32 * 8;
            t.b.ins().load(I64, TRUSTED, vtable, entry)
        };
        self.call_dispatched(pc, rm, sig, select, ByVm::Invoke);
    }

    /// The `invokeinterface` at op `pc` of a method the site has resolved, whose target no
    /// profile knows: selected by the select stub (an interface-table lookup), else by the
    /// op stub, which throws what selection throws. False, emitting nothing, if unresolved.
    fn call_interface(&mut self, pc: usize, idx: u16) -> bool {
        let Some((rm, sig)) = self.resolved_method(idx) else {
            return false;
        };
        let r = self.peek(rm.arg_slots as usize - 1);
        self.exit_if_null(r, pc);
        let select = |t: &mut Self, class: Value, by_vm: Block| {
            let rmv = t.b.ins().iconst(I64, rm as *const _ as i64);
            let sigv = t.b.ins().iconst(I32, sig as i64);
            let stub = t.env.stubs.select;
            // The select stub has the pure stubs' signature.
            let method = t.call_pure(t.sigs.pure, stub, &[class, rmv, sigv]);
            let none = t.b.ins().icmp_imm_s(IntCC::Equal, method, 0);
            t.branch_unless(none, by_vm);
            method
        };
        self.call_dispatched(pc, rm, sig, select, ByVm::Op);
        true
    }

    /// Goes to `to` (cold) if `cond` is non-zero; goes on in a new block otherwise.
    fn branch_unless(&mut self, cond: Value, to: Block) {
        let on = self.b.create_block();
        self.b.set_cold_block(to);
        self.b.ins().brif(cond, to, &[], on, &[]);
        self.b.seal_block(on);
        self.b.switch_to_block(on);
    }

    /// A call of `rm` (its arguments on the stack, the receiver checked against null) whose
    /// target the receiver's class selects at run time: `select` emits the selection from
    /// the class, giving the method, or going to the block it is given when the VM must
    /// select (`by_vm` says how). A selected method whose code is published for direct calls
    /// (`Method::direct`) is called directly; any other through the invoke stub.
    fn call_dispatched(
        &mut self,
        pc: usize,
        rm: &'static meta::class::Method,
        sig: u32,
        select: impl FnOnce(&mut Self, Value, Block) -> Value,
        by_vm: ByVm,
    ) {
        let depth = self.depth;
        let after = depth - rm.arg_slots as usize + rm.ret.slots();
        let l = self.env.layout;
        let r = self.peek(rm.arg_slots as usize - 1);
        self.flush_for_vm(depth);
        let class = self.b.ins().load(I64, TRUSTED, r, l.object_class as i32);
        let vm = self.b.create_block();
        let join = self.b.create_block();
        let method = select(self, class, vm);
        self.b.seal_block(vm);
        let prep = self
            .b
            .ins()
            .load(I64, TRUSTED, method, l.method_direct as i32);
        let as_selected = self.b.create_block();
        let unpublished = self.b.ins().icmp_imm_s(IntCC::Equal, prep, 0);
        self.branch_unless(unpublished, as_selected);
        let callee = Callee::Selected {
            resolved: rm,
            method,
            prep,
        };
        self.direct_call(pc, callee, as_selected, join);
        self.b.seal_block(as_selected);
        self.b.switch_to_block(as_selected);
        self.invoke_stub(pc, method, sig, InvokeKind::Exact);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(vm);
        match by_vm {
            ByVm::Invoke => {
                let m = self.b.ins().iconst(I64, rm as *const _ as i64);
                self.invoke_stub(pc, m, sig, InvokeKind::Virtual);
            }
            ByVm::Op => {
                let status = self.call_flushed(self.sigs.op, self.env.stubs.op, &[], pc);
                self.exit_if_threw(status, pc, depth);
            }
        }
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        self.reload_after_vm(pc, after);
        self.depth = after;
    }

    /// Calls the invoke stub for the call at op `pc` of `method` (a value), selected as
    /// `kind` says, the state flushed; on a throw, leaves with the exception pending.
    fn invoke_stub(&mut self, pc: usize, method: Value, sig: u32, kind: InvokeKind) {
        let s = self.b.ins().iconst(I32, sig as i64);
        let k = self.b.ins().iconst(I32, kind as i64);
        let stub = self.env.stubs.invoke;
        let status = self.call_flushed(self.sigs.invoke, stub, &[method, s, k], pc);
        self.exit_if_threw(status, pc, self.depth);
    }

    /// The receiver classes the `invokeinterface` at op `pc` (constant-pool entry `idx`,
    /// resolved) has seen in the interpreter, with the method each selected, when they are
    /// few enough to check for ([`MAX_PROFILED`]), and none can be unloaded (compiled code
    /// compares their addresses): classes of the boot, platform and application loaders,
    /// lambda proxies among them.
    fn profiled(&self, pc: usize, idx: u16) -> Option<Vec<Profiled>> {
        self.resolved_method(idx)?;
        let (Some(&Op::InvokeInterfaceIC(_, site)) | Some(&Op::InvokeVirtualIC(_, site))) =
            self.unit.prep.fast.get(pc)
        else {
            return None;
        };
        let seen = self.unit.prep.icache.get(site as usize)?.seen();
        // A lambda proxy goes with the class whose call site made it (shared by every
        // domain when that class is); any other hidden class may go with its domain.
        let permanent = |c: &meta::class::Class| {
            let shared = match &c.lambda {
                Some(shape) => !shape.caller.hidden,
                None => !c.hidden,
            };
            shared
                && (c.loader == LoaderId::BOOT
                    || c.loader == LoaderId::PLATFORM
                    || c.loader == LoaderId::APP)
        };
        (!seen.is_empty() && seen.len() <= MAX_PROFILED && seen.iter().all(|(c, _)| permanent(c)))
            .then_some(seen)
    }

    /// The call at op `pc` (an `invokeinterface` or `invokevirtual`) for receivers of the
    /// classes in `seen`: a check of the receiver's class against each, and its method
    /// inlined or called directly; a receiver of any other class takes the op stub (the
    /// invoke stub for `invokevirtual`).
    fn invoke_profiled(&mut self, pc: usize, op: &Op, seen: Vec<Profiled>) -> Result<(), Refusal> {
        let (Op::InvokeInterface(idx) | Op::InvokeVirtual(idx)) = *op else {
            unreachable!("profiled calls are invokeinterface or invokevirtual")
        };
        let (rm, sig) = self.resolved_method(idx).expect("checked by `profiled`");
        let pops = rm.arg_slots as usize;
        let after = self.depth - pops + rm.ret.slots();
        let r = self.peek(pops - 1);
        self.exit_if_null(r, pc);
        let (depth, known, fresh) = (self.depth, self.non_null.clone(), self.fresh.clone());
        let class = self
            .b
            .ins()
            .load(I64, TRUSTED, r, self.env.layout.object_class as i32);
        let join = self.b.create_block();
        for (c, target) in seen {
            let hit = self.b.create_block();
            let next = self.b.create_block();
            let is_c = self
                .b
                .ins()
                .icmp_imm_s(IntCC::Equal, class, c as *const _ as i64);
            self.b.ins().brif(is_c, hit, &[], next, &[]);
            self.b.seal_block(hit);
            self.b.seal_block(next);
            self.b.switch_to_block(hit);
            (self.depth, self.non_null, self.fresh) = (depth, known.clone(), fresh.clone());
            self.call_exact(pc, c, target, sig);
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(next);
        }
        (self.depth, self.non_null, self.fresh) = (depth, known.clone(), fresh.clone());
        self.b
            .set_cold_block(self.b.current_block().expect("in a block"));
        // Counted first, against this code's assumptions (the miss stub has the barrier
        // stub's signature).
        self.assumes = true;
        let missed = self.b.ins().iconst(I64, self.env.stubs.missed as i64);
        let a = self
            .b
            .ins()
            .iconst(I64, self.unit.assumptions as *const _ as i64);
        self.b
            .ins()
            .call_indirect(self.sigs.remember, missed, &[self.thread, a]);
        if matches!(op, Op::InvokeVirtual(_)) {
            self.call_virtual(pc, rm, sig);
        } else if !self.call_interface(pc, idx) {
            self.stub_op(pc, op)?;
        }
        self.b.ins().jump(join, &[]);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        // Only what was known before the paths holds after them.
        (self.depth, self.non_null, self.fresh) = (after, known, fresh);
        Ok(())
    }

    /// The call at op `pc` of `target`, which the receiver's class `c` selects (checked):
    /// inlined if it can be, else directly into its code.
    fn call_exact(
        &mut self,
        pc: usize,
        c: &'static meta::class::Class,
        target: &'static meta::class::Method,
        sig: u32,
    ) {
        let body = inline::body(target, 0);
        let bci = self.unit.prep.bcis.get(pc).copied().unwrap_or(0);
        let outcome = body.as_ref().map(|_| ()).map_err(|e| *e);
        self.note_inlining(bci, 0, target, outcome);
        match body {
            Ok(body) if !(body.registers && c.finalizable) => self.emit_inlined(pc, &body, 0),
            _ => {
                let direct = self.direct_target(target, InvokeKind::Exact);
                self.call_resolved(pc, target, sig, InvokeKind::Exact, direct);
            }
        }
    }

    /// Leaves for the interpreter at the current op `pc` (its state as at its start) if a
    /// class broke the unit's assumptions: the op is a call made on one.
    fn exit_if_assumption_broken(&mut self, pc: usize) {
        let broken = self.assumptions_broken();
        self.exit_if(broken, pc);
    }

    /// Leaves for the interpreter at op `pc`, `depth` operand slots in the frame already, if
    /// a class broke the unit's assumptions.
    fn leave_if_assumption_broken(&mut self, pc: usize, depth: usize) {
        let broken = self.assumptions_broken();
        self.leave_if(broken, |t| t.leave_at(pc, depth, false));
    }

    /// Whether the unit's assumptions are broken (non-zero): a load of their mark, not
    /// moved before the loads before it (a receiver read before must be checked after).
    fn assumptions_broken(&mut self) -> Value {
        self.assumes = true;
        let at = self
            .b
            .ins()
            .iconst(I64, self.unit.assumptions.broken_addr() as i64);
        self.b
            .ins()
            .uload8(I32, MemFlags::new().with_notrap(), at, 0)
    }

    /// What constant-pool entry `idx` had resolved to when this compile began.
    fn resolved(&self, idx: u16) -> Option<&'a Resolved> {
        let class: &'a meta::class::Class = self.unit.class;
        class.cp_cache.get(idx as usize)?.get()
    }

    /// The class entry `idx` had resolved to when this compile began.
    fn resolved_class(&self, idx: u16) -> Option<&'static meta::class::Class> {
        match self.resolved(idx)? {
            Resolved::Class(c) => Some(c),
            _ => None,
        }
    }

    /// The method (and its interned signature) entry `idx` had resolved to when this compile
    /// began.
    fn resolved_method(&self, idx: u16) -> Option<(&'static meta::class::Method, u32)> {
        match self.resolved(idx)? {
            Resolved::Method { method, sig } => Some((method, *sig)),
            _ => None,
        }
    }

    /// `new` of a class the site has resolved; false for a class that cannot be instantiated
    /// (the op stub throws). An object of a class the running thread's domain has
    /// initialized is bumped from the thread's allocation buffer inline (HotSpot's TLAB fast
    /// path); anything else (not yet initialized there, no room) takes the new stub, which
    /// initializes and allocates without decoding or resolving the op.
    fn new_resolved(&mut self, pc: usize, idx: u16) -> bool {
        let Some(c) = self.resolved_class(idx) else {
            return false;
        };
        if c.is_interface() || c.is_abstract() {
            return false;
        }
        let depth = self.depth;
        let size = (c.instance_size as usize).next_multiple_of(8);
        if size > INLINE_NEW_MAX {
            self.new_by_stub(pc, c);
        } else {
            let slow = self.b.create_block();
            let done = self.b.create_block();
            self.b.set_cold_block(slow);
            let object = self.bump_allocate(c, size, slow);
            self.b.def_var(self.stack[depth], object);
            self.b.ins().jump(done, &[]);
            self.b.seal_block(slow);
            self.b.switch_to_block(slow);
            self.new_by_stub(pc, c);
            self.b.ins().jump(done, &[]);
            self.b.seal_block(done);
            self.b.switch_to_block(done);
            let made = self.b.use_var(self.stack[depth]);
            self.non_null.insert(made);
            self.fresh.insert(made, c);
        }
        self.depth = depth + 1;
        true
    }

    /// `new` of `c` by the new stub, its object left in operand slot `self.depth`.
    fn new_by_stub(&mut self, pc: usize, c: &meta::class::Class) {
        let depth = self.depth;
        self.flush_for_vm(depth);
        let cv = self.b.ins().iconst(I64, c as *const _ as i64);
        let status = self.call_flushed(self.sigs.new, self.env.stubs.new, &[cv], pc);
        self.exit_if_threw(status, pc, depth);
        self.reload_after_vm(pc, depth + 1);
    }

    /// The inline allocation of an object of `c` (`size` bytes, a multiple of 8): checks
    /// that the running domain has initialized `c` and that the thread's buffer has room
    /// (else branches to `slow`), bumps the buffer's top, and writes the header and zeroes.
    /// No safepoint lies between the bump and the header, so no collection sees the bytes
    /// before they are an object.
    fn bump_allocate(&mut self, c: &meta::class::Class, size: usize, slow: Block) -> Value {
        let l = self.env.layout;
        let initialized = self.initialized(c);
        let check_room = self.b.create_block();
        self.b.ins().brif(initialized, check_room, &[], slow, &[]);
        self.b.seal_block(check_room);
        self.b.switch_to_block(check_room);
        let top = self
            .b
            .ins()
            .load(I64, TRUSTED, self.thread, l.thread_tlab_top as i32);
        let end = self
            .b
            .ins()
            .load(I64, TRUSTED, self.thread, l.thread_tlab_end as i32);
        let new_top = self.b.ins().iadd_imm_s(top, size as i64);
        let full = self.b.ins().icmp(IntCC::UnsignedGreaterThan, new_top, end);
        let fill = self.b.create_block();
        self.b.ins().brif(full, slow, &[], fill, &[]);
        self.b.seal_block(fill);
        self.b.switch_to_block(fill);
        self.b
            .ins()
            .store(TRUSTED, new_top, self.thread, l.thread_tlab_top as i32);
        let class = self.b.ins().iconst(I64, c as *const _ as i64);
        self.b
            .ins()
            .store(TRUSTED, class, top, l.object_class as i32);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().store(TRUSTED, zero, top, l.object_mark as i32);
        for off in (l.object_header_size..size).step_by(8) {
            self.b.ins().store(TRUSTED, zero, top, off as i32);
        }
        top
    }

    /// `checkcast` or `instanceof` of a resolved class: a null, an object of exactly that
    /// class, and any object when the class is final are decided inline; any other by the
    /// subtype stub (no frame state, no op decoding). A failing `checkcast` takes the op
    /// stub, which throws.
    fn type_check(&mut self, pc: usize, op: &Op, idx: u16) -> Result<(), Refusal> {
        let c = self.resolved_class(idx).expect("checked by the caller");
        let depth = self.depth;
        let is_instance_of = matches!(op, Op::InstanceOf(_));
        let o = self.peek(0);
        let done = self.b.create_block();
        let check = self.b.create_block();
        let null = self.b.ins().icmp_imm_s(IntCC::Equal, o, 0);
        if is_instance_of {
            let zero = self.b.ins().iconst(I64, 0);
            self.b.def_var(self.stack[depth - 1], zero);
        }
        self.b.ins().brif(null, done, &[], check, &[]);
        self.b.seal_block(check);
        self.b.switch_to_block(check);
        let class = self
            .b
            .ins()
            .load(I64, TRUSTED, o, self.env.layout.object_class as i32);
        let exact = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, class, c as *const _ as i64);
        // A final class has no subclass: only its own objects pass. Any other target asks
        // the subtype stub when the class is not the target itself.
        let has_subtypes = !(matches!(c.kind, meta::class::ClassKind::Instance)
            && c.access & classfile::access::ACC_FINAL != 0);
        let passes = if has_subtypes {
            let other = self.b.create_block();
            let join = self.b.create_block();
            self.b.append_block_param(join, I64);
            let one = self.b.ins().iconst(I64, 1);
            self.b.ins().brif(exact, join, &[one.into()], other, &[]);
            self.b.seal_block(other);
            self.b.switch_to_block(other);
            let target = self.b.ins().iconst(I64, c as *const _ as i64);
            let stub = self.env.stubs.subtype;
            let yes = self.call_pure(self.sigs.subtype, stub, &[class, target]);
            self.b.ins().jump(join, &[yes.into()]);
            self.b.seal_block(join);
            self.b.switch_to_block(join);
            self.b.block_params(join)[0]
        } else {
            self.b.ins().uextend(I64, exact)
        };
        if is_instance_of {
            self.b.def_var(self.stack[depth - 1], passes);
            self.b.ins().jump(done, &[]);
        } else {
            // A failed `checkcast`: the op stub throws.
            let fail = self.b.create_block();
            self.b.set_cold_block(fail);
            self.b.ins().brif(passes, done, &[], fail, &[]);
            self.b.seal_block(fail);
            self.b.switch_to_block(fail);
            self.stub_op(pc, op)?;
            self.b.ins().jump(done, &[]);
        }
        self.b.seal_block(done);
        self.b.switch_to_block(done);
        self.depth = depth;
        Ok(())
    }

    /// The method a call site always runs, if this compile can tell: a static method (of
    /// the caller's class or a superclass, initialized since the caller runs, or of another
    /// class, which the site checks is initialized), a constructor or private method, the
    /// superclass's method `super.m()` selects, a method no class can override, or one no
    /// loaded class overrides (an assumption: the site checks it). It must have
    /// `Method::direct_code`.
    fn direct_target(&self, m: &'static meta::class::Method, kind: InvokeKind) -> Option<Target> {
        m.direct_code()?;
        let known = |assumed, init| {
            Some(Target {
                method: m,
                assumed,
                init,
            })
        };
        if inline::names_target(self.unit.class, m, kind) {
            return known(false, None);
        }
        match kind {
            // Any other class's static method, once initialized.
            InvokeKind::Static if m.is_static() => known(false, Some(m.class)),
            // A superclass's method (`super.m()`): selected from the caller's class alone.
            InvokeKind::Special => {
                let caller = self.unit.assumptions.method.class;
                let selected = meta::class::resolve::select_special(caller, m);
                selected.direct_code().map(|_| Target {
                    method: selected,
                    assumed: false,
                    init: None,
                })
            }
            // Class-hierarchy analysis: a virtual method no loaded class overrides.
            // (Never inside an inlined body: its ops make no calls.)
            InvokeKind::Virtual if deps::assume_not_overridden(m, self.unit.assumptions) => {
                known(true, None)
            }
            _ => None,
        }
    }

    /// The direct call of `callee` at op `pc`, the caller's state flushed: pushes its frame
    /// (as `vm::interp::exec::execute` would) and calls its code, then goes to `join`; goes
    /// to `slow` instead when the callee has no code yet, its frame would not fit, a
    /// safepoint is pending (the VM's path polls, and throws what must be thrown) or its
    /// class is not yet initialized in the running domain (the VM's path initializes it).
    fn direct_call(&mut self, pc: usize, callee: Callee, slow: Block, join: Block) {
        let shape = callee.shape();
        let l = self.env.layout;
        let (t, ld) = (
            self.thread,
            |b: &mut FunctionBuilder, ty, base, off: usize| {
                b.ins().load(ty, TRUSTED, base, off as i32)
            },
        );
        // The caller's record says where it is (for stack walks while the callee runs).
        let fbase = ld(&mut self.b, I64, t, l.thread_frames_base);
        let flen = ld(&mut self.b, I64, t, l.thread_frames_len);
        let top = self.b.ins().imul_imm_s(flen, l.frame_size as i64);
        let rec = self.b.ins().iadd(fbase, top);
        let pcv = self.b.ins().iconst(I32, pc as i64);
        let caller_pc = (l.frame_pc as i64 - l.frame_size as i64) as i32;
        self.b.ins().store(TRUSTED, pcv, rec, caller_pc);
        // What the callee's code says of its frame, and the method its record names.
        let (entry, frame_slots, locals, method) = match callee {
            Callee::Known(target) => {
                let cprep =
                    (target.method.direct_code()).expect("direct_target checked the callee's code");
                let word = self.b.ins().iconst(I64, cprep.tier.entry_word() as i64);
                let entry = self.b.ins().load(I64, MemFlags::trusted(), word, 0);
                let slots = cprep.proven_frame_slots() as i64;
                let slots = self.b.ins().iconst(I64, slots);
                let m = self.b.ins().iconst(I64, target.method as *const _ as i64);
                (entry, slots, LocalCount::Known(cprep.max_locals), m)
            }
            Callee::Selected { method, prep, .. } => {
                let entry = ld(&mut self.b, I64, prep, l.prepared_entry);
                let slots = self
                    .b
                    .ins()
                    .uload32(TRUSTED, prep, l.prepared_frame_slots as i32);
                let locals = self
                    .b
                    .ins()
                    .uload16(I64, TRUSTED, prep, l.prepared_max_locals as i32);
                (entry, slots, LocalCount::Loaded(locals), method)
            }
        };
        // Whether the fast path may run.
        let args_at =
            (self.unit.prep.max_locals as usize + self.depth - shape.arg_slots as usize) * 8;
        let frame = self.b.ins().iadd_imm_s(self.frame, args_at as i64);
        let frame_bytes = self.b.ins().ishl_imm_u(frame_slots, 3);
        let end = self.b.ins().iadd(frame, frame_bytes);
        let limit = ld(&mut self.b, I64, t, l.thread_stack_limit);
        let max_depth = ld(&mut self.b, I64, t, l.thread_max_depth);
        let cap = ld(&mut self.b, I64, t, l.thread_frames_cap);
        let poll_word = ld(&mut self.b, I64, t, l.thread_poll_word);
        let polled = self.b.ins().uload8(I32, TRUSTED, poll_word, 0);
        let no_code = self.b.ins().icmp_imm_s(IntCC::Equal, entry, 0);
        let no_room = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, limit);
        let too_deep = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, flen, max_depth);
        let full = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, flen, cap);
        let a = self.b.ins().bor(no_code, no_room);
        let b2 = self.b.ins().bor(too_deep, full);
        let c = self.b.ins().bor(a, b2);
        let polled = self.b.ins().icmp_imm_s(IntCC::NotEqual, polled, 0);
        let mut go_slow = self.b.ins().bor(c, polled);
        if let Callee::Known(Target {
            init: Some(class), ..
        }) = callee
        {
            let initialized = self.initialized(class);
            let not_yet = self.b.ins().icmp_imm_s(IntCC::Equal, initialized, 0);
            go_slow = self.b.ins().bor(go_slow, not_yet);
        }
        let fast = self.b.create_block();
        self.b.set_cold_block(slow);
        self.b.ins().brif(go_slow, slow, &[], fast, &[]);
        self.b.seal_block(fast);
        self.b.switch_to_block(fast);
        // The callee's frame: locals past the arguments zeroed, its record pushed.
        let zero = self.b.ins().iconst(I64, 0);
        self.zero_locals(frame, shape.arg_slots, locals);
        let stack_base = ld(&mut self.b, I64, t, l.thread_stack_base);
        let from_base = self.b.ins().isub(frame, stack_base);
        let bp = self.b.ins().ushr_imm_s(from_base, 3);
        self.b
            .ins()
            .store(TRUSTED, method, rec, l.frame_method as i32);
        let pc0 = self.b.ins().iconst(I32, 0);
        self.b.ins().store(TRUSTED, pc0, rec, l.frame_pc as i32);
        let bp32 = self.b.ins().ireduce(I32, bp);
        self.b.ins().store(TRUSTED, bp32, rec, l.frame_bp as i32);
        let pushed = self.b.ins().iadd_imm_s(flen, 1);
        self.b
            .ins()
            .store(TRUSTED, pushed, t, l.thread_frames_len as i32);
        let old_sp = ld(&mut self.b, I64, t, l.thread_sp);
        let new_sp = self.b.ins().iadd(bp, frame_slots);
        self.b.ins().store(TRUSTED, new_sp, t, l.thread_sp as i32);
        // The call, and the callee's exit.
        let at0 = self.b.ins().iconst(I32, 0);
        let call = self
            .b
            .ins()
            .call_indirect(self.sigs.entry, entry, &[frame, t, at0]);
        let exit = self.b.inst_results(call)[0];
        let returned = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, exit, Exit::Returned.encode() as i64);
        let done = self.b.create_block();
        let resume = self.b.create_block();
        self.b.set_cold_block(resume);
        self.b.ins().brif(returned, done, &[], resume, &[]);
        self.b.seal_block(done);
        self.b.seal_block(resume);
        self.b.switch_to_block(done);
        self.b
            .ins()
            .store(TRUSTED, flen, t, l.thread_frames_len as i32);
        self.b.ins().store(TRUSTED, old_sp, t, l.thread_sp as i32);
        if shape.ret.slots() == 2 {
            self.b.ins().store(TRUSTED, zero, frame, 8);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(resume);
        let callee_addr = self.b.ins().iconst(I64, self.env.stubs.resume as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.sigs.resume, callee_addr, &[t, exit, old_sp]);
        let status = self.b.inst_results(call)[0];
        self.exit_if_threw(status, pc, self.depth);
        self.b.ins().jump(join, &[]);
    }

    /// Zeroes a new frame's locals (at `frame`) from slot `from` (past the arguments) to
    /// `count`: stores when the count is known, else a loop.
    fn zero_locals(&mut self, frame: Value, from: u16, count: LocalCount) {
        let zero = self.b.ins().iconst(I64, 0);
        let count = match count {
            LocalCount::Known(n) => {
                for i in from..n {
                    self.b.ins().store(TRUSTED, zero, frame, i as i32 * 8);
                }
                return;
            }
            LocalCount::Loaded(n) => n,
        };
        let start = self.b.ins().iadd_imm_s(frame, from as i64 * 8);
        let bytes = self.b.ins().ishl_imm_u(count, 3);
        let end = self.b.ins().iadd(frame, bytes);
        let slot = self.b.declare_var(I64);
        self.b.def_var(slot, start);
        let head = self.b.create_block();
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let at = self.b.use_var(slot);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, end);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.seal_block(body);
        self.b.switch_to_block(body);
        self.b.ins().store(TRUSTED, zero, at, 0);
        let next = self.b.ins().iadd_imm_s(at, 8);
        self.b.def_var(slot, next);
        self.b.ins().jump(head, &[]);
        self.b.seal_block(head);
        self.b.seal_block(done);
        self.b.switch_to_block(done);
    }

    /// Calls stub `addr` of signature `sig` with (thread, pc, depth, `extra`...), the state
    /// already flushed; returns its status.
    fn call_flushed(&mut self, sig: SigRef, addr: usize, extra: &[Value], pc: usize) -> Value {
        let callee = self.b.ins().iconst(I64, addr as i64);
        let pcv = self.b.ins().iconst(I32, pc as i64);
        let dv = self.b.ins().iconst(I32, self.depth as i64);
        let mut args = vec![self.thread, pcv, dv];
        args.extend_from_slice(extra);
        let call = self.b.ins().call_indirect(sig, callee, &args);
        self.b.inst_results(call)[0]
    }

    /// Leaves with the exception pending at op `pc` (with `depth` slots) when a stub's
    /// `status` says it threw; goes on in a new block otherwise.
    fn exit_if_threw(&mut self, status: Value, pc: usize, depth: usize) {
        let failed = self
            .b
            .ins()
            .icmp_imm_s(IntCC::NotEqual, status, STUB_OK as i64);
        // The interpreter takes over at a handler and reads every local from the frame, where
        // they are (written through).
        self.leave_if(failed, |t| t.leave_at(pc, depth, true));
    }

    /// The op at `pc`, run by the VM.
    fn stub_op(&mut self, pc: usize, op: &Op) -> Result<(), Refusal> {
        let e = effect::of(op, self.unit.operands).map_err(Refusal::Effect)?;
        let after = self.depth - e.pops + e.push.slots();
        self.call_status_stub(self.env.stubs.op, pc, self.depth, after);
        self.depth = after;
        Ok(())
    }

    // ---- control flow ----

    fn leader(&self, pc: usize) -> Block {
        self.leaders[pc].expect("a branch target starts a block")
    }

    /// Where a branch from `from` to `target` goes: the target's block, or for a backward
    /// branch a block that polls for a safepoint first.
    fn branch_to(&mut self, target: u32, from: usize) -> Block {
        let target = target as usize;
        if target > from {
            return self.leader(target);
        }
        let poll = self.b.create_block();
        self.polls.push((poll, target));
        poll
    }

    /// Fills the poll blocks of the current op's backward branches.
    fn fill_polls(&mut self) {
        let polls = std::mem::take(&mut self.polls);
        for (block, target) in polls {
            self.b.switch_to_block(block);
            let depth = self.depth_at(target).unwrap_or(0);
            let word = self.b.ins().load(
                I64,
                TRUSTED,
                self.thread,
                self.env.layout.thread_poll_word as i32,
            );
            let flag = self.b.ins().uload8(I32, TRUSTED, word, 0);
            let slow = self.b.create_block();
            self.b.set_cold_block(slow);
            let to = self.leader(target);
            self.b.ins().brif(flag, slow, &[], to, &[]);
            self.b.switch_to_block(slow);
            self.call_status_stub(self.env.stubs.poll, target, depth, depth);
            self.b.ins().jump(to, &[]);
        }
    }

    fn cond_branch(&mut self, cond: Value, target: u32, pc: usize) {
        let to = self.branch_to(target, pc);
        let next = self.leader(pc + 1);
        self.b.ins().brif(cond, to, &[], next, &[]);
    }

    fn switch(&mut self, index: u32, table: bool) {
        let key = self.pop();
        let key = self.int(key);
        let sw = &self.unit.prep.switches[index as usize];
        let mut s = Switch::new();
        if table {
            for (k, &t) in sw.dense.iter().enumerate() {
                let key = sw.low.wrapping_add(k as i32) as u32;
                s.set_entry(key as u128, self.leader(t as usize));
            }
        } else {
            for &(k, t) in &sw.pairs {
                s.set_entry(k as u32 as u128, self.leader(t as usize));
            }
        }
        let default = self.leader(sw.default as usize);
        s.emit(&mut self.b, key, default);
    }

    // ---- memory ----

    /// The address of element `index` of `array` (checked: null and bounds leave at `pc`),
    /// minus the array base (which goes into the access's offset).
    fn element(&mut self, array: Value, index: Value, size: u32, pc: usize) -> Value {
        self.exit_if_null(array, pc);
        let len = self
            .b
            .ins()
            .load(I32, TRUSTED, array, self.env.layout.array_length as i32);
        let i = self.int(index);
        let out = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
        self.exit_if(out, pc);
        let wide = self.b.ins().uextend(I64, i);
        let scaled = if size > 1 {
            self.b.ins().ishl_imm_s(wide, size.trailing_zeros() as i64)
        } else {
            wide
        };
        self.b.ins().iadd(array, scaled)
    }

    /// Loads a value of type `ty` at `addr + off` as slot bits.
    fn load_typed(&mut self, ty: BasicType, addr: Value, off: i32) -> Value {
        self.load_with(TRUSTED, ty, addr, off)
    }

    /// [`Self::load_typed`] with memory flags `flags`.
    fn load_with(&mut self, flags: MemFlags, ty: BasicType, addr: Value, off: i32) -> Value {
        let ins = self.b.ins();
        match ty {
            BasicType::Float => {
                let f = ins.load(F32, flags, addr, off);
                self.float_slot(f)
            }
            BasicType::Double => {
                let d = ins.load(F64, flags, addr, off);
                self.double_slot(d)
            }
            BasicType::Int => ins.uload32(flags, addr, off),
            BasicType::Long | BasicType::Ref => ins.load(I64, flags, addr, off),
            BasicType::Boolean => ins.uload8(I64, flags, addr, off),
            BasicType::Byte => {
                let v = ins.sload8(I32, flags, addr, off);
                self.int_slot(v)
            }
            BasicType::Char => ins.uload16(I64, flags, addr, off),
            BasicType::Short => {
                let v = ins.sload16(I32, flags, addr, off);
                self.int_slot(v)
            }
            BasicType::Void => ins.iconst(I64, 0),
        }
    }

    /// Stores slot bits `v` as a primitive of type `ty` at `addr + off`.
    fn store_typed(&mut self, ty: BasicType, v: Value, addr: Value, off: i32) {
        self.store_with(TRUSTED, ty, v, addr, off)
    }

    /// [`Self::store_typed`] with memory flags `flags`.
    fn store_with(&mut self, flags: MemFlags, ty: BasicType, v: Value, addr: Value, off: i32) {
        if matches!(ty, BasicType::Float | BasicType::Double)
            && let Some(&f) = self.views.get(&v)
        {
            self.b.ins().store(flags, f, addr, off);
            return;
        }
        let ins = self.b.ins();
        match ty {
            BasicType::Int | BasicType::Float => {
                ins.istore32(flags, v, addr, off);
            }
            BasicType::Long | BasicType::Double | BasicType::Ref => {
                ins.store(flags, v, addr, off);
            }
            BasicType::Boolean => {
                let bit = ins.band_imm_s(v, 1);
                self.b.ins().istore8(flags, bit, addr, off);
            }
            BasicType::Byte => {
                ins.istore8(flags, v, addr, off);
            }
            BasicType::Char | BasicType::Short => {
                ins.istore16(flags, v, addr, off);
            }
            BasicType::Void => {}
        }
    }

    /// The write barrier after reference `value` was stored into `holder`: an old holder of a
    /// young value is remembered (`vm::heap::barrier`'s rule, inline).
    fn barrier(&mut self, holder: Value, value: Value) {
        let l = self.env.layout;
        let start = self
            .b
            .ins()
            .load(I64, TRUSTED, self.thread, l.thread_nursery_start as i32);
        let size = self
            .b
            .ins()
            .load(I64, TRUSTED, self.thread, l.thread_nursery_size as i32);
        let dv = self.b.ins().isub(value, start);
        let young_value = self.b.ins().icmp(IntCC::UnsignedLessThan, dv, size);
        let dh = self.b.ins().isub(holder, start);
        let old_holder = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, dh, size);
        let both = self.b.ins().band(young_value, old_holder);
        let slow = self.b.create_block();
        let cont = self.b.create_block();
        self.b.set_cold_block(slow);
        self.b.ins().brif(both, slow, &[], cont, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        let callee = self.b.ins().iconst(I64, self.env.stubs.remember as i64);
        self.b
            .ins()
            .call_indirect(self.sigs.remember, callee, &[self.thread, holder]);
        self.b.ins().jump(cont, &[]);
        self.b.seal_block(cont);
        self.b.switch_to_block(cont);
    }

    // ---- arithmetic ----

    fn int_binop(&mut self, f: impl FnOnce(&mut FunctionBuilder, Value, Value) -> Value) {
        let b = self.pop();
        let a = self.pop();
        let (a, b) = (self.int(a), self.int(b));
        let r = f(&mut self.b, a, b);
        let r = self.int_slot(r);
        self.push(r);
    }

    fn long_binop(&mut self, f: impl FnOnce(&mut FunctionBuilder, Value, Value) -> Value) {
        let b = self.pop2();
        let a = self.pop2();
        let r = f(&mut self.b, a, b);
        self.push2(r);
    }

    fn float_binop(&mut self, f: impl FnOnce(&mut FunctionBuilder, Value, Value) -> Value) {
        let b = self.pop();
        let a = self.pop();
        let (a, b) = (self.float(a), self.float(b));
        let r = f(&mut self.b, a, b);
        let r = self.float_slot(r);
        self.push(r);
    }

    fn double_binop(&mut self, f: impl FnOnce(&mut FunctionBuilder, Value, Value) -> Value) {
        let b = self.pop2();
        let a = self.pop2();
        let (a, b) = (self.double(a), self.double(b));
        let r = f(&mut self.b, a, b);
        let r = self.double_slot(r);
        self.push2(r);
    }

    /// Java's `/` or `%` of ints or longs (`ty`), the divisor checked non-zero already:
    /// `MIN / -1` is MIN and `MIN % -1` is 0, where the machine instruction would trap.
    ///
    /// A divisor `known` to be a constant other than -1 needs neither guard (and Cranelift
    /// turns the division into multiplications and shifts).
    fn divide(&mut self, ty: ir::Type, a: Value, b: Value, known: Option<i64>, rem: bool) -> Value {
        if known.is_some_and(|k| k != -1 && k != 0) {
            return if rem {
                self.b.ins().srem(a, b)
            } else {
                self.b.ins().sdiv(a, b)
            };
        }
        let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
        let one = self.b.ins().iconst(ty, 1);
        let safe = self.b.ins().select(minus_one, one, b);
        if rem {
            let r = self.b.ins().srem(a, safe);
            let zero = self.b.ins().iconst(ty, 0);
            self.b.ins().select(minus_one, zero, r)
        } else {
            let q = self.b.ins().sdiv(a, safe);
            let neg = self.b.ins().ineg(a);
            self.b.ins().select(minus_one, neg, q)
        }
    }

    /// Leaves at op `pc` (the interpreter throws) when divisor `b` is zero, unless it is
    /// `known` to be a non-zero constant: then nothing is emitted (so an inlined body may
    /// divide by one).
    fn exit_if_zero_divisor(&mut self, b: Value, known: Option<i64>, pc: usize) {
        if known.is_some_and(|k| k != 0) {
            return;
        }
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        self.exit_if(zero, pc);
    }

    /// The constant slot value `v` is, if an `iconst` made it.
    fn known_const(&self, v: Value) -> Option<i64> {
        let ir::ValueDef::Result(inst, _) = self.b.func.dfg.value_def(v) else {
            return None;
        };
        match self.b.func.dfg.insts[inst] {
            ir::InstructionData::UnaryImm {
                opcode: ir::Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// -1, 0 or 1 as an int slot: `gt` and `lt` decide, else `unordered` (NaN) or 0.
    fn compare_result(&mut self, gt: Value, lt: Value, eq: Value, unordered: i64) -> Value {
        let one = self.b.ins().iconst(I32, 1);
        let minus = self.b.ins().iconst(I32, -1);
        let zero = self.b.ins().iconst(I32, 0);
        let nan = self.b.ins().iconst(I32, unordered);
        let r = self.b.ins().select(eq, zero, nan);
        let r = self.b.ins().select(lt, minus, r);
        let r = self.b.ins().select(gt, one, r);
        self.int_slot(r)
    }

    fn float_compare(&mut self, a: Value, b: Value, unordered: i64) {
        let gt = self.b.ins().fcmp(FloatCC::GreaterThan, a, b);
        let lt = self.b.ins().fcmp(FloatCC::LessThan, a, b);
        let eq = self.b.ins().fcmp(FloatCC::Equal, a, b);
        let r = self.compare_result(gt, lt, eq, unordered);
        self.push(r);
    }

    fn call_pure(&mut self, sig: SigRef, addr: usize, args: &[Value]) -> Value {
        let callee = self.b.ins().iconst(I64, addr as i64);
        let call = self.b.ins().call_indirect(sig, callee, args);
        self.b.inst_results(call)[0]
    }

    // ---- ops ----

    /// Translates the op at `pc`; false if control does not fall through to the next op.
    fn op(&mut self, pc: usize, op: &Op) -> Result<bool, Refusal> {
        use Op::*;
        match *op {
            Nop => {}
            AconstNull => {
                let z = self.b.ins().iconst(I64, 0);
                self.push(z);
            }
            Iconst(v) => {
                let c = self.b.ins().iconst(I64, v as u32 as i64);
                self.push(c);
            }
            Fconst(v) => {
                let c = self.b.ins().iconst(I64, v.to_bits() as i64);
                self.push(c);
            }
            Const2(i) => {
                let bits = self.unit.prep.wide[i as usize];
                let c = self.b.ins().iconst(I64, bits as i64);
                self.push2(c);
            }
            Load(n) => {
                let v = self.local(n);
                self.push(v);
            }
            Load2(n) => {
                let v = self.local(n);
                self.push2(v);
            }
            Store(n) => {
                let v = self.pop();
                self.set_local(n, v);
            }
            Store2(n) => {
                let v = self.pop2();
                self.set_local(n, v);
                let z = self.b.ins().iconst(I64, 0);
                self.set_local(n + 1, z);
            }
            ArrayLoad(ty) => {
                let index = self.peek(0);
                let array = self.peek(1);
                let size = element_size(ty);
                let addr = self.element(array, index, size, pc);
                self.depth -= 2;
                let v = self.load_typed(ty, addr, self.env.layout.array_base as i32);
                self.push_sized(v, ty.slots());
            }
            ArrayStore(BasicType::Ref) => self.stub_op(pc, op)?,
            ArrayStore(ty) => {
                let w = ty.slots();
                let v = self.peek(w - 1);
                let index = self.peek(w);
                let array = self.peek(w + 1);
                let addr = self.element(array, index, element_size(ty), pc);
                let base = self.env.layout.array_base as i32;
                if ty == BasicType::Byte {
                    // bastore serves byte[] and boolean[]; a boolean keeps only its low bit.
                    let v = self.boolean_masked(array, v);
                    self.b.ins().istore8(TRUSTED, v, addr, base);
                } else {
                    self.store_typed(ty, v, addr, base);
                }
                self.depth -= 2 + w;
            }
            Pop => self.depth -= 1,
            Pop2 => self.depth -= 2,
            Dup | DupX1 | DupX2 | Dup2 | Dup2X1 | Dup2X2 | Swap => {
                let e = effect::of(op, self.unit.operands).map_err(Refusal::Effect)?;
                let Push::Shuffle(order) = e.push else {
                    return Err(Refusal::Effect("a shuffle without an order"));
                };
                let popped: Vec<Value> = (0..e.pops).map(|k| self.peek(k)).collect();
                self.depth -= e.pops;
                for &k in order {
                    self.push(popped[k as usize]);
                }
            }
            Iadd => self.int_binop(|b, x, y| b.ins().iadd(x, y)),
            Isub => self.int_binop(|b, x, y| b.ins().isub(x, y)),
            Imul => self.int_binop(|b, x, y| b.ins().imul(x, y)),
            Iand => self.int_binop(|b, x, y| b.ins().band(x, y)),
            Ior => self.int_binop(|b, x, y| b.ins().bor(x, y)),
            Ixor => self.int_binop(|b, x, y| b.ins().bxor(x, y)),
            Ishl => self.int_binop(|b, x, y| {
                let s = b.ins().band_imm_s(y, 31);
                b.ins().ishl(x, s)
            }),
            Ishr => self.int_binop(|b, x, y| {
                let s = b.ins().band_imm_s(y, 31);
                b.ins().sshr(x, s)
            }),
            Iushr => self.int_binop(|b, x, y| {
                let s = b.ins().band_imm_s(y, 31);
                b.ins().ushr(x, s)
            }),
            Ladd => self.long_binop(|b, x, y| b.ins().iadd(x, y)),
            Lsub => self.long_binop(|b, x, y| b.ins().isub(x, y)),
            Lmul => self.long_binop(|b, x, y| b.ins().imul(x, y)),
            Land => self.long_binop(|b, x, y| b.ins().band(x, y)),
            Lor => self.long_binop(|b, x, y| b.ins().bor(x, y)),
            Lxor => self.long_binop(|b, x, y| b.ins().bxor(x, y)),
            Lshl | Lshr | Lushr => {
                let s = self.pop();
                let s = self.b.ins().band_imm_s(s, 63);
                let a = self.pop2();
                let r = match op {
                    Lshl => self.b.ins().ishl(a, s),
                    Lshr => self.b.ins().sshr(a, s),
                    _ => self.b.ins().ushr(a, s),
                };
                self.push2(r);
            }
            Idiv | Irem => {
                let slot = self.peek(0);
                let known = self.known_const(slot).map(|k| k as i32 as i64);
                let b = self.int(slot);
                self.exit_if_zero_divisor(b, known, pc);
                self.depth -= 1;
                let a = self.pop();
                let a = self.int(a);
                let r = self.divide(I32, a, b, known, matches!(op, Irem));
                let r = self.int_slot(r);
                self.push(r);
            }
            Ldiv | Lrem => {
                let b = self.peek(1);
                let known = self.known_const(b);
                self.exit_if_zero_divisor(b, known, pc);
                self.depth -= 2;
                let a = self.pop2();
                let r = self.divide(I64, a, b, known, matches!(op, Lrem));
                self.push2(r);
            }
            Fadd => self.float_binop(|b, x, y| b.ins().fadd(x, y)),
            Fsub => self.float_binop(|b, x, y| b.ins().fsub(x, y)),
            Fmul => self.float_binop(|b, x, y| b.ins().fmul(x, y)),
            Fdiv => self.float_binop(|b, x, y| b.ins().fdiv(x, y)),
            Dadd => self.double_binop(|b, x, y| b.ins().fadd(x, y)),
            Dsub => self.double_binop(|b, x, y| b.ins().fsub(x, y)),
            Dmul => self.double_binop(|b, x, y| b.ins().fmul(x, y)),
            Ddiv => self.double_binop(|b, x, y| b.ins().fdiv(x, y)),
            Frem => {
                let y = self.pop();
                let x = self.pop();
                let (x, y) = (self.float(x), self.float(y));
                let r = self.call_pure(self.sigs.frem, self.env.stubs.frem, &[x, y]);
                let r = self.float_slot(r);
                self.push(r);
            }
            Drem => {
                let y = self.pop2();
                let x = self.pop2();
                let (x, y) = (self.double(x), self.double(y));
                let r = self.call_pure(self.sigs.drem, self.env.stubs.drem, &[x, y]);
                let r = self.double_slot(r);
                self.push2(r);
            }
            Ineg => {
                let a = self.pop();
                let a = self.int(a);
                let r = self.b.ins().ineg(a);
                let r = self.int_slot(r);
                self.push(r);
            }
            Lneg => {
                let a = self.pop2();
                let r = self.b.ins().ineg(a);
                self.push2(r);
            }
            Fneg => {
                let a = self.pop();
                let a = self.float(a);
                let r = self.b.ins().fneg(a);
                let r = self.float_slot(r);
                self.push(r);
            }
            Dneg => {
                let a = self.pop2();
                let a = self.double(a);
                let r = self.b.ins().fneg(a);
                let r = self.double_slot(r);
                self.push2(r);
            }
            Iinc(n, d) => {
                let v = self.local(n);
                let v = self.int(v);
                let r = self.b.ins().iadd_imm_s(v, d as i64);
                let r = self.int_slot(r);
                self.set_local(n, r);
            }
            I2l => {
                let a = self.pop();
                let a = self.int(a);
                let r = self.b.ins().sextend(I64, a);
                self.push2(r);
            }
            I2f => {
                let a = self.pop();
                let a = self.int(a);
                let r = self.b.ins().fcvt_from_sint(F32, a);
                let r = self.float_slot(r);
                self.push(r);
            }
            I2d => {
                let a = self.pop();
                let a = self.int(a);
                let r = self.b.ins().fcvt_from_sint(F64, a);
                let r = self.double_slot(r);
                self.push2(r);
            }
            L2i => {
                let a = self.pop2();
                let r = self.b.ins().ireduce(I32, a);
                let r = self.int_slot(r);
                self.push(r);
            }
            L2f => {
                let a = self.pop2();
                let r = self.b.ins().fcvt_from_sint(F32, a);
                let r = self.float_slot(r);
                self.push(r);
            }
            L2d => {
                let a = self.pop2();
                let r = self.b.ins().fcvt_from_sint(F64, a);
                let r = self.double_slot(r);
                self.push2(r);
            }
            F2i => {
                let a = self.pop();
                let a = self.float(a);
                let r = self.b.ins().fcvt_to_sint_sat(I32, a);
                let r = self.int_slot(r);
                self.push(r);
            }
            F2l => {
                let a = self.pop();
                let a = self.float(a);
                let r = self.b.ins().fcvt_to_sint_sat(I64, a);
                self.push2(r);
            }
            F2d => {
                let a = self.pop();
                let a = self.float(a);
                let r = self.b.ins().fpromote(F64, a);
                let r = self.double_slot(r);
                self.push2(r);
            }
            D2i => {
                let a = self.pop2();
                let a = self.double(a);
                let r = self.b.ins().fcvt_to_sint_sat(I32, a);
                let r = self.int_slot(r);
                self.push(r);
            }
            D2l => {
                let a = self.pop2();
                let a = self.double(a);
                let r = self.b.ins().fcvt_to_sint_sat(I64, a);
                self.push2(r);
            }
            D2f => {
                let a = self.pop2();
                let a = self.double(a);
                let r = self.b.ins().fdemote(F32, a);
                let r = self.float_slot(r);
                self.push(r);
            }
            I2b | I2c | I2s => {
                let a = self.pop();
                let narrow = if matches!(op, I2b) { I8 } else { I16 };
                let n = self.b.ins().ireduce(narrow, a);
                let r = if matches!(op, I2c) {
                    self.b.ins().uextend(I32, n)
                } else {
                    self.b.ins().sextend(I32, n)
                };
                let r = self.int_slot(r);
                self.push(r);
            }
            Lcmp => {
                let b = self.pop2();
                let a = self.pop2();
                let gt = self.b.ins().icmp(IntCC::SignedGreaterThan, a, b);
                let lt = self.b.ins().icmp(IntCC::SignedLessThan, a, b);
                let eq = self.b.ins().icmp(IntCC::Equal, a, b);
                let r = self.compare_result(gt, lt, eq, 0);
                self.push(r);
            }
            Fcmpl | Fcmpg => {
                let b = self.pop();
                let a = self.pop();
                let (a, b) = (self.float(a), self.float(b));
                self.float_compare(a, b, if matches!(op, Fcmpg) { 1 } else { -1 });
            }
            Dcmpl | Dcmpg => {
                let b = self.pop2();
                let a = self.pop2();
                let (a, b) = (self.double(a), self.double(b));
                self.float_compare(a, b, if matches!(op, Dcmpg) { 1 } else { -1 });
            }
            If(c, t) => {
                let v = self.pop();
                let v = self.int(v);
                let cond = self.b.ins().icmp_imm_s(int_cc(c), v, 0);
                self.cond_branch(cond, t, pc);
                return Ok(false);
            }
            IfIcmp(c, t) => {
                let b = self.pop();
                let a = self.pop();
                let (a, b) = (self.int(a), self.int(b));
                let cond = self.b.ins().icmp(int_cc(c), a, b);
                self.cond_branch(cond, t, pc);
                return Ok(false);
            }
            IfAcmpEq(t) | IfAcmpNe(t) => {
                let b = self.pop();
                let a = self.pop();
                let cc = if matches!(op, IfAcmpEq(_)) {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                let cond = self.b.ins().icmp(cc, a, b);
                self.cond_branch(cond, t, pc);
                return Ok(false);
            }
            IfNull(t) | IfNonNull(t) => {
                let a = self.pop();
                let cc = if matches!(op, IfNull(_)) {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                let cond = self.b.ins().icmp_imm_s(cc, a, 0);
                self.cond_branch(cond, t, pc);
                return Ok(false);
            }
            Goto(t) => {
                let to = self.branch_to(t, pc);
                self.b.ins().jump(to, &[]);
                return Ok(false);
            }
            TableSwitch(i) => {
                self.switch(i, true);
                return Ok(false);
            }
            LookupSwitch(i) => {
                self.switch(i, false);
                return Ok(false);
            }
            Return1 | Return2 => {
                let v = self.peek(if matches!(op, Return2) { 1 } else { 0 });
                self.b.ins().store(TRUSTED, v, self.frame, 0);
                let r = self.b.ins().iconst(I64, Exit::Returned.encode() as i64);
                self.b.ins().return_(&[r]);
                return Ok(false);
            }
            Return => {
                let r = self.b.ins().iconst(I64, Exit::Returned.encode() as i64);
                self.b.ins().return_(&[r]);
                return Ok(false);
            }
            ReturnRegister => {
                // An object of a finalizable class leaves for the interpreter, which registers
                // it; any other returns here.
                let o = self.local(0);
                let class = self
                    .b
                    .ins()
                    .load(I64, TRUSTED, o, self.env.layout.object_class as i32);
                let flag = self.b.ins().uload8(
                    I32,
                    TRUSTED,
                    class,
                    self.env.layout.class_finalizable as i32,
                );
                self.exit_if(flag, pc);
                let r = self.b.ins().iconst(I64, Exit::Returned.encode() as i64);
                self.b.ins().return_(&[r]);
                return Ok(false);
            }
            GetFieldInt(off) | GetFieldWide(off) | GetFieldRef(off) | GetFieldQ(_, off) => {
                let ty = self.quick_field_type(pc, op);
                let o = self.peek(0);
                self.exit_if_null(o, pc);
                self.depth -= 1;
                let v = self.load_typed(ty, o, off as i32);
                self.push_sized(v, ty.slots());
            }
            PutFieldInt(off) | PutFieldWide(off) | PutFieldRef(off) | PutFieldQ(_, off) => {
                let ty = self.quick_field_type(pc, op);
                let w = ty.slots();
                let v = self.peek(w - 1);
                let o = self.peek(w);
                self.exit_if_null(o, pc);
                self.store_typed(ty, v, o, off as i32);
                if ty == BasicType::Ref {
                    self.barrier(o, v);
                }
                self.depth -= 1 + w;
            }
            ArrayLength => {
                let a = self.peek(0);
                self.exit_if_null(a, pc);
                let len = self
                    .b
                    .ins()
                    .uload32(TRUSTED, a, self.env.layout.array_length as i32);
                self.depth -= 1;
                self.push(len);
            }
            // Thrown by the interpreter, which searches the handlers.
            Athrow | FellOff => {
                self.exit_here(pc);
                return Ok(false);
            }
            Jsr(_) | Ret(_) => return Err(Refusal::Subroutines),
            InvokeStatic(idx) if self.inline_intrinsic(idx) => {}
            InvokeStatic(idx) if self.call_pure_intrinsic(idx) => {}
            InvokeStatic(idx) if self.invoke_resolved(pc, idx, InvokeKind::Static) => {}
            InvokeSpecial(idx) if self.invoke_resolved(pc, idx, InvokeKind::Special) => {}
            GetField(idx) | PutField(idx) if let Some(quick) = self.field_quickened(op, idx) => {
                return self.op(pc, &quick);
            }
            InvokeInterface(idx) if let Some(seen) = self.profiled(pc, idx) => {
                self.invoke_profiled(pc, op, seen)?
            }
            InvokeInterface(idx) if self.call_interface(pc, idx) => {}
            InvokeVirtual(idx) if self.inline_mapping(pc, idx) => {}
            InvokeVirtual(idx) if self.inline_unsafe(pc, idx) => {}
            InvokeVirtual(idx) if self.invoke_resolved(pc, idx, InvokeKind::Virtual) => {}
            PsoGet(ty, place) => {
                let o = self.peek(0);
                self.exit_if_null(o, pc);
                let base = self.pso_bytes(o, PSO_WORDS_AT, false, pc);
                self.depth -= 1;
                let v = self.load_with(CONTAINER, ty, base, place as i32);
                self.push_sized(v, ty.slots());
            }
            PsoPut(ty, place) => {
                let w = ty.slots();
                let v = self.peek(w - 1);
                let o = self.peek(w);
                self.exit_if_null(o, pc);
                let base = self.pso_bytes(o, PSO_WORDS_AT, true, pc);
                self.store_with(CONTAINER, ty, v, base, place as i32);
                self.depth -= 1 + w;
            }
            GetStatic(idx) | PutStatic(idx) if let Some(f) = self.static_resolved(idx) => {
                self.static_field(pc, op, f)?
            }
            New(idx) if self.new_resolved(pc, idx) => {}
            CheckCast(idx) | InstanceOf(idx) if self.resolved_class(idx).is_some() => {
                self.type_check(pc, op, idx)?
            }
            LdcString(_) | LdcClass(_) | LdcOther(_) | GetStatic(_) | PutStatic(_)
            | GetField(_) | PutField(_) | InvokeVirtual(_) | InvokeSpecial(_) | InvokeStatic(_)
            | InvokeInterface(_) | InvokeDynamic(_) | New(_) | NewArray(_) | ANewArray(_)
            | CheckCast(_) | InstanceOf(_) | MonitorEnter | MonitorExit | MultiANewArray(..) => {
                self.stub_op(pc, op)?
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
            | InvokeInterfaceIC(..)
            | InvokeVirtualIC(..)
            | LoadGetFieldInt(..)
            | LoadGetFieldWide(..)
            | LoadGetFieldRef(..) => {
                return Err(Refusal::Effect("superinstruction among the plain ops"));
            }
        }
        Ok(true)
    }

    /// The type of the field quickened op `pc` reads or writes. The op tells all but a
    /// float from an int and a double from a long; those come from the field's descriptor,
    /// named by the bytecode's constant-pool index, so floats and doubles load straight into
    /// vector registers.
    fn quick_field_type(&self, pc: usize, op: &Op) -> BasicType {
        let (_, ty) = op.quick_field_shape().expect("a quickened field op");
        if !matches!(ty, BasicType::Int | BasicType::Long) {
            return ty;
        }
        let bci = self.unit.prep.bcis[pc] as usize;
        let named = match self.unit.bytecode.get(bci + 1..bci + 3) {
            Some(&[hi, lo]) => self
                .unit
                .operands
                .field_type(&Op::GetField(u16::from_be_bytes([hi, lo]))),
            _ => None,
        };
        match (ty, named) {
            (BasicType::Int, Some(BasicType::Float)) => BasicType::Float,
            (BasicType::Long, Some(BasicType::Double)) => BasicType::Double,
            _ => ty,
        }
    }

    /// The quickened form of field op `op` (`getfield`/`putfield` of constant-pool entry
    /// `idx`) if the entry had resolved when this compile began (the interpreter quickens only
    /// fields whose class was loaded when the method was prepared; most others have resolved
    /// by the time it is compiled): the same ops `exec::quicken` makes.
    /// The static field entry `idx` had resolved to when this compile began.
    fn static_resolved(&self, idx: u16) -> Option<&'a meta::class::resolve::ResolvedField> {
        match self.resolved(idx)? {
            Resolved::Field(f) if f.is_static => Some(f),
            _ => None,
        }
    }

    /// `getstatic` or `putstatic` (op `op` at `pc`) of resolved static field `f`: in a class
    /// the running domain has initialized, read or written in the class's mirror there,
    /// found through the thread's domain (the word is the collector's to update when the
    /// mirror moves, and nothing can move it between the load and the access); anything else
    /// by the op stub, which initializes the class. A volatile write is followed by a fence,
    /// which is all the Java memory model asks of x86-64 here.
    fn static_field(
        &mut self,
        pc: usize,
        op: &Op,
        f: &meta::class::resolve::ResolvedField,
    ) -> Result<(), Refusal> {
        let put = matches!(op, Op::PutStatic(_));
        let (depth, w) = (self.depth, f.ty.slots());
        let after = if put { depth - w } else { depth + w };
        let l = self.env.layout;
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let done = self.b.create_block();
        self.b.set_cold_block(slow);
        let initialized = self.initialized(f.holder);
        let mirrors = self
            .b
            .ins()
            .load(I64, TRUSTED, self.thread, l.thread_mirrors as i32);
        // Class ids are below the table's 2^22 entries, so the id's word is an offset.
        let mirror = self
            .b
            .ins()
            .load(I64, TRUSTED, mirrors, (f.holder.id.0 * 8) as i32);
        let has_mirror = self.b.ins().icmp_imm_s(IntCC::NotEqual, mirror, 0);
        let initialized = self.b.ins().icmp_imm_s(IntCC::NotEqual, initialized, 0);
        let ready = self.b.ins().band(initialized, has_mirror);
        self.b.ins().brif(ready, fast, &[], slow, &[]);
        self.b.seal_block(fast);
        self.b.seal_block(slow);
        self.b.switch_to_block(fast);
        let off = (l.statics_base + f.offset as usize) as i32;
        if put {
            let v = self.peek(w - 1);
            self.store_typed(f.ty, v, mirror, off);
            if f.ty == BasicType::Ref {
                self.barrier(mirror, v);
            }
            if f.volatile {
                self.b.ins().fence();
            }
            self.depth = after;
        } else {
            let v = self.load_typed(f.ty, mirror, off);
            self.push_sized(v, w);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(slow);
        self.depth = depth;
        self.stub_op(pc, op)?;
        self.b.ins().jump(done, &[]);
        self.b.seal_block(done);
        self.b.switch_to_block(done);
        self.depth = after;
        Ok(())
    }

    fn field_quickened(&self, op: &Op, idx: u16) -> Option<Op> {
        let Resolved::Field(f) = self.resolved(idx)? else {
            return None;
        };
        Op::for_field(matches!(op, Op::PutField(_)), f)
    }

    /// The address of the bytes of PSO (or PSO array) `o` whose VM words start at `words`
    /// (`meta::class::pso`), after checking that it has a container, that the container was
    /// not revoked and, if `write`, that it is writable; leaves for the interpreter, which
    /// throws, when a check fails. The validity flag is loaded at every access (it may be
    /// cleared by another thread at any time).
    fn pso_bytes(&mut self, o: Value, words: u32, write: bool, pc: usize) -> Value {
        let words = words as i32;
        let flag = self.b.ins().load(I64, TRUSTED, o, words + 8);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, flag, 0);
        self.exit_if(none, pc);
        let valid = self
            .b
            .ins()
            .uload8(I32, MemFlags::new().with_notrap(), flag, 0);
        let revoked = self.b.ins().icmp_imm_s(IntCC::Equal, valid, 0);
        self.exit_if(revoked, pc);
        if write {
            let writable = self.b.ins().load(I64, TRUSTED, o, words + 16);
            let read_only = self.b.ins().icmp_imm_s(IntCC::Equal, writable, 0);
            self.exit_if(read_only, pc);
        }
        self.b.ins().load(I64, TRUSTED, o, words)
    }

    /// An `invokevirtual` at constant-pool index `idx` already resolved to a method with a code
    /// mapping that compiled code emits inline (`meta::mappings`: a PSO array's `get` and
    /// `set`); false if it is not one.
    fn inline_mapping(&mut self, pc: usize, idx: u16) -> bool {
        let Some((method, _)) = self.resolved_method(idx) else {
            return false;
        };
        let (ty, write) = match method.mapped {
            Some(Primitive::PsoArrayGet(ty)) => (ty, false),
            Some(Primitive::PsoArraySet(ty)) => (ty, true),
            _ => return false,
        };
        let w = if write { ty.slots() } else { 0 };
        let index = self.peek(w);
        let array = self.peek(w + 1);
        self.exit_if_null(array, pc);
        let base = self.pso_bytes(array, ARRAY_WORDS_AT, write, pc);
        let len = self.b.ins().load(I32, TRUSTED, array, LENGTH_AT as i32);
        let i = self.int(index);
        let out = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
        self.exit_if(out, pc);
        let wide = self.b.ins().uextend(I64, i);
        let scaled = match ty.size() {
            1 => wide,
            size => self.b.ins().ishl_imm_s(wide, size.trailing_zeros() as i64),
        };
        let addr = self.b.ins().iadd(base, scaled);
        if write {
            let v = self.peek(0);
            self.store_with(CONTAINER, ty, v, addr, 0);
            self.depth -= 2 + w;
        } else {
            self.depth -= 2;
            let v = self.load_with(CONTAINER, ty, addr, 0);
            self.push_sized(v, ty.slots());
        }
        true
    }

    /// An `invokevirtual` at op `pc` (constant-pool entry `idx`, resolved) of an `Unsafe`
    /// accessor compiled code emits ([`meta::intrinsics::unsafe_access`]): the access inline
    /// where none of the native's checks could refuse it (a trusted domain; a null base, an
    /// absolute address, or an object neither of an API class nor a `Class` mirror), else
    /// the native through the invoke stub. False, emitting nothing, if it is not one.
    fn inline_unsafe(&mut self, pc: usize, idx: u16) -> bool {
        let Some((method, sig)) = self.resolved_method(idx) else {
            return false;
        };
        let c = &method.class.name;
        let Some(access) = unsafe_access(c, &method.name, &method.descriptor) else {
            return false;
        };
        if !method.is_native() {
            return false;
        }
        let n = method.arg_slots as usize;
        let unsafe_ref = self.peek(n - 1);
        self.exit_if_null(unsafe_ref, pc);
        let base = self.peek(n - 2);
        let offset = self.peek(n - 3);
        let l = self.env.layout;
        let (slow, fast) = (self.b.create_block(), self.b.create_block());
        let addr = self.b.declare_var(I64);
        let untrusted = self
            .b
            .ins()
            .load(I64, TRUSTED, self.thread, l.thread_untrusted as i32);
        self.branch_unless(untrusted, slow);
        // An absolute address (no base), except for a reference store: the barrier needs
        // the object it stores into.
        let absolute = self.b.ins().icmp_imm_s(IntCC::Equal, base, 0);
        let in_object = self.b.create_block();
        self.b.def_var(addr, offset);
        if access.ty == BasicType::Ref && access.op != UnsafeOp::Get {
            self.b.ins().brif(absolute, slow, &[], in_object, &[]);
        } else {
            self.b.ins().brif(absolute, fast, &[], in_object, &[]);
        }
        self.b.seal_block(in_object);
        self.b.switch_to_block(in_object);
        let class = self.b.ins().load(I64, TRUSTED, base, l.object_class as i32);
        let api = self.b.ins().uload8(I32, TRUSTED, class, l.class_api as i32);
        let mirror = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, class, l.mirror_class as i64);
        let api = self.b.ins().icmp_imm_s(IntCC::NotEqual, api, 0);
        let refused = self.b.ins().bor(api, mirror);
        let field = self.b.ins().iadd(base, offset);
        self.b.def_var(addr, field);
        self.b.set_cold_block(slow);
        self.b.ins().brif(refused, slow, &[], fast, &[]);
        self.b.seal_block(fast);
        self.b.seal_block(slow);
        let emit = |t: &mut Self| {
            let a = t.b.use_var(addr);
            t.unsafe_access_at(access, a, base, n);
        };
        let native = (method, sig, InvokeKind::Virtual, None);
        self.fast_or_call(pc, (fast, emit), slow, native);
        true
    }

    /// The access `access` at address `a` (in object `base`, or absolute when it is null),
    /// its `n` argument slots (the `Unsafe` receiver first) on the stack, replaced by its
    /// result.
    fn unsafe_access_at(&mut self, access: UnsafeAccess, a: Value, base: Value, n: usize) {
        let ty = access.ty;
        let w = ty.slots();
        let flags = MemFlags::new();
        if access.volatile {
            self.b.ins().fence();
        }
        let result = match access.op {
            UnsafeOp::Get if ty == BasicType::Boolean => {
                // Any non-zero byte reads as true, as in the native.
                let byte = self.b.ins().uload8(I32, flags, a, 0);
                let set = self.b.ins().icmp_imm_s(IntCC::NotEqual, byte, 0);
                Some(self.b.ins().uextend(I64, set))
            }
            UnsafeOp::Get => Some(self.load_with(flags, ty, a, 0)),
            UnsafeOp::Put => {
                let v = self.peek(w - 1);
                self.store_with(flags, ty, v, a, 0);
                if ty == BasicType::Ref {
                    self.barrier(base, v);
                }
                None
            }
            UnsafeOp::CompareAndSet | UnsafeOp::CompareAndExchange => {
                let x = self.peek(w - 1);
                let expected = self.peek(2 * w - 1);
                let (x, expected) = match ty {
                    BasicType::Int => (self.int(x), self.int(expected)),
                    _ => (x, expected),
                };
                let old = self.b.ins().atomic_cas(flags, a, expected, x);
                if ty == BasicType::Ref {
                    self.barrier(base, x);
                }
                Some(if access.op == UnsafeOp::CompareAndSet {
                    let same = self.b.ins().icmp(IntCC::Equal, old, expected);
                    self.b.ins().uextend(I64, same)
                } else if ty == BasicType::Int {
                    self.int_slot(old)
                } else {
                    old
                })
            }
        };
        if access.volatile {
            self.b.ins().fence();
        }
        self.depth -= n;
        if let Some(v) = result {
            let slots = match access.op {
                UnsafeOp::CompareAndSet => 1,
                _ => w,
            };
            self.push_sized(v, slots);
        }
    }

    /// An `invokestatic` at constant-pool index `idx` already resolved to an intrinsic with
    /// an inline form (`meta::intrinsics::Inline`): emitted in place; false if it is not one.
    fn inline_intrinsic(&mut self, idx: u16) -> bool {
        let Some((method, _)) = self.resolved_method(idx) else {
            return false;
        };
        if method.intrinsic.is_none() {
            return false;
        }
        let Some(form) = inline_form(&method.class.name, &method.name, &method.descriptor) else {
            return false;
        };
        match form {
            Inline::Sqrt | Inline::Floor | Inline::Ceil | Inline::Rint => {
                let a = self.pop2();
                let a = self.double(a);
                let ins = self.b.ins();
                let r = match form {
                    Inline::Sqrt => ins.sqrt(a),
                    Inline::Floor => ins.floor(a),
                    Inline::Ceil => ins.ceil(a),
                    _ => ins.nearest(a),
                };
                let r = self.double_slot(r);
                self.push2(r);
            }
            Inline::AbsInt | Inline::MaxInt | Inline::MinInt => {
                let r = if form == Inline::AbsInt {
                    let a = self.pop();
                    let a = self.int(a);
                    self.b.ins().iabs(a)
                } else {
                    let y = self.pop();
                    let x = self.pop();
                    let (x, y) = (self.int(x), self.int(y));
                    if form == Inline::MaxInt {
                        self.b.ins().smax(x, y)
                    } else {
                        self.b.ins().smin(x, y)
                    }
                };
                let r = self.int_slot(r);
                self.push(r);
            }
            Inline::AbsLong | Inline::MaxLong | Inline::MinLong => {
                let r = if form == Inline::AbsLong {
                    let a = self.pop2();
                    self.b.ins().iabs(a)
                } else {
                    let y = self.pop2();
                    let x = self.pop2();
                    if form == Inline::MaxLong {
                        self.b.ins().smax(x, y)
                    } else {
                        self.b.ins().smin(x, y)
                    }
                };
                self.push2(r);
            }
        }
        true
    }

    /// A static call of a pure intrinsic with no inline form (`Math.sin`, `Math.pow`, ...):
    /// its argument slots are written to the frame and the function is called through the
    /// pure stub. It cannot throw, allocate or reach a safepoint, so nothing is read back.
    fn call_pure_intrinsic(&mut self, idx: u16) -> bool {
        let Some((method, _)) = self.resolved_method(idx) else {
            return false;
        };
        let Some(f) = method.intrinsic.filter(|_| method.is_static()) else {
            return false;
        };
        let n = method.arg_slots as usize;
        let first = self.depth - n;
        self.store_stack_slots(first..self.depth);
        let at = self.slot_offset(Some(first), 0);
        let args = self.b.ins().iadd_imm_s(self.frame, at as i64);
        let fv = self.b.ins().iconst(I64, f as usize as i64);
        let nv = self.b.ins().iconst(I32, n as i64);
        let callee = self.b.ins().iconst(I64, self.env.stubs.pure as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.sigs.pure, callee, &[fv, args, nv]);
        let r = self.b.inst_results(call)[0];
        self.depth = first;
        self.push_sized(r, method.ret.slots());
        true
    }

    /// `v` masked to its low bit when `array` is a `boolean[]`.
    fn boolean_masked(&mut self, array: Value, v: Value) -> Value {
        let class = self
            .b
            .ins()
            .load(I64, TRUSTED, array, self.env.layout.object_class as i32);
        let is_bool = self.b.ins().icmp_imm_s(
            IntCC::Equal,
            class,
            self.env.layout.boolean_array_class as i64,
        );
        let bit = self.b.ins().band_imm_s(v, 1);
        self.b.ins().select(is_bool, bit, v)
    }
}

/// Whether control never falls from `op` into the next op.
fn ends_block(op: &Op) -> bool {
    matches!(
        op,
        Op::If(..)
            | Op::IfIcmp(..)
            | Op::IfAcmpEq(_)
            | Op::IfAcmpNe(_)
            | Op::IfNull(_)
            | Op::IfNonNull(_)
            | Op::Goto(_)
            | Op::TableSwitch(_)
            | Op::LookupSwitch(_)
            | Op::Return1
            | Op::Return2
            | Op::Return
            | Op::ReturnRegister
            | Op::Athrow
            | Op::FellOff
    )
}

fn element_size(ty: BasicType) -> u32 {
    match ty {
        BasicType::Boolean | BasicType::Byte => 1,
        BasicType::Char | BasicType::Short => 2,
        BasicType::Int | BasicType::Float => 4,
        _ => 8,
    }
}

fn int_cc(c: Cond) -> IntCC {
    match c {
        Cond::Eq => IntCC::Equal,
        Cond::Ne => IntCC::NotEqual,
        Cond::Lt => IntCC::SignedLessThan,
        Cond::Ge => IntCC::SignedGreaterThanOrEqual,
        Cond::Gt => IntCC::SignedGreaterThan,
        Cond::Le => IntCC::SignedLessThanOrEqual,
    }
}
