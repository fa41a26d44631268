import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.Map;

/**
 * Bytecode that names what the JDK's modules keep to themselves: a class of a package its
 * module does not export (jdk.internal.misc.Unsafe), a private field of a JDK class
 * (MethodHandles.Lookup.IMPL_LOOKUP). javac refuses to compile such code, so the classes are
 * written here byte by byte (version 49: no stack maps) and defined by a class loader; each
 * call prints what it returned or the class of what it threw.
 */
public class ModuleAccessBytecode {
    public static void main(String[] args) throws Exception {
        ClassFile cf = new ClassFile("Probe", "java/lang/Object");
        int internal = cf.methodref("jdk/internal/misc/Unsafe", "getUnsafe", "()Ljdk/internal/misc/Unsafe;");
        cf.method("internalUnsafe", "()Ljava/lang/Object;", 1, 0, 0xb8, hi(internal), lo(internal), 0xb0);
        int unsupported = cf.methodref("sun/misc/Unsafe", "getUnsafe", "()Lsun/misc/Unsafe;");
        cf.method("unsupportedUnsafe", "()Ljava/lang/Object;", 1, 0, 0xb8, hi(unsupported), lo(unsupported), 0xb0);
        int impl = cf.fieldref("java/lang/invoke/MethodHandles$Lookup", "IMPL_LOOKUP", "Ljava/lang/invoke/MethodHandles$Lookup;");
        cf.method("trustedLookup", "()Ljava/lang/Object;", 1, 0, 0xb2, hi(impl), lo(impl), 0xb0);
        int cls = cf.cls("jdk/internal/misc/VM");
        cf.method("internalClassLiteral", "()Ljava/lang/Object;", 1, 0, 0x13, hi(cls), lo(cls), 0xb0);
        int valueOf = cf.methodref("java/lang/String", "valueOf", "(I)Ljava/lang/String;");
        cf.method("exported", "()Ljava/lang/Object;", 1, 0, 0x10, 42, 0xb8, hi(valueOf), lo(valueOf), 0xb0);
        byte[] bytes = cf.bytes();
        Class<?> probe = new ClassLoader() {
            Class<?> define() {
                return defineClass("Probe", bytes, 0, bytes.length);
            }
        }.define();
        // A class of our own that would pass for one of reflection's generated accessors.
        byte[] sneaky = new ClassFile("Sneaky", "jdk/internal/reflect/MagicAccessorImpl").bytes();
        try {
            new ClassLoader() {
                Class<?> define() {
                    return defineClass("Sneaky", sneaky, 0, sneaky.length);
                }
            }.define();
            System.out.println("Sneaky: defined");
        } catch (Throwable e) {
            System.out.println("Sneaky: " + e.getClass().getName());
        }
        for (String m : new String[] {"exported", "internalUnsafe", "unsupportedUnsafe", "trustedLookup", "internalClassLiteral", "exported"}) {
            try {
                Object r = probe.getMethod(m).invoke(null);
                System.out.println(m + ": returned " + (r instanceof String ? r : r == null ? "null" : "an object"));
            } catch (InvocationTargetException e) {
                System.out.println(m + ": " + e.getCause().getClass().getName());
            }
        }
    }

    static int hi(int i) {
        return i >> 8;
    }

    static int lo(int i) {
        return i & 0xff;
    }

    /** The smallest class-file writer that serves (public static methods only). */
    static final class ClassFile {
        final ByteArrayOutputStream pool = new ByteArrayOutputStream();
        final DataOutputStream cp = new DataOutputStream(pool);
        final Map<String, Integer> entries = new HashMap<>();
        final ByteArrayOutputStream methodBytes = new ByteArrayOutputStream();
        int count = 1;
        int methods;
        final int self;
        final int zuper;

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

        int ref(int tag, String owner, String n, String d) throws IOException {
            int c = cls(owner), a = utf8(n), b = utf8(d);
            int nt = entry("N" + n + " " + d, () -> {
                cp.writeByte(12);
                cp.writeShort(a);
                cp.writeShort(b);
            });
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

        void method(String n, String d, int maxStack, int maxLocals, int... code) throws IOException {
            DataOutputStream o = new DataOutputStream(methodBytes);
            o.writeShort(0x9);
            o.writeShort(utf8(n));
            o.writeShort(utf8(d));
            o.writeShort(1);
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
            o.writeShort(0);
            o.writeShort(methods);
            methodBytes.writeTo(o);
            o.writeShort(0);
            return out.toByteArray();
        }
    }
}
