//! Reference maps of interpreter frames: which local and operand-stack slots hold object
//! references at each instruction. Computed once per method, on demand, by a dataflow pass
//! over the pre-decoded ops (the role of HotSpot's GenerateOopMap), so the collector can find
//! a frame's roots exactly and move what they point to.
//!
//! Slot kinds join in a small lattice (`Bottom` < `Val`/`Ref` < `Conflict`); a slot is a root
//! only where every path agrees it holds a reference. Verified bytecode never reads a
//! `Conflict` slot, so treating it as dead is safe. Code with `jsr`/`ret` (class files before
//! version 50) is handled by joining the state at every `ret` into every return point, which
//! is conservative in the same way.

use super::decode::Prepared;
use super::effect::{self, Push};
use super::op::Op;
use crate::class::BasicType;

/// What a slot holds at an instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Never written (an uninitialized local).
    Bottom,
    /// A primitive (or half of one), or a return address.
    Val,
    Ref,
    /// Different kinds on different paths: dead.
    Conflict,
}

impl Kind {
    fn join(self, other: Kind) -> Kind {
        // An unwritten slot merging with a written one is dead, as in HotSpot (so a loop's
        // local does not keep its last value alive after the loop).
        if self == other { self } else { Kind::Conflict }
    }
    fn of(t: BasicType) -> Kind {
        if t == BasicType::Ref {
            Kind::Ref
        } else {
            Kind::Val
        }
    }
}

/// The reference map at one instruction: operand-stack depth before it executes, and one bit
/// per slot (locals first, then the stack) that is set when the slot holds a reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OopMap {
    pub depth: u16,
    pub bits: Box<[u64]>,
}

impl OopMap {
    /// Whether slot `i` (locals first, then stack) holds a reference.
    pub fn is_ref(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
}

/// The maps of every instruction of a method (None where the instruction is unreachable).
#[derive(Debug)]
pub struct OopMaps {
    maps: Box<[Option<OopMap>]>,
}

impl OopMaps {
    pub fn at(&self, pc: usize) -> Option<&OopMap> {
        self.maps.get(pc)?.as_ref()
    }
}

/// Types of the constant-pool operands of a method's ops.
pub trait Operands {
    /// Type of the field named by a get/put instruction.
    fn field_type(&self, op: &Op) -> Option<BasicType>;
    /// Slots an invoke pops (receiver included) and the type it returns.
    fn invoke(&self, op: &Op) -> Option<(usize, BasicType)>;
}

#[derive(Clone, PartialEq, Eq)]
struct State {
    locals: Vec<Kind>,
    stack: Vec<Kind>,
}

impl State {
    fn join(&mut self, other: &State) -> Result<bool, String> {
        if self.stack.len() != other.stack.len() {
            return Err(format!(
                "stack depth {} vs {} at a merge point",
                self.stack.len(),
                other.stack.len()
            ));
        }
        let mut changed = false;
        for (a, b) in self
            .locals
            .iter_mut()
            .chain(self.stack.iter_mut())
            .zip(other.locals.iter().chain(other.stack.iter()))
        {
            let j = a.join(*b);
            changed |= j != *a;
            *a = j;
        }
        Ok(changed)
    }
    fn pop(&mut self, n: usize) -> Result<(), String> {
        let len = self
            .stack
            .len()
            .checked_sub(n)
            .ok_or("operand stack underflow")?;
        self.stack.truncate(len);
        Ok(())
    }
    fn pop1(&mut self) -> Result<Kind, String> {
        self.stack
            .pop()
            .ok_or_else(|| "operand stack underflow".to_string())
    }
    fn push_type(&mut self, t: BasicType) {
        for _ in 0..t.slots() {
            self.stack.push(Kind::of(t));
        }
    }
    fn push_vals(&mut self, n: usize) {
        self.stack.extend(std::iter::repeat_n(Kind::Val, n));
    }
}

/// Computes the maps of `prep`, whose locals at entry are `entry` (receiver and arguments).
pub fn compute(
    prep: &Prepared,
    entry: &[Kind],
    operands: &dyn Operands,
) -> Result<OopMaps, String> {
    let n = prep.ops.len();
    let max_locals = prep.max_locals as usize;
    let mut locals = vec![Kind::Bottom; max_locals];
    for (i, k) in entry.iter().enumerate().take(max_locals) {
        locals[i] = *k;
    }
    let mut states: Vec<Option<State>> = vec![None; n];
    let mut work: Vec<usize> = Vec::new();
    if n > 0 {
        states[0] = Some(State {
            locals,
            stack: Vec::new(),
        });
        work.push(0);
    }
    let return_points: Vec<usize> = prep
        .ops
        .iter()
        .enumerate()
        .filter(|(_, op)| matches!(op, Op::Jsr(_)))
        .map(|(i, _)| i + 1)
        .collect();
    let mut queued = vec![false; n];
    if n > 0 {
        queued[0] = true;
    }
    while let Some(pc) = work.pop() {
        queued[pc] = false;
        let before = states[pc].clone().expect("queued instruction has a state");
        // Exception edges: the handler sees this instruction's locals and the exception.
        for h in prep.handlers.iter() {
            if (h.start as usize..h.end as usize).contains(&pc) {
                let hs = State {
                    locals: before.locals.clone(),
                    stack: vec![Kind::Ref],
                };
                flow(&mut states, &mut work, &mut queued, h.target as usize, &hs)?;
            }
        }
        let op = prep.ops[pc];
        let mut s = before;
        step(&op, &mut s, operands, max_locals)?;
        if s.stack.len() > prep.max_stack as usize + 1 {
            return Err(format!("operand stack overflow at op {pc}"));
        }
        for_each_successor(&op, pc, prep, &return_points, |succ| {
            if succ >= n {
                return Err(format!("control falls off the end at op {pc}"));
            }
            flow(&mut states, &mut work, &mut queued, succ, &s)
        })?;
    }
    let width = max_locals + prep.max_stack as usize + 2;
    let maps = states
        .into_iter()
        .map(|st| {
            st.map(|st| {
                let mut bits = vec![0u64; width.div_ceil(64).max(1)];
                for (i, k) in st.locals.iter().chain(st.stack.iter()).enumerate() {
                    if *k == Kind::Ref && i < width {
                        bits[i / 64] |= 1 << (i % 64);
                    }
                }
                OopMap {
                    depth: st.stack.len() as u16,
                    bits: bits.into(),
                }
            })
        })
        .collect();
    Ok(OopMaps { maps })
}

fn flow(
    states: &mut [Option<State>],
    work: &mut Vec<usize>,
    queued: &mut [bool],
    to: usize,
    s: &State,
) -> Result<(), String> {
    let changed = match &mut states[to] {
        Some(existing) => existing.join(s)?,
        slot @ None => {
            *slot = Some(s.clone());
            true
        }
    };
    if changed && !queued[to] {
        queued[to] = true;
        work.push(to);
    }
    Ok(())
}

/// Calls `f` with each op that can run after `op` at `pc` (exception edges aside).
pub(super) fn for_each_successor(
    op: &Op,
    pc: usize,
    prep: &Prepared,
    return_points: &[usize],
    mut f: impl FnMut(usize) -> Result<(), String>,
) -> Result<(), String> {
    match *op {
        Op::Goto(t) | Op::Jsr(t) => f(t as usize),
        Op::If(_, t)
        | Op::IfIcmp(_, t)
        | Op::IfAcmpEq(t)
        | Op::IfAcmpNe(t)
        | Op::IfNull(t)
        | Op::IfNonNull(t) => {
            f(pc + 1)?;
            f(t as usize)
        }
        Op::TableSwitch(i) | Op::LookupSwitch(i) => {
            let sw = &prep.switches[i as usize];
            for &t in sw.dense.iter().chain(sw.pairs.iter().map(|p| &p.1)) {
                f(t as usize)?;
            }
            f(sw.default as usize)
        }
        Op::Ret(_) => return_points.iter().try_for_each(|&r| f(r)),
        Op::Return | Op::ReturnRegister | Op::Return1 | Op::Return2 | Op::Athrow | Op::FellOff => {
            Ok(())
        }
        _ => f(pc + 1),
    }
}

fn local(s: &mut State, n: u16, max_locals: usize) -> Result<&mut Kind, String> {
    let i = n as usize;
    if i >= max_locals {
        return Err(format!("local {i} out of range"));
    }
    Ok(&mut s.locals[i])
}

/// Applies one instruction's effect on slot kinds.
fn step(op: &Op, s: &mut State, operands: &dyn Operands, max_locals: usize) -> Result<(), String> {
    match *op {
        Op::Store(n) => {
            let k = s.pop1()?;
            *local(s, n, max_locals)? = k;
            return Ok(());
        }
        Op::Store2(n) => {
            s.pop(2)?;
            *local(s, n, max_locals)? = Kind::Val;
            *local(s, n + 1, max_locals)? = Kind::Val;
            return Ok(());
        }
        _ => {}
    }
    let e = effect::of(op, operands)?;
    match e.push {
        Push::Shuffle(order) => {
            // What was popped, the top first (no shuffle pops more than four slots).
            let mut popped = [Kind::Val; 4];
            for k in popped.iter_mut().take(e.pops) {
                *k = s.pop1()?;
            }
            s.stack.extend(order.iter().map(|&i| popped[i as usize]));
        }
        Push::Local(n) => {
            s.pop(e.pops)?;
            let k = *local(s, n, max_locals)?;
            s.stack.push(k);
        }
        Push::Vals(n) => {
            s.pop(e.pops)?;
            s.push_vals(n);
        }
        Push::Ref => {
            s.pop(e.pops)?;
            s.stack.push(Kind::Ref);
        }
        Push::Value(t) => {
            s.pop(e.pops)?;
            s.push_type(t);
        }
    }
    Ok(())
}

/// The maps of a method, computed on first use and kept with its prepared code.
pub fn maps_of(
    m: &'static crate::class::Method,
    prep: &'static Prepared,
) -> Result<&'static OopMaps, String> {
    let r = prep.oopmaps.get_or_init(|| {
        let mut entry = Vec::with_capacity(m.arg_slots as usize);
        if !m.is_static() {
            entry.push(Kind::Ref);
        }
        for &t in m.param_types.iter() {
            for _ in 0..t.slots() {
                entry.push(Kind::of(t));
            }
        }
        compute(
            prep,
            &entry,
            &MethodOperands {
                class: m.class,
                prep,
            },
        )
    });
    r.as_ref().map_err(|e| e.clone())
}

/// Operand types from a class's constant pool (or, for synthetic classes, its resolution cache).
pub struct MethodOperands<'a> {
    pub class: &'a crate::class::Class,
    pub prep: &'a Prepared,
}

impl Operands for MethodOperands<'_> {
    fn field_type(&self, op: &Op) -> Option<BasicType> {
        let (Op::GetStatic(i) | Op::PutStatic(i) | Op::GetField(i) | Op::PutField(i)) = *op else {
            return None;
        };
        if let Some(cf) = &self.class.file {
            let d = cf.constant_pool.member_ref(i)?.descriptor;
            return Some(if d.starts_with('[') {
                BasicType::Ref
            } else {
                BasicType::from_descriptor_char(*d.as_bytes().first()?)
            });
        }
        match self.class.cp_cache.get(i as usize)?.get()? {
            crate::class::resolve::Resolved::Field(f) => Some(f.ty),
            _ => None,
        }
    }

    fn invoke(&self, op: &Op) -> Option<(usize, BasicType)> {
        let receiver = usize::from(!matches!(op, Op::InvokeStatic(_) | Op::InvokeDynamic(_)));
        let desc: &str = match *op {
            Op::InvokeDynamic(site) => {
                let cp_index = self.prep.indy.get(site as usize)?.cp_index;
                let cp = &self.class.file.as_ref()?.constant_pool;
                let classfile::Constant::InvokeDynamic {
                    name_and_type_index,
                    ..
                } = cp.get(cp_index)?
                else {
                    return None;
                };
                cp.name_and_type(*name_and_type_index)?.1
            }
            Op::InvokeVirtual(i)
            | Op::InvokeSpecial(i)
            | Op::InvokeStatic(i)
            | Op::InvokeInterface(i) => match &self.class.file {
                Some(cf) => cf.constant_pool.member_ref(i)?.descriptor,
                None => match self.class.cp_cache.get(i as usize)?.get()? {
                    crate::class::resolve::Resolved::Method { method, .. } => &method.descriptor,
                    _ => return None,
                },
            },
            _ => return None,
        };
        let (slots, ret) = crate::class::loader::sig_shape(desc);
        Some((slots as usize + receiver, ret))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::decode::{Handler, Switch};
    use crate::code::op::Cond;

    struct NoOperands;
    impl Operands for NoOperands {
        fn field_type(&self, _: &Op) -> Option<BasicType> {
            Some(BasicType::Ref)
        }
        fn invoke(&self, _: &Op) -> Option<(usize, BasicType)> {
            Some((1, BasicType::Int))
        }
    }

    fn prep(
        ops: Vec<Op>,
        handlers: Vec<Handler>,
        switches: Vec<Switch>,
        max_locals: u16,
        max_stack: u16,
    ) -> Prepared {
        let bcis = (0..ops.len() as u32).collect();
        Prepared::new(
            ops,
            bcis,
            handlers,
            switches,
            Vec::new(),
            vec![0],
            max_locals,
            max_stack,
        )
    }

    #[test]
    fn straight_line_tracks_locals_and_stack() {
        // static void f(Object a) { int i = 1; Object b = new X(); b.m(); }
        let p = prep(
            vec![
                Op::Iconst(1),
                Op::Store(1),
                Op::New(1),
                Op::Store(2),
                Op::Load(2),
                Op::InvokeVirtual(2),
                Op::Pop,
                Op::Return,
            ],
            vec![],
            vec![],
            3,
            2,
        );
        let maps = compute(&p, &[Kind::Ref], &NoOperands).unwrap();
        let at_invoke = maps.at(5).unwrap();
        assert_eq!(at_invoke.depth, 1);
        assert!(at_invoke.is_ref(0)); // a
        assert!(!at_invoke.is_ref(1)); // i
        assert!(at_invoke.is_ref(2)); // b
        assert!(at_invoke.is_ref(3)); // receiver on the stack
        assert!(!maps.at(6).unwrap().is_ref(3)); // int result
    }

    #[test]
    fn merge_of_ref_and_int_is_dead() {
        // if (p) x = obj else x = 5; join: x is dead
        let p = prep(
            vec![
                Op::Load(0),
                Op::If(Cond::Eq, 5),
                Op::AconstNull,
                Op::Store(1),
                Op::Goto(7),
                Op::Iconst(5),
                Op::Store(1),
                Op::Return,
            ],
            vec![],
            vec![],
            2,
            1,
        );
        let maps = compute(&p, &[Kind::Val], &NoOperands).unwrap();
        assert!(!maps.at(7).unwrap().is_ref(1));
        assert!(maps.at(4).unwrap().is_ref(1));
        assert!(!maps.at(6).unwrap().is_ref(1) || maps.at(6).unwrap().depth == 1);
    }

    #[test]
    fn handlers_see_locals_and_the_exception() {
        let p = prep(
            vec![
                Op::New(1),
                Op::Store(0),
                Op::InvokeStatic(3),
                Op::Pop,
                Op::Return,
                Op::Store(1),
                Op::Return,
            ],
            vec![Handler {
                start: 2,
                end: 4,
                target: 5,
                catch_type: 0,
            }],
            vec![],
            2,
            2,
        );
        let ops = NoOperandsStatic;
        let maps = compute(&p, &[], &ops).unwrap();
        let h = maps.at(5).unwrap();
        assert_eq!(h.depth, 1);
        assert!(h.is_ref(0));
        assert!(h.is_ref(2)); // the exception (slot 2 = first stack slot)
    }

    struct NoOperandsStatic;
    impl Operands for NoOperandsStatic {
        fn field_type(&self, _: &Op) -> Option<BasicType> {
            None
        }
        fn invoke(&self, _: &Op) -> Option<(usize, BasicType)> {
            Some((0, BasicType::Int))
        }
    }

    #[test]
    fn dup_forms_and_wide_values() {
        let p = prep(
            vec![
                Op::Const2(0),
                Op::AconstNull,
                Op::DupX2,
                Op::Pop,
                Op::Pop2,
                Op::Dup,
                Op::Pop,
                Op::Pop,
                Op::Return,
            ],
            vec![],
            vec![],
            0,
            4,
        );
        let maps = compute(&p, &[], &NoOperands).unwrap();
        let after = maps.at(3).unwrap(); // [ref, long, long, ref]
        assert_eq!(after.depth, 4);
        assert!(after.is_ref(0) && !after.is_ref(1) && !after.is_ref(2) && after.is_ref(3));
    }

    #[test]
    fn jsr_ret_and_switches_are_followed() {
        let p = prep(
            vec![
                Op::Iconst(0),
                Op::TableSwitch(0),
                Op::Jsr(5),
                Op::AconstNull,
                Op::Return1,
                Op::Store(0),
                Op::Ret(0),
            ],
            vec![],
            vec![Switch {
                default: 2,
                low: 0,
                dense: vec![2],
                pairs: vec![],
            }],
            1,
            2,
        );
        let maps = compute(&p, &[], &NoOperands).unwrap();
        assert!(maps.at(3).is_some(), "return point reached through ret");
        assert!(maps.at(6).is_some());
    }

    #[test]
    fn malformed_code_is_an_error_not_a_panic() {
        let p = prep(vec![Op::Pop, Op::Return], vec![], vec![], 0, 1);
        assert!(compute(&p, &[], &NoOperands).is_err());
        // Running off the end reaches the appended FellOff op, which throws when executed.
        let p = prep(vec![Op::Nop], vec![], vec![], 0, 1);
        assert!(compute(&p, &[], &NoOperands).unwrap().at(1).is_some());
        let p = prep(vec![Op::Load(9), Op::Return], vec![], vec![], 1, 1);
        assert!(compute(&p, &[], &NoOperands).is_err());
    }
}
