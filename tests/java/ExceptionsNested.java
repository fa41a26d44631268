import java.io.IOException;
import java.io.UncheckedIOException;

public class ExceptionsNested {
    static void level3(int mode) throws IOException {
        switch (mode) {
            case 0: throw new IOException("io problem");
            case 1: throw new IllegalArgumentException("bad arg");
            case 2: throw new UnsupportedOperationException("unsupported");
            case 3: throw new ArrayIndexOutOfBoundsException(7);
            case 4: throw new Error("custom error");
            default: System.out.println("  level3 ok");
        }
    }

    static void level2(int mode) throws IOException {
        try {
            level3(mode);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            System.out.println("  level2 multi-catch: " + e.getClass().getSimpleName() + " -> rethrow wrapped");
            throw new IllegalStateException("wrapped in level2", e);
        } finally {
            System.out.println("  level2 finally");
        }
    }

    static void level1(int mode) {
        try {
            level2(mode);
        } catch (IOException e) {
            System.out.println("  level1 caught IOException: " + e.getMessage());
            throw new UncheckedIOException(e);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("  level1 caught IOOBE (superclass): " + e.getMessage());
        }
    }

    static void rethrowPrecise(boolean io) throws IOException {
        try {
            if (io) throw new IOException("precise");
            throw new IllegalStateException("state");
        } catch (Exception e) {
            throw e;
        }
    }

    public static void main(String[] args) {
        for (int mode = 0; mode <= 5; mode++) {
            System.out.println("mode " + mode + ":");
            try {
                level1(mode);
                System.out.println("  returned normally");
            } catch (IllegalStateException e) {
                System.out.println("  main: " + e.getMessage() + " cause=" + e.getCause().getClass().getName() + ": " + e.getCause().getMessage());
            } catch (RuntimeException e) {
                System.out.println("  main runtime: " + e + " | cause: " + e.getCause());
            } catch (Error e) {
                System.out.println("  main error: " + e);
            }
        }
        for (boolean b : new boolean[]{true, false}) {
            try {
                rethrowPrecise(b);
            } catch (IOException e) {
                System.out.println("precise rethrow IOException: " + e.getMessage());
            } catch (RuntimeException e) {
                System.out.println("precise rethrow RuntimeException: " + e.getMessage());
            }
        }
        Throwable chain = new RuntimeException("top", new IllegalStateException("middle", new IOException("root")));
        int depth = 0;
        for (Throwable t = chain; t != null; t = t.getCause()) System.out.println("chain[" + depth++ + "] " + t);
        Throwable init = new Exception("no cause yet");
        init.initCause(new ArithmeticException("late cause"));
        System.out.println("initCause: " + init.getCause());
        try {
            init.initCause(new RuntimeException());
        } catch (IllegalStateException e) {
            System.out.println("initCause twice: " + e.getMessage());
        }
        try {
            Throwable self = new Exception("self");
            self.initCause(self);
        } catch (IllegalArgumentException e) {
            System.out.println("self-causation: " + e.getMessage());
        }
        int caught = 0;
        for (int i = 0; i < 1000; i++) {
            try {
                if (i % 3 == 0) throw new RuntimeException("r" + i);
                if (i % 3 == 1) throw new Exception("e" + i);
            } catch (RuntimeException e) {
                caught += 1;
            } catch (Exception e) {
                caught += 1000;
            }
        }
        System.out.println("caught sum=" + caught);
    }
}
