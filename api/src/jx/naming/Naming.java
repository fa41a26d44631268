package jx.naming;

import jx.portal.Portal;

/**
 * DomainZero's name service: services are registered by name, lookups return portals (or the
 * service object itself when it lives in the caller's domain).
 */
public final class Naming {
    private Naming() {}

    /**
     * Registers {@code service} under {@code name}, replacing an earlier registration.
     *
     * @throws IllegalArgumentException if the service implements no interface extending Portal
     */
    public static void register(String name, Portal service) {
        if (name == null || service == null) {
            throw new NullPointerException(name == null ? "name" : "service");
        }
        register0(name, service);
    }

    /** The service registered under {@code name}, as {@code type}; null if there is none. */
    public static <T extends Portal> T lookup(String name, Class<T> type) {
        if (name == null || type == null) {
            throw new NullPointerException(name == null ? "name" : "type");
        }
        try {
            return type.cast(lookup0(name, type, 0));
        } catch (InterruptedException e) {
            throw new AssertionError("a lookup that does not wait was interrupted", e);
        }
    }

    /** Like {@link #lookup}, but waits up to {@code timeoutMillis} for the name to be registered. */
    public static <T extends Portal> T await(String name, Class<T> type, long timeoutMillis) throws InterruptedException {
        if (name == null || type == null) {
            throw new NullPointerException(name == null ? "name" : "type");
        }
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        return type.cast(lookup0(name, type, timeoutMillis));
    }

    /** Removes the registration of {@code name} (the service lives on while portals to it do). */
    public static void unregister(String name) {
        unregister0(name);
    }

    private static native void register0(String name, Portal service);
    private static native Object lookup0(String name, Class<?> type, long timeoutMillis) throws InterruptedException;
    private static native void unregister0(String name);
}
