import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

public class LambdasBasic {
    @FunctionalInterface
    interface TriFunction<A, B, C, R> { R apply(A a, B b, C c); }

    @FunctionalInterface
    interface IntOp { int op(int a, int b); default IntOp andThenNegate() { return (a, b) -> -op(a, b); } }

    interface PrimitiveReturner { long compute(byte b, short s, char c, float f, double d); }

    static int applyTwice(UnaryOperator<Integer> f, int x) { return f.apply(f.apply(x)); }

    public static void main(String[] args) {
        Function<Integer, Integer> sq = x -> x * x;
        Function<Integer, String> toStr = x -> "<" + x + ">";
        System.out.println("compose: " + sq.andThen(toStr).apply(7) + " " + sq.compose((Integer x) -> x + 1).apply(3) + " identity: " + Function.identity().apply("id"));
        Supplier<List<String>> sup = ArrayList::new;
        List<String> l = sup.get();
        l.add("x");
        System.out.println("supplier: " + l + " distinct instances: " + (sup.get() != sup.get()));
        BiFunction<String, Integer, String> rep = (s, n) -> s.repeat(n);
        System.out.println("bifunction: " + rep.apply("ab", 3) + " andThen: " + rep.andThen(String::length).apply("xyz", 4));
        Runnable r = () -> System.out.println("runnable ran");
        r.run();
        Consumer<StringBuilder> c1 = sb -> sb.append("1");
        Consumer<StringBuilder> c2 = sb -> sb.append("2");
        StringBuilder sb = new StringBuilder();
        c1.andThen(c2).andThen(c1).accept(sb);
        System.out.println("consumer chain: " + sb);
        Predicate<String> empty = String::isEmpty;
        Predicate<String> longish = s -> s.length() > 3;
        for (String s : new String[]{"", "ab", "abcd"}) {
            System.out.println("pred '" + s + "': empty=" + empty.test(s) + " notEmpty=" + empty.negate().test(s) + " or=" + empty.or(longish).test(s) + " and=" + empty.negate().and(longish).test(s));
        }
        System.out.println("Predicate.not: " + Predicate.not(empty).test("x") + " isEqual: " + Predicate.isEqual("a").test("a"));
        TriFunction<Integer, Integer, Integer, Integer> tri = (a, b, c) -> a * 100 + b * 10 + c;
        System.out.println("custom tri: " + tri.apply(1, 2, 3));
        IntOp add = (a, b) -> a + b;
        System.out.println("custom default: " + add.op(3, 4) + " " + add.andThenNegate().op(3, 4));
        PrimitiveReturner pr = (b, s, c, f, d) -> b + s + c + (long) f + (long) d;
        System.out.println("primitive params: " + pr.compute((byte) 1, (short) 2, 'A', 3.9f, 4.9));
        IntBinaryOperator mul = (a, b) -> a * b;
        IntPredicate even = x -> x % 2 == 0;
        ToIntFunction<String> len = String::length;
        DoubleUnaryOperator half = d -> d / 2;
        System.out.println("primitive specializations: " + mul.applyAsInt(6, 7) + " " + even.test(4) + " " + len.applyAsInt("four") + " " + half.andThen(d -> d + 1).applyAsDouble(5));
        Supplier<Integer> boxing = () -> 42;
        Supplier<Long> lboxing = () -> 42L;
        Supplier<Double> dboxing = () -> 0.5;
        Supplier<Boolean> bboxing = () -> true;
        Supplier<Character> cboxing = () -> 'z';
        System.out.println("boxing returns: " + boxing.get() + " " + lboxing.get() + " " + dboxing.get() + " " + bboxing.get() + " " + cboxing.get()
            + " classes " + boxing.get().getClass().getSimpleName() + " " + lboxing.get().getClass().getSimpleName());
        System.out.println("applyTwice: " + applyTwice(x -> x * 3, 2) + " " + applyTwice(x -> x - 10, 0));
        BinaryOperator<Integer> maxOp = BinaryOperator.maxBy(Integer::compare);
        System.out.println("maxBy: " + maxOp.apply(3, 9) + " minBy: " + BinaryOperator.minBy(String.CASE_INSENSITIVE_ORDER).apply("b", "A"));
        List<Supplier<Integer>> suppliers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int j = i;
            suppliers.add(() -> j * j);
        }
        StringBuilder out = new StringBuilder();
        for (Supplier<Integer> s : suppliers) out.append(s.get()).append(' ');
        System.out.println("captured loop vars: " + out.toString().trim());
        Function<Integer, Function<Integer, Function<Integer, Integer>>> curried = a -> b -> c -> a + b * c;
        System.out.println("curried: " + curried.apply(1).apply(2).apply(3));
        Runnable recursive = new Runnable() {
            int n = 3;
            public void run() { if (n-- > 0) { System.out.println("recursive runnable n=" + n); run(); } }
        };
        recursive.run();
        Object o = (Runnable & java.io.Serializable) () -> { };
        System.out.println("intersection cast lambda is Serializable: " + (o instanceof java.io.Serializable) + " is Runnable: " + (o instanceof Runnable));
        Function<Object, String> f = Object::toString;
        System.out.println("lambda class interfaces: " + sq.getClass().getInterfaces()[0].getName() + " " + f.apply(12));
    }
}
