import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import jx.memory.Memory;
import jx.memory.ReadOnlyMemory;
import jx.memory.RevokedMemoryException;

/**
 * jx.memory on one domain: values round-trip little-endian, sub-ranges and read-only views
 * share memory, bounds and revocation are enforced with the API's exceptions, revocation races
 * safely with readers on several threads, and memory objects dropped by the program are
 * released by the collector. Each check prints "ok ..." or throws.
 */
public class MemoryObjects {
    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    static <T extends Throwable> String thrown(Class<T> type, Runnable r) {
        try {
            r.run();
        } catch (Throwable e) {
            if (type.isInstance(e)) return e.getClass().getSimpleName() + ": " + e.getMessage();
            throw new AssertionError("FAILED: expected " + type.getSimpleName() + ", got " + e, e);
        }
        throw new AssertionError("FAILED: expected " + type.getSimpleName() + ", nothing thrown");
    }

    public static void main(String[] args) throws Exception {
        Memory m = Memory.allocate(64);
        check(m.size() == 64 && m.isValid() && m.getLong(56) == 0, "allocate: 64 zeroed bytes");
        m.setInt(1, 0x11223344);
        check(m.getByte(1) == 0x44 && m.getByte(4) == 0x11 && m.getInt(1) == 0x11223344, "ints are little-endian and unaligned");
        m.setLong(8, Long.MIN_VALUE + 5);
        m.setShort(20, (short) -2);
        m.setDouble(24, Math.PI);
        m.setFloat(32, -1.5f);
        check(m.getLong(8) == Long.MIN_VALUE + 5 && m.getShort(20) == -2 && m.getDouble(24) == Math.PI && m.getFloat(32) == -1.5f,
            "long, short, double and float round-trip");
        byte[] bytes = {1, 2, 3, 4, 5};
        m.copyFrom(bytes, 1, 40, 3);
        byte[] out = new byte[6];
        m.copyTo(39, out, 1, 5);
        check(java.util.Arrays.toString(out).equals("[0, 0, 2, 3, 4, 0]"), "copyFrom and copyTo");

        Memory sub = m.subRange(8, 16);
        check(sub.size() == 16 && sub.getLong(0) == Long.MIN_VALUE + 5, "a sub-range sees the same memory");
        sub.setByte(15, (byte) 99);
        check(m.getByte(23) == 99, "writes through a sub-range are seen by the whole");
        ReadOnlyMemory ro = m.readOnly();
        check(!(ro instanceof Memory) && ro.getByte(23) == 99 && ro.subRange(20, 4).getShort(0) == -2, "read-only views read, cannot be cast to Memory");

        System.out.println(thrown(IndexOutOfBoundsException.class, () -> m.getLong(60)));
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> m.getByte(-1)));
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> sub.subRange(8, 9)));
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> m.copyTo(0, new byte[4], 2, 3)));
        System.out.println(thrown(NullPointerException.class, () -> m.copyFrom(null, 0, 0, 1)));
        System.out.println(thrown(IllegalArgumentException.class, () -> Memory.allocate(-1)));

        Memory again = m.revoke();
        check(!m.isValid() && !sub.isValid() && !ro.isValid() && again.isValid(), "revoke invalidates every derived view");
        System.out.println(thrown(RevokedMemoryException.class, () -> m.getByte(0)));
        System.out.println(thrown(RevokedMemoryException.class, () -> ro.getByte(0)));
        System.out.println(thrown(RevokedMemoryException.class, m::revoke));
        check(again.getByte(23) == 99, "the revoked range's data is kept for the new holder");
        check(m.toString().equals("Memory[size=64, revoked]") && again.toString().equals("Memory[size=64]"), "toString");

        racingRevocation();
        releasedByTheCollector();
    }

    /** Readers on four threads see the data or RevokedMemoryException, never anything else. */
    static void racingRevocation() throws Exception {
        for (int round = 0; round < 20; round++) {
            Memory m = Memory.allocate(4096);
            for (int i = 0; i < 4096; i += 8) m.setLong(i, 0x0123456789ABCDEFL);
            AtomicLong reads = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            List<Throwable> errors = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                ReadOnlyMemory view = m.subRange(r * 1024, 1024).readOnly();
                Thread t = new Thread(() -> {
                    try {
                        while (true) {
                            for (int i = 0; i < 1024; i += 8) {
                                if (view.getLong(i) != 0x0123456789ABCDEFL) throw new AssertionError("torn or garbage read");
                            }
                            reads.incrementAndGet();
                        }
                    } catch (RevokedMemoryException expected) {
                        // the end of this reader
                    } catch (Throwable e) {
                        synchronized (errors) { errors.add(e); }
                    }
                });
                t.start();
                readers.add(t);
            }
            Thread.sleep(2);
            m.revoke();
            for (Thread t : readers) t.join(10_000);
            if (!errors.isEmpty()) throw new AssertionError("FAILED: reader error", errors.get(0));
            for (Thread t : readers) if (t.isAlive()) throw new AssertionError("FAILED: a reader did not stop");
        }
        check(true, "revocation racing with 4 readers, 20 rounds");
    }

    /** 2,000 memory objects of 1 MB each, each dropped at once: the collector must release them. */
    static void releasedByTheCollector() {
        long sum = 0;
        for (int i = 0; i < 2000; i++) {
            Memory m = Memory.allocate(1 << 20);
            m.setLong((1 << 20) - 8, i);
            sum += m.getLong((1 << 20) - 8);
        }
        check(sum == 1999L * 2000 / 2, "2 GB of memory objects allocated and released");
    }
}
