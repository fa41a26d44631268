import java.io.*;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/** Unix domain socket channels (sun.nio.ch.UnixDomainSockets: socket0, bind0, connect0,
 *  accept0, localAddress0) and SO_PEERCRED (jdk.net LinuxSocketOptions.getSoPeerCred0). */
public class UnixDomainSocketChannels {
    static String show(SocketAddress a, Path dir) {
        String s = a.toString();
        return s.isEmpty() ? "<unnamed>" : s.replace(dir.toString(), "DIR");
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("uds-conf");
        Path sock = dir.resolve("server.sock");
        try {
            blocking(dir, sock);
            nonBlocking(dir, sock);
            errors(dir);
        } finally {
            try (var w = Files.walk(dir)) {
                w.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    static void blocking(Path dir, Path sock) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            System.out.println("server bound " + show(server.getLocalAddress(), dir)
                    + " file is socket: " + (Files.exists(sock) && !Files.isRegularFile(sock)));
            List<String> clientSaw = Collections.synchronizedList(new ArrayList<>());
            Thread client = new Thread(() -> {
                try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
                    clientSaw.add("client connected, local " + show(c.getLocalAddress(), dir)
                            + " remote " + show(c.getRemoteAddress(), dir));
                    c.write(ByteBuffer.wrap("hello over AF_UNIX".getBytes(StandardCharsets.UTF_8)));
                    c.shutdownOutput();
                    ByteBuffer b = ByteBuffer.allocate(100);
                    while (c.read(b) >= 0) { }
                    b.flip();
                    clientSaw.add("client got: " + StandardCharsets.UTF_8.decode(b));
                } catch (IOException e) {
                    clientSaw.add("client: " + e);
                }
            });
            client.start();
            try (SocketChannel s = server.accept()) {
                System.out.println("accepted, remote " + show(s.getRemoteAddress(), dir)
                        + " local " + show(s.getLocalAddress(), dir));
                UnixDomainPrincipal p = s.getOption(ExtendedSocketOptions.SO_PEERCRED);
                System.out.println("peer is this user: " + p.user().getName().equals(System.getProperty("user.name")));
                System.out.println("supports SO_PEERCRED: " + s.supportedOptions().contains(ExtendedSocketOptions.SO_PEERCRED));
                ByteBuffer b = ByteBuffer.allocate(100);
                while (s.read(b) >= 0) { }
                b.flip();
                String msg = StandardCharsets.UTF_8.decode(b).toString();
                System.out.println("server got: " + msg);
                s.write(ByteBuffer.wrap(msg.toUpperCase().getBytes(StandardCharsets.UTF_8)));
            }
            client.join();
            clientSaw.forEach(System.out::println);
            // A client bound to a path of its own.
            Path named = dir.resolve("client.sock");
            try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                c.bind(UnixDomainSocketAddress.of(named));
                c.connect(UnixDomainSocketAddress.of(sock));
                try (SocketChannel s = server.accept()) {
                    System.out.println("named client seen as " + show(s.getRemoteAddress(), dir));
                }
            }
            // Streams over the channels.
            Thread t = new Thread(() -> {
                try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(sock));
                     PrintWriter w = new PrintWriter(Channels.newOutputStream(c), true, StandardCharsets.UTF_8)) {
                    for (int i = 0; i < 3; i++) w.println("line " + i);
                } catch (IOException e) {
                    System.out.println("writer: " + e);
                }
            });
            t.start();
            try (SocketChannel s = server.accept();
                 BufferedReader r = new BufferedReader(new InputStreamReader(Channels.newInputStream(s), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) System.out.println("read " + l);
            }
            t.join();
        }
        Files.deleteIfExists(sock);
    }

    static void nonBlocking(Path dir, Path sock) throws Exception {
        try (Selector sel = Selector.open();
             ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            server.configureBlocking(false);
            System.out.println("accept with none pending: " + server.accept());
            server.register(sel, SelectionKey.OP_ACCEPT);
            SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
            c.configureBlocking(false);
            boolean now = c.connect(UnixDomainSocketAddress.of(sock));
            if (!now) {
                c.register(sel, SelectionKey.OP_CONNECT);
            }
            SocketChannel accepted = null;
            int rounds = 0;
            while ((accepted == null || !c.isConnected()) && rounds++ < 100) {
                sel.select(1000);
                for (SelectionKey k : sel.selectedKeys()) {
                    if (k.isAcceptable()) {
                        accepted = server.accept();
                        accepted.configureBlocking(false);
                    } else if (k.isConnectable()) {
                        c.finishConnect();
                        k.cancel();
                    }
                }
                sel.selectedKeys().clear();
            }
            System.out.println("non-blocking connected " + c.isConnected() + " accepted " + (accepted != null));
            c.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}));
            accepted.register(sel, SelectionKey.OP_READ);
            ByteBuffer b = ByteBuffer.allocate(16);
            while (b.position() < 5 && sel.select(1000) >= 0) {
                accepted.read(b);
                sel.selectedKeys().clear();
            }
            System.out.println("selected read " + b.position() + " bytes");
            c.close();
            accepted.close();
        }
        Files.deleteIfExists(sock);
    }

    static void errors(Path dir) throws Exception {
        String longPath = dir + "/" + "x".repeat(120);
        try (var s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(longPath));
        } catch (IOException e) { System.out.println("bind long path: " + e); }
        try (var s = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.connect(UnixDomainSocketAddress.of(dir.resolve("nobody.sock")));
        } catch (IOException e) { System.out.println("connect to nothing: " + e); }
        Path file = Files.writeString(dir.resolve("plain"), "x");
        try (var s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(file));
        } catch (IOException e) { System.out.println("bind over a file: " + e); }
        try (var s = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.connect(UnixDomainSocketAddress.of(file));
        } catch (IOException e) { System.out.println("connect to a file: " + e); }
        try (var s = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            System.out.println("unbound local address: " + s.getLocalAddress());
            s.bind(null);
            System.out.println("bind(null) local address is unnamed: " + s.getLocalAddress().toString().isEmpty());
        }
        try (var s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(null);
            Path p = ((UnixDomainSocketAddress) s.getLocalAddress()).getPath();
            System.out.println("server bind(null) in java.io.tmpdir: "
                    + p.getParent().equals(Path.of(System.getProperty("java.io.tmpdir")))
                    + " named socket_N: " + p.getFileName().toString().matches("socket_[0-9]+"));
            Files.deleteIfExists(p);
        }
    }
}
