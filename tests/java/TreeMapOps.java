import java.util.Comparator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

public class TreeMapOps {
    public static void main(String[] args) {
        TreeMap<Integer, String> tm = new TreeMap<>();
        int[] keys = {50, 20, 80, 10, 30, 70, 90, 25, 35, 65};
        for (int k : keys) tm.put(k, "v" + k);
        System.out.println("treemap: " + tm);
        System.out.println("first=" + tm.firstKey() + " last=" + tm.lastKey() + " firstEntry=" + tm.firstEntry() + " lastEntry=" + tm.lastEntry());
        for (int probe : new int[]{5, 25, 26, 60, 90, 100}) {
            System.out.println("probe " + probe + ": floor=" + tm.floorKey(probe) + " ceiling=" + tm.ceilingKey(probe) + " lower=" + tm.lowerKey(probe) + " higher=" + tm.higherKey(probe));
        }
        System.out.println("headMap(30)=" + tm.headMap(30) + " headMap(30,true)=" + tm.headMap(30, true));
        System.out.println("tailMap(70)=" + tm.tailMap(70) + " tailMap(70,false)=" + tm.tailMap(70, false));
        System.out.println("subMap(20,65)=" + tm.subMap(20, 65) + " subMap(20,false,65,true)=" + tm.subMap(20, false, 65, true));
        NavigableMap<Integer, String> desc = tm.descendingMap();
        System.out.println("descending: " + desc + " descendingKeySet first=" + tm.descendingKeySet().first());
        System.out.println("pollFirst=" + tm.pollFirstEntry() + " pollLast=" + tm.pollLastEntry() + " now " + tm.keySet());
        NavigableMap<Integer, String> view = tm.subMap(25, true, 70, true);
        view.remove(30);
        tm.put(40, "v40");
        System.out.println("view after remove & backing put: " + view + " backing: " + tm);
        try {
            view.put(100, "out of range");
        } catch (IllegalArgumentException e) {
            System.out.println("view put out of range: " + e.getMessage());
        }
        TreeMap<String, Integer> byLen = new TreeMap<>(Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));
        for (String s : new String[]{"pear", "fig", "banana", "kiwi", "apple", "date", "plum"}) byLen.put(s, s.length());
        System.out.println("custom comparator: " + byLen);
        TreeMap<String, Integer> ci = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        ci.put("Hello", 1); ci.put("HELLO", 2); ci.put("world", 3);
        System.out.println("case-insensitive keys: " + ci + " get(hello)=" + ci.get("hello"));
        TreeMap<Double, String> dm = new TreeMap<>();
        dm.put(-0.0, "negzero"); dm.put(0.0, "zero"); dm.put(Double.NaN, "nan"); dm.put(Double.NEGATIVE_INFINITY, "neginf");
        System.out.println("double keys: " + dm);
        try {
            new TreeMap<Object, Integer>().put(null, 1);
        } catch (NullPointerException e) {
            System.out.println("null key: NPE");
        }
        TreeMap<Integer, Integer> freq = new TreeMap<>();
        for (int i = 0; i < 1000; i++) freq.merge((i * i) % 17, 1, Integer::sum);
        System.out.println("squares mod 17 freq: " + freq);
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Integer, Integer> e : freq.entrySet()) if (e.getValue() > 100) sb.append(e.getKey()).append(' ');
        System.out.println("frequent residues: " + sb.toString().trim());
        TreeMap<Integer, Integer> big = new TreeMap<>();
        for (int i = 0; i < 5000; i++) big.put((i * 7919) % 5003, i);
        int checksum = 0;
        for (int k : big.keySet()) checksum = checksum * 31 + k;
        System.out.println("big treemap size=" + big.size() + " first=" + big.firstKey() + " last=" + big.lastKey() + " checksum=" + checksum + " floor(2500)=" + big.floorEntry(2500));
    }
}
