// JVMFLAGS: -Xmx128m
import java.util.ArrayList;
import java.util.List;

// Large arrays (1-16 MB) of every element kind, mixed with small objects, some kept and some
// dropped; contents verified after collections. The live set stays under ~48 MB. Under
// JXVM_GC_STRESS (a collection at every allocation) the small-object counts shrink; HotSpot
// sees the same environment variable, so both VMs run the same sizes.
public class GcLargeObjects {
    static final boolean SMALL = System.getenv("JXVM_GC_STRESS") != null;
    static final int MB = 1 << 20;
    static final int SMALL_OBJS = SMALL ? 20 : 20_000;
    static final int BUDGET_MB = SMALL ? 16 : 40;       // large arrays kept live at once
    static final int OSTRIDE = SMALL ? 65536 : 1024;    // Object[] element stride

    static final class Small {
        final int id;
        final Small next;
        final String label;
        Small(int id, Small next) { this.id = id; this.next = next; this.label = "n" + (id % 100); }
    }

    static Object large(int kind, int mb, int seed) {
        switch (kind % 5) {
            case 0: { byte[] a = new byte[mb * MB]; for (int i = 0; i < a.length; i += 4093) a[i] = (byte) (i ^ seed); return a; }
            case 1: { int[] a = new int[mb * MB / 4]; for (int i = 0; i < a.length; i += 1021) a[i] = i * 31 + seed; return a; }
            case 2: { long[] a = new long[mb * MB / 8]; for (int i = 0; i < a.length; i += 509) a[i] = (long) i * seed - 7; return a; }
            case 3: { double[] a = new double[mb * MB / 8]; for (int i = 0; i < a.length; i += 509) a[i] = i * 0.5 + seed; return a; }
            default: {
                // a large reference array pointing at small objects (which must move with it)
                Object[] a = new Object[mb * MB / 8];
                for (int i = 0; i < a.length; i += OSTRIDE) a[i] = Integer.valueOf(i + seed);
                return a;
            }
        }
    }

    static boolean check(Object o, int seed) {
        if (o instanceof byte[]) {
            byte[] a = (byte[]) o;
            for (int i = 0; i < a.length; i++) if (a[i] != (i % 4093 == 0 ? (byte) (i ^ seed) : 0)) return false;
            return true;
        }
        if (o instanceof int[]) {
            int[] a = (int[]) o;
            for (int i = 0; i < a.length; i++) if (a[i] != (i % 1021 == 0 ? i * 31 + seed : 0)) return false;
            return true;
        }
        if (o instanceof long[]) {
            long[] a = (long[]) o;
            for (int i = 0; i < a.length; i++) if (a[i] != (i % 509 == 0 ? (long) i * seed - 7 : 0)) return false;
            return true;
        }
        if (o instanceof double[]) {
            double[] a = (double[]) o;
            for (int i = 0; i < a.length; i++) if (a[i] != (i % 509 == 0 ? i * 0.5 + seed : 0)) return false;
            return true;
        }
        Object[] a = (Object[]) o;
        for (int i = 0; i < a.length; i++) {
            if (i % OSTRIDE == 0) {
                if (!(a[i] instanceof Integer) || (Integer) a[i] != i + seed) return false;
            } else if (a[i] != null) {
                return false;
            }
        }
        return true;
    }

    static long smallChain(Small s) {
        long h = 0;
        for (; s != null; s = s.next) h = h * 31 + s.id + s.label.length();
        return h;
    }

    public static void main(String[] args) {
        int[] sizes = { 1, 2, 4, 8, 16, 3, 5, 1, 12, 2, 6, 1, 16, 4, 7, 2 };
        List<Object> kept = new ArrayList<>();
        List<Integer> keptSeeds = new ArrayList<>();
        int keptMb = 0;
        Small chain = null;
        long chainHash = 0;
        for (int round = 0; round < 4; round++) {
            for (int k = 0; k < sizes.length; k++) {
                int mb = sizes[k];
                int seed = round * 100 + k;
                Object big = large(k + round, mb, seed);
                // small objects allocated between the large ones, half of them kept
                for (int i = 0; i < SMALL_OBJS / sizes.length; i++) {
                    Small sm = new Small(seed * 1000 + i, chain);
                    if (i % 2 == 0) chain = sm;
                }
                if (!check(big, seed)) System.out.println("fresh array corrupted: round " + round + " k " + k);
                // keep it if it fits under the budget, else drop the oldest kept ones first
                while (keptMb + mb > BUDGET_MB && !kept.isEmpty()) {
                    Object old = kept.remove(0);
                    keptSeeds.remove(0);
                    keptMb -= sizeMb(old);
                }
                kept.add(big);
                keptSeeds.add(seed);
                keptMb += mb;
            }
            chainHash = smallChain(chain);
            System.gc();
            boolean ok = true;
            for (int i = 0; i < kept.size(); i++) ok &= check(kept.get(i), keptSeeds.get(i));
            System.out.println("round " + round + ": kept " + kept.size() + " arrays (" + keptMb + " MB), intact " + ok
                + ", small chain intact " + (smallChain(chain) == chainHash));
            // trim the small chain so the live set stays bounded
            Small c = chain;
            for (int i = 0; i < SMALL_OBJS / 4 && c != null; i++) c = c.next;
            if (c != null) {
                Small trimmed = null;
                int n = 0;
                for (Small x = chain; x != c; x = x.next) n++;
                Small[] tmp = new Small[n];
                int j = 0;
                for (Small x = chain; x != c; x = x.next) tmp[j++] = x;
                for (int i = n - 1; i >= 0; i--) trimmed = new Small(tmp[i].id, trimmed);
                chain = trimmed;
            }
        }

        // Arrays whose elements point at each other and at large arrays.
        Object[] web = new Object[8];
        for (int i = 0; i < web.length; i++) web[i] = new Object[] { large(i, 1 + i % 3, 7000 + i), null, "w" + i };
        for (int i = 0; i < web.length; i++) ((Object[]) web[i])[1] = web[(i + 3) % web.length];
        kept.clear();
        keptSeeds.clear();
        System.gc();
        boolean webOk = true;
        for (int i = 0; i < web.length; i++) {
            Object[] node = (Object[]) web[i];
            webOk &= check(node[0], 7000 + i) && node[1] == web[(i + 3) % web.length] && ("w" + i).equals(node[2]);
        }
        System.out.println("web of large arrays intact: " + webOk);

        // System.arraycopy and clone between large arrays after they moved.
        int[] a = (int[]) large(1, 8, 11);
        System.gc();
        int[] b = a.clone();
        int[] c = new int[a.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.gc();
        System.out.println("clone and arraycopy of a moved 8 MB array: " + (check(b, 11) && check(c, 11) && check(a, 11)));
        a = null; b = null; c = null; web = null;

        // Repeatedly allocate and drop 16 MB arrays: far more than the heap in total.
        long total = 0;
        for (int i = 0; i < 40; i++) {
            long[] t = new long[16 * MB / 8];
            t[i] = i;
            t[t.length - 1 - i] = -i;
            total += t[i] - t[t.length - 1 - i] + t.length / MB;
        }
        System.out.println("640 MB of transient 16 MB arrays: " + total);
    }

    static int sizeMb(Object o) {
        if (o instanceof byte[]) return ((byte[]) o).length / MB;
        if (o instanceof int[]) return ((int[]) o).length * 4 / MB;
        if (o instanceof long[]) return ((long[]) o).length * 8 / MB;
        if (o instanceof double[]) return ((double[]) o).length * 8 / MB;
        return ((Object[]) o).length * 8 / MB;
    }
}
