import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serial;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Java serialization end to end: object graphs with cycles and shared references,
 * writeObject/readObject hooks with extra data, writeReplace/readResolve (singletons),
 * Externalizable, serialPersistentFields, enums, records (through their canonical
 * constructor), arrays of primitives and objects, transient fields, inheritance from a
 * non-serializable superclass, JDK value classes and collections, validation callbacks and
 * the exceptions: NotSerializableException, InvalidClassException for a changed
 * serialVersionUID (stream bytes patched), InvalidObjectException from a record's constructor.
 */
public class SerializationRoundTrip {
    static class Node implements Serializable {
        @Serial private static final long serialVersionUID = 1L;
        final String name;
        final List<Node> edges = new ArrayList<>();
        Node parent;
        transient int visits = 99;
        Node(String name) { this.name = name; }
        @Override public String toString() { return name + "->" + edges.stream().map(n -> n.name).toList(); }
    }

    /** Writes a derived value instead of its cache, recomputes the cache on read. */
    static class Account implements Serializable {
        @Serial private static final long serialVersionUID = 7L;
        String owner;
        transient long cents;
        transient String cache;
        Account(String owner, long cents) { this.owner = owner; this.cents = cents; this.cache = "cached"; }
        @Serial private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeLong(cents * 3);
            out.writeUTF("checksum:" + owner.length());
        }
        @Serial private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            cents = in.readLong() / 3;
            cache = "rebuilt from " + in.readUTF();
        }
    }

    static final class Singleton implements Serializable {
        static final Singleton INSTANCE = new Singleton();
        private Singleton() { }
        @Serial private Object readResolve() { return INSTANCE; }
    }

    static class Ext implements Externalizable {
        int a;
        String b;
        public Ext() { b = "from no-arg ctor"; }
        Ext(int a, String b) { this.a = a; this.b = b; }
        public void writeExternal(ObjectOutput out) throws IOException { out.writeInt(a); out.writeObject(b.toUpperCase()); }
        public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException { a = in.readInt() + 1; b = (String) in.readObject(); }
    }

    static class Legacy implements Serializable {
        @Serial private static final ObjectStreamField[] serialPersistentFields = { new ObjectStreamField("total", int.class), new ObjectStreamField("label", String.class) };
        int x, y;
        Legacy(int x, int y) { this.x = x; this.y = y; }
        @Serial private void writeObject(ObjectOutputStream out) throws IOException {
            ObjectOutputStream.PutField f = out.putFields();
            f.put("total", x + y);
            f.put("label", "sum");
            out.writeFields();
        }
        @Serial private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            ObjectInputStream.GetField f = in.readFields();
            x = f.get("total", -1);
            y = -x;
            System.out.println("  Legacy label=" + f.get("label", null) + " defaulted(total)=" + f.defaulted("total"));
            try {
                f.get("missing", 42);
            } catch (IllegalArgumentException e) {
                System.out.println("  Legacy missing field: " + e.getMessage());
            }
        }
    }

    static class Base {
        int baseValue = 5;
        Base() { baseValue = 11; }
    }

    static class Child extends Base implements Serializable {
        int childValue;
        Child(int v) { childValue = v; baseValue = v * 100; }
    }

    enum Color { RED, GREEN { @Override public String toString() { return "green!"; } }, BLUE }

    record Point(int x, int y) implements Serializable {
        Point {
            if (x < 0) throw new IllegalArgumentException("negative x");
        }
    }

    record Shape(String name, Point[] corners, Color color) implements Serializable { }

    static class Validated implements Serializable, ObjectInputValidation {
        int value;
        Validated(int v) { value = v; }
        @Serial private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            in.registerValidation(this, 0);
        }
        public void validateObject() throws InvalidObjectException {
            if (value < 0) throw new InvalidObjectException("value must be >= 0, was " + value);
            System.out.println("  validated " + value);
        }
    }

    interface Greeting {
        String greet(String who);
    }

    static class Echo implements java.lang.reflect.InvocationHandler, Serializable {
        final String prefix;
        Echo(String prefix) { this.prefix = prefix; }
        public Object invoke(Object proxy, java.lang.reflect.Method m, Object[] args) {
            return m.getName().equals("greet") ? prefix + " " + args[0] : null;
        }
    }

    static class NotSer {
        int v = 1;
    }

    static class Holder implements Serializable {
        Object payload;
        Holder(Object p) { payload = p; }
    }

    static byte[] write(Object... objs) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            for (Object o : objs) out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    static Object[] read(byte[] data, int n) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data))) {
            Object[] r = new Object[n];
            for (int i = 0; i < n; i++) r[i] = in.readObject();
            return r;
        }
    }

    static Object roundTrip(Object o) throws IOException, ClassNotFoundException {
        return read(write(o), 1)[0];
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        // A graph with a cycle and a shared node.
        Node a = new Node("a"), b = new Node("b"), c = new Node("c");
        a.edges.add(b); a.edges.add(c); b.edges.add(c); c.edges.add(a);
        b.parent = a; c.parent = a;
        Node a2 = (Node) roundTrip(a);
        Node b2 = a2.edges.get(0), c2 = a2.edges.get(1);
        System.out.println("graph: " + a2 + " " + b2 + " " + c2 + " cycle kept=" + (c2.edges.get(0) == a2) + " shared kept=" + (b2.edges.get(0) == c2)
            + " parent=" + (b2.parent == a2) + " transient=" + a2.visits + " new objects=" + (a2 != a));

        // Two writes of the same object in one stream are one object; writeUnshared and reset differ.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> shared = new ArrayList<>(List.of("x"));
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(shared);
            shared.add("y");
            out.writeObject(shared);
            out.reset();
            out.writeObject(shared);
            out.writeUnshared(shared);
            out.writeInt(77);
            out.writeUTF("tail");
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Object first = in.readObject(), second = in.readObject(), third = in.readObject(), fourth = in.readUnshared();
            System.out.println("handles: " + first + " " + second + " same=" + (first == second) + " after reset=" + third + " same=" + (third == first)
                + " unshared=" + fourth + " same=" + (fourth == third) + " int=" + in.readInt() + " utf=" + in.readUTF());
        }

        Account acct = (Account) roundTrip(new Account("zoe", 1234));
        System.out.println("custom hooks: owner=" + acct.owner + " cents=" + acct.cents + " cache=" + acct.cache);
        System.out.println("readResolve singleton: " + (roundTrip(Singleton.INSTANCE) == Singleton.INSTANCE));
        Ext ext = (Ext) roundTrip(new Ext(41, "value"));
        System.out.println("externalizable: a=" + ext.a + " b=" + ext.b);
        Legacy legacy = (Legacy) roundTrip(new Legacy(3, 4));
        System.out.println("serialPersistentFields: x=" + legacy.x + " y=" + legacy.y);
        Child child = (Child) roundTrip(new Child(7));
        System.out.println("non-serializable superclass: child=" + child.childValue + " base re-run ctor=" + child.baseValue);

        Object[] enums = read(write(Color.RED, Color.GREEN, EnumMap.class.getName()), 3);
        System.out.println("enums: " + enums[0] + " " + enums[1] + " identity=" + (enums[0] == Color.RED && enums[1] == Color.GREEN) + " class=" + enums[1].getClass().isAnonymousClass());
        Shape shape = new Shape("tri", new Point[] {new Point(0, 0), new Point(4, 0), new Point(0, 3)}, Color.BLUE);
        Shape shape2 = (Shape) roundTrip(shape);
        System.out.println("record: " + shape2.name() + " " + Arrays.toString(shape2.corners()) + " " + shape2.color() + " equal corner=" + shape2.corners()[1].equals(new Point(4, 0)));

        int[][] grid = {{1, 2}, {3}, {}};
        Object[] mixed = {1, 2L, 3.0f, 'c', "s", null, new boolean[] {true, false}, grid, grid};
        Object[] mixed2 = (Object[]) roundTrip(mixed);
        System.out.println("arrays: " + Arrays.deepToString(mixed2) + " shared inner=" + (mixed2[7] == mixed2[8]) + " types="
            + Arrays.stream(mixed2).map(o -> o == null ? "null" : o.getClass().getSimpleName()).toList());
        long[] longs = new long[1000];
        for (int i = 0; i < longs.length; i++) longs[i] = (long) i * i * 31;
        long[] longs2 = (long[]) roundTrip(longs);
        System.out.println("long[1000] equal=" + Arrays.equals(longs, longs2) + " serialized size=" + write((Object) longs).length);

        // JDK classes with their own serial forms.
        Map<String, Object> jdk = new LinkedHashMap<>();
        jdk.put("hashMap", new HashMap<>(Map.of("k", 1)));
        jdk.put("treeMap", new TreeMap<>(Map.of("b", 2, "a", 1)));
        TreeSet<Integer> rev = new TreeSet<>(java.util.Collections.reverseOrder());
        rev.addAll(List.of(1, 3, 2));
        jdk.put("reverseTreeSet", rev);
        jdk.put("linkedList", new LinkedList<>(List.of("p", "q")));
        jdk.put("listOf", List.of(1, 2, 3));
        jdk.put("mapOf", Map.of("only", "one"));
        jdk.put("enumMap", new EnumMap<>(Map.of(Color.RED, "r")));
        jdk.put("concurrent", new ConcurrentHashMap<>(Map.of("c", 3)));
        jdk.put("bigInteger", new BigInteger("123456789012345678901234567890"));
        jdk.put("bigDecimal", new BigDecimal("-3.14159265358979323846"));
        jdk.put("date", LocalDate.of(2024, 2, 29));
        jdk.put("duration", Duration.ofMillis(90061001));
        jdk.put("atomic", new AtomicInteger(17));
        jdk.put("string[]", new String[] {"u", "v"});
        jdk.put("class", String.class);
        jdk.put("exception", new IllegalStateException("kept message", new IOException("cause")));
        @SuppressWarnings("unchecked")
        Map<String, Object> jdk2 = (Map<String, Object>) roundTrip(jdk);
        for (Map.Entry<String, Object> e : jdk2.entrySet()) {
            Object v = e.getValue();
            String s = v instanceof Object[] arr ? Arrays.toString(arr) : v instanceof Throwable t ? t + " cause=" + t.getCause() + " frames=" + (t.getStackTrace().length > 0) : String.valueOf(v);
            System.out.println("  " + e.getKey() + ": " + s + (v == null ? "" : " (" + v.getClass().getName() + ")"));
        }
        @SuppressWarnings("unchecked")
        TreeSet<Integer> rev2 = (TreeSet<Integer>) jdk2.get("reverseTreeSet");
        rev2.add(0);
        System.out.println("comparator survived: " + rev2 + " class identity=" + (jdk2.get("class") == String.class));

        // Validation callbacks.
        read(write(new Validated(5)), 1);
        try {
            read(write(new Validated(-1)), 1);
        } catch (InvalidObjectException e) {
            System.out.println("validation failed: " + e.getMessage());
        }

        // Errors.
        try {
            write(new Holder(new NotSer()));
        } catch (NotSerializableException e) {
            System.out.println("NotSerializableException: " + e.getMessage());
        }
        try {
            write(new Holder(Optional.of(1)));
        } catch (NotSerializableException e) {
            System.out.println("NotSerializableException: " + e.getMessage());
        }
        byte[] acctBytes = write(new Account("amy", 5));
        byte[] uid = {0, 0, 0, 0, 0, 0, 0, 7};
        int at = indexOf(acctBytes, uid);
        acctBytes[at + 7] = 8;
        try {
            read(acctBytes, 1);
        } catch (InvalidClassException e) {
            System.out.println("InvalidClassException: " + e.getMessage());
        }
        byte[] pointBytes = write(new Point(1, 2));
        byte[] one = {0, 0, 0, 1};
        int px = indexOf(pointBytes, one);
        pointBytes[px] = (byte) 0xFF;
        try {
            read(pointBytes, 1);
        } catch (InvalidObjectException e) {
            System.out.println("record constructor rejected: " + e.getMessage() + " cause=" + e.getCause());
        }
        try {
            read(Arrays.copyOf(write(a), 30), 1);
        } catch (IOException e) {
            System.out.println("truncated stream: " + e.getClass().getName());
        }
        try {
            read(new byte[] {1, 2, 3, 4}, 1);
        } catch (IOException e) {
            System.out.println("bad header: " + e.getClass().getName() + ": " + e.getMessage());
        }

        // Serializable lambdas and method references travel as SerializedLambda and are
        // re-linked by $deserializeLambda$ on the way back.
        int base = 40;
        String suffix = "!";
        java.util.function.IntUnaryOperator add = (java.util.function.IntUnaryOperator & Serializable) x -> x + base;
        java.util.function.Function<String, String> shout = (java.util.function.Function<String, String> & Serializable) x -> x.toUpperCase() + suffix;
        java.util.function.Function<String, String> concat = (java.util.function.Function<String, String> & Serializable) "pre-"::concat;
        java.util.function.Supplier<List<String>> maker = (java.util.function.Supplier<List<String>> & Serializable) ArrayList::new;
        java.util.function.ToIntFunction<String> len = (java.util.function.ToIntFunction<String> & Serializable) String::length;
        Object[] lambdas = read(write(add, shout, concat, maker, len), 5);
        System.out.println("lambdas: " + ((java.util.function.IntUnaryOperator) lambdas[0]).applyAsInt(2) + " " + ((java.util.function.Function<String, String>) lambdas[1]).apply("hey")
            + " " + ((java.util.function.Function<String, String>) lambdas[2]).apply("fix") + " " + ((java.util.function.Supplier<?>) lambdas[3]).get()
            + " " + ((java.util.function.ToIntFunction<String>) lambdas[4]).applyAsInt("four") + " serializable=" + (lambdas[0] instanceof Serializable));
        TreeMap<String, Integer> byLength = new TreeMap<>(java.util.Comparator.comparing((java.util.function.Function<String, Integer> & Serializable) String::length)
            .thenComparing(java.util.Comparator.reverseOrder()));
        byLength.putAll(Map.of("kiwi", 1, "fig", 2, "banana", 3, "pear", 4));
        @SuppressWarnings("unchecked")
        TreeMap<String, Integer> byLength2 = (TreeMap<String, Integer>) roundTrip(byLength);
        byLength2.put("date", 5);
        System.out.println("comparator lambdas survived: " + byLength2);
        try {
            write((Runnable) () -> { });
        } catch (NotSerializableException e) {
            System.out.println("plain lambda: NotSerializableException");
        }

        // A serializable dynamic proxy: its interfaces are written, the class is made again.
        Greeting proxy = (Greeting) java.lang.reflect.Proxy.newProxyInstance(Greeting.class.getClassLoader(), new Class<?>[] {Greeting.class}, new Echo("proxied"));
        Greeting proxy2 = (Greeting) roundTrip(proxy);
        System.out.println("proxy: " + proxy2.greet("ann") + " isProxy=" + java.lang.reflect.Proxy.isProxyClass(proxy2.getClass()) + " same class=" + (proxy2.getClass() == proxy.getClass()));

        ObjectStreamClass desc = ObjectStreamClass.lookup(Account.class);
        System.out.println("ObjectStreamClass: " + desc.getName() + " uid=" + desc.getSerialVersionUID() + " fields=" + Arrays.toString(desc.getFields()));
        System.out.println("computed uid of Node-like class without one stable: " + (ObjectStreamClass.lookup(Child.class).getSerialVersionUID() == ObjectStreamClass.lookup(Child.class).getSerialVersionUID())
            + " not serializable lookup=" + ObjectStreamClass.lookup(NotSer.class));
        System.out.println("String uid=" + ObjectStreamClass.lookup(String.class).getSerialVersionUID() + " Integer uid=" + ObjectStreamClass.lookup(Integer.class).getSerialVersionUID()
            + " ArrayList uid=" + ObjectStreamClass.lookup(ArrayList.class).getSerialVersionUID());
        System.out.println("computed uid of Child=" + ObjectStreamClass.lookup(Child.class).getSerialVersionUID() + " Node-with-uid=" + ObjectStreamClass.lookup(Node.class).getSerialVersionUID()
            + " Validated=" + ObjectStreamClass.lookup(Validated.class).getSerialVersionUID());
    }
}
