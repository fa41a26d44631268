import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Stack traces of threads: the current thread's own stack, the stacks of other threads stopped
 * in Object.wait, Thread.sleep, LockSupport.park and at a contended monitor (frames of this
 * program with line numbers, JDK frames by name; lambda proxy frames skipped),
 * Thread.getAllStackTraces, empty stacks of NEW/TERMINATED threads, and Thread.dumpStack on stderr.
 */
public class ThreadStackTraces {
    static final Object lock = new Object();
    static final Object monitor = new Object();
    static final CountDownLatch release = new CountDownLatch(1);

    static String describe(StackTraceElement[] stack) {
        List<String> out = new ArrayList<>();
        for (StackTraceElement e : stack) {
            if (e.getClassName().contains("$$Lambda")) continue;
            String s = e.getClassName() + "." + e.getMethodName();
            if (e.getClassName().startsWith("ThreadStackTraces")) s += ":" + e.getLineNumber();
            out.add(s);
        }
        return String.join(" <- ", out);
    }

    static void level3() { System.out.println("own: " + describe(Thread.currentThread().getStackTrace())); }
    static void level2() { level3(); }
    static void level1() { level2(); }

    static void waitForever() {
        synchronized (lock) { try { lock.wait(); } catch (InterruptedException e) { } }
    }

    static void sleepLong() {
        try { Thread.sleep(60_000); } catch (InterruptedException e) { }
    }

    static void enterMonitor() {
        synchronized (monitor) { release.countDown(); }
    }

    static Thread startAndAwait(String name, Runnable r, Thread.State state) throws InterruptedException {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (t.getState() != state) {
            if (System.nanoTime() > deadline) { System.out.println("FAIL: " + name + " is " + t.getState()); break; }
            Thread.sleep(1);
        }
        return t;
    }

    public static void main(String[] args) throws Exception {
        Thread.dumpStack();
        level1();
        Thread unstarted = new Thread(() -> { }, "unstarted");
        System.out.println("NEW: " + unstarted.getStackTrace().length);

        Thread waiter = startAndAwait("waiter", ThreadStackTraces::waitForever, Thread.State.WAITING);
        Thread sleeper = startAndAwait("sleeper", ThreadStackTraces::sleepLong, Thread.State.TIMED_WAITING);
        Thread parker = startAndAwait("parker", () -> { while (release.getCount() > 0) LockSupport.park(); }, Thread.State.WAITING);
        Thread blocked;
        synchronized (monitor) {
            blocked = startAndAwait("blocked", ThreadStackTraces::enterMonitor, Thread.State.BLOCKED);
            System.out.println("blocked: " + describe(blocked.getStackTrace()));
        }
        System.out.println("waiter: " + describe(waiter.getStackTrace()));
        System.out.println("sleeper: " + describe(sleeper.getStackTrace()));
        System.out.println("parker: " + describe(parker.getStackTrace()));

        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        Map<String, Integer> mine = new TreeMap<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : all.entrySet()) {
            String n = e.getKey().getName();
            if (n.equals("main") || n.equals("waiter") || n.equals("sleeper") || n.equals("parker")) mine.put(n, e.getValue().length > 0 ? 1 : 0);
        }
        System.out.println("getAllStackTraces has: " + mine + " unstarted included: " + all.containsKey(unstarted));
        StackTraceElement[] mainStack = all.get(Thread.currentThread());
        System.out.println("main's own entry ends with: " + mainStack[mainStack.length - 1].getMethodName());

        blocked.join(10_000);
        LockSupport.unpark(parker);
        parker.join(10_000);
        waiter.interrupt();
        sleeper.interrupt();
        waiter.join(10_000);
        sleeper.join(10_000);
        System.out.println("TERMINATED: " + waiter.getStackTrace().length + " " + sleeper.getStackTrace().length + " " + parker.getStackTrace().length);
    }
}
