public class SwitchLookup {
    static String sparse(int x) {
        switch (x) {
            case -1000000: return "neg million";
            case -7: return "neg seven";
            case 0: return "zero";
            case 10: return "ten";
            case 1000: return "thousand";
            case 65536: return "2^16";
            case 1 << 30: return "2^30";
            case 123456789: return "digits";
            default: return "none";
        }
    }

    static int sparseLong(long v) {
        int key = (int) (v % 100000);
        switch (key) {
            case 1: return 10;
            case 500: return 20;
            case 99999: return 30;
            case -99999: return 40;
            case 31337: return 50;
            default: return -1;
        }
    }

    static String mixedFallthrough(int x) {
        StringBuilder sb = new StringBuilder();
        switch (x) {
            case 100: sb.append("100 ");
            case -100: sb.append("-100 ");
                break;
            case 5000: sb.append("5000 ");
            default: sb.append("dflt ");
            case 77777: sb.append("77777 ");
        }
        return sb.toString().trim();
    }

    public static void main(String[] args) {
        int[] probes = {-1000000, -999999, -7, -6, 0, 1, 10, 11, 1000, 999, 65536, 65535, 1 << 30, 123456789, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int p : probes) System.out.println(p + " -> " + sparse(p));
        long[] lp = {1L, 100001L, 500L, 99999L, -99999L, 31337L, 2L};
        for (long p : lp) System.out.println(p + " -> " + sparseLong(p));
        for (int p : new int[]{100, -100, 5000, 77777, 3}) System.out.println(p + " -> " + mixedFallthrough(p));
        int acc = 0;
        for (int i = 0; i < 5000; i++) {
            switch (i * 37 % 1001) {
                case 0: acc += 1; break;
                case 37: acc += 2; break;
                case 500: acc += 3; break;
                case 999: acc += 4; break;
                default: acc += 0;
            }
        }
        System.out.println("acc=" + acc);
        long big = 1L << 40;
        String r = switch ((int) (big >>> 38)) {
            case 4 -> "four";
            case 1024 -> "1024";
            default -> "x";
        };
        System.out.println("r=" + r);
    }
}
