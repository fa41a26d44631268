//! The interpreter's unchecked access to a running method: its frame's slots and its code.
//!
//! Owns the one place where the interpreter loop skips bounds checks, and what that relies on.
//! [`depth::check`](crate::code::depth::check) proves, before a method first runs, that every
//! reachable op keeps the operand stack within `max_stack + 1` slots, touches only locals below
//! `max_locals`, and passes control only to ops inside the code (whose last op, `FellOff`,
//! never falls through); it marks the `Prepared` it accepted with a
//! [`FrameProof`](crate::code::depth::FrameProof). [`enter`] takes that mark and checks the rest (the
//! thread's stack holds the frame), so the accessors may index without checks, for the indices the proven ops form. Nothing
//! outside the interpreter loop uses these types.

use crate::code::decode::Prepared;
use crate::code::op::Op;

/// A method's frame in its thread's stack: locals from `bp`, the operand stack above them.
/// The stack buffer is allocated once per thread and never moves, so the base pointer stays
/// valid for the whole call, across calls that index the stack themselves.
#[derive(Clone, Copy)]
pub(super) struct Slots {
    base: *mut u64,
    /// One past the frame's last slot (checked in debug builds only: in release builds the
    /// view is the one pointer the loop keeps in a register).
    #[cfg(debug_assertions)]
    end: usize,
}

/// Why a frame could not be entered.
pub(super) enum Refused {
    /// `depth::check` has not accepted the code (a VM bug).
    Unproven,
    /// The frame would pass `limit`: the thread's stack overflows.
    Overflow,
}

/// The code of `prep` and the slots of `stack` for running it with its frame at `bp`, if
/// `depth::check` accepted `prep` and the frame's `bp + max_locals + max_stack + 2` slots (the
/// operand stack's proven bound plus the interpreter's slack) end within `limit` and `stack`.
#[inline]
pub(super) fn enter<'a>(
    prep: &'a Prepared,
    stack: &mut [u64],
    bp: usize,
    limit: usize,
) -> Result<(Code<'a>, Slots), Refused> {
    let frame = prep.proven_frame_slots();
    if frame == 0 {
        return Err(Refused::Unproven);
    }
    let end = bp + frame;
    if end > limit.min(stack.len()) {
        return Err(Refused::Overflow);
    }
    let slots = Slots {
        base: stack.as_mut_ptr(),
        #[cfg(debug_assertions)]
        end,
    };
    Ok((Code { ops: &prep.fast }, slots))
}

impl Slots {
    /// Slot `i` of the thread's stack, `i` formed by a proven op from the frame's `bp` or
    /// its stack pointer.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)] // a view of the thread's stack, as `t.stack[i]` would be
    pub(super) fn at(&self, i: usize) -> &mut u64 {
        #[cfg(debug_assertions)]
        assert!(
            i < self.end,
            "slot {i} outside the frame (end {})",
            self.end
        );
        // SAFETY: `enter` checked that the frame lies inside the stack, and the frame proof
        // that every index the method's ops form lies inside the frame.
        unsafe { &mut *self.base.add(i) }
    }
}

/// A proven method's ops, fetched without bounds checks.
#[derive(Clone, Copy)]
pub(super) struct Code<'a> {
    ops: &'a [Op],
}

impl<'a> Code<'a> {
    /// The op at `pc`, a pc that control reached from op 0 through proven ops.
    #[inline(always)]
    pub(super) fn at(self, pc: usize) -> &'a Op {
        debug_assert!(pc < self.ops.len());
        // SAFETY: the frame proof covers every op reachable from op 0: each passes control
        // only to ops inside the code, and the last op (`FellOff`) never falls through.
        unsafe { self.ops.get_unchecked(pc) }
    }

    /// The index of the last op (`FellOff`).
    pub(super) fn last(self) -> usize {
        self.ops.len() - 1
    }
}
