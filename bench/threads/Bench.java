import java.util.Locale;

/**
 * Helpers shared by the thread benchmarks (not a kernel): the size argument, the metric lines the
 * runner collects from stderr, and a pair of threads run to their end.
 */
final class Bench {
    private Bench() {}

    /** Whether the size argument is {@code large}; anything else (or nothing) is {@code small}. */
    static boolean large(String[] args) {
        return args.length > 0 && args[0].equals("large");
    }

    /**
     * Prints {@code metric NAME VALUE UNIT} on stderr: one measured figure, which the runner
     * reads (stdout carries only the deterministic checksum line).
     */
    static void metric(String name, double value, String unit) {
        System.err.println("metric " + name + " " + String.format(Locale.ROOT, "%.4g", value) + " " + unit);
    }

    /** {@code nanos} spread over {@code ops} operations, in the unit: "ns", "us" or "ms". */
    static void perOp(String name, long nanos, long ops, String unit) {
        double scale = unit.equals("ns") ? 1 : unit.equals("us") ? 1e3 : 1e6;
        metric(name, nanos / scale / ops, unit);
    }

    /**
     * Runs {@code a} and {@code b} on two new threads and waits for both; gives the nanoseconds
     * from before the first start to after the last join.
     */
    static long inTwoThreads(Runnable a, Runnable b) throws InterruptedException {
        Thread ta = new Thread(a, "bench-a");
        Thread tb = new Thread(b, "bench-b");
        long t0 = System.nanoTime();
        ta.start();
        tb.start();
        ta.join();
        tb.join();
        return System.nanoTime() - t0;
    }
}
