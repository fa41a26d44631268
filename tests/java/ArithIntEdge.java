public class ArithIntEdge {
    static int id(int x) { return x; }

    public static void main(String[] args) {
        int max = Integer.MAX_VALUE, min = Integer.MIN_VALUE;
        System.out.println("max+1=" + (max + 1));
        System.out.println("min-1=" + (min - 1));
        System.out.println("max*2=" + (max * 2));
        System.out.println("min*-1=" + (min * -1));
        System.out.println("-min=" + (-min));
        System.out.println("min/-1=" + (min / id(-1)));
        System.out.println("min%-1=" + (min % id(-1)));
        System.out.println("abs(min)=" + Math.abs(min));
        int[] as = {7, -7, 7, -7, 0, 1, -1, 13, -13, 100, min, max};
        int[] bs = {3, 3, -3, -3, 5, 2, 2, 5, -5, 7, 7, -7};
        for (int i = 0; i < as.length; i++) {
            int a = as[i], b = bs[i];
            System.out.println(a + " / " + b + " = " + (a / b) + ", " + a + " % " + b + " = " + (a % b)
                + ", floorDiv=" + Math.floorDiv(a, b) + ", floorMod=" + Math.floorMod(a, b));
        }
        int x = 123456789;
        System.out.println("x*x=" + (x * x));
        System.out.println("x*x long=" + ((long) x * x));
        int acc = 1;
        for (int i = 0; i < 40; i++) {
            acc = acc * 31 + i;
            if (i % 5 == 0) System.out.println("acc[" + i + "]=" + acc);
        }
        System.out.println("acc=" + acc);
        int sum = 0;
        for (int i = 0; i < 100000; i++) sum += i * i;
        System.out.println("sum squares (wrapped)=" + sum);
        System.out.println("neg zero int: " + (-0) + " " + (0 * -1));
        System.out.println("0x80000000=" + 0x80000000 + " 0xFFFFFFFF=" + 0xFFFFFFFF);
        System.out.println("octal 0777=" + 0777 + " binary 0b1011=" + 0b1011 + " underscores=" + 1_000_000);
        System.out.println("compare: " + (min < max) + " " + (min - 1 > 0) + " " + Integer.compare(min, max));
        int h = 0;
        for (int i = -50; i <= 50; i += 7) {
            h = 31 * h + (i / 3) * 17 + (i % 4);
        }
        System.out.println("h=" + h);
        System.out.println("unary plus/minus: " + (+5) + " " + (-(-5)) + " " + (- -min));
        System.out.println("divideUnsigned=" + Integer.divideUnsigned(-1, 3) + " remainderUnsigned=" + Integer.remainderUnsigned(-1, 3));
        System.out.println("toUnsignedString=" + Integer.toUnsignedString(-1) + " toUnsignedLong=" + Integer.toUnsignedLong(-2));
    }
}
