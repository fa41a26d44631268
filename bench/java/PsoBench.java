import jx.memory.Memory;
import jx.pso.*;

/**
 * Jaguar's Figure 7 on jxvm (issue 21): the cost of PSO operations against their Java
 * counterparts, in nanoseconds per operation, after a warm-up. Run by bench/pso-run, which
 * runs it interpreted (-Xint) and compiled. Prints "name ns" lines.
 */
public class PsoBench {
    static class Node extends PSO {
        int count;
        Node next;
    }

    static class Plain {
        int count;
        Plain next;
    }

    static volatile Object sink;
    static int isink;

    public static void main(String[] args) {
        long iters = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
        for (int round = 0; round < 3; round++) {
            boolean last = round == 2;
            run(iters, last);
        }
    }

    static void report(boolean print, String name, long start, long n) {
        if (print) {
            System.out.printf("%-28s %8.1f%n", name, (System.nanoTime() - start) / (double) n);
        }
    }

    static void run(long iters, boolean print) {
        int slots = 4096;
        Container c = Container.over(Memory.allocate(16L * slots + 64));
        // create: Container.allocate (zeroing, constructor) against new.
        long t0 = System.nanoTime();
        for (long i = 0; i < iters; i++) {
            if ((i & (slots - 1)) == 0) c.setUsed(0);
            sink = c.allocate(Node.class);
        }
        report(print, "pso create", t0, iters);
        t0 = System.nanoTime();
        for (long i = 0; i < iters; i++) sink = new Plain();
        report(print, "java new", t0, iters);
        // recover: Container.at.
        t0 = System.nanoTime();
        for (long i = 0; i < iters; i++) sink = c.at(Node.class, (i & (slots - 1)) * 16);
        report(print, "pso recover", t0, iters);
        // follow a recovered reference: a fresh object reads its next field.
        c.setUsed(0);
        Node a = c.allocate(Node.class), b = c.allocate(Node.class);
        a.next = b;
        t0 = System.nanoTime();
        for (long i = 0; i < iters; i++) sink = c.at(Node.class, 0).next;
        report(print, "pso recover+follow", t0, iters);
        // field write and read.
        Plain p = new Plain();
        t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) a.count = i;
        report(print, "pso int field write", t0, iters);
        t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) p.count = i;
        report(print, "java int field write", t0, iters);
        int s = 0;
        t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) s += a.count;
        report(print, "pso int field read", t0, iters);
        t0 = System.nanoTime();
        for (int i = 0; i < iters; i++) s += p.count;
        report(print, "java int field read", t0, iters);
        isink = s;
        // arrays: fill then sum, per element.
        int n = 1 << 16;
        c = Container.over(Memory.allocate(4L * n));
        IntArray pa = c.allocateInts(n);
        int[] ja = new int[n];
        int reps = (int) Math.max(1, iters / n);
        t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) for (int i = 0; i < n; i++) pa.set(i, i + r);
        report(print, "pso array write", t0, (long) reps * n);
        t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) for (int i = 0; i < n; i++) ja[i] = i + r;
        report(print, "java int[] write", t0, (long) reps * n);
        t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) for (int i = 0; i < n; i++) s += pa.get(i);
        report(print, "pso array read", t0, (long) reps * n);
        t0 = System.nanoTime();
        for (int r = 0; r < reps; r++) for (int i = 0; i < n; i++) s += ja[i];
        report(print, "java int[] read", t0, (long) reps * n);
        isink = s;
    }
}
