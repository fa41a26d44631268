import java.io.FileInputStream;
import java.io.IOException;

/**
 * Read throughput of one file by buffer size (issue 22; Libra Figure 5): for each size, one
 * pass to warm whatever caches there are, then five trials, each of whole passes until a
 * quarter of a second has gone by; the best trial counts (the machine is shared, and load only
 * ever slows a trial down). Prints "size-in-bytes TAB MiB/s" per size.
 */
public class NinepBench {
    static long pass(String path, byte[] buf) throws IOException {
        long total = 0;
        try (FileInputStream in = new FileInputStream(path)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
            }
        }
        return total;
    }

    public static void main(String[] args) throws IOException {
        String path = args[0];
        for (int size = 1 << 10; size <= 1 << 20; size <<= 2) {
            byte[] buf = new byte[size];
            pass(path, buf);
            double best = 0;
            for (int trial = 0; trial < 5; trial++) {
                long bytes = 0;
                long start = System.nanoTime();
                long elapsed;
                do {
                    bytes += pass(path, buf);
                    elapsed = System.nanoTime() - start;
                } while (elapsed < 250_000_000L);
                best = Math.max(best, bytes / (1024.0 * 1024.0) / (elapsed / 1e9));
            }
            System.out.printf("%d\t%.0f%n", size, best);
        }
    }
}
