import java.util.Arrays;
import java.util.Locale;

/**
 * The Java-array half of the jx memory-object benchmark, and the timing harness both halves
 * share. It references nothing from jx.*, so HotSpot (java -Xint, java) can run it alone for a
 * side-by-side figure; MemoryAccess runs the same loops on jxvm next to its memory-object loops.
 *
 *   ArrayLoops [REGION_BYTES]     (default 65536; a multiple of 8)
 *
 * Prints one line per measurement, "array.OP UNIT VALUE checksum N" (UNIT is ns/op, or MB/s for
 * the bulk copies, 1 MB = 10^6 bytes); every line is the same on every VM apart from VALUE.
 */
public final class ArrayLoops {
    /** Timed repetitions per measurement; the median is reported, so one disturbed run does not move it. */
    static final int REPETITIONS = 7;
    /** Untimed runs first: on HotSpot they let the JIT compile the loop (on back-edge counts). */
    static final int WARM_UPS = 2;
    /**
     * Element accesses per timed repetition. Fixed rather than calibrated to a time, so the
     * checksums (and the whole output apart from the figures) do not depend on the machine;
     * 2^22 accesses take 30 to 200 ms on an interpreter, about a millisecond with a JIT.
     */
    static final long ACCESSES_PER_REPETITION = 1L << 22;
    /** Bytes moved per timed repetition of a bulk copy (256 MiB: a few ms at cache speed). */
    static final long COPY_BYTES_PER_REPETITION = 256L << 20;

    /** One timed repetition; returns a value derived from all the work it did. */
    interface Work {
        long run();
    }

    /** What a measurement's checksum is, computed after the timed runs (for loops that only store). */
    interface Check {
        long value();
    }

    /**
     * Runs {@code work} WARM_UPS + REPETITIONS times, checks every run returned the same value
     * (the loops are deterministic, so a difference is a VM bug, not noise), and prints
     * "NAME UNIT VALUE checksum N". {@code amount} is the operations (ns/op) or bytes (MB/s) of
     * one run; {@code check} is null when the runs' own result is the checksum.
     */
    static long measure(String name, String unit, long amount, Work work, Check check) {
        long[] nanos = new long[REPETITIONS];
        long result = 0;
        for (int r = -WARM_UPS; r < REPETITIONS; r++) {
            long start = System.nanoTime();
            long v = work.run();
            long elapsed = System.nanoTime() - start;
            if (r == -WARM_UPS) result = v;
            else if (v != result) throw new AssertionError(name + ": run " + r + " returned " + v + ", the first " + result);
            if (r >= 0) nanos[r] = elapsed;
        }
        Arrays.sort(nanos);
        // At least one nanosecond, so a loop a JIT made trivial reads as a huge rate, not a division by zero.
        double median = Math.max(1, nanos[REPETITIONS / 2]);
        double value = unit.equals("MB/s") ? amount * 1e3 / median : median / amount;
        long checksum = check == null ? result : check.value();
        System.out.println(name + " " + unit + " " + String.format(Locale.ROOT, "%.3f", value) + " checksum " + checksum);
        return checksum;
    }

    /** The bytes every region starts from: a fixed pseudo-random sequence (64-bit LCG, high byte). */
    static byte[] pattern(int bytes) {
        byte[] b = new byte[bytes];
        long x = 0x243F6A8885A308D3L;
        for (int k = 0; k < bytes; k++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            b[k] = (byte) (x >>> 56);
        }
        return b;
    }

    /** The little-endian ints of {@code b}, so int[] and a memory object hold the same values. */
    static int[] ints(byte[] b) {
        int[] a = new int[b.length / 4];
        for (int i = 0; i < a.length; i++) {
            int k = 4 * i;
            a[i] = (b[k] & 0xFF) | (b[k + 1] & 0xFF) << 8 | (b[k + 2] & 0xFF) << 16 | (b[k + 3] & 0xFF) << 24;
        }
        return a;
    }

    /** The little-endian longs of {@code b}. */
    static long[] longs(byte[] b) {
        long[] a = new long[b.length / 8];
        for (int i = 0; i < a.length; i++) {
            long v = 0;
            for (int j = 7; j >= 0; j--) v = v << 8 | (b[8 * i + j] & 0xFF);
            a[i] = v;
        }
        return a;
    }

    /** FNV-1a over bytes: the checksum of a region after stores, comparable across element types. */
    static long hash(byte[] b) {
        long h = 0xcbf29ce484222325L;
        for (byte x : b) h = (h ^ (x & 0xFF)) * 0x100000001b3L;
        return h;
    }

    /** hash() of the little-endian bytes of {@code a}. */
    static long hash(int[] a) {
        long h = 0xcbf29ce484222325L;
        for (int v : a) {
            for (int j = 0; j < 4; j++) h = (h ^ (v >>> 8 * j & 0xFF)) * 0x100000001b3L;
        }
        return h;
    }

    /** hash() of the little-endian bytes of {@code a}. */
    static long hash(long[] a) {
        long h = 0xcbf29ce484222325L;
        for (long v : a) {
            for (int j = 0; j < 8; j++) h = (h ^ (v >>> 8 * j & 0xFF)) * 0x100000001b3L;
        }
        return h;
    }

    // The loops. Each pass walks the whole region in order; the memory-object loops of
    // MemoryAccess have the same shape (same index, same stored values), so the figures differ
    // only by the cost of the access itself (a memory object also turns the index into a byte
    // offset, which an array access does in the VM).

    static long getByte(byte[] a, int passes) {
        long sum = 0;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < a.length; i++) sum += a[i];
        }
        return sum;
    }

    static long setByte(byte[] a, int passes) {
        for (int p = 0; p < passes; p++) {
            // The stored value depends on the pass, so no pass's stores are redundant.
            for (int i = 0; i < a.length; i++) a[i] = (byte) (i ^ p);
        }
        return 0;
    }

    static long getInt(int[] a, int passes) {
        long sum = 0;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < a.length; i++) sum += a[i];
        }
        return sum;
    }

    static long setInt(int[] a, int passes) {
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < a.length; i++) a[i] = i ^ p;
        }
        return 0;
    }

    static long getLong(long[] a, int passes) {
        long sum = 0;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < a.length; i++) sum += a[i];
        }
        return sum;
    }

    static long setLong(long[] a, int passes) {
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < a.length; i++) a[i] = (long) i << 32 ^ p;
        }
        return 0;
    }

    static long copyInto(byte[] src, byte[] region, int copies) {
        for (int c = 0; c < copies; c++) System.arraycopy(src, 0, region, 0, region.length);
        return 0;
    }

    static long copyOutOf(byte[] region, byte[] dst, int copies) {
        for (int c = 0; c < copies; c++) System.arraycopy(region, 0, dst, 0, region.length);
        return 0;
    }

    /** The region size from the first non-flag argument (default 64 KiB). */
    static int regionBytes(String[] args) {
        int bytes = 65536;
        for (String a : args) {
            if (!a.startsWith("-")) bytes = Integer.parseInt(a);
        }
        if (bytes < 8 || bytes % 8 != 0) throw new IllegalArgumentException("region size must be a positive multiple of 8: " + bytes);
        return bytes;
    }

    /** Passes over a region of {@code elements} elements that make about ACCESSES_PER_REPETITION accesses. */
    static int passes(int elements) {
        return (int) Math.max(1, ACCESSES_PER_REPETITION / elements);
    }

    static int copies(int bytes) {
        return (int) Math.max(1, COPY_BYTES_PER_REPETITION / bytes);
    }

    // The arrays of one run. The measurement methods below each print one line and return its
    // checksum; MemoryAccess calls them one by one between its own, so that a memory-object loop
    // and its array twin run close together in time (machine noise falls on both alike).
    final int bytes;
    final byte[] bytePattern;
    final byte[] byteArray;
    final int[] intArray;
    final long[] longArray;
    final byte[] copyRegion;
    final byte[] copyDst;

    ArrayLoops(int bytes) {
        this.bytes = bytes;
        bytePattern = pattern(bytes);
        byteArray = bytePattern.clone();
        intArray = ints(bytePattern);
        longArray = longs(bytePattern);
        copyRegion = new byte[bytes];
        copyDst = new byte[bytes];
    }

    long getByte() {
        int n = passes(bytes);
        return measure("array.getByte", "ns/op", (long) n * bytes, () -> getByte(byteArray, n), null);
    }

    long getInt() {
        int n = passes(bytes / 4);
        return measure("array.getInt", "ns/op", (long) n * (bytes / 4), () -> getInt(intArray, n), null);
    }

    long getLong() {
        int n = passes(bytes / 8);
        return measure("array.getLong", "ns/op", (long) n * (bytes / 8), () -> getLong(longArray, n), null);
    }

    long setByte() {
        int n = passes(bytes);
        return measure("array.setByte", "ns/op", (long) n * bytes, () -> setByte(byteArray, n), () -> hash(byteArray));
    }

    long setInt() {
        int n = passes(bytes / 4);
        return measure("array.setInt", "ns/op", (long) n * (bytes / 4), () -> setInt(intArray, n), () -> hash(intArray));
    }

    long setLong() {
        int n = passes(bytes / 8);
        return measure("array.setLong", "ns/op", (long) n * (bytes / 8), () -> setLong(longArray, n), () -> hash(longArray));
    }

    /** System.arraycopy into the region: the twin of Memory.copyFrom. */
    long copyFrom() {
        int n = copies(bytes);
        return measure("array.copyFrom", "MB/s", (long) n * bytes, () -> copyInto(bytePattern, copyRegion, n), () -> hash(copyRegion));
    }

    /** System.arraycopy out of the region (filled by copyFrom): the twin of Memory.copyTo. */
    long copyTo() {
        int n = copies(bytes);
        return measure("array.copyTo", "MB/s", (long) n * bytes, () -> copyOutOf(copyRegion, copyDst, n), () -> hash(copyDst));
    }

    public static void main(String[] args) {
        int bytes = regionBytes(args);
        System.out.println("# ArrayLoops region " + bytes + " bytes, median of " + REPETITIONS + " after " + WARM_UPS + " warm-ups");
        ArrayLoops a = new ArrayLoops(bytes);
        // The gets read the pattern, so they run before the sets overwrite it (same order as MemoryAccess).
        a.getByte();
        a.getInt();
        a.getLong();
        a.setByte();
        a.setInt();
        a.setLong();
        a.copyFrom();
        a.copyTo();
    }
}
