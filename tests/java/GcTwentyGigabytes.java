// JVMFLAGS: -Xmx128m
/**
 * Allocates 20 GB in total through a 128 MB heap while keeping about 48 MB live: short-lived
 * linked lists (most objects die young), plus a live set of 64 KB arrays that is replaced
 * piece by piece (so old objects die too, and the old generation must be collected). The
 * live set is checked at the end. Under JXVM_GC_STRESS (a collection at every allocation) the
 * total shrinks to 20 MB; HotSpot sees the same environment, so both run the same sizes.
 */
public class GcTwentyGigabytes {
    static final class Node {
        final Node next;
        final int value;
        Node(Node next, int value) { this.next = next; this.value = value; }
    }

    static final int LIVE_BLOCKS = 768;          // 768 x 64 KB = 48 MB live
    static final int BLOCK_LONGS = 8192 - 3;     // 64 KB with the array header

    static long[] block(int id) {
        long[] b = new long[BLOCK_LONGS];
        b[0] = id;
        b[BLOCK_LONGS - 1] = ~(long) id;
        return b;
    }

    public static void main(String[] args) {
        boolean stress = System.getenv("JXVM_GC_STRESS") != null;
        long target = stress ? 20L << 20 : 20L << 30;
        long[][] live = new long[LIVE_BLOCKS][];
        for (int i = 0; i < LIVE_BLOCKS; i++) live[i] = block(i);
        long bytes = (long) LIVE_BLOCKS * 65536;
        long checksum = 0;
        int replaced = 0;
        while (bytes < target) {
            Node head = null;
            for (int i = 0; i < 1000; i++) head = new Node(head, i);
            bytes += 1000L * 32; // a Node is 32 bytes on both VMs' layouts (16 header + 8 + 4, aligned)
            checksum += head.value + head.next.value;
            if (++replaced % 64 == 0) {
                int slot = (replaced / 64) % LIVE_BLOCKS;
                live[slot] = block(replaced);
                bytes += 65536;
            }
        }
        boolean intact = true;
        for (long[] b : live) intact &= b[BLOCK_LONGS - 1] == ~b[0];
        System.out.println("allocated at least " + (target >> 20) + " MB; checksum " + checksum + "; live set intact: " + intact);
    }
}
