import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.nio.file.attribute.*;
import java.util.*;
import java.util.stream.Collectors;
import java.util.stream.Stream;

// java.nio.file.Files on regular files: reading and writing, copy/move/delete, links,
// attributes and the exceptions the Unix provider translates from errno.
public class NioFiles {
    static Path root;

    interface Action {
        Object run() throws Exception;
    }

    static String rel(Path p) {
        return root.relativize(p).toString();
    }

    static String hide(String s) {
        return s == null ? "null" : s.replace(root.toString(), "$TMP");
    }

    static void attempt(String label, Action a) {
        try {
            System.out.println(label + " -> " + a.run());
        } catch (FileSystemException e) {
            System.out.println(label + " !! " + e.getClass().getSimpleName() + " file=" + hide(e.getFile())
                    + " other=" + hide(e.getOtherFile()) + " reason=" + e.getReason());
        } catch (Exception e) {
            System.out.println(label + " !! " + e.getClass().getSimpleName() + ": " + hide(e.getMessage()));
        }
    }

    public static void main(String[] args) throws Exception {
        root = Files.createTempDirectory("jxvm-niofiles").toRealPath();
        try {
            run();
        } finally {
            try (Stream<Path> s = Files.walk(root)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        System.out.println("cleaned up: " + Files.notExists(root));
    }

    static void run() throws Exception {
        System.out.println("temp dir: " + Files.isDirectory(root) + " empty=" + (Files.list(root).count() == 0));

        // --- writing and reading ---
        Path text = root.resolve("text.txt");
        Files.writeString(text, "first line\nsecond line\nthird line\n");
        System.out.println("size " + Files.size(text) + " exists " + Files.exists(text) + " regular " + Files.isRegularFile(text));
        System.out.println("readString " + Files.readString(text).length());
        System.out.println("readAllLines " + Files.readAllLines(text));
        try (Stream<String> lines = Files.lines(text)) {
            System.out.println("lines with 'i' " + lines.filter(l -> l.contains("i")).count());
        }
        Files.write(text, List.of("fourth line", "fifth line"), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        System.out.println("after append " + Files.readAllLines(text).size() + " lines, " + Files.size(text) + " bytes");
        Files.writeString(text, "\u00e9t\u00e9 \u2603\n", StandardCharsets.UTF_8);
        System.out.println("utf8 bytes " + Files.size(text) + " chars " + Files.readString(text).length());
        byte[] bin = new byte[300];
        for (int i = 0; i < bin.length; i++) bin[i] = (byte) (i * 7);
        Path data = Files.write(root.resolve("data.bin"), bin);
        System.out.println("bytes equal " + Arrays.equals(bin, Files.readAllBytes(data)));

        try (BufferedWriter w = Files.newBufferedWriter(root.resolve("buffered.txt"))) {
            for (int i = 0; i < 1000; i++) {
                w.write("row " + i);
                w.newLine();
            }
        }
        try (BufferedReader r = Files.newBufferedReader(root.resolve("buffered.txt"))) {
            String line;
            int n = 0;
            String last = null;
            while ((line = r.readLine()) != null) {
                n++;
                last = line;
            }
            System.out.println("buffered rows " + n + " last '" + last + "'");
        }
        try (OutputStream o = Files.newOutputStream(root.resolve("stream.bin"))) {
            o.write(new byte[] {1, 2, 3});
        }
        try (OutputStream o = Files.newOutputStream(root.resolve("stream.bin"), StandardOpenOption.APPEND)) {
            o.write(4);
        }
        try (InputStream in = Files.newInputStream(root.resolve("stream.bin"))) {
            System.out.println("stream skip " + in.skip(1) + " rest " + Arrays.toString(in.readAllBytes()));
        }

        // --- copy, move, delete ---
        Path copy = Files.copy(data, root.resolve("copy.bin"));
        System.out.println("copy " + rel(copy) + " mismatch " + Files.mismatch(data, copy));
        attempt("copy onto existing", () -> Files.copy(text, copy));
        attempt("copy replace", () -> rel(Files.copy(text, copy, StandardCopyOption.REPLACE_EXISTING)));
        System.out.println("mismatch after replace " + Files.mismatch(text, copy) + " vs data " + Files.mismatch(data, copy));
        Files.setLastModifiedTime(data, FileTime.fromMillis(1_000_000_000_000L));
        Path attrCopy = Files.copy(data, root.resolve("attrcopy.bin"), StandardCopyOption.COPY_ATTRIBUTES);
        System.out.println("copied mtime " + Files.getLastModifiedTime(attrCopy));
        Path moved = Files.move(attrCopy, root.resolve("moved.bin"));
        System.out.println("moved " + rel(moved) + " source gone " + Files.notExists(attrCopy));
        attempt("move missing", () -> Files.move(attrCopy, root.resolve("x.bin")));
        attempt("atomic move", () -> rel(Files.move(moved, root.resolve("atomic.bin"), StandardCopyOption.ATOMIC_MOVE)));
        attempt("delete missing", () -> {
            Files.delete(root.resolve("missing"));
            return "deleted";
        });
        attempt("deleteIfExists missing", () -> Files.deleteIfExists(root.resolve("missing")));
        attempt("deleteIfExists present", () -> Files.deleteIfExists(root.resolve("atomic.bin")));
        attempt("size missing", () -> Files.size(root.resolve("missing")));
        attempt("read missing", () -> Files.readString(root.resolve("missing")));
        attempt("createFile existing", () -> Files.createFile(text));
        attempt("read directory", () -> Files.readAllBytes(root));
        attempt("write into missing dir", () -> Files.writeString(root.resolve("no/such/file"), "x"));

        // --- temp files ---
        Path tmp = Files.createTempFile(root, "pre-", ".suffix");
        String tn = tmp.getFileName().toString();
        System.out.println("temp file " + tn.startsWith("pre-") + " " + tn.endsWith(".suffix") + " size " + Files.size(tmp)
                + " perms " + PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp)));
        Files.delete(tmp);

        // --- links ---
        Path sym = Files.createSymbolicLink(root.resolve("sym"), Paths.get("text.txt"));
        System.out.println("symlink " + Files.isSymbolicLink(sym) + " -> " + Files.readSymbolicLink(sym) + " size via link "
                + Files.size(sym) + " regular(nofollow) " + Files.isRegularFile(sym, LinkOption.NOFOLLOW_LINKS));
        System.out.println("realPath " + rel(sym.toRealPath()) + " sameFile " + Files.isSameFile(sym, text));
        Path dangling = Files.createSymbolicLink(root.resolve("dangling"), Paths.get("nowhere"));
        System.out.println("dangling exists " + Files.exists(dangling) + " nofollow " + Files.exists(dangling, LinkOption.NOFOLLOW_LINKS)
                + " notExists " + Files.notExists(dangling));
        attempt("realPath dangling", () -> dangling.toRealPath());
        attempt("readSymbolicLink on file", () -> Files.readSymbolicLink(text));
        Path hard = Files.createLink(root.resolve("hard"), data);
        System.out.println("hard links " + Files.getAttribute(hard, "unix:nlink") + " same inode "
                + Files.getAttribute(hard, "unix:ino").equals(Files.getAttribute(data, "unix:ino")));
        Files.delete(hard);
        System.out.println("links after delete " + Files.getAttribute(data, "unix:nlink"));

        // --- attributes ---
        BasicFileAttributes ba = Files.readAttributes(data, BasicFileAttributes.class);
        System.out.println("basic regular=" + ba.isRegularFile() + " dir=" + ba.isDirectory() + " link=" + ba.isSymbolicLink() + " other="
                + ba.isOther() + " size=" + ba.size() + " key=" + (ba.fileKey() != null));
        BasicFileAttributes la = Files.readAttributes(sym, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        System.out.println("link attrs link=" + la.isSymbolicLink() + " size=" + la.size());
        FileTime t1 = FileTime.fromMillis(946_684_800_123L);
        FileTime t2 = FileTime.fromMillis(1_234_567_890_000L);
        Files.getFileAttributeView(data, BasicFileAttributeView.class).setTimes(t1, t2, null);
        ba = Files.readAttributes(data, BasicFileAttributes.class);
        System.out.println("times modified=" + ba.lastModifiedTime() + " access=" + ba.lastAccessTime());
        Files.setAttribute(data, "basic:lastModifiedTime", FileTime.fromMillis(0));
        System.out.println("epoch mtime " + Files.getAttribute(data, "lastModifiedTime"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rw-r-----"));
        PosixFileAttributes pa = Files.readAttributes(data, PosixFileAttributes.class);
        System.out.println("posix " + PosixFilePermissions.toString(pa.permissions()) + " owner is user "
                + pa.owner().getName().equals(System.getProperty("user.name")) + " group " + (pa.group() != null));
        Files.setAttribute(data, "posix:permissions", PosixFilePermissions.fromString("rwxr-x--x"));
        System.out.println("unix:mode " + Integer.toOctalString((Integer) Files.getAttribute(data, "unix:mode")));
        Map<String, Object> m = Files.readAttributes(data, "unix:size,isDirectory,nlink,mode");
        System.out.println("attr map " + new TreeMap<>(m));
        System.out.println("access r=" + Files.isReadable(data) + " w=" + Files.isWritable(data) + " x=" + Files.isExecutable(data)
                + " x(text)=" + Files.isExecutable(text));
        System.out.println("hidden " + Files.isHidden(root.resolve(".dot")) + " " + Files.isHidden(data));
        UserPrincipalLookupService lookup = root.getFileSystem().getUserPrincipalLookupService();
        attempt("lookup missing user", () -> lookup.lookupPrincipalByName("no-such-user-jxvm"));
        UserPrincipal me = lookup.lookupPrincipalByName(System.getProperty("user.name"));
        Files.setOwner(data, me);
        System.out.println("owner after setOwner " + Files.getOwner(data).equals(me));
        FileStore store = Files.getFileStore(root);
        System.out.println("store space sane " + (store.getTotalSpace() > 0 && store.getUsableSpace() <= store.getTotalSpace())
                + " posix view " + store.supportsFileAttributeView(PosixFileAttributeView.class));
        System.out.println("files left " + Files.list(root).map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList()));
    }
}
