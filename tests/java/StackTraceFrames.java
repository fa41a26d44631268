import java.util.function.Supplier;

public class StackTraceFrames {
    static void printFrames(String label, Throwable t, int max) {
        System.out.println(label + ": " + t);
        StackTraceElement[] st = t.getStackTrace();
        int shown = 0;
        for (StackTraceElement e : st) {
            if (!e.getClassName().startsWith("StackTraceFrames")) continue;
            System.out.println("  at " + e.getClassName() + "." + e.getMethodName() + " line " + e.getLineNumber() + " file " + e.getFileName());
            if (++shown >= max) break;
        }
    }

    static int depth3(int x) {
        if (x > 0) {
            int y = x * 2;
            return 100 / (y - y);
        }
        return 0;
    }

    static int depth2(int x) {
        return depth3(x) + 1;
    }

    static int depth1(int x) {
        int r =
            depth2(x);
        return r;
    }

    static class Thing {
        final String name;
        Thing(String name) {
            if (name == null) throw new IllegalArgumentException("name required");
            this.name = name;
        }
        int risky(int[] arr) { return arr[arr.length]; }
        static Thing make() { return new Thing(null); }
    }

    static Throwable created() {
        return new RuntimeException("created, not thrown");
    }

    static void rethrower() throws Exception {
        try {
            depth1(5);
        } catch (ArithmeticException e) {
            throw new Exception("wrapped", e);
        }
    }

    static void recurse(int n) {
        if (n == 0) throw new IllegalStateException("bottom");
        recurse(n - 1);
    }

    public static void main(String[] args) {
        try {
            depth1(3);
        } catch (ArithmeticException e) {
            printFrames("arith", e, 5);
        }
        try {
            Thing.make();
        } catch (IllegalArgumentException e) {
            printFrames("ctor", e, 5);
        }
        try {
            new Thing("x").risky(new int[4]);
        } catch (ArrayIndexOutOfBoundsException e) {
            printFrames("aioobe", e, 5);
        }
        printFrames("created", created(), 3);
        try {
            rethrower();
        } catch (Exception e) {
            printFrames("outer", e, 3);
            printFrames("cause", e.getCause(), 5);
        }
        try {
            recurse(4);
        } catch (IllegalStateException e) {
            printFrames("recurse", e, 10);
        }
        try {
            Supplier<Integer> s = () -> depth2(1);
            s.get();
        } catch (ArithmeticException e) {
            StackTraceElement top = e.getStackTrace()[0];
            System.out.println("lambda top: " + top.getClassName() + "." + top.getMethodName() + " line " + top.getLineNumber());
            boolean sawLambda = false;
            for (StackTraceElement el : e.getStackTrace()) if (el.getMethodName().startsWith("lambda$main$")) sawLambda = true;
            System.out.println("saw lambda frame: " + sawLambda);
        }
        try {
            Object o = "str";
            Integer i = (Integer) o;
        } catch (ClassCastException e) {
            printFrames("cce", e, 2);
        }
        StackTraceElement[] here = new Throwable().getStackTrace();
        System.out.println("current frame: " + here[0].getMethodName() + " line " + here[0].getLineNumber() + " depth " + here.length);
        Throwable custom = new Throwable("custom trace");
        custom.setStackTrace(new StackTraceElement[]{new StackTraceElement("Fake", "method", "Fake.java", 42)});
        System.out.println("custom trace: " + custom.getStackTrace()[0]);
    }
}
