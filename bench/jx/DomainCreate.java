import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Domain creation (JX §2.1, the paper's domain creation figure), on jxvm only: creates N
 * domains one after another from this program's class path, each running DomainCreate$Idle
 * (which sleeps until it is terminated), times each Domain.create call (it returns once the
 * new domain's class library is initialized), and measures the memory the idle domains hold.
 *
 *   DomainCreate [N] [CLASS_PATH_DIR]   (default 20; default class path: java.class.path)
 *
 * Prints:
 *   domain.first ms T         the first creation
 *   domain.median ms T        median of the other N - 1
 *   domain.min ms T           fastest of the other N - 1
 *   domain.max ms T           slowest of the other N - 1
 *   domain.rss KiB V          (VmRSS after the N creations - VmRSS before) / N
 *   domain.rss_more KiB V     (VmRSS after the N - VmRSS after the first) / (N - 1)
 *   domain.heap KiB V         sum over the domains of stats().heapUsed() / N
 *   domain.terminate ms T     terminate() and awaitTermination() of all N, per domain
 * then "all domains ended". A domain that is not alive before its termination, or has not
 * ended within 10 s of it, prints a line starting with FAILED and the program exits 1.
 */
public final class DomainCreate {
    /** A new domain's main: stays alive, blocked, until the domain is terminated. */
    public static final class Idle {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** VmRSS of this process in KiB, from /proc/self/status (-1 if it cannot be read). */
    static long rssKib() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(f[0]);
                }
            }
        } catch (Exception e) {
            System.out.println("# cannot read /proc/self/status: " + e);
        }
        return -1;
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    static String kib(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** Waits (up to 5 s in all) until every domain has its main thread, then a little more for them to block. */
    static void settle(List<Domain> domains) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (Domain d : domains) {
            while (d.stats().liveThreads() < 1 && System.nanoTime() < deadline) Thread.sleep(1);
        }
        Thread.sleep(100);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        if (n < 2) throw new IllegalArgumentException("N must be at least 2: " + n);
        String cp = args.length > 1 ? args[1] : System.getProperty("java.class.path");
        System.out.println("# DomainCreate " + n + " domains, class path " + cp);
        int failures = 0;

        List<Domain> domains = new ArrayList<>();
        long[] nanos = new long[n];
        long rssBefore = rssKib();
        long rssAfterFirst = -1;
        for (int i = 0; i < n; i++) {
            DomainSpec spec = DomainSpec.named("idle" + i).classPath(cp).mainClass("DomainCreate$Idle");
            long start = System.nanoTime();
            Domain d = Domain.create(spec);
            nanos[i] = System.nanoTime() - start;
            domains.add(d);
            if (i == 0) {
                settle(domains);
                rssAfterFirst = rssKib();
            }
        }
        settle(domains);
        long rssAfter = rssKib();

        long heap = 0;
        for (Domain d : domains) heap += d.stats().heapUsed();

        long[] rest = Arrays.copyOfRange(nanos, 1, n);
        Arrays.sort(rest);
        System.out.println("domain.first ms " + ms(nanos[0]));
        System.out.println("domain.median ms " + ms(rest[rest.length / 2]));
        System.out.println("domain.min ms " + ms(rest[0]));
        System.out.println("domain.max ms " + ms(rest[rest.length - 1]));
        if (rssBefore >= 0 && rssAfter >= 0) {
            System.out.println("domain.rss KiB " + kib((double) (rssAfter - rssBefore) / n));
            System.out.println("domain.rss_more KiB " + kib((double) (rssAfter - rssAfterFirst) / (n - 1)));
        }
        System.out.println("domain.heap KiB " + kib(heap / 1024.0 / n));
        System.out.println("# VmRSS KiB before " + rssBefore + ", after the first " + rssAfterFirst + ", after all " + rssAfter);

        for (Domain d : domains) {
            if (!d.isAlive()) {
                System.out.println("FAILED domain " + d.name() + " is not alive before it is terminated");
                failures++;
            }
        }
        long start = System.nanoTime();
        for (Domain d : domains) d.terminate();
        for (Domain d : domains) {
            if (!d.awaitTermination(10_000)) {
                System.out.println("FAILED domain " + d.name() + " has not ended within 10 s of terminate()");
                failures++;
            }
        }
        System.out.println("domain.terminate ms " + ms((System.nanoTime() - start) / n));
        if (failures > 0) {
            System.out.println(failures + " failures");
            System.exit(1);
        }
        System.out.println("all domains ended");
    }
}
