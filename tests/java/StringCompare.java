import java.util.Arrays;

public class StringCompare {
    static String esc(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) sb.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        return sb.toString();
    }

    public static void main(String[] args) {
        String[][] pairs = {{"apple", "banana"}, {"banana", "apple"}, {"apple", "apple"}, {"apple", "applesauce"}, {"Apple", "apple"}, {"", "a"}, {"a", ""},
            {"abc", "abd"}, {"Z", "a"}, {"\u00e9", "e"}, {"10", "9"}, {"abc", "ABC"}, {"hello", "help"}};
        for (String[] p : pairs) {
            System.out.println(esc(p[0]) + " vs " + esc(p[1]) + ": compareTo=" + p[0].compareTo(p[1]) + " ignoreCase=" + p[0].compareToIgnoreCase(p[1])
                + " equalsIgnoreCase=" + p[0].equalsIgnoreCase(p[1]) + " CASE_INSENSITIVE=" + String.CASE_INSENSITIVE_ORDER.compare(p[0], p[1]));
        }
        String[] arr = {"pear", "Apple", "banana", "apple", "Banana", "cherry", "10", "9", "", "Zeta"};
        String[] a1 = arr.clone();
        Arrays.sort(a1);
        System.out.println("natural: " + Arrays.toString(a1));
        String[] a2 = arr.clone();
        Arrays.sort(a2, String.CASE_INSENSITIVE_ORDER);
        System.out.println("case-insensitive: " + Arrays.toString(a2));
        String[] a3 = arr.clone();
        Arrays.sort(a3, (x, y) -> x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y));
        System.out.println("by length: " + Arrays.toString(a3));
        System.out.println("equalsIgnoreCase special: " + "\u00df".equalsIgnoreCase("SS") + " " + "I".equalsIgnoreCase("i") + " " + "\u0130".equalsIgnoreCase("i"));
        System.out.println("toUpperCase sharp s: " + "stra\u00dfe".toUpperCase() + " len=" + "stra\u00dfe".toUpperCase().length());
        System.out.println("toLowerCase greek: " + esc("\u039a\u0391\u039b\u0397".toLowerCase()));
        String a = "hello";
        String b = "hel" + "lo";
        String c = new String("hello");
        String d = c.intern();
        System.out.println("identity: " + (a == b) + " " + (a == c) + " " + (a == d) + " " + a.equals(c));
        System.out.println("compare surrogate: " + "\uD83D\uDE00".compareTo("\uFFFF") + " " + "a".compareTo("\uD83D"));
    }
}
