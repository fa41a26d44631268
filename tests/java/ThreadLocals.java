import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ThreadLocal and InheritableThreadLocal across threads: lazily computed per-thread initial
 * values, set/get/remove (re-initialisation after remove), isolation between threads,
 * inheritance snapshot at child creation with childValue, values persisting across tasks of one
 * pool thread, many ThreadLocals in one thread, and ThreadLocalRandom used from several threads
 * (ranges and argument checks only, never the random values themselves).
 */
public class ThreadLocals {
    static final AtomicInteger inits = new AtomicInteger();
    static final ThreadLocal<StringBuilder> perThread = ThreadLocal.withInitial(() -> { inits.incrementAndGet(); return new StringBuilder(); });
    static final InheritableThreadLocal<String> inherited = new InheritableThreadLocal<>() {
        @Override protected String childValue(String parent) { return parent == null ? "none" : parent + ">child"; }
    };
    static final InheritableThreadLocal<List<String>> sharedList = new InheritableThreadLocal<>();

    static String runIn(String name, Callable<String> body) throws InterruptedException {
        String[] out = new String[1];
        Thread t = new Thread(() -> { try { out[0] = body.call(); } catch (Exception e) { out[0] = "threw " + e; } }, name);
        t.start();
        t.join(10_000);
        return t.isAlive() ? "FAIL: hung" : out[0];
    }

    public static void main(String[] args) throws Exception {
        System.out.println("inits before use: " + inits.get());
        perThread.get().append("main");
        System.out.println("main value: " + perThread.get() + " inits=" + inits.get());
        Thread[] ts = new Thread[4];
        String[] seen = new String[4];
        for (int i = 0; i < 4; i++) {
            final int id = i;
            ts[i] = new Thread(() -> {
                for (int n = 0; n < 1_000; n++) perThread.get().append((char) ('a' + id));
                seen[id] = perThread.get().length() + " of " + perThread.get().charAt(0);
            }, "tl" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join(10_000);
        System.out.println("per-thread: " + Arrays.toString(seen) + " inits=" + inits.get() + " main still: " + perThread.get());
        perThread.remove();
        System.out.println("after remove: [" + perThread.get() + "] inits=" + inits.get());
        ThreadLocal<String> plain = new ThreadLocal<>();
        System.out.println("plain initial: " + plain.get());
        plain.set("x");
        System.out.println("plain in other thread: " + runIn("other", plain::get) + ", in main: " + plain.get());
        plain.set(null);
        System.out.println("plain set null: " + plain.get());

        // Inheritance is a snapshot taken when the child Thread is constructed.
        System.out.println("child with no parent value: " + runIn("c0", inherited::get));
        inherited.set("parent");
        sharedList.set(new ArrayList<>(List.of("p")));
        String[] late = new String[1];
        Thread child = new Thread(() -> {
            late[0] = inherited.get();
            sharedList.get().add("from child");
            inherited.set("changed in child");
        }, "child");
        inherited.set("parent changed after child creation");
        child.start();
        child.join(10_000);
        System.out.println("child saw: " + late[0] + "; parent now: " + inherited.get() + "; shared list: " + sharedList.get());
        System.out.println("grandchild: " + runIn("c1", () -> runIn("c2", inherited::get)));
        Thread noInherit = new Thread(null, () -> late[0] = String.valueOf(inherited.get()), "noinherit", 0, false);
        noInherit.start();
        noInherit.join(10_000);
        System.out.println("inheritThreadLocals=false: " + late[0]);
        inherited.remove();
        System.out.println("after remove: " + inherited.get() + ", child: " + runIn("c3", inherited::get));

        // A pool thread keeps its thread-locals between tasks.
        ExecutorService single = Executors.newSingleThreadExecutor();
        ThreadLocal<Integer> counter = ThreadLocal.withInitial(() -> 0);
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 5; i++) fs.add(single.submit(() -> { counter.set(counter.get() + 1); return counter.get(); }));
        List<Integer> vals = new ArrayList<>();
        for (Future<Integer> f : fs) vals.add(f.get(10, TimeUnit.SECONDS));
        single.shutdown();
        System.out.println("pool thread counter: " + vals + " main counter: " + counter.get() + " terminated="
                + single.awaitTermination(10, TimeUnit.SECONDS));

        // Many ThreadLocals in one thread (forces the ThreadLocalMap to grow).
        System.out.println("many: " + runIn("many", () -> {
            List<ThreadLocal<Integer>> tls = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) { ThreadLocal<Integer> tl = new ThreadLocal<>(); tl.set(i); tls.add(tl); }
            long sum = 0;
            for (ThreadLocal<Integer> tl : tls) sum += tl.get();
            for (int i = 0; i < 2_000; i += 2) tls.get(i).remove();
            int nulls = 0;
            for (ThreadLocal<Integer> tl : tls) if (tl.get() == null) nulls++;
            return "sum=" + sum + " removed=" + nulls;
        }));

        ThreadLocal<String> failing = ThreadLocal.withInitial(() -> { throw new IllegalStateException("no initial value"); });
        try { failing.get(); } catch (IllegalStateException e) { System.out.println("failing initial: " + e.getMessage()); }

        // ThreadLocalRandom from several threads: values stay in range.
        ThreadLocalRandom mainRnd = ThreadLocalRandom.current();
        int[] bad = new int[1];
        Thread[] rs = new Thread[4];
        boolean[] same = new boolean[4];
        for (int i = 0; i < 4; i++) {
            final int id = i;
            rs[i] = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                same[id] = r == mainRnd;
                int badHere = 0;
                for (int n = 0; n < 5_000; n++) {
                    int a = r.nextInt(5, 10); long b = r.nextLong(1_000); double d = r.nextDouble(2.0, 3.0);
                    if (a < 5 || a >= 10 || b < 0 || b >= 1_000 || d < 2.0 || d >= 3.0) badHere++;
                }
                if (r.ints(100, 0, 3).anyMatch(v -> v < 0 || v >= 3)) badHere++;
                synchronized (bad) { bad[0] += badHere; }
            }, "rnd" + i);
            rs[i].start();
        }
        for (Thread t : rs) t.join(10_000);
        System.out.println("ThreadLocalRandom out of range: " + bad[0] + " shared instance: " + Arrays.toString(same));
        try { mainRnd.setSeed(42); } catch (UnsupportedOperationException e) { System.out.println("setSeed: " + e); }
        try { mainRnd.nextInt(0); } catch (IllegalArgumentException e) { System.out.println("nextInt(0): " + e.getMessage()); }
        try { mainRnd.nextInt(5, 5); } catch (IllegalArgumentException e) { System.out.println("nextInt(5,5): " + e.getMessage()); }
    }
}
