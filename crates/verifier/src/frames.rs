//! Decoding the `StackMapTable` attribute (JVMS 17 §4.7.4) into full frames.
//!
//! Each compressed frame is expanded relative to the previous one (the first
//! relative to the method's initial frame), into locals padded with `Top` to
//! `max_locals` and an operand stack, both with long/double taking two slots.
//! Checks made here: offsets strictly increase and land on instruction starts,
//! `chop` does not remove more locals than exist, locals fit in `max_locals`
//! and the stack fits in `max_stack`, `Object` items name CONSTANT_Class
//! entries, `Uninitialized(offset)` items point at a `new` instruction. As in
//! HotSpot, a frame that is not at an instruction is a VerifyError and the
//! other failures are format errors (ClassFormatError).

use classfile::{ClassFormatError, ConstantPool, StackMapFrame, VType};

use crate::error::MethodError;
use crate::instructions::Decoded;
use crate::types::{Type, TypeContext};

/// A full stack map frame at `pc`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub pc: u16,
    /// Exactly `max_locals` entries.
    pub locals: Box<[Type]>,
    pub stack: Box<[Type]>,
    /// JVMS `flagThisUninit`: some local is `uninitializedThis`.
    pub flag_this_uninit: bool,
}

/// Limits the frames must respect.
pub struct FrameLimits {
    pub max_locals: usize,
    pub max_stack: usize,
}

/// A malformed frame: HotSpot's StackMapReader reports these as ClassFormatError
/// ("StackMapTable format error: ...").
fn frame_error(pc: u32, reason: impl Into<String>) -> MethodError {
    MethodError::format_at(
        u16::try_from(pc).unwrap_or(u16::MAX),
        "StackMapTable format error",
        reason,
    )
}

fn convert<'a>(
    ctx: &mut TypeContext<'a, '_>,
    cp: &'a ConstantPool,
    decoded: &Decoded,
    v: &VType,
    pc: u32,
) -> Result<Type, MethodError> {
    Ok(match v {
        VType::Top => Type::Top,
        VType::Integer => Type::Integer,
        VType::Float => Type::Float,
        VType::Long => Type::Long,
        VType::Double => Type::Double,
        VType::Null => Type::Null,
        VType::UninitializedThis => Type::UninitializedThis,
        VType::Object(index) => match cp.class_name(*index) {
            Some(name) => Type::Reference(ctx.names.intern(name)),
            None => {
                return Err(frame_error(
                    pc,
                    format!("Object item refers to constant {index}, not a class"),
                ));
            }
        },
        VType::Uninitialized(offset) => {
            if !decoded.is_new_at(*offset as usize) {
                return Err(frame_error(
                    pc,
                    format!("Uninitialized item refers to offset {offset}, not a new instruction"),
                ));
            }
            Type::Uninitialized(*offset)
        }
    })
}

/// Expand compressed types (one entry per value) into slots.
fn expand(compressed: &[Type], out: &mut Vec<Type>) {
    out.clear();
    for &t in compressed {
        out.push(t);
        if t.is_category2() {
            out.push(Type::Top);
        }
    }
}

/// Decode the stack map table. `initial` is the method's initial locals in
/// compressed form (one entry per value); `trailing_error` is the parser's error after the
/// frames of `table` (a malformed attribute), reported after those frames are checked.
pub fn decode_frames<'a>(
    ctx: &mut TypeContext<'a, '_>,
    cp: &'a ConstantPool,
    table: &[StackMapFrame],
    initial: &[Type],
    decoded: &Decoded,
    limits: &FrameLimits,
    trailing_error: Option<&ClassFormatError>,
) -> Result<Vec<Frame>, MethodError> {
    let mut frames: Vec<Frame> = Vec::with_capacity(table.len());
    let mut locals: Vec<Type> = initial.to_vec();
    let mut stack: Vec<Type> = Vec::new();
    let mut prev_pc: Option<u32> = None;
    let mut slots = Vec::new();
    for entry in table {
        let delta = match entry {
            StackMapFrame::Same { offset_delta }
            | StackMapFrame::SameLocals1StackItem { offset_delta, .. }
            | StackMapFrame::Chop { offset_delta, .. }
            | StackMapFrame::Append { offset_delta, .. }
            | StackMapFrame::Full { offset_delta, .. } => u32::from(*offset_delta),
        };
        let pc = match prev_pc {
            None => delta,
            Some(p) => p + delta + 1,
        };
        prev_pc = Some(pc);
        stack.clear();
        match entry {
            StackMapFrame::Same { .. } => {}
            StackMapFrame::SameLocals1StackItem { stack: item, .. } => {
                stack.push(convert(ctx, cp, decoded, item, pc)?);
            }
            StackMapFrame::Chop { k, .. } => {
                let k = usize::from(*k);
                if k > locals.len() {
                    return Err(frame_error(pc, "Chop frame removes more locals than exist"));
                }
                locals.truncate(locals.len() - k);
            }
            StackMapFrame::Append { locals: extra, .. } => {
                for v in extra {
                    locals.push(convert(ctx, cp, decoded, v, pc)?);
                }
            }
            StackMapFrame::Full {
                locals: l,
                stack: s,
                ..
            } => {
                locals.clear();
                for v in l {
                    locals.push(convert(ctx, cp, decoded, v, pc)?);
                }
                for v in s {
                    stack.push(convert(ctx, cp, decoded, v, pc)?);
                }
            }
        }
        expand(&locals, &mut slots);
        if slots.len() > limits.max_locals {
            return Err(frame_error(
                pc,
                format!(
                    "Frame has {} local slots, max_locals is {}",
                    slots.len(),
                    limits.max_locals
                ),
            ));
        }
        let flag_this_uninit = slots.contains(&Type::UninitializedThis);
        slots.resize(limits.max_locals, Type::Top);
        let frame_locals: Box<[Type]> = slots.as_slice().into();
        expand(&stack, &mut slots);
        if slots.len() > limits.max_stack {
            return Err(frame_error(
                pc,
                format!(
                    "Frame has {} stack slots, max_stack is {}",
                    slots.len(),
                    limits.max_stack
                ),
            ));
        }
        // As HotSpot, a frame is read (format errors first) before its offset is checked,
        // and a frame that is not at an instruction is a VerifyError.
        if !decoded.is_start(pc as usize) {
            return Err(MethodError::at(
                u16::try_from(pc).unwrap_or(u16::MAX),
                "StackMapTable error: bad offset",
                format!("Stack map frame at offset {pc} is not at an instruction"),
            ));
        }
        frames.push(Frame {
            pc: pc as u16,
            locals: frame_locals,
            stack: slots.as_slice().into(),
            flag_this_uninit,
        });
    }
    if let Some(e) = trailing_error {
        return Err(MethodError::format(
            "StackMapTable format error",
            e.message(),
        ));
    }
    Ok(frames)
}

/// Find the frame at `pc` in a list sorted by pc.
pub fn frame_at(frames: &[Frame], pc: u16) -> Option<&Frame> {
    frames
        .binary_search_by_key(&pc, |f| f.pc)
        .ok()
        .map(|i| &frames[i])
}
