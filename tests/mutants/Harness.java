import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs class-file mutants in one VM, each in a fresh class loader, and prints one outcome
 * line per mutant: "R <id> <outcome>". Used by crates/cli/tests/mutants.rs on HotSpot and on
 * jxvm alike.
 *
 * Usage: Harness MANIFEST CLASSDIR FIRST TIMEOUT_MS. Each manifest line is
 * "id main mutatedClass mutantFile"; lines before index FIRST are skipped (the driver restarts
 * the harness after a mutant that timed out or killed the VM).
 *
 * Outcomes mirror what a real run (java -cp DIR main) reports: the main class is loaded
 * without initialization, its main method looked up (which links and verifies it), then
 * invoked (which initializes it). "OK:<hash of stdout>", "EXC:<throwable class>", "NOMAIN"
 * (no public static void main(String[])), "TIMEOUT" (then the VM halts).
 */
public class Harness {
    static final class MutantLoader extends ClassLoader {
        private final Path dir;
        private final String mutated;
        private final byte[] mutant;

        MutantLoader(Path dir, String mutated, byte[] mutant) {
            super(Harness.class.getClassLoader());
            this.dir = dir;
            this.mutated = mutated;
            this.mutant = mutant;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b;
            if (name.equals(mutated)) {
                b = mutant;
            } else {
                try {
                    b = Files.readAllBytes(dir.resolve(name + ".class"));
                } catch (Exception e) {
                    throw new ClassNotFoundException(name);
                }
            }
            return defineClass(name, b, 0, b.length);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    // The programs' classes come from this loader, never from the harness's.
                    if (name.equals(mutated) || Files.exists(dir.resolve(name + ".class"))) {
                        c = findClass(name);
                    } else {
                        c = getParent().loadClass(name);
                    }
                }
                return c;
            }
        }
    }

    static String run(Path dir, String main, String mutated, byte[] mutant, PrintStream out) {
        try {
            MutantLoader loader = new MutantLoader(dir, mutated, mutant);
            Class<?> c = Class.forName(main, false, loader);
            Method m;
            try {
                m = c.getMethod("main", String[].class);
            } catch (NoSuchMethodException e) {
                return "NOMAIN";
            }
            if (!Modifier.isStatic(m.getModifiers()) || m.getReturnType() != void.class) {
                return "NOMAIN";
            }
            try {
                m.invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                return "EXC:" + e.getCause().getClass().getName();
            }
            return "OK";
        } catch (Throwable t) {
            return "EXC:" + t.getClass().getName();
        }
    }

    static String hash(byte[] b) {
        long h = 0xcbf29ce484222325L;
        for (byte x : b) {
            h ^= (x & 0xff);
            h *= 0x100000001b3L;
        }
        return Long.toHexString(h);
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        Path dir = Path.of(args[1]);
        int first = Integer.parseInt(args[2]);
        long timeout = Long.parseLong(args[3]);
        PrintStream realOut = System.out;
        PrintStream realErr = System.err;
        for (int i = first; i < lines.size(); i++) {
            String[] f = lines.get(i).split(" ");
            String id = f[0];
            byte[] mutant = Files.readAllBytes(Path.of(f[3]));
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            PrintStream capture = new PrintStream(captured, true);
            String[] result = new String[1];
            Thread t = new Thread(() -> {
                // HARNESS_SHOW_OUTPUT=1 shows the programs' output (for debugging the harness).
                System.setOut(System.getenv("HARNESS_SHOW_OUTPUT") != null ? realOut : capture);
                System.setErr(new PrintStream(new ByteArrayOutputStream(), true));
                result[0] = run(dir, f[1], f[2], mutant, capture);
            }, "mutant-" + id);
            t.setDaemon(true);
            t.start();
            t.join(timeout);
            System.setOut(realOut);
            System.setErr(realErr);
            if (t.isAlive()) {
                realOut.println("R " + id + " TIMEOUT");
                realOut.flush();
                Runtime.getRuntime().halt(0);
            }
            String r = result[0];
            capture.flush();
            if (r == null) {
                r = "EXC:?";
            } else if (r.equals("OK")) {
                r = "OK:" + hash(captured.toByteArray());
            }
            realOut.println("R " + id + " " + r);
            realOut.flush();
        }
        realOut.println("DONE");
        realOut.flush();
        Runtime.getRuntime().halt(0);
    }
}
