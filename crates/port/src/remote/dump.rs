//! Owns the file cache's dump (`--io=9p:...,cachedump=PATH`, issue 22 item 4, after Libra's
//! cache dump): its file format, loading it into the caches of the backends that name it, and
//! writing their blocks back to it when the process exits, so the next VM starts warm.
//!
//! The file is a host file, opened (created if missing) when the first backend naming it
//! connects, or before `--sandbox` closes the host's files ([`open_early`]); the descriptor is kept and the dump is written
//! through it at exit ([`write_all`]). Backends naming the same file (a program's own and its
//! class path's) load the same blocks and write their union.
//!
//! Nothing loaded is trusted: a block is served only after a check of its file finds the
//! stamp the dump recorded on the server (see [`super::cache::FileCache::import`]). A file
//! that is not a dump, is truncated, fails its checksum, was made for another server or
//! another block size is reported once on stderr and ignored (and overwritten at exit).
//!
//! Format (little-endian): `"JXVM9PCD"`, version `u32` (1), block size `u32`, origin (`u16`
//! length and the server's address and attach name), file count `u32`; per file its qid path
//! `u64`, stamp (qid version `u32`, data version `u64`, size `u64`, mtime and ctime as two
//! `u64` each), block count `u32`, and per block its number `u64`, length `u32` and bytes;
//! last, an FNV-1a 64 checksum of everything before it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use super::cache::{FileCache, Saved, Stamp};

const MAGIC: &[u8; 8] = b"JXVM9PCD";
const VERSION: u32 = 1;

/// Why a dump was not loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DumpError {
    /// Not a dump of this format or version.
    NotADump,
    /// Ends before its checksum, or a count runs past its end.
    Truncated,
    /// The checksum does not match.
    Corrupt,
    /// Made for another server or attach name (the text is its origin).
    Foreign(String),
    /// Made with another block size.
    BlockSize(u32),
    /// Larger than any dump of the cache's capacity.
    TooLarge(u64),
}

impl std::fmt::Display for DumpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DumpError::NotADump => f.write_str("not a jxvm 9P cache dump"),
            DumpError::Truncated => f.write_str("truncated"),
            DumpError::Corrupt => f.write_str("checksum mismatch"),
            DumpError::Foreign(o) => write!(f, "made for another server ({o})"),
            DumpError::BlockSize(b) => write!(f, "made with {b}-byte blocks"),
            DumpError::TooLarge(n) => write!(f, "too large ({n} bytes)"),
        }
    }
}

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Encodes `files` as a dump of `origin` with `block`-byte blocks.
pub fn encode(origin: &str, block: u32, files: &[Saved]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&block.to_le_bytes());
    let origin = &origin.as_bytes()[..origin.len().min(u16::MAX as usize)];
    out.extend_from_slice(&(origin.len() as u16).to_le_bytes());
    out.extend_from_slice(origin);
    out.extend_from_slice(&(files.len() as u32).to_le_bytes());
    for f in files {
        out.extend_from_slice(&f.file.to_le_bytes());
        let s = &f.stamp;
        out.extend_from_slice(&s.version.to_le_bytes());
        for v in [
            s.data_version,
            s.size,
            s.mtime.0,
            s.mtime.1,
            s.ctime.0,
            s.ctime.1,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(f.blocks.len() as u32).to_le_bytes());
        for (n, data) in &f.blocks {
            out.extend_from_slice(&n.to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(data);
        }
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A cursor over a dump's bytes; running past the end is [`DumpError::Truncated`].
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DumpError> {
        if self.0.len() < n {
            return Err(DumpError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u16(&mut self) -> Result<u16, DumpError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or_default(),
        ))
    }
    fn u32(&mut self) -> Result<u32, DumpError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&mut self) -> Result<u64, DumpError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }
}

/// Decodes a dump made for `origin` with `block`-byte blocks.
pub fn decode(bytes: &[u8], origin: &str, block: u32) -> Result<Vec<Saved>, DumpError> {
    if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
        return Err(DumpError::NotADump);
    }
    if bytes[8..12] != VERSION.to_le_bytes() {
        return Err(DumpError::NotADump);
    }
    let Some(body_len) = bytes.len().checked_sub(8) else {
        return Err(DumpError::Truncated);
    };
    let (body, sum) = bytes.split_at(body_len);
    if body.len() < 12 {
        return Err(DumpError::Truncated);
    }
    if checksum(body).to_le_bytes() != sum {
        return Err(DumpError::Corrupt);
    }
    let mut c = Cursor(&body[12..]);
    let their_block = c.u32()?;
    let len = c.u16()? as usize;
    let theirs = String::from_utf8_lossy(c.take(len)?).into_owned();
    if theirs != origin {
        return Err(DumpError::Foreign(theirs));
    }
    if their_block != block {
        return Err(DumpError::BlockSize(their_block));
    }
    let count = c.u32()?;
    let mut files = Vec::new();
    for _ in 0..count {
        files.push(decode_file(&mut c)?);
    }
    if !c.0.is_empty() {
        return Err(DumpError::Corrupt);
    }
    Ok(files)
}

fn decode_file(c: &mut Cursor<'_>) -> Result<Saved, DumpError> {
    let file = c.u64()?;
    let version = c.u32()?;
    let [data_version, size, ms, mn, cs, cn] =
        [c.u64()?, c.u64()?, c.u64()?, c.u64()?, c.u64()?, c.u64()?];
    let stamp = Stamp {
        version,
        data_version,
        size,
        mtime: (ms, mn),
        ctime: (cs, cn),
        regular: true,
    };
    let n = c.u32()?;
    let mut blocks = Vec::new();
    for _ in 0..n {
        let number = c.u64()?;
        let len = c.u32()? as usize;
        blocks.push((number, Arc::from(c.take(len)?)));
    }
    Ok(Saved {
        file,
        stamp,
        blocks,
    })
}

/// One dump file and the caches that load from and write to it.
struct DumpFile {
    path: PathBuf,
    origin: String,
    block: u32,
    /// Kept open from start-up, so the dump can be written under a sandbox.
    file: Option<File>,
    /// What the file held when opened (empty when it held no valid dump).
    loaded: Vec<Saved>,
    caches: Vec<Weak<FileCache>>,
}

static DUMPS: Mutex<Vec<DumpFile>> = Mutex::new(Vec::new());

/// Loads the dump at `path` into `cache` (a backend of the server `origin`) and registers the
/// cache to be written there at exit. Problems with the file are reported once per file on
/// stderr; the cache then starts empty.
pub fn attach(path: &Path, origin: &str, cache: &Arc<FileCache>) {
    let block = cache.config().block as u32;
    let mut dumps = super::lock(&DUMPS);
    let i = match dumps.iter().position(|d| d.path == path) {
        Some(i) => i,
        None => {
            let capacity = cache.config().capacity as u64;
            dumps.push(open(path, origin, block, capacity));
            dumps.len() - 1
        }
    };
    let d = &mut dumps[i];
    if d.origin == origin && d.block == block {
        cache.import(&d.loaded);
    }
    d.caches.push(Arc::downgrade(cache));
}

/// Opens (or creates) the dump at `path` and reads what it holds.
fn open(path: &Path, origin: &str, block: u32, capacity: u64) -> DumpFile {
    let mut d = DumpFile {
        path: path.to_path_buf(),
        origin: origin.to_string(),
        block,
        file: None,
        loaded: Vec::new(),
        caches: Vec::new(),
    };
    let early = {
        let mut early = super::lock(&EARLY);
        let i = early.iter().position(|(p, _)| p == path);
        i.map(|i| early.swap_remove(i).1)
    };
    let file = early.map_or_else(|| open_file(path), Ok);
    let mut file = match file {
        Ok(f) => f,
        Err(e) => {
            report(path, &format!("cannot open it: {e}"));
            return d;
        }
    };
    match read_dump(&mut file, origin, block, capacity) {
        Ok(files) => d.loaded = files,
        Err(Some(e)) => report(path, &e.to_string()),
        Err(None) => {}
    }
    d.file = Some(file);
    d
}

/// Dump files opened before a sandbox closed the host's files ([`open_early`]).
static EARLY: Mutex<Vec<(PathBuf, File)>> = Mutex::new(Vec::new());

/// Opens the dump at `path` now, for a backend that connects later, after `--sandbox` has
/// closed the host's files (Landlock checks a file when it is opened, not when it is
/// written). A failure is left to be reported when the backend opens it.
pub fn open_early(path: &Path) {
    if let Ok(f) = open_file(path) {
        super::lock(&EARLY).push((path.to_path_buf(), f));
    }
}

/// Opens or creates a dump file, readable by its owner only (it holds file contents).
fn open_file(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
}

/// The dump's files; `Err(None)` for an empty file (a first run).
fn read_dump(
    file: &mut File,
    origin: &str,
    block: u32,
    capacity: u64,
) -> Result<Vec<Saved>, Option<DumpError>> {
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        return Err(None);
    }
    // Blocks beyond the capacity would not be kept; the headers take far less than a block.
    if len > capacity.saturating_mul(2) + (1 << 20) {
        return Err(Some(DumpError::TooLarge(len)));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    if file.read_to_end(&mut bytes).is_err() {
        return Err(Some(DumpError::Truncated));
    }
    decode(&bytes, origin, block).map_err(Some)
}

fn report(path: &Path, why: &str) {
    eprintln!("jxvm: 9P cache dump {}: {why}; ignored", path.display());
}

/// Writes every dump file: the union of its live caches' blocks (called once, as the process
/// exits). A failure is reported on stderr; the next run then finds a dump it ignores.
pub fn write_all() {
    let dumps = std::mem::take(&mut *super::lock(&DUMPS));
    for d in dumps {
        let Some(mut file) = d.file else {
            continue;
        };
        let mut files: Vec<Saved> = Vec::new();
        for cache in d.caches.iter().filter_map(Weak::upgrade) {
            for s in cache.export() {
                if !files.iter().any(|f| f.file == s.file) {
                    files.push(s);
                }
            }
        }
        let bytes = encode(&d.origin, d.block, &files);
        let written = file
            .set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(&bytes));
        if let Err(e) = written {
            report(&d.path, &format!("cannot write it: {e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Saved> {
        let stamp = Stamp {
            version: 3,
            data_version: 0,
            size: 1500,
            mtime: (10, 5),
            ctime: (11, 6),
            regular: true,
        };
        vec![Saved {
            file: 42,
            stamp,
            blocks: vec![(0, vec![7u8; 1024].into()), (1, vec![8u8; 476].into())],
        }]
    }

    #[test]
    fn a_dump_round_trips() {
        let bytes = encode("unix:/gw", 1024, &sample());
        assert_eq!(decode(&bytes, "unix:/gw", 1024), Ok(sample()));
    }

    #[test]
    fn bad_dumps_are_typed_errors_never_panics() {
        let bytes = encode("unix:/gw", 1024, &sample());
        assert_eq!(decode(b"hello", "unix:/gw", 1024), Err(DumpError::NotADump));
        assert_eq!(
            decode(&bytes, "unix:/other", 1024),
            Err(DumpError::Foreign("unix:/gw".into()))
        );
        assert_eq!(
            decode(&bytes, "unix:/gw", 512),
            Err(DumpError::BlockSize(1024))
        );
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(decode(&flipped, "unix:/gw", 1024), Err(DumpError::Corrupt));
        // Every truncation and every single-byte change is an error or (where the checksum
        // still holds, which it never should) a decoded dump, never a panic.
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n], "unix:/gw", 1024).is_err(), "{n}");
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] = b[i].wrapping_add(0x55);
            let _ = decode(&b, "unix:/gw", 1024);
        }
    }

    #[test]
    fn a_valid_checksum_over_bad_counts_is_still_an_error() {
        // A file count past the end, with a checksum made to match.
        let mut body = encode("o", 1024, &[]);
        body.truncate(body.len() - 8);
        let at = body.len() - 4;
        body[at..].copy_from_slice(&5u32.to_le_bytes());
        let sum = checksum(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(decode(&body, "o", 1024), Err(DumpError::Truncated));
    }
}
