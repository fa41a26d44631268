//! Reading a cache file into a snapshot, and the writer's protocol: under the lock file's
//! `flock`, append and commit, or rewrite the whole file (eviction, rebuilding) into a
//! temporary file renamed over it. Also the whole-file reports of `jxvm cache`.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{Read, Write as _};
use std::ops::Range;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::format::{self, Counters, Header, Invalid, RECORDS_START};
use crate::{Key, Settings, private, sibling};

/// An entry is marked used again only when its mark is older than this (seconds), so that a
/// warm run writes almost nothing.
const TOUCH_EVERY: u64 = 3600;

pub(crate) enum ReadError {
    /// The cache may not be used (another user's, unreadable).
    Refused(String),
    /// The file is damaged or foreign.
    Invalid(Invalid),
}

impl From<Invalid> for ReadError {
    fn from(i: Invalid) -> ReadError {
        ReadError::Invalid(i)
    }
}

/// A cache file's committed bytes as read once, with the index of its records.
pub(crate) struct Snapshot {
    pub data: Vec<u8>,
    pub header: Header,
    /// Key to (kind, offset of the record header).
    index: HashMap<Key, (u32, usize)>,
    /// Held open, so that the file's inode is not reused while offsets into it are kept.
    file: File,
    inode: (u64, u64),
    /// The file's length when read (past the committed length: a killed writer's remains).
    file_len: u64,
}

impl Snapshot {
    /// Reads `settings.path`: Ok(None) when there is no such file (and `create` is false).
    pub fn read(
        settings: &Settings,
        uid: u32,
        create: bool,
    ) -> Result<Option<Snapshot>, ReadError> {
        if !create && std::fs::symlink_metadata(&settings.path).is_err() {
            return Ok(None);
        }
        let mut file =
            private::open_private(&settings.path, uid, create).map_err(ReadError::Refused)?;
        // Whatever lies at the path is not read whole if no cache could be that large.
        let limit = settings.max_size.saturating_mul(2).max(1 << 30);
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        if len > limit {
            return Err(Invalid::Corrupt(format!("{len} bytes, larger than any cache")).into());
        }
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(|e| {
            ReadError::Refused(format!("cannot read {}: {e}", settings.path.display()))
        })?;
        let meta = file
            .metadata()
            .map_err(|e| ReadError::Refused(e.to_string()))?;
        Snapshot::parse(data, file, (meta.dev(), meta.ino()), &settings.identity).map(Some)
    }

    fn parse(
        mut data: Vec<u8>,
        file: File,
        inode: (u64, u64),
        identity: &str,
    ) -> Result<Snapshot, ReadError> {
        let file_len = data.len() as u64;
        if data.is_empty() {
            return Err(Invalid::Corrupt("empty file".into()).into());
        }
        let header = format::read_header(&data, identity)?;
        if header.committed > file_len {
            return Err(Invalid::Corrupt(format!(
                "truncated: {file_len} bytes, {} committed",
                header.committed
            ))
            .into());
        }
        data.truncate(header.committed as usize);
        let mut index = HashMap::new();
        let mut at = RECORDS_START as usize;
        while at < data.len() {
            let r = format::decode_record_header(&data[at..])?;
            let end = at as u64 + r.span();
            if end > header.committed {
                return Err(Invalid::Corrupt("a record runs past the commit".into()).into());
            }
            index.insert(r.key, (r.kind, at));
            at = end as usize;
        }
        Ok(Snapshot {
            data,
            header,
            index,
            file,
            inode,
            file_len,
        })
    }

    /// Where entry `key`'s payload is, if it is of `kind`; Err if its checksum fails.
    pub fn payload(&self, kind: u32, key: &Key) -> Option<Result<Range<usize>, Invalid>> {
        let &(k, at) = self.index.get(key)?;
        if k != kind {
            return None;
        }
        Some(self.checked_payload(at))
    }

    fn checked_payload(&self, at: usize) -> Result<Range<usize>, Invalid> {
        let r = format::decode_record_header(&self.data[at..])?;
        let start = at + format::RECORD_HEADER;
        let range = start..start + r.len as usize;
        if crc32fast::hash(&self.data[range.clone()]) != r.crc {
            return Err(Invalid::Corrupt(format!(
                "entry {} has a bad checksum",
                r.key.hex()
            )));
        }
        Ok(range)
    }

    /// Every record: its offset and header, in file order.
    fn records(&self) -> Vec<(usize, format::RecordHeader)> {
        let mut out: Vec<_> = self
            .index
            .values()
            .filter_map(|&(_, at)| {
                format::decode_record_header(&self.data[at..])
                    .ok()
                    .map(|r| (at, r))
            })
            .collect();
        out.sort_by_key(|&(at, _)| at);
        out
    }

    fn counters(&self) -> Counters {
        let at = format::STATS_OFFSET as usize;
        format::read_stats(&self.data[at..at + 32])
    }
}

/// One flush: what a process adds and what it counted, against the file as it is now.
pub(crate) struct Write<'a> {
    pub settings: &'a Settings,
    pub uid: u32,
    /// The file as the process opened it.
    pub snapshot: Option<&'a Snapshot>,
    pub pending: &'a [(u32, Key, Vec<u8>)],
    pub used: &'a HashSet<Key>,
    pub counters: Counters,
    pub rebuild: bool,
}

/// A test hook: `JXVM_CACHE_TEST_PAUSE=SECONDS` makes a writer pause that long after writing
/// its records and before committing them (for tests that kill a writer mid-write).
fn pause_for_tests() {
    if let Some(s) = std::env::var("JXVM_CACHE_TEST_PAUSE")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_secs(s));
    }
}

impl Write<'_> {
    pub fn run(&self) -> Result<(), ReadError> {
        if let Some(dir) = self
            .settings
            .path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            && !dir.exists()
        {
            private::private_dir(dir, self.uid).map_err(ReadError::Refused)?;
        }
        let lock = private::open_private(&self.settings.lock_path(), self.uid, true)
            .map_err(ReadError::Refused)?;
        lock.lock()
            .map_err(|e| ReadError::Refused(format!("cannot lock the cache: {e}")))?;
        let r = self.locked();
        let _ = lock.unlock();
        r
    }

    fn locked(&self) -> Result<(), ReadError> {
        if self.pending.is_empty() && !self.rebuild && self.count_only()? {
            return Ok(());
        }
        match Snapshot::read(self.settings, self.uid, false) {
            Ok(Some(cur)) if !self.rebuild => self.append_or_evict(&cur),
            Ok(Some(cur)) => self.rewrite(Some(&cur)),
            Ok(None) | Err(ReadError::Invalid(_)) => self.rewrite(None),
            Err(e) => Err(e),
        }
    }

    /// A warm run's flush: counters and last uses, in place, when the file is still the one
    /// the process read (its records are where they were). False: it is not.
    fn count_only(&self) -> Result<bool, ReadError> {
        // A file past the size limit (lowered since it was written) is rewritten instead.
        let Some(old) = self
            .snapshot
            .filter(|s| s.header.committed <= self.settings.max_size)
        else {
            return Ok(false);
        };
        let same = std::fs::symlink_metadata(&self.settings.path)
            .is_ok_and(|m| (m.dev(), m.ino()) == old.inode);
        let mut header = vec![0u8; RECORDS_START as usize];
        if !same || old.file.read_exact_at(&mut header, 0).is_err() {
            return Ok(false);
        }
        if format::read_header(&header, &self.settings.identity).is_err() {
            return Ok(false);
        }
        let at = format::STATS_OFFSET as usize;
        let before = format::read_stats(&header[at..at + 32]);
        self.write_counters(&old.file, before)?;
        self.touch(old, self.settings.now());
        Ok(true)
    }

    fn write_counters(&self, f: &File, before: Counters) -> Result<(), ReadError> {
        let c = Counters {
            hits: before.hits + self.counters.hits,
            misses: before.misses + self.counters.misses,
            runs: before.runs + self.counters.runs,
        };
        f.write_all_at(&format::stats_block(&c), format::STATS_OFFSET)
            .map_err(|e| ReadError::Refused(format!("cannot write the cache: {e}")))
    }

    /// Marks the entries this process used as used now, where their mark is old.
    fn touch(&self, s: &Snapshot, now: u64) {
        for key in self.used {
            let Some(&(_, at)) = s.index.get(key) else {
                continue;
            };
            let Ok(r) = format::decode_record_header(&s.data[at..]) else {
                continue;
            };
            if r.last_used + TOUCH_EVERY <= now {
                let _ = s
                    .file
                    .write_all_at(&now.to_le_bytes(), at as u64 + format::LAST_USED_AT);
            }
        }
    }

    /// The records of the entries the file does not hold yet.
    fn new_records(&self, cur: Option<&Snapshot>, now: u64) -> Vec<Vec<u8>> {
        self.pending
            .iter()
            .filter(|(_, k, _)| cur.is_none_or(|c| !c.index.contains_key(k)))
            .map(|(kind, k, p)| format::encode_record(*kind, k, p, now))
            .collect()
    }

    fn append_or_evict(&self, cur: &Snapshot) -> Result<(), ReadError> {
        let now = self.settings.now();
        let records = self.new_records(Some(cur), now);
        let added: u64 = records.iter().map(|r| r.len() as u64).sum();
        if cur.header.committed + added > self.settings.max_size {
            return self.rewrite(Some(cur));
        }
        let io = |e: std::io::Error| ReadError::Refused(format!("cannot write the cache: {e}"));
        let f = &cur.file;
        if !records.is_empty() {
            if cur.file_len > cur.header.committed {
                f.set_len(cur.header.committed).map_err(io)?;
            }
            f.write_all_at(&records.concat(), cur.header.committed)
                .map_err(io)?;
            pause_for_tests();
            f.sync_data().map_err(io)?;
            let (at, slot) = format::next_slot(cur.header.seq, cur.header.committed + added);
            f.write_all_at(&slot, at).map_err(io)?;
            f.sync_data().map_err(io)?;
        }
        self.write_counters(f, cur.counters())?;
        self.touch(cur, now);
        Ok(())
    }

    /// Writes a new file with the entries of `cur` that check (most recently used first) and
    /// this process's, within the size limit, and renames it over the cache.
    fn rewrite(&self, cur: Option<&Snapshot>) -> Result<(), ReadError> {
        let now = self.settings.now();
        // (last use, used by this process, record): what this process used or added goes
        // first among entries of the same last use.
        let mut kept: Vec<(u64, bool, Vec<u8>)> = Vec::new();
        let mut sound = HashSet::new();
        if let Some(c) = cur {
            for (at, r) in c.records() {
                if c.checked_payload(at).is_ok() {
                    let end = at + r.span() as usize;
                    let used = self.used.contains(&r.key);
                    let last = if used { now } else { r.last_used };
                    kept.push((last, used, c.data[at..end].to_vec()));
                    sound.insert(r.key);
                }
            }
        }
        // A damaged entry this process put again is written anew.
        for (kind, k, p) in self.pending.iter().filter(|(_, k, _)| !sound.contains(k)) {
            kept.push((now, true, format::encode_record(*kind, k, p, now)));
        }
        kept.sort_by_key(|&(last, used, _)| std::cmp::Reverse((last, used)));
        let total: u64 = kept.iter().map(|(_, _, r)| r.len() as u64).sum();
        let budget = if RECORDS_START + total > self.settings.max_size {
            self.settings.max_size / 4 * 3
        } else {
            self.settings.max_size
        };
        let mut end = RECORDS_START;
        let mut body = Vec::new();
        for (last, _, mut r) in kept {
            if end + r.len() as u64 > budget {
                continue;
            }
            r[format::LAST_USED_AT as usize..format::LAST_USED_AT as usize + 8]
                .copy_from_slice(&last.to_le_bytes());
            end += r.len() as u64;
            body.extend_from_slice(&r);
        }
        let created = cur.map_or(now, |c| c.header.created);
        let mut file = format::new_header(&self.settings.identity, created);
        let (at, slot) = format::next_slot(0, end);
        file[at as usize..at as usize + slot.len()].copy_from_slice(&slot);
        let before = cur.map(Snapshot::counters).unwrap_or_default();
        let counters = Counters {
            hits: before.hits + self.counters.hits,
            misses: before.misses + self.counters.misses,
            runs: before.runs + self.counters.runs,
        };
        let s = format::STATS_OFFSET as usize;
        file[s..s + 32].copy_from_slice(&format::stats_block(&counters));
        file.extend_from_slice(&body);
        replace(&self.settings.path, &file)
            .map_err(|e| ReadError::Refused(format!("cannot write the cache: {e}")))?;
        if cur.is_none() {
            sweep_unused(&self.settings.path);
        }
        Ok(())
    }
}

/// How long a cache file of the default directory may go unused (a file of an old jxvm build
/// or JDK) before a new cache there removes it.
const UNUSED_FOR: std::time::Duration = std::time::Duration::from_secs(14 * 24 * 3600);

/// Removes the other cache files of the default directory that no run has written to for
/// [`UNUSED_FOR`] (every run writes its counters), so that builds and JDKs replaced long ago
/// do not fill the directory.
fn sweep_unused(made: &Path) {
    let Some(dir) = made
        .parent()
        .filter(|d| Some(*d) == crate::default_dir().as_deref())
    else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > UNUSED_FOR);
        if path != made && old && path.extension().is_some_and(|x| x == "jxc") {
            let _ = crate::clear(&path);
        }
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it over `path`.
fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = sibling(path, &format!(".tmp{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let mut f = private::create_new_private(&tmp)?;
    let written = f
        .write_all(bytes)
        .and_then(|()| {
            pause_for_tests();
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}

/// One entry, as `jxvm cache list` shows it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: u32,
    pub key: Key,
    pub size: u32,
    pub last_used: u64,
    /// The payload (None: its checksum fails).
    pub payload: Option<Vec<u8>>,
}

/// What `jxvm cache stats` shows.
#[derive(Debug, Clone)]
pub struct Stats {
    pub path: PathBuf,
    pub file_size: u64,
    pub committed: u64,
    pub entries: usize,
    pub payload_bytes: u64,
    pub created: u64,
    pub counters: Counters,
}

/// What `jxvm cache verify` found: entries and bytes that check, and every problem.
#[derive(Debug, Clone, Default)]
pub struct Verified {
    pub entries: usize,
    pub bytes: u64,
    /// Bytes past the commit (left by a killed writer; not part of the cache).
    pub uncommitted: u64,
    pub problems: Vec<String>,
}

fn read_existing(settings: &Settings) -> Result<Snapshot, String> {
    let uid = crate::effective_uid().map_err(|e| e.to_string())?;
    match Snapshot::read(settings, uid, false) {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(format!("no class cache at {}", settings.path.display())),
        Err(ReadError::Refused(why)) => Err(why),
        Err(ReadError::Invalid(why)) => Err(format!("{}: {why}", settings.path.display())),
    }
}

/// The entries of the cache at `settings.path`, in file order.
pub fn list(settings: &Settings) -> Result<Vec<Entry>, String> {
    let s = read_existing(settings)?;
    Ok(s.records()
        .into_iter()
        .map(|(at, r)| Entry {
            kind: r.kind,
            key: r.key,
            size: r.len,
            last_used: r.last_used,
            payload: s.checked_payload(at).ok().map(|p| s.data[p].to_vec()),
        })
        .collect())
}

/// The sizes and counters of the cache at `settings.path`.
pub fn stats(settings: &Settings) -> Result<Stats, String> {
    let s = read_existing(settings)?;
    let records = s.records();
    Ok(Stats {
        path: settings.path.clone(),
        file_size: s.file_len,
        committed: s.header.committed,
        entries: records.len(),
        payload_bytes: records.iter().map(|(_, r)| u64::from(r.len)).sum(),
        created: s.header.created,
        counters: s.counters(),
    })
}

/// Checks every checksum of the cache at `settings.path` (Err: it cannot be read at all, or
/// its header or record chain is broken).
pub fn verify(settings: &Settings) -> Result<Verified, String> {
    let s = read_existing(settings)?;
    let mut v = Verified {
        uncommitted: s.file_len - s.header.committed,
        ..Verified::default()
    };
    for (at, r) in s.records() {
        match s.checked_payload(at) {
            Ok(_) => {
                v.entries += 1;
                v.bytes += u64::from(r.len);
            }
            Err(why) => v.problems.push(why.to_string()),
        }
    }
    Ok(v)
}
