package jx.pso;

/** {@link Container#allocate} (or an array allocation) does not fit in the container. */
public class ContainerFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ContainerFullException(String message) {
        super(message);
    }
}
