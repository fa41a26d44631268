//! `java.lang.runtime.ObjectMethods.bootstrap` as an intrinsic: toString, equals and
//! hashCode of records, with the same results as the JDK's method-handle combinators.

use super::Bootstrap;
use crate::class::{BasicType, Class};
use crate::heap::{ObjRef, from_slot};
use crate::runtime::fields::load_field;
use crate::thread::{JResult, JThread};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ToString,
    Equals,
    HashCode,
}

#[derive(Debug)]
pub struct RecordMethod {
    kind: Kind,
    record: &'static Class,
    /// (name, offset, type) of each component, in order.
    components: Vec<(String, usize, BasicType)>,
}

impl RecordMethod {
    pub fn new(t: &mut JThread, caller: &'static Class, b: &Bootstrap) -> JResult<RecordMethod> {
        let kind = match b.site_name {
            "toString" => Kind::ToString,
            "equals" => Kind::Equals,
            "hashCode" => Kind::HashCode,
            other => {
                let msg = format!("Illegal method name {other}");
                return Err(t.throw_new("java/lang/BootstrapMethodError", Some(&msg)));
            }
        };
        let cp = &caller
            .file
            .as_ref()
            .expect("indy caller has a class file")
            .constant_pool;
        let record_name = b
            .args
            .first()
            .and_then(|&i| cp.class_name(i))
            .map(str::to_string);
        let names = b
            .args
            .get(1)
            .and_then(|&i| cp.string(i))
            .map(|u| u.text.to_string())
            .unwrap_or_default();
        let Some(record_name) = record_name else {
            return Err(t.throw_new(
                "java/lang/BootstrapMethodError",
                Some("ObjectMethods without record class"),
            ));
        };
        let record = t.load_class(caller.loader, &record_name)?;
        let mut components = Vec::new();
        for n in names.split(';').filter(|n| !n.is_empty()) {
            let Some(f) = record
                .fields
                .iter()
                .find(|f| &*f.name == n && !f.is_static())
            else {
                let msg = format!("record component {n} not found");
                return Err(t.throw_new("java/lang/BootstrapMethodError", Some(&msg)));
            };
            components.push((n.to_string(), f.offset as usize, f.ty));
        }
        Ok(RecordMethod {
            kind,
            record,
            components,
        })
    }
}

fn hash_of(t: &mut JThread, ty: BasicType, v: u64) -> JResult<i32> {
    Ok(match ty {
        BasicType::Boolean => {
            if v as u32 != 0 {
                1231
            } else {
                1237
            }
        }
        BasicType::Byte | BasicType::Short | BasicType::Char | BasicType::Int => v as i32,
        BasicType::Long => (v ^ (v >> 32)) as i32,
        BasicType::Float => {
            let f = f32::from_bits(v as u32);
            if f.is_nan() { 0x7fc0_0000 } else { v as i32 }
        }
        BasicType::Double => {
            let d = f64::from_bits(v);
            let bits = if d.is_nan() {
                0x7ff8_0000_0000_0000u64
            } else {
                v
            };
            (bits ^ (bits >> 32)) as i32
        }
        _ => match from_slot(v) {
            None => 0,
            Some(o) => t.call_virtual(o, "hashCode", "()I", &[])? as i32,
        },
    })
}

fn equal_values(t: &mut JThread, ty: BasicType, a: u64, b: u64) -> JResult<bool> {
    Ok(match ty {
        BasicType::Float => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            (x.is_nan() && y.is_nan()) || (x.to_bits() == y.to_bits())
        }
        BasicType::Double => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            (x.is_nan() && y.is_nan()) || (x.to_bits() == y.to_bits())
        }
        BasicType::Ref => match (from_slot(a), from_slot(b)) {
            (None, None) => true,
            (Some(x), Some(y)) if x == y => true,
            (Some(x), Some(_)) => t.call_virtual(x, "equals", "(Ljava/lang/Object;)Z", &[b])? != 0,
            _ => false,
        },
        _ => a == b,
    })
}

/// `Class.getSimpleName()` of a record class, as `ObjectMethods` prints it: its InnerClasses
/// name (a local record `1Address` is `Address`), else its name without the package.
fn simple_name(c: &Class) -> String {
    if let Some(n) = c.simple_binary_name() {
        return n.to_string();
    }
    let n = c.java_name();
    n.rsplit('.').next().unwrap_or(&n).to_string()
}

pub fn run(t: &mut JThread, r: &RecordMethod, sp: usize) -> JResult<(u64, BasicType, usize)> {
    // Component hashCode/equals/toString run Java code that may collect: the receiver (and
    // the other record) are re-read from handles after each call.
    let mark = t.handles.len();
    let r = run_inner(t, r, sp);
    t.handles.truncate(mark);
    r
}

fn run_inner(t: &mut JThread, r: &RecordMethod, sp: usize) -> JResult<(u64, BasicType, usize)> {
    match r.kind {
        Kind::HashCode => {
            let o = receiver(t, t.stack[sp - 1])?;
            let h_o = t.handle(o);
            let mut h: i32 = 0;
            for &(_, off, ty) in &r.components {
                let v = load_field(t.handle_get(h_o), off, ty, false);
                h = h.wrapping_mul(31).wrapping_add(hash_of(t, ty, v)?);
            }
            Ok((h as u32 as u64, BasicType::Int, 1))
        }
        Kind::Equals => {
            let o = receiver(t, t.stack[sp - 2])?;
            let other = from_slot(t.stack[sp - 1]);
            let Some(other) = other.filter(|x| x.class().is_subtype_of(r.record)) else {
                return Ok((0, BasicType::Boolean, 2));
            };
            let (h_o, h_other) = (t.handle(o), t.handle(other));
            for &(_, off, ty) in &r.components {
                let (a, b) = (
                    load_field(t.handle_get(h_o), off, ty, false),
                    load_field(t.handle_get(h_other), off, ty, false),
                );
                if !equal_values(t, ty, a, b)? {
                    return Ok((0, BasicType::Boolean, 2));
                }
            }
            Ok((1, BasicType::Boolean, 2))
        }
        Kind::ToString => {
            let o = receiver(t, t.stack[sp - 1])?;
            let h_o = t.handle(o);
            let mut out: Vec<u16> = simple_name(r.record).encode_utf16().collect();
            out.push('[' as u16);
            for (i, (name, off, ty)) in r.components.iter().enumerate() {
                if i > 0 {
                    out.extend(", ".encode_utf16());
                }
                out.extend(name.encode_utf16());
                out.push('=' as u16);
                let v = load_field(t.handle_get(h_o), *off, *ty, false);
                super::concat::append_value(t, &mut out, *ty, v)?;
            }
            out.push(']' as u16);
            let s = t.new_string_utf16(&out)?;
            Ok((s.slot(), BasicType::Ref, 1))
        }
    }
}

fn receiver(t: &mut JThread, v: u64) -> JResult<ObjRef> {
    crate::native::nonnull(t, v)
}
