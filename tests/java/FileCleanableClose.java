import java.io.*;
import java.nio.file.*;

/** Streams dropped without close: the Cleaner closes their descriptors
 *  (java.io.FileCleanable.cleanupClose0). Counts this process's descriptors in /proc/self/fd. */
public class FileCleanableClose {
    static long fds() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    static boolean drainedTo(long base, long slack) throws Exception {
        long t0 = System.currentTimeMillis();
        while (fds() - base > slack && System.currentTimeMillis() - t0 < 30000) {
            System.gc();
            Thread.sleep(20);
        }
        return fds() - base <= slack;
    }

    public static void main(String[] args) throws Exception {
        File f = File.createTempFile("cleanable", ".txt");
        try {
            Files.writeString(f.toPath(), "data");
            long base = fds();
            for (int i = 0; i < 40; i++) new FileInputStream(f);
            System.out.println("input streams open: " + (fds() - base >= 40));
            System.out.println("input streams closed by the cleaner: " + drainedTo(base, 5));
            base = fds();
            for (int i = 0; i < 40; i++) new FileOutputStream(f, true);
            for (int i = 0; i < 40; i++) new RandomAccessFile(f, "r");
            System.out.println("output streams and random access files open: " + (fds() - base >= 80));
            System.out.println("closed by the cleaner: " + drainedTo(base, 5));
            // A stream closed explicitly is not closed again by the cleaner.
            FileInputStream in = new FileInputStream(f);
            in.close();
            System.gc();
            Thread.sleep(100);
            System.out.println("read after all that: " + Files.readString(f.toPath()));
        } finally {
            f.delete();
        }
    }
}
