import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.invoke.WrongMethodTypeException;
import java.nio.ByteOrder;

/**
 * VarHandles with invoke-exact behavior (`withInvokeExactBehavior`, as the JDK's digests use
 * for byte-array views): calls whose symbolic type is exactly the access mode type work on
 * fields, arrays and byte-array views; any other type (widened, boxed, a wider reference
 * or return type) throws WrongMethodTypeException where the plain handle would adapt it.
 */
public class VarHandlesExact {
    int i;
    long l;
    String s;

    static final VarHandle I;
    static final VarHandle S;
    static final VarHandle ARR = MethodHandles.arrayElementVarHandle(int[].class).withInvokeExactBehavior();
    static final VarHandle LE_INTS =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN).withInvokeExactBehavior();
    static final VarHandle BE_LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN).withInvokeExactBehavior();

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            I = l.findVarHandle(VarHandlesExact.class, "i", int.class).withInvokeExactBehavior();
            S = l.findVarHandle(VarHandlesExact.class, "s", String.class).withInvokeExactBehavior();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    interface Call {
        void run() throws Throwable;
    }

    static void expectWrongType(String what, Call c) {
        try {
            c.run();
            System.out.println(what + ": no exception");
        } catch (WrongMethodTypeException e) {
            System.out.println(what + ": WrongMethodTypeException");
        } catch (Throwable t) {
            System.out.println(what + ": " + t.getClass().getName());
        }
    }

    public static void main(String[] args) throws Throwable {
        VarHandlesExact o = new VarHandlesExact();
        System.out.println("exact " + I.hasInvokeExactBehavior() + " " + I.withInvokeBehavior().hasInvokeExactBehavior());

        I.set(o, 5);
        int v = (int) I.get(o);
        boolean cas = (boolean) I.compareAndSet(o, 5, 7);
        int old = (int) I.getAndAdd(o, 3);
        System.out.println("field " + v + " " + cas + " " + old + " " + o.i);
        S.set(o, "a");
        String sv = (String) S.getAndSet(o, "b");
        System.out.println("ref field " + sv + " " + o.s);

        int[] a = new int[4];
        ARR.set(a, 2, 42);
        System.out.println("array " + (int) ARR.get(a, 2) + " " + (int) ARR.getAndAdd(a, 2, 1) + " " + a[2]);

        byte[] b = new byte[16];
        LE_INTS.set(b, 4, 0x01020304);
        BE_LONGS.set(b, 8, 0x1122334455667788L);
        int sum = 0;
        for (int k = 0; k < 1000; k++) {
            sum += (int) LE_INTS.get(b, 4);
        }
        System.out.println("views " + b[4] + " " + b[7] + " " + b[8] + " " + b[15] + " " + (long) BE_LONGS.get(b, 8) + " " + sum);

        expectWrongType("boxed value", () -> I.set(o, Integer.valueOf(1)));
        expectWrongType("widened result", () -> { long x = (long) I.get(o); });
        expectWrongType("discarded result", () -> I.get(o));
        expectWrongType("object receiver", () -> I.set((Object) o, 1));
        expectWrongType("object result", () -> { Object x = (Object) S.get(o); });
        expectWrongType("object value", () -> S.set(o, (Object) "c"));
        expectWrongType("byte index", () -> { int x = (int) LE_INTS.get(b, (byte) 0); });
        expectWrongType("array as object", () -> { int x = (int) ARR.get((Object) a, 0); });
        System.out.println("after " + o.i + " " + o.s + " " + a[0]);

        // The same call sites through handles without exact behavior adapt the types.
        VarHandle loose = I.withInvokeBehavior();
        loose.set(o, Integer.valueOf(9));
        long wide = (long) loose.get(o);
        System.out.println("loose " + wide);
    }
}
