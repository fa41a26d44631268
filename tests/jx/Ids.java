import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Class and method ids run out cleanly and come back (issue 15): run with a small id capacity
 * (JXVM_ID_CAPACITY), a program that keeps defining classes gets OutOfMemoryError (Metaspace),
 * not a crash; once it drops them, their ids are reused by new classes, which initialize and
 * run as new ones; a stack trace through a class since unloaded names no method that reuses its
 * ids; a created domain that uses up the ids gives them back when it ends. Prints "ok ..."
 * lines, or throws.
 */
public class Ids {
    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    static byte[] bytes(String name) throws Exception {
        try (var in = Ids.class.getResourceAsStream(name + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Class `name` of this file, defined by a loader of its own. */
    static Class<?> fresh(String name, byte[] b) throws Exception {
        ClassLoader l = new ClassLoader(null) {
            @Override
            protected Class<?> findClass(String n) throws ClassNotFoundException {
                if (!n.equals(name)) throw new ClassNotFoundException(n);
                return defineClass(n, b, 0, b.length);
            }
        };
        return l.loadClass(name);
    }

    /** Defines Payload classes into `kept` until the ids run out; how many it defined. */
    static int defineUntilOutOfIds(List<Object> kept) throws Exception {
        byte[] b = bytes("Ids$Payload");
        try {
            while (true) {
                kept.add(fresh("Ids$Payload", b).getConstructor().newInstance());
            }
        } catch (OutOfMemoryError e) {
            if (!"Metaspace".equals(e.getMessage())) throw e;
        }
        return kept.size();
    }

    /** Defines and runs `n` Payload classes (dropped at once): whether each initialized and ran as new. */
    static boolean defineAndRun(int n) throws Exception {
        byte[] b = bytes("Ids$Payload");
        for (int i = 0; i < n; i++) {
            Object o = fresh("Ids$Payload", b).getConstructor().newInstance();
            if (!o.toString().equals("payload 1 10")) {
                System.out.println("payload says " + o);
                return false;
            }
        }
        return true;
    }

    /** Retries defining one class until unloading has given ids back (up to 20 s). */
    static boolean definesAgain() throws Exception {
        for (int i = 0; i < 200; i++) {
            System.gc();
            try {
                return defineAndRun(1);
            } catch (OutOfMemoryError e) {
                Thread.sleep(100);
            }
        }
        return false;
    }

    public static void main(String[] args) throws Exception {
        Supplier<Throwable> thrower = (Supplier<Throwable>) fresh("Ids$Thrower", bytes("Ids$Thrower")).getConstructor().newInstance();
        Throwable old = thrower.get();
        thrower = null;

        List<Object> kept = new ArrayList<>();
        int defined = defineUntilOutOfIds(kept);
        check(defined > 1000, "defining classes until the ids run out ends in OutOfMemoryError: Metaspace (" + defined + " classes)");
        kept.clear();
        check(definesAgain(), "once they are dropped and unloaded, new classes get ids again");
        check(defineAndRun(defined), "as many new classes as before reuse the ids, each initialized and run as new (" + defined + ")");

        StackTraceElement[] trace = old.getStackTrace();
        check(trace.length > 1 && trace[0].getClassName().equals("Ids$Thrower") && trace[0].getMethodName().equals("get")
                && trace[trace.length - 1].getMethodName().equals("main"),
                "an exception keeps the class its stack trace went through (top frame " + (trace.length > 0 ? trace[0] : null) + ")");

        Domain d = Domain.create(DomainSpec.named("hog").classPath(System.getProperty("java.class.path")).mainClass("Ids$Hog"));
        check(d.awaitTermination(120_000), "a domain that uses up the ids ends");
        check(definesAgain() && defineAndRun(defined / 2), "its ids come back when it ends (" + defined / 2 + " classes defined after)");
    }

    /** Uses up the ids, keeps its classes, and returns (its domain ends). */
    public static class Hog {
        public static void main(String[] args) throws Exception {
            List<Object> kept = new ArrayList<>();
            int n = defineUntilOutOfIds(kept);
            System.out.println("hog defined " + n + " classes");
        }
    }

    /** Makes an exception in a method of its own. */
    public static class Thrower implements Supplier<Throwable> {
        @Override
        public Throwable get() {
            return new IllegalStateException("thrown in Thrower");
        }
    }

    /** A class with an initializer and a few methods. */
    public static class Payload {
        static int inits;

        static {
            inits++;
        }

        int ten = 10;

        int ten() {
            return ten;
        }

        @Override
        public String toString() {
            return "payload " + inits + " " + ten();
        }
    }
}
