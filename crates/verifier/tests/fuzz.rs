//! Fuzz target for the verifier: mutants of real javac output, parsed by
//! `ClassFile::parse` and checked by `verify_class`. Every mutant that parses must verify or
//! be refused with a `VerifyError`; a panic is a bug (bad bytecode is an error, never a
//! crash).
//!
//! The seeds, `tests/fuzz-seeds/*.bin`, are the class files `javac --release 17 -g:none`
//! makes of the source in `tests/javac.rs` (named `.bin` because `.gitignore` ignores
//! `*.class`; `$` written `_`). The mutator knows where each method's Code attribute lies in
//! the bytes and aims most mutations at it: opcodes, operands, `max_stack`/`max_locals`,
//! exception-table entries, the StackMapTable's bytes, and bytes inserted into or removed
//! from the code (lengths fixed up); the rest hit the class version
//! (to reach the pre-50 and version-50 paths) or any byte of the file. 200,000 mutants run
//! (xorshift, fixed seed), plus every file of `tests/fuzz-regress/` (inputs that once made the
//! verifier panic).

use std::path::Path;

use classfile::ClassFile;
use verifier::arbitrary::ArbitraryHierarchy;
use verifier::verify_class;

use testkit::Rng;

/// Where the parts of one Code attribute lie in a class file's bytes.
struct CodeAt {
    /// `max_stack` (then `max_locals` at +2).
    limits: usize,
    code: std::ops::Range<usize>,
    /// The exception table's entries (8 bytes each).
    handlers: std::ops::Range<usize>,
    /// The StackMapTable attribute's payload, if any.
    stack_map: Option<std::ops::Range<usize>>,
}

/// Big-endian reads that give up (None) past the end.
fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}
fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

/// Finds the Code attributes of a valid class file (`cf` is its parse, for attribute names).
/// Only the seeds are walked, so a short walk of the format is enough.
fn code_attributes(b: &[u8], cf: &ClassFile) -> Option<Vec<CodeAt>> {
    let mut at = 10;
    let mut i = 1;
    while i < u16_at(b, 8)? {
        let tag = *b.get(at)?;
        at += 1 + match tag {
            1 => 2 + u16_at(b, at + 1)?,
            7 | 8 | 16 | 19 | 20 => 2,
            15 => 3,
            5 | 6 => 8,
            _ => 4,
        };
        i += if matches!(tag, 5 | 6) { 2 } else { 1 };
    }
    at += 6;
    at += 2 + 2 * u16_at(b, at)?;
    let mut out = Vec::new();
    // Fields, then methods: the same shape; attributes named `Code` only occur in methods.
    for _ in 0..2 {
        let members = u16_at(b, at)?;
        at += 2;
        for _ in 0..members {
            let attributes = u16_at(b, at + 6)?;
            at += 8;
            for _ in 0..attributes {
                let name = cf.constant_pool.utf8(u16_at(b, at)? as u16);
                let len = u32_at(b, at + 2)?;
                if name == Some("Code") {
                    out.push(code_at(b, cf, at + 6)?);
                }
                at += 6 + len;
            }
        }
    }
    Some(out)
}

fn code_at(b: &[u8], cf: &ClassFile, start: usize) -> Option<CodeAt> {
    let code_len = u32_at(b, start + 4)?;
    let code = start + 8..start + 8 + code_len;
    let table = code.end;
    let handlers = table + 2..table + 2 + 8 * u16_at(b, table)?;
    let mut at = handlers.end + 2;
    let mut stack_map = None;
    for _ in 0..u16_at(b, handlers.end)? {
        let len = u32_at(b, at + 2)?;
        if cf.constant_pool.utf8(u16_at(b, at)? as u16) == Some("StackMapTable") {
            stack_map = Some(at + 6..at + 6 + len);
        }
        at += 6 + len;
    }
    Some(CodeAt {
        limits: start,
        code,
        handlers,
        stack_map,
    })
}

/// Writes a big-endian u16 at `at` if it fits.
fn put_u16(b: &mut [u8], at: usize, v: u16) {
    if let Some(s) = b.get_mut(at..at + 2) {
        s.copy_from_slice(&v.to_be_bytes());
    }
}

/// A boundary or small u16: the values that hit limits (0, 1, the top) or stay plausible.
fn value16(rng: &mut Rng, near: usize) -> u16 {
    match rng.below(6) {
        0 => 0,
        1 => 0xFFFF,
        2 => rng.below(8) as u16,
        3 => (near as u16)
            .wrapping_add(rng.below(5) as u16)
            .wrapping_sub(2),
        4 => 0x8000,
        _ => rng.next_u64() as u16,
    }
}

/// One to three mutations of `class` (the bytes of a seed whose Code attributes are `codes`).
fn mutate(rng: &mut Rng, class: &mut Vec<u8>, codes: &[CodeAt]) {
    for _ in 0..1 + rng.below(3) {
        let len = class.len();
        let Some(c) = codes.get(rng.below(codes.len())) else {
            return;
        };
        let code_len = c.code.len();
        match rng.below(11) {
            // An opcode (or any byte) of the code replaced: most often a valid opcode.
            0 | 1 => {
                let at = c.code.start + rng.below(code_len);
                class[at] = if rng.below(4) == 0 {
                    rng.next_u64() as u8
                } else {
                    rng.below(202) as u8
                };
            }
            // An operand: a u16 anywhere in the code (branch offsets, constant-pool and
            // local indices, switch bounds).
            2 | 3 => {
                let at = c.code.start + rng.below(code_len);
                let v = value16(rng, code_len);
                if at + 2 <= c.code.end {
                    put_u16(class, at, v);
                }
            }
            4 => {
                let at = c.limits + 2 * rng.below(2);
                let old = u16_at(class, at).unwrap_or(0);
                put_u16(class, at, value16(rng, old));
            }
            5 if !c.handlers.is_empty() => {
                let at = c.handlers.start + 2 * rng.below(c.handlers.len() / 2);
                put_u16(class, at, value16(rng, code_len));
            }
            6 | 7 => {
                if let Some(map) = c.stack_map.clone().filter(|m| !m.is_empty()) {
                    let at = map.start + rng.below(map.len());
                    if rng.below(2) == 0 {
                        class[at] = rng.next_u64() as u8;
                    } else if at + 2 <= map.end {
                        let v = value16(rng, code_len);
                        put_u16(class, at, v);
                    }
                }
            }
            // The major version: pre-50 files get static checks only, 50 fails over.
            8 => {
                let v = [45, 49, 50, 51, 52, 61][rng.below(6)];
                put_u16(class, 6, v);
            }
            // Bytes inserted into or removed from the code, its lengths fixed up: shifts
            // instruction boundaries and switch padding. The ranges after it are stale now,
            // so it is the last mutation.
            9 => {
                let at = c.code.start + rng.below(code_len);
                let n = 1 + rng.below(6);
                let new_len = if rng.below(2) == 0 {
                    let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                    class.splice(at..at, bytes);
                    code_len + n
                } else {
                    let end = (at + n).min(c.code.end);
                    class.drain(at..end);
                    code_len - (end - at)
                };
                let attribute_len = u32_at(class, c.limits - 4).unwrap() + new_len - code_len;
                class[c.limits - 4..c.limits]
                    .copy_from_slice(&(attribute_len as u32).to_be_bytes());
                class[c.limits + 4..c.limits + 8].copy_from_slice(&(new_len as u32).to_be_bytes());
                return;
            }
            _ => {
                let at = rng.below(len);
                class[at] ^= 1 << rng.below(8);
            }
        }
    }
}

fn read_dir(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    // A missing directory holds no inputs (no regression has been found yet).
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

fn hierarchy(classes: &[ClassFile]) -> ArbitraryHierarchy {
    ArbitraryHierarchy::of(&classes.iter().collect::<Vec<_>>())
}

/// Parses and verifies one input; only a panic fails (through the test harness).
fn run(bytes: &[u8], h: &ArbitraryHierarchy) -> Option<bool> {
    let cf = ClassFile::parse(bytes).ok()?;
    Some(verify_class(&cf, h).is_ok())
}

/// How many mutants the fuzz test runs (about 4.5 s in release mode on two cores).
const INPUTS: usize = 200_000;

#[test]
fn fuzz_verify_mutated_javac_classes() {
    let seeds = read_dir("tests/fuzz-seeds");
    let parsed: Vec<ClassFile> = seeds
        .iter()
        .map(|(name, b)| ClassFile::parse(b).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    let h = hierarchy(&parsed);
    let codes: Vec<Vec<CodeAt>> = seeds
        .iter()
        .zip(&parsed)
        .map(|((name, b), cf)| code_attributes(b, cf).unwrap_or_else(|| panic!("{name}")))
        .collect();
    for ((name, _), (cf, codes)) in seeds.iter().zip(parsed.iter().zip(&codes)) {
        let methods = cf.methods.iter().filter(|m| m.code.is_some()).count();
        assert_eq!(codes.len(), methods, "{name}: the walker finds every Code");
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut verified, mut refused, mut unparsed) = (0, 0, 0);
    for i in 0..INPUTS {
        // Every seed gets the same share, whatever its size.
        let k = i % seeds.len();
        let mut class = seeds[k].1.clone();
        mutate(&mut rng, &mut class, &codes[k]);
        // A panic keeps its input, to be added to tests/fuzz-regress/.
        let outcome = std::panic::catch_unwind(|| run(&class, &h)).unwrap_or_else(|_| {
            let path = std::env::temp_dir().join(format!("verifier-fuzz-{i}.bin"));
            std::fs::write(&path, &class).unwrap();
            panic!(
                "mutant {i} of {} panicked: saved as {}",
                seeds[k].0,
                path.display()
            )
        });
        match outcome {
            Some(true) => verified += 1,
            Some(false) => refused += 1,
            None => unparsed += 1,
        }
    }
    eprintln!("verifier fuzz: {verified} verified, {refused} refused, {unparsed} did not parse");
    // Most mutants must reach the verifier, and it must refuse many.
    assert!(refused > INPUTS / 3 && unparsed < INPUTS / 3);
}

#[test]
fn fuzz_regressions_do_not_panic() {
    let seeds: Vec<ClassFile> = read_dir("tests/fuzz-seeds")
        .iter()
        .map(|(_, b)| ClassFile::parse(b).unwrap())
        .collect();
    let h = hierarchy(&seeds);
    for (_, bytes) in read_dir("tests/fuzz-regress") {
        run(&bytes, &h);
    }
}
