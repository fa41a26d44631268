import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;

// java.net.NetworkInterface: only facts that hold on any Linux host are printed.
public class NetInterfaces {
    public static void main(String[] args) throws Exception {
        List<NetworkInterface> all = Collections.list(NetworkInterface.getNetworkInterfaces());
        NetworkInterface lo = null;
        for (NetworkInterface ni : all) {
            if (ni.getName().equals("lo")) lo = ni;
            if (ni.getName() == null || ni.getDisplayName() == null) System.out.println("unnamed interface");
            if (ni.getInterfaceAddresses().size() != Collections.list(ni.getInetAddresses()).size())
                System.out.println("bindings and addresses differ on an interface");
            for (NetworkInterface child : Collections.list(ni.getSubInterfaces())) {
                if (child.getParent() != ni || !child.isVirtual()) System.out.println("bad sub-interface");
            }
        }
        System.out.println("lo listed: " + (lo != null));
        System.out.println("same count from stream: " + (NetworkInterface.networkInterfaces().count() == all.size()));
        System.out.println("lo name/display: " + lo.getName() + " " + lo.getDisplayName());
        System.out.println("lo up: " + lo.isUp());
        System.out.println("lo loopback: " + lo.isLoopback());
        System.out.println("lo p2p: " + lo.isPointToPoint());
        System.out.println("lo virtual: " + lo.isVirtual() + ", parent: " + lo.getParent());
        System.out.println("lo index > 0: " + (lo.getIndex() > 0));
        System.out.println("lo mtu > 0: " + (lo.getMTU() > 0));
        System.out.println("lo hardware address: " + lo.getHardwareAddress());

        InetAddress v4lo = InetAddress.getByName("127.0.0.1");
        boolean has127 = false;
        for (InetAddress a : Collections.list(lo.getInetAddresses())) {
            if (a.equals(v4lo)) has127 = true;
        }
        System.out.println("lo has 127.0.0.1: " + has127);
        for (InterfaceAddress ia : lo.getInterfaceAddresses()) {
            if (ia.getAddress().equals(v4lo)) {
                System.out.println("127.0.0.1 binding: prefix " + ia.getNetworkPrefixLength()
                        + ", broadcast " + ia.getBroadcast() + ", is Inet4 " + (ia.getAddress() instanceof Inet4Address));
            }
        }

        NetworkInterface byName = NetworkInterface.getByName("lo");
        NetworkInterface byIndex = NetworkInterface.getByIndex(lo.getIndex());
        System.out.println("getByName(lo) equals listed: " + lo.equals(byName) + " " + (lo.hashCode() == byName.hashCode()));
        System.out.println("getByName(lo) equals getByIndex: " + byName.equals(byIndex));
        System.out.println("getByName(lo) toString: " + byName);
        System.out.println("getByInetAddress(127.0.0.1): " + NetworkInterface.getByInetAddress(v4lo).getName());
        System.out.println("getByInetAddress(127.1.2.3) (not bound): "
                + NetworkInterface.getByInetAddress(InetAddress.getByName("127.1.2.3")));
        System.out.println("getByName(missing): " + NetworkInterface.getByName("nosuchif0"));
        System.out.println("getByIndex(0): " + NetworkInterface.getByIndex(0));
        System.out.println("getByIndex(huge): " + NetworkInterface.getByIndex(Integer.MAX_VALUE));
        try {
            NetworkInterface.getByIndex(-1);
            System.out.println("getByIndex(-1): no exception");
        } catch (IllegalArgumentException e) {
            System.out.println("getByIndex(-1): " + e);
        }
        try {
            NetworkInterface.getByName(null);
            System.out.println("getByName(null): no exception");
        } catch (NullPointerException e) {
            System.out.println("getByName(null): NullPointerException");
        }
        try {
            NetworkInterface.getByInetAddress(null);
        } catch (NullPointerException e) {
            System.out.println("getByInetAddress(null): NullPointerException");
        }

        // A loopback interface answers every query the same way each time.
        boolean stable = true;
        for (int i = 0; i < 20; i++) {
            NetworkInterface again = NetworkInterface.getByName("lo");
            stable &= again.equals(lo) && again.isLoopback() && again.getMTU() == lo.getMTU();
        }
        System.out.println("repeated lookups stable: " + stable);

        SecureRandom sr = SecureRandom.getInstance("SHA1PRNG");
        byte[] b = new byte[16];
        sr.nextBytes(b);
        System.out.println("SHA1PRNG bytes: " + b.length);
        SecureRandom seeded = SecureRandom.getInstance("SHA1PRNG");
        seeded.setSeed(42L);
        byte[] c = new byte[8];
        seeded.nextBytes(c);
        StringBuilder sb = new StringBuilder();
        for (byte x : c) sb.append(String.format("%02x", x));
        System.out.println("SHA1PRNG seeded 42: " + sb);
    }
}
