import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

public class CollectionsUtil {
    public static void main(String[] args) {
        List<Integer> list = new ArrayList<>();
        for (int i = 1; i <= 12; i++) list.add(i);
        Collections.reverse(list);
        System.out.println("reverse: " + list);
        Collections.shuffle(list, new Random(42));
        System.out.println("shuffle(seed 42): " + list);
        Collections.shuffle(list, new Random(7));
        System.out.println("shuffle(seed 7): " + list);
        Collections.sort(list);
        System.out.println("sort: " + list);
        Collections.rotate(list, 3);
        System.out.println("rotate 3: " + list);
        Collections.rotate(list, -5);
        System.out.println("rotate -5: " + list);
        Collections.swap(list, 0, 11);
        System.out.println("swap: " + list);
        System.out.println("max=" + Collections.max(list) + " min=" + Collections.min(list) + " max by reverse=" + Collections.max(list, Collections.reverseOrder()));
        Collections.sort(list);
        System.out.println("binarySearch 7=" + Collections.binarySearch(list, 7) + " 13=" + Collections.binarySearch(list, 13));
        List<String> words = Arrays.asList("a", "b", "a", "c", "a", "b");
        System.out.println("frequency a=" + Collections.frequency(words, "a") + " z=" + Collections.frequency(words, "z") + " disjoint=" + Collections.disjoint(words, List.of("x", "y")));
        List<String> n = Collections.nCopies(4, "ab");
        System.out.println("nCopies: " + n + " joined=" + String.join("", n));
        List<Integer> unmod = Collections.unmodifiableList(list);
        try {
            unmod.set(0, 5);
        } catch (UnsupportedOperationException e) {
            System.out.println("unmodifiableList set: UOE");
        }
        list.set(0, 100);
        System.out.println("unmodifiable is a view: " + unmod.get(0));
        Map<String, Integer> um = Collections.unmodifiableMap(new TreeMap<>(Map.of("k", 1, "j", 2)));
        try {
            um.put("x", 1);
        } catch (UnsupportedOperationException e) {
            System.out.println("unmodifiableMap put: UOE " + um);
        }
        System.out.println("empty: " + Collections.emptyList() + Collections.emptyMap() + Collections.emptySet() + " singleton: " + Collections.singletonList(9) + Collections.singleton("s") + Collections.singletonMap("k", "v"));
        List<Integer> fillMe = new ArrayList<>(Collections.nCopies(5, 0));
        Collections.fill(fillMe, 7);
        System.out.println("fill: " + fillMe);
        List<Integer> dest = new ArrayList<>(Collections.nCopies(8, -1));
        Collections.copy(dest, List.of(1, 2, 3));
        System.out.println("copy: " + dest);
        List<Integer> addAll = new ArrayList<>();
        Collections.addAll(addAll, 5, 3, 9);
        System.out.println("addAll: " + addAll + " indexOfSubList: " + Collections.indexOfSubList(List.of(1, 2, 3, 2, 3), List.of(2, 3)) + " last: " + Collections.lastIndexOfSubList(List.of(1, 2, 3, 2, 3), List.of(2, 3)));
        Set<String> sorted = new java.util.TreeSet<>(Collections.reverseOrder());
        sorted.addAll(List.of("x", "a", "m"));
        System.out.println("reverseOrder TreeSet: " + sorted);
        List<String> syn = Collections.synchronizedList(new ArrayList<>(List.of("s")));
        syn.add("t");
        System.out.println("synchronizedList: " + syn);
        List<Integer> big = new ArrayList<>();
        for (int i = 0; i < 100; i++) big.add(i);
        Collections.shuffle(big, new Random(12345));
        System.out.println("big shuffle first 15: " + big.subList(0, 15));
        Random r = new Random(99);
        List<Integer> rl = new ArrayList<>();
        for (int i = 0; i < 10; i++) rl.add(r.nextInt(100));
        System.out.println("random list: " + rl + " sorted desc: " + rl.stream().sorted(Collections.reverseOrder()).toList());
    }
}
