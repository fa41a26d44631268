/** Benchmarks Game "binary-trees": allocate, walk and drop many perfect binary trees. */
public class BinaryTrees {
    static final class Node {
        final Node left, right;

        Node(Node left, Node right) {
            this.left = left;
            this.right = right;
        }

        int check() {
            return left == null ? 1 : 1 + left.check() + right.check();
        }
    }

    static Node build(int depth) {
        return depth == 0 ? new Node(null, null) : new Node(build(depth - 1), build(depth - 1));
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int maxDepth = size.equals("large") ? 20 : 14;
        int minDepth = 4;
        StringBuilder out = new StringBuilder();
        out.append("stretch depth ").append(maxDepth + 1).append(" check ").append(build(maxDepth + 1).check());
        Node longLived = build(maxDepth);
        long total = 0;
        for (int d = minDepth; d <= maxDepth; d += 2) {
            int iterations = 1 << (maxDepth - d + minDepth);
            long check = 0;
            for (int i = 0; i < iterations; i++) check += build(d).check();
            out.append("; ").append(iterations).append(" trees of depth ").append(d).append(" check ").append(check);
            total += check;
        }
        System.out.println("BinaryTrees maxDepth=" + maxDepth + " total=" + total + " longLived=" + longLived.check());
        System.out.println(out);
    }
}
