import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Verification of classes a user-defined loader defines whose superclass chain comes from
 * the application loader (JVMS §4.10.1.2: assignability is decided through the defining
 * loaders; a superclass's superclass is its own loader's business). Each case's class is
 * defined by a fresh loader that defines only that class and delegates every other name to
 * the application loader, so the custom loader never loads the grand-superclass itself, nor
 * the class above it (Root), which no case names.
 * Cases: `new Helper(this)` where the parameter is the grand-superclass, a field store of
 * `this` into fields typed as the grand-superclass, `this` returned as an interface the
 * grand-superclass implements, protected members reached through the chain (`super.` calls
 * and fields), and a protected access on a receiver that is not the current class.
 */
public class VerifierLoaderChain {
    public interface Named {
        String name();
    }

    /** The top of the application loader's chain; the cases never name it. */
    public static class Root {
        public String name() {
            return "root:" + getClass().getName();
        }
    }

    public static class Grand extends Root implements Named {
        protected int level = 1;
        protected static int statics = 5;

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
        public static Grand slot;
    }

    /** `new Helper(this)`: this (a Middle's subclass) passed as a Grand. */
    public static class NewHelper extends Middle implements Supplier<String> {
        public String get() {
            return new Helper(this).seen;
        }
    }

    /** `this` stored into an instance field and a static field typed Grand. */
    public static class FieldStore extends Middle implements Supplier<String> {
        public Grand me;

        public String get() {
            me = this;
            Holder.slot = this;
            return "stored " + me.name() + " and " + Holder.slot.name();
        }
    }

    /** `this` returned as Named, which Grand implements. */
    public static class ReturnIface extends Middle implements Supplier<String> {
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

    /** Protected members of Grand and Middle through the chain. */
    public static class Protected extends Middle implements Supplier<String> {
        public String get() {
            level = level + 10;
            statics = statics + 1;
            super.level += 100;
            return "super.tag()=" + super.tag() + " tag()=" + tag() + " level=" + level
                    + " super.level=" + super.level + " statics=" + statics;
        }

        protected String tag() {
            return "protected-tag";
        }
    }

    /** Protected field of Grand read on a Middle that is not this class (HotSpot rejects it). */
    public static class ProtectedOther extends Middle implements Supplier<String> {
        public String get() {
            Middle other = new Middle();
            return "other level=" + other.level;
        }
    }

    /** Protected method of Grand called on a Middle that is not this class. */
    public static class ProtectedOtherCall extends Middle implements Supplier<String> {
        public String get() {
            Middle other = new Middle();
            return "other tag=" + other.tag();
        }
    }

    /** Protected field of Grand written on a Middle that is not this class. */
    public static class ProtectedOtherPut extends Middle implements Supplier<String> {
        public String get() {
            Middle other = new Middle();
            other.level = 3;
            return "other level=" + other.level;
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
            try (InputStream in = VerifierLoaderChain.class.getClassLoader().getResourceAsStream(path)) {
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

    static void run(String simple) {
        String name = "VerifierLoaderChain$" + simple;
        ClassLoader app = VerifierLoaderChain.class.getClassLoader();
        Definer loader = new Definer("case-" + simple, app, name);
        try {
            Class<?> c = Class.forName(name, true, loader);
            Object o = c.getDeclaredConstructor().newInstance();
            @SuppressWarnings("unchecked")
            Supplier<String> s = (Supplier<String>) o;
            String r = s.get();
            System.out.println(simple + ": " + r);
            System.out.println("  loader " + c.getClassLoader().getName()
                    + ", super's " + c.getSuperclass().getClassLoader().getName()
                    + ", grand's " + c.getSuperclass().getSuperclass().getClassLoader().getName()
                    + ", is Grand " + (o instanceof Grand) + ", is Named " + (o instanceof Named));
        } catch (Throwable t) {
            // The first line of the message (HotSpot adds a frame dump to VerifyError's).
            String m = String.valueOf(t.getMessage()).lines().findFirst().orElse("");
            System.out.println(simple + ": " + t.getClass().getName() + ": " + m);
            Throwable cause = t.getCause();
            if (cause != null) {
                System.out.println("  cause " + cause.getClass().getName());
            }
        }
    }

    public static void main(String[] args) {
        for (String c : new String[] {
            "NewHelper", "FieldStore", "ReturnIface", "Protected", "ProtectedOther",
            "ProtectedOtherCall", "ProtectedOtherPut"
        }) {
            run(c);
        }
    }
}
