public class DoubleToString {
    public static void main(String[] args) {
        double[] ds = {0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 10.0, 100.0, 1000.0, 1e6, 1e7, 1e10, 1.0E10 + 1, 12345678.9,
            123456789012.0, 1e-3, 1e-4, 0.00012345, 1e100, 1e-100, 1.7976931348623157E308, 4.9E-324, 2.2250738585072014E-308,
            Math.PI, Math.E, 100.5, 9007199254740992.0, 9007199254740993.0, 0.3, 2e-7, 5e-324 * 3, 1.0E23, 8.41E21, 2.0E-3, 123.456, -987.654e-10,
            Double.MAX_VALUE / 3, 1234567.0, 12345678.0, 0.5, 0.25, 0.125, 4.35, 2.675, 1.005};
        for (double d : ds) {
            System.out.println(d + " | " + Double.toString(d) + " | " + String.valueOf(d) + " | f=" + (float) d);
        }
        float[] fs = {0.1f, 0.2f, 0.3f, 1.0f / 3, 1e7f, 1e8f, 1.0E10f, 3.4028235E38f, 1.4E-45f, 1.17549435E-38f, 16777216f, 123.456f, 0.001f, 9.999999e-4f, 33.333332f, (float) Math.PI};
        for (float f : fs) {
            System.out.println(f + " | " + Float.toString(f) + " | d=" + (double) f);
        }
        System.out.println("Float.MIN_VALUE=" + Float.MIN_VALUE + " Float.MAX_VALUE=" + Float.MAX_VALUE);
        System.out.println("Double.MIN_VALUE=" + Double.MIN_VALUE + " Double.MAX_VALUE=" + Double.MAX_VALUE);
        System.out.println("parse: " + Double.parseDouble("1e10") + " " + Double.parseDouble("-0") + " " + Double.parseDouble("  3.14  ") + " " + Double.parseDouble("0x1p4")
            + " " + Double.parseDouble("Infinity") + " " + Double.parseDouble("NaN") + " " + Float.parseFloat("1.1") + " " + Double.valueOf("2.5e-3"));
        System.out.println("toHexString: " + Double.toHexString(1.0) + " " + Double.toHexString(-0.1) + " " + Float.toHexString(0.5f));
        double x = 1;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 25; i++) { sb.append(x).append(' '); x *= 7.3; }
        System.out.println(sb.toString().trim());
        x = 1;
        sb.setLength(0);
        for (int i = 0; i < 25; i++) { sb.append(x).append(' '); x /= 7.3; }
        System.out.println(sb.toString().trim());
        float y = 1;
        sb.setLength(0);
        for (int i = 0; i < 20; i++) { sb.append(y).append(' '); y *= 3.7f; }
        System.out.println(sb.toString().trim());
    }
}
