package jx.memory;

/**
 * A range of off-heap memory that can be read but not written through this reference. Memory
 * objects are provided by the VM (see {@link Memory#allocate}); they are passed between domains
 * by reference, never copied. All multi-byte values are little-endian and may be unaligned.
 *
 * <p>Every access checks the offset against {@link #size()} ({@link IndexOutOfBoundsException})
 * and that the range was not revoked ({@link RevokedMemoryException}).
 */
public class ReadOnlyMemory {
    /** Only the VM creates memory objects. */
    ReadOnlyMemory() {}

    /** The length of this range in bytes. */
    public native long size();

    public native byte getByte(long offset);
    public native short getShort(long offset);
    public native int getInt(long offset);
    public native long getLong(long offset);

    public float getFloat(long offset) { return Float.intBitsToFloat(getInt(offset)); }
    public double getDouble(long offset) { return Double.longBitsToDouble(getLong(offset)); }

    /** Copies {@code length} bytes starting at {@code offset} into {@code dst[dstOffset..]}. */
    public native void copyTo(long offset, byte[] dst, int dstOffset, int length);

    /** A view of {@code length} bytes starting at {@code offset}, sharing this memory. */
    public native ReadOnlyMemory subRange(long offset, long length);

    /** Whether this view can still be used (it was not revoked). */
    public native boolean isValid();

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size() + (isValid() ? "" : ", revoked") + "]";
    }
}
