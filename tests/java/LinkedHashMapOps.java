import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

public class LinkedHashMapOps {
    static class LRU<K, V> extends LinkedHashMap<K, V> {
        final int cap;
        LRU(int cap) { super(16, 0.75f, true); this.cap = cap; }
        @Override protected boolean removeEldestEntry(Map.Entry<K, V> e) { return size() > cap; }
    }

    static class Obj {
        final int id;
        Obj(int id) { this.id = id; }
        @Override public String toString() { return "Obj" + id; }
    }

    public static void main(String[] args) {
        Map<String, Integer> lhm = new LinkedHashMap<>();
        for (String s : new String[]{"zeta", "alpha", "mike", "bravo", "alpha", "yankee"}) lhm.merge(s, 1, Integer::sum);
        System.out.println("insertion order: " + lhm);
        lhm.put("zeta", 100);
        System.out.println("re-put keeps position: " + lhm);
        lhm.remove("mike");
        lhm.put("mike", 5);
        System.out.println("remove+put moves to end: " + lhm);
        LRU<Integer, String> lru = new LRU<>(3);
        lru.put(1, "one"); lru.put(2, "two"); lru.put(3, "three");
        lru.get(1);
        lru.put(4, "four");
        System.out.println("LRU after get(1), put(4): " + lru);
        lru.get(3);
        lru.put(5, "five");
        System.out.println("LRU after get(3), put(5): " + lru);
        Map<Obj, Integer> identityKeys = new LinkedHashMap<>();
        for (int i = 5; i > 0; i--) identityKeys.put(new Obj(i), i * i);
        System.out.println("identity-hash keys keep insertion order: " + identityKeys);
        Set<Obj> objSet = new LinkedHashSet<>();
        for (int i = 0; i < 6; i++) objSet.add(new Obj(i * 2));
        System.out.println("LinkedHashSet of identity objects: " + objSet);
        Set<String> lhs = new LinkedHashSet<>();
        for (String s : "to be or not to be that is the question".split(" ")) lhs.add(s);
        System.out.println("unique words in order: " + lhs);
        Iterator<Map.Entry<String, Integer>> it = lhm.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Integer> e = it.next();
            if (e.getKey().startsWith("a") || e.getKey().startsWith("b")) it.remove();
            else e.setValue(e.getValue() + 1000);
        }
        System.out.println("after iterator edits: " + lhm);
        LinkedHashMap<Integer, Integer> big = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) big.put((i * 31) % 1000, i);
        StringBuilder sb = new StringBuilder();
        int c = 0;
        for (int k : big.keySet()) { if (c++ < 10) sb.append(k).append(' '); }
        System.out.println("big first 10 keys: " + sb.toString().trim() + " size=" + big.size());
    }
}
