import java.lang.ref.Cleaner;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

// Weak and phantom references, reference queues, WeakHashMap and Cleaner. Referents are
// created in helper methods (or locals are nulled) so no stale stack slot keeps them alive.
// Prints only facts both VMs agree on; waits are bounded loops of System.gc() + sleep.
public class GcWeakRefs {
    static final class Payload {
        final int id;
        final int[] data;
        Payload(int id) {
            this.id = id;
            this.data = new int[100];
            for (int i = 0; i < data.length; i++) data[i] = id + i;
        }
        boolean intact() {
            for (int i = 0; i < data.length; i++) if (data[i] != id + i) return false;
            return true;
        }
    }

    static final class Tagged extends WeakReference<Payload> {
        final int tag;
        Tagged(Payload p, ReferenceQueue<Payload> q, int tag) { super(p, q); this.tag = tag; }
    }

    static final class Holder {
        Payload inner;
    }

    static Payload strongStatic;

    static WeakReference<Payload> unreachable(int id) { return new WeakReference<>(new Payload(id)); }

    static List<Payload> makePayloads(int base, int n) {
        List<Payload> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add(new Payload(base + i));
        return l;
    }

    static List<Tagged> makeRefs(List<Payload> ps, ReferenceQueue<Payload> q) {
        List<Tagged> l = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) l.add(new Tagged(ps.get(i), q, i));
        return l;
    }

    static void churn() {
        long s = 0;
        for (int i = 0; i < 20_000; i++) s += new int[i % 64].length;
        if (s < 0) System.out.println("impossible");
    }

    static void gcAndWait() throws InterruptedException {
        System.gc();
        Thread.sleep(10);
    }

    public static void main(String[] args) throws Exception {
        // 1. weak reference to an unreachable object is cleared; strongly held ones are not.
        WeakReference<Payload> gone = unreachable(1);
        Payload held = new Payload(2);
        WeakReference<Payload> kept = new WeakReference<>(held);
        strongStatic = new Payload(3);
        WeakReference<Payload> keptStatic = new WeakReference<>(strongStatic);
        Holder holder = new Holder();
        holder.inner = new Payload(4);
        WeakReference<Payload> keptField = new WeakReference<>(holder.inner);
        WeakReference<Object> nullRef = new WeakReference<>(null);
        churn();
        System.gc();
        System.out.println("unreachable referent cleared: " + (gone.get() == null) + ", refersTo(null) " + gone.refersTo(null));
        System.out.println("local-held referent kept: " + (kept.get() == held) + " intact " + kept.get().intact());
        System.out.println("static-held referent kept: " + (keptStatic.get() == strongStatic) + " intact " + keptStatic.get().intact());
        System.out.println("field-held referent kept: " + (keptField.get() == holder.inner) + " intact " + keptField.get().intact());
        System.out.println("null referent stays null: " + (nullRef.get() == null));
        // dropping the strong ref clears it at the next collection
        held = null;
        System.gc();
        System.out.println("after dropping local: cleared " + (kept.get() == null) + ", static one kept " + (keptStatic.get() != null));

        // 2. a reference queue receives the cleared references, each exactly once.
        ReferenceQueue<Payload> q = new ReferenceQueue<>();
        List<Payload> all = makePayloads(100, 20);
        List<Tagged> refs = makeRefs(all, q);
        List<Payload> strong = new ArrayList<>();
        for (int i = 0; i < 20; i += 4) strong.add(all.get(i));   // tags 0, 4, 8, 12, 16 stay reachable
        churn();
        System.gc();
        System.out.println("queue empty while all referents held: " + (q.poll() == null));
        all = null;
        churn();
        System.gc();
        Set<Integer> tags = new HashSet<>();
        int dup = 0;
        for (int i = 0; i < 15; i++) {
            Reference<? extends Payload> r = q.remove(10_000);
            if (r == null) break;
            if (!tags.add(((Tagged) r).tag)) dup++;
            if (r.get() != null) System.out.println("enqueued reference not cleared!");
        }
        Thread.sleep(50);
        System.out.println("enqueued " + tags.size() + " references, duplicates " + dup + ", none of the held ones " + tags.stream().noneMatch(t -> t % 4 == 0));
        System.out.println("nothing more queued: " + (q.poll() == null));
        boolean heldOk = true;
        for (int i = 0; i < 20; i += 4) heldOk &= refs.get(i).get() == strong.get(i / 4) && strong.get(i / 4).intact();
        System.out.println("held referents still there: " + heldOk);
        System.out.println("cleared refs report enqueued: " + refs.get(1).isEnqueued() + " / after removal " + refs.get(1).enqueue());
        // explicit clear() and enqueue()
        Tagged manual = refs.get(0);
        manual.clear();
        System.out.println("manual clear: get " + manual.get() + ", enqueue " + manual.enqueue() + ", again " + manual.enqueue());
        Reference<? extends Payload> polled = q.remove(10_000);
        System.out.println("manually enqueued one polled: " + (polled == manual));

        // 3. a chain: weakly referenced object reachable only through another weak referent.
        Holder h = new Holder();
        h.inner = new Payload(7);
        WeakReference<Holder> outer = new WeakReference<>(h);
        WeakReference<Payload> inner = new WeakReference<>(h.inner);
        Holder keepOuter = h;
        h = null;
        System.gc();
        System.out.println("chain held: outer " + (outer.get() != null) + " inner " + (inner.get() != null));
        keepOuter = null;
        System.gc();
        System.out.println("chain dropped: outer cleared " + (outer.get() == null) + " inner cleared " + (inner.get() == null));

        // 4. WeakHashMap entries go away with their keys.
        WeakHashMap<Object, String> whm = new WeakHashMap<>();
        List<Payload> allKeys = makePayloads(0, 1000);
        List<Object> keepKeys = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            whm.put(allKeys.get(i), "v" + i);
            if (i % 10 == 0) keepKeys.add(allKeys.get(i));
        }
        System.gc();
        System.out.println("WeakHashMap size while all keys held: " + whm.size());
        allKeys = null;
        int size = -1;
        for (int i = 0; i < 100 && size != 100; i++) {
            gcAndWait();
            size = whm.size();
        }
        System.out.println("WeakHashMap size after keys dropped: " + size);
        boolean whmOk = true;
        for (int i = 0; i < keepKeys.size(); i++) whmOk &= ("v" + (i * 10)).equals(whm.get(keepKeys.get(i)));
        System.out.println("remaining WeakHashMap entries intact: " + whmOk);
        keepKeys = null;
        for (int i = 0; i < 100 && size != 0; i++) {
            gcAndWait();
            size = whm.size();
        }
        System.out.println("WeakHashMap size after all keys dropped: " + size + " isEmpty " + whm.isEmpty());

        // 5. phantom references are enqueued; get() is always null.
        ReferenceQueue<Object> pq = new ReferenceQueue<>();
        Object target = new Payload(9);
        PhantomReference<Object> ph = new PhantomReference<>(target, pq);
        System.out.println("phantom get() while reachable: " + ph.get() + ", refersTo(target) " + ph.refersTo(target));
        System.gc();
        System.out.println("phantom not enqueued while reachable: " + (pq.remove(100) == null));
        target = null;
        Reference<?> pr = null;
        for (int i = 0; i < 100 && pr == null; i++) {
            System.gc();
            pr = pq.remove(10);
        }
        System.out.println("phantom enqueued after target dropped: " + (pr == ph) + ", refersTo(null) " + ph.refersTo(null));

        // 6. Cleaner runs its action once the object is unreachable (and not before).
        Cleaner cleaner = Cleaner.create();
        AtomicInteger cleaned = new AtomicInteger();
        Object[] resources = new Object[10];
        Cleaner.Cleanable[] cleanables = new Cleaner.Cleanable[10];
        for (int i = 0; i < 10; i++) {
            resources[i] = new Payload(1000 + i);
            final int id = i;
            cleanables[i] = cleaner.register(resources[i], () -> cleaned.addAndGet(1 << id));
        }
        System.gc();
        Thread.sleep(20);
        System.out.println("nothing cleaned while reachable: " + (cleaned.get() == 0));
        for (int i = 0; i < 10; i += 2) resources[i] = null;   // even ids unreachable
        cleanables[1].clean();                                // explicit clean of id 1
        int expected = 0x155 | 2;
        for (int i = 0; i < 200 && cleaned.get() != expected; i++) gcAndWait();
        System.out.println("cleaned even ids and explicit id 1: " + (cleaned.get() == expected));
        cleanables[1].clean();                                // second clean is a no-op
        cleanables[0].clean();                                // already run by the cleaner
        System.out.println("clean() is idempotent: " + (cleaned.get() == expected));
        boolean resOk = true;
        for (int i = 1; i < 10; i += 2) resOk &= ((Payload) resources[i]).intact();
        System.out.println("odd resources intact: " + resOk);
        Reference.reachabilityFence(resources);
        System.out.println("done");
    }
}
