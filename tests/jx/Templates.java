import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Domains made from the class library's template behave like freshly booted ones: their own
 * class path (java.class.path, resources and classes of the application loader), a main thread
 * in the main group, interned strings shared with their literals, a running reference handler,
 * working threads, and system properties of their own. Each probe domain prints one
 * "ok <domain>: ..." line per check; the launcher prints "ok ..." for its own checks.
 */
public class Templates {
    static String domain;

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAILED: " + domain + ": " + what);
            throw new AssertionError(what);
        }
        System.out.println("ok " + domain + ": " + what);
    }

    public static class Probe {
        public static void main(String[] args) throws Exception {
            domain = Domain.current().name();
            String path = args[0];
            check(path.equals(System.getProperty("java.class.path")), "java.class.path is its class path");
            ClassLoader app = ClassLoader.getSystemClassLoader();
            check(app.getResource("Templates$Probe.class") != null, "the application loader finds its resources");
            check(Class.forName("Templates$Probe", true, app) == Probe.class, "and its classes");
            Thread me = Thread.currentThread();
            check(me.getName().equals("main") && me.getThreadGroup().getName().equals("main"), "main thread in the main group");
            String runtime = new StringBuilder("java.").append("version").toString();
            check(runtime.intern() == "java.version", "interned strings are the literals");
            check(System.getProperty("jx.probe") == null, "system properties are its own");
            System.setProperty("jx.probe", domain);
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            WeakReference<Object> weak = new WeakReference<>(new Object(), queue);
            System.gc();
            check(queue.remove(10_000) == weak, "the reference handler runs");
            ConcurrentHashMap<String, Integer> map = new ConcurrentHashMap<>();
            Thread worker = new Thread(() -> map.put(domain, 42));
            worker.start();
            worker.join();
            check(map.get(domain) == 42, "threads start and finish");
        }
    }

    public static void main(String[] args) throws Exception {
        domain = "launcher";
        String path = System.getProperty("java.class.path");
        for (String name : new String[] {"probe-1", "probe-2"}) {
            Domain d = Domain.create(DomainSpec.named(name).classPath(path).mainClass("Templates$Probe", path));
            check(d.awaitTermination(30_000), name + " ended");
        }
        check(System.getProperty("jx.probe") == null, "the probes' properties stayed theirs");
    }
}
