import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Core reflection over members, the way frameworks use it: declared fields, methods and
 * constructors (sorted: their order is unspecified) with modifiers, Field get/set of every
 * primitive type with widening and its errors, static fields, final fields made writable with
 * setAccessible, java.lang.reflect.Array (multi-dimensional newInstance, widening get/set,
 * exceptions), records (components, canonical constructor, accessor invocation), enums
 * (constants, valueOf through reflection), sealed hierarchies, nest mates, inherited and
 * overridden methods through getMethods, InvocationTargetException wrapping and
 * IllegalArgumentException for bad arguments.
 */
public class ReflectionMembers {
    static class Holder {
        public boolean z = true;
        public byte b = 1;
        public char c = 'c';
        public short s = 2;
        public int i = 3;
        public long j = 4L;
        public float f = 5.5f;
        public double d = 6.25;
        public String str = "text";
        public Object obj;
        private final int fixed = 10;
        private final String label;
        public static int counter = 7;
        static String name = "holder";
        protected transient volatile int flags;
        Holder() { this("default"); }
        private Holder(String label) { this.label = label; }
        protected Holder(int i, long j) { this("pair"); this.i = i; this.j = j; }
        public int sum() { return i + (int) j; }
        public static String hello(String who) { return "hello " + who; }
        private int secret(int x) { return x * fixed; }
        synchronized void sync() { }
        public final native int nat();
        public static int boom(int mode) throws Exception {
            if (mode == 0) throw new java.io.IOException("io");
            if (mode == 1) throw new ArithmeticException("arith");
            throw new StackOverflowError("fake");
        }
        public String label() { return label; }
        public int fixed() { return fixed; }
    }

    static abstract class Shape {
        public abstract double area();
        public String kind() { return "shape"; }
        @Override public String toString() { return kind() + ":" + area(); }
    }

    static class Square extends Shape {
        final double side;
        Square(double side) { this.side = side; }
        public double area() { return side * side; }
        @Override public String kind() { return "square"; }
    }

    sealed interface Expr permits Num, Add, Neg { }
    record Num(int value) implements Expr { }
    record Add(Expr left, Expr right) implements Expr { }
    static final class Neg implements Expr { }

    record Range(int lo, int hi) {
        Range {
            if (lo > hi) throw new IllegalArgumentException("lo > hi: " + lo + " > " + hi);
        }
        int length() { return hi - lo; }
    }

    enum Planet {
        MERCURY(3.303e+23), EARTH(5.976e+24) {
            @Override String describe() { return "home"; }
        };
        final double mass;
        Planet(double mass) { this.mass = mass; }
        String describe() { return "planet"; }
    }

    static String sig(Executable e) {
        return e.getName() + Arrays.stream(e.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(",", "(", ")"));
    }

    static void members(Class<?> c) {
        List<String> out = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) out.add("  field " + Modifier.toString(f.getModifiers()) + " " + f.getType().getSimpleName() + " " + f.getName() + (f.isSynthetic() ? " synthetic" : ""));
        for (Method m : c.getDeclaredMethods()) out.add("  method " + Modifier.toString(m.getModifiers()) + " " + m.getReturnType().getSimpleName() + " " + sig(m) + (m.isVarArgs() ? " varargs" : "") + (m.isSynthetic() ? " synthetic" : ""));
        for (Constructor<?> k : c.getDeclaredConstructors()) out.add("  ctor " + Modifier.toString(k.getModifiers()) + " " + sig(k).replace(c.getName(), "<init>"));
        out.sort(null);
        System.out.println(c.getSimpleName() + " (" + Modifier.toString(c.getModifiers()) + "):");
        out.forEach(System.out::println);
    }

    static void attempt(String what, ThrowingRunnable r) {
        try {
            System.out.println(what + " -> " + r.run());
        } catch (Throwable e) {
            // Identity hashes (in module names) differ from run to run.
            String msg = e.getMessage() == null ? "" : ": " + e.getMessage().replaceAll("@[0-9a-f]+", "@<hash>");
            System.out.println(what + " -> " + e.getClass().getName() + msg
                + (e.getCause() == null ? "" : " cause=" + e.getCause()));
        }
    }

    interface ThrowingRunnable {
        Object run() throws Throwable;
    }

    public static void main(String[] args) throws Exception {
        members(Holder.class);
        members(Square.class);
        members(Range.class);

        Holder h = new Holder();
        Class<Holder> hc = Holder.class;
        // Every primitive getter with widening, and the failures of narrowing.
        attempt("getInt(b)", () -> hc.getField("b").getInt(h));
        attempt("getLong(i)", () -> hc.getField("i").getLong(h));
        attempt("getDouble(f)", () -> hc.getField("f").getDouble(h));
        attempt("getFloat(j)", () -> hc.getField("j").getFloat(h));
        attempt("getInt(c)", () -> hc.getField("c").getInt(h));
        attempt("getChar(c)", () -> hc.getField("c").getChar(h));
        attempt("getShort(b)", () -> hc.getField("b").getShort(h));
        attempt("getBoolean(z)", () -> hc.getField("z").getBoolean(h));
        attempt("getInt(j) narrowing", () -> hc.getField("j").getInt(h));
        attempt("getInt(z)", () -> hc.getField("z").getInt(h));
        attempt("getShort(c)", () -> hc.getField("c").getShort(h));
        attempt("get(d) boxes", () -> hc.getField("d").get(h).getClass().getSimpleName());
        attempt("setLong(i)", () -> { hc.getField("i").setLong(h, 5L); return h.i; });
        attempt("setInt(j)", () -> { hc.getField("j").setInt(h, -9); return h.j; });
        attempt("setChar(i)", () -> { hc.getField("i").setChar(h, 'A'); return h.i; });
        attempt("setByte(d)", () -> { hc.getField("d").setByte(h, (byte) -2); return h.d; });
        attempt("set(f, Integer)", () -> { hc.getField("f").set(h, 7); return h.f; });
        attempt("set(i, Long) narrowing", () -> { hc.getField("i").set(h, 7L); return h.i; });
        attempt("set(i, String)", () -> { hc.getField("i").set(h, "7"); return h.i; });
        attempt("set(i, null)", () -> { hc.getField("i").set(h, null); return h.i; });
        attempt("set(str, Integer)", () -> { hc.getField("str").set(h, 1); return h.str; });
        attempt("set(obj, list)", () -> { hc.getField("obj").set(h, List.of(1)); return h.obj; });
        attempt("get on wrong object", () -> hc.getField("i").get("string"));
        attempt("get instance field with null", () -> hc.getField("i").get(null));
        attempt("static get", () -> hc.getField("counter").getInt(null));
        attempt("static set", () -> { hc.getField("counter").setInt(null, 99); return Holder.counter; });
        attempt("static package-private", () -> hc.getDeclaredField("name").get(null));
        attempt("final instance set without access", () -> { hc.getDeclaredField("fixed").setInt(h, 1); return h.fixed(); });
        attempt("final instance set with access", () -> {
            Field f = hc.getDeclaredField("fixed");
            f.setAccessible(true);
            f.setInt(h, 11);
            return f.getInt(h) + " " + f.get(h);
        });
        attempt("final String field set", () -> {
            Field f = hc.getDeclaredField("label");
            f.setAccessible(true);
            f.set(h, "changed");
            return h.label();
        });
        attempt("static final set", () -> {
            Field f = ReflectionMembers.class.getDeclaredField("CONSTANT");
            f.setAccessible(true);
            f.set(null, "x");
            return CONSTANT;
        });
        attempt("static final set with access", () -> {
            Field f = ReflectionMembers.class.getDeclaredField("FINAL_CONST");
            f.setAccessible(true);
            f.set(null, "changed");
            return FINAL_CONST;
        });
        attempt("interface constant", () -> {
            Field f = Flagged.class.getField("LIMIT");
            return f.get(null) + " " + Modifier.toString(f.getModifiers());
        });
        attempt("JDK private field setAccessible", () -> {
            String.class.getDeclaredField("value").setAccessible(true);
            return "accessible?!";
        });
        attempt("trySetAccessible on JDK", () -> String.class.getDeclaredField("hash").trySetAccessible());
        attempt("JDK public field", () -> Integer.class.getField("MAX_VALUE").getInt(null));
        attempt("modifiers of flags", () -> Modifier.toString(hc.getDeclaredField("flags").getModifiers()));
        attempt("getField private", () -> hc.getField("fixed"));
        attempt("getDeclaredField missing", () -> hc.getDeclaredField("missing"));

        // Methods and constructors.
        attempt("private ctor", () -> {
            Constructor<Holder> k = hc.getDeclaredConstructor(String.class);
            k.setAccessible(true);
            return k.newInstance("made").label();
        });
        attempt("protected ctor", () -> hc.getDeclaredConstructor(int.class, long.class).newInstance(3, 4L).sum());
        attempt("ctor wrong args", () -> hc.getDeclaredConstructor(int.class, long.class).newInstance("x", 4L));
        attempt("ctor wrong count", () -> hc.getDeclaredConstructor(int.class, long.class).newInstance(3));
        attempt("ctor widening", () -> hc.getDeclaredConstructor(int.class, long.class).newInstance((short) 3, 4).sum());
        attempt("abstract class ctor", () -> Shape.class.getDeclaredConstructor().newInstance());
        attempt("private method", () -> {
            Method m = hc.getDeclaredMethod("secret", int.class);
            m.setAccessible(true);
            return m.invoke(h, 4);
        });
        attempt("static method", () -> hc.getMethod("hello", String.class).invoke(null, "world"));
        attempt("static method with receiver ignored", () -> hc.getMethod("hello", String.class).invoke("ignored", "again"));
        attempt("checked exception wrapped", () -> hc.getMethod("boom", int.class).invoke(null, 0));
        attempt("unchecked exception wrapped", () -> hc.getMethod("boom", int.class).invoke(null, 1));
        attempt("error wrapped", () -> hc.getMethod("boom", int.class).invoke(null, 2));
        attempt("null receiver", () -> hc.getMethod("sum").invoke(null));
        attempt("wrong receiver", () -> hc.getMethod("sum").invoke("str"));
        attempt("native not linked", () -> hc.getMethod("nat").invoke(h));
        attempt("virtual dispatch via super method", () -> Shape.class.getMethod("kind").invoke(new Square(2)));
        attempt("toString via Object method", () -> Object.class.getMethod("toString").invoke(new Square(3)));
        attempt("abstract method invoke", () -> Shape.class.getMethod("area").invoke(new Square(1.5)));
        attempt("interface method invoke", () -> Comparable.class.getMethod("compareTo", Object.class).invoke("b", "a"));
        attempt("varargs", () -> String.class.getMethod("format", String.class, Object[].class).invoke(null, "%s-%s", new Object[] {"a", "b"}));
        attempt("getMethods of Square", () -> Arrays.stream(Square.class.getMethods()).filter(m -> m.getDeclaringClass() != Object.class)
            .map(m -> m.getDeclaringClass().getSimpleName() + "." + m.getName()).sorted().toList());
        attempt("getMethod inherited toString", () -> Square.class.getMethod("toString").getDeclaringClass().getSimpleName());
        attempt("getMethod missing", () -> Square.class.getMethod("missing", int.class));
        attempt("Method equals", () -> Square.class.getMethod("area").equals(Square.class.getMethod("area")) + " " + Square.class.getMethod("area").equals(Shape.class.getMethod("area")));
        attempt("Method toString", () -> hc.getMethod("boom", int.class).toString());

        // java.lang.reflect.Array.
        attempt("multi-dim int", () -> {
            int[][][] a = (int[][][]) Array.newInstance(int.class, 2, 3, 4);
            a[1][2][3] = 42;
            return a.length + "x" + a[0].length + "x" + a[0][0].length + " " + Array.getInt(Array.get(Array.get(a, 1), 2), 3) + " " + a.getClass().getName();
        });
        attempt("array of arrays", () -> Array.newInstance(String[].class, 2).getClass().getSimpleName());
        attempt("setInt on long[]", () -> { long[] l = new long[2]; Array.setInt(l, 1, 7); return Arrays.toString(l); });
        attempt("setLong on int[]", () -> { Array.setLong(new int[2], 1, 7L); return "no"; });
        attempt("getDouble of char[]", () -> Array.getDouble(new char[] {'A'}, 0));
        attempt("set Integer into double[]", () -> { double[] dd = new double[1]; Array.set(dd, 0, 3); return dd[0]; });
        attempt("set String into Integer[]", () -> { Array.set(new Integer[1], 0, "s"); return "no"; });
        attempt("set null into int[]", () -> { Array.set(new int[1], 0, null); return "no"; });
        attempt("get out of bounds", () -> Array.get(new int[2], 2));
        attempt("get negative", () -> Array.getInt(new int[2], -1));
        attempt("length of non-array", () -> Array.getLength("x"));
        attempt("newInstance void", () -> Array.newInstance(void.class, 1));
        attempt("newInstance negative", () -> Array.newInstance(int.class, -1));
        attempt("newInstance no dims", () -> Array.newInstance(int.class, new int[0]));
        attempt("getBoolean of boolean[]", () -> Array.getBoolean(new boolean[] {true}, 0));
        attempt("getInt of boolean[]", () -> Array.getInt(new boolean[] {true}, 0));
        attempt("component types", () -> int[][].class.getComponentType() + " " + Object[].class.getComponentType() + " " + String.class.getComponentType()
            + " " + int[].class.arrayType().getName() + " " + String.class.arrayType().componentType().getName() + " " + int[].class.descriptorString());

        // Records.
        RecordComponent[] rcs = Range.class.getRecordComponents();
        attempt("record components", () -> Arrays.stream(rcs).map(rc -> rc.getType() + " " + rc.getName()).toList());
        attempt("isRecord", () -> Range.class.isRecord() + " " + Holder.class.isRecord() + " " + Record.class.isRecord());
        attempt("canonical ctor", () -> Range.class.getDeclaredConstructor(Arrays.stream(rcs).map(RecordComponent::getType).toArray(Class<?>[]::new)).newInstance(1, 5));
        attempt("canonical ctor rejects", () -> Range.class.getDeclaredConstructor(int.class, int.class).newInstance(5, 1));
        attempt("accessors", () -> {
            Range r = new Range(2, 9);
            List<Object> vals = new ArrayList<>();
            for (RecordComponent rc : rcs) vals.add(rc.getAccessor().invoke(r));
            return vals + " length=" + Range.class.getDeclaredMethod("length").invoke(r);
        });
        attempt("record field final", () -> {
            Field f = Range.class.getDeclaredField("lo");
            f.setAccessible(true);
            f.setInt(new Range(0, 1), 5);
            return "changed";
        });

        // Enums.
        attempt("enum constants", () -> Arrays.toString(Planet.class.getEnumConstants()));
        attempt("constant classes", () -> Arrays.stream(Planet.values()).map(p -> p.getClass() == Planet.class ? "Planet" : "subclass isEnum=" + p.getClass().isEnum() + " declaring=" + p.getDeclaringClass().getSimpleName()).toList());
        attempt("valueOf", () -> Enum.valueOf(Planet.class, "EARTH").describe());
        attempt("valueOf bad", () -> Enum.valueOf(Planet.class, "PLUTO"));
        attempt("enum ctor", () -> Planet.class.getDeclaredConstructor(String.class, int.class, double.class));
        attempt("enum ctor newInstance", () -> {
            Constructor<?> k = Planet.class.getDeclaredConstructors()[0];
            k.setAccessible(true);
            return k.newInstance("X", 9, 1.0);
        });
        attempt("enum field isEnumConstant", () -> Planet.class.getField("EARTH").isEnumConstant() + " " + Planet.class.getDeclaredField("mass").isEnumConstant());
        attempt("getEnumConstants of non-enum", () -> String.class.getEnumConstants());

        // Sealed classes and nest mates.
        attempt("sealed", () -> Expr.class.isSealed() + " " + Arrays.stream(Expr.class.getPermittedSubclasses()).map(Class::getSimpleName).toList() + " " + Num.class.isSealed() + " " + Num.class.getPermittedSubclasses());
        attempt("nest host", () -> Num.class.getNestHost().getSimpleName() + " " + ReflectionMembers.class.getNestHost().getSimpleName() + " " + String.class.getNestHost().getSimpleName());
        attempt("nest mates", () -> Holder.class.isNestmateOf(Square.class) + " " + Holder.class.isNestmateOf(String.class));
        attempt("nest members", () -> Arrays.stream(ReflectionMembers.class.getNestMembers()).map(Class::getSimpleName).sorted().toList());
        attempt("declared classes", () -> Arrays.stream(ReflectionMembers.class.getDeclaredClasses()).map(Class::getSimpleName).sorted().toList());
        attempt("anonymous/local", () -> {
            class Local { }
            Object anon = new Object() { };
            return Local.class.isLocalClass() + " " + Local.class.getEnclosingMethod().getName() + " " + anon.getClass().isAnonymousClass()
                + " '" + anon.getClass().getSimpleName() + "' " + Local.class.getSimpleName() + " " + Local.class.getName();
        });
        attempt("Class.forName no init", () -> Class.forName("ReflectionMembers$Lazy", false, ReflectionMembers.class.getClassLoader()).getSimpleName());
        attempt("Class.forName init", () -> Class.forName("ReflectionMembers$Lazy", true, ReflectionMembers.class.getClassLoader()).getSimpleName());
        attempt("Class.forName array", () -> Class.forName("[[Ljava.lang.String;").getSimpleName() + " " + Class.forName("[I").getName());
        attempt("Class.forName primitive", () -> Class.forName("int"));
        attempt("cast", () -> Number.class.cast(5) + " " + Integer.class.cast(null));
        attempt("bad cast", () -> Integer.class.cast("5"));
        attempt("asSubclass", () -> Integer.class.asSubclass(Number.class).getSimpleName());
        attempt("bad asSubclass", () -> String.class.asSubclass(Number.class));
        attempt("packages", () -> String.class.getPackageName() + " '" + ReflectionMembers.class.getPackageName() + "' " + Holder.class.getPackage().getName().isEmpty());
        System.out.println("Lazy initialized at end=" + Lazy.initialized);
    }

    static String CONSTANT = "const";
    static final String FINAL_CONST = new String("final");

    interface Flagged {
        int LIMIT = 10;
    }

    static class Lazy {
        static boolean initialized;
        static {
            initialized = true;
            System.out.println("Lazy <clinit>");
        }
    }
}
