public class IntegerMethods {
    public static void main(String[] args) {
        int[] vals = {0, 1, -1, 7, 42, 255, 256, 1000000, -1000000, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x12345678, 0x80000001};
        for (int v : vals) {
            System.out.println(v + ": bin=" + Integer.toBinaryString(v) + " hex=" + Integer.toHexString(v) + " oct=" + Integer.toOctalString(v)
                + " bitCount=" + Integer.bitCount(v) + " reverse=" + Integer.reverse(v) + " reverseBytes=" + Integer.reverseBytes(v)
                + " highestOneBit=" + Integer.highestOneBit(v) + " lowestOneBit=" + Integer.lowestOneBit(v)
                + " nlz=" + Integer.numberOfLeadingZeros(v) + " ntz=" + Integer.numberOfTrailingZeros(v) + " signum=" + Integer.signum(v));
        }
        for (int radix : new int[]{2, 8, 10, 16, 36, 7}) {
            System.out.println("radix " + radix + ": " + Integer.toString(255, radix) + " " + Integer.toString(-255, radix) + " " + Integer.toString(Integer.MIN_VALUE, radix)
                + " parse back " + Integer.parseInt(Integer.toString(-12345, radix), radix) + " unsigned " + Integer.toUnsignedString(-1, radix));
        }
        System.out.println("toString radix out of range -> base10: " + Integer.toString(100, 99));
        System.out.println("parseInt: " + Integer.parseInt("123") + " " + Integer.parseInt("-0") + " " + Integer.parseInt("+77") + " " + Integer.parseInt("-2147483648") + " " + Integer.parseInt("zz", 36)
            + " " + Integer.parseInt("-FF", 16) + " " + Integer.valueOf("0777", 8) + " " + Integer.parseUnsignedInt("4294967295") + " " + Integer.decode("0x1F") + " " + Integer.decode("-010") + " " + Integer.decode("#ff"));
        System.out.println("compare: " + Integer.compare(3, 5) + " " + Integer.compare(5, 3) + " " + Integer.compare(Integer.MIN_VALUE, Integer.MAX_VALUE) + " compareUnsigned: " + Integer.compareUnsigned(-1, 1)
            + " compareTo: " + Integer.valueOf(10).compareTo(9));
        System.out.println("MIN/MAX: " + Integer.MIN_VALUE + " " + Integer.MAX_VALUE + " SIZE=" + Integer.SIZE + " BYTES=" + Integer.BYTES);
        System.out.println("min/max/sum: " + Integer.min(3, -3) + " " + Integer.max(3, -3) + " " + Integer.sum(3, 4));
        System.out.println("rotate: " + Integer.rotateLeft(1, 33) + " " + Integer.rotateRight(1, 1));
        System.out.println("valueOf/intValue: " + Integer.valueOf(77).longValue() + " " + Integer.valueOf(77).doubleValue() + " " + Integer.valueOf(300).byteValue() + " " + Integer.valueOf(70000).shortValue());
        System.out.println("getInteger(missing): " + Integer.getInteger("definitely.not.set.property") + " with default " + Integer.getInteger("definitely.not.set.property", 5));
        int x = 0b1011_0110;
        System.out.println("bit tricks: isPow2(64)=" + (Integer.bitCount(64) == 1) + " nextPow2(100)=" + (Integer.highestOneBit(99) << 1) + " log2(1024)=" + (31 - Integer.numberOfLeadingZeros(1024))
            + " parity(" + x + ")=" + (Integer.bitCount(x) & 1));
        System.out.println("hashCode: " + Integer.hashCode(-99) + " toString(): " + Integer.valueOf(-0).toString() + " equals: " + Integer.valueOf(1000).equals(1000));
        System.out.println("Integer.toString(MIN)=" + Integer.toString(Integer.MIN_VALUE) + " String.valueOf(MIN)=" + String.valueOf(Integer.MIN_VALUE));
        StringBuilder sb = new StringBuilder();
        for (int i = -20; i <= 20; i += 5) sb.append(Integer.toBinaryString(i & 0xFF)).append(' ');
        System.out.println("low bytes: " + sb.toString().trim());
    }
}
