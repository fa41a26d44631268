import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Locale;

/**
 * Calls through an interface, plain and through a java.lang.reflect.Proxy whose handler invokes
 * the same implementation, on any JVM: the same-domain peers of PortalCalls's portal calls (a
 * jxvm portal is a Proxy whose handler crosses into the service's domain). No jx.* class is
 * used, so HotSpot runs this too; PortalCalls reuses its interface, Point, Impl and timing.
 *
 *   ProxyCalls
 *
 * Prints "plain.OP ns/call VALUE calls N checksum C" and "proxy.OP ..." lines, OP one of nop,
 * add, sum (a Point parameter), make (a Point result), string (a 16-char String parameter):
 * VALUE is the median over REPETITIONS rounds of N calls each (N is grown until a round takes
 * ROUND_NANOS, which is the warm-up, then WARM_UPS more rounds run untimed). The loop's own
 * cost is included. A round whose results do not add up to what the calls must return prints
 * a line starting with FAILED, and the program then exits 1.
 */
public final class ProxyCalls {
    /** The calls measured; PortalCalls's portal interface extends this one. */
    public interface Calls {
        void nop();
        int add(int a, int b);
        int sum(Point p);
        Point make(int x, int y);
        int length(String s);
    }

    /** A small object parameter and result: two ints, nothing else (a portal deep-copies it). */
    public static final class Point {
        public int x;
        public int y;

        public Point(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    public static class Impl implements Calls {
        public void nop() {}
        public int add(int a, int b) { return a + b; }
        public int sum(Point p) { return p.x + p.y; }
        public Point make(int x, int y) { return new Point(x, y); }
        public int length(String s) { return s.length(); }
    }

    /** The String parameter: 16 characters. */
    static final String TEXT = "portal-string-16";

    static final int REPETITIONS = 7;
    static final int WARM_UPS = 2;
    /** How long one timed round should take; calls per round are grown until it does. */
    static final long ROUND_NANOS = 15_000_000L;

    /** One round: {@code n} calls, returning the sum of what they returned. */
    public interface Loop {
        long run(int n);
    }

    // The loops, one per call, through an interface-typed reference so each call is an
    // invokeinterface (or a proxy's, or a portal's, when c is one).

    public static long nop(Calls c, int n) {
        for (int i = 0; i < n; i++) c.nop();
        return n;
    }

    public static long add(Calls c, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += c.add(i, 7);
        return s;
    }

    public static long sum(Calls c, int n) {
        long s = 0;
        Point p = new Point(0, 3);
        for (int i = 0; i < n; i++) {
            p.x = i;
            s += c.sum(p);
        }
        return s;
    }

    public static long make(Calls c, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            Point p = c.make(i, 5);
            s += p.x + p.y;
        }
        return s;
    }

    public static long string(Calls c, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += c.length(TEXT);
        return s;
    }

    /** What a round of {@code n} calls of {@code op} must return (the loops above, in closed form). */
    static long expected(String op, long n) {
        long triangle = n * (n - 1) / 2;
        switch (op) {
            case "nop": return n;
            case "add": return triangle + 7 * n;
            case "sum": return triangle + 3 * n;
            case "make": return triangle + 5 * n;
            case "string": return TEXT.length() * n;
            default: throw new IllegalArgumentException(op);
        }
    }

    static int failures = 0;

    /**
     * Times {@code loop} as measurement {@code kind.op}: grows the calls per round until a round
     * takes ROUND_NANOS, runs WARM_UPS rounds more, then REPETITIONS timed rounds, and prints the
     * median ns per call. Every round's result is checked against {@link #expected}.
     *
     * @return the median ns per call
     */
    public static double measure(String kind, String op, Loop loop) {
        String name = kind + "." + op;
        int n = 16;
        while (true) {
            long start = System.nanoTime();
            check(name, n, loop.run(n));
            long elapsed = System.nanoTime() - start;
            if (elapsed >= ROUND_NANOS || n >= (1 << 28)) break;
            // Aim a little past the target so a round after warm-up is not just under it.
            long next = elapsed <= 0 ? (long) n * 16 : (long) ((double) n * ROUND_NANOS * 1.2 / elapsed);
            n = (int) Math.min(1 << 28, Math.max((long) n * 2, Math.min(next, (long) n * 16)));
        }
        for (int r = 0; r < WARM_UPS; r++) check(name, n, loop.run(n));
        long[] nanos = new long[REPETITIONS];
        for (int r = 0; r < REPETITIONS; r++) {
            long start = System.nanoTime();
            long v = loop.run(n);
            nanos[r] = System.nanoTime() - start;
            check(name, n, v);
        }
        Arrays.sort(nanos);
        double perCall = (double) nanos[REPETITIONS / 2] / n;
        System.out.println(name + " ns/call " + String.format(Locale.ROOT, "%.3f", perCall) + " calls " + n
            + " checksum " + expected(op, n));
        return perCall;
    }

    private static void check(String name, int n, long got) {
        String op = name.substring(name.indexOf('.') + 1);
        long want = expected(op, n);
        if (got != want) {
            // One line per measurement is enough; later rounds would repeat it.
            if (failures++ < 20) {
                System.out.println("FAILED " + name + ": " + n + " calls returned " + got + ", expected " + want);
            }
        }
    }

    /** All five calls of {@code c} as measurements {@code kind.*}. */
    public static void measureAll(String kind, Calls c) {
        measure(kind, "nop", n -> nop(c, n));
        measure(kind, "add", n -> add(c, n));
        measure(kind, "sum", n -> sum(c, n));
        measure(kind, "make", n -> make(c, n));
        measure(kind, "string", n -> string(c, n));
    }

    /** A Proxy implementing Calls whose handler invokes {@code target} reflectively. */
    static Calls proxyOf(Calls target) {
        InvocationHandler h = (proxy, method, args) -> {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Calls) Proxy.newProxyInstance(Calls.class.getClassLoader(), new Class<?>[] {Calls.class}, h);
    }

    public static void main(String[] args) {
        System.out.println("# ProxyCalls median of " + REPETITIONS + " rounds of about " + ROUND_NANOS / 1_000_000
            + " ms after warm-up");
        Calls impl = new Impl();
        Calls proxy = proxyOf(impl);
        if (!Proxy.isProxyClass(proxy.getClass())) {
            System.out.println("FAILED the proxy is not a java.lang.reflect.Proxy instance");
            failures++;
        }
        measureAll("plain", impl);
        measureAll("proxy", proxy);
        if (failures > 0) {
            System.out.println(failures + " rounds returned wrong results");
            System.exit(1);
        }
        System.out.println("results agree");
    }
}
