import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

public class ChecksumsDigests {
    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        String[] inputs = {"", "a", "abc", "message digest", "The quick brown fox jumps over the lazy dog", "0123456789".repeat(100)};
        for (String in : inputs) {
            byte[] data = in.getBytes(StandardCharsets.UTF_8);
            CRC32 crc = new CRC32();
            crc.update(data);
            Adler32 adler = new Adler32();
            adler.update(data);
            String label = in.length() > 20 ? in.substring(0, 20) + "...(" + in.length() + ")" : in;
            System.out.println("[" + label + "] crc32=" + Long.toHexString(crc.getValue()) + " adler32=" + Long.toHexString(adler.getValue()));
            System.out.println("   md5=" + hex(MessageDigest.getInstance("MD5").digest(data)));
            System.out.println("   sha1=" + hex(MessageDigest.getInstance("SHA-1").digest(data)));
            System.out.println("   sha256=" + hex(MessageDigest.getInstance("SHA-256").digest(data)));
        }
        CRC32 incremental = new CRC32();
        for (int i = 0; i < 1000; i++) incremental.update(i & 0xFF);
        System.out.println("incremental crc32=" + incremental.getValue());
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < 100; i++) md.update(("chunk" + i).getBytes(StandardCharsets.UTF_8));
        System.out.println("chunked sha256=" + hex(md.digest()));
        int manual = 0xFFFFFFFF;
        for (byte b : "123456789".getBytes(StandardCharsets.US_ASCII)) {
            manual ^= b & 0xFF;
            for (int k = 0; k < 8; k++) manual = (manual >>> 1) ^ (0xEDB88320 & -(manual & 1));
        }
        System.out.println("manual crc32(123456789)=" + Integer.toHexString(~manual));
    }
}
