public class FloatDoubleEdge {
    public static void main(String[] args) {
        double nan = Double.NaN;
        float fnan = Float.NaN;
        System.out.println("NaN==NaN " + (nan == nan) + " NaN!=NaN " + (nan != nan) + " NaN<1 " + (nan < 1) + " NaN>1 " + (nan > 1)
            + " NaN<=NaN " + (nan <= nan) + " !(NaN>=1) " + !(nan >= 1));
        System.out.println("fNaN==fNaN " + (fnan == fnan) + " isNaN " + Float.isNaN(fnan) + " " + Double.isNaN(0.0 / 0.0));
        System.out.println("Double.compare(NaN,NaN)=" + Double.compare(nan, nan) + " compare(NaN,Inf)=" + Double.compare(nan, Double.POSITIVE_INFINITY));
        System.out.println("NaN equals: " + Double.valueOf(nan).equals(Double.NaN));
        double pz = 0.0, nz = -0.0;
        System.out.println("0.0==-0.0 " + (pz == nz) + " compare=" + Double.compare(pz, nz) + " equals=" + Double.valueOf(pz).equals(nz));
        System.out.println("1/0.0=" + (1 / pz) + " 1/-0.0=" + (1 / nz) + " -0.0=" + nz + " 0.0*-1=" + (pz * -1) + " -0.0+0.0=" + (nz + pz));
        System.out.println("inf-inf=" + (Double.POSITIVE_INFINITY - Double.POSITIVE_INFINITY) + " inf*0=" + (Double.POSITIVE_INFINITY * 0)
            + " inf+1=" + (Double.POSITIVE_INFINITY + 1) + " -inf=" + Double.NEGATIVE_INFINITY);
        System.out.println("MAX*2=" + (Double.MAX_VALUE * 2) + " MIN/2=" + (Double.MIN_VALUE / 2) + " fMAX*2=" + (Float.MAX_VALUE * 2f));
        System.out.println("float %: " + (5.5f % 2f) + " " + (-5.5f % 2f) + " " + (5.5f % -2f) + " " + (1f % 0f) + " " + (0f % 5f) + " " + (Float.POSITIVE_INFINITY % 2f) + " " + (3f % Float.POSITIVE_INFINITY));
        System.out.println("double %: " + (10.25 % 3) + " " + (-10.25 % 3) + " " + (10.0 % 0.1) + " " + (-0.0 % 5) + " " + (1e300 % 7));
        System.out.println("IEEEremainder: " + Math.IEEEremainder(10.25, 3) + " " + Math.IEEEremainder(11, 3));
        System.out.println("0.1+0.2=" + (0.1 + 0.2) + " 0.1f+0.2f=" + (0.1f + 0.2f) + " 1.0-0.9=" + (1.0 - 0.9));
        System.out.println("float precision: " + (16777216f + 1f) + " " + (float) 16777217 + " " + (double) 16777217f);
        System.out.println("strictfp-ish: " + (1e308 * 10 / 10) + " " + (0.1 * 3) + " " + (100.0 / 3.0) + " " + (2.0 / 3.0f));
        System.out.println("bits: " + Double.doubleToLongBits(1.0) + " " + Double.doubleToLongBits(-0.0) + " " + Float.floatToIntBits(1.5f)
            + " " + Float.floatToIntBits(Float.NaN) + " " + Double.doubleToLongBits(Double.NaN));
        System.out.println("fromBits: " + Double.longBitsToDouble(0x400921FB54442D18L) + " " + Float.intBitsToFloat(0x3F800001));
        System.out.println("min/max: " + Math.min(pz, nz) + " " + Math.max(pz, nz) + " " + Math.min(nan, 1.0) + " " + Math.max(1.0f, fnan));
        System.out.println("ulp: " + Math.ulp(1.0) + " " + Math.ulp(1.0f) + " nextUp " + Math.nextUp(1.0) + " nextDown " + Math.nextDown(1.0f));
        System.out.println("subnormal: " + Double.MIN_VALUE + " " + Double.MIN_NORMAL + " " + Float.MIN_VALUE + " " + Float.MIN_NORMAL);
        double d = 1.0;
        for (int i = 0; i < 10; i++) { d /= 3; }
        System.out.println("d=" + d + " f=" + (float) d);
        float fsum = 0f;
        for (int i = 0; i < 1000; i++) fsum += 0.1f;
        double dsum = 0;
        for (int i = 0; i < 1000; i++) dsum += 0.1;
        System.out.println("fsum=" + fsum + " dsum=" + dsum);
        System.out.println("hashCode: " + Double.hashCode(1.5) + " " + Float.hashCode(-2.25f) + " " + Double.hashCode(-0.0));
        System.out.println("neg ops: " + (-nan) + " " + (-Float.POSITIVE_INFINITY) + " " + (-(0.0f)));
        System.out.println("float cmp: " + (1.0f < 1.0000001f) + " " + (0.1f == 0.1) + " " + ((double) 0.1f) + " " + (0.5f == 0.5));
    }
}
