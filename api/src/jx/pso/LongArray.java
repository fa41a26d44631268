package jx.pso;

/**
 * An array of longs of a container: {@link #length()} longs starting at {@link #offset()}, little-endian.
 * Made by {@link Container#allocateLongs} and {@link Container#longs}. Every access checks the
 * index ({@link ArrayIndexOutOfBoundsException}), that the container's memory was not revoked
 * ({@link jx.memory.RevokedMemoryException}) and, for {@link #set}, that it is writable
 * ({@link java.nio.ReadOnlyBufferException}).
 */
public final class LongArray {
    // Set by the VM when it makes the array; no other code writes them.
    private Container container;
    private long offset;
    private int length;

    private LongArray() {}

    /** The container holding the elements. */
    public Container container() {
        return container;
    }

    public int length() {
        return length;
    }

    /** Where the first element starts in the container. */
    public long offset() {
        return offset;
    }

    public native long get(int index);

    public native void set(int index, long value);

    @Override
    public String toString() {
        return "LongArray[length=" + length + ", offset=" + offset + "]";
    }
}
