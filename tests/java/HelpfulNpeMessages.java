// Helpful NullPointerException messages (JEP 358, on by default in HotSpot 17).
// Compiled without -g, so local variables appear as "<localN>".
public class HelpfulNpeMessages {
    String name;
    HelpfulNpeMessages next;
    int[] data;
    static HelpfulNpeMessages staticRef;

    String upper() { return name.toUpperCase(); }

    static void attempt(String label, Runnable r) {
        try {
            r.run();
            System.out.println(label + ": no exception");
        } catch (NullPointerException e) {
            System.out.println(label + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        HelpfulNpeMessages obj = new HelpfulNpeMessages();
        attempt("field of null field", () -> System.out.println(obj.next.name));
        attempt("method on null field", () -> obj.upper());
        attempt("array field load", () -> System.out.println(obj.data[0]));
        attempt("array field store", () -> obj.data[1] = 5);
        attempt("array length", () -> System.out.println(obj.data.length));
        attempt("static field", () -> System.out.println(staticRef.name));
        attempt("chained", () -> System.out.println(obj.next.next.name));
        attempt("write field of null", () -> obj.next.name = "x");
        attempt("throw null", () -> { RuntimeException ex = null; throw ex; });
        attempt("synchronized null", () -> { Object lock = null; synchronized (lock) { System.out.println("in"); } });
        attempt("unboxing", () -> { Integer boxed = null; int x = boxed; });
        attempt("string switch", () -> { String s = null; switch (s) { default: break; } });
        attempt("method return null", () -> System.out.println(make().name.length()));
        attempt("explicit new NPE", () -> { throw new NullPointerException("explicit message"); });
        attempt("explicit NPE no message", () -> { throw new NullPointerException(); });
    }

    static HelpfulNpeMessages make() { return new HelpfulNpeMessages(); }
}
