import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import jx.domain.Domain;
import jx.domain.DomainException;
import jx.domain.DomainSpec;
import jx.memory.Memory;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * Limits on everything a domain holds (issue 15): off-heap memory (memory objects,
 * Unsafe.allocateMemory, direct buffers) and class metadata count against limits, by default
 * the heap limit; limits nest: a domain's children get their heaps out of its heap, their
 * off-heap memory, class metadata and CPU time count against its limits too, and their limits
 * cannot exceed its. Each check prints "ok ..." or throws.
 */
public class Limits {
    static final long MB = 1 << 20;

    /** A domain that allocated what it was told says so through this portal. */
    public interface Ready extends Portal {
        long held();
    }

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    interface Attempt {
        void run() throws Throwable;
    }

    static void refused(String what, Class<? extends Throwable> type, Attempt a) {
        try {
            a.run();
        } catch (Throwable e) {
            if (type.isInstance(e)) {
                check(true, what);
                return;
            }
            throw new AssertionError("FAILED: " + what + ": got " + e, e);
        }
        throw new AssertionError("FAILED: " + what + ": nothing thrown");
    }

    static DomainSpec spec(String name) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path"));
    }

    static sun.misc.Unsafe unsafe() throws Exception {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
    }

    public static void main(String[] args) throws Exception {
        Domain p = Domain.create(spec("parent").heapLimit(64 * MB).offHeapLimit(32 * MB).cpuTimeLimit(600_000).mainClass("Limits$Parent"));
        check(p.awaitTermination(300_000), "the limited domain's checks ended");

        // Threads nest: a child's threads count against its creator's limit.
        Domain tp = Domain.create(spec("threads").maxThreads(4).mainClass("Limits$ThreadParent"));
        check(tp.awaitTermination(120_000), "the thread-limited domain's checks ended");

        // CPU time nests: a child that sets no limit of its own spins on its creator's.
        Domain q = Domain.create(spec("spawner").cpuTimeLimit(1500).mainClass("Limits$Spawner"));
        check(q.awaitTermination(120_000), "a domain whose child spins past the creator's CPU limit is terminated");
        check(q.stats().cpuTimeNanos() < 1_000_000_000L, "though it used little CPU itself");

        // Class metadata: what a domain's classes take is limited, and given back when its
        // loaders die or it ends, also to its creator.
        Domain definer = Domain.create(spec("definer").metadataLimit(4 * MB).mainClass("Limits$Definer"));
        check(definer.awaitTermination(120_000), "the metadata-limited domain's checks ended");
        Domain nest = Domain.create(spec("nest").metadataLimit(4 * MB).mainClass("Limits$NestParent"));
        check(nest.awaitTermination(120_000), "the metadata-limited parent's checks ended");
        refused("a metadata limit must be positive", IllegalArgumentException.class, () -> spec("zero").metadataLimit(0));
        check(Domain.current().isAlive(), "the launcher's domain is unharmed");
    }

    /** A small class, defined again and again, each time by a loader of its own. */
    public static class Small {
        @Override
        public String toString() {
            return "small";
        }
    }

    static byte[] smallBytes() throws Exception {
        try (var in = Limits.class.getResourceAsStream("Limits$Small.class")) {
            return in.readAllBytes();
        }
    }

    /** Limits$Small defined by a new loader of its own, instantiated. */
    static Object defineSmall() throws Exception {
        byte[] b = smallBytes();
        ClassLoader l = new ClassLoader(null) {
            @Override
            protected Class<?> findClass(String n) throws ClassNotFoundException {
                if (!n.equals("Limits$Small")) throw new ClassNotFoundException(n);
                return defineClass(n, b, 0, b.length);
            }
        };
        return l.loadClass("Limits$Small").getConstructor().newInstance();
    }

    /** Defines classes into `kept` until refused; how many it defined. */
    static int defineUntilRefused(List<Object> kept, Attempt define) throws Throwable {
        try {
            for (int i = 0; i < 1_000_000; i++) {
                define.run();
                kept.add(i);
            }
        } catch (OutOfMemoryError e) {
            check("Metaspace".equals(e.getMessage()), "past the metadata limit: OutOfMemoryError: " + e.getMessage());
            return kept.size();
        }
        throw new AssertionError("FAILED: a million classes and no limit");
    }

    /** Whether `n` more classes can be defined within a few seconds (loaders dropped earlier are
     * unloaded at a collection, an ended domain's classes in the background). */
    static boolean definesSoon(int n) throws Exception {
        return definesSoon(n, Limits::defineSmall);
    }

    interface Definition {
        Object define() throws Exception;
    }

    /** As definesSoon(n), each class made by `define`. */
    static boolean definesSoon(int n, Definition define) throws Exception {
        List<Object> held = new ArrayList<>();
        for (int i = 0; i < 200 && held.size() < n; i++) {
            try {
                while (held.size() < n) held.add(define.define());
            } catch (OutOfMemoryError e) {
                System.gc();
                Thread.sleep(50);
            }
        }
        return held.size() == n;
    }

    static final List<Object> classes = new ArrayList<>();

    public static class Definer {
        public static void main(String[] args) throws Throwable {
            List<Object> counted = new ArrayList<>();
            int n = defineUntilRefused(counted, () -> classes.add(defineSmall()));
            check(n >= 20 && n <= 2000, "a domain limited to 4 MiB of class metadata defines " + (n >= 20 && n <= 2000 ? "some" : n) + " small classes");
            classes.clear();
            check(definesSoon(n), "as many again once it dropped their loaders");
            refused("a child's metadata limit cannot exceed its creator's", DomainException.class,
                () -> Domain.create(spec("big").metadataLimit(8 * MB)));
            // Hidden classes count too, once the classes just defined and dropped are unloaded;
            // dropped, they are unloaded and give theirs back.
            for (int i = 0; i < 4; i++) {
                System.gc();
                Thread.sleep(100);
            }
            byte[] b = smallBytes();
            var lookup = java.lang.invoke.MethodHandles.lookup();
            List<Object> hidden = new ArrayList<>();
            int h = defineUntilRefused(hidden, () -> classes.add(lookup.defineHiddenClass(b, false)));
            System.out.println("defined " + n + " classes, " + h + " hidden classes");
            check(h >= n / 2, "hidden classes count against the same limit");
            classes.clear();
            check(definesSoon(h, () -> lookup.defineHiddenClass(b, false)), "as many again once it dropped them");
        }
    }

    /** Its child takes all of the metadata limit they share, then ends. */
    public static class NestParent {
        public static void main(String[] args) throws Throwable {
            Domain child = Domain.create(spec("nested-definer").mainClass("Limits$NestChild"));
            Ready ready = Naming.await("nested-definer-ready", Ready.class, 60_000);
            int n = (int) ready.held();
            check(n >= 20, "a child with its creator's metadata limit defines " + (n >= 20 ? "some" : n) + " classes");
            refused("then its creator cannot define one", OutOfMemoryError.class, () -> defineSmall());
            child.terminate();
            check(child.awaitTermination(30_000), "the child is terminated");
            check(definesSoon(n), "and its classes' metadata given back to its creator");
        }
    }

    public static class NestChild {
        public static void main(String[] args) throws Throwable {
            int n = defineUntilRefused(new ArrayList<>(), () -> classes.add(defineSmall()));
            Naming.register("nested-definer-ready", (Ready) () -> n);
            Thread.sleep(600_000);
        }
    }

    public static class Parent {
        public static void main(String[] args) throws Exception {
            List<Memory> held = new ArrayList<>();
            held.add(Memory.allocate(16 * MB));
            held.add(Memory.allocate(16 * MB));
            check(true, "32 MiB of memory objects within a 32 MiB off-heap limit");
            refused("one byte more is an OutOfMemoryError", OutOfMemoryError.class, () -> Memory.allocate(1));
            held.clear();
            System.gc();
            System.gc();
            check(allocatesSoon(32 * MB), "memory objects the program dropped are given back");
            refused("a 64 TiB memory object is refused", OutOfMemoryError.class, () -> Memory.allocate(64L << 40));

            sun.misc.Unsafe u = unsafe();
            refused("Unsafe.allocateMemory past the limit is refused", OutOfMemoryError.class, () -> u.allocateMemory(40 * MB));
            long block = u.allocateMemory(8 * MB);
            refused("Unsafe memory and memory objects share the limit", OutOfMemoryError.class, () -> Memory.allocate(30 * MB));
            u.freeMemory(block);
            check(allocatesSoon(30 * MB), "freed Unsafe memory is given back");
            long grown = u.reallocateMemory(u.allocateMemory(MB), 16 * MB);
            refused("reallocateMemory counts the new size", OutOfMemoryError.class, () -> Memory.allocate(20 * MB));
            u.freeMemory(grown);
            refused("direct buffers count too", OutOfMemoryError.class, () -> ByteBuffer.allocateDirect((int) (48 * MB)));
            refused("freeing memory the domain did not allocate is refused", SecurityException.class, () -> u.freeMemory(0x10000L));

            // Children's heaps come out of this domain's 64 MiB.
            Domain c1 = Domain.create(spec("c1").heapLimit(32 * MB).mainClass("Limits$Sleeper"));
            Domain c2 = Domain.create(spec("c2").heapLimit(32 * MB).mainClass("Limits$Sleeper"));
            refused("a third child's heap does not fit in what is left", DomainException.class, () -> Domain.create(spec("c3").heapLimit(8 * MB)));
            refused("nor does a child with the default heap", DomainException.class, () -> Domain.create(spec("c3")));
            c2.terminate();
            check(c2.awaitTermination(30_000), "a child ended");
            Domain c3 = Domain.create(spec("c3").heapLimit(8 * MB).mainClass("Limits$Sleeper"));
            check(c3.stats().heapLimit() <= 8 * MB, "its heap is free for another child");
            c1.terminate();
            c3.terminate();
            check(c1.awaitTermination(30_000) && c3.awaitTermination(30_000), "children terminated");

            // A child's limits stay within this domain's.
            refused("a child's off-heap limit cannot exceed its creator's", DomainException.class,
                () -> Domain.create(spec("big").heapLimit(16 * MB).offHeapLimit(64 * MB)));
            refused("nor its CPU time limit", DomainException.class,
                () -> Domain.create(spec("slow").heapLimit(16 * MB).cpuTimeLimit(1_200_000)));

            // A child's off-heap memory counts against this domain's limit.
            Domain holder = Domain.create(spec("holder").heapLimit(24 * MB).mainClass("Limits$Holder"));
            Ready ready = Naming.await("holder-ready", Ready.class, 60_000);
            check(ready.held() == 20 * MB, "a child holds 20 MiB off the heap");
            refused("then this domain cannot take 20 MiB more of its 32", OutOfMemoryError.class, () -> Memory.allocate(20 * MB));
            holder.terminate();
            check(holder.awaitTermination(30_000), "the child is terminated");
            check(allocatesSoon(20 * MB), "and its off-heap memory given back");
            check(true, "parent done");
        }

        /** Whether a memory object of `bytes` can be allocated within a few seconds (what
         * other domains or the collector give back arrives asynchronously). */
        static boolean allocatesSoon(long bytes) throws InterruptedException {
            for (int i = 0; i < 100; i++) {
                try {
                    Memory.allocate(bytes);
                    System.gc();
                    return true;
                } catch (OutOfMemoryError e) {
                    System.gc();
                    Thread.sleep(50);
                }
            }
            return false;
        }
    }

    static Memory kept;

    public static class Holder {
        public static void main(String[] args) {
            kept = Memory.allocate(20 * MB);
            Naming.register("holder-ready", (Ready) () -> kept.size());
        }
    }

    /** Limited to 4 threads: its main, its child's main and the child's 2 more. */
    public static class ThreadParent {
        public static void main(String[] args) throws Exception {
            Domain child = Domain.create(spec("thread-child").mainClass("Limits$ThreadChild"));
            Ready ready = Naming.await("thread-child-ready", Ready.class, 60_000);
            check(ready.held() == 2, "a child of a domain limited to 4 threads starts 2 besides its main and its creator's");
            refused("then its creator cannot start one", OutOfMemoryError.class, () -> startSleeper());
            child.terminate();
            check(child.awaitTermination(30_000), "the child is terminated");
            boolean started = false;
            for (int i = 0; i < 100 && !started; i++) {
                try {
                    startSleeper();
                    started = true;
                } catch (OutOfMemoryError e) {
                    Thread.sleep(50);
                }
            }
            check(started, "its threads' places are given back");
        }
    }

    static void startSleeper() {
        Thread th = new Thread(() -> {
            try {
                Thread.sleep(600_000);
            } catch (InterruptedException e) {
                // ends
            }
        });
        th.setDaemon(true);
        th.start();
    }

    public static class ThreadChild {
        public static void main(String[] args) {
            int started = 0;
            try {
                for (int i = 0; i < 100; i++) {
                    startSleeper();
                    started++;
                }
            } catch (OutOfMemoryError e) {
                // the limit
            }
            long n = started;
            Naming.register("thread-child-ready", (Ready) () -> n);
            try {
                Thread.sleep(600_000); // its main thread keeps its place
            } catch (InterruptedException e) {
                // ends
            }
        }
    }

    public static class Spawner {
        public static void main(String[] args) throws Exception {
            Domain.create(spec("spinner").mainClass("Limits$Spinner"));
            Thread.sleep(600_000);
        }
    }

    /** Keeps its domain alive (a domain whose components are done ends by itself). */
    public static class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(600_000);
        }
    }

    public static class Spinner {
        static volatile long sink;

        public static void main(String[] args) {
            for (long i = 0; ; i++) sink += i;
        }
    }
}
