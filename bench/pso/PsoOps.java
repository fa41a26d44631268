import jx.memory.Memory;
import jx.pso.*;

/**
 * Jaguar's Figure 7 on jxvm (issue 21): the cost of PSO operations and their Java
 * counterparts in nanoseconds per operation, each in its own method (so compiled code sees
 * its classes resolved), best of five rounds after warm-up rounds. Run by bench/pso-run
 * interpreted (-Xint) and compiled. Prints "name<TAB>ns" lines.
 */
public class PsoOps {
    static class Node extends PSO {
        int count;
        Node next;
    }

    static class Plain {
        int count;
        Plain next;
    }

    static final int SLOTS = 4096;
    static Object sink;
    static int isink;

    interface Op {
        void run(long n);
    }

    public static void main(String[] args) {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        String[] names = {"pso create", "java new", "pso recover", "pso follow recovered reference",
            "java follow reference", "pso int field write", "java int field write",
            "pso int field read", "java int field read", "pso array write", "java int[] write",
            "pso array read", "java int[] read"};
        Op[] ops = {PsoOps::create, PsoOps::newPlain, PsoOps::recover, PsoOps::follow,
            PsoOps::followPlain, PsoOps::psoWrite, PsoOps::javaWrite, PsoOps::psoRead,
            PsoOps::javaRead, PsoOps::psoArrayWrite, PsoOps::javaArrayWrite,
            PsoOps::psoArrayRead, PsoOps::javaArrayRead};
        double[] best = new double[ops.length];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        for (int round = 0; round < 8; round++) {
            for (int i = 0; i < ops.length; i++) {
                long t0 = System.nanoTime();
                ops[i].run(n);
                double ns = (System.nanoTime() - t0) / (double) n;
                if (round >= 3) best[i] = Math.min(best[i], ns);
            }
        }
        for (int i = 0; i < ops.length; i++) System.out.printf("%s\t%.2f%n", names[i], best[i]);
    }

    static final Container C = Container.over(Memory.allocate(16L * SLOTS + 64));
    static final Node A, B;
    static final Plain P = new Plain();
    static {
        A = C.allocate(Node.class);
        B = C.allocate(Node.class);
        A.next = B;
        P.next = new Plain();
    }
    static final Container ARRAYS = Container.over(Memory.allocate(4L << 16));
    static final IntArray PA = ARRAYS.allocateInts(1 << 16);
    static final int[] JA = new int[1 << 16];

    static void create(long n) {
        Container c = Container.over(Memory.allocate(16L * SLOTS));
        for (long i = 0; i < n; i++) {
            if ((i & (SLOTS - 1)) == 0) c.setUsed(0);
            sink = c.allocate(Node.class);
        }
    }

    static void newPlain(long n) {
        for (long i = 0; i < n; i++) sink = new Plain();
    }

    static void recover(long n) {
        Container c = C;
        for (long i = 0; i < n; i++) sink = c.at(Node.class, (i & (SLOTS - 1)) * 16);
    }

    static void follow(long n) {
        Container c = C;
        for (long i = 0; i < n; i++) sink = c.at(Node.class, 0).next;
    }

    static void followPlain(long n) {
        Plain p = P;
        for (long i = 0; i < n; i++) sink = p.next;
    }

    static void psoWrite(long n) {
        Node a = A;
        for (int i = 0; i < n; i++) a.count = i;
    }

    static void javaWrite(long n) {
        Plain p = P;
        for (int i = 0; i < n; i++) p.count = i;
    }

    static void psoRead(long n) {
        Node a = A;
        int s = 0;
        for (int i = 0; i < n; i++) s += a.count;
        isink = s;
    }

    static void javaRead(long n) {
        Plain p = P;
        int s = 0;
        for (int i = 0; i < n; i++) s += p.count;
        isink = s;
    }

    static void psoArrayWrite(long n) {
        IntArray a = PA;
        int len = a.length();
        for (long r = 0; r < n; r += len) for (int i = 0; i < len; i++) a.set(i, i);
    }

    static void javaArrayWrite(long n) {
        int[] a = JA;
        int len = a.length;
        for (long r = 0; r < n; r += len) for (int i = 0; i < len; i++) a[i] = i;
    }

    static void psoArrayRead(long n) {
        IntArray a = PA;
        int len = a.length(), s = 0;
        for (long r = 0; r < n; r += len) for (int i = 0; i < len; i++) s += a.get(i);
        isink = s;
    }

    static void javaArrayRead(long n) {
        int[] a = JA;
        int len = a.length, s = 0;
        for (long r = 0; r < n; r += len) for (int i = 0; i < len; i++) s += a[i];
        isink = s;
    }
}
