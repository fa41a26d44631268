import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

public class Records {
    record Point(int x, int y) {
        static final Point ORIGIN = new Point(0, 0);
        static Point of(int v) { return new Point(v, v); }
        double dist() { return Math.sqrt(x * x + y * y); }
        Point plus(Point o) { return new Point(x + o.x, y + o.y); }
    }

    record Range(int lo, int hi) {
        Range {
            if (lo > hi) throw new IllegalArgumentException(String.format("(%d,%d)", lo, hi));
        }
        int length() { return hi - lo; }
    }

    record Name(String first, String last) {
        Name {
            first = first.strip();
            last = Objects.requireNonNull(last, "last").toUpperCase();
        }
        Name(String full) { this(full.split(" ")[0], full.split(" ")[1]); }
        @Override public String first() { return "<" + first + ">"; }
    }

    record Mixed(byte b, short s, char c, long l, float f, double d, boolean z, String str, int[] arr, List<String> list) { }

    record Empty() { }

    record Custom(String v) {
        @Override public String toString() { return "Custom!" + v; }
        @Override public boolean equals(Object o) { return o instanceof Custom c && c.v.equalsIgnoreCase(v); }
        @Override public int hashCode() { return v.toLowerCase().hashCode(); }
    }

    interface Shape { double area(); }
    record Sq(double side) implements Shape, Comparable<Sq> {
        public double area() { return side * side; }
        public int compareTo(Sq o) { return Double.compare(side, o.side); }
    }

    record Generic<T extends Comparable<T>>(T a, T b) {
        T max() { return a.compareTo(b) >= 0 ? a : b; }
    }

    public static void main(String[] args) {
        Point p = new Point(3, 4), q = new Point(3, 4), r = Point.of(2);
        System.out.println(p + " " + r + " " + Point.ORIGIN + " dist=" + p.dist() + " plus=" + p.plus(r));
        System.out.println("equals: " + p.equals(q) + " " + p.equals(r) + " " + p.equals(null) + " ==: " + (p == q) + " hash equal: " + (p.hashCode() == q.hashCode()));
        System.out.println("hashCode: " + p.hashCode() + " " + r.hashCode() + " " + new Point(0, 0).hashCode() + " " + new Point(-1, 1).hashCode());
        System.out.println("accessors: " + p.x() + " " + p.y());
        System.out.println(new Range(1, 5) + " len=" + new Range(1, 5).length());
        try {
            new Range(5, 1);
        } catch (IllegalArgumentException e) {
            System.out.println("compact ctor rejected: " + e.getMessage());
        }
        Name n = new Name("  ada ", "lovelace");
        System.out.println(n + " first()=" + n.first() + " last()=" + n.last() + " alt ctor: " + new Name("alan turing"));
        try {
            new Name("x", null);
        } catch (NullPointerException e) {
            System.out.println("NPE: " + e.getMessage());
        }
        Mixed m = new Mixed((byte) 1, (short) 2, 'c', 4L, 5.5f, 6.25, true, null, null, List.of("a", "b"));
        System.out.println(m);
        Mixed m2 = new Mixed((byte) 1, (short) 2, 'c', 4L, 5.5f, 6.25, true, null, null, List.of("a", "b"));
        System.out.println("mixed equals: " + m.equals(m2) + " hash eq: " + (m.hashCode() == m2.hashCode()) + " hash=" + m.hashCode());
        System.out.println("empty: " + new Empty() + " " + new Empty().equals(new Empty()) + " " + new Empty().hashCode());
        Custom c1 = new Custom("Hello"), c2 = new Custom("HELLO");
        System.out.println(c1 + " eq " + c1.equals(c2) + " hash eq " + (c1.hashCode() == c2.hashCode()));
        List<Sq> squares = new ArrayList<>(List.of(new Sq(3), new Sq(1), new Sq(2)));
        squares.sort(null);
        System.out.println("sorted squares: " + squares + " area sum=" + squares.stream().mapToDouble(Shape::area).sum());
        Map<Point, String> map = new HashMap<>();
        map.put(new Point(1, 2), "a");
        map.put(new Point(1, 2), "b");
        map.put(new Point(2, 1), "c");
        System.out.println("map size=" + map.size() + " get=" + map.get(new Point(1, 2)));
        System.out.println("set dedupe: " + new HashSet<>(List.of(new Point(1, 1), new Point(2, 2))).contains(Point.of(1)));
        Generic<String> g = new Generic<>("pear", "apple");
        System.out.println(g + " max=" + g.max() + " " + new Generic<>(3, 9).max());
        System.out.println("isRecord: " + Point.class.isRecord() + " " + String.class.isRecord() + " components: " + Point.class.getRecordComponents().length
            + " super: " + Point.class.getSuperclass().getName());
        Object o = p;
        if (o instanceof Point pt && pt.x() > 0) System.out.println("pattern: x=" + pt.x());
        System.out.println("double record: " + new Sq(-0.0).equals(new Sq(0.0)) + " " + new Sq(Double.NaN).equals(new Sq(Double.NaN)));
    }
}
