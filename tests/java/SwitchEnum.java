public class SwitchEnum {
    enum Color { RED, GREEN, BLUE, YELLOW, BLACK }
    enum Op { ADD, SUB, MUL, DIV }

    static String describe(Color c) {
        switch (c) {
            case RED: return "warm";
            case YELLOW: return "warm-ish";
            case BLUE:
            case GREEN: return "cool";
            default: return "none";
        }
    }

    static int apply(Op op, int a, int b) {
        return switch (op) {
            case ADD -> a + b;
            case SUB -> a - b;
            case MUL -> a * b;
            case DIV -> {
                if (b == 0) yield 0;
                yield a / b;
            }
        };
    }

    public static void main(String[] args) {
        for (Color c : Color.values()) System.out.println(c + " " + c.ordinal() + " " + describe(c));
        for (Op op : Op.values()) System.out.println(op.name() + "(17,5)=" + apply(op, 17, 5) + " (3,0)=" + apply(op, 3, 0));
        try {
            Color n = null;
            describe(n);
        } catch (NullPointerException e) {
            System.out.println("NPE on null enum switch");
        }
        int warm = 0;
        for (int i = 0; i < 100; i++) {
            Color c = Color.values()[i % 5];
            switch (c) {
                case RED, YELLOW -> warm++;
                default -> { }
            }
        }
        System.out.println("warm=" + warm);
        Color c = Color.valueOf("BLUE");
        String s = switch (c) {
            case RED: yield "r";
            case GREEN: yield "g";
            case BLUE: System.out.println("in blue"); yield "b";
            default: yield "?";
        };
        System.out.println("s=" + s);
    }
}
