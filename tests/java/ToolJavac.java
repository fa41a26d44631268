import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * javac (module jdk.compiler, found through ToolProvider) run in-process on a multi-file program
 * with generics, sealed interfaces, records, pattern instanceof, lambdas, an enum, a switch
 * expression, and a compile error in a second run. The SHA-256 of every class file is printed, so matching HotSpot's output means
 * the class files are byte-identical to those javac writes on HotSpot.
 */
public class ToolJavac {
    static final String SHAPES = """
        package demo;
        public sealed interface Shape permits Shape.Circle, Shape.Rect {
            record Circle(double r) implements Shape {}
            record Rect(double w, double h) implements Shape {}
            static double area(Shape s) {
                if (s instanceof Circle c) return Math.PI * c.r() * c.r();
                if (s instanceof Rect r) return r.w() * r.h();
                throw new IllegalStateException();
            }
        }
        """;
    static final String COLOR = """
        package demo;
        public enum Color { RED, GREEN, BLUE; Color next() { return values()[(ordinal() + 1) % values().length]; } }
        """;
    static final String MAIN = """
        package demo;
        import java.util.*;
        import java.util.stream.*;
        public class Main {
            static <T extends Comparable<T>> T max(List<T> xs) { return xs.stream().max(Comparator.naturalOrder()).orElseThrow(); }
            static String kind(Color c) {
                return switch (c) { case RED -> "warm"; case GREEN, BLUE -> "cool"; };
            }
            public static void main(String[] args) {
                List<Shape> shapes = List.of(new Shape.Circle(1), new Shape.Rect(2, 3));
                System.out.println(shapes.stream().mapToDouble(Shape::area).sum() + " " + max(List.of(3, 9, 4)) + " " + Color.BLUE.next());
                Runnable r = () -> System.out.println("lambda " + String.join(",", args));
                r.run();
            }
        }
        """;

    static int javac(ToolProvider javac, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true);
        int rc = javac.run(ps, ps, args.toArray(new String[0]));
        String text = out.toString();
        text.lines().filter(l -> l.contains("error")).map(l -> l.contains("demo") ? l.substring(l.indexOf("demo")) : l).forEach(l -> System.out.println("  " + l));
        return rc;
    }

    public static void main(String[] args) throws Exception {
        if (System.getenv("JXVM_GC_STRESS") != null) {
            // javac makes millions of allocations: with a collection at each, too slow for CI.
            System.out.println("skipped under JXVM_GC_STRESS");
            return;
        }
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow();
        Path dir = Files.createTempDirectory("tooljavac");
        Path src = Files.createDirectories(dir.resolve("src/demo"));
        Files.writeString(src.resolve("Shape.java"), SHAPES);
        Files.writeString(src.resolve("Color.java"), COLOR);
        Files.writeString(src.resolve("Main.java"), MAIN);
        Path out = dir.resolve("classes");
        int rc = javac(javac, List.of("--release", "17", "-d", out.toString(),
            src.resolve("Shape.java").toString(), src.resolve("Color.java").toString(), src.resolve("Main.java").toString()));
        System.out.println("javac rc=" + rc);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (var files = Files.walk(out)) {
            for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
                byte[] digest = sha.digest(Files.readAllBytes(p));
                System.out.println(out.relativize(p).toString().replace('\\', '/') + " " + HexFormat.of().formatHex(digest, 0, 12));
            }
        }
        Files.writeString(src.resolve("Broken.java"), "package demo; class Broken { int f() { return \"x\"; } }");
        System.out.println("broken rc=" + javac(javac, List.of("--release", "17", "-d", out.toString(), src.resolve("Broken.java").toString())));
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
