// ARGS: alpha 42 -x --flag=value 3.5 last
import java.util.Arrays;

public class CommandLineArgs {
    public static void main(String[] args) {
        System.out.println("argc=" + args.length);
        for (int i = 0; i < args.length; i++) System.out.println("args[" + i + "]=" + args[i] + " length=" + args[i].length());
        System.out.println("joined=" + String.join(",", args));
        int ints = 0;
        double sum = 0;
        for (String a : args) {
            try {
                sum += Double.parseDouble(a);
                ints++;
            } catch (NumberFormatException e) {
                // not numeric
            }
        }
        System.out.println("numeric args=" + ints + " sum=" + sum);
        for (String a : args) {
            if (a.startsWith("--")) {
                String[] kv = a.substring(2).split("=", 2);
                System.out.println("long option " + kv[0] + " -> " + (kv.length > 1 ? kv[1] : "(none)"));
            } else if (a.startsWith("-")) {
                System.out.println("short option " + a.substring(1));
            }
        }
        String[] sorted = args.clone();
        Arrays.sort(sorted);
        System.out.println("sorted=" + Arrays.toString(sorted));
        System.out.println("args array class=" + args.getClass().getSimpleName() + " same as clone=" + (sorted == args));
    }
}
