import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.ReentrantLock;

// java.util.concurrent.atomic and the lock-free collections, which run on VarHandles, plus
// CompletableFuture and executors on real threads.
public class AtomicsAndConcurrentQueues {
    volatile int counter;
    volatile long total;
    volatile String label = "start";

    public static void main(String[] args) throws Exception {
        AtomicReference<String> ref = new AtomicReference<>("a");
        System.out.println("ref " + ref.compareAndSet("a", "b") + " " + ref.compareAndSet("a", "c") + " " + ref.get()
                + " " + ref.getAndSet("d") + " " + ref.updateAndGet(s -> s + "!") + " " + ref.accumulateAndGet("x", String::concat)
                + " " + ref.compareAndExchange("d!x", "e") + " " + ref.getPlain() + " " + ref.getAcquire() + " " + ref);
        AtomicBoolean flag = new AtomicBoolean();
        System.out.println("bool " + flag.compareAndSet(false, true) + " " + flag.get() + " " + flag.getAndSet(false) + " " + flag.weakCompareAndSetVolatile(false, true) + " " + flag);
        AtomicInteger ai = new AtomicInteger(5);
        System.out.println("int " + ai.incrementAndGet() + " " + ai.getAndAdd(10) + " " + ai.updateAndGet(x -> x * 2) + " " + ai.accumulateAndGet(3, Math::max) + " " + ai.compareAndExchange(32, 1) + " " + ai);
        AtomicLong al = new AtomicLong(1L << 40);
        System.out.println("long " + al.addAndGet(5) + " " + al.getAndIncrement() + " " + al.decrementAndGet() + " " + al.getAndUpdate(x -> x / 2) + " " + al);
        AtomicIntegerArray ia = new AtomicIntegerArray(5);
        ia.set(0, 7);
        System.out.println("int[] " + ia.incrementAndGet(2) + " " + ia.getAndAdd(0, 3) + " " + ia.compareAndSet(4, 0, 9) + " " + ia.accumulateAndGet(1, 4, Integer::sum) + " " + ia);
        AtomicLongArray la = new AtomicLongArray(new long[] {1, 2, 3});
        System.out.println("long[] " + la.getAndSet(1, 20) + " " + la.addAndGet(2, 100) + " " + la.compareAndExchange(0, 1, -1) + " " + la);
        AtomicReferenceArray<String> ra = new AtomicReferenceArray<>(new String[] {"x", null, "z"});
        System.out.println("ref[] " + ra.compareAndSet(1, null, "y") + " " + ra.getAndUpdate(0, s -> s + s) + " " + ra);
        AtomicStampedReference<String> stamped = new AtomicStampedReference<>("s", 1);
        int[] holder = new int[1];
        System.out.println("stamped " + stamped.compareAndSet("s", "t", 1, 2) + " " + stamped.compareAndSet("t", "u", 1, 3) + " " + stamped.get(holder) + holder[0]);
        AtomicMarkableReference<String> marked = new AtomicMarkableReference<>("m", false);
        System.out.println("marked " + marked.attemptMark("m", true) + " " + marked.isMarked());

        AtomicsAndConcurrentQueues obj = new AtomicsAndConcurrentQueues();
        AtomicIntegerFieldUpdater<AtomicsAndConcurrentQueues> cu = AtomicIntegerFieldUpdater.newUpdater(AtomicsAndConcurrentQueues.class, "counter");
        AtomicLongFieldUpdater<AtomicsAndConcurrentQueues> tu = AtomicLongFieldUpdater.newUpdater(AtomicsAndConcurrentQueues.class, "total");
        AtomicReferenceFieldUpdater<AtomicsAndConcurrentQueues, String> lu = AtomicReferenceFieldUpdater.newUpdater(AtomicsAndConcurrentQueues.class, String.class, "label");
        System.out.println("updaters " + cu.incrementAndGet(obj) + " " + tu.addAndGet(obj, 99) + " " + lu.compareAndSet(obj, "start", "end") + " " + obj.label);
        LongAdder adder = new LongAdder();
        adder.add(5);
        adder.increment();
        LongAccumulator maxAcc = new LongAccumulator(Long::max, Long.MIN_VALUE);
        maxAcc.accumulate(3);
        maxAcc.accumulate(11);
        DoubleAdder dadder = new DoubleAdder();
        dadder.add(1.25);
        System.out.println("adders " + adder.sum() + " " + maxAcc.get() + " " + dadder.sum());

        ConcurrentLinkedQueue<Integer> q = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 10; i++) q.add(i);
        q.poll();
        q.remove(5);
        System.out.println("clq " + q + " " + q.size() + " " + q.peek() + " " + q.contains(9));
        ConcurrentLinkedDeque<String> dq = new ConcurrentLinkedDeque<>();
        dq.addFirst("a");
        dq.addLast("b");
        dq.push("c");
        System.out.println("cld " + dq + " " + dq.pollLast() + " " + dq.peekFirst());
        LinkedTransferQueue<Integer> ltq = new LinkedTransferQueue<>(List.of(1, 2, 3));
        System.out.println("ltq " + ltq.poll() + " " + ltq);
        ConcurrentSkipListMap<String, Integer> skip = new ConcurrentSkipListMap<>();
        for (String s : new String[] {"pear", "apple", "fig", "kiwi"}) skip.put(s, s.length());
        System.out.println("skiplist " + skip + " " + skip.firstKey() + " " + skip.headMap("kiwi"));
        ConcurrentSkipListSet<Integer> skipSet = new ConcurrentSkipListSet<>(List.of(5, 1, 3));
        System.out.println("skipset " + skipSet + " " + skipSet.ceiling(2));
        ConcurrentHashMap<String, Integer> chm = new ConcurrentHashMap<>();
        for (int i = 0; i < 100; i++) chm.merge("k" + (i % 7), 1, Integer::sum);
        System.out.println("chm " + new TreeMap<>(chm) + " " + chm.reduceValues(1, Integer::sum));
        CopyOnWriteArrayList<Integer> cow = new CopyOnWriteArrayList<>(List.of(1, 2));
        cow.addIfAbsent(2);
        cow.addIfAbsent(3);
        System.out.println("cow " + cow);
        ArrayBlockingQueue<Integer> abq = new ArrayBlockingQueue<>(2);
        System.out.println("abq " + abq.offer(1) + abq.offer(2) + abq.offer(3) + " " + abq);
        PriorityBlockingQueue<Integer> pbq = new PriorityBlockingQueue<>(List.of(4, 1, 3));
        System.out.println("pbq " + pbq.take() + " " + pbq.take());

        // Producer/consumer across threads.
        LinkedBlockingQueue<Integer> lbq = new LinkedBlockingQueue<>();
        Thread producer = new Thread(() -> {
            for (int i = 1; i <= 1000; i++) lbq.add(i);
            lbq.add(-1);
        });
        producer.start();
        long sum = 0;
        for (int v; (v = lbq.take()) != -1; ) sum += v;
        producer.join();
        System.out.println("lbq sum " + sum);

        // Contended atomics and a lock-free queue from several threads.
        ConcurrentLinkedQueue<Integer> shared = new ConcurrentLinkedQueue<>();
        AtomicLong contended = new AtomicLong();
        ReentrantLock lock = new ReentrantLock();
        int[] locked = new int[1];
        Thread[] ts = new Thread[4];
        for (int k = 0; k < ts.length; k++) {
            final int id = k;
            ts[k] = new Thread(() -> {
                for (int i = 0; i < 5000; i++) {
                    shared.add(id);
                    contended.incrementAndGet();
                    cu.incrementAndGet(obj);
                    lock.lock();
                    try {
                        locked[0]++;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("threads " + shared.size() + " " + contended.get() + " " + obj.counter + " " + locked[0]);

        CompletableFuture<Integer> cf = CompletableFuture.supplyAsync(() -> 21).thenApply(x -> x * 2);
        System.out.println("cf " + cf.join());
        CompletableFuture<String> both = CompletableFuture.supplyAsync(() -> "a").thenCombine(CompletableFuture.supplyAsync(() -> "b"), String::concat);
        System.out.println("cf combine " + both.get(10, TimeUnit.SECONDS));
        CompletableFuture<Integer> failed = CompletableFuture.<Integer>supplyAsync(() -> { throw new IllegalStateException("boom"); })
                .exceptionally(e -> e.getCause() instanceof IllegalStateException ? -1 : -2);
        System.out.println("cf exceptionally " + failed.join());
        CompletableFuture<Void> all = CompletableFuture.allOf(CompletableFuture.runAsync(() -> {}), CompletableFuture.completedFuture(1));
        System.out.println("cf allOf " + all.thenApply(v -> "done").get());
        CompletableFuture<String> manual = new CompletableFuture<>();
        CompletableFuture<Integer> dep = manual.thenApply(String::length);
        manual.complete("hello");
        System.out.println("cf manual " + dep.join() + " " + manual.isDone());

        ExecutorService ex = Executors.newFixedThreadPool(3);
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            final int k = i;
            fs.add(ex.submit(() -> k * k));
        }
        int squares = 0;
        for (Future<Integer> f : fs) squares += f.get();
        ex.shutdown();
        System.out.println("executor " + squares + " " + ex.awaitTermination(10, TimeUnit.SECONDS));
        System.out.println("forkjoin " + ForkJoinPool.commonPool().submit(() -> 5).get() + " " + new ForkJoinPool(2).invoke(new Fib(15)));
        CountDownLatch latch = new CountDownLatch(2);
        new Thread(latch::countDown).start();
        new Thread(latch::countDown).start();
        System.out.println("latch " + latch.await(10, TimeUnit.SECONDS));
        System.out.println("parallel " + List.of(5, 3, 1, 4).parallelStream().map(x -> x * 2).sorted().toList());
    }

    static class Fib extends RecursiveTask<Integer> {
        final int n;
        Fib(int n) { this.n = n; }
        protected Integer compute() {
            if (n < 2) return n;
            Fib a = new Fib(n - 1);
            a.fork();
            return new Fib(n - 2).compute() + a.join();
        }
    }
}
