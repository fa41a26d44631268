import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;

/**
 * Threads under load, with exact results: 8 threads x 1,000,000 synchronized increments of one
 * counter (synchronized blocks and synchronized methods, plus re-entry), a 100,000-round
 * wait/notify ping-pong between two threads, and a parallel-stream sum.
 */
public class ThreadStress {
    static final int THREADS = 8;
    static final int INCREMENTS = 1_000_000;
    static final int ROUNDS = 100_000;

    static final Object lock = new Object();
    static long blockCounter;
    static long methodCounter;

    static synchronized void incrementStatic() { methodCounter++; }

    static final class Counter {
        long value;
        synchronized void increment() { value++; }
        synchronized void incrementTwice() { increment(); increment(); } // re-entry
    }

    static void syncIncrements() throws InterruptedException {
        Counter counter = new Counter();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] ts = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            final int kind = i % 3;
            ts[i] = new Thread(() -> {
                try { start.await(); } catch (InterruptedException e) { throw new RuntimeException(e); }
                for (int n = 0; n < INCREMENTS; n++) {
                    switch (kind) {
                        case 0 -> { synchronized (lock) { blockCounter++; } }
                        case 1 -> incrementStatic();
                        default -> { if ((n & 1) == 0) counter.incrementTwice(); }
                    }
                }
            }, "incrementer-" + i);
            ts[i].start();
        }
        start.countDown();
        for (Thread t : ts) t.join();
        System.out.println("synchronized blocks: " + blockCounter + " (expected " + 3L * INCREMENTS + ")");
        System.out.println("synchronized static method: " + methodCounter + " (expected " + 3L * INCREMENTS + ")");
        System.out.println("synchronized re-entrant methods: " + counter.value + " (expected " + 2L * INCREMENTS + ")");
    }

    /** Two threads take turns: each waits until `turn` is its own, then passes it on. */
    static final class PingPong {
        int turn;
        long exchanges;
        synchronized void play(int me, int rounds) throws InterruptedException {
            for (int r = 0; r < rounds; r++) {
                while (turn != me) wait();
                exchanges++;
                turn = 1 - me;
                notifyAll();
            }
        }
    }

    static void pingPong() throws InterruptedException {
        PingPong game = new PingPong();
        Thread other = new Thread(() -> {
            try { game.play(1, ROUNDS); } catch (InterruptedException e) { throw new RuntimeException(e); }
        }, "pong");
        other.start();
        game.play(0, ROUNDS);
        other.join();
        System.out.println("wait/notify ping-pong exchanges: " + game.exchanges + " (expected " + 2L * ROUNDS + ")");
    }

    static void parallelSum() {
        long n = 2_000_000;
        long sum = LongStream.rangeClosed(1, n).parallel().map(x -> x * 3 + 1).sum();
        long expected = 3 * (n * (n + 1) / 2) + n;
        System.out.println("parallel stream sum: " + sum + " matches closed form: " + (sum == expected));
    }

    public static void main(String[] args) throws InterruptedException {
        syncIncrements();
        pingPong();
        parallelSum();
    }
}
