package jx.portal;

/**
 * A portal call could not be made: the service is gone or its domain has ended, a parameter
 * or result cannot be copied (a Class, a Thread, ...), or the copied graph exceeds the per-call
 * quota.
 */
public class PortalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PortalException(String message) {
        super(message);
    }
}
