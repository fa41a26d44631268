import java.util.ArrayList;
import java.util.List;

/**
 * The edges of what compiled code does itself, each run hot enough to be compiled (on-stack
 * replacement in a loop, then by calls): integer division and remainder at MIN/-1 and by zero,
 * shifts past the width, float and double conversions of NaN and infinities, comparisons with
 * NaN, switches with negative and sparse keys, sub-word array and field stores, exceptions
 * thrown inside a compiled loop and caught there or by the caller (with their line numbers),
 * reference stores into old objects (the write barrier) while the collector runs, monitors
 * in a loop, float and double fields beside int ones, and deep recursion ending in
 * StackOverflowError.
 */
public class JitEdges {
    static final int HOT = 30_000;

    static int idiv(int a, int b) { return a / b; }
    static int irem(int a, int b) { return a % b; }
    static long ldiv(long a, long b) { return a / b; }
    static long lrem(long a, long b) { return a % b; }

    static long arithmetic() {
        long h = 0;
        int[] ints = {Integer.MIN_VALUE, -7, -1, 0, 1, 7, Integer.MAX_VALUE};
        long[] longs = {Long.MIN_VALUE, -7, -1, 0, 1, 7, Long.MAX_VALUE};
        for (int k = 0; k < HOT; k++) {
            for (int a : ints) {
                for (int b : ints) {
                    if (b != 0) h = h * 31 + idiv(a, b) + irem(a, b);
                    h = h * 31 + (a << b) + (a >> b) + (a >>> b);
                }
            }
            for (long a : longs) {
                for (long b : longs) {
                    if (b != 0) h = h * 31 + ldiv(a, b) + lrem(a, b);
                    h = h * 31 + (a << b) + (a >> b) + (a >>> b);
                }
            }
        }
        return h;
    }

    static long conversions() {
        float[] fs = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 1e10f, -1e10f, 2.5f, -2.5f, Float.MIN_VALUE};
        double[] ds = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 1e19, -1e19, 2.5, -2.5, Double.MIN_VALUE};
        long h = 0;
        for (int k = 0; k < HOT / 10; k++) {
            for (float f : fs) {
                h = h * 31 + (int) f + (long) f + Double.doubleToRawLongBits(f) + Float.floatToRawIntBits(f % 3.0f);
                for (float g : fs) h = h * 3 + (f < g ? 1 : 0) + (f > g ? 2 : 0) + (f == g ? 4 : 0) + Float.compare(f, g);
            }
            for (double d : ds) {
                h = h * 31 + (int) d + (long) d + Float.floatToRawIntBits((float) d) + Double.doubleToRawLongBits(d % -7.5);
                for (double e : ds) h = h * 3 + (d < e ? 1 : 0) + (d >= e ? 2 : 0) + (d != e ? 4 : 0) + Double.compare(d, e);
            }
            for (int i = -200; i < 200; i += 37) {
                h = h * 31 + (byte) (i * 3) + (char) (i * 1000) + (short) (i * 1000) + (long) i + (long) ((float) i * 1.5f) + Double.doubleToRawLongBits(i * 1e-3);
            }
        }
        return h;
    }

    static int classify(int k) {
        switch (k) {
            case -3: return 10;
            case -1: return 11;
            case 0: return 12;
            case 1: return 13;
            case 2: return 14;
            case 3: return 15;
            default: return -1;
        }
    }

    static int sparse(int k) {
        switch (k) {
            case Integer.MIN_VALUE: return 1;
            case -100000: return 2;
            case 7: return 3;
            case 1 << 20: return 4;
            case Integer.MAX_VALUE: return 5;
            default: return 0;
        }
    }

    static long switches() {
        long h = 0;
        int[] keys = {Integer.MIN_VALUE, -100000, -4, -3, -2, -1, 0, 1, 2, 3, 4, 7, 1 << 20, Integer.MAX_VALUE};
        for (int k = 0; k < HOT; k++) {
            for (int key : keys) h = h * 31 + classify(key) * 7 + sparse(key);
        }
        return h;
    }

    static final class Packed {
        byte b;
        short s;
        char c;
        boolean z;
        float f;
        double d;
        Object ref;
    }

    static long subwords() {
        byte[] bytes = new byte[16];
        short[] shorts = new short[16];
        char[] chars = new char[16];
        boolean[] bools = new boolean[16];
        Packed p = new Packed();
        long h = 0;
        for (int k = 0; k < HOT * 4; k++) {
            int i = k & 15;
            bytes[i] = (byte) (k * 7);
            shorts[i] = (short) (k * 1001);
            chars[i] = (char) (k * 1001);
            bools[i] = (k & 3) == 1;
            p.b = (byte) k;
            p.s = (short) (k * 3);
            p.c = (char) (k * 5);
            p.z = !p.z;
            p.f += 0.5f;
            p.d -= 0.25;
            h = h * 31 + bytes[(i + 3) & 15] + shorts[(i + 5) & 15] + chars[(i + 7) & 15] + (bools[(i + 1) & 15] ? 1 : 0);
            h += p.b + p.s + p.c + (p.z ? 1 : 0);
        }
        return h + (long) p.f + (long) p.d;
    }

    static final class Mixed {
        int i;
        float f;
        int j;
        long l;
        double d;
        Mixed next;
    }

    /**
     * Float and double fields beside int and long ones (typed loads and stores of the right
     * width), NaN payloads kept through fields, and a reference whose null check was already
     * passed becoming null on one path.
     */
    static long typedFields() {
        Mixed m = new Mixed();
        m.next = new Mixed();
        Mixed q = m;
        long h = 0;
        for (int k = 0; k < HOT * 2; k++) {
            m.i = k;
            m.f = m.f * 0.5f + k;
            m.j = ~k;
            m.l += k;
            m.d = m.d * 0.25 + m.f;
            m.next.f = Float.intBitsToFloat(0x7fc00001 + (k & 7));
            m.next.d = Double.longBitsToDouble(0x7ff8000000000001L + (k & 7));
            h = h * 31 + m.i + m.j + (long) m.f + m.l + (long) m.d;
            h = h * 31 + Float.floatToRawIntBits(m.next.f) + Double.doubleToRawLongBits(m.next.d);
            h += q.i;
            if ((k & 7) == 3) q = null;
            try {
                h += q.j;
            } catch (NullPointerException e) {
                h += 1000;
                q = (k & 1) == 0 ? m : m.next;
            }
        }
        return h;
    }

    static class Animal { int legs() { return 4; } }
    static final class Bird extends Animal { @Override int legs() { return 2; } }
    static class Cat extends Animal {}
    static final class Kitten extends Cat {}

    /**
     * checkcast and instanceof on null, the exact class, subclasses, interfaces and arrays,
     * with casts that fail inside the compiled loop; and objects made by new of several classes.
     */
    static long typeChecks() {
        Object[] things = {new Animal(), new Bird(), new Cat(), new Kitten(), null, "s", new int[1],
                new String[1], new Object[1], Integer.valueOf(3)};
        long h = 0;
        for (int k = 0; k < HOT; k++) {
            Object o = things[k % things.length];
            h = h * 31 + (o instanceof Animal ? 1 : 0) + (o instanceof Cat ? 2 : 0)
                    + (o instanceof Kitten ? 4 : 0) + (o instanceof CharSequence ? 8 : 0)
                    + (o instanceof Object[] ? 16 : 0) + (o instanceof String[] ? 32 : 0)
                    + (o instanceof Bird ? 64 : 0);
            try {
                Cat c = (Cat) o;
                h += c == null ? 7 : c.legs();
            } catch (ClassCastException e) {
                h += e.getMessage().length();
            }
            try {
                Object[] arr = (Object[]) o;
                h += arr == null ? 11 : arr.length * 13;
            } catch (ClassCastException e) {
                h += 17;
            }
            Animal made = (k & 1) == 0 ? new Bird() : new Kitten();
            h += made.legs();
        }
        return h;
    }

    static long wide(long a, int b) { return a * 31 + b; }
    static double half(double d) { return d * 0.5; }
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    /** Catches what it throws: the callee leaves its code and finishes in the interpreter. */
    static int catchesItself(int k) {
        try {
            if ((k & 3) == 0) throw new IllegalStateException("k" + k);
            return k;
        } catch (IllegalStateException e) {
            return e.getMessage().length();
        }
    }

    static int throwsOut(int k) {
        if (k % 5 == 0) throw new IllegalArgumentException("five");
        return k;
    }

    private long secret(long x) { return x ^ 0x5555; }
    final double scaled(double x) { return x * field; }
    double field = 1.5;

    /**
     * Calls compiled code makes straight into compiled code: static, private, final and
     * constructor calls returning ints, longs and doubles; a callee that throws to its caller
     * and one that catches its own exception (finished in the interpreter); recursion.
     */
    static long directCalls() {
        JitEdges self = new JitEdges();
        long h = 0;
        double d = 0;
        for (int k = 0; k < HOT; k++) {
            h = wide(h, k);
            d += half(k) + self.scaled(k);
            h += self.secret(k);
            h += catchesItself(k);
            try {
                h += throwsOut(k);
            } catch (IllegalArgumentException e) {
                h += e.getStackTrace()[0].getMethodName().length();
            }
            if ((k & 1023) == 0) h += fib(15);
            h += new Kitten().legs();
        }
        return h + (long) d;
    }

    static int thrower(int[] a, int i) {
        return a[i] / (i - 5);
    }

    static String exceptions() {
        StringBuilder sb = new StringBuilder();
        int[] a = new int[10];
        int caught = 0;
        for (int k = 0; k < HOT; k++) {
            try {
                a[k % 10] = thrower(a, k % 12);
            } catch (ArithmeticException e) {
                caught++;
            } catch (ArrayIndexOutOfBoundsException e) {
                caught += 100;
                if (k == 10) {
                    sb.append(e.getMessage()).append(" at line ").append(e.getStackTrace()[0].getLineNumber()).append(' ');
                }
            }
        }
        sb.append(caught);
        Object o = null;
        int npes = 0;
        for (int k = 0; k < HOT; k++) {
            try {
                o = (k % 1000 == 999) ? null : "x" + (k & 7);
                npes += o.hashCode() & 1;
            } catch (NullPointerException e) {
                npes += 1000;
            }
        }
        return sb.append(' ').append(npes).toString();
    }

    static final class Node {
        Node next;
        Object payload;
    }

    /** Old nodes get young payloads over and over: the barrier must remember them. */
    static long barrier() {
        List<Node> old = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            Node n = new Node();
            n.next = old.isEmpty() ? null : old.get(old.size() - 1);
            old.add(n);
        }
        System.gc();
        long h = 0;
        for (int round = 0; round < 50; round++) {
            for (Node n : old) {
                n.payload = new int[] {round, h > 0 ? 1 : 0};
            }
            for (int i = 0; i < 20000; i++) {
                h += new byte[64].length;
            }
            for (Node n : old) {
                h += ((int[]) n.payload)[0];
            }
        }
        return h;
    }

    /** Math's intrinsics compiled code emits inline, at their edges (NaN, -0.0, MIN). */
    static long mathIntrinsics() {
        double[] ds = {Double.NaN, -0.0, 0.0, -0.5, 0.5, 1.5, 2.5, -2.5, -7.0, 1e300, Double.NEGATIVE_INFINITY, 3.0000000001};
        int[] is = {Integer.MIN_VALUE, -1, 0, 5, Integer.MAX_VALUE};
        long[] ls = {Long.MIN_VALUE, -1, 0, 5, Long.MAX_VALUE};
        long h = 0;
        for (int k = 0; k < HOT / 10; k++) {
            for (double d : ds) {
                h = h * 31 + Double.doubleToRawLongBits(Math.sqrt(d)) + Double.doubleToRawLongBits(Math.floor(d))
                        + Double.doubleToRawLongBits(Math.ceil(d)) + Double.doubleToRawLongBits(Math.rint(d))
                        + Double.doubleToRawLongBits(StrictMath.sqrt(d));
            }
            for (int a : is) {
                for (int b : is) h = h * 31 + Math.abs(a) + Math.max(a, b) * 3 + Math.min(a, b);
            }
            for (long a : ls) {
                for (long b : ls) h = h * 31 + Math.abs(a) + Math.max(a, b) * 3 + Math.min(a, b);
            }
        }
        return h;
    }

    static int counter;

    static int monitors() {
        Object lock = new Object();
        for (int k = 0; k < HOT; k++) {
            synchronized (lock) {
                counter += k & 3;
            }
        }
        return counter;
    }

    static int depth;

    static void recurse() {
        depth++;
        recurse();
    }

    public static void main(String[] args) {
        System.out.println("arithmetic " + arithmetic());
        System.out.println("conversions " + conversions());
        System.out.println("switches " + switches());
        System.out.println("subwords " + subwords());
        System.out.println("typed fields " + typedFields());
        System.out.println("type checks " + typeChecks());
        System.out.println("direct calls " + directCalls());
        System.out.println("exceptions " + exceptions());
        System.out.println("barrier " + barrier());
        System.out.println("monitors " + monitors());
        System.out.println("math " + mathIntrinsics());
        for (int i = 0; i < 3; i++) {
            depth = 0;
            try {
                recurse();
            } catch (StackOverflowError e) {
                System.out.println("overflow " + (depth > 1000));
            }
        }
    }
}
