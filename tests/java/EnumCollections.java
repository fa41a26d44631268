import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

public class EnumCollections {
    enum Day { MON, TUE, WED, THU, FRI, SAT, SUN }
    enum Big { B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17, B18, B19, B20, B21, B22, B23, B24, B25, B26, B27, B28, B29,
        B30, B31, B32, B33, B34, B35, B36, B37, B38, B39, B40, B41, B42, B43, B44, B45, B46, B47, B48, B49, B50, B51, B52, B53, B54, B55, B56, B57, B58, B59,
        B60, B61, B62, B63, B64, B65, B66, B67, B68, B69 }

    public static void main(String[] args) {
        EnumSet<Day> weekend = EnumSet.of(Day.SAT, Day.SUN);
        EnumSet<Day> weekdays = EnumSet.complementOf(weekend);
        System.out.println("weekend=" + weekend + " weekdays=" + weekdays);
        System.out.println("range=" + EnumSet.range(Day.TUE, Day.FRI) + " all=" + EnumSet.allOf(Day.class) + " none=" + EnumSet.noneOf(Day.class));
        EnumSet<Day> s = EnumSet.noneOf(Day.class);
        s.add(Day.FRI); s.add(Day.MON); s.add(Day.WED); s.add(Day.MON);
        System.out.println("insertion order irrelevant: " + s + " size=" + s.size() + " contains WED=" + s.contains(Day.WED));
        s.removeIf(d -> d.ordinal() < 2);
        System.out.println("after removeIf: " + s);
        s.retainAll(weekdays);
        s.addAll(weekend);
        System.out.println("after add weekend: " + s);
        EnumMap<Day, Integer> hours = new EnumMap<>(Day.class);
        hours.put(Day.SUN, 0); hours.put(Day.MON, 8); hours.put(Day.WED, 9); hours.put(Day.TUE, 7);
        System.out.println("enummap: " + hours + " keySet=" + hours.keySet() + " values=" + hours.values());
        hours.merge(Day.MON, 2, Integer::sum);
        hours.computeIfAbsent(Day.FRI, d -> d.name().length());
        hours.remove(Day.SUN);
        int total = 0;
        for (Map.Entry<Day, Integer> e : hours.entrySet()) {
            System.out.println("  " + e.getKey() + " -> " + e.getValue());
            total += e.getValue();
        }
        System.out.println("total=" + total + " containsKey SAT=" + hours.containsKey(Day.SAT) + " get SAT=" + hours.get(Day.SAT));
        EnumSet<Big> bigSet = EnumSet.noneOf(Big.class);
        for (Big b : Big.values()) if (b.ordinal() % 7 == 0) bigSet.add(b);
        System.out.println("big set (jumbo): " + bigSet + " size=" + bigSet.size());
        Set<Big> bigRange = EnumSet.range(Big.B60, Big.B69);
        System.out.println("big range: " + bigRange + " complement size=" + EnumSet.complementOf(EnumSet.copyOf(bigRange)).size());
        EnumMap<Big, String> bigMap = new EnumMap<>(Big.class);
        bigMap.put(Big.B65, "x"); bigMap.put(Big.B3, "y");
        System.out.println("big map: " + bigMap);
        System.out.println("equals HashSet: " + weekend.equals(new java.util.HashSet<>(java.util.List.of(Day.SUN, Day.SAT))));
    }
}
