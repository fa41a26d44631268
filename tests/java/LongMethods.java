public class LongMethods {
    public static void main(String[] args) {
        long[] vals = {0L, 1L, -1L, 255L, 1L << 32, (1L << 32) - 1, Long.MAX_VALUE, Long.MIN_VALUE, 0x123456789ABCDEF0L, -1234567890123456789L};
        for (long v : vals) {
            System.out.println(v + ": hex=" + Long.toHexString(v) + " oct=" + Long.toOctalString(v) + " bin=" + Long.toBinaryString(v) + " bitCount=" + Long.bitCount(v)
                + " nlz=" + Long.numberOfLeadingZeros(v) + " ntz=" + Long.numberOfTrailingZeros(v) + " highest=" + Long.highestOneBit(v) + " lowest=" + Long.lowestOneBit(v)
                + " reverse=" + Long.reverse(v) + " reverseBytes=" + Long.reverseBytes(v) + " signum=" + Long.signum(v) + " hash=" + Long.hashCode(v));
        }
        System.out.println("toString radix: " + Long.toString(Long.MIN_VALUE, 36) + " " + Long.toString(123456789L, 2) + " " + Long.toString(-255L, 16));
        System.out.println("unsigned: " + Long.toUnsignedString(-1L) + " " + Long.toUnsignedString(-1L, 16) + " " + Long.parseUnsignedLong("18446744073709551615") + " " + Long.divideUnsigned(-1L, 10)
            + " " + Long.remainderUnsigned(-1L, 10) + " " + Long.compareUnsigned(1L, -1L));
        System.out.println("parseLong: " + Long.parseLong("-9223372036854775808") + " " + Long.parseLong("7fffffffffffffff", 16) + " " + Long.valueOf("123") + " " + Long.decode("0x10") + " " + Long.parseLong("+42"));
        try {
            Long.parseLong("9223372036854775808");
        } catch (NumberFormatException e) {
            System.out.println("overflow: " + e.getMessage());
        }
        System.out.println("compare: " + Long.compare(1L, 2L) + " " + Long.compare(Long.MAX_VALUE, Long.MIN_VALUE) + " min/max/sum: " + Long.min(1, -1) + " " + Long.max(1, -1) + " " + Long.sum(5, 6));
        System.out.println("rotate: " + Long.rotateLeft(1L, 65) + " " + Long.rotateRight(1L, 1) + " MIN/MAX: " + Long.MIN_VALUE + " " + Long.MAX_VALUE + " SIZE=" + Long.SIZE);
        long seed = 0x5DEECE66DL;
        StringBuilder sb = new StringBuilder();
        long s = 12345;
        for (int i = 0; i < 8; i++) {
            s = (s * seed + 0xBL) & ((1L << 48) - 1);
            sb.append(Long.toHexString(s)).append(' ');
        }
        System.out.println("lcg: " + sb.toString().trim());
        long h = 0xcbf29ce484222325L;
        for (char c : "fnv-1a hash input".toCharArray()) { h ^= c; h *= 0x100000001b3L; }
        System.out.println("fnv1a: " + Long.toHexString(h) + " " + h);
        System.out.println("intValue/doubleValue: " + Long.valueOf(1L << 40).intValue() + " " + Long.valueOf(Long.MAX_VALUE).doubleValue() + " " + Long.valueOf(Long.MAX_VALUE).floatValue());
    }
}
