//! The per-instruction type rules of JVMS 17 §4.10.1.9 and the method-level
//! rules of §4.10.1.6 (verification by type checking).
//!
//! The checker walks the instructions in order, keeping the current frame
//! (locals, operand stack, `flagThisUninit`). At an offset with a stack map
//! frame, the incoming frame (if control can fall through) must be assignable
//! to it and then becomes the current frame; after an unconditional transfer
//! (`goto`, switches, returns, `athrow`) the next instruction must have a stack
//! map frame. Every branch target must have a frame that the outgoing frame is
//! assignable to, and every instruction covered by an exception handler must
//! have locals/flags assignable to the handler's frame, whose stack must be
//! exactly the caught class. Control must not fall off the end of the code.

use classfile::{ClassFile, Code, Constant, ConstantPool, ExceptionHandler, MethodInfo};

use crate::error::MethodError;
use crate::frames::{Frame, FrameLimits, decode_frames, frame_at};
use crate::instructions::{Decoded, Insn, Operand, falls_through, mnemonic, op};
use crate::types::{NameId, Type, TypeContext};

const ACC_STATIC: u16 = 0x0008;

/// Facts about the class being verified, shared by its methods.
pub struct ClassState<'a> {
    pub cf: &'a ClassFile,
    pub this: NameId,
    pub this_name: &'a str,
    pub super_name: Option<&'a str>,
    /// Strict superclasses of this class (computed lazily via the hierarchy).
    chain: Option<Vec<String>>,
}

impl<'a> ClassState<'a> {
    pub fn new(cf: &'a ClassFile, ctx: &mut TypeContext<'a, '_>) -> Self {
        let this = ctx.names.intern(&cf.name);
        ClassState {
            cf,
            this,
            this_name: &cf.name,
            super_name: cf.super_name.as_deref(),
            chain: None,
        }
    }

    fn superclass_chain(&mut self, ctx: &TypeContext<'a, '_>) -> Result<&[String], String> {
        if self.chain.is_none() {
            let chain = match self.super_name {
                Some(_) => ctx.hierarchy().superclasses(self.this_name)?,
                None => Vec::new(),
            };
            self.chain = Some(chain);
        }
        Ok(self.chain.as_deref().unwrap_or(&[]))
    }
}

struct Handler {
    start: u16,
    end: u16,
    pc: u16,
    catch: Type,
    frame: usize,
}

type R<T> = Result<T, MethodError>;

struct Checker<'a, 'h, 'x> {
    ctx: &'x mut TypeContext<'a, 'h>,
    cls: &'x mut ClassState<'a>,
    cp: &'a ConstantPool,
    decoded: &'x Decoded,
    frames: &'x [Frame],
    handlers: Vec<Handler>,
    locals: Vec<Type>,
    stack: Vec<Type>,
    flag_this_uninit: bool,
    max_stack: usize,
    return_type: Option<Type>,
    args: Vec<Type>,
    pc: u16,
}

/// The method's initial frame (JVMS methodInitialStackFrame).
struct Initial {
    /// Argument types, one entry per value.
    initial: Vec<Type>,
    /// The locals, `max_locals` slots.
    locals: Vec<Type>,
    flag_this_uninit: bool,
    return_type: Option<Type>,
}

fn initial_frame<'a>(
    ctx: &mut TypeContext<'a, '_>,
    cls: &ClassState<'a>,
    method: &'a MethodInfo,
    code: &'a Code,
) -> R<Initial> {
    let max_locals = usize::from(code.max_locals);
    let mut initial: Vec<Type> = Vec::new();
    let mut flag_this_uninit = false;
    if method.access_flags & ACC_STATIC == 0 {
        if method.name == "<init>" && cls.this_name != "java/lang/Object" {
            initial.push(Type::UninitializedThis);
            flag_this_uninit = true;
        } else {
            initial.push(Type::Reference(cls.this));
        }
    }
    let return_type = ctx
        .method_type(&method.descriptor, &mut initial)
        .map_err(|()| {
            MethodError::method("Invalid method descriptor", method.descriptor.clone())
        })?;
    let mut locals = Vec::with_capacity(max_locals);
    for &t in &initial {
        locals.push(t);
        if t.is_category2() {
            locals.push(Type::Top);
        }
    }
    if locals.len() > max_locals {
        return Err(MethodError::method(
            "Arguments can't fit into locals",
            format!(
                "Arguments need {} slots, max_locals is {max_locals}",
                locals.len()
            ),
        ));
    }
    locals.resize(max_locals, Type::Top);

    Ok(Initial {
        initial,
        locals,
        flag_this_uninit,
        return_type,
    })
}

/// Reads the method's StackMapTable (its format errors, frames not at instructions), as
/// HotSpot does before its main loop, where the other static checks happen.
pub fn check_frames<'a>(
    ctx: &mut TypeContext<'a, '_>,
    cls: &ClassState<'a>,
    method: &'a MethodInfo,
    code: &'a Code,
    decoded: &Decoded,
) -> R<()> {
    let initial = initial_frame(ctx, cls, method, code)?;
    // HotSpot checks each handler's catch type (loading it) with the exception table, before
    // the StackMapTable.
    let throwable = Type::Reference(ctx.names.throwable);
    for h in &code.exception_table {
        let Some(name) = cls.cf.constant_pool.class_name(h.catch_type) else {
            continue;
        };
        let t = Type::Reference(ctx.names.intern(name));
        let ok = ctx
            .is_assignable(t, throwable)
            .map_err(|m| MethodError::hierarchy(h.handler_pc, m))?;
        if !ok {
            return Err(MethodError::at(
                h.handler_pc,
                "Catch type is not a subclass of Throwable",
                format!("Catch type {}", ctx.names.describe(t)),
            ));
        }
    }
    decode_frames(
        ctx,
        &cls.cf.constant_pool,
        code.stack_map_table.as_deref().unwrap_or(&[]),
        &initial.initial,
        decoded,
        &FrameLimits {
            max_locals: usize::from(code.max_locals),
            max_stack: usize::from(code.max_stack),
        },
        code.stack_map_error.as_ref(),
    )?;
    Ok(())
}

/// Type-check one method with code (class file version >= 50).
pub fn check_method<'a>(
    ctx: &mut TypeContext<'a, '_>,
    cls: &mut ClassState<'a>,
    method: &'a MethodInfo,
    code: &'a Code,
    decoded: &Decoded,
) -> R<()> {
    let cp = &cls.cf.constant_pool;
    let max_locals = usize::from(code.max_locals);
    let max_stack = usize::from(code.max_stack);
    let Initial {
        initial,
        locals,
        flag_this_uninit,
        return_type,
    } = initial_frame(ctx, cls, method, code)?;
    let frames = decode_frames(
        ctx,
        cp,
        code.stack_map_table.as_deref().unwrap_or(&[]),
        &initial,
        decoded,
        &FrameLimits {
            max_locals,
            max_stack,
        },
        code.stack_map_error.as_ref(),
    )?;

    let mut checker = Checker {
        ctx,
        cls,
        cp,
        decoded,
        frames: &frames,
        handlers: Vec::with_capacity(code.exception_table.len()),
        locals,
        stack: Vec::with_capacity(max_stack),
        flag_this_uninit,
        max_stack,
        return_type,
        args: Vec::new(),
        pc: 0,
    };
    checker.setup_handlers(&code.exception_table)?;
    checker.run()
}

impl<'a> Checker<'a, '_, '_> {
    // ----- errors -------------------------------------------------------------------------

    fn fail(&self, headline: &str, reason: impl Into<String>) -> MethodError {
        MethodError::at(self.pc, headline, reason)
    }

    fn hier<T>(&self, r: Result<T, String>) -> R<T> {
        r.map_err(|msg| MethodError::hierarchy(self.pc, msg))
    }

    fn describe(&self, t: Type) -> String {
        self.ctx.names.describe(t)
    }

    fn assignable(&mut self, from: Type, to: Type) -> R<bool> {
        let r = self.ctx.is_assignable(from, to);
        self.hier(r)
    }

    fn bad_stack(&self, actual: Type, expected: &str) -> MethodError {
        self.fail(
            "Bad type on operand stack",
            format!(
                "Type {} (current frame, stack[{}]) is not assignable to {expected}",
                self.describe(actual),
                self.stack.len().saturating_sub(1)
            ),
        )
    }

    fn underflow(&self) -> MethodError {
        self.fail("Operand stack underflow", "Attempt to pop empty stack.")
    }

    // ----- setup --------------------------------------------------------------------------

    fn setup_handlers(&mut self, table: &[ExceptionHandler]) -> R<()> {
        let throwable = Type::Reference(self.ctx.names.throwable);
        for h in table {
            self.pc = h.handler_pc;
            let catch = if h.catch_type == 0 {
                throwable
            } else {
                let name = self
                    .cp
                    .class_name(h.catch_type)
                    .ok_or_else(|| self.fail("Catch type is not a class", ""))?;
                let t = Type::Reference(self.ctx.names.intern(name));
                if !self.assignable(t, throwable)? {
                    return Err(self.fail(
                        "Catch type is not a subclass of Throwable",
                        format!("Catch type {}", self.describe(t)),
                    ));
                }
                t
            };
            let frame = self
                .frames
                .binary_search_by_key(&h.handler_pc, |f| f.pc)
                .map_err(|_| {
                    self.fail(
                        "Expecting a stackmap frame at branch target",
                        format!("Exception handler {} has no stack map frame", h.handler_pc),
                    )
                })?;
            self.handlers.push(Handler {
                start: h.start_pc,
                end: h.end_pc,
                pc: h.handler_pc,
                catch,
                frame,
            });
        }
        self.pc = 0;
        Ok(())
    }

    // ----- frames -------------------------------------------------------------------------

    /// Is the current frame (with `stack`) assignable to `target`? Returns a
    /// description of the first mismatch.
    fn mismatch(&mut self, stack: &[Type], target: &Frame) -> R<Option<String>> {
        for (i, (&a, &b)) in self.locals.iter().zip(target.locals.iter()).enumerate() {
            if !self
                .ctx
                .is_assignable(a, b)
                .map_err(|m| MethodError::hierarchy(self.pc, m))?
            {
                return Ok(Some(format!(
                    "Type {} (current frame, locals[{i}]) is not assignable to {} (stack map, locals[{i}])",
                    self.ctx.names.describe(a),
                    self.ctx.names.describe(b)
                )));
            }
        }
        if let Some(m) = self.stack_mismatch(stack, target)? {
            return Ok(Some(m));
        }
        Ok(self.flag_mismatch(target))
    }

    fn stack_mismatch(&mut self, stack: &[Type], target: &Frame) -> R<Option<String>> {
        if stack.len() != target.stack.len() {
            return Ok(Some(format!(
                "Stack size {} does not match stack map size {}",
                stack.len(),
                target.stack.len()
            )));
        }
        for (i, (&a, &b)) in stack.iter().zip(target.stack.iter()).enumerate() {
            if !self
                .ctx
                .is_assignable(a, b)
                .map_err(|m| MethodError::hierarchy(self.pc, m))?
            {
                return Ok(Some(format!(
                    "Type {} (current frame, stack[{i}]) is not assignable to {} (stack map, stack[{i}])",
                    self.describe(a),
                    self.describe(b)
                )));
            }
        }
        Ok(None)
    }

    fn flag_mismatch(&self, target: &Frame) -> Option<String> {
        (self.flag_this_uninit && !target.flag_this_uninit)
            .then(|| "Current frame's flags are not assignable to stack map frame's.".to_string())
    }

    /// Check a transfer of control from the current frame (current stack) to `target_pc`.
    fn branch_to(&mut self, target_pc: u16) -> R<()> {
        let frames = self.frames;
        let Some(target) = frame_at(frames, target_pc) else {
            return Err(self.fail(
                "Expecting a stackmap frame at branch target",
                format!("Branch target {target_pc} has no stack map frame"),
            ));
        };
        let stack = std::mem::take(&mut self.stack);
        let r = self.mismatch(&stack, target);
        self.stack = stack;
        if let Some(m) = r? {
            return Err(self.fail(
                &format!("Inconsistent stackmap frames at branch target {target_pc}"),
                m,
            ));
        }
        Ok(())
    }

    fn check_handlers(&mut self) -> R<()> {
        let frames = self.frames;
        for i in 0..self.handlers.len() {
            let h = &self.handlers[i];
            if !(h.start <= self.pc && self.pc < h.end) {
                continue;
            }
            let (catch, hpc) = (h.catch, h.pc);
            let Some(target) = frames.get(h.frame) else {
                continue;
            };
            if let Some(m) = self.mismatch(&[catch], target)? {
                return Err(self.fail(
                    &format!("Stack map does not match the one at exception handler {hpc}"),
                    m,
                ));
            }
        }
        Ok(())
    }

    fn run(&mut self) -> R<()> {
        let decoded = self.decoded;
        let frames = self.frames;
        let mut live = true;
        let mut next_frame = 0usize;
        for insn in &decoded.insns {
            self.pc = insn.pc;
            if let Some(frame) = frames.get(next_frame).filter(|f| f.pc == insn.pc) {
                next_frame += 1;
                if live {
                    let stack = std::mem::take(&mut self.stack);
                    let r = self.mismatch(&stack, frame);
                    self.stack = stack;
                    if let Some(m) = r? {
                        return Err(self.fail(
                            &format!("Inconsistent stackmap frames at branch target {}", insn.pc),
                            m,
                        ));
                    }
                }
                self.locals.clear();
                self.locals.extend_from_slice(&frame.locals);
                self.stack.clear();
                self.stack.extend_from_slice(&frame.stack);
                self.flag_this_uninit = frame.flag_this_uninit;
            } else if !live {
                return Err(self.fail(
                    "Expecting a stackmap frame at branch target",
                    format!(
                        "No stack map frame after the unconditional branch before offset {}",
                        insn.pc
                    ),
                ));
            }
            if !self.handlers.is_empty() {
                self.check_handlers()?;
            }
            self.execute(insn)?;
            live = falls_through(insn.opcode);
        }
        if live {
            return Err(self.fail("Falling off the end of the code", ""));
        }
        Ok(())
    }

    // ----- stack and locals ---------------------------------------------------------------

    fn push(&mut self, t: Type) -> R<()> {
        if self.stack.len() + t.size() > self.max_stack {
            return Err(self.fail(
                "Operand stack overflow",
                format!("Exceeded max stack size {}", self.max_stack),
            ));
        }
        self.stack.push(t);
        if t.is_category2() {
            self.stack.push(Type::Top);
        }
        Ok(())
    }

    fn pop_expect(&mut self, expected: Type) -> R<Type> {
        if expected.is_category2() {
            let n = self.stack.len();
            if n < 2 {
                return Err(self.underflow());
            }
            let (lo, hi) = (self.stack[n - 2], self.stack[n - 1]);
            if hi != Type::Top || lo != expected {
                let shown = if hi == Type::Top { lo } else { hi };
                return Err(self.bad_stack(shown, &self.describe(expected)));
            }
            self.stack.truncate(n - 2);
            return Ok(lo);
        }
        let Some(&t) = self.stack.last() else {
            return Err(self.underflow());
        };
        if !self.assignable(t, expected)? {
            return Err(self.bad_stack(t, &self.describe(expected)));
        }
        self.stack.pop();
        Ok(t)
    }

    /// Pop a `reference` (including uninitialised objects and null).
    fn pop_reference(&mut self) -> R<Type> {
        let Some(&t) = self.stack.last() else {
            return Err(self.underflow());
        };
        if !t.is_reference() {
            return Err(self.bad_stack(t, "reference"));
        }
        self.stack.pop();
        Ok(t)
    }

    /// Pop an initialised reference (assignable to `java/lang/Object`).
    fn pop_object(&mut self) -> R<Type> {
        let Some(&t) = self.stack.last() else {
            return Err(self.underflow());
        };
        if !t.is_initialized_reference() {
            return Err(self.bad_stack(t, "'java/lang/Object'"));
        }
        self.stack.pop();
        Ok(t)
    }

    /// Pop an array reference (or null).
    fn pop_array(&mut self) -> R<Type> {
        let Some(&t) = self.stack.last() else {
            return Err(self.underflow());
        };
        let ok = match t {
            Type::Null => true,
            Type::Reference(id) => self.ctx.names.is_array(id),
            _ => false,
        };
        if !ok {
            return Err(self.bad_stack(t, "array"));
        }
        self.stack.pop();
        Ok(t)
    }

    /// Pop an array whose name is one of `names` (or null).
    fn pop_array_of(&mut self, names: &[&str]) -> R<()> {
        let t = self.pop_array()?;
        if let Type::Reference(id) = t {
            let name = self.ctx.names.name(id);
            if !names.contains(&name) {
                self.stack.push(t);
                return Err(self.bad_stack(t, &format!("'{}'", names[0])));
            }
        }
        Ok(())
    }

    fn slot(&self, from_top: usize) -> Type {
        self.stack[self.stack.len() - 1 - from_top]
    }

    fn need(&self, n: usize) -> R<()> {
        if self.stack.len() < n {
            Err(self.underflow())
        } else {
            Ok(())
        }
    }

    fn need_room(&self, n: usize) -> R<()> {
        if self.stack.len() + n > self.max_stack {
            Err(self.fail(
                "Operand stack overflow",
                format!("Exceeded max stack size {}", self.max_stack),
            ))
        } else {
            Ok(())
        }
    }

    fn cat1_at(&self, from_top: usize) -> R<()> {
        let t = self.slot(from_top);
        if t.is_category1() {
            Ok(())
        } else {
            Err(self.fail(
                "Bad type on operand stack",
                format!(
                    "Type {} (current frame, stack[{}]) is not a category 1 value",
                    self.describe(t),
                    self.stack.len() - 1 - from_top
                ),
            ))
        }
    }

    /// The two slots starting `from_top` form two category-1 values or one category-2 value.
    fn group2_at(&self, from_top: usize) -> R<()> {
        let (a, b) = (self.slot(from_top), self.slot(from_top + 1));
        if (a.is_category1() && b.is_category1()) || (a == Type::Top && b.is_category2()) {
            Ok(())
        } else {
            Err(self.fail(
                "Bad type on operand stack",
                format!(
                    "Slots {} and {} do not form a valid two-word group",
                    self.describe(b),
                    self.describe(a)
                ),
            ))
        }
    }

    fn local(&self, index: u16) -> R<Type> {
        self.locals.get(usize::from(index)).copied().ok_or_else(|| {
            self.fail(
                "Illegal local variable number",
                format!("Local index {index}"),
            )
        })
    }

    fn load(&mut self, index: u16, expected: Type) -> R<()> {
        let t = self.local(index)?;
        let ok = if expected.is_category2() {
            t == expected && self.local(index + 1)? == Type::Top
        } else {
            t == expected
        };
        if !ok {
            return Err(self.fail(
                "Bad local variable type",
                format!(
                    "Type {} (current frame, locals[{index}]) is not assignable to {}",
                    self.describe(t),
                    self.describe(expected)
                ),
            ));
        }
        self.push(expected)
    }

    fn set_local(&mut self, index: u16, t: Type) -> R<()> {
        let i = usize::from(index);
        if i + t.size() > self.locals.len() {
            return Err(self.fail(
                "Illegal local variable number",
                format!("Local index {index}"),
            ));
        }
        if i > 0 && self.locals[i - 1].is_category2() {
            self.locals[i - 1] = Type::Top;
        }
        self.locals[i] = t;
        if t.is_category2() {
            self.locals[i + 1] = Type::Top;
        }
        Ok(())
    }

    fn store(&mut self, index: u16, expected: Type) -> R<()> {
        let t = self.pop_expect(expected)?;
        self.set_local(index, t)
    }

    fn replace_everywhere(&mut self, from: Type, to: Type) {
        for t in self.locals.iter_mut().chain(self.stack.iter_mut()) {
            if *t == from {
                *t = to;
            }
        }
    }

    // ----- constant pool helpers ----------------------------------------------------------

    fn class_type(&mut self, index: u16) -> R<Type> {
        let cp = self.cp;
        match cp.class_name(index) {
            Some(name) => Ok(Type::Reference(self.ctx.names.intern(name))),
            None => Err(self.fail(
                "Illegal type in constant pool",
                format!("Constant {index} is not a class"),
            )),
        }
    }

    fn field_type(&mut self, desc: &'a str) -> R<Type> {
        match self.ctx.field_type(desc, 0) {
            Some((t, end)) if end == desc.len() => Ok(t),
            _ => Err(self.fail("Illegal field descriptor", desc.to_string())),
        }
    }

    fn ldc_type(&mut self, index: u16) -> R<Type> {
        let cp = self.cp;
        Ok(match cp.get(index) {
            Some(Constant::Integer(_)) => Type::Integer,
            Some(Constant::Float(_)) => Type::Float,
            Some(Constant::Long(_)) => Type::Long,
            Some(Constant::Double(_)) => Type::Double,
            Some(Constant::String { .. }) => Type::Reference(self.ctx.names.string),
            Some(Constant::Class { .. }) => Type::Reference(self.ctx.names.class),
            Some(Constant::MethodType { .. }) => Type::Reference(self.ctx.names.method_type),
            Some(Constant::MethodHandle { .. }) => Type::Reference(self.ctx.names.method_handle),
            Some(Constant::Dynamic {
                name_and_type_index,
                ..
            }) => {
                let Some((_, desc)) = cp.name_and_type(*name_and_type_index) else {
                    return Err(self.fail("Illegal type in constant pool", ""));
                };
                self.field_type(desc)?
            }
            _ => {
                return Err(self.fail(
                    "Illegal type in constant pool",
                    format!("Constant {index} is not loadable"),
                ));
            }
        })
    }

    // ----- protected access (JVMS §4.10.1.8) ------------------------------------------------

    /// Does accessing member `name`/`desc` referenced via `ref_class` need the
    /// receiver to be assignable to the current class?
    fn is_protected_access(
        &mut self,
        ref_class: &str,
        name: &str,
        desc: &str,
        is_method: bool,
    ) -> R<bool> {
        if ref_class == self.cls.this_name || ref_class.starts_with('[') {
            return Ok(false);
        }
        let chain = {
            let r = self.cls.superclass_chain(self.ctx);
            match r {
                Ok(c) => c.iter().any(|c| c == ref_class),
                Err(m) => return Err(MethodError::hierarchy(self.pc, m)),
            }
        };
        if !chain {
            return Ok(false);
        }
        let other = self.ctx.hierarchy().protected_in_other_package(
            self.cls.this_name,
            ref_class,
            name,
            desc,
            is_method,
        );
        self.hier(other)
    }

    /// The protected-access check of instruction `opc` (getfield, putfield, invokevirtual).
    fn protected_check(
        &mut self,
        opc: u8,
        ref_class: &str,
        name: &str,
        desc: &str,
        is_method: bool,
        receiver: Type,
    ) -> R<()> {
        if !self.is_protected_access(ref_class, name, desc, is_method)? {
            return Ok(());
        }
        // Arrays pretend to implement a public clone() (HotSpot does the same).
        let array_clone = match receiver {
            Type::Reference(id) => {
                is_method
                    && name == "clone"
                    && ref_class == "java/lang/Object"
                    && self.ctx.names.is_array(id)
            }
            _ => false,
        };
        if array_clone {
            return Ok(());
        }
        let this = Type::Reference(self.cls.this);
        if !self.assignable(receiver, this)? {
            let insn = classfile::opcodes::name(opc).unwrap_or("?");
            return Err(self.fail(
                &format!("Bad access to protected data in {insn}"),
                format!(
                    "Type {} is not assignable to {}",
                    self.describe(receiver),
                    self.describe(this)
                ),
            ));
        }
        Ok(())
    }

    // ----- instructions -------------------------------------------------------------------

    fn execute(&mut self, insn: &Insn) -> R<()> {
        let opc = insn.opcode;
        let operand = insn.operand;
        let local = match operand {
            Operand::Local(i) => i,
            _ => 0,
        };
        let cp_index = match operand {
            Operand::Cp(i)
            | Operand::MultiANewArray { cp: i, .. }
            | Operand::InvokeInterface { cp: i, .. } => i,
            _ => 0,
        };
        match opc {
            op::NOP => {}
            op::ACONST_NULL => self.push(Type::Null)?,
            op::ICONST_M1..=op::ICONST_5 | op::BIPUSH | op::SIPUSH => self.push(Type::Integer)?,
            op::LCONST_0 | op::LCONST_1 => self.push(Type::Long)?,
            op::FCONST_0..=op::FCONST_2 => self.push(Type::Float)?,
            op::DCONST_0 | op::DCONST_1 => self.push(Type::Double)?,
            op::LDC | op::LDC_W | op::LDC2_W => {
                let t = self.ldc_type(cp_index)?;
                if (opc == op::LDC2_W) != t.is_category2() {
                    return Err(self.fail(
                        "Illegal type in constant pool",
                        "ldc of a constant of the wrong size",
                    ));
                }
                self.push(t)?;
            }
            op::ILOAD | 26..=29 => self.load(local, Type::Integer)?,
            op::LLOAD | 30..=33 => self.load(local, Type::Long)?,
            op::FLOAD | 34..=37 => self.load(local, Type::Float)?,
            op::DLOAD | 38..=41 => self.load(local, Type::Double)?,
            op::ALOAD | 42..=45 => {
                let t = self.local(local)?;
                if !t.is_reference() {
                    return Err(self.fail("Bad local variable type", format!("Type {} (current frame, locals[{local}]) is not assignable to reference type", self.describe(t))));
                }
                self.push(t)?;
            }
            op::IALOAD..=op::SALOAD => {
                self.pop_expect(Type::Integer)?;
                let t = match opc {
                    op::IALOAD => self.pop_array_of(&["[I"]).map(|()| Type::Integer),
                    op::LALOAD => self.pop_array_of(&["[J"]).map(|()| Type::Long),
                    op::FALOAD => self.pop_array_of(&["[F"]).map(|()| Type::Float),
                    op::DALOAD => self.pop_array_of(&["[D"]).map(|()| Type::Double),
                    op::BALOAD => self.pop_array_of(&["[B", "[Z"]).map(|()| Type::Integer),
                    op::CALOAD => self.pop_array_of(&["[C"]).map(|()| Type::Integer),
                    op::SALOAD => self.pop_array_of(&["[S"]).map(|()| Type::Integer),
                    _ => {
                        // aaload
                        let arr = self.pop_array()?;
                        match arr {
                            Type::Reference(id) => match self.ctx.names.component(id) {
                                Some(c @ Type::Reference(_)) => Ok(c),
                                _ => {
                                    self.stack.push(arr);
                                    Err(self.bad_stack(arr, "'[Ljava/lang/Object;'"))
                                }
                            },
                            _ => Ok(Type::Null),
                        }
                    }
                }?;
                self.push(t)?;
            }
            op::ISTORE | 59..=62 => self.store(local, Type::Integer)?,
            op::LSTORE | 63..=66 => self.store(local, Type::Long)?,
            op::FSTORE | 67..=70 => self.store(local, Type::Float)?,
            op::DSTORE | 71..=74 => self.store(local, Type::Double)?,
            op::ASTORE | 75..=78 => {
                let t = self.pop_reference()?;
                self.set_local(local, t)?;
            }
            op::IASTORE..=op::SASTORE => {
                match opc {
                    op::IASTORE | op::BASTORE | op::CASTORE | op::SASTORE => {
                        self.pop_expect(Type::Integer)?
                    }
                    op::LASTORE => self.pop_expect(Type::Long)?,
                    op::FASTORE => self.pop_expect(Type::Float)?,
                    op::DASTORE => self.pop_expect(Type::Double)?,
                    _ => self.pop_object()?,
                };
                self.pop_expect(Type::Integer)?;
                match opc {
                    op::IASTORE => self.pop_array_of(&["[I"])?,
                    op::LASTORE => self.pop_array_of(&["[J"])?,
                    op::FASTORE => self.pop_array_of(&["[F"])?,
                    op::DASTORE => self.pop_array_of(&["[D"])?,
                    op::BASTORE => self.pop_array_of(&["[B", "[Z"])?,
                    op::CASTORE => self.pop_array_of(&["[C"])?,
                    op::SASTORE => self.pop_array_of(&["[S"])?,
                    _ => {
                        // aastore: array of references
                        let arr = self.pop_array()?;
                        let ok = match arr {
                            Type::Reference(id) => {
                                matches!(self.ctx.names.component(id), Some(Type::Reference(_)))
                            }
                            _ => true,
                        };
                        if !ok {
                            self.stack.push(arr);
                            return Err(self.bad_stack(arr, "'[Ljava/lang/Object;'"));
                        }
                    }
                }
            }
            op::POP => {
                self.need(1)?;
                self.cat1_at(0)?;
                self.stack.pop();
            }
            op::POP2 => {
                self.need(2)?;
                self.group2_at(0)?;
                self.stack.truncate(self.stack.len() - 2);
            }
            op::DUP => {
                self.need(1)?;
                self.cat1_at(0)?;
                self.need_room(1)?;
                let t = self.slot(0);
                self.stack.push(t);
            }
            op::DUP_X1 => {
                self.need(2)?;
                self.cat1_at(0)?;
                self.cat1_at(1)?;
                self.need_room(1)?;
                let t = self.slot(0);
                let at = self.stack.len() - 2;
                self.stack.insert(at, t);
            }
            op::DUP_X2 => {
                self.need(3)?;
                self.cat1_at(0)?;
                self.group2_at(1)?;
                self.need_room(1)?;
                let t = self.slot(0);
                let at = self.stack.len() - 3;
                self.stack.insert(at, t);
            }
            op::DUP2 | op::DUP2_X1 | op::DUP2_X2 => {
                let depth = match opc {
                    op::DUP2 => 2,
                    op::DUP2_X1 => 3,
                    _ => 4,
                };
                self.need(depth)?;
                self.group2_at(0)?;
                match opc {
                    op::DUP2_X1 => self.cat1_at(2)?,
                    op::DUP2_X2 => self.group2_at(2)?,
                    _ => {}
                }
                self.need_room(2)?;
                let (a, b) = (self.slot(1), self.slot(0));
                let at = self.stack.len() - depth;
                self.stack.insert(at, b);
                self.stack.insert(at, a);
            }
            op::SWAP => {
                self.need(2)?;
                self.cat1_at(0)?;
                self.cat1_at(1)?;
                let n = self.stack.len();
                self.stack.swap(n - 1, n - 2);
            }
            op::IADD..=op::DREM => {
                let t = arith_type(opc - op::IADD);
                self.pop_expect(t)?;
                self.pop_expect(t)?;
                self.push(t)?;
            }
            op::INEG..=op::DNEG => {
                let t = arith_type(opc - op::INEG);
                self.pop_expect(t)?;
                self.push(t)?;
            }
            op::ISHL..=op::LUSHR => {
                let t = if (opc - op::ISHL) & 1 == 0 {
                    Type::Integer
                } else {
                    Type::Long
                };
                self.pop_expect(Type::Integer)?;
                self.pop_expect(t)?;
                self.push(t)?;
            }
            op::IAND..=op::LXOR => {
                let t = if (opc - op::IAND) & 1 == 0 {
                    Type::Integer
                } else {
                    Type::Long
                };
                self.pop_expect(t)?;
                self.pop_expect(t)?;
                self.push(t)?;
            }
            op::IINC => {
                let Operand::Iinc { index, .. } = operand else {
                    return Err(self.fail("Bad instruction", ""));
                };
                let t = self.local(index)?;
                if t != Type::Integer {
                    return Err(self.fail(
                        "Bad local variable type",
                        format!(
                            "Type {} (current frame, locals[{index}]) is not assignable to integer",
                            self.describe(t)
                        ),
                    ));
                }
            }
            op::I2L..=op::I2S => {
                let (from, to) = match opc {
                    op::I2L => (Type::Integer, Type::Long),
                    op::I2F => (Type::Integer, Type::Float),
                    op::I2D => (Type::Integer, Type::Double),
                    op::L2I => (Type::Long, Type::Integer),
                    op::L2F => (Type::Long, Type::Float),
                    op::L2D => (Type::Long, Type::Double),
                    op::F2I => (Type::Float, Type::Integer),
                    op::F2L => (Type::Float, Type::Long),
                    op::F2D => (Type::Float, Type::Double),
                    op::D2I => (Type::Double, Type::Integer),
                    op::D2L => (Type::Double, Type::Long),
                    op::D2F => (Type::Double, Type::Float),
                    _ => (Type::Integer, Type::Integer),
                };
                self.pop_expect(from)?;
                self.push(to)?;
            }
            op::LCMP..=op::DCMPG => {
                let t = match opc {
                    op::LCMP => Type::Long,
                    op::FCMPL | op::FCMPG => Type::Float,
                    _ => Type::Double,
                };
                self.pop_expect(t)?;
                self.pop_expect(t)?;
                self.push(Type::Integer)?;
            }
            op::IFEQ..=op::IF_ACMPNE | op::IFNULL | op::IFNONNULL => {
                match opc {
                    op::IFEQ..=op::IFLE => {
                        self.pop_expect(Type::Integer)?;
                    }
                    op::IF_ICMPEQ..=op::IF_ICMPLE => {
                        self.pop_expect(Type::Integer)?;
                        self.pop_expect(Type::Integer)?;
                    }
                    op::IF_ACMPEQ | op::IF_ACMPNE => {
                        self.pop_reference()?;
                        self.pop_reference()?;
                    }
                    _ => {
                        self.pop_reference()?;
                    }
                }
                if let Operand::Branch(t) = operand {
                    self.branch_to(t)?;
                }
            }
            op::GOTO | op::GOTO_W => {
                if let Operand::Branch(t) = operand {
                    self.branch_to(t)?;
                }
            }
            op::JSR | op::JSR_W | op::RET => {
                return Err(self.fail(
                    "Bad instruction",
                    format!(
                        "{} is not allowed in a class file with stack maps",
                        mnemonic(opc)
                    ),
                ));
            }
            op::TABLESWITCH | op::LOOKUPSWITCH => {
                self.pop_expect(Type::Integer)?;
                if let Operand::Switch {
                    default,
                    first,
                    count,
                } = operand
                {
                    self.branch_to(default)?;
                    let decoded = self.decoded;
                    for &(_, t) in decoded.switch(first, count) {
                        self.branch_to(t)?;
                    }
                }
            }
            op::IRETURN..=op::DRETURN => {
                let expected = match opc {
                    op::IRETURN => Type::Integer,
                    op::LRETURN => Type::Long,
                    op::FRETURN => Type::Float,
                    _ => Type::Double,
                };
                if self.return_type != Some(expected) {
                    return Err(self.fail(
                        "Bad return type",
                        format!("Method does not return {}", self.describe(expected)),
                    ));
                }
                self.pop_expect(expected)?;
            }
            op::ARETURN => {
                let Some(rt @ Type::Reference(_)) = self.return_type else {
                    return Err(self.fail("Bad return type", "Method does not return a reference"));
                };
                let Some(&t) = self.stack.last() else {
                    return Err(self.underflow());
                };
                if !self.assignable(t, rt)? {
                    return Err(self.fail(
                        "Bad return type",
                        format!("Type {} (current frame, stack[{}]) is not assignable to {} (from method signature)", self.describe(t), self.stack.len() - 1, self.describe(rt)),
                    ));
                }
                self.stack.pop();
            }
            op::RETURN => {
                if self.return_type.is_some() {
                    return Err(self.fail("Method expects a return value", ""));
                }
                if self.flag_this_uninit {
                    return Err(
                        self.fail("Constructor must call super() or this() before return", "")
                    );
                }
            }
            op::GETSTATIC..=op::PUTFIELD => self.field_access(opc, cp_index)?,
            op::INVOKEVIRTUAL..=op::INVOKEDYNAMIC => self.invoke(opc, cp_index)?,
            op::NEW => {
                let t = Type::Uninitialized(insn.pc);
                if self.stack.contains(&t) {
                    return Err(self.fail(
                        "Bad type on operand stack",
                        "Uninitialized object from this new instruction is already on the stack",
                    ));
                }
                for l in &mut self.locals {
                    if *l == t {
                        *l = Type::Top;
                    }
                }
                self.push(t)?;
            }
            op::NEWARRAY => {
                let Operand::NewArray(code) = operand else {
                    return Err(self.fail("Bad instruction", ""));
                };
                let name: &'static str = match code {
                    4 => "[Z",
                    5 => "[C",
                    6 => "[F",
                    7 => "[D",
                    8 => "[B",
                    9 => "[S",
                    10 => "[I",
                    11 => "[J",
                    _ => return Err(self.fail("Illegal newarray instruction", "")),
                };
                self.pop_expect(Type::Integer)?;
                let id = self.ctx.names.intern(name);
                self.push(Type::Reference(id))?;
            }
            op::ANEWARRAY => {
                let Type::Reference(elem) = self.class_type(cp_index)? else {
                    return Err(self.fail("Illegal type in constant pool", ""));
                };
                self.pop_expect(Type::Integer)?;
                let id = self.ctx.names.array_of(elem);
                self.push(Type::Reference(id))?;
            }
            op::ARRAYLENGTH => {
                self.pop_array()?;
                self.push(Type::Integer)?;
            }
            op::ATHROW => {
                let throwable = Type::Reference(self.ctx.names.throwable);
                self.pop_expect(throwable)?;
            }
            op::CHECKCAST => {
                let t = self.class_type(cp_index)?;
                self.pop_object()?;
                self.push(t)?;
            }
            op::INSTANCEOF => {
                self.class_type(cp_index)?;
                self.pop_object()?;
                self.push(Type::Integer)?;
            }
            op::MONITORENTER | op::MONITOREXIT => {
                self.pop_reference()?;
            }
            op::MULTIANEWARRAY => {
                let Operand::MultiANewArray { dims, .. } = operand else {
                    return Err(self.fail("Bad instruction", ""));
                };
                let t = self.class_type(cp_index)?;
                for _ in 0..dims {
                    self.pop_expect(Type::Integer)?;
                }
                self.push(t)?;
            }
            _ => return Err(self.fail("Bad instruction", format!("Unexpected opcode {opc}"))),
        }
        Ok(())
    }

    fn field_access(&mut self, opc: u8, index: u16) -> R<()> {
        let cp = self.cp;
        let Some(m) = cp.member_ref(index) else {
            return Err(self.fail(
                "Illegal type in constant pool",
                format!("Constant {index} is not a field reference"),
            ));
        };
        let ft = self.field_type(m.descriptor)?;
        let owner = Type::Reference(self.ctx.names.intern(m.class_name));
        match opc {
            op::GETSTATIC => self.push(ft)?,
            op::PUTSTATIC => {
                self.pop_expect(ft)?;
            }
            op::GETFIELD => {
                let recv = self.pop_expect(owner)?;
                self.protected_check(opc, m.class_name, m.name, m.descriptor, false, recv)?;
                self.push(ft)?;
            }
            _ => {
                self.pop_expect(ft)?;
                let Some(&recv) = self.stack.last() else {
                    return Err(self.underflow());
                };
                if recv == Type::UninitializedThis {
                    // Constructors may assign fields declared in their own class before super().
                    let own = m.class_name == self.cls.this_name
                        && self.cls.cf.fields.iter().any(|f| {
                            f.name == m.name
                                && f.descriptor == m.descriptor
                                && f.access_flags & ACC_STATIC == 0
                        });
                    if !own {
                        return Err(self.bad_stack(recv, &self.describe(owner)));
                    }
                    self.stack.pop();
                } else {
                    let recv = self.pop_expect(owner)?;
                    self.protected_check(opc, m.class_name, m.name, m.descriptor, false, recv)?;
                }
            }
        }
        Ok(())
    }

    fn invoke(&mut self, opc: u8, index: u16) -> R<()> {
        let cp = self.cp;
        let (class_name, name, desc) = if opc == op::INVOKEDYNAMIC {
            let nat = match cp.get(index) {
                Some(Constant::InvokeDynamic {
                    name_and_type_index,
                    ..
                }) => cp.name_and_type(*name_and_type_index),
                _ => None,
            };
            let Some((name, desc)) = nat else {
                return Err(self.fail(
                    "Illegal type in constant pool",
                    format!("Constant {index} is not an invokedynamic constant"),
                ));
            };
            ("", name, desc)
        } else {
            let Some(m) = cp.member_ref(index) else {
                return Err(self.fail(
                    "Illegal type in constant pool",
                    format!("Constant {index} is not a method reference"),
                ));
            };
            (m.class_name, m.name, m.descriptor)
        };
        let mut args = std::mem::take(&mut self.args);
        args.clear();
        let ret = self.ctx.method_type(desc, &mut args);
        let result = match ret {
            Ok(ret) => self.invoke_with(opc, index, class_name, name, desc, &args, ret),
            Err(()) => Err(self.fail("Illegal method descriptor", desc.to_string())),
        };
        self.args = args;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn invoke_with(
        &mut self,
        opc: u8,
        index: u16,
        class_name: &'a str,
        name: &'a str,
        desc: &'a str,
        args: &[Type],
        ret: Option<Type>,
    ) -> R<()> {
        for &a in args.iter().rev() {
            self.pop_expect(a)?;
        }
        match opc {
            op::INVOKESTATIC | op::INVOKEDYNAMIC => {}
            op::INVOKESPECIAL if name == "<init>" => self.invoke_init(class_name, desc)?,
            _ => {
                let owner = Type::Reference(self.ctx.names.intern(class_name));
                // For invokeinterface the hierarchy treats the interface like Object
                // (JVMS §4.10.1.2); arrays only implement Cloneable and Serializable.
                let recv = self.pop_expect(owner)?;
                if opc == op::INVOKEVIRTUAL {
                    self.protected_check(opc, class_name, name, desc, true, recv)?;
                } else if opc == op::INVOKESPECIAL {
                    let this = Type::Reference(self.cls.this);
                    if !self.assignable(recv, this)? {
                        return Err(self.bad_stack(recv, &self.describe(this)));
                    }
                    if !self.assignable(this, owner)? {
                        return Err(self.fail("Bad invokespecial instruction: current class isn't assignable to reference class.", ""));
                    }
                    let is_imethod = matches!(
                        self.cp.get(index),
                        Some(Constant::InterfaceMethodRef { .. })
                    );
                    if is_imethod
                        && class_name != self.cls.this_name
                        && !self.cls.cf.interfaces.iter().any(|i| i == class_name)
                    {
                        return Err(self.fail("Bad invokespecial instruction: interface method reference is in an indirect superinterface.", ""));
                    }
                }
            }
        }
        if let Some(r) = ret {
            self.push(r)?;
        }
        Ok(())
    }

    fn invoke_init(&mut self, class_name: &'a str, desc: &'a str) -> R<()> {
        let Some(&recv) = self.stack.last() else {
            return Err(self.underflow());
        };
        match recv {
            Type::UninitializedThis => {
                let ok =
                    class_name == self.cls.this_name || Some(class_name) == self.cls.super_name;
                if !ok {
                    return Err(self.fail(
                        "Bad <init> method call",
                        format!("Call to {class_name}.<init> on uninitializedThis"),
                    ));
                }
                self.stack.pop();
                self.replace_everywhere(Type::UninitializedThis, Type::Reference(self.cls.this));
                self.flag_this_uninit = false;
            }
            Type::Uninitialized(new_pc) => {
                let decoded = self.decoded;
                let new_class = decoded
                    .index_at(usize::from(new_pc))
                    .map(|i| decoded.insns[i])
                    .and_then(|i| match i.operand {
                        Operand::Cp(c) if i.opcode == op::NEW => self.cp.class_name(c),
                        _ => None,
                    });
                if new_class != Some(class_name) {
                    return Err(self.fail(
                        "Call to wrong <init> method",
                        format!("Expected {}.<init>", new_class.unwrap_or("?")),
                    ));
                }
                if self.is_protected_access(class_name, "<init>", desc, true)? {
                    return Err(self.fail("Bad access to protected <init> method", ""));
                }
                self.stack.pop();
                let t = Type::Reference(self.ctx.names.intern(class_name));
                self.replace_everywhere(recv, t);
            }
            _ => return Err(self.bad_stack(recv, "uninitialized object")),
        }
        Ok(())
    }
}

fn arith_type(k: u8) -> Type {
    match k % 4 {
        0 => Type::Integer,
        1 => Type::Long,
        2 => Type::Float,
        _ => Type::Double,
    }
}
