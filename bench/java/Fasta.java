/**
 * Benchmarks Game "fasta": a repeated sequence and two sequences drawn from weighted
 * alphabets with a linear congruential generator, in 60-column lines. The output goes into a
 * buffer that is hashed, not to stdout.
 */
public class Fasta {
    static final String REPEAT = "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGGGAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGACCAGCCTGGCCAACATGG"
            + "TGAAACCCCGTCTCTACTAAAAATACAAAAATTAGCCGGGCGTGGTGGCGCGCGCCTGTAATCCCAGCTACTCGGGAGGCTGAGGCAGGAGAATCGCTTGAACCC";
    static final int LINE = 60;
    static final int IM = 139968, IA = 3877, IC = 29573;
    static int last = 42;

    static byte[] buf = new byte[1 << 16];
    static int pos = 0;
    static long hash = 1469598103934665603L;
    static long written = 0;

    static void put(byte b) {
        if (pos == buf.length) flush();
        buf[pos++] = b;
    }

    static void flush() {
        long h = hash;
        for (int i = 0; i < pos; i++) h = (h ^ buf[i]) * 1099511628211L;
        hash = h;
        written += pos;
        pos = 0;
    }

    static void header(String s) {
        for (int i = 0; i < s.length(); i++) put((byte) s.charAt(i));
        put((byte) '\n');
    }

    static void repeat(String id, int n) {
        header(id);
        byte[] seq = REPEAT.getBytes();
        int k = 0;
        for (int done = 0; done < n; ) {
            int len = Math.min(LINE, n - done);
            for (int i = 0; i < len; i++) {
                put(seq[k]);
                if (++k == seq.length) k = 0;
            }
            put((byte) '\n');
            done += len;
        }
    }

    static void random(String id, String symbols, double[] probs, int n) {
        header(id);
        int m = symbols.length();
        double[] cumulative = new double[m];
        double acc = 0;
        for (int i = 0; i < m; i++) {
            acc += probs[i];
            cumulative[i] = acc;
        }
        byte[] sym = symbols.getBytes();
        for (int done = 0; done < n; ) {
            int len = Math.min(LINE, n - done);
            for (int i = 0; i < len; i++) {
                last = (last * IA + IC) % IM;
                double r = (double) last / IM;
                int j = 0;
                while (j < m - 1 && r >= cumulative[j]) j++;
                put(sym[j]);
            }
            put((byte) '\n');
            done += len;
        }
    }

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int n = size.equals("large") ? 25_000_000 : 400_000;
        repeat(">ONE Homo sapiens alu", 2 * n);
        random(">TWO IUB ambiguity codes", "acgtBDHKMNRSVWY",
                new double[] {0.27, 0.12, 0.12, 0.27, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02},
                3 * n);
        random(">THREE Homo sapiens frequency", "acgt",
                new double[] {0.3029549426680, 0.1979883004921, 0.1975473066391, 0.3015094502008}, 5 * n);
        flush();
        System.out.println("Fasta n=" + n + " bytes=" + written + " hash=" + Long.toHexString(hash) + " last=" + last);
    }
}
