import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.memory.Memory;
import jx.memory.ReadOnlyMemory;
import jx.memory.RevokedMemoryException;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * jxvm's domains tried as an attacker would (issue 15): every way to forge a capability —
 * deep reflection, method handles of any lookup, java.base's own setAccessible on our behalf,
 * sun.misc.Unsafe, hand-made bytecode, a class of our own named like an API class — is
 * refused, in the launcher's domain and in a created one, and revocation reaches views derived
 * through intermediates that were dropped and collected. Each check prints "ok [domain] ..."
 * or throws.
 */
public class Hostile {
    /** A service of the launcher's domain the attacker gets a portal to. */
    public interface Victim extends Portal {
        int secret();

        /** The attacker reports that all its checks passed. */
        void done(int checks);

        /** A read-only view of the victim's memory, derived through sub-ranges. */
        ReadOnlyMemory share();

        /** Revokes the memory behind every view `share` gave. */
        void revokeShared();
    }

    static volatile int attackerChecks;

    static final class VictimImpl implements Victim {
        public int secret() {
            return 42;
        }

        public void done(int checks) {
            attackerChecks = checks;
        }

        private Memory shared = Memory.allocate(64);

        public ReadOnlyMemory share() {
            shared.setInt(0, 77);
            return shared.subRange(0, 32).subRange(0, 16).readOnly();
        }

        public void revokeShared() {
            shared = shared.revoke();
        }
    }

    interface Attack {
        void run() throws Throwable;
    }

    static String where;

    static int checks;

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED [" + where + "]: " + what);
        System.out.println("ok [" + where + "] " + what);
        checks++;
    }

    /** Runs `a`, which must throw one of `types` (unwrapping reflection's wrapper). */
    @SafeVarargs
    static void refused(String what, Attack a, Class<? extends Throwable>... types) {
        Throwable got = null;
        try {
            a.run();
        } catch (InvocationTargetException e) {
            got = e.getCause();
        } catch (Throwable e) {
            got = e;
        }
        for (Class<? extends Throwable> t : types) {
            if (t.isInstance(got)) {
                check(true, what + " (" + got.getClass().getSimpleName() + ")");
                return;
            }
        }
        throw new AssertionError("FAILED [" + where + "]: " + what + ": got " + got, got);
    }

    static sun.misc.Unsafe unsafe() throws Exception {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
    }

    public static void main(String[] args) throws Exception {
        where = "launcher";
        Naming.register("victim", new VictimImpl());
        attacks(null);
        revocation();
        // An attacker in an untrusted domain (Unsafe confined) and in a trusted one (java's
        // Unsafe): neither forges a capability.
        for (String name : new String[] {"attacker", "trusted-attacker"}) {
            attackerChecks = 0;
            Domain child = Domain.create(DomainSpec.named(name)
                .classPath(System.getProperty("java.class.path"))
                .trusted(name.startsWith("trusted"))
                .mainClass("Hostile$Child", name));
            check(child.awaitTermination(120_000), "the " + name + " domain ended");
            check(attackerChecks > 0, "the " + name + " domain passed all its checks");
        }
        check(Domain.current().isAlive() && Domain.zero().isAlive(), "the launcher and DomainZero are unharmed");
        check(new VictimImpl().secret() == 42, "done");
    }

    public static class Child {
        public static void main(String[] args) throws Exception {
            where = args[0];
            Victim portal = Naming.lookup("victim", Victim.class);
            check(portal.secret() == 42 && Portal.isPortal(portal), "a portal to the victim works");
            attacks(portal);
            revocation();
            portal.done(checks);
        }
    }

    static void attacks(Victim portal) throws Exception {
        boolean confined = where.equals("attacker");
        Domain self = Domain.current();
        Field id = Domain.class.getDeclaredField("id");
        refused("setAccessible on Domain.id", () -> id.setAccessible(true), java.lang.reflect.InaccessibleObjectException.class);
        Constructor<Domain> ctor = Domain.class.getDeclaredConstructor(int.class, String.class);
        refused("setAccessible on Domain's constructor", () -> ctor.setAccessible(true), java.lang.reflect.InaccessibleObjectException.class);
        Class<?> stubBase = Class.forName("jx.portal.PortalStub");
        refused("setAccessible on PortalStub.service()", () -> stubBase.getDeclaredMethod("service").setAccessible(true),
            java.lang.reflect.InaccessibleObjectException.class);
        refused("privateLookupIn(Domain)", () -> MethodHandles.privateLookupIn(Domain.class, MethodHandles.lookup()),
            IllegalAccessException.class);

        sun.misc.Unsafe u = unsafe();
        refused("Unsafe.objectFieldOffset(Domain.id)", () -> u.objectFieldOffset(id), SecurityException.class);
        refused("Unsafe.getLong on a Domain handle", () -> u.getLong(self, 8L), SecurityException.class);
        Memory m = Memory.allocate(16);
        refused("Unsafe.putLong into a memory object", () -> u.putLong(m, 16L, 0xdeadL), SecurityException.class);
        refused("Unsafe.compareAndSwapLong on a memory object", () -> u.compareAndSwapLong(m, 16L, 0L, 1L), SecurityException.class);
        refused("Unsafe.getInt of an API class's statics", () -> u.getInt(Domain.class, 1L << 20), SecurityException.class);
        refused("Unsafe.allocateInstance(Domain)", () -> u.allocateInstance(Domain.class), SecurityException.class);
        refused("Unsafe.allocateInstance(Memory)", () -> u.allocateInstance(Memory.class), SecurityException.class);
        check(u.getInt(new int[] {7}, (long) u.arrayBaseOffset(int[].class)) == 7, "Unsafe still works on the program's own objects");

        // The JDK's trusted lookup, taken with Unsafe, still cannot reach the API's internals
        // (an untrusted domain cannot even take it).
        Field implField = MethodHandles.Lookup.class.getDeclaredField("IMPL_LOOKUP");
        if (confined) {
            refused("Unsafe cannot take the trusted lookup", () -> u.staticFieldBase(implField), SecurityException.class);
        } else {
            MethodHandles.Lookup impl = (MethodHandles.Lookup) u.getObject(u.staticFieldBase(implField), u.staticFieldOffset(implField));
            refused("IMPL_LOOKUP.findConstructor(Domain(int, String))",
                () -> impl.findConstructor(Domain.class, MethodType.methodType(void.class, int.class, String.class)), IllegalAccessException.class);
            refused("IMPL_LOOKUP.findVirtual(Domain.terminate0)",
                () -> impl.findVirtual(Domain.class, "terminate0", MethodType.methodType(void.class)), IllegalAccessException.class);
            refused("IMPL_LOOKUP.findGetter(Domain.id)", () -> impl.findGetter(Domain.class, "id", int.class), IllegalAccessException.class);
        }

        // java.base would make a private constructor accessible for serialization on anyone's
        // behalf; the module's encapsulation refuses that too.
        sun.reflect.ReflectionFactory rf = sun.reflect.ReflectionFactory.getReflectionFactory();
        refused("a serialization constructor from Domain's private one", () -> rf.newConstructorForSerialization(Domain.class, ctor),
            java.lang.reflect.InaccessibleObjectException.class);
        // An accessible private constructor after all: Unsafe sets `override` through a class of
        // the same layout as AccessibleObject (not in an untrusted domain). Calls past the
        // point where reflection generates bytecode accessors are refused too.
        long overrideOffset = u.objectFieldOffset(SameLayout.class.getDeclaredField("override"));
        if (confined) {
            refused("Unsafe cannot write a JDK object's private field", () -> u.putBoolean(ctor, overrideOffset, true), SecurityException.class);
        } else {
            u.putBoolean(ctor, overrideOffset, true);
            @SuppressWarnings("deprecation")
            boolean overridden = ctor.isAccessible();
            check(overridden, "Unsafe made Domain's private constructor accessible");
            for (int i = 0; i < 20; i++) {
                refused("... which still cannot be called (" + i + ")", () -> ctor.newInstance(0, "zero"),
                    IllegalAccessException.class, IllegalAccessError.class);
            }
        }
        Domain blank = (Domain) rf.newConstructorForSerialization(Domain.class, Object.class.getConstructor()).newInstance();
        refused("a Domain the VM did not make acts on nothing", blank::terminate, IllegalStateException.class);
        refused("... nor reads statistics", blank::stats, IllegalStateException.class);
        if (portal != null) {
            ReadOnlyMemory crossed = portal.share();
            check(crossed.getInt(0) == 77, "a view that crossed a portal reads the victim's memory");
            portal.revokeShared();
            refused("the victim's revoke reaches it", () -> crossed.getInt(0), RevokedMemoryException.class);
            refused("Unsafe.getLong on a portal", () -> u.getLong(portal, 8L), SecurityException.class);
            refused("Unsafe.allocateInstance of a portal class", () -> u.allocateInstance(portal.getClass()), SecurityException.class);
            refused("a serialization constructor of a portal class",
                () -> rf.newConstructorForSerialization(portal.getClass(), Object.class.getConstructor()).newInstance(),
                NoClassDefFoundError.class);
        }

        // Hand-made bytecode naming the API's private members.
        Class<?> forge = define(new Loader(), "Forge", forgeClass());
        refused("bytecode calling Domain's private constructor", () -> forge.getMethod("forge").invoke(null), IllegalAccessError.class);
        refused("bytecode calling a private static native of Domain", () -> forge.getMethod("zero").invoke(null), IllegalAccessError.class);
        refused("bytecode reading Domain.id", () -> forge.getMethod("peek", Object.class).invoke(null, self), IllegalAccessError.class);

        // A class of our own named like an API class gets none of the API's natives.
        Class<?> fake = define(new Loader(), "jx.memory.ReadOnlyMemory", fakeMemoryClass());
        Object f = fake.getConstructor().newInstance();
        fake.getField("p").setLong(f, 0x1000L);
        refused("a program's own jx.memory.ReadOnlyMemory has no natives", () -> fake.getMethod("getInt", long.class).invoke(f, 0L),
            UnsatisfiedLinkError.class);
        check(self.isAlive() && self.equals(Domain.current()), "the real handles still work");
    }

    /** Revocation reaches a view derived through many sub-ranges and read-only views that were
     * all dropped and collected before the revoke. */
    static void revocation() {
        Memory m = Memory.allocate(4096);
        m.setInt(0, 1234);
        ReadOnlyMemory v = m;
        for (int i = 0; i < 2000; i++) {
            v = (i % 3 == 0 && v instanceof Memory w) ? w.readOnly() : v.subRange(0, v.size() - 1);
        }
        List<byte[]> garbage = new ArrayList<>();
        for (int i = 0; i < 64; i++) garbage.add(new byte[1 << 16]);
        garbage.clear();
        System.gc();
        System.gc();
        check(v.getInt(0) == 1234, "a view 2000 derivations deep reads the owner's memory");
        Memory fresh = m.revoke();
        ReadOnlyMemory last = v;
        refused("it is revoked with the root after its intermediates were collected", () -> last.getInt(0), RevokedMemoryException.class);
        refused("... and cannot write", () -> ((Memory) last.subRange(0, 8)).setInt(0, 1), RevokedMemoryException.class,
            ClassCastException.class);
        check(fresh.getInt(0) == 1234, "the fresh reference keeps the data");
    }

    /** The fields of java.lang.reflect.AccessibleObject, in the same order. */
    static final class SameLayout {
        boolean override;
        volatile Object accessCheckCache;
    }

    static final class Loader extends ClassLoader {
        Class<?> define(String name, byte[] b) {
            return defineClass(name, b, 0, b.length);
        }
    }

    static Class<?> define(Loader l, String name, byte[] bytes) {
        return l.define(name, bytes);
    }

    /** Forge: forge() = new Domain(0, null); zero() = Domain.zero0(); peek(Object) = ((Domain) o).id. */
    static byte[] forgeClass() throws IOException {
        ClassFile cf = new ClassFile("Forge", "java/lang/Object");
        int domain = cf.cls("jx/domain/Domain");
        int init = cf.methodref("jx/domain/Domain", "<init>", "(ILjava/lang/String;)V");
        cf.method(0x9, "forge", "()Ljava/lang/Object;", 4, 0,
            0xbb, hi(domain), lo(domain), 0x59, 0x03, 0x01, 0xb7, hi(init), lo(init), 0xb0);
        int zero = cf.methodref("jx/domain/Domain", "zero0", "()Ljx/domain/Domain;");
        cf.method(0x9, "zero", "()Ljava/lang/Object;", 1, 0, 0xb8, hi(zero), lo(zero), 0xb0);
        int idField = cf.fieldref("jx/domain/Domain", "id", "I");
        cf.method(0x9, "peek", "(Ljava/lang/Object;)I", 1, 1, 0x2a, 0xc0, hi(domain), lo(domain), 0xb4, hi(idField), lo(idField), 0xac);
        return cf.bytes();
    }

    /** jx.memory.ReadOnlyMemory of our own: a public long p, public native int getInt(long). */
    static byte[] fakeMemoryClass() throws IOException {
        ClassFile cf = new ClassFile("jx/memory/ReadOnlyMemory", "java/lang/Object");
        cf.field(0x1, "p", "J");
        int objInit = cf.methodref("java/lang/Object", "<init>", "()V");
        cf.method(0x1, "<init>", "()V", 1, 1, 0x2a, 0xb7, hi(objInit), lo(objInit), 0xb1);
        cf.nativeMethod(0x101, "getInt", "(J)I");
        return cf.bytes();
    }

    static int hi(int i) {
        return i >> 8;
    }

    static int lo(int i) {
        return i & 0xff;
    }

    /** The smallest class-file writer that serves (version 49: no stack maps needed). */
    static final class ClassFile {
        final ByteArrayOutputStream pool = new ByteArrayOutputStream();
        final DataOutputStream cp = new DataOutputStream(pool);
        final Map<String, Integer> entries = new HashMap<>();
        final ByteArrayOutputStream members = new ByteArrayOutputStream();
        int count = 1;
        final int self;
        final int zuper;
        int fields;
        int methods;
        final ByteArrayOutputStream fieldBytes = new ByteArrayOutputStream();

        ClassFile(String name, String superName) throws IOException {
            self = cls(name);
            zuper = cls(superName);
        }

        interface Writer {
            void write() throws IOException;
        }

        int entry(String key, Writer w) throws IOException {
            Integer i = entries.get(key);
            if (i != null) return i;
            w.write();
            entries.put(key, count);
            return count++;
        }

        int utf8(String s) throws IOException {
            return entry("U" + s, () -> {
                cp.writeByte(1);
                cp.writeUTF(s);
            });
        }

        int cls(String n) throws IOException {
            int u = utf8(n);
            return entry("C" + n, () -> {
                cp.writeByte(7);
                cp.writeShort(u);
            });
        }

        int nameAndType(String n, String d) throws IOException {
            int a = utf8(n), b = utf8(d);
            return entry("N" + n + " " + d, () -> {
                cp.writeByte(12);
                cp.writeShort(a);
                cp.writeShort(b);
            });
        }

        int ref(int tag, String owner, String n, String d) throws IOException {
            int c = cls(owner), nt = nameAndType(n, d);
            return entry(tag + owner + "." + n + d, () -> {
                cp.writeByte(tag);
                cp.writeShort(c);
                cp.writeShort(nt);
            });
        }

        int methodref(String owner, String n, String d) throws IOException {
            return ref(10, owner, n, d);
        }

        int fieldref(String owner, String n, String d) throws IOException {
            return ref(9, owner, n, d);
        }

        /** Writes a field or method header (access, name, descriptor, attribute count). */
        DataOutputStream member(ByteArrayOutputStream to, int access, String n, String d, int attributes) throws IOException {
            DataOutputStream o = new DataOutputStream(to);
            o.writeShort(access);
            o.writeShort(utf8(n));
            o.writeShort(utf8(d));
            o.writeShort(attributes);
            return o;
        }

        void field(int access, String n, String d) throws IOException {
            member(fieldBytes, access, n, d, 0);
            fields++;
        }

        void method(int access, String n, String d, int maxStack, int maxLocals, int... code) throws IOException {
            DataOutputStream o = member(members, access, n, d, 1);
            o.writeShort(utf8("Code"));
            o.writeInt(12 + code.length);
            o.writeShort(maxStack);
            o.writeShort(maxLocals);
            o.writeInt(code.length);
            for (int b : code) o.writeByte(b);
            o.writeShort(0);
            o.writeShort(0);
            methods++;
        }

        void nativeMethod(int access, String n, String d) throws IOException {
            member(members, access, n, d, 0);
            methods++;
        }

        byte[] bytes() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            DataOutputStream o = new DataOutputStream(out);
            o.writeInt(0xCAFEBABE);
            o.writeShort(0);
            o.writeShort(49);
            o.writeShort(count);
            pool.writeTo(o);
            o.writeShort(0x21);
            o.writeShort(self);
            o.writeShort(zuper);
            o.writeShort(0);
            o.writeShort(fields);
            fieldBytes.writeTo(o);
            o.writeShort(methods);
            members.writeTo(o);
            o.writeShort(0);
            return out.toByteArray();
        }
    }
}
