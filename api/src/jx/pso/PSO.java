package jx.pso;

/**
 * A Pre-Serialized Object: the instance fields a subclass declares live in its container, laid
 * out as a C struct of the same fields in declaration order (superclass fields first, each
 * aligned to its size, the whole rounded up to 8, little-endian). Such a field may be a
 * primitive or a reference to another PSO of the same container, which the container holds as
 * 1 + the target's offset (0 for null). Plain Java field accesses read and write the container.
 *
 * <p>PSOs are made only by {@link Container#allocate} (which runs the no-argument constructor)
 * and {@link Container#at} (which recovers an object from its bytes).
 */
public abstract class PSO {
    // Set by the VM before any constructor runs; no other code writes them.
    private Container container;
    private long offset;

    /** Throws IllegalStateException unless called while Container.allocate or at creates the object. */
    protected PSO() {
        if (container == null) {
            throw new IllegalStateException(
                    "a PSO is made only by Container.allocate or Container.at, not by new");
        }
    }

    /** The container this object's fields live in. */
    public final Container container() {
        return container;
    }

    /** Where this object's bytes start in its container. */
    public final long offset() {
        return offset;
    }

    /** The number of bytes an instance of type takes in a container. */
    public static long sizeOf(Class<? extends PSO> type) {
        return sizeOf0(java.util.Objects.requireNonNull(type, "type"));
    }

    private static native long sizeOf0(Class<?> type);

    @Override
    public String toString() {
        return getClass().getName() + "@" + offset;
    }
}
