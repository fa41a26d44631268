package jx.pso;

/**
 * An array of ints of a container: {@link #length()} ints starting at {@link #offset()}, little-endian.
 * Made by {@link Container#allocateInts} and {@link Container#ints}. Every access checks the
 * index ({@link ArrayIndexOutOfBoundsException}), that the container's memory was not revoked
 * ({@link jx.memory.RevokedMemoryException}) and, for {@link #set}, that it is writable
 * ({@link java.nio.ReadOnlyBufferException}).
 */
public final class IntArray {
    // Set by the VM when it makes the array; no other code writes them.
    private Container container;
    private long offset;
    private int length;

    private IntArray() {}

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

    public native int get(int index);

    public native void set(int index, int value);

    @Override
    public String toString() {
        return "IntArray[length=" + length + ", offset=" + offset + "]";
    }
}
