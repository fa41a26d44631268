import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

public class LocalAnonCapture {
    interface Greeter { String greet(String who); }

    private String prefix = "Mr.";

    List<Supplier<String>> makeSuppliers() {
        List<Supplier<String>> list = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            final int idx = i;
            String local = "item" + i;
            list.add(new Supplier<String>() {
                int calls = 0;
                public String get() { calls++; return prefix + local + "#" + idx + " calls=" + calls; }
            });
        }
        return list;
    }

    static IntSupplier counter(int start) {
        int[] box = {start};
        class LocalCounter implements IntSupplier {
            final int step;
            LocalCounter(int step) { this.step = step; }
            public int getAsInt() { box[0] += step; return box[0]; }
        }
        return new LocalCounter(5);
    }

    static Greeter make(String greeting, boolean shout) {
        class Impl implements Greeter {
            public String greet(String who) {
                String s = greeting + ", " + who;
                return shout ? s.toUpperCase() : s;
            }
            @Override public String toString() { return "Impl[" + greeting + "]"; }
        }
        return new Impl();
    }

    static abstract class Op {
        final String sym;
        Op(String sym) { this.sym = sym; }
        abstract int apply(int a, int b);
    }

    public static void main(String[] args) {
        LocalAnonCapture o = new LocalAnonCapture();
        List<Supplier<String>> sups = o.makeSuppliers();
        for (Supplier<String> s : sups) System.out.println(s.get());
        o.prefix = "Dr.";
        for (Supplier<String> s : sups) System.out.println(s.get());
        IntSupplier c = counter(100);
        System.out.println("counter: " + c.getAsInt() + " " + c.getAsInt() + " " + c.getAsInt());
        IntSupplier c2 = counter(0);
        System.out.println("independent counter: " + c2.getAsInt() + " first again: " + c.getAsInt());
        Greeter g1 = make("Hello", false), g2 = make("Hey", true);
        System.out.println(g1.greet("Ann") + " | " + g2.greet("Bob") + " | " + g1 + " | " + g2);
        int base = 7;
        Op[] ops = {
            new Op("+") { int apply(int a, int b) { return a + b + base - 7; } },
            new Op("*") { int apply(int a, int b) { return a * b; } },
            new Op("max") { int apply(int a, int b) { return Math.max(a, b); } },
        };
        for (Op op : ops) System.out.println("6 " + op.sym + " 4 = " + op.apply(6, 4));
        System.out.println("anon class names: " + ops[0].getClass().getName() + " " + ops[1].getClass().getName() + " isAnonymous=" + ops[0].getClass().isAnonymousClass()
            + " superclass=" + ops[0].getClass().getSuperclass().getSimpleName());
        System.out.println("local class: " + g1.getClass().getName() + " isLocal=" + g1.getClass().isLocalClass() + " simple=" + g1.getClass().getSimpleName());
        Runnable r = new Runnable() {
            int runs;
            public void run() { runs++; System.out.println("anon runnable run " + runs + " base=" + base); }
        };
        r.run(); r.run();
        Object capturedArr;
        {
            String[] shared = {"a"};
            Runnable mut = () -> shared[0] += "b";
            mut.run(); mut.run();
            capturedArr = shared[0];
        }
        System.out.println("mutated through capture: " + capturedArr);
    }
}
