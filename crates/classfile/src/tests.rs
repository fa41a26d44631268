//! Crate-level unit tests: class files assembled by hand with a tiny builder, covering the
//! parsed model, each family of format errors, and no-panic behaviour on truncation and
//! mutation.

use crate::access::*;
use crate::*;

/// Constant pool builder producing raw entries.
#[derive(Default)]
struct Pool {
    bytes: Vec<u8>,
    count: u16, // next index
}

impl Pool {
    fn new() -> Self {
        Pool {
            bytes: Vec::new(),
            count: 1,
        }
    }
    fn raw(&mut self, entry: &[u8], slots: u16) -> u16 {
        self.bytes.extend_from_slice(entry);
        let i = self.count;
        self.count += slots;
        i
    }
    fn utf8(&mut self, s: &str) -> u16 {
        let b = mutf8::encode_str(s);
        let mut e = vec![1];
        e.extend_from_slice(&(b.len() as u16).to_be_bytes());
        e.extend_from_slice(&b);
        self.raw(&e, 1)
    }
    fn u16_entry(&mut self, tag: u8, a: u16) -> u16 {
        let mut e = vec![tag];
        e.extend_from_slice(&a.to_be_bytes());
        self.raw(&e, 1)
    }
    fn pair(&mut self, tag: u8, a: u16, b: u16) -> u16 {
        let mut e = vec![tag];
        e.extend_from_slice(&a.to_be_bytes());
        e.extend_from_slice(&b.to_be_bytes());
        self.raw(&e, 1)
    }
    fn class(&mut self, name: &str) -> u16 {
        let n = self.utf8(name);
        self.u16_entry(7, n)
    }
    fn nat(&mut self, name: &str, desc: &str) -> u16 {
        let n = self.utf8(name);
        let d = self.utf8(desc);
        self.pair(12, n, d)
    }
    fn member(&mut self, tag: u8, class: &str, name: &str, desc: &str) -> u16 {
        let c = self.class(class);
        let nt = self.nat(name, desc);
        self.pair(tag, c, nt)
    }
    fn integer(&mut self, v: i32) -> u16 {
        let mut e = vec![3];
        e.extend_from_slice(&v.to_be_bytes());
        self.raw(&e, 1)
    }
    fn long(&mut self, v: i64) -> u16 {
        let mut e = vec![5];
        e.extend_from_slice(&v.to_be_bytes());
        self.raw(&e, 2)
    }
    fn string(&mut self, s: &str) -> u16 {
        let u = self.utf8(s);
        self.u16_entry(8, u)
    }
    fn method_handle(&mut self, kind: u8, index: u16) -> u16 {
        let mut e = vec![15, kind];
        e.extend_from_slice(&index.to_be_bytes());
        self.raw(&e, 1)
    }
}

fn u2(v: u16) -> [u8; 2] {
    v.to_be_bytes()
}

fn attr(pool: &mut Pool, name: &str, data: &[u8]) -> Vec<u8> {
    let n = pool.utf8(name);
    let mut a = u2(n).to_vec();
    a.extend_from_slice(&(data.len() as u32).to_be_bytes());
    a.extend_from_slice(data);
    a
}

fn member_info(pool: &mut Pool, flags: u16, name: &str, desc: &str, attrs: &[Vec<u8>]) -> Vec<u8> {
    let n = pool.utf8(name);
    let d = pool.utf8(desc);
    let mut m = Vec::new();
    m.extend_from_slice(&u2(flags));
    m.extend_from_slice(&u2(n));
    m.extend_from_slice(&u2(d));
    m.extend_from_slice(&u2(attrs.len() as u16));
    for a in attrs {
        m.extend_from_slice(a);
    }
    m
}

fn code_attr(
    pool: &mut Pool,
    max_stack: u16,
    max_locals: u16,
    code: &[u8],
    handlers: &[[u16; 4]],
    attrs: &[Vec<u8>],
) -> Vec<u8> {
    let mut d = Vec::new();
    d.extend_from_slice(&u2(max_stack));
    d.extend_from_slice(&u2(max_locals));
    d.extend_from_slice(&(code.len() as u32).to_be_bytes());
    d.extend_from_slice(code);
    d.extend_from_slice(&u2(handlers.len() as u16));
    for h in handlers {
        for v in h {
            d.extend_from_slice(&u2(*v));
        }
    }
    d.extend_from_slice(&u2(attrs.len() as u16));
    for a in attrs {
        d.extend_from_slice(a);
    }
    attr(pool, "Code", &d)
}

struct Class {
    major: u16,
    minor: u16,
    pool: Pool,
    flags: u16,
    this: u16,
    super_: u16,
    interfaces: Vec<u16>,
    fields: Vec<Vec<u8>>,
    methods: Vec<Vec<u8>>,
    attrs: Vec<Vec<u8>>,
}

impl Class {
    fn new(name: &str) -> Class {
        let mut pool = Pool::new();
        let this = pool.class(name);
        let super_ = pool.class("java/lang/Object");
        Class {
            major: 61,
            minor: 0,
            pool,
            flags: ACC_PUBLIC | ACC_SUPER,
            this,
            super_,
            interfaces: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            attrs: Vec::new(),
        }
    }

    /// Adds `void <init>() { return; }`.
    fn with_init(mut self) -> Class {
        let code = code_attr(&mut self.pool, 1, 1, &[opcodes::RETURN], &[], &[]);
        let m = member_info(&mut self.pool, ACC_PUBLIC, "<init>", "()V", &[code]);
        self.methods.push(m);
        self
    }

    fn bytes(&self) -> Vec<u8> {
        let mut b = vec![0xCA, 0xFE, 0xBA, 0xBE];
        b.extend_from_slice(&u2(self.minor));
        b.extend_from_slice(&u2(self.major));
        b.extend_from_slice(&u2(self.pool.count));
        b.extend_from_slice(&self.pool.bytes);
        b.extend_from_slice(&u2(self.flags));
        b.extend_from_slice(&u2(self.this));
        b.extend_from_slice(&u2(self.super_));
        b.extend_from_slice(&u2(self.interfaces.len() as u16));
        for i in &self.interfaces {
            b.extend_from_slice(&u2(*i));
        }
        for list in [&self.fields, &self.methods, &self.attrs] {
            b.extend_from_slice(&u2(list.len() as u16));
            for x in list {
                b.extend_from_slice(x);
            }
        }
        b
    }

    fn parse(&self) -> Result<ClassFile, ClassFormatError> {
        ClassFile::parse(&self.bytes())
    }

    fn err(&self) -> String {
        match self.parse() {
            Ok(_) => panic!("expected a ClassFormatError"),
            Err(e) => e.0,
        }
    }
}

/// A class exercising most of the model.
fn rich_class() -> Class {
    let mut c = Class::new("p/Rich").with_init();
    let p = &mut c.pool;
    let runnable = p.class("java/lang/Runnable");
    c.interfaces.push(runnable);

    // static final int X = 42; private long y; static final String S = "s";
    let cv = p.integer(42);
    let cv_attr = attr(p, "ConstantValue", &u2(cv));
    let f1 = member_info(p, ACC_STATIC | ACC_FINAL, "X", "I", &[cv_attr]);
    let sig = p.utf8("TT;");
    let sig_attr = attr(p, "Signature", &u2(sig));
    let f2 = member_info(p, ACC_PRIVATE, "y", "J", &[sig_attr]);
    let sv = p.string("s");
    let sv_attr = attr(p, "ConstantValue", &u2(sv));
    let f3 = member_info(
        p,
        ACC_STATIC | ACC_FINAL,
        "S",
        "Ljava/lang/String;",
        &[sv_attr],
    );
    c.fields = vec![f1, f2, f3];

    // public void run() with a handler, two LineNumberTables and a StackMapTable.
    let thr = p.class("java/lang/Throwable");
    let mut lnt1 = u2(2).to_vec();
    lnt1.extend_from_slice(&[0, 4, 0, 12, 0, 0, 0, 10]);
    let lnt1 = attr(p, "LineNumberTable", &lnt1);
    let mut lnt2 = u2(1).to_vec();
    lnt2.extend_from_slice(&[0, 2, 0, 11]);
    let lnt2 = attr(p, "LineNumberTable", &lnt2);
    // frames: same(4); full(offset 0, locals [Object(thr)], stack [Integer, Top])
    let mut smt = u2(2).to_vec();
    smt.push(4);
    smt.extend_from_slice(&[255, 0, 0, 0, 1, 7]);
    smt.extend_from_slice(&u2(thr));
    smt.extend_from_slice(&[0, 2, 1, 0]);
    let smt = attr(p, "StackMapTable", &smt);
    let code = code_attr(
        p,
        2,
        1,
        &[
            opcodes::NOP,
            opcodes::NOP,
            opcodes::NOP,
            opcodes::NOP,
            opcodes::RETURN,
            opcodes::RETURN,
        ],
        &[[0, 4, 5, thr], [0, 4, 5, 0]],
        &[lnt1, lnt2, smt],
    );
    let exc = p.class("java/lang/Exception");
    let mut exd = u2(1).to_vec();
    exd.extend_from_slice(&u2(exc));
    let exc_attr = attr(p, "Exceptions", &exd);
    let mp_name = p.utf8("arg");
    let mut mp = vec![1];
    mp.extend_from_slice(&u2(mp_name));
    mp.extend_from_slice(&u2(ACC_FINAL));
    let mp_attr = attr(p, "MethodParameters", &mp);
    let unknown = attr(p, "SomethingUnknown", &[1, 2, 3]);
    let run = member_info(
        p,
        ACC_PUBLIC,
        "run",
        "()V",
        &[code, exc_attr, mp_attr, unknown],
    );
    let abs = member_info(p, ACC_PUBLIC | ACC_NATIVE, "nat", "(JI)D", &[]);
    c.methods.push(run);
    c.methods.push(abs);

    // indy + BootstrapMethods
    let bsm_ref = p.member(
        10,
        "java/lang/invoke/LambdaMetafactory",
        "metafactory",
        "(Ljava/lang/Object;)Ljava/lang/Object;",
    );
    let mh = p.method_handle(6, bsm_ref);
    let nt = p.nat("run", "()Ljava/lang/Runnable;");
    p.pair(18, 0, nt);
    let arg = p.long(7);
    let mut bsm = u2(1).to_vec();
    bsm.extend_from_slice(&u2(mh));
    bsm.extend_from_slice(&u2(1));
    bsm.extend_from_slice(&u2(arg));
    let bsm = attr(p, "BootstrapMethods", &bsm);
    let src = p.utf8("Rich.java");
    let src = attr(p, "SourceFile", &u2(src));
    let inner = p.class("p/Rich$In");
    let inner_name = p.utf8("In");
    let mut ic = u2(1).to_vec();
    for v in [inner, c.this, inner_name, ACC_PRIVATE | ACC_STATIC] {
        ic.extend_from_slice(&u2(v));
    }
    let ic = attr(p, "InnerClasses", &ic);
    c.attrs = vec![bsm, src, ic];
    c
}

#[test]
fn parses_rich_class() {
    let c = rich_class();
    let cf = c.parse().unwrap();
    assert_eq!(cf.name, "p/Rich");
    assert_eq!(cf.super_name.as_deref(), Some("java/lang/Object"));
    assert_eq!(cf.interfaces, vec!["java/lang/Runnable".to_owned()]);
    assert_eq!(cf.major_version, 61);
    assert_eq!(cf.source_file.as_deref(), Some("Rich.java"));
    assert_eq!(cf.fields.len(), 3);
    let x = &cf.fields[0];
    assert!(matches!(
        cf.constant_pool.get(x.constant_value.unwrap()),
        Some(Constant::Integer(42))
    ));
    assert_eq!(cf.fields[1].signature.as_deref(), Some("TT;"));
    assert_eq!(cf.fields[1].constant_value, None);
    let s = cf
        .constant_pool
        .string(cf.fields[2].constant_value.unwrap())
        .unwrap();
    assert_eq!(&*s.text, "s");

    let run = cf.method("run", "()V").unwrap();
    let code = run.code.as_ref().unwrap();
    assert_eq!(code.code.len(), 6);
    assert_eq!(code.exception_table.len(), 2);
    assert_eq!(code.line_numbers, vec![(0, 10), (2, 11), (4, 12)]);
    assert_eq!(code.line_number(3), Some(11));
    assert_eq!(code.line_number(5), Some(12));
    assert_eq!(
        code.stack_map_table.as_deref(),
        Some(
            &[
                StackMapFrame::Same { offset_delta: 4 },
                StackMapFrame::Full {
                    offset_delta: 0,
                    locals: vec![VType::Object(code.exception_table[0].catch_type)],
                    stack: vec![VType::Integer, VType::Top],
                },
            ][..]
        )
    );
    assert_eq!(run.exceptions.len(), 1);
    assert_eq!(
        cf.constant_pool.class_name(run.exceptions[0]),
        Some("java/lang/Exception")
    );
    assert_eq!(run.method_parameters.len(), 1);
    assert_eq!(
        cf.constant_pool.utf8(run.method_parameters[0].0),
        Some("arg")
    );
    assert!(cf.method("nat", "(JI)D").unwrap().code.is_none());

    assert_eq!(cf.bootstrap_methods.len(), 1);
    let bm = &cf.bootstrap_methods[0];
    assert!(matches!(
        cf.constant_pool.get(bm.method_ref),
        Some(Constant::MethodHandle {
            reference_kind: 6,
            ..
        })
    ));
    assert!(matches!(
        cf.constant_pool.get(bm.arguments[0]),
        Some(Constant::Long(7))
    ));
    assert!(cf.constant_pool.get(bm.arguments[0] + 1).is_none()); // slot after Long
    assert_eq!(cf.inner_classes.len(), 1);
    assert_eq!(
        cf.constant_pool
            .class_name(cf.inner_classes[0].inner_class_info),
        Some("p/Rich$In")
    );
}

#[test]
fn constant_pool_accessors() {
    let mut c = Class::new("A").with_init();
    let fr = c.pool.member(9, "A", "f", "I");
    let mr = c.pool.member(10, "A", "m", "(I)V");
    let imr = c.pool.member(11, "java/lang/Runnable", "run", "()V");
    let cf = c.parse().unwrap();
    let cp = &cf.constant_pool;
    assert!(cp.get(0).is_none());
    assert!(cp.get(u16::MAX).is_none());
    assert_eq!(cp.len(), usize::from(c.pool.count));
    let f = cp.member_ref(fr).unwrap();
    assert_eq!((f.class_name, f.name, f.descriptor), ("A", "f", "I"));
    let m = cp.member_ref(mr).unwrap();
    assert_eq!((m.name, m.descriptor), ("m", "(I)V"));
    assert_eq!(cp.member_ref(imr).unwrap().class_name, "java/lang/Runnable");
    assert!(cp.member_ref(c.this).is_none());
    assert_eq!(cp.class_name(c.this), Some("A"));
    assert!(cp.utf8(c.this).is_none());
}

#[test]
fn utf8_entry_keeps_exact_chars() {
    let mut c = Class::new("A").with_init();
    let bytes = mutf8::encode(&[0x61, 0xD800, 0]);
    let mut e = vec![1];
    e.extend_from_slice(&u2(bytes.len() as u16));
    e.extend_from_slice(&bytes);
    let i = c.pool.raw(&e, 1);
    let cf = c.parse().unwrap();
    let u = cf.constant_pool.utf8_entry(i).unwrap();
    assert_eq!(&*u.text, "a\u{FFFD}\0");
    assert_eq!(u.utf16(), vec![0x61, 0xD800, 0]);
    assert_eq!(Utf8::from_text("é").utf16(), vec![0xE9]);
}

#[test]
fn object_and_interface_and_module() {
    let mut c = Class::new("java/lang/Object").with_init();
    c.super_ = 0;
    let cf = c.parse().unwrap();
    assert!(cf.super_name.is_none());

    let mut i = Class::new("I");
    i.flags = ACC_PUBLIC | ACC_INTERFACE | ACC_ABSTRACT;
    let m = member_info(&mut i.pool, ACC_PUBLIC | ACC_ABSTRACT, "m", "()V", &[]);
    i.methods.push(m);
    let code = code_attr(&mut i.pool, 0, 0, &[opcodes::RETURN], &[], &[]);
    let d = member_info(&mut i.pool, ACC_PUBLIC | ACC_STATIC, "s", "()V", &[code]);
    i.methods.push(d);
    assert!(i.parse().unwrap().is_interface());

    let mut m = Class::new("module-info");
    m.flags = ACC_MODULE;
    m.super_ = 0;
    m.major = 53;
    let mname = m.pool.utf8("my.mod");
    let mi = m.pool.u16_entry(19, mname);
    let mut md = u2(mi).to_vec();
    md.extend_from_slice(&[0; 14]);
    let ma = attr(&mut m.pool, "Module", &md);
    m.attrs.push(ma);
    // A module descriptor is not a class (HotSpot: NoClassDefFoundError), nor is any class
    // file with ACC_MODULE from version 53 on; before 53 the flag is ignored.
    let e = m.parse().unwrap_err();
    assert!(e.is_not_a_class());
    assert_eq!(
        e.0,
        "module-info is not a class because access_flag ACC_MODULE is set"
    );
    let mut c = Class::new("A").with_init();
    c.flags = ACC_PUBLIC | ACC_SUPER | ACC_MODULE;
    assert!(c.parse().unwrap_err().is_not_a_class());
    c.major = 52;
    assert!(c.parse().is_ok());
}

#[test]
fn header_errors() {
    let good = Class::new("A").with_init().bytes();
    let mut b = good.clone();
    b[0] = 0;
    assert_eq!(
        ClassFile::parse(&b).unwrap_err().0,
        format!("Incompatible magic value {}", 0x00FE_BABEu32)
    );
    let mut c = Class::new("A").with_init();
    c.major = 62;
    let e = c.parse().unwrap_err();
    assert_eq!(e.0, "Unsupported major.minor version 62.0");
    assert!(e.is_unsupported_version());
    c.major = 44;
    assert!(c.parse().unwrap_err().is_unsupported_version());
    c.major = 57;
    c.minor = 3;
    assert_eq!(c.err(), "Unsupported major.minor version 57.3");
    // Preview class files: rejected without --enable-preview (the launcher's test
    // `preview_features_need_enable_preview` covers enabling), and only the newest version may
    // have preview features at all.
    c.minor = 0xFFFF;
    assert_eq!(c.err(), "Unsupported major.minor version 57.65535");
    c.major = 61;
    assert_eq!(
        c.err(),
        "Preview features are not enabled, class file version 61.65535"
    );
    assert!(c.parse().unwrap_err().is_unsupported_version());
    c.major = 55;
    c.minor = 3;
    assert!(c.parse().is_ok());
    c.major = 45;
    assert!(c.parse().is_ok());

    assert_eq!(ClassFile::parse(&[]).unwrap_err().0, "Truncated class file");
    let mut extra = good.clone();
    extra.push(0);
    assert_eq!(
        ClassFile::parse(&extra).unwrap_err().0,
        "Extra bytes at the end of class file in class file A"
    );
}

#[test]
fn truncations_and_mutations_never_panic() {
    for class in [rich_class(), Class::new("A").with_init()] {
        let good = class.bytes();
        ClassFile::parse(&good).unwrap();
        for len in 0..good.len() {
            assert!(
                ClassFile::parse(&good[..len]).is_err(),
                "prefix {len} parsed"
            );
        }
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut buf = good.clone();
        for i in 0..good.len() {
            for v in [
                0u8,
                1,
                0x7F,
                0x80,
                0xFF,
                good[i].wrapping_add(1),
                good[i].wrapping_sub(1),
            ] {
                buf[i] = v;
                let _ = ClassFile::parse(&buf);
            }
            buf[i] = good[i];
        }
        for _ in 0..20_000 {
            let mut b = good.clone();
            for _ in 0..(next() % 4 + 1) {
                let i = (next() % b.len() as u64) as usize;
                b[i] = next() as u8;
            }
            let _ = ClassFile::parse(&b);
        }
    }
}

#[test]
fn constant_pool_errors() {
    // Class pointing at a non-Utf8.
    let mut c = Class::new("A").with_init();
    let i = c.pool.integer(1);
    c.pool.u16_entry(7, i);
    assert_eq!(
        c.err(),
        format!("Invalid constant pool index {i} in class file A")
    );

    // Index out of range.
    let mut c = Class::new("A").with_init();
    c.pool.u16_entry(8, 70);
    assert_eq!(c.err(), "Invalid constant pool index 70 in class file A");

    // Unknown tag.
    let mut c = Class::new("A").with_init();
    c.pool.raw(&[2, 0, 0], 1);
    assert_eq!(c.err(), "Unknown constant tag 2");

    // Dynamic needs 55.
    let mut c = Class::new("A").with_init();
    c.major = 54;
    let nt = c.pool.nat("x", "I");
    c.pool.pair(17, 0, nt);
    assert_eq!(
        c.err(),
        "Class file version does not support constant tag 17"
    );
    c.major = 55;
    assert_eq!(
        c.err(),
        "Missing BootstrapMethods attribute in class file A"
    );

    // Module entries outside module-info.
    let mut c = Class::new("A").with_init();
    let u = c.pool.utf8("m");
    c.pool.u16_entry(19, u);
    assert!(c.err().starts_with("Illegal constant pool tag"));

    // Long as last entry.
    let mut c = Class::new("A").with_init();
    c.pool.raw(&[5, 0, 0, 0, 0, 0, 0, 0, 0], 1);
    assert!(c.err().starts_with("Invalid constant pool entry"));

    // Bad UTF-8.
    let mut c = Class::new("A").with_init();
    c.pool.raw(&[1, 0, 2, b'a', 0], 1);
    assert_eq!(c.err(), "Illegal UTF8 string in constant pool");

    // Bad class name, bad NameAndType, MethodHandle kinds.
    let mut c = Class::new("A").with_init();
    c.pool.class("a//b");
    assert_eq!(c.err(), "Illegal class name \"a//b\" in class file A");
    let mut c = Class::new("A").with_init();
    c.pool.nat("m", "(I");
    assert_eq!(
        c.err(),
        "Method \"m\" has illegal signature \"(I\" in class file A"
    );
    let mut c = Class::new("A").with_init();
    c.pool.nat("<init>", "()I");
    assert!(c.err().contains("has illegal signature"));
    let mut c = Class::new("A").with_init();
    c.pool.member(10, "A", "<clinit>", "()V");
    assert!(
        c.err()
            .starts_with("Bad method name at constant pool index")
    );
    let mut c = Class::new("A").with_init();
    c.pool.nat("a.b", "I");
    assert!(c.err().starts_with("Illegal field name"));
    let mut c = Class::new("A").with_init();
    let f = c.pool.member(9, "A", "f", "I");
    c.pool.method_handle(10, f);
    assert!(c.err().starts_with("Bad method handle kind"));
    let mut c = Class::new("A").with_init();
    let f = c.pool.member(9, "A", "f", "I");
    c.pool.method_handle(5, f);
    assert_eq!(
        c.err(),
        format!("Invalid constant pool index {f} in class file A")
    );
    let mut c = Class::new("A").with_init();
    let m = c.pool.member(10, "A", "<init>", "()V");
    c.pool.method_handle(5, m);
    assert!(c.err().starts_with("Bad method handle name"));
    let mut c = Class::new("A").with_init();
    let m = c.pool.member(10, "A", "<init>", "()V");
    c.pool.method_handle(8, m);
    assert!(c.parse().is_ok());

    // this_class pointing at a Utf8.
    let mut c = Class::new("A").with_init();
    c.this = c.pool.utf8("A");
    assert_eq!(
        c.err(),
        format!("Invalid this class index {} in constant pool", c.this)
    );
}

#[test]
fn class_level_errors() {
    let mut c = Class::new("A").with_init();
    c.flags = ACC_PUBLIC | ACC_INTERFACE;
    assert_eq!(c.err(), "Illegal class modifiers: 0x201 in class file A");
    c.flags = ACC_FINAL | ACC_ABSTRACT;
    assert!(c.err().starts_with("Illegal class modifiers"));

    let mut c = Class::new("A").with_init();
    c.super_ = 0;
    assert_eq!(c.err(), "Invalid superclass index 0 in class file A");

    let mut c = Class::new("A").with_init();
    let r = c.pool.class("java/lang/Runnable");
    c.interfaces = vec![r, r];
    assert!(c.err().starts_with("Duplicate interface name"));

    let mut c = Class::new("A").with_init();
    let f = member_info(&mut c.pool, 0, "f", "I", &[]);
    c.fields = vec![f.clone(), f];
    assert_eq!(
        c.err(),
        "Duplicate field name \"f\" with signature \"I\" in class file A"
    );

    let mut c = Class::new("A").with_init().with_init();
    assert_eq!(
        c.err(),
        "Duplicate method name \"<init>\" with signature \"()V\" in class file A"
    );
    c.methods.pop();
    assert!(c.parse().is_ok());

    let mut c = Class::new("A").with_init();
    let f = member_info(&mut c.pool, 0, "f", "V", &[]);
    c.fields.push(f);
    assert!(c.err().starts_with("Field \"f\" has illegal signature"));

    let mut c = Class::new("A").with_init();
    let f = member_info(&mut c.pool, ACC_PUBLIC | ACC_PRIVATE, "f", "I", &[]);
    c.fields.push(f);
    assert!(c.err().starts_with("Illegal field modifiers"));

    let mut c = Class::new("A");
    let code = code_attr(&mut c.pool, 1, 1, &[opcodes::RETURN], &[], &[]);
    let m = member_info(&mut c.pool, 0, "<foo>", "()V", &[code]);
    c.methods.push(m);
    assert!(c.err().starts_with("Illegal method name"));

    let mut c = Class::new("A");
    let m = member_info(&mut c.pool, ACC_PUBLIC, "m", "()V", &[]);
    c.methods.push(m);
    assert!(c.err().starts_with("Absent Code attribute"));

    let mut c = Class::new("A");
    let code = code_attr(&mut c.pool, 1, 1, &[opcodes::RETURN], &[], &[]);
    let m = member_info(&mut c.pool, ACC_ABSTRACT, "m", "()V", &[code]);
    c.methods.push(m);
    assert!(
        c.err()
            .starts_with("Code attribute in native or abstract methods")
    );

    let mut c = Class::new("A");
    let code = code_attr(&mut c.pool, 1, 0, &[opcodes::RETURN], &[], &[]);
    let m = member_info(&mut c.pool, 0, "m", "(J)V", &[code]);
    c.methods.push(m);
    assert!(c.err().starts_with("Arguments can't fit into locals"));

    let mut c = Class::new("A");
    let code = code_attr(&mut c.pool, 1, 1, &[opcodes::RETURN], &[], &[]);
    let m = member_info(&mut c.pool, 0, "<clinit>", "()V", &[code]);
    c.methods.push(m);
    assert!(c.err().starts_with("Method <clinit> is not static"));

    let mut c = Class::new("A");
    let desc = format!("({})V", "J".repeat(128));
    let code = code_attr(&mut c.pool, 1, 255, &[opcodes::RETURN], &[], &[]);
    let m = member_info(&mut c.pool, ACC_STATIC, "m", &desc, &[code]);
    c.methods.push(m);
    assert!(c.err().starts_with("Too many arguments"));
}

#[test]
fn code_and_attribute_errors() {
    let method_with = |code: &[u8], handlers: &[[u16; 4]], extra: Option<(&str, Vec<u8>)>| {
        let mut c = Class::new("A");
        let attrs = match extra {
            Some((n, d)) => vec![attr(&mut c.pool, n, &d)],
            None => vec![],
        };
        let code = code_attr(&mut c.pool, 1, 1, code, handlers, &attrs);
        let m = member_info(&mut c.pool, ACC_PUBLIC, "<init>", "()V", &[code]);
        c.methods.push(m);
        c
    };
    assert!(
        method_with(&[], &[], None)
            .err()
            .starts_with("Invalid method Code length 0")
    );
    let nops = vec![0u8; 3];
    assert!(
        method_with(&nops, &[[0, 4, 0, 0]], None)
            .err()
            .starts_with("Illegal exception table range")
    );
    assert!(
        method_with(&nops, &[[2, 2, 0, 0]], None)
            .err()
            .starts_with("Illegal exception table range")
    );
    assert!(
        method_with(&nops, &[[0, 3, 3, 0]], None)
            .err()
            .starts_with("Illegal exception table handler")
    );
    assert!(
        method_with(&nops, &[[0, 3, 1, 1]], None)
            .err()
            .starts_with("Catch type in exception table")
    );
    assert!(method_with(&nops, &[[0, 3, 1, 2]], None).parse().is_ok()); // 2 = java/lang/Object class
    assert!(
        method_with(
            &nops,
            &[],
            Some(("LineNumberTable", vec![0, 1, 0, 3, 0, 1]))
        )
        .err()
        .starts_with("Invalid pc in LineNumberTable")
    );
    assert!(
        method_with(
            &nops,
            &[],
            Some(("LineNumberTable", vec![0, 1, 0, 2, 0, 1, 9]))
        )
        .err()
        .starts_with("Wrong LineNumberTable attribute length")
    );
    assert!(
        method_with(
            &nops,
            &[],
            Some(("LineNumberTable", vec![0, 2, 0, 2, 0, 1]))
        )
        .err()
        .starts_with("Truncated LineNumberTable attribute")
    );
    // A malformed StackMapTable does not fail loading (HotSpot reports it when it verifies
    // the method): the frames before the error are kept with the error.
    let smt_error = |data: Vec<u8>| {
        let cf = method_with(&nops, &[], Some(("StackMapTable", data)))
            .parse()
            .unwrap();
        let code = cf.methods[0].code.clone().unwrap();
        (
            code.stack_map_table.unwrap().len(),
            code.stack_map_error.map(|e| e.0),
        )
    };
    let (n, e) = smt_error(vec![0, 1, 200]);
    assert_eq!(n, 0);
    assert!(e.unwrap().starts_with("Reserved frame type 200"));
    let (n, e) = smt_error(vec![0, 2, 0, 64, 9]);
    assert_eq!(n, 1);
    assert!(e.unwrap().starts_with("Illegal verification type tag 9"));
    assert_eq!(smt_error(vec![0, 1, 0]), (1, None));
    let cf = method_with(
        &nops,
        &[],
        Some((
            "StackMapTable",
            vec![0, 3, 249, 0, 1, 253, 0, 2, 1, 8, 0, 0, 247, 0, 9, 5],
        )),
    )
    .parse()
    .unwrap();
    assert_eq!(
        cf.methods[0]
            .code
            .as_ref()
            .unwrap()
            .stack_map_table
            .as_ref()
            .unwrap(),
        &vec![
            StackMapFrame::Chop {
                offset_delta: 1,
                k: 2
            },
            StackMapFrame::Append {
                offset_delta: 2,
                locals: vec![VType::Integer, VType::Uninitialized(0)]
            },
            StackMapFrame::SameLocals1StackItem {
                offset_delta: 9,
                stack: VType::Null
            },
        ]
    );
    // Unknown attributes are skipped, whatever they hold.
    assert!(
        method_with(&nops, &[], Some(("Whatever", vec![1, 2, 3])))
            .parse()
            .is_ok()
    );

    // Declared Code length disagreeing with its contents.
    let mut c = Class::new("A");
    let mut code = code_attr(&mut c.pool, 1, 1, &[opcodes::RETURN], &[], &[]);
    code[5] += 1; // attribute_length low byte
    code.push(0);
    let m = member_info(&mut c.pool, ACC_PUBLIC, "<init>", "()V", &[code]);
    c.methods.push(m);
    assert_eq!(c.err(), "Wrong Code attribute length in class file A");

    // Class attribute problems.
    let mut c = Class::new("A").with_init();
    let s = c.pool.utf8("A.java");
    let a = attr(&mut c.pool, "SourceFile", &u2(s));
    c.attrs = vec![a.clone(), a];
    assert_eq!(c.err(), "Multiple SourceFile attributes in class file A");
    let mut c = Class::new("A").with_init();
    let a = attr(&mut c.pool, "SourceFile", &[0, 1, 0]);
    c.attrs = vec![a];
    assert_eq!(c.err(), "Wrong SourceFile attribute length in class file A");
    let mut c = Class::new("A").with_init();
    let a = attr(&mut c.pool, "Synthetic", &[0]);
    c.attrs = vec![a];
    assert!(c.err().starts_with("Invalid Synthetic attribute length"));
    let mut c = Class::new("A").with_init();
    let mut ic = u2(1).to_vec();
    for v in [c.this, c.this, 0, 0] {
        ic.extend_from_slice(&u2(v));
    }
    let a = attr(&mut c.pool, "InnerClasses", &ic);
    c.attrs = vec![a];
    assert!(c.err().starts_with("Class is both outer and inner class"));
    // An inner interface with ACC_SUPER is rejected as HotSpot rejects it.
    let mut c = Class::new("A").with_init();
    let inner = c.pool.class("A$I");
    let mut ic = u2(1).to_vec();
    for v in [
        inner,
        c.this,
        0,
        ACC_STATIC | ACC_INTERFACE | ACC_ABSTRACT | ACC_SUPER,
    ] {
        ic.extend_from_slice(&u2(v));
    }
    let a = attr(&mut c.pool, "InnerClasses", &ic);
    c.attrs = vec![a];
    assert!(c.err().starts_with("Illegal class modifiers"));
    // Inner-class flags with ACC_MODULE: the class is not a class (as HotSpot reports it).
    let mut c = Class::new("A").with_init();
    let inner = c.pool.class("A$B");
    let mut ic = u2(1).to_vec();
    for v in [inner, c.this, 0, ACC_STATIC | ACC_MODULE] {
        ic.extend_from_slice(&u2(v));
    }
    let a = attr(&mut c.pool, "InnerClasses", &ic);
    c.attrs = vec![a];
    assert!(c.parse().unwrap_err().is_not_a_class());

    // A ConstantValue of the wrong type.
    let mut c = Class::new("A").with_init();
    let v = c.pool.long(1);
    let a = attr(&mut c.pool, "ConstantValue", &u2(v));
    let f = member_info(&mut c.pool, ACC_STATIC, "f", "I", &[a]);
    c.fields.push(f);
    assert!(c.err().starts_with("Inconsistent constant value type"));
    // ... is ignored on an instance field.
    let mut c = Class::new("A").with_init();
    let v = c.pool.long(1);
    let a = attr(&mut c.pool, "ConstantValue", &u2(v));
    let f = member_info(&mut c.pool, 0, "f", "I", &[a]);
    c.fields.push(f);
    assert!(c.parse().unwrap().fields[0].constant_value.is_none());
}

#[test]
fn record_and_nest_attributes() {
    let mut c = Class::new("R").with_init();
    c.super_ = c.pool.class("java/lang/Record");
    c.flags = ACC_FINAL | ACC_SUPER;
    let name = c.pool.utf8("x");
    let desc = c.pool.utf8("I");
    let sig = c.pool.utf8("I");
    let sig_attr = attr(&mut c.pool, "Signature", &u2(sig));
    let mut rec = u2(1).to_vec();
    rec.extend_from_slice(&u2(name));
    rec.extend_from_slice(&u2(desc));
    rec.extend_from_slice(&u2(1));
    rec.extend_from_slice(&sig_attr);
    let rec = attr(&mut c.pool, "Record", &rec);
    let host = c.pool.class("H");
    let nh = attr(&mut c.pool, "NestHost", &u2(host));
    c.attrs = vec![rec, nh];
    let cf = c.parse().unwrap();
    let r = cf.record.unwrap();
    assert_eq!((r[0].name.as_str(), r[0].descriptor.as_str()), ("x", "I"));
    assert_eq!(r[0].signature.as_deref(), Some("I"));
    assert_eq!(
        cf.constant_pool.class_name(cf.nest_host.unwrap()),
        Some("H")
    );

    let mut c = Class::new("S").with_init();
    c.flags |= ACC_FINAL;
    let sub = c.pool.class("T");
    let mut ps = u2(1).to_vec();
    ps.extend_from_slice(&u2(sub));
    let ps = attr(&mut c.pool, "PermittedSubclasses", &ps);
    c.attrs = vec![ps];
    assert!(
        c.err()
            .starts_with("PermittedSubclasses attribute in final class")
    );
    c.flags &= !ACC_FINAL;
    assert_eq!(c.parse().unwrap().permitted_subclasses.len(), 1);
    c.major = 60; // not recognized before 61: skipped
    assert!(c.parse().unwrap().permitted_subclasses.is_empty());
}

#[test]
fn wrong_name_is_found_before_later_format_errors() {
    let good = Class::new("A").with_init().bytes();
    let e = ClassFile::parse_expecting(&good, Some("B")).unwrap_err();
    assert!(e.is_wrong_name());
    assert_eq!(e.0, "B (wrong name: A)");
    assert!(ClassFile::parse_expecting(&good, Some("A")).is_ok());
    // A file truncated after its name: HotSpot reports the wrong name first.
    let e = ClassFile::parse_expecting(&good[..good.len() - 4], Some("B")).unwrap_err();
    assert!(e.is_wrong_name());
    assert!(
        !ClassFile::parse(&good[..good.len() - 4])
            .unwrap_err()
            .is_wrong_name()
    );
}
