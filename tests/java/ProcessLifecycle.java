import java.io.*;
import java.util.*;
import java.util.concurrent.*;

// Process lifetime: waitFor with timeouts, destroy/destroyForcibly, isAlive, exitValue,
// onExit, ProcessHandle (current, of, parent, children, info), System.getenv.
public class ProcessLifecycle {
    public static void main(String[] args) throws Exception {
        // The environment (only facts that do not depend on the machine).
        System.out.println("getenv PATH set: " + (System.getenv("PATH") != null));
        System.out.println("getenv HOME set: " + (System.getenv("HOME") != null));
        System.out.println("getenv missing: " + System.getenv("JXVM_SURELY_UNSET_VARIABLE"));
        Map<String, String> env = System.getenv();
        System.out.println("getenv map has PATH: " + env.containsKey("PATH") + " same value: " + Objects.equals(env.get("PATH"), System.getenv("PATH")));
        try {
            env.put("X", "y");
        } catch (UnsupportedOperationException e) {
            System.out.println("getenv map is read-only");
        }

        ProcessHandle self = ProcessHandle.current();
        System.out.println("current pid > 0: " + (self.pid() > 0) + " alive: " + self.isAlive());
        System.out.println("current has parent: " + self.parent().isPresent());
        System.out.println("current info has command: " + self.info().command().isPresent()
                + " start: " + self.info().startInstant().isPresent());
        try {
            self.destroy();
        } catch (IllegalStateException e) {
            System.out.println("destroy current: " + e.getMessage());
        }
        try {
            self.onExit();
        } catch (IllegalStateException e) {
            System.out.println("onExit current: " + e.getMessage());
        }

        // waitFor with a timeout, then destroy (SIGTERM: 128 + 15).
        Process sleep = new ProcessBuilder("sleep", "60").start();
        System.out.println("alive: " + sleep.isAlive());
        try {
            sleep.exitValue();
        } catch (IllegalThreadStateException e) {
            System.out.println("exitValue while running: " + e.getMessage());
        }
        System.out.println("waitFor(100ms): " + sleep.waitFor(100, TimeUnit.MILLISECONDS));
        ProcessHandle h = sleep.toHandle();
        System.out.println("handle pid matches: " + (h.pid() == sleep.pid()) + " of(pid) present: " + ProcessHandle.of(sleep.pid()).isPresent());
        System.out.println("child's parent is us: " + h.parent().map(ProcessHandle::pid).equals(Optional.of(self.pid())));
        System.out.println("we have it as child: " + self.children().anyMatch(c -> c.pid() == sleep.pid()));
        System.out.println("descendants include it: " + self.descendants().anyMatch(c -> c.pid() == sleep.pid()));
        ProcessHandle.Info info = h.info();
        System.out.println("child command ends with sleep: " + info.command().map(c -> c.endsWith("sleep")).orElse(false)
                + " args: " + info.arguments().map(Arrays::toString).orElse("?"));
        System.out.println("supportsNormalTermination: " + sleep.supportsNormalTermination());
        CompletableFuture<Process> exit = sleep.onExit();
        CompletableFuture<ProcessHandle> hexit = h.onExit();
        sleep.destroy();
        System.out.println("onExit same process: " + (exit.get(10, TimeUnit.SECONDS) == sleep));
        System.out.println("handle onExit pid: " + (hexit.get(10, TimeUnit.SECONDS).pid() == sleep.pid()));
        System.out.println("after destroy: rc=" + sleep.waitFor() + " alive=" + sleep.isAlive() + " exitValue=" + sleep.exitValue()
                + " handle alive=" + h.isAlive());
        System.out.println("waitFor(timeout) after exit: " + sleep.waitFor(1, TimeUnit.MILLISECONDS));
        System.out.println("toString: " + sleep.toString().replace(Long.toString(sleep.pid()), "PID"));

        // destroyForcibly: SIGKILL (128 + 9), through the handle too.
        Process sleep2 = new ProcessBuilder("sleep", "60").start();
        Process same = sleep2.destroyForcibly();
        System.out.println("destroyForcibly returns this: " + (same == sleep2) + " rc=" + sleep2.waitFor());
        Process sleep3 = new ProcessBuilder("sleep", "60").start();
        System.out.println("handle destroyForcibly: " + sleep3.toHandle().destroyForcibly());
        System.out.println("rc=" + sleep3.waitFor(10, TimeUnit.SECONDS) + " " + sleep3.exitValue());
        // A process that ignores SIGTERM is only stopped by SIGKILL.
        Process stubborn = new ProcessBuilder("sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done").start();
        BufferedReader r = new BufferedReader(new InputStreamReader(stubborn.getInputStream()));
        System.out.println("stubborn says: " + r.readLine());
        stubborn.destroy();
        System.out.println("after TERM finished: " + stubborn.waitFor(300, TimeUnit.MILLISECONDS));
        stubborn.destroyForcibly();
        System.out.println("after KILL rc=" + stubborn.waitFor());
        // Destroying an exited process changes nothing.
        Process quick = new ProcessBuilder("true").start();
        System.out.println("quick rc=" + quick.waitFor());
        quick.destroy();
        System.out.println("quick rc after destroy=" + quick.exitValue());

        // Several processes at once, waited in reverse order, and onExit chains.
        List<Process> ps = new ArrayList<>();
        for (int i = 0; i < 5; i++) ps.add(new ProcessBuilder("sh", "-c", "sleep 0.0" + i + "; exit " + (10 + i)).start());
        Collections.reverse(ps);
        StringBuilder sb = new StringBuilder();
        for (Process p : ps) sb.append(p.waitFor()).append(' ');
        System.out.println("many: " + sb.toString().trim());
        CompletableFuture<Integer> chained = new ProcessBuilder("sh", "-c", "exit 42").start().onExit().thenApply(Process::exitValue);
        System.out.println("chained onExit: " + chained.get(10, TimeUnit.SECONDS));

        // A thread blocked in waitFor is woken by the exit of the process.
        Process later = new ProcessBuilder("sleep", "0.2").start();
        int[] seen = {-1};
        Thread waiter = new Thread(() -> {
            try { seen[0] = later.waitFor(); } catch (InterruptedException e) { seen[0] = -2; }
        });
        waiter.start();
        waiter.join();
        System.out.println("waiter saw: " + seen[0]);
        // An interrupted waitFor throws.
        Process longer = new ProcessBuilder("sleep", "60").start();
        Thread.currentThread().interrupt();
        try {
            longer.waitFor();
        } catch (InterruptedException e) {
            System.out.println("waitFor interrupted");
        }
        longer.destroyForcibly().waitFor();
        System.out.println("ProcessHandle.of(exited) present: " + ProcessHandle.of(longer.pid()).isPresent());
        System.out.println("done");
    }
}
