/**
 * System.console() with the standard streams redirected (as the conformance runner runs every
 * program): no console, on every call, and the class initializes without a terminal.
 */
public class ConsoleRedirected {
    public static void main(String[] args) {
        System.out.println("console " + System.console());
        System.out.println("again " + (System.console() == null));
    }
}
