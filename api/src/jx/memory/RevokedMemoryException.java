package jx.memory;

/** Thrown when a memory object is used after its range was revoked. */
public class RevokedMemoryException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public RevokedMemoryException(String message) {
        super(message);
    }
}
