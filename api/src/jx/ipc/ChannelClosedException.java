package jx.ipc;

/** The peer closed the channel or died (or this end closed it). */
public class ChannelClosedException extends java.io.IOException {
    private static final long serialVersionUID = 1L;

    public ChannelClosedException(String message) {
        super(message);
    }
}
