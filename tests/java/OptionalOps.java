import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

public class OptionalOps {
    static Optional<Integer> parse(String s) {
        try {
            return Optional.of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public static void main(String[] args) {
        Optional<String> some = Optional.of("value");
        Optional<String> none = Optional.empty();
        Optional<String> nullable = Optional.ofNullable(null);
        System.out.println("toString: " + some + " " + none + " " + nullable + " equals: " + none.equals(nullable) + " " + some.equals(Optional.of("value")));
        System.out.println("isPresent: " + some.isPresent() + " " + none.isPresent() + " isEmpty: " + none.isEmpty());
        System.out.println("get: " + some.get() + " orElse: " + none.orElse("default") + " orElseGet: " + none.orElseGet(() -> "computed"));
        System.out.println("map: " + some.map(String::length) + " " + none.map(String::length) + " map to null: " + some.map(s -> null));
        System.out.println("flatMap: " + some.flatMap(s -> parse("42")) + " " + some.flatMap(s -> parse("x")));
        System.out.println("filter: " + some.filter(s -> s.startsWith("v")) + " " + some.filter(s -> s.isEmpty()));
        System.out.println("or: " + none.or(() -> Optional.of("alt")) + " " + some.or(() -> Optional.of("alt")));
        StringBuilder sb = new StringBuilder();
        some.ifPresent(s -> sb.append("present:").append(s));
        none.ifPresentOrElse(s -> sb.append("never"), () -> sb.append(" absent"));
        System.out.println("ifPresent: " + sb);
        System.out.println("stream: " + some.stream().count() + " " + none.stream().count());
        try {
            none.get();
        } catch (NoSuchElementException e) {
            System.out.println("get on empty: " + e.getMessage());
        }
        try {
            none.orElseThrow();
        } catch (NoSuchElementException e) {
            System.out.println("orElseThrow: " + e.getMessage());
        }
        try {
            none.orElseThrow(() -> new IllegalStateException("custom missing"));
        } catch (IllegalStateException e) {
            System.out.println("orElseThrow supplier: " + e.getMessage());
        }
        try {
            Optional.of(null);
        } catch (NullPointerException e) {
            System.out.println("Optional.of(null): NPE");
        }
        List<String> inputs = List.of("10", "x", "25", "", "-3", "7a");
        int total = inputs.stream().map(OptionalOps::parse).flatMap(Optional::stream).mapToInt(Integer::intValue).sum();
        System.out.println("sum of parseable: " + total);
        System.out.println("hashCode: " + some.hashCode() + " " + none.hashCode());
        OptionalInt oi = OptionalInt.of(5);
        OptionalLong ol = OptionalLong.empty();
        OptionalDouble od = OptionalDouble.of(2.5);
        System.out.println("primitive optionals: " + oi + " " + ol + " " + od + " " + oi.getAsInt() + " " + ol.orElse(-1L) + " " + od.orElseThrow());
        Optional<Optional<String>> nested = Optional.of(Optional.empty());
        System.out.println("nested: " + nested + " flattened: " + nested.flatMap(x -> x));
        String chain = Optional.of("  Hello World  ").map(String::trim).filter(s -> s.contains(" ")).map(s -> s.split(" ")[1]).map(String::toUpperCase).orElse("none");
        System.out.println("chain: " + chain);
    }
}
