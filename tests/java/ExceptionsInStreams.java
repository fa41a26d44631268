import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

public class ExceptionsInStreams {
    static int parseStrict(String s) {
        if (s.isBlank()) throw new IllegalArgumentException("blank input");
        return Integer.parseInt(s.trim());
    }

    static <T, R> Function<T, R> logging(Function<T, R> f, List<String> log) {
        return t -> {
            try {
                R r = f.apply(t);
                log.add("ok:" + t);
                return r;
            } catch (RuntimeException e) {
                log.add("fail:" + t + ":" + e.getClass().getSimpleName());
                throw e;
            }
        };
    }

    public static void main(String[] args) {
        List<String> inputs = List.of("1", "2", " 3 ", "x", "5", "", "7");
        List<String> log = new ArrayList<>();
        try {
            int sum = inputs.stream().map(logging(ExceptionsInStreams::parseStrict, log)).mapToInt(Integer::intValue).sum();
            System.out.println("sum=" + sum);
        } catch (NumberFormatException e) {
            System.out.println("stream aborted: " + e.getMessage() + " log=" + log);
        }
        List<String> errors = new ArrayList<>();
        int sum = inputs.stream().mapToInt(s -> {
            try {
                return parseStrict(s);
            } catch (RuntimeException e) {
                errors.add(e.getClass().getSimpleName() + "(" + e.getMessage() + ")");
                return 0;
            }
        }).sum();
        System.out.println("tolerant sum=" + sum + " errors=" + errors);
        try {
            List.of(3, 0, 2).forEach(d -> System.out.println("12/" + d + "=" + 12 / d));
        } catch (ArithmeticException e) {
            System.out.println("forEach aborted: " + e.getMessage());
        }
        try {
            List.of("a", "bb", "a").stream().collect(Collectors.toMap(s -> s, String::length));
        } catch (IllegalStateException e) {
            System.out.println("collector error: " + e.getMessage());
        }
        try {
            java.util.stream.Stream<String> st = List.of("x").stream();
            st.count();
            st.count();
        } catch (IllegalStateException e) {
            System.out.println("reused stream: " + e.getMessage());
        }
        try {
            List.of(1, 2, 3).stream().map(i -> i == 2 ? null : i).map(Object::toString).toList();
        } catch (NullPointerException e) {
            System.out.println("NPE inside map propagated");
        }
        Runnable r = () -> { throw new UnsupportedOperationException("from lambda"); };
        try {
            r.run();
        } catch (UnsupportedOperationException e) {
            System.out.println("lambda threw: " + e.getMessage());
        }
        try {
            List.of(5, 4, 3).stream().sorted((a, b) -> { throw new ClassCastException("comparator failure"); }).toList();
        } catch (ClassCastException e) {
            System.out.println("comparator threw: " + e.getMessage());
        }
        long finallyCount = inputs.stream().filter(s -> { try { return parseStrict(s) > 2; } catch (RuntimeException e) { return false; } finally { log.add("f"); } }).count();
        System.out.println("count>2=" + finallyCount + " finally ran " + log.stream().filter("f"::equals).count() + " times");
    }
}
