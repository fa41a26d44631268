import java.lang.invoke.MethodHandles;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Hidden classes are unloaded as HotSpot unloads them in a full collection (System.gc()): one
 * defined without STRONG goes once nothing reaches it, whatever its loader; an instance, its
 * mirror, an array class of it or a running method keeps it (and its statics); a STRONG one
 * lives as long as its loader.
 */
public class HiddenClassUnloading {
    static byte[] bytes(String name) {
        try (var in = HiddenClassUnloading.class.getResourceAsStream(name + ".class")) {
            return in.readAllBytes();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Defined hidden again and again: counts its calls in a static. */
    public static class Counter implements Supplier<String> {
        static int calls;

        @Override
        public String get() {
            return "counter " + ++calls;
        }
    }

    static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    static Class<?> hidden(String name, MethodHandles.Lookup.ClassOption... options) throws Exception {
        return LOOKUP.defineHiddenClass(bytes(name), true, options).lookupClass();
    }

    @SuppressWarnings("unchecked")
    static Supplier<Object> instance(Class<?> c) throws Exception {
        return (Supplier<Object>) c.getConstructor().newInstance();
    }

    static boolean collected(BooleanSupplier gone) throws Exception {
        for (int i = 0; i < 5 && !gone.getAsBoolean(); i++) {
            System.gc();
            Thread.sleep(20);
        }
        return gone.getAsBoolean();
    }

    /** A hidden Counter used once and dropped: a weak reference to its class. */
    static WeakReference<Class<?>> dropped(MethodHandles.Lookup.ClassOption... options) throws Exception {
        Class<?> c = hidden("HiddenClassUnloading$Counter", options);
        System.out.println(instance(c).get());
        return new WeakReference<>(c);
    }

    public static void main(String[] args) throws Exception {
        WeakReference<Class<?>> gone = dropped();
        System.out.println("a dropped hidden class is unloaded: " + collected(() -> gone.get() == null));

        WeakReference<Class<?>> strong = dropped(MethodHandles.Lookup.ClassOption.STRONG);
        System.out.println("a dropped STRONG one stays with its loader: " + !collected(() -> strong.get() == null));

        Supplier<Object> kept = instance(hidden("HiddenClassUnloading$Counter"));
        kept.get();
        WeakReference<Class<?>> byInstance = new WeakReference<>(kept.getClass());
        System.out.println("an instance keeps its hidden class: " + !collected(() -> byInstance.get() == null));
        System.out.println("with its statics: " + kept.get());

        Class<?> mirror = hidden("HiddenClassUnloading$Counter");
        instance(mirror).get();
        WeakReference<Class<?>> byMirror = new WeakReference<>(mirror);
        System.out.println("its Class keeps it: " + !collected(() -> byMirror.get() == null));
        System.out.println("statics kept: " + instance(mirror).get());

        Class<?> array = java.lang.reflect.Array.newInstance(hidden("HiddenClassUnloading$Counter"), 0).getClass();
        WeakReference<Class<?>> byArray = new WeakReference<>(array.getComponentType());
        System.out.println("an array class of it keeps it: " + !collected(() -> byArray.get() == null));
        System.out.println("and it runs: " + instance(array.getComponentType()).get());

        List<WeakReference<Class<?>>> many = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            Class<?> c = hidden("HiddenClassUnloading$Counter");
            if (!instance(c).get().equals("counter 1")) throw new AssertionError("fresh statics expected");
            many.add(new WeakReference<>(c));
        }
        System.out.println("2000 dropped hidden classes are unloaded: "
                + collected(() -> many.stream().allMatch(w -> w.get() == null)));
        System.out.println("the kept ones still run: " + kept.get() + ", " + instance(mirror).get());
    }
}
