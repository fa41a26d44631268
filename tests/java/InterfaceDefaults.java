public class InterfaceDefaults {
    interface Greeter {
        String name();
        default String greet() { return "Hello, " + decorate(name()); }
        private String decorate(String s) { return "*" + s + "*"; }
        static Greeter of(String n) { return () -> n; }
    }

    interface Loud extends Greeter {
        @Override default String greet() { return Greeter.super.greet().toUpperCase() + "!"; }
    }

    interface Left { default String who() { return "Left"; } }
    interface Right { default String who() { return "Right"; } }
    static class Both implements Left, Right {
        @Override public String who() { return "Both(" + Left.super.who() + "+" + Right.super.who() + ")"; }
    }

    interface Top { default String m() { return "Top"; } }
    interface MidA extends Top { }
    interface MidB extends Top { @Override default String m() { return "MidB"; } }
    static class Diamond implements MidA, MidB { }

    static class BaseClass { public String m() { return "BaseClass"; } }
    static class ClassWins extends BaseClass implements Top { }

    interface Counter {
        int count();
        default Counter plus(int n) { Counter self = this; return () -> self.count() + n; }
        default Counter twice() { return plus(count()); }
    }

    interface WithStatic {
        int CONST = compute();
        static int compute() { return 6 * 7; }
        static String util(String s) { return "util:" + s; }
    }

    static class Person implements Greeter {
        public String name() { return "Ann"; }
    }
    static class LoudPerson implements Loud {
        public String name() { return "Bob"; }
    }

    public static void main(String[] args) {
        System.out.println(new Person().greet());
        System.out.println(new LoudPerson().greet());
        System.out.println(Greeter.of("Lambda").greet());
        System.out.println(new Both().who());
        System.out.println("diamond: " + new Diamond().m());
        System.out.println("class wins: " + new ClassWins().m());
        Counter c = () -> 5;
        System.out.println("counter: " + c.count() + " " + c.plus(3).count() + " " + c.plus(3).twice().count() + " " + c.twice().twice().count());
        System.out.println("static: " + WithStatic.CONST + " " + WithStatic.util("x"));
        Greeter anon = new Greeter() {
            public String name() { return "Anon"; }
            public String greet() { return "Hi " + name(); }
        };
        System.out.println(anon.greet());
        Comparable<String> cmp = "b"::compareTo;
        System.out.println("compare via iface: " + cmp.compareTo("a") + " " + cmp.compareTo("c"));
        System.out.println("interfaces of Diamond: " + java.util.Arrays.toString(java.util.Arrays.stream(Diamond.class.getInterfaces()).map(Class::getSimpleName).toArray()));
        System.out.println("isInterface: " + Greeter.class.isInterface() + " " + Person.class.isInterface());
    }
}
