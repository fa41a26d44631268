import java.util.Arrays;

public class ArraysMultiDim {
    public static void main(String[] args) {
        int[][][] cube = new int[3][4][5];
        for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) for (int k = 0; k < 5; k++) cube[i][j][k] = i * 100 + j * 10 + k;
        System.out.println("cube dims: " + cube.length + " " + cube[0].length + " " + cube[0][0].length + " sample " + cube[2][3][4] + " " + cube[1][2][3]);
        System.out.println("cube[1]: " + Arrays.deepToString(cube[1]));
        int[][] partial = new int[3][];
        System.out.println("partial before: " + Arrays.toString(partial));
        for (int i = 0; i < partial.length; i++) {
            partial[i] = new int[i + 1];
            for (int j = 0; j <= i; j++) partial[i][j] = (i + 1) * (j + 1);
        }
        System.out.println("jagged: " + Arrays.deepToString(partial));
        long[][][] partial3 = new long[2][3][];
        System.out.println("partial3: " + partial3.length + " " + partial3[1].length + " " + partial3[1][2]);
        partial3[1][2] = new long[]{7L, 8L};
        System.out.println("partial3 deep: " + Arrays.deepToString(partial3));
        String[][] names = {{"a", "b"}, {"c"}, {}};
        System.out.println("string 2d: " + Arrays.deepToString(names) + " lengths " + names[0].length + names[1].length + names[2].length);
        double[][] matA = {{1, 2}, {3, 4}, {5, 6}};
        double[][] matB = {{7, 8, 9}, {10, 11, 12}};
        double[][] prod = new double[3][3];
        for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) for (int k = 0; k < 2; k++) prod[i][j] += matA[i][k] * matB[k][j];
        System.out.println("matmul: " + Arrays.deepToString(prod));
        int n = 6;
        long[][] pascal = new long[n][];
        for (int i = 0; i < n; i++) {
            pascal[i] = new long[i + 1];
            pascal[i][0] = pascal[i][i] = 1;
            for (int j = 1; j < i; j++) pascal[i][j] = pascal[i - 1][j - 1] + pascal[i - 1][j];
        }
        for (long[] row : pascal) System.out.println(Arrays.toString(row));
        char[][] board = new char[3][3];
        for (char[] row : board) Arrays.fill(row, '.');
        board[1][1] = 'X'; board[0][2] = 'O';
        for (char[] row : board) System.out.println(new String(row));
        boolean[][] flags = new boolean[2][2];
        flags[1][0] = true;
        System.out.println("booleans: " + Arrays.deepToString(flags));
        Object[][] objs = new Object[2][2];
        objs[0][0] = 1; objs[0][1] = "s"; objs[1][0] = new int[]{9}; objs[1][1] = null;
        System.out.println("objects: " + Arrays.deepToString(objs));
        int[][][][] four = new int[2][2][2][2];
        four[1][1][1][1] = 16;
        System.out.println("4d: " + Arrays.deepToString(four));
        System.out.println("class names: " + cube.getClass().getName() + " " + partial.getClass().getSimpleName() + " " + names.getClass().getName() + " " + four.getClass().getName()
            + " " + new byte[0][0].getClass().getName() + " " + new boolean[1].getClass().getName() + " " + new Object[0][].getClass().getName());
        System.out.println("component type: " + cube.getClass().getComponentType().getName() + " " + int.class.getName() + " " + int[].class.getComponentType());
        int[][] zeroDim = new int[0][5];
        int[][] zeroInner = new int[5][0];
        System.out.println("zero dims: " + zeroDim.length + " " + zeroInner.length + " " + zeroInner[4].length);
        int[][] aliased = new int[2][];
        int[] shared = {1, 2, 3};
        aliased[0] = shared; aliased[1] = shared;
        aliased[0][1] = 99;
        System.out.println("aliasing: " + Arrays.deepToString(aliased) + " same=" + (aliased[0] == aliased[1]));
        int[][] transposed = new int[4][3];
        int[][] src = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
        for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) transposed[j][i] = src[i][j];
        System.out.println("transposed: " + Arrays.deepToString(transposed));
        var inferred = new int[][]{{1}, {2, 3}};
        System.out.println("inferred: " + Arrays.deepToString(inferred) + " sum=" + Arrays.stream(inferred).flatMapToInt(Arrays::stream).sum());
    }
}
