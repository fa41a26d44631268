import java.io.IOException;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

// UDP on loopback: DatagramSocket (built on DatagramChannelImpl in JDK 17) send/receive,
// truncation, timeouts, connect/disconnect, options and closed-socket errors; DatagramChannel in
// blocking mode (send/receive with addresses, connect/read/write, scatter/gather, port
// unreachable) and in non-blocking mode with a Selector. Ports differ from run to run and are
// never printed, only compared.
public class NetDatagrams {
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    interface Action {
        Object run() throws Exception;
    }

    static void attempt(String label, Action a) {
        try {
            System.out.println(label + " -> " + a.run());
        } catch (Throwable e) {
            System.out.println(label + " !! " + e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    static String str(DatagramPacket p) {
        return new String(p.getData(), p.getOffset(), p.getLength(), StandardCharsets.UTF_8);
    }

    static String str(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.flip()).toString();
    }

    static boolean samePort(SocketAddress a, int port) {
        return ((InetSocketAddress) a).getPort() == port;
    }

    public static void main(String[] args) throws Exception {
        sockets();
        blockingChannels();
        nonBlockingChannels();
        multicast();
        System.out.println("done");
    }

    // Multicast options and membership (groups joined on the default interface; delivery to
    // this host's own socket through multicast loopback, when the host routes it).
    static void multicast() throws Exception {
        InetAddress group = InetAddress.getByName("239.255.42.99");
        try (MulticastSocket ms = new MulticastSocket(0)) {
            System.out.println("multicast ttl " + ms.getTimeToLive() + " loopback disabled " + ms.getLoopbackMode() + " interface "
                    + ms.getInterface() + " reuse " + ms.getReuseAddress());
            ms.setTimeToLive(3);
            System.out.println("ttl now " + ms.getTimeToLive() + " option " + ms.getOption(StandardSocketOptions.IP_MULTICAST_TTL));
            ms.joinGroup(new InetSocketAddress(group, 0), null);
            System.out.println("joined " + group);
            ms.setSoTimeout(2000);
            attempt("multicast send and receive", () -> {
                byte[] m = "to the group".getBytes(StandardCharsets.UTF_8);
                ms.send(new DatagramPacket(m, m.length, group, ms.getLocalPort()));
                DatagramPacket p = new DatagramPacket(new byte[32], 32);
                ms.receive(p);
                return "'" + str(p) + "'";
            });
            attempt("join twice", () -> { ms.joinGroup(new InetSocketAddress(group, 0), null); return "joined"; });
            ms.leaveGroup(new InetSocketAddress(group, 0), null);
            attempt("leave twice", () -> { ms.leaveGroup(new InetSocketAddress(group, 0), null); return "left"; });
            attempt("join a unicast address", () -> { ms.joinGroup(new InetSocketAddress(LO, 0), null); return "joined"; });
        }
        try (DatagramChannel dc = DatagramChannel.open(StandardProtocolFamily.INET)) {
            System.out.println("INET channel IP_MULTICAST_TTL " + dc.getOption(StandardSocketOptions.IP_MULTICAST_TTL) + " IP_MULTICAST_LOOP "
                    + dc.getOption(StandardSocketOptions.IP_MULTICAST_LOOP) + " IP_MULTICAST_IF " + dc.getOption(StandardSocketOptions.IP_MULTICAST_IF));
            dc.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 200);
            dc.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, false);
            System.out.println("set: ttl " + dc.getOption(StandardSocketOptions.IP_MULTICAST_TTL) + " loop "
                    + dc.getOption(StandardSocketOptions.IP_MULTICAST_LOOP));
            attempt("ttl out of range", () -> dc.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 256));
        }
        try (DatagramChannel dc = DatagramChannel.open()) {
            System.out.println("default channel IP_MULTICAST_TTL " + dc.getOption(StandardSocketOptions.IP_MULTICAST_TTL) + " IP_MULTICAST_LOOP "
                    + dc.getOption(StandardSocketOptions.IP_MULTICAST_LOOP));
        }
    }

    static void sockets() throws Exception {
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(LO, 0)); DatagramSocket b = new DatagramSocket(0, LO)) {
            System.out.println("bound a=" + a.isBound() + " b=" + b.isBound() + " a addr " + a.getLocalAddress() + " port>0 " + (a.getLocalPort() > 0)
                    + " connected=" + a.isConnected() + " remote=" + a.getRemoteSocketAddress());
            byte[] msg = "hello datagram".getBytes(StandardCharsets.UTF_8);
            a.send(new DatagramPacket(msg, msg.length, b.getLocalSocketAddress()));
            DatagramPacket p = new DatagramPacket(new byte[100], 100);
            b.receive(p);
            System.out.println("received '" + str(p) + "' length " + p.getLength() + " from " + p.getAddress() + " port matches "
                    + (p.getPort() == a.getLocalPort()) + " socket address matches " + p.getSocketAddress().equals(a.getLocalSocketAddress()));

            // A packet longer than the buffer is truncated; offsets are honoured.
            a.send(new DatagramPacket("0123456789".getBytes(StandardCharsets.US_ASCII), 10, LO, b.getLocalPort()));
            byte[] small = new byte[8];
            Arrays.fill(small, (byte) '.');
            DatagramPacket q = new DatagramPacket(small, 2, 4);
            b.receive(q);
            System.out.println("truncated to " + q.getLength() + " buffer " + new String(small, StandardCharsets.US_ASCII));

            // Empty datagrams and several queued ones, in order.
            a.send(new DatagramPacket(new byte[0], 0, b.getLocalSocketAddress()));
            for (int i = 0; i < 5; i++) {
                byte[] m = ("n" + i).getBytes(StandardCharsets.US_ASCII);
                a.send(new DatagramPacket(m, m.length, b.getLocalSocketAddress()));
            }
            StringBuilder order = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                DatagramPacket r = new DatagramPacket(new byte[16], 16);
                b.receive(r);
                order.append('[').append(str(r)).append(']');
            }
            System.out.println("queued " + order);

            // A big datagram.
            byte[] big = new byte[60_000];
            for (int i = 0; i < big.length; i++) big[i] = (byte) (i * 31);
            a.send(new DatagramPacket(big, big.length, b.getLocalSocketAddress()));
            DatagramPacket bp = new DatagramPacket(new byte[65_536], 65_536);
            b.receive(bp);
            System.out.println("big datagram " + bp.getLength() + " equal " + Arrays.equals(big, 0, big.length, bp.getData(), 0, bp.getLength()));

            // Timeouts.
            b.setSoTimeout(200);
            System.out.println("soTimeout " + b.getSoTimeout());
            long t0 = System.nanoTime();
            attempt("receive with timeout", () -> {
                b.receive(new DatagramPacket(new byte[10], 10));
                return "got something";
            });
            System.out.println("waited at least 150ms: " + ((System.nanoTime() - t0) / 1_000_000 >= 150));
            a.send(new DatagramPacket(msg, 5, b.getLocalSocketAddress()));
            DatagramPacket afterTimeout = new DatagramPacket(new byte[10], 10);
            b.receive(afterTimeout);
            System.out.println("receive after a timeout '" + str(afterTimeout) + "'");
            b.setSoTimeout(0);

            // connect/disconnect.
            a.connect(b.getLocalSocketAddress());
            System.out.println("a connected=" + a.isConnected() + " remote port matches " + (a.getPort() == b.getLocalPort()) + " inet "
                    + a.getInetAddress());
            a.send(new DatagramPacket("via connect".getBytes(StandardCharsets.UTF_8), 11));
            DatagramPacket c = new DatagramPacket(new byte[32], 32);
            b.receive(c);
            System.out.println("connected send received '" + str(c) + "'");
            try (DatagramSocket other = new DatagramSocket(0, LO)) {
                attempt("send elsewhere while connected",
                        () -> { a.send(new DatagramPacket(msg, 3, other.getLocalSocketAddress())); return "sent"; });
                // A connected socket only receives from its peer.
                other.send(new DatagramPacket("stranger".getBytes(StandardCharsets.UTF_8), 8, a.getLocalSocketAddress()));
                b.send(new DatagramPacket("peer".getBytes(StandardCharsets.UTF_8), 4, a.getLocalSocketAddress()));
                DatagramPacket fromPeer = new DatagramPacket(new byte[32], 32);
                a.receive(fromPeer);
                System.out.println("connected receive got '" + str(fromPeer) + "' from peer " + (fromPeer.getPort() == b.getLocalPort()));
            }
            a.disconnect();
            System.out.println("after disconnect connected=" + a.isConnected() + " remote=" + a.getRemoteSocketAddress() + " port=" + a.getPort());
            attempt("send without address", () -> { a.send(new DatagramPacket(msg, 3)); return "sent"; });

            // Options.
            a.setReceiveBufferSize(65536);
            a.setSendBufferSize(32768);
            System.out.println("rcvbuf>=65536 " + (a.getReceiveBufferSize() >= 65536) + " sndbuf>=32768 " + (a.getSendBufferSize() >= 32768));
            System.out.println("broadcast " + a.getBroadcast() + " reuse " + a.getReuseAddress() + " tc " + a.getTrafficClass());
            a.setBroadcast(true);
            a.setReuseAddress(true);
            a.setTrafficClass(0x10);
            System.out.println("broadcast " + a.getBroadcast() + " reuse " + a.getReuseAddress() + " tc " + a.getTrafficClass());
            System.out.println("option SO_RCVBUF " + (a.getOption(StandardSocketOptions.SO_RCVBUF) >= 65536) + " IP_TOS "
                    + a.getOption(StandardSocketOptions.IP_TOS));
            TreeSet<String> names = new TreeSet<>();
            for (SocketOption<?> o : a.supportedOptions()) names.add(o.name());
            System.out.println("supported options " + names);
        }

        DatagramSocket closed = new DatagramSocket(0, LO);
        closed.close();
        System.out.println("closed=" + closed.isClosed() + " bound=" + closed.isBound());
        attempt("receive on closed", () -> { closed.receive(new DatagramPacket(new byte[1], 1)); return "?"; });
        attempt("send on closed", () -> { closed.send(new DatagramPacket(new byte[1], 1, LO, 9)); return "?"; });
        attempt("getSoTimeout on closed", closed::getSoTimeout);
        attempt("negative timeout", () -> { new DatagramSocket(0, LO).setSoTimeout(-1); return "?"; });
        attempt("packet without address", () -> {
            try (DatagramSocket s = new DatagramSocket(0, LO)) {
                s.send(new DatagramPacket(new byte[1], 1));
            }
            return "sent";
        });
        try (DatagramSocket s1 = new DatagramSocket(0, LO)) {
            attempt("bind to a port in use", () -> new DatagramSocket(s1.getLocalPort(), LO));
        }
        try (DatagramSocket unbound = new DatagramSocket(null)) {
            System.out.println("unbound bound=" + unbound.isBound() + " local port " + unbound.getLocalPort());
            unbound.bind(new InetSocketAddress(LO, 0));
            System.out.println("bound later " + unbound.isBound() + " " + unbound.getLocalAddress());
            attempt("bind twice", () -> { unbound.bind(new InetSocketAddress(LO, 0)); return "?"; });
        }
    }

    static void blockingChannels() throws Exception {
        try (DatagramChannel a = DatagramChannel.open(); DatagramChannel b = DatagramChannel.open(StandardProtocolFamily.INET)) {
            System.out.println("channel blocking=" + a.isBlocking() + " open=" + a.isOpen() + " local=" + a.getLocalAddress() + " connected="
                    + a.isConnected());
            a.bind(new InetSocketAddress(LO, 0));
            b.bind(new InetSocketAddress(LO, 0));
            int ap = ((InetSocketAddress) a.getLocalAddress()).getPort();
            int bp = ((InetSocketAddress) b.getLocalAddress()).getPort();
            System.out.println("sent " + a.send(ByteBuffer.wrap("one".getBytes(StandardCharsets.UTF_8)), b.getLocalAddress()));
            ByteBuffer buf = ByteBuffer.allocate(64);
            SocketAddress from = b.receive(buf);
            System.out.println("received '" + str(buf) + "' from a " + samePort(from, ap) + " " + ((InetSocketAddress) from).getAddress());
            ByteBuffer direct = ByteBuffer.allocateDirect(64);
            b.send(ByteBuffer.wrap("two".getBytes(StandardCharsets.UTF_8)), a.getLocalAddress());
            from = a.receive(direct);
            System.out.println("direct buffer received '" + str(direct) + "' from b " + samePort(from, bp));
            ByteBuffer tiny = ByteBuffer.allocate(3);
            a.send(ByteBuffer.wrap("truncated".getBytes(StandardCharsets.UTF_8)), b.getLocalAddress());
            b.receive(tiny);
            System.out.println("truncated receive '" + str(tiny) + "'");
            // Sending from a direct buffer with a position.
            ByteBuffer src = ByteBuffer.allocateDirect(16).put("xxpayload".getBytes(StandardCharsets.UTF_8)).flip().position(2);
            System.out.println("sent from position " + a.send(src, b.getLocalAddress()) + " src remaining " + src.remaining());
            buf.clear();
            b.receive(buf);
            System.out.println("got '" + str(buf) + "'");

            attempt("read unconnected", () -> a.read(ByteBuffer.allocate(1)));
            attempt("write unconnected", () -> a.write(ByteBuffer.allocate(1)));
            a.connect(b.getLocalAddress());
            System.out.println("connected=" + a.isConnected() + " remote port matches " + samePort(a.getRemoteAddress(), bp));
            System.out.println("write " + a.write(ByteBuffer.wrap("three".getBytes(StandardCharsets.UTF_8))));
            buf.clear();
            b.receive(buf);
            System.out.println("b got '" + str(buf) + "'");
            b.send(ByteBuffer.wrap("four".getBytes(StandardCharsets.UTF_8)), a.getLocalAddress());
            buf.clear();
            System.out.println("read " + a.read(buf) + " '" + str(buf) + "'");
            ByteBuffer[] parts = {ByteBuffer.wrap("ga".getBytes(StandardCharsets.UTF_8)), ByteBuffer.wrap("th".getBytes(StandardCharsets.UTF_8)),
                    ByteBuffer.allocateDirect(2).put("er".getBytes(StandardCharsets.UTF_8)).flip()};
            System.out.println("gathering write " + a.write(parts));
            buf.clear();
            b.receive(buf);
            System.out.println("b got '" + str(buf) + "'");
            b.send(ByteBuffer.wrap("scattered".getBytes(StandardCharsets.UTF_8)), a.getLocalAddress());
            ByteBuffer[] into = {ByteBuffer.allocate(4), ByteBuffer.allocateDirect(3), ByteBuffer.allocate(10)};
            System.out.println("scattering read " + a.read(into) + " '" + str(into[0]) + "|" + str(into[1]) + "|" + str(into[2]) + "'");
            attempt("send elsewhere while connected", () -> a.send(ByteBuffer.allocate(1), new InetSocketAddress(LO, 9)));
            a.disconnect();
            System.out.println("after disconnect connected=" + a.isConnected() + " remote=" + a.getRemoteAddress());
            attempt("read after disconnect", () -> a.read(ByteBuffer.allocate(1)));
        }

        // A connected channel whose peer is gone: ICMP port unreachable.
        try (DatagramChannel gone = DatagramChannel.open(); DatagramChannel c = DatagramChannel.open()) {
            gone.bind(new InetSocketAddress(LO, 0));
            SocketAddress dead = gone.getLocalAddress();
            gone.close();
            c.connect(dead);
            c.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            Thread.sleep(50);
            attempt("read from unreachable port", () -> c.read(ByteBuffer.allocate(10)));
        }

        // Unconnected receive ignores port-unreachable errors and blocks: use a timeout.
        try (DatagramSocket s = new DatagramSocket(0, LO); DatagramSocket gone = new DatagramSocket(0, LO)) {
            int deadPort = gone.getLocalPort();
            gone.close();
            s.send(new DatagramPacket(new byte[] {1}, 1, LO, deadPort));
            s.setSoTimeout(100);
            attempt("unconnected receive after unreachable", () -> { s.receive(new DatagramPacket(new byte[4], 4)); return "?"; });
        }
        DatagramChannel closed = DatagramChannel.open();
        closed.close();
        attempt("send on closed channel", () -> closed.send(ByteBuffer.allocate(1), new InetSocketAddress(LO, 9)));
        attempt("receive on closed channel", () -> closed.receive(ByteBuffer.allocate(1)));
        attempt("socket of closed channel closed", () -> closed.socket().isClosed());
    }

    static void nonBlockingChannels() throws Exception {
        final int n = 40;
        try (Selector sel = Selector.open(); DatagramChannel rx = DatagramChannel.open(); DatagramChannel tx = DatagramChannel.open()) {
            rx.bind(new InetSocketAddress(LO, 0));
            tx.bind(new InetSocketAddress(LO, 0));
            rx.configureBlocking(false);
            tx.configureBlocking(false);
            System.out.println("non-blocking receive with nothing queued " + rx.receive(ByteBuffer.allocate(8)));
            System.out.println("selectNow with nothing queued " + sel.selectNow());
            SelectionKey rk = rx.register(sel, SelectionKey.OP_READ);
            SelectionKey tk = tx.register(sel, SelectionKey.OP_WRITE);
            int sent = 0, received = 0, rounds = 0;
            StringBuilder bad = new StringBuilder();
            long deadline = System.currentTimeMillis() + 20_000;
            while (received < n && System.currentTimeMillis() < deadline) {
                rounds++;
                sel.select(1000);
                for (Iterator<SelectionKey> it = sel.selectedKeys().iterator(); it.hasNext();) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (k == tk && k.isWritable()) {
                        int w = tx.send(ByteBuffer.wrap(("d" + sent).getBytes(StandardCharsets.UTF_8)), rx.getLocalAddress());
                        if (w > 0) sent++;
                        if (sent == n) tk.interestOps(0);
                    }
                    if (k == rk && k.isReadable()) {
                        ByteBuffer b = ByteBuffer.allocate(16);
                        SocketAddress from;
                        while ((from = rx.receive(b)) != null) {
                            if (!samePort(from, ((InetSocketAddress) tx.getLocalAddress()).getPort())) bad.append("wrong sender;");
                            String s = str(b);
                            if (!s.equals("d" + received)) bad.append(s).append("!=d").append(received).append(';');
                            received++;
                            b.clear();
                        }
                    }
                }
            }
            System.out.println("selector loop sent=" + sent + " received=" + received + " bad=[" + bad + "]");
            rk.cancel();
            sel.selectNow();
            // Connected non-blocking read with nothing there.
            rx.connect(tx.getLocalAddress());
            System.out.println("non-blocking read with nothing queued " + rx.read(ByteBuffer.allocate(8)));
            tx.send(ByteBuffer.wrap("late".getBytes(StandardCharsets.UTF_8)), rx.getLocalAddress());
            rx.register(sel, SelectionKey.OP_READ);
            int ready = sel.select(5000);
            ByteBuffer b = ByteBuffer.allocate(8);
            System.out.println("ready " + ready + " read " + rx.read(b) + " '" + str(b) + "'");
        }

        // A blocking receive woken by a datagram from another thread.
        try (DatagramChannel rx = DatagramChannel.open().bind(new InetSocketAddress(LO, 0))) {
            SocketAddress target = rx.getLocalAddress();
            Thread sender = new Thread(() -> {
                try (DatagramChannel tx = DatagramChannel.open()) {
                    Thread.sleep(100);
                    tx.send(ByteBuffer.wrap("wake".getBytes(StandardCharsets.UTF_8)), target);
                } catch (Exception e) {
                    System.out.println("sender failed " + e);
                }
            });
            sender.start();
            ByteBuffer b = ByteBuffer.allocate(8);
            rx.receive(b);
            sender.join();
            System.out.println("blocking receive woken by '" + str(b) + "'");
        }
    }
}
