import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

public class FunctionalCompose {
    interface Parser<T> {
        Optional<Map.Entry<T, String>> parse(String in);

        default <R> Parser<R> map(Function<T, R> f) {
            return in -> parse(in).map(e -> Map.entry(f.apply(e.getKey()), e.getValue()));
        }

        default <U> Parser<U> then(Function<T, Parser<U>> f) {
            return in -> parse(in).flatMap(e -> f.apply(e.getKey()).parse(e.getValue()));
        }

        default Parser<T> or(Parser<T> other) {
            return in -> { var r = parse(in); return r.isPresent() ? r : other.parse(in); };
        }

        static Parser<Character> ch(Predicate<Character> p) {
            return in -> !in.isEmpty() && p.test(in.charAt(0)) ? Optional.of(Map.entry(in.charAt(0), in.substring(1))) : Optional.empty();
        }

        static <T> Parser<T> pure(T v) { return in -> Optional.of(Map.entry(v, in)); }

        static <T> Parser<List<T>> many(Parser<T> p) {
            return in -> {
                List<T> out = new ArrayList<>();
                String rest = in;
                while (true) {
                    var r = p.parse(rest);
                    if (r.isEmpty()) break;
                    out.add(r.get().getKey());
                    rest = r.get().getValue();
                }
                return Optional.of(Map.entry(out, rest));
            };
        }
    }

    static Parser<Integer> number() {
        return Parser.many(Parser.ch(Character::isDigit)).then(ds -> ds.isEmpty() ? in -> Optional.empty()
            : Parser.pure(ds.stream().reduce(0, (acc, c) -> acc * 10 + (c - '0'), Integer::sum)));
    }

    static Parser<Integer> sum() {
        Parser<Integer> n = number();
        return n.then(first -> Parser.many(Parser.ch(c -> c == '+' || c == '-').then(op -> n.map(v -> op == '+' ? v : -v)))
            .map(rest -> first + rest.stream().mapToInt(Integer::intValue).sum()));
    }

    static <A, B, C> Function<A, C> compose(Function<A, B> f, Function<B, C> g) { return a -> g.apply(f.apply(a)); }

    static <T> UnaryOperator<T> repeat(UnaryOperator<T> f, int n) {
        UnaryOperator<T> r = x -> x;
        for (int i = 0; i < n; i++) { UnaryOperator<T> prev = r; r = x -> f.apply(prev.apply(x)); }
        return r;
    }

    public static void main(String[] args) {
        for (String s : new String[]{"12+30-5", "7", "100-1-1-1+3x", "abc", "1+", ""}) {
            System.out.println("parse '" + s + "' -> " + sum().parse(s).map(e -> e.getKey() + " rest='" + e.getValue() + "'").orElse("no parse"));
        }
        Function<String, Integer> len = String::length;
        Function<String, String> f = compose(compose(String::trim, String::toUpperCase), s -> s + "!");
        System.out.println("compose: " + f.apply("  hi  ") + " " + compose(len, x -> x * x).apply("abcd"));
        System.out.println("repeat: " + repeat((Integer x) -> x * 2, 10).apply(1) + " " + repeat((String s) -> s + "a", 3).apply(">"));
        Map<String, Function<Double, Double>> ops = new LinkedHashMap<>();
        ops.put("double", x -> x * 2);
        ops.put("square", x -> x * x);
        ops.put("negate", x -> -x);
        ops.put("sqrt", Math::sqrt);
        double v = 3;
        for (Map.Entry<String, Function<Double, Double>> e : ops.entrySet()) {
            v = e.getValue().apply(v);
            System.out.println("after " + e.getKey() + ": " + v);
        }
        Function<Double, Double> all = ops.values().stream().reduce(Function.identity(), Function::andThen);
        System.out.println("pipeline on 5: " + all.apply(5.0));
        BiFunction<Integer, Integer, Integer> gcd = new BiFunction<>() {
            public Integer apply(Integer a, Integer b) { return b == 0 ? a : this.apply(b, a % b); }
        };
        System.out.println("gcd: " + gcd.apply(1071, 462) + " " + gcd.apply(17, 5));
        Comparator<String> byLen = Comparator.comparingInt(String::length);
        List<String> ws = new ArrayList<>(List.of("ccc", "a", "bb", "aa", "c"));
        ws.sort(byLen.thenComparing(Function.identity()));
        System.out.println("sorted: " + ws);
        Optional<String> chain = Optional.of("  value ").map(String::strip).filter(s -> s.length() > 3).map(s -> s + s.length());
        System.out.println("optional chain: " + chain.orElse("none"));
    }
}
