import java.io.File;
import java.io.FileInputStream;
import java.io.RandomAccessFile;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;

import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Terminating a domain stops its threads even while they are blocked in system calls: accept
 * on a server socket, a read from an NIO pipe, opening a FIFO no one writes, reading a FIFO
 * with no data, waiting for a child process. Prints one "ok ..." line per check; throws on a
 * failed one.
 */
public class BlockedIo {
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
    }
}
