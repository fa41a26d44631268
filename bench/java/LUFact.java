/**
 * Java Grande section 2 "LUFact": LU factorisation with partial pivoting of a dense random
 * N x N matrix, then a forward/back substitution solve; checks the residual.
 */
public class LUFact {
    static long seed = 1325;

    static double next() {
        seed = (seed * 3125) % 65536;
        return (seed - 32768.0) / 16384.0;
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 2500 : 450;
        double[][] a = new double[n][n];
        double[] b = new double[n];
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) a[i][j] = next();
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += a[i][j];
            b[i] = s; // exact solution is all ones
        }
        double[][] lu = new double[n][];
        for (int i = 0; i < n; i++) lu[i] = a[i].clone();
        int[] piv = new int[n];
        factor(lu, piv, n);
        double[] x = b.clone();
        solve(lu, piv, x, n);
        double resid = 0, errx = 0, sumx = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            double[] row = a[i];
            for (int j = 0; j < n; j++) s += row[j] * x[j];
            resid = Math.max(resid, Math.abs(s - b[i]));
            errx = Math.max(errx, Math.abs(x[i] - 1.0));
            sumx += x[i];
        }
        System.out.println("LUFact n=" + n + " sumx=" + sumx + " resid=" + resid + " errx=" + errx
                + " ok=" + (errx < 1e-6));
    }

    /** Row-oriented Doolittle elimination with partial pivoting; L and U overwrite a. */
    static void factor(double[][] a, int[] piv, int n) {
        for (int k = 0; k < n; k++) {
            int p = k;
            double max = Math.abs(a[k][k]);
            for (int i = k + 1; i < n; i++) {
                double v = Math.abs(a[i][k]);
                if (v > max) {
                    max = v;
                    p = i;
                }
            }
            piv[k] = p;
            if (p != k) {
                double[] t = a[p];
                a[p] = a[k];
                a[k] = t;
            }
            double[] rk = a[k];
            double inv = 1.0 / rk[k];
            for (int i = k + 1; i < n; i++) {
                double[] ri = a[i];
                double m = ri[k] * inv;
                ri[k] = m;
                if (m != 0.0) {
                    for (int j = k + 1; j < n; j++) ri[j] -= m * rk[j];
                }
            }
        }
    }

    static void solve(double[][] a, int[] piv, double[] x, int n) {
        for (int k = 0; k < n; k++) {
            int p = piv[k];
            if (p != k) {
                double t = x[p];
                x[p] = x[k];
                x[k] = t;
            }
        }
        for (int i = 0; i < n; i++) {
            double s = x[i];
            double[] ri = a[i];
            for (int j = 0; j < i; j++) s -= ri[j] * x[j];
            x[i] = s;
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = x[i];
            double[] ri = a[i];
            for (int j = i + 1; j < n; j++) s -= ri[j] * x[j];
            x[i] = s / ri[i];
        }
    }
}
