import java.util.Arrays;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.DoubleStream;

public class StreamsIntStream {
    static boolean isPrime(int n) { return n > 1 && IntStream.rangeClosed(2, (int) Math.sqrt(n)).noneMatch(d -> n % d == 0); }

    public static void main(String[] args) {
        System.out.println("range: " + Arrays.toString(IntStream.range(0, 10).toArray()) + " rangeClosed: " + Arrays.toString(IntStream.rangeClosed(-2, 2).toArray()) + " empty range: " + IntStream.range(5, 5).count());
        System.out.println("sum 1..100=" + IntStream.rangeClosed(1, 100).sum() + " average=" + IntStream.rangeClosed(1, 100).average().getAsDouble() + " max=" + IntStream.of(3, 9, 2).max().getAsInt());
        OptionalInt none = IntStream.empty().max();
        System.out.println("empty max present=" + none.isPresent() + " orElse=" + none.orElse(-1) + " empty avg present=" + IntStream.empty().average().isPresent() + " empty sum=" + IntStream.empty().sum());
        System.out.println("primes < 100: " + IntStream.range(0, 100).filter(StreamsIntStream::isPrime).boxed().collect(Collectors.toList()));
        System.out.println("prime count < 20000: " + IntStream.range(0, 20000).filter(StreamsIntStream::isPrime).count());
        System.out.println("squares: " + IntStream.rangeClosed(1, 10).map(x -> x * x).mapToObj(Integer::toString).collect(Collectors.joining(",")));
        System.out.println("factorial 20 via LongStream: " + LongStream.rangeClosed(1, 20).reduce(1, (a, b) -> a * b));
        System.out.println("summaryStatistics: " + IntStream.of(4, 8, 15, 16, 23, 42).summaryStatistics());
        System.out.println("asDoubleStream: " + IntStream.of(1, 2, 3).asDoubleStream().map(Math::sqrt).boxed().toList());
        System.out.println("mapToObj chars: " + IntStream.rangeClosed('a', 'f').mapToObj(c -> String.valueOf((char) c)).collect(Collectors.joining()));
        System.out.println("iterate: " + Arrays.toString(IntStream.iterate(1, i -> i * 2).limit(12).toArray()) + " " + Arrays.toString(IntStream.iterate(100, i -> i > 0, i -> i - 30).toArray()));
        System.out.println("distinct sorted: " + Arrays.toString(IntStream.of(5, 1, 5, 3, 1, 9).distinct().sorted().toArray()));
        System.out.println("chars of string: " + "hello".chars().filter(c -> c != 'l').mapToObj(c -> (char) c).map(String::valueOf).collect(Collectors.joining("-")));
        System.out.println("LongStream big: " + LongStream.range(0, 1_000_000).map(x -> x * x % 1000).sum());
        System.out.println("DoubleStream: " + DoubleStream.of(0.1, 0.2, 0.3).sum() + " avg " + DoubleStream.of(1.5, 2.5).average().getAsDouble() + " max " + DoubleStream.of(-0.0, 0.0).max().getAsDouble());
        int[][] grid = IntStream.range(0, 4).mapToObj(r -> IntStream.range(0, 4).map(c -> r * 4 + c).toArray()).toArray(int[][]::new);
        System.out.println("grid: " + Arrays.deepToString(grid) + " diagonal sum " + IntStream.range(0, 4).map(i -> grid[i][i]).sum());
        System.out.println("pythagorean triples: " + IntStream.rangeClosed(1, 30).boxed().flatMap(a -> IntStream.rangeClosed(a, 30).filter(b -> {
            double c = Math.sqrt(a * a + b * b); return c == Math.floor(c) && c <= 30; }).mapToObj(b -> a + "-" + b + "-" + (int) Math.sqrt(a * a + b * b))).collect(Collectors.toList()));
        System.out.println("anyMatch short-circuits on infinite: " + IntStream.iterate(0, i -> i + 1).anyMatch(i -> i * i > 1000));
        System.out.println("boxed sum via reduce: " + IntStream.rangeClosed(1, 10).boxed().reduce(0, Integer::sum) + " count " + IntStream.rangeClosed(1, 10).count());
    }
}
