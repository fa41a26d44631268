/**
 * Virtual and interface dispatch: monomorphic, bimorphic and megamorphic call sites, through
 * an interface and through an abstract class.
 */
public class Dispatch {
    interface Shape {
        int weight(int k);
    }

    abstract static class Op {
        abstract int apply(int x);
    }

    static final class A extends Op implements Shape {
        public int weight(int k) { return k + 1; }
        int apply(int x) { return x + 3; }
    }

    static final class B extends Op implements Shape {
        public int weight(int k) { return k ^ 5; }
        int apply(int x) { return x * 3; }
    }

    static final class C extends Op implements Shape {
        public int weight(int k) { return k << 1; }
        int apply(int x) { return x - 7; }
    }

    static final class D extends Op implements Shape {
        public int weight(int k) { return k * 7; }
        int apply(int x) { return x ^ 0x55; }
    }

    static final class E extends Op implements Shape {
        public int weight(int k) { return k - 2; }
        int apply(int x) { return x >>> 1; }
    }

    static final class F extends Op implements Shape {
        public int weight(int k) { return k | 3; }
        int apply(int x) { return x + (x >> 4); }
    }

    static final class G extends Op implements Shape {
        public int weight(int k) { return ~k; }
        int apply(int x) { return x & 0xFFFF; }
    }

    static final class H extends Op implements Shape {
        public int weight(int k) { return k % 11; }
        int apply(int x) { return -x; }
    }

    static int shapes(Shape[] s, int reps) {
        int acc = 0;
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < s.length; i++) acc += s[i].weight(i + r);
        return acc;
    }

    static int ops(Op[] o, int reps) {
        int x = 1;
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < o.length; i++) x = o[i].apply(x) + i;
        return x;
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int reps = size.equals("large") ? 200_000 : 1_500;
        int len = 1000;
        Op[] mono = new Op[len], bi = new Op[len], mega = new Op[len];
        Op[] all = {new A(), new B(), new C(), new D(), new E(), new F(), new G(), new H()};
        for (int i = 0; i < len; i++) {
            mono[i] = new A();
            bi[i] = (i & 1) == 0 ? new A() : new B();
            mega[i] = all[(i * 5 + i / 8) % 8];
        }
        Shape[] sMono = new Shape[len], sBi = new Shape[len], sMega = new Shape[len];
        for (int i = 0; i < len; i++) {
            sMono[i] = (Shape) mono[i];
            sBi[i] = (Shape) bi[i];
            sMega[i] = (Shape) mega[i];
        }
        int v1 = ops(mono, reps), v2 = ops(bi, reps), v3 = ops(mega, reps);
        int i1 = shapes(sMono, reps), i2 = shapes(sBi, reps), i3 = shapes(sMega, reps);
        System.out.println("Dispatch reps=" + reps + " virtual=" + v1 + "," + v2 + "," + v3
                + " interface=" + i1 + "," + i2 + "," + i3);
    }
}
