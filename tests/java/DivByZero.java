public class DivByZero {
    static int zero() { return 0; }
    static long lzero() { return 0L; }

    interface Op { int apply(); }

    static void tryOp(String name, Op op) {
        try {
            int r = op.apply();
            System.out.println(name + " = " + r);
        } catch (ArithmeticException e) {
            System.out.println(name + " threw " + e.getClass().getName() + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        tryOp("1/0", () -> 1 / zero());
        tryOp("1%0", () -> 1 % zero());
        tryOp("0/0", () -> 0 / zero());
        tryOp("MIN/0", () -> Integer.MIN_VALUE / zero());
        tryOp("1L/0L", () -> (int) (1L / lzero()));
        tryOp("1L%0L", () -> (int) (1L % lzero()));
        tryOp("floorDiv", () -> Math.floorDiv(5, zero()));
        tryOp("floorMod", () -> Math.floorMod(5, zero()));
        tryOp("ok 7/2", () -> 7 / 2);
        try {
            int a = 10;
            a /= zero();
            System.out.println("no throw " + a);
        } catch (ArithmeticException e) {
            System.out.println("compound /= threw: " + e);
        }
        try {
            long a = 10;
            a %= lzero();
            System.out.println("no throw " + a);
        } catch (ArithmeticException e) {
            System.out.println("compound %= threw: " + e);
        }
        System.out.println("1.0/0 = " + (1.0 / zero()) + ", 1.0%0 = " + (1.0 % zero()) + ", -1f/0 = " + (-1f / zero()));
        int count = 0;
        for (int i = -3; i <= 3; i++) {
            try {
                System.out.println("100/" + i + " = " + (100 / i));
            } catch (ArithmeticException e) {
                count++;
                System.out.println("caught at i=" + i + " " + e.getMessage());
            }
        }
        System.out.println("count=" + count);
        try {
            Integer.divideUnsigned(1, zero());
        } catch (ArithmeticException e) {
            System.out.println("divideUnsigned: " + e.getMessage());
        }
        try {
            new java.math.BigInteger("10").divide(java.math.BigInteger.ZERO);
        } catch (ArithmeticException e) {
            System.out.println("BigInteger: " + e.getMessage());
        }
    }
}
