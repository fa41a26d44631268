import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

public class CustomCollections {
    static final class MyList<T> implements Iterable<T> {
        private static final class Node<T> { T val; Node<T> next; Node(T v) { val = v; } }
        private Node<T> head, tail;
        private int size, modCount;

        void add(T v) { Node<T> n = new Node<>(v); if (tail == null) head = tail = n; else { tail.next = n; tail = n; } size++; modCount++; }
        T get(int i) { Objects.checkIndex(i, size); Node<T> n = head; while (i-- > 0) n = n.next; return n.val; }
        int size() { return size; }
        void reverse() { Node<T> prev = null, cur = head; tail = head; while (cur != null) { Node<T> nx = cur.next; cur.next = prev; prev = cur; cur = nx; } head = prev; modCount++; }
        public Iterator<T> iterator() {
            return new Iterator<>() {
                Node<T> cur = head;
                final int expected = modCount;
                public boolean hasNext() { return cur != null; }
                public T next() {
                    if (expected != modCount) throw new java.util.ConcurrentModificationException();
                    if (cur == null) throw new NoSuchElementException();
                    T v = cur.val; cur = cur.next; return v;
                }
            };
        }
        @Override public String toString() { StringBuilder sb = new StringBuilder("["); for (T t : this) sb.append(sb.length() > 1 ? ", " : "").append(t); return sb.append(']').toString(); }
    }

    static final class IntHashMap {
        private long[] keys = new long[8];
        private int[] vals = new int[8];
        private boolean[] used = new boolean[8];
        private int size;

        void put(long k, int v) {
            if (size * 2 >= keys.length) grow();
            int i = slot(k);
            if (!used[i]) { used[i] = true; keys[i] = k; size++; }
            vals[i] = v;
        }
        Integer get(long k) { int i = slot(k); return used[i] ? vals[i] : null; }
        private int slot(long k) { int m = keys.length - 1; int i = (int) (k ^ (k >>> 32)) * 0x9E3779B9 >>> 7 & m; while (used[i] && keys[i] != k) i = (i + 1) & m; return i; }
        private void grow() {
            long[] ok = keys; int[] ov = vals; boolean[] ou = used;
            keys = new long[ok.length * 2]; vals = new int[ok.length * 2]; used = new boolean[ok.length * 2]; size = 0;
            for (int i = 0; i < ok.length; i++) if (ou[i]) put(ok[i], ov[i]);
        }
        int size() { return size; }
    }

    static final class Range extends AbstractList<Integer> {
        final int lo, hi;
        Range(int lo, int hi) { this.lo = lo; this.hi = hi; }
        public Integer get(int i) { Objects.checkIndex(i, size()); return lo + i; }
        public int size() { return hi - lo; }
    }

    static final class RingBuffer<E> {
        private final Object[] buf; private int head, count;
        RingBuffer(int cap) { buf = new Object[cap]; }
        void push(E e) { buf[(head + count) % buf.length] = e; if (count < buf.length) count++; else head = (head + 1) % buf.length; }
        @SuppressWarnings("unchecked") E get(int i) { return (E) buf[(head + i) % buf.length]; }
        List<E> toList() { List<E> l = new ArrayList<>(); for (int i = 0; i < count; i++) l.add(get(i)); return l; }
    }

    public static void main(String[] args) {
        MyList<String> l = new MyList<>();
        for (String s : "one two three four five".split(" ")) l.add(s);
        System.out.println("mylist: " + l + " size=" + l.size() + " get(2)=" + l.get(2));
        l.reverse();
        System.out.println("reversed: " + l);
        l.add("zero");
        System.out.println("after add: " + l + " get(5)=" + l.get(5));
        try {
            l.get(6);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("IOOBE: " + e.getMessage());
        }
        try {
            for (String s : l) if (s.equals("three")) l.add("boom");
        } catch (java.util.ConcurrentModificationException e) {
            System.out.println("custom CME detected");
        }
        IntHashMap m = new IntHashMap();
        for (long i = 0; i < 5000; i++) m.put(i * i * 31 - 7, (int) i);
        int hits = 0;
        for (long i = 0; i < 5000; i++) if (m.get(i * i * 31 - 7) == i) hits++;
        System.out.println("open addressing map size=" + m.size() + " hits=" + hits + " miss=" + m.get(12345L));
        Range r = new Range(10, 20);
        System.out.println("AbstractList range: " + r + " contains(15)=" + r.contains(15) + " indexOf(19)=" + r.indexOf(19) + " subList=" + r.subList(2, 5) + " hash=" + r.hashCode()
            + " equals=" + r.equals(List.of(10, 11, 12, 13, 14, 15, 16, 17, 18, 19)));
        int sum = 0;
        for (int v : r) sum += v;
        System.out.println("iterate sum=" + sum + " stream max=" + r.stream().mapToInt(Integer::intValue).max().getAsInt());
        try {
            r.add(5);
        } catch (UnsupportedOperationException e) {
            System.out.println("AbstractList add: UOE");
        }
        RingBuffer<Integer> rb = new RingBuffer<>(4);
        for (int i = 1; i <= 10; i++) { rb.push(i); if (i % 3 == 0) System.out.println("ring after " + i + ": " + rb.toList()); }
    }
}
