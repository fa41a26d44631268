import java.io.InvalidClassException;
import java.math.BigInteger;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import jx.ipc.Channel;
import jx.ipc.ChannelClosedException;

/**
 * Two jxvm processes over a jx.ipc.Channel (driven by crates/cli/tests/ipc.rs). Modes:
 * serve NAME (echo every graph back; class errors answered as strings), check NAME (send graphs
 * of every kind, check what comes back, print one "ok" line per check), collect NAME / senders
 * NAME (concurrent senders, both directions at once), mirror NAME (send a sample, then report
 * what each received frame became), bigsend NAME / drain NAME (a peer killed mid-send).
 */
public class IpcPeer {
    public static void main(String[] args) throws Exception {
        String name = args[1];
        switch (args[0]) {
            case "serve" -> serve(name);
            case "check" -> check(name);
            case "collect" -> collect(name);
            case "senders" -> senders(name);
            case "mirror" -> mirror(name);
            case "bigsend" -> bigsend(name);
            case "drain" -> drain(name);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static Channel connect(String name) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try {
                return Channel.connect(name);
            } catch (java.io.IOException e) {
                if (System.currentTimeMillis() > deadline) throw e;
                Thread.sleep(20);
            }
        }
    }

    static void serve(String name) throws Exception {
        try (Channel ch = Channel.listen(name, 30_000)) {
            System.out.println("listening");
            int n = 0;
            while (true) {
                Object o;
                try {
                    o = ch.receive();
                } catch (InvalidClassException | OutOfMemoryError e) {
                    ch.send(e.getClass().getSimpleName() + ": " + e.getMessage());
                    continue;
                }
                if ("bye".equals(o)) break;
                if ("finalized?".equals(o)) {
                    Finalizable.await(1);
                    ch.send(Finalizable.finalized.get());
                    n++;
                    continue;
                }
                if (o instanceof Object[] q && q.length == 3 && "lookup".equals(q[0])) {
                    // A lookup here, in the receiver: its hash tables must find its own keys.
                    ch.send(((Map<?, ?>) q[1]).get(q[2]));
                    n++;
                    continue;
                }
                if (o instanceof Throwable th) {
                    // Described here, in the receiver.
                    th.addSuppressed(new RuntimeException("s"));
                    StackTraceElement top = th.getStackTrace()[0];
                    ch.send(th.getMessage() + "|" + th.getCause().getMessage() + "|" + top.getMethodName()
                        + ":" + top.getLineNumber() + "|" + th.getSuppressed().length);
                    n++;
                    continue;
                }
                ch.send(o);
                n++;
            }
            System.out.println("served " + n);
        }
    }

    static void ok(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED " + what);
        System.out.println("ok " + what);
    }

    static void check(String name) throws Exception {
        try (Channel ch = connect(name)) {
            check(ch);
            ch.send("bye");
        }
    }

    @SuppressWarnings("unchecked")
    static <T> T echo(Channel ch, T o) throws Exception {
        ch.send(o);
        return (T) ch.receive();
    }

    static void check(Channel ch) throws Exception {
        String u = "h\u00e9llo w\u00f6rld \u2713 \ud83d\ude00";
        ok(echo(ch, "plain").equals("plain") && echo(ch, u).equals(u), "strings, Latin-1 and UTF-16");
        ok(echo(ch, null) == null, "null");
        Object[] boxes = {42, -7L, 2.5, 1.5f, true, 'x', (byte) 3, (short) -4,
            new BigInteger("123456789012345678901234567890")};
        ok(Arrays.equals(echo(ch, boxes), boxes), "boxed values and BigInteger");

        Random r = new Random(7);
        int[] ints = new int[100_000];
        for (int i = 0; i < ints.length; i++) ints[i] = r.nextInt();
        ok(Arrays.equals(echo(ch, ints), ints), "int[100000]");
        byte[] big = new byte[5 << 20];
        r.nextBytes(big);
        ok(Arrays.equals(echo(ch, big), big), "byte[5 MB], larger than the ring");
        double[] ds = {0.0, -0.0, Double.NaN, Double.MIN_VALUE, 1e300};
        ok(Arrays.equals(echo(ch, ds), ds), "double[] bit for bit");
        int[][] grid = {{1, 2}, {}, null, {3}};
        ok(Arrays.deepEquals(echo(ch, grid), grid), "int[][] with an empty and a null row");

        ok(echo(ch, Color.RED) == Color.RED, "an enum constant is the receiver's own");
        ok(echo(ch, Color.GREEN) == Color.GREEN, "an enum constant with a body");
        EnumMap<Color, String> em = new EnumMap<>(Color.class);
        em.put(Color.BLUE, "b");
        em.put(Color.RED, "r");
        EnumMap<Color, String> em2 = echo(ch, em);
        ok(em2.equals(em) && em2.get(Color.BLUE).equals("b"), "EnumMap");
        ok(echo(ch, EnumSet.of(Color.GREEN, Color.BLUE)).equals(EnumSet.of(Color.GREEN, Color.BLUE)), "EnumSet");
        ok(echo(ch, Point.class) == Point.class && echo(ch, int[].class) == int[].class, "Class objects by name");

        ok(((Noisy) echo(ch, (Object) new Noisy())).x == 3,
            "an object whose class the receiver does not initialize (no static initializer runs there)");
        Point p = new Point(3, -4, "p");
        ok(echo(ch, p).equals(p), "a record");
        List<Object> list = new ArrayList<>(List.of("a", 1, p, List.of(2, 3)));
        ok(echo(ch, list).equals(list), "ArrayList and List.of");
        HashMap<String, Integer> map = new HashMap<>();
        for (int i = 0; i < 1000; i++) map.put("k" + i, i);
        HashMap<String, Integer> map2 = echo(ch, map);
        ok(map2.equals(map) && map2.get("k999") == 999, "HashMap of 1000");
        LinkedHashMap<String, Integer> lhm = new LinkedHashMap<>();
        lhm.put("z", 1);
        lhm.put("a", 2);
        ok(new ArrayList<>(echo(ch, lhm).keySet()).equals(List.of("z", "a")), "LinkedHashMap keeps its order");
        TreeMap<String, Point> tm = new TreeMap<>(Comparator.reverseOrder());
        tm.put("a", p);
        tm.put("b", new Point(1, 1, null));
        TreeMap<String, Point> tm2 = echo(ch, tm);
        ok(tm2.equals(tm) && tm2.firstKey().equals("b"), "TreeMap with a comparator");
        HashSet<String> hs = new HashSet<>(List.of("x", "y"));
        ok(echo(ch, hs).equals(hs) && echo(ch, hs).contains("y"), "HashSet");
        ArrayDeque<Integer> dq = new ArrayDeque<>(List.of(1, 2, 3));
        ok(List.copyOf(echo(ch, dq)).equals(List.of(1, 2, 3)), "ArrayDeque");
        ConcurrentHashMap<Integer, String> chm = new ConcurrentHashMap<>(Map.of(1, "one", 2, "two"));
        ok(echo(ch, chm).equals(chm), "ConcurrentHashMap");
        Map<Color, Integer> byColor = new HashMap<>(Map.of(Color.RED, 1, Color.BLUE, 2));
        ok(echo(ch, (Object) new Object[] {"lookup", byColor, Color.BLUE}).equals(2),
            "the receiver finds enum constants in a HashMap keyed by them");
        Map<Class<?>, String> byClass = new HashMap<>();
        for (Class<?> k : List.of(String.class, Point.class, int[].class, List.class, Color.class)) {
            byClass.put(k, k.getName());
        }
        ok(echo(ch, (Object) new Object[] {"lookup", byClass, Point.class}).equals("Point")
                && echo(ch, (Object) new Object[] {"lookup", byClass, int[].class}).equals("[I"),
            "the receiver finds Class objects in a HashMap keyed by them");

        Exception ex = new IllegalStateException("boom", new RuntimeException("inner"));
        int line = new Throwable().getStackTrace()[0].getLineNumber() - 1;
        ok(echo(ch, (Object) ex).equals("boom|inner|check:" + line + "|1"),
            "an exception arrives with its message, cause and stack trace; addSuppressed works there");

        Node a = new Node(1), b = new Node(2);
        a.next = b;
        b.next = a;
        long[] shared = {5, 6};
        a.other = shared;
        b.other = shared;
        a.cache = "cached";
        a.hits = 9;
        Node a2 = echo(ch, a);
        ok(a2.value == 1 && a2.next.value == 2 && a2.next.next == a2, "a cycle is kept");
        ok(a2.other == a2.next.other && ((long[]) a2.other)[1] == 6, "sharing is kept");
        ok(a2.cache == null && a2.hits == 0, "transient fields arrive at their default");
        Node head = null;
        for (int i = 0; i < 200_000; i++) {
            Node n = new Node(i);
            n.next = head;
            head = n;
        }
        Node h2 = echo(ch, head);
        int count = 0;
        long sum = 0;
        for (Node n = h2; n != null; n = n.next) {
            count++;
            sum += n.value;
        }
        ok(count == 200_000 && sum == 199_999L * 200_000 / 2, "a list of 200000 nodes");

        ok(echo(ch, (Object) new Lonely()).equals("InvalidClassException: Lonely; no such class here"),
            "a class the receiver lacks is InvalidClassException there");
        ok(echo(ch, (Object) new Object[] {"x", new Shaped()}).equals(
                "InvalidClassException: Shaped; its fields differ from the sender's class"),
            "a class of another shape is InvalidClassException there");
        ok(echo(ch, "still").equals("still"), "the channel stays usable after them");
        Finalizable f = echo(ch, new Finalizable());
        ok(f != null && f.body[2] == 3, "a finalizable object crosses and comes back");
        f = null;
        ok(echo(ch, (Object) "finalized?").equals(1), "its copy in the receiver is finalized there");
        ok(Finalizable.await(2), "the original and the copy that came back are finalized here");
        try {
            ch.send(List.of("t", Thread.currentThread()));
            ok(false, "a Thread was sent");
        } catch (IllegalArgumentException e) {
            ok(e.getMessage().equals("an object of class java.lang.Thread cannot be sent over a channel"),
                "a Thread is IllegalArgumentException");
        }
        try {
            Runnable lambda = () -> {};
            ch.send(new Object[] {lambda});
            ok(false, "a lambda was sent");
        } catch (IllegalArgumentException e) {
            ok(true, "a lambda is IllegalArgumentException");
        }
        ok(echo(ch, "after").equals("after"), "nothing was sent by a refused send");
        byte[] huge = new byte[64 << 20];
        Object reply = echo(ch, (Object) huge);
        ok(reply instanceof String s && s.startsWith("OutOfMemoryError"), "a graph too large for the receiver's heap is OutOfMemoryError there");
        ok(echo(ch, "alive").equals("alive"), "the receiver lives on after it");
        ok(ch.receive(50) == null, "receive with a timeout is null when nothing comes");
        String[] result = new String[1];
        Thread waiter = new Thread(() -> {
            try {
                result[0] = "received " + ch.receive();
            } catch (InterruptedException e) {
                result[0] = "interrupted " + Thread.currentThread().isInterrupted();
            } catch (Exception e) {
                result[0] = e.toString();
            }
        });
        waiter.start();
        Thread.sleep(100);
        waiter.interrupt();
        waiter.join(10_000);
        ok("interrupted false".equals(result[0]), "a waiting receive is interrupted (InterruptedException, status cleared)");
        ok(echo(ch, "after interrupt").equals("after interrupt"), "the channel is usable after it");
        Channel[] mine = new Channel[1];
        Thread listener = new Thread(() -> {
            try {
                mine[0] = Channel.listen("within", 10_000);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        listener.start();
        Channel other = connect("within");
        listener.join();
        mine[0].send("to myself");
        ok("to myself".equals(other.receive()), "a channel between two threads of one process");
        mine[0] = null;
        boolean closed = false;
        for (int i = 0; i < 200 && !closed; i++) {
            System.gc();
            try {
                other.receive(50);
            } catch (ChannelClosedException e) {
                closed = true;
            }
        }
        ok(closed, "an end that became unreachable is closed by the collector");
        other.close();
        try {
            other.send("x");
            ok(false, "sent on a closed channel");
        } catch (ChannelClosedException e) {
            ok(e.getMessage().equals("the channel is closed"), "a closed end refuses to send");
        }
        try {
            Channel.connect("nobody-listens-here");
            ok(false, "connected to nobody");
        } catch (java.io.IOException e) {
            ok(e.getMessage().startsWith("nobody listens on channel nobody-listens-here"), "connect to a name nobody listens on is IOException");
        }
        try {
            Channel.listen("lonely-listener", 100);
            ok(false, "somebody connected");
        } catch (java.io.IOException e) {
            ok(e.getMessage().equals("nobody connected to channel lonely-listener in time"), "listen times out with IOException");
        }
        try {
            Channel.listen("../escape", 100);
            ok(false, "a name with a slash");
        } catch (java.io.IOException e) {
            ok(e.getMessage().startsWith("invalid channel name"), "a name that is not a plain word is IOException");
        }
    }

    /** Receives 4 x 100 lists from `senders`' threads while sending 100 graphs back. */
    static void collect(String name) throws Exception {
        try (Channel ch = Channel.listen(name, 30_000)) {
            Thread back = new Thread(() -> {
                try {
                    for (int i = 0; i < 100; i++) ch.send(new int[] {i, i * i});
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            back.start();
            int[] next = new int[4];
            boolean whole = true;
            for (int i = 0; i < 400; i++) {
                @SuppressWarnings("unchecked")
                List<Integer> l = (List<Integer>) ch.receive();
                int t = l.get(0), seq = l.get(1);
                whole &= l.size() == 2 + seq && seq == next[t];
                for (int k = 2; k < l.size(); k++) whole &= l.get(k) == t * 1000 + k;
                next[t]++;
            }
            back.join();
            ok(whole, "400 graphs from 4 sending threads arrive whole and in each thread's order");
            ch.send("done");
        }
    }

    static void senders(String name) throws Exception {
        try (Channel ch = connect(name)) {
            Thread[] ts = new Thread[4];
            for (int t = 0; t < 4; t++) {
                int id = t;
                ts[t] = new Thread(() -> {
                    try {
                        for (int seq = 0; seq < 100; seq++) {
                            List<Integer> l = new ArrayList<>(List.of(id, seq));
                            for (int k = 2; k < 2 + seq; k++) l.add(id * 1000 + k);
                            ch.send(l);
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                ts[t].start();
            }
            boolean good = true;
            for (int i = 0; i < 100; i++) {
                int[] x = (int[]) ch.receive();
                good &= x[0] == i && x[1] == i * i;
            }
            for (Thread t : ts) t.join();
            ok(good, "100 graphs received while 4 threads send");
            ok("done".equals(ch.receive()), "the peer saw them all");
        }
    }

    /**
     * Sends a sample graph, then reports what each frame received became (its class, or the
     * exception), until closed. The objects are not used: a hostile peer's graph may hold any
     * values (a HashMap whose chain loops), which only Java code would trip on.
     */
    static void mirror(String name) throws Exception {
        try (Channel ch = Channel.listen(name, 30_000)) {
            Node n = new Node(5);
            n.next = n;
            n.other = new Object[] {"str", "\u2713", Color.BLUE, new Point(1, 2, "q"),
                new ArrayList<>(List.of(1L, 2.0)), new HashMap<>(Map.of("k", new int[] {1, 2})),
                new long[] {7, 8}, Point.class};
            ch.send(n);
            int frames = 0;
            while (true) {
                String what;
                try {
                    Object o = ch.receive();
                    what = o == null ? "null" : o.getClass().getName();
                    if (o instanceof Node m && m.value == 5 && m.next == m
                            && m.other instanceof Object[] os && os.length == 8
                            && Color.BLUE == os[2] && new Point(1, 2, "q").equals(os[3])
                            && os[7] == Point.class) {
                        what = "the sample intact";
                    }
                } catch (ChannelClosedException e) {
                    System.out.println("closed after " + frames + " frames");
                    return;
                } catch (Throwable e) {
                    what = e.getClass().getName();
                }
                frames++;
                System.out.println("frame " + what);
            }
        }
    }

    static void bigsend(String name) throws Exception {
        try (Channel ch = Channel.listen(name, 30_000)) {
            int[] big = new int[8 << 20];
            for (int i = 0; ; i++) {
                try {
                    ch.send(big);
                } catch (ChannelClosedException e) {
                    System.out.println("ChannelClosedException: " + e.getMessage());
                    return;
                }
                if (i == 0) System.out.println("sent one");
            }
        }
    }

    static void drain(String name) throws Exception {
        try (Channel ch = connect(name)) {
            int n = 0;
            while (true) {
                try {
                    int[] x = (int[]) ch.receive();
                    if (n++ == 0) System.out.println("received " + x.length);
                } catch (ChannelClosedException e) {
                    System.out.println("ChannelClosedException: " + e.getMessage());
                    return;
                }
            }
        }
    }
}

enum Color {
    RED, GREEN {
        @Override
        public String toString() {
            return "green!";
        }
    }, BLUE
}

record Point(int x, int y, String label) {}

/** Counts its finalizations (copies received are registered for finalization as `new` would). */
class Finalizable {
    static final java.util.concurrent.atomic.AtomicInteger finalized = new java.util.concurrent.atomic.AtomicInteger();
    final int[] body = {1, 2, 3};

    @SuppressWarnings("deprecation")
    @Override
    protected void finalize() {
        finalized.incrementAndGet();
    }

    /** Whether n objects were finalized (collecting until they are, for up to 10 s). */
    static boolean await(int n) throws InterruptedException {
        for (int i = 0; i < 1000 && finalized.get() < n; i++) {
            System.gc();
            System.runFinalization();
            Thread.sleep(10);
        }
        return finalized.get() == n;
    }
}

class Node {
    int value;
    Node next;
    Object other;
    transient String cache;
    transient int hits;

    Node(int value) {
        this.value = value;
    }
}

class Noisy {
    static {
        System.out.println("Noisy initialized");
    }

    int x = 3;
}

class Lonely {
    int a = 7;
}

class Shaped {
    int a;
    String b;
}
