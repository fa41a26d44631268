/** Benchmarks Game "mandelbrot": an N x N bitmap of the Mandelbrot set, hashed instead of printed. */
public class Mandelbrot {
    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 8000 : 800;
        int rowBytes = (n + 7) / 8;
        byte[] bits = new byte[rowBytes * n];
        double inv = 2.0 / n;
        for (int y = 0; y < n; y++) {
            double ci = y * inv - 1.0;
            for (int x = 0; x < n; x++) {
                double cr = x * inv - 1.5;
                double zr = 0, zi = 0, tr = 0, ti = 0;
                int i = 0;
                while (i < 50 && tr + ti <= 4.0) {
                    zi = 2.0 * zr * zi + ci;
                    zr = tr - ti + cr;
                    tr = zr * zr;
                    ti = zi * zi;
                    i++;
                }
                if (tr + ti <= 4.0) bits[y * rowBytes + (x >> 3)] |= (byte) (0x80 >>> (x & 7));
            }
        }
        int inside = 0;
        long h = 1469598103934665603L;
        for (byte b : bits) {
            inside += Integer.bitCount(b & 0xFF);
            h = (h ^ (b & 0xFF)) * 1099511628211L;
        }
        System.out.println("Mandelbrot n=" + n + " inside=" + inside + " hash=" + Long.toHexString(h));
    }
}
