// JVMFLAGS: -Xmx64m
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

// Four threads allocate concurrently (collections stop all of them), each building and
// verifying its own structures; a shared ConcurrentHashMap and a shared monitor-protected list
// get disjoint contributions. Results are combined in thread order. Under JXVM_GC_STRESS (a
// collection at every allocation) the workload shrinks; HotSpot sees the same variable.
public class GcThreads {
    static final boolean SMALL = System.getenv("JXVM_GC_STRESS") != null;
    static final int THREADS = 4;
    static final int ROUNDS = SMALL ? 2 : 40;
    static final int SIZE = SMALL ? 50 : 5_000;

    static final ConcurrentHashMap<Integer, String> shared = new ConcurrentHashMap<>();
    static final List<long[]> sharedList = new ArrayList<>();
    static final AtomicLong gcCalls = new AtomicLong();

    static final class Node {
        final int key;
        Node left, right;
        final String label;
        Node(int key) { this.key = key; this.label = "k" + key; }
    }

    static Node insert(Node root, int key) {
        if (root == null) return new Node(key);
        Node n = root;
        while (true) {
            if (key < n.key) {
                if (n.left == null) { n.left = new Node(key); return root; }
                n = n.left;
            } else {
                if (n.right == null) { n.right = new Node(key); return root; }
                n = n.right;
            }
        }
    }

    static long walk(Node n) {
        long h = 0;
        List<Node> stack = new ArrayList<>();
        Node cur = n;
        while (cur != null || !stack.isEmpty()) {
            while (cur != null) { stack.add(cur); cur = cur.left; }
            cur = stack.remove(stack.size() - 1);
            if (!cur.label.equals("k" + cur.key)) return -1;
            h = h * 31 + cur.key;
            cur = cur.right;
        }
        return h;
    }

    static final class Worker extends Thread {
        final int id;
        final CountDownLatch start;
        long result;
        String error;

        Worker(int id, CountDownLatch start) {
            super("worker-" + id);
            this.id = id;
            this.start = start;
        }

        @Override
        public void run() {
            try {
                start.await();
                long acc = 0;
                // long-lived structures of this thread, verified every round
                Map<Integer, int[]> mine = new HashMap<>();
                for (int r = 0; r < ROUNDS; r++) {
                    // a short-lived search tree with deterministic pseudo-random keys
                    Node root = null;
                    int x = id * 7919 + r;
                    for (int i = 0; i < SIZE; i++) {
                        x = x * 1103515245 + 12345;
                        root = insert(root, (x >>> 8) % 1_000_000);
                    }
                    long w = walk(root);
                    if (w == -1) { error = "tree corrupted in round " + r; return; }
                    acc = acc * 17 + w;
                    // garbage strings and arrays
                    StringBuilder sb = new StringBuilder();
                    for (int i = 0; i < SIZE / 10; i++) sb.append(i % 10);
                    acc += sb.toString().hashCode();
                    for (int i = 0; i < SIZE / 50; i++) acc += new long[1000 + i].length;
                    // grow the long-lived map, then verify all of it
                    int[] arr = new int[100];
                    for (int i = 0; i < arr.length; i++) arr[i] = id * 1_000_000 + r * 100 + i;
                    mine.put(r, arr);
                    for (Map.Entry<Integer, int[]> e : mine.entrySet()) {
                        int[] a = e.getValue();
                        for (int i = 0; i < a.length; i++) {
                            if (a[i] != id * 1_000_000 + e.getKey() * 100 + i) { error = "map entry corrupted"; return; }
                        }
                    }
                    shared.put(id * 10_000 + r, "t" + id + "r" + r);
                    synchronized (sharedList) {
                        sharedList.add(new long[] { id, r, w });
                    }
                    if (r % 10 == 5) {
                        System.gc();
                        gcCalls.incrementAndGet();
                    }
                }
                result = acc;
            } catch (Throwable t) {
                error = t.toString();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        for (int pass = 0; pass < 2; pass++) {
            shared.clear();
            synchronized (sharedList) { sharedList.clear(); }
            CountDownLatch start = new CountDownLatch(1);
            Worker[] ws = new Worker[THREADS];
            for (int i = 0; i < THREADS; i++) {
                ws[i] = new Worker(i, start);
                ws[i].start();
            }
            // the main thread allocates too while the workers run
            start.countDown();
            TreeMap<Integer, String> mainMap = new TreeMap<>();
            for (int i = 0; i < SIZE * 2; i++) {
                mainMap.put(i, Integer.toString(i * 3));
                if (mainMap.size() > 1000) mainMap.pollFirstEntry();
            }
            for (Worker w : ws) w.join();
            for (Worker w : ws) {
                System.out.println("pass " + pass + " " + w.getName() + ": "
                    + (w.error != null ? "ERROR " + w.error : "checksum " + w.result));
            }
            long sum = 0;
            for (Map.Entry<Integer, String> e : shared.entrySet()) {
                int k = e.getKey();
                if (!e.getValue().equals("t" + (k / 10_000) + "r" + (k % 10_000))) System.out.println("shared entry corrupted " + k);
                sum += k;
            }
            System.out.println("pass " + pass + " shared map size " + shared.size() + " key sum " + sum);
            long[] perThread = new long[THREADS];
            synchronized (sharedList) {
                for (long[] e : sharedList) perThread[(int) e[0]] += e[1] + e[2] % 1000;
                System.out.println("pass " + pass + " shared list size " + sharedList.size());
            }
            for (int i = 0; i < THREADS; i++) System.out.println("pass " + pass + " shared list thread " + i + ": " + perThread[i]);
            System.out.println("pass " + pass + " main map " + mainMap.firstKey() + ".." + mainMap.lastKey() + " " + mainMap.get(mainMap.lastKey()));
        }
        System.out.println("System.gc calls from workers: " + gcCalls.get());
    }
}
