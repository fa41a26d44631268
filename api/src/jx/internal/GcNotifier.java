package jx.internal;

/**
 * Sends the garbage collectors' JMX notifications (what HotSpot's service thread does): runs
 * on a daemon thread the VM starts when a listener first asks for them, and hands each
 * collection of its domain to the collector beans' listeners. Not for programs: only the VM
 * makes one.
 */
public final class GcNotifier implements Runnable {
    private GcNotifier() {}

    @Override
    public void run() {
        for (;;) {
            try {
                send0();
            } catch (RuntimeException e) {
                // A listener's failure does not stop the notifications of the others.
            }
        }
    }

    /** Waits a little for collections and sends a notification for each one there was. */
    private static native void send0();
}
