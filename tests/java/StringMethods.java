import java.util.Arrays;

public class StringMethods {
    public static void main(String[] args) {
        String s = "Hello, World! Hello, Java!";
        System.out.println("length=" + s.length() + " charAt(7)=" + s.charAt(7) + " isEmpty=" + s.isEmpty() + " isBlank=" + "  \t".isBlank());
        System.out.println("substring: [" + s.substring(7) + "] [" + s.substring(0, 5) + "] [" + s.substring(5, 5) + "] [" + s.subSequence(14, 19) + "]");
        System.out.println("indexOf: " + s.indexOf('o') + " " + s.indexOf('o', 5) + " " + s.indexOf("Hello") + " " + s.indexOf("Hello", 1) + " " + s.indexOf("xyz") + " " + s.indexOf(""));
        System.out.println("lastIndexOf: " + s.lastIndexOf('o') + " " + s.lastIndexOf("Hello") + " " + s.lastIndexOf('H', 10) + " " + s.lastIndexOf("!"));
        System.out.println("contains: " + s.contains("World") + " " + s.contains("world") + " startsWith: " + s.startsWith("Hell") + " " + s.startsWith("World", 7) + " endsWith: " + s.endsWith("Java!"));
        System.out.println("replace: " + s.replace('l', 'L') + " | " + s.replace("Hello", "Bye") + " | " + "aaa".replace("aa", "b") + " | " + "abc".replace("", "-"));
        System.out.println("replaceAll: " + s.replaceAll("[aeiou]", "*") + " | replaceFirst: " + s.replaceFirst("l+", "_"));
        System.out.println("case: " + s.toUpperCase() + " | " + s.toLowerCase());
        System.out.println("trim: [" + "  pad me \t\n".trim() + "] strip: [" + "\u2003 strip \u2003".strip() + "] stripLeading: [" + "  x ".stripLeading() + "] stripTrailing: [" + "  x ".stripTrailing() + "]");
        System.out.println("trim vs strip on em-space: [" + "\u2003x\u2003".trim().length() + "] [" + "\u2003x\u2003".strip().length() + "]");
        System.out.println("repeat: " + "ab".repeat(3) + " [" + "x".repeat(0) + "]");
        System.out.println("join: " + String.join("-", "a", "b", "c") + " " + String.join(", ", Arrays.asList("x", "y")) + " [" + String.join("/") + "]");
        System.out.println("concat: " + "foo".concat("bar") + " valueOf: " + String.valueOf(42) + String.valueOf('c') + String.valueOf(true) + String.valueOf(2.5) + String.valueOf((Object) null));
        System.out.println("toCharArray: " + Arrays.toString("hey".toCharArray()) + " chars sum: " + "hey".chars().sum() + " chars: " + Arrays.toString("AbC".chars().toArray()));
        System.out.println("codePoints: " + Arrays.toString("a\uD83D\uDE00b".codePoints().toArray()) + " count=" + "a\uD83D\uDE00b".codePointCount(0, 4) + " codePointAt(1)=" + "a\uD83D\uDE00b".codePointAt(1));
        System.out.println("equals: " + "abc".equals("abc") + " " + "abc".equals("ABC") + " " + "abc".equalsIgnoreCase("ABC") + " " + "abc".equals(null) + " contentEquals: " + "abc".contentEquals(new StringBuilder("abc")));
        System.out.println("matches: " + "12345".matches("\\d+") + " " + "12a45".matches("\\d+"));
        System.out.println("regionMatches: " + "Hello World".regionMatches(true, 6, "WORLD", 0, 5) + " " + "Hello World".regionMatches(6, "WORLD", 0, 5));
        System.out.println("lines: " + "a\nb\r\nc".lines().count() + " indent: [" + "x\ny".indent(2).replace("\n", "\\n") + "]");
        System.out.println("format: " + "%d-%s".formatted(5, "five") + " " + String.format("%05d|%-4s|%4s", 42, "ab", "cd"));
        System.out.println("intern eq: " + (new String("lit").intern() == "lit") + " hashCode: " + "".hashCode() + " " + "a".hashCode() + " " + s.hashCode());
        try {
            s.substring(10, 5);
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("SIOOBE: " + e.getMessage());
        }
        try {
            s.charAt(100);
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("charAt SIOOBE: " + e.getMessage());
        }
        try {
            "abc".substring(-1);
        } catch (StringIndexOutOfBoundsException e) {
            System.out.println("substring(-1): " + e.getMessage());
        }
        System.out.println("toString identity: " + (s.toString() == s) + " chained: " + "  MiXeD  ".strip().toLowerCase().replace('x', 'X').substring(1));
        System.out.println("describeConstable: " + "k".describeConstable().get() + " transform: " + "abc".transform(t -> t + t.length()));
    }
}
