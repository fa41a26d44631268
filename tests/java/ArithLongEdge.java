public class ArithLongEdge {
    static long id(long x) { return x; }

    public static void main(String[] args) {
        long max = Long.MAX_VALUE, min = Long.MIN_VALUE;
        System.out.println("max+1=" + (max + 1));
        System.out.println("min-1=" + (min - 1));
        System.out.println("max*3=" + (max * 3));
        System.out.println("min/-1=" + (min / id(-1)));
        System.out.println("min%-1=" + (min % id(-1)));
        System.out.println("-min=" + (-min));
        System.out.println("abs(min)=" + Math.abs(min));
        long[] as = {7L, -7L, 7L, -7L, 1234567890123L, -1234567890123L, min, max};
        long[] bs = {3L, 3L, -3L, -3L, 1000L, 1000L, 10L, -10L};
        for (int i = 0; i < as.length; i++) {
            long a = as[i], b = bs[i];
            System.out.println(a + " / " + b + " = " + (a / b) + "; % = " + (a % b)
                + "; floorDiv=" + Math.floorDiv(a, b) + "; floorMod=" + Math.floorMod(a, b));
        }
        long f = 1;
        for (int i = 1; i <= 25; i++) {
            f *= i;
            System.out.println(i + "! mod 2^64 = " + f);
        }
        long fib1 = 0, fib2 = 1;
        for (int i = 0; i < 100; i++) {
            long t = fib1 + fib2;
            fib1 = fib2;
            fib2 = t;
        }
        System.out.println("fib wrap=" + fib1);
        int i1 = Integer.MAX_VALUE;
        long widened = i1 + 1;
        long widened2 = i1 + 1L;
        System.out.println("int overflow before widening=" + widened + " after=" + widened2);
        System.out.println("long to int=" + (int) 0x123456789ABCDEFL + " " + (int) -1L + " " + (int) 4294967296L);
        System.out.println("long compare: " + Long.compare(min, max) + " " + Long.signum(-99L) + " " + Long.signum(0L));
        System.out.println("unsigned: " + Long.toUnsignedString(-1L) + " " + Long.divideUnsigned(-1L, 7) + " " + Long.remainderUnsigned(-1L, 7)
            + " " + Long.compareUnsigned(-1L, 1L));
        long mixed = 3 * 1000000000;
        long mixed2 = 3L * 1000000000;
        System.out.println("mixed=" + mixed + " mixed2=" + mixed2);
        long h = 1125899906842597L;
        String s = "the quick brown fox";
        for (int i = 0; i < s.length(); i++) h = 31 * h + s.charAt(i);
        System.out.println("hash=" + h);
        System.out.println("literal L: " + 0xFFFFFFFFFFFFFFFFL + " " + 0x7FFFFFFFFFFFFFFFL + " " + 0b1L + " " + 077L);
    }
}
