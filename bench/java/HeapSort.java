/** Java Grande section 2 "HeapSort": in-place heap sort of N pseudo-random ints. */
public class HeapSort {
    static void siftDown(int[] a, int root, int end) {
        int v = a[root];
        int child;
        while ((child = 2 * root + 1) < end) {
            if (child + 1 < end && a[child + 1] > a[child]) child++;
            if (a[child] <= v) break;
            a[root] = a[child];
            root = child;
        }
        a[root] = v;
    }

    static void sort(int[] a) {
        int n = a.length;
        for (int i = n / 2 - 1; i >= 0; i--) siftDown(a, i, n);
        for (int end = n - 1; end > 0; end--) {
            int t = a[0];
            a[0] = a[end];
            a[end] = t;
            siftDown(a, 0, end);
        }
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 10_000_000 : 500_000;
        int[] a = new int[n];
        int s = 12345;
        for (int i = 0; i < n; i++) {
            s ^= s << 13;
            s ^= s >>> 17;
            s ^= s << 5;
            a[i] = s;
        }
        sort(a);
        boolean sorted = true;
        long h = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && a[i - 1] > a[i]) sorted = false;
            h = h * 31 + a[i];
        }
        System.out.println("HeapSort n=" + n + " sorted=" + sorted + " min=" + a[0] + " max=" + a[n - 1] + " hash=" + h);
    }
}
