public class SwitchExpr {
    static int score(String grade) {
        return switch (grade) {
            case "A" -> 4;
            case "B" -> 3;
            case "C" -> 2;
            case "D" -> 1;
            default -> {
                int len = grade.length();
                yield -len;
            }
        };
    }

    static String dayType(int d) {
        return switch (d) {
            case 1, 7 -> "weekend";
            case 2, 3, 4, 5, 6 -> {
                String t = "weekday";
                if (d == 6) t += "(friday)";
                yield t;
            }
            default -> throw new IllegalStateException("Invalid day: " + d);
        };
    }

    static long oldStyleYield(int k) {
        long v = switch (k) {
            case 0:
            case 1:
                yield 1L;
            case 2:
                long t = 0;
                for (int i = 0; i < 10; i++) t += i;
                yield t;
            default:
                yield (long) k * k * k;
        };
        return v;
    }

    static double numeric(Object o) {
        return switch (o.getClass().getSimpleName()) {
            case "Integer" -> (Integer) o * 2;
            case "Double" -> (Double) o / 2;
            case "String" -> ((String) o).length();
            default -> Double.NaN;
        };
    }

    public static void main(String[] args) {
        for (String g : new String[]{"A", "B", "C", "D", "F", "Excellent"}) System.out.println(g + " -> " + score(g));
        for (int d = 0; d <= 8; d++) {
            try {
                System.out.println(d + " -> " + dayType(d));
            } catch (IllegalStateException e) {
                System.out.println(d + " -> " + e.getMessage());
            }
        }
        for (int k = 0; k < 6; k++) System.out.println("oldStyleYield(" + k + ")=" + oldStyleYield(k));
        Object[] objs = {21, 5.0, "hello", 'c'};
        for (Object o : objs) System.out.println(o + " -> " + numeric(o));
        int total = 0;
        for (int i = 0; i < 20; i++) {
            total += switch (i % 4) { case 0 -> 1; case 1 -> 10; case 2 -> 100; default -> 1000; };
        }
        System.out.println("total=" + total);
        var str = switch (total % 3) { case 0 -> "zero"; case 1 -> "one"; default -> "two"; };
        System.out.println("str=" + str);
        char ch = 'e';
        boolean vowel = switch (ch) { case 'a', 'e', 'i', 'o', 'u' -> true; default -> false; };
        System.out.println("vowel=" + vowel);
    }
}
