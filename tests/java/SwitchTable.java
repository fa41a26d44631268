public class SwitchTable {
    static String dense(int x) {
        switch (x) {
            case 0: return "zero";
            case 1: return "one";
            case 2: return "two";
            case 3: return "three";
            case 4: return "four";
            case 5: return "five";
            case 6: return "six";
            case 7: return "seven";
            default: return "default(" + x + ")";
        }
    }

    static String negDense(int x) {
        switch (x) {
            case -3: return "m3";
            case -2: return "m2";
            case -1: return "m1";
            case 0: return "z";
            case 1: return "p1";
            case 2: return "p2";
            default: return "?";
        }
    }

    static int fallthrough(int x) {
        int r = 0;
        switch (x) {
            case 1: r += 1;
            case 2: r += 10;
            case 3: r += 100; break;
            case 4: r += 1000;
            default: r += 10000;
            case 5: r += 100000;
        }
        return r;
    }

    static String edge(int x) {
        switch (x) {
            case Integer.MAX_VALUE: return "MAX";
            case Integer.MAX_VALUE - 1: return "MAX-1";
            case Integer.MIN_VALUE: return "MIN";
            case Integer.MIN_VALUE + 1: return "MIN+1";
            default: return "other";
        }
    }

    static String byteSwitch(byte b) {
        switch (b) {
            case -128: return "minbyte";
            case 127: return "maxbyte";
            case 0: return "zerobyte";
            default: return "byte" + b;
        }
    }

    public static void main(String[] args) {
        for (int i = -2; i <= 9; i++) System.out.println(i + ": " + dense(i) + " " + negDense(i - 3) + " ft=" + fallthrough(i));
        int[] e = {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE, Integer.MIN_VALUE + 1, 0, -1};
        for (int x : e) System.out.println(x + " -> " + edge(x));
        for (byte b : new byte[]{-128, 127, 0, 5}) System.out.println(b + " -> " + byteSwitch(b));
        int hist[] = new int[4];
        for (int i = 0; i < 1000; i++) {
            switch (i % 7) {
                case 0, 1 -> hist[0]++;
                case 2, 3, 4 -> hist[1]++;
                case 5 -> hist[2]++;
                default -> hist[3]++;
            }
        }
        System.out.println("hist=" + hist[0] + " " + hist[1] + " " + hist[2] + " " + hist[3]);
        Integer boxed = 3;
        switch (boxed) {
            case 3: System.out.println("boxed switch 3"); break;
            default: System.out.println("boxed default");
        }
        char c = 'c';
        switch (c) {
            case 'a': case 'b': System.out.println("ab"); break;
            case 'c': case 'd': System.out.println("cd"); break;
        }
        try {
            Integer nul = null;
            switch (nul) { case 1: break; default: break; }
        } catch (NullPointerException ex) {
            System.out.println("NPE on null Integer switch");
        }
        switch (42) { }
        System.out.println("empty switch ok");
    }
}
