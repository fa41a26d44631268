/**
 * main ends with an uncaught exception while a non-daemon worker still runs: the default
 * handler reports it on stderr ("Exception in thread "main" ..."), the worker sees main
 * terminate and finishes its output, the shutdown hook runs, and the exit status is 1.
 */
public class ThreadExitUncaughtMain {
    public static void main(String[] args) throws Exception {
        Thread mainThread = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook: ran"), "hook"));
        Thread worker = new Thread(() -> {
            try { mainThread.join(5_000); } catch (InterruptedException e) { System.out.println("FAIL: interrupted"); }
            System.out.println("worker: main alive=" + mainThread.isAlive());
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 5; i++) sb.append(i);
            System.out.println("worker: finished " + sb);
        }, "worker");
        worker.start();
        System.out.println("main: throwing");
        throw new IllegalStateException("main failed");
    }
}
