import java.util.Arrays;

public class Enums {
    enum Planet {
        MERCURY(3.303e+23, 2.4397e6), VENUS(4.869e+24, 6.0518e6), EARTH(5.976e+24, 6.37814e6), MARS(6.421e+23, 3.3972e6);
        static final double G = 6.67300E-11;
        private final double mass, radius;
        Planet(double mass, double radius) { this.mass = mass; this.radius = radius; }
        double surfaceGravity() { return G * mass / (radius * radius); }
    }

    enum Operation {
        PLUS("+") { int apply(int a, int b) { return a + b; } },
        MINUS("-") { int apply(int a, int b) { return a - b; } },
        TIMES("*") { int apply(int a, int b) { return a * b; } @Override public String toString() { return "times!"; } },
        POW("^") {
            int apply(int a, int b) { int r = 1; for (int i = 0; i < b; i++) r *= a; return r; }
        };
        final String symbol;
        Operation(String symbol) { this.symbol = symbol; }
        abstract int apply(int a, int b);
    }

    enum Level implements Comparable<Level> {
        LOW, MEDIUM, HIGH;
        Level next() { return values()[(ordinal() + 1) % values().length]; }
        static { System.out.println("Level static init, values=" + values().length); }
    }

    interface Describable { String describe(); }
    enum Coin implements Describable {
        PENNY(1), NICKEL(5), DIME(10), QUARTER(25);
        private final int cents;
        Coin(int c) { cents = c; }
        public String describe() { return name().toLowerCase() + "=" + cents + "c"; }
    }

    enum Singleton {
        INSTANCE;
        int counter;
        int next() { return ++counter; }
    }

    public static void main(String[] args) {
        for (Planet p : Planet.values()) System.out.printf("%-8s ordinal=%d gravity=%.4f%n", p, p.ordinal(), p.surfaceGravity());
        for (Operation op : Operation.values()) {
            System.out.println(op.name() + " " + op + " " + op.symbol + " 3,4 -> " + op.apply(3, 4) + " class=" + op.getClass().getName() + " declaring=" + op.getDeclaringClass().getSimpleName());
        }
        System.out.println("valueOf: " + Operation.valueOf("MINUS").apply(10, 3) + " " + Enum.valueOf(Level.class, "HIGH"));
        try {
            Level.valueOf("EXTREME");
        } catch (IllegalArgumentException e) {
            System.out.println("bad valueOf: " + e.getMessage());
        }
        try {
            Level.valueOf(null);
        } catch (NullPointerException e) {
            System.out.println("null valueOf: NPE " + e.getMessage());
        }
        Level l = Level.LOW;
        for (int i = 0; i < 4; i++) { System.out.print(l + " "); l = l.next(); }
        System.out.println();
        System.out.println("compareTo: " + Level.LOW.compareTo(Level.HIGH) + " " + Level.HIGH.compareTo(Level.MEDIUM) + " equals: " + Level.LOW.equals(Level.valueOf("LOW")) + " ==: " + (Level.LOW == Level.valueOf("LOW")));
        for (Coin c : Coin.values()) System.out.print(c.describe() + " ");
        System.out.println();
        System.out.println("singleton: " + Singleton.INSTANCE.next() + " " + Singleton.INSTANCE.next());
        Level[] vals = Level.values();
        vals[0] = null;
        System.out.println("values() returns copy: " + Arrays.toString(Level.values()));
        System.out.println("isEnum: " + Level.class.isEnum() + " " + Operation.PLUS.getClass().isEnum() + " superclass: " + Level.class.getSuperclass().getName()
            + " constants: " + Arrays.toString(Coin.class.getEnumConstants()));
        System.out.println("hashCode stable within run: " + (Level.LOW.hashCode() == Level.LOW.hashCode()) + " name hash: " + Level.LOW.name().hashCode());
        int total = 0;
        for (Coin c : Coin.values()) {
            switch (c) {
                case PENNY -> total += 1;
                case NICKEL -> total += 5;
                case DIME -> total += 10;
                case QUARTER -> total += 25;
            }
        }
        System.out.println("total cents=" + total);
    }
}
