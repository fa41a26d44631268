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
 * was. A domain that closes its standard streams does not close the process's. Descriptors
 * and running child processes count against a domain's descriptor limit and its creators';
 * its children are killed when it ends, and it cannot signal processes it did not start.
 * Prints "ok ..." lines, or throws.
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

        // A child's descriptors count against its creator's limit too.
        Domain nest = Domain.create(spec("nest").descriptorLimit(40).mainClass("HostResources$NestParent", d));
        check(nest.awaitTermination(120_000), "a domain whose child holds descriptors runs");
        String nested = Files.readString(dir.resolve("nest.result"));
        check(nested.equals("child 30; creator 10 Too many open files; after the child ended 40"),
                "a child's 30 descriptors leave its creator 10 of their 40, all 40 once it ended (" + nested + ")");

        // Child processes count as descriptors, are killed when their domain ends, and a
        // domain cannot signal a process it did not start.
        Process foreign = new ProcessBuilder("sleep", "600").start();
        Domain spawner = Domain.create(spec("spawner").descriptorLimit(10)
                .mainClass("HostResources$Spawner", d, Long.toString(foreign.pid())));
        Path ready = dir.resolve("spawner.result");
        for (int i = 0; i < 2000 && !Files.exists(ready); i++) Thread.sleep(10);
        String[] spawned = Files.readString(ready).split(" ");
        check(spawned[0].equals("10") && String.join(" ", spawned).contains("Too many open files"),
                "a domain limited to 10 descriptors starts 10 child processes, then gets \"Too many open files\" (" + String.join(" ", spawned) + ")");
        check(spawned[spawned.length - 2].equals("true"), "it kills a child of its own");
        check(spawned[spawned.length - 1].equals("false") && foreign.isAlive(), "it cannot kill a process it did not start");
        List<ProcessHandle> children = new ArrayList<>();
        for (String pid : spawned[1].split(",")) children.add(ProcessHandle.of(Long.parseLong(pid)).orElseThrow());
        check(children.stream().allMatch(ProcessHandle::isAlive), "its children run while it does");
        spawner.terminate();
        check(spawner.awaitTermination(60_000), "it is terminated");
        boolean gone = false;
        for (int i = 0; i < 200 && !gone; i++) {
            gone = children.stream().noneMatch(ProcessHandle::isAlive);
            if (!gone) Thread.sleep(25);
        }
        check(gone, "and its child processes are killed");
        foreign.destroyForcibly().waitFor();

        try (DirectoryStream<Path> ls = Files.newDirectoryStream(dir)) {
            for (Path p : ls) Files.delete(p);
        }
        Files.delete(dir);
    }

    static DomainSpec spec(String name) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path"));
    }

    /** Opens files until refused (at most `max`); how many, and the refusal's reason. */
    static String openUntilRefused(Path file, List<FileInputStream> open, int max) {
        try {
            while (open.size() < max) open.add(new FileInputStream(file.toFile()));
            return Integer.toString(open.size());
        } catch (java.io.IOException e) {
            return open.size() + " " + e.getMessage().replaceAll(".*\\(", "").replace(")", "");
        }
    }

    /** Its child holds 30 descriptors; it opens what is left of their shared limit, then all of it once the child ended. */
    public static class NestParent {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            Domain child = Domain.create(spec("nest-child").mainClass("HostResources$NestChild", args[0]));
            Path ready = dir.resolve("nest-child.ready");
            while (!Files.exists(ready)) Thread.sleep(5);
            String theirs = Files.readString(ready);
            List<FileInputStream> open = new ArrayList<>();
            String mine = openUntilRefused(dir.resolve("data.txt"), open, 10_000);
            child.terminate();
            child.awaitTermination(60_000);
            for (FileInputStream s : open) s.close();
            open.clear();
            String after = openUntilRefused(dir.resolve("data.txt"), open, 10_000);
            for (FileInputStream s : open) s.close();
            Files.writeString(dir.resolve("nest.result"), "child " + theirs + "; creator " + mine + "; after the child ended " + after.split(" ")[0]);
        }
    }

    public static class NestChild {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            List<FileInputStream> open = new ArrayList<>();
            String n = openUntilRefused(dir.resolve("data.txt"), open, 30);
            Files.writeString(dir.resolve("nest-child.tmp"), n);
            Files.move(dir.resolve("nest-child.tmp"), dir.resolve("nest-child.ready"));
            Thread.sleep(600_000);
        }
    }

    /** Starts `sleep` processes until refused, tries to kill the process args[1], writes what happened, waits to be terminated. */
    public static class Spawner {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            List<Process> started = new ArrayList<>();
            String refusal = "none";
            try {
                for (int i = 0; i < 100; i++) {
                    started.add(new ProcessBuilder("sleep", "600").redirectInput(ProcessBuilder.Redirect.INHERIT)
                            .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT).start());
                }
            } catch (java.io.IOException e) {
                refusal = e.getMessage();
            }
            // Its own child it may kill (which makes room to write the result).
            Process first = started.remove(0);
            boolean own = first.destroyForcibly().waitFor() != 0 && !first.isAlive();
            List<String> pids = new ArrayList<>();
            for (Process p : started) pids.add(Long.toString(p.pid()));
            boolean killed = ProcessHandle.of(Long.parseLong(args[1])).map(ProcessHandle::destroyForcibly).orElse(true);
            Files.writeString(dir.resolve("spawner.tmp"), (pids.size() + 1) + " " + String.join(",", pids) + " " + refusal + " " + own + " " + killed);
            Files.move(dir.resolve("spawner.tmp"), dir.resolve("spawner.result"));
            Thread.sleep(600_000);
        }
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
