// More helpful NullPointerException messages (JEP 358): arrays of arrays, return values,
// static fields, unboxing, synchronized, throw null, chained fields, local vs parameter
// naming, merged control flow and the nesting limit. Compiled without -g, so locals appear
// as "<localN>" / "<parameterN>". Ends with an uncaught NPE (stderr + exit code 1).
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class HelpfulNpeMore {
    String name;
    HelpfulNpeMore next;
    HelpfulNpeMore[] kids;
    int idx;
    long[] longs;
    Integer boxed;
    static HelpfulNpeMore root;
    static int[][] grid;
    static String label;
    static Object lock;

    interface Shape { double area(double scale, String unit, int[] dims); }

    static class Inner { String text; int len() { return text.length(); } }

    static void attempt(String what, Runnable r) {
        try {
            r.run();
            System.out.println(what + ": no exception");
        } catch (NullPointerException e) {
            System.out.println(what + ": " + e.getMessage());
        }
    }

    static HelpfulNpeMore nothing() { return null; }
    static HelpfulNpeMore chain(int depth) {
        HelpfulNpeMore head = new HelpfulNpeMore();
        HelpfulNpeMore cur = head;
        for (int i = 0; i < depth; i++) { cur.next = new HelpfulNpeMore(); cur = cur.next; }
        return head;
    }
    static int[] noInts() { return null; }
    static Object[][] table() { return new Object[4][]; }
    static int two() { return 2; }
    HelpfulNpeMore self() { return null; }

    // Parameters keep their "<parameterN>" names until written; long/double take two slots.
    static void params(long wide, String text, double d, Object[] items, int k) {
        attempt("param after long", () -> {});
        try { text.length(); } catch (NullPointerException e) { System.out.println("param text: " + e.getMessage()); }
        try { System.out.println(items[k]); } catch (NullPointerException e) { System.out.println("param items: " + e.getMessage()); }
        String local = null;
        try { local.isEmpty(); } catch (NullPointerException e) { System.out.println("local: " + e.getMessage()); }
        text = null;
        try { text.trim(); } catch (NullPointerException e) { System.out.println("written param: " + e.getMessage()); }
    }

    void instance(String arg) {
        try { arg.length(); } catch (NullPointerException e) { System.out.println("instance param: " + e.getMessage()); }
        try { name.length(); } catch (NullPointerException e) { System.out.println("this field: " + e.getMessage()); }
        try { next.next.name = "x"; } catch (NullPointerException e) { System.out.println("this chain: " + e.getMessage()); }
        HelpfulNpeMore alias = this;
        try { alias.next.idx++; } catch (NullPointerException e) { System.out.println("alias: " + e.getMessage()); }
    }

    static void inHandler(String s) {
        s = null;
        try {
            throw new IllegalStateException();
        } catch (IllegalStateException e) {
            try { s.length(); } catch (NullPointerException n) { System.out.println("in handler: " + n.getMessage()); }
        }
    }

    static void loopWrite(String s, int n) {
        try {
            for (int i = 0; i < n; i++) { s.length(); s = null; }
        } catch (NullPointerException e) {
            System.out.println("loop write: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        HelpfulNpeMore obj = new HelpfulNpeMore();

        // Arrays of arrays.
        attempt("static 2d null", () -> System.out.println(grid[0][0]));
        attempt("static 2d row", () -> { grid = new int[3][]; System.out.println(grid[1][2]); });
        attempt("row by local", () -> { int i = 2; grid[i][0] = 7; });
        attempt("row by expr", () -> { int i = 1; System.out.println(grid[i + 1][0]); });
        attempt("row by field", () -> System.out.println(grid[obj.idx][1]));
        attempt("row by call", () -> System.out.println(grid[two()][1]));
        attempt("row by array", () -> { int[] at = {1}; System.out.println(grid[at[0]][1]); });
        attempt("row by big const", () -> { Object[][] t = new Object[40000][]; System.out.println(t[30000][0]); });
        attempt("row by huge const", () -> { Object[][] t = new Object[70000][]; System.out.println(t[65537][0]); });
        attempt("3d", () -> { String[][][] c = new String[2][2][]; int j = 1; System.out.println(c[j][1][0]); });
        attempt("table()", () -> System.out.println(table()[3][0]));
        attempt("kids", () -> { obj.kids = new HelpfulNpeMore[2]; System.out.println(obj.kids[1].name); });
        attempt("deep arrays", () -> {
            Object[][][][][][][] d = new Object[1][1][1][1][1][1][];
            System.out.println(d[0][0][0][0][0][0][0]);
        });
        attempt("merged array", () -> {
            Object[][] a = new Object[2][], b = new Object[2][];
            System.out.println((args.length > 5 ? a : b)[0][0]);
        });
        attempt("long array", () -> obj.longs[0] = 3L);
        attempt("char array", () -> { char[] cs = null; System.out.println(cs[0]); });
        attempt("boolean array", () -> { boolean[] bs = null; bs[0] = true; });
        attempt("array length", () -> System.out.println(noInts().length));
        attempt("foreach array", () -> { int[] xs = null; for (int x : xs) System.out.println(x); });
        attempt("array clone", () -> { String[] ss = null; ss.clone(); });
        attempt("2d array clone", () -> { int[][] ii = null; ii.clone(); });

        // Method return values.
        attempt("return value", () -> System.out.println(nothing().name));
        attempt("return value method", () -> nothing().self());
        attempt("return then field", () -> System.out.println(chain(1).next.next.name));
        attempt("self()", () -> System.out.println(chain(2).next.self().name.length()));
        attempt("list get", () -> { List<String> l = new ArrayList<>(); l.add(null); l.get(0).trim(); });
        attempt("map get unbox", () -> { Map<String, Integer> m = new HashMap<>(); int v = m.get("k"); });

        // Static fields.
        attempt("static field", () -> System.out.println(root.name));
        attempt("static string", () -> System.out.println(label.length()));
        attempt("static nested", () -> System.out.println(new Inner().len()));

        // Unboxing.
        attempt("unbox field", () -> { int v = obj.boxed; });
        attempt("unbox long", () -> { Long l = null; long v = l; });
        attempt("unbox boolean", () -> { Boolean b = null; if (b) System.out.println("t"); });
        attempt("unbox char", () -> { Character c = null; char v = c; });
        attempt("unbox double", () -> { Double dd = null; double v = dd * 2; });
        attempt("unbox increment", () -> { Integer i = null; i++; });

        // synchronized and throw.
        attempt("sync static", () -> { synchronized (lock) { System.out.println("in"); } });
        attempt("sync local", () -> { Object o = null; synchronized (o) { System.out.println("in"); } });
        attempt("throw null", () -> { throw null; });
        attempt("throw local", () -> { RuntimeException ex = null; throw ex; });
        attempt("throw element", () -> { Error[] errs = new Error[1]; throw errs[0]; });

        // Chained field access.
        attempt("chain 1", () -> System.out.println(obj.next.name));
        attempt("chain assign", () -> obj.next.next = obj);
        attempt("chain 4", () -> System.out.println(chain(3).next.next.next.next.name));
        attempt("chain 5", () -> System.out.println(chain(4).next.next.next.next.next.name));
        attempt("chain 6", () -> System.out.println(chain(5).next.next.next.next.next.next.name));
        attempt("local chain 4", () -> { HelpfulNpeMore h = chain(3); System.out.println(h.next.next.next.next.name); });
        attempt("local chain 5", () -> { HelpfulNpeMore h = chain(4); System.out.println(h.next.next.next.next.next.name); });
        attempt("merged chain", () -> {
            HelpfulNpeMore a = chain(1);
            System.out.println((args.length > 5 ? obj : a).next.next.name);
        });
        attempt("merged direct", () -> System.out.println((args.length > 5 ? obj : root).name));

        // Invocations: names of classes and parameter types.
        attempt("interface", () -> { Shape s = null; s.area(1.0, "m", null); });
        attempt("string method", () -> { String s = null; s.regionMatches(true, 0, "x", 0, 1); });
        attempt("object method", () -> { Object o = null; o.equals(o); });
        attempt("builder", () -> { StringBuilder sb = null; sb.append('c'); });
        attempt("enum switch", () -> { Thread.State st = null; switch (st) { case NEW: break; default: break; } });
        attempt("string switch", () -> { String s = null; switch (s) { case "a": break; default: break; } });
        attempt("cast", () -> { Object o = null; ((String) o).length(); });
        attempt("iterator", () -> { List<String> l = null; for (String s : l) System.out.println(s); });

        // Explicit NPEs keep their (null) message.
        attempt("explicit", () -> { throw new NullPointerException(); });
        attempt("explicit stored", () -> { NullPointerException e = new NullPointerException(); throw e; });
        attempt("explicit message", () -> { throw new NullPointerException("mine"); });

        // Local vs parameter naming.
        params(1L, null, 2.0, null, 0);
        obj.instance(null);
        inHandler("x");
        loopWrite("x", 2);

        // Uncaught.
        String last = null;
        System.out.println(last.length());
    }
}
