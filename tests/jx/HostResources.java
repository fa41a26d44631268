import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * A domain's open files, sockets, channels, selectors, pipes, directory streams and watch
 * services are closed when it ends (issue 15): domains that open every kind and never close
 * them, then are terminated or return from main, leave the process's descriptor count where it
 * was. A domain that closes its standard streams does not close the process's. Prints
 * "ok ..." lines, or throws.
 */
public class HostResources {
    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    static long mappingsOf(Path file) throws Exception {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.endsWith(" " + file)).count();
    }

    static int openDescriptors() {
        return new File("/proc/self/fd").list().length;
    }

    static int created;

    /** Runs `n` domains of main class `main` (args: dir, and whether to wait), ended by `terminate` or by returning. */
    static void round(String dir, String main, int n, boolean terminate) throws Exception {
        List<Domain> ds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ds.add(Domain.create(DomainSpec.named("d" + created++).classPath(System.getProperty("java.class.path"))
                    .mainClass(main, dir, Boolean.toString(terminate))));
        }
        if (terminate) {
            // Wait until each has opened everything (it says so, then sleeps).
            for (Domain d : ds) {
                while (!Files.exists(Path.of(dir, d.name() + ".ready"))) Thread.sleep(5);
            }
            heldAtPeak = openDescriptors();
            mappedAtPeak = mappingsOf(Path.of(dir, "data.txt"));
            for (Domain d : ds) d.terminate();
        }
        for (Domain d : ds) {
            if (!d.awaitTermination(60_000)) throw new AssertionError("FAILED: " + d + " did not end");
        }
    }

    static int heldAtPeak;
    static long mappedAtPeak;

    /** Waits (up to 10 s) for the descriptor count to come down to `want`. */
    static int settle(int want) throws InterruptedException {
        int now = openDescriptors();
        for (int i = 0; i < 200 && now > want; i++) {
            Thread.sleep(50);
            now = openDescriptors();
        }
        return now;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("jxvm-host-resources");
        Files.writeString(dir.resolve("data.txt"), "some data\n");
        String d = dir.toString();
        // A first round loads whatever the launcher's side needs; count after it.
        round(d, "HostResources$Leaker", 1, true);
        Thread.sleep(200);
        int before = openDescriptors();

        round(d, "HostResources$Leaker", 10, true);
        check(mappedAtPeak == 10, "10 domains map the file (" + mappedAtPeak + " mappings)");
        check(heldAtPeak >= before + 10 * 15, "10 domains hold 15 descriptors or more each (" + (heldAtPeak - before) + ")");
        int afterTerminated = settle(before);
        check(mappingsOf(dir.resolve("data.txt")) == 0, "their mappings of the file are unmapped");
        check(afterTerminated <= before, "10 terminated domains' open files, sockets, channels, selectors, pipes, directory streams and watch services are closed (" + before + " descriptors before, " + afterTerminated + " after)");

        round(d, "HostResources$Leaker", 10, false);
        int afterReturned = settle(before);
        check(afterReturned <= before, "10 domains whose main returned without closing anything leave nothing open (" + afterReturned + " descriptors)");

        round(d, "HostResources$StdCloser", 1, false);
        check(new File("/proc/self/fd/0").exists() && new File("/proc/self/fd/1").exists() && new File("/proc/self/fd/2").exists(),
                "a domain that closes its standard streams leaves the process's open");
        System.out.flush();

        int opened = 0;
        try (Stream100 s = new Stream100(dir.resolve("data.txt"))) {
            opened = s.count;
        }
        check(opened == 100 && settle(before) <= before, "the launcher's own domain opens and closes files as before");

        // A domain's descriptors are limited (DomainSpec.descriptorLimit); past the limit an
        // open fails as at the process's limit, and a child may not have more than its creator.
        Domain limited = Domain.create(DomainSpec.named("limited").classPath(System.getProperty("java.class.path"))
                .descriptorLimit(40).mainClass("HostResources$Limited", d));
        check(limited.awaitTermination(60_000), "a domain with a descriptor limit runs");
        String result = Files.readString(dir.resolve("limited.result"));
        check(result.startsWith("40 Too many open files; again after a close"),
                "a domain limited to 40 descriptors opens 40 files, then gets \"Too many open files\", and opens one again after a close");
        check(result.endsWith("child: descriptor limit 41 exceeds the creating domain's 40"), "a child may not have more descriptors than its creator (" + result + ")");
        int launcherOpened;
        try (Stream100 s = new Stream100(dir.resolve("data.txt"))) {
            launcherOpened = s.count;
        }
        check(launcherOpened == 100 && settle(before) <= before, "the launcher's own files are not limited by it, and the limited domain's are closed");

        try (DirectoryStream<Path> ls = Files.newDirectoryStream(dir)) {
            for (Path p : ls) Files.delete(p);
        }
        Files.delete(dir);
    }

    /** Opens 100 streams on one file, closed together. */
    static class Stream100 implements AutoCloseable {
        final List<FileInputStream> streams = new ArrayList<>();
        int count;

        Stream100(Path p) throws Exception {
            for (int i = 0; i < 100; i++) streams.add(new FileInputStream(p.toFile()));
            count = streams.size();
        }

        public void close() throws Exception {
            for (FileInputStream s : streams) s.close();
        }
    }

    /** Opens one of everything and closes nothing; then waits to be terminated or returns. */
    public static class Leaker {
        static final List<Object> kept = new ArrayList<>();

        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            Path data = dir.resolve("data.txt");
            kept.add(new FileInputStream(data.toFile()));
            kept.add(new FileOutputStream(dir.resolve("out-" + Thread.currentThread().getId() + "-" + System.nanoTime()).toFile()));
            kept.add(new RandomAccessFile(data.toFile(), "r"));
            kept.add(FileChannel.open(data, StandardOpenOption.READ));
            try (FileChannel fc = FileChannel.open(data, StandardOpenOption.READ)) {
                kept.add(fc.map(FileChannel.MapMode.READ_ONLY, 0, fc.size()));
            }
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            kept.add(server);
            Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            kept.add(client);
            kept.add(server.accept());
            ServerSocketChannel ssc = ServerSocketChannel.open();
            ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            kept.add(ssc);
            kept.add(SocketChannel.open(ssc.getLocalAddress()));
            kept.add(Selector.open());
            kept.add(Pipe.open());
            kept.add(Files.newDirectoryStream(dir));
            WatchService ws = FileSystems.getDefault().newWatchService();
            dir.register(ws, java.nio.file.StandardWatchEventKinds.ENTRY_CREATE);
            kept.add(ws);
            kept.add(Files.newBufferedReader(data));
            Process p = new ProcessBuilder("true").start();
            p.waitFor();
            kept.add(p);
            if (Boolean.parseBoolean(args[1])) {
                String name = Domain.current().name();
                Files.createFile(dir.resolve(name + ".ready"));
                Thread.sleep(600_000);
            }
        }
    }

    /** Opens files until refused; writes how many, the refusal's message, whether a close made room, and what a child with a higher limit got. */
    public static class Limited {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            List<FileInputStream> open = new ArrayList<>();
            String refusal = "none";
            try {
                for (int i = 0; i < 10_000; i++) open.add(new FileInputStream(dir.resolve("data.txt").toFile()));
            } catch (java.io.IOException e) {
                refusal = e.getMessage().replaceAll(".*\\(", "").replace(")", "");
            }
            open.remove(0).close();
            open.add(new FileInputStream(dir.resolve("data.txt").toFile()));
            String child;
            try {
                Domain.create(DomainSpec.named("greedy").classPath(System.getProperty("java.class.path")).descriptorLimit(41));
                child = "created";
            } catch (jx.domain.DomainException e) {
                child = e.getMessage();
            }
            int held = open.size();
            open.remove(0).close();
            Files.writeString(dir.resolve("limited.result"), held + " " + refusal + "; again after a close; child: " + child);
        }
    }

    /** Closes System.in, System.out and System.err (and the descriptors behind them). */
    public static class StdCloser {
        public static void main(String[] args) throws Exception {
            System.in.close();
            new FileOutputStream(FileDescriptor.out).getChannel().close();
            new FileOutputStream(FileDescriptor.err).close();
            System.out.close();
            System.err.close();
        }
    }
}
