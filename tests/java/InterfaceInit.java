public class InterfaceInit {
    static StringBuilder log = new StringBuilder();
    static int mark(String s, int v) { log.append(s).append(' '); System.out.println("  init " + s); return v; }

    interface I {
        int I_FIELD = mark("I.I_FIELD", 1);
        int I_CONST = 5;
    }

    interface J extends I {
        int J_FIELD = mark("J.J_FIELD", 2);
    }

    interface WithDefault {
        int WD_FIELD = mark("WithDefault.WD_FIELD", 3);
        default String hello() { return "hello from default"; }
    }

    static class Impl implements J {
        static { mark("Impl.static", 0); }
    }

    static class ImplDefault implements WithDefault {
        static { mark("ImplDefault.static", 0); }
    }

    static class Sup { static { mark("Sup.static", 0); } }
    static class Sub extends Sup implements I { static { mark("Sub.static", 0); } static int x = 9; }

    public static void main(String[] args) {
        System.out.println("step1 new Impl (interfaces without defaults not initialized)");
        new Impl();
        System.out.println("step2 constant I_CONST=" + I.I_CONST);
        System.out.println("step3 J.J_FIELD=" + J.J_FIELD + " (J init does not init I)");
        System.out.println("step4 I.I_FIELD=" + I.I_FIELD);
        System.out.println("step5 new ImplDefault (interface with default method is initialized)");
        ImplDefault d = new ImplDefault();
        System.out.println("step6 " + d.hello());
        System.out.println("step7 Sub.x=" + Sub.x);
        System.out.println("log: " + log.toString().trim());
    }
}
