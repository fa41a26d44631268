//! Owns the 9P backend's read-only file cache (`--io=9p:...,cache=on`, issue 22 item 4, after
//! Libra's file cache): blocks of file contents kept in the VM's process, keyed by the file's
//! identity (its qid path) and block number, bounded in bytes with least-recently-used
//! eviction, and filled with read-ahead when a descriptor reads sequentially.
//!
//! A file's blocks are tied to a [`Stamp`] (the server's qid version and data version, size,
//! modification and change times) taken by `Tgetattr`. The backend validates the stamp when a file is opened
//! and again when it was last checked more than [`Config::revalidate`] ago; a different stamp
//! drops every block of the file. A write, truncation, attribute change or mapping write-back
//! made through this backend drops them as well (write-behind is not done: writes go to the
//! server at once). Blocks are kept only for a file whose modification and change times are at
//! least [`Config::settle`] old by this process's clock: a change made within the same tick of
//! the server's timestamps as an earlier one, and keeping the size, would otherwise look
//! unchanged. Each invalidation bumps the file's generation, and a block fetched under an older
//! generation is not kept, so a read that raced with a write cannot put old bytes back.
//!
//! The guarantee: a read never returns bytes older than the file's state at the most recent of
//! (its descriptor's open, the file's last check at most `revalidate` earlier), as long as the
//! server's times move on every change (a file of the gateway's export does) and its clock is
//! within `settle` of this process's.
//!
//! This module holds no 9P: it stores and hands out bytes; [`super::files`] asks the server.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use ninep::msg::Attr;

/// What tells one state of a file from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The qid's version.
    pub version: u32,
    /// `Rgetattr`'s data version (0 from servers that keep none).
    pub data_version: u64,
    pub size: u64,
    /// Modification time (seconds, nanoseconds).
    pub mtime: (u64, u64),
    /// Change time (seconds, nanoseconds).
    pub ctime: (u64, u64),
    /// Whether it is a regular file that says it holds bytes: the only files cached (a file
    /// whose size says nothing of what a read returns, as many synthetic files' do, is not).
    pub regular: bool,
}

impl Stamp {
    pub fn of(a: &Attr) -> Stamp {
        Stamp {
            version: a.qid.version,
            data_version: a.data_version,
            size: a.size,
            mtime: (a.mtime_sec, a.mtime_nsec),
            ctime: (a.ctime_sec, a.ctime_nsec),
            regular: a.mode & libc::S_IFMT == libc::S_IFREG && a.size > 0,
        }
    }

    /// Whether the file last changed at least `settle` before `now` (since the epoch); a time
    /// in the future is not settled.
    fn settled(&self, now: Duration, settle: Duration) -> bool {
        let latest = self.mtime.max(self.ctime);
        let changed = Duration::new(latest.0, latest.1.min(999_999_999) as u32);
        now.checked_sub(changed).is_some_and(|age| age >= settle)
    }
}

/// The cache's sizes and intervals.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Bytes of a block (a power of two).
    pub block: usize,
    /// Bytes of blocks kept at most.
    pub capacity: usize,
    /// How long a check of a file's stamp stands before a read checks again.
    pub revalidate: Duration,
    /// How old a file's last change must be for its blocks to be kept.
    pub settle: Duration,
    /// Blocks fetched at most at once by read-ahead.
    pub max_readahead: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            block: 64 << 10,
            capacity: 64 << 20,
            revalidate: Duration::from_secs(1),
            settle: Duration::from_secs(1),
            max_readahead: 16,
        }
    }
}

/// What the cache knows of one file.
struct FileEntry {
    /// The stamp of the last check; `None` after an invalidation (the next read checks).
    stamp: Option<Stamp>,
    /// When this process last checked it (`None`: loaded from a dump, never checked here).
    checked: Option<Instant>,
    /// Whether its blocks may be kept (its stamp is settled).
    keep: bool,
    generation: u64,
}

struct Block {
    data: Arc<[u8]>,
    /// Its place in the eviction order.
    tick: u64,
}

#[derive(Default)]
struct Inner {
    files: HashMap<u64, FileEntry>,
    blocks: HashMap<(u64, u64), Block>,
    /// Least recently used first: tick -> (file, block number).
    order: BTreeMap<u64, (u64, u64)>,
    tick: u64,
    bytes: usize,
    next_generation: u64,
    stats: Stats,
}

/// Counters, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
    pub invalidations: u64,
}

/// What a read may do with a file, after [`FileCache::plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The file's stamp must be checked first ([`FileCache::validate`]).
    Check,
    /// Read around the cache (its last change is too recent).
    Bypass,
    /// Use the cache: the size the stamp gives and the generation to fill under.
    Use { size: u64, generation: u64 },
}

/// The blocks of one backend's files.
pub struct FileCache {
    cfg: Config,
    inner: Mutex<Inner>,
}

impl FileCache {
    pub fn new(cfg: Config) -> FileCache {
        let cfg = Config {
            block: cfg.block.max(512).next_power_of_two(),
            max_readahead: cfg.max_readahead.max(1),
            ..cfg
        };
        FileCache {
            cfg,
            inner: Mutex::new(Inner::default()),
        }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn stats(&self) -> Stats {
        super::lock(&self.inner).stats
    }

    /// Bytes of blocks held now.
    pub fn bytes(&self) -> usize {
        super::lock(&self.inner).bytes
    }

    /// Records the stamp `file` has now (just read from the server): blocks of another
    /// stamp are dropped.
    pub fn validate(&self, file: u64, stamp: Stamp) {
        self.validate_at(file, stamp, Instant::now(), wall_now());
    }

    fn validate_at(&self, file: u64, stamp: Stamp, now: Instant, wall: Duration) {
        let mut inner = super::lock(&self.inner);
        let keep = stamp.regular && stamp.settled(wall, self.cfg.settle);
        let same = matches!(inner.files.get(&file), Some(e) if e.stamp == Some(stamp));
        if !same || !keep {
            inner.drop_blocks(file);
        }
        let generation = match inner.files.get(&file) {
            Some(e) if same => e.generation,
            _ => inner.new_generation(),
        };
        inner.files.insert(
            file,
            FileEntry {
                stamp: Some(stamp),
                checked: Some(now),
                keep,
                generation,
            },
        );
    }

    /// What a read of `file` may do now.
    pub fn plan(&self, file: u64) -> Plan {
        self.plan_at(file, Instant::now())
    }

    fn plan_at(&self, file: u64, now: Instant) -> Plan {
        let inner = super::lock(&self.inner);
        match inner.files.get(&file) {
            Some(FileEntry {
                stamp: Some(s),
                checked: Some(checked),
                keep,
                generation,
            }) if now.saturating_duration_since(*checked) < self.cfg.revalidate => {
                if *keep {
                    Plan::Use {
                        size: s.size,
                        generation: *generation,
                    }
                } else {
                    Plan::Bypass
                }
            }
            _ => Plan::Check,
        }
    }

    /// Block `n` of `file`, if held (it becomes the most recently used).
    pub fn get(&self, file: u64, n: u64) -> Option<Arc<[u8]>> {
        let mut inner = super::lock(&self.inner);
        inner.tick += 1;
        let tick = inner.tick;
        let Some(b) = inner.blocks.get_mut(&(file, n)) else {
            inner.stats.misses += 1;
            return None;
        };
        let old = std::mem::replace(&mut b.tick, tick);
        let data = b.data.clone();
        inner.order.remove(&old);
        inner.order.insert(tick, (file, n));
        inner.stats.hits += 1;
        Some(data)
    }

    /// Keeps block `n` of `file`, fetched under `generation`, unless the file changed since
    /// (a newer generation) or the block is larger than the whole cache.
    pub fn put(&self, file: u64, generation: u64, n: u64, data: Arc<[u8]>) {
        let mut inner = super::lock(&self.inner);
        let current = matches!(inner.files.get(&file),
            Some(e) if e.keep && e.generation == generation && e.stamp.is_some());
        if !current || data.len() > self.cfg.capacity {
            return;
        }
        inner.remove_block(file, n);
        inner.tick += 1;
        let tick = inner.tick;
        inner.bytes += data.len();
        inner.order.insert(tick, (file, n));
        inner.blocks.insert((file, n), Block { data, tick });
        while inner.bytes > self.cfg.capacity {
            let Some((_, (f, b))) = inner.order.pop_first() else {
                break;
            };
            if let Some(old) = inner.blocks.remove(&(f, b)) {
                inner.bytes -= old.data.len();
                inner.stats.evictions += 1;
            }
        }
    }

    /// Forgets what is known of `file` (this backend changed it): its blocks go, and the next
    /// read checks its stamp.
    pub fn invalidate(&self, file: u64) {
        let mut inner = super::lock(&self.inner);
        inner.drop_blocks(file);
        inner.stats.invalidations += 1;
        let generation = inner.new_generation();
        if let Some(e) = inner.files.get_mut(&file) {
            e.stamp = None;
            e.generation = generation;
        }
    }
}

/// Block numbers and contents of one file.
pub type Blocks = Vec<(u64, Arc<[u8]>)>;

/// One file's blocks as a dump holds them (see [`super::dump`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// The file's qid path.
    pub file: u64,
    /// The stamp its blocks belong to.
    pub stamp: Stamp,
    pub blocks: Blocks,
}

impl FileCache {
    /// The blocks held now, with the stamp of their file, files in qid order and blocks in
    /// number order.
    pub fn export(&self) -> Vec<Saved> {
        let inner = super::lock(&self.inner);
        let mut by_file: BTreeMap<u64, Blocks> = BTreeMap::new();
        for (&(file, n), b) in &inner.blocks {
            by_file.entry(file).or_default().push((n, b.data.clone()));
        }
        by_file
            .into_iter()
            .filter_map(|(file, mut blocks)| {
                let e = inner.files.get(&file).filter(|e| e.keep)?;
                blocks.sort_by_key(|b| b.0);
                Some(Saved {
                    file,
                    stamp: e.stamp?,
                    blocks,
                })
            })
            .collect()
    }

    /// Takes in blocks saved by another process, for files this cache knows nothing of yet.
    /// They are used only once a check of their file finds the saved stamp on the server
    /// (the file is marked never checked), so a file changed since is never served from them.
    /// Blocks of the wrong size and what does not fit the capacity are left out.
    pub fn import(&self, saved: &[Saved]) -> usize {
        let mut taken = 0;
        for s in saved {
            let generation = {
                let mut inner = super::lock(&self.inner);
                if inner.files.contains_key(&s.file) {
                    continue;
                }
                let generation = inner.new_generation();
                inner.files.insert(
                    s.file,
                    FileEntry {
                        stamp: Some(s.stamp),
                        checked: None,
                        keep: true,
                        generation,
                    },
                );
                generation
            };
            for (n, data) in &s.blocks {
                if self.fits(s.stamp.size, *n, data.len())
                    && self.bytes() + data.len() <= self.cfg.capacity
                {
                    self.put(s.file, generation, *n, data.clone());
                    taken += 1;
                }
            }
        }
        taken
    }

    /// Whether block `n` of a file of `size` bytes has the length `len` this cache's blocks
    /// of it have.
    fn fits(&self, size: u64, n: u64, len: usize) -> bool {
        let block = self.cfg.block as u64;
        let start = n.saturating_mul(block);
        start < size && len as u64 == (size - start).min(block)
    }
}

impl Inner {
    fn new_generation(&mut self) -> u64 {
        self.next_generation += 1;
        self.next_generation
    }

    fn remove_block(&mut self, file: u64, n: u64) {
        if let Some(old) = self.blocks.remove(&(file, n)) {
            self.order.remove(&old.tick);
            self.bytes -= old.data.len();
        }
    }

    fn drop_blocks(&mut self, file: u64) {
        let gone: Vec<u64> = self
            .blocks
            .keys()
            .filter(|(f, _)| *f == file)
            .map(|&(_, n)| n)
            .collect();
        for n in gone {
            self.remove_block(file, n);
        }
    }
}

fn wall_now() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

/// A descriptor's read-ahead: where its next sequential read starts and how many blocks a miss
/// there fetches (doubling on each sequential miss, back to one on a jump).
#[derive(Debug, Default)]
pub struct ReadAhead {
    next: u64,
    window: usize,
    /// Whether a read of the descriptor has checked its file's stamp since it was opened.
    pub checked: bool,
    /// The block it read last: (block number, generation, bytes), so that small reads of
    /// one block do not go to the shared cache each time.
    pub last: Option<(u64, u64, Arc<[u8]>)>,
}

impl ReadAhead {
    /// How many blocks a miss of block `n`, for a read at `pos`, fetches (at least one).
    pub fn blocks(&mut self, pos: u64, max: usize) -> usize {
        self.window = if pos == self.next && self.window > 0 {
            (self.window * 2).min(max)
        } else if pos == 0 || pos == self.next {
            2.min(max)
        } else {
            1
        };
        self.window
    }

    /// Records that a read ended at `end`.
    pub fn ended(&mut self, end: u64) {
        self.next = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(version: u32, size: u64, t: u64) -> Stamp {
        Stamp {
            version,
            data_version: 0,
            size,
            mtime: (t, 0),
            ctime: (t, 0),
            regular: true,
        }
    }

    fn cache(capacity: usize) -> FileCache {
        FileCache::new(Config {
            block: 1024,
            capacity,
            ..Config::default()
        })
    }

    const LATER: Duration = Duration::from_secs(1_000);

    fn use_of(c: &FileCache, file: u64) -> (u64, u64) {
        match c.plan(file) {
            Plan::Use { size, generation } => (size, generation),
            p => panic!("{p:?}"),
        }
    }

    fn block(byte: u8, len: usize) -> Arc<[u8]> {
        vec![byte; len].into()
    }

    #[test]
    fn an_unknown_file_is_checked_first() {
        let c = cache(1 << 20);
        assert_eq!(c.plan(7), Plan::Check);
        assert!(c.get(7, 0).is_none());
    }

    #[test]
    fn blocks_are_served_while_the_stamp_holds() {
        let c = cache(1 << 20);
        let now = Instant::now();
        c.validate_at(7, stamp(1, 2000, 10), now, LATER);
        let (size, g) = use_of(&c, 7);
        assert_eq!(size, 2000);
        c.put(7, g, 0, block(1, 1024));
        c.put(7, g, 1, block(2, 976));
        assert_eq!(&c.get(7, 1).unwrap()[..2], &[2, 2]);
        // Checked again with the same stamp: the blocks stay.
        c.validate_at(7, stamp(1, 2000, 10), now, LATER);
        assert!(c.get(7, 0).is_some());
        assert_eq!(c.stats().hits, 2);
    }

    #[test]
    fn a_changed_stamp_drops_the_blocks() {
        let c = cache(1 << 20);
        let now = Instant::now();
        c.validate_at(7, stamp(1, 2000, 10), now, LATER);
        let (_, g) = use_of(&c, 7);
        c.put(7, g, 0, block(1, 1024));
        for changed in [
            stamp(2, 2000, 10),
            stamp(1, 2001, 10),
            stamp(1, 2000, 11),
            Stamp {
                ctime: (10, 5),
                ..stamp(1, 2000, 10)
            },
        ] {
            c.put(7, use_of(&c, 7).1, 0, block(1, 1024));
            c.validate_at(7, changed, now, LATER);
            assert!(c.get(7, 0).is_none(), "{changed:?}");
            assert_eq!(c.bytes(), 0);
        }
    }

    #[test]
    fn a_block_fetched_before_a_change_is_not_kept() {
        let c = cache(1 << 20);
        let now = Instant::now();
        c.validate_at(7, stamp(1, 2000, 10), now, LATER);
        let (_, old) = use_of(&c, 7);
        // Another writer changes the file while this read fetches it.
        c.validate_at(7, stamp(1, 2000, 12), now, LATER);
        c.put(7, old, 0, block(1, 1024));
        assert!(c.get(7, 0).is_none());
        // A write through this backend, the same.
        let (_, g) = use_of(&c, 7);
        c.invalidate(7);
        c.put(7, g, 0, block(1, 1024));
        assert!(c.get(7, 0).is_none());
        assert_eq!(c.plan(7), Plan::Check);
    }

    #[test]
    fn invalidation_makes_the_next_read_check() {
        let c = cache(1 << 20);
        let now = Instant::now();
        c.validate_at(7, stamp(1, 2000, 10), now, LATER);
        c.put(7, use_of(&c, 7).1, 0, block(1, 1024));
        c.invalidate(7);
        assert_eq!(c.plan(7), Plan::Check);
        assert_eq!(c.bytes(), 0);
        // Even if the server's stamp did not move (same tick), the blocks are gone.
        c.validate_at(7, stamp(1, 2000, 10), now, LATER);
        assert!(c.get(7, 0).is_none());
    }

    #[test]
    fn a_check_expires() {
        let c = cache(1 << 20);
        let long_ago = Instant::now() - Duration::from_secs(5);
        c.validate_at(7, stamp(1, 2000, 10), long_ago, LATER);
        assert_eq!(c.plan(7), Plan::Check);
        assert!(matches!(c.plan_at(7, long_ago), Plan::Use { .. }));
    }

    #[test]
    fn a_recently_changed_file_is_read_around_the_cache() {
        let c = cache(1 << 20);
        let now = Instant::now();
        // Changed half a second ago, or in the future by this clock.
        c.validate_at(7, stamp(1, 2000, 999), now, Duration::new(999, 500_000_000));
        assert_eq!(c.plan(7), Plan::Bypass);
        c.validate_at(8, stamp(1, 2000, 2000), now, LATER);
        assert_eq!(c.plan(8), Plan::Bypass);
        // Nor one that is not a regular file with bytes.
        c.validate_at(
            9,
            Stamp {
                regular: false,
                ..stamp(1, 0, 10)
            },
            now,
            LATER,
        );
        assert_eq!(c.plan(9), Plan::Bypass);
        // Nothing is kept for them.
        c.put(7, 1, 0, block(1, 1024));
        assert_eq!(c.bytes(), 0);
        // Once settled, it is cached.
        c.validate_at(7, stamp(1, 2000, 999), now, LATER);
        assert!(matches!(c.plan(7), Plan::Use { .. }));
    }

    #[test]
    fn the_least_recently_used_block_goes_first() {
        let c = cache(3 * 1024);
        let now = Instant::now();
        c.validate_at(1, stamp(1, 1 << 20, 10), now, LATER);
        c.validate_at(2, stamp(1, 1 << 20, 10), now, LATER);
        let (_, g1) = use_of(&c, 1);
        let (_, g2) = use_of(&c, 2);
        c.put(1, g1, 0, block(1, 1024));
        c.put(1, g1, 1, block(1, 1024));
        c.put(2, g2, 0, block(2, 1024));
        assert!(c.get(1, 0).is_some()); // now (1,1) is the oldest
        c.put(2, g2, 1, block(2, 1024));
        assert!(c.get(1, 1).is_none());
        assert!(c.get(1, 0).is_some());
        assert!(c.get(2, 0).is_some());
        assert!(c.get(2, 1).is_some());
        assert_eq!(c.bytes(), 3 * 1024);
        assert_eq!(c.stats().evictions, 1);
        // A block larger than the whole cache is not kept.
        c.put(1, g1, 5, block(1, 4 * 1024));
        assert!(c.get(1, 5).is_none());
        assert_eq!(c.bytes(), 3 * 1024);
    }

    #[test]
    fn replacing_a_block_keeps_the_count_right() {
        let c = cache(1 << 20);
        let now = Instant::now();
        c.validate_at(1, stamp(1, 4096, 10), now, LATER);
        let (_, g) = use_of(&c, 1);
        c.put(1, g, 0, block(1, 1024));
        c.put(1, g, 0, block(2, 512));
        assert_eq!(c.bytes(), 512);
        assert_eq!(c.get(1, 0).unwrap()[0], 2);
    }

    #[test]
    fn read_ahead_grows_on_sequential_reads_only() {
        let mut ra = ReadAhead::default();
        assert_eq!(ra.blocks(0, 16), 2);
        ra.ended(100);
        assert_eq!(ra.blocks(100, 16), 4);
        ra.ended(200);
        assert_eq!(ra.blocks(200, 16), 8);
        ra.ended(300);
        assert_eq!(ra.blocks(300, 16), 16);
        ra.ended(400);
        assert_eq!(ra.blocks(400, 16), 16);
        ra.ended(500);
        assert_eq!(ra.blocks(9_000, 16), 1);
        ra.ended(9_100);
        assert_eq!(ra.blocks(9_100, 16), 2);
    }
}
