import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class AlgoGraph {
    static List<List<Integer>> graph(int n, int[][] edges, boolean directed) {
        List<List<Integer>> g = new ArrayList<>();
        for (int i = 0; i < n; i++) g.add(new ArrayList<>());
        for (int[] e : edges) { g.get(e[0]).add(e[1]); if (!directed) g.get(e[1]).add(e[0]); }
        return g;
    }

    static int[] bfs(List<List<Integer>> g, int src) {
        int[] dist = new int[g.size()];
        Arrays.fill(dist, -1);
        dist[src] = 0;
        Deque<Integer> q = new ArrayDeque<>();
        q.add(src);
        while (!q.isEmpty()) {
            int u = q.poll();
            for (int v : g.get(u)) if (dist[v] < 0) { dist[v] = dist[u] + 1; q.add(v); }
        }
        return dist;
    }

    static void dfs(List<List<Integer>> g, int u, boolean[] seen, List<Integer> order) {
        seen[u] = true;
        order.add(u);
        for (int v : g.get(u)) if (!seen[v]) dfs(g, v, seen, order);
    }

    static List<Integer> topo(List<List<Integer>> g) {
        int[] indeg = new int[g.size()];
        for (List<Integer> adj : g) for (int v : adj) indeg[v]++;
        java.util.PriorityQueue<Integer> q = new java.util.PriorityQueue<>();
        for (int i = 0; i < indeg.length; i++) if (indeg[i] == 0) q.add(i);
        List<Integer> out = new ArrayList<>();
        while (!q.isEmpty()) {
            int u = q.poll();
            out.add(u);
            for (int v : g.get(u)) if (--indeg[v] == 0) q.add(v);
        }
        return out.size() == g.size() ? out : null;
    }

    static int[] parent;
    static int find(int x) { return parent[x] == x ? x : (parent[x] = find(parent[x])); }

    public static void main(String[] args) {
        int[][] edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {2, 6}, {7, 8}};
        List<List<Integer>> g = graph(9, edges, false);
        System.out.println("bfs dist from 0: " + Arrays.toString(bfs(g, 0)));
        List<Integer> order = new ArrayList<>();
        boolean[] seen = new boolean[9];
        int components = 0;
        for (int i = 0; i < 9; i++) if (!seen[i]) { components++; dfs(g, i, seen, order); }
        System.out.println("dfs order: " + order + " components=" + components);
        int[][] dag = {{5, 2}, {5, 0}, {4, 0}, {4, 1}, {2, 3}, {3, 1}, {6, 5}, {6, 4}};
        System.out.println("topological order: " + topo(graph(7, dag, true)));
        int[][] cyc = {{0, 1}, {1, 2}, {2, 0}};
        System.out.println("cycle topo: " + topo(graph(3, cyc, true)));
        int[][] wedges = {{0, 1, 7}, {0, 3, 5}, {1, 2, 8}, {1, 3, 9}, {1, 4, 7}, {2, 4, 5}, {3, 4, 15}, {3, 5, 6}, {4, 5, 8}, {4, 6, 9}, {5, 6, 11}};
        int[][] sorted = wedges.clone();
        Arrays.sort(sorted, (a, b) -> a[2] != b[2] ? Integer.compare(a[2], b[2]) : Integer.compare(a[0], b[0]));
        parent = new int[7];
        for (int i = 0; i < 7; i++) parent[i] = i;
        int total = 0;
        List<String> mst = new ArrayList<>();
        for (int[] e : sorted) {
            int a = find(e[0]), b = find(e[1]);
            if (a != b) { parent[a] = b; total += e[2]; mst.add(e[0] + "-" + e[1]); }
        }
        System.out.println("kruskal MST weight=" + total + " edges=" + mst);
        int n = 6;
        long INF = Long.MAX_VALUE / 4;
        long[][] d = new long[n][n];
        for (long[] row : d) Arrays.fill(row, INF);
        for (int i = 0; i < n; i++) d[i][i] = 0;
        int[][] fw = {{0, 1, 3}, {1, 2, -2}, {2, 3, 2}, {0, 3, 10}, {3, 4, 1}, {4, 5, -1}, {1, 5, 9}, {5, 0, 4}};
        for (int[] e : fw) d[e[0]][e[1]] = e[2];
        for (int k = 0; k < n; k++) for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
        for (long[] row : d) {
            StringBuilder sb = new StringBuilder();
            for (long v : row) sb.append(v >= INF / 2 ? "inf" : String.valueOf(v)).append(' ');
            System.out.println("fw: " + sb.toString().trim());
        }
        Map<String, List<String>> deps = new TreeMap<>();
        deps.put("app", List.of("lib", "util"));
        deps.put("lib", List.of("core"));
        deps.put("util", List.of("core", "log"));
        deps.put("core", List.of());
        deps.put("log", List.of());
        List<String> build = new ArrayList<>();
        java.util.Set<String> done = new java.util.HashSet<>();
        for (String k : deps.keySet()) visit(k, deps, done, build);
        System.out.println("build order: " + build);
        int size = 30;
        boolean[][] maze = new boolean[size][size];
        for (int r = 0; r < size; r++) for (int c = 0; c < size; c++) maze[r][c] = (r * 7 + c * 13) % 5 == 0 && !(r == 0 && c == 0) && !(r == size - 1 && c == size - 1);
        int[][] dist = new int[size][size];
        for (int[] row : dist) Arrays.fill(row, -1);
        Deque<int[]> q = new ArrayDeque<>();
        q.add(new int[]{0, 0});
        dist[0][0] = 0;
        int[][] dirs = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        while (!q.isEmpty()) {
            int[] cur = q.poll();
            for (int[] dd : dirs) {
                int nr = cur[0] + dd[0], nc = cur[1] + dd[1];
                if (nr >= 0 && nc >= 0 && nr < size && nc < size && !maze[nr][nc] && dist[nr][nc] < 0) { dist[nr][nc] = dist[cur[0]][cur[1]] + 1; q.add(new int[]{nr, nc}); }
            }
        }
        System.out.println("maze shortest path: " + dist[size - 1][size - 1]);
    }

    static void visit(String k, Map<String, List<String>> deps, java.util.Set<String> done, List<String> out) {
        if (!done.add(k)) return;
        for (String d : deps.get(k)) visit(d, deps, done, out);
        out.add(k);
    }
}
