import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jx.memory.Memory;
import jx.memory.RevokedMemoryException;
import jx.pso.*;

/**
 * jx.pso: the layout of PSO fields checked byte for byte through jx.memory, references and
 * recovery, lists and trees, arrays, read-only and revoked containers, bounds, illegal field
 * types, and many live PSOs under the collector. With arguments "write FILE" / "read FILE" it
 * writes a list into a mapped file, or recovers it in a new process. Each check prints
 * "ok ..." or throws.
 */
public class Psos {
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

    /** Every primitive type, in an order that needs padding. */
    static class All extends PSO {
        boolean z; int i; byte b; long j; char c; short s; float f; double d; All next;
    }

    static class Base extends PSO {
        byte tag;
        int base;
    }

    static class Derived extends Base {
        short extra;
        long wide;
    }

    static class Node extends PSO {
        int value;
        Node next;
        private Node() { value = -1; } // the constructor runs on allocate, whatever its access
    }

    static class Tagged extends PSO {
        int tag;
        Tagged() { tag = 9; }
    }

    static class Subtagged extends Tagged { // javac's default constructor: super() only
        int more;
    }

    static class Flagged extends PSO {
        volatile int ready;
        long data;
    }

    static class Tree extends PSO {
        int key;
        Tree left, right;
    }

    static class BadString extends PSO {
        int ok;
        String name;
    }

    static class BadArray extends PSO {
        int[] values;
    }

    static abstract class Shape extends PSO {
        int sides;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("write")) {
            write(Path.of(args[1]));
            return;
        }
        if (args.length == 2 && args[0].equals("read")) {
            read(Path.of(args[1]));
            return;
        }
        layout();
        references();
        listsAndTrees();
        arrays();
        readOnlyAndRevoked();
        bounds();
        illegal();
        manyUnderCollection();
    }

    static void layout() {
        check(PSO.sizeOf(All.class) == 48 && PSO.sizeOf(Base.class) == 8
                && PSO.sizeOf(Derived.class) == 24, "sizes: C struct rules, rounded up to 8");
        Memory m = Memory.allocate(256);
        Container c = Container.over(m);
        All a = c.allocate(All.class);
        a.z = true; a.i = 0x01020304; a.b = -2; a.j = 0x1122334455667788L; a.c = '\u20ac';
        a.s = (short) -3; a.f = 1.5f; a.d = -0.25;
        long o = a.offset();
        check(o == 0 && m.getByte(0) == 1 && m.getInt(4) == 0x01020304 && m.getByte(8) == -2
                && m.getLong(16) == 0x1122334455667788L && m.getShort(24) == (short) 0x20ac
                && m.getShort(26) == -3 && m.getFloat(28) == 1.5f && m.getDouble(32) == -0.25
                && m.getLong(40) == 0, "every primitive field at its offset, little-endian");
        check(m.getByte(1) == 0 && m.getByte(2) == 0 && m.getByte(3) == 0 && m.getByte(4) == 4,
                "padding stays zero; ints are little-endian");
        m.setInt(4, 77);
        m.setDouble(32, 8.5);
        check(a.i == 77 && a.d == 8.5, "writes through memory are seen at once");
        All b = c.at(All.class, 0);
        b.j = -1;
        check(a.j == -1 && b != a, "two objects at one offset share the bytes");
        a.z = false;
        check(!b.z && m.getByte(0) == 0, "booleans are one byte");

        Derived d = c.allocate(Derived.class);
        d.tag = 9; d.base = 10; d.extra = 11; d.wide = 12;
        long x = d.offset();
        check(x == 48 && m.getByte(x) == 9 && m.getInt(x + 4) == 10 && m.getShort(x + 8) == 11
                && m.getLong(x + 16) == 12, "superclass fields first, then the subclass's, aligned");
        check(c.used() == 72, "used() after two allocations");

        Memory fm = Memory.allocate(64);
        Flagged f = Container.over(fm).allocate(Flagged.class);
        Thread writer = new Thread(() -> {
            f.data = 42;
            f.ready = 1;
        });
        writer.start();
        while (f.ready == 0) Thread.onSpinWait();
        check(f.data == 42 && fm.getInt(0) == 1 && fm.getLong(8) == 42,
                "a volatile PSO field publishes the writes before it to another thread");
    }

    static void references() {
        Memory m = Memory.allocate(512);
        Container c = Container.over(m);
        All a = c.allocate(All.class);
        All b = c.allocate(All.class);
        check(a.next == null && m.getLong(a.offset() + 40) == 0, "a null reference is 0");
        a.next = b;
        check(m.getLong(a.offset() + 40) == b.offset() + 1, "a reference is 1 + the target's offset");
        check(a.next == b && a.next == a.next, "reading an unchanged slot gives the same object");
        All b2 = c.at(All.class, 0).next;
        check(b2 != b && b2.offset() == b.offset() && b2.container() == c, "recovery through a reference");
        m.setLong(a.offset() + 40, a.offset() + 1);
        check(a.next.offset() == a.offset(), "a slot changed through memory names the new target");
        a.next = null;
        check(a.next == null && m.getLong(a.offset() + 40) == 0, "storing null writes 0");
        Container other = Container.over(Memory.allocate(64));
        All foreign = other.allocate(All.class);
        System.out.println(thrown(IllegalArgumentException.class, () -> a.next = foreign));
        m.setLong(a.offset() + 40, 10_000);
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> { All n = a.next; }));
        m.setLong(a.offset() + 40, -5);
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> { All n = a.next; }));
    }

    static void listsAndTrees() {
        Container c = Container.over(Memory.allocate(1 << 16));
        Node head = null;
        for (int i = 0; i < 100; i++) {
            Node n = c.allocate(Node.class);
            if (i == 0) check(n.value == -1, "the no-argument constructor runs on allocate");
            n.value = i;
            n.next = head;
            head = n;
        }
        check(c.allocate(Subtagged.class).tag == 9, "a superclass's constructor runs under a default one");
        long sum = 0;
        int count = 0;
        for (Node n = c.at(Node.class, head.offset()); n != null; n = n.next) {
            sum += n.value;
            count++;
        }
        check(count == 100 && sum == 4950, "a list of 100 PSOs, recovered from its head");
        Tree root = null;
        int[] keys = {50, 30, 70, 20, 40, 60, 80, 35, 65};
        for (int k : keys) root = insert(c, root, k);
        StringBuilder sb = new StringBuilder();
        inorder(c.at(Tree.class, root.offset()), sb);
        check(sb.toString().equals("20 30 35 40 50 60 65 70 80 "), "a search tree of PSOs in order");
    }

    static Tree insert(Container c, Tree t, int key) {
        if (t == null) {
            Tree n = c.allocate(Tree.class);
            n.key = key;
            return n;
        }
        if (key < t.key) t.left = insert(c, t.left, key);
        else t.right = insert(c, t.right, key);
        return t;
    }

    static void inorder(Tree t, StringBuilder sb) {
        if (t == null) return;
        inorder(t.left, sb);
        sb.append(t.key).append(' ');
        inorder(t.right, sb);
    }

    static void arrays() {
        Memory m = Memory.allocate(1024);
        Container c = Container.over(m);
        c.allocateBytes(3);
        IntArray ints = c.allocateInts(5);
        check(ints.offset() == 8 && ints.length() == 5 && c.used() == 28, "arrays are allocated at used(), aligned to 8");
        for (int i = 0; i < 5; i++) ints.set(i, i * 1000 - 1);
        check(m.getInt(8) == -1 && m.getInt(24) == 3999, "int elements little-endian in the container");
        LongArray longs = c.allocateLongs(2);
        longs.set(1, Long.MIN_VALUE);
        DoubleArray doubles = c.allocateDoubles(2);
        doubles.set(0, Math.E);
        ByteArray bytes = c.allocateBytes(4);
        bytes.set(3, (byte) -7);
        check(m.getLong(longs.offset() + 8) == Long.MIN_VALUE && m.getDouble(doubles.offset()) == Math.E
                && m.getByte(bytes.offset() + 3) == -7 && bytes.get(3) == -7, "long, double and byte elements");
        IntArray again = c.ints(8, 5);
        check(again.get(4) == 3999, "ints(offset, length) recovers an array");
        System.out.println(thrown(ArrayIndexOutOfBoundsException.class, () -> ints.get(5)));
        System.out.println(thrown(ArrayIndexOutOfBoundsException.class, () -> ints.set(-1, 0)));
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> c.ints(1020, 2)));
        System.out.println(thrown(NegativeArraySizeException.class, () -> c.allocateInts(-1)));
        System.out.println(thrown(ContainerFullException.class, () -> c.allocateLongs(1000)));
    }

    static void readOnlyAndRevoked() throws Exception {
        Path file = Files.createTempFile("psos", ".bin");
        try {
            Container w = Container.map(file, 128);
            All a = w.allocate(All.class);
            a.i = 5;
            w.force();
            Container r = Container.mapReadOnly(file);
            All ra = r.at(All.class, 0);
            check(r.isReadOnly() && r.size() == 128 && ra.i == 5, "a read-only mapping reads");
            System.out.println(thrown(ReadOnlyBufferException.class, () -> ra.i = 6));
            System.out.println(thrown(ReadOnlyBufferException.class, () -> r.allocate(All.class)));
            System.out.println(thrown(ReadOnlyBufferException.class, () -> r.ints(0, 2).set(0, 1)));
        } finally {
            Files.delete(file);
        }
        Memory m = Memory.allocate(64);
        Container c = Container.over(m);
        All a = c.allocate(All.class);
        IntArray ints = c.allocateInts(2);
        m.revoke();
        System.out.println(thrown(RevokedMemoryException.class, () -> { int v = a.i; }));
        System.out.println(thrown(RevokedMemoryException.class, () -> a.j = 1));
        System.out.println(thrown(RevokedMemoryException.class, () -> ints.get(0)));
        System.out.println(thrown(RevokedMemoryException.class, () -> c.at(All.class, 0)));
    }

    static void bounds() {
        Container c = Container.over(Memory.allocate(100));
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> c.at(All.class, 60)));
        System.out.println(thrown(IndexOutOfBoundsException.class, () -> c.at(All.class, -1)));
        check(c.at(All.class, 52).offset() == 52, "at accepts any offset the PSO fits at");
        c.setUsed(60);
        System.out.println(thrown(ContainerFullException.class, () -> c.allocate(All.class)));
        System.out.println(thrown(IllegalArgumentException.class, () -> c.setUsed(101)));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void illegal() {
        Container c = Container.over(Memory.allocate(100));
        System.out.println(thrown(IllegalArgumentException.class, () -> c.allocate(BadString.class)));
        System.out.println(thrown(IllegalArgumentException.class, () -> c.at(BadArray.class, 0)));
        System.out.println(thrown(IllegalArgumentException.class, () -> PSO.sizeOf(BadString.class)));
        System.out.println(thrown(IllegalArgumentException.class, () -> c.allocate(Shape.class)));
        System.out.println(thrown(IllegalArgumentException.class, () -> c.allocate((Class) String.class)));
        System.out.println(thrown(IllegalStateException.class, () -> new BadString()));
    }

    static void manyUnderCollection() {
        Container c = Container.over(Memory.allocate(24 * 20_000));
        List<Node> live = new ArrayList<>();
        Node prev = null;
        for (int i = 0; i < 20_000; i++) {
            Node n = c.allocate(Node.class);
            n.value = i;
            n.next = prev;
            prev = n;
            if (i % 10 == 0) live.add(n);
            String garbage = "g" + i; // allocation pressure
        }
        long sum = 0;
        for (Node n : live) sum += n.value + (n.next == null ? 0 : n.next.value + 1);
        check(sum == 39_980_000, "20000 PSOs, 2000 kept live across collections");
    }

    static void write(Path file) throws Exception {
        Container c = Container.map(file, 4096);
        Node head = null;
        for (int i = 1; i <= 10; i++) {
            Node n = c.allocate(Node.class);
            n.value = i * i;
            n.next = head;
            head = n;
        }
        Header h = c.at(Header.class, 4000);
        h.head = head;
        h.used = c.used();
        c.force();
        check(true, "wrote a list of 10 into " + file.getFileName());
    }

    static class Header extends PSO {
        long used;
        Node head;
    }

    static void read(Path file) throws Exception {
        Container c = Container.map(file, 4096);
        Header h = c.at(Header.class, 4000);
        c.setUsed(h.used);
        long sum = 0;
        for (Node n = h.head; n != null; n = n.next) sum += n.value;
        check(sum == 385 && c.used() == 160, "recovered the list from the file in a new process");
    }
}
