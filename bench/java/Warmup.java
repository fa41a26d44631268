import java.lang.reflect.Method;

/**
 * The warm-up harness of the benchmark runner (not a kernel): {@code Warmup N Kernel SIZE} runs
 * {@code Kernel.main(SIZE)} N times in this one VM and prints the wall time of each run on
 * stderr as {@code metric iteration_K MS ms}, so the runner can show how a VM's speed changes
 * as its JIT warms up. The kernel's own output goes to stdout as usual (the runner ignores it).
 */
final class Warmup {
    private Warmup() {}

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        String[] kernelArgs = {args[2]};
        for (int k = 1; k <= n; k++) {
            long t0 = System.nanoTime();
            main.invoke(null, (Object) kernelArgs.clone());
            long t1 = System.nanoTime();
            System.err.println("metric iteration_" + k + " " + (t1 - t0) / 1e6 + " ms");
        }
    }
}
