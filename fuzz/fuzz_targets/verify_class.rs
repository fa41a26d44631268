//! Fuzz target: the verifier (`crates/verifier`). Every input that `ClassFile::parse` accepts
//! is checked by `verify_class`, which must verify it or refuse it with a `VerifyError`, never
//! panic. The class hierarchy is made up but consistent (`verifier::arbitrary`), so that the
//! verifier's every question gets an answer a real VM could give.
//! `crates/verifier/tests/fuzz.rs` runs a bounded, seeded round of the same check inside
//! `cargo test`.
#![no_main]

use classfile::ClassFile;
use libfuzzer_sys::fuzz_target;
use verifier::arbitrary::ArbitraryHierarchy;
use verifier::verify_class;

fuzz_target!(|data: &[u8]| {
    let Ok(cf) = ClassFile::parse(data) else {
        return;
    };
    let _ = verify_class(&cf, &ArbitraryHierarchy::of(&[&cf]));
});
