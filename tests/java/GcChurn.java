// JVMFLAGS: -Xmx64m
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

// Allocates a lot of short-lived garbage (linked lists, arrays, strings, HashMaps) while a
// live set of a few MB, reachable from locals, statics and object fields, is checked after
// every phase. Under JXVM_GC_STRESS (a collection at every allocation) the workload shrinks;
// HotSpot sees the same environment variable, so both VMs run the same sizes.
public class GcChurn {
    static final boolean SMALL = System.getenv("JXVM_GC_STRESS") != null;
    static final int LIVE = SMALL ? 200 : 40_000;       // live-set scale
    static final int CHURN = SMALL ? 20 : 6_000;        // garbage scale

    static final class Node {
        final int value;
        Node next;
        Node(int value, Node next) { this.value = value; this.next = next; }
    }

    static final class Rec {
        final long id;
        final String name;
        final int[] data;
        Rec peer;
        Rec(long id) {
            this.id = id;
            this.name = "rec-" + id;
            this.data = new int[(int) (id % 7) + 1];
            for (int i = 0; i < data.length; i++) data[i] = (int) (id * 31 + i);
        }
        long sum() {
            long s = id * 7 + name.hashCode();
            for (int d : data) s += d;
            return s;
        }
    }

    // Part of the live set hangs off statics.
    static Node staticList;
    static Rec[] staticRecs;
    static Map<String, Rec> staticMap;

    // Live set reachable from a local (passed around as a holder object).
    static final class Live {
        Node list;
        long[] longs;
        String[] strings;
        HashMap<Integer, String> map;
        TreeMap<String, Integer> tree;
        List<byte[]> blocks;
    }

    static long mix(long h, long v) { return h * 1_000_003L ^ v; }

    static Live build() {
        Live l = new Live();
        for (int i = 0; i < LIVE; i++) l.list = new Node(i, l.list);
        l.longs = new long[LIVE];
        for (int i = 0; i < LIVE; i++) l.longs[i] = (long) i * i - 12345;
        l.strings = new String[LIVE / 4];
        for (int i = 0; i < l.strings.length; i++) l.strings[i] = "s" + i + "/" + (i * 17 % 101);
        l.map = new HashMap<>();
        for (int i = 0; i < LIVE / 4; i++) l.map.put(i * 3, Integer.toHexString(i));
        l.tree = new TreeMap<>();
        for (int i = 0; i < LIVE / 8; i++) l.tree.put("k" + (i * 7919 % 100_003), i);
        l.blocks = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            byte[] b = new byte[SMALL ? 64 : 64 * 1024];
            for (int j = 0; j < b.length; j++) b[j] = (byte) (i * 13 + j);
            l.blocks.add(b);
        }
        for (int i = 0; i < LIVE / 2; i++) staticList = new Node(-i, staticList);
        staticRecs = new Rec[LIVE / 10];
        for (int i = 0; i < staticRecs.length; i++) staticRecs[i] = new Rec(i);
        for (int i = 0; i < staticRecs.length; i++) staticRecs[i].peer = staticRecs[(i * 37 + 1) % staticRecs.length];
        staticMap = new HashMap<>();
        for (int i = 0; i < staticRecs.length; i += 3) staticMap.put(staticRecs[i].name, staticRecs[i]);
        return l;
    }

    static long checksum(Live l) {
        long h = 17;
        int n = 0;
        for (Node x = l.list; x != null; x = x.next) { h = mix(h, x.value); n++; }
        h = mix(h, n);
        for (long v : l.longs) h = mix(h, v);
        for (String s : l.strings) h = mix(h, s.hashCode());
        long m = 0;
        for (Map.Entry<Integer, String> e : l.map.entrySet()) m += e.getKey() * 31L + e.getValue().hashCode();
        h = mix(h, m);
        h = mix(h, l.map.size());
        for (Map.Entry<String, Integer> e : l.tree.entrySet()) h = mix(h, e.getKey().hashCode() + e.getValue());
        for (byte[] b : l.blocks) {
            long s = 0;
            for (byte x : b) s = s * 31 + x;
            h = mix(h, s);
        }
        n = 0;
        for (Node x = staticList; x != null; x = x.next) { h = mix(h, x.value); n++; }
        h = mix(h, n);
        for (Rec r : staticRecs) h = mix(h, r.sum() + r.peer.id);
        long ms = 0;
        for (Rec r : staticMap.values()) ms += r.sum();
        h = mix(h, ms);
        h = mix(h, staticMap.size());
        return h;
    }

    // --- garbage producers; each returns a value derived from what it built ---

    static long churnLists() {
        long s = 0;
        for (int r = 0; r < CHURN; r++) {
            Node h = null;
            for (int i = 0; i < 200; i++) h = new Node(i ^ r, h);
            for (Node x = h; x != null; x = x.next) s += x.value;
        }
        return s;
    }

    static long churnArrays() {
        long s = 0;
        for (int r = 0; r < CHURN; r++) {
            int[] a = new int[16 + r % 1024];
            a[0] = r;
            a[a.length - 1] = r * 3;
            long[] b = new long[4096];
            b[r % 4096] = r;
            Object[] o = new Object[64];
            o[r % 64] = a;
            byte[] big = new byte[(r % 50) * 8192 + 1];
            big[big.length - 1] = (byte) r;
            s += a[0] + a[a.length - 1] + b[r % 4096] + ((int[]) o[r % 64]).length + big[big.length - 1];
        }
        return s;
    }

    static long churnStrings() {
        long s = 0;
        for (int r = 0; r < CHURN; r++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 20; i++) sb.append(i).append(',');
            String str = sb.toString() + r;
            String[] parts = str.split(",");
            s += parts.length + str.hashCode() + String.valueOf(r * 7L).length();
            s += String.join("-", parts[0], parts[parts.length - 1]).length();
        }
        return s;
    }

    static long churnMaps() {
        long s = 0;
        for (int r = 0; r < CHURN / 4; r++) {
            HashMap<Integer, List<String>> m = new HashMap<>();
            for (int i = 0; i < 100; i++) m.computeIfAbsent(i % 17, k -> new ArrayList<>()).add("v" + i + r);
            for (Map.Entry<Integer, List<String>> e : m.entrySet()) s += e.getKey() * e.getValue().size();
            TreeMap<Long, Object> t = new TreeMap<>();
            for (int i = 0; i < 50; i++) t.put((long) (i * 7 % 50), new long[] { i, r });
            s += t.firstKey() + t.lastKey() + t.size();
        }
        return s;
    }

    // Replaces parts of the live set with new objects (old objects now point at new ones).
    static void mutate(Live l, int round) {
        for (int i = round; i < l.strings.length; i += 97) l.strings[i] = "m" + round + ":" + i;
        for (int i = round; i < staticRecs.length; i += 53) {
            Rec r = new Rec(i + 1_000_000L * (round + 1));
            r.peer = staticRecs[(i + 1) % staticRecs.length];
            staticRecs[i] = r;
        }
        for (int i = 0; i < 4; i++) l.blocks.set((round + i) % l.blocks.size(), filled(round * 4 + i));
        for (int i = 0; i < 50; i++) l.map.put(-1 - i - round * 50, "r" + round);
    }

    static byte[] filled(int k) {
        byte[] b = new byte[SMALL ? 64 : 64 * 1024];
        for (int j = 0; j < b.length; j++) b[j] = (byte) (k * 7 + j * 3);
        return b;
    }

    public static void main(String[] args) {
        Live live = build();
        long base = checksum(live);
        System.out.println("live set built, checksum " + base);
        for (int round = 0; round < 3; round++) {
            System.out.println("round " + round + " lists " + churnLists());
            System.out.println("  checksum unchanged " + (checksum(live) == base));
            System.out.println("round " + round + " arrays " + churnArrays());
            System.out.println("  checksum unchanged " + (checksum(live) == base));
            System.out.println("round " + round + " strings " + churnStrings());
            System.out.println("  checksum unchanged " + (checksum(live) == base));
            System.out.println("round " + round + " maps " + churnMaps());
            System.out.println("  checksum unchanged " + (checksum(live) == base));
            mutate(live, round);
            base = checksum(live);
            System.out.println("round " + round + " mutated, checksum " + base);
            System.gc();
            System.out.println("  after System.gc checksum unchanged " + (checksum(live) == base));
        }
        live = null;
        staticList = null;
        staticRecs = null;
        staticMap = null;
        System.gc();
        System.out.println("after dropping the live set: lists " + churnLists());
    }
}
