import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class MiniInterpreter {
    // A tiny tokenizer + recursive-descent parser + tree-walking interpreter.
    enum Tok { NUM, ID, OP, LP, RP, LB, RB, SEMI, EOF }
    record Token(Tok t, String s) { }

    static List<Token> lex(String src) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < src.length()) {
            char c = src.charAt(i);
            if (Character.isWhitespace(c)) { i++; continue; }
            if (Character.isDigit(c)) { int j = i; while (j < src.length() && Character.isDigit(src.charAt(j))) j++; out.add(new Token(Tok.NUM, src.substring(i, j))); i = j; continue; }
            if (Character.isLetter(c)) { int j = i; while (j < src.length() && Character.isLetterOrDigit(src.charAt(j))) j++; out.add(new Token(Tok.ID, src.substring(i, j))); i = j; continue; }
            switch (c) {
                case '(' -> out.add(new Token(Tok.LP, "("));
                case ')' -> out.add(new Token(Tok.RP, ")"));
                case '{' -> out.add(new Token(Tok.LB, "{"));
                case '}' -> out.add(new Token(Tok.RB, "}"));
                case ';' -> out.add(new Token(Tok.SEMI, ";"));
                default -> {
                    String two = i + 1 < src.length() ? src.substring(i, i + 2) : "";
                    if (two.equals("==") || two.equals("!=") || two.equals("<=") || two.equals(">=")) { out.add(new Token(Tok.OP, two)); i += 2; continue; }
                    out.add(new Token(Tok.OP, String.valueOf(c)));
                }
            }
            i++;
        }
        out.add(new Token(Tok.EOF, ""));
        return out;
    }

    interface Node { long eval(Map<String, Long> env, StringBuilder out); }
    record Num(long v) implements Node { public long eval(Map<String, Long> e, StringBuilder o) { return v; } }
    record Var(String n) implements Node {
        public long eval(Map<String, Long> e, StringBuilder o) {
            Long v = e.get(n);
            if (v == null) throw new IllegalStateException("undefined variable " + n);
            return v;
        }
    }
    record Bin(String op, Node l, Node r) implements Node {
        public long eval(Map<String, Long> e, StringBuilder o) {
            long a = l.eval(e, o), b = r.eval(e, o);
            return switch (op) {
                case "+" -> a + b; case "-" -> a - b; case "*" -> a * b; case "/" -> a / b; case "%" -> a % b;
                case "<" -> a < b ? 1 : 0; case ">" -> a > b ? 1 : 0; case "<=" -> a <= b ? 1 : 0; case ">=" -> a >= b ? 1 : 0;
                case "==" -> a == b ? 1 : 0; case "!=" -> a != b ? 1 : 0;
                default -> throw new IllegalStateException("bad op " + op);
            };
        }
    }
    record Assign(String n, Node v) implements Node { public long eval(Map<String, Long> e, StringBuilder o) { long x = v.eval(e, o); e.put(n, x); return x; } }
    record Print(Node v) implements Node { public long eval(Map<String, Long> e, StringBuilder o) { long x = v.eval(e, o); o.append(x).append('\n'); return x; } }
    record While(Node c, List<Node> body) implements Node {
        public long eval(Map<String, Long> e, StringBuilder o) { long n = 0; while (c.eval(e, o) != 0) { for (Node s : body) s.eval(e, o); n++; } return n; }
    }
    record If(Node c, List<Node> then, List<Node> els) implements Node {
        public long eval(Map<String, Long> e, StringBuilder o) { for (Node s : c.eval(e, o) != 0 ? then : els) s.eval(e, o); return 0; }
    }

    static class Parser {
        final List<Token> toks; int pos = 0;
        Parser(List<Token> toks) { this.toks = toks; }
        Token peek() { return toks.get(pos); }
        Token next() { return toks.get(pos++); }
        void expect(Tok t) { Token k = next(); if (k.t() != t) throw new IllegalStateException("expected " + t + " got " + k); }
        List<Node> block() { expect(Tok.LB); List<Node> out = new ArrayList<>(); while (peek().t() != Tok.RB) out.add(stmt()); expect(Tok.RB); return out; }
        List<Node> program() { List<Node> out = new ArrayList<>(); while (peek().t() != Tok.EOF) out.add(stmt()); return out; }
        Node stmt() {
            Token t = peek();
            if (t.t() == Tok.ID && t.s().equals("print")) { next(); Node e = expr(); expect(Tok.SEMI); return new Print(e); }
            if (t.t() == Tok.ID && t.s().equals("while")) { next(); expect(Tok.LP); Node c = expr(); expect(Tok.RP); return new While(c, block()); }
            if (t.t() == Tok.ID && t.s().equals("if")) {
                next(); expect(Tok.LP); Node c = expr(); expect(Tok.RP);
                List<Node> th = block(), el = List.of();
                if (peek().t() == Tok.ID && peek().s().equals("else")) { next(); el = block(); }
                return new If(c, th, el);
            }
            if (t.t() == Tok.ID && toks.get(pos + 1).s().equals("=")) { next(); next(); Node e = expr(); expect(Tok.SEMI); return new Assign(t.s(), e); }
            Node e = expr(); expect(Tok.SEMI); return e;
        }
        Node expr() { return cmp(); }
        Node cmp() { Node l = add(); while (peek().t() == Tok.OP && List.of("<", ">", "<=", ">=", "==", "!=").contains(peek().s())) { String op = next().s(); l = new Bin(op, l, add()); } return l; }
        Node add() { Node l = mul(); while (peek().t() == Tok.OP && (peek().s().equals("+") || peek().s().equals("-"))) { String op = next().s(); l = new Bin(op, l, mul()); } return l; }
        Node mul() { Node l = atom(); while (peek().t() == Tok.OP && "*/%".contains(peek().s())) { String op = next().s(); l = new Bin(op, l, atom()); } return l; }
        Node atom() {
            Token t = next();
            return switch (t.t()) {
                case NUM -> new Num(Long.parseLong(t.s()));
                case ID -> new Var(t.s());
                case LP -> { Node e = expr(); expect(Tok.RP); yield e; }
                case OP -> { if (t.s().equals("-")) yield new Bin("-", new Num(0), atom()); throw new IllegalStateException("unexpected " + t); }
                default -> throw new IllegalStateException("unexpected " + t);
            };
        }
    }

    static String run(String src) {
        StringBuilder out = new StringBuilder();
        Map<String, Long> env = new HashMap<>();
        try {
            for (Node n : new Parser(lex(src)).program()) n.eval(env, out);
        } catch (RuntimeException e) {
            out.append("error: ").append(e.getClass().getSimpleName()).append(": ").append(e.getMessage()).append('\n');
        }
        return out.toString();
    }

    public static void main(String[] args) {
        System.out.print(run("x = 1; y = 0; while (x <= 10) { y = y + x * x; x = x + 1; } print y; print -(3 - 10) * 2;"));
        System.out.print(run("a = 0; b = 1; i = 0; while (i < 60) { t = a + b; a = b; b = t; i = i + 1; } print a;"));
        System.out.print(run("n = 2; count = 0; while (n < 2000) { d = 2; p = 1; while (d * d <= n) { if (n % d == 0) { p = 0; } d = d + 1; } count = count + p; n = n + 1; } print count;"));
        System.out.print(run("n = 27; steps = 0; while (n != 1) { if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; } steps = steps + 1; } print steps;"));
        System.out.print(run("x = 5; print x / (x - 5);"));
        System.out.print(run("print undefinedVar + 1;"));
        System.out.print(run("print (1 + ;"));
        System.out.print(run("g = 1071; h = 462; while (h != 0) { t = g % h; g = h; h = t; } print g; print 9223372036854775807 + 1;"));
        System.out.println("tokens: " + lex("while (x >= 10) { y = y - 1; }").size());
    }
}
