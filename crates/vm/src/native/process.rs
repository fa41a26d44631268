//! Natives of java.lang.ProcessImpl (starting child processes) and java.lang.ProcessHandleImpl
//! (waiting for, signalling and describing processes), following the JDK's
//! ProcessImpl_md.c and ProcessHandleImpl_unix.c / _linux.c. The host side is
//! [`port::process`]. (ProcessEnvironment.environ lives with the other
//! environment natives in `misc`.)

use super::{Registry, bytes_of, jint, jlong, nonnull, obj, ret_bool, ret_int};
use crate::heap::ObjRef;
use crate::jdk;
use crate::thread::{JResult, JThread};
use base::layout::ARRAY_BASE;
use port::Host;
use port::process::SpawnRequest;

pub fn register(r: &mut Registry) {
    let pi = "java/lang/ProcessImpl";
    // init() prepares the parent's PATH in the JDK; the port reads it at each spawn.
    r.add(pi, "init", "()V", |_, _| Ok(0));
    r.add(pi, "forkAndExec", "(I[B[B[BI[BI[B[IZ)I", fork_and_exec);

    let ph = "java/lang/ProcessHandleImpl";
    r.add(ph, "initNative", "()V", |_, _| Ok(0));
    r.add(ph, "getCurrentPid0", "()J", |t, _| {
        Ok(t.domain.host().current_pid() as u64)
    });
    r.add(ph, "waitForProcessExit0", "(JZ)I", |t, a| {
        let (pid, reap) = (jlong(a[0]), a[2] != 0);
        // Waits as long as the child runs: other threads may collect meanwhile.
        let backend = t.domain.host().clone();
        Ok(ret_int(t.blocking(|| backend.wait_for_exit(pid, reap))))
    });
    r.add(ph, "isAlive0", "(J)J", |t, a| {
        Ok(is_alive(&**t.domain.host(), jlong(a[0])) as u64)
    });
    r.add(ph, "parent0", "(JJ)J", |t, a| {
        Ok(parent(&**t.domain.host(), jlong(a[0]), jlong(a[2])) as u64)
    });
    r.add(ph, "destroy0", "(JJZ)Z", |t, a| {
        let (pid, start_time, force) = (jlong(a[0]), jlong(a[2]), a[4] != 0);
        let start = is_alive(&**t.domain.host(), pid);
        Ok(ret_bool(
            (start == start_time || start == 0 || start_time == 0)
                && t.domain.host().kill(pid, force),
        ))
    });
    r.add(ph, "getProcessPids0", "(J[J[J[J)I", get_process_pids);

    let info = "java/lang/ProcessHandleImpl$Info";
    r.add(info, "initIDs", "()V", |_, _| Ok(0));
    r.add(info, "info0", "(J)V", info0);
}

/// The start time (ms since the epoch) of a live process, 0 if unknown, -1 if there is no
/// such process.
fn is_alive(host: &dyn Host, pid: i64) -> i64 {
    host.proc_stat(pid).map_or(-1, |s| s.start_ms)
}

fn parent(host: &dyn Host, pid: i64, start_time: i64) -> i64 {
    if pid == host.current_pid() {
        return host.parent_pid();
    }
    match host.proc_stat(pid) {
        None => -1,
        Some(s) if s.start_ms != start_time && s.start_ms != 0 && start_time != 0 => -1,
        Some(s) => s.ppid,
    }
}

/// The bytes of a `toCString` array up to its NUL.
fn c_bytes(t: &mut JThread, v: u64) -> JResult<Vec<u8>> {
    let a = nonnull(t, v)?;
    let mut b = bytes_of(t, v, 0, a.array_len() as i32)?;
    if let Some(n) = b.iter().position(|&c| c == 0) {
        b.truncate(n);
    }
    Ok(b)
}

/// The first `count` NUL-terminated strings of a block (`initVectorFromBlock`).
fn split_block(block: &[u8], count: i32) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = block;
    while out.len() < count.max(0) as usize && !rest.is_empty() {
        let n = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
        out.push(rest[..n].to_vec());
        rest = &rest[(n + 1).min(rest.len())..];
    }
    out
}

/// ProcessImpl.forkAndExec(mode, helperpath, prog, argBlock, argc, envBlock, envc, dir, fds,
/// redirectErrorStream): the pid; `fds` gets the parent's pipe ends.
fn fork_and_exec(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    // a[0] = this; the launch mechanism (a[1]: 1 fork, 2 posix_spawn, 3 vfork; ProcessImpl
    // validates jdk.lang.Process.launchMechanism) needs no helper program here: every mode
    // starts the child the same way, with the same error reporting.
    let prog = c_bytes(t, a[3])?;
    let arg_block = nonnull(t, a[4])?;
    let arg_block = bytes_of(t, a[4], 0, arg_block.array_len() as i32)?;
    let args = split_block(&arg_block, jint(a[5]));
    let env = match obj(a[6]) {
        Some(e) => {
            let block = bytes_of(t, a[6], 0, e.array_len() as i32)?;
            Some(split_block(&block, jint(a[7])))
        }
        None => None,
    };
    let dir = match obj(a[8]) {
        Some(_) => Some(c_bytes(t, a[8])?),
        None => None,
    };
    let fds_arr = nonnull(t, a[9])?;
    let fds_in = fds_arr.array_slice::<i32>();
    if fds_in.len() < 3 {
        return Err(t.throw_new(
            "java/lang/ArrayIndexOutOfBoundsException",
            Some(&format!(
                "Index {} out of bounds for length {}",
                fds_in.len(),
                fds_in.len()
            )),
        ));
    }
    let req = SpawnRequest {
        prog,
        args,
        env,
        dir,
        fds: [fds_in[0], fds_in[1], fds_in[2]],
        redirect_error_stream: a[10] != 0,
    };
    // fork and the wait for the exec may take a while: let the domain collect meanwhile.
    let backend = t.domain.host().clone();
    let r = t.blocking(|| backend.spawn(&req));
    match r {
        Ok(s) => {
            // The array may have moved while this thread was blocked: re-read the argument.
            let fds_arr = nonnull(t, t.arg(9))?;
            fds_arr.array_slice::<i32>()[..3].copy_from_slice(&s.fds);
            Ok(ret_int(s.pid))
        }
        Err(e) => {
            let msg = format!("error={}, {e}", e.raw());
            Err(t.throw_new("java/io/IOException", Some(&msg)))
        }
    }
}

/// getProcessPids0(pid, pids, ppids, starttimes): children of `pid` (all processes for 0);
/// fills what fits and returns the total count.
fn get_process_pids(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let pid = jlong(a[0]);
    let n = nonnull(t, a[2])?.array_len();
    for v in [a[3], a[4]] {
        if obj(v).is_some_and(|o| o.array_len() != n) {
            return Err(t.throw_new(
                "java/lang/IllegalArgumentException",
                Some("array sizes not equal"),
            ));
        }
    }
    let backend = t.domain.host().clone();
    let found: Vec<(i64, i64, i64)> = t.blocking(|| {
        backend
            .all_pids()
            .into_iter()
            .filter_map(|c| backend.proc_stat(c).map(|s| (c, s.ppid, s.start_ms)))
            .filter(|&(_, ppid, _)| ppid >= 0 && (pid == 0 || ppid == pid))
            .collect()
    });
    // Arrays may have moved while this thread was blocked: re-read the arguments.
    let cols: [Option<ObjRef>; 3] = [obj(t.arg(2)), obj(t.arg(3)), obj(t.arg(4))];
    for (i, &(c, ppid, start)) in found.iter().take(n).enumerate() {
        for (arr, v) in cols.iter().zip([c, ppid, start]) {
            if let Some(arr) = arr {
                arr.array_slice::<i64>()[i] = v;
            }
        }
    }
    Ok(ret_int(found.len().min(i32::MAX as usize) as i32))
}

fn platform_string(t: &mut JThread, b: &[u8]) -> JResult<ObjRef> {
    t.new_string(&String::from_utf8_lossy(b))
}

/// ProcessHandleImpl$Info.info0(pid): fills what /proc tells (fields not known are left).
fn info0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let pid = jlong(a[1]);
    let stat = t.domain.host().proc_stat(pid);
    let uid = t.domain.host().proc_uid(pid);
    let user = uid.and_then(|u| t.domain.host().process_user_name(u));
    let exe = t.domain.host().proc_exe(pid);
    let cmdline = t.domain.host().proc_cmdline(pid).unwrap_or_default();

    let this = nonnull(t, a[0])?;
    let f = t.jdk::<jdk::ProcessInfo>(this)?;
    if let Some(s) = stat {
        this.write::<i64>(f.total_time, s.total_ns);
        this.write::<i64>(f.start_time, s.start_ms);
    }
    // Allocation does not collect, so `this` stays put until the end of this native.
    if let Some(u) = user {
        let s = platform_string(t, &u)?;
        t.domain.heap.write_ref(this, f.user, Some(s));
    }
    let args: Vec<&[u8]> = if cmdline.is_empty() {
        Vec::new()
    } else {
        cmdline
            .strip_suffix(b"\0")
            .unwrap_or(&cmdline)
            .split(|&c| c == 0)
            .collect()
    };
    let command = exe.as_deref().or(args.first().copied());
    if let Some(c) = command {
        let s = platform_string(t, c)?;
        t.domain.heap.write_ref(this, f.command, Some(s));
    }
    if args.is_empty() {
        return Ok(0);
    }
    let string = t.vm.wk().string;
    let arr = t.new_array_of(string, (args.len() - 1) as i32)?;
    for (i, arg) in args[1..].iter().enumerate() {
        let s = platform_string(t, arg)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(s));
    }
    t.domain.heap.write_ref(this, f.arguments, Some(arr));
    let line: Vec<u8> = args.join(&b' ');
    let s = platform_string(t, &line)?;
    t.domain.heap.write_ref(this, f.command_line, Some(s));
    Ok(0)
}
