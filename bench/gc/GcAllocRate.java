/**
 * GC suite: allocation rate. Allocates a fixed volume (2048 MB small, 20480 MB large) of
 * short-lived linked nodes and int arrays while about 50 MB stay live, replacing one slot of the
 * live set every 16 steps so that the old generation keeps changing; a ring of recent chains
 * gives young collections some survivors. The volume is counted with HotSpot's object sizes
 * (64-bit, compressed references and class pointers), so it is the same for every VM and the
 * runner derives MB/s from it. Run under -Xmx128m. Prints one checksum line.
 */
public final class GcAllocRate {
    private static final class Node {
        final int value;
        final Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    /** One part of the live set. */
    private static final class Slot {
        final Node chain;
        final int[] data;

        Slot(Node chain, int[] data) {
            this.chain = chain;
            this.data = data;
        }
    }

    /** HotSpot sizes: a 12-byte header, fields of 4 bytes, 8-byte alignment. */
    private static final long NODE_BYTES = 24;
    private static final long SLOT_BYTES = 24;
    private static final int SLOT_CHAIN = 16;
    private static final int SLOT_DATA = 24;
    private static final int LIVE_SLOTS = 96 * 1024;
    private static final int RING = 1024;

    private static long seed = 0x2545F4914F6CDD1DL;

    private static long intArrayBytes(int length) {
        return (16 + 4L * length + 7) & ~7L;
    }

    /** The next pseudo-random 24-bit value (a 64-bit LCG's high bits). */
    private static int random() {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        return (int) (seed >>> 40);
    }

    private static Node chain(int length, int base) {
        Node head = null;
        for (int i = 0; i < length; i++) {
            head = new Node(base + i, head);
        }
        return head;
    }

    private static long sum(Node n) {
        long s = 0;
        for (; n != null; n = n.next) {
            s += n.value;
        }
        return s;
    }

    private static Slot slot(int base) {
        int[] data = new int[SLOT_DATA];
        for (int i = 0; i < SLOT_DATA; i++) {
            data[i] = base ^ i;
        }
        return new Slot(chain(SLOT_CHAIN, base), data);
    }

    private static final long SLOT_TOTAL = SLOT_BYTES + SLOT_CHAIN * NODE_BYTES + intArrayBytes(SLOT_DATA);

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        long targetMb = size.equals("large") ? 20480 : 2048;
        long target = targetMb << 20;
        Slot[] live = new Slot[LIVE_SLOTS];
        for (int i = 0; i < LIVE_SLOTS; i++) {
            live[i] = slot(i);
        }
        Node[] ring = new Node[RING];
        long allocated = LIVE_SLOTS * SLOT_TOTAL;
        long checksum = 0;
        for (int step = 0; allocated < target; step++) {
            int r = random();
            int length = 4 + (r & 15);
            int[] scratch = new int[8 + ((r >>> 4) & 63)];
            scratch[0] = r;
            scratch[scratch.length - 1] = step;
            Node garbage = chain(length, r & 0xFFFF);
            Node old = ring[step & (RING - 1)];
            ring[step & (RING - 1)] = garbage;
            checksum += sum(garbage) + scratch[0] - scratch[scratch.length - 1];
            if (old != null) {
                checksum += old.value;
            }
            allocated += length * NODE_BYTES + intArrayBytes(scratch.length);
            Slot s = live[(r >>> 10) % LIVE_SLOTS];
            checksum += s.chain.value + s.data[r & (SLOT_DATA - 8)];
            if ((step & 15) == 0) {
                live[(r >>> 7) % LIVE_SLOTS] = slot(step);
                allocated += SLOT_TOTAL;
            }
        }
        for (Slot s : live) {
            checksum += sum(s.chain) + s.data[SLOT_DATA - 1];
        }
        System.out.println("GcAllocRate allocated " + targetMb + " MB checksum " + checksum);
    }
}
