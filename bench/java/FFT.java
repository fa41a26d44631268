/**
 * Java Grande section 2 "FFT": in-place iterative radix-2 complex FFT of N points, forward
 * then inverse, repeated; checks that the round trip recovers the input.
 */
public class FFT {
    /** data holds n complex numbers interleaved (re, im); sign is -1 forward, +1 inverse. */
    static void transform(double[] data, int n, int sign) {
        // bit-reversal permutation
        for (int i = 0, j = 0; i < n; i++) {
            if (i < j) {
                double tr = data[2 * i], ti = data[2 * i + 1];
                data[2 * i] = data[2 * j];
                data[2 * i + 1] = data[2 * j + 1];
                data[2 * j] = tr;
                data[2 * j + 1] = ti;
            }
            int bit = n >> 1;
            while (bit >= 1 && (j & bit) != 0) {
                j &= ~bit;
                bit >>= 1;
            }
            j |= bit;
        }
        for (int len = 2; len <= n; len <<= 1) {
            double theta = sign * 2.0 * Math.PI / len;
            double wpr = Math.cos(theta), wpi = Math.sin(theta);
            int half = len >> 1;
            double wr = 1.0, wi = 0.0;
            for (int k = 0; k < half; k++) {
                for (int i = k; i < n; i += len) {
                    int a = 2 * i, b = 2 * (i + half);
                    double xr = wr * data[b] - wi * data[b + 1];
                    double xi = wr * data[b + 1] + wi * data[b];
                    data[b] = data[a] - xr;
                    data[b + 1] = data[a + 1] - xi;
                    data[a] += xr;
                    data[a + 1] += xi;
                }
                double t = wr;
                wr = wr * wpr - wi * wpi;
                wi = wi * wpr + t * wpi;
            }
        }
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 1 << 20 : 1 << 16;
        int reps = size.equals("large") ? 8 : 6;
        double[] orig = new double[2 * n];
        long s = 7;
        for (int i = 0; i < 2 * n; i++) {
            s = s * 1103515245L + 12345L & 0x7fffffffL;
            orig[i] = (s % 20000) / 10000.0 - 1.0;
        }
        double[] data = orig.clone();
        double spectrum = 0, maxErr = 0;
        for (int r = 0; r < reps; r++) {
            transform(data, n, -1);
            double e = 0;
            for (int i = 0; i < 2 * n; i++) e += Math.abs(data[i]);
            spectrum = e;
            transform(data, n, 1);
            for (int i = 0; i < 2 * n; i++) data[i] /= n;
        }
        for (int i = 0; i < 2 * n; i++) maxErr = Math.max(maxErr, Math.abs(data[i] - orig[i]));
        System.out.println(String.format("FFT n=%d reps=%d spectrumL1=%.6e roundTripOk=%b", n, reps,
                spectrum, maxErr < 1e-9));
    }
}
