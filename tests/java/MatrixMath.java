public class MatrixMath {
    static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length, m = b[0].length, k = b.length;
        double[][] c = new double[n][m];
        for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) { double s = 0; for (int x = 0; x < k; x++) s += a[i][x] * b[x][j]; c[i][j] = s; }
        return c;
    }

    static double determinant(double[][] m) {
        int n = m.length;
        double[][] a = new double[n][];
        for (int i = 0; i < n; i++) a[i] = m[i].clone();
        double det = 1;
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
            if (a[pivot][col] == 0) return 0;
            if (pivot != col) { double[] t = a[pivot]; a[pivot] = a[col]; a[col] = t; det = -det; }
            det *= a[col][col];
            for (int r = col + 1; r < n; r++) {
                double f = a[r][col] / a[col][col];
                for (int c = col; c < n; c++) a[r][c] -= f * a[col][c];
            }
        }
        return det;
    }

    static double[] solve(double[][] m, double[] rhs) {
        int n = rhs.length;
        double[][] a = new double[n][n + 1];
        for (int i = 0; i < n; i++) { System.arraycopy(m[i], 0, a[i], 0, n); a[i][n] = rhs[i]; }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
            double[] t = a[pivot]; a[pivot] = a[col]; a[col] = t;
            for (int r = 0; r < n; r++) {
                if (r == col) continue;
                double f = a[r][col] / a[col][col];
                for (int c = col; c <= n; c++) a[r][c] -= f * a[col][c];
            }
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) x[i] = a[i][n] / a[i][i];
        return x;
    }

    static long[][] matPowMod(long[][] m, long p, long mod) {
        int n = m.length;
        long[][] r = new long[n][n];
        for (int i = 0; i < n; i++) r[i][i] = 1;
        while (p > 0) {
            if ((p & 1) == 1) r = mulMod(r, m, mod);
            m = mulMod(m, m, mod);
            p >>= 1;
        }
        return r;
    }

    static long[][] mulMod(long[][] a, long[][] b, long mod) {
        int n = a.length;
        long[][] c = new long[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { long s = 0; for (int k = 0; k < n; k++) s = (s + a[i][k] * b[k][j]) % mod; c[i][j] = s; }
        return c;
    }

    static String fmt(double[][] m) {
        StringBuilder sb = new StringBuilder();
        for (double[] row : m) {
            sb.append('[');
            for (int j = 0; j < row.length; j++) sb.append(j > 0 ? ", " : "").append(String.format("%.4f", row[j]));
            sb.append(']');
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        double[][] a = {{1, 2, 3}, {4, 5, 6}, {7, 8, 10}};
        double[][] b = {{0.5, -1}, {2, 0.25}, {-3, 4}};
        System.out.println("a*b = " + fmt(multiply(a, b)));
        System.out.println("det(a) = " + determinant(a) + " det(I) = " + determinant(new double[][]{{1, 0}, {0, 1}}) + " det(singular) = " + determinant(new double[][]{{1, 2}, {2, 4}}));
        double[] x = solve(a, new double[]{14, 32, 53});
        System.out.println("solve: " + String.format("%.6f %.6f %.6f", x[0], x[1], x[2]));
        int n = 60;
        double[][] hilbertish = new double[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) hilbertish[i][j] = 1.0 / (i + j + 1) + (i == j ? 1 : 0);
        double[] rhs = new double[n];
        for (int i = 0; i < n; i++) rhs[i] = i % 3 - 1;
        double[] sol = solve(hilbertish, rhs);
        double resid = 0;
        for (int i = 0; i < n; i++) { double s = 0; for (int j = 0; j < n; j++) s += hilbertish[i][j] * sol[j]; resid = Math.max(resid, Math.abs(s - rhs[i])); }
        System.out.println("60x60 solve residual < 1e-9: " + (resid < 1e-9) + " x[0]=" + String.format("%.10f", sol[0]) + " x[59]=" + String.format("%.10f", sol[59]));
        double[][] big = new double[80][80];
        for (int i = 0; i < 80; i++) for (int j = 0; j < 80; j++) big[i][j] = StrictMath.sin(i * 0.1 + j * 0.07);
        double[][] sq = multiply(big, big);
        double trace = 0;
        for (int i = 0; i < 80; i++) trace += sq[i][i];
        System.out.println("trace(big^2) = " + trace + " sq[3][5] = " + sq[3][5]);
        long[][] fibM = {{1, 1}, {1, 0}};
        System.out.println("fib(10^15) mod 1e9+7 = " + matPowMod(fibM, 1_000_000_000_000_000L, 1_000_000_007L)[0][1]);
        double[][] rot = {{StrictMath.cos(Math.PI / 6), -StrictMath.sin(Math.PI / 6)}, {StrictMath.sin(Math.PI / 6), StrictMath.cos(Math.PI / 6)}};
        double[][] r12 = {{1, 0}, {0, 1}};
        for (int i = 0; i < 12; i++) r12 = multiply(r12, rot);
        System.out.println("rotation^12 = " + fmt(r12));
        float[] fv = new float[1000];
        for (int i = 0; i < fv.length; i++) fv[i] = (float) Math.sqrt(i) * 0.001f;
        float fs = 0;
        double dsum = 0;
        for (float f : fv) { fs += f; dsum += f; }
        System.out.println("float accumulation: " + fs + " double accumulation: " + dsum);
    }
}
