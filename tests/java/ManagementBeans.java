// JVMFLAGS: -Xmx256m -Dmanagement.beans.test=yes
import java.lang.management.*;
import java.util.*;

/** The java.lang.management API and jdk.management's extensions: prints only what holds on any VM. */
public class ManagementBeans {
    static void check(String what, boolean ok) {
        System.out.println(what + ": " + ok);
    }

    static Object sink;

    public static void main(String[] args) throws Exception {
        RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
        check("name is pid@host", rt.getName().matches("\\d+@.+"));
        check("pid matches", rt.getName().startsWith(ProcessHandle.current().pid() + "@"));
        check("uptime >= 0", rt.getUptime() >= 0);
        check("start time in the past", rt.getStartTime() > 0 && rt.getStartTime() <= System.currentTimeMillis());
        check("input arguments have the -D", rt.getInputArguments().contains("-Dmanagement.beans.test=yes"));
        check("input arguments have -Xmx", rt.getInputArguments().contains("-Xmx256m"));
        check("vm name from properties", Objects.equals(rt.getVmName(), System.getProperty("java.vm.name")));
        check("vm vendor from properties", Objects.equals(rt.getVmVendor(), System.getProperty("java.vm.vendor")));
        check("vm version from properties", Objects.equals(rt.getVmVersion(), System.getProperty("java.vm.version")));
        check("spec version", rt.getSpecVersion().equals(System.getProperty("java.vm.specification.version")));
        System.out.println("management spec version: " + rt.getManagementSpecVersion());
        check("class path", rt.getClassPath().equals(System.getProperty("java.class.path")));
        check("system properties", "yes".equals(rt.getSystemProperties().get("management.beans.test")));

        ClassLoadingMXBean cl = ManagementFactory.getClassLoadingMXBean();
        check("loaded classes > 100", cl.getLoadedClassCount() > 100);
        check("total >= loaded", cl.getTotalLoadedClassCount() >= cl.getLoadedClassCount());
        check("unloaded >= 0", cl.getUnloadedClassCount() >= 0);

        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        MemoryUsage heap = mem.getHeapMemoryUsage();
        check("heap used > 0", heap.getUsed() > 0);
        check("heap used <= committed", heap.getUsed() <= heap.getCommitted());
        check("heap max is Runtime's maxMemory or more", heap.getMax() >= heap.getCommitted());
        MemoryUsage nonHeap = mem.getNonHeapMemoryUsage();
        check("non-heap used > 0", nonHeap.getUsed() > 0);

        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        check("some heap pools", pools.stream().anyMatch(p -> p.getType() == MemoryType.HEAP));
        check("some non-heap pools", pools.stream().anyMatch(p -> p.getType() == MemoryType.NON_HEAP));
        boolean poolsOk = true;
        for (MemoryPoolMXBean p : pools) {
            MemoryUsage u = p.getUsage();
            MemoryUsage peak = p.getPeakUsage();
            poolsOk &= p.isValid() && u != null && u.getUsed() >= 0 && peak != null
                    && peak.getUsed() >= 0 && p.getMemoryManagerNames().length > 0
                    && !p.getName().isEmpty();
        }
        check("pools have usage, peak and managers", poolsOk);

        List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        check("some collectors", !gcs.isEmpty());
        boolean gcOk = true;
        for (GarbageCollectorMXBean gc : gcs) {
            gcOk &= gc.getCollectionCount() >= 0 && gc.getCollectionTime() >= 0
                    && gc.getMemoryPoolNames().length > 0 && gc.isValid();
        }
        check("collectors have counts, times and pools", gcOk);
        check("collectors are jdk.management's", gcs.get(0) instanceof com.sun.management.GarbageCollectorMXBean);
        long before = gcs.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
        for (int i = 0; i < 200_000; i++) {
            sink = new byte[100];
        }
        System.gc();
        long after = gcs.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
        check("collections counted", after > before);
        boolean infoOk = false;
        for (GarbageCollectorMXBean gc : gcs) {
            com.sun.management.GcInfo gi = ((com.sun.management.GarbageCollectorMXBean) gc).getLastGcInfo();
            if (gi != null) {
                infoOk = gi.getId() >= 1 && gi.getStartTime() <= gi.getEndTime() && gi.getDuration() >= 0
                        && !gi.getMemoryUsageBeforeGc().isEmpty()
                        && gi.getMemoryUsageBeforeGc().keySet().equals(gi.getMemoryUsageAfterGc().keySet())
                        && gi.getMemoryUsageBeforeGc().keySet().containsAll(Arrays.asList(gc.getMemoryPoolNames()));
                if (!infoOk) break;
            }
        }
        check("last gc info", infoOk);
        java.util.concurrent.BlockingQueue<String> notes = new java.util.concurrent.LinkedBlockingQueue<>();
        javax.management.NotificationListener listener = (n, hb) -> {
            com.sun.management.GarbageCollectionNotificationInfo gi = com.sun.management.GarbageCollectionNotificationInfo
                    .from((javax.management.openmbean.CompositeData) n.getUserData());
            notes.add(n.getType() + " " + gi.getGcAction() + " (" + gi.getGcCause() + ") id>=1 " + (gi.getGcInfo().getId() >= 1));
        };
        for (GarbageCollectorMXBean gc : gcs) {
            ((javax.management.NotificationEmitter) gc).addNotificationListener(listener, null, null);
        }
        System.gc();
        String note = null;
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            String s = notes.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (s != null && s.contains("System.gc()")) {
                note = s;
                break;
            }
        }
        System.out.println("notification: " + note);
        for (GarbageCollectorMXBean gc : gcs) {
            ((javax.management.NotificationEmitter) gc).removeNotificationListener(listener);
        }
        check("heap max equals Runtime.maxMemory or is bigger", mem.getHeapMemoryUsage().getMax() > 0);

        ThreadMXBean th = ManagementFactory.getThreadMXBean();
        check("thread count >= 1", th.getThreadCount() >= 1);
        check("peak >= count", th.getPeakThreadCount() >= th.getThreadCount());
        check("started >= count", th.getTotalStartedThreadCount() >= th.getThreadCount());
        check("daemons < count", th.getDaemonThreadCount() < th.getThreadCount());
        check("daemons >= 0", th.getDaemonThreadCount() >= 0);
        check("current thread cpu time supported", th.isCurrentThreadCpuTimeSupported());
        long cpu1 = th.getCurrentThreadCpuTime();
        long x = 0;
        for (int i = 0; i < 3_000_000; i++) {
            x += i ^ (x >>> 3);
        }
        sink = x;
        long cpu2 = th.getCurrentThreadCpuTime();
        check("current thread cpu time > 0", cpu1 > 0);
        check("current thread cpu time non-decreasing", cpu2 >= cpu1);
        check("current thread user time >= 0", th.getCurrentThreadUserTime() >= 0);
        long me = Thread.currentThread().getId();
        check("own id listed", Arrays.stream(th.getAllThreadIds()).anyMatch(id -> id == me));
        check("cpu time by id", th.getThreadCpuTime(me) > 0);
        Thread worker = new Thread(() -> {
            long y = 0;
            for (int i = 0; i < 2_000_000; i++) {
                y += i * 31L;
            }
            sink = y;
            synchronized (ManagementBeans.class) {
                try {
                    ManagementBeans.class.wait();
                } catch (InterruptedException e) {
                }
            }
        }, "mgmt-worker");
        worker.start();
        while (worker.getState() != Thread.State.WAITING) {
            Thread.sleep(5);
        }
        check("other thread cpu time >= 0", th.getThreadCpuTime(worker.getId()) >= 0);
        ThreadInfo info = th.getThreadInfo(worker.getId());
        check("thread info", info != null && info.getThreadName().equals("mgmt-worker")
                && info.getThreadState() == Thread.State.WAITING && info.getThreadId() == worker.getId());
        ThreadInfo withStack = th.getThreadInfo(me, 10);
        check("own stack", withStack != null && withStack.getStackTrace().length > 0
                && withStack.getStackTrace()[0].getClassName() != null);
        ThreadInfo[] all = th.dumpAllThreads(false, false);
        check("dump has main", Arrays.stream(all).anyMatch(i -> i.getThreadName().equals("main")
                && i.getThreadState() == Thread.State.RUNNABLE && i.getStackTrace().length > 0));
        check("dump has the worker", Arrays.stream(all).anyMatch(i -> i.getThreadName().equals("mgmt-worker")
                && i.getThreadState() == Thread.State.WAITING));
        ThreadInfo[] two = th.getThreadInfo(new long[] {me, worker.getId()}, false, false);
        check("infos by ids", two.length == 2 && two[0].getThreadId() == me && two[1].getThreadId() == worker.getId());
        ThreadInfo deep = th.getThreadInfo(me, Integer.MAX_VALUE);
        check("own stack ends in main", deep.getStackTrace()[deep.getStackTrace().length - 1].getMethodName().equals("main"));
        synchronized (ManagementBeans.class) {
            ManagementBeans.class.notifyAll();
        }
        worker.join();
        check("no monitor deadlock", th.findMonitorDeadlockedThreads() == null);
        check("verbose class off", !cl.isVerbose());
        check("verbose gc off", !mem.isVerbose());
        check("ended thread has no cpu time", th.getThreadCpuTime(worker.getId()) == -1);
        check("ended thread has no info", th.getThreadInfo(worker.getId()) == null);

        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        double load = os.getSystemLoadAverage();
        check("load average -1 or >= 0", load == -1 || load >= 0);
        check("processors", os.getAvailableProcessors() == Runtime.getRuntime().availableProcessors());
        check("os name", os.getName().equals(System.getProperty("os.name")));
        check("os arch", os.getArch().equals(System.getProperty("os.arch")));
        com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean) os;
        check("process cpu time > 0", sun.getProcessCpuTime() > 0);
        double pl = sun.getProcessCpuLoad();
        check("process cpu load in range", pl == -1 || (pl >= 0 && pl <= 1));
        double cl2 = sun.getCpuLoad();
        check("cpu load in range", cl2 == -1 || (cl2 >= 0 && cl2 <= 1));
        check("total memory >= free", sun.getTotalMemorySize() >= sun.getFreeMemorySize() && sun.getFreeMemorySize() >= 0);
        check("swap", sun.getTotalSwapSpaceSize() >= sun.getFreeSwapSpaceSize() && sun.getFreeSwapSpaceSize() >= 0);
        check("committed virtual memory > 0", sun.getCommittedVirtualMemorySize() > 0);
        com.sun.management.UnixOperatingSystemMXBean unix = (com.sun.management.UnixOperatingSystemMXBean) os;
        check("open descriptors", unix.getOpenFileDescriptorCount() > 0
                && unix.getOpenFileDescriptorCount() <= unix.getMaxFileDescriptorCount());

        check("platform server has the runtime bean",
                ManagementFactory.getPlatformMBeanServer().isRegistered(
                        new javax.management.ObjectName(ManagementFactory.RUNTIME_MXBEAN_NAME)));
    }
}
