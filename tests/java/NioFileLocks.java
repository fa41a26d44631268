import java.io.*;
import java.nio.ByteBuffer;
import java.nio.channels.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;

// FileChannel locks (fcntl record locks): exclusive and shared, whole-file and ranges, tryLock,
// release and invalidation on close, OverlappingFileLockException within the VM (same channel,
// another channel of the same file, another thread), mode checks, locks of RandomAccessFile and
// stream channels. Then a child VM (this program run by the same VM binary) holds locks: tryLock
// returns null for what it holds, a blocking lock() waits for its release, and a thread blocked
// in lock() wakes with AsynchronousCloseException when the channel is closed and with
// ClosedByInterruptException when interrupted.
public class NioFileLocks {
    static Path root;

    interface Action {
        Object run() throws Exception;
    }

    static void attempt(String label, Action a) {
        try {
            System.out.println(label + " -> " + a.run());
        } catch (Throwable e) {
            String m = e.getMessage();
            System.out.println(label + " !! " + e.getClass().getName() + (m == null ? "" : ": " + m.replace(root.toString(), "$TMP")));
        }
    }

    static String desc(FileLock l) {
        if (l == null) return "null";
        return "[" + l.position() + "+" + (l.size() == Long.MAX_VALUE ? "MAX" : l.size()) + (l.isShared() ? " shared" : " exclusive")
                + (l.isValid() ? " valid" : " invalid") + "]";
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child")) {
            child(Paths.get(args[1]));
            return;
        }
        root = Files.createTempDirectory("jxvm-locks").toRealPath();
        try {
            run();
            withChild();
        } finally {
            try (java.util.stream.Stream<Path> s = Files.walk(root)) {
                s.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
        System.out.println("cleaned up: " + Files.notExists(root));
    }

    static void run() throws Exception {
        Path f = root.resolve("locked.bin");
        Files.write(f, new byte[1000]);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock all = ch.lock();
            System.out.println("lock() " + desc(all) + " channel same " + (all.channel() == ch) + " acquiredBy same " + (all.acquiredBy() == ch)
                    + " toString " + all.toString().replace("sun.nio.ch.FileLockImpl", "FileLockImpl"));
            System.out.println("overlaps(0,1)=" + all.overlaps(0, 1) + " overlaps(5000,1)=" + all.overlaps(5000, 1)
                    + " overlaps(-5,3)=" + all.overlaps(-5, 3));
            attempt("lock again on same channel", () -> ch.lock());
            attempt("tryLock range inside", () -> ch.tryLock(10, 10, true));
            try (FileChannel other = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                attempt("tryLock on another channel of the same file", () -> other.tryLock());
                attempt("lock range on another channel", () -> other.lock(500, 10, false));
            }
            ExecutorService ex = Executors.newSingleThreadExecutor();
            Future<String> fut = ex.submit(() -> {
                try {
                    return desc(ch.lock(0, 5, false));
                } catch (OverlappingFileLockException e) {
                    return "other thread: " + e.getClass().getName();
                }
            });
            System.out.println("lock from another thread -> " + fut.get(20, TimeUnit.SECONDS));
            ex.shutdown();
            all.release();
            System.out.println("after release " + desc(all));
            all.release();
            System.out.println("second release is a no-op");

            FileLock a = ch.lock(0, 100, false);
            FileLock b = ch.tryLock(100, 100, true);
            FileLock c = ch.tryLock(300, Long.MAX_VALUE - 300, true);
            System.out.println("ranges " + desc(a) + " " + desc(b) + " " + desc(c));
            attempt("overlap at 99", () -> ch.tryLock(99, 2, true));
            attempt("overlap at 199 (shared with shared)", () -> ch.tryLock(199, 5, true));
            attempt("gap 200..300", () -> desc(ch.tryLock(200, 100, false)));
            attempt("tail overlap", () -> ch.lock(1_000_000, 1, false));
            b.close();
            attempt("relock released range", () -> desc(ch.tryLock(150, 10, false)));
            attempt("negative position", () -> ch.lock(-1, 10, false));
            attempt("negative size", () -> ch.tryLock(0, -1, false));
            attempt("position+size overflows", () -> ch.tryLock(Long.MAX_VALUE, 10, false));
            FileLock zero = ch.tryLock(160, 0, false);
            System.out.println("zero-size lock " + desc(zero));
            // Closing the channel invalidates what is left.
            ch.close();
            System.out.println("after close " + desc(a) + " " + desc(c) + " " + desc(zero));
            attempt("release after close", () -> {
                a.release();
                return "released";
            });
            attempt("lock on closed channel", () -> ch.lock());
            attempt("tryLock on closed channel", () -> ch.tryLock());
        }

        try (FileChannel ro = FileChannel.open(f, StandardOpenOption.READ)) {
            attempt("exclusive lock on read-only", () -> ro.lock());
            attempt("shared lock on read-only", () -> desc(ro.lock(0, Long.MAX_VALUE, true)));
        }
        try (FileChannel wo = FileChannel.open(f, StandardOpenOption.WRITE)) {
            attempt("shared lock on write-only", () -> wo.tryLock(0, 10, true));
            attempt("exclusive lock on write-only", () -> desc(wo.tryLock(0, 10, false)));
        }
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw"); FileLock l = raf.getChannel().lock(10, 20, false)) {
            System.out.println("raf lock " + desc(l));
            try (FileInputStream in = new FileInputStream(f.toFile())) {
                attempt("fis channel overlapping shared lock", () -> in.getChannel().lock(0, 15, true));
                attempt("fis channel shared lock elsewhere", () -> desc(in.getChannel().lock(40, 5, true)));
            }
        }
        try (FileOutputStream out = new FileOutputStream(root.resolve("out.bin").toFile())) {
            FileLock l = out.getChannel().tryLock();
            System.out.println("fos lock " + desc(l));
            out.write(42);
        }
        System.out.println("after stream close, lock file size " + Files.size(root.resolve("out.bin")));
    }

    // ---- a lock held by another process ----

    static void child(Path f) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock ex = ch.lock(0, 100, false);
            FileLock sh = ch.lock(200, 100, true);
            System.out.println("held");
            System.out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("release-exclusive")) ex.release();
                if (line.equals("quit")) break;
                System.out.println("ok " + line);
                System.out.flush();
            }
            sh.release();
        }
    }

    static String blockedLock(FileChannel ch, long pos, long size, boolean shared) {
        try {
            return "acquired " + desc(ch.lock(pos, size, shared));
        } catch (Exception e) {
            return e.getClass().getName() + " open=" + ch.isOpen() + " interrupted=" + Thread.currentThread().isInterrupted();
        }
    }

    static void withChild() throws Exception {
        Path f = root.resolve("shared.bin");
        Files.write(f, new byte[400]);
        String vm = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(vm, "-cp", System.getProperty("java.class.path"), "NioFileLocks", "child", f.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
        PrintWriter cmd = new PrintWriter(new OutputStreamWriter(p.getOutputStream()), true);
        System.out.println("child says " + out.readLine());

        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            System.out.println("tryLock on child's exclusive range " + desc(ch.tryLock(50, 10, true)));
            System.out.println("tryLock whole file " + desc(ch.tryLock()));
            FileLock free = ch.tryLock(100, 100, false);
            System.out.println("tryLock free range " + desc(free));
            free.release();
            FileLock sh = ch.tryLock(250, 10, true);
            System.out.println("shared on child's shared range " + desc(sh));
            sh.release();
            System.out.println("exclusive on child's shared range " + desc(ch.tryLock(250, 10, false)));

            // A thread blocked in lock() wakes when another thread closes the channel.
            FileChannel ch2 = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
            ExecutorService ex = Executors.newCachedThreadPool();
            Future<String> closed = ex.submit(() -> blockedLock(ch2, 0, 10, false));
            Thread.sleep(300);
            System.out.println("blocked lock still waiting: " + !closed.isDone());
            ch2.close();
            System.out.println("blocked lock, channel closed -> " + closed.get(20, TimeUnit.SECONDS));

            // ... and when it is interrupted.
            FileChannel ch3 = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
            BlockingQueue<Thread> who = new ArrayBlockingQueue<>(1);
            Future<String> interrupted = ex.submit(() -> {
                who.add(Thread.currentThread());
                return blockedLock(ch3, 0, 10, false);
            });
            Thread t = who.take();
            Thread.sleep(300);
            t.interrupt();
            System.out.println("blocked lock, interrupted -> " + interrupted.get(20, TimeUnit.SECONDS) + " ch3 open=" + ch3.isOpen());

            // ... and gets the lock once the child releases it.
            Future<String> waits = ex.submit(() -> blockedLock(ch, 0, 10, false));
            Thread.sleep(300);
            System.out.println("blocked lock waiting for the child: " + !waits.isDone());
            cmd.println("release-exclusive");
            System.out.println("child says " + out.readLine());
            System.out.println("after the child released -> " + waits.get(20, TimeUnit.SECONDS));
            ex.shutdown();
        }
        cmd.println("quit");
        System.out.println("child exit " + p.waitFor());
    }
}
