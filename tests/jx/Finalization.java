import java.util.concurrent.atomic.AtomicInteger;

import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Finalization per domain: each domain registers its own finalizable objects and its own
 * finalizer thread runs their finalize methods, in that domain (its statics, its id); a
 * domain's finalizations are not another's; a domain whose finalizer blocks forever still
 * terminates. Prints one "ok ..." line per check (children too); throws on a failed one.
 */
@SuppressWarnings("deprecation")
public class Finalization {
    static final AtomicInteger finalized = new AtomicInteger();
    static volatile long finalizedIn = -1;
    static volatile String finalizedBy;

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    static DomainSpec spec(String name) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path"));
    }

    static class Obj {
        final long[] body = new long[4];
        @Override protected void finalize() {
            finalizedIn = Domain.current().id();
            finalizedBy = Thread.currentThread().getName();
            finalized.incrementAndGet();
        }
    }

    static void make(int n) {
        for (int i = 0; i < n; i++) {
            new Obj();
        }
    }

    static boolean await(int n) throws InterruptedException {
        for (int i = 0; i < 1000 && finalized.get() < n; i++) {
            System.gc();
            System.runFinalization();
            Thread.sleep(10);
        }
        return finalized.get() == n;
    }

    static boolean byAFinalizer() {
        return "Finalizer".equals(finalizedBy) || "Secondary finalizer".equals(finalizedBy);
    }

    public static class Child {
        public static void main(String[] args) throws Exception {
            int n = Integer.parseInt(args[1]);
            make(n);
            check(await(n), args[0] + ": its " + n + " objects are finalized");
            check(finalizedIn == Domain.current().id() && byAFinalizer(),
                    args[0] + ": by a finalizer thread of its own domain");
        }
    }

    static final Object never = new Object();

    static class Stuck {
        @Override protected void finalize() throws InterruptedException {
            System.out.println("ok stuck: its finalizer runs and blocks");
            synchronized (never) {
                never.wait();
            }
        }
    }

    public static class Blocked {
        public static void main(String[] args) throws Exception {
            new Stuck();
            System.gc();
            Thread.sleep(100_000);
        }
    }

    public static void main(String[] args) throws Exception {
        make(100);
        check(await(100), "this domain's objects are finalized");
        check(finalizedIn == Domain.current().id() && byAFinalizer(), "by a finalizer thread of this domain");

        Domain a = Domain.create(spec("fin-a").mainClass("Finalization$Child", "fin-a", "5000"));
        Domain b = Domain.create(spec("fin-b").mainClass("Finalization$Child", "fin-b", "3000"));
        check(a.awaitTermination(60_000) && b.awaitTermination(60_000), "two domains finalize at once");
        System.gc();
        System.runFinalization();
        check(finalized.get() == 100 && finalizedIn == Domain.current().id(),
                "their finalizations are theirs, not this domain's");

        Domain blocked = Domain.create(spec("fin-blocked").mainClass("Finalization$Blocked"));
        Thread.sleep(500);
        blocked.terminate();
        check(blocked.awaitTermination(10_000), "a domain whose finalizer blocks is terminated");
        make(10);
        check(await(110), "this domain's finalizer still runs");
    }
}
