/** Benchmarks Game "fannkuch-redux": pancake flips over all permutations of 1..n. */
public class Fannkuch {
    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 11 : 9;
        int[] perm = new int[n], work = new int[n], count = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        int checksum = 0, maxFlips = 0, permIndex = 0;
        int r = n;
        while (true) {
            while (r != 1) {
                count[r - 1] = r;
                r--;
            }
            // count the flips of this permutation
            int first = perm[0];
            if (first != 0) {
                System.arraycopy(perm, 0, work, 0, n);
                int flips = 0;
                int k = first;
                while (k != 0) {
                    for (int lo = 0, hi = k; lo < hi; lo++, hi--) {
                        int t = work[lo];
                        work[lo] = work[hi];
                        work[hi] = t;
                    }
                    flips++;
                    k = work[0];
                }
                if (flips > maxFlips) maxFlips = flips;
                checksum += (permIndex & 1) == 0 ? flips : -flips;
            }
            // next permutation in the counting order
            while (true) {
                if (r == n) {
                    System.out.println("Fannkuch n=" + n + " checksum=" + checksum + " maxFlips=" + maxFlips);
                    return;
                }
                int p0 = perm[0];
                for (int i = 0; i < r; i++) perm[i] = perm[i + 1];
                perm[r] = p0;
                count[r]--;
                if (count[r] > 0) break;
                r++;
            }
            permIndex++;
        }
    }
}
