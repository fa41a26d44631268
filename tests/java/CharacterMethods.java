public class CharacterMethods {
    static String hex(int c) { return String.format("U+%04X", c); }

    public static void main(String[] args) {
        char[] cs = {'a', 'Z', '5', ' ', '\t', '\n', '_', '$', '!', '\u00e9', '\u00c9', '\u00df', '\u0394', '\u03b4', '\u0416', '\u0436', '\u4e2d', '\u0660', '\u2003', '\u00a0', '\u0130', '\u0131', '\u01c5', '\uff21'};
        for (char c : cs) {
            System.out.println(hex(c) + ": letter=" + Character.isLetter(c) + " digit=" + Character.isDigit(c) + " letterOrDigit=" + Character.isLetterOrDigit(c)
                + " alpha=" + Character.isAlphabetic(c) + " upper=" + Character.isUpperCase(c) + " lower=" + Character.isLowerCase(c) + " title=" + Character.isTitleCase(c)
                + " ws=" + Character.isWhitespace(c) + " space=" + Character.isSpaceChar(c) + " javaStart=" + Character.isJavaIdentifierStart(c) + " javaPart=" + Character.isJavaIdentifierPart(c)
                + " toUpper=" + hex(Character.toUpperCase(c)) + " toLower=" + hex(Character.toLowerCase(c)) + " toTitle=" + hex(Character.toTitleCase(c))
                + " type=" + Character.getType(c) + " numeric=" + Character.getNumericValue(c) + " digit10=" + Character.digit(c, 10));
        }
        System.out.println("digit radix: " + Character.digit('f', 16) + " " + Character.digit('F', 16) + " " + Character.digit('g', 16) + " " + Character.digit('z', 36) + " forDigit: " + Character.forDigit(11, 16) + Character.forDigit(35, 36));
        int[] cps = {0x41, 0x1F600, 0x10FFFF, 0x10000, 0x1D400};
        for (int cp : cps) {
            char[] chars = Character.toChars(cp);
            System.out.println(hex(cp) + ": charCount=" + Character.charCount(cp) + " supplementary=" + Character.isSupplementaryCodePoint(cp) + " valid=" + Character.isValidCodePoint(cp)
                + " chars=" + chars.length + " high=" + hex(chars[0]) + (chars.length > 1 ? " low=" + hex(chars[1]) : "") + " letter=" + Character.isLetter(cp) + " name-free type=" + Character.getType(cp));
        }
        System.out.println("surrogates: " + Character.isSurrogate('\uD800') + " " + Character.isHighSurrogate('\uDBFF') + " " + Character.isLowSurrogate('\uDC00') + " " + Character.isValidCodePoint(0x110000));
        System.out.println("compare: " + Character.compare('a', 'b') + " MIN/MAX: " + (int) Character.MIN_VALUE + " " + (int) Character.MAX_VALUE + " MAX_CODE_POINT=" + Character.MAX_CODE_POINT);
        System.out.println("reverseBytes: " + hex(Character.reverseBytes('\u1234')) + " toString: " + Character.toString(65) + Character.toString('b') + " valueOf: " + Character.valueOf('c'));
        String mixed = "Hello, W\u00f6rld! 123 \u0394\u03b5\u03bb\u03c4\u03b1";
        StringBuilder sb = new StringBuilder();
        for (char c : mixed.toCharArray()) sb.append(Character.isUpperCase(c) ? 'U' : Character.isLowerCase(c) ? 'l' : Character.isDigit(c) ? 'd' : Character.isWhitespace(c) ? '_' : '?');
        System.out.println("classify: " + sb);
        String up = mixed.toUpperCase(java.util.Locale.ROOT);
        StringBuilder esc = new StringBuilder();
        for (char c : up.toCharArray()) esc.append(c < 128 ? String.valueOf(c) : hex(c));
        System.out.println("upper ROOT: " + esc);
        System.out.println("isDefined: " + Character.isDefined(0x0378) + " " + Character.isDefined('a') + " isISOControl: " + Character.isISOControl('\u0007') + " isMirrored: " + Character.isMirrored('('));
        System.out.println("UnicodeBlock: " + Character.UnicodeBlock.of('a') + " " + Character.UnicodeBlock.of('\u4e2d') + " script: " + Character.UnicodeScript.of(0x0416));
    }
}
