// JVMFLAGS: -Xmx64m
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Old objects that come to hold the only reference to a young object, through every way Java
 * code can store a reference: after enough allocation to run several young collections the
 * young objects must still be there, intact. A store that skipped the write barrier leaves a
 * pointer into the recycled nursery, and the checks below see garbage.
 */
public class GcWriteBarrier {
    static final class Val {
        final int id;
        final String name;
        Val(int id) { this.id = id; this.name = "v" + id; }
        boolean ok(int want) { return id == want && name.equals("v" + want); }
    }

    static final class Holder {
        Val plain;
        volatile Val vol;
        Object any;
    }

    static Val staticVal;
    static volatile Val staticVol;
    static Object sink;

    static final VarHandle PLAIN;
    static final VarHandle VOL;
    static {
        try {
            PLAIN = MethodHandles.lookup().findVarHandle(Holder.class, "plain", Val.class);
            VOL = MethodHandles.lookup().findVarHandle(Holder.class, "vol", Val.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Allocates `mb` megabytes of short-lived garbage (many nurseries' worth). */
    static void churn(int mb) {
        for (int i = 0; i < mb * 16; i++) sink = new byte[64 * 1024 - 32];
        for (int i = 0; i < mb * 1024; i++) sink = new Object[100];
        sink = null;
    }

    static int failures;

    static void check(String what, Object o, int want) {
        if (!(o instanceof Val v) || !v.ok(want)) {
            failures++;
            System.out.println("FAIL " + what);
        }
    }

    public static void main(String[] args) throws Throwable {
        Holder h = new Holder();
        Holder viaVarHandle = new Holder();
        Holder viaReflection = new Holder();
        Holder viaMethodHandle = new Holder();
        Object[] small = new Object[16];
        Object[] big = new Object[100_000];
        Object[] copyTarget = new Object[8];
        AtomicReference<Val> atomic = new AtomicReference<>();
        AtomicReference<Val> atomicCas = new AtomicReference<>(null);
        AtomicReference<Val> atomicSwap = new AtomicReference<>();
        AtomicReferenceArray<Val> atomicArray = new AtomicReferenceArray<>(8);
        Object[] reflectArray = new Object[4];
        Map<Integer, Val> hashMap = new HashMap<>();
        Map<Integer, Val> concurrentMap = new ConcurrentHashMap<>();
        List<Val> list = new ArrayList<>();
        LinkedList<Val> linked = new LinkedList<>();
        Field plainField = Holder.class.getDeclaredField("plain");
        Field staticField = GcWriteBarrier.class.getDeclaredField("staticVal");
        MethodHandle setter = MethodHandles.lookup().findSetter(Holder.class, "any", Object.class);

        churn(64); // everything above is old now

        for (int round = 0; round < 3; round++) {
            int b = round * 1000;
            h.plain = new Val(b + 1);
            h.vol = new Val(b + 2);
            h.any = new Val[] {new Val(b + 3)};
            staticVal = new Val(b + 4);
            staticVol = new Val(b + 5);
            small[round] = new Val(b + 6);
            big[50_000 + round] = new Val(b + 7);
            Object[] young = {new Val(b + 8), new Val(b + 9)};
            System.arraycopy(young, 0, copyTarget, 2 * round, 2);
            young = null;
            atomic.set(new Val(b + 10));
            atomicCas.compareAndSet(atomicCas.get(), new Val(b + 11));
            atomicSwap.getAndSet(new Val(b + 12));
            atomicArray.set(round, new Val(b + 13));
            atomicArray.compareAndSet(round + 4, atomicArray.get(round + 4), new Val(b + 14));
            PLAIN.set(viaVarHandle, new Val(b + 15));
            VOL.setVolatile(viaVarHandle, new Val(b + 16));
            VOL.compareAndSet(viaVarHandle, viaVarHandle.vol, new Val(b + 17));
            plainField.set(viaReflection, new Val(b + 18));
            staticField.set(null, new Val(b + 19));
            setter.invokeExact(viaMethodHandle, (Object) new Val(b + 20));
            Array.set(reflectArray, round, new Val(b + 21));
            hashMap.put(round, new Val(b + 22));
            concurrentMap.put(round, new Val(b + 23));
            list.add(new Val(b + 24));
            linked.addFirst(new Val(b + 25));
            Object[] bigCopy = big.clone(); // a new large object holding young references
            Object[] grown = java.util.Arrays.copyOf(small, 40_000); // large, filled by arraycopy

            churn(48);

            check("putfield", h.plain, b + 1);
            check("volatile putfield", h.vol, b + 2);
            check("putfield of a young array", ((Val[]) h.any)[0], b + 3);
            check("static Field.set", staticVal, b + 19);
            check("volatile putstatic", staticVol, b + 5);
            check("aastore", small[round], b + 6);
            check("aastore into a large array", big[50_000 + round], b + 7);
            check("System.arraycopy", copyTarget[2 * round], b + 8);
            check("System.arraycopy", copyTarget[2 * round + 1], b + 9);
            check("AtomicReference.set", atomic.get(), b + 10);
            check("AtomicReference.compareAndSet", atomicCas.get(), b + 11);
            check("AtomicReference.getAndSet", atomicSwap.get(), b + 12);
            check("AtomicReferenceArray.set", atomicArray.get(round), b + 13);
            check("AtomicReferenceArray.compareAndSet", atomicArray.get(round + 4), b + 14);
            check("VarHandle.set", viaVarHandle.plain, b + 15);
            check("VarHandle.compareAndSet", viaVarHandle.vol, b + 17);
            check("Field.set", viaReflection.plain, b + 18);
            check("MethodHandle setter", viaMethodHandle.any, b + 20);
            check("Array.set", reflectArray[round], b + 21);
            check("HashMap.put", hashMap.get(round), b + 22);
            check("ConcurrentHashMap.put", concurrentMap.get(round), b + 23);
            check("ArrayList.add", list.get(round), b + 24);
            check("LinkedList.addFirst", linked.getFirst(), b + 25);
            check("clone of a large array", bigCopy[50_000 + round], b + 7);
            check("Arrays.copyOf into a large array", grown[round], b + 6);
            System.out.println("round " + round + ": " + (failures == 0 ? "all references intact" : failures + " failures"));
        }
        int total = 0;
        for (Val v : list) total += v.id;
        for (Val v : linked) total += v.id;
        System.out.println("lists sum " + total + ", maps " + hashMap.size() + "/" + concurrentMap.size());
    }
}
