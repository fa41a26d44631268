import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * Calls that come back: a chain A -> B -> A re-enters monitors A's thread holds, as plain Java
 * would; ping-pong recursion between two domains ends in StackOverflowError (never a process
 * abort), and calls work afterwards. Each check prints "ok ..." or throws.
 */
public class Reentry {
    public interface Ping extends Portal {
        int ping(int n);

        int inner();
    }

    public interface Pong extends Portal {
        int pong(int n);

        int callBack();
    }

    static final Object LOCK = new Object();

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    static final class PingImpl implements Ping {
        public int ping(int n) {
            return Naming.lookup("pong", Pong.class).pong(n + 1);
        }

        public int inner() {
            synchronized (LOCK) {
                return 7;
            }
        }
    }

    static final class PongImpl implements Pong {
        public int pong(int n) {
            return Naming.lookup("ping", Ping.class).ping(n + 1);
        }

        public int callBack() {
            return Naming.lookup("ping", Ping.class).inner();
        }
    }

    public static class B {
        public static void main(String[] args) {
            Naming.register("pong", new PongImpl());
        }
    }

    /** Runs `r` in a thread; fails the program if it has not finished within `seconds`. */
    static void within(int seconds, String what, Runnable r) throws InterruptedException {
        Throwable[] failed = new Throwable[1];
        Thread th = new Thread(() -> {
            try {
                r.run();
            } catch (Throwable e) {
                failed[0] = e;
            }
        });
        th.setDaemon(true);
        th.start();
        th.join(seconds * 1000L);
        if (th.isAlive()) {
            System.out.println("FAILED: " + what + ": still running after " + seconds + " s (deadlock?)");
            System.exit(1);
        }
        if (failed[0] != null) throw new AssertionError("FAILED: " + what, failed[0]);
    }

    public static void main(String[] args) throws Exception {
        Naming.register("ping", new PingImpl());
        Domain b = Domain.create(DomainSpec.named("b").classPath(System.getProperty("java.class.path")).mainClass("Reentry$B"));
        Pong pong = Naming.await("pong", Pong.class, 30_000);
        within(30, "re-entry", () -> {
            synchronized (LOCK) {
                check(pong.callBack() == 7, "a chain A -> B -> A re-enters a monitor A's thread holds");
            }
        });
        within(120, "ping-pong", () -> {
            try {
                pong.pong(0);
                throw new AssertionError("FAILED: unbounded recursion returned");
            } catch (StackOverflowError e) {
                check(true, "ping-pong recursion between two domains ends in StackOverflowError");
            }
        });
        check(pong.callBack() == 7, "calls work after the overflow");
        check(b.isAlive() && Domain.current().isAlive(), "both domains live on");
    }
}
