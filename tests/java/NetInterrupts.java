import java.io.*;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.*;

// Threads blocked in channel I/O: an interrupt closes the channel and the blocked thread gets
// ClosedByInterruptException; closing the channel from another thread gives the blocked thread
// AsynchronousCloseException. Covered: SocketChannel read and write, ServerSocketChannel accept,
// DatagramChannel receive, Pipe source read (a file descriptor that is not a socket), Selector
// select, Socket/ServerSocket/DatagramSocket closed while blocked (SocketException), and socket
// streams, which an interrupt does not wake.
public class NetInterrupts {
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    interface Blocking {
        Object run() throws Exception;
    }

    /** Runs `op` in a new thread, waits until it blocks, then interrupts it or closes `ch`. */
    static void check(String label, Closeable ch, boolean interrupt, Blocking op) throws Exception {
        BlockingQueue<String> result = new ArrayBlockingQueue<>(1);
        Thread t = new Thread(() -> {
            String r;
            try {
                r = "returned " + op.run();
            } catch (Throwable e) {
                r = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            }
            result.add(r + " interrupted=" + Thread.currentThread().isInterrupted());
        }, label);
        t.setDaemon(true);
        t.start();
        waitBlocked(t);
        if (interrupt) {
            t.interrupt();
        } else {
            ch.close();
        }
        String r = result.poll(20, TimeUnit.SECONDS);
        if (r == null) {
            System.out.println(label + ": STILL BLOCKED");
            System.exit(1);
        }
        t.join();
        boolean open = (ch instanceof Channel) ? ((Channel) ch).isOpen() : false;
        System.out.println(label + (interrupt ? " [interrupt]" : " [close]") + ": " + r + (ch instanceof Channel ? " open=" + open : ""));
    }

    /** Waits until `t` has been blocked or waiting for a while (it is then inside the call). */
    static void waitBlocked(Thread t) throws InterruptedException {
        Thread.sleep(200);
        for (int i = 0; i < 100 && t.getState() == Thread.State.NEW; i++) Thread.sleep(10);
    }

    static SocketChannel[] pair(ServerSocketChannel ssc) throws IOException {
        SocketChannel c = SocketChannel.open(ssc.getLocalAddress());
        SocketChannel s = ssc.accept();
        return new SocketChannel[] {c, s};
    }

    public static void main(String[] args) throws Exception {
        try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(new InetSocketAddress(LO, 0))) {
            for (boolean interrupt : new boolean[] {true, false}) {
                SocketChannel[] p = pair(ssc);
                check("socket channel read", p[0], interrupt, () -> p[0].read(ByteBuffer.allocate(10)));
                System.out.println("  peer sees end of stream: " + p[1].read(ByteBuffer.allocate(10)));
                p[1].close();

                SocketChannel[] q = pair(ssc);
                check("socket channel write", q[0], interrupt, () -> {
                    ByteBuffer big = ByteBuffer.allocate(1 << 20);
                    long total = 0;
                    while (true) {
                        big.clear();
                        total += q[0].write(big);
                    }
                });
                q[1].close();

                SocketChannel[] r = pair(ssc);
                check("scattering read", r[0], interrupt, () -> r[0].read(new ByteBuffer[] {ByteBuffer.allocate(4), ByteBuffer.allocateDirect(4)}));
                r[1].close();
            }
        }
        for (boolean interrupt : new boolean[] {true, false}) {
            ServerSocketChannel ssc = ServerSocketChannel.open().bind(new InetSocketAddress(LO, 0));
            check("server socket channel accept", ssc, interrupt, ssc::accept);

            DatagramChannel dc = DatagramChannel.open().bind(new InetSocketAddress(LO, 0));
            check("datagram channel receive", dc, interrupt, () -> dc.receive(ByteBuffer.allocate(10)));

            DatagramChannel cdc = DatagramChannel.open().bind(new InetSocketAddress(LO, 0));
            cdc.connect(cdc.getLocalAddress());
            check("connected datagram channel read", cdc, interrupt, () -> cdc.read(ByteBuffer.allocate(10)));

            Pipe pipe = Pipe.open();
            check("pipe source read", pipe.source(), interrupt, () -> pipe.source().read(ByteBuffer.allocate(10)));
            System.out.println("  sink still open: " + pipe.sink().isOpen());
            pipe.sink().close();
        }

        // Already interrupted: the channel closes at once.
        try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(new InetSocketAddress(LO, 0))) {
            SocketChannel[] p = pair(ssc);
            Thread.currentThread().interrupt();
            try {
                p[0].read(ByteBuffer.allocate(1));
                System.out.println("read with interrupt pending returned");
            } catch (ClosedByInterruptException e) {
                System.out.println("read with interrupt pending: ClosedByInterruptException open=" + p[0].isOpen() + " interrupted="
                        + Thread.interrupted());
            }
            p[1].close();
        }

        // Selector: an interrupt wakes select() and leaves the selector open.
        try (Selector sel = Selector.open(); DatagramChannel dc = DatagramChannel.open()) {
            dc.configureBlocking(false);
            dc.register(sel, SelectionKey.OP_READ);
            check("selector select", sel, true, () -> sel.select());
            System.out.println("  selector open " + sel.isOpen() + " key valid " + dc.keyFor(sel).isValid());
            check("selector select with timeout", sel, true, () -> sel.select(60_000));
            check("selector select, closed", sel, false, () -> sel.select());
        }

        // java.net sockets: a close from another thread wakes the blocked call.
        try (ServerSocket ss = new ServerSocket(0, 50, LO)) {
            check("ServerSocket accept", ss, false, ss::accept);
            System.out.println("  closed " + ss.isClosed());
        }
        try (ServerSocket ss = new ServerSocket(0, 50, LO)) {
            Socket c = new Socket(LO, ss.getLocalPort());
            Socket s = ss.accept();
            check("Socket stream read", c, false, () -> c.getInputStream().read());
            System.out.println("  closed " + c.isClosed());
            s.close();

            // An interrupt does not wake a socket stream read; data does.
            Socket c2 = new Socket(LO, ss.getLocalPort());
            Socket s2 = ss.accept();
            BlockingQueue<String> got = new ArrayBlockingQueue<>(1);
            Thread reader = new Thread(() -> {
                try {
                    int b = c2.getInputStream().read();
                    got.add("read " + b + " interrupted=" + Thread.currentThread().isInterrupted());
                } catch (IOException e) {
                    got.add(e.toString());
                }
            });
            reader.setDaemon(true);
            reader.start();
            waitBlocked(reader);
            reader.interrupt();
            Thread.sleep(200);
            System.out.println("socket stream read after interrupt still blocked: " + (got.peek() == null) + " socket open " + !c2.isClosed());
            s2.getOutputStream().write(42);
            System.out.println("then " + got.poll(20, TimeUnit.SECONDS));
            c2.close();
            s2.close();
        }
        DatagramSocket ds = new DatagramSocket(0, LO);
        check("DatagramSocket receive", ds, false, () -> {
            ds.receive(new DatagramPacket(new byte[4], 4));
            return "?";
        });
        System.out.println("  closed " + ds.isClosed());

        // Many rounds: the wake-up must be reliable, not lucky.
        int woken = 0;
        try (ServerSocketChannel ssc = ServerSocketChannel.open().bind(new InetSocketAddress(LO, 0))) {
            for (int i = 0; i < 30; i++) {
                SocketChannel[] p = pair(ssc);
                BlockingQueue<Class<?>> r = new ArrayBlockingQueue<>(1);
                Thread t = new Thread(() -> {
                    try {
                        p[0].read(ByteBuffer.allocate(1));
                        r.add(Void.class);
                    } catch (Exception e) {
                        r.add(e.getClass());
                    }
                });
                t.setDaemon(true);
                t.start();
                Thread.sleep(i % 3 == 0 ? 0 : 5);
                if (i % 2 == 0) t.interrupt(); else p[0].close();
                Class<?> c = r.poll(20, TimeUnit.SECONDS);
                if (c == ClosedByInterruptException.class || c == AsynchronousCloseException.class || c == ClosedChannelException.class) woken++;
                else System.out.println("round " + i + ": " + c);
                p[1].close();
            }
        }
        System.out.println("woken in 30 rounds: " + woken);
        System.out.println("done");
    }
}
