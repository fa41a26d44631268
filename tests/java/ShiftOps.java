public class ShiftOps {
    public static void main(String[] args) {
        int[] vals = {1, -1, 0x80000000, 0x7FFFFFFF, -8, 12345, -12345};
        int[] counts = {0, 1, 4, 31, 32, 33, 63, 64, -1, -31, -32, 100};
        for (int v : vals) {
            StringBuilder sb = new StringBuilder();
            sb.append("int ").append(v).append(':');
            for (int c : counts) {
                sb.append(" [").append(c).append("] ").append(v << c).append('/').append(v >> c).append('/').append(v >>> c);
            }
            System.out.println(sb);
        }
        long[] lvals = {1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, -8L, 1234567890123L};
        int[] lcounts = {0, 1, 31, 32, 33, 63, 64, 65, -1, -63, -64, 200};
        for (long v : lvals) {
            StringBuilder sb = new StringBuilder();
            sb.append("long ").append(v).append(':');
            for (int c : lcounts) {
                sb.append(" [").append(c).append("] ").append(v << c).append('/').append(v >> c).append('/').append(v >>> c);
            }
            System.out.println(sb);
        }
        long shiftByLong = 1L << 40L;
        int intShiftByLong = 1 << 40L;
        System.out.println("shift by long count: " + shiftByLong + " " + intShiftByLong);
        byte b = -16;
        System.out.println("byte >>> 2 = " + (b >>> 2) + ", (byte)(b>>>2) = " + (byte) (b >>> 2));
        b >>>= 2;
        System.out.println("byte >>>= 2 -> " + b);
        short s = -1;
        s >>>= 10;
        System.out.println("short >>>= 10 -> " + s);
        char c = 0xFFFF;
        c >>= 4;
        System.out.println("char >>= 4 -> " + (int) c);
        int x = 0xDEADBEEF;
        System.out.println("rotl: " + Integer.rotateLeft(x, 8) + " rotr: " + Integer.rotateRight(x, 8) + " rotl neg: " + Integer.rotateLeft(x, -4));
        System.out.println("long rot: " + Long.rotateLeft(0x0123456789ABCDEFL, 12) + " " + Long.rotateRight(0x0123456789ABCDEFL, 12));
    }
}
