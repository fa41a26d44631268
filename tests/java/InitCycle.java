public class InitCycle {
    static StringBuilder log = new StringBuilder();

    static class A {
        static int a1 = mark("A.a1 start, B.b1=" + B.b1, 1);
        static int a2 = 2;
        static { mark("A static block a1=" + a1 + " a2=" + a2, 0); }
    }

    static class B {
        static int b1 = mark("B.b1 start, A.a2=" + A.a2, 10);
        static int b2 = A.a1 + 100;
        static { mark("B static block b1=" + b1 + " b2=" + b2, 0); }
    }

    static class Counter {
        static int value;
        static final Counter INSTANCE = new Counter();
        static int after = 5;
        Counter() { value++; after++; }
    }

    static class Outer {
        static int outerVal = mark("Outer init", 1);
        static class Inner {
            static int innerVal = mark("Inner init reads Outer.outerVal=" + Outer.outerVal, 2);
        }
    }

    static int mark(String s, int v) {
        log.append(s).append('\n');
        return v;
    }

    public static void main(String[] args) {
        System.out.println("A.a1=" + A.a1 + " A.a2=" + A.a2 + " B.b1=" + B.b1 + " B.b2=" + B.b2);
        System.out.print(log);
        log.setLength(0);
        System.out.println("Counter.value=" + Counter.value + " Counter.after=" + Counter.after);
        System.out.println("Inner first: " + Outer.Inner.innerVal);
        System.out.print(log);
        log.setLength(0);
        System.out.println("then Outer: " + Outer.outerVal);
        System.out.print(log);
    }
}
