// JVMFLAGS: -Dsun.rmi.dgc.server.gcInterval=50
import java.rmi.*;
import java.rmi.registry.*;
import java.rmi.server.*;

/** An RMI server and client in one VM: exporting an object starts RMI's distributed GC, whose
 *  daemon asks the VM how long since the heap was last collected in full
 *  (sun.rmi.transport.GC.maxObjectInspectionAge). */
public class RmiDistributedGc {
    public interface Greeter extends Remote {
        String greet(String name) throws RemoteException;
    }

    static class GreeterImpl implements Greeter {
        public String greet(String name) {
            return "hello, " + name;
        }
    }

    static long fullCollections() {
        long n = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    public static void main(String[] args) throws Exception {
        GreeterImpl impl = new GreeterImpl();
        Greeter stub = (Greeter) UnicastRemoteObject.exportObject(impl, 0);
        Registry reg = LocateRegistry.createRegistry(0);
        System.out.println("registry made");
        reg.rebind("greeter", stub);
        System.out.println("bound: " + java.util.Arrays.toString(reg.list()));
        Greeter g = (Greeter) reg.lookup("greeter");
        System.out.println(g.greet("rmi"));
        System.out.println("stub is a proxy: " + java.lang.reflect.Proxy.class.isInstance(g));
        // The daemon asks the inspection age at once and, past the 50 ms asked for, collects.
        long t0 = System.currentTimeMillis();
        while (fullCollections() == 0 && System.currentTimeMillis() - t0 < 10000) {
            Thread.sleep(20);
        }
        System.out.println("the distributed GC collected: " + (fullCollections() > 0));
        boolean daemon = Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("RMI GC Daemon"));
        System.out.println("GC daemon running: " + daemon);
        reg.unbind("greeter");
        UnicastRemoteObject.unexportObject(impl, true);
        UnicastRemoteObject.unexportObject(reg, true);
        System.out.println("done");
    }
}
