import java.util.concurrent.*;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Interrupts: the interrupt flag and its clearing by Thread.interrupted() and by
 * InterruptedException; interrupts waking Thread.sleep, Object.wait (timed and untimed),
 * Thread.join, LockSupport.park/parkNanos, BlockingQueue.take, CountDownLatch.await,
 * ReentrantLock.lockInterruptibly and Future.cancel(true); a pending interrupt making the next
 * blocking call throw at once; and an interrupt not releasing a thread BLOCKED on a monitor.
 */
public class ThreadInterrupts {
    static final Object lock = new Object();
    static volatile String result;

    interface Body { void run() throws Exception; }

    /** Runs body in a thread, waits until it blocks (or ends), interrupts it, joins, prints result. */
    static void scenario(String name, Body body) throws InterruptedException {
        result = "no result";
        Thread t = new Thread(() -> {
            try { body.run(); } catch (Exception e) { result = "threw " + e; }
            result += " | flag after=" + Thread.currentThread().isInterrupted();
        }, name);
        t.setDaemon(true); // if main dies, do not keep the VM alive
        t.start();
        long deadline = System.nanoTime() + 5_000_000_000L;
        Thread.State s;
        while ((s = t.getState()) != Thread.State.WAITING && s != Thread.State.TIMED_WAITING && s != Thread.State.TERMINATED) {
            if (System.nanoTime() > deadline) { System.out.println("FAIL: " + name + " never blocked: " + s); break; }
            Thread.sleep(1);
        }
        t.interrupt();
        t.join(10_000);
        if (t.isAlive()) System.out.println("FAIL: " + name + " still alive after interrupt");
        System.out.println(name + ": " + result);
    }

    public static void main(String[] args) throws Exception {
        Thread me = Thread.currentThread();
        System.out.println("initial: " + me.isInterrupted());
        me.interrupt();
        System.out.println("after interrupt: " + me.isInterrupted() + " " + me.isInterrupted());
        System.out.println("interrupted(): " + Thread.interrupted() + " then " + Thread.interrupted() + " flag=" + me.isInterrupted());

        me.interrupt();
        try { Thread.sleep(10_000); System.out.println("FAIL: slept"); }
        catch (InterruptedException e) { System.out.println("pending interrupt, sleep: " + e + " flag=" + me.isInterrupted()); }
        me.interrupt();
        try { Thread.sleep(0); System.out.println("sleep(0) with pending interrupt returned"); }
        catch (InterruptedException e) { System.out.println("pending interrupt, sleep(0): " + e.getMessage()); }
        Thread.interrupted();
        me.interrupt();
        synchronized (lock) {
            try { lock.wait(); System.out.println("FAIL: waited"); }
            catch (InterruptedException e) { System.out.println("pending interrupt, wait: " + e + " holdsLock=" + Thread.holdsLock(lock)); }
        }
        me.interrupt();
        LockSupport.park();
        System.out.println("pending interrupt, park returned, flag still=" + Thread.interrupted());
        me.interrupt();
        try { new CountDownLatch(1).await(); } catch (InterruptedException e) { System.out.println("pending interrupt, latch: " + e); }
        me.interrupt();
        try { System.out.println("FAIL: zero latch " + waitZeroLatch()); }
        catch (InterruptedException e) { System.out.println("pending interrupt, zero-count latch timed await: " + e + " flag=" + me.isInterrupted()); }

        scenario("sleep", () -> { Thread.sleep(60_000); result = "woke normally"; });
        scenario("timed-wait", () -> { synchronized (lock) { lock.wait(60_000); } result = "woke normally"; });
        scenario("wait", () -> { synchronized (lock) { while (true) lock.wait(); } });
        scenario("park", () -> { LockSupport.park(); result = "park returned interrupted=" + Thread.currentThread().isInterrupted(); });
        scenario("parkNanos", () -> {
            LockSupport.parkNanos(60_000_000_000L);
            result = "parkNanos returned interrupted=" + Thread.interrupted();
        });
        scenario("take", () -> { result = "took " + new LinkedBlockingQueue<String>().take(); });
        scenario("poll-timeout", () -> { result = "polled " + new ArrayBlockingQueue<String>(1).poll(60, TimeUnit.SECONDS); });
        scenario("latch", () -> { new CountDownLatch(1).await(); });
        scenario("semaphore", () -> { new Semaphore(0).acquire(); });
        CountDownLatch never = new CountDownLatch(1);
        Thread target = new Thread(() -> { try { never.await(); } catch (InterruptedException e) { } }, "target");
        target.setDaemon(true);
        target.start();
        scenario("join", () -> { target.join(); result = "joined"; });
        scenario("timed-join", () -> { target.join(60_000); result = "joined alive=" + target.isAlive(); });
        never.countDown();
        target.join();

        ReentrantLock rl = new ReentrantLock();
        rl.lock();
        scenario("lockInterruptibly", () -> { rl.lockInterruptibly(); result = "locked"; });
        scenario("tryLock-timeout", () -> { result = "tryLock=" + rl.tryLock(60, TimeUnit.SECONDS); });
        rl.unlock();

        // An interrupt does not release a thread BLOCKED entering a monitor; the flag stays set.
        Thread blocked;
        synchronized (lock) {
            blocked = new Thread(() -> { synchronized (lock) { result = "entered, interrupted=" + Thread.currentThread().isInterrupted(); } }, "blocked");
            result = "not entered";
            blocked.start();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (blocked.getState() != Thread.State.BLOCKED && System.nanoTime() < deadline) Thread.sleep(1);
            blocked.interrupt();
            Thread.sleep(20);
            System.out.println("blocked after interrupt: " + result + " alive=" + blocked.isAlive());
        }
        blocked.join(10_000);
        System.out.println("blocked: " + result);

        // Future.cancel(true) interrupts the running task.
        ExecutorService ex = Executors.newSingleThreadExecutor();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        Future<?> f = ex.submit(() -> {
            started.countDown();
            try { Thread.sleep(60_000); result = "task slept"; }
            catch (InterruptedException e) { result = "task interrupted: " + e.getMessage(); }
            finished.countDown();
        });
        started.await();
        System.out.println("cancel: " + f.cancel(true) + " cancelled=" + f.isCancelled() + " done=" + f.isDone());
        System.out.println("task finished: " + finished.await(10, TimeUnit.SECONDS) + " " + result);
        try { f.get(); } catch (CancellationException e) { System.out.println("get after cancel: " + e.getClass().getName()); }
        ex.shutdown();
        System.out.println("terminated: " + ex.awaitTermination(10, TimeUnit.SECONDS));
    }

    static boolean waitZeroLatch() throws InterruptedException {
        return new CountDownLatch(0).await(1, TimeUnit.SECONDS);
    }
}
