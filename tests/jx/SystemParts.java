import jx.domain.Domain;

/**
 * Components for system descriptions (`jxvm --system`), one nested class per behaviour: the
 * system tests put them in domains of their own to show that one's fault stays its own.
 */
public class SystemParts {
    /** Says where it runs and with which arguments. */
    public static class Hello {
        public static void main(String[] args) {
            System.out.println("hello from " + Domain.current().name() + " " + String.join(",", args));
        }
    }

    /** Loops forever: only its domain's CPU-time limit stops it. */
    public static class Spin {
        public static void main(String[] args) {
            long n = 0;
            while (true) {
                n++;
            }
        }
    }

    /** Throws from main. */
    public static class Fail {
        public static void main(String[] args) {
            throw new IllegalStateException("component failed on purpose");
        }
    }

    /** Has no main method. */
    public static class NoMain {
    }
}
