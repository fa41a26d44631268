public class SwitchString {
    static String kind(String s) {
        switch (s) {
            case "Aa": return "Aa-branch";
            case "BB": return "BB-branch";
            case "AaAa": return "AaAa-branch";
            case "BBBB": return "BBBB-branch";
            case "AaBB": return "AaBB-branch";
            case "": return "empty";
            case "hello": return "greeting";
            case "HELLO": return "shout";
            default: return "unknown:" + s;
        }
    }

    static int days(String month) {
        return switch (month) {
            case "jan", "mar", "may", "jul", "aug", "oct", "dec" -> 31;
            case "apr", "jun", "sep", "nov" -> 30;
            case "feb" -> 28;
            default -> throw new IllegalArgumentException("bad month " + month);
        };
    }

    public static void main(String[] args) {
        System.out.println("hash Aa=" + "Aa".hashCode() + " BB=" + "BB".hashCode() + " AaAa=" + "AaAa".hashCode() + " BBBB=" + "BBBB".hashCode() + " AaBB=" + "AaBB".hashCode() + " BBAa=" + "BBAa".hashCode());
        String[] probes = {"Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "", "hello", "HELLO", "Hello", "aA", new String("Aa"), "A" + "a".toString()};
        for (String p : probes) System.out.println("[" + p + "] -> " + kind(p));
        String[] months = {"jan", "feb", "apr", "dec", "xyz"};
        for (String m : months) {
            try {
                System.out.println(m + " -> " + days(m));
            } catch (IllegalArgumentException e) {
                System.out.println(m + " -> " + e.getMessage());
            }
        }
        try {
            String n = null;
            switch (n) {
                case "a": System.out.println("a"); break;
                default: System.out.println("default");
            }
        } catch (NullPointerException e) {
            System.out.println("NPE for null string switch");
        }
        StringBuilder out = new StringBuilder();
        for (String tok : "push 3 push 4 add push 5 mul print".split(" ")) {
            switch (tok) {
                case "push": out.append('P'); break;
                case "add": out.append('+'); break;
                case "mul": out.append('*'); break;
                case "print": out.append('!'); break;
                default: out.append(tok);
            }
        }
        System.out.println(out);
        String fall = "two";
        switch (fall) {
            case "one": System.out.println("one");
            case "two": System.out.println("two");
            case "three": System.out.println("three");
                break;
            case "four": System.out.println("four");
        }
    }
}
