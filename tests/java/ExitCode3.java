public class ExitCode3 {
    static int work(int n) {
        int s = 0;
        for (int i = 1; i <= n; i++) s += i * i;
        return s;
    }

    public static void main(String[] args) {
        for (int i = 1; i <= 10; i++) System.out.println("work(" + i + ")=" + work(i));
        System.out.print("partial line without newline before exit");
        try {
            if (work(3) == 14) System.exit(3);
            System.out.println("not reached");
        } finally {
            System.out.println("finally must NOT run after System.exit");
        }
    }
}
