// JVMFLAGS: -Xmx64m
import java.util.ArrayList;
import java.util.List;

// Fills the heap with 1 MB arrays until OutOfMemoryError, recovers by dropping them, and does
// it again; then an OutOfMemoryError thrown deep in a call stack is caught several frames up,
// with the frames below unwinding through their finally blocks. Prints no counts that depend
// on the collector (how many arrays fit differs between VMs).
public class GcOutOfMemory {
    static final int MB = 1 << 20;

    static int finallyRuns;
    static List<byte[]> hoard;

    static String fillUntilOom(int round) {
        List<byte[]> list = new ArrayList<>();
        String msg = null;
        try {
            for (int i = 0; i < 100_000; i++) {
                byte[] b = new byte[MB];
                b[0] = (byte) i;
                b[MB - 1] = (byte) (i + round);
                list.add(b);
            }
        } catch (OutOfMemoryError e) {
            int n = list.size();
            list = null;           // drop everything before doing anything else
            msg = e.getMessage();
            if (n < 10) msg += " (too early: " + n + ")";
        }
        return msg;
    }

    static boolean allocateAgain() {
        List<byte[]> list = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            byte[] b = new byte[MB];
            b[i] = (byte) i;
            list.add(b);
        }
        boolean ok = true;
        for (int i = 0; i < 16; i++) ok &= list.get(i)[i] == (byte) i;
        return ok;
    }

    // Recurses `depth` frames, each holding its own small array in a local, then fills the heap
    // (into the static hoard) at the bottom.
    static long deep(int depth, int catchAt) {
        int[] mine = new int[64];
        for (int i = 0; i < mine.length; i++) mine[i] = depth * 1000 + i;
        try {
            if (depth == 0) {
                hoard = new ArrayList<>();
                while (true) hoard.add(new byte[MB]);
            }
            if (depth == catchAt) {
                try {
                    return deep(depth - 1, catchAt);
                } catch (OutOfMemoryError e) {
                    hoard = null;
                    System.out.println("caught at depth " + depth + ": " + e.getMessage());
                }
            } else {
                return deep(depth - 1, catchAt) + 1;
            }
            long s = 0;
            for (int v : mine) s += v;
            return s;
        } finally {
            // every frame verifies its local survived the collections
            boolean intact = true;
            for (int i = 0; i < mine.length; i++) intact &= mine[i] == depth * 1000 + i;
            if (!intact) System.out.println("local array of depth " + depth + " corrupted");
            finallyRuns++;
        }
    }

    public static void main(String[] args) {
        for (int round = 1; round <= 2; round++) {
            System.out.println("round " + round + ": " + fillUntilOom(round));
            System.out.println("round " + round + ": allocate again ok " + allocateAgain());
            System.gc();
            System.out.println("recovered");
        }

        finallyRuns = 0;
        long r = deep(60, 45);
        System.out.println("deep result " + r + ", finally blocks run " + finallyRuns);
        System.out.println("after deep OOM: allocate again ok " + allocateAgain());

        // A single request larger than the heap.
        try {
            long[] huge = new long[100 * MB];
            System.out.println("huge allocated?! " + huge.length);
        } catch (OutOfMemoryError e) {
            System.out.println("huge array: " + e.getMessage());
        }
        // OutOfMemoryError is an ordinary Throwable otherwise.
        try {
            Object[][] grid = new Object[1024][];
            for (int i = 0; i < grid.length; i++) grid[i] = new Object[MB / 8];
            System.out.println("grid allocated?!");
        } catch (OutOfMemoryError e) {
            System.out.println("grid: " + e.getClass().getName() + " " + e.getMessage() + " isError " + (e instanceof Error));
        }
        System.out.println("final allocate ok " + allocateAgain());
        System.out.println("recovered");
    }
}
