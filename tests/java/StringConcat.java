public class StringConcat {
    static String esc(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) sb.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        return sb.toString();
    }

    static class Point {
        int x, y;
        Point(int x, int y) { this.x = x; this.y = y; }
        @Override public String toString() { return "Point(" + x + "," + y + ")"; }
    }

    public static void main(String[] args) {
        byte b = -5; short s = 300; char c = 'Z'; int i = -42; long l = 1L << 40; float f = 1.25f; double d = -3.5; boolean z = true;
        String nul = null;
        Object onull = null;
        System.out.println("all: " + b + "|" + s + "|" + c + "|" + i + "|" + l + "|" + f + "|" + d + "|" + z + "|" + nul + "|" + onull);
        System.out.println(1 + 2 + "x" + 1 + 2);
        System.out.println('a' + 'b' + "c" + 'd' + 'e');
        System.out.println("" + 'a' + 'b');
        System.out.println(c + 1 + "!" + (char) (c + 1));
        System.out.println("point: " + new Point(3, -4) + " arrlen " + new int[7].length);
        String acc = "";
        for (int k = 0; k < 10; k++) acc += k;
        System.out.println(acc);
        acc = null;
        acc += "tail";
        System.out.println(acc);
        System.out.println("floats: " + 1.0f + " " + 100.0 + " " + 1e7 + " " + 1e-3 + " " + 1e-4 + " " + 123456789.0f + " " + 0.001f + " " + 1e21);
        System.out.println("specials: " + Double.NaN + " " + Float.NEGATIVE_INFINITY + " " + -0.0f + " " + Long.MIN_VALUE + " " + Integer.MIN_VALUE);
        char[] chars = {'h', 'i'};
        System.out.println("char[] via valueOf: " + String.valueOf(chars) + " concat: " + String.valueOf(chars).concat("!"));
        StringBuilder sb = new StringBuilder("sb");
        System.out.println("builder: " + sb + " " + sb.length());
        final String constA = "con";
        final String constB = "stant";
        String combined = constA + constB;
        System.out.println("constant folding identity: " + (combined == "constant"));
        String nonConst = constA;
        String combined2 = nonConst + constB;
        System.out.println("runtime concat identity: " + (combined2 == "constant") + " equals: " + combined2.equals("constant"));
        String big = "";
        for (int k = 0; k < 200; k++) big = big + (char) ('a' + k % 26);
        System.out.println("big len=" + big.length() + " hash=" + big.hashCode());
        Integer boxed = 99; Long lboxed = null; Character cboxed = 'q';
        System.out.println("boxed: " + boxed + lboxed + cboxed);
        System.out.println("unicode: " + esc("\u00e9\u4e2d\u6587") + " len=" + "\u00e9\u4e2d\u6587".length() + " emoji len=" + "\uD83D\uDE00".length());
        System.out.println("escapes: tab[\t] quote[\"] backslash[\\] apostrophe[']");
        String multi = """
            Text block line 1
              indented line 2
            end""";
        System.out.println(multi);
        System.out.println("concat with ternary: " + (i > 0 ? "pos" : "neg") + " and method " + String.valueOf(z).toUpperCase());
    }
}
