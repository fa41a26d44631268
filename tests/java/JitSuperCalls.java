/**
 * `super.m()` calls (invokespecial of a superclass's method) in hot code: compiled code
 * selects the target once, from the caller's class, and inlines it or calls it directly.
 * Covers a method inherited from two levels up, one overridden in between, a default method
 * called as `I.super.m()`, a superclass method that throws, wide results and a callee with
 * locals beyond its arguments.
 */
public class JitSuperCalls {
    interface Named {
        default String name(int i) { return "n" + (i & 3); }
    }
    static class Root {
        int f(int x) { return x + 1; }
        long wide(long x) { return x * 3; }
        int busy(int x) {
            int[] tmp = new int[4];
            String s = Integer.toString(x & 15);
            for (int i = 0; i < tmp.length; i++) tmp[i] = x + i;
            return tmp[3] + s.length();
        }
        int risky(int x) {
            if (x % 7919 == 0) throw new ArithmeticException("risky " + x);
            return x;
        }
    }
    static class Mid extends Root {
        int f(int x) { return super.f(x) * 2; }
    }
    static class Leaf extends Mid implements Named {
        int f(int x) { return super.f(x) - 3; }
        long wide(long x) { return super.wide(x) + 1; }
        int busy(int x) { return super.busy(x) ^ 1; }
        int risky(int x) { return super.risky(x) + 2; }
        public String name(int i) { return Named.super.name(i) + "!"; }
    }
    static class Skip extends Mid {
        // Mid does not override busy: super.busy() selects Root's.
        int busy(int x) { return super.busy(x) + 5; }
    }

    static long run(Leaf l, Skip k, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += l.f(i) + l.wide(i) + l.busy(i) + k.busy(i) + l.name(i).length();
            try {
                s += l.risky(i);
            } catch (ArithmeticException e) {
                s -= e.getMessage().length();
            }
        }
        return s;
    }

    public static void main(String[] args) {
        Leaf l = new Leaf();
        Skip k = new Skip();
        for (int r = 0; r < 8; r++) System.out.println(run(l, k, 30000));
    }
}
