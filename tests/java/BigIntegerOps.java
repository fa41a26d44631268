import java.math.BigInteger;

public class BigIntegerOps {
    static BigInteger factorial(int n) {
        BigInteger r = BigInteger.ONE;
        for (int i = 2; i <= n; i++) r = r.multiply(BigInteger.valueOf(i));
        return r;
    }

    public static void main(String[] args) {
        System.out.println("50! = " + factorial(50));
        System.out.println("100! digits = " + factorial(100).toString().length() + " bitLength=" + factorial(100).bitLength() + " trailing zero bits=" + factorial(100).getLowestSetBit());
        BigInteger two = BigInteger.TWO;
        System.out.println("2^100 = " + two.pow(100) + " 2^127-1 = " + two.pow(127).subtract(BigInteger.ONE));
        BigInteger a = new BigInteger("123456789012345678901234567890");
        BigInteger b = new BigInteger("-987654321098765432109876543210");
        System.out.println("a+b=" + a.add(b) + " a-b=" + a.subtract(b) + " a*b=" + a.multiply(b));
        System.out.println("b/a=" + b.divide(a) + " b%a=" + b.remainder(a) + " b mod a=" + b.mod(a) + " divideAndRemainder=" + java.util.Arrays.toString(b.divideAndRemainder(a)));
        System.out.println("gcd=" + a.gcd(b) + " gcd(2^64, 6^20)=" + two.pow(64).gcd(BigInteger.valueOf(6).pow(20)) + " abs=" + b.abs() + " negate=" + a.negate() + " signum=" + b.signum());
        BigInteger m = BigInteger.valueOf(1_000_000_007);
        System.out.println("modPow(3, 10^18, p)=" + BigInteger.valueOf(3).modPow(BigInteger.TEN.pow(18), m) + " modInverse(12345, p)=" + BigInteger.valueOf(12345).modInverse(m));
        System.out.println("modPow RSA-ish: " + new BigInteger("65").modPow(BigInteger.valueOf(17), BigInteger.valueOf(3233)) + " back: " + new BigInteger("2790").modPow(BigInteger.valueOf(413), BigInteger.valueOf(3233)));
        long[] knownPrimes = {2, 3, 97, 7919, 1_000_000_007, 2147483647L, 1_000_000_000_039L};
        long[] composites = {1, 4, 561, 1105, 1_000_000_008L, 2147483649L};
        StringBuilder sb = new StringBuilder();
        for (long p : knownPrimes) sb.append(p).append('=').append(BigInteger.valueOf(p).isProbablePrime(50)).append(' ');
        for (long c : composites) sb.append(c).append('=').append(BigInteger.valueOf(c).isProbablePrime(50)).append(' ');
        System.out.println("isProbablePrime: " + sb.toString().trim());
        System.out.println("M127 prime: " + two.pow(127).subtract(BigInteger.ONE).isProbablePrime(20) + " M128-1 prime: " + two.pow(128).subtract(BigInteger.ONE).isProbablePrime(20));
        System.out.println("nextProbablePrime(10^12)=" + BigInteger.TEN.pow(12).nextProbablePrime() + " nextProbablePrime(100)=" + BigInteger.valueOf(100).nextProbablePrime());
        System.out.println("compare: " + a.compareTo(b) + " " + a.equals(new BigInteger("123456789012345678901234567890")) + " max=" + a.max(b) + " min=" + a.min(b));
        System.out.println("radix: " + a.toString(16) + " " + a.toString(36) + " " + new BigInteger("ff", 16) + " " + new BigInteger("-zz", 36) + " " + b.toString(2).length());
        System.out.println("bits: " + BigInteger.valueOf(-1).shiftLeft(70) + " " + a.shiftRight(50) + " " + b.shiftRight(50) + " and=" + a.and(BigInteger.valueOf(0xFFFF)) + " or=" + BigInteger.valueOf(5).or(BigInteger.valueOf(10))
            + " xor=" + a.xor(b) + " not=" + BigInteger.valueOf(5).not() + " testBit=" + a.testBit(3) + " setBit=" + BigInteger.ZERO.setBit(100) + " bitCount=" + a.bitCount());
        System.out.println("conversions: " + a.longValue() + " " + a.intValue() + " " + a.doubleValue() + " " + BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE).longValue());
        try {
            a.longValueExact();
        } catch (ArithmeticException e) {
            System.out.println("longValueExact: " + e.getMessage());
        }
        System.out.println("sqrt: " + a.sqrt() + " " + BigInteger.valueOf(99).sqrt() + " toByteArray len: " + a.toByteArray().length + " from bytes: " + new BigInteger(new byte[]{1, 0, 0}) + " " + new BigInteger(new byte[]{(byte) 0xFF}));
        BigInteger fib1 = BigInteger.ZERO, fib2 = BigInteger.ONE;
        for (int i = 0; i < 300; i++) { BigInteger t = fib1.add(fib2); fib1 = fib2; fib2 = t; }
        System.out.println("F(300) = " + fib1);
        BigInteger catalan = BigInteger.ONE;
        for (int n = 0; n < 60; n++) catalan = catalan.multiply(BigInteger.valueOf(2L * (2 * n + 1))).divide(BigInteger.valueOf(n + 2));
        System.out.println("Catalan(60) = " + catalan);
        System.out.println("hashCode: " + a.hashCode() + " " + b.hashCode() + " " + BigInteger.ZERO.hashCode());
        try {
            BigInteger.ONE.mod(BigInteger.valueOf(-5));
        } catch (ArithmeticException e) {
            System.out.println("mod negative: " + e.getMessage());
        }
        System.out.println("pow(0,0)=" + BigInteger.ZERO.pow(0) + " valueOf cache: " + (BigInteger.valueOf(1) == BigInteger.ONE));
    }
}
