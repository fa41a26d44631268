import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;

// Roots in class metadata: static fields, string constants and interned strings, Class
// objects, enum constants, lambdas and method references stored in statics, records, and a
// class initialized only after collections. All must stay valid (same identity, same
// contents) across heavy allocation and System.gc(). Under JXVM_GC_STRESS the garbage volume
// shrinks (HotSpot sees the same environment variable).
public class GcStatics {
    static final boolean SMALL = System.getenv("JXVM_GC_STRESS") != null;
    static final int GARBAGE = SMALL ? 300 : 400_000;

    enum Color {
        RED("r", 1), GREEN("g", 2), BLUE("b", 3);
        final String code;
        final int weight;
        final List<String> tags = new ArrayList<>();
        Color(String code, int weight) {
            this.code = code;
            this.weight = weight;
            for (int i = 0; i < weight; i++) tags.add(code + i);
        }
    }

    enum Op implements IntBinaryOperator {
        ADD { public int applyAsInt(int a, int b) { return a + b; } },
        MUL { public int applyAsInt(int a, int b) { return a * b; } }
    }

    record Point(int x, int y, String name) { }

    static final String CONST = "a compile-time constant";
    static String nonFinal = "initialized " + "at runtime".length();
    static final Object LOCK = new Object();
    static int[] counts = { 1, 2, 3, 4, 5 };
    static Object[] mixed = { "str", 42, 3.5, new int[] { 9, 8 }, Color.GREEN, new Point(1, 2, "p") };
    static Point origin = new Point(0, 0, "origin");
    static final Map<Color, String> byColor = new EnumMap<>(Color.class);
    static Supplier<String> supplier;
    static Function<Integer, Integer> adder;
    static Function<String, Integer> length = String::length;
    static Runnable counter;
    static int counted;
    static Class<?> stringClass = String.class;
    static Class<?> selfClass;

    static class Later {
        static final List<String> items = new ArrayList<>();
        static {
            for (int i = 0; i < 100; i++) items.add("later-" + i);
        }
    }

    static long garbage(int salt) {
        long s = 0;
        for (int i = 0; i < GARBAGE; i++) {
            if ((i & 1) == 0) s += ("t" + (i % 1000) + salt).length();
            else s += new long[i % 64].length;
        }
        return s;
    }

    static String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(CONST).append('|').append(nonFinal).append('|');
        for (int c : counts) sb.append(c);
        sb.append('|').append(mixed[0]).append(mixed[1]).append(mixed[2]);
        int[] inner = (int[]) mixed[3];
        sb.append(inner[0]).append(inner[1]).append(mixed[4]).append(mixed[5]);
        sb.append('|').append(origin);
        sb.append('|').append(byColor);
        for (Color c : Color.values()) sb.append('|').append(c).append(c.code).append(c.weight).append(c.tags);
        sb.append('|').append(Op.ADD.applyAsInt(6, 7)).append(',').append(Op.MUL.applyAsInt(6, 7));
        sb.append('|').append(supplier.get()).append(',').append(adder.apply(10)).append(',').append(length.apply("four"));
        return sb.toString();
    }

    static String makeCaptured() {
        int[] box = { 100 };
        String captured = "captured-" + box[0];
        supplier = () -> captured + "/" + box[0]++;
        int base = 1000;
        adder = v -> v + base;
        counter = () -> counted++;
        return captured;
    }

    public static void main(String[] args) throws Exception {
        for (Color c : Color.values()) byColor.put(c, c.name().toLowerCase());
        makeCaptured();
        selfClass = Class.forName("GcStatics");

        // identities to compare after collections
        String constBefore = CONST;
        String literal = "hello literal";
        String interned = new String("dyn" + "amic".length()).intern();
        Object redBefore = Color.RED;
        Object lockBefore = LOCK;
        Object supplierBefore = supplier;
        Object lengthBefore = length;
        Class<?> colorClass = Color.class;
        Object[] mixedBefore = mixed;
        String before = describe();
        int lockHash = System.identityHashCode(LOCK);
        int redHash = Color.RED.hashCode();

        System.out.println("garbage 1: " + garbage(1));
        System.gc();
        System.out.println("garbage 2: " + garbage(2));
        System.gc();

        System.out.println("describe() unchanged: " + before.replace("captured-100/100", "captured-100/101").equals(describe()));
        System.out.println("describe: " + describe());
        System.out.println("constant identity: " + (constBefore == CONST) + " " + (CONST == "a compile-time constant"));
        System.out.println("literal identity: " + (literal == "hello literal"));
        System.out.println("interned identity: " + (interned == "dyn4") + " " + (new String("dyn4").intern() == interned));
        String fresh = new String("fresh-" + 7);
        String freshInterned = fresh.intern();
        garbage(3);
        System.gc();
        System.out.println("interned after gc: " + (("fresh-" + 7).intern() == freshInterned) + " " + (freshInterned == "fresh-7"));
        System.out.println("enum identity: " + (redBefore == Color.RED) + " " + (Color.valueOf("RED") == Color.RED)
            + " " + (Color.values()[0] == Color.RED) + " ordinal " + Color.BLUE.ordinal() + " hash kept " + (redHash == Color.RED.hashCode()));
        System.out.println("enum switch: " + colorName(Color.GREEN) + " " + colorName(Color.BLUE));
        System.out.println("lock identity: " + (lockBefore == LOCK) + " hash kept " + (lockHash == System.identityHashCode(LOCK)));
        synchronized (LOCK) {
            garbage(4);
            System.gc();
            System.out.println("synchronized on static across gc: " + Thread.holdsLock(LOCK));
        }
        System.out.println("lambda identity: " + (supplierBefore == supplier) + " " + (lengthBefore == length));
        for (int i = 0; i < 5; i++) counter.run();
        System.out.println("counter lambda: " + counted + ", supplier: " + supplier.get());
        System.out.println("class identity: " + (colorClass == Color.class) + " " + (Class.forName("GcStatics$Color") == Color.class)
            + " " + (stringClass == String.class) + " " + (selfClass == GcStatics.class));
        System.out.println("class names: " + Color.class.getName() + " " + Point.class.getSimpleName() + " " + int[][].class.getName());
        System.out.println("array static identity: " + (mixedBefore == mixed) + " " + ((Point) mixed[5]).name());

        // reflection on static fields after the mirrors (which hold them) moved
        Field f = GcStatics.class.getDeclaredField("nonFinal");
        System.out.println("reflective read: " + f.get(null));
        f.set(null, "set reflectively " + garbage(5) % 10);
        System.gc();
        System.out.println("after reflective write + gc: " + nonFinal);
        Field c = GcStatics.class.getDeclaredField("counts");
        int[] arr = (int[]) c.get(null);
        arr[0] = 99;
        System.gc();
        System.out.println("static array via reflection: " + counts[0] + " same " + (arr == counts));

        // a class first initialized after collections; then its statics survive more of them
        System.out.println("Later.items: " + Later.items.size() + " " + Later.items.get(42));
        garbage(6);
        System.gc();
        StringBuilder all = new StringBuilder();
        for (String s : Later.items) all.append(s.charAt(s.length() - 1));
        System.out.println("Later.items after gc: " + Later.items.get(99) + " " + all.toString().hashCode());

        // replacing statics with new objects while garbage is produced
        for (int i = 0; i < 50; i++) {
            origin = new Point(i, -i, "p" + i);
            if (i % 10 == 0) garbage(i);
        }
        System.gc();
        System.out.println("last static point: " + origin);
        System.out.println("records equal after gc: " + origin.equals(new Point(49, -49, "p49")) + " hash " + (origin.hashCode() == new Point(49, -49, "p49").hashCode()));
    }

    static String colorName(Color c) {
        switch (c) {
            case RED: return "red!";
            case GREEN: return "green!";
            default: return "other:" + c.code;
        }
    }
}
