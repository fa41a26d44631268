package jx.pso;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

import jx.memory.Memory;
import jx.memory.ReadOnlyMemory;

/**
 * Bytes that hold PSOs: a memory object or a mapped file. Allocation is a bump of
 * {@link #used()} and is not synchronized: threads that allocate in one container at once must
 * synchronize themselves. Reads and writes of PSO fields and arrays are like those of Java
 * fields and array elements (no ordering beyond Java's data-race rules).
 *
 * <p>Every access stays inside the container's bytes: a PSO or array is checked against
 * {@link #size()} when it is made, and a reference slot naming bytes outside the container (a
 * corrupt file) throws {@link IndexOutOfBoundsException} when read.
 */
public final class Container {
    /** The bytes (a {@link Memory} when writable). */
    private final ReadOnlyMemory memory;
    /** Whether the bytes are a mapped file (so {@link #force} writes them back). */
    private final boolean mapped;
    private long used;

    private Container(ReadOnlyMemory memory, boolean mapped) {
        this.memory = memory;
        this.mapped = mapped;
    }

    /** A container over {@code memory}'s bytes: revoking the memory revokes its PSOs too. */
    public static Container over(Memory memory) {
        if (!Objects.requireNonNull(memory, "memory").isValid()) {
            throw new jx.memory.RevokedMemoryException("the memory was revoked");
        }
        return new Container(memory, false);
    }

    /** Maps file read-write (created if missing, extended to size bytes if shorter); stores reach the file. */
    public static Container map(Path file, long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
            if (fc.size() < size) {
                fc.write(ByteBuffer.wrap(new byte[1]), size - 1);
            }
            return new Container(map0(fc, size, true), true);
        }
    }

    /** Maps all of file read-only: every write through it throws ReadOnlyBufferException. */
    public static Container mapReadOnly(Path file) throws IOException {
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            return new Container(map0(fc, fc.size(), false), true);
        }
    }

    /** The container's size in bytes. */
    public long size() {
        return memory.size();
    }

    /** Bytes in use: allocation continues at used(), rounded up to 8. */
    public long used() {
        return used;
    }

    /** Sets where allocation continues (0 to {@link #size()}), for example after recovery. */
    public void setUsed(long used) {
        if (used < 0 || used > size()) {
            throw new IllegalArgumentException("used " + used + " outside 0.." + size());
        }
        this.used = used;
    }

    /** Whether PSOs and arrays of this container can be written. */
    public boolean isReadOnly() {
        return !(memory instanceof Memory);
    }

    /** A new PSO of type at used() (zeroed; its no-argument constructor, of any access, runs);
        ContainerFullException if it does not fit. */
    @SuppressWarnings("unchecked") // allocate0 makes an instance of type
    public <T extends PSO> T allocate(Class<T> type) {
        return (T) allocate0(Objects.requireNonNull(type));
    }

    /** The PSO of type whose bytes start at offset (recovery); IndexOutOfBoundsException if they do not fit. */
    @SuppressWarnings("unchecked") // make0 makes an instance of type
    public <T extends PSO> T at(Class<T> type, long offset) {
        return (T) make0(Objects.requireNonNull(type), offset, false);
    }

    public IntArray allocateInts(int length) {
        return (IntArray) allocateArray(IntArray.class, length, 4);
    }

    public LongArray allocateLongs(int length) {
        return (LongArray) allocateArray(LongArray.class, length, 8);
    }

    public DoubleArray allocateDoubles(int length) {
        return (DoubleArray) allocateArray(DoubleArray.class, length, 8);
    }

    public ByteArray allocateBytes(int length) {
        return (ByteArray) allocateArray(ByteArray.class, length, 1);
    }

    /** The ints at offset (recovery); IndexOutOfBoundsException if they do not fit. */
    public IntArray ints(long offset, int length) {
        return (IntArray) array0(IntArray.class, offset, length, false);
    }

    public LongArray longs(long offset, int length) {
        return (LongArray) array0(LongArray.class, offset, length, false);
    }

    public DoubleArray doubles(long offset, int length) {
        return (DoubleArray) array0(DoubleArray.class, offset, length, false);
    }

    public ByteArray bytes(long offset, int length) {
        return (ByteArray) array0(ByteArray.class, offset, length, false);
    }

    /** Writes a mapped file's changes to the device (msync); nothing for memory. */
    public void force() throws IOException {
        if (mapped) {
            force0(memory);
        }
    }

    @Override
    public String toString() {
        return "Container[size=" + size() + ", used=" + used + (isReadOnly() ? ", read-only" : "")
                + (mapped ? ", mapped" : "") + "]";
    }

    private Object allocateArray(Class<?> type, int length, int elementSize) {
        if (length < 0) {
            throw new NegativeArraySizeException(Integer.toString(length));
        }
        long bytes = (long) length * elementSize;
        long at = next(bytes, type.getSimpleName() + " of " + length);
        Object a = array0(type, at, length, true);
        used = at + bytes;
        return a;
    }

    /** Where an allocation of {@code bytes} starts, or ContainerFullException. */
    private long next(long bytes, String what) {
        long at = (used + 7) & ~7L;
        if (at < used || at > size() || bytes > size() - at) {
            throw new ContainerFullException(what + " (" + bytes + " bytes) does not fit at "
                    + at + " in a container of " + size() + " bytes");
        }
        return at;
    }

    private static native ReadOnlyMemory map0(FileChannel fc, long size, boolean writable)
            throws IOException;

    private static native void force0(ReadOnlyMemory memory) throws IOException;

    /** A new PSO of type at used() rounded up to 8, zeroed and constructed; moves used(). */
    private native PSO allocate0(Class<?> type);

    private native PSO make0(Class<?> type, long offset, boolean fresh);

    private native Object array0(Class<?> type, long offset, int length, boolean fresh);
}
