//! Integration test: compile a Java source exercising many language features
//! with `javac` and verify every produced class file.
//!
//! Skipped (with a message) when `javac` is not installed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use classfile::ClassFile;
use verifier::{ClassHierarchy, verify_class};

const SOURCE: &str = r#"
import java.util.*;
import java.util.function.*;

interface Shape { double area(); }

record Circle(double r) implements Shape {
    Circle {
        if (r < 0) throw new IllegalArgumentException("negative radius " + r);
    }
    public double area() { return Math.PI * r * r; }
}

record Rect(double w, double h) implements Shape {
    public double area() { return w * h; }
    static Rect square(double s) { return new Rect(s, s); }
}

enum Color {
    RED("r"), GREEN("g"), BLUE("b") {
        @Override String code() { return "B!"; }
    };
    private final String c;
    Color(String c) { this.c = c; }
    String code() { return c; }
}

class Box<T extends Comparable<T>> {
    private T value;
    Box(T value) { this.value = value; }
    T get() { return value; }
    boolean bigger(Box<T> other) { return value.compareTo(other.value) > 0; }
    <R extends Comparable<R>> Box<R> map(Function<? super T, ? extends R> f) { return new Box<>(f.apply(value)); }
}

class Resource implements AutoCloseable {
    final String name;
    Resource(String name) { this.name = name; }
    public void close() { System.out.println("close " + name); }
}

public class Features {
    private int counter;
    private long total = 1L << 40;
    private double ratio = 0.5;
    static int[][] grid = new int[3][4];

    class Inner {
        int peek() { return counter + 1; }
    }

    static class Nested {
        final List<String> items = new ArrayList<>();
        Nested add(String s) { items.add(s); return this; }
    }

    Features() { this(7); }
    Features(int start) { super(); counter = start; }

    static int classify(String s) {
        switch (s) {
            case "one": return 1;
            case "two": return 2;
            case "three": return 3;
            default: return s.length() > 5 ? -1 : 0;
        }
    }

    static String describe(Color c) {
        return switch (c) {
            case RED -> "warm";
            case GREEN -> { String t = "natural"; yield t.toUpperCase(); }
            case BLUE -> "cold";
        };
    }

    static long mix(long a, double b, int c, float f) {
        long r = a * 31 + (long) b;
        double d = b / 3.0 + a % 7;
        r ^= (r >>> 17) | ((long) c << 3);
        if (d > r) r += (long) (d * f);
        for (int i = 0; i < c; i++) { r = r * 6364136223846793005L + 1442695040888963407L; }
        return r + (long) Math.floor(d) - (c > 0 ? 1L : 2L);
    }

    static int tryFinally(int x) {
        int result = 0;
        try {
            if (x == 0) throw new IllegalStateException("zero");
            result = 100 / x;
        } catch (IllegalStateException | ArithmeticException e) {
            result = -1;
        } catch (RuntimeException e) {
            result = -2;
        } finally {
            result += 1000;
        }
        return result;
    }

    static String withResources(String a, String b) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Resource r1 = new Resource(a); Resource r2 = new Resource(b)) {
            sb.append(r1.name).append(r2.name);
        }
        return sb.toString();
    }

    int lambdas(List<Integer> xs) {
        Function<Integer, Integer> twice = v -> v * 2;
        Supplier<Integer> sup = () -> counter;
        BiFunction<Integer, Integer, Integer> add = Integer::sum;
        Runnable r = () -> counter++;
        r.run();
        int sum = xs.stream().map(twice).filter(v -> v > sup.get()).reduce(0, add::apply);
        Comparator<String> cmp = Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder());
        List<String> words = new ArrayList<>(List.of("bb", "a", "ccc", "dd"));
        words.sort(cmp);
        return sum + words.get(0).length();
    }

    Object patterns(Object o) {
        if (o instanceof String s && !s.isEmpty()) return s.charAt(0);
        if (o instanceof Integer i) return i + 1;
        if (o instanceof int[] arr) return arr.length;
        Shape sh = o instanceof Shape x ? x : new Circle(1);
        return sh.area();
    }

    synchronized void sync(Object lock) {
        synchronized (lock) { counter++; }
    }

    static Object anonymous(final int k) {
        final int[] holder = {k};
        class Local implements Supplier<String> {
            public String get() { return "local" + holder[0]; }
        }
        Comparator<Integer> c = new Comparator<Integer>() {
            @Override public int compare(Integer a, Integer b) { return Integer.compare(a + k, b); }
        };
        return new Local().get() + c.compare(1, 2);
    }

    static double arrays() {
        double[] ds = new double[5];
        long[] ls = {1L, 2L, 3L};
        String[][] names = new String[2][];
        names[0] = new String[] {"x", null};
        char[] cs = "hello".toCharArray();
        byte[] bs = new byte[2];
        boolean[] flags = new boolean[1];
        flags[0] = bs.length > 1;
        Object[] objs = names;
        ds[1] = ls[2] + cs[0] + bs[1] + (flags[0] ? 1 : 0) + objs.length;
        grid[1][2] = (int) ds[1];
        return ds[1] + grid[1][2];
    }

    static <T extends Comparable<T>> T max(List<T> xs) {
        T best = null;
        for (T x : xs) { if (best == null || x.compareTo(best) > 0) best = x; }
        return best;
    }

    static String loops(Map<String, Integer> m) {
        String out = "";
        outer:
        for (Map.Entry<String, Integer> e : m.entrySet()) {
            int v = e.getValue();
            while (v > 0) {
                if (v == 13) break outer;
                if (v % 2 == 0) { v /= 2; continue; }
                v = 3 * v + 1;
                do { out += v; } while (out.length() < 3);
            }
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Features f = new Features();
        Features.Inner in = f.new Inner();
        System.out.println(in.peek() + classify("two") + describe(Color.GREEN) + Color.BLUE.code());
        System.out.println(mix(3L, 2.5, 4, 1.5f) + tryFinally(0) + withResources("a", "b"));
        System.out.println(f.lambdas(List.of(1, 2, 3)) + " " + f.patterns("x") + anonymous(3) + arrays());
        Box<String> b = new Box<>("hi");
        System.out.println(b.map(String::length).get() + " " + b.bigger(new Box<>("ha")) + max(List.of(3, 9, 2)));
        System.out.println(new Nested().add("x").items + loops(new TreeMap<>(Map.of("a", 6))));
        Shape[] shapes = {new Circle(2), Rect.square(3)};
        double total = 0;
        for (Shape s : shapes) total += s.area();
        System.out.println(total + " " + new Circle(1).equals(new Circle(1)) + new Rect(1, 2));
    }
}
"#;

/// Superclass / interface knowledge: JDK classes used by the source plus the
/// classes javac produced. Unknown classes are treated as direct subclasses of
/// Object, and assignability questions involving them are answered `true`.
struct Hierarchy {
    supers: HashMap<String, Option<String>>,
    interfaces: Vec<String>,
}

impl Hierarchy {
    fn new(compiled: &[ClassFile]) -> Self {
        let mut supers: HashMap<String, Option<String>> = HashMap::new();
        let object = Some("java/lang/Object".to_string());
        supers.insert("java/lang/Object".into(), None);
        for (c, s) in [
            ("java/lang/String", "java/lang/Object"),
            ("java/lang/Number", "java/lang/Object"),
            ("java/lang/Integer", "java/lang/Number"),
            ("java/lang/Long", "java/lang/Number"),
            ("java/lang/Double", "java/lang/Number"),
            ("java/lang/Character", "java/lang/Object"),
            ("java/lang/Boolean", "java/lang/Object"),
            ("java/lang/Throwable", "java/lang/Object"),
            ("java/lang/Exception", "java/lang/Throwable"),
            ("java/lang/Error", "java/lang/Throwable"),
            ("java/lang/RuntimeException", "java/lang/Exception"),
            (
                "java/lang/IllegalArgumentException",
                "java/lang/RuntimeException",
            ),
            (
                "java/lang/IllegalStateException",
                "java/lang/RuntimeException",
            ),
            (
                "java/lang/ArithmeticException",
                "java/lang/RuntimeException",
            ),
            ("java/lang/MatchException", "java/lang/RuntimeException"),
            ("java/lang/IncompatibleClassChangeError", "java/lang/Error"),
            (
                "java/lang/NoSuchFieldError",
                "java/lang/IncompatibleClassChangeError",
            ),
            ("java/lang/Enum", "java/lang/Object"),
            ("java/lang/Record", "java/lang/Object"),
            ("java/lang/StringBuilder", "java/lang/Object"),
            ("java/lang/Math", "java/lang/Object"),
            ("java/lang/System", "java/lang/Object"),
            ("java/io/PrintStream", "java/lang/Object"),
            ("java/util/ArrayList", "java/lang/Object"),
            ("java/util/TreeMap", "java/lang/Object"),
        ] {
            supers.insert(c.into(), Some(s.into()));
        }
        let mut interfaces: Vec<String> = [
            "java/lang/Runnable",
            "java/lang/Comparable",
            "java/lang/CharSequence",
            "java/lang/AutoCloseable",
            "java/lang/Iterable",
            "java/lang/Cloneable",
            "java/io/Serializable",
            "java/util/Collection",
            "java/util/List",
            "java/util/Map",
            "java/util/Map$Entry",
            "java/util/Iterator",
            "java/util/Comparator",
            "java/util/function/Function",
            "java/util/function/BiFunction",
            "java/util/function/Supplier",
            "java/util/function/BinaryOperator",
            "java/util/function/Predicate",
            "java/util/stream/Stream",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for cf in compiled {
            if cf.access_flags & 0x0200 != 0 {
                interfaces.push(cf.name.clone());
            }
            supers.insert(cf.name.clone(), cf.super_name.clone().or(object.clone()));
        }
        Hierarchy { supers, interfaces }
    }
}

impl ClassHierarchy for Hierarchy {
    fn is_assignable(&self, from: &str, to: &str) -> Result<bool, String> {
        if from == to || to == "java/lang/Object" || self.interfaces.iter().any(|i| i == to) {
            return Ok(true);
        }
        let mut current = from.to_string();
        for _ in 0..100 {
            match self.supers.get(&current) {
                Some(Some(s)) if s == to => return Ok(true),
                Some(Some(s)) => current = s.clone(),
                Some(None) => return Ok(false),
                // Unknown class: answer conservatively.
                None => return Ok(true),
            }
        }
        Ok(false)
    }

    fn is_interface(&self, class: &str) -> Result<bool, String> {
        Ok(self.interfaces.iter().any(|i| i == class))
    }

    fn superclasses(&self, class: &str) -> Result<Vec<String>, String> {
        let mut chain = Vec::new();
        let mut current = class.to_string();
        while chain.len() < 100 {
            match self.supers.get(&current) {
                Some(Some(s)) => current = s.clone(),
                Some(None) => break,
                None if current == "java/lang/Object" => break,
                None => current = "java/lang/Object".to_string(),
            }
            chain.push(current.clone());
        }
        Ok(chain)
    }

    fn protected_in_other_package(
        &self,
        current: &str,
        class: &str,
        name: &str,
        _: &str,
        is_method: bool,
    ) -> Result<bool, String> {
        // Object.clone and Object.finalize are the protected members we know about.
        let known = is_method && (name == "clone" || name == "finalize");
        let package = current.rfind('/').map_or("", |i| &current[..i]);
        Ok(known && self.supers.contains_key(class) && package != "java/lang")
    }
}

fn find_javac() -> Option<PathBuf> {
    let fixed = Path::new("/usr/bin/javac");
    if fixed.exists() {
        return Some(fixed.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("javac"))
        .find(|p| p.exists())
}

fn collect_classes(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_classes(&p, out);
        } else if p.extension().is_some_and(|x| x == "class") {
            out.push(p);
        }
    }
}

#[test]
fn javac_output_verifies() {
    let Some(javac) = find_javac() else {
        eprintln!("javac not found; skipping javac integration test");
        return;
    };
    let dir = std::env::temp_dir().join(format!("jxvm-verifier-javac-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    let src = dir.join("Features.java");
    std::fs::write(&src, SOURCE).expect("write source");
    let out_dir = dir.join("out");
    let status = Command::new(&javac)
        .arg("-d")
        .arg(&out_dir)
        .arg("-g")
        .arg(&src)
        .status();
    let status = match status {
        Ok(s) => s,
        Err(e) => {
            eprintln!("could not run javac ({e}); skipping javac integration test");
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
    };
    assert!(status.success(), "javac failed");

    let mut paths = Vec::new();
    collect_classes(&out_dir, &mut paths);
    paths.sort();
    assert!(
        paths.len() >= 10,
        "expected many classes, got {}",
        paths.len()
    );
    let classes: Vec<ClassFile> = paths
        .iter()
        .map(|p| ClassFile::parse(&std::fs::read(p).expect("read class")).expect("parse class"))
        .collect();
    let hierarchy = Hierarchy::new(&classes);
    let mut failures = Vec::new();
    let mut methods = 0;
    for cf in &classes {
        methods += cf.methods.iter().filter(|m| m.code.is_some()).count();
        if let Err(e) = verify_class(cf, &hierarchy) {
            failures.push(e.to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "verification failures:\n{}",
        failures.join("\n\n")
    );
    eprintln!(
        "verified {} classes, {methods} methods with code",
        classes.len()
    );
}
