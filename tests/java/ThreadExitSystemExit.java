/**
 * System.exit(3) called from a non-main thread while main is blocked: the shutdown hook runs
 * (and cannot register or remove hooks: "Shutdown in progress"), finally blocks in the exiting
 * thread do not run, main never resumes, and the exit status is 3.
 */
public class ThreadExitSystemExit {
    public static void main(String[] args) throws Exception {
        Object never = new Object();
        Thread mainThread = Thread.currentThread();
        Thread hook = new Thread(() -> {
            System.out.println("hook: running in " + Thread.currentThread().getName());
            try { Runtime.getRuntime().addShutdownHook(new Thread(() -> { })); }
            catch (IllegalStateException e) { System.out.println("hook: add: " + e.getMessage()); }
            try { Runtime.getRuntime().removeShutdownHook(Thread.currentThread()); }
            catch (IllegalStateException e) { System.out.println("hook: remove: " + e.getMessage()); }
            System.out.flush();
        }, "exit-hook");
        Runtime.getRuntime().addShutdownHook(hook);
        try { Runtime.getRuntime().addShutdownHook(hook); } catch (IllegalArgumentException e) { System.out.println("add twice: " + e.getMessage()); }

        Thread exiter = new Thread(() -> {
            try {
                System.out.println("exiter: main is " + waitForTimedWaiting(mainThread));
                System.out.println("exiter: calling System.exit(3)");
                System.exit(3);
                System.out.println("FAIL: returned from System.exit");
            } finally {
                System.out.println("FAIL: finally ran after System.exit");
            }
        }, "exiter");
        exiter.start();
        synchronized (never) {
            never.wait(30_000);
        }
        System.out.println("FAIL: main resumed");
    }

    static Thread.State waitForTimedWaiting(Thread t) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) Thread.onSpinWait();
        return t.getState();
    }
}
