//! Integration tests on real class files: compiles Java sources with `javac` (skipped with a
//! message when javac is missing) covering records, lambdas, inner/anonymous/local classes,
//! enums, string switches, sealed types, annotations and a module-info, then parses every
//! produced class file; checks that all prefixes and single-byte mutations fail cleanly.
//! Set `JXVM_CLASSFILE_CORPUS=/dir` to also parse every `*.class` below that directory (e.g.
//! classes extracted from the JDK's jmods).

use std::path::{Path, PathBuf};
use std::process::Command;

use classfile::descriptor::{parse_field_descriptor, parse_method_descriptor};
use classfile::{ClassFile, Constant};

const MAIN_SOURCE: &str = r#"
package demo;

import java.util.*;
import java.util.function.*;
import java.lang.annotation.*;

@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@interface Tag {
    String value() default "none";
    int[] numbers() default {1, 2};
    Class<?> kind() default Object.class;
}

enum Color {
    RED, GREEN { @Override String pretty() { return "green!"; } }, BLUE;
    String pretty() { return name().toLowerCase(); }
}

sealed interface Shape permits Circle, Square {
    double area();
    default String describe() { return helper() + area(); }
    private String helper() { return "shape:"; }
    static Shape unit() { return new Square(1); }
}

record Circle(@Tag("r") double radius) implements Shape {
    Circle {
        if (radius < 0) throw new IllegalArgumentException("negative");
    }
    public double area() { return Math.PI * radius * radius; }
}

record Square(int side) implements Shape {
    public double area() { return side * side; }
}

@Tag(value = "main", numbers = {3})
public class Main<T extends Comparable<T>> implements Runnable {
    public static final long BIG = 1L << 40;
    public static final double HALF = 0.5;
    public static final String NAME = "main\u0000\uD83D\uDE00";
    private static int counter;
    private volatile T value;
    private transient List<? super T> sink = new ArrayList<>();

    static { counter = 42; }

    class Inner { int get() { return counter + (value == null ? 0 : 1); } }
    static class Nested { static int twice(int x) { return x * 2; } }

    public void run() {
        Runnable r = () -> System.out.println("lambda " + counter);
        r.run();
        Function<String, Integer> len = String::length;
        BiFunction<Integer, Integer, Integer> add = Integer::sum;
        Supplier<List<String>> mk = ArrayList::new;
        System.out.println(len.apply("abc") + add.apply(1, 2) + mk.get().size());
        Object anon = new Object() { @Override public String toString() { return "anon"; } };
        class Local { String hi() { return "local " + anon; } }
        System.out.println(new Local().hi());
    }

    static int classify(String s) {
        switch (s) {
            case "alpha": return 1;
            case "beta": return 2;
            case "Aa": case "BB": return 3; // same hashCode
            default: return -1;
        }
    }

    static String expr(Object o) {
        if (o instanceof Circle c && c.radius() > 1) return "big circle";
        return switch (String.valueOf(o)) {
            case "null" -> "null";
            default -> {
                String text = """
                    text block
                    """;
                yield text + o;
            }
        };
    }

    static int colorIndex(Color c) {
        return switch (c) { case RED -> 0; case GREEN -> 1; case BLUE -> 2; };
    }

    synchronized <U> U generic(U u, T... ts) throws Exception {
        try {
            if (ts.length > 3) throw new Exception("too many");
            return u;
        } catch (IllegalStateException | IllegalArgumentException e) {
            return null;
        } finally {
            counter++;
        }
    }

    static long mix(long a, double b, float c, char d, byte e, short f, boolean g) {
        long[][] grid = new long[3][4];
        grid[1][2] = a;
        int i = 0;
        while (i < 100) { i += d; if (g) break; }
        return grid[1][2] + (long) b + (long) c + e + f + i;
    }

    native void nat();

    public static void main(String[] args) throws Exception {
        new Main<String>().run();
        System.out.println(classify(args.length > 0 ? args[0] : "beta") + expr(new Circle(2)) + colorIndex(Color.GREEN));
        System.out.println(Shape.unit().describe() + mix(1, 2, 3, 'x', (byte) 4, (short) 5, true));
    }
}
"#;

const MODULE_INFO: &str = "module demo { requires java.base; exports demo; }\n";

const OLD_SOURCE: &str = r#"
package old;

import java.util.*;

public class Old {
    interface Callback { void call(int x); }
    private final Map<String, Integer> map = new HashMap<String, Integer>();
    public int sum(int... xs) {
        int s = 0;
        for (int x : xs) s += x;
        Callback cb = new Callback() { public void call(int x) { map.put("k" + x, x); } };
        cb.call(s);
        return s;
    }
    static Runnable lambda() { return () -> System.out.println("old"); }
}
"#;

fn javac() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/bin/javac");
    if p.exists() {
        return Some(p);
    }
    let found = Command::new("javac").arg("-version").output().ok()?;
    found.status.success().then(|| PathBuf::from("javac"))
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jxvm-classfile-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn class_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            class_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "class") {
            out.push(p);
        }
    }
}

/// Compiles `sources` (relative path, text) with extra javac `args`; returns the class files
/// (path relative to the output directory, contents). The temporary directory is removed.
fn compile(tag: &str, sources: &[(&str, &str)], args: &[&str]) -> Option<Vec<(PathBuf, Vec<u8>)>> {
    let Some(javac) = javac() else {
        eprintln!("SKIP: javac not found; not compiling Java test sources");
        return None;
    };
    let dir = temp_dir(tag);
    let src = dir.join("src");
    let out = dir.join("out");
    let mut paths = Vec::new();
    for (rel, text) in sources {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        paths.push(p);
    }
    let status = Command::new(javac)
        .args(args)
        .arg("-d")
        .arg(&out)
        .args(&paths)
        .status()
        .expect("running javac");
    assert!(status.success(), "javac failed");
    let mut paths = Vec::new();
    class_files(&out, &mut paths);
    paths.sort();
    let classes = paths
        .iter()
        .map(|p| {
            (
                p.strip_prefix(&out).unwrap().to_path_buf(),
                std::fs::read(p).unwrap(),
            )
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    Some(classes)
}

fn parse_fully(bytes: &[u8]) -> Result<ClassFile, String> {
    let cf = ClassFile::parse(bytes).map_err(|e| e.0)?;
    for f in &cf.fields {
        parse_field_descriptor(&f.descriptor).map_err(|e| e.0)?;
    }
    for m in &cf.methods {
        parse_method_descriptor(&m.descriptor).map_err(|e| e.0)?;
    }
    for (i, c) in cf.constant_pool.entries.iter().enumerate() {
        if let Constant::FieldRef { .. }
        | Constant::MethodRef { .. }
        | Constant::InterfaceMethodRef { .. } = c
        {
            let r = cf
                .constant_pool
                .member_ref(i as u16)
                .ok_or("unresolvable member ref")?;
            if r.descriptor.starts_with('(') {
                parse_method_descriptor(r.descriptor).map_err(|e| e.0)?;
            } else {
                parse_field_descriptor(r.descriptor).map_err(|e| e.0)?;
            }
        }
    }
    Ok(cf)
}

fn check_prefixes_and_mutations(bytes: &[u8]) {
    for len in 0..bytes.len() {
        assert!(
            ClassFile::parse(&bytes[..len]).is_err(),
            "prefix of length {len} parsed"
        );
    }
    let mut buf = bytes.to_vec();
    for i in 0..bytes.len() {
        for delta in [1u8, 0x80, 0xFF] {
            buf[i] = bytes[i].wrapping_add(delta);
            let _ = ClassFile::parse(&buf);
        }
        buf[i] = bytes[i];
    }
}

#[test]
fn javac_output_parses() {
    let Some(classes) = compile(
        "main",
        &[
            ("demo/Main.java", MAIN_SOURCE),
            ("module-info.java", MODULE_INFO),
        ],
        &["-g", "-parameters"],
    ) else {
        return;
    };
    assert!(
        classes.len() >= 12,
        "only {} classes compiled",
        classes.len()
    );
    let mut parsed = Vec::new();
    for (p, bytes) in classes {
        if p.ends_with("module-info.class") {
            // A module descriptor is not a class: HotSpot's NoClassDefFoundError.
            assert!(ClassFile::parse(&bytes).unwrap_err().is_not_a_class());
            continue;
        }
        let cf = parse_fully(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        parsed.push((p, bytes, cf));
    }
    let find = |name: &str| {
        parsed
            .iter()
            .find(|(_, _, cf)| cf.name == name)
            .map(|(_, _, cf)| cf)
            .unwrap_or_else(|| panic!("{name} not compiled"))
    };

    let main = find("demo/Main");
    assert_eq!(main.major_version, 61);
    assert!(
        !main.bootstrap_methods.is_empty(),
        "lambdas use BootstrapMethods"
    );
    assert!(main.runtime_visible_annotations.is_some());
    assert!(main.signature.is_some());
    assert!(!main.nest_members.is_empty());
    assert_eq!(main.source_file.as_deref(), Some("Main.java"));
    let name_field = main.field("NAME", "Ljava/lang/String;").unwrap();
    let s = main
        .constant_pool
        .string(name_field.constant_value.unwrap())
        .unwrap();
    assert_eq!(
        s.utf16(),
        "main\u{0}\u{1F600}".encode_utf16().collect::<Vec<_>>()
    );
    assert!(main.method("<clinit>", "()V").is_some());
    let run = main.method("run", "()V").unwrap();
    let code = run.code.as_ref().unwrap();
    assert!(!code.line_numbers.is_empty());
    assert!(code.line_numbers.windows(2).all(|w| w[0].0 <= w[1].0));
    assert!(
        code.stack_map_table.is_none()
            || code.stack_map_table.as_ref().is_some_and(|f| !f.is_empty())
    );
    let generic = main.methods.iter().find(|m| m.name == "generic").unwrap();
    assert_eq!(generic.exceptions.len(), 1);
    assert!(!generic.code.as_ref().unwrap().exception_table.is_empty());
    assert!(generic.code.as_ref().unwrap().stack_map_table.is_some());
    assert_eq!(generic.method_parameters.len(), 2);
    assert!(main.method("nat", "()V").unwrap().code.is_none());

    let circle = find("demo/Circle");
    let record = circle.record.as_ref().expect("Record attribute");
    assert_eq!(record.len(), 1);
    assert_eq!(
        (record[0].name.as_str(), record[0].descriptor.as_str()),
        ("radius", "D")
    );
    assert!(record[0].runtime_visible_annotations.is_some());
    assert_eq!(circle.super_name.as_deref(), Some("java/lang/Record"));

    let shape = find("demo/Shape");
    assert!(shape.is_interface());
    assert_eq!(shape.permitted_subclasses.len(), 2);

    let tag = find("demo/Tag");
    assert!(tag.methods.iter().any(|m| m.annotation_default.is_some()));

    let color = find("demo/Color");
    assert_eq!(color.super_name.as_deref(), Some("java/lang/Enum"));
    assert!(!color.inner_classes.is_empty());

    assert!(
        parsed
            .iter()
            .any(|(_, _, cf)| cf.enclosing_method.is_some()),
        "local/anonymous classes"
    );
    assert!(parsed.iter().any(|(_, _, cf)| cf.nest_host.is_some()));

    // Every prefix must fail and mutations must not panic (smallest few classes, for time).
    let mut by_size: Vec<&(PathBuf, Vec<u8>, ClassFile)> = parsed.iter().collect();
    by_size.sort_by_key(|(_, b, _)| b.len());
    for (_, bytes, _) in by_size.iter().take(4) {
        check_prefixes_and_mutations(bytes);
    }
    check_prefixes_and_mutations(
        &parsed
            .iter()
            .find(|(_, _, cf)| cf.name == "demo/Main")
            .unwrap()
            .1,
    );
}

#[test]
fn javac_release_8_output_parses() {
    let Some(classes) = compile(
        "old",
        &[("old/Old.java", OLD_SOURCE)],
        &["--release", "8", "-g"],
    ) else {
        return;
    };
    assert!(classes.len() >= 3);
    for (p, bytes) in &classes {
        let cf = parse_fully(bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(cf.major_version, 52);
    }
}

#[test]
fn corpus_from_environment_parses() {
    let Some(dir) = std::env::var_os("JXVM_CLASSFILE_CORPUS") else {
        eprintln!("SKIP: set JXVM_CLASSFILE_CORPUS=/dir to parse every class file below it");
        return;
    };
    let mut classes = Vec::new();
    class_files(Path::new(&dir), &mut classes);
    let files: Vec<(PathBuf, Vec<u8>)> = classes
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let bytes_total: usize = files.iter().map(|(_, b)| b.len()).sum();
    let start = std::time::Instant::now();
    let ok = files
        .iter()
        .filter(|(_, b)| ClassFile::parse(b).is_ok())
        .count();
    let elapsed = start.elapsed();
    let failures: Vec<String> = files
        .iter()
        .filter_map(|(p, b)| {
            parse_fully(b)
                .err()
                .map(|e| format!("{}: {e}", p.display()))
        })
        .collect();
    eprintln!(
        "parsed {} of {} class files ({bytes_total} bytes) in {elapsed:?} (ClassFile::parse only); {} failures",
        ok,
        files.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
