import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A run-time package is a package name and a defining loader (JVMS §5.3): a class a
 * user-defined loader defines in the same-named package as application classes may not use
 * their package-private members or classes (IllegalAccessError, HotSpot's messages), while
 * public and protected ones stay usable and classes of its own loader see each other's.
 * Cases: a package-private static method, static field, instance field, constructor,
 * instance method, a package-private class (new, and a checkcast to it),
 * a package-private method that a class of the other package does not override, a
 * package-private superclass (abstract or not) and superinterface, and, for contrast, package-private accesses
 * between two classes of the custom loader.
 */
public class PackagePrivateLoaders {
    public static class Target {
        static int count = 3;
        int value = 7;
        public int open = 9;

        public Target() {
        }

        Target(int v) {
            value = v;
        }

        static String hidden() {
            return "hidden";
        }

        String instanceHidden() {
            return "instance hidden";
        }

        public static Target make() {
            return new Target();
        }
    }

    static class Secret {
        public String toString() {
            return "secret";
        }
    }

    public static class Secrets {
        public static Object one() {
            return new Secret();
        }
    }

    public static class CallStatic implements Supplier<String> {
        public String get() {
            return "static " + Target.hidden();
        }
    }

    public static class ReadStatic implements Supplier<String> {
        public String get() {
            return "count " + Target.count;
        }
    }

    public static class WriteField implements Supplier<String> {
        public String get() {
            Target t = Target.make();
            t.value = 1;
            return "value " + t.value;
        }
    }

    public static class ReadPublic implements Supplier<String> {
        public String get() {
            return "open " + Target.make().open;
        }
    }

    public static class Construct implements Supplier<String> {
        public String get() {
            return "made " + new Target(5).open;
        }
    }

    public static class CallInstance implements Supplier<String> {
        public String get() {
            return "instance " + Target.make().instanceHidden();
        }
    }

    public static class NewSecret implements Supplier<String> {
        public String get() {
            return "new " + new Secret();
        }
    }

    public static class CastSecret implements Supplier<String> {
        public String get() {
            Secret s = (Secret) Secrets.one();
            return "cast " + s;
        }
    }

    /** Its package-private who() is not overridden by a class of another run-time package. */
    public static class OverBase {
        String who() {
            return "base";
        }

        public String call() {
            return "who() is " + who();
        }
    }

    public static class Overrider extends OverBase implements Supplier<String> {
        String who() {
            return "override";
        }

        public String get() {
            return call() + ", own " + who();
        }
    }

    /** A package-private superclass and superinterface. */
    static class HiddenBase {
    }

    interface HiddenFace {
    }

    abstract static class HiddenAbstract {
    }

    public static class ExtendsHiddenAbstract extends HiddenAbstract implements Supplier<String> {
        public String get() {
            return "extends abstract";
        }
    }

    public static class ExtendsHidden extends HiddenBase implements Supplier<String> {
        public String get() {
            return "extends";
        }
    }

    public static class ImplementsHidden implements HiddenFace, Supplier<String> {
        public String get() {
            return "implements";
        }
    }

    /** Package-private members of a class of its own loader: allowed. */
    public static class Mine {
        static String hello() {
            return "mine";
        }

        int n = 4;
    }

    public static class UseMine implements Supplier<String> {
        public String get() {
            return "own loader " + Mine.hello() + " " + new Mine().n;
        }
    }

    /** Defines the names in `own` from the class path, delegates the rest to its parent. */
    static class Definer extends ClassLoader {
        final Set<String> own;

        Definer(String name, ClassLoader parent, String... own) {
            super(name, parent);
            this.own = new HashSet<>(Arrays.asList(own));
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && own.contains(name)) {
                    c = findClass(name);
                }
                if (c == null) {
                    return super.loadClass(name, resolve);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            String path = name.replace('.', '/') + ".class";
            ClassLoader app = PackagePrivateLoaders.class.getClassLoader();
            try (InputStream in = app.getResourceAsStream(path)) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    static final String P = "PackagePrivateLoaders$";

    /** The error and its message, loaders' identity hashes (" @1b6d3586") left out. */
    static String describe(Throwable t) {
        String m = String.valueOf(t.getMessage()).replaceAll(" @[0-9a-f]+", "");
        return t.getClass().getName() + ": " + m;
    }

    static void run(String simple, String... alsoOwn) {
        String[] own = new String[alsoOwn.length + 1];
        own[0] = P + simple;
        for (int i = 0; i < alsoOwn.length; i++) {
            own[i + 1] = P + alsoOwn[i];
        }
        Definer loader = new Definer("loader-" + simple, PackagePrivateLoaders.class.getClassLoader(), own);
        try {
            Class<?> c = Class.forName(P + simple, true, loader);
            @SuppressWarnings("unchecked")
            Supplier<String> s = (Supplier<String>) c.getDeclaredConstructor().newInstance();
            System.out.println(simple + ": " + s.get());
        } catch (Throwable t) {
            System.out.println(simple + ": " + describe(t));
        }
        // Twice: a failed resolution fails again the same way.
        try {
            Class<?> c = Class.forName(P + simple, true, loader);
            @SuppressWarnings("unchecked")
            Supplier<String> s = (Supplier<String>) c.getDeclaredConstructor().newInstance();
            System.out.println("  again: " + s.get());
        } catch (Throwable t) {
            System.out.println("  again: " + describe(t));
        }
    }

    public static void main(String[] args) {
        for (String c : new String[] {
            "CallStatic", "ReadStatic", "WriteField", "ReadPublic", "Construct", "CallInstance",
            "NewSecret", "CastSecret", "Overrider", "ExtendsHidden", "ImplementsHidden",
            "ExtendsHiddenAbstract"
        }) {
            run(c);
        }
        run("UseMine", "Mine");
    }
}
