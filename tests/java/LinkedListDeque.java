import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.NoSuchElementException;
import java.util.Queue;

public class LinkedListDeque {
    static String balanced(String s) {
        Deque<Character> stack = new ArrayDeque<>();
        for (char c : s.toCharArray()) {
            if ("([{".indexOf(c) >= 0) stack.push(c);
            else if (")]}".indexOf(c) >= 0) {
                if (stack.isEmpty()) return "unbalanced";
                char open = stack.pop();
                if ("([{".indexOf(open) != ")]}".indexOf(c)) return "mismatch";
            }
        }
        return stack.isEmpty() ? "ok" : "unclosed";
    }

    public static void main(String[] args) {
        LinkedList<String> ll = new LinkedList<>();
        ll.add("b"); ll.addFirst("a"); ll.addLast("c"); ll.add(1, "x");
        System.out.println("linkedlist: " + ll + " first=" + ll.getFirst() + " last=" + ll.getLast() + " get(2)=" + ll.get(2));
        System.out.println("removeFirst=" + ll.removeFirst() + " removeLast=" + ll.removeLast() + " now " + ll);
        ll.push("p");
        System.out.println("push -> " + ll + " pop=" + ll.pop() + " peek=" + ll.peek() + " poll=" + ll.poll() + " -> " + ll);
        ll.clear();
        System.out.println("empty poll=" + ll.poll() + " peek=" + ll.peek() + " pollLast=" + ll.pollLast());
        try {
            ll.getFirst();
        } catch (NoSuchElementException e) {
            System.out.println("getFirst on empty: NoSuchElementException");
        }
        try {
            ll.remove();
        } catch (NoSuchElementException e) {
            System.out.println("remove on empty: NoSuchElementException");
        }
        Deque<Integer> dq = new ArrayDeque<>();
        for (int i = 0; i < 10; i++) { if (i % 2 == 0) dq.offerFirst(i); else dq.offerLast(i); }
        System.out.println("deque: " + dq + " size=" + dq.size());
        StringBuilder sb = new StringBuilder();
        Iterator<Integer> desc = dq.descendingIterator();
        while (desc.hasNext()) sb.append(desc.next()).append(',');
        System.out.println("descending: " + sb);
        System.out.println("pollFirst=" + dq.pollFirst() + " pollLast=" + dq.pollLast() + " peekFirst=" + dq.peekFirst() + " peekLast=" + dq.peekLast());
        dq.removeFirstOccurrence(4);
        dq.removeLastOccurrence(7);
        System.out.println("after removes: " + dq + " contains(5)=" + dq.contains(5));
        try {
            dq.addFirst(null);
        } catch (NullPointerException e) {
            System.out.println("ArrayDeque rejects null");
        }
        Queue<String> q = new LinkedList<>();
        q.offer("first"); q.offer("second"); q.add("third");
        System.out.println("queue: peek=" + q.peek() + " poll=" + q.poll() + " element=" + q.element() + " remaining=" + q);
        for (String s : new String[]{"([]{})", "([)]", "((", "())", "{[()()]}", ""}) System.out.println("balanced '" + s + "' -> " + balanced(s));
        Deque<Integer> window = new ArrayDeque<>();
        int[] data = {1, 3, -1, -3, 5, 3, 6, 7};
        int k = 3;
        StringBuilder maxes = new StringBuilder();
        for (int i = 0; i < data.length; i++) {
            while (!window.isEmpty() && window.peekFirst() <= i - k) window.pollFirst();
            while (!window.isEmpty() && data[window.peekLast()] < data[i]) window.pollLast();
            window.offerLast(i);
            if (i >= k - 1) maxes.append(data[window.peekFirst()]).append(' ');
        }
        System.out.println("sliding max: " + maxes.toString().trim());
        ArrayDeque<Integer> big = new ArrayDeque<>(2);
        for (int i = 0; i < 1000; i++) { big.addLast(i); if (i % 3 == 0) big.pollFirst(); }
        System.out.println("big deque size=" + big.size() + " first=" + big.peekFirst() + " last=" + big.peekLast());
        LinkedList<Integer> nums = new LinkedList<>();
        for (int i = 0; i < 10; i++) nums.add(i);
        nums.removeIf(n -> n % 3 == 0);
        nums.add(nums.size() / 2, 100);
        System.out.println("linked ops: " + nums + " indexOf(100)=" + nums.indexOf(100) + " reversed via descendingIterator first=" + nums.descendingIterator().next());
    }
}
