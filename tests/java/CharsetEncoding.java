import java.nio.charset.StandardCharsets;
import java.util.Arrays;

public class CharsetEncoding {
    static String esc(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) sb.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        return sb.toString();
    }

    public static void main(String[] args) {
        String[] samples = {"hello", "caf\u00e9", "\u4e2d\u6587", "\uD83D\uDE00 smile", "\u0000nul", "\u00ff\u0100", ""};
        for (String s : samples) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            byte[] utf16 = s.getBytes(StandardCharsets.UTF_16BE);
            byte[] latin1 = s.getBytes(StandardCharsets.ISO_8859_1);
            byte[] ascii = s.getBytes(StandardCharsets.US_ASCII);
            System.out.println(esc(s) + ": utf8=" + Arrays.toString(utf8) + " utf16be.len=" + utf16.length + " latin1=" + Arrays.toString(latin1) + " ascii=" + Arrays.toString(ascii)
                + " roundtrip=" + new String(utf8, StandardCharsets.UTF_8).equals(s));
        }
        byte[] bad = {(byte) 0xC3, (byte) 0x28, (byte) 0xE2, (byte) 0x82, 0x41, (byte) 0xFF};
        System.out.println("malformed utf8 decoded: " + esc(new String(bad, StandardCharsets.UTF_8)));
        System.out.println("latin1 decode of high bytes: " + esc(new String(new byte[]{(byte) 0xE9, (byte) 0xFF, 0x41}, StandardCharsets.ISO_8859_1)));
        System.out.println("utf16 with BOM: " + Arrays.toString("A".getBytes(StandardCharsets.UTF_16)) + " LE: " + Arrays.toString("A\u00e9".getBytes(StandardCharsets.UTF_16LE)));
        System.out.println("lone surrogate to utf8: " + Arrays.toString("\uD800x".getBytes(StandardCharsets.UTF_8)));
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) all[i] = (byte) i;
        String latin = new String(all, StandardCharsets.ISO_8859_1);
        byte[] asUtf8 = latin.getBytes(StandardCharsets.UTF_8);
        System.out.println("256 latin1 chars -> utf8 bytes: " + asUtf8.length + " hash=" + Arrays.hashCode(asUtf8));
        System.out.println("charset names: " + StandardCharsets.UTF_8.name() + " " + StandardCharsets.ISO_8859_1.name() + " " + java.nio.charset.Charset.forName("utf-8").name()
            + " aliases contain UTF8: " + StandardCharsets.UTF_8.aliases().contains("UTF8"));
        System.out.println("offset/length ctor: " + new String("xxhelloxx".getBytes(StandardCharsets.US_ASCII), 2, 5, StandardCharsets.US_ASCII));
        char[] chars = {'a', 'b', 'c', 'd'};
        System.out.println("char[] ctor: " + new String(chars, 1, 2) + " codepoints ctor: " + esc(new String(new int[]{0x48, 0x1F600, 0x49}, 0, 3)));
    }
}
