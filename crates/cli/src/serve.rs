//! The fork server (`jxvm serve`) and its client (`jxvm --via SOCKET ...`, or `JXVM_SERVER`):
//! Tati & Voelker's skeleton process. The server boots a VM once (`Options::fork_server`:
//! it starts no other thread while booting), then waits on a Unix socket private to its user;
//! for each client it forks a child that takes over the client's command line, working
//! directory, environment and stdin/stdout/stderr (passed with `SCM_RIGHTS`) and runs the
//! program. The server reports the child's end (exit code or signal) to the client, which
//! ends the same way; the client forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT to the child.
//! A child that cannot run the program as a plain run would (options that change how the VM
//! boots, an environment that changes properties fixed at boot: `vm::embed::Launcher::adopt`
//! decides) says so, and the client runs it itself, as it does when no server answers.
//!
//! The protocol (one connection per run): the client sends `u32` length, then the request
//! (magic, argument count and arguments, working directory, variable count and `KEY=VALUE`
//! variables, each a `u32` length and bytes; then the ignored signals as a `u64` mask, the
//! umask as a `u32` and the resource limits of `LIMITS` as `u64` pairs), with its fds 0, 1, 2
//! attached to the first bytes. The server answers `P` pid (`i32`) once it forked, and `X` exit code or `S` signal
//! number (`i32`) when the child ended; the child itself sends `F`, a length and its reason
//! instead of running. All integers are little-endian.
//!
//! Owns the socket, the protocol, the fork and the server's and client's signal handling;
//! the VM's side of a fork (what is safe to fork, what a child takes over) is `vm::embed`'s.
//! The server's loop is single-threaded so that the process stays safe to fork.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use vm::embed::{ForkClient, Launcher, Options};

use crate::args::{self, Command};

const MAGIC: &[u8; 8] = b"jxvmfrk1";
/// The largest request a server reads (arguments and environment).
const MAX_REQUEST: usize = 16 << 20;

/// The socket a client uses: `--via PATH` (given), else `JXVM_SERVER`.
pub fn via_socket(given: Option<OsString>) -> Option<PathBuf> {
    given
        .or_else(|| std::env::var_os("JXVM_SERVER"))
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
}

/// The default socket: `$XDG_RUNTIME_DIR/jxvm/serve.sock`, else `/tmp/jxvm-UID/serve.sock`.
pub fn default_socket() -> PathBuf {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d).join("jxvm"),
        // SAFETY: getuid has no preconditions and cannot fail.
        None => std::env::temp_dir().join(format!("jxvm-{}", unsafe { libc::getuid() })),
    };
    dir.join("serve.sock")
}

// ---------------------------------------------------------------------------------------
// The client.

/// How a run through a server ended, or why the client must run the program itself.
pub enum Via {
    Ended(ExitCode),
    /// No server answers, or the child said why it cannot run the program.
    Fallback(String),
}

/// Runs `argv` (java's command line, without `--via`) through the server at `socket`.
pub fn run_via(socket: &Path, argv: &[OsString]) -> Via {
    let log = std::env::var_os("JXVM_VIA_LOG").is_some_and(|v| v != "0");
    let r = run_via_inner(socket, argv, log);
    if log {
        match &r {
            Via::Ended(_) => {}
            Via::Fallback(why) => eprintln!("jxvm: --via: running in-process: {why}"),
        }
    }
    r
}

fn run_via_inner(socket: &Path, argv: &[OsString], log: bool) -> Via {
    let mut conn = match UnixStream::connect(socket) {
        Ok(c) => c,
        Err(e) => return Via::Fallback(format!("no server at {}: {e}", socket.display())),
    };
    match peer_uid(conn.as_raw_fd()) {
        // SAFETY: getuid has no preconditions and cannot fail.
        Some(uid) if uid == unsafe { libc::getuid() } => {}
        _ => return Via::Fallback("the server belongs to another user".into()),
    }
    let cwd = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => return Via::Fallback(format!("no working directory: {e}")),
    };
    let request = encode_request(argv, &cwd);
    if let Err(e) = send_with_fds(conn.as_raw_fd(), &request, &[0, 1, 2]) {
        return Via::Fallback(format!("cannot send the request: {e}"));
    }
    let mut forward = Forwarding::install();
    let mut pid: i32 = 0;
    loop {
        // Wait for the server's next message or a signal to forward.
        let mut fds = [
            libc::pollfd {
                fd: conn.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: forward.read_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: `fds` is a live array of two pollfd.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if n < 0 {
            continue; // EINTR: a signal came; its byte is in the pipe.
        }
        if fds[1].revents != 0 {
            for sig in forward.drain() {
                if pid > 0 {
                    // SAFETY: kill has no memory preconditions; the child is ours (same user).
                    unsafe { libc::kill(pid, sig) };
                } else {
                    forward.pending.push(sig);
                }
            }
        }
        if fds[0].revents == 0 {
            continue;
        }
        let mut tag = [0u8; 1];
        if conn.read_exact(&mut tag).is_err() {
            drop(forward);
            if pid == 0 {
                return Via::Fallback("the server closed the connection".into());
            }
            // Both the server and the child have closed it: the program ended, but only the
            // server could have said how.
            eprintln!("jxvm: --via: the fork server ended; the program's exit code is lost");
            return Via::Ended(ExitCode::from(1));
        }
        let Some(v) = read_i32(&mut conn) else {
            eprintln!("jxvm: --via: the fork server's answer was cut short");
            return Via::Ended(ExitCode::from(1));
        };
        match tag[0] {
            b'P' => {
                pid = v;
                if log {
                    eprintln!("jxvm: --via: forked as pid {pid}");
                }
                // Signals that came before the pid was known.
                for sig in forward.drain_pending() {
                    // SAFETY: as above.
                    unsafe { libc::kill(pid, sig) };
                }
            }
            b'F' => {
                let mut why = vec![0u8; (v.max(0) as usize).min(4096)];
                let _ = conn.read_exact(&mut why);
                return Via::Fallback(String::from_utf8_lossy(&why).into_owned());
            }
            b'X' => return Via::Ended(ExitCode::from(v as u8)),
            b'S' => {
                drop(forward);
                // Ends the way the child ended: by the same signal.
                let _ = port::set_signal_action(v, port::SetSignal::Default);
                // SAFETY: raise has no memory preconditions.
                unsafe { libc::raise(v) };
                return Via::Ended(ExitCode::from((128 + v) as u8));
            }
            _ => {
                eprintln!("jxvm: --via: the fork server sent an unknown answer");
                return Via::Ended(ExitCode::from(1));
            }
        }
    }
}

fn encode_request(argv: &[OsString], cwd: &Path) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(MAGIC);
    put_list(&mut body, argv.iter().map(|a| a.as_bytes()));
    put_bytes(&mut body, cwd.as_os_str().as_bytes());
    let env: Vec<Vec<u8>> = std::env::vars_os()
        .map(|(k, v)| [k.as_bytes(), b"=", v.as_bytes()].concat())
        .collect();
    put_list(&mut body, env.iter().map(|e| e.as_slice()));
    body.extend_from_slice(&ignored_signals().to_le_bytes());
    // SAFETY: umask has no preconditions; the mask is put back at once.
    let mask = unsafe {
        let m = libc::umask(0o022);
        libc::umask(m);
        m
    };
    body.extend_from_slice(&mask.to_le_bytes());
    for res in LIMITS {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `l` is a live rlimit getrlimit fills.
        if unsafe { libc::getrlimit(res, &mut l) } != 0 {
            l = libc::rlimit {
                rlim_cur: libc::RLIM_INFINITY,
                rlim_max: libc::RLIM_INFINITY,
            };
        }
        body.extend_from_slice(&l.rlim_cur.to_le_bytes());
        body.extend_from_slice(&l.rlim_max.to_le_bytes());
    }
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&body);
    out
}

/// The resource limits a child takes from its client (`ulimit`), in the request's order.
const LIMITS: [libc::__rlimit_resource_t; 8] = [
    libc::RLIMIT_AS,
    libc::RLIMIT_CORE,
    libc::RLIMIT_CPU,
    libc::RLIMIT_DATA,
    libc::RLIMIT_FSIZE,
    libc::RLIMIT_NOFILE,
    libc::RLIMIT_NPROC,
    libc::RLIMIT_STACK,
];

/// The signals the calling process ignores (bit `1 << sig`): a plain run inherits them
/// ignored, so the child ignores them too.
fn ignored_signals() -> u64 {
    (1..32)
        .filter(|&sig| matches!(port::signal_action(sig), Ok(port::SignalAction::Ignore)))
        .fold(0, |m, sig| m | 1 << sig)
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

fn put_list<'a>(out: &mut Vec<u8>, items: impl ExactSizeIterator<Item = &'a [u8]>) {
    out.extend_from_slice(&(items.len() as u32).to_le_bytes());
    for i in items {
        put_bytes(out, i);
    }
}

fn read_i32(r: &mut impl Read) -> Option<i32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b).ok()?;
    Some(i32::from_le_bytes(b))
}

/// The client's handlers of the signals it forwards: each writes the signal's number to a
/// pipe the client's loop reads.
struct Forwarding {
    read: RawFd,
    pending: Vec<i32>,
    /// The signals it took (those the client did not ignore).
    taken: Vec<i32>,
}

/// Write end of the client's signal pipe (-1: none).
static FORWARD_FD: AtomicI32 = AtomicI32::new(-1);
const FORWARDED: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

extern "C" fn on_forwarded(sig: libc::c_int) {
    let fd = FORWARD_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        let b = sig as u8;
        // SAFETY: write(2) is async-signal-safe and reads one byte from a live local.
        unsafe { libc::write(fd, (&b as *const u8).cast(), 1) };
    }
}

impl Forwarding {
    fn install() -> Forwarding {
        let mut fds = [-1; 2];
        let mut taken = Vec::new();
        // SAFETY: `fds` has room for the two descriptors pipe2 stores.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } == 0 {
            FORWARD_FD.store(fds[1], Ordering::Relaxed);
            // SIGQUIT is the VM's even where the process was started with it ignored (unless
            // -Xrs, which the child then ignores again), so it is always forwarded.
            let ignored = ignored_signals() & !(1 << libc::SIGQUIT);
            for sig in FORWARDED.into_iter().filter(|s| ignored & 1 << s == 0) {
                if port::set_signal_action(sig, port::SetSignal::Call(on_forwarded)).is_ok() {
                    taken.push(sig);
                }
            }
        }
        Forwarding {
            read: fds[0],
            pending: Vec::new(),
            taken,
        }
    }

    fn read_fd(&self) -> RawFd {
        self.read
    }

    /// The signals that came since the last call.
    fn drain(&self) -> Vec<i32> {
        let mut out = Vec::new();
        let mut b = [0u8; 16];
        loop {
            // SAFETY: `b` is a live buffer of the length given.
            let n = unsafe { libc::read(self.read, b.as_mut_ptr().cast(), b.len()) };
            if n <= 0 {
                return out;
            }
            out.extend(b[..n as usize].iter().map(|&s| i32::from(s)));
        }
    }

    /// The signals that came before the child's pid was known.
    fn drain_pending(&mut self) -> Vec<i32> {
        let mut v = std::mem::take(&mut self.pending);
        v.extend(self.drain());
        v
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        for &sig in &self.taken {
            let _ = port::set_signal_action(sig, port::SetSignal::Default);
        }
        let w = FORWARD_FD.swap(-1, Ordering::Relaxed);
        for fd in [self.read, w] {
            if fd >= 0 {
                // SAFETY: both descriptors are this value's own, closed once.
                unsafe { libc::close(fd) };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The server.

/// `jxvm serve [--socket PATH] [java options]`.
pub fn main(argv: &[OsString]) -> ExitCode {
    let (socket, options) = match argv {
        [flag, path, rest @ ..] if flag == "--socket" => (PathBuf::from(path), rest),
        [flag] if flag == "--socket" => {
            eprintln!("jxvm serve: --socket needs a path");
            return ExitCode::from(2);
        }
        rest => (default_socket(), rest),
    };
    let private_dir = argv.first().is_none_or(|a| a != "--socket");
    let opts = match server_options(options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("jxvm serve: {e}");
            return ExitCode::from(2);
        }
    };
    let listener = match bind(&socket, private_dir) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("jxvm serve: {}: {e}", socket.display());
            return ExitCode::from(1);
        }
    };
    let stack = opts.stack_size;
    crate::on_main_thread(stack, move || serve(opts, listener, socket))
}

/// The VM options of a server started with java options `options` (as a plain run with the
/// same options would have them).
fn server_options(options: &[OsString]) -> Result<Options, String> {
    let mut argv = options.to_vec();
    argv.push("jxvm.Serve".into());
    let argv = crate::envopts::with_environment_options(argv)?;
    match args::parse_args(&argv)? {
        // The server starts processes: a sandbox is given to a run (`jxvm --sandbox`, which
        // then does not go through a server), not to the server.
        Command::Run(run) if run.sandbox => Err("--sandbox cannot be given to `serve`".into()),
        Command::Run(run) if run.finish == args::Finish::RunMain => {
            let mut opts = run.opts;
            opts.fork_server = true;
            Ok(opts)
        }
        _ => Err("only java's VM options may follow `serve`".into()),
    }
}

/// What of `o` fixes how the VM boots (everything but what a child takes over).
fn boot_view(o: &Options) -> String {
    let mut o = o.clone();
    o.classpath.clear();
    o.props.clear();
    o.vm_args.clear();
    o.java_command.clear();
    o.assertions = Default::default();
    o.fork_server = false;
    format!("{o:?}")
}

/// Binds `socket`, the socket itself 0600, creating its directory 0700 if it is missing (the
/// default socket's directory must be the user's and 0700). A socket no server answers on is
/// replaced; one a server answers on is an error.
fn bind(socket: &Path, private_dir: bool) -> Result<UnixListener, String> {
    let dir = socket.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir
        && !dir.exists()
    {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("cannot create its directory: {e}"))?;
    }
    // A directory given with --socket may be shared (/tmp): the socket's mode and the peers'
    // uids keep it private there.
    if let Some(dir) = dir.filter(|_| private_dir) {
        let m = std::fs::metadata(dir).map_err(|e| format!("its directory: {e}"))?;
        // SAFETY: getuid has no preconditions and cannot fail.
        if m.uid() != unsafe { libc::getuid() } {
            return Err("its directory belongs to another user".into());
        }
        if m.permissions().mode() & 0o077 != 0 {
            return Err(format!(
                "its directory {} is open to other users (it must be 0700)",
                dir.display()
            ));
        }
    }
    if UnixStream::connect(socket).is_ok() {
        return Err("a server already answers there".into());
    }
    if std::fs::symlink_metadata(socket).is_ok_and(|m| m.file_type().is_socket_like()) {
        std::fs::remove_file(socket).map_err(|e| format!("cannot remove the old socket: {e}"))?;
    }
    // SAFETY: umask has no preconditions; the old mask is put back right after the bind.
    let old = unsafe { libc::umask(0o077) };
    let l = UnixListener::bind(socket);
    // SAFETY: as above.
    unsafe { libc::umask(old) };
    let l = l.map_err(|e| e.to_string())?;
    std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| e.to_string())?;
    Ok(l)
}

trait SocketLike {
    fn is_socket_like(&self) -> bool;
}

impl SocketLike for std::fs::FileType {
    fn is_socket_like(&self) -> bool {
        use std::os::unix::fs::FileTypeExt;
        self.is_socket()
    }
}

/// Write end of the server's SIGCHLD pipe (-1: none).
static CHILD_FD: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_child(_: libc::c_int) {
    let fd = CHILD_FD.load(Ordering::Relaxed);
    if fd >= 0 {
        // SAFETY: __errno_location returns this thread's errno slot; write(2) is
        // async-signal-safe and reads one byte from a static.
        unsafe {
            let errno = libc::__errno_location();
            let saved = *errno;
            libc::write(fd, b"c".as_ptr().cast(), 1);
            *errno = saved;
        }
    }
}

/// A child that runs and the client waiting for its end.
struct Running {
    pid: i32,
    conn: UnixStream,
    /// Its client went away (the child was killed).
    abandoned: bool,
}

/// The server's body, on the launcher's thread: boot, then serve until killed.
fn serve(opts: Options, listener: UnixListener, socket: PathBuf) -> u8 {
    let view = boot_view(&opts);
    let Some(mut l) = crate::start_vm(opts) else {
        return 1;
    };
    if let Err(e) = l.prepare_to_serve() {
        eprintln!("jxvm serve: {e}");
        return 1;
    }
    let mut pipe = [-1; 2];
    // SAFETY: `pipe` has room for the two descriptors pipe2 stores.
    if unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        eprintln!("jxvm serve: cannot make a pipe");
        return 1;
    }
    CHILD_FD.store(pipe[1], Ordering::Relaxed);
    if port::set_signal_action(libc::SIGCHLD, port::SetSignal::Call(on_child)).is_err() {
        eprintln!("jxvm serve: cannot take SIGCHLD");
        return 1;
    }
    eprintln!("jxvm serve: ready on {}", socket.display());
    let mut running: Vec<Running> = Vec::new();
    let watch = |fd: RawFd| libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // The listener, the SIGCHLD pipe, and the connections of clients still there.
        let mut fds = vec![watch(listener.as_raw_fd()), watch(pipe[0])];
        let watched: Vec<usize> = (0..running.len())
            .filter(|&i| !running[i].abandoned)
            .collect();
        // Only the peer's hang-up: the request's bytes are the child's to read.
        fds.extend(watched.iter().map(|&i| libc::pollfd {
            fd: running[i].conn.as_raw_fd(),
            events: libc::POLLRDHUP,
            revents: 0,
        }));
        // SAFETY: `fds` is a live array of that many pollfd.
        if unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) } < 0 {
            continue;
        }
        // A client that hangs up is gone, and its program ends with it (as a plain run ends
        // with its process).
        for (k, &i) in watched.iter().enumerate() {
            if fds[2 + k].revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0 {
                running[i].abandoned = true;
                // SAFETY: kill has no memory preconditions; the pid is a child not yet reaped.
                unsafe { libc::kill(running[i].pid, libc::SIGKILL) };
            }
        }
        if fds[1].revents != 0 {
            let mut b = [0u8; 64];
            // SAFETY: `b` is a live buffer of the length given.
            while unsafe { libc::read(pipe[0], b.as_mut_ptr().cast(), b.len()) } > 0 {}
            reap(&mut running);
        }
        if fds[0].revents != 0
            && let Ok((conn, _)) = listener.accept()
            && let Some(r) = start(conn, &mut l, &view, &listener, &running, pipe)
        {
            running.push(r);
        }
    }
}

/// Reports the end of every child that ended to its client.
fn reap(running: &mut Vec<Running>) {
    loop {
        let mut status = 0;
        // SAFETY: `status` is a live int waitpid writes.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return;
        }
        let Some(i) = running.iter().position(|r| r.pid == pid) else {
            continue;
        };
        let mut r = running.swap_remove(i);
        let answer = if libc::WIFSIGNALED(status) {
            [b"S".as_slice(), &libc::WTERMSIG(status).to_le_bytes()].concat()
        } else {
            [b"X".as_slice(), &libc::WEXITSTATUS(status).to_le_bytes()].concat()
        };
        let _ = r.conn.write_all(&answer);
    }
}

/// A request as the server received it.
struct Request {
    argv: Vec<OsString>,
    cwd: OsString,
    env: Vec<(OsString, OsString)>,
    /// The client's stdin, stdout and stderr.
    fds: Vec<RawFd>,
    /// The signals the client ignores (bit `1 << sig`).
    ignored: u64,
    /// The client's file mode creation mask.
    umask: u32,
    /// The client's resource limits ([`LIMITS`]'s, current and maximum).
    limits: Vec<(u64, u64)>,
}

/// Forks the child of a client (who must be of the server's user); the child reads the
/// request. None if there is no child.
fn start(
    mut conn: UnixStream,
    l: &mut Launcher,
    view: &str,
    listener: &UnixListener,
    running: &[Running],
    pipe: [RawFd; 2],
) -> Option<Running> {
    // SAFETY: getuid has no preconditions and cannot fail.
    if peer_uid(conn.as_raw_fd()) != Some(unsafe { libc::getuid() }) {
        return None;
    }
    // The child reads the request: a slow or silent client never holds the server's loop.
    // A signal the client forwards must wait until the child has taken the VM's handlers
    // back: the child starts with them blocked (and the server blocks them only meanwhile).
    let mask = block_forwarded();
    // SAFETY: the server has one thread that runs (the others wait in join and hold no
    // lock), so the child's copy of the process is consistent; see `vm::fork`.
    let pid = unsafe { libc::fork() };
    if pid != 0 {
        set_mask(&mask);
    }
    if pid < 0 {
        return None;
    }
    if pid == 0 {
        // The child: never returns.
        let mut others: Vec<RawFd> = running.iter().map(|r| r.conn.as_raw_fd()).collect();
        others.extend([listener.as_raw_fd(), pipe[0], pipe[1]]);
        child(conn, l, view, &others, &mask);
    }
    let answer = [b"P".as_slice(), &pid.to_le_bytes()].concat();
    let _ = conn.write_all(&answer);
    Some(Running {
        pid,
        conn,
        abandoned: false,
    })
}

fn close_all(fds: &[RawFd]) {
    for &fd in fds {
        // SAFETY: the received descriptors are the server's own, closed once.
        unsafe { libc::close(fd) };
    }
}

/// The child's body: becomes the client's process, takes over its command line and runs the
/// program; never returns.
fn child(
    mut conn: UnixStream,
    l: &mut Launcher,
    view: &str,
    others: &[RawFd],
    mask: &libc::sigset_t,
) -> ! {
    let _ = port::set_signal_action(libc::SIGCHLD, port::SetSignal::Default);
    for &fd in others {
        // SAFETY: the server's descriptors, which the child does not use.
        unsafe { libc::close(fd) };
    }
    let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
    let Some(req) = read_request(&mut conn) else {
        // Not a client of this protocol (or too slow): it gets nothing.
        // SAFETY: _exit ends the process at once (nothing of the server's to flush or run).
        unsafe { libc::_exit(0) }
    };
    let _ = conn.set_read_timeout(None);
    for (i, &fd) in req.fds.iter().enumerate() {
        // SAFETY: dup2 onto 0, 1, 2 of descriptors the child received; then the originals go.
        unsafe {
            libc::dup2(fd, i as i32);
            if fd > 2 {
                libc::close(fd);
            }
        }
    }
    let refuse = |conn: &mut UnixStream, why: String| -> ! {
        let b = why.as_bytes();
        let mut m = b"F".to_vec();
        m.extend_from_slice(&(b.len() as i32).to_le_bytes());
        m.extend_from_slice(b);
        let _ = conn.write_all(&m);
        // SAFETY: _exit ends the process at once (nothing of the server's to flush or run).
        unsafe { libc::_exit(0) }
    };
    // SAFETY: umask has no preconditions.
    unsafe { libc::umask(req.umask & 0o777) };
    for (&res, &(cur, max)) in LIMITS.iter().zip(&req.limits) {
        let l = libc::rlimit {
            rlim_cur: cur,
            rlim_max: max,
        };
        // SAFETY: `l` is a live rlimit setrlimit reads.
        if unsafe { libc::setrlimit(res, &l) } != 0 {
            refuse(
                &mut conn,
                format!(
                    "its resource limits exceed the server's ({})",
                    std::io::Error::last_os_error()
                ),
            );
        }
    }
    if let Err(e) = std::env::set_current_dir(&req.cwd) {
        refuse(
            &mut conn,
            format!("cannot enter the working directory: {e}"),
        );
    }
    let old: Vec<OsString> = std::env::vars_os().map(|(k, _)| k).collect();
    for k in old {
        // SAFETY: the child has one thread: nothing reads the environment meanwhile.
        unsafe { std::env::remove_var(k) };
    }
    for (k, v) in &req.env {
        // SAFETY: as above.
        unsafe { std::env::set_var(k, v) };
    }
    let cmd = crate::envopts::with_environment_options(req.argv).and_then(|a| args::parse_args(&a));
    let run = match cmd {
        Ok(Command::Run(run)) => run,
        Ok(_) => refuse(&mut conn, "not a program run".into()),
        Err(e) => refuse(&mut conn, e),
    };
    if boot_view(&run.opts) != view {
        refuse(
            &mut conn,
            "its options change how the VM boots (the server's differ)".into(),
        );
    }
    let client = ForkClient {
        class_path: run.opts.classpath.clone(),
        props: run.opts.props.clone(),
        vm_args: run.opts.vm_args.clone(),
        java_command: run.opts.java_command.clone(),
        assertions: run.opts.assertions.clone(),
    };
    if let Err(why) = l.adopt(client) {
        refuse(&mut conn, why);
    }
    // The VM takes SIGQUIT for thread dumps even if it was ignored (as a plain run's does).
    let mut ignored = req.ignored;
    if !run.opts.reduce_signal_usage {
        ignored &= !(1 << libc::SIGQUIT);
    }
    for sig in (1..32).filter(|s| ignored & 1 << s != 0) {
        let _ = port::set_signal_action(sig, port::SetSignal::Ignore);
    }
    // The VM's handlers are back: signals that came meanwhile are delivered now.
    set_mask(mask);
    // The child keeps its copy of the connection open (close-on-exec) until it exits: should
    // the server die first, its client still waits for the program's end.
    std::mem::forget(conn);
    let code = crate::run_program(l, &run);
    std::process::exit(i32::from(code))
}

/// Reads one request (and its descriptors) from `conn`.
fn read_request(conn: &mut UnixStream) -> Option<Request> {
    let mut head = [0u8; 4];
    let mut fds = Vec::new();
    let n = recv_with_fds(conn.as_raw_fd(), &mut head, &mut fds).ok()?;
    let req = (|| {
        if n < 4 {
            conn.read_exact(&mut head[n..]).ok()?;
        }
        let len = u32::from_le_bytes(head) as usize;
        if len > MAX_REQUEST || fds.len() != 3 {
            return None;
        }
        let mut body = vec![0u8; len];
        conn.read_exact(&mut body).ok()?;
        parse_request(&body, fds.clone())
    })();
    if req.is_none() {
        close_all(&fds);
    }
    req
}

fn parse_request(body: &[u8], fds: Vec<RawFd>) -> Option<Request> {
    let mut r = Cursor { b: body };
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let argv = r.list()?.into_iter().map(OsString::from_vec).collect();
    let cwd = OsString::from_vec(r.bytes()?.to_vec());
    let env = r
        .list()?
        .into_iter()
        .filter_map(|e| {
            let eq = e.iter().position(|&c| c == b'=')?;
            let (k, v) = e.split_at(eq);
            Some((
                OsString::from_vec(k.to_vec()),
                OsString::from_vec(v[1..].to_vec()),
            ))
        })
        .filter(|(k, _)| !k.is_empty())
        .collect();
    let ignored = r.take(8)?;
    let ignored = u64::from_le_bytes(ignored.try_into().ok()?);
    let umask = r.u32()? as u32;
    let mut limits = Vec::with_capacity(LIMITS.len());
    for _ in LIMITS {
        let cur = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
        let max = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
        limits.push((cur, max));
    }
    if !r.b.is_empty() {
        return None;
    }
    Some(Request {
        argv,
        cwd,
        env,
        fds,
        ignored,
        umask,
        limits,
    })
}

/// Reads the request's fields (each bounded by the bytes left).
struct Cursor<'a> {
    b: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.b.len() < n {
            return None;
        }
        let (h, t) = self.b.split_at(n);
        self.b = t;
        Some(h)
    }
    fn u32(&mut self) -> Option<usize> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()?;
        self.take(n)
    }
    fn list(&mut self) -> Option<Vec<Vec<u8>>> {
        let n = self.u32()?;
        if n > self.b.len() / 4 {
            return None;
        }
        (0..n).map(|_| self.bytes().map(|b| b.to_vec())).collect()
    }
}

// ---------------------------------------------------------------------------------------
// System calls.

/// Blocks the signals a client forwards in the calling thread; returns the mask before.
fn block_forwarded() -> libc::sigset_t {
    // SAFETY: both sets are live; sigemptyset and sigaddset initialize and fill `set`, and
    // pthread_sigmask reads it and fills `old`.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in FORWARDED {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        old
    }
}

/// Sets the calling thread's signal mask to `mask`.
fn set_mask(mask: &libc::sigset_t) {
    // SAFETY: `mask` is a live, initialized signal set.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, mask, std::ptr::null_mut()) };
}

/// The uid of the process at the other end of Unix socket `fd`.
fn peer_uid(fd: RawFd) -> Option<u32> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` and `len` are live and `len` is `cred`'s size.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    (r == 0).then_some(cred.uid)
}

/// Sends `data` on `fd` with descriptors `pass` attached to its first bytes.
fn send_with_fds(fd: RawFd, data: &[u8], pass: &[RawFd]) -> std::io::Result<()> {
    let fds_len = std::mem::size_of_val(pass);
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE(fds_len as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    let mut iov = libc::iovec {
        iov_base: data.as_ptr() as *mut libc::c_void,
        iov_len: data.len(),
    };
    // SAFETY: an all-zero msghdr is valid (null pointers, zero lengths).
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: `msg` describes `control`, which has room for one header and `pass`;
    // CMSG_FIRSTHDR of it is non-null and CMSG_DATA points inside it.
    let sent = unsafe {
        let c = libc::CMSG_FIRSTHDR(&msg);
        (*c).cmsg_level = libc::SOL_SOCKET;
        (*c).cmsg_type = libc::SCM_RIGHTS;
        (*c).cmsg_len = libc::CMSG_LEN(fds_len as u32) as _;
        std::ptr::copy_nonoverlapping(pass.as_ptr(), libc::CMSG_DATA(c).cast(), pass.len());
        libc::sendmsg(fd, &msg, libc::MSG_NOSIGNAL)
    };
    if sent < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let rest = &data[sent as usize..];
    if !rest.is_empty() {
        // SAFETY: `fd` is a live socket the caller owns; the stream does not outlive it.
        let mut s = std::mem::ManuallyDrop::new(unsafe {
            <UnixStream as std::os::fd::FromRawFd>::from_raw_fd(fd)
        });
        s.write_all(rest)?;
    }
    Ok(())
}

/// Receives bytes into `buf` from `fd`, and the descriptors attached to them into `fds`.
fn recv_with_fds(fd: RawFd, buf: &mut [u8], fds: &mut Vec<RawFd>) -> std::io::Result<usize> {
    const MAX_FDS: usize = 8;
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE((MAX_FDS * 4) as u32) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    // SAFETY: an all-zero msghdr is valid (null pointers, zero lengths).
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: `msg` describes live buffers of the lengths given.
    let n = unsafe { libc::recvmsg(fd, &mut msg, libc::MSG_CMSG_CLOEXEC) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the kernel filled `control` with `msg_controllen` bytes of headers; each
    // header's data is inside the buffer, and a SCM_RIGHTS header's data is descriptors.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(c);
                let bytes = (*c).cmsg_len as usize - (data as usize - c as usize);
                for i in 0..bytes / 4 {
                    fds.push(std::ptr::read_unaligned(data.cast::<RawFd>().add(i)));
                }
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
    }
    if msg.msg_flags & libc::MSG_CTRUNC != 0 {
        close_all(fds);
        fds.clear();
    }
    Ok(n as usize)
}
