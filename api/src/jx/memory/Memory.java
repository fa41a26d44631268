package jx.memory;

/**
 * A range of off-heap memory that can be read and written. {@link #readOnly()} gives a view that
 * can never be turned back into a writable one; {@link #revoke()} invalidates every existing view
 * of this range (including sub-ranges and read-only views made from it) and returns a new,
 * valid reference to it. The memory is released when the last reference to it is gone.
 */
public final class Memory extends ReadOnlyMemory {
    private Memory() {}

    /** Allocates {@code size} zeroed bytes. */
    public static native Memory allocate(long size);

    /**
     * Allocates {@code size} zeroed bytes in shared memory. Sent over a {@code jx.ipc.Channel}
     * (inside any graph), such memory arrives in the other process as the same bytes, not a
     * copy: writes on either side are seen by the other, and revoking a range (or a range it
     * was derived from) in one process revokes it in both. Sub-range bounds and read-only-ness
     * are kept across. Memory made by {@link #allocate} cannot be sent
     * (IllegalArgumentException).
     */
    public static native Memory allocateShared(long size);

    public native void setByte(long offset, byte v);
    public native void setShort(long offset, short v);
    public native void setInt(long offset, int v);
    public native void setLong(long offset, long v);

    public void setFloat(long offset, float v) { setInt(offset, Float.floatToRawIntBits(v)); }
    public void setDouble(long offset, double v) { setLong(offset, Double.doubleToRawLongBits(v)); }

    /** Copies {@code length} bytes from {@code src[srcOffset..]} to this memory at {@code offset}. */
    public native void copyFrom(byte[] src, int srcOffset, long offset, int length);

    @Override
    public native Memory subRange(long offset, long length);

    /** A read-only view of this range. */
    public native ReadOnlyMemory readOnly();

    /** Invalidates every existing view of this range; returns a new reference to it. */
    public native Memory revoke();
}
