import java.net.*;
import java.util.*;

/** InetAddress.isReachable (Inet4AddressImpl/Inet6AddressImpl.isReachable0): ICMP echo on a
 *  raw socket when the user may open one, else a TCP probe of the echo port. */
public class InetReachable {
    static void probe(String host, int timeout) {
        try {
            InetAddress a = InetAddress.getByName(host);
            System.out.println(host + " reachable: " + a.isReachable(timeout));
        } catch (Exception e) {
            System.out.println(host + ": " + e);
        }
    }

    public static void main(String[] args) throws Exception {
        for (String h : new String[] {"127.0.0.1", "127.0.0.2", "0.0.0.0", "localhost", "::1", "::"}) {
            probe(h, 2000);
        }
        // The documentation prefix is routed nowhere: nobody answers.
        probe("2001:db8::1", 300);
        NetworkInterface lo = NetworkInterface.getByName("lo");
        InetAddress v4 = InetAddress.getByName("127.0.0.1");
        System.out.println("via lo, ttl 1: " + v4.isReachable(lo, 1, 2000));
        System.out.println("via lo, ttl 0: " + v4.isReachable(lo, 0, 2000));
        System.out.println("::1 via lo, ttl 64: " + InetAddress.getByName("::1").isReachable(lo, 64, 2000));
        System.out.println("no interface: " + v4.isReachable(null, 5, 2000));
        for (int[] bad : new int[][] {{-1, 10}, {10, -1}}) {
            try {
                v4.isReachable(null, bad[1], bad[0]);
            } catch (IllegalArgumentException e) {
                System.out.println("timeout " + bad[0] + " ttl " + bad[1] + ": " + e);
            }
        }
        // Inet4Address by bytes, and an Inet6Address with a scope.
        System.out.println("by bytes: " + InetAddress.getByAddress(new byte[] {127, 0, 0, 1}).isReachable(1000));
        System.out.println("scoped ::1: " + Inet6Address.getByAddress(null, InetAddress.getByName("::1").getAddress(), lo).isReachable(1000));
    }
}
