import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

// Starting processes: output, exit codes, stdin, stderr, redirectErrorStream, Runtime.exec,
// large outputs through pipes, failures to start.
public class ProcessBasics {
    static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    static void run(String title, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).start();
        String out = read(p.getInputStream());
        String err = read(p.getErrorStream());
        int rc = p.waitFor();
        System.out.println(title + ": rc=" + rc + " out=" + out.replace("\n", "|") + " err=" + err.replace("\n", "|"));
    }

    public static void main(String[] args) throws Exception {
        run("echo", "/bin/echo", "hello", "world");
        run("echo via PATH", "echo", "a  b", "", "c");
        run("exit 3", "sh", "-c", "exit 3");
        run("exit 255", "sh", "-c", "exit 255");
        run("stderr", "sh", "-c", "echo out; echo err 1>&2; exit 1");
        run("unicode", "printf", "%s\\n", "h\u00e9llo \u4e16\u754c");
        run("killed", "sh", "-c", "kill -9 $$");
        run("terminated", "sh", "-c", "kill -TERM $$");

        // Writing to the child's stdin.
        Process cat = new ProcessBuilder("cat").start();
        try (OutputStream os = cat.getOutputStream()) {
            os.write("line one\nline two\n".getBytes(StandardCharsets.UTF_8));
        }
        System.out.println("cat: " + read(cat.getInputStream()).replace("\n", "|") + " rc=" + cat.waitFor());

        // A filter reading and writing through BufferedReader/Writer, line by line.
        Process tr = new ProcessBuilder("tr", "a-z", "A-Z").start();
        try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(tr.getOutputStream()))) {
            for (int i = 0; i < 5; i++) w.write("row " + i + "\n");
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(tr.getInputStream()))) {
            String line;
            while ((line = r.readLine()) != null) System.out.println("tr: " + line);
        }
        System.out.println("tr rc=" + tr.waitFor());

        // redirectErrorStream: both streams in one, stderr stream empty.
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "echo one; echo two 1>&2; echo three");
        pb.redirectErrorStream(true);
        System.out.println("redirectErrorStream=" + pb.redirectErrorStream());
        Process merged = pb.start();
        System.out.println("merged: " + read(merged.getInputStream()).replace("\n", "|")
                + " err=[" + read(merged.getErrorStream()) + "] rc=" + merged.waitFor());

        // Output larger than a pipe buffer, read while the child writes.
        Process seq = new ProcessBuilder("seq", "1", "50000").start();
        long sum = 0; int lines = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(seq.getInputStream()))) {
            String line;
            while ((line = r.readLine()) != null) { sum += Long.parseLong(line); lines++; }
        }
        System.out.println("seq: lines=" + lines + " sum=" + sum + " rc=" + seq.waitFor());

        // Large input and output at once: cat echoes 200 KB back, written from another thread.
        Process big = new ProcessBuilder("cat").start();
        byte[] data = new byte[200_000];
        for (int i = 0; i < data.length; i++) data[i] = (byte) ('a' + i % 26);
        Thread writer = new Thread(() -> {
            try (OutputStream os = big.getOutputStream()) { os.write(data); } catch (IOException e) { throw new UncheckedIOException(e); }
        });
        writer.start();
        byte[] back = big.getInputStream().readAllBytes();
        writer.join();
        System.out.println("big cat: same=" + Arrays.equals(data, back) + " rc=" + big.waitFor());

        // Runtime.exec forms.
        Process r1 = Runtime.getRuntime().exec("echo runtime exec  string");
        System.out.println("exec(String): " + read(r1.getInputStream()).trim() + " rc=" + r1.waitFor());
        Process r2 = Runtime.getRuntime().exec(new String[] {"sh", "-c", "echo $GREETING $0", "zero"}, new String[] {"GREETING=hi"});
        System.out.println("exec(String[],envp): " + read(r2.getInputStream()).trim() + " rc=" + r2.waitFor());
        Process r3 = Runtime.getRuntime().exec(new String[] {"pwd"}, null, new File("/"));
        System.out.println("exec(.., dir): " + read(r3.getInputStream()).trim() + " rc=" + r3.waitFor());

        // Failures to start.
        String[][] bad = {
            {"nosuch-program-xyz"},
            {"/nonexistent/dir/prog"},
            {"/tmp"},
            {""},
        };
        for (String[] cmd : bad) {
            try {
                new ProcessBuilder(cmd).start();
                System.out.println("started?! " + Arrays.toString(cmd));
            } catch (IOException e) {
                System.out.println("IOException: " + e.getMessage() + " / cause: " + e.getCause());
            } catch (RuntimeException e) {
                System.out.println(e.getClass().getName() + ": " + e.getMessage());
            }
        }
        try {
            new ProcessBuilder("pwd").directory(new File("/nonexistent-dir-xyz")).start();
        } catch (IOException e) {
            System.out.println("bad dir: " + e.getMessage());
        }
        try {
            new ProcessBuilder().start();
        } catch (IndexOutOfBoundsException e) {
            System.out.println("empty command: " + e.getClass().getName());
        }
        try {
            new ProcessBuilder("echo", "a\u0000b").start();
        } catch (IOException e) {
            System.out.println("NUL: " + e.getMessage());
        }
        System.out.println("done");
    }
}
