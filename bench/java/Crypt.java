/**
 * Java Grande section 2 "Crypt": IDEA encryption of an N-byte buffer in 8-byte blocks, then
 * decryption with the inverted key schedule; checks that the round trip gives the plaintext.
 */
public class Crypt {
    /** Multiplication modulo 2^16 + 1, where the 16-bit value 0 stands for 2^16. */
    static int mul(int a, int b) {
        if (a == 0) return (0x10001 - b) & 0xFFFF;
        if (b == 0) return (0x10001 - a) & 0xFFFF;
        long p = (long) a * b;
        int lo = (int) (p & 0xFFFF), hi = (int) (p >>> 16);
        int r = lo - hi;
        if (lo < hi) r += 0x10001;
        return r & 0xFFFF;
    }

    static int inv(int x) {
        if (x <= 1) return x; // 0 (i.e. 65536 = -1) and 1 are their own inverses
        long r = 1, b = x, e = 0x10001 - 2;
        while (e > 0) {
            if ((e & 1) != 0) r = r * b % 0x10001;
            b = b * b % 0x10001;
            e >>= 1;
        }
        return (int) r & 0xFFFF;
    }

    static int[] encryptKeys(int[] userKey) {
        int[] z = new int[52];
        // 128-bit key as two longs, rotated left by 25 bits after each 8 subkeys
        long hi = 0, lo = 0;
        for (int i = 0; i < 4; i++) hi = (hi << 16) | userKey[i];
        for (int i = 4; i < 8; i++) lo = (lo << 16) | userKey[i];
        int k = 0;
        while (true) {
            for (int i = 0; i < 4 && k < 52; i++) z[k++] = (int) (hi >>> (48 - 16 * i)) & 0xFFFF;
            for (int i = 0; i < 4 && k < 52; i++) z[k++] = (int) (lo >>> (48 - 16 * i)) & 0xFFFF;
            if (k >= 52) break;
            long nh = (hi << 25) | (lo >>> 39);
            long nl = (lo << 25) | (hi >>> 39);
            hi = nh;
            lo = nl;
        }
        return z;
    }

    static int[] decryptKeys(int[] z) {
        int[] d = new int[52];
        d[0] = inv(z[48]);
        d[1] = -z[49] & 0xFFFF;
        d[2] = -z[50] & 0xFFFF;
        d[3] = inv(z[51]);
        d[4] = z[46];
        d[5] = z[47];
        for (int r = 1; r < 8; r++) {
            int b = 48 - 6 * r;
            d[6 * r] = inv(z[b]);
            d[6 * r + 1] = -z[b + 2] & 0xFFFF;
            d[6 * r + 2] = -z[b + 1] & 0xFFFF;
            d[6 * r + 3] = inv(z[b + 3]);
            d[6 * r + 4] = z[b - 2];
            d[6 * r + 5] = z[b - 1];
        }
        d[48] = inv(z[0]);
        d[49] = -z[1] & 0xFFFF;
        d[50] = -z[2] & 0xFFFF;
        d[51] = inv(z[3]);
        return d;
    }

    static void cipher(byte[] in, byte[] out, int[] key) {
        for (int off = 0; off < in.length; off += 8) {
            int x1 = (in[off] & 0xFF) << 8 | (in[off + 1] & 0xFF);
            int x2 = (in[off + 2] & 0xFF) << 8 | (in[off + 3] & 0xFF);
            int x3 = (in[off + 4] & 0xFF) << 8 | (in[off + 5] & 0xFF);
            int x4 = (in[off + 6] & 0xFF) << 8 | (in[off + 7] & 0xFF);
            int k = 0;
            for (int round = 0; round < 8; round++) {
                x1 = mul(x1, key[k++]);
                x2 = (x2 + key[k++]) & 0xFFFF;
                x3 = (x3 + key[k++]) & 0xFFFF;
                x4 = mul(x4, key[k++]);
                int t1 = mul(x1 ^ x3, key[k++]);
                int t2 = mul((t1 + (x2 ^ x4)) & 0xFFFF, key[k++]);
                t1 = (t1 + t2) & 0xFFFF;
                x1 ^= t2;
                x4 ^= t1;
                int t = x2 ^ t1;
                x2 = x3 ^ t2;
                x3 = t;
            }
            int y1 = mul(x1, key[k++]);
            int y2 = (x3 + key[k++]) & 0xFFFF;
            int y3 = (x2 + key[k++]) & 0xFFFF;
            int y4 = mul(x4, key[k]);
            out[off] = (byte) (y1 >>> 8);
            out[off + 1] = (byte) y1;
            out[off + 2] = (byte) (y2 >>> 8);
            out[off + 3] = (byte) y2;
            out[off + 4] = (byte) (y3 >>> 8);
            out[off + 5] = (byte) y3;
            out[off + 6] = (byte) (y4 >>> 8);
            out[off + 7] = (byte) y4;
        }
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 50_000_000 : 800_000;
        int s = 136506717;
        int[] userKey = new int[8];
        for (int i = 0; i < 8; i++) {
            s = s * 1664525 + 1013904223;
            userKey[i] = (s >>> 16) & 0xFFFF;
        }
        byte[] plain = new byte[n];
        for (int i = 0; i < n; i++) {
            s = s * 1664525 + 1013904223;
            plain[i] = (byte) (s >>> 24);
        }
        int[] ek = encryptKeys(userKey);
        int[] dk = decryptKeys(ek);
        byte[] enc = new byte[n], dec = new byte[n];
        cipher(plain, enc, ek);
        cipher(enc, dec, dk);
        boolean ok = java.util.Arrays.equals(plain, dec);
        long h = 1469598103934665603L;
        for (int i = 0; i < n; i++) h = (h ^ (enc[i] & 0xFF)) * 1099511628211L;
        System.out.println("Crypt n=" + n + " roundTripOk=" + ok + " cipherHash=" + Long.toHexString(h));
    }
}
