public class MonitorsSingleThread {
    private int counter;
    private static int staticCounter;
    private final Object lock = new Object();

    synchronized void inc() { counter++; }
    synchronized int reentrant(int depth) { return depth == 0 ? counter : reentrant(depth - 1) + 1; }
    static synchronized void staticInc() { staticCounter++; }

    int blockSync() {
        synchronized (lock) {
            synchronized (lock) {
                synchronized (this) {
                    counter += 10;
                    return counter;
                }
            }
        }
    }

    int syncWithException() {
        try {
            synchronized (lock) {
                counter++;
                throw new IllegalStateException("inside synchronized");
            }
        } catch (IllegalStateException e) {
            synchronized (lock) {
                return counter * 100;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        MonitorsSingleThread m = new MonitorsSingleThread();
        for (int i = 0; i < 1000; i++) m.inc();
        System.out.println("counter=" + m.counter + " reentrant=" + m.reentrant(50));
        for (int i = 0; i < 500; i++) staticInc();
        System.out.println("staticCounter=" + staticCounter);
        System.out.println("blockSync=" + m.blockSync() + " syncWithException=" + m.syncWithException());
        System.out.println("holdsLock outside=" + Thread.holdsLock(m.lock));
        synchronized (m.lock) {
            System.out.println("holdsLock inside=" + Thread.holdsLock(m.lock) + " other=" + Thread.holdsLock(m));
        }
        try {
            m.lock.wait(10);
        } catch (IllegalMonitorStateException e) {
            System.out.println("wait without lock: IllegalMonitorStateException " + e.getMessage());
        }
        try {
            m.lock.notify();
        } catch (IllegalMonitorStateException e) {
            System.out.println("notify without lock: IllegalMonitorStateException " + e.getMessage());
        }
        synchronized (m.lock) {
            m.lock.notifyAll();
            m.lock.notify();
            System.out.println("notify while holding lock: ok");
            m.lock.wait(1);
            System.out.println("timed wait returned while holding lock: " + Thread.holdsLock(m.lock));
        }
        try {
            synchronized (m.lock) { m.lock.wait(-1); }
        } catch (IllegalArgumentException e) {
            System.out.println("negative timeout: " + e.getMessage());
        }
        String s = "interned-lock";
        synchronized (s) {
            synchronized ("interned-lock") {
                System.out.println("nested sync on same interned string ok");
            }
        }
        Class<?> c = MonitorsSingleThread.class;
        synchronized (c) {
            staticInc();
        }
        System.out.println("class lock reentrant staticCounter=" + staticCounter);
        System.out.println("current thread name=" + Thread.currentThread().getName() + " interrupted=" + Thread.interrupted());
    }
}
