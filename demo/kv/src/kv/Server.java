package kv;

import jx.domain.Domain;
import jx.naming.Naming;

/** Registers the key-value service under the name "kv"; its domain then serves calls. */
public final class Server {
    public static void main(String[] args) {
        Naming.register("kv", new Store());
        System.out.println("kv: service registered in domain " + Domain.current().name());
    }
}
