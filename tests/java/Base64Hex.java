import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

public class Base64Hex {
    public static void main(String[] args) {
        String[] inputs = {"", "f", "fo", "foo", "foob", "fooba", "foobar", "Many hands make light work.", "\u00ff\u00fe binary?"};
        for (String s : inputs) {
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            String enc = Base64.getEncoder().encodeToString(b);
            String url = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
            String back = new String(Base64.getDecoder().decode(enc), StandardCharsets.ISO_8859_1);
            System.out.println("len=" + s.length() + " b64=" + enc + " url=" + url + " roundtrip=" + back.equals(s));
        }
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) all[i] = (byte) i;
        String mime = Base64.getMimeEncoder().encodeToString(all);
        System.out.println("mime lines=" + mime.split("\r\n").length + " first=" + mime.split("\r\n")[0]);
        System.out.println("url vs std: " + Base64.getEncoder().encodeToString(new byte[]{(byte) 0xfb, (byte) 0xff}) + " " + Base64.getUrlEncoder().encodeToString(new byte[]{(byte) 0xfb, (byte) 0xff}));
        try {
            Base64.getDecoder().decode("abc$");
        } catch (IllegalArgumentException e) {
            System.out.println("bad base64: " + e.getMessage());
        }
        HexFormat hf = HexFormat.of();
        System.out.println("hex: " + hf.formatHex(new byte[]{0, 1, 127, -128, -1}) + " upper: " + HexFormat.of().withUpperCase().formatHex(new byte[]{(byte) 0xab, (byte) 0xcd})
            + " delimited: " + HexFormat.ofDelimiter(":").formatHex(new byte[]{10, 20, 30}) + " parse: " + Arrays.toString(hf.parseHex("deadbeef")));
        System.out.println("toHexDigits: " + hf.toHexDigits((byte) 10) + " " + hf.toHexDigits((short) 0x1234) + " " + hf.toHexDigits(0xCAFEBABE) + " " + hf.toHexDigits(-1L) + " fromHexDigits: " + HexFormat.fromHexDigits("7fffffff"));
        StringBuilder sb = new StringBuilder();
        for (byte x : "Hex!".getBytes(StandardCharsets.US_ASCII)) sb.append(Integer.toHexString(x & 0xff));
        System.out.println("manual hex: " + sb + " Long.toHexString: " + Long.toHexString(0xDEADBEEFCAFEL) + " " + Long.toHexString(-2L));
    }
}
