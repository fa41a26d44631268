public class TernaryLogic {
    static String classify(int n) {
        return n < 0 ? "negative" : n == 0 ? "zero" : n < 10 ? "small" : n < 100 ? "medium" : "large";
    }

    static int sideEffects = 0;
    static int se(int v) { sideEffects++; return v; }

    public static void main(String[] args) {
        for (int n : new int[]{-5, 0, 3, 42, 1000}) System.out.println(n + " -> " + classify(n));
        boolean flag = true;
        Object o = flag ? 1 : "one";
        System.out.println("mixed ternary: " + o + " " + o.getClass().getSimpleName());
        Object o2 = flag ? 1 : 2.0;
        System.out.println("numeric promotion ternary: " + o2 + " " + o2.getClass().getSimpleName());
        Object o3 = flag ? 'a' : 0;
        System.out.println("char/int constant ternary: " + o3 + " " + o3.getClass().getSimpleName());
        int i = 0;
        Object o4 = flag ? 'a' : i;
        System.out.println("char/int var ternary: " + o4 + " " + o4.getClass().getSimpleName());
        Integer nullInt = null;
        Object o5 = !flag ? nullInt : "str";
        System.out.println("ref ternary: " + o5);
        long l = flag ? 1 : 2L;
        System.out.println("long ternary: " + l);
        int r = flag ? se(1) : se(2);
        System.out.println("r=" + r + " sideEffects=" + sideEffects);
        int max = 0;
        int[] vals = {3, 9, -2, 7, 15, 1};
        for (int v : vals) max = v > max ? v : max;
        System.out.println("max=" + max);
        String s = null;
        System.out.println("null-safe: " + (s == null ? "was null" : s.length()));
        byte b = flag ? (byte) 1 : (byte) 2;
        short sh = flag ? (short) 300 : 5;
        System.out.println("byte/short: " + b + " " + sh);
        char c = flag ? 'x' : 'y';
        System.out.println("char: " + c);
        System.out.println("nested: " + (true ? false ? 1 : 2 : 3));
        double d = flag ? 1 : 2.5;
        System.out.println("double: " + d);
        try {
            Integer n = null;
            int unboxed = flag ? n : 0;
            System.out.println("no NPE " + unboxed);
        } catch (NullPointerException e) {
            System.out.println("NPE from unboxing in ternary");
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 1; k <= 30; k++) sb.append(k % 15 == 0 ? "FizzBuzz" : k % 5 == 0 ? "Buzz" : k % 3 == 0 ? "Fizz" : String.valueOf(k)).append(k < 30 ? "," : "\n");
        System.out.print(sb);
    }
}
