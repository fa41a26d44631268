import java.lang.invoke.*;
import java.util.*;

public class CallSites {
    static int twice(int x) { return 2 * x; }
    static int square(int x) { return x * x; }
    static String greet(String who) { return "hello " + who; }

    public static void main(String[] args) throws Throwable {
        MethodHandles.Lookup l = MethodHandles.lookup();
        MethodType it = MethodType.methodType(int.class, int.class);
        MethodHandle twice = l.findStatic(CallSites.class, "twice", it);
        MethodHandle square = l.findStatic(CallSites.class, "square", it);

        ConstantCallSite ccs = new ConstantCallSite(twice);
        System.out.println("constant: " + (int) ccs.dynamicInvoker().invokeExact(21) + " " + ccs.type());
        try { ccs.setTarget(square); } catch (UnsupportedOperationException e) { System.out.println("constant setTarget: " + e.getClass().getSimpleName()); }

        MutableCallSite mcs = new MutableCallSite(twice);
        MethodHandle inv = mcs.dynamicInvoker();
        System.out.println("mutable before: " + (int) inv.invokeExact(7));
        mcs.setTarget(square);
        System.out.println("mutable after: " + (int) inv.invokeExact(7));
        MutableCallSite.syncAll(new MutableCallSite[] { mcs });
        try { mcs.setTarget(l.findStatic(CallSites.class, "greet", MethodType.methodType(String.class, String.class))); }
        catch (WrongMethodTypeException e) { System.out.println("wrong type: " + e.getClass().getSimpleName()); }

        VolatileCallSite vcs = new VolatileCallSite(it);
        try { int r = (int) vcs.dynamicInvoker().invokeExact(1); System.out.println("unlinked: " + r); }
        catch (IllegalStateException e) { System.out.println("unlinked volatile site: " + e.getClass().getSimpleName()); }
        vcs.setTarget(MethodHandles.dropArguments(MethodHandles.constant(int.class, 99), 0, int.class));
        System.out.println("volatile: " + (int) vcs.dynamicInvoker().invokeExact(1));

        // A call site whose target is a combinator chain, switched at run time.
        MutableCallSite counter = new MutableCallSite(it);
        MethodHandle guard = MethodHandles.guardWithTest(
            l.findStatic(CallSites.class, "isEven", MethodType.methodType(boolean.class, int.class)), twice, square);
        counter.setTarget(guard);
        MethodHandle c = counter.dynamicInvoker();
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) out.add((int) c.invokeExact(i));
        System.out.println("guarded: " + out);
        counter.setTarget(MethodHandles.filterReturnValue(twice, square));
        System.out.println("filtered: " + (int) c.invokeExact(3));
        System.out.println("invoker type: " + c.type());
    }
    static boolean isEven(int x) { return x % 2 == 0; }
}
