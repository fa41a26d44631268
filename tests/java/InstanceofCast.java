import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

public class InstanceofCast {
    interface Flyer { }
    static class Animal { }
    static class Bird extends Animal implements Flyer { }
    static class Penguin extends Bird { }
    static class Fish extends Animal { }

    static void tryCast(String label, Runnable r) {
        try {
            r.run();
            System.out.println(label + ": ok");
        } catch (ClassCastException e) {
            System.out.println(label + ": ClassCastException: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        Object[] things = {new Animal(), new Bird(), new Penguin(), new Fish(), "str", 42, null, new int[0], new String[0], new Integer[0]};
        String[] names = {"Animal", "Bird", "Penguin", "Fish", "String", "Integer", "null", "int[]", "String[]", "Integer[]"};
        for (int i = 0; i < things.length; i++) {
            Object o = things[i];
            System.out.println(names[i] + ": Animal=" + (o instanceof Animal) + " Bird=" + (o instanceof Bird) + " Flyer=" + (o instanceof Flyer)
                + " Penguin=" + (o instanceof Penguin) + " Serializable=" + (o instanceof Serializable) + " Comparable=" + (o instanceof Comparable)
                + " Object[]=" + (o instanceof Object[]) + " Cloneable=" + (o instanceof Cloneable) + " Number=" + (o instanceof Number));
        }
        Object bird = new Bird();
        tryCast("Bird->Animal", () -> { Animal a = (Animal) bird; });
        tryCast("Bird->Flyer", () -> { Flyer f = (Flyer) bird; });
        tryCast("Bird->Penguin", () -> { Penguin p = (Penguin) bird; });
        tryCast("Bird->Fish", () -> { Fish f = (Fish) bird; });
        tryCast("String->Integer", () -> { Object s = "hello"; Integer i = (Integer) s; });
        tryCast("Integer->String", () -> { Object s = 42; String i = (String) s; });
        tryCast("null->String", () -> { Object s = null; String x = (String) s; });
        tryCast("int[]->Object[]", () -> { Object a = new int[1]; Object[] x = (Object[]) a; });
        tryCast("String[]->Object[]", () -> { Object a = new String[1]; Object[] x = (Object[]) a; });
        tryCast("Object[]->String[]", () -> { Object a = new Object[1]; String[] x = (String[]) a; });
        tryCast("Integer[]->Number[]", () -> { Object a = new Integer[1]; Number[] x = (Number[]) a; });
        tryCast("int[][]->long[][]", () -> { Object a = new int[1][1]; long[][] x = (long[][]) a; });
        tryCast("List->ArrayList", () -> { List<String> l = List.of("a"); ArrayList<String> x = (ArrayList<String>) l; });
        tryCast("Class.cast", () -> String.class.cast(5));
        tryCast("Class.cast ok", () -> Number.class.cast(5));
        tryCast("generic unchecked", () -> {
            List<Object> objs = new ArrayList<>();
            objs.add(3.5);
            @SuppressWarnings("unchecked") List<String> strs = (List<String>) (List<?>) objs;
            String s = strs.get(0);
        });
        System.out.println("isInstance: " + Animal.class.isInstance(new Penguin()) + " " + Fish.class.isInstance(new Bird()) + " " + Flyer.class.isInstance(null));
        System.out.println("primitive cast chain: " + (int) (char) (byte) -1 + " " + (short) (char) 40000 + " " + (long) (float) Long.MAX_VALUE);
        Object boxed = 5;
        if (boxed instanceof Integer i && i > 3) System.out.println("pattern binding: " + (i + 1));
        Number num = 5;
        System.out.println("Number cast: " + ((Integer) num + 1) + " intValue: " + num.intValue() + " doubleValue: " + num.doubleValue());
    }
}
