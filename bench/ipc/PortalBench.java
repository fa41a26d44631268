import jx.ipc.Channel;
import jx.portal.Portal;

/**
 * The null cross-process portal call (bench/ipc-run): `server NAME` sends a portal to a Nop
 * service and serves it until the channel closes; `client NAME` calls `nop()` on it in 25
 * batches of 2000 (after 5 for warming up) and prints the median microseconds per call.
 */
public class PortalBench {
    public interface Nop extends Portal {
        void nop();
    }

    static final class NopService implements Nop {
        public void nop() {}
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("server")) {
            try (Channel ch = Channel.listen(args[1], 60_000)) {
                ch.send(new NopService());
                ch.receive();
            } catch (jx.ipc.ChannelClosedException e) {
                // the client is done
            }
            return;
        }
        Channel ch = null;
        for (int i = 0; ch == null; i++) {
            try {
                ch = Channel.connect(args[1]);
            } catch (java.io.IOException e) {
                if (i > 3000) throw e;
                Thread.sleep(10);
            }
        }
        Nop nop = (Nop) ch.receive();
        final int batches = 25, calls = 2000;
        double[] per = new double[batches];
        for (int b = -5; b < batches; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) nop.nop();
            if (b >= 0) per[b] = (System.nanoTime() - start) / 1e3 / calls;
        }
        java.util.Arrays.sort(per);
        System.out.printf("%.1f%n", per[batches / 2]);
        ch.close();
    }
}
