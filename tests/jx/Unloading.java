import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Classes of an ended domain are unloaded (issue 15: everything given back). Rounds of a
 * domain that defines thousands of classes, each through a loader of its own, keep the
 * process's resident memory flat; and the JDK code those classes ran through (shared by every
 * domain) forgets them: domains that come after, whose classes may land where the unloaded
 * ones were, sort with their own compareTo, never an unloaded class's. Args: rounds and
 * classes per round. Prints "ok ..." lines (the sorting domains print theirs), or throws.
 */
public class Unloading {
    static long rssMiB() throws Exception {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
        }
        throw new AssertionError("no VmRSS");
    }

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    static DomainSpec spec(String name, String main, String... args) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path")).mainClass(main, args);
    }

    static void run(DomainSpec spec) throws Exception {
        Domain d = Domain.create(spec);
        if (!d.awaitTermination(600_000)) throw new AssertionError("FAILED: " + d + " did not end");
    }

    /** Defines `n` classes, each through a loader of its own, runs each, drops them all. */
    static void defineAndDrop(int n) throws Exception {
        Definer.main(new String[] {String.valueOf(n)});
        System.gc();
        Thread.sleep(200);
    }

    /** Resident memory once unloading has caught up: at most `bound`, waiting up to 20 s. */
    static long settledRss(long bound) throws Exception {
        System.gc();
        long rss = rssMiB();
        for (int i = 0; i < 400 && rss > bound; i++) {
            Thread.sleep(50);
            System.gc();
            rss = rssMiB();
        }
        return rss;
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]), classes = Integer.parseInt(args[1]);
        // Memory: the first round's classes are unloaded before the baseline is read.
        run(spec("definer0", "Unloading$Definer", String.valueOf(classes)));
        Thread.sleep(1000);
        System.gc();
        long first = rssMiB();
        long worst = 0;
        for (int r = 1; r < rounds; r++) {
            run(spec("definer" + r, "Unloading$Definer", String.valueOf(classes)));
            worst = Math.max(worst, settledRss(first + first / 4));
        }
        System.out.println("resident after the first round " + first + " MiB, then at most " + worst + " MiB");
        check(worst <= first + first / 4, "rounds of domains defining " + classes + " classes each keep resident memory flat");

        // A living domain (this one) unloads the classes of loaders it dropped, at a full
        // collection: rounds of as many classes keep resident memory flat too.
        defineAndDrop(classes);
        long living = settledRss(Long.MAX_VALUE);
        long livingWorst = 0;
        for (int r = 1; r < rounds; r++) {
            defineAndDrop(classes);
            livingWorst = Math.max(livingWorst, settledRss(living + living / 4));
        }
        System.out.println("resident after dropping the first loaders " + living + " MiB, then at most " + livingWorst + " MiB");
        check(livingWorst <= living + living / 4, "rounds of " + classes + " classes of dropped loaders keep resident memory flat");

        // An exception keeps the classes its stack trace went through loaded (HotSpot's
        // backtrace holds their mirrors), however many loaders are dropped meanwhile.
        @SuppressWarnings("unchecked")
        java.util.function.Supplier<Throwable> thrower = (java.util.function.Supplier<Throwable>) fresh("Unloading$Thrower").getConstructor().newInstance();
        Throwable old = thrower.get();
        thrower = null;
        for (int r = 0; r < 3; r++) defineAndDrop(classes);
        StackTraceElement[] trace = old.getStackTrace();
        check(trace.length > 1 && trace[0].getClassName().equals("Unloading$Thrower") && trace[0].getMethodName().equals("get")
                && trace[trace.length - 1].getMethodName().equals("main"),
                "an exception keeps the class its stack trace went through (top frame " + (trace.length > 0 ? trace[0] : null) + ")");

        // Shared code forgets unloaded classes: each domain sorts through the JDK's
        // ComparableTimSort with its own classes (ascending, then descending, by turns).
        for (int r = 0; r < 6; r++) {
            String kind = r % 2 == 0 ? "Unloading$Up" : "Unloading$Down";
            run(spec("sorter" + r, "Unloading$Sorter", kind, String.valueOf(r)));
        }
        // The launcher's own sorting after all of that.
        Sorter.main(new String[] {"Unloading$Down", "launcher"});
    }

    /** Bytes of class `name` (a class of this file). */
    static byte[] bytes(String name) throws Exception {
        try (var in = Unloading.class.getResourceAsStream(name + ".class")) {
            return in.readAllBytes();
        }
    }

    /** A loader that defines one class of this file from its bytes; the rest from the JDK. */
    static Class<?> fresh(String name) throws Exception {
        byte[] b = bytes(name);
        ClassLoader l = new ClassLoader(null) {
            @Override
            protected Class<?> findClass(String n) throws ClassNotFoundException {
                if (!n.equals(name)) throw new ClassNotFoundException(n);
                return defineClass(n, b, 0, b.length);
            }
        };
        return l.loadClass(name);
    }

    /** Defines `args[0]` classes, each through a loader of its own, and runs each. */
    public static class Definer {
        public static void main(String[] args) throws Exception {
            int n = Integer.parseInt(args[0]);
            for (int i = 0; i < n; i++) {
                Object o = fresh("Unloading$Payload").getConstructor().newInstance();
                if (o.toString().isEmpty() || o.hashCode() == 0) throw new AssertionError("FAILED: payload");
            }
        }
    }

    /** Makes an exception in a method of its own. */
    public static class Thrower implements java.util.function.Supplier<Throwable> {
        @Override
        public Throwable get() {
            return new IllegalStateException("thrown in Thrower");
        }
    }

    /** A throwaway class with some code, constants and an interface call. */
    public static class Payload implements Comparable<Payload> {
        int a = 7;
        long b = 11;
        String s = "payload";

        @Override
        public String toString() {
            return s + a + b + sum(5) + Arrays.asList(1, 2, 3);
        }

        int sum(int x) {
            int t = 0;
            for (int i = 0; i < x; i++) t += i * a;
            return t;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(a, b, s);
        }

        @Override
        public int compareTo(Payload o) {
            return Integer.compare(a, o.a);
        }
    }

    /** Sorts instances of 40 classes of kind `args[0]` (each of a fresh loader) and checks the order. */
    public static class Sorter {
        public static void main(String[] args) throws Exception {
            Random rnd = new Random(args[1].hashCode());
            boolean up = args[0].equals("Unloading$Up");
            for (int k = 0; k < 40; k++) {
                Class<?> c = fresh(args[0]);
                Object[] a = new Object[24];
                for (int i = 0; i < a.length; i++) a[i] = c.getConstructor(int.class).newInstance(rnd.nextInt(1000));
                Arrays.sort(a);
                for (int i = 1; i < a.length; i++) {
                    int x = a[i - 1].hashCode(), y = a[i].hashCode();
                    if (up ? x > y : x < y) throw new AssertionError("FAILED: " + args[0] + " sorted out of order in " + args[1]);
                }
            }
            System.out.println("ok " + args[1] + ": sorted " + (up ? "up" : "down") + " by 40 classes of their own loaders");
        }
    }

    public static class Up implements Comparable<Object> {
        final int v;

        public Up(int v) {
            this.v = v;
        }

        @Override
        public int compareTo(Object o) {
            return Integer.compare(v, ((Up) o).v);
        }

        @Override
        public int hashCode() {
            return v;
        }
    }

    public static class Down implements Comparable<Object> {
        final int v;

        public Down(int v) {
            this.v = v;
        }

        @Override
        public int compareTo(Object o) {
            return Integer.compare(((Down) o).v, v);
        }

        @Override
        public int hashCode() {
            return v;
        }
    }
}
