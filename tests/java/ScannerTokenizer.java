import java.util.Locale;
import java.util.Scanner;
import java.util.StringTokenizer;

public class ScannerTokenizer {
    public static void main(String[] args) {
        String input = "3\n10 20 30\nhello world\n2.5 -7.25\ntrue false\n9223372036854775807\nlast line here";
        Scanner sc = new Scanner(input).useLocale(Locale.ROOT);
        int n = sc.nextInt();
        long sum = 0;
        for (int i = 0; i < n; i++) sum += sc.nextInt();
        System.out.println("n=" + n + " sum=" + sum);
        System.out.println("words: " + sc.next() + "|" + sc.next());
        System.out.println("doubles: " + sc.nextDouble() + " " + sc.nextDouble());
        System.out.println("booleans: " + sc.nextBoolean() + " " + sc.nextBoolean());
        System.out.println("long: " + sc.nextLong());
        sc.nextLine();
        System.out.println("rest line: [" + sc.nextLine() + "] hasNext=" + sc.hasNext());
        Scanner sc2 = new Scanner("a,b,,c;d").useDelimiter("[,;]");
        StringBuilder sb = new StringBuilder();
        while (sc2.hasNext()) sb.append('[').append(sc2.next()).append(']');
        System.out.println("custom delimiter: " + sb);
        Scanner sc3 = new Scanner("12 abc 3.5 99").useLocale(Locale.ROOT);
        StringBuilder kinds = new StringBuilder();
        while (sc3.hasNext()) {
            if (sc3.hasNextInt()) kinds.append("int:").append(sc3.nextInt());
            else if (sc3.hasNextDouble()) kinds.append("double:").append(sc3.nextDouble());
            else kinds.append("str:").append(sc3.next());
            kinds.append(' ');
        }
        System.out.println("hasNextX: " + kinds.toString().trim());
        try {
            new Scanner("notanint").nextInt();
        } catch (java.util.InputMismatchException e) {
            System.out.println("InputMismatchException: " + e.getMessage());
        }
        try {
            new Scanner("").next();
        } catch (java.util.NoSuchElementException e) {
            System.out.println("NoSuchElementException on empty");
        }
        Scanner lines = new Scanner("line1\nline2\r\nline3\n\nline5");
        int count = 0;
        while (lines.hasNextLine()) { String l = lines.nextLine(); count++; System.out.println("line " + count + ": [" + l + "]"); }
        StringTokenizer st = new StringTokenizer("the quick,brown;fox", " ,;", true);
        StringBuilder toks = new StringBuilder();
        while (st.hasMoreTokens()) toks.append('<').append(st.nextToken()).append('>');
        System.out.println("tokenizer with delims: " + toks + " countTokens(default)=" + new StringTokenizer("a b  c\td").countTokens());
        Scanner radix = new Scanner("ff 101 z").useLocale(Locale.ROOT).useRadix(16);
        System.out.println("radix scanning: " + radix.nextInt() + " " + radix.nextInt(2) + " hasNextInt(36)=" + radix.hasNextInt(36) + " " + radix.nextInt(36));
        Scanner findAll = new Scanner("a1b22c333");
        System.out.println("findAll: " + findAll.findAll("\\d+").map(r -> r.group()).toList());
    }
}
