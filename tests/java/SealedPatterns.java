import java.util.List;

public class SealedPatterns {
    sealed interface Expr permits Num, Add, Mul, Neg, Var { }
    record Num(double v) implements Expr { }
    record Add(Expr l, Expr r) implements Expr { }
    record Mul(Expr l, Expr r) implements Expr { }
    record Neg(Expr e) implements Expr { }
    static final class Var implements Expr {
        final String name;
        Var(String name) { this.name = name; }
        @Override public String toString() { return name; }
    }

    sealed static abstract class Vehicle permits Car, Truck, Bike { }
    static final class Car extends Vehicle { int seats = 4; }
    static non-sealed class Truck extends Vehicle { double load = 7.5; }
    static final class Bike extends Vehicle { }
    static class BigTruck extends Truck { BigTruck() { load = 40; } }

    static double eval(Expr e, double x) {
        if (e instanceof Num n) return n.v();
        if (e instanceof Add a) return eval(a.l(), x) + eval(a.r(), x);
        if (e instanceof Mul m) return eval(m.l(), x) * eval(m.r(), x);
        if (e instanceof Neg n) return -eval(n.e(), x);
        if (e instanceof Var) return x;
        throw new AssertionError();
    }

    static String show(Expr e) {
        if (e instanceof Num n) return n.v() == Math.floor(n.v()) ? String.valueOf((long) n.v()) : String.valueOf(n.v());
        if (e instanceof Add a) return "(" + show(a.l()) + " + " + show(a.r()) + ")";
        if (e instanceof Mul m && m.l() instanceof Num n && n.v() == 1) return show(m.r());
        if (e instanceof Mul m) return show(m.l()) + "*" + show(m.r());
        if (e instanceof Neg n) return "-" + show(n.e());
        return e.toString();
    }

    static Expr simplify(Expr e) {
        if (e instanceof Add a) {
            Expr l = simplify(a.l()), r = simplify(a.r());
            if (l instanceof Num n && n.v() == 0) return r;
            if (r instanceof Num n && n.v() == 0) return l;
            if (l instanceof Num n1 && r instanceof Num n2) return new Num(n1.v() + n2.v());
            return new Add(l, r);
        }
        if (e instanceof Mul m) {
            Expr l = simplify(m.l()), r = simplify(m.r());
            if (l instanceof Num n && n.v() == 0 || r instanceof Num n2 && n2.v() == 0) return new Num(0);
            if (l instanceof Num n1 && r instanceof Num n2) return new Num(n1.v() * n2.v());
            return new Mul(l, r);
        }
        if (e instanceof Neg n && n.e() instanceof Neg inner) return simplify(inner.e());
        return e;
    }

    static String describe(Vehicle v) {
        if (v instanceof Car c) return "car with " + c.seats + " seats";
        else if (v instanceof BigTruck bt) return "big truck load " + bt.load;
        else if (v instanceof Truck t) return "truck load " + t.load;
        else return "bike";
    }

    static String typeOf(Object o) {
        if (o instanceof Integer i && i > 10) return "big int " + i;
        if (o instanceof Integer i) return "int " + i;
        if (o instanceof String s && !s.isEmpty()) return "string of length " + s.length();
        if (o instanceof String) return "empty string";
        if (o instanceof int[] arr) return "int array len " + arr.length;
        if (!(o instanceof Number n)) return "other: " + o;
        return "number " + n.doubleValue();
    }

    public static void main(String[] args) {
        Var x = new Var("x");
        Expr e = new Add(new Mul(new Num(3), x), new Neg(new Num(4)));
        for (double v : new double[]{0, 1, 2.5, -3}) System.out.println("eval at " + v + " = " + eval(e, v));
        System.out.println("show: " + show(e));
        Expr messy = new Add(new Mul(new Num(0), x), new Add(new Neg(new Neg(new Num(2))), new Mul(new Num(1), new Add(x, new Num(0)))));
        System.out.println("messy: " + show(messy) + " => " + show(simplify(messy)) + " value at 5: " + eval(simplify(messy), 5));
        System.out.println("permitted: " + Expr.class.isSealed() + " " + Expr.class.getPermittedSubclasses().length + " vehicle sealed " + Vehicle.class.isSealed());
        List<Vehicle> vs = List.of(new Car(), new Truck(), new BigTruck(), new Bike());
        for (Vehicle v : vs) System.out.println(describe(v));
        Object[] objs = {5, 50, "hey", "", new int[3], 2.5, 'c', null, 7L};
        for (Object o : objs) System.out.println(typeOf(o));
        System.out.println("records equal: " + new Add(new Num(1), x).equals(new Add(new Num(1), x)) + " " + new Neg(new Num(1)));
    }
}
