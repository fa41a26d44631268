import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * Portal calls between two domains (JX §2.2, the paper's null portal call), on jxvm only: a
 * server domain registers an Impl under the name "bench", the launcher's domain looks it up,
 * gets a portal and times the calls of ProxyCalls through it, then the same calls on a local
 * Impl (same domain, plain interface calls) for comparison.
 *
 *   PortalCalls [CLASS_PATH_DIR]   (default: java.class.path, which must then be one entry)
 *
 * Prints "portal.OP ns/call VALUE calls N checksum C" lines for OP nop, add, sum (a Point
 * parameter, deep-copied into the server), make (a Point result, copied back), string (a
 * 16-char String parameter), then "local.nop" and "local.sum" lines, timed as ProxyCalls
 * times them (median of its REPETITIONS rounds). A wrong result, or a lookup that does not give
 * a portal, prints a line starting with FAILED and the program exits 1.
 */
public final class PortalCalls {
    /** The service's interface: ProxyCalls's calls, callable across domains. */
    public interface Bench extends Portal, ProxyCalls.Calls {}

    public static final class Impl extends ProxyCalls.Impl implements Bench {}

    /** The server domain's main: registers the service and returns (the service keeps the domain alive). */
    public static final class Server {
        public static void main(String[] args) {
            Naming.register("bench", new Impl());
        }
    }

    public static void main(String[] args) throws Exception {
        String cp = args.length > 0 ? args[0] : System.getProperty("java.class.path");
        System.out.println("# PortalCalls median of " + ProxyCalls.REPETITIONS + " rounds of about "
            + ProxyCalls.ROUND_NANOS / 1_000_000 + " ms after warm-up; class path " + cp);
        Domain server = Domain.create(DomainSpec.named("server").classPath(cp).mainClass("PortalCalls$Server"));
        Bench portal = Naming.await("bench", Bench.class, 10_000);
        if (portal == null) {
            System.out.println("FAILED no service \"bench\" registered within 10 s");
            System.exit(1);
        }
        if (!Portal.isPortal(portal)) {
            System.out.println("FAILED the lookup from another domain gave a " + portal.getClass().getName() + ", not a portal");
            ProxyCalls.failures++;
        }
        ProxyCalls.measureAll("portal", portal);

        Bench local = new Impl();
        ProxyCalls.measure("local", "nop", n -> ProxyCalls.nop(local, n));
        ProxyCalls.measure("local", "sum", n -> ProxyCalls.sum(local, n));

        server.terminate();
        if (!server.awaitTermination(10_000)) {
            System.out.println("FAILED the server domain did not end within 10 s of terminate()");
            ProxyCalls.failures++;
        }
        if (ProxyCalls.failures > 0) {
            System.out.println(ProxyCalls.failures + " failures");
            System.exit(1);
        }
        System.out.println("results agree");
    }
}
