import java.util.ArrayList;
import java.util.List;

/**
 * Compiled code that calls or inlines a virtual method no loaded class overrides, then a
 * class overriding it is loaded while that code is on the stack: the frame must go on in the
 * interpreter (deoptimization) and every later call must reach the override.
 */
public class JitDeopt {
    static class Shape {
        int area() { return 1; }
        // Too big to inline: a direct call on the assumption.
        int perimeter(int k) {
            int p = 0;
            for (int i = 0; i < k; i++) p += i % 3;
            return p + 100;
        }
    }
    static class Square extends Shape {
        int area() { return 4; }
    }
    static class Circle extends Shape {
        int area() { return 3; }
    }
    static class Tri extends Shape {
        int perimeter(int k) { return -k; }
    }
    static class Deep extends Square {
        int area() { return 40; }
    }
    static class Node {
        Shape shape = new Shape();
        int get() { return shape.area(); }
    }
    static class Special extends Node {
        int get() { return 1000; }
    }

    static Shape make(String name) {
        try {
            return (Shape) Class.forName("JitDeopt$" + name).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new RuntimeException(e);
        }
    }

    /** One call of a long loop: the class is loaded in the middle (the loop's frame on the stack). */
    static long areas(int n, int switchAt, String other) {
        long total = 0;
        Shape s = new Shape();
        for (int i = 0; i < n; i++) {
            if (i == switchAt) s = make(other);
            total += s.area();
        }
        return total;
    }

    static long perimeters(int n, int switchAt, String other) {
        long total = 0;
        Shape s = new Shape();
        for (int i = 0; i < n; i++) {
            if (i == switchAt) s = make(other);
            total += s.perimeter(5);
        }
        return total;
    }

    /** Warm in many calls (compiled by count), then a receiver of a class loaded later. */
    static int viaNode(Node n) {
        return n.get() + n.get();
    }

    static class Lamp {
        int on() { return 1; }
    }
    static class Neon extends Lamp {
        int on() { return 3; }
    }

    static volatile Lamp shared = new Lamp();

    /** Spins until another thread hands over an object of a class it loaded meanwhile. */
    static long spin() {
        long spins = 0;
        while (shared.on() != 3) spins++;
        return spins;
    }

    public static void main(String[] args) throws Exception {
        // The callees run once first, so that even code compiled before its first run
        // (-Xcomp) may call them directly.
        System.out.println("first " + new Shape().area() + " " + new Shape().perimeter(1)
                + " " + new Node().get() + " " + new Lamp().on());
        System.out.println("areas " + areas(300_000, 200_000, "Square"));
        System.out.println("perimeters " + perimeters(300_000, 200_000, "Tri"));

        Node plain = new Node();
        long warm = 0;
        for (int i = 0; i < 50_000; i++) warm += viaNode(plain);
        System.out.println("warm " + warm);
        Node special;
        try {
            special = (Node) Class.forName("JitDeopt$Special").getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new RuntimeException(e);
        }
        System.out.println("special " + viaNode(special) + " plain " + viaNode(plain));
        long mixed = 0;
        for (int i = 0; i < 50_000; i++) mixed += viaNode((i & 1) == 0 ? plain : special);
        System.out.println("mixed " + mixed);

        // A subclass of a subclass: Square.area was overridden already; Deep overrides it again.
        Shape sq = make("Square");
        long sqs = 0;
        for (int i = 0; i < 100_000; i++) sqs += sq.area();
        Shape deep = make("Deep");
        System.out.println("squares " + sqs + " deep " + deep.area());

        // Another thread loads a class and hands over an object while this one spins in
        // compiled code that assumed no override.
        Thread loader = new Thread(() -> {
            try { Thread.sleep(50); } catch (InterruptedException e) { }
            try {
                shared = (Lamp) Class.forName("JitDeopt$Neon").getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new RuntimeException(e);
            }
        });
        loader.start();
        long spins = spin();
        loader.join();
        System.out.println("other thread's class seen " + shared.on() + " after spinning: " + (spins > 0));
    }
}
