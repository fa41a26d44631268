/**
 * The Math and StrictMath methods jxvm runs as VM primitives, over special values: exact
 * functions (sqrt, floor, ceil, rint, abs, min, max) printed as raw bits; transcendental ones
 * rounded to 12 significant digits (Math allows 1 ulp, so HotSpot's own stubs may differ in the
 * last bit), with their special cases (NaN, infinities, signed zeros) exact.
 */
public class MathIntrinsics {
    static final double[] D = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.5, 3.5, 1e-310, -1e300, 123456.789,
        Double.MIN_VALUE, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, Math.PI, 1e15 + 0.5};
    static final float[] F = {0.0f, -0.0f, 1.5f, -2.5f, Float.NaN, Float.POSITIVE_INFINITY, Float.MIN_VALUE};
    static final int[] I = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
    static final long[] L = {0, -7, Long.MIN_VALUE, Long.MAX_VALUE};

    static String bits(double v) { return Long.toHexString(Double.doubleToRawLongBits(v)); }
    static String bits(float v) { return Integer.toHexString(Float.floatToRawIntBits(v)); }
    static String approx(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v) || v == 0.0) return bits(v);
        return String.format("%.12g", v);
    }

    public static void main(String[] args) {
        StringBuilder exact = new StringBuilder(), trans = new StringBuilder();
        for (double x : D) {
            exact.append(bits(Math.sqrt(x))).append(' ').append(bits(Math.floor(x))).append(' ').append(bits(Math.ceil(x)))
                .append(' ').append(bits(Math.rint(x))).append(' ').append(bits(Math.abs(x))).append(' ')
                .append(bits(StrictMath.sqrt(x))).append(' ').append(bits(StrictMath.floor(x))).append('\n');
            for (double y : D) exact.append(bits(Math.max(x, y))).append(bits(Math.min(x, y))).append(' ');
            exact.append('\n');
            trans.append(approx(Math.sin(x))).append(' ').append(approx(Math.cos(x))).append(' ').append(approx(Math.tan(x)))
                .append(' ').append(approx(Math.asin(x))).append(' ').append(approx(Math.acos(x))).append(' ')
                .append(approx(Math.atan(x))).append(' ').append(approx(Math.exp(x))).append(' ').append(approx(Math.log(x)))
                .append(' ').append(approx(Math.log10(x))).append('\n');
            for (double y : D) trans.append(approx(Math.pow(x, y))).append(',').append(approx(Math.atan2(x, y))).append(' ');
            trans.append('\n');
        }
        for (float x : F) {
            exact.append(bits(Math.abs(x)));
            for (float y : F) exact.append(' ').append(bits(Math.max(x, y))).append(bits(Math.min(x, y)));
            exact.append('\n');
        }
        for (int x : I) for (int y : I) exact.append(Math.abs(x)).append(Math.max(x, y)).append(Math.min(x, y)).append(' ');
        for (long x : L) for (long y : L) exact.append(Math.abs(x)).append(Math.max(x, y)).append(Math.min(x, y)).append(' ');
        System.out.println(exact);
        System.out.println(trans);
        double acc = 0;
        for (int i = 1; i < 2000; i++) acc += Math.pow(1.0 + i * 1e-3, 0.75) * Math.sin(i) + Math.sqrt(i) - Math.abs(Math.cos(i));
        System.out.println(String.format("accumulated %.9f", acc));
    }
}
