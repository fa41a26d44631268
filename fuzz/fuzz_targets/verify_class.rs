//! Fuzz target: the verifier (`crates/verifier`). Every input that `ClassFile::parse` accepts
//! is checked by `verify_class`, which must verify it or refuse it with a `VerifyError`, never
//! panic. The class hierarchy is made up but consistent: the input's own superclass chain,
//! a few JDK classes, and for any other name answers that follow from a hash of the name
//! (some names are "not found", some are interfaces), so that the verifier's every question
//! gets an answer a real VM could give. `crates/verifier/tests/fuzz.rs` runs a bounded,
//! seeded round of the same check inside `cargo test`.
#![no_main]

use std::collections::HashMap;

use classfile::ClassFile;
use libfuzzer_sys::fuzz_target;
use verifier::{ClassHierarchy, verify_class};

struct Hierarchy {
    supers: HashMap<String, String>,
}

fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    })
}

impl Hierarchy {
    fn of(cf: &ClassFile) -> Hierarchy {
        let mut supers: HashMap<String, String> = [
            ("java/lang/String", "java/lang/Object"),
            ("java/lang/Integer", "java/lang/Number"),
            ("java/lang/Number", "java/lang/Object"),
            ("java/lang/Throwable", "java/lang/Object"),
            ("java/lang/Exception", "java/lang/Throwable"),
            ("java/lang/RuntimeException", "java/lang/Exception"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let s = cf.super_name.clone().unwrap_or("java/lang/Object".into());
        supers.insert(cf.name.clone(), s);
        Hierarchy { supers }
    }

    fn check(&self, name: &str) -> Result<(), String> {
        if !self.supers.contains_key(name) && name_hash(name).is_multiple_of(97) {
            return Err(format!("no class {name}"));
        }
        Ok(())
    }
}

impl ClassHierarchy for Hierarchy {
    fn is_assignable(&self, from: &str, to: &str) -> Result<bool, String> {
        self.check(from)?;
        self.check(to)?;
        if from == to || to == "java/lang/Object" {
            return Ok(true);
        }
        let mut current = from;
        for _ in 0..16 {
            match self.supers.get(current) {
                Some(s) if s == to => return Ok(true),
                Some(s) => current = s,
                None => break,
            }
        }
        Ok((name_hash(from) ^ name_hash(to)) & 1 == 0)
    }
    fn is_interface(&self, class: &str) -> Result<bool, String> {
        self.check(class)?;
        Ok(!self.supers.contains_key(class) && name_hash(class).is_multiple_of(3))
    }
    fn superclasses(&self, class: &str) -> Result<Vec<String>, String> {
        self.check(class)?;
        let mut chain = Vec::new();
        let mut current = class;
        while current != "java/lang/Object" && chain.len() < 16 {
            current = self
                .supers
                .get(current)
                .map_or("java/lang/Object", String::as_str);
            chain.push(current.to_string());
        }
        Ok(chain)
    }
    fn protected_in_other_package(
        &self,
        _: &str,
        class: &str,
        name: &str,
        _: &str,
        _: bool,
    ) -> Result<bool, String> {
        self.check(class)?;
        Ok(name_hash(name).is_multiple_of(5))
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(cf) = ClassFile::parse(data) else {
        return;
    };
    let _ = verify_class(&cf, &Hierarchy::of(&cf));
});
