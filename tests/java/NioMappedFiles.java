import java.io.*;
import java.lang.ref.WeakReference;
import java.nio.*;
import java.nio.channels.*;
import java.nio.file.*;
import java.util.Comparator;
import java.util.stream.Stream;

// FileChannel.map: READ_ONLY, READ_WRITE and PRIVATE mappings (reads, writes seen through the
// file after force and close, views, slices, unaligned positions), load/isLoaded/force, mapping
// past the end of the file, argument and mode errors, and unmapping by the Cleaner once the
// buffer is collected (counted in /proc/self/maps).
public class NioMappedFiles {
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

    static String hex(ByteBuffer b, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) sb.append(String.format("%02x", b.get(i)));
        return sb.toString();
    }

    static String fileHex(Path p, int from, int to) throws IOException {
        byte[] all = Files.readAllBytes(p);
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to && i < all.length; i++) sb.append(String.format("%02x", all[i]));
        return sb.toString();
    }

    /** Number of lines of /proc/self/maps naming `p` (the live mappings of that file). */
    static int mappingsOf(Path p) throws IOException {
        String name = p.toString();
        int n = 0;
        for (String line : Files.readAllLines(Paths.get("/proc/self/maps"))) {
            if (line.endsWith(name)) n++;
        }
        return n;
    }

    public static void main(String[] args) throws Exception {
        root = Files.createTempDirectory("jxvm-mapped").toRealPath();
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
        Path f = root.resolve("data.bin");
        byte[] init = new byte[10_000];
        for (int i = 0; i < init.length; i++) init[i] = (byte) (i * 7 + 3);
        Files.write(f, init);

        // --- READ_ONLY ---
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            MappedByteBuffer ro = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            System.out.println("ro capacity=" + ro.capacity() + " limit=" + ro.limit() + " position=" + ro.position() + " direct=" + ro.isDirect()
                    + " readOnly=" + ro.isReadOnly() + " order=" + ro.order());
            System.out.println("ro bytes 0..8 " + hex(ro, 0, 8) + " last " + hex(ro, 9996, 10_000));
            System.out.println("ro getInt(0)=" + Integer.toHexString(ro.getInt(0)) + " getLong(4093)=" + Long.toHexString(ro.getLong(4093))
                    + " little getShort(9998)=" + ro.duplicate().order(ByteOrder.LITTLE_ENDIAN).getShort(9998));
            long sum = 0;
            while (ro.hasRemaining()) sum += ro.get() & 0xff;
            System.out.println("ro sum " + sum + " matches " + (sum == sumOf(init, 0, init.length)));
            attempt("ro put", () -> ro.put(0, (byte) 1));
            attempt("ro get past limit", () -> ro.get(10_000));
            MappedByteBuffer mid = ch.map(FileChannel.MapMode.READ_ONLY, 5000, 100);
            System.out.println("ro unaligned position 5000: " + hex(mid, 0, 6) + " expected " + hex(ByteBuffer.wrap(init), 5000, 5006)
                    + " capacity=" + mid.capacity());
            MappedByteBuffer tail = ch.map(FileChannel.MapMode.READ_ONLY, 9990, 10);
            System.out.println("ro tail " + hex(tail, 0, 10));
            ByteBuffer slice = ro.slice(4096, 16);
            System.out.println("slice direct=" + slice.isDirect() + " readOnly=" + slice.isReadOnly() + " " + hex(slice, 0, 4)
                    + " is mapped " + (slice instanceof MappedByteBuffer));
            IntBuffer ints = ro.position(0).asIntBuffer();
            System.out.println("asIntBuffer remaining=" + ints.remaining() + " get(100)=" + Integer.toHexString(ints.get(100)));
            MappedByteBuffer empty = ch.map(FileChannel.MapMode.READ_ONLY, 0, 0);
            System.out.println("empty mapping capacity=" + empty.capacity() + " loaded=" + empty.isLoaded());
            empty.load();
            empty.force();
            ro.load();
            System.out.println("ro loaded after load() " + ro.isLoaded());
            attempt("map READ_WRITE on read-only channel", () -> ch.map(FileChannel.MapMode.READ_WRITE, 0, 10));
            attempt("map PRIVATE on read-only channel", () -> ch.map(FileChannel.MapMode.PRIVATE, 0, 10));
            attempt("map READ_ONLY beyond end on read-only channel", () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 20_000));
            attempt("map negative position", () -> ch.map(FileChannel.MapMode.READ_ONLY, -1, 10));
            attempt("map negative size", () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, -10));
            attempt("map larger than Integer.MAX_VALUE", () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, Integer.MAX_VALUE + 1L));
            attempt("map null mode", () -> ch.map(null, 0, 10));
            // The mapping outlives the channel.
            ch.close();
            System.out.println("after channel close ro byte 1 = " + ro.get(1) + " tail byte 9 = " + tail.get(9));
            attempt("map on closed channel", () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 10));
        }
        try (FileChannel wo = FileChannel.open(f, StandardOpenOption.WRITE)) {
            attempt("map READ_ONLY on write-only channel", () -> wo.map(FileChannel.MapMode.READ_ONLY, 0, 10));
        }

        // --- READ_WRITE ---
        Path g = root.resolve("rw.bin");
        try (FileChannel ch = FileChannel.open(g, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            System.out.println("rw new file size " + ch.size());
            MappedByteBuffer rw = ch.map(FileChannel.MapMode.READ_WRITE, 0, 3 * 4096 + 100);
            System.out.println("mapping past the end grew the file to " + ch.size() + " readOnly=" + rw.isReadOnly());
            rw.put(0, (byte) 0x11).putInt(1, 0x22334455).putLong(4090, 0x0102030405060708L);
            rw.position(12_000);
            rw.put("hello mapped world".getBytes("US-ASCII"));
            System.out.println("rw position " + rw.position() + " remaining " + rw.remaining());
            rw.duplicate().position(0).asLongBuffer().put(600, -2L);
            rw.force();
            System.out.println("after force: file " + fileHex(g, 0, 5) + " " + fileHex(g, 4090, 4098) + " " + fileHex(g, 4800, 4808)
                    + " text " + new String(Files.readAllBytes(g), 12_000, 18, "US-ASCII"));
            ByteBuffer viaChannel = ByteBuffer.allocate(8);
            ch.read(viaChannel, 4090);
            System.out.println("channel read sees " + hex(viaChannel, 0, 8));
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0xEE, (byte) 0xDD}), 2);
            System.out.println("channel write seen through mapping " + hex(rw, 0, 5));
            rw.force(4090, 8);
            rw.force(0, 0);
            attempt("force out of range", () -> rw.force(12_000, 1000));
            rw.load();
            System.out.println("rw loaded " + rw.isLoaded());
            MappedByteBuffer second = ch.map(FileChannel.MapMode.READ_WRITE, 4096, 4096);
            second.put(0, (byte) 0x5A);
            System.out.println("two shared mappings agree: " + rw.get(4096) + " " + second.get(0));
            MappedByteBuffer pv = ch.map(FileChannel.MapMode.PRIVATE, 0, 16);
            System.out.println("private sees " + hex(pv, 0, 5) + " readOnly=" + pv.isReadOnly());
            pv.put(0, (byte) 0x77).put(15, (byte) 0x66);
            pv.force();
            System.out.println("private write: private " + hex(pv, 0, 1) + " shared " + hex(rw, 0, 1) + " file " + fileHex(g, 0, 1));
            rw.put(8, (byte) 0x42);
            System.out.println("shared write after private copy of page: private " + hex(pv, 8, 9) + " shared " + hex(rw, 8, 9));
            MappedByteBuffer grow = ch.map(FileChannel.MapMode.READ_WRITE, 20_000, 10);
            System.out.println("map at 20000 grew to " + ch.size() + " zero filled " + hex(grow, 0, 4));
            grow.put(9, (byte) 9);
            ch.truncate(20_010);
        }
        System.out.println("after close size " + Files.size(g) + " last " + fileHex(g, 20_009, 20_010) + " head " + fileHex(g, 0, 9));

        // --- RandomAccessFile and big mappings ---
        Path big = root.resolve("big.bin");
        try (RandomAccessFile raf = new RandomAccessFile(big.toFile(), "rw")) {
            raf.setLength(4 << 20);
            MappedByteBuffer m = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, raf.length());
            for (int i = 0; i < m.capacity(); i += 4096) m.putInt(i, i / 4096);
            long s = 0;
            for (int i = 0; i < m.capacity(); i += 4096) s += m.getInt(i);
            System.out.println("big mapping pages " + m.capacity() / 4096 + " sum " + s);
            m.force();
            raf.seek(4096 * 1000);
            System.out.println("raf reads page 1000 marker " + raf.readInt());
        }

        // --- unmapping by the Cleaner ---
        Path u = root.resolve("unmap.bin");
        Files.write(u, new byte[8192]);
        WeakReference<MappedByteBuffer> ref;
        try (FileChannel ch = FileChannel.open(u, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer b1 = ch.map(FileChannel.MapMode.READ_ONLY, 0, 8192);
            MappedByteBuffer b2 = ch.map(FileChannel.MapMode.READ_WRITE, 4096, 100);
            b2.put(0, (byte) 1);
            System.out.println("mapped twice, mappings in /proc/self/maps: " + (mappingsOf(u) >= 2) + " b1 byte " + b1.get(4096));
            ref = new WeakReference<>(b1);
            b1 = null;
            b2 = null;
        }
        boolean gone = false;
        for (int i = 0; i < 200 && !gone; i++) {
            System.gc();
            Thread.sleep(20);
            gone = ref.get() == null && mappingsOf(u) == 0;
        }
        System.out.println("unmapped after collection: " + gone);

        // Many short-lived mappings: each is unmapped exactly once when collected.
        Path many = root.resolve("many.bin");
        Files.write(many, new byte[65536]);
        long total = 0;
        try (FileChannel ch = FileChannel.open(many, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 3000; i++) {
                MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, (i % 16) * 4096, 4096);
                m.put(i % 4096, (byte) 1);
                total += m.get(i % 4096);
                if (i % 500 == 0) System.gc();
            }
        }
        gone = false;
        for (int i = 0; i < 200 && !gone; i++) {
            System.gc();
            Thread.sleep(20);
            gone = mappingsOf(many) == 0;
        }
        System.out.println("3000 mappings total " + total + ", all unmapped: " + gone);
    }

    static long sumOf(byte[] b, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) s += b[i] & 0xff;
        return s;
    }
}
