import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

public class BigDecimalOps {
    public static void main(String[] args) {
        BigDecimal a = new BigDecimal("10.25"), b = new BigDecimal("3");
        System.out.println("add=" + a.add(b) + " subtract=" + a.subtract(b) + " multiply=" + a.multiply(b) + " negate=" + a.negate() + " scale=" + a.scale() + " precision=" + a.precision());
        System.out.println("0.1+0.2=" + new BigDecimal("0.1").add(new BigDecimal("0.2")) + " via double ctor: " + new BigDecimal(0.1) + " valueOf: " + BigDecimal.valueOf(0.1));
        try {
            BigDecimal.ONE.divide(b);
        } catch (ArithmeticException e) {
            System.out.println("non-terminating: " + e.getMessage());
        }
        System.out.println("divide exact: " + new BigDecimal("1").divide(new BigDecimal("8")) + " " + a.divide(new BigDecimal("0.5")));
        System.out.println("divide MathContext: " + BigDecimal.ONE.divide(b, MathContext.DECIMAL32) + " " + BigDecimal.ONE.divide(b, MathContext.DECIMAL64) + " " + BigDecimal.ONE.divide(b, new MathContext(50)));
        System.out.println("divide scale/rounding: " + a.divide(b, 5, RoundingMode.HALF_UP) + " " + a.divide(b, 0, RoundingMode.FLOOR) + " " + a.negate().divide(b, 2, RoundingMode.CEILING));
        String[] vals = {"2.5", "-2.5", "1.5", "-1.5", "2.45", "2.55", "0.005", "-0.005", "1.0000001", "9.999"};
        RoundingMode[] modes = {RoundingMode.UP, RoundingMode.DOWN, RoundingMode.CEILING, RoundingMode.FLOOR, RoundingMode.HALF_UP, RoundingMode.HALF_DOWN, RoundingMode.HALF_EVEN};
        for (String v : vals) {
            StringBuilder sb = new StringBuilder(v + ":");
            for (RoundingMode m : modes) sb.append(' ').append(m).append('=').append(new BigDecimal(v).setScale(Math.max(0, new BigDecimal(v).scale() - 1), m));
            System.out.println(sb);
        }
        try {
            new BigDecimal("1.25").setScale(1, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            System.out.println("UNNECESSARY: " + e.getMessage());
        }
        System.out.println("setScale up: " + new BigDecimal("1.5").setScale(4) + " stripTrailingZeros: " + new BigDecimal("1.5000").stripTrailingZeros() + " " + new BigDecimal("100").stripTrailingZeros()
            + " plain: " + new BigDecimal("100").stripTrailingZeros().toPlainString() + " " + new BigDecimal("0.000").stripTrailingZeros());
        BigDecimal sci = new BigDecimal("1.23E+10");
        BigDecimal small = new BigDecimal("1.23E-10");
        System.out.println("toString vs toPlainString vs toEngineeringString: " + sci + " " + sci.toPlainString() + " " + sci.toEngineeringString() + " | " + small + " " + small.toPlainString() + " " + small.toEngineeringString());
        System.out.println("equals vs compareTo: " + new BigDecimal("2.0").equals(new BigDecimal("2.00")) + " " + new BigDecimal("2.0").compareTo(new BigDecimal("2.00"))
            + " hash: " + new BigDecimal("2.0").hashCode() + " " + new BigDecimal("2.00").hashCode());
        System.out.println("unscaledValue/scale: " + new BigDecimal("123.4500").unscaledValue() + " " + new BigDecimal("123.4500").scale() + " movePointLeft: " + new BigDecimal("12345").movePointLeft(3)
            + " movePointRight: " + new BigDecimal("1.5").movePointRight(4) + " scaleByPowerOfTen: " + new BigDecimal("1.5").scaleByPowerOfTen(3));
        System.out.println("round MathContext: " + new BigDecimal("123456.789").round(new MathContext(4)) + " " + new BigDecimal("123456.789").round(new MathContext(4, RoundingMode.DOWN))
            + " " + new BigDecimal("0.00012345").round(new MathContext(2)));
        BigDecimal principal = new BigDecimal("10000.00");
        BigDecimal rate = new BigDecimal("0.0375");
        BigDecimal bal = principal;
        for (int year = 1; year <= 10; year++) {
            bal = bal.add(bal.multiply(rate)).setScale(2, RoundingMode.HALF_EVEN);
            if (year % 2 == 0) System.out.println("year " + year + " balance " + bal);
        }
        System.out.println("pow: " + new BigDecimal("1.1").pow(10) + " sqrt: " + new BigDecimal("2").sqrt(new MathContext(30)) + " remainder: " + a.remainder(b) + " divideToIntegralValue: " + a.divideToIntegralValue(b));
        System.out.println("valueOf: " + BigDecimal.valueOf(12345, 3) + " " + BigDecimal.valueOf(1e-7) + " " + BigDecimal.valueOf(100.0) + " " + BigDecimal.valueOf(-0.0) + " doubleValue: " + new BigDecimal("0.1").doubleValue()
            + " intValue: " + new BigDecimal("-7.9").intValue() + " longValue: " + new BigDecimal("1e20").longValue());
        try {
            new BigDecimal("7.5").intValueExact();
        } catch (ArithmeticException e) {
            System.out.println("intValueExact: " + e.getMessage());
        }
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 1; i <= 100; i++) sum = sum.add(BigDecimal.ONE.divide(BigDecimal.valueOf(i), 40, RoundingMode.HALF_EVEN));
        System.out.println("H(100) to 40 places: " + sum + " max/min: " + a.max(b) + " " + a.min(b) + " signum: " + a.negate().signum() + " abs: " + a.negate().abs());
        System.out.println("ulp: " + new BigDecimal("1.230").ulp() + " precision of 0: " + BigDecimal.ZERO.precision() + " ZERO with scale: " + new BigDecimal("0E-5") + " " + new BigDecimal("0E+3"));
        System.out.printf("format: %.3f %10.2f %s%n", new BigDecimal("2.71828"), new BigDecimal("-1234.565"), new BigDecimal("1E+5"));
    }
}
