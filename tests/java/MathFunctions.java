public class MathFunctions {
    // Math.* transcendental functions may differ from StrictMath by 1 ulp; print them rounded.
    static String f12(double d) { return String.format("%.12f", d); }

    public static void main(String[] args) {
        System.out.println("abs: " + Math.abs(-5) + " " + Math.abs(Integer.MIN_VALUE) + " " + Math.abs(-5L) + " " + Math.abs(-2.5) + " " + Math.abs(-0.0) + " " + Math.abs(Float.NEGATIVE_INFINITY) + " " + Math.abs(-7.5f));
        int[][] fd = {{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {0, 3}, {Integer.MIN_VALUE, -1}, {Integer.MIN_VALUE, 3}};
        for (int[] p : fd) System.out.println("floorDiv(" + p[0] + "," + p[1] + ")=" + Math.floorDiv(p[0], p[1]) + " floorMod=" + Math.floorMod(p[0], p[1]) + " / =" + (p[0] / p[1]) + " % =" + (p[0] % p[1]));
        System.out.println("floorMod long/int: " + Math.floorMod(-7L, 3) + " " + Math.floorDiv(-7L, 3L));
        System.out.println("pow: " + Math.pow(2, 10) + " " + Math.pow(2, -1) + " " + f12(Math.pow(2, 0.5)) + " " + Math.pow(-8, 1.0 / 3) + " " + Math.pow(0, 0) + " " + Math.pow(Double.NaN, 0) + " " + Math.pow(-1, Double.POSITIVE_INFINITY)
            + " " + Math.pow(10, 15) + " " + f12(Math.pow(10, -5)) + " " + f12(Math.pow(1.0000001, 1e7)) + " " + Math.pow(-2, 3) + " " + Math.pow(-0.0, -1));
        System.out.println("sqrt: " + Math.sqrt(2) + " " + Math.sqrt(-1) + " " + Math.sqrt(-0.0) + " " + Math.sqrt(1e-300) + " " + Math.sqrt(Double.POSITIVE_INFINITY) + " cbrt: " + Math.cbrt(27) + " " + Math.cbrt(-8) + " " + f12(Math.cbrt(2)));
        double[] rs = {2.5, 3.5, -2.5, -3.5, 2.4999, -0.5, 0.5, 1e15 + 0.5, Double.NaN, -0.0, Double.NEGATIVE_INFINITY, 4503599627370497.0};
        for (double r : rs) System.out.println("x=" + r + " round=" + Math.round(r) + " ceil=" + Math.ceil(r) + " floor=" + Math.floor(r) + " rint=" + Math.rint(r) + " signum=" + Math.signum(r));
        System.out.println("ceil(-0.5)=" + Math.ceil(-0.5) + " floor(-0.0)=" + Math.floor(-0.0) + " round float: " + Math.round(0.5f) + " " + Math.round(-0.5f) + " " + Math.round(Float.MAX_VALUE));
        System.out.println("min/max: " + Math.min(-0.0, 0.0) + " " + Math.max(-0.0, 0.0) + " " + Math.min(0.0f, -0.0f) + " " + Math.min(Double.NaN, 1) + " " + Math.max(1, Double.NaN) + " " + Math.max(Float.NaN, 1f)
            + " " + Math.min(3, 7) + " " + Math.max(-3L, -7L) + " " + Math.min(Integer.MIN_VALUE, 0));
        System.out.println("hypot: " + Math.hypot(3, 4) + " " + String.format("%.10e", Math.hypot(1e200, 1e200)) + " " + Math.hypot(Double.NaN, Double.POSITIVE_INFINITY) + " " + Math.hypot(5, 12));
        System.out.println("trig: " + Math.sin(0) + " " + Math.cos(0) + " " + Math.tan(0) + " " + f12(Math.sin(Math.PI / 6)) + " " + f12(Math.cos(Math.PI)) + " " + f12(Math.atan2(1, 1)) + " " + Math.atan2(-0.0, -1)
            + " " + f12(Math.asin(1)) + " " + Math.acos(2));
        System.out.println("exp/log: " + Math.exp(0) + " " + f12(Math.exp(1)) + " " + f12(Math.log(Math.E)) + " " + Math.log(0) + " " + Math.log(-1) + " " + Math.log10(1000) + " " + f12(Math.log10(2)) + " " + Math.log1p(0) + " " + Math.expm1(0));
        System.out.println("toRadians/Degrees: " + Math.toRadians(180) + " " + Math.toDegrees(Math.PI / 2));
        System.out.println("sinh/cosh/tanh: " + Math.sinh(0) + " " + Math.cosh(0) + " " + Math.tanh(Double.POSITIVE_INFINITY));
        System.out.println("copySign/getExponent/scalb: " + Math.copySign(3.0, -0.0) + " " + Math.getExponent(1024.0) + " " + Math.getExponent(0.1f) + " " + Math.scalb(1.5, 4) + " " + Math.nextAfter(1.0, 0));
        System.out.println("fma: " + Math.fma(2.0, 3.0, 1.0) + " " + Math.fma(0.1, 10, -1));
        System.out.println("StrictMath: " + StrictMath.sqrt(2) + " " + StrictMath.sin(1) + " " + StrictMath.exp(2) + " " + StrictMath.log(10) + " " + StrictMath.pow(3, 0.5) + " " + StrictMath.cbrt(100));
        double acc = 0;
        for (int i = 1; i <= 1000; i++) acc += Math.sqrt(i) * Math.sin(i) / Math.log(i + 1);
        System.out.println("accumulated StrictMath-free sum: " + String.format("%.6f", acc));
        System.out.println("constants: " + Math.PI + " " + Math.E);
        System.out.println("absExact: " + Math.absExact(-5) + " negateExact: " + Math.negateExact(7L) + " clamp via min/max: " + Math.max(0, Math.min(10, 15)));
    }
}
