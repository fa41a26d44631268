//! Pure intrinsics: static methods of the class library whose result depends only on their
//! arguments, which the interpreter runs as one VM primitive instead of a call into their
//! bytecode or native (DESIGN: "intrinsics, a table from method to a VM primitive, applied when
//! code is prepared"). The table is consulted once per method, when its class is loaded.
//!
//! Each primitive computes exactly what the method's Java code or HotSpot's interpreter
//! computes: `Math.sqrt`, `floor`, `ceil`, `rint`, `abs`, `max`, `min` are exact IEEE
//! operations written to the JDK's definitions (NaN and signed-zero cases included); the
//! transcendental functions are fdlibm's algorithms (the libm crate, a port of them), which is
//! what `StrictMath` specifies and within the 1 ulp `Math` allows. Methods HotSpot does not
//! intrinsify and whose Java code is not fdlibm-exact in the libm port (`hypot`, `cbrt`) are left
//! out so their results stay identical to HotSpot's.
//!
//! Must not touch the heap or a thread: a primitive gets its argument slots and returns the
//! result slot (ints zero-extended, floats and doubles as their bits; a long or double argument
//! takes two slots, its value in the first).

/// A pure intrinsic: argument slots in, result slot out.
pub type PureFn = fn(&[u64]) -> u64;

/// The primitive for `class.name descriptor`, if there is one.
pub fn pure_intrinsic(class: &str, name: &str, descriptor: &str) -> Option<PureFn> {
    pure_table(class)?
        .iter()
        .find(|(n, d, _)| *n == name && *d == descriptor)
        .map(|&(_, _, f)| f)
}

/// The classes with pure intrinsics.
pub const PURE_CLASSES: [&str; 2] = ["java/lang/Math", "java/lang/StrictMath"];

/// The pure intrinsics of `class`: `Math` has the transcendental functions and the exact
/// ones, `StrictMath` only the exact ones (its transcendental functions are fdlibm's Java
/// code, which the libm port does not match bit for bit everywhere).
pub fn pure_table(class: &str) -> Option<&'static [(&'static str, &'static str, PureFn)]> {
    match class {
        "java/lang/Math" => Some(&MATH),
        "java/lang/StrictMath" => Some(&EXACT),
        _ => None,
    }
}

type Entry = (&'static str, &'static str, PureFn);

fn d(v: u64) -> f64 {
    f64::from_bits(v)
}
fn f(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
fn ret_f(v: f32) -> u64 {
    v.to_bits() as u64
}
fn ret_i(v: i32) -> u64 {
    v as u32 as u64
}

static MATH: [Entry; 27] = [
    ("sin", "(D)D", |a| libm::sin(d(a[0])).to_bits()),
    ("cos", "(D)D", |a| libm::cos(d(a[0])).to_bits()),
    ("tan", "(D)D", |a| libm::tan(d(a[0])).to_bits()),
    ("asin", "(D)D", |a| libm::asin(d(a[0])).to_bits()),
    ("acos", "(D)D", |a| libm::acos(d(a[0])).to_bits()),
    ("atan", "(D)D", |a| libm::atan(d(a[0])).to_bits()),
    ("exp", "(D)D", |a| libm::exp(d(a[0])).to_bits()),
    ("log", "(D)D", |a| libm::log(d(a[0])).to_bits()),
    ("log10", "(D)D", |a| libm::log10(d(a[0])).to_bits()),
    ("pow", "(DD)D", |a| pow(d(a[0]), d(a[2])).to_bits()),
    ("atan2", "(DD)D", |a| {
        libm::atan2(d(a[0]), d(a[2])).to_bits()
    }),
    EXACT[0],
    EXACT[1],
    EXACT[2],
    EXACT[3],
    EXACT[4],
    EXACT[5],
    EXACT[6],
    EXACT[7],
    EXACT[8],
    EXACT[9],
    EXACT[10],
    EXACT[11],
    EXACT[12],
    EXACT[13],
    EXACT[14],
    EXACT[15],
];

/// The methods `Math` and `StrictMath` define identically and exactly.
static EXACT: [Entry; 16] = [
    ("sqrt", "(D)D", |a| d(a[0]).sqrt().to_bits()),
    ("floor", "(D)D", |a| d(a[0]).floor().to_bits()),
    ("ceil", "(D)D", |a| d(a[0]).ceil().to_bits()),
    ("rint", "(D)D", |a| d(a[0]).round_ties_even().to_bits()),
    ("abs", "(D)D", |a| abs_d(d(a[0])).to_bits()),
    ("abs", "(F)F", |a| ret_f(abs_f(f(a[0])))),
    ("abs", "(I)I", |a| ret_i((a[0] as i32).wrapping_abs())),
    ("abs", "(J)J", |a| (a[0] as i64).wrapping_abs() as u64),
    ("max", "(DD)D", |a| max_d(d(a[0]), d(a[2])).to_bits()),
    ("min", "(DD)D", |a| min_d(d(a[0]), d(a[2])).to_bits()),
    ("max", "(FF)F", |a| ret_f(max_f(f(a[0]), f(a[1])))),
    ("min", "(FF)F", |a| ret_f(min_f(f(a[0]), f(a[1])))),
    ("max", "(II)I", |a| ret_i((a[0] as i32).max(a[1] as i32))),
    ("min", "(II)I", |a| ret_i((a[0] as i32).min(a[1] as i32))),
    ("max", "(JJ)J", |a| (a[0] as i64).max(a[2] as i64) as u64),
    ("min", "(JJ)J", |a| (a[0] as i64).min(a[2] as i64) as u64),
];

/// An intrinsic compiled code emits as machine instructions instead of a call: the same
/// methods and the same results as their entries in the table above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inline {
    /// `sqrt(D)D`, `floor(D)D`, `ceil(D)D`, `rint(D)D` (round half to even).
    Sqrt,
    Floor,
    Ceil,
    Rint,
    /// `abs`, `max` and `min` of ints (`(I)I`, `(II)I`) and longs (`(J)J`, `(JJ)J`).
    AbsInt,
    MaxInt,
    MinInt,
    AbsLong,
    MaxLong,
    MinLong,
}

/// The inline form of `class.name descriptor`, if compiled code has one.
pub fn inline_form(class: &str, name: &str, descriptor: &str) -> Option<Inline> {
    if class != "java/lang/Math" && class != "java/lang/StrictMath" {
        return None;
    }
    Some(match (name, descriptor) {
        ("sqrt", "(D)D") => Inline::Sqrt,
        ("floor", "(D)D") => Inline::Floor,
        ("ceil", "(D)D") => Inline::Ceil,
        ("rint", "(D)D") => Inline::Rint,
        ("abs", "(I)I") => Inline::AbsInt,
        ("max", "(II)I") => Inline::MaxInt,
        ("min", "(II)I") => Inline::MinInt,
        ("abs", "(J)J") => Inline::AbsLong,
        ("max", "(JJ)J") => Inline::MaxLong,
        ("min", "(JJ)J") => Inline::MinLong,
        _ => return None,
    })
}

/// `Math.pow`: fdlibm's, whose special cases differ from C99's (which the libm crate follows)
/// in two places: a NaN exponent gives NaN even for a base of 1, and ±1 to an infinite power
/// is NaN, not 1.
fn pow(x: f64, y: f64) -> f64 {
    if y.is_nan() || (y.is_infinite() && x.abs() == 1.0) {
        return f64::NAN;
    }
    libm::pow(x, y)
}

/// `Math.abs(double)`: `(a <= 0.0) ? 0.0 - a : a` (a NaN comes back unchanged).
fn abs_d(a: f64) -> f64 {
    if a <= 0.0 { 0.0 - a } else { a }
}
fn abs_f(a: f32) -> f32 {
    if a <= 0.0 { 0.0 - a } else { a }
}

/// `Math.max` and `Math.min` for one floating-point type, as the JDK writes them: NaN if `a` is
/// NaN (or, through the comparison, if `b` is), +0.0 above -0.0.
macro_rules! min_max {
    ($max:ident, $min:ident, $t:ty) => {
        fn $max(a: $t, b: $t) -> $t {
            if a.is_nan() {
                return a;
            }
            if a == 0.0 && b == 0.0 && a.is_sign_negative() {
                return b;
            }
            if a >= b { a } else { b }
        }
        fn $min(a: $t, b: $t) -> $t {
            if a.is_nan() {
                return a;
            }
            if a == 0.0 && b == 0.0 && b.is_sign_negative() {
                return b;
            }
            if a <= b { a } else { b }
        }
    };
}
min_max!(max_d, min_d, f64);
min_max!(max_f, min_f, f32);

/// What a native accessor of `jdk.internal.misc.Unsafe` does, for compiled code that emits
/// the access itself (HotSpot's Unsafe intrinsics). The native stays the one implementation
/// of every check: compiled code takes it whenever a check could refuse (see the JIT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsafeAccess {
    pub op: UnsafeOp,
    /// The type accessed (`Ref` for `Reference`).
    pub ty: crate::class::BasicType,
    /// The `...Volatile` accessors: a full fence on both sides, as the natives do.
    pub volatile: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnsafeOp {
    /// `getX(Object o, long offset)`.
    Get,
    /// `putX(Object o, long offset, X x)`.
    Put,
    /// `compareAndSetX(Object o, long offset, X expected, X x)`: a boolean.
    CompareAndSet,
    /// `compareAndExchangeX(Object o, long offset, X expected, X x)`: the old value.
    CompareAndExchange,
}

/// The access Unsafe method `name descriptor` makes, if it is one compiled code emits: the
/// plain and volatile getters and putters of every type, and the compare-and-set and
/// compare-and-exchange of ints, longs and references. (The others are Java code, or rare.)
pub fn unsafe_access(class: &str, name: &str, descriptor: &str) -> Option<UnsafeAccess> {
    if class != "jdk/internal/misc/Unsafe" {
        return None;
    }
    let (rest, volatile) = match name.strip_suffix("Volatile") {
        Some(rest) => (rest, true),
        None => (name, false),
    };
    let ops = [
        ("compareAndSet", UnsafeOp::CompareAndSet),
        ("compareAndExchange", UnsafeOp::CompareAndExchange),
        ("get", UnsafeOp::Get),
        ("put", UnsafeOp::Put),
    ];
    let (op, ty_name) = ops
        .iter()
        .find_map(|&(prefix, op)| Some((op, rest.strip_prefix(prefix)?)))?;
    use crate::class::BasicType;
    let (ty, letter) = match ty_name {
        "Int" => (BasicType::Int, "I"),
        "Long" => (BasicType::Long, "J"),
        "Reference" => (BasicType::Ref, "Ljava/lang/Object;"),
        "Byte" => (BasicType::Byte, "B"),
        "Short" => (BasicType::Short, "S"),
        "Char" => (BasicType::Char, "C"),
        "Boolean" => (BasicType::Boolean, "Z"),
        "Float" => (BasicType::Float, "F"),
        "Double" => (BasicType::Double, "D"),
        _ => return None,
    };
    let cas = matches!(op, UnsafeOp::CompareAndSet | UnsafeOp::CompareAndExchange);
    if cas && (volatile || !matches!(ty, BasicType::Int | BasicType::Long | BasicType::Ref)) {
        return None;
    }
    let expected = match op {
        UnsafeOp::Get => format!("(Ljava/lang/Object;J){letter}"),
        UnsafeOp::Put => format!("(Ljava/lang/Object;J{letter})V"),
        UnsafeOp::CompareAndSet => format!("(Ljava/lang/Object;J{letter}{letter})Z"),
        UnsafeOp::CompareAndExchange => format!("(Ljava/lang/Object;J{letter}{letter}){letter}"),
    };
    (descriptor == expected).then_some(UnsafeAccess { op, ty, volatile })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_inline_form_is_an_entry_of_the_table() {
        for class in ["java/lang/Math", "java/lang/StrictMath"] {
            for (name, desc) in [
                ("sqrt", "(D)D"),
                ("floor", "(D)D"),
                ("ceil", "(D)D"),
                ("rint", "(D)D"),
                ("abs", "(I)I"),
                ("max", "(II)I"),
                ("min", "(II)I"),
                ("abs", "(J)J"),
                ("max", "(JJ)J"),
                ("min", "(JJ)J"),
            ] {
                assert!(super::inline_form(class, name, desc).is_some());
                assert!(super::pure_intrinsic(class, name, desc).is_some());
            }
        }
        assert!(super::inline_form("java/lang/Math", "sin", "(D)D").is_none());
        assert!(super::inline_form("Other", "sqrt", "(D)D").is_none());
    }

    use super::*;

    fn call(class: &str, name: &str, desc: &str, args: &[u64]) -> u64 {
        pure_intrinsic(class, name, desc).expect("intrinsic")(args)
    }

    #[test]
    fn min_max_follow_the_jdk_for_nan_and_signed_zeros() {
        let (pz, nz, nan) = (0.0f64.to_bits(), (-0.0f64).to_bits(), f64::NAN.to_bits());
        assert_eq!(call("java/lang/Math", "max", "(DD)D", &[nz, 0, pz, 0]), pz);
        assert_eq!(call("java/lang/Math", "max", "(DD)D", &[pz, 0, nz, 0]), pz);
        assert_eq!(call("java/lang/Math", "min", "(DD)D", &[pz, 0, nz, 0]), nz);
        assert_eq!(call("java/lang/Math", "min", "(DD)D", &[nz, 0, pz, 0]), nz);
        assert!(d(call("java/lang/Math", "max", "(DD)D", &[pz, 0, nan, 0])).is_nan());
        assert!(d(call("java/lang/Math", "min", "(DD)D", &[nan, 0, pz, 0])).is_nan());
        let (fpz, fnz) = (0.0f32.to_bits() as u64, (-0.0f32).to_bits() as u64);
        assert_eq!(call("java/lang/Math", "min", "(FF)F", &[fpz, fnz]), fnz);
        assert_eq!(call("java/lang/Math", "max", "(FF)F", &[fnz, fpz]), fpz);
    }

    #[test]
    fn abs_and_rounding_match_java() {
        assert_eq!(
            call("java/lang/Math", "abs", "(D)D", &[(-0.0f64).to_bits(), 0]),
            0.0f64.to_bits()
        );
        assert_eq!(
            call("java/lang/Math", "abs", "(I)I", &[i32::MIN as u32 as u64]),
            i32::MIN as u32 as u64
        );
        assert_eq!(
            call("java/lang/Math", "abs", "(J)J", &[(-5i64) as u64, 0]),
            5
        );
        assert_eq!(
            d(call(
                "java/lang/Math",
                "rint",
                "(D)D",
                &[2.5f64.to_bits(), 0]
            )),
            2.0
        );
        assert_eq!(
            d(call(
                "java/lang/Math",
                "rint",
                "(D)D",
                &[(-3.5f64).to_bits(), 0]
            )),
            -4.0
        );
        assert_eq!(
            d(call(
                "java/lang/StrictMath",
                "floor",
                "(D)D",
                &[(-1.5f64).to_bits(), 0]
            )),
            -2.0
        );
        assert_eq!(
            call(
                "java/lang/Math",
                "max",
                "(II)I",
                &[(-3i32) as u32 as u64, 2]
            ),
            2
        );
        assert_eq!(
            call("java/lang/Math", "min", "(JJ)J", &[(-3i64) as u64, 0, 2, 0]),
            (-3i64) as u64
        );
    }

    #[test]
    fn transcendental_functions_are_fdlibm() {
        assert_eq!(
            d(call(
                "java/lang/Math",
                "pow",
                "(DD)D",
                &[2.0f64.to_bits(), 0, 10.0f64.to_bits(), 0]
            )),
            1024.0
        );
        assert_eq!(
            d(call(
                "java/lang/Math",
                "sin",
                "(D)D",
                &[0.0f64.to_bits(), 0]
            )),
            0.0
        );
        let pow = |x: f64, y: f64| {
            d(call(
                "java/lang/Math",
                "pow",
                "(DD)D",
                &[x.to_bits(), 0, y.to_bits(), 0],
            ))
        };
        assert!(pow(-1.0, f64::INFINITY).is_nan() && pow(1.0, f64::NEG_INFINITY).is_nan());
        assert!(pow(1.0, f64::NAN).is_nan());
        assert_eq!(
            (pow(f64::NAN, 0.0), pow(0.0, 0.0), pow(-0.0, -1.0)),
            (1.0, 1.0, f64::NEG_INFINITY)
        );
        assert!(pure_intrinsic("java/lang/Math", "hypot", "(DD)D").is_none());
        assert!(pure_intrinsic("java/lang/String", "length", "()I").is_none());
    }

    #[test]
    fn unsafe_accessors_are_recognized_by_name_and_descriptor() {
        use super::{UnsafeOp, unsafe_access};
        use crate::class::BasicType;
        let u = "jdk/internal/misc/Unsafe";
        let get = unsafe_access(u, "getIntVolatile", "(Ljava/lang/Object;J)I").unwrap();
        assert_eq!(
            (get.op, get.ty, get.volatile),
            (UnsafeOp::Get, BasicType::Int, true)
        );
        let put = unsafe_access(
            u,
            "putReference",
            "(Ljava/lang/Object;JLjava/lang/Object;)V",
        );
        assert_eq!(
            put.map(|a| (a.op, a.ty)),
            Some((UnsafeOp::Put, BasicType::Ref))
        );
        let cas = unsafe_access(u, "compareAndSetLong", "(Ljava/lang/Object;JJJ)Z").unwrap();
        assert_eq!((cas.op, cas.ty), (UnsafeOp::CompareAndSet, BasicType::Long));
        // Java code, other shapes, other classes: not emitted.
        assert!(unsafe_access(u, "compareAndSetByte", "(Ljava/lang/Object;JBB)Z").is_none());
        assert!(unsafe_access(u, "getInt", "(J)I").is_none());
        assert!(unsafe_access(u, "getIntAcquire", "(Ljava/lang/Object;J)I").is_none());
        assert!(unsafe_access("sun/misc/Unsafe", "getInt", "(Ljava/lang/Object;J)I").is_none());
    }
}
