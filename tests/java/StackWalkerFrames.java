import java.lang.StackWalker.Option;
import java.lang.StackWalker.StackFrame;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * java.lang.StackWalker: frames with class, method, line and bytecode index, limits and
 * lazily consumed streams over deep stacks (several batches), getCallerClass (with and without
 * reflection in between), RETAIN_CLASS_REFERENCE and its absence, reflection frames shown with
 * SHOW_REFLECT_FRAMES, frames of lambdas, constructors, static initializers and other threads,
 * and a walk's stream used after the walk (IllegalStateException).
 */
public class StackWalkerFrames {
    static final StackWalker PLAIN = StackWalker.getInstance();
    static final StackWalker RETAIN = StackWalker.getInstance(Option.RETAIN_CLASS_REFERENCE);
    static final StackWalker REFLECT = StackWalker.getInstance(Set.of(Option.RETAIN_CLASS_REFERENCE, Option.SHOW_REFLECT_FRAMES));

    static String frame(StackFrame f) {
        return f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber() + (f.getByteCodeIndex() >= 0 ? "" : " bci?") + (f.isNativeMethod() ? " native" : "");
    }

    static List<String> top(StackWalker w, int n) {
        return w.walk(s -> s.limit(n).map(StackWalkerFrames::frame).collect(Collectors.toList()));
    }

    static int depth(int n) {
        if (n > 0) return depth(n - 1);
        return PLAIN.walk(s -> (int) s.filter(f -> f.getMethodName().equals("depth")).count());
    }

    static class Caller {
        static Class<?> whoCalls() { return RETAIN.getCallerClass(); }
        Caller() {
            System.out.println("in constructor: " + top(PLAIN, 2));
        }
    }

    static class Initialized {
        static final List<String> AT_INIT = top(PLAIN, 3);
    }

    /** The pre-StackWalker way to find callers (never installed as the security manager). */
    @SuppressWarnings("removal")
    static class ContextFinder extends SecurityManager {
        List<String> context() {
            return java.util.Arrays.stream(getClassContext()).map(Class::getName).limit(3).toList();
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("top frames: " + top(PLAIN, 2));
        System.out.println("recursion frames counted: " + depth(100) + " and " + depth(5));
        System.out.println("deep stream skip: " + helperDeep(60));
        System.out.println("caller class: " + Caller.whoCalls().getSimpleName());
        Method m = Caller.class.getDeclaredMethod("whoCalls");
        System.out.println("caller through reflection: " + ((Class<?>) m.invoke(null)).getName());
        new Caller();
        System.out.println("in <clinit>: " + Initialized.AT_INIT);
        Supplier<List<String>> lambda = () -> top(PLAIN, 2);
        System.out.println("in lambda: " + lambda.get());

        Method topM = StackWalkerFrames.class.getDeclaredMethod("top", StackWalker.class, int.class);
        @SuppressWarnings("unchecked")
        List<String> reflected = (List<String>) topM.invoke(null, REFLECT, 4);
        System.out.println("with reflection frames: " + reflected.stream().map(s -> s.replaceAll(":\\d+", "")).toList());
        @SuppressWarnings("unchecked")
        List<String> hidden = (List<String>) topM.invoke(null, PLAIN, 2);
        System.out.println("reflection frames hidden: " + hidden);

        Optional<Class<?>> declaring = RETAIN.walk(s -> s.map(StackFrame::getDeclaringClass).filter(c -> c != StackWalkerFrames.class).findFirst());
        System.out.println("declaring classes other than ours: " + declaring);
        try {
            PLAIN.walk(s -> s.findFirst().get().getDeclaringClass());
        } catch (UnsupportedOperationException e) {
            System.out.println("without RETAIN_CLASS_REFERENCE: " + e.getMessage());
        }
        try {
            PLAIN.getCallerClass();
        } catch (UnsupportedOperationException e) {
            System.out.println("getCallerClass without RETAIN: " + e.getMessage());
        }
        StackFrame first = RETAIN.walk(s -> s.findFirst().orElseThrow());
        System.out.println("frame kept after walk: " + first.getMethodName() + " type=" + first.getMethodType() + " descriptor=" + first.getDescriptor()
            + " ste=" + first.toStackTraceElement() + " file=" + first.getFileName());
        java.util.stream.Stream<StackFrame>[] leaked = new java.util.stream.Stream[1];
        PLAIN.walk(s -> { leaked[0] = s; return null; });
        try {
            leaked[0].count();
        } catch (IllegalStateException e) {
            System.out.println("stream used after walk: IllegalStateException");
        }
        Thread t = new Thread(() -> System.out.println("other thread: " + top(PLAIN, 3)), "walker");
        t.start();
        t.join();
        System.out.println("getClassContext: " + new ContextFinder().context());
        Method ctx = ContextFinder.class.getDeclaredMethod("context");
        System.out.println("getClassContext through reflection: " + ctx.invoke(new ContextFinder()));
        System.out.println("frames total > 0: " + (PLAIN.walk(s -> s.count()) > 0) + " forEach count=" + countForEach());
    }

    static long countForEach() {
        long[] n = {0};
        PLAIN.forEach(f -> n[0]++);
        return n[0];
    }

    static String helperDeep(int n) {
        if (n > 0) return helperDeep(n - 1);
        // Skip past the recursion: several batches are fetched.
        return PLAIN.walk(s -> s.dropWhile(f -> f.getMethodName().equals("helperDeep")).limit(2).map(StackWalkerFrames::frame).toList()).toString();
    }
}
