public class ShortByteMethods {
    public static void main(String[] args) {
        System.out.println("Byte MIN/MAX: " + Byte.MIN_VALUE + " " + Byte.MAX_VALUE + " Short MIN/MAX: " + Short.MIN_VALUE + " " + Short.MAX_VALUE);
        System.out.println("Byte.parseByte: " + Byte.parseByte("-128") + " " + Byte.parseByte("7f", 16) + " " + Byte.valueOf("12") + " " + Byte.decode("0x10"));
        System.out.println("Short.parseShort: " + Short.parseShort("-32768") + " " + Short.parseShort("777", 8) + " " + Short.valueOf("-5") + " " + Short.decode("#7FFF"));
        for (String s : new String[]{"128", "-129", "abc", ""}) {
            try {
                System.out.println("parseByte(" + s + ")=" + Byte.parseByte(s));
            } catch (NumberFormatException e) {
                System.out.println("parseByte(" + s + ") NFE: " + e.getMessage());
            }
        }
        for (String s : new String[]{"32768", "-32769", "1e3"}) {
            try {
                System.out.println("parseShort(" + s + ")=" + Short.parseShort(s));
            } catch (NumberFormatException e) {
                System.out.println("parseShort(" + s + ") NFE: " + e.getMessage());
            }
        }
        byte[] bs = {0, 1, -1, 127, -128, 0x55};
        for (byte b : bs) {
            System.out.println("byte " + b + ": toUnsignedInt=" + Byte.toUnsignedInt(b) + " toUnsignedLong=" + Byte.toUnsignedLong(b) + " hash=" + Byte.hashCode(b) + " hex=" + Integer.toHexString(b & 0xFF)
                + " compare(b,0)=" + Byte.compare(b, (byte) 0) + " toString=" + Byte.toString(b));
        }
        short[] ss = {0, 1, -1, 32767, -32768, 0x1234};
        for (short s : ss) {
            System.out.println("short " + s + ": toUnsignedInt=" + Short.toUnsignedInt(s) + " reverseBytes=" + Short.reverseBytes(s) + " hash=" + Short.hashCode(s) + " compare(s,0)=" + Short.compare(s, (short) 0)
                + " compareUnsigned(s,1)=" + Short.compareUnsigned(s, (short) 1));
        }
        Byte boxedB = 5;
        Short boxedS = 500;
        System.out.println("boxed conversions: " + boxedB.intValue() + " " + boxedB.doubleValue() + " " + boxedS.byteValue() + " " + boxedS.longValue() + " equals: " + boxedB.equals((byte) 5) + " " + boxedB.equals(5));
        System.out.println("Float/Double misc: " + Float.MAX_EXPONENT + " " + Double.MIN_EXPONENT + " " + Float.compare(0.0f, -0.0f) + " " + Double.isFinite(1e308) + " " + Double.isInfinite(-1 / 0.0)
            + " " + Float.sum(1.5f, 2.25f) + " " + Double.max(-0.0, 0.0) + " " + Float.valueOf("3.5").intValue() + " " + Double.valueOf(2.9).longValue());
        System.out.println("Boolean: " + Boolean.parseBoolean("TRUE") + " " + Boolean.parseBoolean("yes") + " " + Boolean.parseBoolean(null) + " " + Boolean.toString(false) + " " + Boolean.logicalAnd(true, false)
            + " " + Boolean.logicalOr(true, false) + " hash " + Boolean.hashCode(true));
        byte wrap = 0;
        for (int i = 0; i < 300; i++) wrap++;
        short swrap = 0;
        for (int i = 0; i < 70000; i++) swrap++;
        System.out.println("wrapping counters: " + wrap + " " + swrap);
        byte[] data = "Hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int checksum = 0;
        for (byte b : data) checksum = (checksum * 31 + (b & 0xFF)) & 0xFFFF;
        System.out.println("bytes: " + java.util.Arrays.toString(data) + " checksum=" + checksum);
    }
}
