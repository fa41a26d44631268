import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

public class HashMapCollisions {
    static final class BadKey implements Comparable<BadKey> {
        final int id;
        BadKey(int id) { this.id = id; }
        @Override public int hashCode() { return id % 4; }
        @Override public boolean equals(Object o) { return o instanceof BadKey b && b.id == id; }
        @Override public int compareTo(BadKey o) { return Integer.compare(id, o.id); }
        @Override public String toString() { return "K" + id; }
    }

    static final class NonComparableKey {
        final int id;
        NonComparableKey(int id) { this.id = id; }
        @Override public int hashCode() { return 42; }
        @Override public boolean equals(Object o) { return o instanceof NonComparableKey k && k.id == id; }
    }

    static String collidingString(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 6; i++) sb.append((n >> i & 1) == 0 ? "Aa" : "BB");
        return sb.toString();
    }

    public static void main(String[] args) {
        Map<BadKey, Integer> m = new HashMap<>();
        for (int i = 0; i < 200; i++) m.put(new BadKey(i), i * i);
        System.out.println("size=" + m.size() + " get(K150)=" + m.get(new BadKey(150)) + " get(K999)=" + m.get(new BadKey(999)));
        for (int i = 0; i < 200; i += 2) m.remove(new BadKey(i));
        System.out.println("after removals size=" + m.size() + " get(K151)=" + m.get(new BadKey(151)) + " get(K150)=" + m.get(new BadKey(150)));
        System.out.println("sorted first keys: " + new TreeMap<>(m).keySet().stream().limit(8).toList());
        Map<NonComparableKey, String> nc = new HashMap<>();
        for (int i = 0; i < 100; i++) nc.put(new NonComparableKey(i), "v" + i);
        int found = 0;
        for (int i = 0; i < 100; i++) if (("v" + i).equals(nc.get(new NonComparableKey(i)))) found++;
        System.out.println("non-comparable colliding keys found=" + found + " size=" + nc.size());
        Set<String> strs = new HashSet<>();
        int sameHash = 0;
        int h0 = collidingString(0).hashCode();
        for (int i = 0; i < 64; i++) {
            String s = collidingString(i);
            if (s.hashCode() == h0) sameHash++;
            strs.add(s);
        }
        System.out.println("colliding strings: distinct=" + strs.size() + " sameHash=" + sameHash + " hash=" + h0 + " contains=" + strs.contains("AaBBAaBBAaBB") + " " + strs.contains("AaBBAaBBAaBA"));
        Map<String, Integer> sm = new HashMap<>();
        for (int i = 0; i < 64; i++) sm.put(collidingString(i), i);
        int ok = 0;
        for (int i = 0; i < 64; i++) if (sm.get(collidingString(i)) == i) ok++;
        System.out.println("string map lookups ok=" + ok);
        Map<Integer, Integer> resize = new HashMap<>(2);
        for (int i = 0; i < 100000; i++) resize.put(i * 16, i);
        long s = 0;
        for (int i = 0; i < 100000; i++) s += resize.get(i * 16);
        System.out.println("resize map size=" + resize.size() + " sum=" + s);
        Map<Double, String> dm = new HashMap<>();
        dm.put(0.0, "pos"); dm.put(-0.0, "neg"); dm.put(Double.NaN, "nan1"); dm.put(0.0 / 0.0, "nan2");
        System.out.println("double keys: size=" + dm.size() + " get(0.0)=" + dm.get(0.0) + " get(-0.0)=" + dm.get(-0.0) + " get(NaN)=" + dm.get(Double.NaN));
    }
}
