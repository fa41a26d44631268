import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class RegexAdvanced {
    static void test(String re, String... inputs) {
        Pattern p = Pattern.compile(re);
        StringBuilder sb = new StringBuilder("/" + re + "/:");
        for (String in : inputs) sb.append(' ').append(in).append('=').append(p.matcher(in).matches() ? 'Y' : 'n');
        StringBuilder out = new StringBuilder();
        for (char c : sb.toString().toCharArray()) out.append(c < 128 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        System.out.println(out);
    }

    public static void main(String[] args) {
        test("(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}", "Passw0rdX", "password1", "SHORT1a", "NoDigitsHere", "a1B2c3D4");
        test("\\b\\w+(?<!ing)\\b", "running", "run", "sing", "singer");
        test("(\\w)\\1", "aa", "ab", "zz");
        test("(\\w+) \\1", "hello hello", "hello world", "a a");
        test("[^aeiou]+", "rhythm", "cat", "xyz");
        test("\\p{Upper}\\p{Lower}+", "Hello", "hello", "HELLO", "Ab");
        test("\\p{Alpha}+\\p{Digit}?", "abc", "abc1", "abc12", "1");
        test("[a-c&&[b-d]]+", "bcbc", "abc", "d");
        test("\\d{2,4}", "1", "12", "1234", "12345");
        test("(?:ab)+c?", "ababab", "ababc", "abac", "c");
        test("x*y?z+", "z", "xxyzz", "y", "xz");
        test("^[\\w.+-]+@[\\w-]+\\.[a-z]{2,}$", "user@example.com", "first.last+tag@sub-domain.org", "bad@", "@bad.com", "a@b.c");
        test("\\Q.*\\E", ".*", "ab");
        test("(?i)stra\u00dfe|STRASSE", "strasse", "STRASSE");
        test("a{0}b", "b", "ab");
        test("(a|b)*abb", "abb", "aabb", "babb", "abab");
        Pattern wordFreq = Pattern.compile("[a-z']+");
        Map<String, Integer> freq = new LinkedHashMap<>();
        Matcher m = wordFreq.matcher("it's the end of the world as we know it, and i feel fine. it's fine".toLowerCase());
        while (m.find()) freq.merge(m.group(), 1, Integer::sum);
        System.out.println("word freq: " + freq);
        System.out.println("lookbehind replace: " + "price: 100 USD, 250 EUR".replaceAll("(?<=\\s)(\\d+)(?=\\s[A-Z]{3})", "[$1]"));
        System.out.println("negative lookahead: " + "foo1 foo2 foobar".replaceAll("foo(?!\\d)", "BAZ"));
        System.out.println("camel to snake: " + "camelCaseToSnakeCase".replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase());
        System.out.println("collapse spaces: [" + "  many    spaces   here  ".trim().replaceAll("\\s+", " ") + "]");
        System.out.println("unicode class: " + "caf\u00e9 na\u00efve".replaceAll("\\P{ASCII}", "?") + " " + Pattern.compile("\\p{L}+").matcher("\u00e9t\u00e9").matches());
        Matcher g = Pattern.compile("(a)?(b)").matcher("b");
        System.out.println("unmatched optional group: " + g.matches() + " group1=" + g.group(1) + " start1=" + g.start(1) + " group2=" + g.group(2));
        Matcher nested = Pattern.compile("((\\d+)-(\\d+))|(\\w+)").matcher("12-34 abc 5-6");
        while (nested.find()) System.out.println("nested groups: " + nested.group(0) + " g1=" + nested.group(1) + " g2=" + nested.group(2) + " g3=" + nested.group(3) + " g4=" + nested.group(4));
        String log = "2024-03-01 ERROR [db] timeout after 30s\n2024-03-01 INFO [web] started\n2024-03-02 WARN [db] slow query 1200ms\n2024-03-02 ERROR [web] 500 on /api";
        Pattern lp = Pattern.compile("^(?<date>\\S+) (?<level>ERROR|WARN) \\[(?<comp>\\w+)\\] (?<msg>.*)$", Pattern.MULTILINE);
        Matcher lm = lp.matcher(log);
        while (lm.find()) System.out.println("log: " + lm.group("level") + "/" + lm.group("comp") + " on " + lm.group("date") + ": " + lm.group("msg"));
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 2000; i++) big.append("item").append(i).append(i % 7 == 0 ? "! " : " ");
        Matcher bm = Pattern.compile("item(\\d*7)!").matcher(big);
        int c = 0;
        long sum = 0;
        while (bm.find()) { c++; sum += Long.parseLong(bm.group(1)); }
        System.out.println("big scan: matches=" + c + " sum=" + sum);
    }
}
