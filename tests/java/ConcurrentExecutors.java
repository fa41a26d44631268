import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Executors and futures: fixed/cached/single/scheduled pools, a bounded ThreadPoolExecutor
 * filling core threads, queue and max threads before rejecting, invokeAll/invokeAny,
 * Future.get with ExecutionException causes and timeouts, shutdown/shutdownNow/awaitTermination,
 * ForkJoinPool RecursiveTask/RecursiveAction, CompletableFuture chains and failures, and
 * parallel streams (sum, sorted collect, groupingByConcurrent). Only exact results are printed.
 */
public class ConcurrentExecutors {
    static final class Fib extends RecursiveTask<Long> {
        final int n;
        Fib(int n) { this.n = n; }
        @Override protected Long compute() {
            if (n < 12) return slow(n);
            Fib a = new Fib(n - 1); a.fork();
            return new Fib(n - 2).compute() + a.join();
        }
        static long slow(int n) { return n < 2 ? n : slow(n - 1) + slow(n - 2); }
    }

    static final class Square extends RecursiveAction {
        final long[] a; final int lo, hi;
        Square(long[] a, int lo, int hi) { this.a = a; this.lo = lo; this.hi = hi; }
        @Override protected void compute() {
            if (hi - lo <= 1_000) { for (int i = lo; i < hi; i++) a[i] = a[i] * a[i]; return; }
            int mid = (lo + hi) >>> 1;
            invokeAll(new Square(a, lo, mid), new Square(a, mid, hi));
        }
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, prefix + n.incrementAndGet());
    }

    public static void main(String[] args) throws Exception {
        ExecutorService fixed = Executors.newFixedThreadPool(4, named("fixed-"));
        List<Future<Integer>> fs = new ArrayList<>();
        for (int i = 1; i <= 50; i++) { final int x = i; fs.add(fixed.submit(() -> x * x)); }
        long sum = 0;
        for (Future<Integer> f : fs) sum += f.get(10, TimeUnit.SECONDS);
        System.out.println("fixed pool sum of squares: " + sum);
        List<Callable<String>> calls = List.of(() -> "a", () -> "b", () -> { throw new IllegalStateException("c failed"); });
        for (Future<String> f : fixed.invokeAll(calls)) {
            try { System.out.println("invokeAll: " + f.get()); }
            catch (ExecutionException e) { System.out.println("invokeAll failed: " + e.getMessage() + " cause=" + e.getCause().getClass().getSimpleName()); }
        }
        System.out.println("invokeAny: " + fixed.invokeAny(List.of(() -> { throw new RuntimeException("x"); }, () -> "only success")));
        try { fixed.invokeAny(List.<Callable<String>>of(() -> { throw new ArithmeticException("all fail"); })); }
        catch (ExecutionException e) { System.out.println("invokeAny all failed: " + e.getCause()); }
        Future<?> thrower = fixed.submit(() -> { throw new UnsupportedOperationException("in task"); });
        try { thrower.get(); } catch (ExecutionException e) { System.out.println("get: " + e.getCause() + " done=" + thrower.isDone()); }
        CountDownLatch gate = new CountDownLatch(1);
        Future<String> blocked = fixed.submit(() -> { gate.await(); return "released"; });
        try { blocked.get(20, TimeUnit.MILLISECONDS); } catch (TimeoutException e) { System.out.println("get timeout: " + e.getClass().getName()); }
        gate.countDown();
        System.out.println("then: " + blocked.get(10, TimeUnit.SECONDS));
        fixed.shutdown();
        System.out.println("shutdown=" + fixed.isShutdown() + " terminated=" + fixed.awaitTermination(10, TimeUnit.SECONDS));
        try { fixed.submit(() -> 1); } catch (RejectedExecutionException e) { System.out.println("submit after shutdown: " + e.getClass().getSimpleName()); }

        // Single-thread executor preserves submission order; cached pool runs everything.
        ExecutorService single = Executors.newSingleThreadExecutor();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 10; i++) { final int x = i; single.execute(() -> order.add(x)); }
        single.shutdown();
        single.awaitTermination(10, TimeUnit.SECONDS);
        System.out.println("single order: " + order);
        ExecutorService cached = Executors.newCachedThreadPool(named("cached-"));
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 30; i++) cached.execute(ran::incrementAndGet);
        cached.shutdown();
        System.out.println("cached terminated=" + cached.awaitTermination(10, TimeUnit.SECONDS) + " ran=" + ran.get());

        // Bounded pool: 2 core + 2 queued + 2 extra threads, then rejection.
        CountDownLatch hold = new CountDownLatch(1);
        ThreadPoolExecutor tpe = new ThreadPoolExecutor(2, 4, 1, TimeUnit.SECONDS, new ArrayBlockingQueue<>(2), named("tpe-"));
        int rejected = 0;
        for (int i = 0; i < 8; i++) {
            try { tpe.execute(() -> { try { hold.await(); } catch (InterruptedException e) { } }); }
            catch (RejectedExecutionException e) { rejected++; }
        }
        System.out.println("tpe pool=" + tpe.getPoolSize() + " queued=" + tpe.getQueue().size() + " rejected=" + rejected);
        hold.countDown();
        tpe.shutdown();
        System.out.println("tpe terminated=" + tpe.awaitTermination(10, TimeUnit.SECONDS) + " completed=" + tpe.getCompletedTaskCount()
                + " largest=" + tpe.getLargestPoolSize());
        ExecutorService stuck = Executors.newSingleThreadExecutor();
        CountDownLatch running = new CountDownLatch(1);
        stuck.execute(() -> { running.countDown(); try { Thread.sleep(60_000); } catch (InterruptedException e) { } });
        for (int i = 0; i < 3; i++) stuck.execute(() -> { });
        running.await();
        System.out.println("shutdownNow pending=" + stuck.shutdownNow().size() + " terminated=" + stuck.awaitTermination(10, TimeUnit.SECONDS));

        // Scheduled executor.
        ScheduledExecutorService ses = Executors.newScheduledThreadPool(2);
        ScheduledFuture<String> later = ses.schedule(() -> "delayed", 20, TimeUnit.MILLISECONDS);
        CountDownLatch ticks = new CountDownLatch(5);
        ScheduledFuture<?> rate = ses.scheduleAtFixedRate(ticks::countDown, 0, 5, TimeUnit.MILLISECONDS);
        System.out.println("scheduled: " + later.get(10, TimeUnit.SECONDS) + " ticks=" + ticks.await(10, TimeUnit.SECONDS));
        System.out.println("cancel periodic: " + rate.cancel(false) + " cancelled=" + rate.isCancelled());
        ses.shutdown();
        System.out.println("ses terminated=" + ses.awaitTermination(10, TimeUnit.SECONDS));

        // ForkJoin.
        ForkJoinPool fj = new ForkJoinPool(4);
        System.out.println("fib(22) = " + fj.invoke(new Fib(22)));
        long[] arr = new long[20_000];
        for (int i = 0; i < arr.length; i++) arr[i] = i;
        fj.invoke(new Square(arr, 0, arr.length));
        System.out.println("sum of squares = " + Arrays.stream(arr).sum());
        fj.shutdown();
        System.out.println("common pool fib(18) = " + new Fib(18).invoke() + ", fj terminated=" + fj.awaitTermination(10, TimeUnit.SECONDS));

        // CompletableFuture.
        CompletableFuture<Integer> a = CompletableFuture.supplyAsync(() -> 6).thenApply(x -> x * 7);
        CompletableFuture<String> b = CompletableFuture.supplyAsync(() -> "answer");
        System.out.println("combine: " + a.thenCombine(b, (x, s) -> s + "=" + x).get(10, TimeUnit.SECONDS));
        CompletableFuture<Integer> fail = CompletableFuture.supplyAsync(() -> { throw new IllegalStateException("boom"); });
        System.out.println("exceptionally: " + fail.exceptionally(e -> { System.out.println("  saw " + e); return -1; }).join());
        System.out.println("handle: " + fail.handle((v, e) -> e == null ? "ok" : "handled " + e.getCause().getMessage()).join());
        try { fail.join(); } catch (CompletionException e) { System.out.println("join: " + e.getMessage()); }
        try { fail.get(); } catch (ExecutionException e) { System.out.println("get: " + e.getMessage()); }
        List<CompletableFuture<Integer>> parts = new ArrayList<>();
        for (int i = 1; i <= 10; i++) { final int x = i; parts.add(CompletableFuture.supplyAsync(() -> x * 10).thenCompose(v -> CompletableFuture.supplyAsync(() -> v + 1))); }
        CompletableFuture.allOf(parts.toArray(new CompletableFuture[0])).get(10, TimeUnit.SECONDS);
        System.out.println("allOf: " + parts.stream().map(CompletableFuture::join).collect(Collectors.toList()));
        System.out.println("completeOnTimeout: " + new CompletableFuture<String>().completeOnTimeout("default", 10, TimeUnit.MILLISECONDS).join());
        CompletableFuture<String> manual = new CompletableFuture<>();
        manual.completeExceptionally(new java.io.IOException("manual"));
        System.out.println("manual: done=" + manual.isDone() + " exceptional=" + manual.isCompletedExceptionally() + " " + manual.handle((v, e) -> e).join());

        // Parallel streams.
        System.out.println("parallel sum: " + IntStream.rangeClosed(1, 200_000).parallel().asLongStream().sum());
        System.out.println("parallel sorted: " + IntStream.range(0, 2_000).parallel().map(i -> (i * 37) % 2_000).filter(i -> i % 250 == 0)
                .boxed().sorted().collect(Collectors.toList()));
        Map<Integer, Long> groups = IntStream.range(0, 10_000).parallel().boxed()
                .collect(Collectors.groupingByConcurrent(i -> i % 7, Collectors.counting()));
        System.out.println("groupingByConcurrent: " + new TreeMap<>(groups) + " " + (groups instanceof ConcurrentMap));
        StringBuilder sb = new StringBuilder();
        IntStream.range(0, 20).parallel().mapToObj(Integer::toString).forEachOrdered(sb::append);
        System.out.println("forEachOrdered: " + sb);
    }
}
