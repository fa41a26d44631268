import java.util.ArrayList;
import java.util.List;

import jx.domain.Domain;
import jx.domain.DomainSpec;
import jx.naming.Naming;
import jx.portal.Portal;
import jx.portal.PortalException;

/**
 * Portal calls between domains whose class paths are different directories holding the same
 * component: its objects cross as the other domain's class defined from the same class file
 * (and come back as this domain's), its enum constants and Portal objects too; a class whose
 * file differs on the other side does not cross. Prints one "ok ..." line per check; throws on
 * a failed one.
 *
 *   ClassPaths COPY_DIR ODD_DIR   (COPY_DIR: a copy of this program's class directory; ODD_DIR:
 *                                  the same with a different CpEntry.class)
 */
public class ClassPaths {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("FAILED: " + what);
        }
        System.out.println("ok " + what);
    }

    public static void main(String[] args) throws Exception {
        Domain twin = Domain.create(DomainSpec.named("twin").classPath(args[0]).mainClass("CpServer", "twin"));
        Domain odd = Domain.create(DomainSpec.named("odd").classPath(args[1]).mainClass("CpServer", "odd"));
        CpShop shop = Naming.await("twin", CpShop.class, 10_000);
        check(shop.where().equals("twin " + args[0]), "the service's domain has its own class path");

        CpEntry a = new CpEntry("a", 1, CpKind.BIG);
        a.next = new CpEntry("b", 2, CpKind.SMALL);
        a.next.next = a;
        a.more.add(a.next);
        check(shop.describe(a).equals("a1BIG -> b2SMALL -> a, more [b], its own classes"),
                "objects of the component cross as the other domain's classes of the same files");
        CpEntry back = shop.echo(a);
        check(back.getClass() == CpEntry.class && back != a && back.next.next == back && back.more.get(0) == back.next
                && back.kind == CpKind.BIG && back.next.kind == CpKind.SMALL, "and come back as this domain's, cycles and enum constants kept");
        check(shop.flip(CpKind.BIG) == CpKind.SMALL, "enum constants of the component cross");
        CpGreeter mine = new CpGreeter() {
            public String greet(String who) { return "hello " + who + " from " + Domain.current().name(); }
        };
        check(shop.callBack(mine).equals("hello twin from " + Domain.current().name()), "Portal objects of the component cross as services");

        CpShop oddShop = Naming.await("odd", CpShop.class, 10_000);
        check(oddShop.where().startsWith("odd "), "calls with no such objects reach a domain whose CpEntry differs");
        try {
            oddShop.describe(a);
            check(false, "a class whose file differs does not cross");
        } catch (PortalException e) {
            check(e.getMessage().contains("CpEntry cannot be passed"), "a class whose file differs does not cross: " + e.getMessage());
        }
        check(oddShop.flip(CpKind.SMALL) == CpKind.BIG, "but its other classes do");
        twin.terminate();
        odd.terminate();
        check(twin.awaitTermination(10_000) && odd.awaitTermination(10_000), "both ended");
    }
}

interface CpShop extends Portal {
    String where();
    String describe(CpEntry e);
    CpEntry echo(CpEntry e);
    CpKind flip(CpKind k);
    String callBack(CpGreeter g);
}

interface CpGreeter extends Portal {
    String greet(String who);
}

enum CpKind { BIG, SMALL }

class CpEntry {
    String name;
    int n;
    CpKind kind;
    CpEntry next;
    List<CpEntry> more = new ArrayList<>();

    CpEntry(String name, int n, CpKind kind) {
        this.name = name;
        this.n = n;
        this.kind = kind;
    }
}

class CpServer {
    public static void main(String[] args) {
        Naming.register(args[0], new CpShopImpl());
    }
}

class CpShopImpl implements CpShop {
    public String where() {
        return Domain.current().name() + " " + System.getProperty("java.class.path");
    }

    public String describe(CpEntry e) {
        ClassLoader mine = CpShopImpl.class.getClassLoader();
        boolean own = e.getClass().getClassLoader() == mine && e.kind.getClass().getClassLoader() == mine && e.next.getClass() == CpEntry.class;
        List<String> more = new ArrayList<>();
        for (CpEntry m : e.more) {
            more.add(m.name);
        }
        return e.name + e.n + e.kind + " -> " + e.next.name + e.next.n + e.next.kind + " -> " + e.next.next.name + ", more " + more
                + (own ? ", its own classes" : ", foreign classes");
    }

    public CpEntry echo(CpEntry e) {
        return e;
    }

    public CpKind flip(CpKind k) {
        return k == CpKind.BIG ? CpKind.SMALL : CpKind.BIG;
    }

    public String callBack(CpGreeter g) {
        return g.greet(Domain.current().name());
    }
}
