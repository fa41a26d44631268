//! `cache`: the class cache file that every jxvm process of a user reads and adds to (issue
//! 19). It owns the file format and its bookkeeping and nothing of the runtime: entries are
//! opaque, versioned byte payloads under a [`Key`] the VM computes (the VM decides what an
//! entry means and when its source is unchanged).
//!
//! What the file guarantees (`format.rs` has the layout):
//! - **One file per user, jxvm build and JDK**: the header names the identity it was made for
//!   (the caller's build and JDK description); a file of another identity or format version
//!   is never used. The default name includes a hash of the identity, so builds and JDKs do
//!   not overwrite each other's caches.
//! - **Private**: under `$XDG_CACHE_HOME/jxvm` or `~/.cache/jxvm` (`private.rs`), the
//!   directory 0700 and the files 0600; a directory or file another user owns or others may
//!   write is refused, and links are not followed.
//! - **Many readers and writers**: readers take no lock. A writer takes `flock` on a lock file
//!   beside the cache, appends its records past the committed length, `fsync`s, then writes
//!   the new committed length into the header's spare commit slot and `fsync`s again. Bytes
//!   before a committed length never change in that file, so a reader never sees a
//!   half-written entry, and `kill -9` of a writer at any instant leaves the last commit in
//!   force (the next writer cuts off what it left past it). Eviction and rebuilding write a
//!   new file and rename it over the old one.
//! - **Checked**: the header, each commit slot, each record header and each payload carry a
//!   CRC-32. A damaged, truncated or foreign file is reported once (as a [`Cache::warning`]),
//!   ignored, and rewritten by the next flush; a damaged entry is a miss and is dropped when
//!   the file is rewritten.
//! - **Bounded**: a flush that would pass the size limit rewrites the file with the most
//!   recently used entries only (least recently used evicted first). An entry's last use is
//!   kept to the hour (rewritten in place, outside the checksums).
//! - **Counted**: hits, misses and runs since the file was created ([`Stats`]).

#![forbid(unsafe_code)]

mod format;
mod private;
mod store;

pub use format::Counters;
pub use private::{default_dir, effective_uid};
pub use store::{Entry, Stats, Verified, list, stats, verify};

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// An entry's key: 128 bits of SHA-256 over what identifies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub [u8; 16]);

impl Key {
    /// The key of `parts` (each length-prefixed, so that the split between them counts).
    pub fn of(parts: &[&[u8]]) -> Key {
        let mut h = Sha256::new();
        for p in parts {
            h.update((p.len() as u64).to_le_bytes());
            h.update(p);
        }
        let mut k = [0u8; 16];
        k.copy_from_slice(&h.finalize()[..16]);
        Key(k)
    }

    /// The key in hexadecimal.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The size limit when none is given (`-XX:SharedCacheSize`).
pub const DEFAULT_MAX_SIZE: u64 = 32 << 20;
/// The smallest size limit taken: the header and a little room.
pub const MIN_MAX_SIZE: u64 = 64 << 10;
/// The largest payload an entry may have.
pub const MAX_PAYLOAD: usize = 8 << 20;

/// Which cache file to use, for whom, and how large it may grow.
#[derive(Debug, Clone)]
pub struct Settings {
    pub path: PathBuf,
    /// What the file must have been made for: the caller's build and JDK (any text; only its
    /// first 2000 bytes are kept and compared).
    pub identity: String,
    pub max_size: u64,
    /// The time in seconds since the epoch to use instead of the clock (tests).
    pub clock: Option<u64>,
}

impl Settings {
    /// The default file for `identity` in the default directory (None: no home directory).
    pub fn default_for(identity: &str) -> Option<Settings> {
        let path = default_dir()?.join(file_name(identity));
        Some(Settings::at(path, identity))
    }

    /// The file `path` for `identity`, with the default size limit.
    pub fn at(path: PathBuf, identity: &str) -> Settings {
        Settings {
            path,
            identity: identity.to_string(),
            max_size: DEFAULT_MAX_SIZE,
            clock: None,
        }
    }

    fn now(&self) -> u64 {
        self.clock.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0)
        })
    }

    /// The lock file beside the cache.
    pub fn lock_path(&self) -> PathBuf {
        sibling(&self.path, ".lock")
    }
}

/// `path` with `suffix` added to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The default file name for `identity`: `classes-HASH.jxc`.
pub fn file_name(identity: &str) -> String {
    format!(
        "classes-{}.jxc",
        &Key::of(&[identity.as_bytes()]).hex()[..16]
    )
}

/// One process's view of a cache: the entries committed when it was opened, the entries it
/// adds, and what it used. Nothing reaches the file before [`Cache::flush`].
pub struct Cache {
    settings: Settings,
    uid: u32,
    /// The file as read when opened (None: there was none, or it could not be used).
    snapshot: Option<store::Snapshot>,
    pending: Vec<(u32, Key, Vec<u8>)>,
    pending_keys: HashSet<Key>,
    used: HashSet<Key>,
    counters: Counters,
    counted_run: bool,
    warning: Option<String>,
    /// The file or one of its entries is damaged: the next flush rewrites it.
    rebuild: bool,
}

impl Cache {
    /// Opens the cache of `settings`: Err when it may not be used at all (another user's, or
    /// a directory that cannot be made); a damaged or foreign file opens empty, with a
    /// [`Cache::warning`].
    pub fn open(settings: Settings) -> Result<Cache, String> {
        let uid = effective_uid().map_err(|e| format!("cannot tell this user: {e}"))?;
        if let Some(dir) = settings.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // A directory jxvm makes, or its default one, must be private; a directory the
            // user chose (`-XX:SharedArchiveFile`) need not be, the file itself must.
            if !dir.exists() || Some(dir) == default_dir().as_deref() {
                private::private_dir(dir, uid)?;
            }
        }
        let mut cache = Cache {
            settings,
            uid,
            snapshot: None,
            pending: Vec::new(),
            pending_keys: HashSet::new(),
            used: HashSet::new(),
            counters: Counters::default(),
            counted_run: false,
            warning: None,
            rebuild: false,
        };
        match store::Snapshot::read(&cache.settings, uid, false) {
            Ok(s) => cache.snapshot = s,
            Err(store::ReadError::Refused(why)) => return Err(why),
            Err(store::ReadError::Invalid(why)) => cache.damaged(why.to_string()),
        }
        Ok(cache)
    }

    fn damaged(&mut self, why: String) {
        if self.warning.is_none() && !self.rebuild {
            self.warning = Some(format!(
                "class cache {}: {why}; ignored, it will be rebuilt",
                self.settings.path.display()
            ));
        }
        self.rebuild = true;
    }

    /// The one report of a damaged or foreign cache, taken once.
    pub fn warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    /// The settings the cache was opened with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The payload of entry `key` of `kind`, if committed and intact (counted as a hit or a
    /// miss). A damaged payload is a miss, reported once.
    pub fn get(&mut self, kind: u32, key: &Key) -> Option<&[u8]> {
        let found = self.snapshot.as_ref().and_then(|s| s.payload(kind, key));
        match found {
            Some(Ok(range)) => {
                self.counters.hits += 1;
                self.used.insert(*key);
                self.snapshot.as_ref().map(|s| &s.data[range])
            }
            Some(Err(why)) => {
                self.counters.misses += 1;
                self.damaged(why.to_string());
                None
            }
            None => {
                self.counters.misses += 1;
                None
            }
        }
    }

    /// Adds entry `key` of `kind` at the next flush (unless present or too large).
    pub fn put(&mut self, kind: u32, key: Key, payload: Vec<u8>) {
        if payload.len() > MAX_PAYLOAD || !self.pending_keys.insert(key) {
            return;
        }
        self.pending.push((kind, key, payload));
    }

    /// Entries waiting for the next flush.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Writes what this process added, its hits and misses and the last uses of what it used;
    /// rewrites the file when damaged or past its size limit.
    pub fn flush(&mut self) -> Result<(), String> {
        let runs = u64::from(!self.counted_run);
        let nothing =
            self.pending.is_empty() && self.counters == Counters::default() && !self.rebuild;
        if nothing {
            return Ok(());
        }
        let counters = Counters {
            runs,
            ..self.counters
        };
        let write = store::Write {
            settings: &self.settings,
            uid: self.uid,
            snapshot: self.snapshot.as_ref(),
            pending: &self.pending,
            used: &self.used,
            counters,
            rebuild: self.rebuild,
        };
        let outcome = write.run();
        // Whatever happened, this process's additions are not tried again: another flush
        // would meet the same failure.
        self.pending.clear();
        self.counters = Counters::default();
        self.counted_run = true;
        self.used.clear();
        match outcome {
            Ok(()) => {
                self.rebuild = false;
                Ok(())
            }
            Err(store::ReadError::Refused(why)) => Err(why),
            Err(store::ReadError::Invalid(why)) => Err(why.to_string()),
        }
    }
}

/// Removes the cache files of directory `path` (or the one file `path`), their lock files and
/// any temporary file an interrupted writer left; returns how many cache files were removed.
pub fn clear(path: &Path) -> std::io::Result<usize> {
    let mut removed = 0;
    let files: Vec<PathBuf> = if path.is_dir() {
        std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jxc"))
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    for f in files {
        if std::fs::remove_file(&f).is_ok() {
            removed += 1;
        }
        let _ = std::fs::remove_file(sibling(&f, ".lock"));
        let tmp = sibling(&f, ".tmp");
        let dir = f
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let leftovers = std::fs::read_dir(dir).into_iter().flatten().flatten();
        let prefix = tmp
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for e in leftovers.filter(|e| e.file_name().to_string_lossy().starts_with(&prefix)) {
            let _ = std::fs::remove_file(e.path());
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests;
