import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

// Object.finalize: run by the finalizer thread once an object is unreachable; exceptions it
// throws are ignored; inherited by subclasses; also for clones; not for an object whose
// constructor threw before Object.<init> ran. Weak references to a finalizable object are
// cleared before it is finalized, phantom ones only after. Objects are made in helper methods
// so that no stale stack slot keeps them; waits are bounded loops of System.gc() and
// System.runFinalization(); only facts both VMs agree on are printed.
@SuppressWarnings("deprecation")
public class FinalizeBasic {
    static final ConcurrentHashMap<String, Integer> runs = new ConcurrentHashMap<>();

    static void ran(String what) {
        runs.merge(what, 1, Integer::sum);
    }

    static int count(String what) {
        return runs.getOrDefault(what, 0);
    }

    static class Plain {
        final String name;
        Plain(String name) { this.name = name; }
        @Override protected void finalize() { ran(name); }
    }

    static class Thrower {
        @Override protected void finalize() throws Throwable {
            ran("thrower");
            throw new IllegalStateException("ignored by the finalizer thread");
        }
    }

    static class ThrowsError {
        @Override protected void finalize() {
            ran("error");
            throw new OutOfMemoryError("also ignored");
        }
    }

    static class Base {
        final String tag;
        Base(String tag) { this.tag = tag; }
        @Override protected void finalize() throws Throwable { ran("base:" + tag); }
    }

    static class Derived extends Base {
        Derived() { super("derived"); }
    }

    static class DerivedTwice extends Derived {
        int extra = 5;
    }

    static class Overrides extends Base {
        Overrides() { super("overrides"); }
        @Override protected void finalize() throws Throwable {
            ran("overrides:own");
            super.finalize();
        }
    }

    static class Copyable implements Cloneable {
        final int v;
        Copyable(int v) { this.v = v; }
        @Override public Copyable clone() {
            try {
                return (Copyable) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
        @Override protected void finalize() { ran("copyable:" + v); }
    }

    static int fail() {
        throw new IllegalArgumentException("before super()");
    }

    static class NeverMade extends Base {
        NeverMade() { super(Integer.toString(fail())); }
    }

    static class MadeThenThrew extends Base {
        MadeThenThrew() {
            super("threw-after");
            if (tag.length() > 0) throw new IllegalArgumentException("after super()");
        }
    }

    static volatile WeakReference<Object> weakToWatched;
    static volatile Boolean weakClearedInFinalize;

    static class Watched {
        @Override protected void finalize() {
            weakClearedInFinalize = weakToWatched.get() == null;
            ran("watched");
        }
    }

    static class Ordered {
        static final AtomicInteger done = new AtomicInteger();
        @Override protected void finalize() { done.incrementAndGet(); }
    }

    static boolean waitFor(BooleanSupplier cond) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            if (cond.getAsBoolean()) return true;
            System.gc();
            System.runFinalization();
            Thread.sleep(10);
        }
        return cond.getAsBoolean();
    }

    static void makePlain(String name) { new Plain(name); }

    static void makeThrowers() {
        new Thrower();
        new ThrowsError();
    }

    static void makeSubclasses() {
        new Derived();
        new DerivedTwice();
        new Overrides();
    }

    static Copyable makeCopy() {
        Copyable c = new Copyable(1);
        Copyable d = c.clone();
        return d;
    }

    static void tryConstructors() {
        try {
            new NeverMade();
        } catch (IllegalArgumentException e) {
            System.out.println("NeverMade threw: " + e.getMessage());
        }
        try {
            new MadeThenThrew();
        } catch (IllegalArgumentException e) {
            System.out.println("MadeThenThrew threw: " + e.getMessage());
        }
    }

    static void makeWatched() {
        Watched w = new Watched();
        weakToWatched = new WeakReference<>(w);
    }

    static PhantomReference<Object> makeOrdered(ReferenceQueue<Object> q) {
        return new PhantomReference<>(new Ordered(), q);
    }

    public static void main(String[] args) throws Exception {
        // 1. finalize runs, on the finalizer thread.
        makePlain("first");
        System.out.println("finalized: " + waitFor(() -> count("first") == 1));

        // 2. exceptions and errors thrown by finalize are ignored; the thread goes on.
        makeThrowers();
        System.out.println("throwers finalized: " + waitFor(() -> count("thrower") == 1 && count("error") == 1));
        makePlain("after-throw");
        System.out.println("finalizer thread alive after throws: " + waitFor(() -> count("after-throw") == 1));

        // 3. subclasses inherit a finalizer; an override that calls super runs both.
        makeSubclasses();
        System.out.println("subclasses finalized: " + waitFor(() -> count("base:derived") == 2
                && count("overrides:own") == 1 && count("base:overrides") == 1));

        // 4. a clone of a finalizable object is finalized too (both copies, once each).
        Copyable kept = makeCopy();
        System.out.println("original finalized while the clone lives: " + waitFor(() -> count("copyable:1") == 1));
        System.out.println("clone intact: " + kept.v);
        kept = null;
        System.out.println("clone finalized: " + waitFor(() -> count("copyable:1") == 2));

        // 5. a constructor that throws before Object.<init> registers nothing; one that throws
        //    after does. Sentinels finalized afterwards show the collector had its chance.
        tryConstructors();
        System.out.println("thrown-after object finalized: " + waitFor(() -> count("base:threw-after") == 1));
        makePlain("sentinel1");
        waitFor(() -> count("sentinel1") == 1);
        makePlain("sentinel2");
        waitFor(() -> count("sentinel2") == 1);
        System.out.println("never-made object finalized: " + count("base:null"));

        // 6. a weak reference is cleared before its referent is finalized.
        makeWatched();
        System.out.println("watched finalized: " + waitFor(() -> count("watched") == 1));
        System.out.println("weak reference cleared when finalize ran: " + weakClearedInFinalize);

        // 7. a phantom reference is enqueued only after its referent was finalized.
        ReferenceQueue<Object> q = new ReferenceQueue<>();
        PhantomReference<Object> p = makeOrdered(q);
        Object polled = null;
        for (int i = 0; i < 500 && polled == null; i++) {
            System.gc();
            System.runFinalization();
            polled = q.remove(10);
        }
        System.out.println("phantom enqueued: " + (polled == p) + ", after finalize: " + (Ordered.done.get() == 1));

        // 8. Runtime.runFinalization is callable from any thread, repeatedly.
        Thread t = new Thread(() -> {
            Runtime.getRuntime().runFinalization();
            System.runFinalization();
        });
        t.start();
        t.join();
        System.out.println("runFinalization from another thread returned");
        System.out.println("finalize counts: " + new java.util.TreeMap<>(runs));
    }
}
