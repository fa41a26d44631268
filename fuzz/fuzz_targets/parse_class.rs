//! Fuzz target: `ClassFile::parse` must never panic; on success every field and method
//! descriptor (and every member reference's descriptor) must also parse.
#![no_main]

use classfile::descriptor::{parse_field_descriptor, parse_method_descriptor};
use classfile::{ClassFile, Constant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(class) = ClassFile::parse(data) else {
        return;
    };
    for f in &class.fields {
        parse_field_descriptor(&f.descriptor).expect("field descriptor accepted by parse");
    }
    for m in &class.methods {
        let d =
            parse_method_descriptor(&m.descriptor).expect("method descriptor accepted by parse");
        assert_eq!(d.descriptor(), m.descriptor);
    }
    let cp = &class.constant_pool;
    for (i, c) in cp.entries.iter().enumerate() {
        if let Constant::FieldRef { .. }
        | Constant::MethodRef { .. }
        | Constant::InterfaceMethodRef { .. } = c
        {
            let r = cp
                .member_ref(i as u16)
                .expect("member ref checked by parse");
            let _ = r.class_name;
        }
    }
});
