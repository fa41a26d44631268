package jx.portal;

/**
 * A portal call could not be made: the service is gone or its domain has ended, a parameter
 * or result cannot be copied (a Class, a Thread, ...), or the copied graph exceeds the per-call
 * quota; for a portal to another process, also the channel has ended (closed, or the peer
 * died) before the reply.
 */
public class PortalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PortalException(String message) {
        super(message);
    }
}
