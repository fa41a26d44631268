import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

// ZipFile and JarFile reading archives written to a temporary directory (and a JDK jar).
public class ZipFiles {
    static final long TIME = 1_500_000_000_000L;

    static byte[] body(int n, int seed) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < n; i++) sb.append("entry ").append(seed).append(" row ").append(i * seed % 997).append('\n');
        return sb.substring(0, n).getBytes(StandardCharsets.UTF_8);
    }

    static String crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return Long.toHexString(c.getValue());
    }

    static byte[] read(ZipFile zf, ZipEntry e) throws IOException {
        try (InputStream in = zf.getInputStream(e)) {
            return in.readAllBytes();
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("zipfiles");
        try {
            File zip = dir.resolve("test.zip").toFile();
            try (ZipOutputStream zos = new ZipOutputStream(new FileOutputStream(zip))) {
                zos.setComment("made by ZipFiles");
                for (int i = 0; i < 12; i++) {
                    ZipEntry e = new ZipEntry((i % 3 == 0 ? "sub/" : "") + "file" + i + ".txt");
                    e.setTime(TIME + i * 60_000L);
                    if (i == 5) e.setComment("the fifth");
                    zos.putNextEntry(e);
                    zos.write(body(i * 4000 + 1, i + 1));
                    zos.closeEntry();
                }
            }
            System.out.println("zip size=" + zip.length() + " crc=" + crc(Files.readAllBytes(zip.toPath())));
            try (ZipFile zf = new ZipFile(zip)) {
                System.out.println("entries=" + zf.size() + " comment=" + zf.getComment() + " name=" + new File(zf.getName()).getName());
                for (Enumeration<? extends ZipEntry> en = zf.entries(); en.hasMoreElements(); ) {
                    ZipEntry e = en.nextElement();
                    byte[] b = read(zf, e);
                    System.out.println("  " + e.getName() + " size=" + e.getSize() + " csize=" + e.getCompressedSize() + " crc="
                            + Long.toHexString(e.getCrc()) + " read=" + b.length + " " + crc(b) + " time=" + e.getTime()
                            + (e.getComment() != null ? " comment=" + e.getComment() : ""));
                }
                ZipEntry e7 = zf.getEntry("file7.txt");
                // Several streams open at once, read interleaved.
                try (InputStream a = zf.getInputStream(e7); InputStream b = zf.getInputStream(zf.getEntry("sub/file9.txt"))) {
                    byte[] x = new byte[10];
                    a.read(x);
                    b.skip(100);
                    byte[] y = new byte[10];
                    b.read(y);
                    System.out.println("interleaved: [" + new String(x, StandardCharsets.UTF_8).trim() + "] [" + new String(y, StandardCharsets.UTF_8).trim()
                            + "] available=" + (a.available() > 0));
                }
                System.out.println("missing=" + zf.getEntry("nope") + " stream count=" + zf.stream().filter(z -> z.getName().startsWith("sub/")).count());
            }

            // A jar with a manifest, read through JarFile.
            File jar = dir.resolve("test.jar").toFile();
            Manifest mf = new Manifest();
            mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "demo.Main");
            mf.getMainAttributes().putValue("Created-By", "ZipFiles test");
            Attributes sec = new Attributes();
            sec.putValue("Sealed", "true");
            mf.getEntries().put("demo/", sec);
            try (JarOutputStream jos = new JarOutputStream(new FileOutputStream(jar), mf)) {
                for (String n : new String[] {"demo/", "demo/Main.class", "demo/res.properties", "META-INF/services/demo.Svc"}) {
                    JarEntry je = new JarEntry(n);
                    je.setTime(TIME);
                    jos.putNextEntry(je);
                    if (!n.endsWith("/")) jos.write(body(n.length() * 50, n.length()));
                    jos.closeEntry();
                }
            }
            // (JarOutputStream stamps the manifest entries with the current time: no crc of the jar)
            System.out.println("jar size=" + jar.length());
            try (JarFile jf = new JarFile(jar)) {
                Manifest m = jf.getManifest();
                System.out.println("Main-Class=" + m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS)
                        + " Created-By=" + m.getMainAttributes().getValue("Created-By")
                        + " sealed=" + m.getAttributes("demo/").getValue("Sealed"));
                List<String> names = new ArrayList<>();
                for (JarEntry je : Collections.list(jf.entries())) names.add(je.getName() + ":" + je.getSize() + ":" + crc(read(jf, je)));
                System.out.println("jar entries " + names);
                JarEntry main = jf.getJarEntry("demo/Main.class");
                System.out.println("Main.class size=" + main.getSize() + " attrs=" + main.getAttributes() + " certs=" + main.getCertificates());
                System.out.println("versioned=" + jf.isMultiRelease());
            }

            // Not a zip.
            File junk = dir.resolve("junk.zip").toFile();
            Files.write(junk.toPath(), body(500, 3));
            try (ZipFile zf = new ZipFile(junk)) {
                System.out.println("opened junk?");
            } catch (ZipException e) {
                System.out.println("junk: " + e.getMessage());
            }
        } finally {
            for (File f : dir.toFile().listFiles()) f.delete();
            Files.delete(dir);
        }

        // A jar of the JDK itself, if it is there (the same file for both VMs).
        File jrtfs = new File(System.getProperty("java.home"), "lib/jrt-fs.jar");
        if (jrtfs.exists()) {
            try (JarFile jf = new JarFile(jrtfs)) {
                long total = 0, classes = 0;
                CRC32 all = new CRC32();
                for (JarEntry je : Collections.list(jf.entries())) {
                    byte[] b = read(jf, je);
                    total += b.length;
                    if (je.getName().endsWith(".class")) classes++;
                    if (b.length != je.getSize()) System.out.println("size mismatch " + je.getName());
                    all.update(b);
                }
                System.out.println("jrt-fs.jar: classes>0=" + (classes > 0) + " bytes match=" + (total > 0) + " manifest=" + (jf.getManifest() != null));
            }
        }
    }
}
