/** Benchmarks Game "spectral-norm": power iteration on the infinite matrix A(i,j)=1/((i+j)(i+j+1)/2+i+1). */
public class SpectralNorm {
    static double a(int i, int j) {
        return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
    }

    static void mulAv(double[] v, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += a(i, j) * v[j];
            out[i] = s;
        }
    }

    static void mulAtv(double[] v, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += a(j, i) * v[j];
            out[i] = s;
        }
    }

    static void mulAtAv(double[] v, double[] out, double[] tmp, int n) {
        mulAv(v, tmp, n);
        mulAtv(tmp, out, n);
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 5500 : 400;
        double[] u = new double[n], v = new double[n], tmp = new double[n];
        java.util.Arrays.fill(u, 1.0);
        for (int i = 0; i < 10; i++) {
            mulAtAv(u, v, tmp, n);
            mulAtAv(v, u, tmp, n);
        }
        double vBv = 0, vv = 0;
        for (int i = 0; i < n; i++) {
            vBv += u[i] * v[i];
            vv += v[i] * v[i];
        }
        System.out.println(String.format("SpectralNorm n=%d norm=%.9f", n, Math.sqrt(vBv / vv)));
    }
}
