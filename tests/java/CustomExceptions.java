public class CustomExceptions {
    static class AppException extends Exception {
        private final int code;
        AppException(String msg, int code) { super(msg); this.code = code; }
        AppException(String msg, int code, Throwable cause) { super(msg, cause); this.code = code; }
        int code() { return code; }
    }

    static class ValidationException extends AppException {
        final String field;
        ValidationException(String field, String msg) { super(field + ": " + msg, 400); this.field = field; }
    }

    static class NotFoundException extends AppException {
        NotFoundException(String what) { super(what + " not found", 404); }
        @Override public String getMessage() { return "[404] " + super.getMessage(); }
    }

    static class QuietException extends RuntimeException {
        QuietException() { super("quiet", null, false, false); }
    }

    static class NoMessage extends RuntimeException { }

    static class CustomToString extends RuntimeException {
        CustomToString(String m) { super(m); }
        @Override public String toString() { return "CustomToString<" + getMessage() + ">"; }
    }

    static class LocalizedEx extends Exception {
        LocalizedEx(String m) { super(m); }
        @Override public String getLocalizedMessage() { return "localized(" + getMessage() + ")"; }
    }

    static void validate(String name, int age) throws AppException {
        if (name == null || name.isEmpty()) throw new ValidationException("name", "must not be empty");
        if (age < 0) throw new ValidationException("age", "must be >= 0, got " + age);
        if (name.equals("ghost")) throw new NotFoundException("user " + name);
        if (age > 150) throw new AppException("implausible age", 500, new ArithmeticException("age overflow"));
    }

    public static void main(String[] args) {
        Object[][] cases = {{"alice", 30}, {"", 5}, {"bob", -1}, {"ghost", 1}, {"old", 200}, {null, 0}};
        for (Object[] c : cases) {
            try {
                validate((String) c[0], (Integer) c[1]);
                System.out.println(c[0] + ": valid");
            } catch (ValidationException e) {
                System.out.println(c[0] + ": ValidationException field=" + e.field + " code=" + e.code() + " msg=" + e.getMessage());
            } catch (AppException e) {
                System.out.println(c[0] + ": " + e.getClass().getSimpleName() + " code=" + e.code() + " msg=" + e.getMessage() + " cause=" + e.getCause() + " toString=" + e);
            }
        }
        System.out.println("NoMessage: " + new NoMessage() + " msg=" + new NoMessage().getMessage() + " cause=" + new NoMessage().getCause());
        System.out.println("CustomToString: " + new CustomToString("x"));
        System.out.println("Localized: " + new LocalizedEx("m") + " | getMessage=" + new LocalizedEx("m").getMessage());
        QuietException q = new QuietException();
        q.addSuppressed(new RuntimeException("ignored"));
        System.out.println("Quiet: suppressed=" + q.getSuppressed().length + " stackTrace=" + q.getStackTrace().length);
        RuntimeException wrapped = new RuntimeException(new IllegalStateException("inner"));
        System.out.println("cause-only ctor message: " + wrapped.getMessage());
        System.out.println("Exception with null message: " + new Exception((String) null) + " | " + new Exception((Throwable) null).getMessage());
        System.out.println("instanceof hierarchy: " + (new ValidationException("f", "m") instanceof AppException) + " " + (new NotFoundException("x") instanceof Exception)
            + " " + RuntimeException.class.isAssignableFrom(QuietException.class) + " " + Exception.class.getSuperclass().getName());
        int errors = 0;
        try {
            throw new Error("error is throwable");
        } catch (Throwable t) {
            errors++;
            System.out.println("Throwable catch: " + t);
        }
        try {
            throw new AssertionError("assertion " + 42);
        } catch (AssertionError e) {
            errors++;
            System.out.println("AssertionError: " + e.getMessage());
        }
        try {
            Object o = new AssertionError(7);
            throw (AssertionError) o;
        } catch (AssertionError e) {
            errors++;
            System.out.println("AssertionError(Object): " + e.getMessage() + " cause " + e.getCause());
        }
        System.out.println("errors=" + errors);
    }
}
