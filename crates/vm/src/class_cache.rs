//! The VM's class cache (`-Xshare`, `-XX:SharedArchiveFile`, `-XX:SharedCacheSize`; issue
//! 19): which file it is, bound to this jxvm build and this JDK, opened when the VM is
//! created and flushed after the boot and when the process ends. The file format is the
//! `cache` crate's; what its entries mean is `meta::class::summaries`'.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::class::loader::ClassTable;
use crate::vm::BootError;

/// java's `-Xshare`: whether the cache is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Share {
    /// Never touched.
    Off,
    /// Used when it can be; a cache that cannot is reported and left alone (the default).
    #[default]
    Auto,
    /// Required: the VM does not start without it.
    On,
}

/// The cache's options.
#[derive(Debug, Clone, Default)]
pub struct CacheOptions {
    pub share: Share,
    /// `-XX:SharedArchiveFile`: the cache file (default: `cache::Settings::default_for`).
    pub path: Option<PathBuf>,
    /// `-XX:SharedCacheSize`.
    pub max_size: Option<u64>,
}

/// What the cache must have been made for: this jxvm executable and this JDK image.
fn identity(modules: &Path) -> String {
    let stamp = |p: &Path| {
        std::fs::metadata(p).map_or_else(
            |e| format!("{} ({e})", p.display()),
            |m| {
                let at = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
                let when = (m.mtime(), m.mtime_nsec());
                format!(
                    "{} {}:{} {} {when:?}",
                    at.display(),
                    m.dev(),
                    m.ino(),
                    m.size()
                )
            },
        )
    };
    // The executable by its path (`/proc/self/exe` itself would be a tool's that runs jxvm,
    // such as valgrind's).
    let exe = std::env::current_exe().unwrap_or_else(|_| "/proc/self/exe".into());
    format!(
        "jxvm {} {}\njdk {}",
        env!("CARGO_PKG_VERSION"),
        stamp(&exe),
        stamp(modules)
    )
}

/// The cache file `opts` names for the JDK image `modules` (None: no home directory).
pub fn settings(opts: &CacheOptions, modules: &Path) -> Option<cache::Settings> {
    let id = identity(modules);
    let mut settings = match &opts.path {
        Some(p) => cache::Settings::at(p.clone(), &id),
        None => cache::Settings::default_for(&id)?,
    };
    if let Some(n) = opts.max_size {
        settings.max_size = n;
    }
    Some(settings)
}

/// Opens the cache `opts` asks for and gives it to `classes`.
pub(crate) fn open(
    opts: &CacheOptions,
    modules: &Path,
    classes: &ClassTable,
) -> Result<(), BootError> {
    if opts.share == Share::Off {
        return Ok(());
    }
    let Some(settings) = settings(opts, modules) else {
        // As java without an archive: silent unless the cache is required.
        return match opts.share {
            Share::On => refuse(
                opts,
                "no cache directory: neither XDG_CACHE_HOME nor HOME is set",
            ),
            _ => Ok(()),
        };
    };
    match cache::Cache::open(settings) {
        Ok(mut c) => {
            if let Some(w) = c.warning() {
                if opts.share == Share::On {
                    return refuse(opts, &w);
                }
                eprintln!("jxvm: warning: {w}");
            }
            classes.summaries.attach(c);
            Ok(())
        }
        Err(why) => refuse(opts, &why),
    }
}

/// With `-Xshare:on`, java's failure; otherwise a warning, and no cache.
fn refuse(opts: &CacheOptions, why: &str) -> Result<(), BootError> {
    if opts.share == Share::On {
        eprintln!("An error has occurred while processing the shared archive file.\n{why}");
        return Err(BootError::Io("Unable to use shared archive.".into()));
    }
    eprintln!("jxvm: warning: class cache not used: {why}");
    Ok(())
}

/// Writes what the process added to the cache (reported once if it cannot).
pub(crate) fn flush(classes: &ClassTable) {
    if let Err(why) = classes.summaries.flush() {
        eprintln!("jxvm: warning: class cache: {why}");
    }
}
