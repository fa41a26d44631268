package jx.ipc;

import java.io.IOException;

/**
 * A channel between two jxvm processes of the same user: object graphs are copied by the VM
 * (cycles and sharing kept) through shared memory, in both directions at once; several
 * threads may send and receive on one channel, each graph arriving whole.
 *
 * <p>Classes are matched by name and shape (field names, types and layout): a class the
 * receiver cannot load, or whose shape differs, is {@link java.io.InvalidClassException} from
 * {@link #receive()}, and the channel stays usable. Strings, boxed values, arrays, records,
 * the JDK's collections and application classes cross; enum constants and {@code Class}
 * objects cross by name (the receiver's own); transient fields of application classes arrive
 * at their default. Threads, class loaders, reflection and method handles, direct buffers,
 * objects holding host resources (file descriptors, channels) and the jx API's objects
 * (memory objects other than shared memory, domains) cannot be sent
 * ({@code IllegalArgumentException}).
 *
 * <p>A portal, or a service (an object implementing a {@link jx.portal.Portal} interface), in a
 * sent graph arrives as a portal whose calls come back over this channel and run in the
 * service's domain in this process (parameters and results copied, exceptions copied back with
 * their stack traces, {@link jx.portal.PortalException} once the channel has ended). The
 * service is kept while the peer holds a portal to it, and released when that portal is
 * collected or the channel ends. A channel collected unclosed stays open while portals cross it.
 */
public final class Channel implements AutoCloseable {
    /**
     * Closes the ends that became unreachable unclosed (their peers see the channel closed),
     * once no portal crosses them any more.
     */
    private static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create();

    /** The VM's id of this end (never reused in a process). */
    private final long id;
    private final String name;

    private Channel(long id, String name) {
        this.id = id;
        this.name = name;
        CLEANER.register(this, () -> drop0(id));
    }

    /**
     * Creates channel {@code name} and waits up to {@code timeoutMillis} for another jxvm
     * process to connect.
     *
     * @throws IOException if the name is invalid or taken, or nobody connects in time
     */
    public static Channel listen(String name, long timeoutMillis) throws IOException, InterruptedException {
        if (name == null) {
            throw new NullPointerException("name");
        }
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        return new Channel(listen0(name, timeoutMillis), name);
    }

    /**
     * Connects to channel {@code name} that another process is listening on.
     *
     * @throws IOException if nobody listens on it
     */
    public static Channel connect(String name) throws IOException {
        if (name == null) {
            throw new NullPointerException("name");
        }
        return new Channel(connect0(name), name);
    }

    /**
     * Copies the graph reachable from {@code obj} to the peer.
     *
     * @throws IllegalArgumentException, with nothing sent, if the graph holds an object that
     *     cannot be copied
     * @throws ChannelClosedException if the peer closed the channel or died
     */
    public void send(Object obj) throws IOException {
        send0(id, obj);
    }

    /**
     * The next graph sent by the peer, waiting for it.
     *
     * @throws ChannelClosedException if the peer has closed the channel or died
     * @throws java.io.InvalidClassException if a class of the graph is missing here or has
     *     another shape (the graph is dropped, the channel stays usable)
     * @throws java.io.StreamCorruptedException if the peer sent a corrupt frame
     */
    public Object receive() throws IOException, InterruptedException {
        return receive0(id, -1);
    }

    /** Like {@link #receive()}, but null if no graph began to arrive within {@code timeoutMillis}. */
    public Object receive(long timeoutMillis) throws IOException, InterruptedException {
        if (timeoutMillis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        return receive0(id, timeoutMillis);
    }

    /**
     * Closes this end; the peer's receive ends with ChannelClosedException once it has read
     * what was sent. Portals that crossed it end too (their calls are PortalException, the
     * services this end exported are released). An end that becomes unreachable is closed by
     * the collector once no portal crosses it.
     */
    @Override
    public void close() {
        close0(id);
    }

    @Override
    public String toString() {
        return "Channel[" + name + "]";
    }

    private static native long listen0(String name, long timeoutMillis) throws IOException, InterruptedException;
    private static native long connect0(String name) throws IOException;
    private static native void send0(long id, Object obj) throws IOException;
    private static native Object receive0(long id, long timeoutMillis) throws IOException, InterruptedException;
    private static native void close0(long id);
    private static native void drop0(long id);
}
