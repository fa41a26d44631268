import java.util.concurrent.locks.ReentrantLock;

/**
 * Uncontended lock cost on one thread: a loop whose body takes a lock, increments a field and
 * releases the lock, as a synchronized block on a private object, a call of a synchronized
 * method and ReentrantLock lock/unlock; beside them the same loops without a lock, the
 * baselines (the increment inline, and a call of a plain method): synchronized_block and
 * reentrantlock compare with loop_no_lock, synchronized_method with call_no_lock. Figures are
 * ns per loop iteration, each loop timed after a warm-up run of a quarter of its length.
 * stdout: the counter, the same on every VM.
 */
public final class LockUncontended {
    private final Object lock = new Object();
    private final ReentrantLock reentrant = new ReentrantLock();
    private long count;

    private void plainInc() {
        count++;
    }

    private synchronized void syncInc() {
        count++;
    }

    private void loop(int n) {
        for (int i = 0; i < n; i++) {
            count++;
        }
    }

    private void call(int n) {
        for (int i = 0; i < n; i++) {
            plainInc();
        }
    }

    private void block(int n) {
        for (int i = 0; i < n; i++) {
            synchronized (lock) {
                count++;
            }
        }
    }

    private void method(int n) {
        for (int i = 0; i < n; i++) {
            syncInc();
        }
    }

    private void reentrantLock(int n) {
        for (int i = 0; i < n; i++) {
            reentrant.lock();
            try {
                count++;
            } finally {
                reentrant.unlock();
            }
        }
    }

    public static void main(String[] args) {
        int n = Bench.large(args) ? 100_000_000 : 2_000_000;
        LockUncontended b = new LockUncontended();
        String[] names = {"loop_no_lock", "call_no_lock", "synchronized_block", "synchronized_method", "reentrantlock"};
        for (int k = 0; k < names.length; k++) {
            for (int len : new int[] {n / 4, n}) {
                long t0 = System.nanoTime();
                switch (k) {
                    case 0 -> b.loop(len);
                    case 1 -> b.call(len);
                    case 2 -> b.block(len);
                    case 3 -> b.method(len);
                    default -> b.reentrantLock(len);
                }
                if (len == n) {
                    Bench.perOp(names[k], System.nanoTime() - t0, n, "ns");
                }
            }
        }
        System.out.println("LockUncontended count " + b.count);
    }
}
