import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.spi.ToolProvider;
import java.util.zip.ZipFile;

/**
 * The JDK's jar tool (module jdk.jartool, found through ToolProvider) run in-process: create an
 * archive with a manifest entry point from files in a temporary directory, list it, and read
 * it back (names, sizes, manifest attributes; not timestamps).
 */
public class ToolJar {
    static int run(ToolProvider jar, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = jar.run(new PrintStream(out, true), new PrintStream(err, true), args);
        System.out.print(out.toString().replace('\\', '/'));
        if (err.size() > 0) System.out.println("stderr: " + err.toString().trim());
        return rc;
    }

    public static void main(String[] args) throws Exception {
        ToolProvider jar = ToolProvider.findFirst("jar").orElseThrow();
        System.out.println("tool: " + jar.name());
        Path dir = Files.createTempDirectory("tooljar");
        Path src = Files.createDirectories(dir.resolve("src/pkg/sub"));
        Files.writeString(dir.resolve("src/pkg/Hello.txt"), "hello, jar\n");
        Files.write(src.resolve("data.bin"), new byte[3000]);
        Files.writeString(src.resolve("notes.md"), "# notes\n".repeat(100));
        Path archive = dir.resolve("out.jar");
        System.out.println("create rc=" + run(jar, "--create", "--file", archive.toString(), "--main-class", "pkg.Main", "-C", dir.resolve("src").toString(), "."));
        System.out.println("list rc=" + run(jar, "--list", "--file", archive.toString()));
        try (ZipFile z = new ZipFile(archive.toFile())) {
            String manifest = new String(z.getInputStream(z.getEntry("META-INF/MANIFEST.MF")).readAllBytes());
            System.out.println("Main-Class in manifest: " + manifest.contains("Main-Class: pkg.Main"));
            System.out.println("entries: " + z.size());
            System.out.println("read back: " + new String(z.getInputStream(z.getEntry("pkg/Hello.txt")).readAllBytes()).trim() + ", "
                + z.getEntry("pkg/sub/data.bin").getSize() + " bytes, " + z.getInputStream(z.getEntry("pkg/sub/notes.md")).readAllBytes().length + " chars");
        }
        System.out.println("bad option rc=" + run(jar, "--no-such-option"));
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
