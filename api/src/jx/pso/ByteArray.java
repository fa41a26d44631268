package jx.pso;

/**
 * An array of bytes of a container: {@link #length()} bytes starting at {@link #offset()}, little-endian.
 * Made by {@link Container#allocateBytes} and {@link Container#bytes}. Every access checks the
 * index ({@link ArrayIndexOutOfBoundsException}), that the container's memory was not revoked
 * ({@link jx.memory.RevokedMemoryException}) and, for {@link #set}, that it is writable
 * ({@link java.nio.ReadOnlyBufferException}).
 */
public final class ByteArray {
    // Set by the VM when it makes the array; no other code writes them.
    private Container container;
    private long offset;
    private int length;

    private ByteArray() {}

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

    public native byte get(int index);

    public native void set(int index, byte value);

    @Override
    public String toString() {
        return "ByteArray[length=" + length + ", offset=" + offset + "]";
    }
}
