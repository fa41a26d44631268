import java.util.ArrayList;
import java.util.List;

public class AutoboxCache {
    static boolean same(Integer a, Integer b) { return a == b; }

    public static void main(String[] args) {
        int[] probes = {-129, -128, -1, 0, 1, 100, 127, 128, 1000};
        for (int p : probes) {
            Integer a = p, b = p;
            Integer c = Integer.valueOf(p);
            System.out.println(p + ": autobox== " + (a == b) + " valueOf== " + (a == c) + " equals " + a.equals(b));
        }
        Long l1 = 127L, l2 = 127L, l3 = 128L, l4 = 128L;
        System.out.println("Long cache: " + (l1 == l2) + " " + (l3 == l4));
        Short s1 = (short) 100, s2 = (short) 100;
        Byte b1 = (byte) -5, b2 = (byte) -5;
        Character c1 = 'a', c2 = 'a', c3 = '\u0100', c4 = '\u0100';
        Boolean t1 = true, t2 = Boolean.valueOf("TRUE");
        System.out.println("Short/Byte/Char/Boolean cache: " + (s1 == s2) + " " + (b1 == b2) + " " + (c1 == c2) + " " + (c3 == c4) + " " + (t1 == t2) + " " + (t1 == Boolean.TRUE));
        Integer big1 = 1000, big2 = 1000;
        System.out.println("compare with int unboxes: " + (big1 == 1000) + " " + (big1 <= big2 && big1 >= big2) + " equals " + big1.equals(big2));
        Double d1 = 0.5, d2 = 0.5;
        System.out.println("Double never cached: " + (d1 == d2) + " equals " + d1.equals(d2));
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 10; i++) list.add(i * 100);
        list.remove(Integer.valueOf(300));
        list.remove(0);
        System.out.println("remove(Object) vs remove(index): " + list);
        Integer n = null;
        try {
            int x = n;
            System.out.println("no NPE " + x);
        } catch (NullPointerException e) {
            System.out.println("unboxing null: NPE");
        }
        Object o = 42;
        Object o2 = 42L;
        Object o3 = 'x';
        Object o4 = 1.5f;
        System.out.println("boxed types: " + o.getClass().getSimpleName() + " " + o2.getClass().getSimpleName() + " " + o3.getClass().getSimpleName() + " " + o4.getClass().getSimpleName());
        long sum = 0;
        Long boxedSum = 0L;
        for (int i = 0; i < 1000; i++) { sum += i; boxedSum += i; }
        System.out.println("sums: " + sum + " " + boxedSum + " " + (boxedSum == sum));
        System.out.println("same(): " + same(127, 127) + " " + same(128, 128));
        Integer cached = 127;
        cached++;
        Integer other = 128;
        System.out.println("after ++ leaves cache: " + (cached == other) + " " + cached.equals(other));
        System.out.println("Integer.valueOf(String): " + (Integer.valueOf("12") == Integer.valueOf(12)) + " parse: " + Integer.parseInt("-12"));
        System.out.println("numeric equality mixed: " + (Integer.valueOf(1).equals(1L)) + " " + (1 == 1L) + " " + (Long.valueOf(1).hashCode() == Integer.valueOf(1).hashCode()));
        Character ch = 'A';
        int code = ch + 1;
        System.out.println("char unbox arithmetic: " + code + " " + (char) code);
        Boolean bool = false;
        System.out.println("Boolean logic: " + (bool || !bool) + " " + Boolean.logicalXor(true, bool) + " compare " + Boolean.compare(true, false));
    }
}
