public class LabeledLoops {
    public static void main(String[] args) {
        outer:
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 5; j++) {
                if (j == 3) continue outer;
                if (i == 3) break outer;
                System.out.print(i + "" + j + " ");
            }
        }
        System.out.println();
        int found = -1;
        search:
        for (int i = 2; i < 100; i++) {
            for (int j = 2; j * j <= i; j++) {
                if (i % j == 0) continue search;
            }
            if (i > 50) { found = i; break search; }
        }
        System.out.println("first prime > 50: " + found);
        int count = 0;
        a:
        while (true) {
            b:
            do {
                count++;
                if (count % 3 == 0) continue a;
                if (count > 20) break a;
                if (count % 5 == 0) break b;
            } while (count < 100);
            System.out.print("[" + count + "]");
        }
        System.out.println(" count=" + count);
        block:
        {
            System.out.println("in block");
            if (count > 0) break block;
            System.out.println("not printed");
        }
        System.out.println("after block");
        int[][] grid = {{1, 2, 3}, {4, -5, 6}, {7, 8, 9}};
        String pos = "none";
        scan:
        for (int r = 0; r < grid.length; r++)
            for (int c = 0; c < grid[r].length; c++)
                if (grid[r][c] < 0) { pos = r + "," + c; break scan; }
        System.out.println("negative at " + pos);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        loop:
        while (i < 30) {
            i++;
            switch (i % 6) {
                case 0: continue loop;
                case 5: if (i > 20) break loop; break;
                default: break;
            }
            sb.append(i).append(' ');
        }
        System.out.println(sb.toString().trim() + " | i=" + i);
        int sum = 0;
        for (int x = 0, y = 10; x < y; x++, y--) sum += x * y;
        System.out.println("sum=" + sum);
        int w = 0;
        do { w += 7; } while (w % 5 != 0);
        System.out.println("w=" + w);
        int iterations = 0;
        for (;;) { if (++iterations >= 42) break; }
        System.out.println("iterations=" + iterations);
        int[] data = {5, 3, 8, 1, 9, 2};
        for (int k = 0; k < data.length; k++) {
            if (data[k] % 2 == 0) continue;
            System.out.print(data[k] + ";");
        }
        System.out.println();
        long collatz = 27; int steps = 0;
        while (collatz != 1) { collatz = (collatz % 2 == 0) ? collatz / 2 : 3 * collatz + 1; steps++; }
        System.out.println("collatz(27) steps=" + steps);
        try {
            out2:
            for (int k = 0; ; k++) {
                try {
                    if (k == 3) break out2;
                } finally {
                    System.out.println("finally k=" + k);
                }
            }
        } finally {
            System.out.println("outer finally");
        }
    }
}
