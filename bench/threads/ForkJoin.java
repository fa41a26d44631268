import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * Fork-join: a ForkJoinPool of parallelism 2 sums a long[] with a RecursiveTask that splits in
 * halves down to leaves of 256 elements (many small tasks: the cost is mostly forking, stealing
 * and joining). Figures: ms per whole sum and ns per task, over reps sums after a warm-up of
 * reps/4. stdout: the sum and the tasks per sum.
 */
public final class ForkJoin {
    private static final int LEAF = 256;

    private static final class Sum extends RecursiveTask<Long> {
        private final long[] a;
        private final int from;
        private final int to;

        Sum(long[] a, int from, int to) {
            this.a = a;
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long compute() {
            if (to - from <= LEAF) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += a[i];
                }
                return s;
            }
            int mid = (from + to) >>> 1;
            Sum left = new Sum(a, from, mid);
            left.fork();
            long right = new Sum(a, mid, to).compute();
            return right + left.join();
        }
    }

    /** The tasks one sum over `len` elements creates (itself included). */
    private static long tasks(int len) {
        return len <= LEAF ? 1 : 1 + tasks(len >>> 1) + tasks(len - (len >>> 1));
    }

    public static void main(String[] args) {
        boolean large = Bench.large(args);
        int len = 1 << 20;
        int reps = large ? 400 : 8;
        long[] a = new long[len];
        for (int i = 0; i < len; i++) {
            a[i] = (i * 2654435761L) & 0xffff;
        }
        ForkJoinPool pool = new ForkJoinPool(2);
        long sum = 0;
        long t0 = 0;
        for (int r = 0; r < reps / 4 + reps; r++) {
            if (r == reps / 4) {
                t0 = System.nanoTime();
            }
            sum = pool.invoke(new Sum(a, 0, len));
        }
        long elapsed = System.nanoTime() - t0;
        pool.shutdown();
        Bench.perOp("forkjoin_sum", elapsed, reps, "ms");
        Bench.perOp("forkjoin_task", elapsed, reps * tasks(len), "ns");
        System.out.println("ForkJoin sum " + sum + " tasks " + tasks(len));
    }
}
