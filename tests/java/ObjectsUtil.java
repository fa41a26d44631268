import java.util.Comparator;
import java.util.List;
import java.util.Objects;

public class ObjectsUtil {
    record Item(String name, Integer qty) { }

    public static void main(String[] args) {
        System.out.println("equals: " + Objects.equals("a", "a") + " " + Objects.equals(null, "a") + " " + Objects.equals(null, null) + " " + Objects.equals(1, 1L));
        System.out.println("hash: " + Objects.hash(1, "a", null) + " " + Objects.hashCode("x") + " " + Objects.hashCode(null) + " " + Objects.hash((Object[]) null));
        System.out.println("toString: " + Objects.toString(null) + " " + Objects.toString(null, "dflt") + " " + Objects.toString(42, "dflt"));
        System.out.println("isNull/nonNull: " + Objects.isNull(null) + " " + Objects.nonNull(null) + " " + List.of("a", "b").stream().filter(Objects::nonNull).count());
        System.out.println("requireNonNullElse: " + Objects.requireNonNullElse(null, "else") + " " + Objects.requireNonNullElseGet(null, () -> "got") + " " + Objects.requireNonNullElse("val", "else"));
        try {
            Objects.requireNonNull(null);
        } catch (NullPointerException e) {
            System.out.println("requireNonNull: NPE msg=" + e.getMessage());
        }
        try {
            Objects.requireNonNull(null, "thing must not be null");
        } catch (NullPointerException e) {
            System.out.println("requireNonNull msg: " + e.getMessage());
        }
        try {
            Objects.requireNonNull(null, () -> "supplied " + 42);
        } catch (NullPointerException e) {
            System.out.println("requireNonNull supplier: " + e.getMessage());
        }
        try {
            Objects.requireNonNullElse(null, null);
        } catch (NullPointerException e) {
            System.out.println("requireNonNullElse both null: " + e.getMessage());
        }
        System.out.println("checkIndex ok: " + Objects.checkIndex(2, 5));
        for (int[] c : new int[][]{{5, 5}, {-1, 5}, {0, 0}}) {
            try {
                Objects.checkIndex(c[0], c[1]);
            } catch (IndexOutOfBoundsException e) {
                System.out.println("checkIndex(" + c[0] + "," + c[1] + "): " + e.getMessage());
            }
        }
        try {
            Objects.checkFromToIndex(3, 2, 10);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("checkFromToIndex: " + e.getMessage());
        }
        try {
            Objects.checkFromIndexSize(8, 5, 10);
        } catch (IndexOutOfBoundsException e) {
            System.out.println("checkFromIndexSize: " + e.getMessage());
        }
        System.out.println("compare: " + Objects.compare("a", "b", Comparator.naturalOrder()) + " " + Objects.compare(null, null, Comparator.<String>naturalOrder()) + " deepEquals: "
            + Objects.deepEquals(new int[][]{{1, 2}}, new int[][]{{1, 2}}) + " " + Objects.deepEquals(new int[]{1}, new long[]{1}));
        Item a = new Item("apple", null), b = new Item("apple", null);
        System.out.println("records with nulls: " + a + " equals " + a.equals(b) + " hash " + a.hashCode() + " " + Objects.hash(a.name(), a.qty()));
        List<Item> items = new java.util.ArrayList<>(List.of(new Item("b", 2), new Item("a", null), new Item("c", 1), new Item("d", null)));
        items.sort(Comparator.comparing(Item::qty, Comparator.nullsLast(Comparator.naturalOrder())).thenComparing(Item::name));
        System.out.println("sorted with nullsLast: " + items);
    }
}
