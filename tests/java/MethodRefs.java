import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.ToIntBiFunction;

public class MethodRefs {
    static int twice(int x) { return x * 2; }
    static String join(String a, String b) { return a + "+" + b; }

    private final String tag;
    MethodRefs(String tag) { this.tag = tag; }
    MethodRefs() { this("default"); }
    String tagWith(String s) { return tag + ":" + s; }
    String getTag() { return tag; }

    static class Base {
        String who() { return "Base"; }
    }
    static class Derived extends Base {
        @Override String who() { return "Derived"; }
        Supplier<String> superRef() { return super::who; }
        Supplier<String> thisRef() { return this::who; }
    }

    public static void main(String[] args) {
        Function<Integer, Integer> st = MethodRefs::twice;
        BiFunction<String, String, String> st2 = MethodRefs::join;
        System.out.println("static: " + st.apply(21) + " " + st2.apply("a", "b"));
        Function<String, Integer> parse = Integer::parseInt;
        Function<Integer, String> hex = Integer::toHexString;
        System.out.println("static lib: " + parse.andThen(hex).apply("255"));
        MethodRefs m = new MethodRefs("T");
        Function<String, String> bound = m::tagWith;
        Supplier<String> boundGetter = m::getTag;
        String target = "Hello";
        Supplier<Integer> boundLen = target::length;
        Function<String, Boolean> boundStarts = target::startsWith;
        System.out.println("bound: " + bound.apply("x") + " " + boundGetter.get() + " " + boundLen.get() + " " + boundStarts.apply("He"));
        Function<String, String> unbound = String::toUpperCase;
        BiFunction<MethodRefs, String, String> unbound2 = MethodRefs::tagWith;
        ToIntBiFunction<String, String> cmp = String::compareTo;
        Function<MethodRefs, String> getter = MethodRefs::getTag;
        System.out.println("unbound: " + unbound.apply("abc") + " " + unbound2.apply(new MethodRefs("U"), "y") + " " + cmp.applyAsInt("a", "c") + " " + getter.apply(m));
        Supplier<MethodRefs> ctor0 = MethodRefs::new;
        Function<String, MethodRefs> ctor1 = MethodRefs::new;
        Supplier<List<Integer>> listCtor = ArrayList::new;
        Function<Integer, StringBuilder> sbCtor = StringBuilder::new;
        System.out.println("ctor: " + ctor0.get().tag + " " + ctor1.apply("C").tag + " " + listCtor.get().size() + " " + sbCtor.apply(16).capacity());
        IntFunction<int[]> arrCtor = int[]::new;
        IntFunction<String[]> sarrCtor = String[]::new;
        Function<Integer, long[][]> arr2 = long[][]::new;
        int[] ia = arrCtor.apply(5);
        String[] sa = sarrCtor.apply(3);
        System.out.println("array ctor: " + ia.length + " " + Arrays.toString(sa) + " " + arr2.apply(2).length + " " + sa.getClass().getSimpleName());
        String[] fromStream = List.of("x", "y", "z").stream().map(String::toUpperCase).toArray(String[]::new);
        System.out.println("toArray(String[]::new): " + Arrays.toString(fromStream));
        Derived d = new Derived();
        System.out.println("super ref: " + d.superRef().get() + " this ref: " + d.thisRef().get());
        Function<Base, String> virt = Base::who;
        System.out.println("unbound virtual dispatch: " + virt.apply(new Base()) + " " + virt.apply(new Derived()));
        List<String> words = new ArrayList<>(List.of("banana", "Apple", "cherry", "apple"));
        words.sort(String::compareToIgnoreCase);
        System.out.println("sort with unbound ref: " + words);
        words.forEach(System.out::println);
        TreeMap<String, Integer> lengths = new TreeMap<>();
        words.forEach(w -> lengths.merge(w.toLowerCase(), w.length(), Integer::sum));
        System.out.println("merge with Integer::sum: " + lengths);
        Function<String, Integer> nullCheck;
        String nothing = null;
        try {
            Supplier<Integer> bad = nothing::length;
            System.out.println("no NPE?? " + bad);
        } catch (NullPointerException e) {
            System.out.println("bound ref on null receiver throws NPE at creation");
        }
        Function<Integer, Integer> boxedRef = Math::abs;
        System.out.println("overload resolution abs: " + boxedRef.apply(-9) + " max: " + ((BiFunction<Double, Double, Double>) Math::max).apply(1.5, -2.0));
    }
}
