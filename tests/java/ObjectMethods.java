import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

public class ObjectMethods {
    static final class Money {
        private final long cents;
        private final String currency;
        Money(long cents, String currency) { this.cents = cents; this.currency = currency; }
        @Override public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof Money)) return false;
            Money m = (Money) o;
            return cents == m.cents && currency.equals(m.currency);
        }
        @Override public int hashCode() { return Objects.hash(cents, currency); }
        @Override public String toString() { return currency + " " + cents / 100 + "." + String.format("%02d", cents % 100); }
    }

    static class BadHash {
        final int v;
        BadHash(int v) { this.v = v; }
        @Override public boolean equals(Object o) { return o instanceof BadHash b && b.v == v; }
        @Override public int hashCode() { return 1; }
        @Override public String toString() { return "BadHash" + v; }
    }

    static class Point {
        final int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
        @Override public boolean equals(Object o) {
            if (o == null || o.getClass() != getClass()) return false;
            Point p = (Point) o;
            return x == p.x && y == p.y;
        }
        @Override public int hashCode() { return 31 * x + y; }
        @Override public String toString() { return "(" + x + "," + y + ")"; }
    }
    static class ColorPoint extends Point {
        final String color;
        ColorPoint(int x, int y, String c) { super(x, y); color = c; }
        @Override public String toString() { return super.toString() + color; }
    }

    static class NoOverrides { }

    public static void main(String[] args) {
        Money a = new Money(1050, "EUR"), b = new Money(1050, "EUR"), c = new Money(1050, "USD");
        System.out.println(a + " equals " + b + ": " + a.equals(b) + " hash eq: " + (a.hashCode() == b.hashCode()) + " hash=" + a.hashCode());
        System.out.println(a + " equals " + c + ": " + a.equals(c) + " reflexive " + a.equals(a) + " null " + a.equals(null) + " other type " + a.equals("EUR 10.50"));
        Set<Money> set = new HashSet<>();
        set.add(a); set.add(b); set.add(c);
        System.out.println("set size " + set.size() + " contains new " + set.contains(new Money(1050, "USD")));
        Map<BadHash, Integer> bad = new HashMap<>();
        for (int i = 0; i < 50; i++) bad.put(new BadHash(i % 20), i);
        System.out.println("bad hash map size " + bad.size() + " get(7)=" + bad.get(new BadHash(7)) + " get(99)=" + bad.get(new BadHash(99)));
        Point p = new Point(1, 2);
        ColorPoint cp = new ColorPoint(1, 2, "red");
        System.out.println("getClass-based equals symmetric: " + p.equals(cp) + " " + cp.equals(p) + " " + cp.equals(new ColorPoint(1, 2, "blue")));
        System.out.println("toString: " + p + " " + cp + " String.valueOf(null obj)=" + String.valueOf((Object) null));
        NoOverrides n1 = new NoOverrides(), n2 = new NoOverrides();
        System.out.println("default equals identity: " + n1.equals(n1) + " " + n1.equals(n2) + " default hash stable: " + (n1.hashCode() == n1.hashCode())
            + " toString prefix: " + n1.toString().startsWith("ObjectMethods$NoOverrides@")
            + " toString matches hash: " + n1.toString().equals(NoOverrides.class.getName() + "@" + Integer.toHexString(n1.hashCode()))
            + " identityHashCode==hashCode: " + (System.identityHashCode(n1) == n1.hashCode()));
        System.out.println("identityHashCode(null)=" + System.identityHashCode(null));
        String s1 = "abc";
        System.out.println("String hash vs identity differ? " + (s1.hashCode() == 96354) + " Integer.equals: " + Integer.valueOf(5).equals(5) + " " + Integer.valueOf(5).equals(5L)
            + " Long.equals: " + Long.valueOf(5).equals(5L));
        System.out.println("Objects.equals: " + Objects.equals(null, null) + " " + Objects.equals(a, null) + " " + Objects.equals(a, b) + " deepEquals: " + Objects.deepEquals(new int[]{1}, new int[]{1}));
        System.out.println("getClass: " + a.getClass().getName() + " " + a.getClass().getSimpleName() + " " + new int[0].getClass().getSimpleName() + " " + "s".getClass().getName()
            + " " + Integer.valueOf(1).getClass().getName() + " " + ((Object) 'c').getClass().getName());
        Object o = new Object();
        System.out.println("Object class: " + o.getClass().getName() + " superclass of Object: " + Object.class.getSuperclass() + " superclass of int[]: " + int[].class.getSuperclass().getName());
        System.out.println("interfaces of String: " + java.util.Arrays.stream(String.class.getInterfaces()).map(Class::getName).sorted().toList());
    }
}
