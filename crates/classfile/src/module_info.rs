//! The exports of a module descriptor, `module-info.class` (JVMS 17 §4.7.25): which packages a
//! module exports to every module, and which only to some. The VM reads the JDK's modules'
//! descriptors with it to refuse a class outside them linking to a package they do not export
//! (as HotSpot does at resolution).
//!
//! Reads only what that needs: the constant pool, the class header and the Module attribute's
//! name, requires and exports; opens, uses and provides are not looked at. Malformed input is
//! a [`ClassFormatError`], never a panic.

use crate::constant_pool::{Constant, ConstantPool, parse_pool};
use crate::error::{ClassFormatError, Result, bail};
use crate::reader::Reader;

/// What a module descriptor says about exported packages (internal names, `java/lang`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ModuleExports {
    pub name: String,
    /// Packages exported to every module.
    pub to_all: Vec<String>,
    /// Packages exported only to the modules named in the descriptor.
    pub qualified: Vec<String>,
}

/// Reads the exports of the module descriptor `bytes`.
pub fn module_exports(bytes: &[u8]) -> std::result::Result<ModuleExports, ClassFormatError> {
    let mut r = Reader::new(bytes);
    if r.u32()? != 0xCAFE_BABE {
        bail!("Incompatible magic value in module-info");
    }
    let _minor = r.u16()?;
    let major = r.u16()?;
    if major < 53 {
        bail!("module-info of class file version {major}");
    }
    let cp = parse_pool(&mut r, major)?;
    let _flags = r.u16()?;
    let _this = r.u16()?;
    let _super = r.u16()?;
    for what in ["interfaces", "fields", "methods"] {
        if r.u16()? != 0 {
            bail!("module-info with {what}");
        }
    }
    for _ in 0..r.u16()? {
        let name = r.u16()?;
        let len = r.u32()? as usize;
        let data = r.bytes(len)?;
        if cp.utf8(name) == Some("Module") {
            return exports_of(&cp, data);
        }
    }
    bail!("module-info without a Module attribute")
}

fn exports_of(cp: &ConstantPool, data: &[u8]) -> Result<ModuleExports> {
    let mut r = Reader::attribute(data, "Module");
    let name = named(cp, r.u16()?, |c| matches!(c, Constant::Module { .. }))?;
    let _flags = r.u16()?;
    let _version = r.u16()?;
    for _ in 0..r.u16()? {
        r.bytes(6)?;
    }
    let mut out = ModuleExports {
        name,
        ..ModuleExports::default()
    };
    for _ in 0..r.u16()? {
        let package = named(cp, r.u16()?, |c| matches!(c, Constant::Package { .. }))?;
        let _flags = r.u16()?;
        let to = r.u16()?;
        r.bytes(2 * to as usize)?;
        if to == 0 {
            &mut out.to_all
        } else {
            &mut out.qualified
        }
        .push(package);
    }
    Ok(out)
}

/// The name of the CONSTANT_Module or CONSTANT_Package at `index` (`is_kind` says which).
fn named(cp: &ConstantPool, index: u16, is_kind: fn(&Constant) -> bool) -> Result<String> {
    let entry = cp.get(index).filter(|c| is_kind(c));
    let name_index = match entry {
        Some(Constant::Module { name_index } | Constant::Package { name_index }) => *name_index,
        _ => bail!("Invalid module or package index {index} in module-info"),
    };
    match cp.utf8(name_index) {
        Some(n) => Ok(n.to_string()),
        None => bail!("Invalid name index {name_index} in module-info"),
    }
}

#[cfg(test)]
mod tests {
    use super::module_exports;

    /// A module-info of module `m` exporting `p/a` to all and `p/b` to module `n`.
    fn descriptor() -> Vec<u8> {
        let mut b = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61];
        let utf8 = |b: &mut Vec<u8>, s: &str| {
            b.push(1);
            b.extend((s.len() as u16).to_be_bytes());
            b.extend(s.as_bytes());
        };
        b.extend(10u16.to_be_bytes()); // 9 entries
        utf8(&mut b, "module-info"); // 1
        b.extend([7, 0, 1]); // 2: Class module-info
        utf8(&mut b, "Module"); // 3
        utf8(&mut b, "m"); // 4
        b.extend([19, 0, 4]); // 5: Module m
        utf8(&mut b, "p/a"); // 6
        b.extend([20, 0, 6]); // 7: Package p/a
        utf8(&mut b, "p/b"); // 8
        b.extend([20, 0, 8]); // 9: Package p/b
        b.extend([0x80, 0, 0, 2, 0, 0]); // ACC_MODULE, this, no super
        b.extend([0, 0, 0, 0, 0, 0, 0, 1]); // no interfaces, fields, methods; 1 attribute
        let module: &[u8] = &[
            0, 5, 0, 0, 0, 0, // module m, flags, no version
            0, 0, // no requires
            0, 2, // 2 exports
            0, 7, 0, 0, 0, 0, // p/a to all
            0, 9, 0, 0, 0, 1, 0, 5, // p/b to m
            0, 0, 0, 0, 0, 0, // opens, uses, provides
        ];
        b.extend([0, 3]);
        b.extend((module.len() as u32).to_be_bytes());
        b.extend(module);
        b
    }

    #[test]
    fn reads_the_exports_of_a_module_descriptor() {
        let e = module_exports(&descriptor()).unwrap();
        assert_eq!(e.name, "m");
        assert_eq!(e.to_all, ["p/a"]);
        assert_eq!(e.qualified, ["p/b"]);
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let d = descriptor();
        for n in 0..d.len() {
            assert!(module_exports(&d[..n]).is_err(), "{n} bytes");
        }
    }
}
