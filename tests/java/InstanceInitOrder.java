public class InstanceInitOrder {
    static StringBuilder log = new StringBuilder();
    static int mark(String s, int v) { log.append(s).append(';'); System.out.println("  " + s); return v; }

    static class A {
        int a1 = mark("A.a1 field", 1);
        { mark("A instance block", 0); }
        int a2 = mark("A.a2 field", 2);
        A() {
            this(mark("A() arg to this(int)", 10));
            mark("A() body", 0);
        }
        A(int x) {
            mark("A(int) body x=" + x + " a1=" + a1 + " a2=" + a2, 0);
            show();
        }
        void show() { mark("A.show", 0); }
    }

    static class B extends A {
        int b1 = mark("B.b1 field", 3);
        String s = "initialized";
        { mark("B instance block b1=" + b1, 0); }
        B() {
            super();
            mark("B() body s=" + s, 0);
        }
        B(String x) {
            this();
            mark("B(String) body x=" + x, 0);
        }
        @Override void show() { mark("B.show (overridden) b1=" + b1 + " s=" + s, 0); }
    }

    static class Counter {
        static int instances;
        final int id;
        { instances++; }
        Counter() { id = instances; }
    }

    static class FinalFields {
        final int x;
        final String y;
        { mark("FinalFields block", 0); }
        FinalFields(int v) {
            x = v * 2;
            y = "y" + x;
        }
    }

    public static void main(String[] args) {
        System.out.println("-- new A()");
        new A();
        System.out.println("-- new B()");
        new B();
        System.out.println("-- new B(\"str\")");
        new B("str");
        Counter c1 = new Counter(), c2 = new Counter(), c3 = new Counter();
        System.out.println("counters: " + c1.id + " " + c2.id + " " + c3.id + " total " + Counter.instances);
        FinalFields ff = new FinalFields(21);
        System.out.println("final fields: " + ff.x + " " + ff.y);
        Object anon = new Object() {
            int v = mark("anon field", 5);
            { mark("anon block v=" + v, 0); }
            @Override public String toString() { return "anon v=" + v; }
        };
        System.out.println(anon);
        System.out.println("log length: " + log.length() + " segments: " + log.toString().split(";").length);
    }
}
