public class ExitFromNested {
    static int depth(int n) {
        if (n == 0) {
            System.out.println("exiting from depth with code 42");
            System.exit(42);
        }
        try {
            return depth(n - 1) + 1;
        } finally {
            System.out.println("finally at n=" + n + " must not print");
        }
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 50; i++) sb.append(i % 10);
        System.out.println(sb);
        System.err.println("stderr line before exit");
        try {
            depth(5);
        } catch (Throwable t) {
            System.out.println("must not catch anything: " + t);
        }
    }
}
