import java.util.Arrays;
import java.util.Random;

public class RandomSeeded {
    public static void main(String[] args) {
        Random r = new Random(42);
        StringBuilder sb = new StringBuilder("nextInt(): ");
        for (int i = 0; i < 5; i++) sb.append(r.nextInt()).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextInt(100): ");
        for (int i = 0; i < 20; i++) sb.append(r.nextInt(100)).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextInt(pow2 64): ");
        for (int i = 0; i < 10; i++) sb.append(r.nextInt(64)).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextInt(large bound): ");
        for (int i = 0; i < 5; i++) sb.append(r.nextInt(Integer.MAX_VALUE - 5)).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextLong: ");
        for (int i = 0; i < 4; i++) sb.append(r.nextLong()).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextDouble: ");
        for (int i = 0; i < 4; i++) sb.append(r.nextDouble()).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextFloat: ");
        for (int i = 0; i < 4; i++) sb.append(r.nextFloat()).append(' ');
        System.out.println(sb.toString().trim());
        sb.setLength(0);
        sb.append("nextBoolean: ");
        for (int i = 0; i < 10; i++) sb.append(r.nextBoolean() ? 'T' : 'F');
        System.out.println(sb);
        sb.setLength(0);
        sb.append("nextGaussian: ");
        for (int i = 0; i < 5; i++) sb.append(r.nextGaussian()).append(' ');
        System.out.println(sb.toString().trim());
        byte[] bytes = new byte[12];
        r.nextBytes(bytes);
        System.out.println("nextBytes: " + Arrays.toString(bytes));
        Random r2 = new Random(42);
        Random r3 = new Random(42);
        boolean same = true;
        for (int i = 0; i < 1000; i++) if (r2.nextInt() != r3.nextInt()) same = false;
        System.out.println("same seed same sequence: " + same);
        r2.setSeed(7);
        System.out.println("after setSeed(7): " + r2.nextInt(1000) + " " + new Random(7).nextInt(1000));
        System.out.println("ints stream: " + Arrays.toString(new Random(1).ints(8, 0, 10).toArray()) + " doubles: " + Arrays.toString(new Random(1).doubles(2).toArray()));
        System.out.println("longs bounded: " + Arrays.toString(new Random(3).longs(4, -100, 100).toArray()));
        int[] hist = new int[10];
        Random h = new Random(2024);
        for (int i = 0; i < 100000; i++) hist[h.nextInt(10)]++;
        System.out.println("histogram: " + Arrays.toString(hist));
        double sum = 0, sumSq = 0;
        Random g = new Random(99);
        for (int i = 0; i < 10000; i++) { double x = g.nextGaussian(); sum += x; sumSq += x * x; }
        System.out.println("gaussian mean=" + sum / 10000 + " var=" + (sumSq / 10000 - (sum / 10000) * (sum / 10000)));
        Random mc = new Random(123);
        int inside = 0;
        for (int i = 0; i < 200000; i++) { double x = mc.nextDouble(), y = mc.nextDouble(); if (x * x + y * y <= 1) inside++; }
        System.out.println("monte carlo pi ~ " + 4.0 * inside / 200000);
        int[] deck = new int[52];
        for (int i = 0; i < 52; i++) deck[i] = i;
        Random sh = new Random(0);
        for (int i = 51; i > 0; i--) { int j = sh.nextInt(i + 1); int t = deck[i]; deck[i] = deck[j]; deck[j] = t; }
        System.out.println("fisher-yates: " + Arrays.toString(Arrays.copyOf(deck, 13)));
        System.out.println("nextInt(origin,bound) via ints: " + new Random(5).ints(1, 50, 60).findFirst().getAsInt());
        try {
            new Random(1).nextInt(0);
        } catch (IllegalArgumentException e) {
            System.out.println("nextInt(0): " + e.getMessage());
        }
    }
}
