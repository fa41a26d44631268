import java.util.ArrayList;
import java.util.List;

public class TryWithResources {
    static List<String> events = new ArrayList<>();

    static class Res implements AutoCloseable {
        final String name;
        final boolean failOnClose;
        Res(String name, boolean failOnClose) {
            this.name = name;
            this.failOnClose = failOnClose;
            events.add("open " + name);
        }
        Res(String name) { this(name, false); }
        void use(boolean fail) {
            events.add("use " + name);
            if (fail) throw new IllegalStateException("use failed: " + name);
        }
        @Override public void close() {
            events.add("close " + name);
            if (failOnClose) throw new IllegalArgumentException("close failed: " + name);
        }
    }

    static class FailingOpen implements AutoCloseable {
        FailingOpen() { events.add("open failing"); throw new UnsupportedOperationException("cannot open"); }
        public void close() { events.add("close failing (never)"); }
    }

    static void run(String label, Runnable r) {
        events.clear();
        try {
            r.run();
            System.out.println(label + ": no exception; events=" + events);
        } catch (RuntimeException e) {
            StringBuilder sb = new StringBuilder();
            for (Throwable s : e.getSuppressed()) sb.append(" [suppressed ").append(s.getClass().getSimpleName()).append(": ").append(s.getMessage()).append(']');
            System.out.println(label + ": " + e.getClass().getSimpleName() + ": " + e.getMessage() + sb + "; events=" + events);
        }
    }

    public static void main(String[] args) {
        run("simple", () -> { try (Res a = new Res("a")) { a.use(false); } });
        run("two resources reverse close", () -> { try (Res a = new Res("a"); Res b = new Res("b")) { a.use(false); b.use(false); } });
        run("body throws", () -> { try (Res a = new Res("a")) { a.use(true); } });
        run("close throws", () -> { try (Res a = new Res("a", true)) { a.use(false); } });
        run("body and close throw", () -> { try (Res a = new Res("a", true)) { a.use(true); } });
        run("body and both closes throw", () -> { try (Res a = new Res("a", true); Res b = new Res("b", true)) { b.use(true); } });
        run("both closes throw", () -> { try (Res a = new Res("a", true); Res b = new Res("b", true)) { events.add("body"); } });
        run("second open fails", () -> { try (Res a = new Res("a"); FailingOpen f = new FailingOpen()) { events.add("body never"); } });
        run("null resource", () -> { try (Res a = null) { events.add("body with null"); } });
        run("catch and finally", () -> {
            try (Res a = new Res("a")) {
                a.use(true);
            } catch (IllegalStateException e) {
                events.add("catch " + e.getMessage());
            } finally {
                events.add("finally");
            }
        });
        run("existing variable", () -> {
            Res outer = new Res("outer");
            try (outer) { outer.use(false); }
        });
        run("lambda resource", () -> {
            try (AutoCloseableNoEx c = () -> events.add("lambda close")) { events.add("lambda body"); }
        });
        Throwable t = new Exception("main");
        t.addSuppressed(new RuntimeException("s1"));
        t.addSuppressed(new Error("s2"));
        System.out.println("manual suppressed: " + t.getSuppressed().length + " " + t.getSuppressed()[1]);
        try {
            t.addSuppressed(t);
        } catch (IllegalArgumentException e) {
            System.out.println("self-suppression: " + e.getMessage());
        }
        try {
            t.addSuppressed(null);
        } catch (NullPointerException e) {
            System.out.println("null suppression: " + e.getMessage());
        }
    }

    interface AutoCloseableNoEx extends AutoCloseable { @Override void close(); }
}
