import java.util.ArrayList;
import java.util.List;

public class AbstractClasses {
    static abstract class Account {
        private static int nextId = 1000;
        protected final int id;
        protected long balanceCents;
        private final List<String> log = new ArrayList<>();

        Account(long initial) {
            this.id = nextId++;
            this.balanceCents = initial;
            record("open " + initial);
        }

        protected void record(String s) { log.add(s); }
        abstract long fee(long amount);
        abstract String type();

        final boolean withdraw(long amount) {
            long total = amount + fee(amount);
            if (total > balanceCents + overdraftLimit()) {
                record("denied " + amount);
                return false;
            }
            balanceCents -= total;
            record("withdraw " + amount + " fee " + fee(amount));
            return true;
        }

        void deposit(long amount) {
            if (amount <= 0) throw new IllegalArgumentException("deposit must be positive: " + amount);
            balanceCents += amount;
            record("deposit " + amount);
        }

        long overdraftLimit() { return 0; }

        @Override public String toString() { return type() + "#" + id + "[" + balanceCents / 100 + "." + String.format("%02d", Math.abs(balanceCents % 100)) + "] log=" + log; }
    }

    static class Checking extends Account {
        Checking(long initial) { super(initial); }
        @Override long fee(long amount) { return 25; }
        @Override String type() { return "Checking"; }
        @Override long overdraftLimit() { return 5000; }
    }

    static class Savings extends Account {
        private int withdrawals = 0;
        Savings(long initial) { super(initial); }
        @Override long fee(long amount) { return withdrawals >= 2 ? amount / 100 : 0; }
        @Override String type() { return "Savings"; }
        @Override void deposit(long amount) {
            super.deposit(amount);
            record("interest " + amount / 50);
            balanceCents += amount / 50;
        }
    }

    static abstract class Template {
        final String run() { return "<" + step1() + "-" + step2() + "-" + hook() + ">"; }
        protected abstract String step1();
        protected abstract String step2();
        protected String hook() { return "default-hook"; }
    }

    public static void main(String[] args) {
        Account c = new Checking(10000);
        Account s = new Savings(50000);
        c.withdraw(3000);
        c.withdraw(10000);
        c.withdraw(5000);
        c.deposit(1234);
        s.withdraw(100);
        s.withdraw(200);
        s.withdraw(10000);
        s.deposit(5000);
        try {
            s.deposit(-5);
        } catch (IllegalArgumentException e) {
            System.out.println("caught: " + e.getMessage());
        }
        System.out.println(c);
        System.out.println(s);
        Template t1 = new Template() {
            protected String step1() { return "a1"; }
            protected String step2() { return "a2"; }
        };
        Template t2 = new Template() {
            protected String step1() { return "b1"; }
            protected String step2() { return "b2"; }
            @Override protected String hook() { return "custom"; }
        };
        System.out.println(t1.run() + " " + t2.run());
        System.out.println("abstract modifier: " + java.lang.reflect.Modifier.isAbstract(Account.class.getModifiers()) + " " + java.lang.reflect.Modifier.isAbstract(Checking.class.getModifiers()));
    }
}
