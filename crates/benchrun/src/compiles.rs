//! jxvm's `-XX:+PrintCompilation` lines and their totals for one run: how many methods were
//! compiled and skipped, their bytecode, the machine code made of it and the time it took.
//!
//! A line reads `     171     2       NBody::advance (327 bytes)   3992 bytes of code, 1735 us`
//! (milliseconds since start, compile id, method, bytecode size, then what came of it) or ends in
//! `COMPILE SKIPPED: why`.

/// The totals of one run's compile lines.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CompileStats {
    /// Methods compiled.
    pub methods: u64,
    /// Methods the compiler refused (left to the interpreter).
    pub skipped: u64,
    /// Bytecode of the compiled methods, bytes.
    pub bytecode_bytes: u64,
    /// Machine code made of them, bytes.
    pub code_bytes: u64,
    /// Time spent compiling them, microseconds (summed over the compiler threads).
    pub compile_us: u64,
}

/// What one compile line says.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Compiled {
        bytecode: u64,
        code: u64,
        micros: u64,
    },
    Skipped,
}

/// The totals of the compile lines in `stdout`; other lines (the program's) are ignored.
pub fn parse(stdout: &str) -> CompileStats {
    let mut s = CompileStats::default();
    for line in stdout.lines().filter_map(parse_line) {
        match line {
            Line::Compiled {
                bytecode,
                code,
                micros,
            } => {
                s.methods += 1;
                s.bytecode_bytes += bytecode;
                s.code_bytes += code;
                s.compile_us += micros;
            }
            Line::Skipped => s.skipped += 1,
        }
    }
    s
}

/// One line, if it is a compile line.
fn parse_line(line: &str) -> Option<Line> {
    let mut words = line.split_whitespace();
    for _ in 0..2 {
        words.next()?.parse::<u64>().ok()?;
    }
    let (head, what) = line.rsplit_once(" bytes)   ")?;
    let (method, bytecode) = head.rsplit_once(" (")?;
    if !method.contains("::") {
        return None;
    }
    if what.starts_with("COMPILE SKIPPED") {
        return Some(Line::Skipped);
    }
    let (code, micros) = what.strip_suffix(" us")?.split_once(" bytes of code, ")?;
    Some(Line::Compiled {
        bytecode: bytecode.parse().ok()?,
        code: code.parse().ok()?,
        micros: micros.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_lines() {
        assert_eq!(
            parse_line(
                "     171     2       NBody::advance (327 bytes)   3992 bytes of code, 1735 us"
            ),
            Some(Line::Compiled {
                bytecode: 327,
                code: 3992,
                micros: 1735
            })
        );
        assert_eq!(
            parse_line("      90    14       A::<init> (5 bytes)   COMPILE SKIPPED: monitorenter"),
            Some(Line::Skipped)
        );
        for other in [
            "NBody steps=300000 e0=-0.16907516382852447",
            "1 2 x (3 bytes)   4 bytes of code, 5 us",
            "a 2       A::m (3 bytes)   4 bytes of code, 5 us",
            "",
        ] {
            assert_eq!(parse_line(other), None, "{other}");
        }
    }

    #[test]
    fn totals_of_a_run() {
        let out = "     105     1       java.lang.StringLatin1::hashCode (42 bytes)   516 bytes of code, 605 us\n\
                   NBody steps=3 e0=-0.1 e1=-0.2\n\
                   \x20    171     2       NBody::advance (327 bytes)   3992 bytes of code, 1735 us\n\
                   \x20    180     3       NBody::x (9 bytes)   COMPILE SKIPPED: too big\n";
        assert_eq!(
            parse(out),
            CompileStats {
                methods: 2,
                skipped: 1,
                bytecode_bytes: 369,
                code_bytes: 4508,
                compile_us: 2340
            }
        );
        assert_eq!(parse("hello\n"), CompileStats::default());
    }
}
