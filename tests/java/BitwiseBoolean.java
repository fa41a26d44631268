public class BitwiseBoolean {
    static int calls = 0;
    static boolean t(String name) { calls++; System.out.println("  eval " + name + " -> true"); return true; }
    static boolean f(String name) { calls++; System.out.println("  eval " + name + " -> false"); return false; }

    public static void main(String[] args) {
        System.out.println("&& short-circuit:");
        boolean r = f("a") && t("b");
        System.out.println("result " + r);
        System.out.println("|| short-circuit:");
        r = t("a") || f("b");
        System.out.println("result " + r);
        System.out.println("& non-short-circuit:");
        r = f("a") & t("b");
        System.out.println("result " + r);
        System.out.println("| non-short-circuit:");
        r = t("a") | f("b");
        System.out.println("result " + r);
        System.out.println("^ :");
        r = t("a") ^ t("b");
        System.out.println("result " + r);
        System.out.println("complex: ");
        r = (f("x") || t("y")) && (t("z") || f("w")) && !f("v");
        System.out.println("result " + r + " calls=" + calls);
        boolean[] bs = {true, false};
        for (boolean p : bs) for (boolean q : bs) {
            System.out.println(p + " " + q + ": and=" + (p && q) + " or=" + (p || q) + " xor=" + (p ^ q) + " eq=" + (p == q) + " ne=" + (p != q) + " &=" + (p & q) + " |=" + (p | q));
        }
        int[] xs = {0, 1, -1, 0x55555555, 0xAAAAAAAA, 0x0F0F0F0F, Integer.MIN_VALUE, 12345678};
        for (int x : xs) {
            for (int y : new int[]{0xFF, -256, 0x12345678}) {
                System.out.println(Integer.toHexString(x) + " op " + Integer.toHexString(y) + ": & " + Integer.toHexString(x & y)
                    + " | " + Integer.toHexString(x | y) + " ^ " + Integer.toHexString(x ^ y) + " ~x " + Integer.toHexString(~x));
            }
        }
        long lx = 0xF0F0F0F0F0F0F0F0L;
        System.out.println("long: " + Long.toHexString(lx & 0xFFFF) + " " + Long.toHexString(lx | 1) + " " + Long.toHexString(lx ^ -1L) + " " + Long.toHexString(~lx));
        System.out.println("mixed int/long: " + Long.toHexString(0xFFFFFFFFL & -1) + " " + Long.toHexString(-1 & 0xFFFFFFFFL) + " " + (0x80000000 | 0L));
        int flags = 0;
        flags |= 1 << 3;
        flags |= 1 << 7;
        flags &= ~(1 << 3);
        System.out.println("flags=" + flags + " bit7=" + ((flags & (1 << 7)) != 0) + " bit3=" + ((flags >> 3 & 1) == 1));
        byte b1 = (byte) 0xF0, b2 = 0x0F;
        System.out.println("byte ops: " + (b1 & b2) + " " + (b1 | b2) + " " + (b1 ^ b2) + " " + (~b1) + " " + (byte) ~b1);
        boolean bb = true;
        bb = !bb;
        System.out.println("not: " + bb + " " + !!bb);
        int popcnt = 0;
        for (int v = 0x12345678; v != 0; v &= v - 1) popcnt++;
        System.out.println("popcnt=" + popcnt + " lowestOneBit=" + (0x12345678 & -0x12345678));
    }
}
