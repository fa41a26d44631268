public class TextBlocks {
    public static void main(String[] args) {
        String json = """
            {
              "name": "jxvm",
              "version": 17,
              "tags": ["vm", "rust"]
            }
            """;
        System.out.print(json);
        System.out.println("json length=" + json.length() + " lines=" + json.lines().count());
        String noTrailingNewline = """
            one
            two""";
        System.out.println("[" + noTrailingNewline.replace("\n", "\\n") + "]");
        String continued = """
            this is a long line \
            continued here""";
        System.out.println(continued);
        String spaces = """
            keep trailing\s\s
            tab\there
            quote: \""" done
            """;
        System.out.println(spaces.replace(" ", "_").replace("\t", "<TAB>").replace("\n", "|"));
        String indented = """
                deeper
              shallower
            base
            """;
        System.out.print(indented.replace(" ", "."));
        String html = """
            <p>%s</p>
            """.formatted("hi");
        System.out.print(html);
        System.out.println("stripIndent: [" + "   a\n    b\n   c".stripIndent().replace("\n", "|") + "]");
        System.out.println("translateEscapes: [" + "tab\\there\\nnl \\101 \\s|".translateEscapes().replace("\n", "<NL>").replace("\t", "<TAB>") + "]");
        String empty = """
            """;
        System.out.println("empty text block length=" + empty.length());
        String crlf = "a\r\nb\rc\nd";
        System.out.println("lines of mixed endings: " + crlf.lines().toList());
        System.out.println("escapes: \b|\f|\0|\7|\177|\u0041|\\|\'|\"".replace("\b", "<BS>").replace("\f", "<FF>").replace("\0", "<NUL>").replace("\7", "<BEL>").replace("\177", "<DEL>"));
        char c = '\u0022';
        System.out.println("unicode escape in char: " + c + " " + (int) '\'' + " " + (int) '\\');
    }
}
