//! Fuzz target: class summaries (`classfile::summary`, the class cache's entries) must never
//! make the decoder panic, and a class file that parses must decode from its summary to the
//! same class.
#![no_main]

use classfile::ClassFile;
use classfile::summary::{decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = decode(data);
    if let Ok(cf) = ClassFile::parse(data) {
        let back = decode(&encode(&cf)).expect("a summary decodes");
        assert_eq!(format!("{back:?}"), format!("{cf:?}"));
    }
});
