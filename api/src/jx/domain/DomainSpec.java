package jx.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What a new domain is made of and may use; a builder for {@link Domain#create}. */
public final class DomainSpec {
    final String name;
    final List<String> classPath = new ArrayList<>();
    String mainClass;
    final List<String> args = new ArrayList<>();
    long heapLimit;
    long offHeapLimit;
    boolean trusted;
    long cpuTimeLimitMillis;
    int maxThreads;
    int descriptorLimit;
    long metadataLimit;

    private DomainSpec(String name) {
        this.name = name;
    }

    /** A spec for a domain called {@code name} (not empty). */
    public static DomainSpec named(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a domain needs a name");
        }
        return new DomainSpec(name);
    }

    /** Adds class path entries (directories and jars) of the domain's application loader. */
    public DomainSpec classPath(String... entries) {
        for (String e : entries) {
            if (e == null || e.isEmpty() || e.indexOf(':') >= 0) {
                throw new IllegalArgumentException("bad class path entry: " + e);
            }
        }
        classPath.addAll(Arrays.asList(entries));
        return this;
    }

    /** The class whose {@code main(String[])} runs in a thread of the new domain. */
    public DomainSpec mainClass(String className, String... args) {
        if (className == null || className.isEmpty()) {
            throw new IllegalArgumentException("no main class name");
        }
        this.mainClass = className;
        this.args.clear();
        this.args.addAll(Arrays.asList(args));
        return this;
    }

    /** The most heap the domain may use, in bytes (at least 8 MiB). */
    public DomainSpec heapLimit(long bytes) {
        this.heapLimit = positive(bytes, "heap limit");
        return this;
    }

    /**
     * The most off-heap memory the domain may hold, in bytes: memory objects, direct buffers
     * and {@code Unsafe.allocateMemory} together (by default its heap limit). An allocation
     * past it throws {@link OutOfMemoryError}.
     */
    public DomainSpec offHeapLimit(long bytes) {
        this.offHeapLimit = positive(bytes, "off-heap limit");
        return this;
    }

    /**
     * Whether the domain's programs may use {@code sun.misc.Unsafe} as in java (by default
     * they may not: in an untrusted domain Unsafe reaches only the program's own objects'
     * fields, arrays and the native memory it allocated; anything else is a
     * {@link SecurityException}). A domain created by an untrusted one is never trusted.
     */
    public DomainSpec trusted(boolean trusted) {
        this.trusted = trusted;
        return this;
    }

    /** The CPU time the domain's threads may use in all; past it the domain is terminated. */
    public DomainSpec cpuTimeLimit(long millis) {
        this.cpuTimeLimitMillis = positive(millis, "CPU time limit");
        return this;
    }

    /** The most threads the domain may have running at once (its main thread included). */
    public DomainSpec maxThreads(int n) {
        this.maxThreads = (int) positive(n, "thread limit");
        return this;
    }

    /**
     * The most files, sockets, pipes and directory streams the domain may have open at once
     * (by default a quarter of the process's limit on open files, at most its creator's).
     * Opening one more fails as at the process's limit: an {@link java.io.IOException} "Too
     * many open files". What the domain leaves open is closed when it ends.
     */
    public DomainSpec descriptorLimit(int n) {
        this.descriptorLimit = (int) positive(n, "descriptor limit");
        return this;
    }

    /**
     * How much native memory the metadata of the classes the domain and the domains it creates
     * define may take, in bytes (by default its heap limit): classes of their own class
     * loaders, hidden classes, lambda proxies (estimated from their class files; java bounds
     * the same with {@code MaxMetaspaceSize}). A definition past it throws
     * {@link OutOfMemoryError} "Metaspace". Classes that are unloaded give theirs back.
     */
    public DomainSpec metadataLimit(long bytes) {
        this.metadataLimit = positive(bytes, "metadata limit");
        return this;
    }

    private static long positive(long value, String what) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive: " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "DomainSpec[" + name + ", classPath=" + classPath + ", main=" + mainClass + "]";
    }
}
