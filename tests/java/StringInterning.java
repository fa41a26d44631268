public class StringInterning {
    static final String CONST = "shared";
    static String field = "shared";

    static String make(String a, String b) { return a + b; }

    public static void main(String[] args) {
        String a = "shared";
        System.out.println("literal == literal: " + (a == "shared"));
        System.out.println("literal == static final: " + (a == CONST));
        System.out.println("literal == static field: " + (a == field));
        System.out.println("literal == Other.VALUE: " + (a == Other.VALUE));
        String built = make("sha", "red");
        System.out.println("runtime built == literal: " + (built == a) + " equals: " + built.equals(a));
        System.out.println("built.intern() == literal: " + (built.intern() == a));
        String n1 = new String("shared");
        System.out.println("new String == literal: " + (n1 == a) + " intern: " + (n1.intern() == a));
        String unique = make("never-seen-", "before-xyz");
        String uniqueInterned = unique.intern();
        System.out.println("first intern of runtime string returns equal: " + uniqueInterned.equals(unique) + ", later literal same: " + (uniqueInterned == "never-seen-before-xyz"));
        String c1 = "con" + "cat";
        System.out.println("compile-time concat == literal: " + (c1 == "concat"));
        final int k = 5;
        String c2 = "num" + k;
        System.out.println("constant int concat == literal: " + (c2 == "num5"));
        int nk = 5;
        String c3 = "num" + nk;
        System.out.println("non-constant int concat == literal: " + (c3 == "num5") + ", interned: " + (c3.intern() == "num5"));
        String empty1 = "";
        String empty2 = new String("");
        String empty3 = "abc".substring(0, 0);
        System.out.println("empty: " + (empty1 == "") + " " + (empty2 == "") + " " + empty3.isEmpty() + " " + (empty2.intern() == empty1));
        String[] arr = new String[5];
        for (int i = 0; i < 5; i++) arr[i] = ("item" + i).intern();
        System.out.println("interned array: " + (arr[3] == "item3") + " " + (arr[0] == "item0"));
        String sw = "switchme";
        String sw2 = new String(sw);
        switch (sw2) {
            case "switchme": System.out.println("switch works on non-interned: yes"); break;
            default: System.out.println("switch works on non-interned: no");
        }
        System.out.println("String.valueOf identity: " + (String.valueOf(a) == a) + " toString: " + (a.toString() == a));
        System.out.println("strip unchanged identity: " + ("abc".strip() == "abc") + " substring(0) identity: " + ("abc".substring(0) == "abc"));
    }
}

class Other {
    static final String VALUE = "shared";
}
