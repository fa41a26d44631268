import java.util.function.Supplier;
/** Names of member, local, anonymous, record and enum classes (getSimpleName, getCanonicalName, the is* tests, enclosing and declaring classes), and a local record's toString, which names it by its simple name. */
public class LocalClassNames {
    class Inner {}
    static class Nested { class Deeper {} }
    interface Shape {}
    public static void main(String[] args) {
        class Local {}
        record Address(String street, int no) {}
        enum Color { RED }
        Object anon = new Object() {};
        Supplier<String> lambda = () -> "x";
        Class<?>[] all = {LocalClassNames.class, Inner.class, Nested.class, Nested.Deeper.class, Shape.class, Local.class,
            Address.class, Color.class, anon.getClass(), int[].class, Local[][].class, Address[].class, String.class, Thread.State.class};
        for (Class<?> c : all) {
            System.out.println(c.getName() + " | simple=" + c.getSimpleName() + " | canonical=" + c.getCanonicalName()
                + " | local=" + c.isLocalClass() + " anon=" + c.isAnonymousClass() + " member=" + c.isMemberClass()
                + " | enclosing=" + c.getEnclosingClass() + " | declaring=" + c.getDeclaringClass()
                + " | method=" + (c.getEnclosingMethod() == null ? null : c.getEnclosingMethod().getName()));
        }
        System.out.println(new Address("Main", 3));
        System.out.println(lambda.getClass().getSimpleName().startsWith("LocalClassNames$$Lambda"));
    }
}
