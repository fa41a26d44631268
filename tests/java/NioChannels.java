import java.io.*;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.*;
import java.nio.file.*;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

// FileChannel over the NIO dispatcher: heap and direct buffers, positional and scatter/gather
// I/O, size/truncate/force, locks, transfers, and channels obtained from java.io streams.
public class NioChannels {
    static Path root;

    interface Action {
        Object run() throws Exception;
    }

    static void attempt(String label, Action a) {
        try {
            System.out.println(label + " -> " + a.run());
        } catch (Exception e) {
            String m = e.getMessage();
            System.out.println(label + " !! " + e.getClass().getName() + (m == null ? "" : ": " + m.replace(root.toString(), "$TMP")));
        }
    }

    static String hex(ByteBuffer b) {
        StringBuilder sb = new StringBuilder();
        for (int i = b.position(); i < b.limit(); i++) sb.append(String.format("%02x", b.get(i)));
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        root = Files.createTempDirectory("jxvm-niochannels").toRealPath();
        try {
            run();
        } finally {
            try (Stream<Path> s = Files.walk(root)) {
                s.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
        System.out.println("cleaned up: " + Files.notExists(root));
    }

    static void run() throws Exception {
        Path f = root.resolve("channel.bin");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            System.out.println("new channel open=" + ch.isOpen() + " size=" + ch.size() + " pos=" + ch.position());
            ByteBuffer heap = ByteBuffer.allocate(32);
            for (int i = 0; i < 32; i++) heap.put((byte) (i + 1));
            heap.flip();
            System.out.println("write heap " + ch.write(heap) + " remaining " + heap.remaining() + " pos " + ch.position());
            ByteBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.LITTLE_ENDIAN);
            direct.putLong(0x0102030405060708L).putLong(-1L).flip();
            System.out.println("write direct " + ch.write(direct) + " size " + ch.size());
            System.out.println("pwrite " + ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xAA, (byte) 0xBB}), 100) + " size " + ch.size()
                    + " pos unchanged " + ch.position());

            ch.position(0);
            ByteBuffer rd = ByteBuffer.allocate(8);
            System.out.println("read heap " + ch.read(rd) + " " + hex(rd.flip()) + " pos " + ch.position());
            ByteBuffer rdd = ByteBuffer.allocateDirect(8);
            System.out.println("pread direct " + ch.read(rdd, 32) + " " + hex(rdd.flip()) + " pos " + ch.position());
            ByteBuffer hole = ByteBuffer.allocate(4);
            System.out.println("read hole " + ch.read(hole, 60) + " " + hex(hole.flip()));
            System.out.println("read at eof " + ch.read(ByteBuffer.allocate(4), 102) + " beyond " + ch.read(ByteBuffer.allocate(4), 5000));

            ch.position(4);
            ByteBuffer[] scatter = {ByteBuffer.allocate(3), ByteBuffer.allocateDirect(5), ByteBuffer.allocate(2)};
            System.out.println("scatter read " + ch.read(scatter) + " pos " + ch.position());
            for (ByteBuffer b : scatter) System.out.println("  part " + hex(b.flip()));
            ch.position(0);
            ByteBuffer[] gather = {ByteBuffer.wrap("AB".getBytes()), ByteBuffer.allocateDirect(3).put("CDE".getBytes()).flip(),
                    ByteBuffer.wrap("FGHI".getBytes(), 1, 2)};
            System.out.println("gather write " + ch.write(gather) + " pos " + ch.position());
            ByteBuffer head = ByteBuffer.allocate(8);
            ch.read(head, 0);
            System.out.println("head now " + new String(head.array(), 0, 8, "ISO-8859-1").replace('\0', '.'));

            System.out.println("truncate to 40 -> size " + ch.truncate(40).size() + " pos " + ch.position());
            ch.position(80);
            System.out.println("truncate below position -> pos " + ch.truncate(20).position() + " size " + ch.size());
            System.out.println("truncate larger is no-op -> size " + ch.truncate(1000).size());
            ch.force(true);
            ch.force(false);
            System.out.println("forced");

            try (FileLock lock = ch.lock()) {
                System.out.println("lock valid=" + lock.isValid() + " shared=" + lock.isShared() + " range " + lock.position() + "+" + lock.size());
                attempt("overlapping lock in same JVM", () -> ch.tryLock());
            }
            try (FileLock a = ch.tryLock(0, 10, false); FileLock b = ch.tryLock(10, 10, true)) {
                System.out.println("two region locks " + (a != null) + " " + (b != null) + " b.shared=" + b.isShared() + " overlaps(5,10)="
                        + a.overlaps(5, 10));
            }
            System.out.println("lock after release " + (ch.tryLock() != null));
        }
        byte[] all = Files.readAllBytes(f);
        System.out.println("file after close " + all.length + " bytes: " + hex(ByteBuffer.wrap(all)));

        // --- errors on channels ---
        FileChannel closed = FileChannel.open(f);
        closed.close();
        attempt("size on closed", closed::size);
        attempt("read on closed", () -> closed.read(ByteBuffer.allocate(1)));
        try (FileChannel ro = FileChannel.open(f, StandardOpenOption.READ)) {
            attempt("write on read-only", () -> ro.write(ByteBuffer.allocate(1)));
            attempt("negative position", () -> ro.position(-1));
            attempt("exclusive lock on read-only", () -> ro.lock());
        }
        try (FileChannel wo = FileChannel.open(f, StandardOpenOption.WRITE)) {
            attempt("read on write-only", () -> wo.read(ByteBuffer.allocate(1)));
        }
        attempt("open missing", () -> FileChannel.open(root.resolve("missing")));
        attempt("create_new existing", () -> FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
        attempt("open directory for write", () -> FileChannel.open(root, StandardOpenOption.WRITE));
        attempt("read a directory", () -> {
            try (FileChannel d = FileChannel.open(root)) {
                return d.read(ByteBuffer.allocate(4));
            }
        });

        // --- open options ---
        Path g = root.resolve("options.txt");
        Files.writeString(g, "12345");
        try (FileChannel ap = FileChannel.open(g, StandardOpenOption.APPEND)) {
            ap.write(ByteBuffer.wrap("678".getBytes()));
            System.out.println("append pos " + ap.position() + " size " + ap.size());
        }
        try (FileChannel tr = FileChannel.open(g, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            System.out.println("truncate_existing size " + tr.size());
            tr.write(ByteBuffer.wrap("xyz".getBytes()));
        }
        System.out.println("content " + Files.readString(g));
        Path tmp = root.resolve("delete-on-close");
        try (FileChannel dc = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE)) {
            dc.write(ByteBuffer.wrap("gone soon".getBytes()));
        }
        System.out.println("delete_on_close exists " + Files.exists(tmp));
        try (SeekableByteChannel sbc = Files.newByteChannel(g, StandardOpenOption.READ)) {
            sbc.position(1);
            ByteBuffer b = ByteBuffer.allocate(10);
            System.out.println("byte channel read " + sbc.read(b) + " then " + sbc.read(b) + " size " + sbc.size());
        }

        // --- transfers ---
        byte[] big = new byte[100_000];
        for (int i = 0; i < big.length; i++) big[i] = (byte) (i % 251);
        Path src = Files.write(root.resolve("src.bin"), big);
        try (FileChannel in = FileChannel.open(src); FileChannel out = FileChannel.open(root.resolve("dst.bin"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            System.out.println("transferTo " + in.transferTo(0, in.size(), out) + " in.pos " + in.position() + " out.pos " + out.position());
            System.out.println("transferTo past end " + in.transferTo(200_000, 10, out));
            System.out.println("partial transferTo " + in.transferTo(99_990, 100, out));
        }
        System.out.println("dst matches " + (Files.mismatch(src, root.resolve("dst.bin")) == 100_000) + " size " + Files.size(root.resolve("dst.bin")));
        try (FileChannel out = FileChannel.open(root.resolve("from-stream.bin"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                ReadableByteChannel rbc = Channels.newChannel(new ByteArrayInputStream(big))) {
            System.out.println("transferFrom stream " + out.transferFrom(rbc, 0, 1_000_000));
        }
        System.out.println("from-stream mismatch " + Files.mismatch(src, root.resolve("from-stream.bin")));
        try (FileChannel in = FileChannel.open(src); WritableByteChannel sink = Channels.newChannel(new ByteArrayOutputStream())) {
            System.out.println("transferTo stream " + in.transferTo(10, 50_000, sink));
        }

        // --- channels of java.io streams ---
        try (RandomAccessFile raf = new RandomAccessFile(src.toFile(), "rw")) {
            FileChannel c = raf.getChannel();
            System.out.println("raf channel same " + (c == raf.getChannel()) + " size " + c.size());
            raf.seek(1000);
            System.out.println("raf seek -> channel pos " + c.position());
            c.position(2000);
            System.out.println("channel pos -> raf pointer " + raf.getFilePointer() + " read " + raf.read());
            c.write(ByteBuffer.wrap(new byte[] {42}), 0);
            raf.seek(0);
            System.out.println("positional write seen by raf " + raf.read());
            raf.setLength(500);
            System.out.println("setLength -> channel size " + c.size());
        }
        try (FileInputStream fis = new FileInputStream(src.toFile())) {
            FileChannel c = fis.getChannel();
            fis.skip(10);
            ByteBuffer b = ByteBuffer.allocate(4);
            c.read(b);
            System.out.println("fis channel pos " + c.position() + " data " + hex(b.flip()) + " available " + fis.available());
            attempt("write via fis channel", () -> c.write(ByteBuffer.allocate(1)));
        }
        try (FileOutputStream fos = new FileOutputStream(root.resolve("fos.bin").toFile())) {
            fos.write(new byte[] {1, 2, 3});
            FileChannel c = fos.getChannel();
            System.out.println("fos channel pos " + c.position() + " size " + c.size());
            c.write(ByteBuffer.wrap(new byte[] {4, 5}));
            fos.write(6);
        }
        System.out.println("fos content " + Arrays.toString(Files.readAllBytes(root.resolve("fos.bin"))));
        try (InputStream in = Channels.newInputStream(FileChannel.open(root.resolve("fos.bin")));
                OutputStream out = Channels.newOutputStream(FileChannel.open(root.resolve("copy.bin"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE))) {
            System.out.println("stream copy " + in.transferTo(out));
        }
        System.out.println("copy content " + Arrays.toString(Files.readAllBytes(root.resolve("copy.bin"))));
    }
}
