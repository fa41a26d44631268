public class UncaughtInClinit {
    static final int[] TABLE = build();

    static int[] build() {
        int[] t = new int[5];
        for (int i = 0; i <= 5; i++) t[i] = i * i;
        return t;
    }

    public static void main(String[] args) {
        System.out.println("main never runs: " + TABLE.length);
    }
}
