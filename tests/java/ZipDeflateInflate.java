import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

// Deflater/Inflater directly: levels, strategies, nowrap, dictionaries, flush modes, parameter
// changes mid-stream, small buffers, ByteBuffers, states and counters, corrupt input.
public class ZipDeflateInflate {
    static byte[] sample(int n) {
        StringBuilder sb = new StringBuilder();
        int x = 1;
        while (sb.length() < n) {
            x = x * 1103515245 + 12345;
            sb.append("word").append((x >>> 20) % 50).append(((x >>> 8) & 3) == 0 ? ".\n" : " ");
        }
        return sb.substring(0, n).getBytes(StandardCharsets.US_ASCII);
    }

    static String crc(byte[] b, int len) {
        CRC32 c = new CRC32();
        c.update(b, 0, len);
        return Long.toHexString(c.getValue());
    }

    /** Compresses with an output buffer of `chunk` bytes; returns the compressed bytes. */
    static byte[] deflate(Deflater d, byte[] in, int chunk) {
        d.setInput(in);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[chunk];
        while (!d.finished()) out.write(buf, 0, d.deflate(buf));
        return out.toByteArray();
    }

    static byte[] inflate(Inflater inf, byte[] in, int chunk, int expect) throws DataFormatException {
        inf.setInput(in);
        byte[] out = new byte[expect + 16];
        int pos = 0;
        while (!inf.finished()) {
            int n = inf.inflate(out, pos, Math.min(chunk, out.length - pos));
            if (n == 0 && (inf.needsInput() || inf.needsDictionary())) break;
            pos += n;
        }
        return Arrays.copyOf(out, pos);
    }

    static void roundTrip(String label, int level, int strategy, boolean nowrap, byte[] data, int chunk) throws Exception {
        Deflater d = new Deflater(level, nowrap);
        d.setStrategy(strategy);
        byte[] z = deflate(d, data, chunk);
        Inflater inf = new Inflater(nowrap);
        byte[] back = inflate(inf, z, chunk, data.length);
        System.out.println(label + " level=" + level + " strategy=" + strategy + " nowrap=" + nowrap + " chunk=" + chunk
                + ": " + data.length + " -> " + z.length + " crc=" + crc(z, z.length) + " read=" + d.getBytesRead()
                + " written=" + d.getBytesWritten() + " adler=" + Integer.toHexString(d.getAdler())
                + " | ok=" + Arrays.equals(back, data) + " in=" + inf.getBytesRead() + " out=" + inf.getTotalOut()
                + " rem=" + inf.getRemaining() + " adler=" + Integer.toHexString(inf.getAdler()));
        d.end();
        inf.end();
    }

    public static void main(String[] args) throws Exception {
        byte[] data = sample(40_000);
        for (int level : new int[] {-1, 0, 1, 5, 9})
            roundTrip("levels", level, Deflater.DEFAULT_STRATEGY, false, data, 4096);
        for (int strategy : new int[] {Deflater.FILTERED, Deflater.HUFFMAN_ONLY})
            roundTrip("strategy", 6, strategy, false, data, 1000);
        roundTrip("nowrap", 6, 0, true, data, 7);
        roundTrip("empty", 6, 0, false, new byte[0], 64);

        // Dictionary: the inflater asks for it and reports its Adler-32.
        byte[] dict = "word1 word2 word3 word10 word20 word30".getBytes(StandardCharsets.US_ASCII);
        Deflater d = new Deflater(9);
        d.setDictionary(dict);
        byte[] z = deflate(d, data, 512);
        Inflater inf = new Inflater();
        inf.setInput(z);
        byte[] out = new byte[data.length];
        int n = inf.inflate(out);
        System.out.println("dict: z=" + z.length + " crc=" + crc(z, z.length) + " first=" + n + " needsDict=" + inf.needsDictionary()
                + " adler=" + Integer.toHexString(inf.getAdler()) + " remaining=" + inf.getRemaining());
        try {
            inf.setDictionary("wrong".getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            System.out.println("wrong dictionary: " + e);
        }
        inf.setDictionary(ByteBuffer.wrap(dict));
        n = inf.inflate(out);
        System.out.println("after dict: " + n + " finished=" + inf.finished() + " ok=" + Arrays.equals(out, data));
        inf.end();
        try {
            inf.inflate(out);
        } catch (NullPointerException e) {
            System.out.println("ended: " + e.getMessage());
        }

        // Flush modes and parameter changes on one stream.
        d = new Deflater(1);
        byte[] buf = new byte[100_000];
        int total = 0;
        d.setInput(data, 0, 10_000);
        total += d.deflate(buf, total, buf.length - total, Deflater.SYNC_FLUSH);
        System.out.println("sync flush: " + total + " needsInput=" + d.needsInput() + " tail=" + (buf[total - 1] & 0xff) + "," + (buf[total - 2] & 0xff));
        d.setLevel(9);
        d.setStrategy(Deflater.FILTERED);
        d.setInput(data, 10_000, 10_000);
        total += d.deflate(buf, total, buf.length - total, Deflater.FULL_FLUSH);
        System.out.println("full flush after setLevel: " + total);
        d.setLevel(Deflater.NO_COMPRESSION);
        d.setInput(data, 20_000, 20_000);
        d.finish();
        while (!d.finished()) total += d.deflate(buf, total, Math.min(3, buf.length - total));
        System.out.println("stored tail: " + total + " crc=" + crc(buf, total) + " read=" + d.getBytesRead());
        inf = new Inflater();
        System.out.println("mixed stream ok=" + Arrays.equals(inflate(inf, Arrays.copyOf(buf, total), 333, data.length), data));
        d.reset();
        System.out.println("after reset: read=" + d.getTotalIn() + " finished=" + d.finished() + " needsInput=" + d.needsInput());
        d.end();

        // A level change while input is pending needs output space: small buffers, params retried.
        d = new Deflater(1);
        d.setInput(data);
        total = d.deflate(buf);
        d.setLevel(9);
        d.setInput(data, 0, 5000);
        byte[] small = new byte[5];
        int calls = 0, chunk;
        do {
            chunk = d.deflate(small);
            System.arraycopy(small, 0, buf, total, chunk);
            total += chunk;
            calls++;
        } while (chunk == small.length);
        d.finish();
        while (!d.finished()) total += d.deflate(buf, total, buf.length - total);
        byte[] expect = Arrays.copyOf(data, data.length + 5000);
        System.arraycopy(data, 0, expect, data.length, 5000);
        System.out.println("params with small output: calls=" + calls + " total=" + total + " crc=" + crc(buf, total)
                + " ok=" + Arrays.equals(inflate(new Inflater(), Arrays.copyOf(buf, total), 4096, expect.length), expect));
        d.end();

        // ByteBuffer variants: heap and direct, input and output.
        for (int k = 0; k < 4; k++) {
            boolean directIn = (k & 1) != 0, directOut = (k & 2) != 0;
            ByteBuffer src = (directIn ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length)).put(data).flip();
            ByteBuffer dst = directOut ? ByteBuffer.allocateDirect(60_000) : ByteBuffer.allocate(60_000);
            ByteBuffer back = directIn ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
            Deflater bd = new Deflater(6, k == 3);
            Inflater bi = new Inflater(k == 3);
            bd.setInput(src);
            bd.finish();
            while (!bd.finished()) bd.deflate(dst);
            bi.setInput(dst.flip());
            while (!bi.finished() && back.hasRemaining()) bi.inflate(back);
            System.out.println("buffers in=" + (directIn ? "direct" : "heap") + " out=" + (directOut ? "direct" : "heap") + " z=" + dst.limit()
                    + " src.pos=" + src.position() + " back=" + back.flip().remaining() + " equal=" + back.equals(ByteBuffer.wrap(data)));
            bd.end();
            bi.end();
        }

        // Corrupt input.
        byte[] plain = deflate(new Deflater(), data, 9000);
        byte[][] bad = {{1, 2, 3, 4, 5}, {0x78, (byte) 0x9c, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0},
                Arrays.copyOf(z, 40), Arrays.copyOf(plain, 3000), Arrays.copyOf(plain, plain.length)};
        for (int i = 200; i < 3000; i += 97) bad[3][i] ^= 0x5a;
        bad[4][plain.length - 1] ^= 1;
        for (byte[] b : bad) {
            Inflater bi = new Inflater();
            bi.setInput(b);
            try {
                int got = bi.inflate(new byte[100_000]);
                System.out.println("no error: " + got + " needsInput=" + bi.needsInput() + " needsDict=" + bi.needsDictionary());
            } catch (DataFormatException e) {
                System.out.println("DataFormatException: " + e.getMessage() + " read=" + bi.getBytesRead() + " written=" + bi.getBytesWritten() + " remaining=" + bi.getRemaining());
            }
            bi.end();
        }
        try {
            new Deflater(10);
        } catch (IllegalArgumentException e) {
            System.out.println("bad level: " + e.getMessage());
        }
    }
}
