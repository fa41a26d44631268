//! The port, the layer just above `base`: every interaction with the host (files, directories,
//! sockets, processes, clock, environment, signals, native memory).
//!
//! Natives reach the host through their domain's [`Host`] trait object ([`host`]), never
//! through libc or std::fs directly, so that a domain can be given another backend (the 9P
//! gateway of the library-OS issue) without a native changing. The host backend,
//! [`HostBackend`], is the functions of this module and of [`fs`], [`net`] and [`process`],
//! which make the system calls; [`held`] records which domain holds each descriptor. Every
//! failure is an [`Errno`]. What stays outside the trait is the VM's own use of the process:
//! native memory (`Unsafe.allocateMemory`), signals and the wake-up of blocked threads, the
//! tick counter, exit, and constants of the host's ABI (structure layouts, `IOV_MAX`, the page
//! size). This crate owns the system calls and their `unsafe`; it knows nothing about Java
//! objects.

pub mod errno;
pub mod fs;
pub mod held;
pub mod host;
pub mod net;
pub mod os;
pub mod process;
pub mod remote;
pub mod sandbox;
pub mod sysinfo;

pub use errno::{Errno, PortResult};
use held::Owner;
pub use host::{DirStream, Fd, Host, HostBackend, MountTable};
pub use remote::{IoSpec, NinepBackend};
use std::ffi::CString;
use std::time::{SystemTime, UNIX_EPOCH};

// ---- clock ----

pub fn current_time_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Seconds and nanoseconds since the epoch.
pub fn wall_clock() -> (i64, i64) {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or((0, 0), |d| (d.as_secs() as i64, d.subsec_nanos() as i64))
}

pub fn nano_time() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid timespec to write into.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// Ticks of a cheap monotonic counter, for timing short intervals often (portal activations):
/// the CPU's time-stamp counter where it is invariant (a constant rate, running in every
/// state, the kernel's own clock source), else [`nano_time`] (then a tick is a nanosecond).
/// [`ticks_to_nanos`] converts.
#[inline]
pub fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    if tick_base().is_some() {
        return rdtsc();
    }
    nano_time() as u64
}

/// Nanoseconds in `ticks` (see [`ticks`]), at the counter's rate measured from the first use
/// to now (which grows more exact as the process runs).
pub fn ticks_to_nanos(ticks: u64) -> u64 {
    let Some(base) = tick_base() else {
        return ticks;
    };
    let (now_ticks, now_nanos) = (rdtsc(), nano_time());
    let elapsed_ticks = now_ticks.saturating_sub(base.ticks);
    let elapsed_nanos = (now_nanos - base.nanos).max(0) as u128;
    if elapsed_ticks == 0 {
        return 0;
    }
    (ticks as u128 * elapsed_nanos / elapsed_ticks as u128) as u64
}

struct TickBase {
    ticks: u64,
    nanos: i64,
}

/// The time-stamp counter and the monotonic clock read together once (None: no usable TSC).
fn tick_base() -> Option<&'static TickBase> {
    static BASE: std::sync::OnceLock<Option<TickBase>> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        invariant_tsc().then(|| TickBase {
            ticks: rdtsc(),
            nanos: nano_time(),
        })
    })
    .as_ref()
}

/// Whether the TSC runs at a constant rate in every CPU state and the kernel trusts it as
/// its clock source (which it does only if the CPUs' counters agree).
fn invariant_tsc() -> bool {
    if !cfg!(target_arch = "x86_64") {
        return false;
    }
    let source =
        std::fs::read_to_string("/sys/devices/system/clocksource/clocksource0/current_clocksource")
            .unwrap_or_default();
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags = cpuinfo
        .lines()
        .find(|l| l.starts_with("flags"))
        .unwrap_or("");
    let has = |f: &str| flags.split_whitespace().any(|w| w == f);
    source.trim() == "tsc" && has("constant_tsc") && has("nonstop_tsc")
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn rdtsc() -> u64 {
    // SAFETY: RDTSC reads a counter; it has no preconditions on x86_64.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
fn rdtsc() -> u64 {
    nano_time() as u64
}

// ---- process ----

pub fn available_processors() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

pub fn exit(code: i32) -> ! {
    std::process::exit(code)
}

/// (uid, euid, gid, egid)
pub fn ids() -> (u64, u64, u64, u64) {
    // SAFETY: these calls have no preconditions.
    unsafe {
        (
            libc::getuid() as u64,
            libc::geteuid() as u64,
            libc::getgid() as u64,
            libc::getegid() as u64,
        )
    }
}

/// The process's supplementary group ids (getgroups; empty if they cannot be read).
pub fn groups() -> Vec<u32> {
    // SAFETY: with size 0 getgroups only counts, writing nothing.
    let n = unsafe { libc::getgroups(0, std::ptr::null_mut()) };
    if n <= 0 {
        return Vec::new();
    }
    let mut list = vec![0 as libc::gid_t; n as usize];
    // SAFETY: list has room for n group ids.
    let got = unsafe { libc::getgroups(n, list.as_mut_ptr()) };
    list.truncate(got.max(0) as usize);
    list
}

/// Makes the C allocator map every allocation of 1 MiB or more on its own (as it does at
/// first): such memory — a thread's Java stack above all — is then zero pages the kernel fills
/// on first touch, instead of heap memory that `calloc` clears (and so makes resident) once
/// glibc has raised its threshold after a large free. A deep chain of portal calls makes one
/// Java stack per hop; only what each touches should cost memory.
pub fn map_large_allocations() {
    // SAFETY: mallopt only changes the allocator's tuning; M_MMAP_THRESHOLD takes a size.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Hands the C allocator's free memory back to the kernel, in every arena and from the
/// middle of its heaps too (`malloc_trim`): memory freed by another thread than the one that
/// allocated it (unloaded classes' metadata, freed by the unloader) stays in that thread's
/// arena, which a later thread may never use again.
pub fn give_back_free_memory() {
    // SAFETY: malloc_trim only releases free pages of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

pub fn raise(sig: i32) {
    // SAFETY: raise has no memory-safety preconditions.
    unsafe { libc::raise(sig) };
}

/// The number of signal `name` ("TERM"), as HotSpot's `os::get_signal_number` knows them; -1
/// for an unknown name.
pub fn signal_number(name: &str) -> i32 {
    match name {
        "HUP" => libc::SIGHUP,
        "INT" => libc::SIGINT,
        "QUIT" => libc::SIGQUIT,
        "ILL" => libc::SIGILL,
        "TRAP" => libc::SIGTRAP,
        "ABRT" | "IOT" => libc::SIGABRT,
        "BUS" => libc::SIGBUS,
        "FPE" => libc::SIGFPE,
        "KILL" => libc::SIGKILL,
        "USR1" => libc::SIGUSR1,
        "SEGV" => libc::SIGSEGV,
        "USR2" => libc::SIGUSR2,
        "PIPE" => libc::SIGPIPE,
        "ALRM" => libc::SIGALRM,
        "TERM" => libc::SIGTERM,
        "STKFLT" => libc::SIGSTKFLT,
        "CHLD" | "CLD" => libc::SIGCHLD,
        "CONT" => libc::SIGCONT,
        "STOP" => libc::SIGSTOP,
        "TSTP" => libc::SIGTSTP,
        "TTIN" => libc::SIGTTIN,
        "TTOU" => libc::SIGTTOU,
        "URG" => libc::SIGURG,
        "XCPU" => libc::SIGXCPU,
        "XFSZ" => libc::SIGXFSZ,
        "VTALRM" => libc::SIGVTALRM,
        "PROF" => libc::SIGPROF,
        "WINCH" => libc::SIGWINCH,
        "POLL" | "IO" => libc::SIGIO,
        "PWR" => libc::SIGPWR,
        "SYS" => libc::SIGSYS,
        _ => -1,
    }
}

/// What a signal does: the host's default action, nothing, or call a handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalAction {
    Default,
    Ignore,
    /// Calls this handler (at this address).
    Handler(usize),
}

/// What signal `sig` does now; Err(errno) for a number the host does not know.
pub fn signal_action(sig: i32) -> PortResult<SignalAction> {
    // SAFETY: a zeroed sigaction is a valid value for sigaction to fill in; no action is set.
    let old = unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(sig, std::ptr::null(), &mut old) < 0 {
            return Err(Errno::last());
        }
        old.sa_sigaction
    };
    Ok(match old {
        libc::SIG_DFL => SignalAction::Default,
        libc::SIG_IGN => SignalAction::Ignore,
        h => SignalAction::Handler(h),
    })
}

/// What a signal is made to do by [`set_signal_action`].
#[derive(Clone, Copy)]
pub enum SetSignal {
    Default,
    Ignore,
    /// Call this handler, which must be async-signal-safe; the system calls it interrupts go
    /// on (SA_RESTART).
    Call(extern "C" fn(libc::c_int)),
    /// As `Call`, but an interrupted system call fails with EINTR (to wake a blocked thread).
    Interrupt(extern "C" fn(libc::c_int)),
}

/// Sets what signal `sig` does. Err(errno) if the host refuses (SIGKILL, SIGSTOP, a bad
/// number).
pub fn set_signal_action(sig: i32, to: SetSignal) -> PortResult<()> {
    let (target, flags) = match to {
        SetSignal::Default => (libc::SIG_DFL, libc::SA_RESTART),
        SetSignal::Ignore => (libc::SIG_IGN, libc::SA_RESTART),
        SetSignal::Call(h) => (h as libc::sighandler_t, libc::SA_RESTART),
        SetSignal::Interrupt(h) => (h as libc::sighandler_t, 0),
    };
    // SAFETY: a zeroed sigaction is a valid value (empty mask, no flags) that is then filled
    // in; a handler is an `extern "C" fn(c_int)` that `SetSignal::Call` requires to be
    // async-signal-safe.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = target;
        sa.sa_flags = flags;
        libc::sigemptyset(&mut sa.sa_mask);
        if libc::sigaction(sig, &sa, std::ptr::null_mut()) < 0 {
            return Err(Errno::last());
        }
    }
    Ok(())
}

/// Whether the VM's ports use signal `sig` themselves (the wake-up signal of blocked calls).
pub fn signal_used_by_port(sig: i32) -> bool {
    sig == wakeup_signal()
}

/// Whether process `pid` exists.
pub fn process_alive(pid: i64) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks for existence and permission.
    pid > 0 && unsafe { libc::kill(pid, 0) == 0 || *libc::__errno_location() == libc::EPERM }
}

// ---- waking threads blocked in system calls (sun.nio.ch.NativeThread) ----

/// The signal that wakes a thread out of a blocking system call, as libnio's
/// `INTERRUPT_SIGNAL` on Linux. Its handler does nothing and is installed without
/// `SA_RESTART`, so the interrupted call fails with EINTR and the JDK's loop re-checks whether
/// the channel is still open.
fn wakeup_signal() -> i32 {
    libc::SIGRTMAX() - 2
}

extern "C" fn on_wakeup_signal(_: libc::c_int) {}

/// Installs the wake-up signal's handler (once per process; later calls only report the first
/// outcome).
pub fn install_wakeup_signal() -> PortResult<()> {
    static INSTALLED: std::sync::OnceLock<PortResult<()>> = std::sync::OnceLock::new();
    *INSTALLED
        .get_or_init(|| set_signal_action(wakeup_signal(), SetSignal::Interrupt(on_wakeup_signal)))
}

/// A token naming the calling OS thread for [`wake_thread`]: its kernel thread id (never 0 or
/// -1, the JDK's "no thread" values).
pub fn current_thread_token() -> i64 {
    // SAFETY: gettid has no preconditions.
    unsafe { libc::gettid() as i64 }
}

thread_local! {
    static CANCELLED: std::sync::Arc<std::sync::atomic::AtomicBool> = Default::default();
}

/// The calling OS thread's cancellation flag. Once it is set, the thread's system calls that
/// retry on EINTR give up with EINTR instead (or do not start); [`wake_thread`] interrupts the
/// one it is blocked in. For stopping the threads of a terminated domain.
pub fn cancellation() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    CANCELLED.with(|c| c.clone())
}

/// Whether the calling thread's blocking system calls are cancelled (see [`cancellation`]).
pub fn cancelled() -> bool {
    CANCELLED.with(|c| c.load(std::sync::atomic::Ordering::Relaxed))
}

/// Sends the wake-up signal to the thread of `token` in this process. A token of a thread
/// that has ended fails with ESRCH (tgkill checks the thread group, so no other process is
/// ever signalled); the handler is installed first, so the signal can never kill the process.
pub fn wake_thread(token: i64) -> PortResult<()> {
    install_wakeup_signal()?;
    let Ok(tid) = libc::pid_t::try_from(token) else {
        return Err(Errno::ESRCH);
    };
    if tid <= 0 {
        return Err(Errno::ESRCH);
    }
    // SAFETY: tgkill has no memory-safety preconditions; the signal's handler is installed.
    if unsafe { libc::tgkill(libc::getpid(), tid, wakeup_signal()) } < 0 {
        return Err(Errno::last());
    }
    Ok(())
}

pub fn environment() -> Vec<(Vec<u8>, Vec<u8>)> {
    use std::os::unix::ffi::OsStringExt;
    std::env::vars_os()
        .map(|(k, v)| (k.into_vec(), v.into_vec()))
        .collect()
}

// ---- native memory (Unsafe.allocateMemory) ----

pub fn malloc(size: usize) -> usize {
    // SAFETY: malloc with any size is safe; 0 may return null or a unique pointer.
    unsafe { libc::malloc(size.max(1)) as usize }
}
pub fn realloc(addr: usize, size: usize) -> usize {
    // SAFETY: addr came from malloc/realloc (Unsafe's contract) or is 0.
    unsafe { libc::realloc(addr as *mut libc::c_void, size.max(1)) as usize }
}
pub fn free(addr: usize) {
    // SAFETY: addr came from malloc/realloc (Unsafe's contract) or is 0.
    unsafe { libc::free(addr as *mut libc::c_void) }
}

// ---- file descriptors ----

#[derive(Clone, Copy, Debug)]
pub enum OpenMode {
    Read,
    Truncate,
    Append,
    ReadWrite,
}

pub enum Whence {
    Start,
    Current,
}

fn cpath(path: &str) -> PortResult<CString> {
    CString::new(path).map_err(|_| Errno::EINVAL)
}

pub fn open(owner: Owner, path: &str, mode: OpenMode) -> PortResult<i32> {
    let flags = match mode {
        OpenMode::Read => libc::O_RDONLY,
        OpenMode::Truncate => libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
        OpenMode::Append => libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND,
        OpenMode::ReadWrite => libc::O_RDWR | libc::O_CREAT,
    } | libc::O_CLOEXEC;
    let c = cpath(path)?;
    // SAFETY: c is a NUL-terminated path.
    let fd = unsafe { libc::open(c.as_ptr(), flags, 0o666) };
    if fd < 0 {
        return Err(Errno::last());
    }
    // Like the JDK, refuse to open directories as files.
    if let Some(s) = fstat(fd)
        && s.is_dir
    {
        fs::close_raw(fd).ok();
        return Err(Errno::EISDIR);
    }
    held::took_fd(owner, fd)
}

/// `owner` closes `fd` (see [`held`]).
pub fn close(owner: Owner, fd: i32) -> PortResult<()> {
    fs::close(owner, fd)
}

pub fn write_all(fd: i32, mut data: &[u8]) -> PortResult<()> {
    while !data.is_empty() {
        let n = fs::write_buf(fd, data)?;
        data = &data[n..];
    }
    Ok(())
}

pub fn read(fd: i32, buf: &mut [u8]) -> PortResult<usize> {
    fs::read_buf(fd, buf)
}

pub fn seek(fd: i32, off: i64, whence: Whence) -> PortResult<i64> {
    let w = match whence {
        Whence::Start => libc::SEEK_SET,
        Whence::Current => libc::SEEK_CUR,
    };
    // SAFETY: lseek has no memory-safety preconditions.
    let r = unsafe { libc::lseek(fd, off, w) };
    if r < 0 { Err(Errno::last()) } else { Ok(r) }
}

pub struct Stat {
    pub size: i64,
    pub mtime_ms: i64,
    pub is_dir: bool,
    pub is_file: bool,
}

fn fstat(fd: i32) -> Option<Stat> {
    // SAFETY: st is plain old data; fstat fills it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: st is a valid out-pointer.
    if unsafe { libc::fstat(fd, &mut st) } < 0 {
        return None;
    }
    Some(Stat {
        size: st.st_size,
        mtime_ms: st.st_mtime * 1000 + st.st_mtime_nsec / 1_000_000,
        is_dir: st.st_mode & libc::S_IFMT == libc::S_IFDIR,
        is_file: st.st_mode & libc::S_IFMT == libc::S_IFREG,
    })
}

pub fn file_length(fd: i32) -> PortResult<i64> {
    fstat(fd).map(|s| s.size).ok_or_else(Errno::last)
}

pub fn fsync(fd: i32) -> PortResult<()> {
    // SAFETY: fsync has no memory-safety preconditions.
    if unsafe { libc::fsync(fd) } < 0 {
        Err(Errno::last())
    } else {
        Ok(())
    }
}

pub fn set_length(fd: i32, len: i64) -> PortResult<()> {
    // SAFETY: ftruncate has no memory-safety preconditions.
    if unsafe { libc::ftruncate(fd, len) } < 0 {
        Err(Errno::last())
    } else {
        Ok(())
    }
}

pub fn available(fd: i32) -> PortResult<i64> {
    if let Some(s) = fstat(fd)
        && s.is_file
    {
        let pos = seek(fd, 0, Whence::Current)?;
        return Ok((s.size - pos).max(0));
    }
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int into n.
    if unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) } < 0 {
        return Ok(0);
    }
    Ok(n as i64)
}

pub fn is_append(fd: i32) -> bool {
    // SAFETY: fcntl F_GETFL has no memory-safety preconditions.
    let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    fl >= 0 && fl & libc::O_APPEND != 0
}

pub fn isatty(fd: i32) -> bool {
    // SAFETY: isatty has no memory-safety preconditions.
    unsafe { libc::isatty(fd) == 1 }
}

// ---- paths ----

pub fn stat(path: &str) -> Option<Stat> {
    let m = std::fs::metadata(path).ok()?;
    use std::os::unix::fs::MetadataExt;
    Some(Stat {
        size: m.size() as i64,
        mtime_ms: m.mtime() * 1000 + m.mtime_nsec() / 1_000_000,
        is_dir: m.is_dir(),
        is_file: m.is_file(),
    })
}

pub fn access(path: &str, mode: i32) -> bool {
    let Ok(c) = cpath(path) else { return false };
    // SAFETY: c is a NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), mode) == 0 }
}

pub fn set_permission(path: &str, access: i32, enable: bool, owner_only: bool) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(m) = std::fs::metadata(path) else {
        return false;
    };
    // ACCESS_READ = 4, ACCESS_WRITE = 2, ACCESS_EXECUTE = 1
    let bits = if owner_only {
        (access as u32) << 6
    } else {
        ((access as u32) << 6) | ((access as u32) << 3) | access as u32
    };
    let mode = m.permissions().mode();
    let new = if enable { mode | bits } else { mode & !bits };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(new)).is_ok()
}

pub fn create_exclusive(path: &str) -> PortResult<bool> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(Errno::from(e)),
    }
}

pub fn delete(path: &str) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir(path).is_ok(),
        Ok(_) => std::fs::remove_file(path).is_ok(),
        Err(_) => false,
    }
}

pub fn mkdir(path: &str) -> bool {
    std::fs::create_dir(path).is_ok()
}

pub fn rename(from: &str, to: &str) -> bool {
    std::fs::rename(from, to).is_ok()
}

pub fn set_mtime(path: &str, ms: i64) -> bool {
    let Ok(f) = std::fs::File::options()
        .write(true)
        .open(path)
        .or_else(|_| std::fs::File::open(path))
    else {
        return false;
    };
    let t = UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    f.set_modified(t).is_ok()
}

pub fn space(path: &str, which: i32) -> i64 {
    let Ok(c) = cpath(path) else { return 0 };
    // SAFETY: s is plain old data filled by statvfs.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is NUL-terminated and s a valid out-pointer.
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return 0;
    }
    let f = s.f_frsize as i64;
    match which {
        0 => s.f_blocks as i64 * f,
        1 => s.f_bfree as i64 * f,
        _ => s.f_bavail as i64 * f,
    }
}

pub fn list_dir(path: &str) -> Option<Vec<String>> {
    let rd = std::fs::read_dir(path).ok()?;
    Some(
        rd.filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
    )
}

/// Canonical form of `path`: symlinks resolved for the existing prefix, `.`/`..` collapsed.
pub fn canonicalize(path: &str) -> String {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p.to_string_lossy().into_owned();
    }
    let mut parts: Vec<&str> = Vec::new();
    for comp in path.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    // Resolve the longest existing prefix, keep the rest as is.
    for i in (0..=parts.len()).rev() {
        let prefix = format!("/{}", parts[..i].join("/"));
        if let Ok(p) = std::fs::canonicalize(&prefix) {
            let mut s = p.to_string_lossy().into_owned();
            for rest in &parts[i..] {
                if !s.ends_with('/') {
                    s.push('/');
                }
                s.push_str(rest);
            }
            return s;
        }
    }
    format!("/{}", parts.join("/"))
}

// ---- platform properties (jdk.internal.util.SystemProps.Raw) ----

/// The host locale's language, country and encoding (in a sandbox, as read before it closed
/// the host's files, the locale's among them).
fn locale_info() -> (String, Option<String>, String) {
    match sandbox::frozen() {
        Some(f) => f.locale.clone(),
        None => read_locale_info(),
    }
}

pub(crate) fn read_locale_info() -> (String, Option<String>, String) {
    // SAFETY: setlocale/nl_langinfo are called with valid arguments; the returned C strings are
    // copied before any further locale call.
    unsafe {
        libc::setlocale(libc::LC_ALL, c"".as_ptr());
        let name_ptr = libc::setlocale(libc::LC_CTYPE, std::ptr::null());
        let name = if name_ptr.is_null() {
            "C".to_string()
        } else {
            std::ffi::CStr::from_ptr(name_ptr)
                .to_string_lossy()
                .into_owned()
        };
        let cs = libc::nl_langinfo(libc::CODESET);
        let codeset = if cs.is_null() {
            "ANSI_X3.4-1968".to_string()
        } else {
            std::ffi::CStr::from_ptr(cs).to_string_lossy().into_owned()
        };
        let base = name.split(['.', '@']).next().unwrap_or("C").to_string();
        let (lang, country) = if name == "C" || name == "POSIX" {
            ("en".to_string(), Some("US".to_string()))
        } else if base == "C" || base == "POSIX" {
            ("en".to_string(), None)
        } else {
            let mut it = base.splitn(2, '_');
            let l = it.next().unwrap_or("en").to_string();
            (l, it.next().map(str::to_string))
        };
        let enc = if codeset == "UTF-8" || codeset == "utf8" {
            "UTF-8".to_string()
        } else {
            codeset
        };
        (lang, country, enc)
    }
}

fn os_version() -> String {
    // SAFETY: u is plain old data filled by uname.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: u is a valid out-pointer.
    if unsafe { libc::uname(&mut u) } != 0 {
        return String::new();
    }
    // SAFETY: uname NUL-terminates release.
    unsafe { std::ffi::CStr::from_ptr(u.release.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// The user's name and home directory (in a sandbox, as read before it closed the password
/// database).
fn user_info() -> (String, String) {
    match sandbox::frozen() {
        Some(f) => f.user.clone(),
        None => read_user_info(),
    }
}

pub(crate) fn read_user_info() -> (String, String) {
    // SAFETY: getpwuid returns a pointer to static storage or null; fields are copied at once.
    unsafe {
        let pw = libc::getpwuid(libc::getuid());
        if pw.is_null() {
            return (
                std::env::var("USER").unwrap_or_else(|_| "?".into()),
                std::env::var("HOME").unwrap_or_else(|_| "?".into()),
            );
        }
        let name = std::ffi::CStr::from_ptr((*pw).pw_name)
            .to_string_lossy()
            .into_owned();
        let home = std::ffi::CStr::from_ptr((*pw).pw_dir)
            .to_string_lossy()
            .into_owned();
        (name, home)
    }
}

/// The values of SystemProps.Raw's `_xxx_NDX` slots (39 entries).
pub fn platform_properties() -> Vec<Option<String>> {
    let (lang, country, enc) = locale_info();
    let (user, home) = user_info();
    let cwd = std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut p: Vec<Option<String>> = vec![None; 39];
    p[0] = country.clone();
    p[1] = Some(lang.clone());
    p[4] = Some(enc.clone());
    p[5] = Some("/".into());
    p[6] = country;
    p[7] = Some(lang);
    p[18] = Some("/tmp".into());
    p[19] = Some("\n".into());
    p[20] = Some("amd64".into());
    p[21] = Some("Linux".into());
    p[22] = Some(os_version());
    p[23] = Some(":".into());
    p[28] = Some("64".into());
    p[29] = Some("little".into());
    p[31] = Some("UnicodeLittle".into());
    p[32] = Some(enc.clone());
    if isatty(2) {
        p[34] = Some(enc.clone());
    }
    if isatty(1) {
        p[35] = Some(enc);
    }
    p[36] = Some(cwd);
    p[37] = Some(home);
    p[38] = Some(user);
    p
}

// ---- time zone ----

/// The host's time zone id (TZ, /etc/timezone, or the /etc/localtime link), like the JDK's
/// TimeZone_md.c (in a sandbox, as read before it closed the host's files).
pub fn system_time_zone() -> Option<String> {
    match sandbox::frozen() {
        Some(f) => f.time_zone.clone(),
        None => read_system_time_zone(),
    }
}

pub(crate) fn read_system_time_zone() -> Option<String> {
    if let Ok(tz) = std::env::var("TZ") {
        let tz = tz.trim_start_matches(':').to_string();
        if !tz.is_empty() {
            return Some(tz);
        }
    }
    if let Ok(s) = std::fs::read_to_string("/etc/timezone") {
        let s = s.trim().to_string();
        if !s.is_empty() {
            return Some(s);
        }
    }
    let link = std::fs::read_link("/etc/localtime").ok()?;
    let s = link.to_string_lossy().into_owned();
    s.find("zoneinfo/")
        .map(|i| s[i + "zoneinfo/".len()..].to_string())
}

/// "GMT+hh:mm" for the host's current offset.
pub fn gmt_offset_id() -> String {
    // SAFETY: localtime_r writes into `tm`; `now` is a valid time_t.
    let off = unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        libc::localtime_r(&now, &mut tm);
        tm.tm_gmtoff
    };
    let sign = if off < 0 { '-' } else { '+' };
    let off = off.abs();
    format!("GMT{sign}{:02}:{:02}", off / 3600, (off % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_convert_to_the_nanoseconds_that_passed() {
        let (t0, n0) = (ticks(), nano_time());
        std::thread::sleep(std::time::Duration::from_millis(30));
        let (t1, n1) = (ticks(), nano_time());
        let measured = ticks_to_nanos(t1 - t0) as i64;
        let elapsed = n1 - n0;
        // Loose bounds: the rate is measured over this test's short life.
        assert!(
            measured > elapsed * 9 / 10 && measured < elapsed * 11 / 10,
            "{measured} ns for {elapsed} ns"
        );
        assert_eq!(ticks_to_nanos(0), 0);
    }
}
