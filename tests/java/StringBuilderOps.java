public class StringBuilderOps {
    static String esc(CharSequence s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 32 && c < 127) sb.append(c);
            else sb.append(String.format("\\u%04X", (int) c));
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder();
        sb.append("abc").append(1).append('x').append(2.5).append(true).append((Object) null).append(3L).append(1.5f).append(new char[]{'y', 'z'});
        System.out.println("append all: " + sb + " len=" + sb.length());
        sb.insert(0, "START-").insert(sb.length(), "-END").insert(6, 42).insert(3, 'C');
        System.out.println("insert: " + sb);
        sb.delete(0, 7);
        System.out.println("delete: " + sb);
        sb.deleteCharAt(0).deleteCharAt(sb.length() - 1);
        System.out.println("deleteCharAt: " + sb);
        sb.replace(0, 3, "REPLACED");
        System.out.println("replace: " + sb);
        sb.setCharAt(0, 'r');
        System.out.println("setCharAt: " + sb + " charAt(1)=" + sb.charAt(1) + " indexOf(\"true\")=" + sb.indexOf("true") + " lastIndexOf(\"l\")=" + sb.lastIndexOf("l"));
        sb.setLength(5);
        System.out.println("setLength(5): [" + sb + "]");
        sb.setLength(8);
        System.out.println("setLength(8): [" + esc(sb) + "] len=" + sb.length());
        sb.setLength(0);
        System.out.println("setLength(0): [" + sb + "] isEmpty=" + sb.isEmpty());
        System.out.println("reverse: " + new StringBuilder("hello world").reverse());
        StringBuilder sur = new StringBuilder("a\uD83D\uDE00b\uD83D\uDE01c");
        System.out.println("reverse surrogates: " + esc(sur.reverse()));
        StringBuilder broken = new StringBuilder("x\uDE00\uD83Dy");
        System.out.println("reverse reversed-pair: " + esc(broken.reverse()));
        StringBuilder cap = new StringBuilder(2);
        for (int i = 0; i < 100; i++) cap.append(i % 10);
        System.out.println("grow: " + cap.length() + " " + cap.substring(90) + " " + cap.subSequence(0, 5));
        StringBuilder cmp1 = new StringBuilder("abc"), cmp2 = new StringBuilder("abd");
        System.out.println("compareTo: " + cmp1.compareTo(cmp2) + " equals (identity): " + cmp1.equals(new StringBuilder("abc")) + " content: " + cmp1.toString().contentEquals(new StringBuilder("abc")));
        StringBuffer buf = new StringBuffer("buffer");
        buf.append(123).reverse().insert(0, '[').append(']');
        System.out.println("StringBuffer: " + buf);
        StringBuilder cp = new StringBuilder();
        cp.appendCodePoint(0x41).appendCodePoint(0x1F600).appendCodePoint(0x7A);
        System.out.println("appendCodePoint: " + esc(cp) + " len=" + cp.length() + " codePointCount=" + cp.codePointCount(0, cp.length()));
        try {
            new StringBuilder("abc").deleteCharAt(5);
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("deleteCharAt OOB: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        try {
            new StringBuilder("abc").insert(10, "x");
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("insert OOB: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        try {
            new StringBuilder("abc").setLength(-1);
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("setLength OOB: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 1000; i++) big.append(i).append(',');
        System.out.println("big length=" + big.length() + " hash of string=" + big.toString().hashCode());
        StringBuilder pal = new StringBuilder();
        String[] cands = {"racecar", "level", "hello", "A man a plan", "noon", ""};
        for (String c : cands) pal.append(c).append('=').append(new StringBuilder(c).reverse().toString().equals(c)).append(' ');
        System.out.println(pal.toString().trim());
        StringBuilder chained = new StringBuilder("0123456789");
        chained.delete(2, 4).insert(2, "--").replace(7, 100, "!").reverse();
        System.out.println("chained: " + chained);
        System.out.println("chars: " + new StringBuilder("hey").chars().sum());
    }
}
