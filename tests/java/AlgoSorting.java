import java.util.Arrays;
import java.util.Comparator;

public class AlgoSorting {
    static void quickSort(int[] a, int lo, int hi) {
        if (lo >= hi) return;
        int p = a[(lo + hi) >>> 1], i = lo, j = hi;
        while (i <= j) {
            while (a[i] < p) i++;
            while (a[j] > p) j--;
            if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        quickSort(a, lo, j);
        quickSort(a, i, hi);
    }

    static <T> void mergeSort(T[] a, Comparator<? super T> c) {
        if (a.length < 2) return;
        T[] left = Arrays.copyOfRange(a, 0, a.length / 2);
        T[] right = Arrays.copyOfRange(a, a.length / 2, a.length);
        mergeSort(left, c);
        mergeSort(right, c);
        int i = 0, j = 0, k = 0;
        while (i < left.length && j < right.length) a[k++] = c.compare(left[i], right[j]) <= 0 ? left[i++] : right[j++];
        while (i < left.length) a[k++] = left[i++];
        while (j < right.length) a[k++] = right[j++];
    }

    static void heapSort(long[] a) {
        int n = a.length;
        for (int i = n / 2 - 1; i >= 0; i--) sift(a, i, n);
        for (int end = n - 1; end > 0; end--) {
            long t = a[0]; a[0] = a[end]; a[end] = t;
            sift(a, 0, end);
        }
    }

    static void sift(long[] a, int i, int n) {
        while (true) {
            int l = 2 * i + 1, r = l + 1, m = i;
            if (l < n && a[l] > a[m]) m = l;
            if (r < n && a[r] > a[m]) m = r;
            if (m == i) return;
            long t = a[i]; a[i] = a[m]; a[m] = t;
            i = m;
        }
    }

    static void insertionSort(double[] a) {
        for (int i = 1; i < a.length; i++) {
            double v = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
            a[j + 1] = v;
        }
    }

    static int[] countingSort(int[] a, int max) {
        int[] counts = new int[max + 1];
        for (int v : a) counts[v]++;
        int[] out = new int[a.length];
        int k = 0;
        for (int v = 0; v <= max; v++) while (counts[v]-- > 0) out[k++] = v;
        return out;
    }

    static void radixSort(int[] a) {
        int[] buf = new int[a.length];
        for (int shift = 0; shift < 32; shift += 8) {
            int[] count = new int[257];
            for (int v : a) count[((v ^ Integer.MIN_VALUE) >>> shift & 0xFF) + 1]++;
            for (int i = 0; i < 256; i++) count[i + 1] += count[i];
            for (int v : a) buf[count[(v ^ Integer.MIN_VALUE) >>> shift & 0xFF]++] = v;
            System.arraycopy(buf, 0, a, 0, a.length);
        }
    }

    static long checksum(int[] a) { long h = 0; for (int v : a) h = h * 1_000_003 + v; return h; }

    public static void main(String[] args) {
        int n = 20000;
        int[] data = new int[n];
        long seed = 17;
        for (int i = 0; i < n; i++) { seed = (seed * 6364136223846793005L + 1442695040888963407L); data[i] = (int) (seed >>> 33) - (1 << 30); }
        int[] q = data.clone();
        quickSort(q, 0, q.length - 1);
        int[] ref = data.clone();
        Arrays.sort(ref);
        System.out.println("quickSort matches Arrays.sort: " + Arrays.equals(q, ref) + " min=" + q[0] + " max=" + q[n - 1] + " checksum=" + checksum(q));
        int[] r = data.clone();
        radixSort(r);
        System.out.println("radixSort matches: " + Arrays.equals(r, ref));
        long[] l = new long[n];
        for (int i = 0; i < n; i++) l[i] = (long) data[i] * data[(i + 1) % n];
        heapSort(l);
        boolean sorted = true;
        for (int i = 1; i < n; i++) if (l[i - 1] > l[i]) sorted = false;
        System.out.println("heapSort sorted: " + sorted + " first=" + l[0] + " last=" + l[n - 1]);
        String[] words = "the quick brown fox jumps over the lazy dog while seven wizards quickly jinx a big sphinx of black quartz".split(" ");
        String[] byLen = words.clone();
        mergeSort(byLen, Comparator.comparingInt(String::length));
        System.out.println("mergeSort stable by length: " + String.join(" ", byLen));
        Integer[] boxed = new Integer[50];
        for (int i = 0; i < 50; i++) boxed[i] = (i * 37) % 50;
        mergeSort(boxed, Comparator.reverseOrder());
        System.out.println("mergeSort boxed reverse: " + Arrays.toString(Arrays.copyOf(boxed, 12)));
        double[] ds = {3.5, -1.25, 0.0, -0.0, 2.75, 1e-9, -7.5, 100.0, 3.5};
        insertionSort(ds);
        System.out.println("insertionSort doubles: " + Arrays.toString(ds));
        int[] small = new int[40];
        for (int i = 0; i < small.length; i++) small[i] = (i * 13 + 7) % 10;
        System.out.println("countingSort: " + Arrays.toString(countingSort(small, 9)));
        int[] dups = {5, 5, 5, 5, 5, 1, 1, 1, 9, 9};
        quickSort(dups, 0, dups.length - 1);
        System.out.println("quickSort duplicates: " + Arrays.toString(dups));
        int[] one = {42};
        quickSort(one, 0, 0);
        int[] empty = {};
        quickSort(empty, 0, -1);
        System.out.println("edge cases: " + Arrays.toString(one) + " " + Arrays.toString(empty));
    }
}
