// Method.invoke and Constructor.newInstance on classes whose static initializer allocates:
// under JXVM_GC_STRESS the initializer collects while the natives hold the argument array.
import java.lang.reflect.*;
import java.util.*;
public class ReflectionInitCollects {
    static class S {
        static List<String> junk = new ArrayList<>();
        static { for (int i = 0; i < 2000; i++) junk.add("x" + i); }
        static String join(String a, String b, int[] c) { return a + b + c.length + c[2]; }
    }
    static class C {
        static List<String> junk = new ArrayList<>();
        static { for (int i = 0; i < 2000; i++) junk.add("y" + i); }
        final String v;
        C(String a, Integer b, long[] c) { v = a + b + c.length + c[1]; }
    }
    public static void main(String[] args) throws Exception {
        Method m = S.class.getDeclaredMethod("join", String.class, String.class, int[].class);
        System.out.println(m.invoke(null, new String("ab"), new String("cd"), new int[]{1, 2, 3}));
        Constructor<C> k = C.class.getDeclaredConstructor(String.class, Integer.class, long[].class);
        System.out.println(k.newInstance(new String("ef"), Integer.valueOf(1234), new long[]{5, 6}).v);
    }
}
