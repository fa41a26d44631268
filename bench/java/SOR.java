/**
 * Java Grande section 2 "SOR": successive over-relaxation (omega = 1.25) on an N x N grid,
 * updating interior points in place, for a fixed number of sweeps.
 */
public class SOR {
    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 1500 : 300;
        int sweeps = size.equals("large") ? 200 : 100;
        double[][] g = new double[n][n];
        long s = 42;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                s = (s * 6364136223846793005L + 1442695040888963407L);
                g[i][j] = ((s >>> 11) & 0xFFFFF) / (double) 0x100000;
            }
        double omega = 1.25;
        double quarter = omega * 0.25;
        double keep = 1.0 - omega;
        for (int it = 0; it < sweeps; it++) {
            for (int i = 1; i < n - 1; i++) {
                double[] up = g[i - 1], row = g[i], down = g[i + 1];
                for (int j = 1; j < n - 1; j++) {
                    row[j] = quarter * (up[j] + down[j] + row[j - 1] + row[j + 1]) + keep * row[j];
                }
            }
        }
        double sum = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) sum += g[i][j];
        System.out.println("SOR n=" + n + " sweeps=" + sweeps + " sum=" + sum + " g[n/2][n/2]=" + g[n / 2][n / 2]);
    }
}
