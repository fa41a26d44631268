import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class IteratorCME {
    static void attempt(String label, Runnable r) {
        try {
            r.run();
            System.out.println(label + ": no exception");
        } catch (ConcurrentModificationException e) {
            System.out.println(label + ": ConcurrentModificationException");
        } catch (IllegalStateException e) {
            System.out.println(label + ": IllegalStateException");
        } catch (UnsupportedOperationException e) {
            System.out.println(label + ": UnsupportedOperationException");
        }
    }

    static List<Integer> fresh() { List<Integer> l = new ArrayList<>(); for (int i = 0; i < 10; i++) l.add(i); return l; }

    public static void main(String[] args) {
        attempt("foreach remove", () -> { List<Integer> l = fresh(); for (Integer x : l) if (x == 3) l.remove(x); });
        attempt("foreach remove second-to-last (no CME quirk)", () -> { List<Integer> l = fresh(); for (Integer x : l) if (x == 8) l.remove(x); System.out.print("[size " + l.size() + "] "); });
        attempt("foreach add", () -> { List<Integer> l = fresh(); for (Integer x : l) if (x == 0) l.add(100); });
        attempt("iterator remove ok", () -> {
            List<Integer> l = fresh();
            Iterator<Integer> it = l.iterator();
            while (it.hasNext()) if (it.next() % 2 == 1) it.remove();
            System.out.print(l + " ");
        });
        attempt("iterator remove twice", () -> { List<Integer> l = fresh(); Iterator<Integer> it = l.iterator(); it.next(); it.remove(); it.remove(); });
        attempt("iterator remove before next", () -> { Iterator<Integer> it = fresh().iterator(); it.remove(); });
        attempt("linkedlist foreach remove", () -> { List<Integer> l = new LinkedList<>(fresh()); for (Integer x : l) if (x == 2) l.remove(x); });
        attempt("hashmap keySet modify", () -> {
            Map<String, Integer> m = new HashMap<>();
            for (int i = 0; i < 10; i++) m.put("k" + i, i);
            for (String k : m.keySet()) if (k.equals("k3")) m.put("new", 1);
        });
        attempt("hashmap entry iterator remove ok", () -> {
            Map<String, Integer> m = new HashMap<>();
            for (int i = 0; i < 10; i++) m.put("k" + i, i);
            m.entrySet().removeIf(e -> e.getValue() % 3 == 0);
            System.out.print(new TreeMap<>(m) + " ");
        });
        attempt("hashmap value update during iteration ok", () -> {
            Map<String, Integer> m = new HashMap<>();
            for (int i = 0; i < 5; i++) m.put("k" + i, i);
            for (String k : m.keySet()) m.put(k, m.get(k) * 10);
            System.out.print(new TreeMap<>(m) + " ");
        });
        attempt("treemap modify", () -> {
            TreeMap<Integer, Integer> m = new TreeMap<>();
            for (int i = 0; i < 5; i++) m.put(i, i);
            for (Integer k : m.keySet()) if (k == 1) m.remove(3);
        });
        attempt("subList after structural change", () -> { List<Integer> l = fresh(); List<Integer> s = l.subList(2, 5); l.add(1); s.size(); });
        attempt("removeIf ok", () -> { List<Integer> l = fresh(); l.removeIf(x -> x > 4); System.out.print(l + " "); });
        attempt("List.of iterator remove", () -> { Iterator<Integer> it = List.of(1, 2).iterator(); it.next(); it.remove(); });
        attempt("forEach lambda modify", () -> { List<Integer> l = fresh(); l.forEach(x -> { if (x == 5) l.add(1); }); });
        attempt("index loop remove ok", () -> {
            List<Integer> l = fresh();
            for (int i = l.size() - 1; i >= 0; i--) if (l.get(i) % 3 == 0) l.remove(i);
            System.out.print(l + " ");
        });
    }
}
