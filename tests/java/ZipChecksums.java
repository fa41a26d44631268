import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

// CRC32, Adler32 (natives) and CRC32C (pure Java) over arrays, slices, single bytes and
// heap, direct, read-only and sliced ByteBuffers.
public class ZipChecksums {
    static byte[] data(int n, int seed) {
        byte[] b = new byte[n];
        int x = seed;
        for (int i = 0; i < n; i++) {
            x = x * 1103515245 + 12345;
            b[i] = (byte) (x >>> 16);
        }
        return b;
    }

    static String run(Checksum c, byte[] b) {
        c.reset();
        c.update(b, 0, b.length);
        long whole = c.getValue();
        c.reset();
        for (int i = 0; i < b.length; ) {
            int n = Math.min(b.length - i, 1 + (i % 37));
            c.update(b, i, n);
            i += n;
        }
        long chunked = c.getValue();
        c.reset();
        for (byte x : b) c.update(x);
        long bytewise = c.getValue();
        return Long.toHexString(whole) + (whole == chunked && whole == bytewise ? " same" : " DIFF " + chunked + " " + bytewise);
    }

    static long buf(Checksum c, ByteBuffer bb) {
        c.reset();
        int pos = bb.position(), lim = bb.limit();
        c.update(bb);
        if (bb.position() != lim) System.out.println("  position not at limit: " + bb.position());
        bb.position(pos);
        return c.getValue();
    }

    public static void main(String[] args) {
        String[] names = {"CRC32", "Adler32", "CRC32C"};
        int[] sizes = {0, 1, 2, 15, 16, 100, 5552, 5553, 65536, 300_000};
        for (int size : sizes) {
            byte[] b = data(size, size + 7);
            Checksum[] cs = {new CRC32(), new Adler32(), new CRC32C()};
            StringBuilder sb = new StringBuilder("size " + size + ":");
            for (int k = 0; k < cs.length; k++) sb.append(' ').append(names[k]).append('=').append(run(cs[k], b));
            System.out.println(sb);
        }

        byte[] text = "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.US_ASCII);
        for (int k = 0; k < 3; k++) {
            Checksum c = k == 0 ? new CRC32() : k == 1 ? new Adler32() : new CRC32C();
            c.update(text);
            System.out.println(names[k] + " fox=" + Long.toHexString(c.getValue()));
            c.update(text, 4, 5);
            System.out.println(names[k] + " fox+quick=" + Long.toHexString(c.getValue()));
        }

        byte[] big = data(70_000, 42);
        for (int k = 0; k < 3; k++) {
            Checksum c = k == 0 ? new CRC32() : k == 1 ? new Adler32() : new CRC32C();
            ByteBuffer heap = ByteBuffer.wrap(big);
            ByteBuffer direct = ByteBuffer.allocateDirect(big.length);
            direct.put(big).flip();
            long h = buf(c, heap), d = buf(c, direct), ro = buf(c, heap.asReadOnlyBuffer()), rod = buf(c, direct.asReadOnlyBuffer());
            heap.position(1000).limit(60_000);
            direct.position(1000).limit(60_000);
            long hs = buf(c, heap), ds = buf(c, direct), sl = buf(c, heap.slice()), dsl = buf(c, direct.slice());
            c.reset();
            c.update(big, 1000, 59_000);
            long arr = c.getValue();
            System.out.println(names[k] + " buffers: " + Long.toHexString(h) + " " + (h == d && h == ro && h == rod)
                    + " sub " + Long.toHexString(hs) + " " + (hs == ds && hs == sl && hs == dsl && hs == arr));
            ByteBuffer empty = ByteBuffer.allocateDirect(0);
            System.out.println(names[k] + " empty=" + Long.toHexString(buf(c, empty)));
        }

        CRC32 crc = new CRC32();
        for (int i = 0; i < 1000; i++) crc.update(i);
        System.out.println("CRC32 ints=" + crc.getValue());
        Adler32 ad = new Adler32();
        for (int i = 0; i < 100_000; i++) ad.update(0xff);
        System.out.println("Adler32 0xff*100000=" + ad.getValue());
        try {
            crc.update(text, 40, 10);
        } catch (ArrayIndexOutOfBoundsException e) {
            System.out.println("AIOOBE " + e.getMessage());
        }
        try {
            ad.update((byte[]) null, 0, 1);
        } catch (NullPointerException e) {
            System.out.println("NPE");
        }
    }
}
