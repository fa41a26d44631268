/** Start-up: the time to boot the VM and the class library and print one line. */
public class Hello {
    public static void main(String[] args) {
        System.out.println("Hello, World!");
    }
}
