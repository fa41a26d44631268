//! A made-up but consistent class hierarchy, for fuzzing the verifier: it knows the classes it
//! is given and a few JDK ones, and answers every other question from a hash of the names
//! involved (some names are "not found", some are interfaces, assignability one way or the
//! other), so that each question the verifier asks gets an answer a real VM could give and
//! both answers are reached. Used by the bounded round in `tests/fuzz.rs` and by the
//! `verify_class` cargo-fuzz target; nothing in a VM uses it.

use std::collections::HashMap;

use classfile::ClassFile;

use crate::ClassHierarchy;

/// See the module documentation.
pub struct ArbitraryHierarchy {
    supers: HashMap<String, String>,
}

fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    })
}

impl ArbitraryHierarchy {
    /// A hierarchy that knows `classes` (with their superclasses) and a few JDK classes.
    pub fn of(classes: &[&ClassFile]) -> ArbitraryHierarchy {
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
        for cf in classes {
            let s = cf.super_name.clone().unwrap_or("java/lang/Object".into());
            supers.insert(cf.name.clone(), s);
        }
        ArbitraryHierarchy { supers }
    }

    fn check(&self, name: &str) -> Result<(), String> {
        if !self.supers.contains_key(name) && name_hash(name).is_multiple_of(97) {
            return Err(format!("java/lang/NoClassDefFoundError: {name}"));
        }
        Ok(())
    }
}

impl ClassHierarchy for ArbitraryHierarchy {
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
