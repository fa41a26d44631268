public class PrimitiveConversions {
    public static void main(String[] args) {
        double[] ds = {0.0, -0.0, 1.5, -1.5, 2.5, -2.5, 0.9999, 1e10, -1e10, 1e19, -1e19, 1e300, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 2147483647.5, -2147483648.9, 9.223372036854776E18, Double.MIN_VALUE};
        for (double d : ds) {
            System.out.println("d=" + d + " d2i=" + (int) d + " d2l=" + (long) d + " d2f=" + (float) d + " d2s=" + (short) d + " d2b=" + (byte) d + " d2c=" + (int) (char) d);
        }
        float[] fs = {0.0f, -0.0f, 3.7f, -3.7f, 1e10f, -1e10f, 3e38f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 65535.9f, 70000f, -70000f, 1.17549435E-38f};
        for (float f : fs) {
            System.out.println("f=" + f + " f2i=" + (int) f + " f2l=" + (long) f + " f2d=" + (double) f);
        }
        int[] is = {0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535, 65536, -32769, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x12345678};
        for (int i : is) {
            System.out.println("i=" + i + " i2b=" + (byte) i + " i2c=" + (int) (char) i + " i2s=" + (short) i + " i2f=" + (float) i + " i2d=" + (double) i + " i2l=" + (long) i);
        }
        long[] ls = {0L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 4294967295L, 4294967296L, 9007199254740993L, 0x1234_5678_9ABC_DEF0L};
        for (long l : ls) {
            System.out.println("l=" + l + " l2i=" + (int) l + " l2f=" + (float) l + " l2d=" + (double) l + " l2b=" + (byte) l + " l2c=" + (int) (char) l);
        }
        char c = 'A';
        System.out.println("char to int: " + (int) c + " char+1: " + (c + 1) + " (char)(c+1): " + (char) (c + 1));
        char big = '\uFFFF';
        System.out.println("char FFFF to short=" + (short) big + " byte=" + (byte) big + " int=" + (int) big);
        short sh = -1;
        System.out.println("short -1 to char=" + (int) (char) sh);
        byte by = (byte) 200;
        System.out.println("byte 200=" + by + " & 0xFF=" + (by & 0xFF) + " to char=" + (int) (char) by);
        System.out.println("Math.round: " + Math.round(2.5) + " " + Math.round(-2.5) + " " + Math.round(0.49999999999999994) + " " + Math.round(Double.NaN)
            + " " + Math.round(1e20) + " " + Math.round(2.5f) + " " + Math.round(-2.5f) + " " + Math.round(Float.NaN) + " " + Math.round(1e20f));
        System.out.println("rint: " + Math.rint(2.5) + " " + Math.rint(3.5) + " " + Math.rint(-2.5));
    }
}
