import java.util.concurrent.locks.LockSupport;

/**
 * Hand-off latency between two threads: a token goes back and forth n times, first with
 * LockSupport.park/unpark on a volatile turn, then with wait/notify on one monitor. Figures:
 * us per round trip (there and back), timed after a warm-up of n/4 round trips. stdout: the
 * sum of the values passed (each side adds one), the same on every VM.
 */
public final class PingPong {
    private static volatile int turn; // 0: ping's move, 1: pong's move
    private static volatile long value;
    private static volatile Thread ping;
    private static volatile Thread pong;
    private static final Object MONITOR = new Object();

    /** One side of the park/unpark game: waits for its turn, adds one, gives the turn over. */
    private static void parkSide(int me, int n) {
        for (int i = 0; i < n; i++) {
            while (turn != me) {
                LockSupport.park();
            }
            value = value + 1;
            turn = 1 - me;
            LockSupport.unpark(me == 0 ? pong : ping);
        }
    }

    /** The same with wait/notify. */
    private static void waitSide(int me, int n) {
        synchronized (MONITOR) {
            for (int i = 0; i < n; i++) {
                while (turn != me) {
                    try {
                        MONITOR.wait();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                value = value + 1;
                turn = 1 - me;
                MONITOR.notify();
            }
        }
    }

    private static long park(int n) throws InterruptedException {
        turn = 0;
        ping = new Thread(() -> parkSide(0, n));
        pong = new Thread(() -> parkSide(1, n));
        long t0 = System.nanoTime();
        ping.start();
        pong.start();
        ping.join();
        pong.join();
        return System.nanoTime() - t0;
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Bench.large(args) ? 1_000_000 : 20_000;
        park(n / 4);
        Bench.perOp("park_unpark_round_trip", park(n), n, "us");
        long afterPark = value;
        long elapsed = 0;
        for (int len : new int[] {n / 4, n}) {
            turn = 0;
            elapsed = Bench.inTwoThreads(() -> waitSide(0, len), () -> waitSide(1, len));
        }
        Bench.perOp("wait_notify_round_trip", elapsed, n, "us");
        System.out.println("PingPong park " + afterPark + " wait " + (value - afterPark));
    }
}
