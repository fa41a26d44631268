import java.util.ArrayList;
import java.util.List;

public class AlgoBacktracking {
    static int nQueens(int n, int row, int cols, int d1, int d2) {
        if (row == n) return 1;
        int count = 0;
        for (int c = 0; c < n; c++) {
            if ((cols >> c & 1) != 0 || (d1 >> (row + c) & 1) != 0 || (d2 >> (row - c + n) & 1) != 0) continue;
            count += nQueens(n, row + 1, cols | 1 << c, d1 | 1 << (row + c), d2 | 1 << (row - c + n));
        }
        return count;
    }

    static boolean solveSudoku(int[][] g) {
        for (int r = 0; r < 9; r++) for (int c = 0; c < 9; c++) {
            if (g[r][c] != 0) continue;
            for (int v = 1; v <= 9; v++) {
                if (ok(g, r, c, v)) {
                    g[r][c] = v;
                    if (solveSudoku(g)) return true;
                    g[r][c] = 0;
                }
            }
            return false;
        }
        return true;
    }

    static boolean ok(int[][] g, int r, int c, int v) {
        for (int i = 0; i < 9; i++) {
            if (g[r][i] == v || g[i][c] == v) return false;
            if (g[r / 3 * 3 + i / 3][c / 3 * 3 + i % 3] == v) return false;
        }
        return true;
    }

    static void permutations(String prefix, String rest, List<String> out) {
        if (rest.isEmpty()) { out.add(prefix); return; }
        for (int i = 0; i < rest.length(); i++) permutations(prefix + rest.charAt(i), rest.substring(0, i) + rest.substring(i + 1), out);
    }

    static void subsetsSum(int[] a, int idx, int target, List<Integer> cur, List<String> out) {
        if (target == 0) { out.add(cur.toString()); return; }
        if (idx == a.length || target < 0) return;
        cur.add(a[idx]);
        subsetsSum(a, idx + 1, target - a[idx], cur, out);
        cur.remove(cur.size() - 1);
        subsetsSum(a, idx + 1, target, cur, out);
    }

    static void parens(int open, int close, String s, List<String> out) {
        if (open == 0 && close == 0) { out.add(s); return; }
        if (open > 0) parens(open - 1, close, s + "(", out);
        if (close > open) parens(open, close - 1, s + ")", out);
    }

    public static void main(String[] args) {
        for (int n = 1; n <= 9; n++) System.out.print("Q(" + n + ")=" + nQueens(n, 0, 0, 0, 0) + " ");
        System.out.println();
        int[][] grid = {
            {5, 3, 0, 0, 7, 0, 0, 0, 0}, {6, 0, 0, 1, 9, 5, 0, 0, 0}, {0, 9, 8, 0, 0, 0, 0, 6, 0},
            {8, 0, 0, 0, 6, 0, 0, 0, 3}, {4, 0, 0, 8, 0, 3, 0, 0, 1}, {7, 0, 0, 0, 2, 0, 0, 0, 6},
            {0, 6, 0, 0, 0, 0, 2, 8, 0}, {0, 0, 0, 4, 1, 9, 0, 0, 5}, {0, 0, 0, 0, 8, 0, 0, 7, 9}};
        System.out.println("sudoku solved: " + solveSudoku(grid));
        for (int[] row : grid) {
            StringBuilder sb = new StringBuilder();
            for (int v : row) sb.append(v);
            System.out.println(sb);
        }
        List<String> perms = new ArrayList<>();
        permutations("", "abcd", perms);
        System.out.println("permutations(" + perms.size() + "): " + perms);
        List<String> subsets = new ArrayList<>();
        subsetsSum(new int[]{3, 34, 4, 12, 5, 2, 7, 1}, 0, 15, new ArrayList<>(), subsets);
        System.out.println("subsets summing to 15: " + subsets);
        List<String> ps = new ArrayList<>();
        parens(4, 4, "", ps);
        System.out.println("balanced parens n=4 (" + ps.size() + "): " + ps);
        int[] coins = {1, 5, 10, 25, 50};
        long[] ways = new long[301];
        ways[0] = 1;
        for (int c : coins) for (int v = c; v <= 300; v++) ways[v] += ways[v - c];
        System.out.println("ways to make 100: " + ways[100] + " 300: " + ways[300]);
    }
}
