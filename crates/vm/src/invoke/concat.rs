//! `StringConcatFactory` as an intrinsic: the recipe is decoded once per call site; each call
//! converts its arguments as `String.valueOf` would and builds the result directly.

use super::Bootstrap;
use crate::class::{BasicType, Class};
use crate::heap::from_slot;
use crate::thread::{JResult, JThread};

#[derive(Debug)]
enum Part {
    Arg(usize),
    Text(Vec<u16>),
}

#[derive(Debug)]
pub struct Recipe {
    parts: Vec<Part>,
    desc: String,
}

impl Recipe {
    pub fn new(t: &mut JThread, caller: &'static Class, b: &Bootstrap) -> JResult<Recipe> {
        let (params, _, _) = crate::class::loader::parse_sig(b.site_desc);
        let cp = &caller
            .file
            .as_ref()
            .expect("indy caller has a class file")
            .constant_pool;
        let mut parts = Vec::new();
        if b.name == "makeConcat" {
            parts.extend((0..params.len()).map(Part::Arg));
        } else {
            let recipe = b
                .args
                .first()
                .and_then(|&i| cp.string(i))
                .map(|u| u.utf16());
            let Some(recipe) = recipe else {
                return Err(t.throw_new(
                    "java/lang/BootstrapMethodError",
                    Some("string concatenation without a recipe"),
                ));
            };
            let mut consts = b.args[1..].iter();
            let mut arg = 0;
            let mut text: Vec<u16> = Vec::new();
            for &u in &recipe {
                match u {
                    1 | 2 => {
                        if !text.is_empty() {
                            parts.push(Part::Text(std::mem::take(&mut text)));
                        }
                        if u == 1 {
                            parts.push(Part::Arg(arg));
                            arg += 1;
                        } else {
                            let c = consts.next().copied().unwrap_or(0);
                            let v = constant_text(cp, c);
                            parts.push(Part::Text(v));
                        }
                    }
                    _ => text.push(u),
                }
            }
            if !text.is_empty() {
                parts.push(Part::Text(text));
            }
        }
        Ok(Recipe {
            parts,
            desc: b.site_desc.to_string(),
        })
    }
}

fn constant_text(cp: &classfile::ConstantPool, i: u16) -> Vec<u16> {
    use classfile::Constant as K;
    match cp.get(i) {
        Some(K::String { .. }) => cp.string(i).map(|u| u.utf16()).unwrap_or_default(),
        Some(K::Integer(v)) => v.to_string().encode_utf16().collect(),
        Some(K::Long(v)) => v.to_string().encode_utf16().collect(),
        _ => Vec::new(),
    }
}

/// Appends `String.valueOf(v)` for a value of type `ty`.
pub fn append_value(t: &mut JThread, out: &mut Vec<u16>, ty: BasicType, v: u64) -> JResult<()> {
    let s: String = match ty {
        BasicType::Int | BasicType::Short | BasicType::Byte => (v as i32).to_string(),
        BasicType::Long => (v as i64).to_string(),
        BasicType::Boolean => {
            if v as u32 != 0 {
                "true".into()
            } else {
                "false".into()
            }
        }
        BasicType::Char => {
            out.push(v as u16);
            return Ok(());
        }
        BasicType::Float => {
            let r = t.call_static("java/lang/Float", "toString", "(F)Ljava/lang/String;", &[v])?;
            out.extend(t.string_utf16(from_slot(r).expect("Float.toString")));
            return Ok(());
        }
        BasicType::Double => {
            let r = t.call_static(
                "java/lang/Double",
                "toString",
                "(D)Ljava/lang/String;",
                &[v, 0],
            )?;
            out.extend(t.string_utf16(from_slot(r).expect("Double.toString")));
            return Ok(());
        }
        BasicType::Ref => match from_slot(v) {
            None => "null".into(),
            Some(o) if std::ptr::eq(o.class(), t.vm.wk().string) => {
                out.extend(t.string_utf16(o));
                return Ok(());
            }
            Some(o) => {
                let r = t.call_virtual(o, "toString", "()Ljava/lang/String;", &[])?;
                match from_slot(r) {
                    Some(s) => {
                        out.extend(t.string_utf16(s));
                        return Ok(());
                    }
                    None => "null".into(),
                }
            }
        },
        BasicType::Void => String::new(),
    };
    out.extend(s.encode_utf16());
    Ok(())
}

pub fn run(t: &mut JThread, r: &Recipe, sp: usize) -> JResult<(u64, BasicType, usize)> {
    let (mut args, slots) = super::stack_args(t, &r.desc, sp);
    // toString() of one argument may collect: reference arguments live in handles meanwhile.
    let mark = t.handles.len();
    for (ty, v) in args.iter_mut() {
        if *ty == BasicType::Ref {
            t.handles.push(*v);
            *v = (t.handles.len() - 1) as u64;
        }
    }
    let mut out: Vec<u16> = Vec::with_capacity(64);
    for p in &r.parts {
        match p {
            Part::Text(s) => out.extend_from_slice(s),
            Part::Arg(i) => {
                let (ty, mut v) = args[*i];
                if ty == BasicType::Ref {
                    v = t.handles[v as usize];
                }
                if let Err(e) = append_value(t, &mut out, ty, v) {
                    t.handles.truncate(mark);
                    return Err(e);
                }
            }
        }
    }
    t.handles.truncate(mark);
    let s = t.new_string_utf16(&out)?;
    Ok((s.slot(), BasicType::Ref, slots))
}
