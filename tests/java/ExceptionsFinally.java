public class ExceptionsFinally {
    static StringBuilder log = new StringBuilder();

    @SuppressWarnings("finally")
    static int finallyOverridesReturn() {
        try {
            return 1;
        } finally {
            return 2;
        }
    }

    @SuppressWarnings("finally")
    static int finallyOverridesThrow() {
        try {
            throw new RuntimeException("lost");
        } finally {
            return 3;
        }
    }

    static int finallyDoesNotAffectReturnedValue() {
        int x = 10;
        try {
            return x;
        } finally {
            x = 20;
            log.append("finally set x=" + x + ";");
        }
    }

    static int[] finallyMutatesReturnedObject() {
        int[] arr = {1};
        try {
            return arr;
        } finally {
            arr[0] = 99;
        }
    }

    static String order(boolean fail) {
        StringBuilder sb = new StringBuilder();
        try {
            sb.append("try;");
            if (fail) throw new IllegalStateException("x");
            sb.append("try-end;");
        } catch (IllegalStateException e) {
            sb.append("catch;");
        } finally {
            sb.append("finally;");
        }
        sb.append("after;");
        return sb.toString();
    }

    static String loopWithFinally() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            try {
                if (i == 1) continue;
                if (i == 3) break;
                sb.append("body").append(i).append(';');
            } finally {
                sb.append("fin").append(i).append(';');
            }
        }
        return sb.toString();
    }

    @SuppressWarnings("finally")
    static String exceptionInFinally() {
        try {
            try {
                throw new RuntimeException("original");
            } finally {
                throw new IllegalArgumentException("from finally");
            }
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ":" + e.getMessage() + " suppressed=" + e.getSuppressed().length;
        }
    }

    static int depth = 0;
    static String nestedFinally() {
        StringBuilder sb = new StringBuilder();
        try {
            try {
                try {
                    sb.append("L3;");
                    throw new ArithmeticException("deep");
                } finally {
                    sb.append("F3;");
                }
            } catch (NullPointerException e) {
                sb.append("wrong-catch;");
            } finally {
                sb.append("F2;");
            }
        } catch (ArithmeticException e) {
            sb.append("C1:" + e.getMessage() + ";");
        } finally {
            sb.append("F1;");
        }
        return sb.toString();
    }

    static int counter = 0;
    static int returnsInTryAndCatch(int mode) {
        try {
            counter++;
            if (mode == 0) return 100;
            if (mode == 1) throw new RuntimeException();
            return 200;
        } catch (RuntimeException e) {
            counter += 10;
            return 300;
        } finally {
            counter += 100;
        }
    }

    public static void main(String[] args) {
        System.out.println("finallyOverridesReturn=" + finallyOverridesReturn());
        System.out.println("finallyOverridesThrow=" + finallyOverridesThrow());
        System.out.println("finallyDoesNotAffectReturnedValue=" + finallyDoesNotAffectReturnedValue() + " log=" + log);
        System.out.println("finallyMutatesReturnedObject=" + finallyMutatesReturnedObject()[0]);
        System.out.println("order ok: " + order(false));
        System.out.println("order fail: " + order(true));
        System.out.println("loop: " + loopWithFinally());
        System.out.println("exceptionInFinally: " + exceptionInFinally());
        System.out.println("nestedFinally: " + nestedFinally());
        for (int m = 0; m < 3; m++) System.out.println("mode " + m + " -> " + returnsInTryAndCatch(m) + " counter=" + counter);
        String s = null;
        try {
            try {
                s.length();
            } finally {
                System.out.println("finally runs before NPE propagates");
            }
        } catch (NullPointerException e) {
            System.out.println("caught NPE outside");
        }
        int x = 0;
        while (true) {
            try {
                x++;
                if (x > 3) break;
            } finally {
                System.out.println("while-finally x=" + x);
            }
        }
    }
}
