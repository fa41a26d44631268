import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

public class SetsOps {
    public static void main(String[] args) {
        Set<Integer> a = new HashSet<>(List.of(1, 2, 3, 4, 5, 6));
        Set<Integer> b = new HashSet<>(List.of(4, 5, 6, 7, 8));
        Set<Integer> union = new HashSet<>(a); union.addAll(b);
        Set<Integer> inter = new HashSet<>(a); inter.retainAll(b);
        Set<Integer> diff = new HashSet<>(a); diff.removeAll(b);
        System.out.println("union=" + union + " inter=" + inter + " diff=" + diff);
        System.out.println("add dup returns " + a.add(3) + ", add new returns " + a.add(30) + ", remove returns " + a.remove(1) + " " + a.remove(100));
        Set<String> hs = new HashSet<>();
        for (String s : "apple banana cherry date elderberry fig grape apple fig".split(" ")) hs.add(s);
        System.out.println("string HashSet (deterministic hash order): " + hs + " size=" + hs.size());
        Set<Integer> big = new HashSet<>();
        for (int i = 0; i < 100000; i += 7) big.add(i % 9973);
        System.out.println("big set size=" + big.size() + " contains(9972)=" + big.contains(9972) + " contains(-1)=" + big.contains(-1));
        TreeSet<String> ts = new TreeSet<>(hs);
        System.out.println("TreeSet: " + ts + " first=" + ts.first() + " last=" + ts.last());
        System.out.println("ceiling(c)=" + ts.ceiling("c") + " floor(c)=" + ts.floor("c") + " higher(date)=" + ts.higher("date") + " lower(apple)=" + ts.lower("apple"));
        System.out.println("headSet(date)=" + ts.headSet("date") + " tailSet(date)=" + ts.tailSet("date") + " subSet(b,f)=" + ts.subSet("b", "f"));
        NavigableSet<String> desc = ts.descendingSet();
        System.out.println("descending: " + desc + " pollFirst=" + ts.pollFirst() + " pollLast=" + ts.pollLast() + " now " + ts);
        TreeSet<Integer> nums = new TreeSet<>((x, y) -> Integer.compare(Math.abs(x), Math.abs(y)));
        for (int v : new int[]{-5, 3, 5, -3, 1, -10, 7}) nums.add(v);
        System.out.println("abs comparator set (dups by abs dropped): " + nums);
        TreeSet<Character> chars = new TreeSet<>();
        for (char c : "mississippi river".toCharArray()) chars.add(c);
        System.out.println("chars: " + chars);
        Set<List<Integer>> listSet = new HashSet<>();
        listSet.add(List.of(1, 2)); listSet.add(List.of(1, 2)); listSet.add(List.of(2, 1));
        System.out.println("set of lists size: " + listSet.size() + " contains [2,1]: " + listSet.contains(List.of(2, 1)));
        Set<Integer> immutable = Set.of(3, 1, 2);
        System.out.println("Set.of contains: " + immutable.contains(2) + " size " + immutable.size() + " sorted " + new TreeSet<>(immutable));
        try {
            Set.of(1, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("Set.of duplicate: " + e.getMessage());
        }
        System.out.println("equals across impls: " + new HashSet<>(List.of(1, 2, 3)).equals(new TreeSet<>(List.of(3, 2, 1))) + " hashCode: " + new TreeSet<>(List.of(1, 2, 3)).hashCode());
        Set<Boolean> bools = new HashSet<>(List.of(true, false));
        Set<Long> longs = new HashSet<>(List.of(1L << 33, 1L, 1L << 32, -1L));
        Set<Double> doubles = new HashSet<>(List.of(0.5, -0.0, 0.0, 1e10));
        System.out.println("boxed hash sets: " + bools + " " + longs + " " + doubles);
        Set<Character> charSet = new HashSet<>();
        for (char c = 'z'; c >= 'a'; c -= 3) charSet.add(c);
        System.out.println("char hash set: " + charSet);
    }
}
