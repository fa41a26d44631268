import java.nio.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * The JDK's Unsafe accessors in hot code, which compiled code emits inline (plain, volatile,
 * compare-and-set and compare-and-exchange): atomics, atomic arrays and field updaters,
 * direct and heap buffers of every type in both byte orders, a concurrent map, and a
 * reference stored through Unsafe into an old object, kept across collections.
 */
public class JitUnsafe {
    static class Box { volatile long n; volatile Object ref; volatile int flag; }
    static final AtomicLongFieldUpdater<Box> N = AtomicLongFieldUpdater.newUpdater(Box.class, "n");
    static final AtomicReferenceFieldUpdater<Box, Object> REF =
            AtomicReferenceFieldUpdater.newUpdater(Box.class, Object.class, "ref");

    static long atomics(int n) {
        AtomicInteger ai = new AtomicInteger();
        AtomicLong al = new AtomicLong(5);
        AtomicBoolean ab = new AtomicBoolean();
        AtomicReference<String> ar = new AtomicReference<>("a");
        AtomicIntegerArray arr = new AtomicIntegerArray(16);
        Box box = new Box();
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += ai.incrementAndGet() + al.addAndGet(i) + (ai.compareAndSet(i, i * 2) ? 1 : 0);
            s += al.compareAndExchange(al.get(), i) & 0xff;
            if (ab.compareAndSet(i % 2 == 0, i % 2 != 0)) s++;
            String old = ar.getAndSet(i % 3 == 0 ? "x" + (i & 7) : "y");
            s += old.length();
            arr.getAndAdd(i & 15, i);
            s += arr.get((i * 7) & 15);
            N.getAndIncrement(box);
            if (REF.compareAndSet(box, box.ref, new int[i & 3])) s += ((int[]) box.ref).length;
        }
        return s + box.n + ai.get() + al.get() + ar.get().length();
    }

    static long buffers(ByteBuffer b, int n) {
        long s = 0;
        int cap = b.capacity() - 8;
        for (int i = 0; i < n; i++) {
            int at = (i * 13) % cap;
            switch (i % 7) {
                case 0 -> b.put(at, (byte) i);
                case 1 -> b.putShort(at, (short) (i * 3));
                case 2 -> b.putChar(at, (char) (i * 5));
                case 3 -> b.putInt(at, i * 7);
                case 4 -> b.putLong(at, i * 0x1_0000_0001L);
                case 5 -> b.putFloat(at, i * 0.5f);
                default -> b.putDouble(at, i * 0.25);
            }
            s += b.get(at) + b.getShort(at) + b.getChar(at) + b.getInt(at) + b.getLong(at)
                    + (long) b.getFloat(at) + (long) b.getDouble(at);
        }
        return s;
    }

    static long maps(int n) {
        ConcurrentHashMap<Integer, Integer> m = new ConcurrentHashMap<>();
        for (int i = 0; i < n; i++) m.merge(i % 1000, 1, Integer::sum);
        long s = 0;
        for (var e : m.entrySet()) s += e.getKey() * e.getValue();
        return s;
    }

    static long references(int n) {
        Box[] boxes = new Box[64];
        for (int i = 0; i < boxes.length; i++) boxes[i] = new Box();
        System.gc(); // the boxes are old now
        long s = 0;
        for (int i = 0; i < n; i++) {
            Box b = boxes[i & 63];
            REF.set(b, "v" + i);                      // a young string into an old box
            if (i % 5000 == 0) { byte[][] junk = new byte[200][]; for (int k = 0; k < 200; k++) junk[k] = new byte[1000]; }
            s += ((String) REF.get(boxes[(i + 7) & 63]) == null ? 0 : 1);
        }
        for (Box b : boxes) s += ((String) b.ref).length();
        return s;
    }

    public static void main(String[] args) {
        for (int r = 0; r < 4; r++) {
            System.out.println("atomics " + atomics(50000));
            System.out.println("direct " + buffers(ByteBuffer.allocateDirect(4096), 60000)
                    + " little " + buffers(ByteBuffer.allocateDirect(4096).order(ByteOrder.LITTLE_ENDIAN), 60000)
                    + " heap " + buffers(ByteBuffer.allocate(4096), 60000));
            System.out.println("maps " + maps(100000) + " references " + references(100000));
        }
    }
}
