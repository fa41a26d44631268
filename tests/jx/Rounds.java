import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jx.domain.Domain;
import jx.domain.DomainSpec;

/**
 * Everything a terminated domain held is given back (issue 15): rounds of domains that
 * allocate, load classes and are then terminated keep the process's resident memory flat
 * after the first round. Prints each round's RSS and "ok ..." lines, or throws.
 */
public class Rounds {
    static long rssMiB() throws Exception {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
        }
        throw new AssertionError("no VmRSS");
    }

    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError("FAILED: " + what);
        System.out.println("ok " + what);
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]), perRound = Integer.parseInt(args[1]);
        List<Long> rss = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            Domain[] ds = new Domain[perRound];
            for (int i = 0; i < perRound; i++) {
                ds[i] = Domain.create(DomainSpec.named("d" + i).classPath(System.getProperty("java.class.path")).mainClass("Rounds$Busy"));
            }
            for (Domain d : ds) d.terminate();
            for (Domain d : ds) {
                if (!d.awaitTermination(60_000)) throw new AssertionError("FAILED: " + d + " did not end");
            }
            // What the ended domains' threads allocated goes back to the kernel in the
            // background (jxvm-unloader): give it a moment, and later rounds up to 10 s to
            // come down to the bound checked below.
            Thread.sleep(500);
            System.gc();
            long now = rssMiB();
            for (int i = 0; r >= 2 && i < 200 && now > rss.get(1) + rss.get(1) / 10; i++) {
                Thread.sleep(50);
                now = rssMiB();
            }
            rss.add(now);
            System.out.println("round " + r + ": " + rss.get(r) + " MiB resident");
        }
        // Each domain filled 4 MiB of its heap: had terminated domains kept it, one round would
        // add perRound * 4 MiB.
        long added = rss.get(1) - rss.get(0);
        check(added < perRound, "terminated domains gave their memory back (a round of " + perRound + " added " + added + " MiB)");
        long first = rss.get(1);
        long worst = rss.subList(2, rounds).stream().mapToLong(Long::longValue).max().orElse(0);
        check(worst <= first + first / 10, "resident memory stays flat (within 10%) after the first round (" + first + " MiB, then at most " + worst + " MiB)");
    }

    /** Allocates 4 MiB, fills a map and formats a date (loading classes), then waits. */
    public static class Busy {
        public static void main(String[] args) throws Exception {
            List<byte[]> l = new ArrayList<>();
            for (int i = 0; i < 64; i++) l.add(new byte[64 << 10]);
            Map<String, Integer> m = new HashMap<>();
            for (int i = 0; i < 1000; i++) m.put("k" + i, i);
            System.setProperty("x", String.format("%d %s", m.size(), java.time.LocalDate.of(2020, 1, 1)));
            Thread.sleep(600_000);
        }
    }
}
