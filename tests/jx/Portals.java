import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.memory.Memory;
import jx.memory.ReadOnlyMemory;
import jx.naming.Naming;
import jx.portal.Portal;
import jx.portal.PortalException;

/**
 * Portals between domains: deep copies with cycles and sharing, exceptions copied back,
 * portals and services passed by reference (a service comes home as itself), memory objects
 * shared, enum constants kept, refused classes and the quota, same-domain calls, termination
 * during a call. Prints one "ok ..." line per check; throws on a failed one.
 */
public class Portals {
    public interface Sized extends Portal {
        int size();
    }

    public interface Store extends Sized {
        void put(String k, Object v);
        Object get(String k);
        double mix(long a, String s, double d, int[] xs, char c);
        long twice(long v);
        int count(int[] xs);
        default String describe() { return "store in " + domainName(); }
        void fail(String msg);
        Greeter callBack(Greeter g);
        long sum(ReadOnlyMemory m);
        Kind flip(Kind k);
        String lookUp(Map<Kind, String> byKind, Kind k);
        int found(Map<Object, Integer> byIdentity, List<Object> keys);
        boolean startsThread() throws InterruptedException;
        void spin();
        String domainName();
    }

    public interface Greeter extends Portal {
        String greet(String who);
    }

    public enum Kind { A, B }

    public static class Node {
        Node next;
        int v;

        Node(int v) {
            this.v = v;
        }
    }

    public static class StoreService implements Store {
        final Map<String, Object> map = new HashMap<>();

        public void put(String k, Object v) { map.put(k, v); }
        public Object get(String k) { return map.get(k); }
        public int size() { return map.size(); }
        public double mix(long a, String s, double d, int[] xs, char c) {
            return a + s.length() + d + xs[0] + xs[xs.length - 1] + c;
        }
        public long twice(long v) { return 2 * v; }
        public int count(int[] xs) { return xs.length; }
        public void fail(String msg) { throw new IllegalStateException("service says " + msg); }
        public Greeter callBack(Greeter g) {
            if (!g.greet("server").equals("hello server from app")) {
                throw new AssertionError("the call back ran in the wrong domain");
            }
            return g;
        }
        public long sum(ReadOnlyMemory m) {
            long s = 0;
            for (long i = 0; i < m.size(); i++) {
                s += m.getByte(i);
            }
            return s;
        }
        public Kind flip(Kind k) { return k == Kind.A ? Kind.B : Kind.A; }
        public String lookUp(Map<Kind, String> byKind, Kind k) { return byKind.get(k); }
        public boolean startsThread() throws InterruptedException {
            boolean[] ran = new boolean[1];
            Thread th = new Thread(() -> ran[0] = true);
            th.start();
            th.join();
            return ran[0];
        }
        public int found(Map<Object, Integer> byIdentity, List<Object> keys) {
            int n = 0;
            for (Object k : keys) {
                if (byIdentity.get(k) != null) {
                    n++;
                }
            }
            return n;
        }
        public void spin() { while (true) { } }
        public String domainName() { return Domain.current().name(); }
    }

    public static class Server {
        public static void main(String[] args) {
            Naming.register("store", new StoreService());
        }
    }

    public static class TransientServer {
        public static void main(String[] args) {
            Naming.register("transient", new StoreService());
        }
    }

    static int callOnce() throws Exception {
        Store s = Naming.await("transient", Store.class, 10_000);
        return s.size();
    }

    public static class SmallServer {
        public static void main(String[] args) {
            Naming.register("small", new StoreService());
        }
    }

    public static class LimitedServer {
        public static void main(String[] args) throws InterruptedException {
            Naming.register("limited", new StoreService());
            Thread.sleep(Long.MAX_VALUE); // one of its two threads, until it is terminated
        }
    }

    static class LocalGreeter implements Greeter {
        public String greet(String who) { return "hello " + who + " from " + Domain.current().name(); }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    public static void main(String[] args) throws Exception {
        Domain main = Domain.current();
        String cp = System.getProperty("java.class.path");
        Domain server = Domain.create(DomainSpec.named("server").classPath(cp).mainClass("Portals$Server"));
        Store store = Naming.await("store", Store.class, 10_000);
        check(store != null && jx.portal.Portal.isPortal(store), "a lookup in another domain gives a portal");
        check(store.domainName().equals("server"), "the call runs in the service's domain");
        check(store.mix(1L << 40, "abc", 0.5, new int[] {7, 8, 9}, 'A') == (1L << 40) + 3 + 0.5 + 7 + 9 + 65
                && store.twice(-(1L << 50)) == -(1L << 51), "long, double, char, array and String parameters and results");
        Sized sized = store;
        check(sized.size() == 0 && store.describe().equals("store in server"),
                "methods of superinterfaces and default methods run in the service's domain");
        Store again = Naming.lookup("store", Store.class);
        check(store.toString().startsWith("Portal[") && store.equals(store) && !store.equals(again)
                && store.hashCode() == System.identityHashCode(store) && store.getClass() == again.getClass(),
                "a portal's equals, hashCode and toString are its own");

        List<Integer> list = new ArrayList<>(List.of(1, 2, 3));
        store.put("list", list);
        list.add(4);
        check(store.get("list").equals(List.of(1, 2, 3)), "parameters are copied, not shared");
        Node a = new Node(1);
        a.next = new Node(2);
        a.next.next = a;
        Object[] pair = {a, a};
        store.put("cycle", pair);
        Object[] back = (Object[]) store.get("cycle");
        Node b = (Node) back[0];
        check(b != a && b.next.next == b && back[1] == b && b.next.v == 2, "cycles and sharing are kept");

        try {
            store.fail("no");
            check(false, "exceptions are copied back");
        } catch (IllegalStateException e) {
            check(e.getMessage().equals("service says no") && e.getStackTrace()[0].getMethodName().equals("fail"), "exceptions are copied back with their stack trace");
        }

        LocalGreeter g = new LocalGreeter();
        check(store.callBack(g) == g, "a Portal object becomes a service and comes home as itself");

        Memory m = Memory.allocate(16);
        for (int i = 0; i < 16; i++) {
            m.setByte(i, (byte) i);
        }
        check(store.sum(m.readOnly()) == 120, "memory objects cross without a copy");
        check(store.flip(Kind.A) == Kind.B, "enum constants keep their identity");
        Map<Kind, String> byKind = new HashMap<>();
        byKind.put(Kind.A, "a");
        byKind.put(Kind.B, "b");
        Map<Object, Integer> byIdentity = new HashMap<>();
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Object k = new Object();
            byIdentity.put(k, i);
            keys.add(k);
        }
        check("b".equals(store.lookUp(byKind, Kind.B)) && store.found(byIdentity, keys) == 100,
                "hash maps keyed by enum constants or by identity still find their keys");

        try {
            store.put("class", String.class);
            check(false, "a Class cannot cross");
        } catch (PortalException e) {
            check(e.getMessage().contains("java.lang.Class cannot be passed"), "a Class cannot cross: " + e.getMessage());
        }
        // What holds a descriptor of this domain stays here: a copy would share the number,
        // which is closed (and reused) when this domain ends.
        java.io.File data = java.io.File.createTempFile("portals", ".txt");
        data.deleteOnExit();
        try (java.io.FileInputStream in = new java.io.FileInputStream(data);
             java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open()) {
            Object[][] holders = {{"a FileDescriptor", java.io.FileDescriptor.out, "java.io.FileDescriptor"}, {"a file stream", in, "java.io.FileDescriptor"},
                    {"a socket channel", channel, "sun.nio.ch.SocketChannelImpl"}, {"an Inflater", new java.util.zip.Inflater(), "java.util.zip.Inflater"}};
            for (Object[] h : holders) {
                try {
                    store.put((String) h[0], h[1]);
                    check(false, h[0] + " cannot cross");
                } catch (PortalException e) {
                    check(e.getMessage().contains(h[2] + " cannot be passed"), h[0] + " cannot cross: " + e.getMessage());
                }
            }
        }
        // An object of a hidden class this domain made stays here: the class goes with the
        // domain (or once unreachable here), which the copy would outlive.
        try {
            byte[] nodeBytes;
            try (var in = Portals.class.getResourceAsStream("Portals$Node.class")) {
                nodeBytes = in.readAllBytes();
            }
            Class<?> hidden = java.lang.invoke.MethodHandles.lookup().defineHiddenClass(nodeBytes, true).lookupClass();
            var make = hidden.getDeclaredConstructor(int.class);
            store.put("hidden", make.newInstance(7));
            check(false, "an object of a hidden class cannot cross");
        } catch (PortalException e) {
            check(e.getMessage().contains("cannot be passed"), "an object of a hidden class this domain made cannot cross: " + e.getMessage());
        }
        try {
            store.put("huge", new long[4_000_000]);
            check(false, "the quota");
        } catch (PortalException e) {
            check(e.getMessage().contains("quota"), "a huge graph exceeds the quota: " + e.getMessage());
        }
        check(store.size() == 2, "a refused call changes nothing");

        Naming.register("local", new StoreService());
        Store local = Naming.lookup("local", Store.class);
        check(!jx.portal.Portal.isPortal(local) && local.domainName().equals(main.name()), "in its own domain a service is itself");
        check(Naming.lookup("absent", Store.class) == null, "lookup of an absent name is null");

        Thread killer = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
            }
            server.terminate();
        });
        killer.start();
        try {
            store.spin();
            check(false, "termination during a call");
        } catch (PortalException e) {
            check(e.getMessage().contains("terminated during the call"), "termination during a call: " + e.getMessage());
        }
        check(server.awaitTermination(10_000), "the server ended");
        try {
            store.size();
            check(false, "calls into an ended domain fail");
        } catch (PortalException e) {
            check(true, "calls into an ended domain fail: " + e.getMessage());
        }
        check(Naming.lookup("store", Store.class) == null, "names of ended domains are gone");

        // A domain whose components are done lives while others hold its services.
        Domain transientServer = Domain.create(DomainSpec.named("transient").classPath(cp).mainClass("Portals$TransientServer"));
        check(callOnce() == 0 && !transientServer.awaitTermination(200), "a domain serving others lives on after its main");
        Naming.unregister("transient");
        for (int i = 0; i < 50 && transientServer.isAlive(); i++) {
            System.gc(); // collects the portal, which releases the service
            transientServer.awaitTermination(20);
        }
        check(transientServer.awaitTermination(10_000), "it ends when the last reference to its services is gone");

        // Copies into a service that allocates nothing itself are collected all the same.
        Domain small = Domain.create(DomainSpec.named("small").classPath(cp).mainClass("Portals$SmallServer").heapLimit(8 << 20));
        Store smallStore = Naming.await("small", Store.class, 10_000);
        int[] quarterMegabyte = new int[1 << 16];
        long received = 0;
        for (int i = 0; i < 200; i++) {
            received += 4L * smallStore.count(quarterMegabyte);
        }
        check(received == 200L << 18 && small.isAlive() && small.stats().collections() > 0,
                "a service that allocates nothing receives 50 MB through an 8 MB heap");
        small.terminate();

        // A call runs on the caller's OS thread, but its time is the service's.
        Domain limited = Domain.create(DomainSpec.named("limited").classPath(cp).mainClass("Portals$LimitedServer").cpuTimeLimit(300).maxThreads(2));
        Store runaway = Naming.await("limited", Store.class, 10_000);
        check(runaway.startsThread(), "a call visiting a domain is not one of its threads (maxThreads 2)");
        long before = main.stats().cpuTimeNanos();
        try {
            runaway.spin();
            check(false, "a service looping past its CPU-time limit is terminated");
        } catch (PortalException e) {
            check(limited.awaitTermination(10_000), "a service looping past its CPU-time limit is terminated");
        }
        long charged = main.stats().cpuTimeNanos() - before;
        check(limited.stats().cpuTimeNanos() >= 300_000_000L && charged < 150_000_000L,
                "the service's domain is charged for the call, not the caller's");
    }
}
