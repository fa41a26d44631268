//! Host facts for the management API: load average, CPU times of the process and of its
//! threads, physical memory and swap, virtual memory, descriptor counts, processor counts.
//!
//! Owns the system calls and the `/proc` parsing behind them; each function answers `None`
//! when the host cannot tell (the management natives then report "unavailable" the way the
//! JDK's interfaces document, e.g. -1). Knows nothing about Java objects.

use std::sync::Mutex;

/// The 1, 5 and 15 minute load averages.
pub fn load_average() -> Option<[f64; 3]> {
    parse_loadavg(&std::fs::read_to_string("/proc/loadavg").ok()?)
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
/// nanoseconds; None once it has exited.
pub fn task_cpu_nanos(tid: i64) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    let (user, sys) = parse_stat_times(&text)?;
    let per = tick_nanos();
    Some((user * per, sys * per))
}

/// The fields of a `/proc/.../stat` line after the command name (which may hold spaces and
/// parentheses: it ends at the last ')').
fn stat_fields(text: &str) -> Option<Vec<&str>> {
    let rest = &text[text.rfind(')')? + 1..];
    Some(rest.split_whitespace().collect())
}

/// utime and stime (fields 14 and 15 of stat, in clock ticks).
fn parse_stat_times(text: &str) -> Option<(u64, u64)> {
    let f = stat_fields(text)?;
    // After the name, field 3 (state) is index 0: utime (14) is index 11, stime (15) 12.
    Some((f.get(11)?.parse().ok()?, f.get(12)?.parse().ok()?))
}

/// The process's virtual memory size in bytes (vsize, field 23 of stat).
pub fn virtual_memory_size() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
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
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count() as u64)
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
    parse_proc_stat(&std::fs::read_to_string("/proc/stat").ok()?, n)
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
    fn stat_times_skip_odd_names() {
        let line = "123 (a) b (c)) S 1 2 3 4 5 6 7 8 9 10 42 17 0 0 20 0 1 0 99 123456 7";
        assert_eq!(parse_stat_times(line), Some((42, 17)));
        assert_eq!(
            stat_fields(line).and_then(|f| f.get(20).copied()),
            Some("123456")
        );
        assert_eq!(parse_stat_times("no parens"), None);
        assert_eq!(parse_stat_times("1 (x) S 1"), None);
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
}
