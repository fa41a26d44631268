import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

// Deadlock detection through ThreadMXBean: cycles of threads blocked entering monitors
// (findMonitorDeadlockedThreads) and cycles that also go through ReentrantLocks
// (findDeadlockedThreads), and the lock details of ThreadInfo (lock name, owner) for threads
// blocked on a monitor, waiting in Object.wait and parked on a lock. The deadlocked threads
// never finish: they are daemons, and the program ends with System.exit.
public class DeadlockDetect {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        System.out.println("synchronizer usage supported: " + MX.isSynchronizerUsageSupported());
        report("no deadlock");
        blockedWithoutDeadlock();
        waitingAndParked();

        List<Thread> locks = lockCycle("lock", 2);
        report("ReentrantLock cycle");
        lockedSynchronizers(locks);

        monitorCycle("two", 2);
        report("2-monitor cycle");
        monitorCycle("three", 3);
        report("and a 3-monitor cycle");
        System.exit(0);
    }

    /** A thread blocked on a monitor main holds: lock details, but no deadlock. */
    static void blockedWithoutDeadlock() throws Exception {
        Object held = new Object();
        Thread blocked;
        synchronized (held) {
            blocked = start("blocked", () -> {
                synchronized (held) {
                }
            });
            awaitState(blocked, t -> t.getState() == Thread.State.BLOCKED);
            describe(MX.getThreadInfo(blocked.getId()));
            report("blocked on main");
        }
        blocked.join();
    }

    /** Lock details of a thread in Object.wait and of one parked on a lock main holds. */
    static void waitingAndParked() throws Exception {
        Object monitor = new Object();
        Thread waiter = start("waiter", () -> {
            synchronized (monitor) {
                try {
                    monitor.wait();
                } catch (InterruptedException e) {
                }
            }
        });
        awaitState(waiter, t -> t.getState() == Thread.State.WAITING);
        describe(MX.getThreadInfo(waiter.getId()));
        synchronized (monitor) {
            monitor.notifyAll();
        }
        waiter.join();

        ReentrantLock lock = new ReentrantLock();
        lock.lock();
        Thread parked = start("parked", lock::lock);
        awaitState(parked, DeadlockDetect::parkedOnReentrantLock);
        describe(MX.getThreadInfo(parked.getId()));
        ThreadInfo mine = MX.getThreadInfo(new long[] {Thread.currentThread().getId()}, false, true)[0];
        System.out.println("main holds " + classesOf(mine.getLockedSynchronizers()));
        report("parked on main's lock");
        lock.unlock();
        parked.join();
    }

    /** Threads prefix-0..n-1, each holding ReentrantLock i and wanting lock (i+1) mod n. */
    static List<Thread> lockCycle(String prefix, int n) throws Exception {
        ReentrantLock[] locks = new ReentrantLock[n];
        for (int i = 0; i < n; i++) {
            locks[i] = new ReentrantLock();
        }
        CountDownLatch allHold = new CountDownLatch(n);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ReentrantLock mine = locks[i];
            ReentrantLock next = locks[(i + 1) % n];
            threads.add(start(prefix + "-" + i, () -> {
                mine.lock();
                allHold.countDown();
                awaitQuietly(allHold);
                next.lock();
            }));
        }
        for (Thread t : threads) {
            awaitState(t, DeadlockDetect::parkedOnReentrantLock);
        }
        return threads;
    }

    /** Threads prefix-0..n-1, each holding monitor i and wanting monitor (i+1) mod n. */
    static void monitorCycle(String prefix, int n) throws Exception {
        Object[] monitors = new Object[n];
        for (int i = 0; i < n; i++) {
            monitors[i] = new Object();
        }
        CountDownLatch allHold = new CountDownLatch(n);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object mine = monitors[i];
            Object next = monitors[(i + 1) % n];
            threads.add(start(prefix + "-" + i, () -> {
                synchronized (mine) {
                    allHold.countDown();
                    awaitQuietly(allHold);
                    synchronized (next) {
                        System.out.println("unreachable");
                    }
                }
            }));
        }
        for (Thread t : threads) {
            awaitState(t, th -> th.getState() == Thread.State.BLOCKED);
        }
    }

    static void lockedSynchronizers(List<Thread> threads) {
        long[] ids = threads.stream().mapToLong(Thread::getId).toArray();
        for (ThreadInfo ti : MX.getThreadInfo(ids, false, true)) {
            System.out.println(ti.getThreadName() + " holds " + classesOf(ti.getLockedSynchronizers()));
        }
    }

    static void report(String what) {
        System.out.println("== " + what);
        System.out.println("monitor deadlocked: " + names(MX.findMonitorDeadlockedThreads()));
        System.out.println("deadlocked: " + names(MX.findDeadlockedThreads()));
        long[] ids = MX.findDeadlockedThreads();
        if (ids == null) {
            return;
        }
        ThreadInfo[] infos = MX.getThreadInfo(ids);
        Arrays.sort(infos, Comparator.comparing(ThreadInfo::getThreadName));
        for (ThreadInfo ti : infos) {
            describe(ti);
        }
    }

    static void describe(ThreadInfo ti) {
        System.out.println("  " + ti.getThreadName() + " " + ti.getThreadState()
                + " lock " + classPart(ti.getLockName())
                + " lockInfo " + (ti.getLockInfo() == null ? null : ti.getLockInfo().getClassName())
                + " owner " + ti.getLockOwnerName()
                + " ownerIsThread " + (ti.getLockOwnerId() == -1 ? "none" : ownerMatches(ti)));
    }

    static boolean ownerMatches(ThreadInfo ti) {
        ThreadInfo owner = MX.getThreadInfo(ti.getLockOwnerId());
        return owner != null && owner.getThreadName().equals(ti.getLockOwnerName());
    }

    static String names(long[] ids) {
        if (ids == null) {
            return "null";
        }
        List<String> names = new ArrayList<>();
        for (ThreadInfo ti : MX.getThreadInfo(ids)) {
            names.add(ti.getThreadName());
        }
        names.sort(null);
        return names.toString();
    }

    static String classPart(String lockName) {
        return lockName == null ? null : lockName.substring(0, lockName.indexOf('@'));
    }

    static String classesOf(Object[] infos) {
        List<String> out = new ArrayList<>();
        for (Object o : infos) {
            out.add(((java.lang.management.LockInfo) o).getClassName());
        }
        return out.toString();
    }

    /** Whether t is parked on a ReentrantLock (whose synchronizer is a nested class). */
    static boolean parkedOnReentrantLock(Thread t) {
        Object blocker = LockSupport.getBlocker(t);
        return t.getState() == Thread.State.WAITING && blocker != null
                && blocker.getClass().getName().startsWith("java.util.concurrent.locks.ReentrantLock$");
    }

    static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void awaitState(Thread t, Predicate<Thread> reached) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!reached.test(t)) {
            if (System.nanoTime() > deadline) {
                System.out.println("timed out waiting for " + t.getName() + " in " + t.getState());
                System.exit(1);
            }
            Thread.sleep(5);
        }
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
