package demo;

import java.util.List;

/** What the tests exercise: a little arithmetic and a collection. */
public final class Calc {
    private Calc() {}

    public static long factorial(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative: " + n);
        }
        long f = 1;
        for (int i = 2; i <= n; i++) {
            f *= i;
        }
        return f;
    }

    public static int sum(List<Integer> xs) {
        return xs.stream().mapToInt(Integer::intValue).sum();
    }
}
