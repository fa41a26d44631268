import java.io.*;
import java.net.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.TimeUnit;

/** System.inheritedChannel (sun.nio.ch.InheritedChannel: dup, dup2, open0, close0, soType0,
 *  addressFamily, inetPeerAddress0, peerPort0, isConnected): null when standard input is not a
 *  socket; a SocketChannel when a child VM (this same VM, started by bash with a TCP
 *  connection as its standard input) inherits a connected socket. */
public class InheritedChannelSockets {
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child")) {
            child();
            return;
        }
        System.out.println("standard input not a socket: " + System.inheritedChannel());
        System.out.println("asked again: " + System.inheritedChannel());
        String vm = ProcessHandle.current().info().command().orElse(null);
        File bash = new File("/bin/bash");
        if (vm == null || !bash.canExecute()) {
            System.out.println("cannot start a child VM");
            return;
        }
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            int port = server.getLocalPort();
            String cp = System.getProperty("java.class.path");
            ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c",
                    "exec 0<>/dev/tcp/127.0.0.1/" + port + "; exec \"$0\" -cp \"$1\" InheritedChannelSockets child",
                    vm, cp);
            pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
            pb.redirectErrorStream(true);
            Process p = pb.start();
            server.setSoTimeout(60000);
            try (Socket s = server.accept()) {
                s.setSoTimeout(60000);
                BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                System.out.println("child says over its standard input: " + r.readLine());
                s.getOutputStream().write("reply from the parent\n".getBytes(StandardCharsets.UTF_8));
                System.out.println("child then says: " + r.readLine());
                System.out.println("then end of stream: " + r.readLine());
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(60, TimeUnit.SECONDS);
            System.out.print("child's stdout:\n" + out.replace(Integer.toString(port), "PORT"));
            System.out.println("child exit: " + p.exitValue());
        }
    }

    static void child() throws Exception {
        Channel c = System.inheritedChannel();
        System.out.println("inherited: " + (c == null ? null : c.getClass().getSimpleName()));
        System.out.println("same channel again: " + (System.inheritedChannel() == c));
        if (!(c instanceof SocketChannel sc)) return;
        System.out.println("connected: " + sc.isConnected() + " open: " + sc.isOpen() + " blocking: " + sc.isBlocking());
        InetSocketAddress remote = (InetSocketAddress) sc.getRemoteAddress();
        InetSocketAddress local = (InetSocketAddress) sc.getLocalAddress();
        System.out.println("remote: " + remote.getAddress() + ":" + remote.getPort() + " local: " + local.getAddress());
        sc.write(ByteBuffer.wrap("hello from the child\n".getBytes(StandardCharsets.UTF_8)));
        ByteBuffer b = ByteBuffer.allocate(100);
        while (b.position() == 0 || b.get(b.position() - 1) != '\n') {
            if (sc.read(b) < 0) break;
        }
        b.flip();
        String got = StandardCharsets.UTF_8.decode(b).toString().trim();
        sc.write(ByteBuffer.wrap(("child got: " + got + "\n").getBytes(StandardCharsets.UTF_8)));
        sc.close();
        System.out.println("closed: " + !sc.isOpen());
        // The standard streams are detached (pointed at /dev/null) after the close.
        System.out.println("System.in after close: " + System.in.read());
    }
}
