import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Files;

import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;
import jx.portal.PortalException;

/**
 * Terminating a domain stops its threads even while they are blocked in system calls: accept
 * on a server socket, a read from an NIO pipe, opening a FIFO no one writes, reading a FIFO
 * with no data, waiting for a child process; and a portal call blocked in accept in the
 * terminated domain, after which the caller's own system calls still work. Prints one "ok ..."
 * line per check; throws on a failed one.
 */
public class BlockedIo {
    public interface Waiter extends Portal {
        void accept();
    }

    public static class Acceptor implements Waiter {
        public void accept() {
            try (ServerSocket s = new ServerSocket(0)) {
                s.accept();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static class WaiterServer {
        public static void main(String[] args) {
            Naming.register("waiter", new Acceptor());
        }
    }

    public static class Blocker {
        public static void main(String[] args) throws Exception {
            switch (args[0]) {
                case "accept" -> {
                    try (ServerSocket s = new ServerSocket(0)) {
                        s.accept();
                    }
                }
                case "pipe" -> Pipe.open().source().read(ByteBuffer.allocate(1));
                case "fifo-open" -> new FileInputStream(args[1]).read();
                case "fifo-read" -> {
                    try (RandomAccessFile f = new RandomAccessFile(args[1], "rw")) {
                        f.read();
                    }
                }
                case "process" -> new ProcessBuilder("sleep", "5").start().waitFor();
                default -> throw new IllegalArgumentException(args[0]);
            }
            System.out.println("FAILED " + args[0] + " returned");
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    public static void main(String[] args) throws Exception {
        String cp = System.getProperty("java.class.path");
        File fifo = File.createTempFile("jxvm-blocked", ".fifo");
        fifo.delete();
        check(new ProcessBuilder("mkfifo", fifo.getPath()).start().waitFor() == 0, "mkfifo");
        try {
            for (String kind : new String[] {"accept", "pipe", "fifo-open", "fifo-read", "process"}) {
                Domain d = Domain.create(DomainSpec.named(kind).classPath(cp).mainClass("BlockedIo$Blocker", kind, fifo.getPath()));
                Thread.sleep(300); // long enough to block
                check(d.isAlive(), kind + ": blocked");
                d.terminate();
                check(d.awaitTermination(10_000), kind + ": terminated while blocked in a system call");
            }
        } finally {
            fifo.delete();
        }

        Domain server = Domain.create(DomainSpec.named("waiter").classPath(cp).mainClass("BlockedIo$WaiterServer"));
        Waiter waiter = Naming.await("waiter", Waiter.class, 10_000);
        Thread killer = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
            }
            server.terminate();
        });
        killer.start();
        try {
            waiter.accept();
            check(false, "a portal call blocked in a system call of a terminated domain ends");
        } catch (PortalException e) {
            check(server.awaitTermination(10_000), "a portal call blocked in a system call of a terminated domain ends: " + e.getMessage());
        }
        File tmp = File.createTempFile("jxvm-blocked", ".txt");
        try {
            Files.write(tmp.toPath(), new byte[] {42});
            try (FileInputStream in = new FileInputStream(tmp)) {
                check(in.read() == 42, "the caller's own system calls still work");
            }
        } finally {
            tmp.delete();
        }
    }
}
