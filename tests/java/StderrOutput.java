public class StderrOutput {
    public static void main(String[] args) {
        System.err.println("warning: this goes to stderr first");
        for (int i = 0; i < 10; i++) {
            System.out.println("stdout line " + i);
            if (i % 3 == 0) System.err.println("stderr line " + i);
        }
        System.out.printf("formatted %05.1f|%s%n", 3.14159, "x");
        System.err.printf("err formatted %d%n", 7);
        System.out.print("no newline at end");
        System.out.flush();
    }
}
