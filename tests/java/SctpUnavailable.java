import com.sun.nio.sctp.*;
import java.net.InetSocketAddress;

/** SCTP channels (jdk.sctp) where libsctp.so.1 is not installed: SctpNet.socket0 throws
 *  UnsupportedOperationException with the dynamic loader's message, on every attempt. */
public class SctpUnavailable {
    interface Open { Object run() throws Exception; }

    static void attempt(String what, Open o) {
        try {
            Object c = o.run();
            System.out.println(what + ": opened " + c.getClass().getName());
        } catch (Throwable t) {
            System.out.println(what + ": " + t);
            StackTraceElement top = t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
            System.out.println("  thrown by " + (top == null ? "?" : top.getClassName() + "." + top.getMethodName()));
            for (Throwable c = t.getCause(); c != null; c = c.getCause()) System.out.println("  cause " + c);
        }
    }

    public static void main(String[] args) {
        for (int i = 0; i < 2; i++) {
            attempt("SctpChannel.open()", SctpChannel::open);
            attempt("SctpServerChannel.open()", SctpServerChannel::open);
            attempt("SctpMultiChannel.open()", SctpMultiChannel::open);
        }
        attempt("SctpChannel.open(addr)", () -> SctpChannel.open(new InetSocketAddress("127.0.0.1", 9), 1, 1));
    }
}
