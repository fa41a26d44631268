import java.util.Arrays;

public class ArrayClone {
    static class Box implements Cloneable {
        int v;
        int[] data;
        Box(int v) { this.v = v; this.data = new int[]{v, v + 1}; }
        @Override public Box clone() {
            try {
                return (Box) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
        Box deepClone() {
            Box b = clone();
            b.data = data.clone();
            return b;
        }
        @Override public String toString() { return "Box(" + v + "," + Arrays.toString(data) + ")"; }
    }

    static class NotCloneable {
        Object tryClone() throws CloneNotSupportedException { return super.clone(); }
    }

    public static void main(String[] args) throws Exception {
        int[] a = {1, 2, 3};
        int[] b = a.clone();
        b[0] = 100;
        System.out.println("int clone: " + Arrays.toString(a) + " " + Arrays.toString(b) + " same=" + (a == b));
        int[][] m = {{1, 2}, {3, 4}};
        int[][] mc = m.clone();
        mc[0][0] = 99;
        mc[1] = new int[]{7, 7};
        System.out.println("shallow 2d clone: " + Arrays.deepToString(m) + " " + Arrays.deepToString(mc) + " inner shared=" + (m[0] == mc[0]));
        String[] s = {"a", "b"};
        String[] sc = s.clone();
        System.out.println("string clone: " + Arrays.toString(sc) + " elem same=" + (s[0] == sc[0]) + " class=" + sc.getClass().getSimpleName());
        Object[] covariant = new Integer[]{1, 2};
        Object[] cc = covariant.clone();
        System.out.println("covariant clone class: " + cc.getClass().getName());
        try {
            cc[0] = "str";
        } catch (ArrayStoreException e) {
            System.out.println("clone keeps runtime type: ArrayStoreException " + e.getMessage());
        }
        double[] d = {1.5, Double.NaN, -0.0};
        System.out.println("double clone: " + Arrays.toString(d.clone()));
        long[] empty = new long[0];
        System.out.println("empty clone: " + empty.clone().length + " distinct=" + (empty.clone() != empty));
        Box box = new Box(5);
        Box shallow = box.clone();
        Box deep = box.deepClone();
        box.data[0] = -1;
        box.v = 6;
        System.out.println("orig " + box + " shallow " + shallow + " deep " + deep);
        System.out.println("clone class: " + shallow.getClass().getSimpleName() + " distinct=" + (shallow != box));
        try {
            new NotCloneable().tryClone();
            System.out.println("cloned?!");
        } catch (CloneNotSupportedException e) {
            System.out.println("CloneNotSupportedException: " + e.getMessage());
        }
        char[] chars = "clone".toCharArray();
        char[] cc2 = chars.clone();
        cc2[0] = 'C';
        System.out.println(new String(chars) + " " + new String(cc2));
        boolean[] bools = {true, false, true};
        System.out.println("bool clone: " + Arrays.toString(bools.clone()));
        Box[] boxes = {new Box(1), new Box(2)};
        Box[] boxesClone = boxes.clone();
        boxesClone[0].v = 10;
        System.out.println("object array clone shares elements: " + boxes[0].v);
        int[] big = new int[10000];
        for (int i = 0; i < big.length; i++) big[i] = i * 3;
        int[] bigc = big.clone();
        System.out.println("big clone equal: " + Arrays.equals(big, bigc) + " last=" + bigc[9999]);
    }
}
