import java.io.IOException;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

public class NetChannels {
    static final int N = 50;

    public static void main(String[] args) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        // Blocking mode first.
        try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
            ssc.bind(new InetSocketAddress(lo, 0));
            SocketChannel c = SocketChannel.open(ssc.getLocalAddress());
            SocketChannel s = ssc.accept();
            System.out.println("blocking connected=" + c.isConnected() + " accepted blocking=" + s.isBlocking());
            c.write(ByteBuffer.wrap("ping".getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer b = ByteBuffer.allocate(16);
            while (b.position() < 4) s.read(b);
            b.flip();
            System.out.println("blocking got " + StandardCharsets.US_ASCII.decode(b));
            c.shutdownOutput();
            System.out.println("read after shutdown=" + s.read(ByteBuffer.allocate(4)));
            c.close();
            s.close();
        }

        // Non-blocking echo with a Selector.
        Selector sel = Selector.open();
        ServerSocketChannel ssc = ServerSocketChannel.open();
        ssc.bind(new InetSocketAddress(lo, 0));
        ssc.configureBlocking(false);
        ssc.register(sel, SelectionKey.OP_ACCEPT);
        SocketAddress addr = ssc.getLocalAddress();

        SocketChannel client = SocketChannel.open();
        client.configureBlocking(false);
        boolean immediate = client.connect(addr);
        SelectionKey ck = client.register(sel, immediate ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT);

        int sent = 0, echoed = 0;
        StringBuilder received = new StringBuilder();
        ByteBuffer out = null;
        boolean accepted = false, connected = immediate;
        long deadline = System.currentTimeMillis() + 20000;
        while (echoed < N && System.currentTimeMillis() < deadline) {
            sel.select(1000);
            Iterator<SelectionKey> it = sel.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey k = it.next();
                it.remove();
                if (!k.isValid()) continue;
                if (k.isAcceptable()) {
                    SocketChannel sc = ((ServerSocketChannel) k.channel()).accept();
                    if (sc != null) {
                        sc.configureBlocking(false);
                        sc.register(sel, SelectionKey.OP_READ, ByteBuffer.allocate(256));
                        accepted = true;
                    }
                } else if (k.isConnectable()) {
                    SocketChannel sc = (SocketChannel) k.channel();
                    if (sc.finishConnect()) {
                        connected = true;
                        k.interestOps(SelectionKey.OP_WRITE);
                    }
                } else if (k.channel() == client) {
                    if (k.isWritable()) {
                        if (out == null && sent < N) {
                            out = ByteBuffer.wrap(("msg-" + sent + ";").getBytes(StandardCharsets.US_ASCII));
                        }
                        if (out != null) {
                            client.write(out);
                            if (!out.hasRemaining()) { out = null; sent++; }
                        }
                        k.interestOps(SelectionKey.OP_READ);
                    } else if (k.isReadable()) {
                        ByteBuffer b = ByteBuffer.allocate(256);
                        int n = client.read(b);
                        b.flip();
                        received.append(StandardCharsets.US_ASCII.decode(b));
                        int idx;
                        while ((idx = received.indexOf(";")) >= 0) {
                            String m = received.substring(0, idx);
                            received.delete(0, idx + 1);
                            if (!m.equals("MSG-" + echoed)) System.out.println("bad echo " + m);
                            echoed++;
                        }
                        k.interestOps(sent < N ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                    }
                } else if (k.isReadable()) {
                    SocketChannel sc = (SocketChannel) k.channel();
                    ByteBuffer b = ByteBuffer.allocate(256);
                    int n = sc.read(b);
                    if (n < 0) { k.cancel(); sc.close(); continue; }
                    b.flip();
                    String s = StandardCharsets.US_ASCII.decode(b).toString().toUpperCase();
                    ByteBuffer w = ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
                    while (w.hasRemaining()) sc.write(w);
                }
            }
        }
        System.out.println("accepted=" + accepted + " connected=" + connected + " sent=" + sent + " echoed=" + echoed);

        // wakeup from another thread
        Thread w = new Thread(() -> { try { Thread.sleep(100); } catch (InterruptedException e) {} sel.wakeup(); });
        w.start();
        int n = sel.select(10000);
        w.join();
        System.out.println("woken select returned " + n);
        System.out.println("selectNow=" + sel.selectNow());

        client.close();
        ssc.close();
        sel.close();
        System.out.println("selector open=" + sel.isOpen() + " client open=" + client.isOpen());
    }
}
