package jx.domain;

/**
 * An isolated program in the VM (JX §2.1): its own heap and collector, static fields, Class
 * mirrors, interned strings and threads; code and class metadata are shared with the other
 * domains. Domains talk through portals ({@code jx.portal}) and share memory objects
 * ({@code jx.memory}); no domain can hold a reference into another's heap.
 *
 * <p>A {@code Domain} object is a handle naming a domain; it stays usable (for
 * {@link #isAlive()}, {@link #stats()}, ...) after the domain has ended. Handles are made by
 * the VM only and are capabilities: the domain they act on is in a VM slot no Java code can
 * read or write, so a handle cannot be made from an id.
 */
public final class Domain {
    private final int id;
    private final String name;

    /** Never called: the VM makes handles (with their slot) and sets these fields. */
    private Domain(int id, String name) {
        this.id = id;
        this.name = name;
    }

    /**
     * Creates a domain from {@code spec} and starts its main class (if the spec names one) in a
     * thread of the new domain. Returns once the domain's class library is initialized.
     *
     * <p>Limits nest: a domain created by a limited domain gets its heap out of its creator's
     * (the heaps of a domain's children sum to at most its own heap limit; by default a child
     * gets what is left, up to the usual default), its off-heap memory and CPU time are counted
     * against its creator's limits too, and none of its limits may exceed its creator's (an
     * unset CPU time or thread limit is its creator's).
     *
     * @throws DomainException if the spec is bad (unknown class path entry or main class, a
     *     limit out of range) or the domain cannot be created
     */
    public static Domain create(DomainSpec spec) {
        if (spec == null) {
            throw new NullPointerException("spec");
        }
        String[] args = spec.args.toArray(new String[0]);
        String[] path = spec.classPath.toArray(new String[0]);
        return create0(spec.name, path, spec.mainClass, args, spec.heapLimit, spec.offHeapLimit, spec.cpuTimeLimitMillis,
                       spec.maxThreads, spec.trusted, spec.descriptorLimit, spec.metadataLimit);
    }

    /** The domain the calling thread runs in. */
    public static Domain current() {
        return current0();
    }

    /** DomainZero, which boots the system and holds the name service. */
    public static Domain zero() {
        return zero0();
    }

    public String name() {
        return name;
    }

    /** The domain's number, unique in this VM process. */
    public int id() {
        return id;
    }

    /** Whether the domain is running: created, and neither terminated nor ended. */
    public boolean isAlive() {
        return isAlive0();
    }

    /**
     * Terminates the domain: stops its threads (at their next safepoint poll; blocked threads
     * are woken), releases its heap, services and memory references. Calls into it then throw
     * {@code jx.portal.PortalException}. A domain may terminate itself; the calling thread then
     * ends too. Terminating DomainZero or the launcher's domain is refused.
     *
     * @throws DomainException for DomainZero or the launcher's domain
     */
    public void terminate() {
        terminate0();
    }

    /**
     * Waits until the domain has ended (terminated, or its threads all finished while it
     * exports no service).
     *
     * @return whether it ended within {@code timeoutMillis}
     */
    public boolean awaitTermination(long timeoutMillis) throws InterruptedException {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        return await0(timeoutMillis);
    }

    /** The domain's resource use and limits now. */
    public DomainStats stats() {
        long[] s = stats0();
        return new DomainStats(s[0], s[1], s[2], (int) s[3], s[4]);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Domain d && d.id == id;
    }

    @Override
    public int hashCode() {
        return id;
    }

    @Override
    public String toString() {
        return "Domain[" + id + " " + name + "]";
    }

    private static native Domain create0(String name, String[] classPath, String mainClass, String[] args,
                                         long heapLimit, long offHeapLimit, long cpuTimeLimitMillis, int maxThreads,
                                         boolean trusted, int descriptorLimit, long metadataLimit);
    private static native Domain current0();
    private static native Domain zero0();
    private native boolean isAlive0();
    private native void terminate0();
    private native boolean await0(long timeoutMillis) throws InterruptedException;
    private native long[] stats0();
}
