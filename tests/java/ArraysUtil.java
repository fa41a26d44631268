import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

public class ArraysUtil {
    public static void main(String[] args) {
        int[] a = {5, 3, 9, 1, 7, 3, -2, 0, 8};
        System.out.println("toString: " + Arrays.toString(a) + " null: " + Arrays.toString((int[]) null) + " empty: " + Arrays.toString(new int[0]));
        int[] sorted = a.clone();
        Arrays.sort(sorted);
        System.out.println("sorted: " + Arrays.toString(sorted) + " orig: " + Arrays.toString(a));
        for (int key : new int[]{7, 3, -2, 100, -100, 4}) System.out.println("binarySearch " + key + " -> " + Arrays.binarySearch(sorted, key));
        int[] part = a.clone();
        Arrays.sort(part, 2, 6);
        System.out.println("partial sort: " + Arrays.toString(part));
        long[] la = new long[5];
        Arrays.fill(la, 7L);
        Arrays.fill(la, 1, 3, -1L);
        System.out.println("fill: " + Arrays.toString(la));
        System.out.println("equals: " + Arrays.equals(new int[]{1, 2}, new int[]{1, 2}) + " " + Arrays.equals(new int[]{1, 2}, new int[]{2, 1}) + " ==: " + (new int[]{1} == new int[]{1})
            + " deepEquals: " + Arrays.deepEquals(new int[][]{{1}}, new int[][]{{1}}) + " equals2d: " + Arrays.equals(new int[][]{{1}}, new int[][]{{1}}));
        System.out.println("hashCode: " + Arrays.hashCode(a) + " " + Arrays.hashCode(new boolean[]{true, false}) + " " + Arrays.hashCode(new char[]{'a'}) + " " + Arrays.hashCode(new float[]{1f}));
        double[] d = {3.5, -0.0, 0.0, Double.NaN, -1.5, Double.NEGATIVE_INFINITY, 2.25};
        Arrays.sort(d);
        System.out.println("double sort (NaN last, -0 before 0): " + Arrays.toString(d));
        System.out.println("double binarySearch NaN: " + Arrays.binarySearch(d, Double.NaN) + " -0.0: " + Arrays.binarySearch(d, -0.0));
        String[] s = {"pear", "fig", "apple", "banana", "kiwi", "date"};
        Arrays.sort(s);
        System.out.println("strings: " + Arrays.toString(s) + " search kiwi=" + Arrays.binarySearch(s, "kiwi"));
        Arrays.sort(s, Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));
        System.out.println("by length then reverse: " + Arrays.toString(s));
        Integer[] boxed = {3, 1, 2, 5, 4};
        Arrays.sort(boxed, Comparator.reverseOrder());
        System.out.println("boxed reverse: " + Arrays.toString(boxed));
        System.out.println("copyOf: " + Arrays.toString(Arrays.copyOf(a, 3)) + " " + Arrays.toString(Arrays.copyOf(a, 12)) + " range: " + Arrays.toString(Arrays.copyOfRange(a, 2, 5))
            + " " + Arrays.toString(Arrays.copyOf(new String[]{"x"}, 3)));
        List<String> asList = Arrays.asList("x", "y", "z");
        System.out.println("asList: " + asList + " size " + asList.size());
        try {
            asList.add("w");
        } catch (UnsupportedOperationException e) {
            System.out.println("asList add: UnsupportedOperationException");
        }
        String[] backing = {"1", "2"};
        List<String> view = Arrays.asList(backing);
        view.set(0, "one");
        System.out.println("write-through: " + backing[0]);
        System.out.println("stream sum: " + Arrays.stream(a).sum() + " max: " + Arrays.stream(a).max().getAsInt() + " avg: " + Arrays.stream(a).average().getAsDouble());
        int[] setAll = new int[8];
        Arrays.setAll(setAll, i -> i * i);
        System.out.println("setAll: " + Arrays.toString(setAll));
        long[] prefix = {1, 2, 3, 4, 5};
        Arrays.parallelPrefix(prefix, Long::sum);
        System.out.println("prefix: " + Arrays.toString(prefix));
        System.out.println("compare: " + Arrays.compare(new int[]{1, 2}, new int[]{1, 3}) + " mismatch: " + Arrays.mismatch(new int[]{1, 2, 3}, new int[]{1, 2, 4}));
        char[] cs = "hello world".toCharArray();
        Arrays.sort(cs);
        System.out.println("chars sorted: [" + new String(cs) + "]");
        byte[] bs = {10, -5, 127, -128, 0};
        Arrays.sort(bs);
        System.out.println("bytes sorted: " + Arrays.toString(bs));
        int[] big = new int[2000];
        for (int i = 0; i < big.length; i++) big[i] = (i * 7919) % 2003 - 1000;
        Arrays.sort(big);
        boolean ok = true;
        for (int i = 1; i < big.length; i++) if (big[i - 1] > big[i]) ok = false;
        System.out.println("big sorted ok=" + ok + " first=" + big[0] + " last=" + big[1999] + " median=" + big[1000]);
        Object[] objs = {1, "two", 3.0, null, new int[]{4}};
        System.out.println("objects: " + Arrays.toString(objs).replaceAll("\\[I@[0-9a-f]+", "[I@HASH"));
        System.out.println("deepToString self-ref: " + selfRef());
    }

    static String selfRef() {
        Object[] o = new Object[2];
        o[0] = "x";
        o[1] = o;
        return Arrays.deepToString(o);
    }
}
