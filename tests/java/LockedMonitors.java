import java.lang.management.ManagementFactory;
import java.lang.management.LockInfo;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

// Which frame holds which monitor: ThreadInfo.getLockedMonitors (each monitor's class, stack
// depth and frame) for the current thread, for a thread in Object.wait (the monitor waited on
// is left out) and for one blocked entering a monitor (the one it waits for is left out), after
// collections moved the objects; getLockedSynchronizers; dumpAllThreads(true, true); monitors
// released by exceptions unwinding synchronized frames; and contention statistics: blocked and
// waited counts always, times only while contention monitoring is enabled.
public class LockedMonitors {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    static final Object A = new Object();
    static final Object C = new Object();
    static final Object D = new Object();
    static final Object E = new Object();
    static final ReentrantLock RL = new ReentrantLock();

    public static void main(String[] args) throws Exception {
        System.out.println("object monitor usage supported: " + MX.isObjectMonitorUsageSupported());
        System.out.println("synchronizer usage supported: " + MX.isSynchronizerUsageSupported());
        System.out.println("contention monitoring supported: "
                + MX.isThreadContentionMonitoringSupported());
        System.out.println("contention monitoring enabled: "
                + MX.isThreadContentionMonitoringEnabled());

        new LockedMonitors().nested();
        unwound();
        otherThreads();
        contention();
    }

    // ---- the current thread ----

    void nested() {
        synchronized (A) {
            synchronized (this) {
                inSynchronizedMethod();
            }
        }
    }

    synchronized void inSynchronizedMethod() {
        inStaticSynchronized();
    }

    static synchronized void inStaticSynchronized() {
        Object local = new Object();
        synchronized (local) {
            synchronized (local) {
                ThreadInfo self = MX.getThreadInfo(new long[] {Thread.currentThread().getId()},
                        true, true)[0];
                describe("main, nested", self, local);
            }
        }
    }

    static void unwound() {
        Object x = new Object();
        for (int i = 0; i < 3; i++) {
            try {
                synchronized (x) {
                    throwsInSynchronized(x);
                }
            } catch (IllegalStateException e) {
                System.out.println("caught " + e.getMessage());
            }
        }
        System.out.println("after unwinding, main holds x: " + Thread.holdsLock(x));
        ThreadInfo self = MX.getThreadInfo(new long[] {Thread.currentThread().getId()},
                true, true)[0];
        System.out.println("after unwinding, main's locked monitors: "
                + self.getLockedMonitors().length);
    }

    static synchronized void throwsInSynchronized(Object x) {
        synchronized (A) {
            throw new IllegalStateException("thrown holding x, A and the class");
        }
    }

    // ---- other threads ----

    static class Holder {
        synchronized void waitOnC(CountDownLatch ready) throws InterruptedException {
            synchronized (C) {
                ready.countDown();
                C.wait();
            }
        }
    }

    static void holdA(CountDownLatch ready) {
        synchronized (A) {
            try {
                new Holder().waitOnC(ready);
            } catch (InterruptedException e) {
                System.out.println("interrupted");
            }
        }
    }

    static void holdDThenE(CountDownLatch ready) {
        RL.lock();
        try {
            synchronized (D) {
                ready.countDown();
                synchronized (E) {
                }
            }
        } finally {
            RL.unlock();
        }
    }

    static void otherThreads() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        Thread waiter = start("lm-waiter", () -> holdA(waiting));
        waiting.await();
        awaitState(waiter, Thread.State.WAITING);
        Thread blocked;
        synchronized (E) {
            CountDownLatch entering = new CountDownLatch(1);
            blocked = start("lm-blocked", () -> holdDThenE(entering));
            entering.await();
            awaitState(blocked, Thread.State.BLOCKED);
            churn();
            ThreadInfo[] all = MX.dumpAllThreads(true, true);
            Arrays.sort(all, Comparator.comparing(ThreadInfo::getThreadName));
            for (ThreadInfo ti : all) {
                if (ti.getThreadName().startsWith("lm-")) {
                    describe(ti.getThreadName(), ti, null);
                }
            }
            ThreadInfo main = MX.getThreadInfo(new long[] {Thread.currentThread().getId()},
                    true, false)[0];
            describe("main, holding E", main, null);
            ThreadInfo noMonitors = MX.getThreadInfo(new long[] {blocked.getId()},
                    false, false)[0];
            System.out.println("without asking: " + noMonitors.getLockedMonitors().length
                    + " monitors, " + noMonitors.getLockedSynchronizers().length
                    + " synchronizers");
            // The monitors of the frames below maxDepth are left out (HotSpot lists those
            // it has inflated with depth -1: not compared).
            ThreadInfo shallow = MX.getThreadInfo(new long[] {waiter.getId()}, true, false,
                    3)[0];
            System.out.println("waiter to depth 3: "
                    + Arrays.toString(monitorNames(shallow.getLockedMonitors())));
        }
        blocked.join();
        synchronized (C) {
            C.notifyAll();
        }
        waiter.join();
    }

    /** Allocates enough to make the collector move the young objects the threads hold. */
    static void churn() {
        List<int[]> keep = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            keep.add(new int[64]);
            if (keep.size() > 500) {
                keep.clear();
            }
        }
        System.gc();
    }

    static String[] monitorNames(MonitorInfo[] ms) {
        List<String> s = new ArrayList<>();
        for (MonitorInfo m : ms) {
            if (m.getLockedStackDepth() >= 0) {
                s.add(m.getClassName() + "@" + m.getLockedStackDepth());
            }
        }
        return s.toArray(new String[0]);
    }

    static void describe(String what, ThreadInfo ti, Object local) {
        System.out.println(what + ": " + ti.getThreadState());
        StackTraceElement[] stack = ti.getStackTrace();
        for (MonitorInfo mi : ti.getLockedMonitors()) {
            StackTraceElement frame = mi.getLockedStackFrame();
            String which = mi.getIdentityHashCode() == System.identityHashCode(A) ? " (A)"
                    : mi.getIdentityHashCode() == System.identityHashCode(D) ? " (D)"
                    : mi.getIdentityHashCode() == System.identityHashCode(E) ? " (E)"
                    : local != null && mi.getIdentityHashCode() == System.identityHashCode(local)
                            ? " (local)" : "";
            System.out.println("  locked " + mi.getClassName() + which + " at depth "
                    + mi.getLockedStackDepth() + " in " + frame.getClassName() + "."
                    + frame.getMethodName() + ":" + frame.getLineNumber()
                    + (stack[mi.getLockedStackDepth()].equals(frame) ? "" : " (not its frame)"));
        }
        for (LockInfo li : ti.getLockedSynchronizers()) {
            System.out.println("  synchronizer " + li.getClassName());
        }
        if (ti.getLockInfo() != null) {
            System.out.println("  waits for " + ti.getLockInfo().getClassName());
        }
    }

    // ---- contention statistics ----

    static void contention() throws Exception {
        Object lock = new Object();
        Object gate = new Object();
        CountDownLatch done = new CountDownLatch(1);
        Thread sleeper;
        synchronized (gate) {
            sleeper = start("lm-sleeper", () -> {
                try {
                    for (int i = 0; i < 3; i++) {
                        Thread.sleep(1);
                    }
                    synchronized (lock) {
                        lock.wait(1);
                    }
                    done.countDown();
                    synchronized (gate) {
                    }
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                }
            });
            done.await();
            awaitState(sleeper, Thread.State.BLOCKED);
            Thread.sleep(100);
        }
        Thread contender;
        awaitState(sleeper, Thread.State.TIMED_WAITING);
        ThreadInfo ti = MX.getThreadInfo(sleeper.getId());
        System.out.println("monitoring off: blocked " + ti.getBlockedCount() + " times, "
                + ti.getBlockedTime() + " ms; waited " + ti.getWaitedCount() + " times, "
                + ti.getWaitedTime() + " ms");

        MX.setThreadContentionMonitoringEnabled(true);
        System.out.println("contention monitoring enabled: "
                + MX.isThreadContentionMonitoringEnabled());
        synchronized (lock) {
            contender = start("lm-contender", () -> {
                synchronized (lock) {
                }
                try {
                    Thread.sleep(150);
                } catch (InterruptedException e) {
                }
            });
            awaitState(contender, Thread.State.BLOCKED);
            Thread.sleep(150);
        }
        awaitState(contender, Thread.State.TIMED_WAITING);
        Thread.sleep(100);
        ti = MX.getThreadInfo(contender.getId());
        System.out.println("monitoring on: blocked " + ti.getBlockedCount()
                + " times, at least 100 ms: " + (ti.getBlockedTime() >= 100) + "; waited "
                + ti.getWaitedCount() + " times, at least 50 ms: " + (ti.getWaitedTime() >= 50));
        ti = MX.getThreadInfo(sleeper.getId());
        System.out.println("sleeper's times since enabled (its sleep began before): blocked "
                + ti.getBlockedTime() + " ms, waited " + ti.getWaitedTime() + " ms");
        MX.setThreadContentionMonitoringEnabled(false);
        ti = MX.getThreadInfo(contender.getId());
        System.out.println("monitoring off again: blocked " + ti.getBlockedCount() + " times, "
                + ti.getBlockedTime() + " ms");
        sleeper.interrupt();
        sleeper.join();
        contender.join();
    }

    static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void awaitState(Thread t, Thread.State s) throws InterruptedException {
        for (int i = 0; i < 2000 && t.getState() != s; i++) {
            Thread.sleep(5);
        }
        if (t.getState() != s) {
            throw new IllegalStateException(t.getName() + " is " + t.getState() + ", not " + s);
        }
    }
}
