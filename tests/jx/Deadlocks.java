import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * Deadlock detection with portal activations: a portal call's activation in the service's
 * domain deadlocks with a thread of that domain over two monitors. The domain's
 * ThreadMXBean reports both (the activation by its Thread object "portal-N", which
 * getThreadInfo does not know: it is not one of the domain's threads); the caller's domain
 * sees no deadlock (its thread only waits for a portal call); the deadlocked domain is still
 * terminated. Prints one "ok ..." line per check; throws on a failed one.
 */
public class Deadlocks {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    public interface Locks extends Portal {
        /** Takes the first monitor, then (once the domain's own thread holds the second) the second. */
        void lockBoth();
        /** What the domain's ThreadMXBean finds: deadlocked thread names (sorted) and ThreadInfos. */
        String deadlocked();
    }

    static final Object first = new Object(), second = new Object();
    static volatile boolean firstHeld, secondHeld;

    public static class LocksService implements Locks {
        public void lockBoth() {
            synchronized (first) {
                firstHeld = true;
                while (!secondHeld) {
                    Thread.onSpinWait();
                }
                synchronized (second) {
                    System.out.println("unreachable");
                }
            }
        }

        public String deadlocked() {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long[] ids = mx.findMonitorDeadlockedThreads();
            if (ids == null) {
                return "none";
            }
            List<String> names = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (Arrays.stream(ids).anyMatch(id -> id == t.getId())) {
                    names.add(t.getName());
                }
            }
            names.sort(null);
            int known = 0;
            for (ThreadInfo ti : mx.getThreadInfo(ids)) {
                if (ti != null) {
                    known++;
                    names.add(ti.getThreadName() + " blocked on " + ti.getLockName().split("@")[0]
                            + " held by " + ti.getLockOwnerName());
                }
            }
            return ids.length + " " + names + " " + known;
        }
    }

    public static class Server {
        public static void main(String[] args) throws InterruptedException {
            Thread own = new Thread(() -> {
                synchronized (second) {
                    secondHeld = true;
                    while (!firstHeld) {
                        Thread.onSpinWait();
                    }
                    synchronized (first) {
                        System.out.println("unreachable");
                    }
                }
            }, "own");
            own.setDaemon(true);
            own.start();
            Naming.register("locks", new LocksService());
        }
    }

    public static void main(String[] args) throws Exception {
        String cp = System.getProperty("java.class.path");
        Domain server = Domain.create(DomainSpec.named("deadlocks").classPath(cp).mainClass("Deadlocks$Server"));
        Locks locks = Naming.await("locks", Locks.class, 10_000);
        check(locks != null, "the service is found");
        check(locks.deadlocked().equals("none"), "no deadlock at first");
        Thread caller = new Thread(() -> {
            try {
                locks.lockBoth();
            } catch (RuntimeException e) {
                System.out.println("caller: " + e.getClass().getSimpleName());
            }
        }, "caller");
        caller.setDaemon(true);
        caller.start();
        String found = "none";
        for (int i = 0; i < 2000 && found.equals("none"); i++) {
            Thread.sleep(10);
            found = locks.deadlocked();
        }
        check(found.matches("2 \\[own, portal-\\d+, own blocked on java.lang.Object held by portal-\\d+\\] 1"),
                "the activation and the domain's thread are deadlocked there (" + found.replaceAll("\\d+", "N") + ")");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        check(mx.findMonitorDeadlockedThreads() == null && mx.findDeadlockedThreads() == null,
                "the caller's domain has no deadlock");
        ThreadInfo ci = mx.getThreadInfo(caller.getId());
        check(ci.getLockName() == null && ci.getLockOwnerName() == null,
                "its caller waits for no lock (" + ci.getThreadState() + ")");
        server.terminate();
        check(server.awaitTermination(10_000), "the deadlocked domain is terminated");
        caller.join(10_000);
        check(!caller.isAlive(), "the caller's call ends");
    }
}
