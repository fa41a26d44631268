import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandleProxies;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.WrongMethodTypeException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntBinaryOperator;

import static java.lang.invoke.MethodType.methodType;

// MethodHandles.Lookup find*, invokeExact/invoke/invokeWithArguments, bindTo, the common
// combinators and MethodType.
public class MethodHandlesBasic {
    static int add(int a, int b) { return a + b; }
    static boolean isEven(int x) { return x % 2 == 0; }
    static String even(int x) { return "even" + x; }
    static String odd(int x) { return "odd" + x; }
    static int check(int x) {
        if (x < 0) throw new IllegalArgumentException("negative: " + x);
        return x;
    }
    static int recover(IllegalArgumentException e, int x) { return -1; }
    static String join(String... xs) { return String.join("+", xs); }
    static long mixed(int a, long b, double c, float d, String e, char g, short h, byte i, boolean j) {
        return a + b + (long) c + (long) d + e.length() + g + h + i + (j ? 1 : 0);
    }
    static void hello() { System.out.println("hello from a proxy"); }
    static int counter = 7;

    int f = 1;
    String name;
    MethodHandlesBasic() { name = "default"; }
    MethodHandlesBasic(String n) { name = n; }
    String greet(String x) { return "hi " + x + " from " + name; }
    private String secret() { return "secret of " + name; }

    public static void main(String[] args) throws Throwable {
        MethodHandles.Lookup lk = MethodHandles.lookup();

        MethodHandle len = lk.findVirtual(String.class, "length", methodType(int.class));
        System.out.println(len.invoke("abc") + " " + (int) len.invokeExact("abcd") + " " + len.type());
        MethodHandle add = lk.findStatic(MethodHandlesBasic.class, "add", methodType(int.class, int.class, int.class));
        System.out.println((int) add.invokeExact(3, 4) + " " + add.invoke(Integer.valueOf(5), 6) + " " + add.invokeWithArguments(1, 2));
        System.out.println((long) add.invoke(1, 2) + " " + (Object) add.invoke((byte) 1, (short) 2));
        MethodHandle ctor = lk.findConstructor(MethodHandlesBasic.class, methodType(void.class, String.class));
        MethodHandlesBasic m = (MethodHandlesBasic) ctor.invoke("bob");
        MethodHandle ctor0 = lk.findConstructor(MethodHandlesBasic.class, methodType(void.class));
        System.out.println(m.name + " " + ((MethodHandlesBasic) ctor0.invokeExact()).name);
        MethodHandle greet = lk.findVirtual(MethodHandlesBasic.class, "greet", methodType(String.class, String.class));
        System.out.println((String) greet.bindTo(m).invokeExact("x") + " | " + greet.invokeWithArguments(m, "y"));
        MethodHandle secret = lk.findSpecial(MethodHandlesBasic.class, "secret", methodType(String.class), MethodHandlesBasic.class);
        System.out.println((String) secret.invokeExact(m));
        MethodHandle sb = lk.findConstructor(StringBuilder.class, methodType(void.class, String.class));
        MethodHandle app = lk.findVirtual(StringBuilder.class, "append", methodType(StringBuilder.class, int.class));
        System.out.println(app.invoke(sb.invoke("n="), 5));

        MethodHandle getter = lk.findGetter(MethodHandlesBasic.class, "f", int.class);
        MethodHandle setter = lk.findSetter(MethodHandlesBasic.class, "f", int.class);
        setter.invoke(m, 42);
        System.out.println((int) getter.invokeExact(m) + " " + m.f);
        MethodHandle sget = lk.findStaticGetter(MethodHandlesBasic.class, "counter", int.class);
        MethodHandle sset = lk.findStaticSetter(MethodHandlesBasic.class, "counter", int.class);
        sset.invokeExact(8);
        System.out.println((int) sget.invokeExact() + " " + (int) lk.findStaticGetter(Integer.class, "MAX_VALUE", int.class).invokeExact());

        MethodHandle size = lk.findVirtual(List.class, "size", methodType(int.class));
        List<Integer> list = new ArrayList<>(List.of(1, 2, 3));
        System.out.println((int) size.invokeExact(list) + " " + size.invoke(List.of()));
        MethodHandle ts = lk.findVirtual(Object.class, "toString", methodType(String.class));
        System.out.println((String) ts.invokeExact((Object) list) + " " + ts.invoke(12));

        MethodHandle mixed = lk.findStatic(MethodHandlesBasic.class, "mixed",
                methodType(long.class, int.class, long.class, double.class, float.class, String.class, char.class, short.class, byte.class, boolean.class));
        System.out.println((long) mixed.invokeExact(1, 2L, 3.5, 4.5f, "abc", 'a', (short) 2, (byte) 1, true)
                + " " + mixed.invoke(1, 2, 3.5, 4.5f, "abc", 'a', (short) 2, (byte) 1, true)
                + " " + mixed.invokeWithArguments(1, 2L, 3.5, 4.5f, "abc", 'a', (short) 2, (byte) 1, true));

        MethodHandle join = lk.findStatic(MethodHandlesBasic.class, "join", methodType(String.class, String[].class));
        System.out.println(join.isVarargsCollector() + " " + join.invoke("a", "b", "c") + " " + join.invoke() + " " + join.invokeWithArguments("x", "y"));
        MethodHandle concat = lk.findVirtual(String.class, "concat", methodType(String.class, String.class));
        System.out.println((String) concat.asSpreader(String[].class, 2).invokeExact(new String[] {"p", "q"}));
        System.out.println((String) MethodHandles.permuteArguments(concat, methodType(String.class, String.class, String.class), 1, 0).invokeExact("first", "second"));
        MethodHandle up = lk.findVirtual(String.class, "toUpperCase", methodType(String.class));
        System.out.println((String) MethodHandles.filterReturnValue(concat, up).invokeExact("ab", "cd"));
        System.out.println((String) MethodHandles.filterArguments(concat, 1, up).invokeExact("ab", "cd"));
        System.out.println((int) MethodHandles.insertArguments(add, 0, 100).invokeExact(1));
        MethodHandle ev = lk.findStatic(MethodHandlesBasic.class, "even", methodType(String.class, int.class));
        MethodHandle od = lk.findStatic(MethodHandlesBasic.class, "odd", methodType(String.class, int.class));
        MethodHandle test = lk.findStatic(MethodHandlesBasic.class, "isEven", methodType(boolean.class, int.class));
        MethodHandle gwt = MethodHandles.guardWithTest(test, ev, od);
        System.out.println((String) gwt.invokeExact(4) + " " + (String) gwt.invokeExact(5));
        System.out.println((String) MethodHandles.dropArguments(ev, 0, String.class, long.class).invokeExact("z", 1L, 8));
        MethodHandle chk = lk.findStatic(MethodHandlesBasic.class, "check", methodType(int.class, int.class));
        MethodHandle rec = lk.findStatic(MethodHandlesBasic.class, "recover", methodType(int.class, IllegalArgumentException.class, int.class));
        MethodHandle safe = MethodHandles.catchException(chk, IllegalArgumentException.class, rec);
        System.out.println((int) safe.invokeExact(5) + " " + (int) safe.invokeExact(-5));
        System.out.println((String) MethodHandles.foldArguments(MethodHandles.dropArguments(ev, 1, int.class), MethodHandles.identity(int.class)).invokeExact(6));
        System.out.println((String) MethodHandles.collectArguments(ev, 0, chk).invokeExact(10));
        System.out.println((String) MethodHandles.constant(String.class, "const").invokeExact() + " " + (int) MethodHandles.identity(int.class).invokeExact(9));
        System.out.println((int) MethodHandles.arrayElementGetter(int[].class).invokeExact(new int[] {4, 5, 6}, 2)
                + " " + ((String[]) MethodHandles.arrayConstructor(String[].class).invokeExact(3)).length
                + " " + (int) MethodHandles.arrayLength(int[].class).invokeExact(new int[7]));
        MethodHandle sum = lk.findStatic(Integer.class, "sum", methodType(int.class, int.class, int.class));
        MethodHandle loop = MethodHandles.countedLoop(MethodHandles.constant(int.class, 5), MethodHandles.constant(int.class, 0), sum);
        System.out.println("loop " + loop.invoke());
        MethodHandle sw = MethodHandles.tableSwitch(
                MethodHandles.dropArguments(MethodHandles.constant(String.class, "default"), 0, int.class),
                MethodHandles.dropArguments(MethodHandles.constant(String.class, "zero"), 0, int.class),
                MethodHandles.dropArguments(MethodHandles.constant(String.class, "one"), 0, int.class));
        System.out.println((String) sw.invokeExact(1) + " " + (String) sw.invokeExact(7));
        MethodHandle ex = MethodHandles.exactInvoker(methodType(String.class, int.class));
        System.out.println((String) ex.invokeExact(ev, 3) + " " + MethodHandles.invoker(methodType(Object.class, Integer.class)).invoke(od, 3));
        MethodHandle asType = add.asType(methodType(Object.class, Object.class, Object.class));
        System.out.println(asType.type() + " " + asType.invokeExact((Object) 20, (Object) 22));

        MethodHandleInfo info = lk.revealDirect(ev);
        System.out.println(info.getName() + " " + info.getMethodType() + " " + MethodHandleInfo.referenceKindToString(info.getReferenceKind()));
        IntBinaryOperator op = MethodHandleProxies.asInterfaceInstance(IntBinaryOperator.class, add);
        System.out.println("proxy " + op.applyAsInt(20, 3));
        MethodHandleProxies.asInterfaceInstance(Runnable.class, lk.findStatic(MethodHandlesBasic.class, "hello", methodType(void.class))).run();

        MethodType mt = methodType(int.class, String.class, long[].class);
        System.out.println(mt + " " + mt.toMethodDescriptorString() + " " + mt.parameterCount() + " " + mt.wrap() + " " + mt.erase() + " " + mt.generic());
        System.out.println(MethodType.fromMethodDescriptorString("(ILjava/lang/Object;)V", null) + " " + (methodType(void.class) == methodType(void.class)));
        System.out.println(mt.changeReturnType(void.class).appendParameterTypes(int.class).dropParameterTypes(0, 1));

        try {
            add.invokeExact(1, 2);
        } catch (WrongMethodTypeException e) {
            System.out.println("WMTE " + e.getMessage());
        }
        try {
            String s = (String) ev.invoke("str");
        } catch (WrongMethodTypeException e) {
            System.out.println("WMTE " + e.getMessage());
        }
        try {
            Object r = ts.invoke((Object) null);
        } catch (NullPointerException e) {
            System.out.println("NPE from null receiver");
        }
        try {
            chk.invoke(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("thrown through: " + e.getMessage());
        }
        try {
            lk.findVirtual(String.class, "nope", methodType(void.class));
        } catch (NoSuchMethodException e) {
            System.out.println("NSME " + e.getMessage());
        }
        try {
            lk.findStatic(String.class, "length", methodType(int.class));
        } catch (IllegalAccessException e) {
            System.out.println("IAE " + e.getMessage());
        }
        try {
            lk.findGetter(MethodHandlesBasic.class, "nofield", int.class);
        } catch (NoSuchFieldException e) {
            System.out.println("NSFE " + e.getMessage());
        }
        try {
            MethodHandles.publicLookup().findVirtual(MethodHandlesBasic.class, "secret", methodType(String.class));
        } catch (IllegalAccessException e) {
            System.out.println("IAE private: " + e.getMessage());
        }
    }
}
