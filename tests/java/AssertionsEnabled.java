// JVMFLAGS: -ea -da:... -ea:AssertionsEnabled -enableassertions:AssertionsEnabled$Later -esa -da:java.util... -ea:java.util.concurrent...
/**
 * The launcher's assertion switches: -ea/-da with no name, a class, or a package and its
 * subpackages ("..." alone: the unnamed package), -esa/-dsa for the JDK's own classes; the
 * last switch naming a class wins, then its closest package, then the default. Classes
 * initialized after a loader has read the switches (ClassLoader.retrieveDirectives) get the
 * same answers through the loader's maps.
 */
public class AssertionsEnabled {
    static boolean runs() {
        boolean on = false;
        assert on = true;
        return on;
    }

    static class Off {
        static boolean runs() {
            boolean on = false;
            assert on = true;
            return on;
        }
    }

    static class Later {
        static boolean runs() {
            boolean on = false;
            assert on = true;
            return on;
        }
    }

    static class Later2 {
        static boolean runs() {
            boolean on = false;
            assert on = true;
            return on;
        }
    }

    public static void main(String[] args) {
        System.out.println("this class (-ea:AssertionsEnabled): " + runs());
        try {
            assert args.length > 99 : "no such arguments";
            System.out.println("assert false went by");
        } catch (AssertionError e) {
            System.out.println("AssertionError: " + e.getMessage());
        }
        System.out.println("a nested class (as its top-level class, javac's choice): " + Off.runs());
        System.out.println("another top-level class (-da:..., the unnamed package): "
                + AssertionsOther.class.desiredAssertionStatus());
        System.out.println("desired, this class: " + AssertionsEnabled.class.desiredAssertionStatus());
        System.out.println("desired, String (-esa): " + String.class.desiredAssertionStatus());
        System.out.println("desired, HashMap (-da:java.util...): " + java.util.HashMap.class.desiredAssertionStatus());
        System.out.println("desired, ConcurrentHashMap (-ea:java.util.concurrent...): "
                + java.util.concurrent.ConcurrentHashMap.class.desiredAssertionStatus());
        System.out.println("desired, an array class: " + AssertionsEnabled[].class.desiredAssertionStatus());
        System.out.println("desired, int: " + int.class.desiredAssertionStatus());
        // The loader reads the switches once asked to change one.
        ClassLoader.getSystemClassLoader().setPackageAssertionStatus("nothing.here", true);
        System.out.println("after the loader read them, Later (a class switch): " + Later.runs());
        System.out.println("and Later2: " + Later2.runs());
        System.out.println("the loader's answer for this class: " + AssertionsEnabled.class.desiredAssertionStatus());
        System.out.println("for another top-level class: " + AssertionsOther.class.desiredAssertionStatus());
        System.out.println("which runs its asserts: " + AssertionsOther.runs());
        System.out.println("for the nested Later: " + Later.class.desiredAssertionStatus());
        System.out.println("for the nested Off: " + Off.class.desiredAssertionStatus());
    }
}

class AssertionsOther {
    static boolean runs() {
        boolean on = false;
        assert on = true;
        return on;
    }
}
