import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Verification through three levels of loaders (JVMS §4.10.1.2): the case classes are
 * defined by a user-defined loader whose parent is another user-defined loader, which defines
 * their superclass Upper; Upper's superclass chain (Middle, Grand, Root) comes from the
 * application loader. Neither custom loader ever loads Root, which no class they define
 * names. Cases: `new Helper(this)` with a Grand parameter, stores of `this` into fields typed
 * Grand and Upper, `this` returned as an interface Grand implements, protected members of
 * each level through the chain, and protected accesses on a receiver that is not the current
 * class (another run-time package: rejected by the verifier).
 */
public class VerifierLoaderChainNested {
    public interface Named {
        String name();
    }

    /** The top of the application loader's chain; nothing defined by a custom loader names it. */
    public static class Root {
        public String name() {
            return "root:" + getClass().getName();
        }
    }

    public static class Grand extends Root implements Named {
        protected int level = 1;

        protected String tag() {
            return "grand-tag";
        }

        public String name() {
            return "grand+" + super.name();
        }
    }

    public static class Middle extends Grand {
        protected String tag() {
            return "middle-tag";
        }
    }

    public static class Helper {
        public final String seen;

        public Helper(Grand g) {
            seen = "helper saw " + g.name();
        }
    }

    public static class Holder {
        public static Grand grand;
        public static Object upper;
    }

    /** Defined by the outer custom loader. */
    public static class Upper extends Middle {
        protected int upperLevel = 100;

        protected String upperTag() {
            return "upper-tag(" + new Helper(this).seen + ")";
        }
    }

    public static class NewHelper extends Upper implements Supplier<String> {
        public String get() {
            return new Helper(this).seen;
        }
    }

    public static class FieldStore extends Upper implements Supplier<String> {
        public Grand me;
        public Upper up;

        public String get() {
            me = this;
            up = this;
            Holder.grand = this;
            Holder.upper = up;
            return "stored " + me.name() + " / " + up.name() + " / " + Holder.grand.name();
        }
    }

    public static class ReturnIface extends Upper implements Supplier<String> {
        public Named asNamed() {
            return this;
        }

        public Grand asGrand() {
            return this;
        }

        public String get() {
            return "as named " + asNamed().name() + ", as grand " + asGrand().name();
        }
    }

    public static class Protected extends Upper implements Supplier<String> {
        public String get() {
            level += 10;
            upperLevel += 1;
            return "super.tag()=" + super.tag() + " upperTag()=" + upperTag() + " level=" + level
                    + " upperLevel=" + upperLevel;
        }
    }

    /** Upper's protected field on another Upper. */
    public static class ProtectedOtherUpper extends Upper implements Supplier<String> {
        public String get() {
            Upper other = new Upper();
            return "other upperLevel=" + other.upperLevel;
        }
    }

    /** Grand's protected method on an Upper. */
    public static class ProtectedOtherGrand extends Upper implements Supplier<String> {
        public String get() {
            Upper other = new Upper();
            return "other tag=" + other.tag();
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
            ClassLoader app = VerifierLoaderChainNested.class.getClassLoader();
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

    static final String P = "VerifierLoaderChainNested$";

    static String loaderName(Class<?> c) {
        return c.getClassLoader().getName();
    }

    static void run(ClassLoader outer, String simple) {
        Definer loader = new Definer("inner-" + simple, outer, P + simple);
        try {
            Class<?> c = Class.forName(P + simple, true, loader);
            Object o = c.getDeclaredConstructor().newInstance();
            @SuppressWarnings("unchecked")
            Supplier<String> s = (Supplier<String>) o;
            System.out.println(simple + ": " + s.get());
            Class<?> up = c.getSuperclass();
            System.out.println("  loaders " + loaderName(c) + " < " + loaderName(up) + " < "
                    + loaderName(up.getSuperclass()) + " < "
                    + loaderName(up.getSuperclass().getSuperclass()) + ", is Grand "
                    + (o instanceof Grand) + ", is Named " + (o instanceof Named)
                    + ", is app's Upper " + (o instanceof Upper));
        } catch (Throwable t) {
            // The first line of the message (HotSpot adds a frame dump to VerifyError's).
            String m = String.valueOf(t.getMessage()).lines().findFirst().orElse("");
            System.out.println(simple + ": " + t.getClass().getName() + ": " + m);
        }
    }

    public static void main(String[] args) {
        ClassLoader app = VerifierLoaderChainNested.class.getClassLoader();
        Definer outer = new Definer("outer", app, P + "Upper");
        for (String c : new String[] {
            "NewHelper", "FieldStore", "ReturnIface", "Protected", "ProtectedOtherUpper",
            "ProtectedOtherGrand"
        }) {
            run(outer, c);
        }
    }
}
