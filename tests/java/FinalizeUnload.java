import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Finalization and class unloading: objects of a class defined by a class loader that is
 * dropped are finalized first (their finalizer keeps their class, and so the loader, alive),
 * then the loaders go with their classes. Waits are bounded loops of System.gc() and
 * System.runFinalization(); only facts both VMs agree on are printed.
 */
@SuppressWarnings("deprecation")
public class FinalizeUnload {
    public static final AtomicInteger finalized = new AtomicInteger();
    public static final AtomicInteger payloadOk = new AtomicInteger();

    static byte[] bytes(String name) {
        try (var in = FinalizeUnload.class.getResourceAsStream(name + ".class")) {
            return in.readAllBytes();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Defines Item itself (a class of its own each time); delegates everything else. */
    static class Loader extends ClassLoader {
        Loader() {
            super(FinalizeUnload.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(n)) {
                Class<?> c = findLoadedClass(n);
                if (c != null) return c;
                if (n.equals("FinalizeUnload$Item")) {
                    byte[] b = bytes(n);
                    return defineClass(n, b, 0, b.length);
                }
                return super.loadClass(n, resolve);
            }
        }
    }

    public static class Item {
        public static int made;
        final int id;
        final int[] payload = new int[32];

        public Item() {
            id = ++made;
            for (int i = 0; i < payload.length; i++) payload[i] = i * id;
        }

        @Override
        protected void finalize() {
            // Its payload, and its class's statics (up to 20 made by each loader's class, some
            // maybe still being made when an early one is finalized), intact.
            boolean ok = made >= id && made <= 20;
            for (int i = 0; i < payload.length; i++) ok &= payload[i] == i * id;
            if (ok) payloadOk.incrementAndGet();
            finalized.incrementAndGet();
        }
    }

    static List<WeakReference<Object>> makeLoaders(int loaders, int each) throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int i = 0; i < loaders; i++) {
            Loader l = new Loader();
            Class<?> c = l.loadClass("FinalizeUnload$Item");
            if (c.getClassLoader() != l) throw new AssertionError("not its own class");
            for (int k = 0; k < each; k++) c.getConstructor().newInstance();
            refs.add(new WeakReference<>(l));
            refs.add(new WeakReference<>(c));
        }
        return refs;
    }

    public static void main(String[] args) throws Exception {
        List<WeakReference<Object>> refs = makeLoaders(100, 20);
        boolean gone = false;
        for (int i = 0; i < 500 && !gone; i++) {
            System.gc();
            System.runFinalization();
            Thread.sleep(10);
            gone = finalized.get() == 2000 && refs.stream().allMatch(w -> w.get() == null);
        }
        System.out.println("finalized: " + finalized.get() + ", with intact objects and statics: " + payloadOk.get());
        System.out.println("loaders and classes collected afterwards: " + gone);
    }
}
