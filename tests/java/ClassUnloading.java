import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Class unloading as HotSpot does it in a full collection (System.gc()): a class loader that
 * nothing reaches goes with its classes; an instance, a mirror, a running method or a living
 * loader that resolved one of its classes keeps it (and its classes' statics) alive.
 */
public class ClassUnloading {
    static byte[] bytes(String name) {
        try (var in = ClassUnloading.class.getResourceAsStream(name + ".class")) {
            return in.readAllBytes();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Defines the named classes of this file itself; other names go to the loader the
     *  registry names for them (looked up when asked), else to the boot loader. */
    static class Loader extends ClassLoader {
        final Set<String> mine;
        final Map<String, ClassLoader> registry;

        Loader(Set<String> mine, Map<String, ClassLoader> registry) {
            super(null);
            this.mine = mine;
            this.registry = registry;
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(n)) {
                Class<?> c = findLoadedClass(n);
                if (c != null) return c;
                if (mine.contains(n)) {
                    byte[] b = bytes(n);
                    return defineClass(n, b, 0, b.length);
                }
                ClassLoader d = registry.get(n);
                if (d != null) return d.loadClass(n);
                return super.loadClass(n, resolve);
            }
        }
    }

    public static class A {
        static int count;
        static final List<String> log = new ArrayList<>();

        public String hello() {
            log.add("x");
            return "A says hi " + count++ + " (" + log.size() + ")";
        }
    }

    public static class B implements Supplier<String> {
        public String get() {
            return new A().hello();
        }
    }

    /** A class whose only reference to its loader is a static field of its own. */
    public static class SelfKept {
        public static Object keep;
    }

    static boolean collected(BooleanSupplier gone) throws Exception {
        for (int i = 0; i < 5 && !gone.getAsBoolean(); i++) {
            System.gc();
            Thread.sleep(20);
        }
        return gone.getAsBoolean();
    }

    static Object hello(Object o) throws Exception {
        return o.getClass().getMethod("hello").invoke(o);
    }

    /** Loads A through a fresh loader and says hello once; returns weak references to both. */
    static Object[] dropped() throws Exception {
        Loader l = new Loader(Set.of("ClassUnloading$A"), Map.of());
        Class<?> a = l.loadClass("ClassUnloading$A");
        System.out.println(hello(a.getConstructor().newInstance()));
        return new Object[] {new WeakReference<>(l), new WeakReference<>(a)};
    }

    /** A fresh loader's A, and a weak reference to the loader in `loader[0]`. */
    static Class<?> loadA(List<WeakReference<ClassLoader>> loader) throws Exception {
        Loader l = new Loader(Set.of("ClassUnloading$A"), Map.of());
        loader.add(new WeakReference<>(l));
        return l.loadClass("ClassUnloading$A");
    }

    /** B of a loader that finds A through `registry`, whose A comes from another loader. */
    static Supplier<?> dependent(Map<String, ClassLoader> registry, List<WeakReference<ClassLoader>> first)
            throws Exception {
        Loader l1 = new Loader(Set.of("ClassUnloading$A"), Map.of());
        registry.put("ClassUnloading$A", l1);
        first.add(new WeakReference<>(l1));
        Loader l2 = new Loader(Set.of("ClassUnloading$B"), registry);
        return (Supplier<?>) l2.loadClass("ClassUnloading$B").getConstructor().newInstance();
    }

    static WeakReference<ClassLoader> selfKept() throws Exception {
        Loader l = new Loader(Set.of("ClassUnloading$SelfKept"), Map.of());
        Class<?> s = l.loadClass("ClassUnloading$SelfKept");
        s.getDeclaredField("keep").set(null, l);
        return new WeakReference<>(l);
    }

    static List<WeakReference<ClassLoader>> many(int n) throws Exception {
        List<WeakReference<ClassLoader>> many = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Loader l = new Loader(Set.of("ClassUnloading$A", "ClassUnloading$B"), Map.of());
            Supplier<?> s = (Supplier<?>) l.loadClass("ClassUnloading$B").getConstructor().newInstance();
            if (!String.valueOf(s.get()).startsWith("A says hi 0")) throw new AssertionError("fresh statics expected");
            many.add(new WeakReference<>(l));
        }
        return many;
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        // An unreachable loader goes with its class.
        Object[] weak = dropped();
        WeakReference<ClassLoader> loader = (WeakReference<ClassLoader>) weak[0];
        WeakReference<Class<?>> clazz = (WeakReference<Class<?>>) weak[1];
        System.out.println("unreachable loader collected: " + collected(() -> loader.get() == null)
                + ", its class too: " + (clazz.get() == null));

        // An instance keeps its class, its statics and its loader.
        List<WeakReference<ClassLoader>> keptLoader = new ArrayList<>();
        Object kept = loadA(keptLoader).getConstructor().newInstance();
        System.out.println(hello(kept));
        System.out.println("loader of a live instance collected: " + collected(() -> keptLoader.get(0).get() == null));
        System.out.println(hello(kept));
        kept = null;
        System.out.println("then, the instance dropped: " + collected(() -> keptLoader.get(0).get() == null));

        // A mirror alone keeps them too.
        List<WeakReference<ClassLoader>> mirrorLoader = new ArrayList<>();
        Class<?> mirror = loadA(mirrorLoader);
        System.out.println(hello(mirror.getConstructor().newInstance()));
        System.out.println("loader of a live mirror collected: " + collected(() -> mirrorLoader.get(0).get() == null));
        System.out.println(hello(mirror.getConstructor().newInstance()));
        mirror = null;
        System.out.println("then, the mirror dropped: " + collected(() -> mirrorLoader.get(0).get() == null));

        // A loader whose class resolved another loader's class keeps that loader, though
        // nothing else refers to it any more.
        Map<String, ClassLoader> registry = new HashMap<>();
        List<WeakReference<ClassLoader>> first = new ArrayList<>();
        Supplier<?> b = dependent(registry, first);
        System.out.println(b.get());
        registry.clear();
        System.out.println("a loader another one depends on collected: " + collected(() -> first.get(0).get() == null));
        System.out.println(b.get());
        System.out.println(b.get());
        b = null;
        System.out.println("then, both dropped: " + collected(() -> first.get(0).get() == null));

        // A class whose static refers to its own loader: a cycle nothing else reaches.
        WeakReference<ClassLoader> cycle = selfKept();
        System.out.println("a loader its own class's static refers to collected: " + collected(() -> cycle.get() == null));

        // Many loaders at once.
        List<WeakReference<ClassLoader>> many = many(300);
        System.out.println("300 dropped loaders collected: "
                + collected(() -> many.stream().allMatch(w -> w.get() == null)));
    }
}
