import java.io.*;
import java.util.*;

/**
 * Round-trip time between two processes (Tati & Voelker, Table 6 and Figures 5-8): int arrays
 * of 4 B to 256 KB and complete binary trees of 1 to 65535 nodes, sent by a client and echoed
 * back by a server. Modes: jx-server NAME / jx-client NAME (two jxvm processes over a
 * jx.ipc.Channel, see JxSide), ser-server UP DOWN / ser-client UP DOWN (JDK serialization over
 * two FIFOs, for HotSpot). The client prints "label<TAB>median microseconds" per row.
 */
public class IpcBench {
    static final class Node implements Serializable {
        private static final long serialVersionUID = 1L;
        int value;
        Node left, right;
    }

    static Node tree(int depth, int[] next) {
        if (depth == 0) return null;
        Node n = new Node();
        n.value = next[0]++;
        n.left = tree(depth - 1, next);
        n.right = tree(depth - 1, next);
        return n;
    }

    /** Echoes objects; the other end's transport. */
    interface Link {
        void send(Object o) throws Exception;
        Object receive() throws Exception;
    }

    static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (int bytes = 4; bytes <= 256 << 10; bytes *= 4) {
            String label = bytes >= 1024 ? "int[] " + (bytes >> 10) + " KB" : "int[] " + bytes + " B";
            rows.add(new Object[] {label, new int[bytes / 4]});
        }
        for (int depth : new int[] {1, 4, 8, 12, 16}) {
            rows.add(new Object[] {"tree " + ((1 << depth) - 1) + " nodes", tree(depth, new int[1])});
        }
        return rows;
    }

    static void client(Link link) throws Exception {
        for (Object[] row : rows()) {
            Object o = row[1];
            long budget = 300_000_000L; // about 0.3 s of round trips per row, at least 20
            List<Long> times = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                link.send(o);
                link.receive();
            }
            long start = System.nanoTime();
            while (times.size() < 20 || System.nanoTime() - start < budget) {
                long t0 = System.nanoTime();
                link.send(o);
                link.receive();
                times.add(System.nanoTime() - t0);
                if (times.size() >= 100_000) break;
            }
            Collections.sort(times);
            System.out.printf("%s\t%.1f%n", row[0], times.get(times.size() / 2) / 1000.0);
        }
        link.send("bye");
    }

    static void server(Link link) throws Exception {
        while (true) {
            Object o = link.receive();
            if ("bye".equals(o)) return;
            link.send(o);
        }
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "jx-server" -> server(JxSide.listen(args[1]));
            case "jx-client" -> client(JxSide.connect(args[1]));
            case "ser-server" -> server(pipes(args[1], args[2], true));
            case "ser-client" -> client(pipes(args[1], args[2], false));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** JDK serialization over two FIFOs: the client writes UP and reads DOWN. */
    static Link pipes(String up, String down, boolean server) throws IOException {
        // Opened in the same order on both ends (a FIFO's open waits for the other end).
        ObjectOutputStream out;
        ObjectInputStream in;
        if (server) {
            InputStream i = new FileInputStream(up);
            out = new ObjectOutputStream(new BufferedOutputStream(new FileOutputStream(down), 1 << 16));
            out.flush();
            in = new ObjectInputStream(new BufferedInputStream(i, 1 << 16));
        } else {
            out = new ObjectOutputStream(new BufferedOutputStream(new FileOutputStream(up), 1 << 16));
            out.flush();
            InputStream i = new FileInputStream(down);
            in = new ObjectInputStream(new BufferedInputStream(i, 1 << 16));
        }
        return new Link() {
            public void send(Object o) throws IOException {
                out.writeObject(o);
                out.reset();
                out.flush();
            }

            public Object receive() throws Exception {
                return in.readObject();
            }
        };
    }
}
