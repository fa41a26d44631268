import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * Barrier cost (after Java Grande's JGFBarrierBench): two threads meet n times at a
 * CyclicBarrier of 2 parties whose action counts the rounds. Figure: us per round, timed after
 * a warm-up of n/4 rounds. stdout: the rounds the barrier action counted.
 */
public final class Barrier {
    private static int rounds;

    private static Runnable side(CyclicBarrier barrier, int n) {
        return () -> {
            try {
                for (int i = 0; i < n; i++) {
                    barrier.await();
                }
            } catch (InterruptedException | BrokenBarrierException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Bench.large(args) ? 1_000_000 : 20_000;
        CyclicBarrier barrier = new CyclicBarrier(2, () -> rounds++);
        long elapsed = 0;
        for (int len : new int[] {n / 4, n}) {
            elapsed = Bench.inTwoThreads(side(barrier, len), side(barrier, len));
        }
        Bench.perOp("cyclicbarrier_round", elapsed, n, "us");
        System.out.println("Barrier rounds " + rounds);
    }
}
