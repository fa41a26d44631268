import java.util.ArrayList;
import java.util.List;

/**
 * Static fields read and written by compiled code: every type, volatile ones, a reference
 * written into an old mirror and read after collections (the write barrier), and classes
 * first touched from compiled code (initialized there, in order).
 */
public class JitStatics {
    static boolean z; static byte b; static char c; static short s;
    static int i; static long l; static float f; static double d;
    static Object o;
    static volatile long vl;
    static volatile Object vo;
    static final List<String> log = new ArrayList<>();

    static class Lazy {
        static int hits;
        static { log.add("Lazy init"); }
    }
    static class Later {
        static String name = make();
        static String make() { log.add("Later init"); return "later"; }
    }
    static class Boom {
        static int n = 1 / Integer.parseInt("0");
    }

    static long churn(int n) {
        long sum = 0;
        for (int k = 0; k < n; k++) {
            z = !z; b += 3; c += 5; s -= 7; i += k; l += (long) k * k;
            f += 0.5f; d += 0.25; vl += 2;
            if ((k & 1023) == 0) {
                o = new int[] { k };
                vo = "s" + k;
                byte[] garbage = new byte[4096];
                sum += garbage.length;
            }
            sum += ((int[]) o)[0] + (z ? 1 : 0) + b + c + s;
        }
        return sum;
    }

    static int touchLater(int n) {
        int total = 0;
        for (int k = 0; k < n; k++) {
            if (k == n / 2) {
                Lazy.hits++;
                total += Later.name.length();
            }
            if (k > n / 2) Lazy.hits++;
        }
        return total + Lazy.hits;
    }

    public static void main(String[] args) {
        System.out.println("churn " + churn(200_000));
        System.out.println(z + " " + b + " " + (int) c + " " + s + " " + i + " " + l + " " + f + " " + d
                + " " + vl + " " + ((int[]) o)[0] + " " + vo);
        System.gc();
        System.out.println("after gc " + ((int[]) o)[0] + " " + vo);
        System.out.println("later " + touchLater(100_000) + " " + log);
        for (int r = 0; r < 3; r++) {
            try {
                System.out.println(Boom.n);
            } catch (Throwable t) {
                System.out.println(t.getClass().getName());
            }
        }
    }
}
