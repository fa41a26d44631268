//! Child processes and process queries, for java.lang.ProcessImpl and ProcessHandleImpl.
//!
//! [`spawn`] follows the JDK's `forkAndExec`/`childProcess` (ProcessImpl_md.c, childproc.c):
//! pipes for the standard streams that are not redirected, the child's descriptors 0, 1, 2
//! set up (stderr onto stdout when the error stream is redirected), every other descriptor
//! closed, the working directory changed, then the program run, searched on the *parent's*
//! PATH with the `execvp` rules (EACCES is remembered while the search goes on; a file that is
//! not an executable format is run by `/bin/sh`). A failure in the child is sent back as its
//! `errno` over a close-on-exec pipe, so the caller gets exactly the error the JDK reports.
//!
//! Process information comes from `/proc` as in the JDK's ProcessHandleImpl_linux.c.
//! Failures are reported as the OS `errno`.

use std::ffi::{CString, c_char};
use std::sync::OnceLock;

use super::Errno;
use super::held::{self, Owner};

fn errno() -> Errno {
    Errno::last()
}

/// What to run and how to connect it.
pub struct SpawnRequest {
    /// The program (argv[0]): a path, or a name searched on PATH.
    pub prog: Vec<u8>,
    /// argv[1..].
    pub args: Vec<Vec<u8>>,
    /// The environment as `NAME=value` entries; `None` passes this process's environment.
    pub env: Option<Vec<Vec<u8>>>,
    /// The working directory; `None` keeps this process's.
    pub dir: Option<Vec<u8>>,
    /// For stdin, stdout, stderr: -1 to connect a new pipe, else the descriptor the child
    /// gets (0, 1, 2 themselves for an inherited stream, or an open file).
    pub fds: [i32; 3],
    /// Whether the child's stderr goes where its stdout goes.
    pub redirect_error_stream: bool,
}

/// A started child: its pid and the parent's ends of the pipes (-1 where no pipe was made).
#[derive(Debug, Clone, Copy)]
pub struct Spawned {
    pub pid: i32,
    pub fds: [i32; 3],
}

fn close_quietly(fd: i32) {
    if fd >= 0 {
        // SAFETY: closing a descriptor this module created has no memory-safety preconditions.
        unsafe { libc::close(fd) };
    }
}

fn pipe() -> Result<[i32; 2], Errno> {
    let mut p = [-1i32; 2];
    // SAFETY: p is a valid array of two ints for pipe2 to fill.
    if unsafe { libc::pipe2(p.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(errno());
    }
    Ok(p)
}

/// Closes the given pipes' descriptors (the ones that are open).
fn close_pipes(pipes: &[[i32; 2]]) {
    for p in pipes {
        close_quietly(p[0]);
        close_quietly(p[1]);
    }
}

fn cstring(b: &[u8]) -> Result<CString, Errno> {
    CString::new(b).map_err(|_| Errno::EINVAL)
}

/// The directories of a PATH value, an empty entry meaning the current directory (the JDK's
/// `splitPath`).
fn path_dirs(path: &[u8]) -> Vec<Vec<u8>> {
    path.split(|&b| b == b':')
        .map(|d| {
            if d.is_empty() {
                b".".to_vec()
            } else {
                d.to_vec()
            }
        })
        .collect()
}

/// The files `execvp` would try for `prog`, in order.
fn exec_candidates(prog: &[u8], inherit_env: bool) -> Vec<Vec<u8>> {
    if prog.is_empty() {
        return Vec::new();
    }
    if prog.contains(&b'/') {
        return vec![prog.to_vec()];
    }
    use std::os::unix::ffi::OsStrExt;
    let path = std::env::var_os("PATH");
    // Without PATH: glibc's execvp default when the environment is inherited, the JDK's own
    // default (":/bin:/usr/bin") when it passes an environment of its own.
    let default: &[u8] = if inherit_env {
        b"/bin:/usr/bin"
    } else {
        b":/bin:/usr/bin"
    };
    let path = path.as_ref().map_or(default, |p| p.as_bytes());
    path_dirs(path)
        .into_iter()
        .map(|mut d| {
            if !d.ends_with(b"/") {
                d.push(b'/');
            }
            d.extend_from_slice(prog);
            d
        })
        .collect()
}

/// Everything the child needs, prepared before `fork` so that the child only makes system
/// calls (no allocation, no locks: another thread may have held them at the fork).
struct ChildPlan {
    argv: Vec<*const c_char>,
    envp: Vec<*const c_char>,
    /// `/bin/sh file args...` for a file that is not an executable format; slot 1 is set in the
    /// child to the file being tried.
    sh_argv: Vec<*const c_char>,
    candidates: Vec<CString>,
    dir: Option<CString>,
    /// Per standard stream: the descriptor the child gets (-1: stderr follows stdout).
    src: [i32; 3],
    fail_w: i32,
    max_fd: i32,
}

const FAIL_FD: i32 = 3;
/// Where the child first moves its descriptors, above anything it then dup2s onto.
const HIGH_FD: i32 = 10;

/// The child's side after `fork`: never returns.
///
/// # Safety
/// Must run in the child of a `fork`, with `plan` and every string it points to alive (the
/// child's copy of the parent's memory). Only async-signal-safe calls are made.
unsafe fn child_exec(plan: &mut ChildPlan) -> ! {
    // SAFETY: plain system calls on descriptors and on the NUL-terminated strings
    // and NULL-terminated pointer arrays prepared in `plan`, which outlive the exec.
    unsafe {
        // Start from default signal state: an empty mask, and SIGPIPE (ignored by the Rust
        // runtime) back to its default action, as the child of a JVM has it.
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);

        // Move every source out of the way first, so that no dup2 below overwrites a
        // descriptor still to be used (a pipe may well be 0, 1 or 2 if those were closed).
        let mut high = [-1i32; 3];
        for (h, &s) in high.iter_mut().zip(&plan.src) {
            if s >= 0 {
                *h = libc::fcntl(s, libc::F_DUPFD, HIGH_FD);
                if *h < 0 && errno().0 != libc::EBADF {
                    child_fail(plan.fail_w);
                }
            }
        }
        let fail = libc::fcntl(plan.fail_w, libc::F_DUPFD, HIGH_FD);
        if fail < 0 {
            child_fail(plan.fail_w);
        }
        for (i, &h) in high.iter().enumerate() {
            let target = i as i32;
            if i == 2 && plan.src[2] < 0 {
                if libc::dup2(1, 2) < 0 {
                    child_fail(fail);
                }
            } else if h >= 0 {
                if libc::dup2(h, target) < 0 {
                    child_fail(fail);
                }
            } else {
                // The inherited descriptor is closed in this process: so it is in the child.
                libc::close(target);
            }
        }
        if libc::dup2(fail, FAIL_FD) < 0 {
            child_fail(fail);
        }
        // Close everything else (the JDK's closeDescriptors).
        if libc::syscall(
            libc::SYS_close_range,
            (FAIL_FD + 1) as libc::c_uint,
            libc::c_uint::MAX,
            0,
        ) < 0
        {
            for fd in FAIL_FD + 1..plan.max_fd {
                libc::close(fd);
            }
        }
        if let Some(dir) = &plan.dir
            && libc::chdir(dir.as_ptr()) < 0
        {
            child_fail(FAIL_FD);
        }
        if libc::fcntl(FAIL_FD, libc::F_SETFD, libc::FD_CLOEXEC) < 0 {
            child_fail(FAIL_FD);
        }
        if plan.candidates.is_empty() {
            *libc::__errno_location() = libc::ENOENT;
            child_fail(FAIL_FD);
        }
        // The execvp rules: go on past missing files, remember EACCES, stop at anything else.
        let mut sticky = 0;
        let mut last = libc::ENOENT;
        let mut stop = None;
        for c in &plan.candidates {
            libc::execve(c.as_ptr(), plan.argv.as_ptr(), plan.envp.as_ptr());
            let mut e = errno().0;
            if e == libc::ENOEXEC {
                // Not an executable format: run it as a shell script.
                *plan.sh_argv.as_mut_ptr().add(1) = c.as_ptr();
                libc::execve(
                    *plan.sh_argv.as_ptr(),
                    plan.sh_argv.as_ptr(),
                    plan.envp.as_ptr(),
                );
                e = errno().0;
            }
            last = e;
            match e {
                libc::EACCES => sticky = e,
                libc::ENOENT
                | libc::ENOTDIR
                | libc::ELOOP
                | libc::ESTALE
                | libc::ENODEV
                | libc::ETIMEDOUT => {}
                _ => {
                    stop = Some(e);
                    break;
                }
            }
        }
        let e = stop.unwrap_or(if sticky != 0 { sticky } else { last });
        *libc::__errno_location() = e;
        child_fail(FAIL_FD)
    }
}

/// Sends `errno` to the parent over `fd` and exits (the JDK's WhyCantJohnnyExec).
///
/// # Safety
/// Only in the child after `fork`.
unsafe fn child_fail(fd: i32) -> ! {
    // SAFETY: write of a local int and _exit are async-signal-safe system calls.
    unsafe {
        let e: i32 = errno().0;
        let mut off = 0usize;
        let bytes = e.to_ne_bytes();
        while off < bytes.len() {
            let n = libc::write(
                fd,
                bytes.as_ptr().add(off) as *const libc::c_void,
                bytes.len() - off,
            );
            if n < 0 && errno().0 == libc::EINTR {
                continue;
            }
            if n <= 0 {
                break;
            }
            off += n as usize;
        }
        libc::_exit(255)
    }
}

/// Reads the child's errno from the fail pipe: `Ok(None)` when the exec succeeded (EOF).
fn read_fail_pipe(fd: i32) -> Result<Option<Errno>, Errno> {
    let mut buf = [0u8; 4];
    let mut got = 0usize;
    while got < buf.len() {
        // SAFETY: buf[got..] is a valid writable buffer of the given length.
        let n = unsafe {
            libc::read(
                fd,
                buf.as_mut_ptr().add(got) as *mut libc::c_void,
                buf.len() - got,
            )
        };
        if n < 0 {
            let e = errno();
            if e == Errno::EINTR {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            break;
        }
        got += n as usize;
    }
    match got {
        0 => Ok(None),
        4 => Ok(Some(Errno(i32::from_ne_bytes(buf)))),
        _ => Err(Errno::EIO),
    }
}

/// Starts a child process (the JDK's `forkAndExec`; all launch mechanisms behave alike).
/// On failure returns the errno the JDK would report ("error=N, message"). The parent's ends of the child's pipes are `owner`'s.
pub fn spawn(owner: Owner, req: &SpawnRequest) -> Result<Spawned, Errno> {
    let prog = cstring(&req.prog)?;
    let args = req
        .args
        .iter()
        .map(|a| cstring(a))
        .collect::<Result<Vec<_>, _>>()?;
    let env: Vec<CString> = match &req.env {
        Some(e) => e.iter().map(|v| cstring(v)).collect::<Result<_, _>>()?,
        None => super::environment()
            .into_iter()
            .filter_map(|(mut k, v)| {
                k.push(b'=');
                k.extend_from_slice(&v);
                CString::new(k).ok()
            })
            .collect(),
    };
    let candidates = exec_candidates(&req.prog, req.env.is_none())
        .iter()
        .map(|c| cstring(c))
        .collect::<Result<Vec<_>, _>>()?;
    let dir = req.dir.as_deref().map(cstring).transpose()?;
    let sh = c"/bin/sh";

    let mut argv: Vec<*const c_char> = Vec::with_capacity(args.len() + 2);
    argv.push(prog.as_ptr());
    argv.extend(args.iter().map(|a| a.as_ptr()));
    argv.push(std::ptr::null());
    let mut sh_argv: Vec<*const c_char> = Vec::with_capacity(args.len() + 3);
    sh_argv.push(sh.as_ptr());
    sh_argv.push(prog.as_ptr());
    sh_argv.extend(args.iter().map(|a| a.as_ptr()));
    sh_argv.push(std::ptr::null());
    let mut envp: Vec<*const c_char> = env.iter().map(|e| e.as_ptr()).collect();
    envp.push(std::ptr::null());

    // SAFETY: rl is plain old data for getrlimit to fill.
    let max_fd = unsafe {
        let mut rl: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) == 0 {
            rl.rlim_cur.min(1 << 20) as i32
        } else {
            1024
        }
    };

    // Pipes: [read end, write end]; -1 where none is needed.
    let mut pipes = [[-1i32; 2]; 4];
    let wanted = [
        req.fds[0] == -1,
        req.fds[1] == -1,
        req.fds[2] == -1 && !req.redirect_error_stream,
        true,
    ];
    for i in 0..4 {
        if wanted[i] {
            match pipe() {
                Ok(p) => pipes[i] = p,
                Err(e) => {
                    close_pipes(&pipes);
                    return Err(e);
                }
            }
        }
    }
    let [inp, out, err, fail] = pipes;
    let src = [
        if inp[0] >= 0 { inp[0] } else { req.fds[0] },
        if out[1] >= 0 { out[1] } else { req.fds[1] },
        if req.redirect_error_stream {
            -1
        } else if err[1] >= 0 {
            err[1]
        } else {
            req.fds[2]
        },
    ];
    let mut plan = ChildPlan {
        argv,
        envp,
        sh_argv,
        candidates,
        dir,
        src,
        fail_w: fail[1],
        max_fd,
    };

    // SAFETY: fork has no memory-safety preconditions; the child only runs `child_exec`, which
    // makes async-signal-safe calls on memory prepared above.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: this is the child of the fork above, with `plan` alive.
        unsafe { child_exec(&mut plan) }
    }
    let fork_errno = errno();
    // The parent: close the child's ends.
    close_quietly(inp[0]);
    close_quietly(out[1]);
    close_quietly(err[1]);
    close_quietly(fail[1]);
    let parent_ends = [inp[1], out[0], err[0]];
    let fail_result = if pid < 0 {
        Err(fork_errno)
    } else {
        read_fail_pipe(fail[0])
    };
    close_quietly(fail[0]);
    let failure = match fail_result {
        Ok(None) => None,
        Ok(Some(e)) => {
            // The exec failed: reap the child, which exits at once.
            wait_reap(pid);
            Some(e)
        }
        Err(e) => Some(e),
    };
    if let Some(e) = failure {
        for fd in parent_ends {
            close_quietly(fd);
        }
        return Err(e);
    }
    drop(plan);
    drop((prog, args, env));
    admit_child(owner, pid, parent_ends)?;
    Ok(Spawned {
        pid,
        fds: parent_ends,
    })
}

/// The new child `pid` and its pipes' parent ends are `owner`'s, each counted against its
/// descriptor limit; past it the child is killed, its pipes closed, and the spawn fails with
/// EMFILE.
fn admit_child(owner: Owner, pid: i32, ends: [i32; 3]) -> Result<(), Errno> {
    let handles: Vec<held::Handle> = std::iter::once(held::Handle::Process(pid))
        .chain(ends.into_iter().filter(|&fd| fd >= 0).map(held::Handle::Fd))
        .collect();
    for (i, &h) in handles.iter().enumerate() {
        if !held::admit(owner, h) {
            for &taken in &handles[..i] {
                let _ = held::letting_go(owner, taken);
            }
            for fd in ends.into_iter().filter(|&fd| fd >= 0) {
                close_quietly(fd);
            }
            kill_and_reap(vec![pid]);
            return Err(Errno::EMFILE);
        }
    }
    Ok(())
}

/// Kills children `pids` (of a domain that ended, or refused) and waits for them in the
/// background, so that none is left a zombie and nobody waits here for a child that takes
/// long to die.
pub(super) fn kill_and_reap(pids: Vec<i32>) {
    if pids.is_empty() {
        return;
    }
    for &pid in &pids {
        // SAFETY: kill has no memory-safety preconditions; `pid` is a child not yet waited
        // for, so the number is still its.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let reap = move || {
        for pid in pids {
            wait_reap(pid);
        }
    };
    // With no thread to spare the children stay zombies until the process exits.
    let _ = std::thread::Builder::new()
        .name("jxvm-child-reaper".into())
        .spawn(reap);
}

fn wait_reap(pid: i32) {
    let mut status = 0;
    // SAFETY: status is a valid out-pointer.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0 && errno() == Errno::EINTR {}
}

/// `ProcessHandleImpl.NOT_A_CHILD`.
pub const NOT_A_CHILD: i32 = -2;

/// Waits for child `pid` to exit; returns its exit status, or 0x80 + the signal that killed
/// it (as shells report it), [`NOT_A_CHILD`] if `pid` is not a child `owner` started, -1 on
/// another error (also when the calling thread's blocking calls are cancelled: see
/// `port::cancellation`). With `reap` false the child stays waitable (`WNOWAIT`).
pub fn wait_for_exit(owner: Owner, pid: i64, reap: bool) -> i32 {
    // Only one process: waitpid would take 0 and negative values as process groups.
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return NOT_A_CHILD;
    };
    if pid <= 0 || !held::holds(owner, held::Handle::Process(pid)) {
        return NOT_A_CHILD;
    }
    let status = wait_for(pid, reap);
    if reap && status != -1 && status != NOT_A_CHILD {
        // Waited for: its number may now be another process's.
        let _ = held::letting_go(owner, held::Handle::Process(pid));
    }
    status
}

fn wait_for(pid: i32, reap: bool) -> i32 {
    if reap {
        let mut status = 0;
        // SAFETY: status is a valid out-pointer.
        while unsafe { libc::waitpid(pid, &mut status, 0) } < 0 {
            match errno() {
                Errno::ECHILD => return NOT_A_CHILD,
                Errno::EINTR if !super::cancelled() => {}
                _ => return -1,
            }
        }
        if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else if libc::WIFSIGNALED(status) {
            0x80 + libc::WTERMSIG(status)
        } else {
            status
        }
    } else {
        // SAFETY: siginfo_t is plain old data; all-zero is valid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: info is a valid out-pointer.
        while unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        } < 0
        {
            match errno() {
                Errno::ECHILD => return NOT_A_CHILD,
                Errno::EINTR if !super::cancelled() => {}
                _ => return -1,
            }
        }
        // SAFETY: waitid filled a SIGCHLD siginfo, whose si_status is valid.
        let status = unsafe { info.si_status() };
        match info.si_code {
            libc::CLD_EXITED => status,
            libc::CLD_KILLED | libc::CLD_DUMPED => 0x80 + status,
            _ => status,
        }
    }
}

/// Sends SIGTERM (or SIGKILL when `force`) to `pid`, if `owner` may (a created domain
/// signals only children it started and has not waited for); whether the signal was sent.
pub fn kill(owner: Owner, pid: i64, force: bool) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 || !held::holds(owner, held::Handle::Process(pid)) {
        return false;
    }
    let sig = if force { libc::SIGKILL } else { libc::SIGTERM };
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(pid, sig) == 0 }
}

pub fn current_pid() -> i64 {
    // SAFETY: getpid has no preconditions.
    unsafe { libc::getpid() as i64 }
}

pub fn parent_pid() -> i64 {
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() as i64 }
}

/// From `/proc/PID/stat`: the parent pid, the start time (ms since the epoch) and the CPU
/// time used (ns).
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcStat {
    pub ppid: i64,
    pub start_ms: i64,
    pub total_ns: i64,
}

fn clock_ticks() -> i64 {
    static T: OnceLock<i64> = OnceLock::new();
    // SAFETY: sysconf has no memory-safety preconditions.
    *T.get_or_init(|| unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as i64)
}

fn boot_time_ms() -> i64 {
    static B: OnceLock<i64> = OnceLock::new();
    *B.get_or_init(|| {
        std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|s| {
                s.lines().find_map(|l| {
                    l.strip_prefix("btime ")
                        .and_then(|v| v.trim().parse::<i64>().ok())
                })
            })
            .map_or(0, |s| s * 1000)
    })
}

/// `None` when the process does not exist (the JDK's os_getParentPidAndTimings returning -1).
pub fn proc_stat(pid: i64) -> Option<ProcStat> {
    if pid <= 0 || pid > i32::MAX as i64 {
        return None;
    }
    let data = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    // "pid (command) state ppid ...": the command may hold anything, so start after the last ')'.
    let open = data.iter().position(|&b| b == b'(')?;
    let close = open + data[open..].iter().rposition(|&b| b == b')')?;
    let rest = String::from_utf8_lossy(&data[close + 1..]).into_owned();
    let f: Vec<&str> = rest.split_whitespace().collect();
    // f[0] = state (field 3); field n is f[n - 3].
    let parsed = (|| {
        let ppid: i64 = f.get(1)?.parse().ok()?;
        let utime: i64 = f.get(11)?.parse().ok()?;
        let stime: i64 = f.get(12)?.parse().ok()?;
        let start: i64 = f.get(19)?.parse().ok()?;
        Some((ppid, utime, stime, start))
    })();
    let Some((ppid, utime, stime, start)) = parsed else {
        return Some(ProcStat::default());
    };
    let ticks = clock_ticks();
    Some(ProcStat {
        ppid,
        start_ms: boot_time_ms() + start * 1000 / ticks,
        total_ns: (utime + stime) * (1_000_000_000 / ticks),
    })
}

/// The pids under `/proc`.
pub fn all_pids() -> Vec<i64> {
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    rd.filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<i64>().ok()))
        .filter(|&p| p > 0)
        .collect()
}

/// The executable of `pid` (`/proc/PID/exe`, readable for one's own processes).
pub fn proc_exe(pid: i64) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStringExt;
    std::fs::read_link(format!("/proc/{pid}/exe"))
        .ok()
        .map(|p| p.into_os_string().into_vec())
}

/// The raw command line of `pid` (arguments separated by NULs).
pub fn proc_cmdline(pid: i64) -> Option<Vec<u8>> {
    std::fs::read(format!("/proc/{pid}/cmdline")).ok()
}

/// The user id owning `pid`.
pub fn proc_uid(pid: i64) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/{pid}"))
        .ok()
        .map(|m| m.uid())
}

/// The login name of `uid`, if the password database knows it.
pub fn user_name(uid: u32) -> Option<Vec<u8>> {
    if let Some(db) = crate::sandbox::names() {
        return db.user_name(uid);
    }
    let mut buf = vec![0u8; 16384];
    // SAFETY: pwd is plain old data for getpwuid_r to fill.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut result: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: pwd, buf (with its length) and result are valid out-pointers for getpwuid_r.
    let r = unsafe {
        libc::getpwuid_r(
            uid,
            &mut pwd,
            buf.as_mut_ptr() as *mut c_char,
            buf.len(),
            &mut result,
        )
    };
    if r != 0 || result.is_null() || pwd.pw_name.is_null() {
        return None;
    }
    // SAFETY: getpwuid_r succeeded: pw_name is a NUL-terminated string inside buf.
    let name = unsafe { std::ffi::CStr::from_ptr(pwd.pw_name) }
        .to_bytes()
        .to_vec();
    (!name.is_empty()).then_some(name)
}
