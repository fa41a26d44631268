import java.util.concurrent.atomic.AtomicReference;

/**
 * Thread lifecycle: states NEW/RUNNABLE/WAITING/TIMED_WAITING/BLOCKED/TERMINATED (observed by
 * polling with a deadline), isAlive, join with and without timeout, sleep/yield, daemon flag and
 * its inheritance, names, priorities, toString, ThreadGroup basics, IllegalThreadStateException,
 * per-thread / group / default uncaught-exception handlers, and the default handler's stderr line.
 */
public class ThreadLifecycle {
    static final Object lock = new Object();

    static boolean awaitState(Thread t, Thread.State want) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (t.getState() != want) {
            if (System.nanoTime() > deadline) {
                System.out.println("FAIL: " + t.getName() + " never reached " + want + ", is " + t.getState());
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    static void joinOrFail(Thread t) throws InterruptedException {
        t.join(10_000);
        if (t.isAlive()) System.out.println("FAIL: " + t.getName() + " did not terminate");
    }

    public static void main(String[] args) throws Exception {
        Thread main = Thread.currentThread();
        System.out.println("main: " + main.getName() + " prio=" + main.getPriority() + " daemon=" + main.isDaemon()
                + " group=" + main.getThreadGroup().getName() + " parent=" + main.getThreadGroup().getParent().getName());
        System.out.println("main toString: " + main);

        AtomicReference<String> seen = new AtomicReference<>();
        Thread t = new Thread(() -> seen.set(Thread.currentThread().getName() + " alive="
                + Thread.currentThread().isAlive() + " state=" + Thread.currentThread().getState()), "worker");
        System.out.println("before start: state=" + t.getState() + " alive=" + t.isAlive() + " daemon=" + t.isDaemon()
                + " prio=" + t.getPriority() + " " + t);
        t.join(); // join on an unstarted thread returns immediately
        t.start();
        t.join();
        System.out.println("after join: state=" + t.getState() + " alive=" + t.isAlive() + " saw=[" + seen.get() + "]");
        try { t.start(); } catch (IllegalThreadStateException e) { System.out.println("restart: " + e); }
        t.run(); // a terminated Thread's run() with a Runnable target: target was cleared, does nothing
        System.out.println("run() after termination keeps: " + seen.get());

        Thread anon = new Thread(() -> {});
        System.out.println("default name pattern ok: " + anon.getName().matches("Thread-\\d+"));
        anon.setName("renamed");
        System.out.println("renamed: " + anon.getName());

        // Priorities.
        Thread p = new Thread(() -> {}, "prio");
        p.setPriority(Thread.MAX_PRIORITY);
        System.out.println("priority set: " + p.getPriority() + " min=" + Thread.MIN_PRIORITY + " norm=" + Thread.NORM_PRIORITY);
        try { p.setPriority(11); } catch (IllegalArgumentException e) { System.out.println("setPriority(11): " + e); }
        try { p.setPriority(0); } catch (IllegalArgumentException e) { System.out.println("setPriority(0): " + e); }

        // Daemon flag, inheritance, and setDaemon after start.
        AtomicReference<String> childInfo = new AtomicReference<>();
        Thread d = new Thread(() -> {
            Thread child = new Thread(() -> {}, "child");
            childInfo.set("child daemon=" + child.isDaemon() + " prio=" + child.getPriority());
            synchronized (lock) {
                try { lock.wait(); } catch (InterruptedException e) { childInfo.set(childInfo.get() + " interrupted"); }
            }
        }, "daemon");
        d.setDaemon(true);
        d.setPriority(3);
        d.start();
        if (awaitState(d, Thread.State.WAITING)) System.out.println("daemon state: " + d.getState());
        System.out.println("NEW thread's stack: " + p.getStackTrace().length);
        try { d.setDaemon(false); } catch (IllegalThreadStateException e) { System.out.println("setDaemon after start: " + e); }
        System.out.println("join(20) on waiting thread returns, alive=" + joinTimed(d));
        d.interrupt();
        joinOrFail(d);
        System.out.println(childInfo.get() + "; daemon after: state=" + d.getState());

        // TIMED_WAITING in sleep, BLOCKED on a monitor.
        Thread sleeper = new Thread(() -> {
            try { Thread.sleep(60_000); } catch (InterruptedException e) { System.out.println("sleeper: " + e.getMessage()); }
        }, "sleeper");
        sleeper.start();
        if (awaitState(sleeper, Thread.State.TIMED_WAITING)) System.out.println("sleeper state: TIMED_WAITING");
        sleeper.interrupt();
        joinOrFail(sleeper);

        Thread blocked;
        synchronized (lock) {
            blocked = new Thread(() -> { synchronized (lock) { seen.set("got lock"); } }, "blocked");
            blocked.start();
            if (awaitState(blocked, Thread.State.BLOCKED)) System.out.println("blocked state: BLOCKED");
            System.out.println("holdsLock in main: " + Thread.holdsLock(lock));
        }
        joinOrFail(blocked);
        System.out.println("blocked then: " + seen.get() + " " + blocked.getState());

        // sleep and yield.
        long t0 = System.nanoTime();
        Thread.sleep(30);
        Thread.yield();
        Thread.sleep(0);
        System.out.println("slept at least 30ms: " + (System.nanoTime() - t0 >= 30_000_000L));
        try { Thread.sleep(-1); } catch (IllegalArgumentException e) { System.out.println("sleep(-1): " + e); }
        try { t.join(-1); } catch (IllegalArgumentException e) { System.out.println("join(-1): " + e); }

        // ThreadGroup and uncaught-exception handlers.
        ThreadGroup grp = new ThreadGroup("grp") {
            @Override public void uncaughtException(Thread th, Throwable ex) {
                System.out.println("group handler: " + th.getName() + " " + ex);
            }
        };
        System.out.println("group: " + grp.getName() + " parent=" + grp.getParent().getName() + " maxPrio=" + grp.getMaxPriority());
        Thread g1 = new Thread(grp, () -> { throw new IllegalStateException("from g1"); }, "g1");
        System.out.println("g1 group=" + g1.getThreadGroup().getName() + " " + g1);
        g1.start();
        joinOrFail(g1);
        Thread g2 = new Thread(grp, () -> { throw new IllegalStateException("from g2"); }, "g2");
        g2.setUncaughtExceptionHandler((th, ex) -> System.out.println("thread handler: " + th.getName() + " " + ex.getMessage()));
        g2.start();
        joinOrFail(g2);
        System.out.println("terminated thread group: " + g2.getThreadGroup() + " stack: " + g2.getStackTrace().length);

        Thread.setDefaultUncaughtExceptionHandler((th, ex) -> System.out.println("default handler: " + th.getName() + " " + ex));
        Thread h = new Thread(() -> { throw new ArithmeticException("by default"); }, "h");
        h.start();
        joinOrFail(h);
        Thread.setDefaultUncaughtExceptionHandler(null);
        Thread err = new Thread(() -> { throw new UnsupportedOperationException("to stderr"); }, "stderr-thread");
        err.start();
        joinOrFail(err);
        System.out.println("main still running, state=" + main.getState());
    }

    static boolean joinTimed(Thread t) throws InterruptedException {
        t.join(20);
        return t.isAlive();
    }
}
