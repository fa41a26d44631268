import java.util.Arrays;

public class AlgoDynamicProgramming {
    static String lcs(String a, String b) {
        int[][] dp = new int[a.length() + 1][b.length() + 1];
        for (int i = 1; i <= a.length(); i++)
            for (int j = 1; j <= b.length(); j++)
                dp[i][j] = a.charAt(i - 1) == b.charAt(j - 1) ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
        StringBuilder sb = new StringBuilder();
        for (int i = a.length(), j = b.length(); i > 0 && j > 0; ) {
            if (a.charAt(i - 1) == b.charAt(j - 1)) { sb.append(a.charAt(i - 1)); i--; j--; }
            else if (dp[i - 1][j] >= dp[i][j - 1]) i--;
            else j--;
        }
        return sb.reverse().toString();
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev; prev = cur; cur = t;
        }
        return prev[b.length()];
    }

    static int knapsack(int[] w, int[] v, int cap) {
        int[] dp = new int[cap + 1];
        for (int i = 0; i < w.length; i++) for (int c = cap; c >= w[i]; c--) dp[c] = Math.max(dp[c], dp[c - w[i]] + v[i]);
        return dp[cap];
    }

    static int lis(int[] a) {
        int[] tails = new int[a.length];
        int size = 0;
        for (int x : a) {
            int i = Arrays.binarySearch(tails, 0, size, x);
            if (i < 0) i = -i - 1;
            tails[i] = x;
            if (i == size) size++;
        }
        return size;
    }

    static long matrixChain(int[] dims) {
        int n = dims.length - 1;
        long[][] dp = new long[n][n];
        for (int len = 2; len <= n; len++)
            for (int i = 0; i + len - 1 < n; i++) {
                int j = i + len - 1;
                dp[i][j] = Long.MAX_VALUE;
                for (int k = i; k < j; k++) dp[i][j] = Math.min(dp[i][j], dp[i][k] + dp[k + 1][j] + (long) dims[i] * dims[k + 1] * dims[j + 1]);
            }
        return dp[0][n - 1];
    }

    static long[] memo = new long[100];
    static long fib(int n) { if (n < 2) return n; if (memo[n] != 0) return memo[n]; return memo[n] = fib(n - 1) + fib(n - 2); }

    public static void main(String[] args) {
        String[][] pairs = {{"ABCBDAB", "BDCABA"}, {"AGGTAB", "GXTXAYB"}, {"kitten", "sitting"}, {"", "abc"}, {"intention", "execution"}, {"dynamic", "programming"}};
        for (String[] p : pairs) System.out.println("lcs(" + p[0] + "," + p[1] + ")=" + lcs(p[0], p[1]) + " edit=" + editDistance(p[0], p[1]));
        System.out.println("knapsack: " + knapsack(new int[]{1, 3, 4, 5}, new int[]{1, 4, 5, 7}, 7) + " " + knapsack(new int[]{10, 20, 30}, new int[]{60, 100, 120}, 50));
        int[] big = new int[3000];
        for (int i = 0; i < big.length; i++) big[i] = (i * 7919) % 3001;
        System.out.println("lis: " + lis(new int[]{10, 9, 2, 5, 3, 7, 101, 18}) + " big=" + lis(big));
        System.out.println("matrixChain: " + matrixChain(new int[]{40, 20, 30, 10, 30}) + " " + matrixChain(new int[]{10, 20, 30, 40, 30, 50, 60, 10, 5}));
        System.out.println("fib(90)=" + fib(90));
        long[][] pascal = new long[61][61];
        for (int i = 0; i <= 60; i++) { pascal[i][0] = 1; for (int j = 1; j <= i; j++) pascal[i][j] = pascal[i - 1][j - 1] + pascal[i - 1][j]; }
        System.out.println("C(60,30)=" + pascal[60][30] + " C(50,25)=" + pascal[50][25]);
        int target = 1000;
        int[] minCoins = new int[target + 1];
        Arrays.fill(minCoins, Integer.MAX_VALUE);
        minCoins[0] = 0;
        int[] denoms = {1, 7, 13, 29, 83};
        for (int v = 1; v <= target; v++) for (int d : denoms) if (d <= v && minCoins[v - d] != Integer.MAX_VALUE) minCoins[v] = Math.min(minCoins[v], minCoins[v - d] + 1);
        System.out.println("min coins 1000=" + minCoins[1000] + " 999=" + minCoins[999] + " 12=" + minCoins[12]);
        String s = "forgeeksskeegforabacdfgdcabba";
        int bestLo = 0, bestLen = 1;
        for (int c = 0; c < s.length(); c++) for (int odd = 0; odd < 2; odd++) {
            int lo = c, hi = c + odd;
            while (lo >= 0 && hi < s.length() && s.charAt(lo) == s.charAt(hi)) { lo--; hi++; }
            if (hi - lo - 1 > bestLen) { bestLen = hi - lo - 1; bestLo = lo + 1; }
        }
        System.out.println("longest palindrome: " + s.substring(bestLo, bestLo + bestLen));
    }
}
