import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

public class PriorityQueueOps {
    record Task(String name, int priority, int seq) { }

    public static void main(String[] args) {
        PriorityQueue<Integer> pq = new PriorityQueue<>();
        int[] vals = {42, 7, 19, 3, 88, 7, 1, 56, 23, 3};
        for (int v : vals) pq.offer(v);
        System.out.println("peek=" + pq.peek() + " size=" + pq.size() + " internal array order: " + pq);
        StringBuilder sb = new StringBuilder();
        while (!pq.isEmpty()) sb.append(pq.poll()).append(' ');
        System.out.println("min-heap order: " + sb.toString().trim());
        PriorityQueue<Integer> maxHeap = new PriorityQueue<>(Comparator.reverseOrder());
        for (int v : vals) maxHeap.add(v);
        sb.setLength(0);
        while (!maxHeap.isEmpty()) sb.append(maxHeap.remove()).append(' ');
        System.out.println("max-heap order: " + sb.toString().trim());
        PriorityQueue<Task> tasks = new PriorityQueue<>(Comparator.comparingInt(Task::priority).reversed().thenComparingInt(Task::seq));
        String[] names = {"write", "test", "deploy", "review", "plan", "fix", "doc"};
        int[] pris = {2, 3, 1, 3, 5, 5, 1};
        for (int i = 0; i < names.length; i++) tasks.add(new Task(names[i], pris[i], i));
        while (!tasks.isEmpty()) {
            Task t = tasks.poll();
            System.out.println("task " + t.name() + " p=" + t.priority() + " seq=" + t.seq());
        }
        PriorityQueue<String> strs = new PriorityQueue<>(List.of("pear", "apple", "fig", "banana"));
        strs.remove("fig");
        System.out.println("after remove(fig): poll=" + strs.poll() + " contains(pear)=" + strs.contains("pear") + " size=" + strs.size());
        System.out.println("empty poll: " + new PriorityQueue<Integer>().poll() + " peek: " + new PriorityQueue<Integer>().peek());
        try {
            new PriorityQueue<Integer>().add(null);
        } catch (NullPointerException e) {
            System.out.println("null rejected: NPE");
        }
        PriorityQueue<long[]> dijkstra = new PriorityQueue<>(Comparator.comparingLong(a -> a[0]));
        int n = 8;
        int[][] w = new int[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) w[i][j] = i == j ? 0 : ((i * 7 + j * 13) % 11) + 1;
        long[] dist = new long[n];
        java.util.Arrays.fill(dist, Long.MAX_VALUE);
        dist[0] = 0;
        dijkstra.add(new long[]{0, 0});
        while (!dijkstra.isEmpty()) {
            long[] cur = dijkstra.poll();
            int u = (int) cur[1];
            if (cur[0] > dist[u]) continue;
            for (int v = 0; v < n; v++) {
                if (v != u && dist[u] + w[u][v] < dist[v]) {
                    dist[v] = dist[u] + w[u][v];
                    dijkstra.add(new long[]{dist[v], v});
                }
            }
        }
        System.out.println("dijkstra dists: " + java.util.Arrays.toString(dist));
        PriorityQueue<Integer> big = new PriorityQueue<>();
        for (int i = 0; i < 5000; i++) big.add((i * 7919) % 10007);
        List<Integer> firstTen = new ArrayList<>();
        for (int i = 0; i < 10; i++) firstTen.add(big.poll());
        System.out.println("big heap first ten: " + firstTen + " remaining=" + big.size());
        PriorityQueue<Integer> topK = new PriorityQueue<>();
        for (int i = 0; i < 1000; i++) {
            topK.add((i * 31337) % 1009);
            if (topK.size() > 5) topK.poll();
        }
        List<Integer> top = new ArrayList<>(topK);
        top.sort(null);
        System.out.println("top 5: " + top);
    }
}
