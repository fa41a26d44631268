/**
 * Java Grande section 2 "Series": the first N Fourier coefficients of f(x) = (x+1)^x on the
 * interval [0,2], each integral computed with the trapezoid rule over 1000 steps.
 */
public class Series {
    static final int STEPS = 1000;

    static double f(double x, double omega, int kind) {
        double base = Math.pow(x + 1.0, x);
        if (kind == 0) return base;
        if (kind == 1) return base * Math.cos(omega * x);
        return base * Math.sin(omega * x);
    }

    static double trapezoid(double lo, double hi, double omega, int kind) {
        double h = (hi - lo) / STEPS;
        double sum = 0.5 * (f(lo, omega, kind) + f(hi, omega, kind));
        double x = lo;
        for (int i = 1; i < STEPS; i++) {
            x += h;
            sum += f(x, omega, kind);
        }
        return sum * h;
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 40000 : 1000;
        double[][] coef = new double[2][n];
        coef[0][0] = trapezoid(0.0, 2.0, 0.0, 0) / 2.0;
        for (int i = 1; i < n; i++) {
            double omega = Math.PI * i;
            coef[0][i] = trapezoid(0.0, 2.0, omega, 1);
            coef[1][i] = trapezoid(0.0, 2.0, omega, 2);
        }
        double sa = 0, sb = 0;
        for (int i = 0; i < n; i++) {
            sa += Math.abs(coef[0][i]);
            sb += Math.abs(coef[1][i]);
        }
        // Math.pow/sin/cos may differ in the last bit between VMs (the spec allows 1 ulp), so
        // print rounded, well-conditioned values (sums of magnitudes, not cancelling sums).
        System.out.println(String.format("Series n=%d a0=%.6f a1=%.6f b1=%.6f sumAbsA=%.6e sumAbsB=%.6e",
                n, coef[0][0], coef[0][1], coef[1][1], sa, sb));
    }
}
