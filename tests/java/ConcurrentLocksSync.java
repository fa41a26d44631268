import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.*;

/**
 * java.util.concurrent.locks and synchronizers across threads: ReentrantLock (hold counts,
 * tryLock with/without timeout, fairness flag, toString), Condition await/signal with a timed
 * await expiring, ReentrantReadWriteLock (shared readers, exclusive writer, downgrading),
 * Semaphore permits, CountDownLatch, CyclicBarrier with a barrier action and reuse, Phaser
 * phases, Exchanger, and StampedLock optimistic reads; all results are exact.
 */
public class ConcurrentLocksSync {
    static void join(Thread... ts) throws InterruptedException {
        for (Thread t : ts) { t.join(20_000); if (t.isAlive()) System.out.println("FAIL: " + t.getName() + " hung"); }
    }

    static Thread start(String name, Runnable r) { Thread t = new Thread(r, name); t.start(); return t; }

    public static void main(String[] args) throws Exception {
        ReentrantLock lock = new ReentrantLock();
        System.out.println("fair=" + lock.isFair() + " " + new ReentrantLock(true).isFair());
        lock.lock(); lock.lock();
        System.out.println("holdCount=" + lock.getHoldCount() + " locked=" + lock.isLocked() + " byMe=" + lock.isHeldByCurrentThread());
        String[] r = new String[2];
        Thread t = start("try", () -> {
            try { r[0] = "tryLock=" + lock.tryLock() + " timed=" + lock.tryLock(20, TimeUnit.MILLISECONDS) + " byMe=" + lock.isHeldByCurrentThread(); }
            catch (InterruptedException e) { r[0] = "interrupted"; }
        });
        join(t);
        System.out.println("other thread: " + r[0]);
        lock.unlock(); lock.unlock();
        try { lock.unlock(); } catch (IllegalMonitorStateException e) { System.out.println("unlock unheld: " + e); }
        System.out.println("toString unlocked: " + lock.toString().endsWith("[Unlocked]"));

        // Contended ReentrantLock, fair and unfair.
        for (boolean fair : new boolean[] {false, true}) {
            ReentrantLock l = new ReentrantLock(fair);
            long[] counter = {0};
            Thread[] ts = new Thread[4];
            for (int i = 0; i < 4; i++) ts[i] = start("c" + i, () -> {
                for (int n = 0; n < 5_000; n++) { l.lock(); try { counter[0]++; } finally { l.unlock(); } }
            });
            join(ts);
            System.out.println("fair=" + fair + " count=" + counter[0] + " queued=" + l.hasQueuedThreads());
        }

        // Condition: a one-slot handoff, then a timed await that expires.
        Condition notEmpty = lock.newCondition(), notFull = lock.newCondition();
        Integer[] slot = {null};
        long[] sum = {0};
        Thread consumer = start("consumer", () -> {
            for (int i = 0; i < 2_000; i++) {
                lock.lock();
                try { while (slot[0] == null) notEmpty.await(); sum[0] += slot[0]; slot[0] = null; notFull.signal(); }
                catch (InterruptedException e) { return; } finally { lock.unlock(); }
            }
        });
        for (int i = 1; i <= 2_000; i++) {
            lock.lock();
            try { while (slot[0] != null) notFull.await(); slot[0] = i; notEmpty.signal(); } finally { lock.unlock(); }
        }
        join(consumer);
        System.out.println("condition handoff sum=" + sum[0]);
        lock.lock();
        System.out.println("await(20ms) signalled=" + notEmpty.await(20, TimeUnit.MILLISECONDS) + " still held=" + lock.isHeldByCurrentThread());
        lock.unlock();
        try { notEmpty.signal(); } catch (IllegalMonitorStateException e) { System.out.println("signal without lock: " + e.getClass().getSimpleName()); }

        // ReentrantReadWriteLock: two readers inside together, writer excluded, downgrade.
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        CountDownLatch bothIn = new CountDownLatch(2), release = new CountDownLatch(1);
        boolean[] writerGot = new boolean[1];
        Thread[] readers = new Thread[2];
        for (int i = 0; i < 2; i++) readers[i] = start("reader" + i, () -> {
            rw.readLock().lock();
            try { bothIn.countDown(); release.await(); } catch (InterruptedException e) { } finally { rw.readLock().unlock(); }
        });
        System.out.println("both readers inside: " + bothIn.await(10, TimeUnit.SECONDS) + " readLockCount=" + rw.getReadLockCount());
        join(start("writer", () -> writerGot[0] = rw.writeLock().tryLock()));
        System.out.println("writer tryLock while read-locked: " + writerGot[0]);
        release.countDown();
        join(readers);
        rw.writeLock().lock();
        rw.readLock().lock();
        rw.writeLock().unlock();
        System.out.println("downgraded: writeLocked=" + rw.isWriteLocked() + " readHolds=" + rw.getReadHoldCount());
        rw.readLock().unlock();

        // Semaphore bounding concurrency.
        Semaphore sem = new Semaphore(2);
        AtomicInteger inside = new AtomicInteger(), maxInside = new AtomicInteger();
        Thread[] ws = new Thread[6];
        for (int i = 0; i < 6; i++) ws[i] = start("s" + i, () -> {
            for (int n = 0; n < 50; n++) {
                sem.acquireUninterruptibly();
                try { maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max); Thread.yield(); inside.decrementAndGet(); }
                finally { sem.release(); }
            }
        });
        join(ws);
        System.out.println("semaphore: max inside <= 2: " + (maxInside.get() <= 2) + " permits=" + sem.availablePermits()
                + " tryAcquire(3)=" + sem.tryAcquire(3) + " drain=" + sem.drainPermits());

        // CyclicBarrier with an action, used for three generations.
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger gen = new AtomicInteger();
        CyclicBarrier barrier = new CyclicBarrier(3, () -> log.add("barrier " + gen.incrementAndGet()));
        Thread[] parties = new Thread[3];
        for (int i = 0; i < 3; i++) parties[i] = start("p" + i, () -> {
            try { for (int g = 0; g < 3; g++) barrier.await(10, TimeUnit.SECONDS); }
            catch (Exception e) { log.add("FAIL " + e); }
        });
        join(parties);
        System.out.println("barrier: " + log + " broken=" + barrier.isBroken() + " parties=" + barrier.getParties());
        CyclicBarrier lonely = new CyclicBarrier(2);
        try { lonely.await(20, TimeUnit.MILLISECONDS); } catch (TimeoutException e) { System.out.println("barrier timeout -> broken=" + lonely.isBroken()); }
        try { lonely.await(); } catch (BrokenBarrierException e) { System.out.println("await broken barrier: " + e); }

        // Phaser: 3 parties through 4 phases, one deregisters early.
        Phaser phaser = new Phaser(3);
        AtomicInteger arrivals = new AtomicInteger();
        Thread[] ps = new Thread[3];
        for (int i = 0; i < 3; i++) {
            final int id = i;
            ps[i] = start("ph" + i, () -> {
                for (int ph = 0; ph < 4; ph++) {
                    arrivals.incrementAndGet();
                    if (id == 2 && ph == 1) { phaser.arriveAndDeregister(); return; } else phaser.arriveAndAwaitAdvance();
                }
            });
        }
        join(ps);
        System.out.println("phaser: arrivals=" + arrivals.get() + " phase=" + phaser.getPhase() + " registered=" + phaser.getRegisteredParties());

        // Exchanger between two threads.
        Exchanger<String> ex = new Exchanger<>();
        String[] got = new String[1];
        Thread partner = start("partner", () -> { try { got[0] = ex.exchange("from partner"); } catch (InterruptedException e) { } });
        String mine = ex.exchange("from main", 10, TimeUnit.SECONDS);
        join(partner);
        System.out.println("exchanged: main got [" + mine + "], partner got [" + got[0] + "]");

        // StampedLock: optimistic read invalidated by a write, then write lock contention.
        StampedLock sl = new StampedLock();
        long stamp = sl.tryOptimisticRead();
        System.out.println("optimistic valid=" + sl.validate(stamp));
        join(start("sw", () -> { long w = sl.writeLock(); sl.unlockWrite(w); }));
        System.out.println("after write valid=" + sl.validate(stamp));
        long[] cell = {0};
        Runnable writes = () -> { for (int n = 0; n < 3_000; n++) { long w = sl.writeLock(); cell[0]++; sl.unlockWrite(w); } };
        join(start("st0", writes), start("st1", writes), start("st2", writes));
        long rs = sl.readLock();
        System.out.println("stamped count=" + cell[0] + " readLocked=" + sl.isReadLocked() + " tryWrite=" + sl.tryWriteLock());
        sl.unlockRead(rs);
    }
}
