// JVMFLAGS: -Xmx48m
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

// Many finalizable objects: rounds of 100,000 objects (about 20 MB each round with their
// Finalizers) in a 48 MB heap, each round dropped and finalized before the next; every object
// is finalized exactly once, the sum of their ids proves it, and nothing is kept, so the
// rounds do not run out of memory. Objects from several threads at once, too.
@SuppressWarnings("deprecation")
public class FinalizeMany {
    static final AtomicInteger finalized = new AtomicInteger();
    static final AtomicLong idSum = new AtomicLong();

    static class Item {
        final int id;
        final long[] body = new long[8];
        Item(int id) { this.id = id; }
        @Override protected void finalize() {
            idSum.addAndGet(id);
            finalized.incrementAndGet();
        }
    }

    static void make(int from, int n) {
        for (int i = 0; i < n; i++) new Item(from + i);
    }

    static boolean waitForCount(int n) throws InterruptedException {
        for (int i = 0; i < 3000; i++) {
            if (finalized.get() >= n) return true;
            System.gc();
            System.runFinalization();
            Thread.sleep(10);
        }
        return finalized.get() >= n;
    }

    public static void main(String[] args) throws Exception {
        final int perRound = 100_000;
        int total = 0;
        for (int round = 0; round < 3; round++) {
            make(total, perRound);
            total += perRound;
            boolean done = waitForCount(total);
            System.out.println("round " + round + ": all finalized " + done + ", count " + finalized.get());
        }
        Thread[] ts = new Thread[4];
        final int base = total;
        for (int k = 0; k < ts.length; k++) {
            final int from = base + k * 25_000;
            ts[k] = new Thread(() -> make(from, 25_000));
            ts[k].start();
        }
        for (Thread t : ts) t.join();
        total += 100_000;
        System.out.println("threads: all finalized " + waitForCount(total) + ", count " + finalized.get());
        long expected = (long) total * (total - 1) / 2;
        System.out.println("id sum matches: " + (idSum.get() == expected));
    }
}
