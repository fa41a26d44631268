import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

// Identity hash codes must survive objects being moved by the collector. Prints only whether
// values stayed equal, never the values. Under JXVM_GC_STRESS the workload shrinks (HotSpot
// sees the same environment variable).
public class GcIdentityHash {
    static final boolean SMALL = System.getenv("JXVM_GC_STRESS") != null;
    static final int N = SMALL ? 100 : 5_000;
    static final int GARBAGE = SMALL ? 200 : 300_000;

    static final class Key {
        final int id;
        Key(int id) { this.id = id; }
        // equals/hashCode not overridden: identity semantics
    }

    static final class Plain {
        int x;
    }

    static Object[] staticObjs;
    static int[] staticHashes;

    static long garbage(int salt) {
        long s = 0;
        for (int i = 0; i < GARBAGE; i++) {
            Object o = (i & 3) == 0 ? new int[i % 100] : (i & 3) == 1 ? "g" + (i % 50) : (i & 3) == 2 ? new Plain() : new Object[3];
            if (o instanceof int[]) s += ((int[]) o).length;
            else if (o instanceof String) s += ((String) o).length();
            else s++;
        }
        return s + salt;
    }

    static boolean sameHashes(Object[] objs, int[] hashes) {
        for (int i = 0; i < objs.length; i++) {
            if (System.identityHashCode(objs[i]) != hashes[i]) return false;
        }
        return true;
    }

    public static void main(String[] args) throws Exception {
        // Mixed kinds of objects; hashes taken before any collection.
        Object[] objs = new Object[N];
        for (int i = 0; i < N; i++) {
            switch (i % 6) {
                case 0: objs[i] = new Object(); break;
                case 1: objs[i] = new Plain(); break;
                case 2: objs[i] = new int[i % 37]; break;
                case 3: objs[i] = new String("str" + i); break;
                case 4: objs[i] = new Key(i); break;
                default: objs[i] = new Object[] { objs[i - 1] }; break;
            }
        }
        int[] hashes = new int[N];
        for (int i = 0; i < N; i++) hashes[i] = System.identityHashCode(objs[i]);
        // Object.hashCode() of objects that do not override it is the identity hash.
        boolean hashCodeIsIdentity = true;
        for (int i = 0; i < N; i++) {
            if (objs[i] instanceof Key || objs[i] instanceof Plain || objs[i].getClass() == Object.class) {
                hashCodeIsIdentity &= objs[i].hashCode() == hashes[i];
            }
        }
        System.out.println("hashCode() == identityHashCode for non-overriding classes: " + hashCodeIsIdentity);

        // toString of plain objects embeds the identity hash.
        Object plain = new Object();
        String before = plain.toString();

        // Half of a second group gets its hash only after objects moved.
        Object[] late = new Object[N];
        for (int i = 0; i < N; i++) late[i] = new Plain();
        int[] lateHashes = new int[N];
        for (int i = 0; i < N; i += 2) lateHashes[i] = System.identityHashCode(late[i]);

        staticObjs = new Object[N / 2];
        staticHashes = new int[N / 2];
        for (int i = 0; i < staticObjs.length; i++) {
            staticObjs[i] = new Key(-i);
            staticHashes[i] = staticObjs[i].hashCode();
        }

        // Identity maps keyed by those objects.
        IdentityHashMap<Object, Integer> idMap = new IdentityHashMap<>();
        for (int i = 0; i < N; i++) idMap.put(objs[i], i);
        HashMap<Key, Integer> keyMap = new HashMap<>();
        HashSet<Object> objSet = new HashSet<>();
        for (int i = 0; i < N; i++) {
            if (objs[i] instanceof Key) keyMap.put((Key) objs[i], i);
            if (objs[i].getClass() == Object.class) objSet.add(objs[i]);
        }
        int keyCount = keyMap.size();
        int setCount = objSet.size();

        System.out.println("garbage 1: " + garbage(1));
        System.out.println("hashes unchanged after allocation: " + sameHashes(objs, hashes));
        System.gc();
        System.out.println("hashes unchanged after System.gc: " + sameHashes(objs, hashes));

        // Late hashes: take the rest now (after moves), then check all after more moves.
        for (int i = 1; i < N; i += 2) lateHashes[i] = System.identityHashCode(late[i]);
        System.out.println("garbage 2: " + garbage(2));
        System.gc();
        System.out.println("late hashes unchanged: " + sameHashes(late, lateHashes));
        System.out.println("static hashes unchanged: " + sameHashes(staticObjs, staticHashes));
        System.out.println("toString unchanged: " + before.equals(plain.toString()));

        // Lookups in identity-keyed maps after the keys moved.
        boolean idOk = idMap.size() == N;
        for (int i = 0; i < N; i++) idOk &= idMap.get(objs[i]) == i;
        for (int i = 0; i < 10; i++) idOk &= !idMap.containsKey(new Object());
        System.out.println("IdentityHashMap lookups after gc: " + idOk);
        boolean keyOk = keyMap.size() == keyCount;
        for (int i = 0; i < N; i++) {
            if (objs[i] instanceof Key) keyOk &= keyMap.get(objs[i]) == i;
        }
        keyOk &= !keyMap.containsKey(new Key(4));
        System.out.println("HashMap<identity key> lookups after gc: " + keyOk + " (" + keyCount + " keys)");
        boolean setOk = objSet.size() == setCount;
        for (int i = 0; i < N; i++) {
            if (objs[i].getClass() == Object.class) setOk &= objSet.contains(objs[i]);
        }
        System.out.println("HashSet<Object> contains after gc: " + setOk + " (" + setCount + " objects)");

        // Grow the identity map while collections move its keys (rehashing with moved keys).
        IdentityHashMap<Object, Integer> growing = new IdentityHashMap<>();
        List<Object> order = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            Object k = new Plain();
            growing.put(k, i);
            order.add(k);
            if (i % (N / 10) == 0) garbage(i);
        }
        System.gc();
        boolean growOk = growing.size() == N;
        for (int i = 0; i < N; i++) growOk &= growing.get(order.get(i)) == i;
        // Remove every third key and check the rest still resolve.
        for (int i = 0; i < N; i += 3) growing.remove(order.get(i));
        System.gc();
        for (int i = 0; i < N; i++) growOk &= (i % 3 == 0) ? !growing.containsKey(order.get(i)) : growing.get(order.get(i)) == i;
        System.out.println("growing IdentityHashMap consistent: " + growOk + " size " + growing.size());

        // Hashed objects used as monitors (the header word holds both).
        Object[] locks = new Object[16];
        int[] lockHashes = new int[16];
        for (int i = 0; i < 16; i++) {
            locks[i] = new Object();
            if (i % 2 == 0) lockHashes[i] = locks[i].hashCode();
        }
        int counter = 0;
        for (int i = 0; i < 16; i++) {
            synchronized (locks[i]) {
                garbage(i);
                System.gc();
                counter++;
                if (i % 2 == 1) lockHashes[i] = locks[i].hashCode();
            }
        }
        Thread t = new Thread(() -> {
            synchronized (locks[3]) { locks[3].notifyAll(); }
        });
        synchronized (locks[3]) {
            t.start();
            locks[3].wait(10_000);
        }
        t.join();
        System.gc();
        System.out.println("monitors held across gc: " + counter + ", lock hashes unchanged: " + sameHashes(locks, lockHashes));

        // Class objects and interned strings have stable identity hashes too.
        Object[] special = { Object.class, String.class, GcIdentityHash.class, int[].class, "literal", "inter".concat("ned").intern() };
        int[] specialHashes = new int[special.length];
        for (int i = 0; i < special.length; i++) specialHashes[i] = System.identityHashCode(special[i]);
        garbage(3);
        System.gc();
        boolean specialOk = sameHashes(special, specialHashes);
        specialOk &= special[5] == "interned";
        System.out.println("class/string identity hashes unchanged: " + specialOk);
        Map<Object, String> classMap = new IdentityHashMap<>();
        classMap.put(String.class, "String");
        classMap.put(Integer.class, "Integer");
        garbage(4);
        System.gc();
        System.out.println("class-keyed identity map: " + classMap.get(String.class) + " " + classMap.get(Integer.class));
        System.out.println("identityHashCode(null) = " + System.identityHashCode(null));
    }
}
