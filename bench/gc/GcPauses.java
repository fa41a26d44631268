import java.util.HashMap;

/**
 * GC suite: pause times with a large, pointer-rich live set. A HashMap of 200 000 items (about
 * 50 MB with HotSpot's object sizes: map node, boxed key, item, 160-byte payload) stays live,
 * each item linked to the item of the next key. Every step looks an item up and allocates
 * short-lived garbage (a boxed key, a long array); one step in four replaces an item and
 * re-links its old neighbour to the new one (a store of a young object into an old one), so
 * the old generation is rewritten as it runs while the live set stays the same size. About
 * 1 GB of allocation (small) or 4 GB (large). Run with -Xlog:gc and -Xmx128m; prints one
 * checksum line.
 */
public final class GcPauses {
    private static final int ENTRIES = 200_000;
    private static final int KEY_BASE = 1000;
    private static final int PAYLOAD = 160;

    private static final class Item {
        final int key;
        final byte[] payload;
        Item link;

        Item(int key, Item link) {
            this.key = key;
            this.payload = new byte[PAYLOAD];
            this.payload[key % PAYLOAD] = (byte) key;
            this.link = link;
        }
    }

    private static long state = 0x9E3779B97F4A7C15L;

    /** A pseudo-random value in [0, 2^24): xorshift64, top bits. */
    private static int random() {
        state ^= state << 13;
        state ^= state >>> 7;
        state ^= state << 17;
        return (int) (state >>> 40);
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int steps = size.equals("large") ? 16_000_000 : 4_000_000;
        HashMap<Integer, Item> map = new HashMap<>();
        Item next = null;
        for (int i = ENTRIES - 1; i >= 0; i--) {
            next = new Item(KEY_BASE + i, next);
            map.put(KEY_BASE + i, next);
        }
        map.get(KEY_BASE + ENTRIES - 1).link = next;
        long checksum = 0;
        for (int step = 0; step < steps; step++) {
            int r = random();
            Item item = map.get(KEY_BASE + r % ENTRIES);
            long[] scratch = new long[4 + (r & 31)];
            scratch[scratch.length - 1] = item.key;
            checksum += scratch[scratch.length - 1] + item.payload[item.key % PAYLOAD];
            checksum += item.link.key;
            if ((step & 3) == 0) {
                int index = (r >>> 5) % ENTRIES;
                Item fresh = new Item(KEY_BASE + index, map.get(KEY_BASE + (index + 1) % ENTRIES));
                map.put(KEY_BASE + index, fresh);
                map.get(KEY_BASE + (index + ENTRIES - 1) % ENTRIES).link = fresh;
            }
        }
        for (Item item : map.values()) {
            checksum += item.key + item.link.payload[item.link.key % PAYLOAD];
        }
        System.out.println("GcPauses entries " + map.size() + " steps " + steps + " checksum " + checksum);
    }
}
