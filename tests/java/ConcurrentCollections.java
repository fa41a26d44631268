import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * Concurrent collections and atomics hammered by several threads, with exact totals:
 * ConcurrentHashMap merge/compute/computeIfAbsent/putIfAbsent, LinkedBlockingQueue and
 * ArrayBlockingQueue producer/consumer with poison pills, ConcurrentLinkedQueue/Deque,
 * ConcurrentSkipListMap, CopyOnWriteArrayList (add + snapshot iteration), AtomicLong, LongAdder,
 * AtomicInteger.updateAndGet, AtomicReference CAS loops, AtomicIntegerArray, LongAccumulator.
 */
public class ConcurrentCollections {
    static final int THREADS = 4;

    static void runAll(String what, IntRunnable body) throws InterruptedException {
        Thread[] ts = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) { final int id = i; ts[i] = new Thread(() -> body.run(id), what + "-" + i); ts[i].start(); }
        for (Thread t : ts) { t.join(20_000); if (t.isAlive()) System.out.println("FAIL: " + t.getName() + " hung"); }
    }

    interface IntRunnable { void run(int id); }

    public static void main(String[] args) throws Exception {
        ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
        ConcurrentHashMap<Integer, Long> sums = new ConcurrentHashMap<>();
        ConcurrentHashMap<Integer, List<Integer>> lists = new ConcurrentHashMap<>();
        ConcurrentHashMap<Integer, Integer> firsts = new ConcurrentHashMap<>();
        runAll("chm", id -> {
            for (int i = 0; i < 5_000; i++) {
                counts.merge("k" + (i % 50), 1, Integer::sum);
                final long x = i;
                sums.compute(i % 17, (k, v) -> v == null ? x : v + x);
                lists.computeIfAbsent(i % 5, k -> Collections.synchronizedList(new ArrayList<>())).add(id);
                firsts.putIfAbsent(i % 100, -1);
                firsts.replace(i % 100, -1, id);
            }
        });
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("merge: keys=" + counts.size() + " total=" + total + " k7=" + counts.get("k7"));
        System.out.println("compute: " + new TreeMap<>(sums));
        int listTotal = 0;
        for (List<Integer> l : lists.values()) listTotal += l.size();
        System.out.println("computeIfAbsent lists=" + lists.size() + " elements=" + listTotal
                + " firsts replaced=" + firsts.values().stream().allMatch(v -> v >= 0));
        System.out.println("reduceValues=" + counts.reduceValuesToLong(1, Integer::longValue, 0, Long::sum)
                + " mappingCount=" + counts.mappingCount());

        // Blocking queues: 2 producers, 2 consumers each, poison pills.
        for (BlockingQueue<Integer> q : List.<BlockingQueue<Integer>>of(new LinkedBlockingQueue<>(16), new ArrayBlockingQueue<>(4))) {
            AtomicLong consumed = new AtomicLong();
            AtomicInteger items = new AtomicInteger();
            runAll(q.getClass().getSimpleName(), id -> {
                try {
                    if (id < 2) {
                        for (int i = 1; i <= 5_000; i++) q.put(id * 100_000 + i);
                        q.put(-1);
                    } else {
                        for (int v; (v = q.take()) != -1; ) { consumed.addAndGet(v); items.incrementAndGet(); }
                    }
                } catch (InterruptedException e) { System.out.println("FAIL interrupted"); }
            });
            System.out.println(q.getClass().getSimpleName() + ": items=" + items + " sum=" + consumed + " remaining=" + q.size()
                    + " remainingCapacity=" + q.remainingCapacity());
        }

        ConcurrentLinkedQueue<Integer> clq = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedDeque<Integer> cld = new ConcurrentLinkedDeque<>();
        AtomicLong polled = new AtomicLong();
        runAll("clq", id -> {
            for (int i = 0; i < 3_000; i++) { clq.offer(i); if (id % 2 == 0) cld.addFirst(i); else cld.addLast(i); }
            for (int i = 0; i < 1_000; i++) { Integer v = clq.poll(); if (v != null) polled.addAndGet(1); }
        });
        System.out.println("ConcurrentLinkedQueue: polled=" + polled + " left=" + clq.size() + " deque size=" + cld.size()
                + " deque sum=" + cld.stream().mapToLong(Integer::longValue).sum());

        ConcurrentSkipListMap<Integer, Integer> skip = new ConcurrentSkipListMap<>();
        runAll("skip", id -> { for (int i = id; i < 4_000; i += THREADS) skip.put(i, i * 2); });
        System.out.println("skip list: size=" + skip.size() + " first=" + skip.firstKey() + " last=" + skip.lastKey()
                + " headMap(10)=" + skip.headMap(10) + " ceiling(3999)=" + skip.ceilingKey(3_999));

        CopyOnWriteArrayList<Integer> cow = new CopyOnWriteArrayList<>();
        AtomicInteger snapshotsOk = new AtomicInteger();
        runAll("cow", id -> {
            for (int i = 0; i < 300; i++) {
                cow.add(id * 1_000 + i);
                int seen = 0;
                for (Integer x : cow) seen++;
                if (seen >= i + 1) snapshotsOk.incrementAndGet();
            }
        });
        List<Integer> sorted = new ArrayList<>(cow);
        Collections.sort(sorted);
        System.out.println("CopyOnWriteArrayList: size=" + cow.size() + " snapshotsOk=" + snapshotsOk + " first=" + sorted.get(0)
                + " last=" + sorted.get(sorted.size() - 1) + " addIfAbsent(5)=" + cow.addIfAbsent(5));
        Iterator<Integer> it = cow.iterator();
        cow.clear();
        int n = 0;
        while (it.hasNext()) { it.next(); n++; }
        System.out.println("snapshot iterator after clear: " + n + " now " + cow.size());

        AtomicLong al = new AtomicLong();
        LongAdder adder = new LongAdder();
        AtomicInteger ai = new AtomicInteger();
        AtomicReference<String> ref = new AtomicReference<>("");
        AtomicIntegerArray arr = new AtomicIntegerArray(10);
        LongAccumulator max = new LongAccumulator(Long::max, Long.MIN_VALUE);
        AtomicInteger casFailuresBounded = new AtomicInteger();
        runAll("atomic", id -> {
            for (int i = 0; i < 10_000; i++) {
                al.addAndGet(i);
                adder.increment();
                ai.updateAndGet(x -> x + 2);
                arr.incrementAndGet(i % 10);
                max.accumulate(id * 10_000L + i);
            }
            for (int i = 0; i < 200; i++) {
                String prev, next;
                do { prev = ref.get(); next = prev.length() < 800 ? prev + (char) ('a' + id) : prev; } while (!ref.compareAndSet(prev, next));
            }
        });
        int[] letters = new int[4];
        for (char c : ref.get().toCharArray()) letters[c - 'a']++;
        System.out.println("AtomicLong=" + al.get() + " LongAdder=" + adder.sum() + " updateAndGet=" + ai.get()
                + " array=" + arr + " max=" + max.get());
        System.out.println("CAS string length=" + ref.get().length() + " letters=" + Arrays.toString(letters));
        System.out.println("adder sumThenReset=" + adder.sumThenReset() + " after=" + adder.sum()
                + " getAndAccumulate=" + ai.getAndAccumulate(5, Math::max) + " compareAndExchange=" + ai.compareAndExchange(80_000, 1) + " now=" + ai);
    }
}
