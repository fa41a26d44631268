import java.util.ArrayList;
import java.util.List;

public class Inheritance {
    static abstract class Shape {
        private static int created = 0;
        protected final String name;
        Shape(String name) { this.name = name; created++; }
        abstract double area();
        double perimeter() { return 0; }
        String describe() { return name + " area=" + String.format("%.3f", area()) + " perimeter=" + String.format("%.3f", perimeter()); }
        static int created() { return created; }
    }

    static class Circle extends Shape {
        final double r;
        Circle(double r) { super("circle"); this.r = r; }
        @Override double area() { return Math.PI * r * r; }
        @Override double perimeter() { return 2 * Math.PI * r; }
    }

    static class Rect extends Shape {
        final double w, h;
        Rect(double w, double h) { this("rect", w, h); }
        protected Rect(String n, double w, double h) { super(n); this.w = w; this.h = h; }
        @Override double area() { return w * h; }
        @Override double perimeter() { return 2 * (w + h); }
    }

    static class Square extends Rect {
        Square(double s) { super("square", s, s); }
        @Override String describe() { return "[SQ] " + super.describe(); }
    }

    static class Animal {
        String sound() { return "..."; }
        String speak() { return getClass().getSimpleName() + " says " + sound(); }
        String kind() { return "animal"; }
    }
    static class Dog extends Animal {
        @Override String sound() { return "woof"; }
        @Override String kind() { return "dog/" + super.kind(); }
    }
    static class Puppy extends Dog {
        @Override String sound() { return super.sound() + " (squeaky)"; }
        @Override String kind() { return "puppy/" + super.kind(); }
    }
    static class Cat extends Animal {
        @Override String sound() { return "meow"; }
    }

    static class Base {
        Base() { System.out.println("Base ctor calls init(): " + init()); }
        String init() { return "Base.init"; }
        static String stat() { return "Base.stat"; }
    }
    static class Derived extends Base {
        String value = "set";
        Derived() { super(); System.out.println("Derived ctor value=" + value); }
        @Override String init() { return "Derived.init sees value=" + value; }
        static String stat() { return "Derived.stat"; }
    }

    static String overload(Object o) { return "Object"; }
    static String overload(String s) { return "String"; }
    static String overload(Integer i) { return "Integer"; }
    static String overload(long l) { return "long"; }
    static String overload(double d) { return "double"; }

    public static void main(String[] args) {
        List<Shape> shapes = new ArrayList<>();
        shapes.add(new Circle(1.5));
        shapes.add(new Rect(2, 3.5));
        shapes.add(new Square(4));
        double total = 0;
        for (Shape s : shapes) {
            System.out.println(s.describe());
            total += s.area();
        }
        System.out.println("total area=" + String.format("%.4f", total) + " created=" + Shape.created());
        Animal[] zoo = {new Animal(), new Dog(), new Puppy(), new Cat()};
        for (Animal a : zoo) System.out.println(a.speak() + " / " + a.kind());
        new Derived();
        Base b = new Derived();
        System.out.println("static dispatch: " + Base.stat() + " " + Derived.stat());
        System.out.println("instanceof: " + (b instanceof Derived) + " " + (zoo[2] instanceof Dog) + " " + (zoo[3] instanceof Dog));
        System.out.println("overloads: " + overload("s") + " " + overload(1) + " " + overload(1L) + " " + overload(1.0f) + " " + overload((Object) "s") + " " + overload('c') + " " + overload(new ArrayList<>()));
        Object o = new Square(2);
        System.out.println("getClass: " + o.getClass().getName() + " super: " + o.getClass().getSuperclass().getName() + " superSuper: " + o.getClass().getSuperclass().getSuperclass().getName());
        System.out.println("isAssignableFrom: " + Shape.class.isAssignableFrom(Square.class) + " " + Square.class.isAssignableFrom(Shape.class));
    }
}
