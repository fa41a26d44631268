import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class StreamsBasic {
    public static void main(String[] args) {
        List<Integer> nums = List.of(5, 3, 8, 1, 9, 2, 7, 4, 6, 10, 3, 8);
        System.out.println("filter even: " + nums.stream().filter(n -> n % 2 == 0).collect(Collectors.toList()));
        System.out.println("map square: " + nums.stream().map(n -> n * n).toList());
        System.out.println("reduce sum: " + nums.stream().reduce(0, Integer::sum) + " reduce no identity: " + nums.stream().reduce(Integer::max).get());
        System.out.println("sorted: " + nums.stream().sorted().toList() + " distinct: " + nums.stream().distinct().toList());
        System.out.println("sorted desc distinct: " + nums.stream().distinct().sorted((a, b) -> b - a).toList());
        System.out.println("limit/skip: " + nums.stream().skip(2).limit(4).toList());
        System.out.println("count>5: " + nums.stream().filter(n -> n > 5).count() + " anyMatch>9: " + nums.stream().anyMatch(n -> n > 9) + " allMatch>0: " + nums.stream().allMatch(n -> n > 0)
            + " noneMatch<0: " + nums.stream().noneMatch(n -> n < 0));
        System.out.println("findFirst: " + nums.stream().filter(n -> n > 7).findFirst().orElse(-1) + " min: " + nums.stream().min(Integer::compare).get() + " max: " + nums.stream().max(Integer::compare).get());
        List<List<String>> nested = List.of(List.of("a", "b"), List.of(), List.of("c", "d", "e"));
        System.out.println("flatMap: " + nested.stream().flatMap(List::stream).map(String::toUpperCase).toList());
        System.out.println("flatMap chars: " + Stream.of("hi", "yo").flatMap(s -> s.chars().mapToObj(c -> (char) c)).toList());
        System.out.println("iterate: " + Stream.iterate(1, x -> x * 3).limit(8).toList() + " iterate with predicate: " + Stream.iterate(1, x -> x < 200, x -> x * 2).toList());
        System.out.println("generate: " + Stream.generate(() -> "z").limit(3).collect(Collectors.joining()));
        System.out.println("takeWhile: " + nums.stream().takeWhile(n -> n != 9).toList() + " dropWhile: " + nums.stream().dropWhile(n -> n != 9).toList());
        StringBuilder peekLog = new StringBuilder();
        List<Integer> peeked = nums.stream().peek(n -> peekLog.append(n).append(',')).filter(n -> n > 6).limit(2).toList();
        System.out.println("peek laziness: " + peeked + " visited=" + peekLog);
        System.out.println("Stream.of/concat: " + Stream.concat(Stream.of(1, 2), Stream.of(3)).toList() + " empty count: " + Stream.empty().count());
        Optional<String> longest = Stream.of("pear", "banana", "kiwi", "cherry").reduce((a, b) -> a.length() >= b.length() ? a : b);
        System.out.println("longest: " + longest.get());
        System.out.println("array stream: " + Arrays.stream(new String[]{"x", "yy", "zzz"}).mapToInt(String::length).sum() + " " + Arrays.stream(new int[]{1, 2, 3, 4}, 1, 3).boxed().toList());
        System.out.println("toArray: " + Arrays.toString(nums.stream().filter(n -> n < 4).toArray()) + " " + Arrays.toString(nums.stream().mapToInt(Integer::intValue).filter(n -> n > 8).toArray()));
        String sentence = "the rain in spain falls mainly on the plain";
        System.out.println("words with 'ain': " + Arrays.stream(sentence.split(" ")).filter(w -> w.contains("ain")).map(w -> w + "(" + w.length() + ")").collect(Collectors.joining(", ", "[", "]")));
        System.out.println("reduce three-arg: " + Stream.of("a", "bb", "ccc").reduce(0, (acc, s) -> acc + s.length(), Integer::sum));
        System.out.println("mapMulti: " + Stream.of(1, 2, 3).<Integer>mapMulti((n, sink) -> { for (int i = 0; i < n; i++) sink.accept(n); }).toList());
        System.out.println("sorted stability: " + Stream.of("bb", "a", "cc", "b", "aa").sorted(java.util.Comparator.comparingInt(String::length)).toList());
        long bigCount = Stream.iterate(1L, x -> x + 1).limit(100000).filter(x -> x % 7 == 0).mapToLong(Long::longValue).sum();
        System.out.println("big sum multiples of 7: " + bigCount);
    }
}
