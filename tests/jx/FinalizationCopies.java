import java.util.concurrent.atomic.AtomicInteger;

import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * Finalization of copies: the objects of finalizable classes a portal call copies into a
 * domain (its parameters, however deep in the graph, and its results) are registered there as
 * `new` registers objects, so each copy's finalize() runs in the domain that received it, by
 * that domain's finalizer thread; the originals are finalized where they were made. Prints
 * one "ok ..." line per check; throws on a failed one.
 */
@SuppressWarnings("deprecation")
public class FinalizationCopies {
    static final AtomicInteger finalized = new AtomicInteger();
    static volatile long finalizedIn = -1;
    static volatile String finalizedBy;

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    public static class Obj {
        final long[] body = new long[4];

        @Override
        protected void finalize() {
            finalizedIn = Domain.current().id();
            finalizedBy = Thread.currentThread().getName();
            finalized.incrementAndGet();
        }
    }

    public static class Holder {
        Obj a = new Obj();
        Obj b = new Obj();
    }

    public interface Sink extends Portal {
        void take(Obj o);
        int takeAll(Holder[] hs);
        Obj make();
        /** Whether n objects were finalized in the service's domain, by its finalizer. */
        boolean finalizedHere(int n) throws InterruptedException;
    }

    public static class SinkService implements Sink {
        public void take(Obj o) {
        }

        public int takeAll(Holder[] hs) {
            return hs.length;
        }

        public Obj make() {
            return new Obj();
        }

        public boolean finalizedHere(int n) throws InterruptedException {
            return await(n) && finalizedIn == Domain.current().id() && byAFinalizer();
        }
    }

    public static class Server {
        public static void main(String[] args) {
            Naming.register("sink", new SinkService());
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

    public static void main(String[] args) throws Exception {
        String cp = System.getProperty("java.class.path");
        Domain server = Domain.create(DomainSpec.named("fin-server").classPath(cp).mainClass("FinalizationCopies$Server"));
        Sink sink = Naming.await("sink", Sink.class, 10_000);
        check(sink != null, "the service is found");
        // 10 objects as parameters, 10 more inside an array of holders: 20 copies over there.
        for (int i = 0; i < 10; i++) {
            sink.take(new Obj());
        }
        Holder[] hs = new Holder[5];
        for (int i = 0; i < hs.length; i++) {
            hs[i] = new Holder();
        }
        check(sink.takeAll(hs) == 5, "holders of finalizable objects are copied");
        hs = null;
        // 7 results: 7 objects made over there, and their 7 copies here.
        boolean copiedBack = true;
        for (int i = 0; i < 7; i++) {
            copiedBack &= sink.make() != null;
        }
        check(copiedBack, "finalizable results are copied back");
        check(sink.finalizedHere(27),
                "the copies of parameters and the originals of results are finalized in the service's domain, by its finalizer");
        check(await(27), "the originals of parameters and the copies of results are finalized here");
        check(finalizedIn == Domain.current().id() && byAFinalizer(), "by this domain's finalizer");
        System.gc();
        System.runFinalization();
        check(finalized.get() == 27, "no object is finalized twice");
        server.terminate();
        check(server.awaitTermination(10_000), "the service's domain ends");
    }
}
