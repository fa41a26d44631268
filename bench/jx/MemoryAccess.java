import jx.memory.Memory;

/**
 * Memory objects (jx.memory.Memory) against Java arrays, on jxvm: ns per getByte/setByte,
 * getInt/setInt, getLong/setLong, walking a region sequentially, and MB/s of copyFrom/copyTo
 * against System.arraycopy, each memory-object measurement followed by its array twin from
 * ArrayLoops (same region size, same loop shape, same stored values).
 *
 *   MemoryAccess [REGION_BYTES]   (default 65536; a multiple of 8)
 *
 * Prints "memory.OP UNIT VALUE checksum N" and "array.OP UNIT VALUE checksum N" lines (median of
 * ArrayLoops.REPETITIONS runs after warm-up; 1 MB = 10^6 bytes), then "checksums agree": a
 * memory object and an array that were given the same work must hold the same bytes (memory
 * objects are little-endian, ArrayLoops builds its int[] and long[] little-endian), so a
 * difference is reported as a failure. Only jxvm runs this (HotSpot has no jx.memory).
 */
public final class MemoryAccess {
    // The loops, shaped like ArrayLoops's: element index i, byte offset i * element size.

    static long getByte(Memory m, int elements, int passes) {
        long sum = 0;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < elements; i++) sum += m.getByte(i);
        }
        return sum;
    }

    static long setByte(Memory m, int elements, int passes) {
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < elements; i++) m.setByte(i, (byte) (i ^ p));
        }
        return 0;
    }

    static long getInt(Memory m, int elements, int passes) {
        long sum = 0;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < elements; i++) sum += m.getInt(i << 2);
        }
        return sum;
    }

    static long setInt(Memory m, int elements, int passes) {
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < elements; i++) m.setInt(i << 2, i ^ p);
        }
        return 0;
    }

    static long getLong(Memory m, int elements, int passes) {
        long sum = 0;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < elements; i++) sum += m.getLong(i << 3);
        }
        return sum;
    }

    static long setLong(Memory m, int elements, int passes) {
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < elements; i++) m.setLong(i << 3, (long) i << 32 ^ p);
        }
        return 0;
    }

    static long copyFrom(byte[] src, Memory m, int copies) {
        for (int c = 0; c < copies; c++) m.copyFrom(src, 0, 0, src.length);
        return 0;
    }

    static long copyTo(Memory m, byte[] dst, int copies) {
        for (int c = 0; c < copies; c++) m.copyTo(0, dst, 0, dst.length);
        return 0;
    }

    /** hash() of ArrayLoops over the memory's bytes (read in one copyTo, outside any timing). */
    static long hash(Memory m) {
        byte[] b = new byte[(int) m.size()];
        m.copyTo(0, b, 0, b.length);
        return ArrayLoops.hash(b);
    }

    static int failures = 0;

    /** A memory-object checksum against its array twin's. */
    static void agree(String op, long memory, long array) {
        if (memory != array) {
            System.out.println("FAILED " + op + ": memory checksum " + memory + ", array checksum " + array);
            failures++;
        }
    }

    public static void main(String[] args) {
        int bytes = ArrayLoops.regionBytes(args);
        System.out.println("# MemoryAccess region " + bytes + " bytes, median of " + ArrayLoops.REPETITIONS + " after "
            + ArrayLoops.WARM_UPS + " warm-ups");
        ArrayLoops arrays = new ArrayLoops(bytes);
        // One memory object per element type, like the three arrays, each starting from the
        // same bytes, so each get loop reads what its array twin reads.
        Memory bytesMem = Memory.allocate(bytes);
        Memory intsMem = Memory.allocate(bytes);
        Memory longsMem = Memory.allocate(bytes);
        for (Memory m : new Memory[] {bytesMem, intsMem, longsMem}) m.copyFrom(arrays.bytePattern, 0, 0, bytes);
        Memory copyRegion = Memory.allocate(bytes);
        byte[] copyDst = new byte[bytes];

        int nb = bytes, ni = bytes / 4, nl = bytes / 8;
        int pb = ArrayLoops.passes(nb), pi = ArrayLoops.passes(ni), pl = ArrayLoops.passes(nl);
        int copies = ArrayLoops.copies(bytes);

        // The gets read the pattern, so they run before the sets overwrite it.
        agree("getByte", ArrayLoops.measure("memory.getByte", "ns/op", (long) pb * nb, () -> getByte(bytesMem, nb, pb), null),
            arrays.getByte());
        agree("getInt", ArrayLoops.measure("memory.getInt", "ns/op", (long) pi * ni, () -> getInt(intsMem, ni, pi), null),
            arrays.getInt());
        agree("getLong", ArrayLoops.measure("memory.getLong", "ns/op", (long) pl * nl, () -> getLong(longsMem, nl, pl), null),
            arrays.getLong());
        agree("setByte", ArrayLoops.measure("memory.setByte", "ns/op", (long) pb * nb, () -> setByte(bytesMem, nb, pb),
            () -> hash(bytesMem)), arrays.setByte());
        agree("setInt", ArrayLoops.measure("memory.setInt", "ns/op", (long) pi * ni, () -> setInt(intsMem, ni, pi),
            () -> hash(intsMem)), arrays.setInt());
        agree("setLong", ArrayLoops.measure("memory.setLong", "ns/op", (long) pl * nl, () -> setLong(longsMem, nl, pl),
            () -> hash(longsMem)), arrays.setLong());
        agree("copyFrom", ArrayLoops.measure("memory.copyFrom", "MB/s", (long) copies * bytes,
            () -> copyFrom(arrays.bytePattern, copyRegion, copies), () -> hash(copyRegion)), arrays.copyFrom());
        agree("copyTo", ArrayLoops.measure("memory.copyTo", "MB/s", (long) copies * bytes,
            () -> copyTo(copyRegion, copyDst, copies), () -> ArrayLoops.hash(copyDst)), arrays.copyTo());

        if (failures > 0) {
            System.out.println(failures + " checksums differ");
            System.exit(1);
        }
        System.out.println("checksums agree");
    }
}
