public class ParseErrors {
    static String esc(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) sb.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        return sb.toString();
    }

    interface Parser { Object parse(String s); }

    static void tryParse(String label, Parser p, String input) {
        try {
            System.out.println(label + "(" + (input == null ? "null" : "\"" + esc(input) + "\"") + ") = " + p.parse(input));
        } catch (NumberFormatException e) {
            System.out.println(label + "(" + (input == null ? "null" : "\"" + esc(input) + "\"") + ") NumberFormatException: " + e.getMessage());
        } catch (NullPointerException e) {
            System.out.println(label + "(null) NullPointerException");
        }
    }

    public static void main(String[] args) {
        String[] intInputs = {"42", "-42", "+42", "", " 42", "42 ", "4_2", "2147483647", "2147483648", "-2147483648", "-2147483649", "0x1F", "1.0", "abc", "-", "+", "00012", "\u0661\u0662", null};
        for (String s : intInputs) tryParse("parseInt", Integer::parseInt, s);
        tryParse("parseInt radix 16", s -> Integer.parseInt(s, 16), "fffffff");
        tryParse("parseInt radix 16", s -> Integer.parseInt(s, 16), "ffffffff");
        tryParse("parseInt radix 2", s -> Integer.parseInt(s, 2), "102");
        tryParse("parseInt radix 40", s -> Integer.parseInt(s, 40), "1");
        tryParse("parseLong", Long::parseLong, "12345678901234567890");
        tryParse("parseLong", Long::parseLong, "123L");
        tryParse("parseDouble", Double::parseDouble, "1.5e3");
        tryParse("parseDouble", Double::parseDouble, "1.5f");
        tryParse("parseDouble", Double::parseDouble, "1,5");
        tryParse("parseDouble", Double::parseDouble, "");
        tryParse("parseDouble", Double::parseDouble, "  -Infinity ");
        tryParse("parseDouble", Double::parseDouble, "0x1.8p1");
        tryParse("parseDouble", Double::parseDouble, ".5");
        tryParse("parseDouble", Double::parseDouble, "5.");
        tryParse("parseDouble", Double::parseDouble, "1e400");
        tryParse("parseDouble", Double::parseDouble, "nan");
        tryParse("parseFloat", Float::parseFloat, "3.4028236e38");
        tryParse("valueOf", Integer::valueOf, "99x");
        tryParse("decode", Integer::decode, "0x");
        tryParse("decode", Integer::decode, "08");
        tryParse("parseUnsignedInt", Integer::parseUnsignedInt, "-1");
        tryParse("parseUnsignedInt", Integer::parseUnsignedInt, "4294967296");
        tryParse("BigInteger", java.math.BigInteger::new, "12x");
        tryParse("BigDecimal", java.math.BigDecimal::new, "1.2.3");
        try {
            Integer.parseInt("bad");
        } catch (NumberFormatException e) {
            System.out.println("NFE is IllegalArgumentException: " + (e instanceof IllegalArgumentException) + " toString: " + e);
        }
    }
}
