import java.util.concurrent.locks.ReentrantLock;

/**
 * Contended lock cost: two threads each increment one shared counter n times, under one
 * monitor (synchronized block), then under one ReentrantLock. Figures are ns per increment
 * (the wall time of both threads, start to join, over 2n), each timed after a warm-up run of a
 * quarter of the length. stdout: the counters, exactly 2n each if the locks exclude.
 */
public final class LockContended {
    private static final Object LOCK = new Object();
    private static final ReentrantLock REENTRANT = new ReentrantLock();
    private static long monitorCount;
    private static long reentrantCount;

    private static void monitor(int n) {
        for (int i = 0; i < n; i++) {
            synchronized (LOCK) {
                monitorCount++;
            }
        }
    }

    private static void reentrant(int n) {
        for (int i = 0; i < n; i++) {
            REENTRANT.lock();
            try {
                reentrantCount++;
            } finally {
                REENTRANT.unlock();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Bench.large(args) ? 20_000_000 : 500_000;
        long elapsed = 0;
        for (int len : new int[] {n / 4, n}) {
            monitorCount = 0;
            elapsed = Bench.inTwoThreads(() -> monitor(len), () -> monitor(len));
        }
        Bench.perOp("monitor_2_threads", elapsed, 2L * n, "ns");
        for (int len : new int[] {n / 4, n}) {
            reentrantCount = 0;
            elapsed = Bench.inTwoThreads(() -> reentrant(len), () -> reentrant(len));
        }
        Bench.perOp("reentrantlock_2_threads", elapsed, 2L * n, "ns");
        System.out.println("LockContended n " + n + " monitor " + monitorCount + " reentrantlock " + reentrantCount);
    }
}
