//! Class summaries: a compact encoding of a parsed and format-checked [`ClassFile`], which the
//! class cache keeps so that a class met again is decoded instead of parsed and checked.
//!
//! A summary is only written for a class that passed every check, and only read back from a
//! checksummed cache entry; [`decode`] still checks the encoding itself (lengths, tags, UTF-8)
//! and fails, never panics, on any input. [`VERSION`] changes with the encoding and with the
//! model, so that a summary of another layout is never decoded.

use crate::constant_pool::{Constant, ConstantPool, Utf8};
use crate::error::ClassFormatError;
use crate::model::*;

/// The encoding's version: part of a cache entry's key.
pub const VERSION: u32 = 1;

/// Encodes `cf`.
pub fn encode(cf: &ClassFile) -> Vec<u8> {
    let mut w = W(Vec::with_capacity(cf.file_len + cf.file_len / 2));
    w.u16(cf.minor_version);
    w.u16(cf.major_version);
    w.pool(&cf.constant_pool);
    w.u16(cf.access_flags);
    w.str(&cf.name);
    w.opt_str(cf.super_name.as_deref());
    w.len(cf.interfaces.len());
    cf.interfaces.iter().for_each(|i| w.str(i));
    w.len(cf.fields.len());
    cf.fields.iter().for_each(|f| w.field(f));
    w.len(cf.methods.len());
    cf.methods.iter().for_each(|m| w.method(m));
    w.opt_str(cf.source_file.as_deref());
    w.opt_str(cf.signature.as_deref());
    w.len(cf.bootstrap_methods.len());
    for b in &cf.bootstrap_methods {
        w.u16(b.method_ref);
        w.u16s(&b.arguments);
    }
    w.len(cf.inner_classes.len());
    for c in &cf.inner_classes {
        for v in [
            c.inner_class_info,
            c.outer_class_info,
            c.inner_name,
            c.inner_flags,
        ] {
            w.u16(v);
        }
    }
    w.opt(cf.enclosing_method, |w, (a, b)| {
        w.u16(a);
        w.u16(b);
    });
    w.opt(cf.nest_host, W::u16);
    w.u16s(&cf.nest_members);
    w.u16s(&cf.permitted_subclasses);
    w.opt(cf.record.as_ref(), |w, rs| {
        w.len(rs.len());
        for r in rs {
            w.str(&r.name);
            w.str(&r.descriptor);
            w.opt_str(r.signature.as_deref());
            w.opt_bytes(r.runtime_visible_annotations.as_deref());
            w.opt_bytes(r.runtime_visible_type_annotations.as_deref());
        }
    });
    w.opt_bytes(cf.runtime_visible_annotations.as_deref());
    w.opt_bytes(cf.runtime_visible_type_annotations.as_deref());
    w.u32(cf.file_len as u32);
    w.0
}

/// Decodes a summary made by [`encode`].
pub fn decode(b: &[u8]) -> Result<ClassFile, ClassFormatError> {
    let mut r = R { b, at: 0 };
    let cf = r.class()?;
    if r.at != b.len() {
        return Err(bad());
    }
    Ok(cf)
}

fn bad() -> ClassFormatError {
    ClassFormatError::new("Malformed class summary")
}

struct W(Vec<u8>);

impl W {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(n as u32);
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn u16s(&mut self, v: &[u16]) {
        self.len(v.len());
        v.iter().for_each(|&x| self.u16(x));
    }
    fn opt<T>(&mut self, v: Option<T>, f: impl FnOnce(&mut W, T)) {
        match v {
            None => self.u8(0),
            Some(x) => {
                self.u8(1);
                f(self, x);
            }
        }
    }
    fn opt_str(&mut self, s: Option<&str>) {
        self.opt(s, W::str);
    }
    fn opt_bytes(&mut self, b: Option<&[u8]>) {
        self.opt(b, W::bytes);
    }

    fn pool(&mut self, p: &ConstantPool) {
        self.len(p.entries.len());
        for c in &p.entries {
            self.constant(c);
        }
    }

    fn constant(&mut self, c: &Constant) {
        use Constant::*;
        let two = |w: &mut W, tag: u8, a: u16, b: u16| {
            w.u8(tag);
            w.u16(a);
            w.u16(b);
        };
        match c {
            Unusable => self.u8(0),
            Utf8(u) => {
                self.u8(1);
                self.str(&u.text);
                self.opt_bytes(u.raw());
            }
            Integer(v) => {
                self.u8(3);
                self.u32(*v as u32);
            }
            Float(v) => {
                self.u8(4);
                self.u32(v.to_bits());
            }
            Long(v) => {
                self.u8(5);
                self.0.extend_from_slice(&v.to_le_bytes());
            }
            Double(v) => {
                self.u8(6);
                self.0.extend_from_slice(&v.to_bits().to_le_bytes());
            }
            Class { name_index } => two(self, 7, *name_index, 0),
            String { string_index } => two(self, 8, *string_index, 0),
            FieldRef {
                class_index,
                name_and_type_index,
            } => two(self, 9, *class_index, *name_and_type_index),
            MethodRef {
                class_index,
                name_and_type_index,
            } => two(self, 10, *class_index, *name_and_type_index),
            InterfaceMethodRef {
                class_index,
                name_and_type_index,
            } => two(self, 11, *class_index, *name_and_type_index),
            NameAndType {
                name_index,
                descriptor_index,
            } => two(self, 12, *name_index, *descriptor_index),
            MethodHandle {
                reference_kind,
                reference_index,
            } => two(self, 15, u16::from(*reference_kind), *reference_index),
            MethodType { descriptor_index } => two(self, 16, *descriptor_index, 0),
            Dynamic {
                bootstrap_method_attr_index,
                name_and_type_index,
            } => two(self, 17, *bootstrap_method_attr_index, *name_and_type_index),
            InvokeDynamic {
                bootstrap_method_attr_index,
                name_and_type_index,
            } => two(self, 18, *bootstrap_method_attr_index, *name_and_type_index),
            Module { name_index } => two(self, 19, *name_index, 0),
            Package { name_index } => two(self, 20, *name_index, 0),
        }
    }

    fn field(&mut self, f: &FieldInfo) {
        self.u16(f.access_flags);
        self.str(&f.name);
        self.str(&f.descriptor);
        self.opt(f.constant_value, W::u16);
        self.opt_str(f.signature.as_deref());
        self.opt_bytes(f.runtime_visible_annotations.as_deref());
        self.opt_bytes(f.runtime_visible_type_annotations.as_deref());
    }

    fn method(&mut self, m: &MethodInfo) {
        self.u16(m.access_flags);
        self.str(&m.name);
        self.str(&m.descriptor);
        self.opt(m.code.as_ref(), W::code);
        self.u16s(&m.exceptions);
        self.opt_str(m.signature.as_deref());
        self.opt_bytes(m.runtime_visible_annotations.as_deref());
        self.opt_bytes(m.runtime_visible_parameter_annotations.as_deref());
        self.opt_bytes(m.annotation_default.as_deref());
        self.opt_bytes(m.runtime_visible_type_annotations.as_deref());
        self.len(m.method_parameters.len());
        for &(n, f) in &m.method_parameters {
            self.u16(n);
            self.u16(f);
        }
    }

    fn code(&mut self, c: &Code) {
        self.u16(c.max_stack);
        self.u16(c.max_locals);
        self.bytes(&c.code);
        self.len(c.exception_table.len());
        for h in &c.exception_table {
            for v in [h.start_pc, h.end_pc, h.handler_pc, h.catch_type] {
                self.u16(v);
            }
        }
        self.len(c.line_numbers.len());
        for &(pc, line) in &c.line_numbers {
            self.u16(pc);
            self.u16(line);
        }
        self.opt(c.stack_map_table.as_ref(), |w, frames| {
            w.len(frames.len());
            frames.iter().for_each(|f| w.frame(f));
        });
        self.opt_str(c.stack_map_error.as_ref().map(|e| e.message()));
        self.len(c.local_variables.len());
        for v in &c.local_variables {
            for x in [
                v.start_pc,
                v.length,
                v.name_index,
                v.descriptor_index,
                v.index,
            ] {
                self.u16(x);
            }
        }
    }

    fn frame(&mut self, f: &StackMapFrame) {
        match f {
            StackMapFrame::Same { offset_delta } => {
                self.u8(0);
                self.u16(*offset_delta);
            }
            StackMapFrame::SameLocals1StackItem {
                offset_delta,
                stack,
            } => {
                self.u8(1);
                self.u16(*offset_delta);
                self.vtype(stack);
            }
            StackMapFrame::Chop { offset_delta, k } => {
                self.u8(2);
                self.u16(*offset_delta);
                self.u8(*k);
            }
            StackMapFrame::Append {
                offset_delta,
                locals,
            } => {
                self.u8(3);
                self.u16(*offset_delta);
                self.vtypes(locals);
            }
            StackMapFrame::Full {
                offset_delta,
                locals,
                stack,
            } => {
                self.u8(4);
                self.u16(*offset_delta);
                self.vtypes(locals);
                self.vtypes(stack);
            }
        }
    }

    fn vtypes(&mut self, v: &[VType]) {
        self.len(v.len());
        v.iter().for_each(|t| self.vtype(t));
    }

    fn vtype(&mut self, t: &VType) {
        let (tag, arg) = t.tag();
        self.u8(tag);
        self.u16(arg);
    }
}

/// The decoder: every read is bounds-checked and fails with [`bad`].
struct R<'b> {
    b: &'b [u8],
    at: usize,
}

type Res<T> = Result<T, ClassFormatError>;

impl<'b> R<'b> {
    fn take(&mut self, n: usize) -> Res<&'b [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(bad)?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Res<u8> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Res<u16> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Res<u32> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self) -> Res<u64> {
        Ok(u64::from(self.u32()?) | (u64::from(self.u32()?) << 32))
    }
    /// A count, no larger than the bytes left (every element takes at least one byte).
    fn len(&mut self) -> Res<usize> {
        let n = self.u32()? as usize;
        if n > self.b.len() - self.at {
            return Err(bad());
        }
        Ok(n)
    }
    fn bytes(&mut self) -> Res<Vec<u8>> {
        let n = self.len()?;
        Ok(self.take(n)?.to_vec())
    }
    fn str(&mut self) -> Res<String> {
        let n = self.len()?;
        let s = self.take(n)?;
        std::str::from_utf8(s).map(str::to_owned).map_err(|_| bad())
    }
    fn u16s(&mut self) -> Res<Vec<u16>> {
        let n = self.len()?;
        let s = self.take(n.checked_mul(2).ok_or_else(bad)?)?;
        Ok(s.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
    /// `n` elements read by `f` (the vector made at its size: no regrowth).
    fn vec<T>(&mut self, mut f: impl FnMut(&mut Self) -> Res<T>) -> Res<Vec<T>> {
        let n = self.len()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(f(self)?);
        }
        Ok(v)
    }
    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<Option<T>> {
        match self.u8()? {
            0 => Ok(None),
            1 => f(self).map(Some),
            _ => Err(bad()),
        }
    }
    fn opt_str(&mut self) -> Res<Option<String>> {
        self.opt(R::str)
    }
    fn opt_bytes(&mut self) -> Res<Option<Vec<u8>>> {
        self.opt(R::bytes)
    }

    fn class(&mut self) -> Res<ClassFile> {
        Ok(ClassFile {
            minor_version: self.u16()?,
            major_version: self.u16()?,
            constant_pool: ConstantPool {
                entries: self.vec(R::constant)?,
            },
            access_flags: self.u16()?,
            name: self.str()?,
            super_name: self.opt_str()?,
            interfaces: self.vec(R::str)?,
            fields: self.vec(R::field)?,
            methods: self.vec(R::method)?,
            source_file: self.opt_str()?,
            signature: self.opt_str()?,
            bootstrap_methods: self.vec(|r| {
                Ok(BootstrapMethod {
                    method_ref: r.u16()?,
                    arguments: r.u16s()?,
                })
            })?,
            inner_classes: self.vec(|r| {
                Ok(InnerClass {
                    inner_class_info: r.u16()?,
                    outer_class_info: r.u16()?,
                    inner_name: r.u16()?,
                    inner_flags: r.u16()?,
                })
            })?,
            enclosing_method: self.opt(|r| Ok((r.u16()?, r.u16()?)))?,
            nest_host: self.opt(R::u16)?,
            nest_members: self.u16s()?,
            permitted_subclasses: self.u16s()?,
            record: self.opt(|r| r.vec(R::record_component))?,
            runtime_visible_annotations: self.opt_bytes()?,
            runtime_visible_type_annotations: self.opt_bytes()?,
            file_len: self.u32()? as usize,
        })
    }

    fn constant(&mut self) -> Res<Constant> {
        let tag = self.u8()?;
        Ok(match tag {
            0 => Constant::Unusable,
            1 => {
                let text = self.str()?.into_boxed_str();
                let raw = self.opt_bytes()?.map(Vec::into_boxed_slice);
                Constant::Utf8(Utf8::from_parts(text, raw))
            }
            3 => Constant::Integer(self.u32()? as i32),
            4 => Constant::Float(f32::from_bits(self.u32()?)),
            5 => Constant::Long(self.u64()? as i64),
            6 => Constant::Double(f64::from_bits(self.u64()?)),
            _ => {
                let (a, b) = (self.u16()?, self.u16()?);
                match tag {
                    7 => Constant::Class { name_index: a },
                    8 => Constant::String { string_index: a },
                    9 => Constant::FieldRef {
                        class_index: a,
                        name_and_type_index: b,
                    },
                    10 => Constant::MethodRef {
                        class_index: a,
                        name_and_type_index: b,
                    },
                    11 => Constant::InterfaceMethodRef {
                        class_index: a,
                        name_and_type_index: b,
                    },
                    12 => Constant::NameAndType {
                        name_index: a,
                        descriptor_index: b,
                    },
                    15 => Constant::MethodHandle {
                        reference_kind: u8::try_from(a).map_err(|_| bad())?,
                        reference_index: b,
                    },
                    16 => Constant::MethodType {
                        descriptor_index: a,
                    },
                    17 => Constant::Dynamic {
                        bootstrap_method_attr_index: a,
                        name_and_type_index: b,
                    },
                    18 => Constant::InvokeDynamic {
                        bootstrap_method_attr_index: a,
                        name_and_type_index: b,
                    },
                    19 => Constant::Module { name_index: a },
                    20 => Constant::Package { name_index: a },
                    _ => return Err(bad()),
                }
            }
        })
    }

    fn field(&mut self) -> Res<FieldInfo> {
        Ok(FieldInfo {
            access_flags: self.u16()?,
            name: self.str()?,
            descriptor: self.str()?,
            constant_value: self.opt(R::u16)?,
            signature: self.opt_str()?,
            runtime_visible_annotations: self.opt_bytes()?,
            runtime_visible_type_annotations: self.opt_bytes()?,
        })
    }

    fn method(&mut self) -> Res<MethodInfo> {
        Ok(MethodInfo {
            access_flags: self.u16()?,
            name: self.str()?,
            descriptor: self.str()?,
            code: self.opt(R::code)?,
            exceptions: self.u16s()?,
            signature: self.opt_str()?,
            runtime_visible_annotations: self.opt_bytes()?,
            runtime_visible_parameter_annotations: self.opt_bytes()?,
            annotation_default: self.opt_bytes()?,
            runtime_visible_type_annotations: self.opt_bytes()?,
            method_parameters: self.vec(|r| Ok((r.u16()?, r.u16()?)))?,
        })
    }

    fn code(&mut self) -> Res<Code> {
        Ok(Code {
            max_stack: self.u16()?,
            max_locals: self.u16()?,
            code: self.bytes()?,
            exception_table: self.vec(|r| {
                Ok(ExceptionHandler {
                    start_pc: r.u16()?,
                    end_pc: r.u16()?,
                    handler_pc: r.u16()?,
                    catch_type: r.u16()?,
                })
            })?,
            line_numbers: self.vec(|r| Ok((r.u16()?, r.u16()?)))?,
            stack_map_table: self.opt(|r| r.vec(R::frame))?,
            stack_map_error: self.opt_str()?.map(ClassFormatError),
            local_variables: self.vec(|r| {
                Ok(LocalVariable {
                    start_pc: r.u16()?,
                    length: r.u16()?,
                    name_index: r.u16()?,
                    descriptor_index: r.u16()?,
                    index: r.u16()?,
                })
            })?,
        })
    }

    fn frame(&mut self) -> Res<StackMapFrame> {
        let tag = self.u8()?;
        let offset_delta = self.u16()?;
        Ok(match tag {
            0 => StackMapFrame::Same { offset_delta },
            1 => StackMapFrame::SameLocals1StackItem {
                offset_delta,
                stack: self.vtype()?,
            },
            2 => StackMapFrame::Chop {
                offset_delta,
                k: self.u8()?,
            },
            3 => StackMapFrame::Append {
                offset_delta,
                locals: self.vec(R::vtype)?,
            },
            4 => StackMapFrame::Full {
                offset_delta,
                locals: self.vec(R::vtype)?,
                stack: self.vec(R::vtype)?,
            },
            _ => return Err(bad()),
        })
    }

    fn vtype(&mut self) -> Res<VType> {
        let (tag, arg) = (self.u8()?, self.u16()?);
        VType::from_tag(tag, arg).ok_or_else(bad)
    }

    fn record_component(&mut self) -> Res<RecordComponent> {
        Ok(RecordComponent {
            name: self.str()?,
            descriptor: self.str()?,
            signature: self.opt_str()?,
            runtime_visible_annotations: self.opt_bytes()?,
            runtime_visible_type_annotations: self.opt_bytes()?,
        })
    }
}
