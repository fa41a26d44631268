import java.util.*;
import java.util.function.*;

/**
 * Interface calls compiled with a class check for each receiver class the interpreter saw
 * (inlined or called directly), and every other class, null and megamorphic sites on the
 * slow path.
 */
public class JitProfiled {
    interface Op { int apply(int x); }
    static class Inc implements Op { public int apply(int x) { return x + 1; } }
    static class Dbl implements Op { public int apply(int x) { return x * 2; } }
    static class Neg implements Op { public int apply(int x) { return -x; } }
    static class Slow implements Op {
        int calls;
        public int apply(int x) { for (int i = 0; i < 3; i++) calls++; return x ^ calls; }
    }
    static class Fin implements Op {
        @SuppressWarnings("deprecation") protected void finalize() { }
        public int apply(int x) { return x - 3; }
    }
    // Virtual calls of an overridden method: the profile of an invokevirtual site.
    static abstract class Cell { abstract int step(int x); int twice(int x) { return step(step(x)); } }
    static class Up extends Cell { int step(int x) { return x + 1; } }
    static class Down extends Cell { int step(int x) { return x - 2; } }
    static class Flip extends Cell { int step(int x) { return ~x; } }
    static class Wide extends Cell {
        long total;
        int step(int x) { for (int i = 0; i < 3; i++) total += x; return (int) total; }
    }
    static long cells(Cell[] cs, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += cs[i % cs.length].twice(i) + cs[(i + 1) % cs.length].step(i);
        return s;
    }

    static long run(Op[] ops, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += ops[i % ops.length].apply(i);
        return s;
    }
    static long sumList(List<Integer> l) {
        long s = 0;
        for (int i = 0; i < l.size(); i++) s += l.get(i);
        for (Integer x : l) s += x;
        return s;
    }
    public static void main(String[] a) {
        Op[] mono = { new Inc() };
        Op[] bi = { new Inc(), new Dbl() };
        Op[] tri = { new Inc(), new Dbl(), new Neg() };
        for (int r = 0; r < 5; r++) {
            System.out.println(run(mono, 30000) + " " + run(bi, 30000));
        }
        // Classes never seen when the sites were compiled.
        System.out.println(run(tri, 30000) + " " + run(new Op[] { new Slow(), new Fin() }, 30000));
        System.out.println(run(mono, 30000) + " " + run(bi, 30000));
        Cell[] one = { new Up() };
        Cell[] two = { new Up(), new Down() };
        Cell[] many = { new Up(), new Down(), new Flip(), new Wide() };
        for (int r = 0; r < 3; r++) System.out.println("cells " + cells(one, 40000));
        for (int r = 0; r < 3; r++) System.out.println("cells " + cells(two, 40000));
        for (int r = 0; r < 3; r++) System.out.println("cells " + cells(many, 40000));
        System.out.println("cells " + cells(one, 40000));
        try {
            cells(new Cell[] { new Up(), null }, 10);
        } catch (NullPointerException e) {
            System.out.println("NPE " + e.getMessage());
        }
        List<Integer> al = new ArrayList<>();
        for (int i = 0; i < 1000; i++) al.add(i);
        List<Integer> ll = new LinkedList<>(al);
        long t = 0;
        for (int r = 0; r < 200; r++) t += sumList(al);
        System.out.println(t);
        t = 0;
        for (int r = 0; r < 20; r++) t += sumList(ll);
        System.out.println(t + " " + sumList(List.of(1, 2, 3)) + " " + sumList(Collections.unmodifiableList(al)));
        try {
            run(new Op[] { new Inc(), null }, 10);
        } catch (NullPointerException e) {
            System.out.println("NPE " + e.getMessage());
        }
        Function<Integer, Integer> f = x -> x + 1;
        int acc = 0;
        for (int i = 0; i < 50000; i++) acc = f.apply(acc);
        System.out.println(acc);
    }
}
