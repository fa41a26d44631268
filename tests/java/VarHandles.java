import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.invoke.WrongMethodTypeException;
import java.nio.ByteOrder;
import java.util.Arrays;

// VarHandle access modes on fields, statics and arrays of every type, with the type
// adaptation (boxing, widening) and errors of invoke semantics.
public class VarHandles {
    int i;
    long l;
    boolean z;
    byte b;
    short s;
    char c;
    float f;
    double d;
    String str = "init";
    Object obj;
    final int fin = 5;
    static int si = 3;
    static String ss = "static";

    public static void main(String[] args) throws Throwable {
        MethodHandles.Lookup lk = MethodHandles.lookup();
        VarHandles o = new VarHandles();

        VarHandle I = lk.findVarHandle(VarHandles.class, "i", int.class);
        I.set(o, 10);
        System.out.println("int get=" + (int) I.get(o) + " vol=" + (int) I.getVolatile(o) + " acq=" + (int) I.getAcquire(o) + " opq=" + (int) I.getOpaque(o));
        System.out.println("cas " + I.compareAndSet(o, 10, 11) + " " + I.compareAndSet(o, 10, 12) + " -> " + o.i);
        System.out.println("cae " + (int) I.compareAndExchange(o, 11, 20) + " " + (int) I.compareAndExchangeAcquire(o, 0, 1) + " " + (int) I.compareAndExchangeRelease(o, 20, 21));
        System.out.println("wcas " + I.weakCompareAndSetPlain(o, 21, 22) + I.weakCompareAndSet(o, 22, 23) + I.weakCompareAndSetAcquire(o, 23, 24) + I.weakCompareAndSetRelease(o, 24, 25));
        System.out.println("gas " + (int) I.getAndSet(o, 30) + " " + (int) I.getAndSetAcquire(o, 31) + " " + (int) I.getAndSetRelease(o, 32) + " " + o.i);
        System.out.println("gaa " + (int) I.getAndAdd(o, 5) + " " + (int) I.getAndAddAcquire(o, 5) + " " + (int) I.getAndAddRelease(o, 5) + " " + o.i);
        System.out.println("bits " + (int) I.getAndBitwiseOr(o, 0x100) + " " + (int) I.getAndBitwiseAnd(o, 0x10f) + " " + (int) I.getAndBitwiseXor(o, 0xff) + " " + o.i);
        I.setVolatile(o, 1); I.setRelease(o, 2); I.setOpaque(o, 3);
        System.out.println("after sets " + o.i);

        VarHandle L = lk.findVarHandle(VarHandles.class, "l", long.class);
        L.set(o, 1L << 40);
        L.set(o, (long) L.getAndAdd(o, 7L) + 1);
        System.out.println("long " + o.l + " " + (long) L.get(o));
        L.set(o, 5);  // int widened to long
        System.out.println("long widened " + o.l + " boxed get " + L.get(o));

        VarHandle Z = lk.findVarHandle(VarHandles.class, "z", boolean.class);
        System.out.println("bool " + Z.compareAndSet(o, false, true) + " " + o.z + " " + (boolean) Z.getAndBitwiseXor(o, true) + " " + o.z);
        VarHandle B = lk.findVarHandle(VarHandles.class, "b", byte.class);
        B.set(o, (byte) 127);
        System.out.println("byte " + (byte) B.getAndAdd(o, (byte) 1) + " " + o.b);
        VarHandle S = lk.findVarHandle(VarHandles.class, "s", short.class);
        S.set(o, (short) -5);
        System.out.println("short " + (short) S.getAndBitwiseAnd(o, (short) 0xff) + " " + o.s);
        VarHandle C = lk.findVarHandle(VarHandles.class, "c", char.class);
        C.set(o, 'x');
        System.out.println("char " + (char) C.getAndSet(o, 'y') + " " + o.c);
        VarHandle F = lk.findVarHandle(VarHandles.class, "f", float.class);
        F.set(o, 1.5f);
        System.out.println("float " + (float) F.getAndAdd(o, 2.25f) + " " + o.f + " " + F.compareAndSet(o, 3.75f, 0f));
        VarHandle D = lk.findVarHandle(VarHandles.class, "d", double.class);
        D.set(o, 2.5);
        System.out.println("double " + (double) D.getAndAdd(o, 1.0) + " " + o.d);

        VarHandle STR = lk.findVarHandle(VarHandles.class, "str", String.class);
        System.out.println("ref " + (String) STR.getAndSet(o, "a") + " " + STR.compareAndSet(o, "a", "b") + " " + (String) STR.compareAndExchange(o, "x", "y") + " " + o.str);
        VarHandle OBJ = lk.findVarHandle(VarHandles.class, "obj", Object.class);
        OBJ.set(o, 42);  // boxed
        System.out.println("obj " + o.obj + " " + o.obj.getClass().getSimpleName());

        VarHandle SI = lk.findStaticVarHandle(VarHandles.class, "si", int.class);
        System.out.println("static " + (int) SI.getAndAdd(4) + " " + si + " " + (int) SI.get());
        VarHandle SS = lk.findStaticVarHandle(VarHandles.class, "ss", String.class);
        System.out.println("static ref " + SS.compareAndSet("static", "changed") + " " + ss);

        VarHandle IA = MethodHandles.arrayElementVarHandle(int[].class);
        int[] ia = new int[4];
        IA.set(ia, 1, 10);
        System.out.println("int[] " + (int) IA.getAndAdd(ia, 1, 5) + " " + IA.compareAndSet(ia, 1, 15, 20) + " " + Arrays.toString(ia));
        VarHandle LA = MethodHandles.arrayElementVarHandle(long[].class);
        long[] la = {1, 2, 3};
        System.out.println("long[] " + (long) LA.getAndBitwiseOr(la, 2, 8L) + " " + Arrays.toString(la));
        VarHandle SA = MethodHandles.arrayElementVarHandle(String[].class);
        String[] sa = {"p", "q"};
        System.out.println("String[] " + (String) SA.getAndSet(sa, 0, "r") + " " + Arrays.toString(sa));
        try {
            IA.get(ia, 9);
        } catch (ArrayIndexOutOfBoundsException e) {
            System.out.println("AIOOBE " + e.getMessage());
        }
        try {
            Object[] oa = new Integer[1];
            VarHandle OA = MethodHandles.arrayElementVarHandle(Object[].class);
            OA.set(oa, 0, "not an integer");
        } catch (ArrayStoreException e) {
            System.out.println("ASE " + e.getMessage());
        }

        VarHandle BAV = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
        byte[] bytes = new byte[8];
        BAV.set(bytes, 4, 0x01020304);
        System.out.println("view " + Arrays.toString(bytes) + " " + (int) BAV.get(bytes, 4));
        VarHandle BAVL = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        System.out.println("view long " + Long.toHexString((long) BAVL.get(bytes, 0)));

        System.out.println("types " + I.varType().getSimpleName() + " " + I.coordinateTypes() + " " + IA.coordinateTypes());
        System.out.println("amt " + I.accessModeType(VarHandle.AccessMode.COMPARE_AND_SET) + " " + SI.accessModeType(VarHandle.AccessMode.GET_AND_ADD));
        System.out.println("supported " + I.isAccessModeSupported(VarHandle.AccessMode.GET_AND_ADD) + " " + STR.isAccessModeSupported(VarHandle.AccessMode.GET_AND_ADD));

        VarHandle FIN = lk.findVarHandle(VarHandles.class, "fin", int.class);
        System.out.println("final get " + (int) FIN.get(o));
        try {
            FIN.set(o, 6);
        } catch (UnsupportedOperationException e) {
            System.out.println("UOE on final set");
        }
        try {
            STR.getAndAdd(o, "x");
        } catch (UnsupportedOperationException e) {
            System.out.println("UOE on ref getAndAdd");
        }
        try {
            L.set(o, 1.5);
        } catch (WrongMethodTypeException e) {
            System.out.println("WMTE " + e.getMessage());
        }
        try {
            L.set(o, "str");
        } catch (WrongMethodTypeException e) {
            System.out.println("WMTE " + e.getMessage());
        }
        try {
            STR.set(o, (Object) Integer.valueOf(1));
        } catch (ClassCastException e) {
            System.out.println("CCE on ref set");
        }
        try {
            I.get((Object) "not a VarHandles");
        } catch (ClassCastException e) {
            System.out.println("CCE on receiver");
        }
        try {
            I.get((VarHandles) null);
        } catch (NullPointerException e) {
            System.out.println("NPE on null receiver");
        }

        MethodHandle getter = I.toMethodHandle(VarHandle.AccessMode.GET);
        System.out.println("toMethodHandle " + (int) getter.invokeExact(o) + " " + getter.type());
        MethodHandle inv = MethodHandles.varHandleInvoker(VarHandle.AccessMode.GET_AND_ADD, I.accessModeType(VarHandle.AccessMode.GET_AND_ADD));
        System.out.println("varHandleInvoker " + (int) inv.invokeExact(I, o, 100) + " " + o.i);

        VarHandle.fullFence();
        VarHandle.acquireFence();
        VarHandle.releaseFence();
        VarHandle.loadLoadFence();
        VarHandle.storeStoreFence();

        // Many threads incrementing through a VarHandle.
        Thread[] ts = new Thread[4];
        o.i = 0;
        for (int k = 0; k < ts.length; k++) {
            ts[k] = new Thread(() -> {
                for (int n = 0; n < 10000; n++) I.getAndAdd(o, 1);
            });
            ts[k].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("threads " + o.i);
    }
}
