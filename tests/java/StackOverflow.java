public class StackOverflow {
    static int depth = 0;
    static void recurse() { depth++; recurse(); }

    static long deepSum(long n) { return n == 0 ? 0 : n + deepSum(n - 1); }

    static int mutualA(int n) { return mutualB(n + 1) + 1; }
    static int mutualB(int n) { return mutualA(n + 1) + 1; }

    static int finallyCount = 0;
    static void recurseWithFinally(int n) {
        try {
            recurseWithFinally(n + 1);
        } finally {
            finallyCount++;
        }
    }

    public static void main(String[] args) {
        try {
            recurse();
            System.out.println("unreachable");
        } catch (StackOverflowError e) {
            System.out.println("caught StackOverflowError 1, depth > 1000: " + (depth > 1000) + " message null: " + (e.getMessage() == null));
        }
        System.out.println("program continues: deepSum(1000)=" + deepSum(1000));
        try {
            mutualA(0);
        } catch (StackOverflowError e) {
            System.out.println("caught StackOverflowError 2 (mutual recursion): " + e.getClass().getName());
        }
        try {
            recurseWithFinally(0);
        } catch (StackOverflowError e) {
            System.out.println("caught StackOverflowError 3, finally blocks ran: " + (finallyCount > 100));
        }
        int recovered = 0;
        for (int i = 0; i < 3; i++) {
            depth = 0;
            try {
                recurse();
            } catch (StackOverflowError e) {
                recovered++;
            }
        }
        System.out.println("recovered " + recovered + " times");
        Throwable t = new StackOverflowError("manual");
        System.out.println("is VirtualMachineError: " + (t instanceof VirtualMachineError) + " is Error: " + (t instanceof Error) + " msg: " + t.getMessage());
        System.out.println("deepSum(5000)=" + deepSum(5000));
    }
}
