//! `--io=9p:…` end to end: Java programs whose files (and class path) are those of a 9P2000.L
//! server, `jxvm gateway` or diod (`scripts/ensure-diod.sh`), compared with HotSpot running
//! the same program in the exported directory itself; symbolic links that point out of the
//! namespace; a gateway killed under a running program; the launcher's errors.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{jxvm, repo, scratch};

/// A running 9P server (`jxvm gateway` or diod), killed when dropped.
struct Server {
    child: Child,
    /// What `--io=` names it as.
    io: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `jxvm gateway --export DIR` on a Unix socket, once it serves.
fn gateway(dir: &Path, sock: &Path) -> Server {
    gateway_with(dir, sock, &[])
}

/// `jxvm gateway --export DIR EXTRA...` on a Unix socket, once it serves.
fn gateway_with(dir: &Path, sock: &Path, extra: &[&str]) -> Server {
    let listen = format!("unix:{}", sock.display());
    let (child, _) = common::start_gateway(dir, extra, &listen);
    let io = format!("9p:unix:{}", sock.display());
    Server { child, io }
}

/// diod exporting `dir` on a Unix socket (its aname is the directory), once it serves.
fn diod(dir: &Path, sock: &Path) -> Server {
    let bin = ["/usr/sbin/diod", "/usr/bin/diod", "/sbin/diod"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("diod is not installed: run scripts/ensure-diod.sh (apt-get install -y diod)");
    let child = Command::new(bin)
        .args(["-f", "-n", "-N", "-l"])
        .arg(sock)
        .arg("-e")
        .arg(dir)
        .args(["-L", "stderr"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start diod");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !sock.exists() {
        assert!(Instant::now() < deadline, "diod did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let io = format!("9p:unix:{},aname={}", sock.display(), dir.display());
    Server { child, io }
}

/// The conformance programs that touch files and pass over 9P. Left out: NioFileLocks and
/// ProcessRedirects start processes; NioMappedFiles needs shared mappings coherent with
/// writes, and /proc.
const FILE_PROGRAMS: &[&str] = &[
    "NioChannels",
    "NioDirectories",
    "NioFiles",
    "ZipFiles",
    "PropertiesLogging",
    "ClassLoadersCustom",
    "ModuleOptions",
    "ToolJar",
    "ToolJavac",
];

/// The `// JVMFLAGS:` of a conformance program.
fn jvm_flags(name: &str) -> Vec<String> {
    let src = std::fs::read_to_string(repo().join(format!("tests/java/{name}.java"))).unwrap();
    src.lines()
        .take(10)
        .find_map(|l| l.trim().strip_prefix("// JVMFLAGS:"))
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// An export holding the compiled `programs` at its root and a `/tmp`.
fn export_with(programs: &[&str]) -> PathBuf {
    let dir = scratch("io9p-export");
    std::fs::create_dir(dir.join("tmp")).unwrap();
    let mut javac = Command::new("javac");
    javac
        .args(["--release", "17", "-encoding", "UTF-8", "-d"])
        .arg(&dir);
    for p in programs {
        javac.arg(repo().join(format!("tests/java/{p}.java")));
    }
    let out = javac.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// HotSpot running `name` in `dir` (temporary files in its `tmp`).
fn hotspot(dir: &Path, name: &str) -> Output {
    Command::new("java")
        .args(jvm_flags(name))
        .arg(format!("-Djava.io.tmpdir={}", dir.join("tmp").display()))
        .args(["-cp", ".", name])
        .current_dir(dir)
        .envs([("LC_ALL", "C.UTF-8"), ("TZ", "UTC")])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// jxvm running `name` over `io` from a directory that holds nothing of it.
fn over_9p(io: &str, name: &str) -> Output {
    jxvm()
        .arg(format!("--io={io}"))
        .args(jvm_flags(name))
        .arg(name)
        .current_dir(std::env::temp_dir())
        .envs([("LC_ALL", "C.UTF-8"), ("TZ", "UTC")])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs every file program over `server` and against HotSpot in `dir`; the names that differ.
fn compare_all(dir: &Path, server: &Server) -> Vec<String> {
    compare(dir, server, FILE_PROGRAMS)
}

/// Runs `programs` over `server` and against HotSpot in `dir`; the names that differ.
fn compare(dir: &Path, server: &Server, programs: &[&str]) -> Vec<String> {
    let mut failed = Vec::new();
    for name in programs {
        let want = hotspot(dir, name);
        let got = over_9p(&server.io, name);
        if want.stdout != got.stdout || want.status.code() != got.status.code() {
            eprintln!(
                "{name}: over 9P\n{}\n{}",
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&got.stderr)
            );
            failed.push(name.to_string());
        }
    }
    failed
}

#[test]
fn file_programs_over_the_gateway_match_hotspot() {
    let dir = export_with(FILE_PROGRAMS);
    let sock = scratch("io9p-gw-sock").join("gw.sock");
    let server = gateway(&dir, &sock);
    assert_eq!(compare_all(&dir, &server), Vec::<String>::new());
}

#[test]
fn file_programs_over_diod_match_hotspot() {
    let dir = export_with(FILE_PROGRAMS);
    let sock = scratch("io9p-diod-sock").join("diod.sock");
    let server = diod(&dir, &sock);
    assert_eq!(compare_all(&dir, &server), Vec::<String>::new());
}

/// Writes `Name.java` with `body` as its main method into `dir` and compiles it there.
fn program(dir: &Path, name: &str, body: &str) {
    let src = dir.join(format!("{name}.java"));
    let text = format!(
        "import java.io.*; import java.nio.file.*;\n\
         public class {name} {{ public static void main(String[] a) throws Exception {{ {body} }} }}"
    );
    std::fs::write(&src, text).unwrap();
    let ok = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(dir)
        .arg(&src)
        .status()
        .unwrap();
    assert!(ok.success());
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_class_path_and_javac_work_over_9p() {
    let dir = scratch("io9p-cp");
    let jar_src = scratch("io9p-jar");
    program(
        &jar_src,
        "InJar",
        r#"System.out.println("in jar " + System.getProperty("user.dir"));"#,
    );
    let jar = Command::new("jar")
        .arg("cfe")
        .arg(dir.join("app.jar"))
        .args(["InJar", "-C"])
        .arg(&jar_src)
        .arg("InJar.class")
        .status()
        .unwrap();
    assert!(jar.success());
    std::fs::create_dir(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("src/P.java"),
        "public class P { record R(int a) {} public static void main(String[] s) { System.out.println(new R(1)); } }",
    )
    .unwrap();
    let server = gateway(&dir, &scratch("io9p-cp-sock").join("gw.sock"));
    let io = format!("--io={}", server.io);
    // Relative to the namespace's root; nothing of it is in the working directory.
    let out = jxvm()
        .args([io.as_str(), "-cp", "app.jar", "InJar"])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "in jar /\n");
    let out = jxvm()
        .args([io.as_str(), "-jar", "app.jar"])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "in jar /\n");
    // javac, run over 9P, writes the class files javac writes on the host.
    let out = jxvm()
        .args([
            io.as_str(),
            "com.sun.tools.javac.Main",
            "-d",
            "/out",
            "/src/P.java",
        ])
        .output()
        .unwrap();
    stdout(&out);
    let host = scratch("io9p-javac");
    let ok = Command::new("javac")
        .arg("-d")
        .arg(&host)
        .arg(dir.join("src/P.java"))
        .status()
        .unwrap();
    assert!(ok.success());
    for class in ["P.class", "P$R.class"] {
        let a = std::fs::read(host.join(class)).unwrap();
        let b = std::fs::read(dir.join("out").join(class)).unwrap();
        assert!(a == b, "{class} differs");
    }
}

#[test]
fn symbolic_links_stay_in_the_namespace() {
    let top = scratch("io9p-links");
    std::fs::write(top.join("secret.txt"), "host secret\n").unwrap();
    let dir = top.join("exp");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/inside.txt"), "inside\n").unwrap();
    std::fs::write(dir.join("secret.txt"), "namespace file\n").unwrap();
    let link =
        |target: &Path, name: &str| std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
    link(Path::new("../secret.txt"), "up");
    link(&top.join("secret.txt"), "abs");
    link(Path::new("sub/inside.txt"), "ok");
    link(Path::new("/sub/inside.txt"), "rooted");
    link(Path::new("loop1"), "loop2");
    link(Path::new("loop2"), "loop1");
    program(
        &dir,
        "Links",
        r#"for (String n : new String[] {"ok", "rooted", "up", "abs", "../secret.txt", "sub/../../../secret.txt", "loop1"}) {
             try { System.out.println(n + ": " + Files.readString(Path.of(n)).trim() + " " + Path.of(n).toRealPath()); }
             catch (IOException e) { System.out.println(n + ": " + e.getClass().getSimpleName()); } }"#,
    );
    let server = gateway(&dir, &scratch("io9p-links-sock").join("gw.sock"));
    let out = jxvm()
        .arg(format!("--io={}", server.io))
        .arg("Links")
        .output()
        .unwrap();
    // A link is resolved in the namespace: `..` stops at its root, an absolute target
    // starts there, so nothing reaches the host's secret.
    assert_eq!(
        stdout(&out),
        "ok: inside /sub/inside.txt\n\
         rooted: inside /sub/inside.txt\n\
         up: namespace file /secret.txt\n\
         abs: NoSuchFileException\n\
         ../secret.txt: namespace file /secret.txt\n\
         sub/../../../secret.txt: namespace file /secret.txt\n\
         loop1: FileSystemException\n",
        "{} must not be reached",
        top.join("secret.txt").display()
    );
}

/// An export with `data.txt` and a program that says "ready", waits for a line on its
/// input, then reads `data.txt` and creates a file, printing the exceptions.
fn waiting_program(tag: &str) -> PathBuf {
    let dir = scratch(tag);
    std::fs::write(dir.join("data.txt"), "first\nsecond\n").unwrap();
    program(
        &dir,
        "Waits",
        r#"System.out.println("ready"); System.out.flush();
           new BufferedReader(new InputStreamReader(System.in)).readLine();
           try { System.out.println(Files.readString(Path.of("data.txt"))); }
           catch (IOException e) { System.out.println("nio: " + e); }
           try (var out = new FileOutputStream("new.txt")) { out.write(1); }
           catch (IOException e) { System.out.println("io: " + e); }"#,
    );
    dir
}

/// Runs `Waits` over `io`; once it is ready, `between` breaks the server, then the program
/// goes on. Its output after "ready", which must come within a minute.
fn after_breaking(io: &str, between: impl FnOnce()) -> String {
    let mut vm = jxvm()
        .arg(format!("--io={io}"))
        .arg("Waits")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(vm.stdout.take().unwrap());
    let mut line = String::new();
    lines.read_line(&mut line).unwrap();
    assert_eq!(line, "ready\n");
    between();
    vm.stdin.take().unwrap().write_all(b"go\n").unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = vm.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = vm.kill();
            panic!("jxvm hangs after its server broke");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut lines, &mut rest).unwrap();
    assert!(status.success(), "{rest}");
    rest
}

/// What `Waits` prints when its server is gone.
const SERVER_GONE: &str = "nio: java.nio.file.FileSystemException: data.txt: Input/output error\n\
                           io: java.io.FileNotFoundException: new.txt (Input/output error)\n";

#[test]
fn a_killed_gateway_is_an_io_exception_not_a_hang() {
    let dir = waiting_program("io9p-kill");
    let mut server = gateway(&dir, &scratch("io9p-kill-sock").join("gw.sock"));
    let io = server.io.clone();
    let out = after_breaking(&io, || {
        server.child.kill().unwrap();
        server.child.wait().unwrap();
    });
    assert_eq!(out, SERVER_GONE);
}

/// Forwards connections on `front` to the gateway at `back`; once `corrupt` is set, the next
/// reply of each connection is replaced by `bad`, after which the connection is closed when
/// `close` says so (else it stays open, silent).
fn corrupting_proxy(
    front: &Path,
    back: PathBuf,
    corrupt: Arc<AtomicBool>,
    bad: &'static [u8],
    close: bool,
) {
    let listener = UnixListener::bind(front).unwrap();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { return };
            let server = UnixStream::connect(&back).unwrap();
            let (mut c_in, mut s_out) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || std::io::copy(&mut c_in, &mut s_out));
            let (mut s_in, mut c_out, corrupt) = (server, client, corrupt.clone());
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 1 << 20];
                while let Ok(n) = std::io::Read::read(&mut s_in, &mut buf) {
                    if n == 0 {
                        return;
                    }
                    if corrupt.load(Ordering::SeqCst) {
                        let _ = c_out.write_all(bad);
                        if close {
                            let _ = c_out.shutdown(std::net::Shutdown::Both);
                        } else {
                            std::thread::park();
                        }
                        return;
                    }
                    if c_out.write_all(&buf[..n]).is_err() {
                        return;
                    }
                }
            });
        }
    });
}

/// `Waits` over a proxy that, once the program is ready, answers with `bad`.
fn with_bad_reply(tag: &str, bad: &'static [u8], close: bool) -> String {
    let dir = waiting_program(tag);
    let socks = scratch(&format!("{tag}-sock"));
    let _server = gateway(&dir, &socks.join("gw.sock"));
    let corrupt = Arc::new(AtomicBool::new(false));
    let (front, back) = (socks.join("proxy.sock"), socks.join("gw.sock"));
    corrupting_proxy(&front, back, corrupt.clone(), bad, close);
    let io = format!("9p:unix:{}", front.display());
    after_breaking(&io, || corrupt.store(true, Ordering::SeqCst))
}

#[test]
fn a_malformed_or_truncated_reply_is_an_io_exception_not_a_crash() {
    // A whole frame of an unknown type, the connection left open.
    let unknown = with_bad_reply("io9p-unknown", &[9, 0, 0, 0, 0xee, 1, 0, 9, 9], false);
    assert_eq!(unknown, SERVER_GONE);
    // A frame cut short by the connection's end.
    let cut = with_bad_reply("io9p-cut", &[40, 0, 0, 0, 117, 1, 0], true);
    assert_eq!(cut, SERVER_GONE);
}

#[test]
fn bad_io_values_and_unreachable_servers_are_one_line_errors() {
    let dir = scratch("io9p-errors");
    for (arg, want) in [
        ("--io=nfs:x", "Error: bad --io value `nfs:x`"),
        ("--io=9p:udp:x", "Error: --io: bad 9P address `udp:x`"),
        (
            "--io=9p:unix:/s,stream=on",
            "Error: --io: stream=on is not implemented yet",
        ),
        (
            "--io=9p:unix:/s,cache=yes",
            "Error: --io: unknown option `cache=yes`",
        ),
    ] {
        let out = jxvm().args([arg, "Main"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{arg}: {err}");
        assert!(err.starts_with(want), "{arg}: {err}");
        assert_eq!(err.lines().count(), 1, "{arg}: {err}");
    }
    let sock = dir.join("nobody.sock");
    let out = jxvm()
        .arg(format!("--io=9p:unix:{}", sock.display()))
        .arg("Main")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("Error: --io=9p:unix:"), "{err}");
    assert!(err.contains("cannot connect to the 9P server"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_system_description_gives_each_domain_its_backend() {
    let top = scratch("io9p-system");
    let export = top.join("exp");
    std::fs::create_dir_all(export.join("classes")).unwrap();
    std::fs::create_dir_all(top.join("classes")).unwrap();
    std::fs::write(export.join("data.txt"), "from the namespace").unwrap();
    // Two classes of one name: each domain must load its own, from its own files.
    program(
        &export.join("classes"),
        "Where",
        r#"System.out.println("9p domain: user.dir " + System.getProperty("user.dir") + ", " + Files.readString(Path.of("/data.txt")));"#,
    );
    program(
        &top.join("classes"),
        "Where",
        r#"System.out.println("host domain: data.txt here " + Files.exists(Path.of("/data.txt")));"#,
    );
    let server = gateway(&export, &top.join("gw.sock"));
    let toml = format!(
        "[[domain]]\nname = \"ns\"\nclass-path = [\"classes\"]\nio = \"{}\"\n\
         [[domain.component]]\nmain = \"Where\"\n\
         [[domain]]\nname = \"host\"\nclass-path = [\"classes\"]\n\
         [[domain.component]]\nmain = \"Where\"\n",
        server.io
    );
    std::fs::write(top.join("sys.toml"), toml).unwrap();
    let out = jxvm()
        .arg("--system")
        .arg(top.join("sys.toml"))
        .output()
        .unwrap();
    let mut lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "9p domain: user.dir /, from the namespace",
            "host domain: data.txt here false"
        ]
    );
}

#[test]
fn file_locks_of_two_vms_over_one_gateway_conflict() {
    let dir = scratch("io9p-locks");
    program(
        &dir,
        "Locker",
        r#"var ch = java.nio.channels.FileChannel.open(Path.of("lock.bin"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
           if (a[0].equals("hold")) {
               var l = ch.lock(0, 100, false);
               System.out.println("held " + l.isValid()); System.out.flush();
               new BufferedReader(new InputStreamReader(System.in)).readLine();
               l.release(); System.out.println("released");
           } else {
               System.out.println("try exclusive " + ch.tryLock(50, 10, false));
               var l = ch.tryLock(100, 10, false);
               System.out.println("try beyond " + (l != null && l.isValid()));
           }"#,
    );
    let server = gateway(&dir, &scratch("io9p-locks-sock").join("gw.sock"));
    let io = format!("--io={}", server.io);
    let mut holder = jxvm()
        .args([io.as_str(), "Locker", "hold"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(holder.stdout.take().unwrap());
    let mut line = String::new();
    lines.read_line(&mut line).unwrap();
    assert_eq!(line, "held true\n");
    let other = jxvm()
        .args([io.as_str(), "Locker", "try"])
        .output()
        .unwrap();
    assert_eq!(stdout(&other), "try exclusive null\ntry beyond true\n");
    holder.stdin.take().unwrap().write_all(b"done\n").unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut lines, &mut rest).unwrap();
    assert_eq!(rest, "released\n");
    assert!(holder.wait().unwrap().success());
}

/// The conformance programs that use TCP sockets and pass over the gateway's `/net`
/// (selectors, asynchronous channels and pipes are made in the process). Left out:
/// NetInterrupts and NetDatagrams use datagrams, which do not go over 9P.
const SOCKET_PROGRAMS: &[&str] = &["NetSockets", "NetChannels", "AsyncSockets"];

#[test]
fn socket_programs_over_the_gateway_net_match_hotspot() {
    let dir = export_with(SOCKET_PROGRAMS);
    let sock = scratch("io9p-net-sock").join("gw.sock");
    let server = gateway_with(&dir, &sock, &["--net"]);
    assert_eq!(
        compare(&dir, &server, SOCKET_PROGRAMS),
        Vec::<String>::new()
    );
}

/// A host echo server on loopback: each line comes back as `ECHO:` and the line upper-cased.
fn host_echo_server() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for c in l.incoming() {
            let Ok(c) = c else { return };
            std::thread::spawn(move || {
                let mut out = c.try_clone().unwrap();
                for line in BufReader::new(c).lines() {
                    let Ok(line) = line else { return };
                    let _ = writeln!(out, "ECHO:{}", line.to_uppercase());
                }
            });
        }
    });
    port
}

/// Lines the host sends to the Java echo server: enough to pass the client's read-ahead
/// limit several times over.
fn echo_lines() -> Vec<String> {
    (0..20000)
        .map(|i| format!("line {i} {}", "x".repeat(i % 50)))
        .collect()
}

/// Runs `cmd` (the `Echo` program): it talks to the host's echo server at `port`, then
/// listens; the host connects, sends [`echo_lines`], half-closes and checks every echo. The
/// program's output.
fn run_echo(mut cmd: Command, port: u16) -> String {
    let mut vm = cmd
        .arg(port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(vm.stdout.take().unwrap());
    let mut transcript = String::new();
    let listening = loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "{transcript}");
        if let Some(p) = line.trim().strip_prefix("listening on ") {
            break p.parse::<u16>().unwrap();
        }
        transcript += &line;
    };
    let peer = std::net::TcpStream::connect(("127.0.0.1", listening)).unwrap();
    peer.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let reader = peer.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(&peer);
        for l in echo_lines() {
            writeln!(w, "{l}").unwrap();
        }
        w.flush().unwrap();
        peer.shutdown(std::net::Shutdown::Write).unwrap();
    });
    let got: Vec<String> = BufReader::new(reader).lines().map(Result::unwrap).collect();
    sender.join().unwrap();
    let want: Vec<String> = echo_lines().iter().map(|l| format!("echo {l}")).collect();
    assert!(got == want, "{} echoes, {} sent", got.len(), want.len());
    std::io::Read::read_to_string(&mut out, &mut transcript).unwrap();
    let status = vm.wait().unwrap();
    assert!(status.success(), "{transcript}");
    transcript
}

#[test]
fn a_socket_echo_between_jxvm_over_net_and_a_host_peer() {
    let dir = scratch("io9p-echo");
    program(
        &dir,
        "Echo",
        r#"var lo = java.net.InetAddress.getLoopbackAddress();
           try (var s = new java.net.Socket("localhost", Integer.parseInt(a[0]))) {
               var out = new PrintWriter(s.getOutputStream(), true);
               var in = new BufferedReader(new InputStreamReader(s.getInputStream()));
               for (int i = 0; i < 3; i++) { out.println("hello " + i); System.out.println("host says " + in.readLine()); }
               System.out.println("remote loopback " + s.getInetAddress().isLoopbackAddress() + ", available " + s.getInputStream().available());
           }
           try (var ss = new java.net.ServerSocket(0, 5, lo)) {
               System.out.println("listening on " + ss.getLocalPort()); System.out.flush();
               try (var c = ss.accept()) {
                   var in = new BufferedReader(new InputStreamReader(c.getInputStream()));
                   var out = new BufferedOutputStream(c.getOutputStream());
                   String l; int n = 0;
                   while ((l = in.readLine()) != null) { out.write(("echo " + l + "\n").getBytes()); n++; }
                   out.flush();
                   System.out.println("echoed " + n + " lines");
               }
           }"#,
    );
    let port = host_echo_server();
    let mut hotspot = Command::new("java");
    hotspot.args(["-cp", ".", "Echo"]).current_dir(&dir);
    let want = run_echo(hotspot, port);
    let server = gateway_with(&dir, &scratch("io9p-echo-sock").join("gw.sock"), &["--net"]);
    let mut vm = jxvm();
    vm.arg(format!("--io={}", server.io))
        .arg("Echo")
        .current_dir(std::env::temp_dir());
    assert_eq!(run_echo(vm, port), want);
}

#[test]
fn sockets_fail_cleanly_without_net() {
    let dir = scratch("io9p-nonet");
    program(
        &dir,
        "NoNet",
        r#"var lo = java.net.InetAddress.getLoopbackAddress();
           try (var s = new java.net.Socket(lo, 9)) { System.out.println("connected?!"); }
           catch (IOException e) { System.out.println("socket: " + e); }
           try (var s = new java.net.ServerSocket(0, 5, lo)) { System.out.println("listening?!"); }
           catch (IOException e) { System.out.println("server socket: " + e); }
           try (var c = java.nio.channels.SocketChannel.open()) { System.out.println("channel?!"); }
           catch (IOException e) { System.out.println("channel: " + e); }
           try { java.net.InetAddress.getByName("example.com"); System.out.println("resolved?!"); }
           catch (IOException e) { System.out.println("lookup: " + e.getClass().getName()); }"#,
    );
    let server = gateway(&dir, &scratch("io9p-nonet-sock").join("gw.sock"));
    let out = jxvm()
        .arg(format!("--io={}", server.io))
        .arg("NoNet")
        .output()
        .unwrap();
    // Refused as a sandbox refuses sockets; nothing reaches the host's network.
    assert_eq!(
        stdout(&out),
        "socket: java.net.SocketException: Operation not permitted\n\
         server socket: java.net.SocketException: Operation not permitted\n\
         channel: java.net.SocketException: Operation not permitted\n\
         lookup: java.net.UnknownHostException\n"
    );
}

/// A Unix socket server that accepts connections and never answers.
fn silent_server(sock: &Path) {
    let l = UnixListener::bind(sock).unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in l.incoming() {
            held.push(c);
        }
    });
}

#[test]
fn a_silent_server_times_out_with_an_error() {
    let dir = scratch("io9p-silent");
    let sock = dir.join("silent.sock");
    silent_server(&sock);
    let start = Instant::now();
    let out = jxvm()
        .arg(format!("--io=9p:unix:{},timeout=2", sock.display()))
        .arg("Main")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("9P server gave no reply in 2 s"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(start.elapsed() < Duration::from_secs(30));
    // A server that goes silent under a running program: the connection is given up after
    // the timeout (the first request to time out may be a class load's), as if the server
    // were gone.
    assert_eq!(with_silent_server("io9p-silent-later"), SERVER_GONE);
}

/// `Waits` over a proxy that, once the program is ready, stops answering; 2 s timeout.
fn with_silent_server(tag: &str) -> String {
    let dir = waiting_program(tag);
    let socks = scratch(&format!("{tag}-sock"));
    let _server = gateway(&dir, &socks.join("gw.sock"));
    let corrupt = Arc::new(AtomicBool::new(false));
    let (front, back) = (socks.join("proxy.sock"), socks.join("gw.sock"));
    corrupting_proxy(&front, back, corrupt.clone(), b"", false);
    let io = format!("9p:unix:{},timeout=2", front.display());
    after_breaking(&io, || corrupt.store(true, Ordering::SeqCst))
}

#[test]
fn the_net_tree_serves_diods_tools() {
    let dir = scratch("io9p-diodtools");
    let sock = scratch("io9p-diodtools-sock").join("gw.sock");
    let _server = gateway_with(&dir, &sock, &["--net"]);
    let tool = |name: &str, args: &[&str]| {
        let bin = format!("/usr/sbin/{name}");
        assert!(
            Path::new(&bin).exists(),
            "{name} is not installed: run scripts/ensure-diod.sh"
        );
        let out = Command::new(bin)
            .arg("-s")
            .arg(&sock)
            .args(["-a", "#net"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name} {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(tool("diodls", &["/"]), "cs\ntcp\n");
    // Opening clone makes conversation 0; it ends when diodcat clunks it, so the next open
    // makes 0 again.
    assert_eq!(tool("diodcat", &["tcp/clone"]), "0");
    assert_eq!(tool("diodcat", &["tcp/clone"]), "0");
    assert_eq!(tool("diodls", &["tcp"]), "clone\n");
    // Without --net, the attach name is unknown.
    let plain = scratch("io9p-diodtools-plain").join("gw.sock");
    let _plain = gateway(&dir, &plain);
    let out = Command::new("/usr/sbin/diodls")
        .arg("-s")
        .arg(&plain)
        .args(["-a", "#net", "/"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn xlog_9p_prints_a_line_per_request_that_the_gateways_stats_agree_with() {
    let dir = scratch("io9p-xlog");
    program(
        &dir,
        "Logged",
        r#"System.out.println(Files.readString(Path.of("/data.txt")).length());"#,
    );
    std::fs::write(dir.join("data.txt"), "x".repeat(100_000)).unwrap();
    // Settled before the first run (the file cache reads a file changed within the last
    // second around itself), so both runs make the same requests.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let sock = scratch("io9p-xlog-sock").join("gw.sock");
    let mut gw = jxvm()
        .args(["gateway", "--stats", "--export"])
        .arg(&dir)
        .arg("--listen")
        .arg(format!("unix:{}", sock.display()))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut gw_err = BufReader::new(gw.stderr.take().unwrap());
    let mut first = String::new();
    gw_err.read_line(&mut first).unwrap();
    assert!(first.starts_with("jxvm gateway: serving "), "{first}");
    let io = format!("--io=9p:unix:{}", sock.display());
    let out = jxvm()
        .args(["-Xlog:9p", io.as_str(), "Logged"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "100000\n");
    let log = String::from_utf8_lossy(&out.stderr);
    // [9p] Tread tag=3 fid=1 size=23 -> Rread size=4107 0.050 ms
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    for line in log.lines() {
        let w: Vec<&str> = line.split(' ').collect();
        assert!(
            w.len() == 10
                && w[0] == "[9p]"
                && w[1].starts_with('T')
                && w[2].starts_with("tag=")
                && w[3].starts_with("fid=")
                && w[4].starts_with("size=")
                && w[5] == "->"
                && w[6].starts_with('R')
                && w[7].starts_with("size=")
                && w[8].parse::<f64>().is_ok()
                && w[9] == "ms",
            "{line}"
        );
        *counts.entry(w[1].to_string()).or_default() += 1;
    }
    assert!(counts.get("Tread").is_some_and(|&n| n >= 2), "{log}");
    // Without the flag, nothing.
    let quiet = jxvm().args([io.as_str(), "Logged"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("[9p]"));
    // The gateway counted the same requests of each type (plus the quiet run's and the
    // version negotiations, which come before the log can time a request).
    let killed = Command::new("kill")
        .args(["-TERM", &gw.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut stats = String::new();
    std::io::Read::read_to_string(&mut gw_err, &mut stats).unwrap();
    gw.wait().unwrap();
    let served: std::collections::BTreeMap<&str, u64> = stats
        .lines()
        .skip(1)
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Some((*w.first()?, w.get(1)?.parse().ok()?))
        })
        .collect();
    for (ty, n) in &counts {
        let got = served.get(ty.as_str()).copied().unwrap_or(0);
        assert_eq!(
            got,
            2 * n,
            "{ty}: logged {n} (twice over two runs), served {got}"
        );
    }
}

/// Java's `Arrays.hashCode(byte[])`.
fn java_hash(b: &[u8]) -> i32 {
    b.iter().fold(1i32, |h, &x| {
        h.wrapping_mul(31).wrapping_add(i32::from(x as i8))
    })
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(seed | 1).wrapping_add(seed) ^ (i >> 16) as u8)
        .collect()
}

/// A program that reads `/data.bin` whole, in 1 KiB and 1 MiB reads and at random places,
/// checks that they agree, and prints its length and hash; again for each line of its input
/// until `end`, printing `ready` when it waits.
fn rereading_program(dir: &Path) {
    program(
        dir,
        "Rereads",
        r#"var in = new BufferedReader(new InputStreamReader(System.in));
           String line = "start";
           do {
               byte[] all = Files.readAllBytes(Path.of("/data.bin"));
               boolean same = true;
               for (int buf : new int[] { 1000, 1 << 20 }) {
                   try (var s = new FileInputStream("/data.bin")) {
                       var out = new ByteArrayOutputStream();
                       byte[] b = new byte[buf];
                       int n;
                       while ((n = s.read(b)) > 0) out.write(b, 0, n);
                       same &= java.util.Arrays.equals(all, out.toByteArray());
                   }
               }
               try (var f = new RandomAccessFile("/data.bin", "r")) {
                   long seed = 7;
                   byte[] b = new byte[70000];
                   for (int i = 0; i < 200; i++) {
                       seed = seed * 6364136223846793005L + 1442695040888963407L;
                       int at = (int) Math.floorMod(seed >>> 20, (long) all.length + 100);
                       int len = 1 + (int) Math.floorMod(seed >>> 7, 70000L);
                       f.seek(at);
                       int n = f.read(b, 0, len);
                       int want = Math.max(0, Math.min(len, all.length - at));
                       if (want == 0) same &= n == -1;
                       else same &= n > 0 && n <= want && java.util.Arrays.equals(
                           b, 0, n, all, at, at + n);
                   }
               }
               System.out.println(line + " " + all.length + " " + java.util.Arrays.hashCode(all)
                   + " " + (same ? "agree" : "differ"));
               System.out.println("ready");
               System.out.flush();
           } while ((line = in.readLine()) != null && !line.equals("end"));"#,
    );
}

/// Runs `Rereads` over `io` while another writer changes `/data.bin` on the host between its
/// rounds; every round must print the file as it is then.
fn rereads_see_every_change(dir: &Path, io: &str) {
    let data = dir.join("data.bin");
    let v1 = pattern(2_500_000, 1);
    std::fs::write(&data, &v1).unwrap();
    // Old enough for its blocks to be kept.
    std::thread::sleep(Duration::from_millis(1100));
    let mut vm = jxvm()
        .arg(format!("--io={io}"))
        .arg("Rereads")
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = vm.stdin.take().unwrap();
    let mut lines = BufReader::new(vm.stdout.take().unwrap());
    let mut round = |tag: &str, want: &[u8]| {
        if tag != "start" {
            writeln!(stdin, "{tag}").unwrap();
        }
        let mut line = String::new();
        lines.read_line(&mut line).unwrap();
        let expect = format!("{tag} {} {} agree\n", want.len(), java_hash(want));
        assert_eq!(line, expect, "{io}");
        line.clear();
        lines.read_line(&mut line).unwrap();
        assert_eq!(line, "ready\n");
    };
    let settle = || std::thread::sleep(Duration::from_millis(1200));
    round("start", &v1);
    round("again", &v1);
    // The same size, changed and settled: the blocks cached of v1 must not be served.
    let v2 = pattern(2_500_000, 2);
    std::fs::write(&data, &v2).unwrap();
    settle();
    round("same-size", &v2);
    round("same-size-again", &v2);
    // Grown, read at once (changed within the last second).
    let v3 = pattern(3_000_001, 3);
    std::fs::write(&data, &v3).unwrap();
    round("grown", &v3);
    settle();
    round("grown-settled", &v3);
    let v4 = pattern(70_000, 4);
    std::fs::write(&data, &v4).unwrap();
    settle();
    round("shrunk", &v4);
    std::fs::write(&data, b"").unwrap();
    settle();
    round("empty", b"");
    writeln!(stdin, "end").unwrap();
    drop(stdin);
    assert!(vm.wait().unwrap().success());
}

#[test]
fn the_file_cache_gives_the_files_bytes_and_never_a_stale_file() {
    let dir = scratch("io9p-cache");
    rereading_program(&dir);
    let server = gateway(&dir, &scratch("io9p-cache-sock").join("gw.sock"));
    rereads_see_every_change(&dir, &server.io);
    rereads_see_every_change(&dir, &format!("{},cache=on", server.io));
    rereads_see_every_change(&dir, &format!("{},cache=off", server.io));
}

#[test]
fn cached_reads_ask_the_server_far_less() {
    let dir = scratch("io9p-cache-log");
    rereading_program(&dir);
    std::fs::write(dir.join("data.bin"), pattern(1_000_000, 1)).unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    let server = gateway(&dir, &scratch("io9p-cache-log-sock").join("gw.sock"));
    let treads = |opt: &str| {
        let mut vm = jxvm()
            .arg(format!("--io={}{opt}", server.io))
            .args(["-Xlog:9p", "Rereads"])
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        vm.stdin.take().unwrap().write_all(b"again\nend\n").unwrap();
        let out = vm.wait_with_output().unwrap();
        let text = stdout(&out);
        assert!(
            text.contains("again 1000000 ") && !text.contains("differ"),
            "{text}"
        );
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.starts_with("[9p] Tread "))
            .count()
    };
    let (on, off) = (treads(""), treads(",cache=off"));
    assert!(on * 4 < off, "Treads with the cache {on}, without {off}");
}

/// Runs `Dumped` over `io` with the cache dump `dump`, with `-Xlog:9p`: its output, the
/// number of `Tread`s it sent, and its stderr without the log.
fn run_with_dump(io: &str, dump: &Path) -> (String, usize, String) {
    let out = jxvm()
        .arg("-Xlog:9p")
        .arg(format!("--io={io},cachedump={}", dump.display()))
        .arg("Dumped")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let treads = err.lines().filter(|l| l.starts_with("[9p] Tread ")).count();
    let rest: Vec<&str> = err.lines().filter(|l| !l.starts_with("[9p]")).collect();
    (stdout(&out), treads, rest.join("\n"))
}

#[test]
fn a_cache_dump_starts_the_next_vm_warm_and_never_stale() {
    let dir = scratch("io9p-dump");
    program(
        &dir,
        "Dumped",
        r#"byte[] b = Files.readAllBytes(Path.of("/data.bin"));
           System.out.println(b.length + " " + java.util.Arrays.hashCode(b));"#,
    );
    let expect = |b: &[u8]| format!("{} {}\n", b.len(), java_hash(b));
    let first = pattern(1_500_000, 3);
    std::fs::write(dir.join("data.bin"), &first).unwrap();
    // The cache keeps no blocks of files changed within the last second.
    std::thread::sleep(Duration::from_millis(1100));
    let sock = scratch("io9p-dump-sock").join("gw.sock");
    let gw = gateway(&dir, &sock);
    let dump = scratch("io9p-dump-file").join("cache.dump");

    // The first run reads from the server and writes the dump at exit.
    let (out, treads, err) = run_with_dump(&gw.io, &dump);
    assert_eq!(out, expect(&first));
    assert!(treads > 0 && err.is_empty(), "{treads} {err}");
    assert!(std::fs::metadata(&dump).unwrap().len() > first.len() as u64);
    // The next starts warm: the file and the program's class come from the dump, checked
    // against the server's stamp (Tgetattr) but never read.
    let (out, treads, err) = run_with_dump(&gw.io, &dump);
    assert_eq!(out, expect(&first));
    assert_eq!((treads, err.as_str()), (0, ""));

    // A file changed between runs (same size) is read anew, never served from the dump.
    let second = pattern(first.len(), 7);
    std::fs::write(dir.join("data.bin"), &second).unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    let (out, treads, _) = run_with_dump(&gw.io, &dump);
    assert_eq!(out, expect(&second));
    assert!(treads > 0);

    // A corrupt, truncated or foreign dump is reported once and ignored.
    let good = std::fs::read(&dump).unwrap();
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x40;
    let other_sock = scratch("io9p-dump-sock2").join("gw.sock");
    let other = gateway(&dir, &other_sock);
    let cases: [(&[u8], &str, &str); 4] = [
        (b"not a dump at all", &gw.io, "not a jxvm 9P cache dump"),
        (&flipped, &gw.io, "checksum mismatch"),
        (&good[..good.len() / 3], &gw.io, "checksum mismatch"),
        (&good, &other.io, "made for another server"),
    ];
    for (bytes, io, why) in cases {
        std::fs::write(&dump, bytes).unwrap();
        let (out, treads, err) = run_with_dump(io, &dump);
        assert_eq!(out, expect(&second));
        assert!(treads > 0);
        let reports = err
            .lines()
            .filter(|l| l.starts_with("jxvm: 9P cache dump "));
        assert_eq!(reports.count(), 1, "{err}");
        assert!(err.contains(why) && err.contains("ignored"), "{err}");
        // ... and replaced by a good one at exit.
        let (_, treads, err) = run_with_dump(io, &dump);
        assert_eq!((treads, err.as_str()), (0, ""));
    }
}
