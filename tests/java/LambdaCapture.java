import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

public class LambdaCapture {
    private int field = 10;
    private static int staticField = 100;
    private final String name;

    LambdaCapture(String name) { this.name = name; }

    Supplier<String> captureThis() { return () -> name + ":" + field; }
    Supplier<String> captureThisExplicit() { return () -> this.name.toUpperCase() + "/" + this.describe(); }
    String describe() { return "describe(" + field + ")"; }
    IntSupplier incrementer() { return () -> ++field; }

    static IntUnaryOperator adder(int n) { return x -> x + n; }

    static List<IntSupplier> makeCounters() {
        List<IntSupplier> list = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int[] state = {i * 10};
            list.add(() -> state[0]++);
        }
        return list;
    }

    interface Visitor { String visit(int depth); }

    public static void main(String[] args) {
        LambdaCapture a = new LambdaCapture("a");
        Supplier<String> s1 = a.captureThis();
        Supplier<String> s2 = a.captureThisExplicit();
        System.out.println(s1.get() + " " + s2.get());
        a.field = 20;
        System.out.println("after field change: " + s1.get() + " " + s2.get());
        IntSupplier inc = a.incrementer();
        System.out.println("incrementer: " + inc.getAsInt() + " " + inc.getAsInt() + " field=" + a.field);
        Runnable staticMut = () -> staticField *= 2;
        staticMut.run(); staticMut.run();
        System.out.println("static mutated: " + staticField);
        IntUnaryOperator add5 = adder(5), add10 = adder(10);
        System.out.println("adders: " + add5.applyAsInt(1) + " " + add10.applyAsInt(1) + " composed " + add5.andThen(add10).compose(x -> x * 2).applyAsInt(3));
        List<IntSupplier> counters = makeCounters();
        StringBuilder sb = new StringBuilder();
        for (int round = 0; round < 3; round++) for (IntSupplier c : counters) sb.append(c.getAsInt()).append(',');
        System.out.println("counters: " + sb);
        long bigLocal = 1L << 40;
        double dLocal = 2.5;
        char cLocal = 'Q';
        boolean zLocal = true;
        String sLocal = "str";
        Object nullLocal = null;
        Supplier<String> many = () -> bigLocal + "|" + dLocal + "|" + cLocal + "|" + zLocal + "|" + sLocal + "|" + nullLocal;
        System.out.println("many captures: " + many.get());
        String prefix = "p";
        Visitor[] holder = new Visitor[1];
        holder[0] = depth -> depth == 0 ? prefix : prefix + "(" + holder[0].visit(depth - 1) + ")";
        System.out.println("recursive via holder: " + holder[0].visit(3));
        int base = 3;
        Supplier<Supplier<Integer>> nested = () -> { int inner = base * 2; return () -> inner + base; };
        System.out.println("nested lambdas: " + nested.get().get());
        Runnable[] rs = new Runnable[3];
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < rs.length; i++) {
            final int idx = i;
            rs[i] = () -> order.append("r").append(idx);
        }
        for (int i = rs.length - 1; i >= 0; i--) rs[i].run();
        System.out.println("order: " + order);
        String[] words = {"delta", "alpha", "charlie", "bravo"};
        int minLen = 5;
        long count = java.util.Arrays.stream(words).filter(w -> w.length() > minLen || w.startsWith(a.name)).count();
        System.out.println("stream capture count: " + count);
    }
}
