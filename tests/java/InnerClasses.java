import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

public class InnerClasses {
    private int outerField = 10;
    private static int staticCounter = 0;

    class Inner {
        int innerField = outerField * 2;
        int read() { return outerField + innerField; }
        void bump() { outerField++; }
        class Deeper {
            int all() { return outerField + innerField + 1000; }
            String who() { return InnerClasses.this.name() + "/" + Inner.this.getClass().getSimpleName(); }
        }
    }

    static class StaticNested {
        int v;
        StaticNested(int v) { this.v = v; staticCounter++; }
    }

    String name() { return "outer" + outerField; }

    class Range implements Iterable<Integer> {
        final int lo, hi;
        Range(int lo, int hi) { this.lo = lo; this.hi = hi; }
        public Iterator<Integer> iterator() {
            return new Iterator<Integer>() {
                int cur = lo;
                public boolean hasNext() { return cur < hi; }
                public Integer next() { return cur++ * outerField; }
            };
        }
    }

    class Shadow {
        int outerField = -1;
        String show(int outerField) {
            return outerField + " " + this.outerField + " " + InnerClasses.this.outerField;
        }
    }

    public static void main(String[] args) {
        InnerClasses outer = new InnerClasses();
        InnerClasses.Inner in = outer.new Inner();
        System.out.println("inner read: " + in.read());
        in.bump();
        in.bump();
        System.out.println("after bump outer=" + outer.outerField + " read=" + in.read() + " innerField=" + in.innerField);
        InnerClasses.Inner.Deeper d = in.new Deeper();
        System.out.println("deeper: " + d.all() + " " + d.who());
        InnerClasses other = new InnerClasses();
        other.outerField = 100;
        Inner in2 = other.new Inner();
        System.out.println("other inner: " + in2.read() + " first inner still: " + in.read());
        StaticNested s1 = new StaticNested(1), s2 = new StaticNested(2);
        System.out.println("static nested: " + s1.v + s2.v + " counter=" + staticCounter);
        List<Integer> collected = new ArrayList<>();
        for (int x : outer.new Range(0, 5)) collected.add(x);
        System.out.println("range: " + collected);
        System.out.println("shadow: " + outer.new Shadow().show(7));
        System.out.println("names: " + Inner.class.getName() + " " + Inner.Deeper.class.getName() + " " + StaticNested.class.getSimpleName()
            + " enclosing=" + Inner.class.getEnclosingClass().getSimpleName() + " isMember=" + Inner.class.isMemberClass());
        System.out.println("modifiers static? inner=" + java.lang.reflect.Modifier.isStatic(Inner.class.getModifiers()) + " nested=" + java.lang.reflect.Modifier.isStatic(StaticNested.class.getModifiers()));
    }
}
