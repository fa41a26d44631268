/**
 * Parallel speed-up of a CPU-bound kernel: the Mandelbrot set (as the main suite's kernel:
 * up to 50 iterations, escape at |z|^2 > 4) on a w x w grid, rows dealt round robin to T
 * threads, run with T = 1 and T = 2. After one warm-up run of each, each is timed twice,
 * alternating, and the faster run of each kept. Figures: ms with 1 and 2 threads and the
 * speed-up (1-thread time over 2-thread time; 2.0 is perfect on 2 cores). stdout: the points
 * in the set and a hash of the per-row counts (equal for T = 1 and 2, else it says so).
 */
public final class ParallelSpeedup {
    private static int[] mandelbrot(int w, int threads) throws InterruptedException {
        int[] rows = new int[w];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int first = t;
            ts[t] = new Thread(() -> {
                for (int y = first; y < w; y += threads) {
                    rows[y] = row(y, w);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        return rows;
    }

    /** The points of row y in the set. */
    private static int row(int y, int w) {
        int in = 0;
        double ci = 2.0 * y / w - 1.0;
        for (int x = 0; x < w; x++) {
            double cr = 2.0 * x / w - 1.5;
            double zr = 0, zi = 0;
            int i = 0;
            while (i < 50 && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                i++;
            }
            if (i == 50) {
                in++;
            }
        }
        return in;
    }

    private static long timed(int w, int threads, int[][] out) throws InterruptedException {
        long t0 = System.nanoTime();
        out[threads - 1] = mandelbrot(w, threads);
        return System.nanoTime() - t0;
    }

    public static void main(String[] args) throws InterruptedException {
        int w = Bench.large(args) ? 4000 : 400;
        int[][] out = new int[2][];
        long best1 = Long.MAX_VALUE, best2 = Long.MAX_VALUE;
        for (int rep = 0; rep < 3; rep++) {
            long t1 = timed(w, 1, out);
            long t2 = timed(w, 2, out);
            if (rep > 0) { // rep 0 is the warm-up
                best1 = Math.min(best1, t1);
                best2 = Math.min(best2, t2);
            }
        }
        Bench.perOp("mandelbrot_1_thread", best1, 1, "ms");
        Bench.perOp("mandelbrot_2_threads", best2, 1, "ms");
        Bench.metric("speedup_1_to_2_threads", (double) best1 / best2, "x");
        long points = 0, hash = 0;
        for (int c : out[0]) {
            points += c;
            hash = hash * 31 + c;
        }
        boolean same = java.util.Arrays.equals(out[0], out[1]);
        System.out.println("ParallelSpeedup points " + points + " hash " + hash + (same ? "" : " 2-THREAD RESULT DIFFERS"));
    }
}
