import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * java.lang.reflect.Proxy as real code uses it: logging and delegating handlers, default
 * methods through InvocationHandler.invokeDefault, Object methods routed to the handler,
 * checked and unchecked exceptions thrown through the proxy (UndeclaredThrowableException
 * for undeclared checked ones), primitive returns and nulls, several interfaces, proxies of
 * JDK interfaces (Comparator, Function, Map) and Proxy.isProxyClass / getInvocationHandler.
 */
public class ReflectionProxy {
    public interface Greeter {
        String greet(String name);
        int count();
        default String greetTwice(String name) { return greet(name) + " & " + greet(name); }
        void fail(String kind) throws IOException;
    }

    public interface Named {
        String name();
        default String describe() { return "Named(" + name() + ")"; }
    }

    public interface Calculator {
        int add(int a, int b);
        long mul(long a, long b);
        double half(double d);
        boolean positive(int x);
        char first(String s);
        void nothing();
    }

    /** Package-private: its proxy class is defined in this package, not a dynamic module. */
    interface Hidden {
        int secret(int[] values, String... names);
        default String reveal() { return "revealed " + secret(new int[] {1, 2, 3}, "a", "b"); }
    }

    interface Left { Object pick(String s); String both(); }
    interface Right { Object pick(String s); String both() throws IOException; }
    interface ReturnsInt { int clash(); }
    interface ReturnsLong { long clash(); }

    interface Repo<T, ID> {
        T find(ID id);
        List<T> all();
        default T findOr(ID id, T fallback) { T t = find(id); return t == null ? fallback : t; }
    }

    interface Resource extends AutoCloseable {
        void close() throws IOException;
    }

    static class RealGreeter implements Greeter {
        int calls;
        public String greet(String name) { calls++; return "Hello, " + name; }
        public int count() { return calls; }
        public void fail(String kind) throws IOException {
            switch (kind) {
                case "io": throw new IOException("disk gone");
                case "state": throw new IllegalStateException("bad state");
                default: throw new Error("custom error");
            }
        }
    }

    /** Logs every call, then delegates to the target (how tracing proxies are written). */
    static class Tracing implements InvocationHandler {
        final Object target;
        final List<String> log = new ArrayList<>();
        Tracing(Object target) { this.target = target; }
        public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
            log.add(m.getName() + (args == null ? "()" : Arrays.toString(args)));
            if (m.isDefault()) return InvocationHandler.invokeDefault(proxy, m, args);
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    static void show(String what, Object v) {
        System.out.println(what + " = " + v);
    }

    public static void main(String[] args) throws Throwable {
        ClassLoader loader = ReflectionProxy.class.getClassLoader();
        RealGreeter real = new RealGreeter();
        Tracing tracing = new Tracing(real);
        Greeter g = (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, tracing);
        show("greet", g.greet("Ann"));
        show("greetTwice", g.greetTwice("Bob"));
        show("count", g.count());
        show("log", tracing.log);

        // Exceptions: declared checked, unchecked, error, undeclared checked.
        for (String kind : new String[] {"io", "state", "error"}) {
            try {
                g.fail(kind);
            } catch (IOException | RuntimeException | Error e) {
                show("fail(" + kind + ")", e.getClass().getName() + ": " + e.getMessage());
            }
        }
        Greeter sneaky = (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, (p, m, a) -> {
            if (m.getName().equals("count")) throw new Exception("checked but undeclared");
            if (m.getName().equals("fail")) throw new java.sql.SQLException("not an IOException");
            return null;
        });
        try {
            sneaky.count();
        } catch (UndeclaredThrowableException e) {
            show("undeclared", e.getUndeclaredThrowable());
        }
        try {
            sneaky.fail("x");
        } catch (UndeclaredThrowableException e) {
            show("undeclared from throws-IOException method", e.getCause().getClass().getName());
        }
        Greeter nulls = (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, (p, m, a) -> null);
        show("null for String", nulls.greet("x"));
        try {
            nulls.count();
        } catch (NullPointerException e) {
            show("null for int", "NullPointerException");
        }
        Greeter wrongType = (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, (p, m, a) -> 42);
        try {
            wrongType.greet("x");
        } catch (ClassCastException e) {
            show("Integer for String", "ClassCastException");
        }

        // Object methods go to the handler; equals/hashCode/toString are typical identity rules.
        InvocationHandler identity = new InvocationHandler() {
            public Object invoke(Object proxy, Method m, Object[] a) {
                switch (m.getName()) {
                    case "equals": return proxy == a[0];
                    case "hashCode": return 1234;
                    case "toString": return "Proxy[" + proxy.getClass().getInterfaces()[0].getSimpleName() + "]";
                    case "name": return "widget";
                    default: throw new UnsupportedOperationException(m.getName());
                }
            }
        };
        Object multi = Proxy.newProxyInstance(loader, new Class<?>[] {Named.class, Comparable.class}, identity);
        Named n = (Named) multi;
        show("toString", n);
        show("hashCode", n.hashCode());
        show("equals self", n.equals(n));
        show("equals other", n.equals("widget"));
        show("name", n.name());
        show("describe (default, not routed by handler)", ((Named) Proxy.newProxyInstance(loader, new Class<?>[] {Named.class},
            (p, m, a) -> m.isDefault() ? InvocationHandler.invokeDefault(p, m, a) : "gizmo")).describe());
        show("instanceof Comparable", multi instanceof Comparable);
        try {
            ((Comparable<Object>) multi).compareTo("x");
        } catch (UnsupportedOperationException e) {
            show("compareTo", "UnsupportedOperationException: " + e.getMessage());
        }
        show("isProxyClass", Proxy.isProxyClass(multi.getClass()) + " " + Proxy.isProxyClass(String.class));
        show("handler is same", Proxy.getInvocationHandler(multi) == identity);
        show("interfaces", Arrays.toString(multi.getClass().getInterfaces()));
        show("proxy class public final", java.lang.reflect.Modifier.toString(multi.getClass().getModifiers()));
        show("proxy superclass", multi.getClass().getSuperclass().getName());
        show("same proxy class reused", multi.getClass() == Proxy.newProxyInstance(loader, new Class<?>[] {Named.class, Comparable.class}, identity).getClass());
        try {
            Proxy.getInvocationHandler("not a proxy");
        } catch (IllegalArgumentException e) {
            show("getInvocationHandler(String)", e.getMessage());
        }
        try {
            Proxy.newProxyInstance(loader, new Class<?>[] {String.class}, identity);
        } catch (IllegalArgumentException e) {
            show("proxy of a class", e.getMessage());
        }

        // Primitive parameters and returns are boxed and unboxed.
        List<String> calcLog = new ArrayList<>();
        Calculator calc = (Calculator) Proxy.newProxyInstance(loader, new Class<?>[] {Calculator.class}, (p, m, a) -> {
            calcLog.add(m.getName() + ":" + (a == null ? "-" : Arrays.stream(a).map(x -> x.getClass().getSimpleName()).toList()));
            switch (m.getName()) {
                case "add": return (Integer) a[0] + (Integer) a[1];
                case "mul": return (Long) a[0] * (Long) a[1];
                case "half": return (Double) a[0] / 2;
                case "positive": return (Integer) a[0] > 0;
                case "first": return ((String) a[0]).charAt(0);
                default: return null;
            }
        });
        show("add", calc.add(40, 2));
        show("mul", calc.mul(1L << 20, 1L << 20));
        show("half", calc.half(5.0));
        show("positive", calc.positive(-3) + " " + calc.positive(3));
        show("first", calc.first("zebra"));
        calc.nothing();
        show("calcLog", calcLog);

        // Proxies of JDK interfaces, used through JDK code.
        Map<String, Integer> counts = new TreeMap<>();
        @SuppressWarnings("unchecked")
        Comparator<String> byLength = (Comparator<String>) Proxy.newProxyInstance(loader, new Class<?>[] {Comparator.class}, (p, m, a) -> {
            counts.merge(m.getName(), 1, Integer::sum);
            if (m.getName().equals("compare")) return Integer.compare(((String) a[0]).length(), ((String) a[1]).length());
            if (m.isDefault()) return InvocationHandler.invokeDefault(p, m, a);
            return m.getName().equals("equals") ? p == a[0] : 0;
        });
        List<String> words = new ArrayList<>(List.of("pear", "fig", "banana", "kiwi", "apple"));
        words.sort(byLength.thenComparing(Comparator.naturalOrder()));
        show("sorted", words);
        words.sort(byLength.reversed());
        show("reversed", words);
        show("handler saw compare", counts.containsKey("compare") + " thenComparing=" + counts.get("thenComparing") + " reversed=" + counts.get("reversed"));
        @SuppressWarnings("unchecked")
        Function<Integer, Integer> sq = (Function<Integer, Integer>) Proxy.newProxyInstance(Function.class.getClassLoader(), new Class<?>[] {Function.class},
            (p, m, a) -> m.isDefault() ? InvocationHandler.invokeDefault(p, m, a) : (Integer) a[0] * (Integer) a[0]);
        show("function andThen", sq.andThen(x -> x + 1).apply(7));
        try {
            InvocationHandler.invokeDefault(g, Greeter.class.getMethod("greet", String.class), "x");
        } catch (IllegalArgumentException e) {
            show("invokeDefault of abstract", "IllegalArgumentException");
        }
        show("tracing log size", tracing.log.size());

        // A package-private interface, arrays and varargs, a default method re-entering the handler.
        Hidden hidden = (Hidden) Proxy.newProxyInstance(loader, new Class<?>[] {Hidden.class}, (p, m, a) -> {
            if (m.isDefault()) return InvocationHandler.invokeDefault(p, m, a);
            int[] values = (int[]) a[0];
            String[] names = (String[]) a[1];
            return Arrays.stream(values).sum() * 10 + names.length;
        });
        show("package-private proxy", hidden.reveal() + " package=" + hidden.getClass().getPackageName().isEmpty() + " public=" + java.lang.reflect.Modifier.isPublic(hidden.getClass().getModifiers()));
        show("varargs method flag", Hidden.class.getMethod("secret", int[].class, String[].class).isVarArgs());

        // Same method in two interfaces: one Method object, from the first interface; the
        // throws clauses intersect.
        List<String> picked = new ArrayList<>();
        Object lr = Proxy.newProxyInstance(loader, new Class<?>[] {Left.class, Right.class}, (p, m, a) -> {
            picked.add(m.getDeclaringClass().getSimpleName() + "." + m.getName());
            if (m.getName().equals("both")) throw new IOException("checked from both");
            return a[0];
        });
        ((Left) lr).pick("x");
        ((Right) lr).pick("y");
        show("duplicate methods dispatched as", picked);
        try {
            ((Right) lr).both();
        } catch (UndeclaredThrowableException e) {
            show("throws intersection (Left.both declares none)", "UndeclaredThrowableException cause=" + e.getCause().getMessage());
        }
        try {
            Proxy.newProxyInstance(loader, new Class<?>[] {ReturnsInt.class, ReturnsLong.class}, identity);
        } catch (IllegalArgumentException e) {
            show("conflicting return types", e.getMessage());
        }
        try {
            Proxy.newProxyInstance(loader, new Class<?>[] {Named.class, Named.class}, identity);
        } catch (IllegalArgumentException e) {
            show("repeated interface", e.getMessage());
        }
        try {
            Proxy.newProxyInstance(loader, new Class<?>[] {Named.class}, null);
        } catch (NullPointerException e) {
            show("null handler", "NullPointerException");
        }

        // Generic interface: erased types at the handler, a generic default method.
        Map<Integer, String> rows = new TreeMap<>(Map.of(1, "one", 2, "two"));
        @SuppressWarnings("unchecked")
        Repo<String, Integer> repo = (Repo<String, Integer>) Proxy.newProxyInstance(loader, new Class<?>[] {Repo.class}, (p, m, a) -> {
            if (m.isDefault()) return InvocationHandler.invokeDefault(p, m, a);
            if (m.getName().equals("find")) return rows.get(a[0]);
            return new ArrayList<>(rows.values());
        });
        show("generic repo", repo.find(2) + " " + repo.findOr(3, "none") + " " + repo.all() + " find param type=" + Repo.class.getMethod("find", Object.class).getParameterTypes()[0].getSimpleName());

        // try-with-resources on a proxy: close() is routed, its declared exception passes through.
        List<String> closed = new ArrayList<>();
        try (Resource r = (Resource) Proxy.newProxyInstance(loader, new Class<?>[] {Resource.class}, (p, m, a) -> {
            closed.add(m.getName());
            throw new IOException("close failed");
        })) {
            closed.add("body");
        } catch (IOException e) {
            show("try-with-resources", closed + " " + e.getMessage());
        }

        // The handler can be any object; a proxy can wrap another proxy.
        Greeter outer = (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, new Tracing(g));
        show("proxy of a proxy", outer.greet("Cy") + " inner log grew to " + tracing.log.size());
        show("Proxy.getProxyClass", java.lang.reflect.Proxy.class.isAssignableFrom(outer.getClass()) + " " + (outer.getClass() == g.getClass()));
    }
}
