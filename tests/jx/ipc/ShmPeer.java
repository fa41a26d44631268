import jx.ipc.Channel;
import jx.ipc.ChannelClosedException;
import jx.memory.Memory;
import jx.memory.ReadOnlyMemory;
import jx.memory.RevokedMemoryException;

/**
 * Shared memory between two jxvm processes (driven by crates/cli/tests/ipc.rs). Modes: owner
 * NAME (allocates with Memory.allocateShared, sends views of it, then waits to be killed), user
 * NAME (connects, checks and writes), mirror NAME (sends a sample holding shared memory, then
 * reports what each received frame became: a hostile peer's forgeries). Each check prints one
 * "ok" line; a failed check exits 1.
 */
public class ShmPeer {
    static final long MAGIC = 0x1122334455667788L;

    static class Counter extends jx.pso.PSO {
        int value;
    }

    /** A Portal with no interface to call it by (only jx.portal.Portal itself). */
    static final class Bare implements jx.portal.Portal {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "owner" -> owner(args[1]);
            case "user" -> user(args[1]);
            case "mirror" -> mirror(args[1]);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void ok(boolean cond, String what) {
        if (!cond) {
            System.out.println("FAILED " + what);
            System.exit(1);
        }
        System.out.println("ok " + what);
    }

    static boolean revoked(ReadOnlyMemory m) {
        try {
            m.getByte(0);
            return false;
        } catch (RevokedMemoryException e) {
            return !m.isValid();
        }
    }

    static Object[] expect(Channel ch, String tag) throws Exception {
        Object o = ch.receive(30_000);
        if (o instanceof Object[] a && tag.equals(a[0])) return a;
        if (tag.equals(o)) return new Object[] {o};
        throw new AssertionError("expected " + tag + ", got " + o);
    }

    static void owner(String name) throws Exception {
        try (Channel ch = Channel.listen(name, 30_000)) {
            Memory m = Memory.allocateShared(1 << 20);
            m.setLong(0, MAGIC);
            m.setByte(1024, (byte) 5);
            ReadOnlyMemory ro = m.subRange(1024, 64).readOnly();
            Memory sub = m.subRange(2048, 16);
            try {
                ch.send(new Object[] {"plain", Memory.allocate(8)});
                ok(false, "memory made by allocate is refused");
            } catch (IllegalArgumentException e) {
                ok(e.getMessage().contains("allocateShared"),
                        "memory made by allocate is IllegalArgumentException, nothing sent");
            }
            try {
                ch.send(new Object[] {"portal", new Bare()});
                ok(false, "a bare Portal is refused");
            } catch (IllegalArgumentException e) {
                ok(e.getMessage().contains("implements no interface extending jx.portal.Portal"),
                        "an object implementing only jx.portal.Portal is IllegalArgumentException, nothing sent");
            }
            ch.send(new Object[] {"hello", m, ro, sub, m});
            expect(ch, "written");
            ok(m.getInt(8) == 42 && m.getByte(2048) == 7, "writes in the peer are seen here");
            m.setInt(12, 99);
            ch.send("written2");
            Memory sub2 = sub.revoke();
            ch.send(new Object[] {"revoked-sub", sub2});
            Object[] r = expect(ch, "revoked-whole");
            Memory m2 = (Memory) r[1];
            ok(revoked(m) && revoked(ro) && revoked(sub2),
                    "revoking the whole in the peer revokes every view of it here");
            ok(m2.isValid() && m2.getLong(0) == MAGIC && m2.getInt(8) == 42,
                    "the fresh memory the peer made by revoking arrives valid, the same bytes");
            m2.setInt(16, 1234);
            ch.send("written3");
            Memory pm = Memory.allocateShared(4096);
            jx.pso.Container pc = jx.pso.Container.over(pm);
            Counter first = pc.allocate(Counter.class);
            first.value = 41;
            try {
                ch.send(first);
                ok(false, "a PSO is refused");
            } catch (IllegalArgumentException e) {
                ok(true, "a PSO itself is IllegalArgumentException (its container crosses), nothing sent");
            }
            ch.send(new Object[] {"pso", pc});
            expect(ch, "pso-ready");
            ok(first.value == 42, "a PSO field written in the peer is seen here");
            pm.revoke();
            ch.send("pso-revoked");
            Memory keep = Memory.allocateShared(1 << 20);
            keep.setLong(0, 77);
            ch.send(keep);
            keep = null;
            System.gc();
            System.out.println("sent keep");
            System.out.flush();
            Thread.sleep(60_000); // killed here
        }
    }

    static void user(String name) throws Exception {
        Channel ch = null;
        long deadline = System.currentTimeMillis() + 30_000;
        while (ch == null) {
            try {
                ch = Channel.connect(name);
            } catch (java.io.IOException e) {
                if (System.currentTimeMillis() > deadline) throw e;
                Thread.sleep(20);
            }
        }
        Object[] g = expect(ch, "hello");
        Memory m = (Memory) g[1];
        ReadOnlyMemory ro = (ReadOnlyMemory) g[2];
        Memory sub = (Memory) g[3];
        ok(m.size() == 1 << 20 && m.getLong(0) == MAGIC, "shared memory arrives with its bytes");
        ok(g[1] == g[4], "a memory object twice in a graph arrives as one object");
        ok(ro.getClass() == ReadOnlyMemory.class && ro.size() == 64 && ro.getByte(0) == 5
                && !(ro.subRange(0, 8) instanceof Memory),
                "a read-only view arrives read-only, with its bounds");
        boolean bounded = false;
        try {
            sub.getByte(16);
        } catch (IndexOutOfBoundsException e) {
            bounded = true;
        }
        ok(sub.size() == 16 && bounded, "a sub-range arrives with its bounds");
        m.setInt(8, 42);
        sub.setByte(0, (byte) 7);
        Memory subsub = sub.subRange(0, 8); // derived here before the owner revokes sub
        ch.send("written");
        expect(ch, "written2");
        ok(m.getInt(12) == 99, "writes in the owner are seen here");
        Object[] r = expect(ch, "revoked-sub");
        Memory sub2 = (Memory) r[1];
        ok(revoked(sub) && revoked(subsub) && m.isValid() && ro.isValid()
                && sub2.isValid() && sub2.getByte(0) == 7,
                "revoking a sub-range in the owner revokes it here, and what was derived from it here; the whole stays valid");
        Memory usub = m.subRange(0, 8);
        Memory m2 = m.revoke();
        ok(revoked(m) && revoked(usub) && revoked(ro) && revoked(sub2) && m2.getLong(0) == MAGIC,
                "revoking the whole here revokes every view of it here");
        ch.send(new Object[] {"revoked-whole", m2});
        expect(ch, "written3");
        ok(m2.getInt(16) == 1234, "the fresh memory is shared too");
        jx.pso.Container pc = (jx.pso.Container) expect(ch, "pso")[1];
        Counter q = pc.at(Counter.class, 0);
        ok(q.value == 41 && pc.used() == 8 && pc.size() == 4096,
                "a container of shared memory arrives: its PSOs are read here with no copy");
        q.value = 42;
        boolean before = q.value == 42;
        ch.send("pso-ready");
        expect(ch, "pso-revoked");
        boolean after = false;
        try {
            q.value++;
        } catch (RevokedMemoryException e) {
            after = true;
        }
        ok(before && after, "a PSO over shared memory sees the owner's revocation");
        Memory keep = (Memory) ch.receive(30_000);
        try {
            ch.receive(60_000);
            ok(false, "the owner is gone");
        } catch (ChannelClosedException e) {
            System.out.println("ok the owner is gone");
        }
        System.gc();
        boolean same = keep.getLong(0) == 77;
        for (long i = 8; i < keep.size(); i += 8) keep.setLong(i, i * 31);
        for (long i = 8; i < keep.size(); i += 8) same &= keep.getLong(i) == i * 31;
        ok(same, "memory outlives its creator (killed): still readable and writable here");
        ch.close();
    }

    static void mirror(String name) throws Exception {
        try (Channel ch = Channel.listen(name, 30_000)) {
            Memory m = Memory.allocateShared(4096);
            m.setLong(0, 7);
            ch.send(new Object[] {"sample", m});
            int frames = 0;
            while (true) {
                String what;
                try {
                    Object o = ch.receive();
                    frames++;
                    if (o instanceof Object[] a && a.length == 2 && a[1] instanceof ReadOnlyMemory r) {
                        boolean same = r.isValid() && r.size() == 4096 && r.getLong(0) == 7;
                        what = (same ? "the sample intact" : "a memory object")
                                + (r instanceof Memory ? "" : " read-only");
                    } else {
                        what = String.valueOf(o);
                    }
                } catch (ChannelClosedException e) {
                    break;
                } catch (java.io.IOException e) {
                    frames++;
                    what = e.getClass().getName();
                }
                System.out.println("frame " + what);
            }
            System.out.println("closed after " + frames + " frames");
        }
    }
}
