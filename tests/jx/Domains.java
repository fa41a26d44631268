import java.util.ArrayList;
import java.util.List;

import jx.domain.Domain;
import jx.domain.DomainException;
import jx.domain.DomainSpec;
import jx.domain.DomainStats;

/**
 * Domains from Java: per-domain statics and class initialization, creation errors, and the
 * hostile cases (a runaway loop past its CPU-time limit, a domain allocating without bound,
 * blocked threads of a terminated domain, System.exit in a domain, the thread limit). Prints
 * one "ok ..." line per check; throws on a failed one.
 */
public class Domains {
    static int counter;
    static final long BOOTED_AT = System.nanoTime();

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    static DomainSpec spec(String name) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path"));
    }

    public static class Child {
        public static void main(String[] args) {
            counter += 100;
            // Its own statics, its own String table, its own class initialization.
            if (counter != 100 || !"x".equals(args[0]) || BOOTED_AT == Long.parseLong(args[1])) {
                System.exit(7);
            }
        }
    }

    public static class Spin {
        public static void main(String[] args) {
            long x = 0;
            while (true) {
                try {
                    while (true) {
                        x++;
                    }
                } catch (Throwable t) {
                    // A terminated domain runs no handler: this is never reached.
                    System.out.println("FAILED: a handler ran in a terminated domain");
                }
            }
        }
    }

    public static class Hog {
        public static void main(String[] args) {
            List<long[]> l = new ArrayList<>();
            try {
                while (true) {
                    l.add(new long[100_000]);
                }
            } catch (OutOfMemoryError e) {
                l = null;
                System.out.println("ok the hog's OutOfMemoryError is its own");
            }
        }
    }

    public static class Sleeper {
        public static void main(String[] args) throws Exception {
            Object lock = new Object();
            Thread waiter = new Thread(() -> {
                synchronized (lock) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        System.out.println("FAILED: a handler ran in a terminated domain");
                    }
                }
            });
            waiter.start();
            Thread.sleep(100_000);
        }
    }

    public static class Exiter {
        public static void main(String[] args) {
            System.exit(3);
        }
    }

    public static class ThreadHog {
        public static void main(String[] args) throws Exception {
            int refused = 0;
            for (int i = 0; i < 5; i++) {
                try {
                    new Thread(() -> {
                        try {
                            Thread.sleep(300);
                        } catch (InterruptedException e) {
                        }
                    }).start();
                } catch (OutOfMemoryError e) {
                    refused++;
                }
            }
            System.out.println("threads refused: " + refused);
        }
    }

    static void expectCreateError(DomainSpec s, String message) {
        try {
            Domain.create(s);
            check(false, "refused: " + message);
        } catch (DomainException e) {
            check(e.getMessage().contains(message), "refused: " + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        counter = 1;
        Domain child = Domain.create(spec("child").mainClass("Domains$Child", "x", Long.toString(BOOTED_AT)));
        check(child.name().equals("child") && child.id() > 1, "created " + child.name());
        check(child.awaitTermination(10_000), "the child finished");
        check(!child.isAlive(), "an ended domain is not alive");
        check(counter == 1, "statics are per domain");
        check(Domain.current().id() == 1 && Domain.zero().name().equals("DomainZero"), "current and zero");

        Domain spin = Domain.create(spec("spin").mainClass("Domains$Spin").cpuTimeLimit(200));
        check(spin.awaitTermination(10_000), "a runaway loop is stopped past its CPU-time limit");
        check(spin.stats().cpuTimeNanos() >= 200_000_000L, "its CPU time is accounted");

        Domain hog = Domain.create(spec("hog").mainClass("Domains$Hog").heapLimit(32 << 20));
        check(hog.awaitTermination(30_000), "a domain allocating without bound ends");
        long[] mine = new long[1 << 20];
        check(mine.length == 1 << 20, "this domain still allocates");

        Domain sleeper = Domain.create(spec("sleeper").mainClass("Domains$Sleeper"));
        Thread.sleep(200);
        check(sleeper.isAlive() && sleeper.stats().liveThreads() >= 2, "the sleeper runs");
        DomainStats before = sleeper.stats();
        check(before.heapUsed() > 0 && before.heapLimit() > 0, "stats while alive");
        sleeper.terminate();
        check(sleeper.awaitTermination(10_000), "terminate stops sleeping and waiting threads");
        check(!sleeper.isAlive() && sleeper.stats().liveThreads() == 0, "a terminated domain has no threads");

        Domain exiter = Domain.create(spec("exiter").mainClass("Domains$Exiter"));
        check(exiter.awaitTermination(10_000), "System.exit in a domain ends only that domain");

        Domain threads = Domain.create(spec("threads").mainClass("Domains$ThreadHog").maxThreads(3));
        check(threads.awaitTermination(10_000), "the thread limit is enforced");

        expectCreateError(spec("bad").classPath("/nonexistent/dir"), "class path entry /nonexistent/dir is not a directory or a jar");
        expectCreateError(spec("bad").mainClass("NoSuchMain"), "main class NoSuchMain not found");
        expectCreateError(spec("bad").heapLimit(1000), "below the minimum");
        try {
            Domain.current().terminate();
            check(false, "the launcher's domain cannot be terminated");
        } catch (DomainException e) {
            check(true, "the launcher's domain cannot be terminated");
        }
        try {
            DomainSpec.named("");
            check(false, "an empty name is refused");
        } catch (IllegalArgumentException e) {
            check(true, "an empty name is refused");
        }
    }
}
