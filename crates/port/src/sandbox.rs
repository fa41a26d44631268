//! Owns `--sandbox` (issue 22, item 3): closing the host to the jxvm process itself, so that
//! with a 9P backend it reaches the host only through its gateway connection.
//!
//! Two kernel mechanisms, each applied where it can hold for every thread:
//!
//! - **Landlock** ([`restrict_files`]), for files. Landlock restricts the calling thread and
//!   the threads it creates later (all threads at once only from Landlock ABI 8, newer than
//!   many kernels), so the launcher applies it first thing, before the VM starts any thread.
//!   Nothing of the host's file systems is allowed but reading the JDK's directory (and the
//!   files and directories its symbolic links point to, as Debian's JDK links `conf/` into
//!   `/etc`), which the VM maps and reads at start-up and later, and which the 9P backend
//!   reads from the host by design. No creating, writing, truncating, removing or
//!   renaming anywhere, no device `ioctl`, no TCP bind or connect except to a TCP gateway's
//!   port, no abstract Unix sockets made outside the sandbox, no signals to other processes.
//!   Descriptors opened before (the standard streams) keep working.
//! - **seccomp** ([`restrict_calls`]), for what Landlock does not cover, applied after
//!   start-up (it refuses what start-up needs: the sockets of the 9P connections) to every
//!   thread at once (`SECCOMP_FILTER_FLAG_TSYNC`). New sockets, process creation (`fork`,
//!   `vfork`, `execve`, `clone` without `CLONE_THREAD`; `clone3`, whose flags a filter cannot
//!   read, answers `ENOSYS`, on which the C library falls back to `clone`), metadata changes
//!   of host files (mode, owner, times, extended attributes), and the calls that reach other
//!   processes or the kernel's global state (`ptrace`, `process_vm_*`, `io_uring`, mounts,
//!   namespaces, `bpf`, `perf_event_open`, keys, modules, clocks, `open_by_handle_at`, signals
//!   to other processes) fail
//!   with `EPERM`: a refused call returns an errno, so Java sees the exception of a host that
//!   refuses it, and the process is never killed. Threads, memory mappings (the heap, the
//!   JIT's code memory, memfds), futexes, signals to itself and clocks stay allowed.
//!
//! Without Landlock (a kernel older than 5.13 or without it enabled) the seccomp filter also
//! refuses every call that opens or changes a file by path (`EACCES`), JDK files included:
//! the guarantee holds, but a program that needs a JDK file not read at start-up fails.
//!
//! Uses the `landlock` and `seccompiler` crates (the kernel interfaces' maintainers' and
//! rust-vmm's); [`probe`] makes a few raw calls for the tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, NetPort, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// The newest Landlock ABI asked for; the crate keeps what the running kernel has of it.
const LANDLOCK_ABI: ABI = ABI::V10;

/// How host files are closed to the process (what [`restrict_files`] could do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileGuard {
    /// Landlock holds: only the JDK's files can be read.
    Landlock,
    /// Landlock is not available: [`restrict_calls`] refuses every open by path.
    Seccomp,
}

/// Reads what the VM would otherwise read from the host's files later and that a sandboxed
/// run still uses: the clock's calibration, the time zone, the locale, the user's name and
/// home, and the user and group databases (whose names Java's file owners are); and opens
/// the `/proc` files of the management API, read through their descriptors later. Called
/// before the process starts other threads (`getpwent` is not thread-safe).
pub fn prepare() {
    let _ = crate::ticks();
    let _ = crate::gmt_offset_id();
    let _ = FROZEN.set(Frozen {
        time_zone: crate::read_system_time_zone(),
        locale: crate::read_locale_info(),
        user: crate::read_user_info(),
    });
    let _ = NAMES.set(Names::read());
    crate::sysinfo::hold_proc_files();
}

/// Host facts read once by [`prepare`] (a process that is not sandboxed reads them each time:
/// a fork server's child reads its client's environment).
pub(crate) struct Frozen {
    pub(crate) time_zone: Option<String>,
    pub(crate) locale: (String, Option<String>, String),
    pub(crate) user: (String, String),
}

static FROZEN: std::sync::OnceLock<Frozen> = std::sync::OnceLock::new();

/// The facts [`prepare`] read (None in a process that is not sandboxed).
pub(crate) fn frozen() -> Option<&'static Frozen> {
    FROZEN.get()
}

/// The host's users and groups as they were when the sandbox was prepared.
pub(crate) struct Names {
    users: Vec<(u32, Vec<u8>)>,
    groups: Vec<(u32, Vec<u8>)>,
}

static NAMES: std::sync::OnceLock<Names> = std::sync::OnceLock::new();

/// The user and group names read by [`prepare`] (None in a process that is not sandboxed,
/// which asks the host's databases each time).
pub(crate) fn names() -> Option<&'static Names> {
    NAMES.get()
}

impl Names {
    fn read() -> Names {
        let mut users = Vec::new();
        let mut groups = Vec::new();
        // SAFETY: only one thread runs (see `prepare`); each entry's fields are copied before
        // the next call reuses the C library's static storage.
        unsafe {
            libc::setpwent();
            loop {
                let pw = libc::getpwent();
                if pw.is_null() {
                    break;
                }
                users.push(((*pw).pw_uid, c_bytes((*pw).pw_name)));
            }
            libc::endpwent();
            libc::setgrent();
            loop {
                let gr = libc::getgrent();
                if gr.is_null() {
                    break;
                }
                groups.push(((*gr).gr_gid, c_bytes((*gr).gr_name)));
            }
            libc::endgrent();
        }
        Names { users, groups }
    }

    pub(crate) fn user_name(&self, uid: u32) -> Option<Vec<u8>> {
        let found = self.users.iter().find(|(id, _)| *id == uid);
        found.map(|(_, name)| name.clone())
    }

    pub(crate) fn group_name(&self, gid: u32) -> Option<Vec<u8>> {
        let found = self.groups.iter().find(|(id, _)| *id == gid);
        found.map(|(_, name)| name.clone())
    }

    pub(crate) fn user_id(&self, name: &[u8]) -> Option<u32> {
        self.users
            .iter()
            .find(|(_, n)| n == name)
            .map(|(id, _)| *id)
    }

    pub(crate) fn group_id(&self, name: &[u8]) -> Option<u32> {
        self.groups
            .iter()
            .find(|(_, n)| n == name)
            .map(|(id, _)| *id)
    }
}

/// The bytes of C string `p` (empty for a null pointer).
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
unsafe fn c_bytes(p: *const libc::c_char) -> Vec<u8> {
    if p.is_null() {
        return Vec::new();
    }
    // SAFETY: the caller's promise.
    unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes().to_vec()
}

/// Closes the host's files (and TCP, abstract sockets and other processes' signals) to this
/// thread and the threads it creates from now on, leaving the JDK's directory `jdk` readable
/// and, if `gateway_port` is given, TCP connections to that port (a TCP gateway's). Must be
/// called before the process starts other threads. The error is one line for the user.
pub fn restrict_files(jdk: &Path, gateway_port: Option<u16>) -> Result<FileGuard, String> {
    let fail = |e: &dyn std::fmt::Display| format!("--sandbox: Landlock: {e}");
    let read_tree = AccessFs::ReadFile | AccessFs::ReadDir;
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(LANDLOCK_ABI))
        .and_then(|r| r.handle_access(AccessNet::from_all(LANDLOCK_ABI)))
        .and_then(|r| r.scope(Scope::from_all(LANDLOCK_ABI)))
        .and_then(|r| r.create())
        .map_err(|e| fail(&e))?;
    let jdk_fd = PathFd::new(jdk).map_err(|e| fail(&e))?;
    ruleset = ruleset
        .add_rule(PathBeneath::new(jdk_fd, read_tree))
        .map_err(|e| fail(&e))?;
    for target in link_targets_outside(jdk) {
        let access: BitFlags<AccessFs> = if target.is_dir() {
            read_tree
        } else {
            AccessFs::ReadFile.into()
        };
        // A target that vanished since the walk is simply not allowed.
        if let Ok(fd) = PathFd::new(&target) {
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, access))
                .map_err(|e| fail(&e))?;
        }
    }
    if let Some(port) = gateway_port {
        ruleset = ruleset
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(|e| fail(&e))?;
    }
    let status = ruleset.restrict_self().map_err(|e| fail(&e))?;
    Ok(match status.ruleset {
        RulesetStatus::NotEnforced => FileGuard::Seccomp,
        _ => FileGuard::Landlock,
    })
}

/// The canonical targets, outside `jdk`, of the symbolic links in the JDK's directory tree
/// (links to directories are not walked into).
fn link_targets_outside(jdk: &Path) -> Vec<PathBuf> {
    let Ok(root) = jdk.canonicalize() else {
        return Vec::new();
    };
    let mut targets = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                dirs.push(e.path());
            } else if kind.is_symlink()
                && let Ok(t) = e.path().canonicalize()
                && !t.starts_with(&root)
                && !targets.contains(&t)
            {
                targets.push(t);
            }
        }
    }
    targets
}

/// Refuses, in every thread of the process and those created later, the system calls that
/// reach the host outside the open descriptors (see the module doc); with
/// [`FileGuard::Seccomp`], also every call that opens or changes a file by path. The error is
/// one line for the user.
pub fn restrict_calls(files: FileGuard) -> Result<(), String> {
    let mut programs = vec![
        filter(refused_calls(), libc::EPERM)?,
        filter(
            BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
            libc::ENOSYS,
        )?,
    ];
    if files == FileGuard::Seccomp {
        programs.push(filter(path_calls(), libc::EACCES)?);
    }
    for p in &programs {
        seccompiler::apply_filter_all_threads(p).map_err(|e| format!("--sandbox: seccomp: {e}"))?;
    }
    Ok(())
}

/// A filter that answers `errno` to the calls in `rules` (when one of a call's rules
/// matches, or always if it has none) and lets every other call through.
fn filter(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> Result<BpfProgram, String> {
    let arch = std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("--sandbox: seccomp: {e}"))?;
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )
    .and_then(BpfProgram::try_from)
    .map_err(|e| format!("--sandbox: seccomp: {e}"))
}

/// The calls refused with `EPERM` whatever their arguments, and `clone` without
/// `CLONE_THREAD` (a new process rather than a thread).
fn refused_calls() -> BTreeMap<i64, Vec<SeccompRule>> {
    let mut always = vec![
        // New sockets: the process keeps the ones it has (its 9P connections).
        libc::SYS_socket,
        // Processes (and, below, signals to others).
        libc::SYS_execve,
        libc::SYS_execveat,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_pidfd_getfd,
        // Host files by handle, and metadata that Landlock does not cover.
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_fchmod,
        libc::SYS_fchmodat,
        libc::SYS_fchown,
        libc::SYS_fchownat,
        libc::SYS_utimensat,
        libc::SYS_setxattr,
        libc::SYS_lsetxattr,
        libc::SYS_fsetxattr,
        libc::SYS_removexattr,
        libc::SYS_lremovexattr,
        libc::SYS_fremovexattr,
        // Asynchronous calls a filter cannot see, and the kernel's global state.
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_mount_setattr,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_syslog,
    ];
    #[cfg(target_arch = "x86_64")]
    always.extend([
        libc::SYS_fork,
        libc::SYS_vfork,
        libc::SYS_chmod,
        libc::SYS_chown,
        libc::SYS_lchown,
        libc::SYS_utime,
        libc::SYS_utimes,
        libc::SYS_futimesat,
        libc::SYS_iopl,
        libc::SYS_ioperm,
    ]);
    always.extend([libc::SYS_tkill, libc::SYS_pidfd_send_signal]);
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        always.into_iter().map(|n| (n, Vec::new())).collect();
    rules.insert(libc::SYS_clone, vec![not_a_thread()]);
    // Signals to another process (Landlock's signal scope refuses them too, from ABI 6).
    for call in [
        libc::SYS_kill,
        libc::SYS_tgkill,
        libc::SYS_rt_sigqueueinfo,
        libc::SYS_rt_tgsigqueueinfo,
    ] {
        rules.insert(call, vec![not_this_process()]);
    }
    rules
}

/// Matches a call whose argument 0 (a process id) is not this process's.
fn not_this_process() -> SeccompRule {
    let me = std::process::id() as u64;
    SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, me)
        .and_then(|c| SeccompRule::new(vec![c]))
        .expect("a well-formed condition")
}

/// Matches a `clone` whose flags (argument 0) lack `CLONE_THREAD`.
fn not_a_thread() -> SeccompRule {
    let thread = libc::CLONE_THREAD as u64;
    SeccompCondition::new(
        0,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(thread),
        0,
    )
    .and_then(|c| SeccompRule::new(vec![c]))
    .expect("a well-formed condition")
}

/// Every call that opens, makes, changes or removes a file by path (refused with `EACCES`
/// when Landlock is not there to tell the JDK's files from the others).
fn path_calls() -> BTreeMap<i64, Vec<SeccompRule>> {
    let mut calls = vec![
        libc::SYS_openat,
        libc::SYS_openat2,
        libc::SYS_truncate,
        libc::SYS_mkdirat,
        libc::SYS_mknodat,
        libc::SYS_unlinkat,
        libc::SYS_renameat,
        libc::SYS_renameat2,
        libc::SYS_linkat,
        libc::SYS_symlinkat,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([
        libc::SYS_open,
        libc::SYS_creat,
        libc::SYS_mkdir,
        libc::SYS_mknod,
        libc::SYS_rmdir,
        libc::SYS_unlink,
        libc::SYS_rename,
        libc::SYS_link,
        libc::SYS_symlink,
    ]);
    calls.into_iter().map(|n| (n, Vec::new())).collect()
}

/// Raw calls that a sandbox must refuse (and a few it must allow), one line each:
/// `WHAT: ok` or `WHAT: MESSAGE` (the errno's text). For the tests of `--sandbox` (the
/// launcher's hidden `--sandbox-probe=PORT`): `port` is a host TCP listener to try.
pub fn probe(jdk: &Path, port: u16) -> Vec<String> {
    let mut lines = Vec::new();
    let mut say = |what: &str, r: std::io::Result<()>| {
        let r = r.map_or_else(|e| crate::Errno::from(e).message(), |()| "ok".into());
        lines.push(format!("{what}: {r}"));
    };
    let read = |p: &Path| std::fs::File::open(p).map(drop);
    say("read /etc/passwd", read(Path::new("/etc/passwd")));
    say(
        "read /proc/self/status",
        read(Path::new("/proc/self/status")),
    );
    say("read the JDK's release", read(&jdk.join("release")));
    let tmp = std::env::temp_dir().join(format!("jxvm-probe-{}", std::process::id()));
    say("create a file in /tmp", std::fs::write(&tmp, b"x"));
    let _ = std::fs::remove_file(&tmp);
    say(
        "connect to the host's listener",
        std::net::TcpStream::connect(("127.0.0.1", port)).map(drop),
    );
    say(
        "a Unix socket",
        std::os::unix::net::UnixDatagram::unbound().map(drop),
    );
    say("fork", raw_fork());
    say(
        "start /bin/true",
        std::process::Command::new("/bin/true").status().map(drop),
    );
    say("signal the parent", signal_parent());
    say(
        "start a thread",
        std::thread::Builder::new()
            .spawn(|| ())
            .and_then(|h| h.join().map_err(|_| std::io::Error::other("panicked"))),
    );
    lines
}

/// `fork()`; a child, if one is made, ends at once.
fn raw_fork() -> std::io::Result<()> {
    // SAFETY: the child (if any) calls only the async-signal-safe `_exit`.
    match unsafe { libc::fork() } {
        -1 => Err(std::io::Error::last_os_error()),
        0 => {
            // SAFETY: `_exit` ends the child without running anything of the parent's.
            unsafe { libc::_exit(0) }
        }
        child => {
            let mut status = 0;
            // SAFETY: `status` is a valid out-pointer; `child` is ours.
            unsafe { libc::waitpid(child, &mut status, 0) };
            Ok(())
        }
    }
}

/// Signal 0 (a permission check only) to the parent process.
fn signal_parent() -> std::io::Result<()> {
    // SAFETY: getppid cannot fail; signal 0 sends nothing.
    match unsafe { libc::kill(libc::getppid(), 0) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_for_this_machine() {
        for (rules, errno) in [(refused_calls(), libc::EPERM), (path_calls(), libc::EACCES)] {
            let program = filter(rules, errno).expect("a filter");
            assert!(!program.is_empty());
        }
    }

    #[test]
    fn only_link_targets_outside_the_jdk_are_allowed_besides_it() {
        let dir = std::env::temp_dir().join(format!("jxvm-sandbox-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (jdk, outside) = (dir.join("jdk"), dir.join("etc"));
        std::fs::create_dir_all(jdk.join("conf")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("net.properties"), "x").unwrap();
        std::fs::write(jdk.join("release"), "x").unwrap();
        let link = |target: &Path, name: &str| std::os::unix::fs::symlink(target, jdk.join(name));
        link(&outside.join("net.properties"), "conf/net.properties").unwrap();
        link(&jdk.join("release"), "conf/inside").unwrap();
        link(&outside, "etc-dir").unwrap();
        link(&dir.join("missing"), "dangling").unwrap();
        let mut found = link_targets_outside(&jdk);
        found.sort();
        let canon = |p: &Path| p.canonicalize().unwrap();
        assert_eq!(
            found,
            [canon(&outside), canon(&outside.join("net.properties"))]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
