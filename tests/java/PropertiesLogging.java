import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.ResourceBundle;
import java.util.TreeSet;
import java.util.logging.ConsoleHandler;
import java.util.logging.Filter;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

/**
 * java.util.Properties (load/store with escapes and unicode, defaults, XML form), logging with
 * java.util.logging (logger hierarchy, levels, custom handlers, formatters and filters,
 * parameters, exceptions, LogManager configuration from a properties stream), the default
 * locale and charset, available charsets and encoding round trips with error actions.
 * Nothing depends on the time: the date comment of Properties.store is dropped and log
 * records are formatted without timestamps.
 */
public class PropertiesLogging {
    static String stripDate(String stored) {
        StringBuilder sb = new StringBuilder();
        for (String line : stored.split("\n", -1)) {
            // store() writes "#<date>" after the optional comments; the date varies.
            if (line.startsWith("#") && line.matches("#\\w{3} \\w{3} .*\\d{4}\\r?")) continue;
            sb.append(line).append('\n');
        }
        return sb.toString().replace("\r", "\\r");
    }

    static void properties() throws IOException {
        System.out.println("== Properties ==");
        String text = "# comment line\n! another comment\n"
            + "plain=value\n"
            + "spaces  =   padded value  \n"
            + "colon:separated\n"
            + "white space separated\n"
            + "multi=first \\\n    second \\\n    third\n"
            + "unicode=caf\\u00e9 \\u2603\n"
            + "key\\ with\\ spaces=yes\n"
            + "escapes=tab\\there\\nnewline\\\\backslash\n"
            + "empty=\n"
            + "novalue\n"
            + "dup=one\n"
            + "dup=two\n";
        Properties p = new Properties();
        p.load(new StringReader(text));
        for (String k : new TreeSet<>(p.stringPropertyNames())) System.out.println("  [" + k + "] = [" + p.getProperty(k).replace("\t", "\\t").replace("\n", "\\n") + "]");
        System.out.println("size=" + p.size() + " missing default=" + p.getProperty("missing", "fallback"));

        Properties defaults = new Properties();
        defaults.setProperty("color", "blue");
        defaults.setProperty("size", "M");
        Properties withDefaults = new Properties(defaults);
        withDefaults.setProperty("size", "L");
        System.out.println("defaults: color=" + withDefaults.getProperty("color") + " size=" + withDefaults.getProperty("size") + " names=" + new TreeSet<>(withDefaults.stringPropertyNames())
            + " own keys=" + withDefaults.keySet() + " get(color)=" + withDefaults.get("color"));

        Properties out = new Properties();
        out.setProperty("greeting", "héllo wörld");
        out.setProperty("path", "C:\\dir\\file");
        out.setProperty("lead", "  leading spaces");
        out.setProperty("k=e:y", "v=a:l#!");
        out.setProperty("snow", "\u2603");
        StringWriter w = new StringWriter();
        out.store(w, "written by test");
        String stored = stripDate(w.toString());
        List<String> lines = new ArrayList<>(Arrays.asList(stored.split("\n")));
        String header = lines.remove(0);
        lines.sort(null);
        System.out.println("store header: " + header + " lines: " + lines);
        Properties back = new Properties();
        back.load(new StringReader(w.toString()));
        System.out.println("store/load round trip equal=" + back.equals(out));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        out.store(bytes, null);
        String latin1 = bytes.toString(StandardCharsets.ISO_8859_1);
        System.out.println("stream store escapes non-ASCII: " + latin1.contains("h\\u00E9llo") + " " + latin1.contains("\\u2603"));
        Properties back2 = new Properties();
        back2.load(new ByteArrayInputStream(bytes.toByteArray()));
        System.out.println("stream round trip equal=" + back2.equals(out));

        ByteArrayOutputStream xml = new ByteArrayOutputStream();
        out.storeToXML(xml, "xml comment", StandardCharsets.UTF_8);
        String x = xml.toString(StandardCharsets.UTF_8);
        System.out.println("xml has doctype=" + x.contains("<!DOCTYPE properties SYSTEM \"http://java.sun.com/dtd/properties.dtd\">") + " comment=" + x.contains("<comment>xml comment</comment>")
            + " entry=" + x.contains("<entry key=\"greeting\">héllo wörld</entry>"));
        Properties fromXml = new Properties();
        fromXml.loadFromXML(new ByteArrayInputStream(xml.toByteArray()));
        System.out.println("xml round trip equal=" + fromXml.equals(out) + " k=e:y -> " + fromXml.getProperty("k=e:y"));
        try {
            new Properties().loadFromXML(new ByteArrayInputStream("<properties><entry>no key</entry></properties>".getBytes()));
        } catch (IOException e) {
            System.out.println("bad xml: " + e.getClass().getSimpleName());
        }
        StringWriter listed = new StringWriter();
        Properties small = new Properties();
        small.setProperty("a", "1");
        small.list(new java.io.PrintWriter(listed));
        System.out.println("list: " + listed.toString().replace("\n", "|"));
        System.out.println("System property from -D-less run: java.specification.version=" + System.getProperty("java.specification.version")
            + " line.separator=" + System.lineSeparator().replace("\n", "\\n") + " file.separator=" + System.getProperty("file.separator"));
    }

    /** Collects formatted records; the formatter prints no time. */
    static class ListHandler extends Handler {
        final List<String> records = new ArrayList<>();
        ListHandler() {
            setFormatter(new Formatter() {
                @Override public String format(LogRecord r) {
                    String msg = formatMessage(r);
                    // The source class and method are inferred from the stack (StackWalker).
                    return r.getLevel() + " " + r.getLoggerName() + " (" + r.getSourceClassName() + "." + r.getSourceMethodName() + "): " + msg
                        + (r.getThrown() == null ? "" : " [" + r.getThrown() + "]");
                }
            });
        }
        @Override public void publish(LogRecord r) {
            if (isLoggable(r)) records.add(getFormatter().format(r));
        }
        @Override public void flush() { }
        @Override public void close() { records.add("closed"); }
    }

    static void logging() throws IOException {
        System.out.println("== java.util.logging ==");
        Logger root = Logger.getLogger("");
        System.out.println("root level=" + root.getLevel() + " handlers=" + Arrays.stream(root.getHandlers()).map(h -> h.getClass().getSimpleName()).toList());
        Logger app = Logger.getLogger("com.example.app");
        Logger db = Logger.getLogger("com.example.app.db");
        System.out.println("parent of db: " + db.getParent().getName() + " parent of app: '" + app.getParent().getName() + "' same instance=" + (app == Logger.getLogger("com.example.app")));
        ListHandler appHandler = new ListHandler();
        app.addHandler(appHandler);
        app.setUseParentHandlers(false);
        app.setLevel(Level.FINE);
        System.out.println("db effective: isLoggable(FINE)=" + db.isLoggable(Level.FINE) + " FINER=" + db.isLoggable(Level.FINER) + " db level=" + db.getLevel());

        db.info("connected");
        Runnable fromLambda = () -> db.info("from a lambda");
        fromLambda.run();
        new Object() {
            void log() { db.info("from an anonymous class"); }
        }.log();
        db.fine("query took {0} ms");
        db.log(Level.FINE, "rows={0} table={1}", new Object[] {42, "users"});
        db.finer("not shown");
        db.log(Level.WARNING, "retrying", new IOException("timeout"));
        app.severe(() -> "supplier message");
        db.setLevel(Level.SEVERE);
        db.warning("suppressed by db level");
        db.setLevel(null);
        db.warning("visible again");
        appHandler.setLevel(Level.INFO);
        db.fine("filtered by handler level");
        appHandler.setFilter(r -> !r.getMessage().contains("secret"));
        db.info("secret stuff");
        db.info("public stuff");
        db.logp(Level.INFO, "SourceClass", "method", "with source");
        db.entering("Cls", "m");
        appHandler.setFilter(null);
        appHandler.setLevel(Level.ALL);
        app.setLevel(Level.ALL);
        db.entering("Cls", "m", new Object[] {1, "two"});
        db.exiting("Cls", "m", "result");
        db.throwing("Cls", "m", new IllegalStateException("thrown"));
        appHandler.records.forEach(r -> System.out.println("  " + r));
        appHandler.close();
        System.out.println("after close: " + appHandler.records.get(appHandler.records.size() - 1));

        // A StreamHandler with the standard SimpleFormatter format, configured without time.
        Logger fmt = Logger.getLogger("fmt");
        fmt.setUseParentHandlers(false);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        System.setProperty("java.util.logging.SimpleFormatter.format", "[%4$s] %3$s - %5$s%6$s%n");
        StreamHandler sh = new StreamHandler(sink, new SimpleFormatter());
        fmt.addHandler(sh);
        fmt.info("simple formatter");
        fmt.log(Level.SEVERE, "with exception", new RuntimeException("boom"));
        sh.flush();
        String[] outLines = sink.toString().split("\n");
        System.out.println("simple formatter: " + outLines[0] + " | " + outLines[1] + " | " + outLines[2] + " | lines=" + (outLines.length > 3));
        fmt.removeHandler(sh);

        // Levels.
        System.out.println("levels: " + Level.parse("WARNING") + "=" + Level.WARNING.intValue() + " " + Level.parse("800") + " " + Level.parse("FINEST").getLocalizedName()
            + " custom=" + Level.parse("850").getName());
        try {
            Level.parse("LOUD");
        } catch (IllegalArgumentException e) {
            System.out.println("bad level: " + e.getMessage());
        }

        // LogManager configuration from a properties stream.
        String cfg = "handlers=\n.level=WARNING\ncfg.child.level=FINEST\n";
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(cfg.getBytes(StandardCharsets.ISO_8859_1)));
        Logger cfgChild = Logger.getLogger("cfg.child");
        System.out.println("configured: root=" + Logger.getLogger("").getLevel() + " cfg.child=" + cfgChild.getLevel() + " root handlers=" + Logger.getLogger("").getHandlers().length
            + " property=" + LogManager.getLogManager().getProperty("cfg.child.level"));
        ListHandler rootHandler = new ListHandler();
        Logger.getLogger("").addHandler(rootHandler);
        Logger.getLogger("cfg.other").info("below root WARNING");
        Logger.getLogger("cfg.other").warning("reaches root handler");
        cfgChild.finest("child is FINEST");
        System.out.println("root handler got: " + rootHandler.records);
        Logger anon = Logger.getAnonymousLogger();
        System.out.println("anonymous: name=" + anon.getName() + " parent is root=" + (anon.getParent() == Logger.getLogger("")));
        Logger.getLogger("").removeHandler(rootHandler);
        ConsoleHandler ch = new ConsoleHandler();
        System.out.println("ConsoleHandler default level=" + ch.getLevel() + " formatter=" + ch.getFormatter().getClass().getSimpleName());
        ch.close();
        Filter f = r -> r.getLevel().intValue() >= Level.WARNING.intValue();
        System.out.println("filter: " + f.isLoggable(new LogRecord(Level.INFO, "x")) + " " + f.isLoggable(new LogRecord(Level.SEVERE, "x")));
    }

    static void localeAndCharsets() throws IOException {
        System.out.println("== Locale and charsets ==");
        Locale def = Locale.getDefault();
        System.out.println("default locale: " + def + " language=" + def.getLanguage() + " display=" + def.getDisplayName(Locale.ENGLISH)
            + " format=" + Locale.getDefault(Locale.Category.FORMAT));
        System.out.println("default charset: " + Charset.defaultCharset() + " file.encoding=" + System.getProperty("file.encoding") + " native.encoding=" + System.getProperty("native.encoding")
            + " sun.jnu.encoding=" + System.getProperty("sun.jnu.encoding"));
        System.out.println("number formats: " + NumberFormat.getInstance(Locale.US).format(1234567.891) + " " + NumberFormat.getInstance(Locale.GERMANY).format(1234567.891)
            + " " + NumberFormat.getInstance(Locale.FRANCE).format(1234.5).replace('\u202f', '_').replace('\u00a0', '_') + " " + String.format(Locale.ROOT, "%,.2f", 9876.543));
        System.out.println("upper/lower: " + "title".toUpperCase(Locale.ROOT) + " " + "TITLE".toLowerCase(new Locale("tr")) + " " + "ß".toUpperCase(Locale.GERMAN));
        Locale.setDefault(Locale.FRANCE);
        System.out.println("after setDefault: " + Locale.getDefault() + " " + String.format("%.2f", 3.5) + " " + Locale.getDefault().getDisplayCountry(Locale.ENGLISH));
        Locale.setDefault(def);
        Locale tag = Locale.forLanguageTag("pt-BR");
        System.out.println("forLanguageTag: " + tag + " " + tag.getCountry() + " " + tag.toLanguageTag() + " " + new Locale("en", "GB").getDisplayCountry(Locale.ENGLISH)
            + " ISO3=" + Locale.GERMANY.getISO3Language() + "/" + Locale.GERMANY.getISO3Country());
        // Property-file bundles found through a class loader, with the fallback chain.
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("bundles");
        java.nio.file.Files.writeString(dir.resolve("msgs.properties"), "hello=Hello\nbye=Bye\ncount=There are {0} items\n");
        java.nio.file.Files.write(dir.resolve("msgs_de.properties"), "hello=Hallo\nbye=Tsch\u00fcss\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.nio.file.Files.writeString(dir.resolve("msgs_de_CH.properties"), "hello=Gr\\u00FCezi\n");
        try (java.net.URLClassLoader bundles = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()})) {
            for (Locale l : new Locale[] {Locale.ROOT, Locale.GERMAN, new Locale("de", "CH"), Locale.JAPANESE}) {
                ResourceBundle b = ResourceBundle.getBundle("msgs", l, bundles);
                System.out.println("bundle " + (l.toString().isEmpty() ? "root" : l) + ": locale=" + (b.getLocale().toString().isEmpty() ? "root" : b.getLocale()) + " hello=" + b.getString("hello") + " bye=" + b.getString("bye")
                    + " count=" + java.text.MessageFormat.format(b.getString("count"), 3));
            }
            try {
                ResourceBundle.getBundle("missing", Locale.ROOT, bundles);
            } catch (java.util.MissingResourceException e) {
                System.out.println("missing bundle: " + e.getClassName() + " key=" + e.getKey());
            }
            try {
                ResourceBundle.getBundle("msgs", Locale.ROOT, bundles).getString("nope");
            } catch (java.util.MissingResourceException e) {
                System.out.println("missing key: " + e.getKey());
            }
        } finally {
            ResourceBundle.clearCache();
            try (var walk = java.nio.file.Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        ResourceBundle rb = new java.util.ListResourceBundle() {
            protected Object[][] getContents() { return new Object[][] {{"hello", "Hallo"}, {"bye", "Tschüss"}}; }
        };
        System.out.println("bundle: " + rb.getString("hello") + " " + rb.getString("bye") + " keys=" + new TreeSet<>(rb.keySet()));

        var all = Charset.availableCharsets();
        System.out.println("available charsets non-empty=" + (all.size() > 0) + " has UTF-8=" + all.containsKey("UTF-8") + " has ISO-8859-1=" + all.containsKey("ISO-8859-1")
            + " has UTF-16LE=" + all.containsKey("UTF-16LE") + " has US-ASCII=" + all.containsKey("US-ASCII"));
        System.out.println("aliases: " + Charset.forName("latin1") + " " + Charset.forName("utf8") + " " + Charset.forName("UTF-16BE").aliases().contains("UnicodeBigUnmarked")
            + " isSupported(windows-1252)=" + Charset.isSupported("windows-1252") + " isSupported(x-bogus)=" + Charset.isSupported("x-bogus"));
        String sample = "Grüße, 世界! \uD83D\uDE00 €";
        for (String cs : new String[] {"UTF-8", "UTF-16", "UTF-16LE", "UTF-32", "ISO-8859-1", "US-ASCII", "windows-1252", "ISO-8859-15"}) {
            Charset c = Charset.forName(cs);
            byte[] enc = sample.getBytes(c);
            String dec = new String(enc, c);
            System.out.println("  " + cs + ": " + enc.length + " bytes, round trip=" + dec.equals(sample) + " canEncode=" + c.newEncoder().canEncode(sample)
                + " decoded=" + dec.replace("\uD83D\uDE00", "<emoji>"));
        }
        CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
        try {
            strict.decode(ByteBuffer.wrap(new byte[] {'o', 'k', (byte) 0xC3, (byte) 0x28}));
        } catch (CharacterCodingException e) {
            System.out.println("strict decode: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        CharBuffer lenient = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(new byte[] {'o', 'k', (byte) 0xFF}));
        System.out.println("lenient decode: " + lenient.toString().replace("\uFFFD", "<?>"));
        ByteBuffer ascii = StandardCharsets.US_ASCII.newEncoder().onUnmappableCharacter(CodingErrorAction.REPLACE).encode(CharBuffer.wrap("naïve"));
        System.out.println("ascii replace: " + StandardCharsets.US_ASCII.decode(ascii));
        try {
            StandardCharsets.US_ASCII.newEncoder().encode(CharBuffer.wrap("naïve"));
        } catch (CharacterCodingException e) {
            System.out.println("ascii strict: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        try {
            Charset.forName("no-such-charset");
        } catch (java.nio.charset.UnsupportedCharsetException e) {
            System.out.println("unsupported: " + e.getMessage());
        }
        System.out.println("BOM: " + Arrays.toString("A".getBytes(StandardCharsets.UTF_16)) + " " + new String(new byte[] {(byte) 0xFF, (byte) 0xFE, 'B', 0}, StandardCharsets.UTF_16));
    }

    public static void main(String[] args) throws IOException {
        properties();
        logging();
        localeAndCharsets();
    }
}
