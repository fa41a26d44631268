import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.*;

// Asynchronous socket channels on loopback: connect and accept as futures and with completion
// handlers, a round trip, and a refused connect (Maven Surefire's TCP fork node uses them).
public class AsyncSockets {
    static String read(AsynchronousSocketChannel ch) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(64);
        int n = ch.read(b).get(10, TimeUnit.SECONDS);
        return new String(b.array(), 0, n, StandardCharsets.UTF_8);
    }

    static void write(AsynchronousSocketChannel ch, String s) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) ch.write(b).get(10, TimeUnit.SECONDS);
    }

    public static void main(String[] args) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (AsynchronousServerSocketChannel server =
                AsynchronousServerSocketChannel.open().bind(new InetSocketAddress(lo, 0))) {
            SocketAddress at = server.getLocalAddress();
            Future<AsynchronousSocketChannel> accepted = server.accept();
            try (AsynchronousSocketChannel client = AsynchronousSocketChannel.open()) {
                client.connect(at).get(10, TimeUnit.SECONDS);
                try (AsynchronousSocketChannel peer = accepted.get(10, TimeUnit.SECONDS)) {
                    System.out.println("connected: " + client.getRemoteAddress().equals(at)
                            + " peer sees client: " + peer.getRemoteAddress().equals(client.getLocalAddress()));
                    write(client, "ping");
                    System.out.println("server read: " + read(peer));
                    write(peer, "pong");
                    System.out.println("client read: " + read(client));
                }
            }

            CompletableFuture<String> viaHandler = new CompletableFuture<>();
            server.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                public void completed(AsynchronousSocketChannel ch, Void v) {
                    try (ch) {
                        viaHandler.complete("handler read: " + read(ch));
                    } catch (Exception e) {
                        viaHandler.completeExceptionally(e);
                    }
                }
                public void failed(Throwable e, Void v) {
                    viaHandler.completeExceptionally(e);
                }
            });
            CountDownLatch connected = new CountDownLatch(1);
            try (AsynchronousSocketChannel client = AsynchronousSocketChannel.open()) {
                client.connect(at, null, new CompletionHandler<Void, Void>() {
                    public void completed(Void r, Void v) { connected.countDown(); }
                    public void failed(Throwable e, Void v) { System.out.println("failed " + e); }
                });
                System.out.println("handler connected: " + connected.await(10, TimeUnit.SECONDS));
                write(client, "hello");
                System.out.println(viaHandler.get(10, TimeUnit.SECONDS));
            }
        }

        // A port nobody listens on: the connect fails with ConnectException.
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, lo)) {
            closedPort = s.getLocalPort();
        }
        try (AsynchronousSocketChannel client = AsynchronousSocketChannel.open()) {
            client.connect(new InetSocketAddress(lo, closedPort)).get(10, TimeUnit.SECONDS);
            System.out.println("connected to a closed port?");
        } catch (ExecutionException e) {
            System.out.println("refused: " + e.getCause().getClass().getName() + ": " + e.getCause().getMessage());
        }
    }
}
