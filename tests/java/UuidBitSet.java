import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.UUID;

public class UuidBitSet {
    public static void main(String[] args) {
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        System.out.println("uuid=" + u + " version=" + u.version() + " variant=" + u.variant() + " msb=" + u.getMostSignificantBits() + " lsb=" + u.getLeastSignificantBits() + " hash=" + u.hashCode());
        UUID named = UUID.nameUUIDFromBytes("jxvm".getBytes(StandardCharsets.UTF_8));
        System.out.println("name-based=" + named + " version=" + named.version());
        UUID built = new UUID(0x0123456789abcdefL, 0xfedcba9876543210L);
        System.out.println("built=" + built + " compare=" + built.compareTo(u) + " equals=" + built.equals(UUID.fromString(built.toString())));
        BitSet sieve = new BitSet(1000);
        sieve.set(2, 1000);
        for (int p = 2; p * p < 1000; p = sieve.nextSetBit(p + 1)) for (int m = p * p; m < 1000; m += p) sieve.clear(m);
        System.out.println("primes<1000 cardinality=" + sieve.cardinality() + " first10=" + sieve.get(0, 30) + " last=" + sieve.previousSetBit(999));
        BitSet a = new BitSet(), b = new BitSet();
        for (int i = 0; i < 64; i += 3) a.set(i);
        for (int i = 0; i < 64; i += 5) b.set(i);
        BitSet and = (BitSet) a.clone(); and.and(b);
        BitSet or = (BitSet) a.clone(); or.or(b);
        BitSet xor = (BitSet) a.clone(); xor.xor(b);
        BitSet andNot = (BitSet) a.clone(); andNot.andNot(b);
        System.out.println("and=" + and + " or.card=" + or.cardinality() + " xor.card=" + xor.cardinality() + " andNot.card=" + andNot.cardinality() + " intersects=" + a.intersects(b));
        System.out.println("toLongArray=" + java.util.Arrays.toString(a.toLongArray()) + " length=" + a.length() + " size>=64=" + (a.size() >= 64) + " nextClearBit(0)=" + a.nextClearBit(0));
        BitSet big = new BitSet();
        big.set(1_000_000);
        big.flip(5, 10);
        System.out.println("big: " + big + " length=" + big.length() + " valueOf=" + BitSet.valueOf(new long[]{0b1011L}) + " stream=" + big.stream().limit(3).boxed().toList());
    }
}
