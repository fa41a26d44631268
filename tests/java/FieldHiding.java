public class FieldHiding {
    static class A {
        String name = "A.name";
        static String sname = "A.sname";
        int x = 1;
        String getName() { return name; }
        String viaThis() { return this.name + "/" + this.x; }
    }

    static class B extends A {
        String name = "B.name";
        static String sname = "B.sname";
        int x = 2;
        @Override String getName() { return name; }
        String both() { return name + " " + super.name + " " + ((A) this).name + " " + x + " " + super.x; }
    }

    static class C extends B {
        String name = "C.name";
        String all() { return name + " | " + super.name + " | " + ((A) this).name + " | " + super.getName(); }
    }

    interface Consts { int VALUE = 10; String LABEL = "iface"; }
    static class Impl implements Consts { int VALUE = 20; }
    static class Impl2 extends Impl { static final int VALUE = 30; }

    public static void main(String[] args) {
        A a = new B();
        B b = (B) a;
        System.out.println("a.name=" + a.name + " b.name=" + b.name + " a.getName()=" + a.getName() + " b.getName()=" + b.getName());
        System.out.println("a.x=" + a.x + " b.x=" + b.x + " viaThis=" + a.viaThis());
        System.out.println("both: " + b.both());
        System.out.println("statics: " + A.sname + " " + B.sname);
        C c = new C();
        System.out.println("C all: " + c.all());
        A ac = c;
        B bc = c;
        System.out.println("C via A: " + ac.name + " via B: " + bc.name + " direct: " + c.name + " getName: " + ac.getName());
        Impl impl = new Impl();
        Consts ci = impl;
        System.out.println("interface const: " + Consts.VALUE + " impl field: " + impl.VALUE + " via iface type: " + ci.VALUE + " Impl2: " + Impl2.VALUE + " label: " + Impl.LABEL);
        b.name = "changed";
        System.out.println("after change: a.name=" + a.name + " b.name=" + b.name);
        ((A) b).name = "changedA";
        System.out.println("after changeA: a.name=" + a.name + " b.name=" + b.name + " both=" + b.both());
    }
}
