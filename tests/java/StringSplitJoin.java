import java.util.Arrays;
import java.util.StringJoiner;

public class StringSplitJoin {
    static void show(String label, String[] parts) {
        StringBuilder sb = new StringBuilder(label).append(" (").append(parts.length).append("):");
        for (String p : parts) sb.append(" [").append(p).append(']');
        System.out.println(sb);
    }

    public static void main(String[] args) {
        show("simple", "a,b,c".split(","));
        show("trailing empties removed", "a,b,,c,,,".split(","));
        show("leading empty kept", ",a,b".split(","));
        show("limit 2", "a,b,c,d".split(",", 2));
        show("limit -1", "a,b,,".split(",", -1));
        show("limit 0", "a,b,,".split(",", 0));
        show("regex ws", "  hello   world  foo ".split("\\s+"));
        show("regex ws trimmed", "  hello   world  foo ".trim().split("\\s+"));
        show("dot escaped", "1.2.3.4".split("\\."));
        show("dot unescaped", "1.2.3".split("."));
        show("pipe", "a|b|c".split("\\|"));
        show("empty string", "".split(","));
        show("no delimiter", "abc".split(","));
        show("every char", "abc".split(""));
        show("multi-char delim", "one::two::three".split("::"));
        show("char class", "a1b2c3d".split("[0-9]"));
        show("lookahead", "camelCaseStringHere".split("(?=[A-Z])"));
        show("only delims", ",,,".split(","));
        StringJoiner sj = new StringJoiner(", ", "{", "}");
        sj.add("x").add("y").add("z");
        System.out.println("joiner: " + sj + " len=" + sj.length());
        StringJoiner empty = new StringJoiner(",", "[", "]");
        empty.setEmptyValue("EMPTY");
        System.out.println("empty joiner: " + empty);
        System.out.println("join list: " + String.join("|", Arrays.asList("p", "q", "r")));
        String csv = "name,age,city\nalice,30,paris\nbob,25,rome\ncarol,35,oslo";
        int totalAge = 0;
        for (String line : csv.split("\n")) {
            String[] f = line.split(",");
            if (f[0].equals("name")) continue;
            totalAge += Integer.parseInt(f[1]);
            System.out.println(f[0].toUpperCase() + " lives in " + f[2] + " (" + f[1] + ")");
        }
        System.out.println("totalAge=" + totalAge);
        String words = "the quick brown fox jumps over the lazy dog";
        String[] ws = words.split(" ");
        Arrays.sort(ws);
        System.out.println("sorted words: " + String.join(" ", ws));
        StringBuilder rev = new StringBuilder();
        String[] ws2 = words.split(" ");
        for (int i = ws2.length - 1; i >= 0; i--) rev.append(ws2[i]).append(i > 0 ? " " : "");
        System.out.println("reversed words: " + rev);
    }
}
