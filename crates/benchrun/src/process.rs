//! Running one VM process: its stdout and stderr captured, a time-out that kills its whole
//! process group, its wall time from spawn to exit and its peak resident set size (from
//! `wait4`'s resource usage; Linux).

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What one run gave.
pub enum Outcome {
    /// It exited with status 0.
    Ok {
        secs: f64,
        stdout: String,
        stderr: String,
        /// Peak resident set size, kilobytes.
        peak_rss_kb: u64,
    },
    Failed {
        secs: f64,
        why: String,
    },
    TimedOut,
}

/// How a child ended, as `wait4` told.
struct Exit {
    status: ExitStatus,
    peak_rss_kb: u64,
}

/// Runs `cmd` to its end or for at most `timeout`.
pub fn run_once(mut cmd: Command, timeout: Duration) -> Outcome {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so that a time-out kills whatever it started too.
    cmd.process_group(0);
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return failed(0.0, format!("cannot start: {e}")),
    };
    let out = read_all(child.stdout.take());
    let err = read_all(child.stderr.take());
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return failed(0.0, format!("process id {} out of range", child.id()));
    };
    let ended = wait_or_kill(pid, start, timeout);
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match ended {
        None => Outcome::TimedOut,
        Some((Err(why), secs)) => failed(secs, why),
        Some((Ok(exit), secs)) if exit.status.success() => Outcome::Ok {
            secs,
            stdout,
            stderr,
            peak_rss_kb: exit.peak_rss_kb,
        },
        Some((Ok(exit), secs)) => failed(secs, failure(exit.status, &stderr, &stdout)),
    }
}

fn failed(secs: f64, why: String) -> Outcome {
    Outcome::Failed { secs, why }
}

/// A thread reading a pipe to its end (nothing if there is no pipe).
fn read_all(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut r) = pipe {
            let _ = r.read_to_end(&mut v);
        }
        String::from_utf8_lossy(&v).into_owned()
    })
}

/// Waits for the child `pid` (in its own process group) and reaps it; after `timeout` kills the
/// group and gives `None`. Otherwise how it ended and the seconds since `start`.
fn wait_or_kill(
    pid: libc::pid_t,
    start: Instant,
    timeout: Duration,
) -> Option<(Result<Exit, String>, f64)> {
    let (tx, rx) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let exit = wait4(pid);
        let secs = start.elapsed().as_secs_f64();
        let _ = tx.send(());
        (exit, secs)
    });
    let timed_out = rx.recv_timeout(timeout).is_err();
    if timed_out {
        // SAFETY: killpg has no memory effects. The group is our child's own: the child is not
        // reaped yet (the waiter is still blocked in wait4), so its id cannot have been reused.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
    }
    let ended = waiter
        .join()
        .unwrap_or_else(|_| (Err("the waiting thread panicked".into()), 0.0));
    (!timed_out).then_some(ended)
}

/// Reaps the child `pid` with its resource usage.
fn wait4(pid: libc::pid_t) -> Result<Exit, String> {
    let mut status = 0;
    // SAFETY: rusage is a plain C struct of integers, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the types wait4 expects.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok(Exit {
                status: ExitStatus::from_raw(status),
                // Linux gives ru_maxrss in kilobytes.
                peak_rss_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0),
            });
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("wait failed: {e}"));
        }
    }
}

/// Why a run failed: its exit code or signal and the first line it printed on stderr (or the
/// last on stdout).
fn failure(status: ExitStatus, stderr: &str, stdout: &str) -> String {
    let first = stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .or_else(|| stdout.lines().last())
        .unwrap_or("")
        .trim();
    let mut why = match status.code() {
        Some(c) => format!("exit {c}"),
        None => format!("killed by signal ({status})"),
    };
    if !first.is_empty() {
        why.push_str(": ");
        why.extend(first.chars().take(200));
    }
    why
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn output_and_peak_rss_of_a_run() {
        match run_once(
            sh("echo hello; echo metric a 1 ns >&2"),
            Duration::from_secs(10),
        ) {
            Outcome::Ok {
                stdout,
                stderr,
                peak_rss_kb,
                ..
            } => {
                assert_eq!(stdout, "hello\n");
                assert_eq!(stderr, "metric a 1 ns\n");
                assert!(peak_rss_kb > 0);
            }
            _ => panic!("sh failed"),
        }
    }

    #[test]
    fn failures_and_time_outs() {
        match run_once(sh("echo oops >&2; exit 3"), Duration::from_secs(10)) {
            Outcome::Failed { why, .. } => assert_eq!(why, "exit 3: oops"),
            _ => panic!("exit 3 not seen"),
        }
        let slow = run_once(sh("sleep 5"), Duration::from_millis(200));
        assert!(matches!(slow, Outcome::TimedOut));
        let missing = run_once(Command::new("/nonexistent/vm"), Duration::from_secs(1));
        assert!(matches!(missing, Outcome::Failed { why, .. } if why.starts_with("cannot start")));
    }
}
