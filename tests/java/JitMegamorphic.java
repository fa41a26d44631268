import java.util.*;

/**
 * Virtual and interface calls with more receiver classes than a site checks for: compiled
 * code selects the target through the receiver's vtable (virtual) or the select stub
 * (interface) and calls it directly when it has code, else through the VM. Covers callees
 * with locals beyond their arguments (references among them, kept across collections), wide
 * results, exceptions thrown by the callee, abstract and missing implementations, default
 * methods, deep recursion through such sites, and callees not yet compiled.
 */
public class JitMegamorphic {
    interface Shape {
        long area(int k);
        default double scale(double d) { return d * 2; }
    }
    static abstract class Base implements Shape {
        abstract int apply(int x);
        int id() { return 0; }
    }
    static class A extends Base {
        int apply(int x) { return x + 1; }
        public long area(int k) { return (long) k * k; }
    }
    static class B extends Base {
        int apply(int x) {
            // Locals beyond the arguments, references among them.
            String s = "b" + (x & 7);
            int[] box = new int[] { x };
            Object o = s;
            return box[0] * 3 + o.hashCode() % 5 + s.length();
        }
        public long area(int k) { return -k; }
        int id() { return 2; }
    }
    static class C extends Base {
        int apply(int x) {
            if (x % 9973 == 0) throw new IllegalStateException("C at " + x);
            return x - 7;
        }
        public long area(int k) { return Long.MAX_VALUE - k; }
        public double scale(double d) { return d / 3; }
        int id() { return 3; }
    }
    static class D extends Base {
        int apply(int x) { return x ^ 0x55; }
        public long area(int k) { return k << 20; }
    }
    static class E extends Base {
        long total;
        int apply(int x) {
            for (int i = 0; i < 4; i++) total += x;
            return (int) total;
        }
        public long area(int k) { return total + k; }
    }
    // Never called until the sites are compiled.
    static class Late extends Base {
        int apply(int x) { return x * 11; }
        public long area(int k) { return 42; }
    }
    // Abstract in the middle: the vtable entry an object of Hollow selects is abstract.
    static abstract class Half extends Base { abstract int apply(int x); }
    static class Hollow extends Half {
        int apply(int x) { return x; }
        public long area(int k) { return 1; }
    }
    static class Garbage {
        final byte[] bytes = new byte[64];
    }

    static long virtuals(Base[] bs, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            try {
                s += bs[i % bs.length].apply(i) + bs[(i + 3) % bs.length].id();
            } catch (IllegalStateException e) {
                s += e.getMessage().length();
            }
        }
        return s;
    }

    static long interfaces(Shape[] ss, int n) {
        long s = 0;
        double d = 0;
        for (int i = 0; i < n; i++) {
            Shape sh = ss[i % ss.length];
            s += sh.area(i);
            d += sh.scale(i);
        }
        return s + (long) d;
    }

    static int depth(Base b, int n) {
        return n == 0 ? 0 : 1 + depthOf(b, n - 1);
    }
    static int depthOf(Base b, int n) { return b.apply(0) * 0 + depth(b, n); }

    static long collecting(Base[] bs, int n) {
        long s = 0;
        List<Garbage> keep = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Garbage g = new Garbage();
            if (i % 100 == 0) keep.add(g);
            try {
                s += bs[i % bs.length].apply(i) + g.bytes.length;
            } catch (IllegalStateException e) {
                s -= e.getMessage().length();
            }
        }
        return s + keep.size();
    }

    public static void main(String[] args) {
        Base[] five = { new A(), new B(), new C(), new D(), new E() };
        Shape[] shapes = { new A(), new B(), new C(), new D(), new E() };
        for (int r = 0; r < 6; r++) {
            System.out.println("virtual " + virtuals(five, 40000) + " interface " + interfaces(shapes, 40000));
        }
        Base[] withLate = { new A(), new B(), new Late(), new D(), new Hollow() };
        Shape[] shapesLate = { new Late(), new A(), new Hollow(), new B(), new C() };
        System.out.println("late " + virtuals(withLate, 40000) + " " + interfaces(shapesLate, 40000));
        System.out.println("collecting " + collecting(five, 200000));
        try {
            System.out.println(depth(new A(), 1 << 30));
        } catch (StackOverflowError e) {
            System.out.println("stack overflow caught");
        }
        System.out.println("after overflow " + virtuals(five, 1000) + " " + interfaces(shapes, 1000));
        // A receiver whose class does not implement the interface: compiled code must throw
        // IncompatibleClassChangeError as the interpreter does (javac cannot produce it, so
        // the site is reached through a raw cast).
        Object[] odd = { new A(), new B(), new C(), new D(), "not a shape" };
        long s = 0;
        for (int i = 0; i < 50000; i++) {
            try {
                Object o = odd[i % odd.length];
                if (o instanceof Shape sh) s += sh.area(i);
                else s += ((Comparable<String>) o).compareTo("x");
            } catch (ClassCastException e) {
                s++;
            }
        }
        System.out.println("odd " + s);
    }
}
