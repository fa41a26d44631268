public class Nestmates {
    private int secret = 42;
    private static String staticSecret = "static-secret";
    private int bump() { return ++secret; }
    private static String hidden(String s) { return "hidden(" + s + ")"; }

    static class Peer {
        private int peerSecret = 7;
        private Peer() { }
        private Peer(int v) { peerSecret = v; }
        private int reveal(Nestmates n) { return n.secret + peerSecret; }
    }

    class Inner {
        private String innerPrivate = "inner-private";
        int readOuter() { return secret + bump(); }
    }

    interface Iface {
        private int helper() { return 5; }
        default int value() { return helper() * 2; }
    }

    public static void main(String[] args) throws Exception {
        Nestmates n = new Nestmates();
        Peer p = new Peer();
        Peer p2 = new Peer(100);
        System.out.println("peer reveal: " + p.reveal(n) + " " + p2.reveal(n));
        System.out.println("outer reads peer private: " + p.peerSecret + " " + p2.peerSecret);
        p.peerSecret = -1;
        System.out.println("outer writes peer private: " + p.peerSecret);
        Inner in = n.new Inner();
        System.out.println("inner reads outer: " + in.readOuter() + " secret now " + n.secret);
        System.out.println("outer reads inner private: " + in.innerPrivate);
        System.out.println("static private: " + staticSecret + " " + hidden("x"));
        Iface i = new Iface() { };
        System.out.println("interface private: " + i.value());
        System.out.println("nest host: " + Peer.class.getNestHost().getSimpleName() + " " + Inner.class.getNestHost().getSimpleName() + " isNestmate: " + Peer.class.isNestmateOf(Inner.class)
            + " " + Nestmates.class.isNestmateOf(String.class));
        Runnable r = () -> { n.secret *= 2; System.out.println("lambda touched private: " + n.secret); };
        r.run();
        java.util.function.Function<Nestmates, Integer> ref = Nestmates::bump;
        System.out.println("method ref to private: " + ref.apply(n));
        java.util.function.Supplier<Peer> ctor = Peer::new;
        System.out.println("private ctor ref: " + ctor.get().peerSecret);
    }
}
