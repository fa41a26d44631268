import java.net.*;

/** The ephemeral port range (sun.net.PortConfig.getLower0/getUpper0, read by the JDK from
 *  /proc/sys/net/ipv4/ip_local_port_range) as SocketPermission's port 0 uses it. */
public class EphemeralPorts {
    public static void main(String[] args) throws Exception {
        String[] range;
        try (var r = new java.io.BufferedReader(new java.io.FileReader("/proc/sys/net/ipv4/ip_local_port_range"))) {
            range = r.readLine().trim().split("\\s+");
        }
        int lo = Integer.parseInt(range[0]), hi = Integer.parseInt(range[1]);
        SocketPermission any = new SocketPermission("localhost:0", "listen");
        for (int p : new int[] {lo - 1, lo, (lo + hi) / 2, hi, hi + 1}) {
            String name = p == lo - 1 ? "below" : p == lo ? "lower" : p == hi ? "upper" : p == hi + 1 ? "above" : "middle";
            System.out.println(name + " implied by port 0: " + any.implies(new SocketPermission("localhost:" + p, "listen")));
        }
        System.out.println("a range inside: " + any.implies(new SocketPermission("localhost:" + lo + "-" + hi, "listen")));
        System.out.println("a range across: " + any.implies(new SocketPermission("localhost:" + (lo - 5) + "-" + hi, "listen")));
    }
}
