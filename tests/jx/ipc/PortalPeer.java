import java.lang.ref.WeakReference;
import java.util.*;
import java.util.concurrent.atomic.AtomicInteger;
import jx.ipc.Channel;
import jx.ipc.ChannelClosedException;
import jx.portal.Portal;
import jx.portal.PortalException;

/**
 * Portals between two jxvm processes over a jx.ipc.Channel (driven by crates/cli/tests/ipc.rs).
 * Modes: serve NAME (export a Calc service, answer the client's questions about it, report
 * when it is freed), check NAME (call it: arguments and results, exceptions, callbacks,
 * concurrent callers, release; print one "ok" line per check), killcall NAME (a call in
 * flight when the serving process is killed), orphan NAME (a portal outliving its Channel
 * object; the channel closes when the portal is collected, while this process lives on),
 * domains NAME (the portal registered in Naming and called from another domain, which is
 * terminated in the middle of a call).
 */
public class PortalPeer {
    public interface Calc extends Portal {
        int add(int a, int b);

        String describe(Point p, List<String> l, double d, char c, long n);

        void fail(String message);

        int twice(Callback cb, int x);

        Callback echo(Callback cb);

        long pid();

        void sleep(long millis) throws InterruptedException;
    }

    public interface Callback extends Portal {
        int apply(int x);
    }

    public record Point(int x, int y) {}

    static class CalcService implements Calc {
        public int add(int a, int b) {
            return a + b;
        }

        public String describe(Point p, List<String> l, double d, char c, long n) {
            return p + " " + l + " " + d + " " + c + " " + n;
        }

        public void fail(String message) {
            throw new IllegalStateException(message);
        }

        public int twice(Callback cb, int x) {
            return cb.apply(x) + cb.apply(x);
        }

        public Callback echo(Callback cb) {
            return cb;
        }

        public long pid() {
            return ProcessHandle.current().pid();
        }

        public void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    }

    static class CallbackService implements Callback {
        final AtomicInteger calls = new AtomicInteger();
        volatile long pid;

        public int apply(int x) {
            calls.incrementAndGet();
            pid = ProcessHandle.current().pid();
            return 2 * x;
        }
    }

    public static void main(String[] args) throws Exception {
        String name = args[1];
        switch (args[0]) {
            case "serve" -> serve(name);
            case "check" -> check(name);
            case "killcall" -> killcall(name);
            case "orphan" -> orphan(name);
            case "domains" -> domains(name);
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

    /** Whether `w` is cleared within 20 s of collections. */
    static boolean freed(WeakReference<?> w) throws InterruptedException {
        for (int i = 0; i < 400 && w.get() != null; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return w.get() == null;
    }

    static void serve(String name) throws Exception {
        Channel ch = Channel.listen(name, 30_000);
        System.out.println("listening");
        CalcService first = new CalcService();
        WeakReference<CalcService> w1 = new WeakReference<>(first);
        ch.send(new Object[] {"calc", first});
        first = null;
        WeakReference<CalcService> w2 = null;
        try {
            while (true) {
                Object o = ch.receive();
                if ("alive?".equals(o)) {
                    System.gc();
                    ch.send(w1.get() != null);
                } else if ("freed?".equals(o)) {
                    ch.send(freed(w1));
                } else if ("second".equals(o)) {
                    CalcService second = new CalcService();
                    w2 = new WeakReference<>(second);
                    ch.send(second);
                }
            }
        } catch (ChannelClosedException e) {
            System.out.println(freed(w1) ? "ok the service was freed" : "the service was kept");
            if (w2 != null) {
                System.out.println(freed(w2) ? "ok the export was freed when the channel closed" : "the export was kept");
            }
        }
    }

    static void ok(boolean b, String what) {
        System.out.println((b ? "ok " : "FAILED ") + what);
    }

    static void check(String name) throws Exception {
        Channel ch = connect(name);
        Object[] got = (Object[]) ch.receive();
        Calc calc = (Calc) got[1];
        ok("calc".equals(got[0]) && Portal.isPortal(calc) && calc.pid() != ProcessHandle.current().pid(),
                "a service arrives as a portal to the other process");
        ok(calc.add(2, 40) == 42
                && calc.describe(new Point(1, 2), List.of("a", "b"), 2.5, 'c', 7L).equals("Point[x=1, y=2] [a, b] 2.5 c 7")
                && calc.describe(null, null, -0.0, '\u20ac', Long.MIN_VALUE).equals("null null -0.0 \u20ac " + Long.MIN_VALUE),
                "a call with arguments and a result");
        try {
            calc.fail("boom");
            ok(false, "an exception");
        } catch (IllegalStateException e) {
            boolean there = Arrays.stream(e.getStackTrace())
                    .anyMatch(s -> s.getClassName().equals("PortalPeer$CalcService") && s.getMethodName().equals("fail"));
            ok(e.getMessage().equals("boom") && there,
                    "an exception thrown by the service arrives with its message and stack trace");
        }
        CallbackService cb = new CallbackService();
        ok(calc.twice(cb, 21) == 84 && cb.calls.get() == 2 && cb.pid == ProcessHandle.current().pid(),
                "a callback: the service calls back into this process during the call");
        ok(calc.echo(cb) == cb, "a portal sent back to its process is the service itself");
        concurrent(calc);
        refusedElsewhere(calc, name + "-elsewhere");
        ch.send("alive?");
        ok(Boolean.TRUE.equals(ch.receive()), "the service is kept while this process holds a portal to it");
        calc = null;
        got = null;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        ch.send("freed?");
        ok(Boolean.TRUE.equals(ch.receive()), "a portal collected here releases the service there");
        ch.send("second");
        Calc second = (Calc) ch.receive();
        ok(second.add(1, 1) == 2, "a second service");
        ch.close();
        try {
            second.add(1, 2);
            ok(false, "a call on a closed channel");
        } catch (PortalException e) {
            ok(true, "a call after the channel is closed is PortalException");
        }
    }

    /** A portal from the peer sent over another channel (here, one to this very process). */
    static void refusedElsewhere(Calc calc, String name) throws Exception {
        Channel[] mine = new Channel[1];
        Thread listener = new Thread(() -> {
            try {
                mine[0] = Channel.listen(name, 10_000);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        listener.start();
        try (Channel other = connect(name)) {
            listener.join();
            try {
                other.send(new Object[] {calc});
                ok(false, "a portal sent over another channel");
            } catch (IllegalArgumentException e) {
                ok(e.getMessage().contains("can only be sent back over its own channel"),
                        "a portal from the peer cannot be sent over another channel (IllegalArgumentException)");
            }
            mine[0].close();
        }
    }

    static void concurrent(Calc calc) throws InterruptedException {
        int threads = 8, calls = 200;
        AtomicInteger right = new AtomicInteger();
        List<Thread> ts = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            int base = k * 1000;
            Thread t = new Thread(() -> {
                for (int i = 0; i < calls; i++) {
                    if (calc.add(base, i) == base + i) right.incrementAndGet();
                }
            });
            t.start();
            ts.add(t);
        }
        for (Thread t : ts) t.join();
        ok(right.get() == threads * calls, threads + " threads call one portal at once");
    }

    static void orphan(String name) throws Exception {
        Calc calc = first(name);
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        ok(calc.add(1, 2) == 3, "a portal outlives the Channel object it came over");
        calc = null;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        System.out.println("dropped");
        Thread.sleep(60_000);
    }

    /** Domain "caller": looks the portal up and calls it; `sleep` never returns in time. */
    public static class Caller {
        public static void main(String[] args) throws Exception {
            Calc calc = jx.naming.Naming.await("calc", Calc.class, 60_000);
            System.out.println((calc.add(20, 22) == 42 ? "ok" : "FAILED")
                    + " another domain calls the portal through Naming");
            System.out.flush();
            calc.sleep(60_000);
        }
    }

    static void domains(String name) throws Exception {
        Calc calc = first(name);
        jx.naming.Naming.register("calc", calc);
        jx.domain.Domain d = jx.domain.Domain.create(jx.domain.DomainSpec.named("caller")
                .classPath(System.getProperty("java.class.path"))
                .mainClass("PortalPeer$Caller"));
        Thread.sleep(1000);
        d.terminate();
        ok(!d.isAlive() && d.awaitTermination(20_000),
                "a domain terminated while its thread waits for a remote call ends");
        ok(calc.add(1, 1) == 2, "the portal still works here");
    }

    /** The service the server sends first, over a channel nothing references after. */
    static Calc first(String name) throws Exception {
        return (Calc) ((Object[]) connect(name).receive())[1];
    }

    static void killcall(String name) throws Exception {
        Channel ch = connect(name);
        Calc calc = (Calc) ((Object[]) ch.receive())[1];
        ok(calc.add(1, 2) == 3, "a call");
        System.out.println("calling");
        try {
            calc.sleep(60_000);
            ok(false, "the call returned");
        } catch (PortalException e) {
            ok(true, "a call in flight when the serving process is killed is PortalException");
        }
        try {
            calc.add(1, 2);
            ok(false, "a later call returned");
        } catch (PortalException e) {
            ok(true, "so is a later call");
        }
    }
}
