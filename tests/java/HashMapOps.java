import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class HashMapOps {
    public static void main(String[] args) {
        Map<String, Integer> m = new HashMap<>();
        String text = "the quick brown fox jumps over the lazy dog the fox barks and the dog runs quick quick";
        for (String w : text.split(" ")) m.merge(w, 1, Integer::sum);
        System.out.println("word counts (HashMap order, string keys): " + m);
        System.out.println("size=" + m.size() + " the=" + m.get("the") + " cat=" + m.get("cat") + " getOrDefault=" + m.getOrDefault("cat", 0) + " containsKey(fox)=" + m.containsKey("fox")
            + " containsValue(4)=" + m.containsValue(4));
        System.out.println("put returns old: " + m.put("fox", 10) + " new key: " + m.put("cat", 1) + " putIfAbsent: " + m.putIfAbsent("cat", 5) + " " + m.putIfAbsent("emu", 5));
        System.out.println("remove: " + m.remove("emu") + " " + m.remove("nothing") + " remove(k,v) " + m.remove("cat", 2) + " " + m.remove("cat", 1));
        m.compute("the", (k, v) -> v == null ? 1 : v * 100);
        m.computeIfAbsent("new", k -> k.length());
        m.computeIfPresent("dog", (k, v) -> null);
        m.replace("lazy", 77);
        m.replaceAll((k, v) -> k.length() > 4 ? -v : v);
        System.out.println("after compute ops: " + new TreeMap<>(m));
        Map<Integer, String> im = new HashMap<>();
        for (int i = 0; i < 50; i += 3) im.put(i * 37 % 101, "v" + i);
        System.out.println("integer keys (HashMap order): " + im);
        System.out.println("keySet: " + im.keySet());
        System.out.println("values: " + im.values());
        Map<String, Integer> nulls = new HashMap<>();
        nulls.put(null, 1);
        nulls.put("a", null);
        System.out.println("nulls: " + nulls + " get(null)=" + nulls.get(null) + " containsKey(a)=" + nulls.containsKey("a") + " get(a)=" + nulls.get("a") + " getOrDefault(a)=" + nulls.getOrDefault("a", 9));
        Map<String, List<Integer>> multi = new HashMap<>();
        for (int i = 0; i < 20; i++) multi.computeIfAbsent(i % 3 == 0 ? "fizz" : i % 5 == 0 ? "buzz" : "other", k -> new ArrayList<>()).add(i);
        System.out.println("multimap: " + multi);
        Map<Long, Long> big = new HashMap<>();
        for (long i = 0; i < 20000; i++) big.put(i * i, i);
        long sum = 0;
        for (Map.Entry<Long, Long> e : big.entrySet()) sum += e.getValue() ^ e.getKey();
        System.out.println("big map size=" + big.size() + " xor-sum=" + sum + " get(99980001)=" + big.get(99980001L));
        for (long i = 0; i < 20000; i += 2) big.remove(i * i);
        System.out.println("after removals size=" + big.size() + " get(4)=" + big.get(4L) + " get(9)=" + big.get(9L));
        Map<String, Integer> copy = new HashMap<>(m);
        System.out.println("copy equals: " + copy.equals(m) + " hashCode equal: " + (copy.hashCode() == m.hashCode()) + " hash=" + m.hashCode());
        Map<String, Integer> immutable = Map.of("one", 1, "two", 2);
        try {
            immutable.put("three", 3);
        } catch (UnsupportedOperationException e) {
            System.out.println("Map.of immutable: UOE, get(two)=" + immutable.get("two") + " size=" + immutable.size());
        }
        Map.Entry<String, Integer> entry = Map.entry("k", 5);
        System.out.println("entry: " + entry + " key=" + entry.getKey() + " value=" + entry.getValue());
        StringBuilder sb = new StringBuilder();
        m.forEach((k, v) -> { if (v > 1) sb.append(k).append('=').append(v).append(';'); });
        System.out.println("forEach filtered: " + sb);
    }
}
