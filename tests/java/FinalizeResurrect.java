import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

// Resurrection: a finalizer that stores `this` somewhere reachable brings its object back; the
// object is intact, finalize never runs for it again, and once dropped again it is collected
// like any other object. A finalizable object reachable only from another finalizable object
// is finalized as well (both in the same round), and is intact when its holder's finalizer
// reads it. Waits are bounded loops of System.gc() and System.runFinalization().
@SuppressWarnings("deprecation")
public class FinalizeResurrect {
    static final List<Phoenix> saved = new ArrayList<>();
    static final AtomicInteger phoenixRuns = new AtomicInteger();

    static class Phoenix {
        final int id;
        final int[] payload;
        Phoenix(int id) {
            this.id = id;
            payload = new int[64];
            for (int i = 0; i < payload.length; i++) payload[i] = id * 1000 + i;
        }
        boolean intact() {
            for (int i = 0; i < payload.length; i++) if (payload[i] != id * 1000 + i) return false;
            return true;
        }
        @Override protected void finalize() {
            phoenixRuns.incrementAndGet();
            synchronized (saved) {
                saved.add(this);
            }
        }
    }

    static final AtomicInteger outerRuns = new AtomicInteger();
    static final AtomicInteger innerRuns = new AtomicInteger();
    static volatile String innerSeenByOuter;

    static class Inner {
        final String text;
        Inner(String text) { this.text = text; }
        @Override protected void finalize() { innerRuns.incrementAndGet(); }
    }

    static class Outer {
        final Inner inner;
        Outer(Inner inner) { this.inner = inner; }
        @Override protected void finalize() {
            innerSeenByOuter = inner.text;
            outerRuns.incrementAndGet();
        }
    }

    static final AtomicInteger chainRuns = new AtomicInteger();

    static class Link {
        final Link next;
        final int n;
        Link(Link next, int n) { this.next = next; this.n = n; }
        @Override protected void finalize() {
            if (next != null && next.n != n - 1) throw new AssertionError("broken link");
            chainRuns.incrementAndGet();
        }
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

    static void makePhoenixes(int n) {
        for (int i = 0; i < n; i++) new Phoenix(i);
    }

    static void makeOuter() { new Outer(new Inner("inner text")); }

    static void makeChain(int n) {
        Link l = null;
        for (int i = 0; i < n; i++) l = new Link(l, i);
    }

    static List<WeakReference<Phoenix>> dropSaved(ReferenceQueue<Phoenix> q, List<PhantomReference<Phoenix>> phantoms) {
        List<WeakReference<Phoenix>> weak = new ArrayList<>();
        synchronized (saved) {
            for (Phoenix p : saved) {
                weak.add(new WeakReference<>(p));
                phantoms.add(new PhantomReference<>(p, q));
            }
            saved.clear();
        }
        return weak;
    }

    public static void main(String[] args) throws Exception {
        // 1. resurrection.
        makePhoenixes(10);
        System.out.println("all finalized: " + waitFor(() -> phoenixRuns.get() == 10));
        boolean intact = true;
        int idSum = 0;
        synchronized (saved) {
            for (Phoenix p : saved) {
                intact &= p.intact();
                idSum += p.id;
            }
            System.out.println("resurrected: " + saved.size() + ", intact: " + intact + ", id sum: " + idSum);
        }

        // 2. finalize runs once: dropped again, they are collected without another call.
        ReferenceQueue<Phoenix> q = new ReferenceQueue<>();
        List<PhantomReference<Phoenix>> phantoms = new ArrayList<>();
        List<WeakReference<Phoenix>> weak = dropSaved(q, phantoms);
        System.out.println("collected after resurrection: " + waitFor(() -> weak.stream().allMatch(w -> w.get() == null)));
        int enqueued = 0;
        for (int i = 0; i < 500 && enqueued < 10; i++) {
            if (q.remove(10) != null) enqueued++;
            else System.gc();
        }
        System.out.println("phantoms enqueued: " + enqueued);
        System.runFinalization();
        System.out.println("finalize calls: " + phoenixRuns.get() + ", saved again: " + saved.size());

        // 3. a finalizable object reachable only from another finalizable object.
        makeOuter();
        System.out.println("outer and inner finalized: " + waitFor(() -> outerRuns.get() == 1 && innerRuns.get() == 1));
        System.out.println("outer saw: " + innerSeenByOuter);

        // 4. a chain of finalizable objects, each reachable only from the next one made.
        makeChain(2000);
        System.out.println("chain finalized: " + waitFor(() -> chainRuns.get() == 2000));
        System.out.println("runs: phoenix " + phoenixRuns.get() + ", outer " + outerRuns.get()
                + ", inner " + innerRuns.get() + ", chain " + chainRuns.get());
    }
}
