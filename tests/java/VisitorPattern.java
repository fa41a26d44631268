import java.util.ArrayList;
import java.util.List;

public class VisitorPattern {
    interface Visitor<R> {
        R visitFile(File f);
        R visitDir(Dir d);
        R visitLink(Link l);
    }

    static abstract class Entry {
        final String name;
        Entry(String name) { this.name = name; }
        abstract <R> R accept(Visitor<R> v);
    }

    static class File extends Entry {
        final long size;
        File(String n, long s) { super(n); size = s; }
        <R> R accept(Visitor<R> v) { return v.visitFile(this); }
    }

    static class Dir extends Entry {
        final List<Entry> children = new ArrayList<>();
        Dir(String n, Entry... es) { super(n); children.addAll(List.of(es)); }
        <R> R accept(Visitor<R> v) { return v.visitDir(this); }
    }

    static class Link extends Entry {
        final Entry target;
        Link(String n, Entry t) { super(n); target = t; }
        <R> R accept(Visitor<R> v) { return v.visitLink(this); }
    }

    static class SizeVisitor implements Visitor<Long> {
        public Long visitFile(File f) { return f.size; }
        public Long visitDir(Dir d) { long s = 0; for (Entry e : d.children) s += e.accept(this); return s; }
        public Long visitLink(Link l) { return 0L; }
    }

    static class PrintVisitor implements Visitor<Void> {
        private int depth = 0;
        private final StringBuilder out = new StringBuilder();
        public Void visitFile(File f) { line(f.name + " (" + f.size + ")"); return null; }
        public Void visitDir(Dir d) {
            line(d.name + "/");
            depth++;
            for (Entry e : d.children) e.accept(this);
            depth--;
            return null;
        }
        public Void visitLink(Link l) { line(l.name + " -> " + l.target.name); return null; }
        private void line(String s) { out.append("  ".repeat(depth)).append(s).append('\n'); }
    }

    static class CountVisitor implements Visitor<int[]> {
        public int[] visitFile(File f) { return new int[]{1, 0, 0}; }
        public int[] visitDir(Dir d) {
            int[] acc = {0, 1, 0};
            for (Entry e : d.children) { int[] c = e.accept(this); for (int i = 0; i < 3; i++) acc[i] += c[i]; }
            return acc;
        }
        public int[] visitLink(Link l) { return new int[]{0, 0, 1}; }
    }

    public static void main(String[] args) {
        File readme = new File("README.md", 1200);
        Dir src = new Dir("src", new File("main.rs", 5400), new File("lib.rs", 300), new Dir("vm", new File("interp.rs", 42000), new File("gc.rs", 17000)));
        Dir root = new Dir("project", readme, src, new Link("docs", readme), new Dir("empty"), new File("Cargo.toml", 250));
        PrintVisitor pv = new PrintVisitor();
        root.accept(pv);
        System.out.print(pv.out);
        System.out.println("total size: " + root.accept(new SizeVisitor()));
        int[] counts = root.accept(new CountVisitor());
        System.out.println("files=" + counts[0] + " dirs=" + counts[1] + " links=" + counts[2]);
        String largest = root.accept(new Visitor<String>() {
            long best = -1; String name = "";
            public String visitFile(File f) { if (f.size > best) { best = f.size; name = f.name; } return name; }
            public String visitDir(Dir d) { for (Entry e : d.children) e.accept(this); return name + "=" + best; }
            public String visitLink(Link l) { return name; }
        });
        System.out.println("largest: " + largest);
        Visitor<String> namer = new Visitor<>() {
            public String visitFile(File f) { return "F:" + f.name; }
            public String visitDir(Dir d) { return "D:" + d.name + d.children.stream().map(e -> e.accept(this)).toList(); }
            public String visitLink(Link l) { return "L:" + l.name; }
        };
        System.out.println(src.accept(namer));
    }
}
