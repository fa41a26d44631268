import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

public class StreamsCollectors {
    record Emp(String name, String dept, int salary, int age) { }

    public static void main(String[] args) {
        List<Emp> emps = List.of(new Emp("ann", "eng", 120, 34), new Emp("bob", "eng", 100, 45), new Emp("cid", "ops", 80, 29),
            new Emp("dee", "sales", 90, 38), new Emp("eli", "ops", 85, 51), new Emp("fay", "eng", 130, 27), new Emp("gus", "sales", 70, 33));
        Map<String, List<String>> byDept = emps.stream().collect(Collectors.groupingBy(Emp::dept, TreeMap::new, Collectors.mapping(Emp::name, Collectors.toList())));
        System.out.println("groupingBy dept: " + byDept);
        Map<String, Long> counts = emps.stream().collect(Collectors.groupingBy(Emp::dept, Collectors.counting()));
        System.out.println("counting (HashMap, string keys): " + counts);
        Map<String, Integer> sums = emps.stream().collect(Collectors.groupingBy(Emp::dept, TreeMap::new, Collectors.summingInt(Emp::salary)));
        System.out.println("summing: " + sums);
        Map<String, Double> avgs = emps.stream().collect(Collectors.groupingBy(Emp::dept, TreeMap::new, Collectors.averagingInt(Emp::age)));
        System.out.println("averaging age: " + avgs);
        Map<String, Optional<Emp>> top = emps.stream().collect(Collectors.groupingBy(Emp::dept, TreeMap::new, Collectors.maxBy(Comparator.comparingInt(Emp::salary))));
        top.forEach((d, e) -> System.out.println("  top in " + d + ": " + e.map(Emp::name).orElse("-")));
        Map<Boolean, List<String>> part = emps.stream().collect(Collectors.partitioningBy(e -> e.age() >= 35, Collectors.mapping(Emp::name, Collectors.toList())));
        System.out.println("partitioningBy age>=35: " + part);
        Map<Boolean, Long> partCount = emps.stream().collect(Collectors.partitioningBy(e -> e.salary() > 100, Collectors.counting()));
        System.out.println("partition count: " + partCount);
        System.out.println("joining: " + emps.stream().map(Emp::name).collect(Collectors.joining()) + " | " + emps.stream().map(Emp::name).collect(Collectors.joining("/", "<", ">")));
        Map<String, Integer> toMap = emps.stream().collect(Collectors.toMap(Emp::name, Emp::salary));
        System.out.println("toMap (HashMap): " + toMap);
        Map<String, Integer> merged = emps.stream().collect(Collectors.toMap(Emp::dept, Emp::salary, Integer::sum, TreeMap::new));
        System.out.println("toMap merge: " + merged);
        try {
            emps.stream().collect(Collectors.toMap(Emp::dept, Emp::name));
        } catch (IllegalStateException e) {
            System.out.println("duplicate key: " + e.getMessage());
        }
        IntSummaryStatistics stats = emps.stream().collect(Collectors.summarizingInt(Emp::salary));
        System.out.println("stats: " + stats);
        DoubleSummaryStatistics ds = emps.stream().mapToDouble(e -> e.salary() / 3.0).summaryStatistics();
        System.out.printf("double stats: count=%d sum=%.4f min=%.4f avg=%.4f max=%.4f%n", ds.getCount(), ds.getSum(), ds.getMin(), ds.getAverage(), ds.getMax());
        System.out.println("toSet sorted: " + new java.util.TreeSet<>(emps.stream().map(Emp::dept).collect(Collectors.toSet())));
        System.out.println("collectingAndThen: " + emps.stream().map(Emp::name).collect(Collectors.collectingAndThen(Collectors.toList(), List::size)));
        System.out.println("reducing: " + emps.stream().collect(Collectors.reducing(0, Emp::age, Integer::sum)));
        Map<Integer, List<String>> byDecade = emps.stream().collect(Collectors.groupingBy(e -> e.age() / 10 * 10, TreeMap::new, Collectors.mapping(Emp::name, Collectors.toList())));
        System.out.println("by decade: " + byDecade);
        Map<String, Map<Boolean, Long>> nested = emps.stream().collect(Collectors.groupingBy(Emp::dept, TreeMap::new, Collectors.partitioningBy(e -> e.salary() >= 90, Collectors.counting())));
        System.out.println("nested grouping: " + nested);
        String text = "one two three two three three four four four four";
        Map<String, Long> freq = java.util.Arrays.stream(text.split(" ")).collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
        System.out.println("word freq: " + freq);
        System.out.println("most frequent: " + freq.entrySet().stream().max(Map.Entry.comparingByValue()).get());
        System.out.println("filtering/flatMapping: " + emps.stream().collect(Collectors.groupingBy(Emp::dept, TreeMap::new, Collectors.filtering(e -> e.age() < 35, Collectors.mapping(Emp::name, Collectors.joining("+"))))));
        System.out.println("teeing: " + emps.stream().collect(Collectors.teeing(Collectors.counting(), Collectors.summingInt(Emp::salary), (c, s) -> s + "/" + c)));
        System.out.println("unmodifiable: " + emps.stream().map(Emp::age).sorted().collect(Collectors.toUnmodifiableList()));
    }
}
