/** The smallest program: the "new isolated Java program" peer of a new domain (bench/jx/run, section domain). */
public final class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
