/**
 * GC suite: the Benchmarks Game "binary-trees" workload, single-threaded, with the game's output
 * lines. Depth 16 (small) or 18 (large); the runner gives every VM -Xmx64m, so the long-lived
 * tree and the stretch tree must share a small heap with the stream of short-lived trees.
 */
public final class GcBinaryTrees {
    private static final int MIN_DEPTH = 4;

    private static final class TreeNode {
        private final TreeNode left;
        private final TreeNode right;

        TreeNode(TreeNode left, TreeNode right) {
            this.left = left;
            this.right = right;
        }

        int itemCheck() {
            if (left == null) {
                return 1;
            }
            return 1 + left.itemCheck() + right.itemCheck();
        }
    }

    private static TreeNode bottomUpTree(int depth) {
        if (depth <= 0) {
            return new TreeNode(null, null);
        }
        TreeNode l = bottomUpTree(depth - 1);
        return new TreeNode(l, bottomUpTree(depth - 1));
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int maxDepth = size.equals("large") ? 18 : 16;
        StringBuilder out = new StringBuilder();
        int stretchDepth = maxDepth + 1;
        out.append("stretch tree of depth ").append(stretchDepth)
                .append("\t check: ").append(bottomUpTree(stretchDepth).itemCheck()).append('\n');
        TreeNode longLived = bottomUpTree(maxDepth);
        for (int depth = MIN_DEPTH; depth <= maxDepth; depth += 2) {
            int iterations = 1 << (maxDepth - depth + MIN_DEPTH);
            int check = 0;
            for (int i = 0; i < iterations; i++) {
                check += bottomUpTree(depth).itemCheck();
            }
            out.append(iterations).append("\t trees of depth ").append(depth)
                    .append("\t check: ").append(check).append('\n');
        }
        out.append("long lived tree of depth ").append(maxDepth)
                .append("\t check: ").append(longLived.itemCheck());
        // One write at the end, so that no GC log line (on the same stdout) splits the output.
        System.out.println(out);
    }
}
