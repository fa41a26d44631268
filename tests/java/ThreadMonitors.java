import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Monitors across threads: contended synchronized methods/blocks with exact totals, a bounded
 * buffer built on wait/notifyAll, notify waking exactly one waiter, wait timeouts expiring,
 * wait releasing a re-entrantly held monitor completely and restoring it, holdsLock from other
 * threads, IllegalMonitorStateException/IllegalArgumentException messages, class vs instance
 * locks, and 100,000 distinct objects locked once each (with identity hashes kept stable).
 */
public class ThreadMonitors {
    static final Object lock = new Object();
    static int shared;
    static volatile boolean flag;

    static synchronized void staticSync() { flag = true; }
    synchronized void instanceSync() { shared++; }

    static void joinAll(Thread... ts) throws InterruptedException {
        for (Thread t : ts) { t.join(20_000); if (t.isAlive()) System.out.println("FAIL: " + t.getName() + " hung"); }
    }

    static Thread start(String name, Runnable r) { Thread t = new Thread(r, name); t.start(); return t; }

    static void waitUntil(String what, java.util.function.BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) { System.out.println("FAIL: timed out waiting for " + what); return; }
            Thread.sleep(1);
        }
    }

    public static void main(String[] args) throws Exception {
        // Contention: 4 threads, block + method increments on the same monitors.
        ThreadMonitors m = new ThreadMonitors();
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) ts[i] = start("inc" + i, () -> {
            for (int n = 0; n < 20_000; n++) { m.instanceSync(); synchronized (m) { synchronized (m) { shared++; } } }
        });
        joinAll(ts);
        System.out.println("contended total: " + shared);

        // Bounded buffer with wait/notifyAll: 3 producers, 2 consumers, -1 as poison pill.
        ArrayDeque<Integer> buf = new ArrayDeque<>();
        long[] consumed = new long[2];
        int[] counts = new int[2];
        Thread[] producers = new Thread[3], consumers = new Thread[2];
        for (int p = 0; p < 3; p++) {
            final int base = p * 10_000;
            producers[p] = start("producer" + p, () -> {
                for (int i = 1; i <= 3_000; i++) synchronized (buf) {
                    while (buf.size() >= 8) try { buf.wait(); } catch (InterruptedException e) { return; }
                    buf.add(base + i);
                    buf.notifyAll();
                }
            });
        }
        for (int c = 0; c < 2; c++) {
            final int me = c;
            consumers[c] = start("consumer" + c, () -> {
                for (int v = 0; v >= 0; ) {
                    synchronized (buf) {
                        while (buf.isEmpty()) try { buf.wait(); } catch (InterruptedException e) { return; }
                        v = buf.poll();
                        buf.notifyAll();
                    }
                    if (v >= 0) { consumed[me] += v; counts[me]++; }
                }
            });
        }
        joinAll(producers);
        synchronized (buf) { buf.add(-1); buf.add(-1); buf.notifyAll(); }
        joinAll(consumers);
        System.out.println("buffer: items=" + (counts[0] + counts[1]) + " sum=" + (consumed[0] + consumed[1]) + " left=" + buf.size());

        // notify wakes exactly one waiter, notifyAll the rest.
        AtomicInteger woken = new AtomicInteger();
        Thread[] waiters = new Thread[3];
        for (int i = 0; i < 3; i++) waiters[i] = start("waiter" + i, () -> {
            synchronized (lock) { try { lock.wait(); woken.incrementAndGet(); } catch (InterruptedException e) { } }
        });
        for (Thread w : waiters) waitUntil(w.getName() + " WAITING", () -> w.getState() == Thread.State.WAITING);
        synchronized (lock) { lock.notify(); }
        waitUntil("one wakeup", () -> woken.get() >= 1);
        Thread.sleep(50);
        System.out.println("after notify: woken=" + woken.get());
        synchronized (lock) { lock.notifyAll(); }
        joinAll(waiters);
        System.out.println("after notifyAll: woken=" + woken.get());

        // Timed wait expiring without a notify.
        synchronized (lock) {
            long t0 = System.nanoTime();
            lock.wait(40);
            System.out.println("wait(40) expired: " + (System.nanoTime() - t0 >= 40_000_000L) + " holdsLock=" + Thread.holdsLock(lock));
            lock.wait(5, 500_000);
        }

        // wait() on a re-entrantly held monitor releases every level, and restores them.
        Object re = new Object();
        String[] inside = new String[1];
        Thread other;
        synchronized (re) {
            synchronized (re) {
                synchronized (re) {
                    other = start("other", () -> { synchronized (re) { inside[0] = "other got the lock: " + Thread.holdsLock(re); re.notifyAll(); } });
                    while (inside[0] == null) re.wait(5_000);
                    System.out.println(inside[0]);
                }
                System.out.println("still held after inner exit: " + Thread.holdsLock(re));
            }
        }
        System.out.println("released: " + Thread.holdsLock(re));
        joinAll(other);

        // holdsLock is per-thread; IllegalMonitorStateException from a non-owner.
        String[] fromOther = new String[3];
        synchronized (lock) {
            joinAll(start("non-owner", () -> {
                fromOther[0] = "holdsLock in other thread: " + Thread.holdsLock(lock);
                try { lock.notify(); } catch (IllegalMonitorStateException e) { fromOther[1] = "notify by non-owner: " + e.getMessage(); }
                try { lock.wait(1); } catch (Exception e) { fromOther[2] = "wait by non-owner: " + e; }
            }));
        }
        for (String s : fromOther) System.out.println(s);
        try { synchronized (lock) { lock.wait(-1); } } catch (IllegalArgumentException e) { System.out.println("wait(-1): " + e.getMessage()); }
        try { synchronized (lock) { lock.wait(0, 1_000_000); } } catch (IllegalArgumentException e) { System.out.println("wait(0, 1000000): " + e.getMessage()); }
        try { lock.notifyAll(); } catch (IllegalMonitorStateException e) { System.out.println("notifyAll: " + e); }

        // Class lock and instance lock are independent.
        flag = false;
        Thread st;
        synchronized (ThreadMonitors.class) {
            joinAll(start("instance", m::instanceSync));
            st = start("static", ThreadMonitors::staticSync);
            Thread.sleep(30);
            System.out.println("instance method ran while class locked; static method ran: " + flag);
        }
        joinAll(st);
        System.out.println("static method after release: " + flag);

        // Many distinct objects, each locked once (some hashed first), from two threads.
        Thread[] lockers = new Thread[2];
        long[] okCounts = new long[2];
        for (int k = 0; k < 2; k++) {
            final int id = k;
            lockers[k] = start("locker" + k, () -> {
                // Fewer under JXVM_GC_STRESS (a collection per allocation); HotSpot sees the same.
                Object[] objs = new Object[System.getenv("JXVM_GC_STRESS") != null ? 5_000 : 100_000];
                int[] hashes = new int[objs.length];
                for (int i = 0; i < objs.length; i++) { objs[i] = new Object(); if (i % 3 == 0) hashes[i] = objs[i].hashCode(); }
                for (int i = 0; i < objs.length; i++) synchronized (objs[i]) {
                    if (Thread.holdsLock(objs[i]) && (i % 3 != 0 || objs[i].hashCode() == hashes[i])) okCounts[id]++;
                }
                for (int i = 0; i < objs.length; i += 3) if (objs[i].hashCode() != hashes[i]) okCounts[id] = -1;
            });
        }
        joinAll(lockers);
        System.out.println("distinct objects locked: " + okCounts[0] + " + " + okCounts[1]);
    }
}
