package kv;

import java.util.HashMap;
import java.util.Map;

import jx.domain.Domain;
import jx.naming.Naming;
import jx.portal.Portal;

/**
 * A client of the "kv" service: writes its keys one by one and as one batch, reads them back,
 * and says where the service ran and how it was reached. Arguments: a name, a key count.
 */
public final class Client {
    public static void main(String[] args) throws InterruptedException {
        String who = args[0];
        int n = Integer.parseInt(args[1]);
        KeyValue kv = Naming.await("kv", KeyValue.class, 10_000);
        if (kv == null) {
            throw new IllegalStateException(who + ": no kv service within 10 s");
        }
        for (int i = 0; i < n; i++) {
            kv.put(who + "/" + i, "value " + i + " of " + who);
        }
        Map<String, String> batch = new HashMap<>();
        for (int i = n; i < 2 * n; i++) {
            batch.put(who + "/" + i, "value " + i + " of " + who);
        }
        kv.putAll(batch);
        batch.clear();
        int found = 0;
        for (int i = 0; i < 2 * n; i++) {
            if (("value " + i + " of " + who).equals(kv.get(who + "/" + i))) {
                found++;
            }
        }
        String how = Portal.isPortal(kv) ? "through a portal" : "by plain calls";
        System.out.println(who + ": in domain " + Domain.current().name() + ", read back " + found + " of " + 2 * n
                + " values from the service in domain " + kv.domainName() + " " + how);
        if (found != 2 * n) {
            throw new IllegalStateException(who + ": values lost");
        }
    }
}
