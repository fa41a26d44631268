package jx.portal;

/**
 * Marks an interface as callable across domains (JX §2.2). An object of another domain that
 * implements an interface extending {@code Portal} becomes a <em>service</em> when it is
 * registered ({@link jx.naming.Naming#register}) or passed across a portal; the other domain
 * gets a portal: a stub implementing the same interfaces whose calls copy their parameters into
 * the service's domain, run the method there, and copy the result (or the exception) back.
 * Within the service's own domain the service object itself is used, and calls are plain calls.
 */
public interface Portal {
    /** Whether {@code o} is a portal (a stub reaching a service of another domain). */
    static boolean isPortal(Object o) {
        return o instanceof PortalStub;
    }
}
