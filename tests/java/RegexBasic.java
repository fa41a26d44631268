import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class RegexBasic {
    public static void main(String[] args) {
        Pattern date = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
        Matcher m = date.matcher("Dates: 2023-01-15, 1999-12-31 and 2000-02-29.");
        while (m.find()) {
            System.out.println("found '" + m.group() + "' at " + m.start() + "-" + m.end() + " year=" + m.group(1) + " month=" + m.group(2) + " day=" + m.group(3) + " groupCount=" + m.groupCount());
        }
        Pattern named = Pattern.compile("(?<key>[a-z]+)=(?<value>[^;]*);?");
        Matcher nm = named.matcher("host=example.com;port=8080;path=;debug=true");
        while (nm.find()) System.out.println("named: " + nm.group("key") + " -> [" + nm.group("value") + "] start(value)=" + nm.start("value"));
        System.out.println("matches: " + "abc123".matches("[a-z]+\\d+") + " " + Pattern.matches("a*b", "aaab") + " " + Pattern.matches("a*b", "aaabc"));
        Matcher lm = Pattern.compile("\\d+").matcher("123abc");
        System.out.println("lookingAt: " + lm.lookingAt() + " matches: " + lm.matches());
        System.out.println("replaceAll backrefs: " + "John Smith, Jane Doe".replaceAll("(\\w+) (\\w+)", "$2, $1"));
        System.out.println("replaceAll named: " + "2023-01-15".replaceAll("(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)", "${d}/${m}/${y}"));
        System.out.println("replaceFirst: " + "aaa bbb aaa".replaceFirst("a+", "X") + " escaped $: " + "cost 5".replaceAll("\\d", Matcher.quoteReplacement("$9")));
        System.out.println("replace with function: " + Pattern.compile("\\d+").matcher("a1b22c333").replaceAll(r -> "<" + (Integer.parseInt(r.group()) * 2) + ">"));
        System.out.println("split: " + String.join("|", Pattern.compile("\\s*[,;]\\s*").split("a , b;c  ;  d,e")) + " splitAsStream count: " + Pattern.compile(",").splitAsStream("x,y,z").count());
        System.out.println("case insensitive: " + Pattern.compile("hello", Pattern.CASE_INSENSITIVE).matcher("Say HeLLo").find() + " inline flag: " + "HELLO".matches("(?i)hello"));
        Pattern multi = Pattern.compile("^(\\w+):", Pattern.MULTILINE);
        Matcher mm = multi.matcher("name: x\nage: 5\n  indented: no\nlast: y");
        List<String> keys = new ArrayList<>();
        while (mm.find()) keys.add(mm.group(1));
        System.out.println("multiline anchors: " + keys);
        System.out.println("dotall: " + Pattern.compile("a.b", Pattern.DOTALL).matcher("a\nb").matches() + " without: " + Pattern.compile("a.b").matcher("a\nb").matches());
        System.out.println("greedy vs reluctant: " + firstMatch("<.+>", "<a><b>") + " " + firstMatch("<.+?>", "<a><b>") + " possessive: " + firstMatch("a*+a", "aaaa"));
        System.out.println("alternation: " + firstMatch("cat|category", "category") + " " + firstMatch("category|cat", "category"));
        System.out.println("quote: " + Pattern.quote("1+1=2") + " matches literal: " + "1+1=2".matches(Pattern.quote("1+1=2")));
        System.out.println("results stream: " + Pattern.compile("[A-Z]").matcher("Hello World From Java").results().map(r -> r.group() + "@" + r.start()).toList());
        Matcher reset = Pattern.compile("o").matcher("foo boo");
        int count = 0;
        while (reset.find()) count++;
        reset.reset("oooo");
        int count2 = 0;
        while (reset.find()) count2++;
        System.out.println("counts: " + count + " " + count2 + " hitEnd: " + reset.hitEnd());
        Matcher region = Pattern.compile("\\d+").matcher("ab12cd345ef");
        region.region(5, 11);
        System.out.println("region find: " + (region.find() ? region.group() : "none"));
        Matcher ap = Pattern.compile("cat").matcher("one cat two cats");
        StringBuilder sb = new StringBuilder();
        while (ap.find()) ap.appendReplacement(sb, "dog");
        ap.appendTail(sb);
        System.out.println("appendReplacement: " + sb);
        System.out.println("pattern toString/flags: " + date.pattern() + " " + date + " flags=" + Pattern.compile("x", Pattern.CASE_INSENSITIVE | Pattern.MULTILINE).flags());
        try {
            Pattern.compile("(unclosed");
        } catch (java.util.regex.PatternSyntaxException e) {
            System.out.println("syntax error: " + e.getDescription() + " index=" + e.getIndex() + " pattern=" + e.getPattern());
        }
        try {
            Matcher nomatch = date.matcher("none");
            nomatch.group();
        } catch (IllegalStateException e) {
            System.out.println("group without match: " + e.getMessage());
        }
    }

    static String firstMatch(String re, String s) {
        Matcher m = Pattern.compile(re).matcher(s);
        return m.find() ? m.group() : "<none>";
    }
}
