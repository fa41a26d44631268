// JVMFLAGS: -Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.PollSelectorProvider
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.util.*;

/** The poll(2) selector (sun.nio.ch.PollSelectorImpl.poll), chosen by a system property:
 *  accept, connect, read and write readiness, pipes, timeouts, wakeup. */
public class PollSelector {
    public static void main(String[] args) throws Exception {
        try (Selector sel = Selector.open()) {
            System.out.println("selector: " + sel.getClass().getName());
            long t0 = System.nanoTime();
            System.out.println("select(50) with nothing registered: " + sel.select(50)
                    + " waited: " + ((System.nanoTime() - t0) / 1_000_000 >= 40));
            System.out.println("selectNow: " + sel.selectNow());

            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            server.register(sel, SelectionKey.OP_ACCEPT);
            SocketChannel client = SocketChannel.open();
            client.configureBlocking(false);
            if (!client.connect(server.getLocalAddress())) {
                client.register(sel, SelectionKey.OP_CONNECT);
            }
            SocketChannel accepted = null;
            List<String> events = new ArrayList<>();
            for (int i = 0; i < 50 && (accepted == null || !client.isConnected()); i++) {
                sel.select(1000);
                for (Iterator<SelectionKey> it = sel.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (k.isAcceptable() && accepted == null) {
                        accepted = server.accept();
                        accepted.configureBlocking(false);
                        events.add("accept");
                    } else if (k.isConnectable()) {
                        client.finishConnect();
                        k.interestOps(0);
                        events.add("connect");
                    }
                }
            }
            System.out.println("accepted: " + events.contains("accept") + " connected: " + client.isConnected());

            SelectionKey rk = accepted.register(sel, SelectionKey.OP_READ);
            System.out.println("nothing to read yet: " + sel.selectNow());
            client.write(ByteBuffer.wrap("ping over poll".getBytes()));
            int n = sel.select(2000);
            System.out.println("readable: " + n + " " + rk.isReadable());
            ByteBuffer b = ByteBuffer.allocate(64);
            while (b.position() < 14) {
                accepted.read(b);
            }
            sel.selectedKeys().clear();
            System.out.println("read: " + new String(b.array(), 0, b.position()));
            rk.interestOps(SelectionKey.OP_WRITE);
            System.out.println("writable: " + sel.select(2000) + " " + rk.isWritable());
            sel.selectedKeys().clear();
            rk.cancel();

            // A pipe.
            Pipe p = Pipe.open();
            p.source().configureBlocking(false);
            SelectionKey pk = p.source().register(sel, SelectionKey.OP_READ);
            System.out.println("pipe empty: " + sel.selectNow());
            p.sink().write(ByteBuffer.wrap(new byte[] {7}));
            System.out.println("pipe readable: " + sel.select(2000) + " " + pk.isReadable());
            sel.selectedKeys().clear();
            ByteBuffer one = ByteBuffer.allocate(1);
            p.source().read(one);
            System.out.println("pipe byte: " + one.get(0));

            // wakeup from another thread ends a select with no timeout.
            Thread w = new Thread(() -> {
                try { Thread.sleep(100); } catch (InterruptedException e) { }
                sel.wakeup();
            });
            w.start();
            System.out.println("woken: " + sel.select());
            w.join();
            // Peer closes: readable, then end of stream.
            client.close();
            rk = accepted.register(sel, SelectionKey.OP_READ);
            sel.select(2000);
            b.clear();
            System.out.println("after close read: " + accepted.read(b));
            accepted.close();
            server.close();
            p.sink().close();
            p.source().close();
        }
    }
}
