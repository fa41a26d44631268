import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.*;
import java.nio.file.attribute.*;
import java.util.*;
import java.util.stream.Collectors;
import java.util.stream.Stream;

// Directories through java.nio.file: creation, listing (DirectoryStream, list, walk, find,
// walkFileTree), SecureDirectoryStream, copy/move/delete of trees and path arithmetic.
public class NioDirectories {
    static Path root;

    interface Action {
        Object run() throws Exception;
    }

    static String rel(Path p) {
        return root.relativize(p).toString();
    }

    static void attempt(String label, Action a) {
        try {
            System.out.println(label + " -> " + a.run());
        } catch (FileSystemException e) {
            String f = e.getFile() == null ? "null" : e.getFile().replace(root.toString(), "$TMP");
            System.out.println(label + " !! " + e.getClass().getSimpleName() + " " + f);
        } catch (Exception e) {
            System.out.println(label + " !! " + e.getClass().getSimpleName());
        }
    }

    static List<String> names(Stream<Path> s) {
        try (s) {
            return s.map(NioDirectories::rel).sorted().collect(Collectors.toList());
        }
    }

    static void deleteTree(Path top) throws IOException {
        Files.walkFileTree(top, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) throw exc;
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    public static void main(String[] args) throws Exception {
        root = Files.createTempDirectory("jxvm-niodirs").toRealPath();
        try {
            run();
        } finally {
            deleteTree(root);
        }
        System.out.println("cleaned up: " + Files.notExists(root));
    }

    static void run() throws Exception {
        // --- building a tree ---
        Path deep = Files.createDirectories(root.resolve("a/b/c/d"));
        System.out.println("createDirectories " + rel(deep) + " isDirectory " + Files.isDirectory(deep));
        System.out.println("createDirectories again " + rel(Files.createDirectories(deep)));
        attempt("createDirectory existing", () -> Files.createDirectory(deep));
        attempt("createDirectory missing parent", () -> Files.createDirectory(root.resolve("x/y")));
        Files.createDirectory(root.resolve("private"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        System.out.println("private perms " + PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("private"))));
        String[] files = {"a/one.txt", "a/two.java", "a/b/three.txt", "a/b/c/four.md", "a/b/c/d/five.txt", "a/.hidden"};
        for (String f : files) Files.writeString(root.resolve(f), f);
        Files.createSymbolicLink(root.resolve("a/link-to-c"), Paths.get("b/c"));

        // --- listing ---
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root.resolve("a"))) {
            List<String> l = new ArrayList<>();
            for (Path p : ds) l.add(p.getFileName().toString());
            Collections.sort(l);
            System.out.println("newDirectoryStream " + l);
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root.resolve("a"), "*.{txt,java}")) {
            List<String> l = new ArrayList<>();
            ds.forEach(p -> l.add(p.getFileName().toString()));
            Collections.sort(l);
            System.out.println("glob " + l);
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root.resolve("a"), Files::isDirectory)) {
            List<String> l = new ArrayList<>();
            ds.forEach(p -> l.add(p.getFileName().toString()));
            Collections.sort(l);
            System.out.println("filter dirs " + l);
        }
        attempt("stream of a file", () -> Files.newDirectoryStream(root.resolve("a/one.txt")));
        attempt("stream of missing", () -> Files.newDirectoryStream(root.resolve("missing")));
        System.out.println("list " + names(Files.list(root.resolve("a"))));
        System.out.println("walk " + names(Files.walk(root)));
        System.out.println("walk depth 2 " + names(Files.walk(root, 2)));
        System.out.println("walk following links " + names(Files.walk(root.resolve("a"), FileVisitOption.FOLLOW_LINKS)));
        System.out.println("find txt " + names(Files.find(root, 10, (p, at) -> at.isRegularFile() && p.toString().endsWith(".txt"))));
        System.out.println("find dirs " + names(Files.find(root, 10, (p, at) -> at.isDirectory())));

        List<String> events = new ArrayList<>();
        Files.walkFileTree(root.resolve("a"), new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                events.add("pre " + rel(dir));
                return dir.endsWith("c") ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                events.add("file " + rel(file) + " " + attrs.size() + (attrs.isSymbolicLink() ? " link" : ""));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) {
                events.add("post " + rel(dir));
                return FileVisitResult.CONTINUE;
            }
        });
        Collections.sort(events);
        System.out.println("walkFileTree " + events);

        // --- SecureDirectoryStream (openat & co) ---
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root.resolve("a"))) {
            System.out.println("secure stream " + (ds instanceof SecureDirectoryStream));
            SecureDirectoryStream<Path> sds = (SecureDirectoryStream<Path>) ds;
            BasicFileAttributes at = sds.getFileAttributeView(Paths.get("one.txt"), BasicFileAttributeView.class).readAttributes();
            System.out.println("sds size " + at.size() + " regular " + at.isRegularFile());
            PosixFileAttributeView pv = sds.getFileAttributeView(Paths.get("two.java"), PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
            pv.setPermissions(PosixFilePermissions.fromString("r--r--r--"));
            System.out.println("sds perms " + PosixFilePermissions.toString(pv.readAttributes().permissions()));
            try (SeekableByteChannel ch = sds.newByteChannel(Paths.get("created.txt"), Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                System.out.println("sds wrote " + ch.write(ByteBuffer.wrap("via openat".getBytes())));
            }
            sds.move(Paths.get("created.txt"), sds, Paths.get("renamed.txt"));
            sds.deleteFile(Paths.get("two.java"));
            try (SecureDirectoryStream<Path> sub = sds.newDirectoryStream(Paths.get("b"))) {
                List<String> l = new ArrayList<>();
                for (Path p : sub) l.add(p.getFileName().toString());
                Collections.sort(l);
                System.out.println("sds sub " + l);
            }
            Files.createDirectory(root.resolve("a/empty"));
            sds.deleteDirectory(Paths.get("empty"));
            try {
                sds.deleteDirectory(Paths.get("b"));
            } catch (DirectoryNotEmptyException e) {
                System.out.println("sds deleteDirectory nonempty: DirectoryNotEmptyException");
            }
        }
        System.out.println("after sds " + names(Files.list(root.resolve("a"))));

        // --- copy, move and delete of directories ---
        attempt("delete nonempty", () -> {
            Files.delete(root.resolve("a/b"));
            return "deleted";
        });
        attempt("copy dir (shallow)", () -> rel(Files.copy(root.resolve("a/b"), root.resolve("b-copy"))));
        System.out.println("shallow copy contents " + names(Files.list(root.resolve("b-copy"))));
        attempt("move dir", () -> rel(Files.move(root.resolve("a/b/c"), root.resolve("c-moved"))));
        System.out.println("moved tree " + names(Files.walk(root.resolve("c-moved"))));
        attempt("move onto nonempty", () -> Files.move(root.resolve("b-copy"), root.resolve("c-moved"), StandardCopyOption.REPLACE_EXISTING));
        attempt("move replace empty", () -> rel(Files.move(root.resolve("private"), root.resolve("b-copy"), StandardCopyOption.REPLACE_EXISTING)));
        attempt("rename atomic", () -> rel(Files.move(root.resolve("b-copy"), root.resolve("renamed-dir"), StandardCopyOption.ATOMIC_MOVE)));
        System.out.println("dangling link now " + Files.exists(root.resolve("a/link-to-c")) + " "
                + Files.isSymbolicLink(root.resolve("a/link-to-c")));
        deleteTree(root.resolve("c-moved"));
        System.out.println("top level " + names(Files.list(root)));

        // --- path arithmetic (no I/O) ---
        Path p = Paths.get("/usr/local/../lib/./jvm");
        System.out.println("normalize " + p.normalize() + " root " + p.getRoot() + " names " + p.getNameCount() + " parent " + p.getParent()
                + " file " + p.getFileName());
        System.out.println("relativize " + Paths.get("/a/b/c").relativize(Paths.get("/a/x/y")) + " | "
                + Paths.get("a/b").relativize(Paths.get("a/b/c/d")));
        System.out.println("resolve " + Paths.get("base").resolve("child") + " " + Paths.get("base").resolve("/abs") + " "
                + Paths.get("dir/file").resolveSibling("other"));
        System.out.println("startsWith " + Paths.get("/a/b/c").startsWith("/a/b") + " " + Paths.get("/a/bc").startsWith("/a/b") + " endsWith "
                + Paths.get("x/y/z").endsWith("y/z"));
        System.out.println("subpath " + Paths.get("/a/b/c/d").subpath(1, 3) + " compare " + Integer.signum(Paths.get("a").compareTo(Paths.get("b"))));
        System.out.println("uri " + Paths.get("/tmp/with space/x").toUri() + " back " + Path.of(Paths.get("/tmp/q").toUri()));
        System.out.println("absolute " + Paths.get("rel/path").toAbsolutePath().equals(Paths.get(System.getProperty("user.dir"), "rel", "path")));
        StringBuilder parts = new StringBuilder();
        for (Path part : Paths.get("/x/y/z")) parts.append(part).append('|');
        System.out.println("iterate " + parts);
        attempt("invalid path", () -> Paths.get("nul\0byte"));
    }
}
