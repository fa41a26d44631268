import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

public class ComparatorChains {
    record Person(String name, String city, int age, double score) { }

    public static void main(String[] args) {
        List<Person> people = new ArrayList<>(List.of(
            new Person("Alice", "Paris", 30, 88.5), new Person("Bob", "Rome", 25, 92.0), new Person("Carol", "Paris", 35, 75.0),
            new Person("Dave", "Oslo", 25, 88.5), new Person("Eve", "Rome", 30, 60.0), new Person("Frank", "Oslo", 40, 92.0),
            new Person("Grace", "Paris", 25, 99.0), new Person("Heidi", "Rome", 35, 88.5), new Person("Ivan", "Oslo", 30, 70.0)));
        List<Person> p = new ArrayList<>(people);
        p.sort(Comparator.comparing(Person::city));
        System.out.println("by city (stable keeps input order): " + names(p));
        p.sort(Comparator.comparing(Person::city).thenComparing(Person::age));
        System.out.println("city, age: " + names(p));
        p.sort(Comparator.comparing(Person::city).thenComparing(Person::age, Comparator.reverseOrder()));
        System.out.println("city, age desc: " + names(p));
        p.sort(Comparator.comparing(Person::city).thenComparing(Person::age).reversed());
        System.out.println("(city, age) reversed: " + names(p));
        p.sort(Comparator.comparingDouble(Person::score).reversed().thenComparing(Person::name));
        System.out.println("score desc, name: " + names(p));
        p.sort(Comparator.comparingInt(Person::age).thenComparing(Person::score, Comparator.reverseOrder()).thenComparing(Person::name, Comparator.reverseOrder()));
        System.out.println("age, score desc, name desc: " + names(p));
        p.sort(Comparator.comparing((Person x) -> x.name().length()).thenComparing(Comparator.comparing(Person::name).reversed()));
        System.out.println("name length, then name desc: " + names(p));
        List<Person> stable = new ArrayList<>(people);
        Collections.sort(stable, Comparator.comparingInt(Person::age));
        System.out.println("stable sort by age: " + names(stable));
        List<String> withNulls = new ArrayList<>(java.util.Arrays.asList("b", null, "a", null, "c"));
        withNulls.sort(Comparator.nullsFirst(Comparator.naturalOrder()));
        System.out.println("nullsFirst: " + withNulls);
        withNulls.sort(Comparator.nullsLast(Comparator.<String>reverseOrder()));
        System.out.println("nullsLast reverse: " + withNulls);
        Comparator<String> ci = String.CASE_INSENSITIVE_ORDER;
        List<String> mixed = new ArrayList<>(List.of("beta", "Alpha", "alpha", "Beta", "gamma", "ALPHA"));
        mixed.sort(ci);
        System.out.println("case-insensitive stable: " + mixed);
        mixed.sort(ci.thenComparing(Comparator.naturalOrder()));
        System.out.println("ci then natural: " + mixed);
        System.out.println("min/max with comparator: " + Collections.min(people, Comparator.comparing(Person::score)).name() + " " + Collections.max(people, Comparator.comparing(Person::score).thenComparing(Person::age)).name());
        List<Integer> big = new ArrayList<>();
        for (int i = 0; i < 500; i++) big.add((i * 37) % 100);
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < big.size(); i++) pairs.add(new int[]{big.get(i), i});
        pairs.sort(Comparator.comparingInt(a -> a[0]));
        boolean stableOk = true;
        for (int i = 1; i < pairs.size(); i++) if (pairs.get(i - 1)[0] == pairs.get(i)[0] && pairs.get(i - 1)[1] > pairs.get(i)[1]) stableOk = false;
        System.out.println("large stable sort ok: " + stableOk + " first=" + pairs.get(0)[0] + "@" + pairs.get(0)[1] + " last=" + pairs.get(499)[0] + "@" + pairs.get(499)[1]);
    }

    static String names(List<Person> ps) {
        StringBuilder sb = new StringBuilder();
        for (Person x : ps) sb.append(x.name()).append(' ');
        return sb.toString().trim();
    }
}
