public class UncaughtRuntime {
    static int validate(int x) {
        if (x > 3) throw new RuntimeException("value too large: " + x);
        return x * 10;
    }

    static void process(int[] values) {
        for (int v : values) System.out.println("processed " + validate(v));
    }

    public static void main(String[] args) {
        System.out.println("starting");
        try {
            process(new int[]{1, 5});
        } catch (RuntimeException e) {
            System.out.println("caught first: " + e.getMessage());
        }
        process(new int[]{2, 3, 4, 1});
        System.out.println("never printed");
    }
}
