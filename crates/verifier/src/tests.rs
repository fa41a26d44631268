//! Unit tests with hand-assembled class files.
//!
//! `Asm` is a tiny test-only assembler: it builds a constant pool and writes
//! the bytes of a class with the given methods (code array, max_stack,
//! max_locals, exception table, optional StackMapTable), which are then parsed
//! with `classfile::ClassFile::parse` and verified.

use std::collections::HashMap;

use classfile::ClassFile;

use crate::{ClassHierarchy, VerifyError, verify_class};

// ----- assembler ---------------------------------------------------------------------------

#[derive(Default)]
struct Asm {
    entries: Vec<Vec<u8>>,
    slots: u16,
    index: HashMap<Vec<u8>, u16>,
}

/// A verification type item for stack map frames.
#[allow(dead_code)]
#[derive(Clone, Copy)]
enum V {
    Top,
    I,
    F,
    D,
    J,
    Null,
    UThis,
    Obj(u16),
    Uninit(u16),
}

/// A stack map frame at an absolute offset.
enum Fr {
    Same(u16),
    Stack1(u16, V),
    Chop(u16, u8),
    Append(u16, Vec<V>),
    Full(u16, Vec<V>, Vec<V>),
    /// Raw bytes counted as one frame (a malformed frame), at no offset.
    Raw(Vec<u8>),
}

struct Method {
    access: u16,
    name: String,
    desc: String,
    max_stack: u16,
    max_locals: u16,
    code: Vec<u8>,
    handlers: Vec<(u16, u16, u16, u16)>,
    frames: Option<Vec<Fr>>,
}

impl Method {
    fn new(
        access: u16,
        name: &str,
        desc: &str,
        max_stack: u16,
        max_locals: u16,
        code: Vec<u8>,
    ) -> Self {
        Method {
            access,
            name: name.into(),
            desc: desc.into(),
            max_stack,
            max_locals,
            code,
            handlers: Vec::new(),
            frames: None,
        }
    }
    fn frames(mut self, frames: Vec<Fr>) -> Self {
        self.frames = Some(frames);
        self
    }
    fn handler(mut self, start: u16, end: u16, pc: u16, catch: u16) -> Self {
        self.handlers.push((start, end, pc, catch));
        self
    }
}

const STATIC: u16 = 0x0008;
const PUBLIC: u16 = 0x0001;

fn u2(v: u16) -> [u8; 2] {
    v.to_be_bytes()
}

impl Asm {
    fn new() -> Self {
        Asm {
            slots: 1,
            ..Default::default()
        }
    }

    fn add(&mut self, bytes: Vec<u8>) -> u16 {
        if let Some(&i) = self.index.get(&bytes) {
            return i;
        }
        let i = self.slots;
        self.slots += if matches!(bytes[0], 5 | 6) { 2 } else { 1 };
        self.index.insert(bytes.clone(), i);
        self.entries.push(bytes);
        i
    }

    fn utf8(&mut self, s: &str) -> u16 {
        let mut b = vec![1];
        b.extend_from_slice(&u2(s.len() as u16));
        b.extend_from_slice(s.as_bytes());
        self.add(b)
    }

    fn class(&mut self, name: &str) -> u16 {
        let n = self.utf8(name);
        let mut b = vec![7];
        b.extend_from_slice(&u2(n));
        self.add(b)
    }

    fn string(&mut self, s: &str) -> u16 {
        let n = self.utf8(s);
        let mut b = vec![8];
        b.extend_from_slice(&u2(n));
        self.add(b)
    }

    #[allow(dead_code)]
    fn int(&mut self, v: i32) -> u16 {
        let mut b = vec![3];
        b.extend_from_slice(&v.to_be_bytes());
        self.add(b)
    }

    fn nat(&mut self, name: &str, desc: &str) -> u16 {
        let n = self.utf8(name);
        let d = self.utf8(desc);
        let mut b = vec![12];
        b.extend_from_slice(&u2(n));
        b.extend_from_slice(&u2(d));
        self.add(b)
    }

    fn member(&mut self, tag: u8, class: &str, name: &str, desc: &str) -> u16 {
        let c = self.class(class);
        let nt = self.nat(name, desc);
        let mut b = vec![tag];
        b.extend_from_slice(&u2(c));
        b.extend_from_slice(&u2(nt));
        self.add(b)
    }

    fn field(&mut self, class: &str, name: &str, desc: &str) -> u16 {
        self.member(9, class, name, desc)
    }

    fn method(&mut self, class: &str, name: &str, desc: &str) -> u16 {
        self.member(10, class, name, desc)
    }

    fn imethod(&mut self, class: &str, name: &str, desc: &str) -> u16 {
        self.member(11, class, name, desc)
    }

    fn vtype(out: &mut Vec<u8>, v: V) {
        match v {
            V::Top => out.push(0),
            V::I => out.push(1),
            V::F => out.push(2),
            V::D => out.push(3),
            V::J => out.push(4),
            V::Null => out.push(5),
            V::UThis => out.push(6),
            V::Obj(i) => {
                out.push(7);
                out.extend_from_slice(&u2(i));
            }
            V::Uninit(pc) => {
                out.push(8);
                out.extend_from_slice(&u2(pc));
            }
        }
    }

    fn stack_map(frames: &[Fr]) -> Vec<u8> {
        let mut out = u2(frames.len() as u16).to_vec();
        let mut prev: Option<u16> = None;
        for f in frames {
            let pc = match f {
                Fr::Same(pc)
                | Fr::Stack1(pc, _)
                | Fr::Chop(pc, _)
                | Fr::Append(pc, _)
                | Fr::Full(pc, _, _) => *pc,
                Fr::Raw(bytes) => {
                    out.extend_from_slice(bytes);
                    continue;
                }
            };
            let delta = match prev {
                None => pc,
                Some(p) => pc - p - 1,
            };
            prev = Some(pc);
            match f {
                Fr::Same(_) => {
                    out.push(251);
                    out.extend_from_slice(&u2(delta));
                }
                Fr::Stack1(_, v) => {
                    out.push(247);
                    out.extend_from_slice(&u2(delta));
                    Self::vtype(&mut out, *v);
                }
                Fr::Chop(_, k) => {
                    out.push(251 - k);
                    out.extend_from_slice(&u2(delta));
                }
                Fr::Append(_, vs) => {
                    out.push(251 + vs.len() as u8);
                    out.extend_from_slice(&u2(delta));
                    for v in vs {
                        Self::vtype(&mut out, *v);
                    }
                }
                Fr::Raw(_) => {}
                Fr::Full(_, locals, stack) => {
                    out.push(255);
                    out.extend_from_slice(&u2(delta));
                    out.extend_from_slice(&u2(locals.len() as u16));
                    for v in locals {
                        Self::vtype(&mut out, *v);
                    }
                    out.extend_from_slice(&u2(stack.len() as u16));
                    for v in stack {
                        Self::vtype(&mut out, *v);
                    }
                }
            }
        }
        out
    }

    /// Write a class file. `fields` are (access, name, descriptor).
    fn build(
        mut self,
        major: u16,
        this: &str,
        sup: &str,
        fields: &[(u16, &str, &str)],
        methods: &[Method],
    ) -> Vec<u8> {
        let this_i = self.class(this);
        let super_i = self.class(sup);
        let code_i = self.utf8("Code");
        let smt_i = self.utf8("StackMapTable");
        let mut body = Vec::new();
        body.extend_from_slice(&u2(0x0021));
        body.extend_from_slice(&u2(this_i));
        body.extend_from_slice(&u2(super_i));
        body.extend_from_slice(&u2(0));
        body.extend_from_slice(&u2(fields.len() as u16));
        for &(acc, name, desc) in fields {
            let n = self.utf8(name);
            let d = self.utf8(desc);
            body.extend_from_slice(&u2(acc));
            body.extend_from_slice(&u2(n));
            body.extend_from_slice(&u2(d));
            body.extend_from_slice(&u2(0));
        }
        body.extend_from_slice(&u2(methods.len() as u16));
        for m in methods {
            let n = self.utf8(&m.name);
            let d = self.utf8(&m.desc);
            body.extend_from_slice(&u2(m.access));
            body.extend_from_slice(&u2(n));
            body.extend_from_slice(&u2(d));
            body.extend_from_slice(&u2(1));
            let mut code = Vec::new();
            code.extend_from_slice(&u2(m.max_stack));
            code.extend_from_slice(&u2(m.max_locals));
            code.extend_from_slice(&(m.code.len() as u32).to_be_bytes());
            code.extend_from_slice(&m.code);
            code.extend_from_slice(&u2(m.handlers.len() as u16));
            for &(s, e, h, c) in &m.handlers {
                for v in [s, e, h, c] {
                    code.extend_from_slice(&u2(v));
                }
            }
            match &m.frames {
                Some(frames) => {
                    let smt = Self::stack_map(frames);
                    code.extend_from_slice(&u2(1));
                    code.extend_from_slice(&u2(smt_i));
                    code.extend_from_slice(&(smt.len() as u32).to_be_bytes());
                    code.extend_from_slice(&smt);
                }
                None => code.extend_from_slice(&u2(0)),
            }
            body.extend_from_slice(&u2(code_i));
            body.extend_from_slice(&(code.len() as u32).to_be_bytes());
            body.extend_from_slice(&code);
        }
        body.extend_from_slice(&u2(0));
        let mut out = vec![0xca, 0xfe, 0xba, 0xbe, 0, 0];
        out.extend_from_slice(&u2(major));
        out.extend_from_slice(&u2(self.slots));
        for e in &self.entries {
            out.extend_from_slice(e);
        }
        out.extend_from_slice(&body);
        out
    }
}

// ----- hierarchy ---------------------------------------------------------------------------

/// A hierarchy that knows a handful of JDK classes plus test classes.
struct TestHierarchy {
    supers: HashMap<&'static str, &'static str>,
    interfaces: Vec<&'static str>,
    /// (class, member name, owner) of protected members.
    protected: Vec<(&'static str, &'static str, &'static str)>,
    /// Classes defined by another loader than the others: another run-time package.
    other_loader: Vec<&'static str>,
}

impl TestHierarchy {
    fn new() -> Self {
        let supers = HashMap::from([
            ("java/lang/String", "java/lang/Object"),
            ("java/lang/Throwable", "java/lang/Object"),
            ("java/lang/Exception", "java/lang/Throwable"),
            ("java/lang/RuntimeException", "java/lang/Exception"),
            ("java/lang/Number", "java/lang/Object"),
            ("java/lang/Integer", "java/lang/Number"),
            ("q/Base", "java/lang/Object"),
            ("p/T", "q/Base"),
            ("p/Base", "java/lang/Object"),
            ("p/Sub", "p/Base"),
            ("T", "java/lang/Object"),
        ]);
        TestHierarchy {
            supers,
            interfaces: vec![
                "java/lang/Runnable",
                "java/lang/Cloneable",
                "java/io/Serializable",
            ],
            protected: vec![
                ("q/Base", "f", "q/Base"),
                ("q/Base", "m", "q/Base"),
                ("q/Base", "<init>", "q/Base"),
                ("p/Base", "f", "p/Base"),
            ],
            other_loader: Vec::new(),
        }
    }
}

impl ClassHierarchy for TestHierarchy {
    fn is_assignable(&self, from: &str, to: &str) -> Result<bool, String> {
        if from == "Missing" || to == "Missing" {
            return Err("java/lang/NoClassDefFoundError: Missing".into());
        }
        if self.interfaces.contains(&to) || to == "java/lang/Object" {
            return Ok(true);
        }
        let mut c = from;
        loop {
            if c == to {
                return Ok(true);
            }
            match self.supers.get(c) {
                Some(s) => c = s,
                None => return Ok(false),
            }
        }
    }
    fn is_interface(&self, class: &str) -> Result<bool, String> {
        Ok(self.interfaces.contains(&class))
    }
    fn superclasses(&self, class: &str) -> Result<Vec<String>, String> {
        let mut chain = Vec::new();
        let mut c = class;
        while c != "java/lang/Object" {
            c = self.supers.get(c).copied().unwrap_or("java/lang/Object");
            chain.push(c.to_string());
        }
        Ok(chain)
    }
    fn protected_in_other_package(
        &self,
        current: &str,
        class: &str,
        name: &str,
        _: &str,
        _: bool,
    ) -> Result<bool, String> {
        let package = |n: &str| {
            let name = n.rfind('/').map_or("", |i| &n[..i]);
            (name.to_string(), self.other_loader.contains(&n))
        };
        let mut c = class;
        loop {
            if let Some(&(_, _, owner)) = self.protected.iter().find(|p| p.0 == c && p.1 == name) {
                return Ok(package(owner) != package(current));
            }
            match self.supers.get(c) {
                Some(s) => c = s,
                None => return Ok(false),
            }
        }
    }
}

/// Parse and verify. A class the parser already rejects (it performs some of the
/// same format checks) is reported as an error whose headline starts with
/// `ClassFormatError`.
fn verify_bytes(bytes: &[u8]) -> Result<(), VerifyError> {
    verify_bytes_in(bytes, &TestHierarchy::new())
}

/// [`verify_bytes`] with hierarchy `h`.
fn verify_bytes_in(bytes: &[u8], h: &TestHierarchy) -> Result<(), VerifyError> {
    match ClassFile::parse(bytes) {
        Ok(cf) => verify_class(&cf, h),
        Err(e) => Err(VerifyError {
            class: String::new(),
            method: String::new(),
            pc: None,
            message: format!("ClassFormatError: {e}"),
            kind: crate::ErrorKind::Format,
        }),
    }
}

/// The verifier (or, for checks the parser also makes, the parser) rejects with `expected`.
fn assert_rejected(r: Result<(), VerifyError>, expected: &str) {
    let h = headline(r);
    assert!(
        h == expected || h.starts_with("ClassFormatError"),
        "expected {expected:?}, got {h:?}"
    );
}

/// Build class `T` (major 61) with one method and verify it.
fn verify_one(build: impl FnOnce(&mut Asm) -> Method) -> Result<(), VerifyError> {
    let mut asm = Asm::new();
    let m = build(&mut asm);
    verify_bytes(&asm.build(61, "T", "java/lang/Object", &[], &[m]))
}

/// Rejected with `expected` as a format error (ClassFormatError, as HotSpot reports it).
fn assert_format(r: Result<(), VerifyError>, expected: &str) {
    let e = r.expect_err("expected a format error");
    assert_eq!((e.headline(), e.kind), (expected, crate::ErrorKind::Format));
}

/// Rejected with `expected` as a VerifyError.
fn assert_verify(r: Result<(), VerifyError>, expected: &str) {
    let e = r.expect_err("expected a VerifyError");
    assert_eq!((e.headline(), e.kind), (expected, crate::ErrorKind::Verify));
}

fn headline(r: Result<(), VerifyError>) -> String {
    match r {
        Ok(()) => "<verified>".into(),
        Err(e) => e.headline().to_string(),
    }
}

fn hi(v: u16) -> u8 {
    (v >> 8) as u8
}
fn lo(v: u16) -> u8 {
    v as u8
}

// opcodes used below
const SIPUSH: u8 = 0x11;
const ICONST_0: u8 = 0x03;
const ICONST_1: u8 = 0x04;
const LCONST_1: u8 = 0x0a;
const FCONST_0: u8 = 0x0b;
const ACONST_NULL: u8 = 0x01;
const LDC: u8 = 0x12;
const ILOAD_0: u8 = 0x1a;
const ILOAD_1: u8 = 0x1b;
const LLOAD_0: u8 = 0x1e;
const ALOAD_0: u8 = 0x2a;
const IALOAD: u8 = 0x2e;
const AALOAD: u8 = 0x32;
const ISTORE_0: u8 = 0x3b;
const ISTORE_1: u8 = 0x3c;
const LSTORE_0: u8 = 0x3f;
const FSTORE_0: u8 = 0x43;
const ASTORE_1: u8 = 0x4c;
const POP: u8 = 0x57;
const POP2: u8 = 0x58;
const DUP: u8 = 0x59;
const DUP2: u8 = 0x5c;
const SWAP: u8 = 0x5f;
const IADD: u8 = 0x60;
const LADD: u8 = 0x61;
const IFEQ: u8 = 0x99;
const GOTO: u8 = 0xa7;
const JSR: u8 = 0xa8;
const RET: u8 = 0xa9;
const TABLESWITCH: u8 = 0xaa;
const IRETURN: u8 = 0xac;
const LRETURN: u8 = 0xad;
const ARETURN: u8 = 0xb0;
const RETURN: u8 = 0xb1;
const GETFIELD: u8 = 0xb4;
const PUTFIELD: u8 = 0xb5;
const INVOKEVIRTUAL: u8 = 0xb6;
const INVOKESPECIAL: u8 = 0xb7;
const INVOKEINTERFACE: u8 = 0xb9;
const NEW: u8 = 0xbb;
const NEWARRAY: u8 = 0xbc;
const ANEWARRAY: u8 = 0xbd;
const ARRAYLENGTH: u8 = 0xbe;
const ATHROW: u8 = 0xbf;
const CHECKCAST: u8 = 0xc0;

// ----- tests -------------------------------------------------------------------------------

#[test]
fn valid_static_method() {
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "add",
            "(II)I",
            2,
            2,
            vec![ILOAD_0, ILOAD_1, IADD, IRETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn int_returned_as_object_fails() {
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            1,
            0,
            vec![ICONST_0, ARETURN],
        )
    });
    let e = r.unwrap_err();
    assert_eq!(e.headline(), "Bad return type");
    assert_eq!(e.pc, Some(1));
    assert_eq!(e.method, "m()Ljava/lang/Object;");
    let shown = e.to_string();
    assert!(
        shown.starts_with(
            "Bad return type\nException Details:\n  Location:\n    T.m()Ljava/lang/Object; @1"
        ),
        "{shown}"
    );
}

#[test]
fn null_and_string_returned_as_object_pass() {
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            1,
            0,
            vec![ACONST_NULL, ARETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
    let r = verify_one(|a| {
        let s = a.string("hi") as u8;
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            1,
            0,
            vec![LDC, s, ARETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn wrong_return_instruction_fails() {
    let r = verify_one(|_| Method::new(STATIC, "m", "()I", 0, 0, vec![RETURN]));
    assert_eq!(headline(r), "Method expects a return value");
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 0, vec![ICONST_0, IRETURN]));
    assert_eq!(headline(r), "Bad return type");
}

#[test]
fn stack_underflow_fails() {
    let r = verify_one(|_| Method::new(STATIC, "m", "()I", 2, 0, vec![ICONST_0, IADD, IRETURN]));
    assert_eq!(headline(r), "Operand stack underflow");
}

#[test]
fn stack_overflow_fails() {
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()I",
            1,
            0,
            vec![ICONST_0, ICONST_0, IADD, IRETURN],
        )
    });
    assert_eq!(headline(r), "Operand stack overflow");
    let r = verify_one(|_| Method::new(STATIC, "m", "()J", 1, 0, vec![LCONST_1, LRETURN]));
    assert_eq!(headline(r), "Operand stack overflow");
}

#[test]
fn locals_overflow_fails() {
    let r = verify_one(|_| Method::new(STATIC, "m", "(J)V", 0, 1, vec![RETURN]));
    assert_rejected(r, "Arguments can't fit into locals");
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 1, vec![ICONST_0, ISTORE_1, RETURN]));
    assert_eq!(headline(r), "Illegal local variable number");
}

#[test]
fn branch_into_middle_of_instruction_fails() {
    // 0: iconst_0  1: ifeq -> 3 (middle of ifeq)  4: return
    let r =
        verify_one(|_| Method::new(STATIC, "m", "()V", 1, 0, vec![ICONST_0, IFEQ, 0, 2, RETURN]));
    assert_eq!(headline(r), "Illegal target of jump or branch");
}

#[test]
fn missing_stack_map_frame_at_branch_target_fails() {
    // 0: iconst_0  1: ifeq -> 5  4: return  5: return
    let code = vec![ICONST_0, IFEQ, 0, 4, RETURN, RETURN];
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 0, code.clone()));
    assert_eq!(headline(r), "Expecting a stackmap frame at branch target");
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 0, code).frames(vec![Fr::Same(5)]));
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn missing_frame_after_goto_fails() {
    // 0: goto 4   3: nop  4: return  -- pc 3 follows an unconditional branch
    let code = vec![GOTO, 0, 4, 0x00, RETURN];
    let r = verify_one(|_| {
        Method::new(STATIC, "m", "()V", 0, 0, code.clone()).frames(vec![Fr::Same(4)])
    });
    assert_eq!(headline(r), "Expecting a stackmap frame at branch target");
    let r = verify_one(|_| {
        Method::new(STATIC, "m", "()V", 0, 0, code).frames(vec![Fr::Same(3), Fr::Same(4)])
    });
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn inconsistent_frame_at_jump_fails() {
    // 0: iconst_1  1: ifeq -> 6  4: iconst_0  5: istore_0  6: return
    let code = vec![ICONST_1, IFEQ, 0, 5, ICONST_0, ISTORE_0, RETURN];
    let bad = verify_one(|_| {
        Method::new(STATIC, "m", "()V", 1, 1, code.clone()).frames(vec![Fr::Full(
            6,
            vec![V::I],
            vec![],
        )])
    });
    assert_eq!(
        headline(bad),
        "Inconsistent stackmap frames at branch target 6"
    );
    let ok = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 1, code).frames(vec![Fr::Same(6)]));
    assert_eq!(headline(ok), "<verified>");
}

#[test]
fn inconsistent_stack_depth_at_target_fails() {
    // 0: iconst_0 1: iconst_0 2: ifeq -> 6 (stack [int]) 5: pop 6: return; frame says empty stack
    let code = vec![ICONST_0, ICONST_0, IFEQ, 0, 4, POP, RETURN];
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 2, 0, code).frames(vec![Fr::Same(6)]));
    assert!(headline(r).starts_with("Inconsistent stackmap frames"));
}

#[test]
fn falling_off_the_end_fails() {
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 0, vec![ICONST_0, POP]));
    assert_eq!(headline(r), "Falling off the end of the code");
}

#[test]
fn uninitialized_object_use_fails() {
    let r = verify_one(|a| {
        let c = a.class("java/lang/Object");
        let hash = a.method("java/lang/Object", "hashCode", "()I");
        Method::new(
            STATIC,
            "m",
            "()I",
            2,
            0,
            vec![
                NEW,
                hi(c),
                lo(c),
                INVOKEVIRTUAL,
                hi(hash),
                lo(hash),
                IRETURN,
            ],
        )
    });
    assert_eq!(headline(r), "Bad type on operand stack");
    // returning an uninitialized object
    let r = verify_one(|a| {
        let c = a.class("java/lang/Object");
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            1,
            0,
            vec![NEW, hi(c), lo(c), ARETURN],
        )
    });
    assert_eq!(headline(r), "Bad return type");
}

#[test]
fn new_dup_init_passes() {
    let r = verify_one(|a| {
        let c = a.class("java/lang/Object");
        let init = a.method("java/lang/Object", "<init>", "()V");
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            2,
            0,
            vec![
                NEW,
                hi(c),
                lo(c),
                DUP,
                INVOKESPECIAL,
                hi(init),
                lo(init),
                ARETURN,
            ],
        )
    });
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn init_of_wrong_class_fails() {
    let r = verify_one(|a| {
        let c = a.class("java/lang/Object");
        let init = a.method("java/lang/String", "<init>", "()V");
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            2,
            0,
            vec![
                NEW,
                hi(c),
                lo(c),
                DUP,
                INVOKESPECIAL,
                hi(init),
                lo(init),
                ARETURN,
            ],
        )
    });
    assert_eq!(headline(r), "Call to wrong <init> method");
}

#[test]
fn uninitialized_across_branch_with_frames() {
    // 0: new Object  3: dup  4: iconst_0  5: ifeq -> 8  8: invokespecial <init>  11: areturn
    let r = verify_one(|a| {
        let c = a.class("java/lang/Object");
        let init = a.method("java/lang/Object", "<init>", "()V");
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            3,
            0,
            vec![
                NEW,
                hi(c),
                lo(c),
                DUP,
                ICONST_0,
                IFEQ,
                0,
                3,
                INVOKESPECIAL,
                hi(init),
                lo(init),
                ARETURN,
            ],
        )
        .frames(vec![Fr::Full(8, vec![], vec![V::Uninit(0), V::Uninit(0)])])
    });
    assert_eq!(headline(r), "<verified>");
    // A frame whose Uninitialized item does not point at a `new` is rejected.
    let r = verify_one(|a| {
        let c = a.class("java/lang/Object");
        let init = a.method("java/lang/Object", "<init>", "()V");
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Object;",
            3,
            0,
            vec![
                NEW,
                hi(c),
                lo(c),
                DUP,
                ICONST_0,
                IFEQ,
                0,
                3,
                INVOKESPECIAL,
                hi(init),
                lo(init),
                ARETURN,
            ],
        )
        .frames(vec![Fr::Full(8, vec![], vec![V::Uninit(3), V::Uninit(3)])])
    });
    assert_format(r, "StackMapTable format error");
}

#[test]
fn constructor_without_super_call_fails() {
    let r = verify_one(|_| Method::new(PUBLIC, "<init>", "()V", 0, 1, vec![RETURN]));
    assert_eq!(
        headline(r),
        "Constructor must call super() or this() before return"
    );
}

#[test]
fn constructor_with_super_call_passes() {
    let r = verify_one(|a| {
        let init = a.method("java/lang/Object", "<init>", "()V");
        Method::new(
            PUBLIC,
            "<init>",
            "()V",
            1,
            1,
            vec![ALOAD_0, INVOKESPECIAL, hi(init), lo(init), RETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn constructor_calling_super_on_one_path_only_fails() {
    // 0: iload_1 1: ifeq -> 8  4: aload_0 5: invokespecial Object.<init> 8: return
    let r = verify_one(|a| {
        let init = a.method("java/lang/Object", "<init>", "()V");
        Method::new(
            PUBLIC,
            "<init>",
            "(I)V",
            1,
            2,
            vec![
                ILOAD_1,
                IFEQ,
                0,
                7,
                ALOAD_0,
                INVOKESPECIAL,
                hi(init),
                lo(init),
                RETURN,
            ],
        )
        .frames(vec![Fr::Full(8, vec![V::UThis, V::I], vec![])])
    });
    // The initialised path reaches a frame with uninitializedThis: `this` (T) is not
    // assignable to uninitializedThis.
    assert!(headline(r).starts_with("Inconsistent stackmap frames"));
    // Same, but the frame claims locals are Top: then `return` happens with the flag set.
    let r = verify_one(|a| {
        let init = a.method("java/lang/Object", "<init>", "()V");
        Method::new(
            PUBLIC,
            "<init>",
            "(I)V",
            1,
            2,
            vec![
                ILOAD_1,
                IFEQ,
                0,
                7,
                ALOAD_0,
                INVOKESPECIAL,
                hi(init),
                lo(init),
                RETURN,
            ],
        )
        .frames(vec![Fr::Full(8, vec![V::Top, V::I], vec![])])
    });
    assert!(headline(r).starts_with("Inconsistent stackmap frames"));
}

#[test]
fn constructor_calling_unrelated_init_fails() {
    let r = verify_one(|a| {
        let init = a.method("java/lang/String", "<init>", "()V");
        Method::new(
            PUBLIC,
            "<init>",
            "()V",
            1,
            1,
            vec![ALOAD_0, INVOKESPECIAL, hi(init), lo(init), RETURN],
        )
    });
    assert_eq!(headline(r), "Bad <init> method call");
}

#[test]
fn putfield_on_uninitialized_this() {
    let build = |field_class: &'static str| {
        move |a: &mut Asm| {
            let f = a.field(field_class, "x", "I");
            let init = a.method("java/lang/Object", "<init>", "()V");
            Method::new(
                PUBLIC,
                "<init>",
                "()V",
                2,
                1,
                vec![
                    ALOAD_0,
                    ICONST_1,
                    PUTFIELD,
                    hi(f),
                    lo(f),
                    ALOAD_0,
                    INVOKESPECIAL,
                    hi(init),
                    lo(init),
                    RETURN,
                ],
            )
        }
    };
    let mut asm = Asm::new();
    let m = build("T")(&mut asm);
    let ok = verify_bytes(&asm.build(61, "T", "java/lang/Object", &[(0, "x", "I")], &[m]));
    assert_eq!(headline(ok), "<verified>");
    let mut asm = Asm::new();
    let m = build("T")(&mut asm);
    let undeclared = verify_bytes(&asm.build(61, "T", "java/lang/Object", &[], &[m]));
    assert_eq!(headline(undeclared), "Bad type on operand stack");
}

#[test]
fn long_two_slot_rules() {
    let ok = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()J",
            2,
            2,
            vec![LCONST_1, LSTORE_0, LLOAD_0, LRETURN],
        )
    });
    assert_eq!(headline(ok), "<verified>");
    // reading the second half of a long as an int
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()I",
            2,
            2,
            vec![LCONST_1, LSTORE_0, ILOAD_1, IRETURN],
        )
    });
    assert_eq!(headline(r), "Bad local variable type");
    // overwriting the second half invalidates the long
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()J",
            2,
            2,
            vec![LCONST_1, LSTORE_0, ICONST_0, ISTORE_1, LLOAD_0, LRETURN],
        )
    });
    assert_eq!(headline(r), "Bad local variable type");
    // long arithmetic on ints
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()J",
            4,
            0,
            vec![ICONST_0, ICONST_0, LADD, LRETURN],
        )
    });
    assert_eq!(headline(r), "Bad type on operand stack");
    // pop on half a long, swap of a long
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 2, 0, vec![LCONST_1, POP, POP, RETURN]));
    assert_eq!(headline(r), "Bad type on operand stack");
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            3,
            0,
            vec![ICONST_0, LCONST_1, SWAP, RETURN],
        )
    });
    assert_eq!(headline(r), "Bad type on operand stack");
    // pop2 / dup2 on a long are fine
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()J",
            4,
            0,
            vec![LCONST_1, DUP2, POP2, LRETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
    // a long in a frame takes two local slots
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            2,
            2,
            vec![LCONST_1, LSTORE_0, GOTO, 0, 3, RETURN],
        )
        .frames(vec![Fr::Full(5, vec![V::J], vec![])])
    });
    assert_eq!(headline(r), "<verified>");
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            2,
            1,
            vec![ICONST_0, ISTORE_0, GOTO, 0, 3, RETURN],
        )
        .frames(vec![Fr::Full(5, vec![V::J], vec![])])
    });
    assert_format(r, "StackMapTable format error");
}

#[test]
fn athrow_requires_throwable() {
    let build = |class: &'static str| {
        move |a: &mut Asm| {
            let c = a.class(class);
            let init = a.method(class, "<init>", "()V");
            Method::new(
                STATIC,
                "m",
                "()V",
                2,
                0,
                vec![
                    NEW,
                    hi(c),
                    lo(c),
                    DUP,
                    INVOKESPECIAL,
                    hi(init),
                    lo(init),
                    ATHROW,
                ],
            )
        }
    };
    assert_eq!(
        headline(verify_one(build("java/lang/RuntimeException"))),
        "<verified>"
    );
    assert_eq!(
        headline(verify_one(build("java/lang/String"))),
        "Bad type on operand stack"
    );
    assert_eq!(
        headline(verify_one(|_| Method::new(
            STATIC,
            "m",
            "()V",
            1,
            0,
            vec![ACONST_NULL, ATHROW]
        ))),
        "<verified>"
    );
}

#[test]
fn exception_handlers() {
    // try { iconst_0; pop } catch (RuntimeException e) { return }  -- 0: iconst_0 1: pop 2: return 3: astore_1? keep simple
    // 0: iconst_0 1: pop 2: return 3: pop 4: return ; handler [0,2) -> 3
    let code = vec![ICONST_0, POP, RETURN, POP, RETURN];
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(0, 2, 3, ex)
            .frames(vec![Fr::Stack1(3, V::Obj(ex))])
    });
    assert_eq!(headline(r), "<verified>");
    // handler without a frame
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone()).handler(0, 2, 3, ex)
    });
    assert_eq!(headline(r), "Expecting a stackmap frame at branch target");
    // handler frame's stack does not hold the exception
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(0, 2, 3, ex)
            .frames(vec![Fr::Stack1(3, V::I)])
    });
    assert_eq!(
        headline(r),
        "Stack map does not match the one at exception handler 3"
    );
    // catch type is not Throwable
    let r = verify_one(|a| {
        let s = a.class("java/lang/String");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(0, 2, 3, s)
            .frames(vec![Fr::Stack1(3, V::Obj(s))])
    });
    assert_eq!(headline(r), "Catch type is not a subclass of Throwable");
    // bad handler range
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(2, 2, 3, ex)
            .frames(vec![Fr::Stack1(3, V::Obj(ex))])
    });
    assert_rejected(r, "Illegal exception table range");
    // handler frame requires a local that the protected range does not have
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 1, code)
            .handler(0, 2, 3, ex)
            .frames(vec![Fr::Full(3, vec![V::I], vec![V::Obj(ex)])])
    });
    assert_eq!(
        headline(r),
        "Stack map does not match the one at exception handler 3"
    );
}

#[test]
fn arrays() {
    // int[] a = new int[1]; return a[0] + a.length
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()I",
            3,
            1,
            vec![
                ICONST_1,
                NEWARRAY,
                10,
                0x4b,
                0x2a,
                ICONST_0,
                IALOAD,
                0x2a,
                ARRAYLENGTH,
                IADD,
                IRETURN,
            ],
        )
    });
    assert_eq!(headline(r), "<verified>");
    // aaload on int[]
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            2,
            0,
            vec![ICONST_1, NEWARRAY, 10, ICONST_0, AALOAD, POP, RETURN],
        )
    });
    assert_eq!(headline(r), "Bad type on operand stack");
    // String[] -> aaload gives String, returned as String
    let r = verify_one(|a| {
        let s = a.class("java/lang/String");
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/String;",
            2,
            0,
            vec![ICONST_1, ANEWARRAY, hi(s), lo(s), ICONST_0, AALOAD, ARETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
    // arraylength of a non-array
    let r = verify_one(|a| {
        let s = a.string("x") as u8;
        Method::new(STATIC, "m", "()I", 1, 0, vec![LDC, s, ARRAYLENGTH, IRETURN])
    });
    assert_eq!(headline(r), "Bad type on operand stack");
}

#[test]
fn invokeinterface_and_checkcast() {
    let r = verify_one(|a| {
        let run = a.imethod("java/lang/Runnable", "run", "()V");
        let c = a.class("java/lang/Runnable");
        Method::new(
            STATIC,
            "m",
            "(Ljava/lang/Object;)V",
            1,
            1,
            vec![
                ALOAD_0,
                CHECKCAST,
                hi(c),
                lo(c),
                INVOKEINTERFACE,
                hi(run),
                lo(run),
                1,
                0,
                RETURN,
            ],
        )
    });
    assert_eq!(headline(r), "<verified>");
    // wrong argument type for a call
    let r = verify_one(|a| {
        let m = a.method("java/lang/String", "charAt", "(I)C");
        Method::new(
            STATIC,
            "m",
            "(Ljava/lang/String;)I",
            2,
            1,
            vec![ALOAD_0, FCONST_0, INVOKEVIRTUAL, hi(m), lo(m), IRETURN],
        )
    });
    assert_eq!(headline(r), "Bad type on operand stack");
    // wrong receiver type
    let r = verify_one(|a| {
        let m = a.method("java/lang/String", "length", "()I");
        Method::new(
            STATIC,
            "m",
            "(Ljava/lang/Object;)I",
            1,
            1,
            vec![ALOAD_0, INVOKEVIRTUAL, hi(m), lo(m), IRETURN],
        )
    });
    assert_eq!(headline(r), "Bad type on operand stack");
}

#[test]
fn tableswitch_targets_need_frames() {
    // 0: iconst_0 1: tableswitch pad(2) default->20, low 0, high 0, [20] ; 20: return
    let mut code = vec![ICONST_0, TABLESWITCH, 0, 0];
    for v in [19i32, 0, 0, 19] {
        code.extend_from_slice(&v.to_be_bytes());
    }
    code.push(RETURN);
    let r = verify_one(|_| {
        Method::new(STATIC, "m", "()V", 1, 0, code.clone()).frames(vec![Fr::Same(20)])
    });
    assert_eq!(headline(r), "<verified>");
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 1, 0, code));
    assert_eq!(headline(r), "Expecting a stackmap frame at branch target");
}

#[test]
fn frame_offsets_must_be_instructions() {
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            1,
            0,
            vec![ICONST_0, IFEQ, 0, 4, RETURN, RETURN],
        )
        .frames(vec![Fr::Same(2), Fr::Same(5)])
    });
    assert_verify(r, "StackMapTable error: bad offset");
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            1,
            0,
            vec![ICONST_0, IFEQ, 0, 4, RETURN, RETURN],
        )
        .frames(vec![Fr::Chop(5, 1)])
    });
    assert_format(r, "StackMapTable format error");
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            1,
            1,
            vec![ICONST_0, ISTORE_0, ICONST_0, IFEQ, 0, 4, RETURN, RETURN],
        )
        .frames(vec![Fr::Append(7, vec![V::I])])
    });
    assert_eq!(headline(r), "<verified>");
}

#[test]
fn float_into_int_local_fails() {
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()I",
            1,
            1,
            vec![FCONST_0, FSTORE_0, ILOAD_0, IRETURN],
        )
    });
    assert_eq!(headline(r), "Bad local variable type");
}

#[test]
fn protected_access_from_another_loaders_same_named_package() {
    // class p/Sub extends p/Base; protected p/Base.f read on a p/Base receiver passes when
    // both share a run-time package, and fails when p/Base has another defining loader.
    let mut a = Asm::new();
    let f = a.field("p/Base", "f", "I");
    let m = Method::new(
        STATIC,
        "m",
        "(Lp/Base;)I",
        1,
        1,
        vec![ALOAD_0, GETFIELD, hi(f), lo(f), IRETURN],
    );
    let bytes = a.build(61, "p/Sub", "p/Base", &[], &[m]);
    assert_eq!(headline(verify_bytes(&bytes)), "<verified>");
    let mut h = TestHierarchy::new();
    h.other_loader.push("p/Base");
    assert_eq!(
        headline(verify_bytes_in(&bytes, &h)),
        "Bad access to protected data in getfield"
    );
}

#[test]
fn protected_access_from_other_package() {
    // class p/T extends q/Base; accessing protected q/Base.f on a q/Base receiver fails,
    // on a p/T receiver passes.
    let build = |recv_desc: &'static str| {
        move || {
            let mut a = Asm::new();
            let f = a.field("q/Base", "f", "I");
            let m = Method::new(
                STATIC,
                "m",
                recv_desc,
                1,
                1,
                vec![ALOAD_0, GETFIELD, hi(f), lo(f), IRETURN],
            );
            verify_bytes(&a.build(61, "p/T", "q/Base", &[], &[m]))
        }
    };
    assert_eq!(
        headline(build("(Lq/Base;)I")()),
        "Bad access to protected data in getfield"
    );
    assert_eq!(headline(build("(Lp/T;)I")()), "<verified>");
    // protected method through invokevirtual
    let mut a = Asm::new();
    let mref = a.method("q/Base", "m", "()V");
    let m = Method::new(
        STATIC,
        "x",
        "(Lq/Base;)V",
        1,
        1,
        vec![ALOAD_0, INVOKEVIRTUAL, hi(mref), lo(mref), RETURN],
    );
    assert_eq!(
        headline(verify_bytes(&a.build(61, "p/T", "q/Base", &[], &[m]))),
        "Bad access to protected data in invokevirtual"
    );
    // new q/Base() with a protected constructor from another package
    let mut a = Asm::new();
    let c = a.class("q/Base");
    let init = a.method("q/Base", "<init>", "()V");
    let m = Method::new(
        STATIC,
        "x",
        "()V",
        2,
        0,
        vec![NEW, hi(c), lo(c), INVOKESPECIAL, hi(init), lo(init), RETURN],
    );
    assert_eq!(
        headline(verify_bytes(&a.build(61, "p/T", "q/Base", &[], &[m]))),
        "Bad access to protected <init> method"
    );
}

#[test]
fn hierarchy_errors_are_reported() {
    let r = verify_one(|a| {
        let c = a.class("Missing");
        let num = a.class("java/lang/Number");
        let _ = num;
        Method::new(
            STATIC,
            "m",
            "()Ljava/lang/Number;",
            1,
            0,
            vec![ACONST_NULL, CHECKCAST, hi(c), lo(c), ARETURN],
        )
    });
    // The VM throws the loading error itself (NoClassDefFoundError), not a VerifyError.
    assert_eq!(
        r.as_ref().map_err(|e| e.kind),
        Err(crate::ErrorKind::Hierarchy)
    );
    assert_eq!(headline(r), "java/lang/NoClassDefFoundError: Missing");
}

#[test]
fn jsr_ret_only_in_old_classes() {
    // 0: jsr 5  3: return  4: nop 5: astore_1  6: ret 1
    let code = vec![JSR, 0, 5, RETURN, 0x00, ASTORE_1, RET, 1];
    let mut a = Asm::new();
    let m = Method::new(STATIC, "m", "()V", 1, 2, code.clone());
    assert_eq!(
        headline(verify_bytes(&a.build(
            49,
            "T",
            "java/lang/Object",
            &[],
            &[m]
        ))),
        "<verified>"
    );
    a = Asm::new();
    let m = Method::new(STATIC, "m", "()V", 1, 2, code);
    assert_eq!(
        headline(verify_bytes(&a.build(
            51,
            "T",
            "java/lang/Object",
            &[],
            &[m]
        ))),
        "Bad instruction"
    );
}

#[test]
fn old_classes_get_static_checks_only() {
    // Type-incorrect but structurally fine: accepted for version 49.
    let mut a = Asm::new();
    let m = Method::new(
        STATIC,
        "m",
        "()Ljava/lang/Object;",
        1,
        0,
        vec![ICONST_0, ARETURN],
    );
    assert_eq!(
        headline(verify_bytes(&a.build(
            49,
            "T",
            "java/lang/Object",
            &[],
            &[m]
        ))),
        "<verified>"
    );
    // Structural errors are still caught.
    a = Asm::new();
    let m = Method::new(STATIC, "m", "()V", 1, 0, vec![ICONST_0, IFEQ, 0, 2, RETURN]);
    assert_eq!(
        headline(verify_bytes(&a.build(
            49,
            "T",
            "java/lang/Object",
            &[],
            &[m]
        ))),
        "Illegal target of jump or branch"
    );
    a = Asm::new();
    let m = Method::new(STATIC, "m", "()V", 1, 0, vec![ICONST_0, POP]);
    assert_eq!(
        headline(verify_bytes(&a.build(
            49,
            "T",
            "java/lang/Object",
            &[],
            &[m]
        ))),
        "Falling off the end of the code"
    );
}

#[test]
fn dup_forms() {
    // int x = 1; x + x via dup; dup_x1/dup_x2 through swap combos
    let r =
        verify_one(|_| Method::new(STATIC, "m", "()I", 2, 0, vec![ICONST_1, DUP, IADD, IRETURN]));
    assert_eq!(headline(r), "<verified>");
    // dup_x2 with a long below: form 2 -> [J, I] -> [I, J, I]
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()I",
            4,
            0,
            vec![LCONST_1, ICONST_0, 0x5b, POP, POP2, IRETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
    // dup2_x1: [I, J] -> [J, I, J]
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()J",
            5,
            0,
            vec![ICONST_0, LCONST_1, 0x5d, POP2, POP, LRETURN],
        )
    });
    assert_eq!(headline(r), "<verified>");
    // dup on a long
    let r = verify_one(|_| Method::new(STATIC, "m", "()V", 3, 0, vec![LCONST_1, DUP, RETURN]));
    assert_eq!(headline(r), "Bad type on operand stack");
}

#[test]
fn no_panic_on_garbage_code() {
    // A pile of random-ish code arrays must never panic.
    let mut seed = 0x1234_5678u32;
    for _ in 0..3000 {
        let len = (seed % 24) as usize + 1;
        let mut code = Vec::with_capacity(len);
        for _ in 0..len {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            code.push((seed % 202) as u8);
        }
        let ms = (seed % 5) as u16;
        let ml = (seed % 4) as u16;
        let _ = verify_one(|a| {
            a.class("java/lang/Object");
            a.method("java/lang/Object", "<init>", "()V");
            a.field("T", "x", "J");
            Method::new(0, "m", "(IJ)V", ms, ml + 4, code).frames(vec![Fr::Same((seed % 4) as u16)])
        });
    }
}

#[test]
fn exception_table_pcs_off_instructions_are_format_errors() {
    // 0: sipush 1 (3 bytes)  3: pop  4: return  5: pop  6: return
    let code = vec![SIPUSH, 0, 1, POP, RETURN, POP, RETURN];
    let ok = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(0, 4, 5, ex)
            .frames(vec![Fr::Stack1(5, V::Obj(ex))])
    });
    assert_eq!(headline(ok), "<verified>");
    // HotSpot's verifier throws ClassFormatError for a range or handler inside an instruction.
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(1, 4, 5, ex)
            .frames(vec![Fr::Stack1(5, V::Obj(ex))])
    });
    assert_format(r, "Illegal exception table range");
    let r = verify_one(|a| {
        let ex = a.class("java/lang/RuntimeException");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(0, 4, 2, ex)
            .frames(vec![Fr::Stack1(5, V::Obj(ex))])
    });
    assert_format(r, "Illegal exception table handler");
}

#[test]
fn stack_map_frame_larger_than_max_stack_is_a_format_error() {
    // A frame whose stack holds two items while max_stack is 1.
    let r = verify_one(|a| {
        let s = a.class("java/lang/String");
        Method::new(STATIC, "m", "()V", 1, 0, vec![ICONST_0, IFEQ, 0, 3, RETURN])
            .frames(vec![Fr::Full(4, vec![], vec![V::Obj(s), V::Obj(s)])])
    });
    assert_format(r, "StackMapTable format error");
}

#[test]
fn stack_map_format_errors_come_before_other_static_errors() {
    // max_locals 1, but `istore_1` uses local 1 and the frame at 5 has two locals: HotSpot
    // reads the StackMapTable (ClassFormatError) before its main loop finds the bad local.
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            1,
            1,
            vec![ICONST_0, ISTORE_1, ICONST_0, IFEQ, 0, 3, RETURN],
        )
        .frames(vec![Fr::Full(6, vec![V::I, V::I], vec![])])
    });
    assert_format(r, "StackMapTable format error");
    // With a frame that fits, the bad local is reported.
    let r = verify_one(|_| {
        Method::new(
            STATIC,
            "m",
            "()V",
            1,
            1,
            vec![ICONST_0, ISTORE_1, ICONST_0, IFEQ, 0, 3, RETURN],
        )
        .frames(vec![Fr::Full(6, vec![V::I], vec![])])
    });
    assert_verify(r, "Illegal local variable number");
}

#[test]
fn malformed_stack_map_is_reported_after_the_frames_before_it() {
    // A reserved frame type after a frame at 2 (inside `ifeq`): the bad offset comes first
    // (VerifyError), as HotSpot checks each frame's offset before reading the next frame.
    let code = vec![ICONST_0, IFEQ, 0, 4, RETURN, RETURN];
    let r = verify_one(|_| {
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .frames(vec![Fr::Same(2), Fr::Raw(vec![200])])
    });
    assert_verify(r, "StackMapTable error: bad offset");
    // With the first frame at an instruction, the malformed one is a ClassFormatError.
    let r = verify_one(|_| {
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .frames(vec![Fr::Same(4), Fr::Raw(vec![200])])
    });
    assert_format(r, "StackMapTable format error");
}

#[test]
fn catch_types_are_checked_before_the_stack_map() {
    // A catch type that cannot be loaded and a frame with too many locals: HotSpot loads the
    // catch type with the exception table, before it reads the StackMapTable.
    let code = vec![ICONST_0, POP, RETURN, POP, RETURN];
    let r = verify_one(|a| {
        let ex = a.class("Missing");
        Method::new(STATIC, "m", "()V", 1, 0, code.clone())
            .handler(0, 2, 3, ex)
            .frames(vec![Fr::Full(3, vec![V::I], vec![V::Obj(ex)])])
    });
    assert_eq!(
        r.as_ref().map_err(|e| e.kind),
        Err(crate::ErrorKind::Hierarchy)
    );
}

#[test]
fn branch_targets_outside_the_code_are_checked_after_the_stack_map() {
    // goto +100 (outside the code) and a frame with a local while max_locals is 0.
    let r =
        verify_one(|_| {
            Method::new(STATIC, "m", "()V", 1, 0, vec![GOTO, 0, 100, RETURN])
                .frames(vec![Fr::Full(3, vec![V::I], vec![])])
        });
    assert_format(r, "StackMapTable format error");
    let r =
        verify_one(|_| {
            Method::new(STATIC, "m", "()V", 1, 0, vec![GOTO, 0, 100, RETURN])
                .frames(vec![Fr::Full(3, vec![], vec![])])
        });
    assert_verify(r, "Illegal target of jump or branch");
}
