package jx.domain;

/** A domain could not be created or acted on (a bad spec, a refused operation). */
public class DomainException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DomainException(String message) {
        super(message);
    }
}
