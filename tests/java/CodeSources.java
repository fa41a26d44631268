import java.io.InputStream;
import java.net.URL;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.function.Supplier;

// Class.getProtectionDomain: an application class's code source is its class path entry (the
// same ProtectionDomain for every class of the entry, from the application loader), a JDK
// class has none, a class a loader defines gets the ProtectionDomain it was given (or the
// loader's default one, whose code source has no location), and lambda proxies and hidden
// classes get their caller's or lookup class's.
public class CodeSources {
    static class Nested { }

    static class Loader extends ClassLoader {
        Loader() { super(CodeSources.class.getClassLoader()); }

        Class<?> define(String name, ProtectionDomain pd) throws Exception {
            byte[] b;
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                b = in.readAllBytes();
            }
            return pd == null ? defineClass(name, b, 0, b.length)
                    : defineClass(name, b, 0, b.length, pd);
        }
    }

    public static void main(String[] args) throws Exception {
        ProtectionDomain pd = CodeSources.class.getProtectionDomain();
        CodeSource cs = pd.getCodeSource();
        System.out.println("app class has a code source: " + (cs != null));
        URL entry = Paths.get(System.getProperty("java.class.path")).toAbsolutePath().normalize().toUri().toURL();
        System.out.println("its location is the class path entry: " + entry.equals(cs.getLocation()));
        System.out.println("location ends with '/': " + cs.getLocation().toString().endsWith("/"));
        System.out.println("certificates: " + cs.getCertificates() + ", signers: " + cs.getCodeSigners());
        System.out.println("loader is the application loader: "
                + (pd.getClassLoader() == ClassLoader.getSystemClassLoader()));
        System.out.println("nested class shares it: " + (Nested.class.getProtectionDomain() == pd));
        System.out.println("asked again, the same: " + (CodeSources.class.getProtectionDomain() == pd));
        Runnable lambda = () -> { };
        System.out.println("a lambda's is its caller's: " + (lambda.getClass().getProtectionDomain() == pd));
        byte[] nested;
        try (InputStream in = CodeSources.class.getResourceAsStream("CodeSources$Nested.class")) {
            nested = in.readAllBytes();
        }
        Class<?> hidden = java.lang.invoke.MethodHandles.lookup().defineHiddenClass(nested, false).lookupClass();
        System.out.println("a hidden class's is its lookup's: " + (hidden.getProtectionDomain() == pd));
        System.out.println("String's code source: " + String.class.getProtectionDomain().getCodeSource());
        System.out.println("int[]'s code source: " + int[].class.getProtectionDomain().getCodeSource());

        ProtectionDomain given = new ProtectionDomain(
                new CodeSource(new URL("file:/given/place.jar"), (java.security.cert.Certificate[]) null), null);
        Class<?> withPd = new Loader().define("CodeSources$Nested", given);
        System.out.println("defined with a ProtectionDomain, gets it: " + (withPd.getProtectionDomain() == given)
                + " " + withPd.getProtectionDomain().getCodeSource().getLocation());
        Class<?> withoutPd = new Loader().define("CodeSources$Nested", null);
        CodeSource none = withoutPd.getProtectionDomain().getCodeSource();
        System.out.println("defined without one: code source " + (none != null) + ", location "
                + (none == null ? "-" : String.valueOf(none.getLocation())));
        System.gc();
        System.out.println("after a collection: " + (CodeSources.class.getProtectionDomain() == pd)
                + " " + (withPd.getProtectionDomain() == given));
    }
}
