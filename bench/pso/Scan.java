import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Jaguar §5.3 (issue 21): the maximum of a file of little-endian ints, scanned through a
 * read-only PSO container (jxvm only), a MappedByteBuffer, and a DataInputStream over a
 * BufferedInputStream (both also on HotSpot). Usage: Scan pso|mapped|stream FILE [ROUNDS];
 * prints the best of ROUNDS (default 5) scans in milliseconds after two warm-up scans, then the
 * maximum.
 */
public class Scan {
    public static void main(String[] args) throws Exception {
        String how = args[0];
        Path file = Path.of(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        double best = Double.MAX_VALUE;
        int max = 0;
        for (int round = 0; round < rounds + 2; round++) {
            long t0 = System.nanoTime();
            max = switch (how) {
                case "pso" -> PsoScan.scan(file);
                case "mapped" -> mapped(file);
                case "stream" -> stream(file);
                default -> throw new IllegalArgumentException(how);
            };
            double ms = (System.nanoTime() - t0) / 1e6;
            if (round >= 2) best = Math.min(best, ms);
        }
        System.out.printf("%.2f\t%d%n", best, max);
    }

    static int mapped(Path file) throws IOException {
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer b = fc.map(FileChannel.MapMode.READ_ONLY, 0, fc.size());
            IntBuffer ints = b.order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
            int max = Integer.MIN_VALUE;
            for (int i = 0, n = ints.limit(); i < n; i++) max = Math.max(max, ints.get(i));
            return max;
        }
    }

    static int stream(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file.toFile())))) {
            int max = Integer.MIN_VALUE;
            while (true) {
                int v;
                try {
                    v = Integer.reverseBytes(in.readInt());
                } catch (EOFException e) {
                    return max;
                }
                max = Math.max(max, v);
            }
        }
    }
}
