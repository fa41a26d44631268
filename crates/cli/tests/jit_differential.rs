//! The compiler's differential fuzzer: random Java programs (arithmetic of every primitive
//! type, loops, branches, switches, array accesses, exceptions caught where they are thrown,
//! calls, objects made and read through the small constructors, getters and setters the
//! compiler inlines, null receivers among them), compiled by javac and run on HotSpot, on jxvm's interpreter (`-Xint`), with every
//! method compiled before it runs (`-Xcomp`), and in the default mixed mode with a low
//! threshold (methods compiled mid-run, loops entered by on-stack replacement). Every run must
//! print what HotSpot prints. A bounded round of fixed seeds runs in the tests; a failure
//! keeps its program (the path is in the message). `JIT_FUZZ_SEEDS=a,b,...` runs other seeds.

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use testkit::Rng;

/// The seeds of the bounded round, kept so a failure found once is found again.
const SEEDS: &[u64] = &[
    0x1f2e3d4c,
    0x5eed_0001,
    0x5eed_0002,
    0xdead_beef,
    0x0bad_cafe,
    0x7777_1234,
];

const METHODS: usize = 12;
const ROUNDS: usize = 240;

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Int,
    Long,
    Float,
    Double,
}

const INT_VARS: &[&str] = &["i0", "i1", "i2"];
const LONG_VARS: &[&str] = &["l0", "l1"];
const FLOAT_VARS: &[&str] = &["f0"];
const DOUBLE_VARS: &[&str] = &["d0", "d1"];

struct Gen {
    rng: Rng,
    out: String,
    /// Loop variables in scope (ints, read-only).
    loop_vars: Vec<String>,
    next_loop: usize,
}

impl Gen {
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.rng.below(xs.len())]
    }

    fn int_const(&mut self) -> String {
        const EDGES: &[&str] = &[
            "0",
            "1",
            "-1",
            "7",
            "31",
            "32",
            "33",
            "Integer.MIN_VALUE",
            "Integer.MAX_VALUE",
            "0x5bd1e995",
        ];
        if self.rng.below(3) == 0 {
            self.pick(EDGES).to_string()
        } else {
            (self.rng.below(2001) as i64 - 1000).to_string()
        }
    }

    fn expr(&mut self, ty: Ty, depth: usize) -> String {
        if depth == 0 || self.rng.below(4) == 0 {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Ty::Int => match self.rng.below(12) {
                0 => format!("({} + {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} - {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("({} * {})", self.expr(ty, d), self.expr(ty, d)),
                3 => format!("({} / ({} | 1))", self.expr(ty, d), self.expr(ty, d)),
                4 => format!("({} % ({} | 1))", self.expr(ty, d), self.expr(ty, d)),
                5 => {
                    let op = self.pick(&["<<", ">>", ">>>"]);
                    format!("({} {op} {})", self.expr(ty, d), self.expr(ty, d))
                }
                6 => {
                    let op = self.pick(&["&", "|", "^"]);
                    format!("({} {op} {})", self.expr(ty, d), self.expr(ty, d))
                }
                7 => format!("((int) {})", self.expr(Ty::Long, d)),
                8 => {
                    let from = if self.rng.below(2) == 0 {
                        Ty::Double
                    } else {
                        Ty::Float
                    };
                    format!("((int) {})", self.expr(from, d))
                }
                9 => format!(
                    "({} ? {} : {})",
                    self.cond(d),
                    self.expr(ty, d),
                    self.expr(ty, d)
                ),
                10 => format!("arr[({}) & 15]", self.expr(ty, d)),
                _ => {
                    let cast = self.pick(&["(byte)", "(short)", "(char)"]);
                    format!("({cast} {})", self.expr(ty, d))
                }
            },
            Ty::Long => match self.rng.below(9) {
                0 => format!("({} + {})", self.expr(ty, d), self.expr(ty, d)),
                1 => format!("({} - {})", self.expr(ty, d), self.expr(ty, d)),
                2 => format!("({} * {})", self.expr(ty, d), self.expr(ty, d)),
                3 => format!("({} / ({} | 1L))", self.expr(ty, d), self.expr(ty, d)),
                4 => format!("({} % ({} | 1L))", self.expr(ty, d), self.expr(ty, d)),
                5 => {
                    let op = self.pick(&["<<", ">>", ">>>"]);
                    format!("({} {op} {})", self.expr(ty, d), self.expr(Ty::Int, d))
                }
                6 => {
                    let op = self.pick(&["&", "|", "^"]);
                    format!("({} {op} {})", self.expr(ty, d), self.expr(ty, d))
                }
                7 => format!("((long) {})", self.expr(Ty::Int, d)),
                _ => format!("((long) {})", self.expr(Ty::Double, d)),
            },
            Ty::Float | Ty::Double => {
                let suffix = if ty == Ty::Float { "f" } else { "" };
                match self.rng.below(8) {
                    0 => format!("({} + {})", self.expr(ty, d), self.expr(ty, d)),
                    1 => format!("({} - {})", self.expr(ty, d), self.expr(ty, d)),
                    2 => format!("({} * {})", self.expr(ty, d), self.expr(ty, d)),
                    3 => format!("({} / {})", self.expr(ty, d), self.expr(ty, d)),
                    4 => format!("({} % {})", self.expr(ty, d), self.expr(ty, d)),
                    5 => format!("(- {})", self.expr(ty, d)),
                    6 if ty == Ty::Double => {
                        format!("Math.sqrt(Math.abs({}))", self.expr(ty, d))
                    }
                    6 => format!("((float) {})", self.expr(Ty::Double, d)),
                    _ => {
                        let name = if ty == Ty::Float { "float" } else { "double" };
                        let from = self.pick(&["i", "l"]);
                        let e = if from == "i" {
                            self.expr(Ty::Int, d)
                        } else {
                            self.expr(Ty::Long, d)
                        };
                        format!("(({name}) {e} * 0.5{suffix})")
                    }
                }
            }
        }
    }

    fn leaf(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => {
                if !self.loop_vars.is_empty() && self.rng.below(3) == 0 {
                    let i = self.rng.below(self.loop_vars.len());
                    return self.loop_vars[i].clone();
                }
                if self.rng.below(3) == 0 {
                    self.int_const()
                } else {
                    self.pick(INT_VARS).to_string()
                }
            }
            Ty::Long => {
                if self.rng.below(4) == 0 {
                    let c = self.int_const();
                    match c.strip_prefix("Integer.") {
                        Some(name) => format!("Long.{name}"),
                        None => format!("{c}L"),
                    }
                } else {
                    self.pick(LONG_VARS).to_string()
                }
            }
            Ty::Float => {
                const F: &[&str] = &["f0", "0.5f", "-3.25f", "1e30f", "Float.NaN", "-0.0f"];
                self.pick(F).to_string()
            }
            Ty::Double => {
                const D: &[&str] = &[
                    "d0",
                    "d1",
                    "0.1",
                    "-7.5",
                    "1e300",
                    "Double.NaN",
                    "Double.POSITIVE_INFINITY",
                ];
                self.pick(D).to_string()
            }
        }
    }

    fn cond(&mut self, depth: usize) -> String {
        match self.rng.below(5) {
            0 => format!(
                "({} < {})",
                self.expr(Ty::Int, depth),
                self.expr(Ty::Int, depth)
            ),
            1 => format!(
                "({} == {})",
                self.expr(Ty::Long, depth),
                self.expr(Ty::Long, depth)
            ),
            2 => {
                let op = self.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!(
                    "({} {op} {})",
                    self.expr(Ty::Double, depth),
                    self.expr(Ty::Double, depth)
                )
            }
            3 => {
                let op = self.pick(&["<", ">="]);
                format!(
                    "({} {op} {})",
                    self.expr(Ty::Float, depth),
                    self.expr(Ty::Float, depth)
                )
            }
            _ => format!("(({} & 3) != 0)", self.expr(Ty::Int, depth)),
        }
    }

    fn line(&mut self, indent: usize, s: &str) {
        let _ = writeln!(self.out, "{}{}", "    ".repeat(indent), s);
    }

    fn stmt(&mut self, indent: usize, nest: usize) {
        // Kind 11 (objects) is drawn at every depth, in place of 7 where loops cannot nest.
        let choice = match self.rng.below(if nest == 0 { 8 } else { 12 }) {
            7 if nest == 0 => 11,
            c => c,
        };
        match choice {
            0 | 1 => {
                let (vars, ty) = match self.rng.below(4) {
                    0 => (INT_VARS, Ty::Int),
                    1 => (LONG_VARS, Ty::Long),
                    2 => (FLOAT_VARS, Ty::Float),
                    _ => (DOUBLE_VARS, Ty::Double),
                };
                let v = self.pick(vars);
                let e = self.expr(ty, 3);
                self.line(indent, &format!("{v} = {e};"));
            }
            2 | 3 => {
                let e = if self.rng.below(2) == 0 {
                    self.expr(Ty::Int, 3)
                } else {
                    self.expr(Ty::Long, 3)
                };
                self.line(indent, &format!("h = h * 31 + {e};"));
            }
            4 => {
                let (i, e) = (self.expr(Ty::Int, 2), self.expr(Ty::Int, 2));
                self.line(indent, &format!("arr[({i}) & 15] = {e};"));
            }
            5 => {
                let (i, e) = (self.expr(Ty::Int, 2), self.expr(Ty::Int, 2));
                let (a, b) = (self.expr(Ty::Int, 2), self.expr(Ty::Int, 2));
                self.line(indent, "try {");
                self.line(indent + 1, &format!("arr[{i}] = {e};"));
                self.line(indent + 1, &format!("i2 = {a} / {b};"));
                self.line(
                    indent,
                    "} catch (ArithmeticException | ArrayIndexOutOfBoundsException e) {",
                );
                self.line(indent + 1, "h += e.getClass().getName().length();");
                self.line(indent, "}");
            }
            6 => {
                let e = self.expr(Ty::Double, 2);
                self.line(
                    indent,
                    &format!(
                        "h = h * 31 + Double.doubleToLongBits({e}) + Float.floatToIntBits(f0);"
                    ),
                );
            }
            7 | 8 => {
                let n = self.next_loop;
                self.next_loop += 1;
                let count = 1 + self.rng.below(12);
                self.line(
                    indent,
                    &format!("for (int j{n} = 0; j{n} < {count}; j{n}++) {{"),
                );
                self.loop_vars.push(format!("j{n}"));
                for _ in 0..1 + self.rng.below(3) {
                    self.stmt(indent + 1, nest - 1);
                }
                self.loop_vars.pop();
                self.line(indent, "}");
            }
            9 => {
                let c = self.cond(2);
                self.line(indent, &format!("if {c} {{"));
                self.stmt(indent + 1, nest - 1);
                self.line(indent, "} else {");
                self.stmt(indent + 1, nest - 1);
                self.line(indent, "}");
            }
            11 => self.cell_stmt(indent),
            _ => {
                let k = self.expr(Ty::Int, 2);
                self.line(indent, &format!("switch ({k} & 7) {{"));
                for case in [0, 3, 5] {
                    self.line(indent + 1, &format!("case {case}:"));
                    self.stmt(indent + 2, nest - 1);
                    if self.rng.below(3) != 0 {
                        self.line(indent + 2, "break;");
                    }
                }
                self.line(indent + 1, "case -100000:");
                self.line(indent + 2, "h ^= 5;");
                self.line(indent + 1, "default:");
                self.line(indent + 2, "h += 3;");
                self.line(indent, "}");
            }
        }
    }

    /// A `Cell` made, changed and read through its inlined constructor, setters and getters,
    /// and a read through a receiver that may be null.
    fn cell_stmt(&mut self, indent: usize) {
        let n = self.next_loop;
        self.next_loop += 1;
        let (a, b, c) = (
            self.expr(Ty::Int, 2),
            self.expr(Ty::Long, 2),
            self.expr(Ty::Double, 2),
        );
        let (nb, z) = (self.expr(Ty::Long, 2), self.expr(Ty::Int, 2));
        self.line(indent, "{");
        self.line(indent + 1, &format!("Cell c{n} = new Cell({a}, {b}, {c});"));
        self.line(indent + 1, &format!("c{n}.setB(c{n}.b() * 3 + {nb});"));
        self.line(indent + 1, &format!("c{n}.setNext(c{n});"));
        self.line(
            indent + 1,
            &format!(
                "h = h * 31 + c{n}.a() + c{n}.b() + Double.doubleToLongBits(c{n}.c()) + Float.floatToIntBits(c{n}.f()) + (c{n}.next() == c{n} ? 1 : 0) + Cell.mix(c{n}.a(), c{n}.b());"
            ),
        );
        self.line(
            indent + 1,
            &format!("Cell z{n} = (({z}) & 1) == 0 ? null : c{n};"),
        );
        self.line(
            indent + 1,
            &format!("try {{ h += z{n}.a(); }} catch (NullPointerException e) {{ h += 7; }}"),
        );
        self.line(indent, "}");
    }

    fn program(&mut self, class: &str) -> String {
        self.line(0, &format!("public class {class} {{"));
        for line in [
            "static final class Cell {",
            "    private final int a; private long b; private final double c; private float f; private Cell next;",
            "    Cell(int a, long b, double c) { this.a = a; this.b = b; this.c = c; this.f = (float) c; }",
            "    int a() { return a; } long b() { return b; } double c() { return c; } float f() { return f; }",
            "    Cell next() { return next; } void setB(long v) { b = v; } void setNext(Cell n) { next = n; }",
            "    static long mix(int x, long y) { return y * 31 + x; }",
            "}",
        ] {
            self.line(1, line);
        }
        for m in 0..METHODS {
            self.line(
                1,
                &format!("static long m{m}(int p0, long p1, double p2, int[] arr) {{"),
            );
            self.line(2, "int i0 = p0, i1 = p0 ^ 0x5bd1, i2 = 3;");
            self.line(2, "long l0 = p1, l1 = p1 * 31;");
            self.line(2, "float f0 = (float) p2;");
            self.line(2, "double d0 = p2, d1 = p2 * 0.5;");
            self.line(2, "long h = 0;");
            for _ in 0..3 + self.rng.below(5) {
                self.stmt(2, 2);
            }
            self.line(
                2,
                "return h + i0 + i1 + i2 + l0 + l1 + Float.floatToIntBits(f0) + Double.doubleToLongBits(d0) + Double.doubleToLongBits(d1);",
            );
            self.line(1, "}");
        }
        self.line(1, "public static void main(String[] args) {");
        self.line(2, "int[] arr = new int[16];");
        self.line(2, "long total = 0;");
        self.line(2, &format!("for (int r = 0; r < {ROUNDS}; r++) {{"));
        for m in 0..METHODS {
            self.line(
                3,
                &format!("long v{m} = m{m}(r * 7919 - 500, r * 1000003L, r * 0.37 - 11, arr);"),
            );
            self.line(3, &format!("total = total * 31 + v{m};"));
            self.line(
                3,
                &format!("if (r % 60 == 0) System.out.println(\"m{m} \" + r + \" \" + v{m});"),
            );
        }
        self.line(2, "}");
        self.line(
            2,
            "System.out.println(total + \" \" + java.util.Arrays.toString(arr));",
        );
        self.line(1, "}");
        self.line(0, "}");
        std::mem::take(&mut self.out)
    }
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the VM starts");
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Generates, compiles and runs the program of `seed`; panics with the differences.
fn check_seed(seed: u64) {
    let dir = common::scratch(&format!("jitfuzz-{seed:x}"));
    let class = format!("Fuzz{seed:x}");
    let mut g = Gen {
        rng: Rng(seed),
        out: String::new(),
        loop_vars: Vec::new(),
        next_loop: 0,
    };
    let src = dir.join(format!("{class}.java"));
    std::fs::write(&src, g.program(&class)).unwrap();
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&dir)
        .arg(&src)
        .status()
        .unwrap();
    assert!(ok.success(), "javac failed on {}", src.display());
    let java = |extra: &[&str]| {
        let mut c = Command::new("java");
        c.args(extra).arg("-cp").arg(&dir).arg(&class);
        c
    };
    let jxvm = |extra: &[&str]| {
        let mut c = common::jxvm();
        c.args(extra).arg("-cp").arg(&dir).arg(&class);
        c
    };
    let expected = run(&mut java(&[]));
    assert!(
        expected.starts_with("exit Some(0)"),
        "HotSpot failed: {expected}"
    );
    for flags in [&["-Xint"][..], &["-Xcomp"], &["-XX:CompileThreshold=40"]] {
        let actual = run(&mut jxvm(flags));
        if actual != expected {
            panic!(
                "{} with {flags:?} differs from HotSpot on {}:\n{}",
                class,
                src.display(),
                first_difference(&expected, &actual)
            );
        }
    }
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}: expected {e:?}\n          got {a:?}", i + 1);
        }
    }
    format!(
        "lengths differ: expected {} lines, got {}\n{actual}",
        expected.lines().count(),
        actual.lines().count()
    )
}

#[test]
fn compiled_code_agrees_with_hotspot_and_the_interpreter() {
    let seeds: Vec<u64> = match std::env::var("JIT_FUZZ_SEEDS") {
        Ok(s) => s
            .split(',')
            .filter_map(|x| u64::from_str_radix(x.trim().trim_start_matches("0x"), 16).ok())
            .collect(),
        Err(_) => SEEDS.to_vec(),
    };
    for seed in seeds {
        check_seed(seed);
    }
}
