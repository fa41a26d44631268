/**
 * Java Grande section 2 "SparseMatmult": y = A x for a random sparse N x N matrix in
 * coordinate form (row, col, value arrays), repeated many times.
 */
public class SparseMatmult {
    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        boolean large = size.equals("large");
        int n = large ? 100000 : 10000;
        int nz = large ? 500000 : 50000;
        int reps = large ? 3000 : 400;
        int[] row = new int[nz], col = new int[nz];
        double[] val = new double[nz];
        double[] x = new double[n], y = new double[n];
        long s = 101;
        for (int i = 0; i < n; i++) {
            s = s * 25214903917L + 11L & ((1L << 48) - 1);
            x[i] = (s >>> 17) / (double) (1L << 31);
        }
        for (int k = 0; k < nz; k++) {
            s = s * 25214903917L + 11L & ((1L << 48) - 1);
            row[k] = (int) ((s >>> 16) % n);
            s = s * 25214903917L + 11L & ((1L << 48) - 1);
            col[k] = (int) ((s >>> 16) % n);
            s = s * 25214903917L + 11L & ((1L << 48) - 1);
            val[k] = (s >>> 17) / (double) (1L << 31);
        }
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < nz; k++) y[row[k]] += val[k] * x[col[k]];
        }
        double sum = 0;
        for (int i = 0; i < n; i++) sum += y[i];
        System.out.println("SparseMatmult n=" + n + " nz=" + nz + " reps=" + reps + " sum=" + sum);
    }
}
