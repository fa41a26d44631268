import java.nio.file.Path;
import jx.pso.Container;
import jx.pso.IntArray;

/** The PSO scan of Scan, in its own class so that Scan runs on HotSpot without the jx API. */
class PsoScan {
    static int scan(Path file) throws java.io.IOException {
        Container c = Container.mapReadOnly(file);
        IntArray ints = c.ints(0, (int) (c.size() / 4));
        int max = Integer.MIN_VALUE;
        for (int i = 0, n = ints.length(); i < n; i++) max = Math.max(max, ints.get(i));
        return max;
    }
}
