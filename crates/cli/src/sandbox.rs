//! `--sandbox` in the launcher: when each half of `port::sandbox` is applied. Landlock goes
//! first, before the launcher starts any thread (it holds for the threads created after it);
//! seccomp once the VM has started and opened its 9P connections (it refuses new sockets),
//! for every thread at once.

use port::IoSpec;
use port::sandbox::FileGuard;

use crate::args::Run;

/// Closes the host's files to the process before any thread is started; `run`'s TCP
/// gateway address is resolved now (later the host's name service files are closed). The
/// error is one line for the user.
pub fn before_threads(run: &mut Run) -> Result<FileGuard, String> {
    port::sandbox::prepare();
    let port = resolve_tcp_gateway(&mut run.opts.io)?;
    if let IoSpec::NineP(spec) = &run.opts.io
        && let Some(dump) = &spec.cache_dump
    {
        port::remote::dump::open_early(dump);
    }
    let guard = port::sandbox::restrict_files(&run.opts.java_home, port)?;
    if guard == FileGuard::Seccomp {
        eprintln!(
            "jxvm: warning: Landlock is not available on this kernel: --sandbox refuses every \
             file opened by path, JDK files not read at start-up included"
        );
    }
    Ok(guard)
}

/// Replaces a `tcp:HOST:PORT` gateway address by the numeric address HOST resolves to
/// (its first) and returns the port; `None` for a Unix socket.
fn resolve_tcp_gateway(io: &mut IoSpec) -> Result<Option<u16>, String> {
    use std::net::ToSocketAddrs;
    let IoSpec::NineP(spec) = io else {
        return Ok(None);
    };
    let Some(hostport) = spec.addr.strip_prefix("tcp:") else {
        return Ok(None);
    };
    let addr = hostport
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| {
            format!("Error: --sandbox: cannot resolve the gateway address {hostport}")
        })?;
    spec.addr = format!("tcp:{addr}");
    Ok(Some(addr.port()))
}

/// Refuses the remaining host calls in every thread, once the VM has started.
pub fn after_start(guard: FileGuard) -> Result<(), String> {
    port::sandbox::restrict_calls(guard)
}

/// Prints the probe's lines (`--sandbox-probe=PORT`) on stdout.
pub fn print_probe(run: &Run, port: u16) {
    for line in port::sandbox::probe(&run.opts.java_home, port) {
        println!("[sandbox-probe] {line}");
    }
}
