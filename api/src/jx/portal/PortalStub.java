package jx.portal;

/**
 * The superclass of every portal: the VM makes, per set of Portal interfaces, a final
 * subclass implementing them whose methods are native calls into the service's domain
 * ({@code crates/vm/src/domain/stub.rs}). {@code equals}, {@code hashCode} and
 * {@code toString} are the portal's own and never cross. Made by the VM only.
 */
abstract class PortalStub {
    // The VM's id of the service this portal reaches lives in a VM slot after the fields,
    // which no Java code can read or write: a portal cannot be pointed at another service.

    private PortalStub() {}

    /** The id of the service this portal reaches. */
    private native long service();

    @Override
    public String toString() {
        return "Portal[" + service() + "]";
    }
}
