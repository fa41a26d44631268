// JVMFLAGS: -Xmx64m
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

// Soft references: kept across System.gc() while memory is plentiful (a recently used soft
// reference survives HotSpot's System.gc() too), cleared (and enqueued) rather than letting an
// allocation fail with OutOfMemoryError. Prints no counts that depend on the collector.
public class GcSoftRefs {
    static final int MB = 1 << 20;

    static final class Payload {
        final int id;
        final long[] data = new long[32];
        Payload(int id) {
            this.id = id;
            for (int i = 0; i < data.length; i++) data[i] = id * 100L + i;
        }
        boolean intact() {
            for (int i = 0; i < data.length; i++) if (data[i] != id * 100L + i) return false;
            return true;
        }
    }

    static SoftReference<Payload> softOnly(int id) { return new SoftReference<>(new Payload(id)); }
    static WeakReference<Payload> weakOnly(int id) { return new WeakReference<>(new Payload(id)); }

    static byte[] block(int i) {
        byte[] b = new byte[MB];
        b[0] = (byte) i;
        b[MB / 2] = (byte) (i * 3);
        b[MB - 1] = (byte) (i * 7);
        return b;
    }

    static boolean blockOk(byte[] b, int i) {
        return b[0] == (byte) i && b[MB / 2] == (byte) (i * 3) && b[MB - 1] == (byte) (i * 7);
    }

    public static void main(String[] args) throws Exception {
        // 1. plenty of memory: softly reachable objects survive System.gc(); weak ones do not.
        SoftReference<Payload> soft = softOnly(1);
        WeakReference<Payload> weak = weakOnly(2);
        Payload p = soft.get();            // recently used
        p = null;
        System.gc();
        Payload s = soft.get();
        System.out.println("soft referent survives System.gc: " + (s != null) + " intact " + (s != null && s.intact()));
        System.out.println("weak referent cleared by the same gc: " + (weak.get() == null));
        s = null;

        // A soft and a weak reference to the same object: the soft one keeps it alive, so the
        // weak one is not cleared either.
        Payload shared = new Payload(3);
        SoftReference<Payload> softShared = new SoftReference<>(shared);
        WeakReference<Payload> weakShared = new WeakReference<>(shared);
        shared = null;
        softShared.get();
        System.gc();
        System.out.println("softly reachable object keeps its weak reference: " + (weakShared.get() != null)
            + " same object " + (weakShared.get() == softShared.get()));

        // 2. a 64 MB heap filled with soft-referenced 1 MB arrays: allocation keeps succeeding
        //    far beyond the heap size because soft references get cleared (and enqueued).
        ReferenceQueue<byte[]> q = new ReferenceQueue<>();
        List<SoftReference<byte[]>> refs = new ArrayList<>();
        String outcome;
        try {
            for (int i = 0; i < 300; i++) refs.add(new SoftReference<>(block(i), q));
            outcome = "completed without OOM";
        } catch (OutOfMemoryError e) {
            refs = null;
            outcome = "OutOfMemoryError " + e.getMessage();
        }
        System.out.println("allocated 300 MB through soft refs: " + outcome);
        int cleared = 0;
        boolean survivorsOk = true;
        for (int i = 0; i < refs.size(); i++) {
            byte[] b = refs.get(i).get();
            if (b == null) cleared++;
            else survivorsOk &= blockOk(b, i);
        }
        System.out.println("some soft refs cleared: " + (cleared > 0) + ", not all: " + (cleared < refs.size()));
        System.out.println("surviving arrays intact: " + survivorsOk);
        int enqueued = 0;
        while (enqueued < cleared) {
            Reference<? extends byte[]> r = q.remove(10_000);
            if (r == null) break;
            if (r.get() != null) System.out.println("enqueued soft ref not cleared!");
            enqueued++;
        }
        System.out.println("every cleared soft ref enqueued: " + (enqueued >= cleared));

        // 3. strongly reachable referents are never cleared, even under memory pressure.
        List<Payload> strong = new ArrayList<>();
        List<SoftReference<Payload>> strongRefs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Payload x = new Payload(1000 + i);
            strong.add(x);
            strongRefs.add(new SoftReference<>(x));
        }
        refs = null;
        List<SoftReference<byte[]>> more = new ArrayList<>();
        for (int i = 0; i < 200; i++) more.add(new SoftReference<>(block(i)));
        boolean strongOk = true;
        for (int i = 0; i < 50; i++) strongOk &= strongRefs.get(i).get() == strong.get(i) && strong.get(i).intact();
        System.out.println("strongly held soft referents kept under pressure: " + strongOk);

        // 4. a soft-ref cache: whatever survives is correct, and a hard-held working set fits.
        more = null;
        SoftReference<byte[]>[] cache = newCache(100);
        List<byte[]> working = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < cache.length; i++) {
                byte[] b = cache[i] == null ? null : cache[i].get();
                if (b == null) {
                    b = block(i);
                    cache[i] = new SoftReference<>(b);
                }
                if (!blockOk(b, i)) System.out.println("cache entry " + i + " corrupted");
                if (round == 1 && i % 10 == 0) working.add(b);
            }
        }
        System.out.println("soft cache served 300 lookups over a 100 MB working set, held " + working.size() + " MB hard");
        boolean workingOk = true;
        for (int i = 0; i < working.size(); i++) workingOk &= blockOk(working.get(i), i * 10);
        System.out.println("hard-held blocks intact: " + workingOk);
        System.out.println("done");
    }

    @SuppressWarnings("unchecked")
    static SoftReference<byte[]>[] newCache(int n) { return (SoftReference<byte[]>[]) new SoftReference[n]; }
}
