//! The frame-bounds proof: before a method first runs, the operand-stack depth of every
//! reachable op is computed and checked against `max_stack`, and every local index against
//! `max_locals`. The interpreter relies on it to read and write its frame without bounds
//! checks (see `exec::run`), so it must hold even when the bytecode verifier is off.
//!
//! It is a depth-only data flow (one `u16` per op, no allocation per op), cheap enough to run
//! on every method at preparation. The collector's reference maps (`oopmap`) also track
//! slot kinds and are computed only when a collection first needs them. This module owns the
//! proof only; it must not change the ops.

use super::decode::Prepared;
use super::effect;
use super::oopmap::{Operands, for_each_successor};
use super::op::Op;

/// Slack above `max_stack` the interpreter's frame layout provides (`exec::execute` reserves
/// `max_stack + 2` slots) and the proof allows, matching the reference-map pass.
const SLACK: usize = 1;

/// What [`check`] hands a `Prepared` it accepted (`Prepared::set_proven`); only this module
/// makes one. The interpreter's unchecked frame access requires the mark (`interp::frame`).
#[derive(Debug)]
pub struct FrameProof(());

/// Checks `prep` and marks it proven; an error names the first violation (thrown as
/// `VerifyError`).
pub fn check(prep: &Prepared, operands: &dyn Operands) -> Result<(), String> {
    prove(prep, operands)?;
    prep.set_proven(FrameProof(()));
    Ok(())
}

fn prove(prep: &Prepared, operands: &dyn Operands) -> Result<(), String> {
    let n = prep.ops.len();
    let limit = prep.max_stack as usize + SLACK;
    let return_points: Vec<usize> = prep
        .ops
        .iter()
        .enumerate()
        .filter(|(_, op)| matches!(op, Op::Jsr(_)))
        .map(|(i, _)| i + 1)
        .collect();
    let mut depth = vec![u16::MAX; n];
    let mut work = Vec::new();
    let flow =
        |depth: &mut [u16], work: &mut Vec<usize>, to: usize, d: usize| -> Result<(), String> {
            match depth.get(to).copied() {
                None => Err(format!("control falls off the end into op {to}")),
                Some(u16::MAX) => {
                    depth[to] = d as u16;
                    work.push(to);
                    Ok(())
                }
                Some(old) if old as usize == d => Ok(()),
                Some(old) => Err(format!(
                    "stack depth {old} vs {d} at a merge point (op {to})"
                )),
            }
        };
    if n > 0 {
        flow(&mut depth, &mut work, 0, 0)?;
    }
    while let Some(pc) = work.pop() {
        let op = &prep.ops[pc];
        for h in prep.handlers.iter() {
            if (h.start as usize..h.end as usize).contains(&pc) {
                flow(&mut depth, &mut work, h.target as usize, 1)?;
            }
        }
        check_locals(op, prep.max_locals as usize).map_err(|e| format!("{e} at op {pc}"))?;
        let e = effect::of(op, operands).map_err(|e| format!("{e} at op {pc}"))?;
        let (pops, pushes) = (e.pops, e.push.slots());
        let d = depth[pc] as usize;
        if d < pops {
            return Err(format!("operand stack underflow at op {pc}"));
        }
        let after = d - pops + pushes;
        if after > limit {
            return Err(format!("operand stack overflow at op {pc}"));
        }
        for_each_successor(op, pc, prep, &return_points, |succ| {
            flow(&mut depth, &mut work, succ, after)
        })?;
    }
    Ok(())
}

/// Local-variable indices `op` touches must lie inside the frame's locals.
fn check_locals(op: &Op, max_locals: usize) -> Result<(), String> {
    let (first, width) = match *op {
        Op::Load(n) | Op::Store(n) | Op::Iinc(n, _) | Op::Ret(n) => (n as usize, 1),
        Op::Load2(n) | Op::Store2(n) => (n as usize, 2),
        _ => return Ok(()),
    };
    if first + width > max_locals {
        return Err(format!(
            "local variable {} outside max_locals {max_locals}",
            first + width - 1
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::BasicType;
    use crate::code::decode::Handler;
    use crate::code::op::Cond;

    struct NoOperands;
    impl Operands for NoOperands {
        fn field_type(&self, _: &Op) -> Option<BasicType> {
            Some(BasicType::Long)
        }
        fn invoke(&self, _: &Op) -> Option<(usize, BasicType)> {
            Some((1, BasicType::Int))
        }
    }

    fn prep(ops: Vec<Op>, handlers: Vec<Handler>, max_locals: u16, max_stack: u16) -> Prepared {
        let bcis = (0..ops.len() as u32).collect();
        Prepared::new(
            ops,
            bcis,
            handlers,
            Vec::new(),
            Vec::new(),
            vec![0],
            max_locals,
            max_stack,
        )
    }

    #[test]
    fn well_formed_code_passes() {
        let p = prep(
            vec![
                Op::Load(0),
                Op::Load2(1),
                Op::Pop2,
                Op::GetField(1),
                Op::Pop2,
                Op::Return,
            ],
            vec![],
            3,
            2,
        );
        check(&p, &NoOperands).unwrap();
    }

    #[test]
    fn a_loop_that_grows_the_stack_is_rejected() {
        let p = prep(vec![Op::Iconst(1), Op::Goto(0)], vec![], 0, 4);
        assert!(check(&p, &NoOperands).unwrap_err().contains("merge point"));
    }

    #[test]
    fn overflow_underflow_and_locals_are_rejected() {
        let over = prep(
            vec![Op::Iconst(1), Op::Iconst(1), Op::Iconst(1), Op::Return],
            vec![],
            0,
            1,
        );
        assert!(check(&over, &NoOperands).unwrap_err().contains("overflow"));
        let under = prep(vec![Op::Pop, Op::Return], vec![], 0, 1);
        assert!(
            check(&under, &NoOperands)
                .unwrap_err()
                .contains("underflow")
        );
        let local = prep(vec![Op::Load2(1), Op::Return], vec![], 2, 2);
        assert!(
            check(&local, &NoOperands)
                .unwrap_err()
                .contains("local variable 2")
        );
        let iinc = prep(vec![Op::Iinc(5, 1), Op::Return], vec![], 2, 2);
        assert!(check(&iinc, &NoOperands).is_err());
    }

    #[test]
    fn falling_off_the_end_stays_inside_the_op_array() {
        // The appended FellOff op is where straight-line code ends; it has no successor.
        let p = prep(vec![Op::Iconst(0), Op::If(Cond::Eq, 0)], vec![], 0, 1);
        check(&p, &NoOperands).unwrap();
    }

    #[test]
    fn handlers_start_with_one_slot() {
        let h = Handler {
            start: 0,
            end: 1,
            target: 2,
            catch_type: 0,
        };
        let p = prep(
            vec![Op::Nop, Op::Return, Op::Pop, Op::Pop, Op::Return],
            vec![h],
            0,
            1,
        );
        assert!(check(&p, &NoOperands).unwrap_err().contains("underflow"));
    }
}
