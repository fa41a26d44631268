/**
 * Thread start cost: n times, create a Thread of an empty Runnable, start it and join it.
 * Figure: us per start+join, timed after a warm-up of n/4. stdout: how many threads ran.
 */
public final class ThreadStart {
    private static final Runnable EMPTY = () -> {};

    private static int startAndJoin(int n) throws InterruptedException {
        int joined = 0;
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(EMPTY);
            t.start();
            t.join();
            if (!t.isAlive()) {
                joined++;
            }
        }
        return joined;
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Bench.large(args) ? 100_000 : 5_000;
        int joined = startAndJoin(n / 4);
        long t0 = System.nanoTime();
        joined += startAndJoin(n);
        Bench.perOp("thread_start_join", System.nanoTime() - t0, n, "us");
        System.out.println("ThreadStart joined " + joined);
    }
}
