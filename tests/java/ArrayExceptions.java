public class ArrayExceptions {
    static int[] arr = new int[5];

    static void attempt(String label, Runnable r) {
        try {
            r.run();
            System.out.println(label + ": ok");
        } catch (RuntimeException e) {
            String msg = e instanceof NullPointerException ? "(message not compared)" : e.getMessage();
            System.out.println(label + ": " + e.getClass().getName() + ": " + msg);
        }
    }

    public static void main(String[] args) {
        attempt("read -1", () -> System.out.println(arr[-1]));
        attempt("read 5", () -> System.out.println(arr[5]));
        attempt("write 10", () -> arr[10] = 1);
        attempt("long array", () -> { long[] l = new long[3]; l[3] = 1L; });
        attempt("byte array", () -> { byte[] b = new byte[0]; b[0]++; });
        attempt("char array", () -> { char[] c = new char[2]; System.out.println(c[Integer.MAX_VALUE]); });
        attempt("string array", () -> { String[] s = new String[1]; System.out.println(s[Integer.MIN_VALUE]); });
        attempt("2d inner", () -> { int[][] m = new int[2][2]; m[1][2] = 0; });
        attempt("negative size", () -> { int[] x = new int[-1]; });
        attempt("negative size long", () -> { int n = -5; long[] x = new long[n]; });
        attempt("negative size multi", () -> { int[][] x = new int[2][-3]; });
        attempt("negative size multi first", () -> { int[][] x = new int[-2][3]; });
        attempt("zero size ok", () -> { int[] x = new int[0]; System.out.println("len " + x.length); });
        attempt("array store", () -> { Object[] objs = new String[2]; objs[0] = "fine"; objs[1] = Integer.valueOf(1); });
        attempt("array store nested", () -> { Object[][] objs = new Integer[2][2]; objs[0] = new String[1]; });
        attempt("array store ok subclass", () -> { Number[] nums = new Integer[1]; nums[0] = 5; System.out.println("stored " + nums[0]); });
        attempt("array store double into Integer[]", () -> { Number[] nums = new Integer[1]; nums[0] = 1.5; });
        attempt("array store null ok", () -> { Object[] objs = new String[1]; objs[0] = null; });
        attempt("null array length", () -> { int[] n = null; System.out.println(n.length); });
        attempt("null array load", () -> { int[] n = null; System.out.println(n[0]); });
        attempt("arraycopy OOB", () -> System.arraycopy(new int[3], 0, new int[2], 0, 3));
        attempt("arraycopy type mismatch", () -> System.arraycopy(new int[3], 0, new long[3], 0, 3));
        attempt("arraycopy store", () -> System.arraycopy(new Object[]{"a", 1}, 0, new String[2], 0, 2));
        attempt("arraycopy negative", () -> System.arraycopy(new int[3], -1, new int[3], 0, 1));
        attempt("arraycopy not array", () -> System.arraycopy("str", 0, new int[3], 0, 1));
        attempt("Arrays.copyOf negative", () -> java.util.Arrays.copyOf(new int[1], -1));
        attempt("List.get OOB", () -> new java.util.ArrayList<String>().get(0));
        attempt("List.of get OOB", () -> java.util.List.of(1, 2).get(2));
        attempt("string index", () -> "abc".charAt(3));
        int[] copy = new int[6];
        System.arraycopy(new int[]{1, 2, 3, 4, 5, 6}, 0, copy, 0, 6);
        System.arraycopy(copy, 0, copy, 2, 4);
        System.out.println("overlapping arraycopy: " + java.util.Arrays.toString(copy));
        int caught = 0;
        for (int i = -3; i < 8; i++) {
            try {
                arr[i] = i;
            } catch (ArrayIndexOutOfBoundsException e) {
                caught++;
            }
        }
        System.out.println("caught=" + caught + " arr=" + java.util.Arrays.toString(arr));
    }
}
