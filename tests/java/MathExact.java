import java.util.function.Supplier;

public class MathExact {
    static void t(String label, Supplier<Object> s) {
        try {
            System.out.println(label + " = " + s.get());
        } catch (ArithmeticException e) {
            System.out.println(label + " -> ArithmeticException: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        t("addExact(1,2)", () -> Math.addExact(1, 2));
        t("addExact(MAX,1)", () -> Math.addExact(Integer.MAX_VALUE, 1));
        t("addExact(MIN,-1)", () -> Math.addExact(Integer.MIN_VALUE, -1));
        t("addExact long", () -> Math.addExact(Long.MAX_VALUE, 1L));
        t("subtractExact(MIN,1)", () -> Math.subtractExact(Integer.MIN_VALUE, 1));
        t("subtractExact(0,MIN)", () -> Math.subtractExact(0, Integer.MIN_VALUE));
        t("subtractExact long ok", () -> Math.subtractExact(-5L, 10L));
        t("multiplyExact(65536,65536)", () -> Math.multiplyExact(65536, 65536));
        t("multiplyExact(46340,46340)", () -> Math.multiplyExact(46340, 46340));
        t("multiplyExact(46341,46341)", () -> Math.multiplyExact(46341, 46341));
        t("multiplyExact long", () -> Math.multiplyExact(3037000500L, 3037000500L));
        t("multiplyExact long ok", () -> Math.multiplyExact(3037000499L, 3037000499L));
        t("multiplyExact(long,int)", () -> Math.multiplyExact(Long.MAX_VALUE / 2, 3));
        t("multiplyExact(-1, MIN)", () -> Math.multiplyExact(-1, Integer.MIN_VALUE));
        t("incrementExact(MAX)", () -> Math.incrementExact(Integer.MAX_VALUE));
        t("decrementExact(MIN)", () -> Math.decrementExact(Long.MIN_VALUE));
        t("negateExact(MIN)", () -> Math.negateExact(Integer.MIN_VALUE));
        t("negateExact(5)", () -> Math.negateExact(5));
        t("toIntExact(2^31)", () -> Math.toIntExact(1L << 31));
        t("toIntExact(-2^31)", () -> Math.toIntExact(-(1L << 31)));
        t("absExact(MIN)", () -> Math.absExact(Integer.MIN_VALUE));
        t("absExact(MIN long)", () -> Math.absExact(Long.MIN_VALUE));
        t("floorDiv exact", () -> Math.floorDiv(Integer.MIN_VALUE, -1));
        t("multiplyHigh", () -> Math.multiplyHigh(Long.MAX_VALUE, Long.MAX_VALUE));
        t("Integer.sum", () -> Integer.sum(Integer.MAX_VALUE, 1));
        t("Long.sum", () -> Long.sum(1, 2));
        long fact = 1;
        int n = 1;
        try {
            while (true) { fact = Math.multiplyExact(fact, n); n++; }
        } catch (ArithmeticException e) {
            System.out.println("largest exact long factorial: " + (n - 1) + "! = " + fact);
        }
        int fibA = 0, fibB = 1, idx = 1;
        try {
            while (true) { int t = Math.addExact(fibA, fibB); fibA = fibB; fibB = t; idx++; }
        } catch (ArithmeticException e) {
            System.out.println("largest int fibonacci: F(" + idx + ") = " + fibB);
        }
        int pow = 1, k = 0;
        try {
            while (true) { pow = Math.multiplyExact(pow, 3); k++; }
        } catch (ArithmeticException e) {
            System.out.println("largest int power of 3: 3^" + k + " = " + pow);
        }
    }
}
