import java.io.*;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.*;

// JVMFLAGS: -Djdk.lang.Process.launchMechanism=FORK
// Redirects to and from files, inherited streams, pipelines, working directory, environment,
// scripts without #!, programs that are not executable. Started with the FORK launch
// mechanism (the other programs use the default, POSIX_SPAWN).
public class ProcessRedirects {
    static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\n", "|");
    }

    static String file(Path p) throws IOException {
        return Files.readString(p).replace("\n", "|");
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("jxvm-proc");
        try {
            body(dir);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.println("cleaned=" + !Files.exists(dir));
    }

    static void body(Path dir) throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Path in = dir.resolve("in.txt");
        Files.writeString(in, "from a file\nsecond line\n");

        // stdout and stderr to files; stdin from a file.
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "cat; echo to-err 1>&2")
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        System.out.println("redirects: " + pb.redirectInput().toString().replace(dir.toString(), "DIR") + " / " + pb.redirectOutput().type() + " / " + pb.redirectError().type());
        Process p = pb.start();
        System.out.println("stdout stream is null stream: " + (p.getInputStream().read() == -1));
        System.out.println("rc=" + p.waitFor() + " out=" + file(out) + " err=" + file(err));

        // Appending.
        Process a = new ProcessBuilder("echo", "appended").redirectOutput(Redirect.appendTo(out.toFile())).start();
        System.out.println("append rc=" + a.waitFor() + " out=" + file(out));
        // Truncating again.
        Process tr = new ProcessBuilder("echo", "fresh").redirectOutput(out.toFile()).start();
        System.out.println("truncate rc=" + tr.waitFor() + " out=" + file(out));

        // Discarding; redirectErrorStream into a file.
        Process d = new ProcessBuilder("sh", "-c", "echo gone; echo gone too 1>&2").redirectOutput(Redirect.DISCARD).start();
        System.out.println("discard rc=" + d.waitFor() + " err=" + read(d.getErrorStream()));
        Process m = new ProcessBuilder("sh", "-c", "echo A; echo B 1>&2; echo C").redirectErrorStream(true).redirectOutput(err.toFile()).start();
        System.out.println("merged to file rc=" + m.waitFor() + " file=" + file(err));

        // Inherited output goes to this process's stdout, in order with ours.
        System.out.println("before inherit");
        Process inh = new ProcessBuilder("echo", "inherited line").inheritIO().start();
        System.out.println("inherit rc=" + inh.waitFor());
        Process inh2 = new ProcessBuilder("sh", "-c", "echo to stdout; exit 4").redirectOutput(Redirect.INHERIT).start();
        System.out.println("inherit out rc=" + inh2.waitFor());

        // Missing input file.
        try {
            new ProcessBuilder("cat").redirectInput(dir.resolve("missing").toFile()).start();
        } catch (IOException e) {
            System.out.println("missing input: " + e.getClass().getSimpleName() + " " + e.getMessage().replace(dir.toString(), "DIR"));
        }

        // Pipelines.
        List<Process> pipe = ProcessBuilder.startPipeline(List.of(
                new ProcessBuilder("printf", "c\\nb\\na\\nb\\n"),
                new ProcessBuilder("sort"),
                new ProcessBuilder("uniq", "-c")));
        Process last = pipe.get(pipe.size() - 1);
        System.out.println("pipeline: " + read(last.getInputStream()).replaceAll(" +", " "));
        for (Process q : pipe) System.out.println("  stage rc=" + q.waitFor());

        // Working directory.
        Path sub = Files.createDirectory(dir.resolve("sub dir"));
        Files.writeString(sub.resolve("here.txt"), "x");
        Process pwd = new ProcessBuilder("pwd").directory(sub.toFile()).start();
        String got = read(pwd.getInputStream());
        System.out.println("pwd matches=" + got.equals(sub.toRealPath() + "|") + " rc=" + pwd.waitFor());
        Process ls = new ProcessBuilder("ls").directory(sub.toFile()).start();
        System.out.println("ls: " + read(ls.getInputStream()) + " rc=" + ls.waitFor());
        Process rel = new ProcessBuilder("cat", "here.txt").directory(sub.toFile()).start();
        System.out.println("relative file: " + read(rel.getInputStream()) + " rc=" + rel.waitFor());

        // Environment: set, changed, removed, cleared.
        ProcessBuilder env = new ProcessBuilder("sh", "-c", "echo \"X=[$X] Y=[${Y-unset}] HOME=[${HOME:+set}]\"");
        env.environment().put("X", "value with spaces = and \u00e9");
        env.environment().put("Y", "y");
        System.out.println("env: " + read(env.start().getInputStream()));
        env.environment().remove("Y");
        System.out.println("env removed: " + read(env.start().getInputStream()));
        env.environment().remove("HOME");
        System.out.println("env no HOME: " + read(env.start().getInputStream()));
        env.environment().clear();
        env.environment().put("X", "only");
        System.out.println("env cleared: " + read(env.start().getInputStream()));
        Process envc = new ProcessBuilder("/usr/bin/env").start();
        ProcessBuilder cleared = new ProcessBuilder("/usr/bin/env");
        cleared.environment().clear();
        cleared.environment().put("ONLY", "1");
        System.out.println("env listing: " + read(cleared.start().getInputStream()));
        System.out.println("inherited env has PATH: " + read(envc.getInputStream()).contains("PATH="));
        try {
            env.environment().put("BAD=NAME", "v");
        } catch (IllegalArgumentException e) {
            System.out.println("bad name: " + e.getMessage());
        }

        // A script without #! runs under /bin/sh; a file without execute permission does not run.
        Path script = dir.resolve("jxvm-proc-script");
        Files.writeString(script, "echo script ran with $# args: \"$@\"\nexit 7\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        Process s = new ProcessBuilder(script.toString(), "one", "two").start();
        System.out.println("script: " + read(s.getInputStream()) + " rc=" + s.waitFor());
        Process s2 = new ProcessBuilder("./jxvm-proc-script", "3").directory(dir.toFile()).start();
        System.out.println("script rel: " + read(s2.getInputStream()) + " rc=" + s2.waitFor());
        Path noexec = dir.resolve("noexec");
        Files.writeString(noexec, "echo no\n");
        try {
            new ProcessBuilder(noexec.toString()).start();
            System.out.println("noexec started?!");
        } catch (IOException e) {
            System.out.println("noexec: " + e.getMessage().replace(dir.toString(), "DIR"));
        }
        // The program is searched on this process's PATH, not on the one given to the child.
        ProcessBuilder pathpb = new ProcessBuilder("jxvm-proc-script");
        pathpb.environment().put("PATH", dir.toString());
        try {
            pathpb.start();
            System.out.println("found on child's PATH?!");
        } catch (IOException e) {
            System.out.println("child PATH not searched: " + e.getMessage());
        }
        ProcessBuilder pathsh = new ProcessBuilder("sh", "-c", "jxvm-proc-script x");
        pathsh.environment().put("PATH", dir + ":/bin:/usr/bin");
        Process ps = pathsh.start();
        System.out.println("child's shell uses its PATH: " + read(ps.getInputStream()) + " rc=" + ps.waitFor());
    }
}
