public class StringFormatBasic {
    public static void main(String[] args) {
        System.out.println(String.format("int: [%d] [%5d] [%-5d] [%05d] [%+d] [%,d] [%(d] [% d]", 42, 42, 42, 42, 42, 1234567, -42, 42));
        System.out.println(String.format("neg: [%d] [%6d] [%-6d] [%06d] [%,d]", -42, -42, -42, -42, -1234567890));
        System.out.println(String.format("long: [%d] [%,d] [%x] [%X] [%o]", Long.MAX_VALUE, Long.MIN_VALUE, 255L, -1L, 8L));
        System.out.println(String.format("hex: [%x] [%X] [%08x] [%#x] [%x] [%x]", 255, 255, 255, 255, -1, (byte) -1));
        System.out.println(String.format("oct: [%o] [%#o] [%o]", 8, 8, -8));
        System.out.println(String.format("float: [%f] [%.2f] [%5.2f] [%-8.3f] [%08.2f] [%+.1f] [%,.2f] [%.0f] [%.0f] [%.0f]", Math.PI, Math.PI, Math.PI, Math.PI, -Math.PI, Math.E, 1234567.891, 0.5, 1.5, 2.5));
        System.out.println(String.format("float round: [%.2f] [%.2f] [%.2f] [%.1f] [%.3f]", 1.005, 2.675, 0.125, 0.05, 1.0005));
        System.out.println(String.format("exp: [%e] [%.2e] [%E] [%.3e] [%e]", 12345.678, 0.000123, 1e100, -6.02214076e23, 0.0));
        System.out.println(String.format("general: [%g] [%g] [%.3g] [%g]", 12345.678, 0.0001234, 1e10, 1.0));
        System.out.println(String.format("special: [%f] [%f] [%e] [%.2f]", Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0));
        System.out.println(String.format("string: [%s] [%10s] [%-10s] [%.3s] [%S] [%s] [%s]", "hello", "hello", "hello", "hello", "hello", null, 42));
        System.out.println(String.format("bool: [%b] [%b] [%b] [%B] [%b]", true, false, null, true, "nonnull"));
        System.out.println(String.format("char: [%c] [%c] [%C] [%3c] [%-3c]", 'a', 65, 'b', 'x', 'y'));
        System.out.println(String.format("percent/newline: [%%] [%n]").replace("\n", "\\n").replace("\r", "\\r"));
        System.out.println(String.format("positional: [%2$s %1$s] [%1$s %1$s] [%s %<s]", "a", "b", "c"));
        System.out.println(String.format("float type: [%.3f] [%e]", 1.1f, 1.1f));
        System.out.println(String.format("width mix: |%-12s|%8.3f|%6d|%-6x|", "name", 3.14159, 7, 255));
        System.out.printf("printf: %s=%d, %s=%.1f%n", "x", 10, "y", 2.25);
        System.out.printf("%5s|%-5s|%5s%n", "ab", "cd", "toolongvalue");
        for (int i = 0; i < 5; i++) {
            System.out.printf("row %2d: %6.2f %8.3e %x%n", i, i * 1.5 + 0.333, Math.pow(10, i) * 1.2345, i * 37);
        }
        System.out.println(String.format("big numbers: %,d %,.3f", 9876543210L, 9876543.21));
        System.out.println(String.format("Integer objects: %d %s %x", Integer.valueOf(17), Long.valueOf(3), Short.valueOf((short) 255)));
        System.out.println(String.format("BigInteger: %d %x", new java.math.BigInteger("123456789012345678901234567890"), new java.math.BigInteger("255")));
        System.out.println(String.format("BigDecimal: %.5f %s", new java.math.BigDecimal("1.23456789"), new java.math.BigDecimal("1E+3")));
        try {
            String.format("%d", "notanumber");
        } catch (java.util.IllegalFormatException e) {
            System.out.println("IllegalFormatConversion: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        try {
            String.format("%s %s", "only one");
        } catch (java.util.MissingFormatArgumentException e) {
            System.out.println("Missing: " + e.getMessage());
        }
    }
}
