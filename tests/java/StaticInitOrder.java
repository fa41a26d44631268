public class StaticInitOrder {
    static StringBuilder log = new StringBuilder();
    static void log(String s) { log.append(s).append(' '); System.out.println("  init: " + s); }

    static class Parent {
        static { log("Parent.static"); }
        static int pval = mark("Parent.pval", 1);
        static final int PCONST = 100;
        static void touch() { log("Parent.touch"); }
    }

    static class Child extends Parent {
        static { log("Child.static1"); }
        static int cval = mark("Child.cval", 2);
        static { log("Child.static2"); }
        static final int CCONST = 200;
        static final String SCONST = "compile-time";
        static final Integer BOXED = mark("Child.BOXED", 300);
        static int childOnly() { return 5; }
    }

    static class Lazy {
        static { log("Lazy.static"); }
        static final Object OBJ = new Object() { @Override public String toString() { return "lazyObj"; } };
    }

    static class Holder {
        static { log("Holder.static"); }
        static class Inner {
            static { log("Holder.Inner.static"); }
            static int v = 7;
        }
    }

    static class ArrayElem {
        static { log("ArrayElem.static"); }
    }

    static class SelfRef {
        static final SelfRef INSTANCE = new SelfRef();
        static int counter = 10;
        final int seen;
        SelfRef() { seen = counter; log("SelfRef.ctor counter=" + counter); }
    }

    static class Forward {
        static int a = b() + 1;
        static int b = 5;
        static int b() { return b; }
    }

    static int mark(String what, int v) { log(what); return v; }

    public static void main(String[] args) {
        System.out.println("1. constant access (no init): " + Child.CCONST + " " + Child.SCONST + " " + Parent.PCONST);
        System.out.println("2. array of class (no init): " + new ArrayElem[3].length);
        System.out.println("3. class literal (no init): " + Lazy.class.getSimpleName());
        System.out.println("4. inherited static via subclass (only Parent): " + Child.pval);
        System.out.println("5. child static method: " + Child.childOnly());
        System.out.println("6. boxed constant (init already done): " + Child.BOXED);
        System.out.println("7. nested inner only: " + Holder.Inner.v);
        System.out.println("8. lazy obj: " + Lazy.OBJ);
        Parent.touch();
        System.out.println("9. self ref: seen=" + SelfRef.INSTANCE.seen + " counter=" + SelfRef.counter);
        System.out.println("10. forward ref: a=" + Forward.a + " b=" + Forward.b);
        new ArrayElem();
        System.out.println("log: " + log.toString().trim());
    }
}
