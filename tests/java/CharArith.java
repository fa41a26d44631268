public class CharArith {
    public static void main(String[] args) {
        char c = 'a';
        c += 2;
        System.out.println("c=" + c);
        c++;
        System.out.println("c++ -> " + c);
        char d = (char) (c + 1);
        System.out.println("d=" + d + " c+d=" + (c + d) + " \"\"+c+d=" + "" + c + d);
        System.out.println("char sum as int: " + ('a' + 'b') + " as string: " + 'a' + 'b');
        StringBuilder alphabet = new StringBuilder();
        for (char x = 'A'; x <= 'Z'; x++) alphabet.append(x);
        System.out.println(alphabet);
        StringBuilder rot13 = new StringBuilder();
        String msg = "Hello, World! Zebra-123";
        for (char x : msg.toCharArray()) {
            if (x >= 'a' && x <= 'z') x = (char) ('a' + (x - 'a' + 13) % 26);
            else if (x >= 'A' && x <= 'Z') x = (char) ('A' + (x - 'A' + 13) % 26);
            rot13.append(x);
        }
        System.out.println("rot13: " + rot13);
        char z = 0;
        z--;
        System.out.println("char underflow: " + (int) z);
        z++;
        System.out.println("char overflow back: " + (int) z);
        char uni = '\u00e9';
        System.out.println("unicode e-acute: " + (int) uni + " upper: " + (int) Character.toUpperCase(uni));
        System.out.println("digit chars: " + ('7' - '0') + " " + (char) ('0' + 5) + " " + Character.getNumericValue('z') + " " + Character.digit('f', 16));
        char[] arr = {'d', 'a', 'c', 'b'};
        java.util.Arrays.sort(arr);
        System.out.println("sorted: " + new String(arr) + " " + String.valueOf(arr, 1, 2));
        int counts[] = new int[26];
        for (char x : "the quick brown fox jumps over the lazy dog".toCharArray()) if (x != ' ') counts[x - 'a']++;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 26; i++) sb.append((char) ('a' + i)).append(counts[i]);
        System.out.println("counts: " + sb);
        char q = 'x';
        switch (q) {
            case 'x' -> System.out.println("switch char x");
            case 'y' -> System.out.println("switch char y");
            default -> System.out.println("other");
        }
        System.out.println("compare chars: " + ('a' < 'b') + " " + Character.compare('z', 'a') + " " + (char) 65 + (char) 97);
        System.out.println("surrogates: " + Character.isHighSurrogate('\uD83D') + " " + Character.toChars(0x1F600).length + " " + Character.charCount(0x1F600)
            + " " + Character.toCodePoint('\uD83D', '\uDE00'));
        char ch = 'A';
        ch *= 2;
        System.out.println("ch*=2 -> " + (int) ch);
        ch = 'A';
        int shifted = ch << 1;
        System.out.println("shifted=" + shifted + " ch^' '=" + (char) (ch ^ ' '));
    }
}
