import java.util.Arrays;
import java.util.List;
import java.util.Objects;

public class StringHashCode {
    public static void main(String[] args) {
        String[] ss = {"", "a", "A", "ab", "abc", "hello", "Hello", "polygenelubricants", "Aa", "BB", "\u00e9", "\uD83D\uDE00",
            "The quick brown fox jumps over the lazy dog", "0123456789", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"};
        for (String s : ss) {
            int manual = 0;
            for (int i = 0; i < s.length(); i++) manual = 31 * manual + s.charAt(i);
            System.out.println("len=" + s.length() + " hash=" + s.hashCode() + " manual=" + manual + " same=" + (manual == s.hashCode()));
        }
        System.out.println("Integer hash: " + Integer.hashCode(-7) + " " + Integer.valueOf(123).hashCode());
        System.out.println("Long hash: " + Long.hashCode(1L << 32) + " " + Long.valueOf(-1L).hashCode() + " " + Long.hashCode(0x123456789L));
        System.out.println("Boolean hash: " + Boolean.hashCode(true) + " " + Boolean.hashCode(false));
        System.out.println("Character hash: " + Character.hashCode('x') + " Byte: " + Byte.hashCode((byte) -1) + " Short: " + Short.hashCode((short) -2));
        System.out.println("Double hash: " + Double.hashCode(0.1) + " Float: " + Float.hashCode(0.1f));
        System.out.println("Arrays.hashCode: " + Arrays.hashCode(new int[]{1, 2, 3}) + " " + Arrays.hashCode(new String[]{"a", "b"}) + " " + Arrays.hashCode(new long[]{1L << 40})
            + " " + Arrays.hashCode(new double[]{1.5}) + " " + Arrays.hashCode((int[]) null) + " " + Arrays.deepHashCode(new Object[]{new int[]{1}, "x"}));
        System.out.println("List hash: " + List.of("a", "b", "c").hashCode() + " " + Arrays.asList(1, 2, 3).hashCode() + " " + List.of().hashCode());
        System.out.println("Objects.hash: " + Objects.hash("a", 1, 2L) + " " + Objects.hash() + " " + Objects.hashCode(null) + " " + Objects.hash((Object) null));
        System.out.println("Map.entry hash: " + java.util.Map.entry("k", "v").hashCode() + " Set hash: " + java.util.Set.of(1, 2, 3).hashCode());
        System.out.println("Enum-free record-free String.CASE hash: " + "MiXeD".toLowerCase().hashCode());
        int collisions = 0;
        java.util.HashMap<Integer, String> seen = new java.util.HashMap<>();
        for (char c1 = 'A'; c1 <= 'z'; c1++) for (char c2 = 'A'; c2 <= 'z'; c2++) {
            String s = "" + c1 + c2;
            String prev = seen.put(s.hashCode(), s);
            if (prev != null) collisions++;
        }
        System.out.println("two-letter collisions: " + collisions + " distinct=" + seen.size());
    }
}
