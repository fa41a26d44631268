// JVMFLAGS: -Xmx8m
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Six threads allocate through an 8 MB heap at once: three produce 1 KB arrays into a shared
 * queue, three consume them under a lock, and all build strings meanwhile. Every allocation
 * must succeed (the heap never holds more than about 1 MB of live data), even when other
 * threads take the room a thread's collection freed before it allocates.
 */
public class GcThreadsSmallHeap {
    public static void main(String[] args) throws Exception {
        int rounds = System.getenv("JXVM_GC_STRESS") != null ? 2_000 : 100_000;
        BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(1000);
        Object lock = new Object();
        long[] total = {0};
        Throwable[] failure = {null};
        Thread[] threads = new Thread[6];
        for (int k = 0; k < threads.length; k++) {
            boolean producer = k % 2 == 0;
            threads[k] = new Thread(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        if (producer) {
                            byte[] b = new byte[1000];
                            b[999] = 1;
                            queue.put(b);
                        } else {
                            byte[] b = queue.take();
                            synchronized (lock) { total[0] += b.length + b[999]; }
                        }
                        String s = "item " + i;
                        if (s.length() < 6) throw new AssertionError(s);
                    }
                } catch (Throwable e) {
                    synchronized (lock) { if (failure[0] == null) failure[0] = e; }
                    queue.clear();
                }
            });
            threads[k].start();
        }
        for (Thread t : threads) t.join();
        System.out.println("failure: " + failure[0]);
        System.out.println("all items consumed: " + (total[0] == 3L * rounds * 1001));
    }
}
