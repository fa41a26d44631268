import java.util.concurrent.atomic.AtomicInteger;

// Calls the JIT inlines (constructors, getters, setters, small static helpers, Object.<init>)
// must behave exactly as calls: field values of every type, the write barrier of an old
// holder given young objects (checked across collections), receivers that are null (the
// call's NullPointerException and its message), objects of finalizable classes made through
// inlined constructors (still registered and finalized), objects allocated inline and
// surviving collections, and a stack trace taken just after inlined calls. Each part runs
// in a loop long enough for the default tiers to compile it; -Xcomp compiles it at once.
@SuppressWarnings("deprecation")
public class JitInlining {
    static final class Point {
        private final int x;
        private final long y;
        private double weight;
        private float scale;
        private Object tag;
        private byte b;
        private char c;
        private short s;
        private boolean flag;

        Point(int x, long y) {
            this.x = x;
            this.y = y;
        }

        int x() { return x; }
        long y() { return y; }
        double weight() { return weight; }
        float scale() { return scale; }
        Object tag() { return tag; }
        byte b() { return b; }
        char c() { return c; }
        short s() { return s; }
        boolean flag() { return flag; }

        void setWeight(double w) { weight = w; }
        void setScale(float f) { scale = f; }
        void setTag(Object t) { tag = t; }
        void setSmall(byte b, char c, short s, boolean f) {
            this.b = b;
            this.c = c;
            this.s = s;
            this.flag = f;
        }

        static long mix(long a, int b) { return a * 31 + b; }
        static double half(double d) { return d * 0.5; }
        long sum() { return mix(y, x); }
    }

    static class Holder {
        private Object value;
        void set(Object v) { value = v; }
        Object get() { return value; }
    }

    static final AtomicInteger finalized = new AtomicInteger();

    // Divisions by constants cannot throw: inlined. By a variable: called, and it throws.
    static int halve(int v) { return v / 2 + v % 7; }
    static int negate(int v) { return v / -1 + v % -1; }
    static long thirds(long v) { return v / 3 + v % 3L; }
    static int by(int v, int d) { return v / d; }

    static long divisions(int n) {
        long s = 0;
        for (int i = -n; i < n; i++) {
            s += halve(i) + negate(i) + thirds((long) i * 1_000_003L) + by(i, (i & 7) + 1);
        }
        s += negate(Integer.MIN_VALUE) + halve(Integer.MIN_VALUE) + thirds(Long.MIN_VALUE);
        try {
            s += by(n, 0);
        } catch (ArithmeticException ex) {
            s += ex.getMessage().length();
        }
        return s;
    }

    static class Base {
        final int id;
        Base(int id) { this.id = id; }
    }

    static class Finalizable extends Base {
        Finalizable(int id) { super(id); }
        @Override protected void finalize() { finalized.incrementAndGet(); }
    }

    static class Plain extends Base {
        Plain(int id) { super(id); }
    }

    static long points(int n) {
        long acc = 0;
        for (int i = 0; i < n; i++) {
            Point p = new Point(i, i * 3L);
            p.setWeight(i / 4.0);
            p.setScale(i / 8.0f);
            p.setSmall((byte) i, (char) (i + 65), (short) -i, (i & 1) == 0);
            p.setTag(p.flag() ? "even" : null);
            acc += p.x() + p.y() + (long) p.weight() + (long) (p.scale() * 8) + p.b() + p.c() + p.s();
            acc += p.flag() ? 1 : 0;
            acc += p.tag() == null ? 0 : p.tag().hashCode() & 7;
            acc += p.sum() + (long) Point.half(i);
        }
        return acc;
    }

    static String barrier(Holder[] old, int rounds) {
        long check = 0;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < old.length; i++) {
                old[i].set(new int[] {r, i});
            }
            if (r % 50 == 0) {
                System.gc();
            }
            for (Holder h : old) {
                int[] v = (int[]) h.get();
                check += v[0] * 7L + v[1];
            }
        }
        return "barrier " + check;
    }

    static int nullReceivers(Point[] ps) {
        int npes = 0;
        String message = null;
        for (int round = 0; round < 3000; round++) {
            for (Point p : ps) {
                try {
                    npes += p.x() >= 0 ? 0 : 1;
                } catch (NullPointerException e) {
                    npes++;
                    message = e.getMessage();
                }
            }
        }
        System.out.println("npe message: " + message);
        return npes;
    }

    static int make(int n, boolean finalizable) {
        int ids = 0;
        for (int i = 0; i < n; i++) {
            Base b = finalizable ? new Finalizable(i) : new Plain(i);
            ids += b.id & 1;
        }
        return ids;
    }

    static void waitForFinalization(int atLeast) throws InterruptedException {
        for (int i = 0; i < 200 && finalized.get() < atLeast; i++) {
            System.gc();
            System.runFinalization();
            Thread.sleep(10);
        }
    }

    static StackTraceElement traced(int i) {
        Point p = new Point(i, i);
        p.setWeight(p.x());
        return new Throwable().getStackTrace()[0];
    }

    public static void main(String[] args) throws Exception {
        System.out.println("points " + points(200_000));
        System.out.println("divisions " + divisions(100_000));

        Holder[] old = new Holder[64];
        for (int i = 0; i < old.length; i++) {
            old[i] = new Holder();
        }
        System.gc();
        System.out.println(barrier(old, 400));

        Point[] ps = {new Point(1, 2), null, new Point(3, 4)};
        System.out.println("npes " + nullReceivers(ps));

        System.out.println("plain " + make(100_000, false));
        System.out.println("finalizable " + make(2_000, true));
        waitForFinalization(2_000);
        System.out.println("finalized all: " + (finalized.get() == 2_000));

        StackTraceElement e = null;
        for (int i = 0; i < 20_000; i++) {
            e = traced(i);
        }
        System.out.println("trace " + e.getMethodName() + ":" + e.getLineNumber());
    }
}
