//! Natives of jdk.sctp (sun.nio.ch.sctp), as HotSpot behaves on a host without libsctp.
//!
//! The JDK's libsctp binds the SCTP socket API from `libsctp.so.1` with `dlopen` the first time
//! a socket is made, and `SctpNet.socket0` throws `UnsupportedOperationException` with the
//! loader's message when the library is missing: the only outcome a program of this module
//! can see on such a host, and the one reproduced here. Where the library is installed, HotSpot
//! makes the socket; jxvm loads no native libraries and has no SCTP of its own, so `socket0`
//! then throws `UnsatisfiedLinkError` naming itself, and every other native of the module
//! (reachable only with a socket) stays unimplemented (tests/natives-missing.txt).

use super::Registry;
use crate::thread::{JResult, JThread};

/// The library the JDK's libsctp opens.
const LIBSCTP: &str = "libsctp.so.1";

/// Where the dynamic loader looks on Debian's x86-64 (besides LD_LIBRARY_PATH).
const LIBRARY_DIRS: &[&str] = &[
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/local/lib/x86_64-linux-gnu",
    "/usr/local/lib",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
];

pub fn register(r: &mut Registry) {
    let n = "sun/nio/ch/sctp/SctpNet";
    // The JDK's init only prepares the descriptor preClose0 dup2s over a closing socket; no
    // socket is ever made here, so there is nothing to prepare.
    r.add(n, "init", "()V", |_, _| Ok(0));
    r.add(n, "socket0", "(Z)I", socket0);
}

/// Whether the dynamic loader would find `libsctp.so.1` on the host.
fn libsctp_installed(t: &mut JThread) -> bool {
    let host = t.domain.host().clone();
    let from_env: Vec<String> = host
        .environment()
        .into_iter()
        .filter(|(k, _)| k == b"LD_LIBRARY_PATH")
        .flat_map(|(_, v)| {
            String::from_utf8_lossy(&v)
                .split(':')
                .filter(|d| !d.is_empty())
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    from_env
        .iter()
        .map(String::as_str)
        .chain(LIBRARY_DIRS.iter().copied())
        .any(|dir| host.exists(format!("{dir}/{LIBSCTP}").as_bytes()))
}

fn socket0(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    if libsctp_installed(t) {
        return Err(t.throw_new(
            "java/lang/UnsatisfiedLinkError",
            Some("'int sun.nio.ch.sctp.SctpNet.socket0(boolean)'"),
        ));
    }
    // dlerror()'s text for a library the loader cannot find.
    let msg = format!("{LIBSCTP}: cannot open shared object file: No such file or directory");
    Err(t.throw_new("java/lang/UnsupportedOperationException", Some(&msg)))
}
