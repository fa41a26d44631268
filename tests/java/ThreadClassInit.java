import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Class initialization racing across threads (JVMS 5.5): a slow static initializer runs exactly
 * once while other threads block until it completes and then see its final values (also a
 * thread interrupted while waiting); a lazy-holder singleton has one identity everywhere;
 * Class.forName from several threads; a failed initializer gives ExceptionInInitializerError in
 * its thread and NoClassDefFoundError (naming that thread) in later ones.
 */
public class ThreadClassInit {
    static final AtomicInteger slowInits = new AtomicInteger();
    static final CountDownLatch slowStarted = new CountDownLatch(1);

    static class Slow {
        static final int VALUE;
        static final List<String> LOG = new ArrayList<>();
        static {
            slowInits.incrementAndGet();
            slowStarted.countDown();
            try { Thread.sleep(200); } catch (InterruptedException e) { LOG.add("init interrupted"); }
            LOG.add("initialized");
            VALUE = 42;
        }
    }

    static class Holder {
        static final AtomicInteger created = new AtomicInteger();
        static final Object INSTANCE = make();
        static Object make() { created.incrementAndGet(); return new Object(); }
    }

    static class Loaded {
        static final AtomicInteger inits = new AtomicInteger();
        static { inits.incrementAndGet(); }
    }

    static class Failing {
        static int value = compute();
        static int compute() { throw new IllegalStateException("init failed"); }
    }

    static Thread[] runAll(int n, String prefix, java.util.function.IntConsumer body) throws InterruptedException {
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) { final int id = i; ts[i] = new Thread(() -> body.accept(id), prefix + i); }
        return ts;
    }

    static void join(Thread... ts) throws InterruptedException {
        for (Thread t : ts) { t.join(20_000); if (t.isAlive()) System.out.println("FAIL: " + t.getName() + " hung"); }
    }

    public static void main(String[] args) throws Exception {
        // One thread starts the slow initializer; the others arrive while it runs.
        String[] seen = new String[6];
        boolean[] interruptedAfter = new boolean[6];
        Thread[] ts = runAll(6, "user", id -> {
            seen[id] = Slow.VALUE + " " + Slow.LOG;
            interruptedAfter[id] = Thread.currentThread().isInterrupted();
        });
        ts[0].start();
        slowStarted.await();
        for (int i = 1; i < ts.length; i++) ts[i].start();
        Thread.sleep(20);
        ts[5].interrupt(); // waiting for initialization is not interruptible
        join(ts);
        System.out.println("slow init ran " + slowInits.get() + " time(s)");
        for (int i = 0; i < ts.length; i++) System.out.println("  " + ts[i].getName() + " saw " + seen[i]);
        System.out.println("interrupt flags kept: " + interruptedAfter[5] + " others: " + interruptedAfter[1]);

        // Lazy holder singleton.
        CountDownLatch go = new CountDownLatch(1);
        Object[] got = new Object[8];
        Thread[] hs = runAll(8, "holder", id -> {
            try { go.await(); } catch (InterruptedException e) { return; }
            got[id] = Holder.INSTANCE;
        });
        for (Thread t : hs) t.start();
        go.countDown();
        join(hs);
        boolean same = true;
        for (Object o : got) same &= o == got[0] && o != null;
        System.out.println("holder: created=" + Holder.created.get() + " same instance everywhere=" + same);

        // Class.forName with initialization from several threads.
        String[] names = new String[4];
        Thread[] fs = runAll(4, "forName", id -> {
            try { names[id] = Class.forName("ThreadClassInit$Loaded").getSimpleName(); }
            catch (ClassNotFoundException e) { names[id] = e.toString(); }
        });
        for (Thread t : fs) t.start();
        join(fs);
        System.out.println("forName: " + String.join(",", names) + " inits=" + Loaded.inits.get());

        // A failing initializer, first in thread "first", then in "second" and in main.
        String[] failures = new String[2];
        for (int i = 0; i < 2; i++) {
            final int id = i;
            Thread t = new Thread(() -> {
                try { failures[id] = "value " + Failing.value; }
                catch (Throwable e) { failures[id] = e + " | cause: " + e.getCause(); }
            }, i == 0 ? "first" : "second");
            t.start();
            join(t);
        }
        for (String f : failures) System.out.println(f);
        try { System.out.println(Failing.value); }
        catch (NoClassDefFoundError e) { System.out.println("main: " + e.getMessage()); }
    }
}
