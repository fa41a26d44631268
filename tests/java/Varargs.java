import java.util.Arrays;
import java.util.List;

public class Varargs {
    static String count(int... xs) { return xs == null ? "null array" : "ints(" + xs.length + ")" + Arrays.toString(xs); }
    static String objs(Object... os) { return os == null ? "null array" : "objs(" + os.length + ")" + Arrays.toString(os); }
    static String fmt(String f, Object... args) { return f + ":" + args.length; }
    static String overload(int x) { return "fixed int"; }
    static String overload(int... x) { return "varargs int"; }
    static String overload2(Object o) { return "Object"; }
    static String overload2(Object... o) { return "Object..."; }
    static String mixed(String label, int first, String... rest) { return label + first + Arrays.toString(rest); }
    static <T> List<T> listOf(T... items) { return Arrays.asList(items); }
    static int sum(int... xs) { int s = 0; for (int x : xs) s += x; return s; }
    static long sumLong(long... xs) { long s = 0; for (long x : xs) s += x; return s; }

    public static void main(String[] args) {
        System.out.println(count());
        System.out.println(count(1));
        System.out.println(count(1, 2, 3));
        System.out.println(count(new int[]{4, 5}));
        System.out.println(count(null));
        System.out.println(objs());
        System.out.println(objs("a", 1, 2.0));
        System.out.println(objs((Object) null));
        System.out.println(objs((Object[]) null));
        System.out.println(objs(null, null));
        System.out.println(objs(new String[]{"x", "y"}));
        System.out.println(objs((Object) new String[]{"x", "y"}).replaceAll("@[0-9a-f]+", "@HASH"));
        System.out.println(objs(new int[]{1, 2}).replaceAll("@[0-9a-f]+", "@HASH"));
        System.out.println(fmt("f") + " " + fmt("g", 1, 2));
        System.out.println(overload(1) + " | " + overload() + " | " + overload(1, 2));
        System.out.println(overload2("s") + " | " + overload2("a", "b") + " | " + overload2());
        System.out.println(mixed("L", 1) + " " + mixed("L", 2, "a") + " " + mixed("L", 3, "a", "b", "c"));
        System.out.println(listOf("p", "q") + " " + listOf() + " " + listOf(1, 2, 3).size());
        System.out.println("sum " + sum() + " " + sum(1, 2, 3, 4, 5, 6, 7, 8, 9, 10) + " long " + sumLong(1, 2L, Integer.MAX_VALUE, Integer.MAX_VALUE));
        int[] big = new int[1000];
        Arrays.fill(big, 3);
        System.out.println("big sum " + sum(big));
        System.out.println("String.format varargs: " + String.format("%s-%s-%s", "a", "b", "c") + " " + String.format("%s", (Object) new String[]{"z"}.length));
        System.out.println("Arrays.asList of primitives array: " + Arrays.asList(new int[]{1, 2}).size() + " boxed: " + Arrays.asList(1, 2).size());
        System.out.println("List.of varargs: " + List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    }
}
