public class StaticInitFailure {
    static class Broken {
        static int value;
        static {
            System.out.println("Broken.<clinit> running");
            if (Boolean.parseBoolean("true")) throw new IllegalStateException("boom in static init");
            value = 1;
        }
        static int get() { return value; }
    }

    static class BrokenArith {
        static int x = 10 / Integer.parseInt("0");
    }

    static class BrokenError {
        static {
            if (true) throw new StackOverflowErrorLike("custom error");
        }
        static void f() { }
    }

    static class StackOverflowErrorLike extends Error {
        StackOverflowErrorLike(String m) { super(m); }
    }

    static class Fine {
        static int v = 42;
    }

    public static void main(String[] args) {
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                System.out.println("attempt " + attempt + ": " + Broken.get());
            } catch (ExceptionInInitializerError e) {
                System.out.println("attempt " + attempt + ": ExceptionInInitializerError, message=" + e.getMessage()
                    + ", cause=" + e.getCause() + ", getException=" + e.getException().getClass().getName());
            } catch (NoClassDefFoundError e) {
                System.out.println("attempt " + attempt + ": NoClassDefFoundError: " + e.getMessage());
                Throwable c = e.getCause();
                System.out.println("   cause: " + (c == null ? "none" : c.getClass().getName() + ": " + c.getMessage()));
            }
        }
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                System.out.println("x=" + BrokenArith.x);
            } catch (Throwable t) {
                System.out.println("BrokenArith attempt " + attempt + ": " + t.getClass().getName() + " cause=" + t.getCause());
            }
        }
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                BrokenError.f();
            } catch (Throwable t) {
                System.out.println("BrokenError attempt " + attempt + ": " + t.getClass().getName() + ": " + t.getMessage());
            }
        }
        System.out.println("Fine still works: " + Fine.v);
        try {
            new Broken();
        } catch (NoClassDefFoundError e) {
            System.out.println("new Broken(): NoClassDefFoundError " + e.getMessage());
        }
        try {
            Broken[] arr = new Broken[2];
            System.out.println("array of broken class ok: " + arr.length);
        } catch (Throwable t) {
            System.out.println("array failed: " + t);
        }
    }
}
