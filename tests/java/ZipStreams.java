import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

// GZIP, deflater/inflater streams and ZipOutputStream/ZipInputStream over byte arrays.
public class ZipStreams {
    static final long TIME = 1_600_000_000_000L; // fixed entry times: output is deterministic

    static byte[] sample(int n, int seed) {
        StringBuilder sb = new StringBuilder();
        int x = seed;
        while (sb.length() < n) {
            x = x * 1103515245 + 12345;
            sb.append("line ").append((x >>> 16) % 1000).append(" of the sample\n");
        }
        return sb.substring(0, n).getBytes(StandardCharsets.UTF_8);
    }

    static String crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return Long.toHexString(c.getValue());
    }

    static byte[] readAll(InputStream in, int chunk) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[chunk];
        for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
        return out.toByteArray();
    }

    public static void main(String[] args) throws Exception {
        byte[] data = sample(100_000, 3);

        // GZIP: whole and in small writes; read back in small and large reads.
        for (int chunk : new int[] {1 << 16, 100}) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(bos, 512)) {
                for (int i = 0; i < data.length; i += chunk) gz.write(data, i, Math.min(chunk, data.length - i));
            }
            byte[] z = bos.toByteArray();
            byte[] back = readAll(new GZIPInputStream(new ByteArrayInputStream(z), 333), 77);
            System.out.println("gzip chunk=" + chunk + ": " + z.length + " bytes crc=" + crc(z) + " ok=" + Arrays.equals(back, data));
        }
        // Concatenated members, sync flush, truncated and corrupt input.
        ByteArrayOutputStream two = new ByteArrayOutputStream();
        for (int m = 0; m < 2; m++) {
            GZIPOutputStream gz = new GZIPOutputStream(two, true);
            gz.write(("member " + m + "\n").getBytes(StandardCharsets.UTF_8));
            gz.flush();
            gz.finish();
        }
        System.out.print(new String(readAll(new GZIPInputStream(new ByteArrayInputStream(two.toByteArray())), 5), StandardCharsets.UTF_8));
        byte[] z = two.toByteArray();
        try {
            readAll(new GZIPInputStream(new ByteArrayInputStream(Arrays.copyOf(z, 20))), 64);
        } catch (EOFException e) {
            System.out.println("truncated gzip: " + e);
        }
        z[12] ^= 0x40;
        try {
            readAll(new GZIPInputStream(new ByteArrayInputStream(z)), 64);
            System.out.println("corrupt gzip read without error");
        } catch (ZipException e) {
            System.out.println("corrupt gzip: " + e);
        }

        // DeflaterOutputStream / InflaterInputStream with a custom deflater and nowrap.
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        Deflater def = new Deflater(Deflater.BEST_COMPRESSION, true);
        try (DeflaterOutputStream dos = new DeflaterOutputStream(bos, def, 4096, true)) {
            dos.write(data, 0, 50_000);
            dos.flush();
            System.out.println("after sync flush: " + bos.size());
            dos.write(data, 50_000, 50_000);
        }
        def.end();
        byte[] raw = bos.toByteArray();
        Inflater inf = new Inflater(true);
        byte[] back = readAll(new InflaterInputStream(new ByteArrayInputStream(raw), inf, 1000), 4096);
        System.out.println("deflater stream: " + raw.length + " crc=" + crc(raw) + " ok=" + Arrays.equals(back, data)
                + " in=" + inf.getBytesRead() + " out=" + inf.getBytesWritten());

        // ZipOutputStream to memory, ZipInputStream back.
        bos = new ByteArrayOutputStream();
        try (ZipOutputStream zos = new ZipOutputStream(bos)) {
            zos.setComment("archive comment");
            zos.setLevel(9);
            String[] names = {"a.txt", "dir/", "dir/b.bin", "stored.txt", "empty"};
            for (int i = 0; i < names.length; i++) {
                ZipEntry e = new ZipEntry(names[i]);
                e.setTime(TIME + i * 2000L);
                byte[] body = names[i].endsWith("/") ? new byte[0] : names[i].equals("empty") ? new byte[0] : sample(1000 * (i + 1), i);
                if (names[i].startsWith("stored")) {
                    e.setMethod(ZipEntry.STORED);
                    e.setSize(body.length);
                    CRC32 c = new CRC32();
                    c.update(body);
                    e.setCrc(c.getValue());
                }
                if (i == 2) e.setComment("entry comment");
                if (i == 0) e.setExtra(new byte[] {(byte) 0xca, (byte) 0xfe, 2, 0, 1, 2});
                zos.putNextEntry(e);
                zos.write(body);
                zos.closeEntry();
            }
        }
        byte[] zip = bos.toByteArray();
        System.out.println("zip: " + zip.length + " bytes crc=" + crc(zip));
        try (ZipInputStream zis = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e; (e = zis.getNextEntry()) != null; ) {
                byte[] body = readAll(zis, 100);
                System.out.println("  " + e.getName() + " dir=" + e.isDirectory() + " method=" + e.getMethod() + " time=" + e.getTime()
                        + " extra=" + (e.getExtra() == null ? "none" : e.getExtra().length) + " read=" + body.length + " crc=" + crc(body)
                        + " size=" + e.getSize() + " csize=" + e.getCompressedSize() + " entryCrc=" + Long.toHexString(e.getCrc()));
            }
        }
        try {
            ZipOutputStream zos = new ZipOutputStream(new ByteArrayOutputStream());
            zos.putNextEntry(new ZipEntry("x"));
            zos.putNextEntry(new ZipEntry("x"));
        } catch (ZipException e) {
            System.out.println("duplicate: " + e.getMessage());
        }
    }
}
