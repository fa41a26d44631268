//! The 9P backend: a [`crate::Host`] whose files and directories are those of a 9P2000.L
//! server (`--io=9p:ADDR`), whose root is what Java code sees as `/` (and as its working
//! directory).
//!
//! It lives in the port crate, beside the host backend, because it implements the port's own
//! trait and must hand out the port's typed descriptors; it depends on `ninep` for the
//! protocol, which holds no VM state, so the layering (port below meta and vm) is kept.
//!
//! What it owns: the descriptor table ([`table`]), client-side path resolution ([`ns`]), the
//! `--io` value ([`spec`]) and the mapping of every file and directory call to 9P messages
//! ([`files`]), and the read-only file cache ([`cache`]) and its dump ([`dump`]). What is not a file keeps to the host (the clock, the environment, the
//! standard streams 0-2 the process was started with, and — read-only — the JDK's own
//! directory, which the VM reads from the host anyway). Memory mappings are copies
//! ([`mapped`]). TCP sockets and name lookups go over the gateway's `/net` ([`sockets`]),
//! when it serves one; selectors over them, and pipes, are made in the process ([`events`]).
//! What cannot work over 9P fails with an errno Java reports as an IOException: datagrams,
//! file watching, extended attributes and process creation (`EOPNOTSUPP`), never
//! falling back to the host.

pub mod cache;
pub mod dump;
pub mod events;
pub mod files;
mod host_impl;
mod mapped;
pub mod ns;
pub mod sockets;
pub mod spec;
pub mod table;
#[cfg(test)]
mod tests;

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::held::Owner;
use crate::{Errno, HostBackend, PortResult};
pub use spec::{IoSpec, NinepSpec};

/// Locks `m`, going on past a poisoned lock (the panicking call has failed already).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A domain's host access over 9P.
pub struct NinepBackend {
    /// For what stays on the host (see the module doc).
    host: HostBackend,
    ns: ns::Namespace,
    table: table::Table,
    maps: mapped::Mappings,
    /// The JDK's directory (`java.home`, with no trailing slash): paths under it are read
    /// from the host.
    jdk: Option<Vec<u8>>,
    /// The gateway's `/net`, attached on first use.
    net: Mutex<Option<std::sync::Arc<sockets::NetRoot>>>,
    /// Rung when a socket or eventfd changes (see [`events`]).
    bell: std::sync::Arc<events::Bell>,
    /// File contents kept in the process (`cache=on`, see [`cache`]).
    cache: Option<std::sync::Arc<cache::FileCache>>,
}

impl NinepBackend {
    /// Connects and attaches as `spec` says; the error is one line for the user.
    pub fn connect(
        spec: &NinepSpec,
        owner: Owner,
        jdk: Option<&std::path::Path>,
    ) -> Result<NinepBackend, String> {
        use std::os::unix::ffi::OsStrExt;
        let ns = ns::Namespace::attach(spec)?;
        let jdk = jdk.map(|p| p.as_os_str().as_bytes().to_vec());
        let cache = spec
            .cache
            .then(|| std::sync::Arc::new(cache::FileCache::new(cache::Config::default())));
        if let (Some(c), Some(path)) = (&cache, &spec.cache_dump) {
            dump::attach(path, &format!("{} {}", spec.addr, spec.aname), c);
        }
        Ok(NinepBackend {
            host: HostBackend::new(owner),
            ns,
            table: table::Table::with_stdio(),
            maps: mapped::Mappings::default(),
            jdk: jdk.filter(|p| p.len() > 1),
            net: Mutex::new(None),
            bell: Default::default(),
            cache,
        })
    }

    /// Gives the file cache other sizes and intervals (dropping what it holds); no-op when it
    /// is off.
    pub fn set_cache_config(&mut self, cfg: cache::Config) {
        if self.cache.is_some() {
            self.cache = Some(std::sync::Arc::new(cache::FileCache::new(cfg)));
        }
    }

    /// The file cache's counters (`None` when it is off).
    pub fn cache_stats(&self) -> Option<cache::Stats> {
        self.cache.as_ref().map(|c| c.stats())
    }

    /// The gateway's `/net` (`EPERM` when it serves none: sockets are refused as a
    /// sandbox refuses them).
    fn net(&self) -> PortResult<std::sync::Arc<sockets::NetRoot>> {
        let mut net = lock(&self.net);
        if let Some(n) = &*net {
            return Ok(n.clone());
        }
        let n = std::sync::Arc::new(sockets::NetRoot::attach(
            &self.ns.client,
            self.bell.clone(),
        )?);
        *net = Some(n.clone());
        Ok(n)
    }

    /// Whether absolute `path` is in the JDK's directory (read from the host). A path with a
    /// `..` is not: the host would resolve it, and `JDK/../..` leads anywhere on the host.
    fn in_jdk(&self, path: &[u8]) -> bool {
        let Some(jdk) = &self.jdk else {
            return false;
        };
        path.starts_with(jdk)
            && (path.len() == jdk.len() || path[jdk.len()] == b'/')
            && !path.split(|&b| b == b'/').any(|name| name == b"..")
    }
}

/// The error of a call that cannot be made over 9P.
const UNSUPPORTED: Errno = Errno::EOPNOTSUPP;

fn unsupported<T>() -> PortResult<T> {
    Err(UNSUPPORTED)
}

/// The JDK's directory, set once by the VM before it makes a domain: a 9P backend reads the
/// files under it from the host (the JDK is the VM's, not the program's).
static JDK_DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Records the JDK's directory (see [`JDK_DIR`]); later calls change nothing.
pub fn set_jdk_dir(dir: &std::path::Path) {
    let _ = JDK_DIR.set(dir.to_path_buf());
}

/// The backend `spec` asks for, for the domain of `owner`. The error is one line for the
/// user.
pub fn backend(spec: &IoSpec, owner: Owner) -> Result<std::sync::Arc<dyn crate::Host>, String> {
    Ok(match spec {
        IoSpec::Host => std::sync::Arc::new(HostBackend::new(owner)),
        IoSpec::NineP(s) => {
            let jdk = JDK_DIR.get().map(|p| p.as_path());
            std::sync::Arc::new(NinepBackend::connect(s, owner, jdk)?)
        }
    })
}
