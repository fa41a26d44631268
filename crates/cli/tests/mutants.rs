//! Differential mutant fuzzing of class-file checking against HotSpot.
//!
//! The conformance programs (`tests/java/`, a fixed list of single-threaded ones) are compiled
//! with `javac --release 17`; their class files are mutated deterministically from a seeded
//! PRNG (splitmix64), structure-aware: constant-pool tags and indices, bootstrap arguments,
//! method handle kinds, access flags, versions, max_stack/max_locals, opcodes and operands,
//! exception-table pcs, attribute lengths and counts, stack map frames, descriptors and names,
//! truncation, duplicated members and attributes, removed attributes, plain byte changes.
//! Each mutant replaces its class (a directory first on the class path) and the program runs
//! for real on HotSpot (`java`) and on jxvm, both at once for `JXVM_MUTANTS_JOBS` mutants. The
//! outcomes must agree: normal exit with the same stdout, or the same error class (the first
//! `java.lang.*Error`/`*Exception` named on the first lines of stderr: the launcher's
//! LinkageError report or the uncaught exception), or "main method not found", or both time
//! out. Messages may differ. jxvm panicking, dying on a signal or timing out alone is a crash.
//!
//! `JXVM_MUTANTS_MODE=harness` runs all mutants in one VM each instead, with
//! `tests/mutants/Harness.java` (a fresh class loader per mutant): much faster, but jxvm loads
//! a user-defined loader's classes eagerly, which turns some load errors of nested classes into
//! NoClassDefFoundError, so it is for exploring; its first `JXVM_MUTANTS_REAL` mutants are
//! also run for real to show where the two differ.
//!
//! `cargo test --release -p jxvm --test mutants` is the CI part: the regression mutants of
//! `tests/mutants/regress/` (named `Main.Class.anything.class`) and `JXVM_MUTANTS` mutants
//! (default 400) from seed `JXVM_MUTANTS_SEED` (default 1). A disagreement fails the test
//! unless its id is listed in `tests/mutants/KNOWN`; a crash always fails it. Other knobs:
//! `JXVM_MUTANTS_STRICT=0` (only report the agreement figure; `bench/mutants-run` does this for
//! thousands of mutants), `JXVM_MUTANTS_KEEP=DIR` (copy the disagreeing mutants there and keep
//! the work directory), `JXVM_MUTANTS_IDS=i,j,...` (only these mutants of the seed),
//! `JXVM_MUTANTS_JXVM=PATH` (another jxvm binary, for a before/after on the same mutants).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Single-threaded, deterministic conformance programs that never call System.exit, do not
/// print their class loader's identity hash (InstanceofCast does) and do not print the
/// messages of the errors they catch (StaticInitFailure does: its output would compare
/// messages, which may differ, rather than error classes).
const PROGRAMS: &[&str] = &[
    "AbstractClasses",
    "AlgoBacktracking",
    "AlgoSorting",
    "ArithIntEdge",
    "ArithLongEdge",
    "ArrayClone",
    "ArrayExceptions",
    "BitwiseBoolean",
    "CallSites",
    "CharArith",
    "CompoundAssign",
    "CustomExceptions",
    "DivByZero",
    "Enums",
    "ExceptionsFinally",
    "ExceptionsNested",
    "FieldHiding",
    "GenericsBridge",
    "IncDecAllTypes",
    "Inheritance",
    "InitCycle",
    "InnerClasses",
    "InstanceInitOrder",
    "InterfaceDefaults",
    "InterfaceInit",
    "LabeledLoops",
    "LambdaCapture",
    "LambdasBasic",
    "LocalAnonCapture",
    "MethodRefs",
    "MiniInterpreter",
    "Nestmates",
    "ObjectMethods",
    "PrimitiveConversions",
    "Records",
    "SealedPatterns",
    "ShiftOps",
    "StaticInitOrder",
    "StringConcat",
    "SwitchEnum",
    "SwitchExpr",
    "SwitchString",
    "SwitchTable",
    "TernaryLogic",
    "TextBlocks",
    "TryWithResources",
    "UncaughtRuntime",
    "Varargs",
    "VisitorPattern",
];

/// Per-mutant time limit inside the harness.
const MUTANT_TIMEOUT_MS: u64 = 3000;

// ---------------------------------------------------------------------------------------------
// PRNG

/// splitmix64: small, fast, good enough to pick mutations reproducibly.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

// ---------------------------------------------------------------------------------------------
// A tolerant scan of a (valid) class file: where the interesting fields are.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// u1 constant-pool tag
    Tag,
    /// u1 reference kind of a CONSTANT_MethodHandle
    HandleRef,
    /// u2 constant-pool index (anywhere: entries, members, attributes, instructions)
    CpIndex,
    /// u2 bootstrap method argument index
    BsmArg,
    /// u2 access flags (class, field, method, inner class)
    Flags,
    /// u2 minor version
    Minor,
    /// u2 major version
    Major,
    MaxStack,
    MaxLocals,
    /// u4 attribute length (or code_length)
    Len4,
    /// u2 count of a table
    Count,
    /// first byte of an instruction
    Opcode,
    /// an instruction's operand byte
    Operand,
    /// a byte of a StackMapTable attribute's contents
    StackMap,
    /// a byte of a Utf8 constant used as a descriptor or name
    Utf8,
    /// u2 pc in an exception table
    ExcPc,
}

#[derive(Default)]
struct Scan {
    sites: Vec<(usize, Kind)>,
    /// (start, end, offset of the container's u2 count) of fields and methods
    members: Vec<(usize, usize, usize)>,
    /// (start, end, offset of the container's u2 count, name) of attributes
    attributes: Vec<(usize, usize, usize, String)>,
}

struct Cur<'a> {
    b: &'a [u8],
    p: usize,
}

impl Cur<'_> {
    fn u1(&mut self) -> Option<u8> {
        let v = *self.b.get(self.p)?;
        self.p += 1;
        Some(v)
    }
    fn u2(&mut self) -> Option<u16> {
        Some(u16::from(self.u1()?) << 8 | u16::from(self.u1()?))
    }
    fn u4(&mut self) -> Option<u32> {
        Some(u32::from(self.u2()?) << 16 | u32::from(self.u2()?))
    }
    fn skip(&mut self, n: usize) -> Option<()> {
        if self.p + n > self.b.len() {
            return None;
        }
        self.p += n;
        Some(())
    }
}

fn scan(b: &[u8]) -> Option<Scan> {
    let mut s = Scan::default();
    let mut c = Cur { b, p: 8 };
    s.sites.push((4, Kind::Minor));
    s.sites.push((6, Kind::Major));
    let cp_count = c.u2()?;
    let mut utf8: BTreeMap<u16, (usize, usize)> = BTreeMap::new();
    let mut i = 1;
    while i < cp_count {
        s.sites.push((c.p, Kind::Tag));
        let tag = c.u1()?;
        match tag {
            1 => {
                let len = usize::from(c.u2()?);
                utf8.insert(i, (c.p, len));
                c.skip(len)?;
            }
            3 | 4 => c.skip(4)?,
            5 | 6 => {
                c.skip(8)?;
                i += 1;
            }
            7 | 8 | 16 | 19 | 20 => {
                s.sites.push((c.p, Kind::CpIndex));
                c.skip(2)?;
            }
            9..=12 | 17 | 18 => {
                s.sites.push((
                    c.p,
                    if tag >= 17 {
                        Kind::BsmArg
                    } else {
                        Kind::CpIndex
                    },
                ));
                s.sites.push((c.p + 2, Kind::CpIndex));
                c.skip(4)?;
            }
            15 => {
                s.sites.push((c.p, Kind::HandleRef));
                s.sites.push((c.p + 1, Kind::CpIndex));
                c.skip(3)?;
            }
            _ => return None,
        }
        i += 1;
    }
    let name_of = |idx: u16| -> String {
        utf8.get(&idx)
            .map(|&(o, l)| String::from_utf8_lossy(&b[o..o + l]).into_owned())
            .unwrap_or_default()
    };
    s.sites.push((c.p, Kind::Flags));
    s.sites.push((c.p + 2, Kind::CpIndex));
    s.sites.push((c.p + 4, Kind::CpIndex));
    c.skip(6)?;
    s.sites.push((c.p, Kind::Count));
    let n = c.u2()?;
    for _ in 0..n {
        s.sites.push((c.p, Kind::CpIndex));
        c.skip(2)?;
    }
    let mut descriptors = BTreeSet::new();
    for _ in 0..2 {
        let count_at = c.p;
        s.sites.push((c.p, Kind::Count));
        let n = c.u2()?;
        for _ in 0..n {
            let start = c.p;
            s.sites.push((c.p, Kind::Flags));
            s.sites.push((c.p + 2, Kind::CpIndex));
            s.sites.push((c.p + 4, Kind::CpIndex));
            c.skip(4)?;
            descriptors.insert(c.u2()?);
            scan_attributes(&mut c, &mut s, &name_of)?;
            s.members.push((start, c.p, count_at));
        }
    }
    scan_attributes(&mut c, &mut s, &name_of)?;
    if c.p != b.len() {
        return None;
    }
    // Descriptor and name bytes: the member descriptors and the Utf8s NameAndTypes point to.
    for &(off, kind) in &s.sites.clone() {
        if kind == Kind::CpIndex && off + 2 <= b.len() {
            let idx = u16::from_be_bytes([b[off], b[off + 1]]);
            if utf8.contains_key(&idx) {
                descriptors.insert(idx);
            }
        }
    }
    for idx in descriptors {
        if let Some(&(o, l)) = utf8.get(&idx) {
            for k in o..o + l {
                s.sites.push((k, Kind::Utf8));
            }
        }
    }
    Some(s)
}

fn scan_attributes(c: &mut Cur<'_>, s: &mut Scan, name_of: &dyn Fn(u16) -> String) -> Option<()> {
    let count_at = c.p;
    s.sites.push((c.p, Kind::Count));
    let n = c.u2()?;
    for _ in 0..n {
        let start = c.p;
        s.sites.push((c.p, Kind::CpIndex));
        let name = name_of(c.u2()?);
        s.sites.push((c.p, Kind::Len4));
        let len = c.u4()? as usize;
        let body = c.p;
        if body + len > c.b.len() {
            return None;
        }
        let mut a = Cur {
            b: &c.b[..body + len],
            p: body,
        };
        match name.as_str() {
            "Code" => {
                s.sites.push((a.p, Kind::MaxStack));
                s.sites.push((a.p + 2, Kind::MaxLocals));
                a.skip(4)?;
                s.sites.push((a.p, Kind::Len4));
                let code_len = a.u4()? as usize;
                let code_start = a.p;
                a.skip(code_len)?;
                scan_code(&c.b[code_start..code_start + code_len], code_start, s);
                s.sites.push((a.p, Kind::Count));
                let h = a.u2()?;
                for _ in 0..h {
                    for k in 0..3 {
                        s.sites.push((a.p + 2 * k, Kind::ExcPc));
                    }
                    s.sites.push((a.p + 6, Kind::CpIndex));
                    a.skip(8)?;
                }
                scan_attributes(&mut a, s, name_of)?;
            }
            "StackMapTable" => {
                s.sites.push((a.p, Kind::Count));
                for k in body + 2..body + len {
                    s.sites.push((k, Kind::StackMap));
                }
            }
            "BootstrapMethods" => {
                s.sites.push((a.p, Kind::Count));
                let m = a.u2()?;
                for _ in 0..m {
                    s.sites.push((a.p, Kind::CpIndex));
                    s.sites.push((a.p + 2, Kind::Count));
                    a.skip(2)?;
                    let argc = a.u2()?;
                    for _ in 0..argc {
                        s.sites.push((a.p, Kind::BsmArg));
                        a.skip(2)?;
                    }
                }
            }
            "InnerClasses" => {
                s.sites.push((a.p, Kind::Count));
                let m = a.u2()?;
                for _ in 0..m {
                    for k in 0..3 {
                        s.sites.push((a.p + 2 * k, Kind::CpIndex));
                    }
                    s.sites.push((a.p + 6, Kind::Flags));
                    a.skip(8)?;
                }
            }
            "NestHost" | "SourceFile" | "Signature" | "ConstantValue" => {
                s.sites.push((a.p, Kind::CpIndex))
            }
            "NestMembers" | "PermittedSubclasses" | "Exceptions" => {
                s.sites.push((a.p, Kind::Count));
                let m = a.u2()?;
                for _ in 0..m {
                    s.sites.push((a.p, Kind::CpIndex));
                    a.skip(2)?;
                }
            }
            "EnclosingMethod" => {
                s.sites.push((a.p, Kind::CpIndex));
                s.sites.push((a.p + 2, Kind::CpIndex));
            }
            "Record" => {
                s.sites.push((a.p, Kind::Count));
                let m = a.u2()?;
                for _ in 0..m {
                    s.sites.push((a.p, Kind::CpIndex));
                    s.sites.push((a.p + 2, Kind::CpIndex));
                    a.skip(4)?;
                    scan_attributes(&mut a, s, name_of)?;
                }
            }
            _ => {}
        }
        c.p = body + len;
        s.attributes.push((start, c.p, count_at, name));
    }
    Some(())
}

/// Instruction length at `pc` (None for an invalid opcode or a truncated switch).
fn insn_len(code: &[u8], pc: usize) -> Option<usize> {
    let op = *code.get(pc)?;
    Some(match op {
        0x10 | 0x12 | 0x15..=0x19 | 0x36..=0x3a | 0xa9 | 0xbc => 2,
        0x11
        | 0x13
        | 0x14
        | 0x84
        | 0x99..=0xa8
        | 0xb2..=0xb8
        | 0xbb
        | 0xbd
        | 0xc0
        | 0xc1
        | 0xc6
        | 0xc7 => 3,
        0xc5 => 4,
        0xb9 | 0xba | 0xc8 | 0xc9 => 5,
        0xc4 => {
            if *code.get(pc + 1)? == 0x84 {
                6
            } else {
                4
            }
        }
        0xaa | 0xab => {
            let p = (pc + 4) & !3;
            let rd = |o: usize| -> Option<i64> {
                let b = code.get(o..o + 4)?;
                Some(i64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])))
            };
            if op == 0xaa {
                let lo = rd(p + 4)?;
                let hi = rd(p + 8)?;
                let n = usize::try_from(hi - lo + 1).ok()?;
                p + 12 + 4 * n - pc
            } else {
                let n = usize::try_from(rd(p + 4)?).ok()?;
                p + 8 + 8 * n - pc
            }
        }
        0..=0xc9 => 1,
        _ => return None,
    })
}

fn scan_code(code: &[u8], base: usize, s: &mut Scan) {
    let mut pc = 0;
    while pc < code.len() {
        let Some(len) = insn_len(code, pc) else {
            return;
        };
        s.sites.push((base + pc, Kind::Opcode));
        let op = code[pc];
        if matches!(
            op,
            0x13 | 0x14 | 0xb2..=0xb8 | 0xbb | 0xbd | 0xc0 | 0xc1 | 0xc5 | 0xb9 | 0xba
        ) {
            s.sites.push((base + pc + 1, Kind::CpIndex));
        } else if op == 0x12 {
            // ldc's u1 index: treat as an operand
            s.sites.push((base + pc + 1, Kind::Operand));
        }
        for k in 1..len.min(12) {
            s.sites.push((base + pc + k, Kind::Operand));
        }
        pc += len;
    }
}

// ---------------------------------------------------------------------------------------------
// Mutations

fn get_u2(b: &[u8], o: usize) -> u16 {
    u16::from_be_bytes([b[o], b[o + 1]])
}
fn put_u2(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_be_bytes());
}

/// Applies one mutation; returns its description.
fn mutate_once(b: &mut Vec<u8>, rng: &mut Rng) -> String {
    let Some(s) = scan(b) else {
        let o = rng.below(b.len());
        b[o] ^= 1 << rng.below(8);
        return format!("flip@{o}");
    };
    let roll = rng.below(100);
    if roll < 4 {
        let o = 8 + rng.below(b.len().saturating_sub(8));
        b.truncate(o);
        return format!("truncate@{o}");
    }
    if roll < 10 && !s.members.is_empty() {
        let &(start, end, count_at) = rng.pick(&s.members);
        let copy = b[start..end].to_vec();
        let at = if rng.chance(50) { end } else { start };
        let n = get_u2(b, count_at).wrapping_add(1);
        put_u2(b, count_at, n);
        b.splice(at..at, copy);
        return format!("dup-member@{start}");
    }
    if roll < 18 && !s.attributes.is_empty() {
        let (start, end, count_at, name) = rng.pick(&s.attributes).clone();
        if rng.chance(25) {
            // duplicate it instead
            let copy = b[start..end].to_vec();
            let n = get_u2(b, count_at).wrapping_add(1);
            put_u2(b, count_at, n);
            b.splice(end..end, copy);
            bump_enclosing_lengths(b, &s, start, (end - start) as i64);
            return format!("dup-attr {name}@{start}");
        }
        let n = get_u2(b, count_at).wrapping_sub(1);
        put_u2(b, count_at, n);
        b.drain(start..end);
        bump_enclosing_lengths(b, &s, start, -((end - start) as i64));
        return format!("remove-attr {name}@{start}");
    }
    if roll < 24 {
        let o = 8 + rng.below(b.len().saturating_sub(8));
        let v = rng.next() as u8;
        b[o] = v;
        return format!("byte@{o}={v}");
    }
    // A field at a parsed position; pick the kind first so that rare kinds get their share.
    let kinds: Vec<Kind> = s
        .sites
        .iter()
        .map(|x| x.1)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let kind = *rng.pick(&kinds);
    let offs: Vec<usize> = s
        .sites
        .iter()
        .filter(|x| x.1 == kind)
        .map(|x| x.0)
        .collect();
    let o = *rng.pick(&offs);
    let cp_count = get_u2(b, 8);
    let u2_sites: Vec<usize> = s
        .sites
        .iter()
        .filter(|x| matches!(x.1, Kind::CpIndex | Kind::BsmArg))
        .map(|x| x.0)
        .collect();
    match kind {
        Kind::Tag => {
            let v = *rng.pick(&[
                1u8, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 20, 0, 2, 13, 21,
            ]);
            b[o] = v;
            format!("tag@{o}={v}")
        }
        Kind::HandleRef => {
            let v = rng.below(11) as u8;
            b[o] = v;
            format!("refkind@{o}={v}")
        }
        Kind::CpIndex | Kind::BsmArg => {
            let old = get_u2(b, o);
            let v = match rng.below(5) {
                0 => old.wrapping_add(1),
                1 => old.wrapping_sub(1),
                2 => rng.below(usize::from(cp_count) + 2) as u16,
                3 => 0,
                _ => get_u2(b, *rng.pick(&u2_sites)),
            };
            put_u2(b, o, v);
            format!("{kind:?}@{o}:{old}->{v}")
        }
        Kind::Flags => {
            let old = get_u2(b, o);
            let v = old ^ (1 << rng.below(16));
            put_u2(b, o, v);
            format!("flags@{o}:{old:#x}->{v:#x}")
        }
        Kind::Minor => {
            let v = *rng.pick(&[0xFFFFu16, 0xFFFF, 1, 3, 0]);
            put_u2(b, o, v);
            format!("minor={v}")
        }
        Kind::Major => {
            let v = *rng.pick(&[
                44u16, 45, 46, 48, 49, 50, 51, 52, 53, 54, 55, 56, 59, 60, 62, 63, 100,
            ]);
            put_u2(b, o, v);
            format!("major={v}")
        }
        Kind::MaxStack | Kind::MaxLocals | Kind::Count | Kind::ExcPc => {
            let old = get_u2(b, o);
            let v = match rng.below(5) {
                0 => old.wrapping_sub(1),
                1 => old.wrapping_add(1),
                2 => old / 2,
                3 => 0,
                _ => old.wrapping_sub(2),
            };
            put_u2(b, o, v);
            format!("{kind:?}@{o}:{old}->{v}")
        }
        Kind::Len4 => {
            let old = u32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
            let v = match rng.below(5) {
                0 => old.wrapping_sub(1),
                1 => old.wrapping_add(1),
                2 => old.wrapping_add(2),
                3 => 0,
                _ => old.wrapping_sub(2),
            };
            b[o..o + 4].copy_from_slice(&v.to_be_bytes());
            format!("len@{o}:{old}->{v}")
        }
        Kind::Opcode => {
            let old = b[o];
            let v = if rng.chance(70) {
                // a neighbour: often the same shape with another type
                old.wrapping_add(rng.below(9) as u8).wrapping_sub(4)
            } else {
                rng.next() as u8
            };
            b[o] = v;
            format!("opcode@{o}:{old:#x}->{v:#x}")
        }
        Kind::Operand | Kind::StackMap => {
            let old = b[o];
            let v = match rng.below(4) {
                0 => old.wrapping_add(1),
                1 => old.wrapping_sub(1),
                2 => old ^ (1 << rng.below(8)),
                _ => rng.next() as u8,
            };
            b[o] = v;
            format!("{kind:?}@{o}:{old}->{v}")
        }
        Kind::Utf8 => {
            let old = b[o];
            let v = *rng.pick(b"IJFDZBCSV[L;/()<>.$a");
            b[o] = v;
            format!("utf8@{o}:{}->{}", old as char, v as char)
        }
    }
}

/// After inserting or removing `delta` bytes at `at`, fixes the u4 lengths of the attributes
/// that enclose `at` (a Code attribute around a removed StackMapTable).
fn bump_enclosing_lengths(b: &mut [u8], s: &Scan, at: usize, delta: i64) {
    for (start, end, _, _) in &s.attributes {
        if *start < at && at < *end {
            let o = start + 2;
            let old = u32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
            let v = (i64::from(old) + delta) as u32;
            b[o..o + 4].copy_from_slice(&v.to_be_bytes());
        }
    }
}

fn mutate(orig: &[u8], rng: &mut Rng) -> (Vec<u8>, String) {
    let mut b = orig.to_vec();
    let n = if rng.chance(80) { 1 } else { 2 + rng.below(2) };
    let mut what = Vec::new();
    for _ in 0..n {
        if b.len() <= 8 {
            break;
        }
        what.push(mutate_once(&mut b, rng));
    }
    (b, what.join(" "))
}

// ---------------------------------------------------------------------------------------------
// Running

struct Mutant {
    id: String,
    main: String,
    class: String,
    file: PathBuf,
    what: String,
}

/// Runs the harness over all mutants in `vm`, restarting it after a timeout or a crash.
fn run_harness(
    vm: &[String],
    harness_dir: &Path,
    manifest: &Path,
    classes: &Path,
    count: usize,
) -> Vec<String> {
    let mut out: Vec<Option<String>> = vec![None; count];
    let mut first = 0;
    while first < count {
        let mut cmd = Command::new(&vm[0]);
        cmd.args(&vm[1..])
            .arg("-cp")
            .arg(harness_dir)
            .arg("Harness")
            .arg(manifest)
            .arg(classes)
            .arg(first.to_string())
            .arg(MUTANT_TIMEOUT_MS.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().expect("start the harness");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut hung = false;
        loop {
            match rx.recv_timeout(Duration::from_millis(MUTANT_TIMEOUT_MS + 20_000)) {
                Ok(line) => {
                    let mut parts = line.splitn(3, ' ');
                    if parts.next() == Some("R") {
                        let i: usize = parts.next().unwrap().parse().unwrap();
                        out[i] = Some(parts.next().unwrap_or("").to_string());
                        first = i + 1;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    hung = true;
                    let _ = child.kill();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let status = child.wait().unwrap();
        let _ = reader.join();
        if first < count && out[first].is_none() {
            // The VM died (or hung) on mutant `first`.
            out[first] = Some(if hung {
                "HANG".to_string()
            } else {
                format!("CRASH:{status}")
            });
            first += 1;
        }
    }
    out.into_iter().map(|o| o.unwrap()).collect()
}

/// Runs every mutant for real on both VMs (`jobs` mutants at a time): the mutated class alone
/// in a directory put first on the class path, the program's other classes after it.
fn run_real(
    java: &[String],
    jxvm: &[String],
    mutants: &[Mutant],
    classes: &Path,
    work: &Path,
    jobs: usize,
) -> (Vec<String>, Vec<String>) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![(String::new(), String::new()); mutants.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(m) = mutants.get(i) else { break };
                    let dir = work.join(format!("r{i}"));
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::copy(&m.file, dir.join(format!("{}.class", m.class))).unwrap();
                    let cp = std::env::join_paths([&dir, classes]).unwrap();
                    let h = real_outcome(java, Path::new(&cp), &m.main);
                    let j = real_outcome(jxvm, Path::new(&cp), &m.main);
                    let _ = std::fs::remove_dir_all(&dir);
                    results.lock().unwrap()[i] = (h, j);
                }
            });
        }
    });
    results.into_inner().unwrap().into_iter().unzip()
}

/// A real run's outcome in the harness's terms ("CRASH" for a panic or a fatal signal).
fn real_outcome(vm: &[String], cp: &Path, main: &str) -> String {
    let mut cmd = Command::new("timeout");
    cmd.arg("-s")
        .arg("KILL")
        .arg(format!("{}", MUTANT_TIMEOUT_MS / 1000 + 7));
    cmd.args(vm)
        .arg("-cp")
        .arg(cp)
        .arg(main)
        .stdin(Stdio::null());
    let o = cmd.output().unwrap();
    let code = o.status.code();
    let err = String::from_utf8_lossy(&o.stderr);
    if err.contains("panicked at") || code.is_some_and(|c| c > 128 && c != 137) {
        return format!("CRASH:{code:?}");
    }
    if code == Some(0) {
        return format!("OK:{}", fnv(&o.stdout));
    }
    if code == Some(137) || code.is_none() {
        return "TIMEOUT".to_string();
    }
    if err.starts_with("Error: Main method not found")
        || err.starts_with("Error: Main method is not static")
    {
        return "NOMAIN".to_string();
    }
    // The first Throwable class named in the first lines of stderr.
    for line in err.lines().take(3) {
        for word in line.split(|c: char| c.is_whitespace() || c == ':') {
            let w = word.trim_end_matches('"');
            if (w.ends_with("Error") || w.ends_with("Exception")) && w.contains('.') {
                return format!("EXC:{w}");
            }
        }
    }
    format!(
        "EXIT{}:{}",
        code.unwrap_or(-1),
        err.lines().next().unwrap_or("")
    )
}

fn fnv(b: &[u8]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &x in b {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:x}")
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The name a class file gives itself, and its SourceFile (None if unparsable).
fn class_and_source(b: &[u8]) -> Option<(String, String)> {
    let mut c = Cur { b, p: 8 };
    let n = c.u2()?;
    let mut utf8 = BTreeMap::new();
    let mut classes = BTreeMap::new();
    let mut i = 1;
    while i < n {
        let tag = c.u1()?;
        match tag {
            1 => {
                let l = usize::from(c.u2()?);
                utf8.insert(
                    i,
                    String::from_utf8_lossy(b.get(c.p..c.p + l)?).into_owned(),
                );
                c.skip(l)?;
            }
            7 => {
                classes.insert(i, c.u2()?);
            }
            3 | 4 => c.skip(4)?,
            5 | 6 => {
                c.skip(8)?;
                i += 1;
            }
            8 | 16 | 19 | 20 => c.skip(2)?,
            15 => c.skip(3)?,
            _ => c.skip(4)?,
        }
        i += 1;
    }
    c.skip(2)?;
    let this = c.u2()?;
    let name = utf8.get(classes.get(&this)?)?.clone();
    let s = scan(b)?;
    for (start, _, _, aname) in &s.attributes {
        if aname == "SourceFile" {
            let idx = get_u2(b, start + 6);
            return Some((name, utf8.get(&idx)?.clone()));
        }
    }
    None
}

#[test]
fn mutants_agree_with_hotspot() {
    if !Command::new("javac")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("SKIP: no JDK");
        return;
    }
    let started = Instant::now();
    let count = env_num("JXVM_MUTANTS", 400) as usize;
    let seed = env_num("JXVM_MUTANTS_SEED", 1);
    let real = env_num("JXVM_MUTANTS_REAL", 40) as usize;
    let strict = env_num("JXVM_MUTANTS_STRICT", 1) != 0;
    let root = common::repo();
    let work = common::scratch("mutants");
    let classes = work.join("classes");
    let harness = work.join("harness");
    let mdir = work.join("m");
    std::fs::create_dir_all(&mdir).unwrap();
    let ok = Command::new("javac")
        .args(["--release", "17", "-nowarn", "-d"])
        .arg(&classes)
        .args(
            PROGRAMS
                .iter()
                .map(|p| root.join("tests/java").join(format!("{p}.java"))),
        )
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(ok.success(), "javac failed");
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&harness)
        .arg(root.join("tests/mutants/Harness.java"))
        .status()
        .unwrap();
    assert!(ok.success(), "javac failed for the harness");

    // The classes of each program, by their SourceFile.
    let mut by_program: BTreeMap<String, Vec<(String, Vec<u8>)>> = BTreeMap::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&classes)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let b = std::fs::read(&f).unwrap();
        let (name, source) = class_and_source(&b).expect("scan a javac class file");
        let program = source.trim_end_matches(".java").to_string();
        by_program.entry(program).or_default().push((name, b));
    }

    // The regression mutants first, then the seeded ones.
    let mut mutants = Vec::new();
    let regress = root.join("tests/mutants/regress");
    if let Ok(dir) = std::fs::read_dir(&regress) {
        let mut files: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            // NAME = Main.Class.anything.class
            let n = f.file_name().unwrap().to_string_lossy().into_owned();
            let parts: Vec<&str> = n.split('.').collect();
            if parts.len() < 3 || !n.ends_with(".class") {
                continue;
            }
            let file = mdir.join(&n);
            std::fs::copy(&f, &file).unwrap();
            mutants.push(Mutant {
                id: format!("regress/{n}"),
                main: parts[0].to_string(),
                class: parts[1].to_string(),
                file,
                what: "regression".to_string(),
            });
        }
    }
    let programs: Vec<&String> = by_program
        .keys()
        .filter(|p| PROGRAMS.contains(&p.as_str()))
        .collect();
    // JXVM_MUTANTS_IDS=i,j,..: only these mutants of the seed (to re-check disagreements).
    let only: Option<BTreeSet<usize>> = std::env::var("JXVM_MUTANTS_IDS").ok().map(|v| {
        v.split([',', ' ', '\n'])
            .filter_map(|x| x.trim().parse().ok())
            .collect()
    });
    for i in 0..count {
        if only.as_ref().is_some_and(|o| !o.contains(&i)) {
            continue;
        }
        let mut rng = Rng::new(seed.wrapping_mul(0x1_0000_0001).wrapping_add(i as u64));
        let program = (*rng.pick(&programs)).clone();
        let group = &by_program[&program];
        let (class, orig) = if rng.chance(50) {
            group
                .iter()
                .find(|(n, _)| *n == program)
                .unwrap_or(&group[0])
        } else {
            rng.pick(group)
        };
        let (bytes, what) = mutate(orig, &mut rng);
        let file = mdir.join(format!("{i}.class"));
        std::fs::write(&file, &bytes).unwrap();
        mutants.push(Mutant {
            id: format!("{seed}:{i}"),
            main: program,
            class: class.clone(),
            file,
            what,
        });
    }
    let manifest = work.join("manifest");
    let text: String = mutants
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{i} {} {} {}\n", m.main, m.class, m.file.display()))
        .collect();
    std::fs::write(&manifest, text).unwrap();

    let java: Vec<String> = [
        "java",
        "-Xshare:auto",
        "-XX:TieredStopAtLevel=1",
        "-Xmx256m",
        "-Xss1m",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let jxvm: Vec<String> = vec![
        // JXVM_MUTANTS_JXVM=path compares another jxvm binary (an older build, for a
        // before/after on the same mutants).
        std::env::var("JXVM_MUTANTS_JXVM")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_jxvm").to_string()),
        "-Xmx256m".to_string(),
    ];
    let n = mutants.len();
    let harness_mode = std::env::var("JXVM_MUTANTS_MODE").is_ok_and(|m| m == "harness");
    let jobs = env_num("JXVM_MUTANTS_JOBS", 2).max(1) as usize;
    let (hs, jx) = if harness_mode {
        std::thread::scope(|s| {
            let a = s.spawn(|| run_harness(&java, &harness, &manifest, &classes, n));
            let b = s.spawn(|| run_harness(&jxvm, &harness, &manifest, &classes, n));
            (a.join().unwrap(), b.join().unwrap())
        })
    } else {
        run_real(&java, &jxvm, &mutants, &classes, &work, jobs)
    };
    let harness_time = started.elapsed();

    let known: BTreeSet<String> = std::fs::read_to_string(root.join("tests/mutants/KNOWN"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let keep = std::env::var("JXVM_MUTANTS_KEEP").ok().map(PathBuf::from);
    let mut agree = 0;
    let mut failures = Vec::new();
    let mut crashes = Vec::new();
    let mut table: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, m) in mutants.iter().enumerate() {
        let same = hs[i] == jx[i];
        if same {
            agree += 1;
            continue;
        }
        *table.entry((short(&hs[i]), short(&jx[i]))).or_default() += 1;
        let line = format!(
            "{} {}/{} [{}]: java {} jxvm {}",
            m.id, m.main, m.class, m.what, hs[i], jx[i]
        );
        eprintln!("DISAGREE {line}");
        if jx[i].starts_with("CRASH")
            || jx[i] == "HANG"
            || (jx[i] == "TIMEOUT" && hs[i] != "TIMEOUT")
        {
            crashes.push(line.clone());
        }
        if !known.contains(&m.id) {
            failures.push(line);
        }
        if let Some(dir) = &keep {
            std::fs::create_dir_all(dir).unwrap();
            let name = format!(
                "{}.{}.{}.class",
                m.main,
                m.class,
                m.id.replace(['/', ':'], "_")
            );
            std::fs::copy(&m.file, dir.join(name)).unwrap();
        }
    }
    for ((h, j), k) in &table {
        eprintln!("  {k:5}  java {h:40} jxvm {j}");
    }
    let pct = 100.0 * agree as f64 / n as f64;
    eprintln!(
        "mutants: {agree}/{n} agree ({pct:.2}%), seed {seed}, harness {:.1}s",
        harness_time.as_secs_f64()
    );

    // The harness against real runs, on a sample: a disagreement here means the harness is not
    // faithful, not that jxvm is wrong.
    let mut unfaithful = Vec::new();
    let sample: Vec<usize> = if harness_mode {
        (0..n)
            .filter(|&i| !mutants[i].id.starts_with("regress/"))
            .take(real)
            .collect()
    } else {
        Vec::new()
    };
    for &i in &sample {
        let m = &mutants[i];
        let dir = work.join(format!("real{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in by_program.values().flatten() {
            std::fs::write(dir.join(format!("{name}.class")), bytes).unwrap();
        }
        std::fs::copy(&m.file, dir.join(format!("{}.class", m.class))).unwrap();
        let rh = real_outcome(&java, &dir, &m.main);
        let rj = real_outcome(&jxvm, &dir, &m.main);
        let _ = std::fs::remove_dir_all(&dir);
        if (rh == rj) != (hs[i] == jx[i]) {
            unfaithful.push(format!(
                "{}: harness java {} jxvm {}, real java {rh} jxvm {rj}",
                m.id, hs[i], jx[i]
            ));
        }
    }
    for u in &unfaithful {
        eprintln!("HARNESS-VS-REAL {u}");
    }
    eprintln!(
        "real runs: {} mutants, {} differ from the harness; total {:.1}s",
        sample.len(),
        unfaithful.len(),
        started.elapsed().as_secs_f64()
    );
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&work);
    } else {
        eprintln!("work directory kept: {}", work.display());
    }
    assert!(
        crashes.is_empty(),
        "jxvm crashed or hung on {} mutants:\n{}",
        crashes.len(),
        crashes.join("\n")
    );
    if strict {
        assert!(
            failures.is_empty(),
            "{} mutants disagree with HotSpot (not in tests/mutants/KNOWN):\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

fn short(s: &str) -> String {
    if s.starts_with("OK:") {
        "OK".to_string()
    } else {
        s.to_string()
    }
}
