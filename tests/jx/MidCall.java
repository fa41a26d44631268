import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;
import jx.portal.PortalException;

/**
 * Terminating a domain whose thread is inside a call to another domain (issue 15): the
 * termination takes effect for everyone at once (the domain is no longer alive, its services
 * refuse calls), the callee is not harmed (it runs on, and serves others), and the
 * terminated domain ends — its memory given back — once its thread leaves the callee. Each
 * check prints "ok ..." or throws.
 */
public class MidCall {
    public interface Looper extends Portal {
        void spin();

        boolean spinning();

        void stop();

        int ping();
    }

    public interface Echo extends Portal {
        int echo(int x);
    }

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    static DomainSpec spec(String name) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path"));
    }

    public static class B {
        static volatile boolean spinning, stop;

        public static void main(String[] args) {
            Naming.register("looper", new Looper() {
                public void spin() {
                    spinning = true;
                    long sink = 0;
                    while (!stop) sink++;
                    spinning = false;
                }

                public boolean spinning() {
                    return spinning;
                }

                public void stop() {
                    stop = true;
                }

                public int ping() {
                    return 1;
                }
            });
        }
    }

    public static class A {
        public static void main(String[] args) {
            Naming.register("echo", (Echo) x -> x);
            Naming.lookup("looper", Looper.class).spin();
        }
    }

    public static void main(String[] args) throws Exception {
        Domain b = Domain.create(spec("b").mainClass("MidCall$B"));
        Looper looper = Naming.await("looper", Looper.class, 60_000);
        Domain a = Domain.create(spec("a").mainClass("MidCall$A"));
        Echo echo = Naming.await("echo", Echo.class, 60_000);
        while (!looper.spinning()) Thread.sleep(10);
        check(echo.echo(5) == 5, "a's thread is inside a call to b, a's service answers");
        a.terminate();
        check(!a.isAlive(), "terminated while its thread is inside b: a is no longer alive, at once");
        try {
            echo.echo(6);
            throw new AssertionError("FAILED: a's service answered after the termination");
        } catch (PortalException e) {
            check(true, "a's services refuse calls at once");
        }
        check(looper.ping() == 1 && looper.spinning(), "b is not harmed: it runs on and serves others");
        check(!a.awaitTermination(300), "a's thread is still inside b");
        looper.stop();
        check(a.awaitTermination(30_000), "a ends once its thread leaves b");
        check(b.isAlive() && looper.ping() == 1 && !looper.spinning(), "b lives on");
    }
}
