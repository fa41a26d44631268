import java.util.concurrent.CountDownLatch;

/**
 * VM exit with threads: main returns while a non-daemon worker is still running; the worker
 * sees the main thread terminate (join on it), keeps printing, and the VM exits (status 0) only
 * when it ends, running the shutdown hook last. Daemon threads, sleeping or waiting forever, do
 * not keep the VM alive and never print.
 */
public class ThreadExitNonDaemon {
    static volatile boolean workerDone;

    public static void main(String[] args) throws Exception {
        Thread mainThread = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
                System.out.println("hook: worker done=" + workerDone + " hook daemon=" + Thread.currentThread().isDaemon()), "hook"));
        Thread sleeper = new Thread(() -> {
            try { Thread.sleep(60_000); } catch (InterruptedException e) { }
            System.out.println("FAIL: daemon sleeper outlived the VM");
        }, "daemon-sleeper");
        sleeper.setDaemon(true);
        sleeper.start();
        Object never = new Object();
        Thread waiter = new Thread(() -> {
            synchronized (never) { try { never.wait(); } catch (InterruptedException e) { } }
            System.out.println("FAIL: daemon waiter woke");
        }, "daemon-waiter");
        waiter.setDaemon(true);
        waiter.start();

        CountDownLatch started = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            started.countDown();
            try { mainThread.join(5_000); } catch (InterruptedException e) { System.out.println("FAIL: interrupted"); }
            System.out.println("worker: main alive=" + mainThread.isAlive() + " state=" + mainThread.getState());
            long sum = 0;
            for (int i = 1; i <= 100_000; i++) sum += i;
            System.out.println("worker: computed " + sum + " after main returned");
            System.out.println("worker: daemons alive=" + sleeper.isAlive() + "," + waiter.isAlive());
            workerDone = true;
        }, "worker");
        System.out.println("main: worker daemon=" + worker.isDaemon() + " sleeper daemon=" + sleeper.isDaemon());
        worker.start();
        started.await();
        System.out.println("main: returning");
    }
}
