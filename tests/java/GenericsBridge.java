import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

public class GenericsBridge {
    interface Transformer<A, B> { B transform(A a); }
    static class Lengther implements Transformer<String, Integer> {
        public Integer transform(String s) { return s.length(); }
    }

    static abstract class Animal implements Comparable<Animal> {
        abstract String name();
        Animal self() { return this; }
        public int compareTo(Animal o) { return name().compareTo(o.name()); }
    }
    static class Dog extends Animal {
        String name() { return "dog"; }
        @Override Dog self() { return this; }
        String bark() { return "woof"; }
    }

    static class Node<T extends Comparable<T>> {
        T value;
        Node(T v) { value = v; }
        T get() { return value; }
        void set(T v) { value = v; }
    }
    static class IntNode extends Node<Integer> {
        IntNode(int v) { super(v); }
        @Override Integer get() { return value * 10; }
        @Override void set(Integer v) { value = v + 1; }
    }

    static <T extends Comparable<? super T>> T max(List<? extends T> list) {
        T best = list.get(0);
        for (T t : list) if (t.compareTo(best) > 0) best = t;
        return best;
    }

    static <T> void swap(T[] arr, int i, int j) { T t = arr[i]; arr[i] = arr[j]; arr[j] = t; }

    static double sum(List<? extends Number> nums) {
        double s = 0;
        for (Number n : nums) s += n.doubleValue();
        return s;
    }

    static void fill(List<? super Integer> sink, int n) { for (int i = 0; i < n; i++) sink.add(i); }

    static class Pair<A, B> {
        final A a; final B b;
        Pair(A a, B b) { this.a = a; this.b = b; }
        <C> Pair<A, C> withSecond(C c) { return new Pair<>(a, c); }
        Pair<B, A> swap() { return new Pair<>(b, a); }
        @Override public String toString() { return "(" + a + ", " + b + ")"; }
    }

    static class Base<T> { String m(T t) { return "Base.m(" + t + ")"; } }
    static class Sub extends Base<String> { @Override String m(String s) { return "Sub.m(" + s.toUpperCase() + ")"; } }

    public static void main(String[] args) {
        Transformer<String, Integer> t = new Lengther();
        System.out.println("transform: " + t.transform("hello"));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Transformer raw = t;
        try {
            raw.transform(42);
        } catch (ClassCastException e) {
            System.out.println("bridge cast failed: ClassCastException");
        }
        Animal a = new Dog();
        System.out.println("covariant: " + a.self().name() + " " + new Dog().self().bark());
        Node<Integer> n = new IntNode(4);
        n.set(7);
        System.out.println("IntNode via Node: " + n.get() + " raw value " + n.value);
        Base<String> b = new Sub();
        System.out.println(b.m("x"));
        @SuppressWarnings({"unchecked", "rawtypes"})
        Base rawBase = b;
        try {
            rawBase.m(5);
        } catch (ClassCastException e) {
            System.out.println("raw call into bridge: ClassCastException");
        }
        List<Method> bridges = new ArrayList<>();
        for (Method m : Sub.class.getDeclaredMethods()) if (m.isBridge()) bridges.add(m);
        System.out.println("Sub bridge methods: " + bridges.size() + " " + (bridges.isEmpty() ? "" : bridges.get(0).getName() + Arrays.toString(bridges.get(0).getParameterTypes())));
        int dogBridges = 0;
        for (Method m : Dog.class.getDeclaredMethods()) if (m.isBridge()) dogBridges++;
        System.out.println("Dog bridge methods: " + dogBridges);
        System.out.println("max: " + max(Arrays.asList(3, 9, 2)) + " " + max(Arrays.asList("pear", "apple", "zoo")));
        String[] arr = {"a", "b", "c"};
        swap(arr, 0, 2);
        System.out.println("swap: " + Arrays.toString(arr));
        System.out.println("sum: " + sum(List.of(1, 2.5, 3L, (short) 4)));
        List<Number> sink = new ArrayList<>();
        fill(sink, 4);
        List<Object> sink2 = new ArrayList<>();
        fill(sink2, 2);
        System.out.println("fill: " + sink + " " + sink2);
        Pair<String, Integer> p = new Pair<>("k", 1);
        System.out.println("pair: " + p + " " + p.swap() + " " + p.withSecond(List.of(1, 2)));
        Function<Integer, Function<Integer, Integer>> adder = x -> y -> x + y;
        System.out.println("curried: " + adder.apply(3).apply(4));
        List<? extends Animal> animals = List.of(new Dog());
        System.out.println("wildcard read: " + animals.get(0).name());
        Comparator<Animal> cmp = Comparator.naturalOrder();
        System.out.println("compare: " + cmp.compare(new Dog(), new Dog()));
        List<String> erased = new ArrayList<>();
        @SuppressWarnings({"unchecked", "rawtypes"})
        List rawList = erased;
        rawList.add(123);
        try {
            String s = erased.get(0);
            System.out.println("no CCE?? " + s);
        } catch (ClassCastException e) {
            System.out.println("heap pollution detected: ClassCastException");
        }
        Object o = erased.get(0);
        System.out.println("as Object ok: " + o);
    }
}
