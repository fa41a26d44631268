import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * sun.misc.Unsafe in a domain that is not trusted (issue 15): raw addresses reach only the
 * native memory the domain allocated, object offsets must fit the object's real layout, field
 * offsets only for fields reflection could open, allocateInstance only of the program's own
 * classes — so a hostile domain can neither read other memory nor crash the process — while
 * the usual uses (own fields, arrays, own native memory) and the JDK's own (direct buffers,
 * atomics) work. A trusted domain, and the launcher's, keep java's Unsafe. Each check prints
 * "ok [domain] ..." or throws.
 */
public class Confined {
    static String where;

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED [" + where + "]: " + what);
        System.out.println("ok [" + where + "] " + what);
    }

    interface Attempt {
        void run() throws Throwable;
    }

    static void refused(String what, Attempt a) {
        try {
            a.run();
        } catch (SecurityException e) {
            check(true, what);
            return;
        } catch (Throwable e) {
            throw new AssertionError("FAILED [" + where + "]: " + what + ": got " + e, e);
        }
        throw new AssertionError("FAILED [" + where + "]: " + what + ": nothing thrown");
    }

    static sun.misc.Unsafe unsafe() throws Exception {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
    }

    static class Box {
        int i = 7;
        long l = 8;
        Object o = "nine";
        static int s = 10;
    }

    static DomainSpec spec(String name) {
        return DomainSpec.named(name).classPath(System.getProperty("java.class.path"));
    }

    public static void main(String[] args) throws Exception {
        where = "launcher";
        sun.misc.Unsafe u = unsafe();
        check(u.objectFieldOffset(String.class.getDeclaredField("value")) > 0, "the launcher's domain keeps java's Unsafe");
        Domain untrusted = Domain.create(spec("untrusted").mainClass("Confined$Untrusted"));
        check(untrusted.awaitTermination(120_000), "the untrusted domain's checks ended");
        Domain trusted = Domain.create(spec("trusted").trusted(true).mainClass("Confined$Trusted", "trusted"));
        check(trusted.awaitTermination(120_000), "the trusted domain's checks ended");
        check(Domain.current().isAlive(), "the process is unharmed");
    }

    /** A trusted domain: java's Unsafe (arg: the name printed). */
    public static class Trusted {
        public static void main(String[] args) throws Exception {
            where = args[0];
            sun.misc.Unsafe u = unsafe();
            check(u.objectFieldOffset(String.class.getDeclaredField("value")) > 0, "Unsafe reaches the JDK's fields");
            check(true, "trusted done");
        }
    }

    /** Created trusted by an untrusted domain: still confined. */
    public static class StillConfined {
        public static void main(String[] args) throws Exception {
            where = "child";
            sun.misc.Unsafe u = unsafe();
            refused("a domain an untrusted one creates is never trusted", () -> u.objectFieldOffset(String.class.getDeclaredField("value")));
        }
    }

    public static class Untrusted {
        public static void main(String[] args) throws Exception {
            where = "untrusted";
            sun.misc.Unsafe u = unsafe();
            refused("a raw read of an address it did not allocate", () -> u.getLong(0x10000L));
            refused("a raw write to an address it did not allocate", () -> u.putLong(0x10000L, 1L));
            long block = u.allocateMemory(64);
            u.putLong(block + 56, 42L);
            check(u.getLong(block + 56) == 42L, "its own native memory reads and writes");
            refused("an access that crosses the end of its block", () -> u.getLong(block + 60));
            u.setMemory(block, 64, (byte) 1);
            check(u.getByte(block + 63) == 1, "setMemory inside its block");
            byte[] bytes = new byte[8];
            u.copyMemory(null, block, bytes, u.arrayBaseOffset(byte[].class), 8);
            check(bytes[7] == 1, "copyMemory from its block into an array");
            refused("copyMemory past the array's end", () -> u.copyMemory(null, block, bytes, u.arrayBaseOffset(byte[].class), 16));
            u.freeMemory(block);
            refused("its block after it was freed", () -> u.getLong(block));

            Box b = new Box();
            long i = u.objectFieldOffset(Box.class.getDeclaredField("i"));
            long l = u.objectFieldOffset(Box.class.getDeclaredField("l"));
            long o = u.objectFieldOffset(Box.class.getDeclaredField("o"));
            check(u.getInt(b, i) == 7 && u.getLong(b, l) == 8 && "nine".equals(u.getObject(b, o)), "its own fields read through their offsets");
            u.putObject(b, o, "ten");
            check(u.compareAndSwapInt(b, i, 7, 11) && b.i == 11 && b.o.equals("ten"), "and write, CAS included");
            refused("a long read of an int field", () -> u.getLong(b, i));
            refused("a reference read of a long field (a forged reference)", () -> u.getObject(b, l));
            refused("a long write over a reference field", () -> u.putLong(b, o, 0xdeadL));
            refused("a read of the object header", () -> u.getLong(b, 0L));
            refused("a read past the object", () -> u.getInt(b, 4096L));
            long s = u.staticFieldOffset(Box.class.getDeclaredField("s"));
            check(u.getInt(u.staticFieldBase(Box.class.getDeclaredField("s")), s) == 10, "its own static fields");

            int[] ints = {1, 2, 3};
            long ib = u.arrayBaseOffset(int[].class), is = u.arrayIndexScale(int[].class);
            check(u.getInt(ints, ib + 2 * is) == 3, "array elements");
            refused("an element past the array's end", () -> u.getInt(ints, ib + 3 * is));
            refused("a reference read of an int array", () -> u.getObject(ints, ib));
            Object[] objs = {"a"};
            refused("a primitive write over a reference element", () -> u.putLong(objs, u.arrayBaseOffset(Object[].class), 0xdeadL));
            check("a".equals(u.getObject(objs, u.arrayBaseOffset(Object[].class))), "reference elements");

            refused("the offset of a JDK class's private field", () -> u.objectFieldOffset(String.class.getDeclaredField("value")));
            refused("the trusted lookup's static field", () -> u.staticFieldOffset(MethodHandles.Lookup.class.getDeclaredField("IMPL_LOOKUP")));
            check(u.allocateInstance(Box.class) instanceof Box, "allocateInstance of its own class");
            refused("allocateInstance of a JDK class", () -> u.allocateInstance(Thread.class));

            ByteBuffer direct = ByteBuffer.allocateDirect(1024);
            direct.putLong(8, 99L);
            AtomicLong counter = new AtomicLong();
            ConcurrentHashMap<String, Long> map = new ConcurrentHashMap<>();
            for (int k = 0; k < 100; k++) map.merge("k" + (k % 10), counter.incrementAndGet(), Long::sum);
            check(direct.getLong(8) == 99L && counter.get() == 100 && map.size() == 10, "the JDK's own Unsafe uses work (direct buffers, atomics)");

            Domain child = Domain.create(spec("child").trusted(true).mainClass("Confined$StillConfined"));
            child.awaitTermination(60_000);
            check(true, "untrusted done");
        }
    }
}
