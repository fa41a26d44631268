import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;

public class NetSockets {
    public static void main(String[] args) throws Exception {
        // InetAddress facts
        InetAddress lo = InetAddress.getLoopbackAddress();
        System.out.println("loopback isLoopback=" + lo.isLoopbackAddress() + " host=" + lo.getHostAddress());
        InetAddress byName = InetAddress.getByName("127.0.0.1");
        System.out.println("127.0.0.1 loopback=" + byName.isLoopbackAddress() + " equals=" + byName.equals(lo));
        InetAddress localhost = InetAddress.getByName("localhost");
        System.out.println("localhost loopback=" + localhost.isLoopbackAddress() + " name=" + localhost.getHostName());
        InetAddress v6 = InetAddress.getByName("::1");
        System.out.println("::1 loopback=" + v6.isLoopbackAddress() + " v6=" + (v6 instanceof Inet6Address) + " addr=" + v6.getHostAddress());
        InetAddress[] all = InetAddress.getAllByName("localhost");
        boolean allLoop = true;
        for (InetAddress a : all) allLoop &= a.isLoopbackAddress();
        System.out.println("all localhost loopback=" + allLoop + " nonEmpty=" + (all.length > 0));
        InetAddress local = InetAddress.getLocalHost();
        System.out.println("localHost name nonEmpty=" + !local.getHostName().isEmpty());
        try {
            InetAddress.getByName("no-such-host.invalid");
            System.out.println("resolved?!");
        } catch (UnknownHostException e) {
            System.out.println("unknown host: " + e.getClass().getName());
        }
        System.out.println("byAddress=" + InetAddress.getByAddress(new byte[]{10, 1, 2, 3}).getHostAddress());

        // Echo server
        try (ServerSocket ss = new ServerSocket(0, 50, lo)) {
            int port = ss.getLocalPort();
            System.out.println("bound=" + ss.isBound() + " portPositive=" + (port > 0) + " local loopback=" + ss.getInetAddress().isLoopbackAddress());
            Thread client = new Thread(() -> {
                try (Socket s = new Socket(lo, port)) {
                    s.setTcpNoDelay(true);
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    PrintWriter out = new PrintWriter(new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), true);
                    for (int i = 0; i < 5; i++) {
                        out.println("hello " + i);
                        System.out.println("client got: " + in.readLine());
                    }
                    s.shutdownOutput();
                    String fin = in.readLine();
                    String eof = in.readLine();
                    System.out.println("client outputShutdown=" + s.isOutputShutdown());
                    System.out.println("client final: " + fin);
                    System.out.println("client eof: " + eof);
                } catch (IOException e) {
                    System.out.println("client error " + e);
                }
            });
            client.start();
            try (Socket c = ss.accept()) {
                System.out.println("accepted connected=" + c.isConnected() + " remote loopback=" + c.getInetAddress().isLoopbackAddress());
                System.out.println("tcpNoDelay default=" + c.getTcpNoDelay() + " keepAlive=" + c.getKeepAlive());
                c.setKeepAlive(true);
                System.out.println("keepAlive now=" + c.getKeepAlive() + " linger=" + c.getSoLinger());
                BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                Writer out = new OutputStreamWriter(c.getOutputStream(), StandardCharsets.UTF_8);
                String line;
                int n = 0;
                while ((line = in.readLine()) != null) {
                    out.write("echo:" + line.toUpperCase() + "\n");
                    out.flush();
                    n++;
                }
                System.out.println("server read " + n + " lines then EOF");
                out.write("bye after half-close\n");
                out.flush();
            }
            client.join();
        }

        // SO_TIMEOUT on read
        try (ServerSocket ss = new ServerSocket(0, 50, lo);
             Socket s = new Socket(lo, ss.getLocalPort());
             Socket peer = ss.accept()) {
            s.setSoTimeout(200);
            System.out.println("soTimeout=" + s.getSoTimeout());
            try {
                s.getInputStream().read();
                System.out.println("read returned?!");
            } catch (SocketTimeoutException e) {
                System.out.println("timeout: " + e.getMessage());
            }
            peer.getOutputStream().write(42);
            System.out.println("after timeout read=" + s.getInputStream().read());
            ss.setSoTimeout(100);
            try {
                ss.accept();
            } catch (SocketTimeoutException e) {
                System.out.println("accept timeout: " + e.getMessage());
            }
        }

        // Connection refused
        int closedPort;
        try (ServerSocket ss = new ServerSocket(0, 50, lo)) {
            closedPort = ss.getLocalPort();
        }
        try (Socket s = new Socket(lo, closedPort)) {
            System.out.println("connected?!");
        } catch (ConnectException e) {
            System.out.println("refused: " + e.getClass().getName() + ": " + e.getMessage());
        }

        // Closing a server socket while another thread is blocked in accept
        ServerSocket ss = new ServerSocket(0, 50, lo);
        Thread acceptor = new Thread(() -> {
            try {
                ss.accept();
                System.out.println("accepted?!");
            } catch (IOException e) {
                System.out.println("blocked accept: " + e.getClass().getName() + ": " + e.getMessage());
            }
        });
        acceptor.start();
        Thread.sleep(200);
        ss.close();
        acceptor.join();
        System.out.println("closed=" + ss.isClosed());
    }
}
