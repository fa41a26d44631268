package jx.portal;

/**
 * The superclass of every portal: the VM makes, per set of Portal interfaces, a final
 * subclass implementing them whose methods are native calls into the service's domain
 * ({@code crates/vm/src/domain/stub.rs}). {@code equals}, {@code hashCode} and
 * {@code toString} are the portal's own and never cross. Made by the VM only.
 */
abstract class PortalStub {
    /** The VM's id of the service this portal reaches (written by the VM). */
    private long service;

    private PortalStub() {}

    @Override
    public String toString() {
        return "Portal[" + service + "]";
    }
}
