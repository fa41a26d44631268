import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;

public class ArrayListOps {
    public static void main(String[] args) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 20; i++) list.add(i * 3 % 17);
        System.out.println("initial: " + list + " size=" + list.size());
        list.add(0, -1);
        list.add(5, 99);
        list.set(1, 42);
        System.out.println("after add/set: " + list);
        System.out.println("get(5)=" + list.get(5) + " indexOf(99)=" + list.indexOf(99) + " lastIndexOf(3)=" + list.lastIndexOf(3) + " contains(16)=" + list.contains(16) + " contains(100)=" + list.contains(100));
        list.remove(Integer.valueOf(99));
        list.remove(0);
        System.out.println("after removes: " + list);
        List<Integer> sub = list.subList(3, 8);
        System.out.println("subList: " + sub);
        sub.set(0, -100);
        sub.remove(1);
        System.out.println("after subList mutation: " + list + " sub=" + sub);
        list.removeIf(x -> x % 2 == 0);
        System.out.println("removeIf even: " + list);
        list.replaceAll(x -> x * 10);
        System.out.println("replaceAll: " + list);
        list.sort(null);
        System.out.println("sorted: " + list);
        list.sort(Collections.reverseOrder());
        System.out.println("reverse sorted: " + list);
        ListIterator<Integer> it = list.listIterator();
        while (it.hasNext()) {
            int idx = it.nextIndex();
            int v = it.next();
            if (v > 100) it.set(v / 10);
            else if (v < 30) it.remove();
            else if (idx == 2) it.add(7777);
        }
        System.out.println("listIterator edits: " + list);
        StringBuilder back = new StringBuilder();
        ListIterator<Integer> rit = list.listIterator(list.size());
        while (rit.hasPrevious()) back.append(rit.previous()).append(' ');
        System.out.println("backwards: " + back.toString().trim());
        List<String> strs = new ArrayList<>(Arrays.asList("b", "a", "c"));
        strs.addAll(1, List.of("x", "y"));
        strs.addAll(List.of("z"));
        System.out.println("addAll: " + strs + " containsAll=" + strs.containsAll(List.of("x", "z")));
        strs.retainAll(List.of("a", "b", "z", "q"));
        System.out.println("retainAll: " + strs);
        strs.removeAll(List.of("a"));
        System.out.println("removeAll: " + strs);
        Object[] arr = strs.toArray();
        String[] sarr = strs.toArray(new String[0]);
        String[] big = strs.toArray(new String[5]);
        System.out.println("toArray: " + Arrays.toString(arr) + " " + Arrays.toString(sarr) + " " + Arrays.toString(big));
        System.out.println("equals: " + new ArrayList<>(List.of(1, 2)).equals(Arrays.asList(1, 2)) + " hashCode: " + new ArrayList<>(List.of(1, 2)).hashCode());
        List<Integer> large = new ArrayList<>();
        for (int i = 0; i < 10000; i++) large.add(i);
        long s = 0;
        for (int v : large) s += v;
        Iterator<Integer> li = large.iterator();
        int removed = 0;
        while (li.hasNext()) if (li.next() % 3 != 0) { li.remove(); removed++; }
        System.out.println("large sum=" + s + " removed=" + removed + " remaining=" + large.size() + " last=" + large.get(large.size() - 1));
        list.clear();
        System.out.println("cleared: " + list + " isEmpty=" + list.isEmpty());
        try {
            list.get(0);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("IOOBE: " + e.getMessage());
        }
        try {
            list.add(5, 1);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("IOOBE add: " + e.getMessage());
        }
        List<Object> mixed = new ArrayList<>();
        mixed.add(null); mixed.add("s"); mixed.add(null);
        System.out.println("nulls: " + mixed + " indexOf(null)=" + mixed.indexOf(null) + " lastIndexOf(null)=" + mixed.lastIndexOf(null));
        List<Integer> immutable = List.copyOf(large.subList(0, 5));
        try {
            immutable.add(1);
        } catch (UnsupportedOperationException e) {
            System.out.println("immutable copy: UOE, content " + immutable);
        }
    }
}
