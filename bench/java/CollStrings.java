import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collections and strings: builds text with StringBuilder, splits it with String.split,
 * counts words in a HashMap, sorts ArrayLists of entries and strings, and parses numbers.
 */
public class CollStrings {
    static int seed = 2024;

    static int rnd(int bound) {
        seed = seed * 1103515245 + 12345;
        return ((seed >>> 8) & 0x7FFFFF) % bound;
    }

    static final String[] SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "to", "sa", "vi", "de", "po", "qua", "zen"};

    public static void main(String[] args) {
        String size = args.length > 0 ? args[0] : "small";
        int lines = size.equals("large") ? 400_000 : 6_000;
        long checksum = 0;
        Map<String, Integer> counts = new HashMap<>();
        List<String> all = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int l = 0; l < lines; l++) {
            sb.setLength(0);
            int words = 4 + rnd(8);
            for (int w = 0; w < words; w++) {
                if (w > 0) sb.append(' ');
                int syl = 1 + rnd(3);
                for (int s = 0; s < syl; s++) sb.append(SYLLABLES[rnd(SYLLABLES.length)]);
                if (rnd(5) == 0) sb.append(rnd(1000));
            }
            String line = sb.toString();
            for (String word : line.split(" ")) {
                counts.merge(word, 1, Integer::sum);
                if (word.length() > 6) all.add(word.toUpperCase());
                int digit = word.indexOf('0');
                if (digit >= 0) checksum += digit;
                char last = word.charAt(word.length() - 1);
                if (Character.isDigit(last)) {
                    int k = word.length() - 1;
                    while (k > 0 && Character.isDigit(word.charAt(k - 1))) k--;
                    checksum += Integer.parseInt(word.substring(k));
                }
            }
            checksum += line.hashCode();
        }
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((a, b) -> {
            int c = Integer.compare(b.getValue(), a.getValue());
            return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
        StringBuilder top = new StringBuilder();
        for (int i = 0; i < 5 && i < entries.size(); i++) {
            Map.Entry<String, Integer> e = entries.get(i);
            top.append(e.getKey()).append('=').append(e.getValue()).append(',');
        }
        all.sort(null);
        long sum = 0;
        for (int i = 0; i < all.size(); i += 97) sum = sum * 31 + all.get(i).hashCode();
        String joined = String.join("|", all.subList(0, Math.min(20, all.size())));
        System.out.println("CollStrings lines=" + lines + " distinct=" + counts.size() + " long=" + all.size()
                + " checksum=" + checksum + " sampled=" + sum + " joinedHash=" + joined.hashCode());
        System.out.println("top " + top);
    }
}
