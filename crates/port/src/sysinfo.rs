//! Host facts for the management API: load average, CPU times of the process and of its
//! threads, physical memory and swap, virtual memory, descriptor counts, processor counts.
//!
//! Owns the system calls and the `/proc` parsing behind them; each function answers `None`
//! when the host cannot tell (the management natives then report "unavailable" the way the
//! JDK's interfaces document, e.g. -1). Knows nothing about Java objects.

use std::sync::Mutex;

/// The 1, 5 and 15 minute load averages.
pub fn load_average() -> Option<[f64; 3]> {
    parse_loadavg(&read_proc("/proc/loadavg")?)
}

fn parse_loadavg(text: &str) -> Option<[f64; 3]> {
    let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// The reading of CPU clock `clock` in nanoseconds (None if it cannot be read).
pub(super) fn clock_nanos(clock: libc::clockid_t) -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer; a bad clock id only makes the call fail.
    let r = unsafe { libc::clock_gettime(clock, &mut ts) };
    (r == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// CPU time (user and system) the whole process has used, in nanoseconds.
pub fn process_cpu_nanos() -> Option<u64> {
    clock_nanos(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time (user and system) the calling thread has used, in nanoseconds.
pub fn thread_cpu_nanos() -> Option<u64> {
    clock_nanos(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// User-mode CPU time the calling thread has used, in nanoseconds.
pub fn thread_user_nanos() -> Option<u64> {
    // SAFETY: rusage is plain data; all-zero is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid out-pointer for the calling thread's usage.
    let r = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut ru) };
    (r == 0).then(|| ru.ru_utime.tv_sec as u64 * 1_000_000_000 + ru.ru_utime.tv_usec as u64 * 1_000)
}

/// Nanoseconds in one clock tick of `/proc`'s CPU times.
pub fn tick_nanos() -> u64 {
    1_000_000_000 / clock_ticks_per_second()
}

fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if n > 0 { n as u64 } else { 100 }
}

/// (user, system) CPU time of thread `tid` of this process (a `current_thread_token`), in
/// nanoseconds; None once it has exited. Read from the thread's CPU clocks (no `/proc`, so
/// it works in a sandbox too).
pub fn task_cpu_nanos(tid: i64) -> Option<(u64, u64)> {
    let total = clock_nanos(thread_clock(tid, CPUCLOCK_PROF)?)?;
    let user = clock_nanos(thread_clock(tid, CPUCLOCK_VIRT)?)?;
    Some((user, total.saturating_sub(user)))
}

/// Linux's CPU clock of a thread: user and system time (`CPUCLOCK_PROF`), or user time alone
/// (`CPUCLOCK_VIRT`).
const CPUCLOCK_PROF: libc::clockid_t = 0;
const CPUCLOCK_VIRT: libc::clockid_t = 1;
/// The bit that makes a CPU clock a thread's rather than a process's.
const CPUCLOCK_PERTHREAD: libc::clockid_t = 4;

/// The clock id of thread `tid`'s CPU clock `which`, as Linux builds it (what
/// `pthread_getcpuclockid` gives): the complement of the id shifted left by 3, then the flags.
fn thread_clock(tid: i64, which: libc::clockid_t) -> Option<libc::clockid_t> {
    let tid = libc::clockid_t::try_from(tid).ok()?;
    Some((!tid << 3) | CPUCLOCK_PERTHREAD | which)
}

/// The fields of a `/proc/.../stat` line after the command name (which may hold spaces and
/// parentheses: it ends at the last ')').
fn stat_fields(text: &str) -> Option<Vec<&str>> {
    let rest = &text[text.rfind(')')? + 1..];
    Some(rest.split_whitespace().collect())
}

/// The process's virtual memory size in bytes (vsize, field 23 of stat).
pub fn virtual_memory_size() -> Option<u64> {
    let text = read_proc("/proc/self/stat")?;
    stat_fields(&text)?.get(20)?.parse().ok()
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 { n as u64 } else { 4096 }
}

fn sysconf_pages(name: libc::c_int) -> Option<u64> {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(name) };
    (n > 0).then(|| n as u64 * page_size())
}

/// Physical memory of the host in bytes.
pub fn total_memory() -> Option<u64> {
    sysconf_pages(libc::_SC_PHYS_PAGES)
}

/// Physical memory not in use, in bytes.
pub fn free_memory() -> Option<u64> {
    sysconf_pages(libc::_SC_AVPHYS_PAGES)
}

/// (total, free) swap space in bytes.
pub fn swap() -> Option<(u64, u64)> {
    // SAFETY: sysinfo is plain data; all-zero is a valid value.
    let mut si: libc::sysinfo = unsafe { std::mem::zeroed() };
    // SAFETY: `si` is a valid out-pointer.
    let r = unsafe { libc::sysinfo(&mut si) };
    (r == 0).then(|| {
        let unit = (si.mem_unit as u64).max(1);
        (si.totalswap as u64 * unit, si.freeswap as u64 * unit)
    })
}

/// Descriptors the process has open now.
pub fn open_descriptors() -> Option<u64> {
    if let Some(dir) = HELD.get().and_then(|h| h.fd_dir.as_ref()) {
        return count_entries(&crate::remote::lock(dir));
    }
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count() as u64)
}

/// The `/proc` files read here, held open by a process whose host files are closed
/// afterwards (`--sandbox`: Landlock checks a file when it is opened, not when it is read).
struct Held {
    files: Vec<(&'static str, std::fs::File)>,
    /// `/proc/self/fd`, listed through its descriptor (one lister at a time: they share
    /// its offset).
    fd_dir: Option<Mutex<std::os::fd::OwnedFd>>,
}

static HELD: std::sync::OnceLock<Held> = std::sync::OnceLock::new();

/// Opens the `/proc` files this module reads, which it reads through these descriptors from
/// then on. For a process about to close the host's files to itself; a process that forks
/// must not call it (its child would read the parent's `/proc/self`).
pub fn hold_proc_files() {
    let files = ["/proc/self/stat", "/proc/stat", "/proc/loadavg"]
        .into_iter()
        .filter_map(|p| std::fs::File::open(p).ok().map(|f| (p, f)))
        .collect();
    let fd_dir = std::fs::File::open("/proc/self/fd")
        .ok()
        .map(|f| Mutex::new(f.into()));
    let _ = HELD.set(Held { files, fd_dir });
}

/// `/proc` file `path` read whole, through its held descriptor if there is one.
fn read_proc(path: &str) -> Option<String> {
    use std::os::unix::fs::FileExt;
    let Some((_, f)) = HELD
        .get()
        .and_then(|h| h.files.iter().find(|(p, _)| *p == path))
    else {
        return std::fs::read_to_string(path).ok();
    };
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match f.read_at(&mut buf, text.len() as u64).ok()? {
            0 => return String::from_utf8(text).ok(),
            n => text.extend_from_slice(&buf[..n]),
        }
    }
}

/// The entries of directory `dir` but `.` and `..`, read from its start.
fn count_entries(dir: &std::os::fd::OwnedFd) -> Option<u64> {
    use std::os::fd::IntoRawFd;
    let own = dir.try_clone().ok()?.into_raw_fd();
    // SAFETY: `own` is a descriptor of ours that fdopendir takes over (closedir closes it);
    // the stream is used by this call alone and closed before it returns.
    unsafe {
        let stream = libc::fdopendir(own);
        if stream.is_null() {
            libc::close(own);
            return None;
        }
        libc::rewinddir(stream);
        let mut n = 0;
        loop {
            let e = libc::readdir(stream);
            if e.is_null() {
                break;
            }
            let name = std::ffi::CStr::from_ptr((*e).d_name.as_ptr()).to_bytes();
            if name != b"." && name != b".." {
                n += 1;
            }
        }
        libc::closedir(stream);
        Some(n)
    }
}

/// The most descriptors the process may have open (its soft limit).
pub fn max_descriptors() -> Option<u64> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `rl` is a valid out-pointer.
    let r = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) };
    (r == 0).then_some(rl.rlim_cur)
}

/// (configured, online) processors of the host.
pub fn host_cpus() -> (u32, u32) {
    // SAFETY: sysconf has no preconditions.
    let (conf, online) = unsafe {
        (
            libc::sysconf(libc::_SC_NPROCESSORS_CONF),
            libc::sysconf(libc::_SC_NPROCESSORS_ONLN),
        )
    };
    (conf.max(1) as u32, online.max(1) as u32)
}

/// (busy, total) clock ticks of all the host's processors (`cpu` line of /proc/stat), or of
/// processor `n` alone.
pub fn host_cpu_ticks(n: Option<u32>) -> Option<(u64, u64)> {
    parse_proc_stat(&read_proc("/proc/stat")?, n)
}

fn parse_proc_stat(text: &str, n: Option<u32>) -> Option<(u64, u64)> {
    let name = match n {
        Some(n) => format!("cpu{n}"),
        None => "cpu".to_string(),
    };
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name.as_str()))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal ...: idle and iowait are not busy.
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    Some((total.saturating_sub(idle), total))
}

/// Load over the interval since the previous sample taken through the same `Sampler`:
/// the busy share of elapsed ticks, in [0, 1] (None when no time passed or the host cannot
/// tell).
pub struct Sampler {
    last: Mutex<Option<(u64, u64)>>,
}

impl Sampler {
    pub const fn new() -> Sampler {
        Sampler {
            last: Mutex::new(None),
        }
    }

    /// Takes sample `(busy, total)` and gives the load since the previous one (since zero
    /// for the first).
    pub fn load(&self, now: (u64, u64)) -> Option<f64> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let (b0, t0) = last.unwrap_or((0, 0));
        *last = Some(now);
        let (db, dt) = (now.0.saturating_sub(b0), now.1.saturating_sub(t0));
        (dt > 0).then(|| (db as f64 / dt as f64).clamp(0.0, 1.0))
    }
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loadavg_parses() {
        assert_eq!(
            parse_loadavg("0.52 1.00 2.25 3/456 789\n"),
            Some([0.52, 1.0, 2.25])
        );
        assert_eq!(parse_loadavg("garbage"), None);
        assert_eq!(parse_loadavg(""), None);
    }

    #[test]
    fn stat_fields_skip_odd_names() {
        let line = "123 (a) b (c)) S 1 2 3 4 5 6 7 8 9 10 42 17 0 0 20 0 1 0 99 123456 7";
        assert_eq!(
            stat_fields(line).and_then(|f| f.get(20).copied()),
            Some("123456")
        );
        assert_eq!(stat_fields("no parens"), None);
    }

    #[test]
    fn proc_stat_busy_and_total() {
        let text = "cpu  10 0 5 80 5 0 0 0 0 0\ncpu0 4 0 2 40 4 0 0 0 0 0\nintr 1\n";
        assert_eq!(parse_proc_stat(text, None), Some((15, 100)));
        assert_eq!(parse_proc_stat(text, Some(0)), Some((6, 50)));
        assert_eq!(parse_proc_stat(text, Some(1)), None);
    }

    #[test]
    fn sampler_gives_load_between_samples() {
        let s = Sampler::new();
        assert_eq!(s.load((50, 100)), Some(0.5));
        assert_eq!(s.load((50, 100)), None);
        assert_eq!(s.load((150, 300)), Some(0.5));
    }

    #[test]
    fn host_facts_are_sane() {
        assert!(process_cpu_nanos().is_some());
        assert!(thread_cpu_nanos().is_some());
        assert!(thread_user_nanos().is_some());
        assert!(total_memory().unwrap_or(0) >= free_memory().unwrap_or(0));
        assert!(open_descriptors().unwrap_or(0) >= 1);
        let (conf, online) = host_cpus();
        assert!(conf >= 1 && online >= 1);
        let tid = crate::current_thread_token();
        assert!(task_cpu_nanos(tid).is_some());
    }

    #[test]
    fn another_threads_cpu_time_is_read_from_its_clock() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            let start = std::time::Instant::now();
            let mut x = 0u64;
            while start.elapsed() < std::time::Duration::from_millis(50) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
            tx.send(crate::current_thread_token()).unwrap();
            done_rx.recv().unwrap();
        });
        let tid = rx.recv().unwrap();
        let (user, sys) = task_cpu_nanos(tid).expect("a live thread's times");
        assert!(
            user + sys >= 10_000_000,
            "{user} + {sys} ns after a 50 ms loop"
        );
        assert!(user + sys < 10_000_000_000);
        done_tx.send(()).unwrap();
        worker.join().unwrap();
        // The thread is released a moment after `join` returns.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while task_cpu_nanos(tid).is_some() {
            assert!(
                std::time::Instant::now() < deadline,
                "an exited thread has times"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
