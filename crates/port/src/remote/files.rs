//! Owns the mapping of file and directory calls to 9P2000.L messages: opening and creating
//! (`Twalk` + `Tlopen`/`Tlcreate`), reading and writing at the descriptor's offset
//! (`Tread`/`Twrite`), attributes (`Tgetattr`/`Tsetattr`), directories (`Treaddir`,
//! `Tmkdir`, `Tunlinkat`), names (`Trenameat`, `Tlink`, `Tsymlink`, `Treadlink`), `Tfsync`,
//! `Tstatfs` and POSIX locks (`Tlock`/`Tgetlock`). Paths are resolved by [`super::ns`].

use std::sync::{Arc, Mutex};

use ninep::client::Fid;
use ninep::msg::{self, Attr, Flock, QTDIR, QTSYMLINK, SetAttr};

use super::NinepBackend;
use super::cache::{FileCache, Plan, Stamp};
use super::ns::{self, Names, errno};
use super::table::{Entry, RemoteFile};
use crate::fs::{FileStat, FsStat, LockResult};
use crate::{Errno, Fd, PortResult};

/// The most a read through the file cache returns at once.
const MAX_CACHED_READ: usize = 16 << 20;

/// The device number every file of a 9P namespace reports (one file system).
const DEV: u64 = 0x9f;

/// The open flags a server is sent (the rest are the client's business).
fn wire_flags(flags: i32) -> u32 {
    (flags
        & (libc::O_ACCMODE
            | libc::O_TRUNC
            | libc::O_APPEND
            | libc::O_EXCL
            | libc::O_SYNC
            | libc::O_DSYNC)) as u32
}

fn utf8(name: &[u8]) -> PortResult<&str> {
    std::str::from_utf8(name).map_err(|_| Errno::EINVAL)
}

/// `struct stat` from `Rgetattr`.
pub fn file_stat(a: &Attr) -> FileStat {
    FileStat {
        mode: a.mode,
        ino: a.qid.path,
        dev: DEV,
        rdev: a.rdev,
        nlink: a.nlink,
        uid: a.uid,
        gid: a.gid,
        size: a.size as i64,
        atime_sec: a.atime_sec as i64,
        atime_nsec: a.atime_nsec as i64,
        mtime_sec: a.mtime_sec as i64,
        mtime_nsec: a.mtime_nsec as i64,
        ctime_sec: a.ctime_sec as i64,
        ctime_nsec: a.ctime_nsec as i64,
        birthtime_sec: a.btime_sec as i64,
        birthtime_nsec: a.btime_nsec as i64,
    }
}

impl NinepBackend {
    /// The names a descriptor's relative paths start from (`openat` and friends); the root
    /// when `dfd` is `AT_FDCWD`.
    pub(super) fn base(&self, dfd: Fd) -> PortResult<Names> {
        if dfd.0 == libc::AT_FDCWD {
            return Ok(Vec::new());
        }
        match self.table.get(dfd.0)? {
            Entry::Remote(f) => Ok(f.names.clone()),
            _ => Err(Errno::EBADF),
        }
    }

    /// The open 9P file of `fd`.
    pub(super) fn remote(&self, fd: Fd) -> PortResult<Arc<RemoteFile>> {
        match self.table.get(fd.0)? {
            Entry::Remote(f) => Ok(f),
            _ => Err(Errno::EBADF),
        }
    }

    /// Runs `f` on a fid walked to `path` and clunks it.
    pub(super) fn with_path<T>(
        &self,
        base: &[Vec<u8>],
        path: &[u8],
        follow: bool,
        f: impl FnOnce(Fid, &msg::Qid) -> PortResult<T>,
    ) -> PortResult<T> {
        let found = self.ns.resolve(base, path, follow)?;
        let r = f(found.fid, &found.qid);
        self.ns.clunk(found.fid);
        r
    }

    pub(super) fn stat_at(
        &self,
        base: &[Vec<u8>],
        path: &[u8],
        follow: bool,
    ) -> PortResult<FileStat> {
        self.with_path(base, path, follow, |fid, _| {
            self.ns.getattr(fid).map(|a| file_stat(&a))
        })
    }

    pub(super) fn fstat_remote(&self, fd: Fd) -> PortResult<FileStat> {
        let f = self.remote(fd)?;
        self.ns.getattr(f.fid).map(|a| file_stat(&a))
    }

    /// `openat` in the namespace.
    pub(super) fn open_at(
        &self,
        base: &[Vec<u8>],
        path: &[u8],
        flags: i32,
        mode: u32,
    ) -> PortResult<Fd> {
        let follow = flags & libc::O_NOFOLLOW == 0;
        let found = match self.ns.resolve(base, path, follow) {
            Err(Errno::ENOENT) if flags & libc::O_CREAT != 0 => {
                return self.create(base, path, flags, mode);
            }
            r => r?,
        };
        let opened = self.open_found(&found, flags);
        if opened.is_err() {
            self.ns.clunk(found.fid);
        }
        let is_dir = opened?;
        self.insert(found.fid, found.names, flags, is_dir, found.qid.path)
    }

    /// Opens a walked fid as `flags` asks; whether it is a directory.
    fn open_found(&self, found: &ns::Found, flags: i32) -> PortResult<bool> {
        let excl = libc::O_CREAT | libc::O_EXCL;
        if flags & excl == excl {
            return Err(Errno::EEXIST);
        }
        if found.qid.qtype & QTSYMLINK != 0 {
            return Err(Errno::ELOOP);
        }
        let is_dir = found.qid.qtype & QTDIR != 0;
        if flags & libc::O_DIRECTORY != 0 && !is_dir {
            return Err(Errno::ENOTDIR);
        }
        if is_dir && flags & libc::O_ACCMODE != libc::O_RDONLY {
            return Err(Errno::EISDIR);
        }
        let wire = wire_flags(flags) & !(libc::O_EXCL as u32);
        self.ns.client.lopen(found.fid, wire).map_err(errno)?;
        Ok(is_dir)
    }

    fn create(&self, base: &[Vec<u8>], path: &[u8], flags: i32, mode: u32) -> PortResult<Fd> {
        let (mut names, name) = self.ns.parent(base, path)?;
        let dfid = self.ns.dir_fid(&names)?;
        let gid = crate::ids().3 as u32;
        let made =
            self.ns
                .client
                .lcreate(dfid, utf8(&name)?, wire_flags(flags), mode & 0o7777, gid);
        let qid = match made {
            Ok((qid, _)) => qid,
            Err(e) => {
                self.ns.clunk(dfid);
                return Err(errno(e));
            }
        };
        names.push(name);
        self.insert(dfid, names, flags, false, qid.path)
    }

    fn insert(&self, fid: Fid, names: Names, flags: i32, is_dir: bool, qid: u64) -> PortResult<Fd> {
        let file = RemoteFile {
            client: self.ns.client.clone(),
            fid,
            names,
            flags,
            is_dir,
            qid,
            readahead: Default::default(),
            pos: Mutex::new(0),
        };
        self.table.insert(Entry::Remote(Arc::new(file))).map(Fd)
    }

    /// Reads up to `len` bytes at `at`, or at the file's offset (which moves) when `None`.
    pub(super) fn read_remote(&self, fd: Fd, len: usize, at: Option<u64>) -> PortResult<Vec<u8>> {
        let mut data = Vec::new();
        self.read_remote_with(fd, len, at, &mut |chunk| data.extend_from_slice(chunk))?;
        Ok(data)
    }

    /// Reads up to `len` bytes at `at`, or at the file's offset (which moves) when `None`,
    /// handing them to `out` in order; returns how many were read.
    pub(super) fn read_remote_with(
        &self,
        fd: Fd,
        len: usize,
        at: Option<u64>,
        out: &mut dyn FnMut(&[u8]),
    ) -> PortResult<usize> {
        let f = self.remote(fd)?;
        if f.is_dir {
            return Err(Errno::EISDIR);
        }
        if !f.readable() {
            return Err(Errno::EBADF);
        }
        let Some(pos) = at else {
            let mut pos = super::lock(&f.pos);
            let n = self.read_at(&f, *pos, len, out)?;
            *pos += n as u64;
            return Ok(n);
        };
        self.read_at(&f, pos, len, out)
    }

    fn read_at(
        &self,
        f: &RemoteFile,
        pos: u64,
        len: usize,
        out: &mut dyn FnMut(&[u8]),
    ) -> PortResult<usize> {
        if let Some(cache) = &self.cache
            && let Some(n) = self.read_cached(cache, f, pos, len, out)?
        {
            return Ok(n);
        }
        let len = len.min(self.ns.client.max_io() as usize);
        let data = self.ns.client.read(f.fid, pos, len).map_err(errno)?;
        out(&data);
        Ok(data.len())
    }

    /// A read at `fd`'s offset answered wholly from the file cache, or `None` (see
    /// [`crate::Host::io_read_held`]): the descriptor has checked its file, the check stands,
    /// every block the read needs is held, and no other thread holds the descriptor.
    pub(super) fn read_held(
        &self,
        fd: Fd,
        len: usize,
        out: &mut dyn FnMut(&[u8]),
    ) -> Option<PortResult<usize>> {
        let cache = self.cache.as_ref()?;
        let Ok(Entry::Remote(f)) = self.table.get(fd.0) else {
            return None;
        };
        if f.is_dir || !f.readable() {
            return None;
        }
        let mut pos = f.pos.try_lock().ok()?;
        let mut ra = f.readahead.try_lock().ok()?;
        if !ra.checked {
            return None;
        }
        let Plan::Use { size, generation } = cache.plan(f.qid) else {
            return None;
        };
        let bs = cache.config().block as u64;
        let end = pos
            .saturating_add(len.min(MAX_CACHED_READ) as u64)
            .min(size);
        let mut blocks = Vec::new();
        let mut at = *pos;
        while at < end {
            let n = at / bs;
            let memo = match &ra.last {
                Some((m, g, b)) if *m == n && *g == generation => Some(b.clone()),
                _ => None,
            };
            let block = memo.or_else(|| cache.get(f.qid, n))?;
            let off = (at - n * bs) as usize;
            let stop = (block.len() as u64).min(end - n * bs) as usize;
            if off >= stop || ((stop as u64) < bs && n * bs + (stop as u64) < end) {
                return None; // a short block: let the usual read sort it out
            }
            at += (stop - off) as u64;
            blocks.push((block, off, stop, n));
        }
        for (block, off, stop, _) in &blocks {
            out(&block[*off..*stop]);
        }
        if let Some((block, _, _, n)) = blocks.pop() {
            ra.last = Some((n, generation, block));
        }
        let read = at - *pos;
        *pos = at;
        ra.ended(at);
        Some(Ok(read as usize))
    }

    /// Checks the stamp of `f`'s file against the server's.
    fn check(&self, cache: &FileCache, f: &RemoteFile) -> PortResult<()> {
        let attr = self.ns.getattr(f.fid)?;
        cache.validate(f.qid, Stamp::of(&attr));
        Ok(())
    }

    /// A read through the file cache, or `None` when the file is to be read around it (it
    /// changed too recently). The first read of a descriptor checks the file's stamp, as does
    /// a read after the last check has expired.
    fn read_cached(
        &self,
        cache: &FileCache,
        f: &RemoteFile,
        pos: u64,
        len: usize,
        out: &mut dyn FnMut(&[u8]),
    ) -> PortResult<Option<usize>> {
        let mut ra = super::lock(&f.readahead);
        if !ra.checked {
            self.check(cache, f)?;
            ra.checked = true;
        }
        let (size, generation) = match cache.plan(f.qid) {
            Plan::Use { size, generation } => (size, generation),
            Plan::Bypass => return Ok(None),
            Plan::Check => {
                self.check(cache, f)?;
                match cache.plan(f.qid) {
                    Plan::Use { size, generation } => (size, generation),
                    _ => return Ok(None),
                }
            }
        };
        let len = len.min(MAX_CACHED_READ) as u64;
        let end = pos.saturating_add(len).min(size);
        let bs = cache.config().block as u64;
        let mut at = pos;
        while at < end {
            let n = at / bs;
            let memo = match &ra.last {
                Some((m, g, b)) if *m == n && *g == generation => Some(b.clone()),
                _ => None,
            };
            let block = match memo.or_else(|| cache.get(f.qid, n)) {
                Some(b) => b,
                None => {
                    let want = ra.blocks(at, cache.config().max_readahead) as u64;
                    let last = (size - 1) / bs;
                    let count = want.min(last - n + 1);
                    match self.fetch(cache, f, (n, count), (size, generation))? {
                        Some(b) => b,
                        None => break,
                    }
                }
            };
            ra.last = Some((n, generation, block.clone()));
            let off = (at - n * bs) as usize;
            let stop = (block.len() as u64).min(end - n * bs) as usize;
            if off >= stop {
                break;
            }
            out(&block[off..stop]);
            at += (stop - off) as u64;
            if (stop as u64) < bs && n * bs + (stop as u64) < end {
                break; // a short block: the file shrank since its check
            }
        }
        ra.ended(at);
        Ok(Some((at - pos) as usize))
    }

    /// Reads `count` blocks from block `first` of a file of `size` bytes (by its stamp) and
    /// keeps them under `generation`; returns the first (`None` at the end of the file).
    fn fetch(
        &self,
        cache: &FileCache,
        f: &RemoteFile,
        (first, count): (u64, u64),
        (size, generation): (u64, u64),
    ) -> PortResult<Option<Arc<[u8]>>> {
        let bs = cache.config().block as u64;
        let start = first * bs;
        let want = (count * bs).min(size - start);
        let data = self
            .ns
            .client
            .read(f.fid, start, want as usize)
            .map_err(errno)?;
        if data.len() as u64 != want {
            // The file changed size since its check: keep nothing, check again next time.
            cache.invalidate(f.qid);
        }
        let mut head = None;
        for (i, chunk) in data.chunks(bs as usize).enumerate() {
            let block: Arc<[u8]> = chunk.into();
            if data.len() as u64 == want {
                cache.put(f.qid, generation, first + i as u64, block.clone());
            }
            head.get_or_insert(block);
        }
        Ok(head)
    }

    /// Writes `data` at `at`, or at the file's offset (the end when appending) when `None`.
    pub(super) fn write_remote(&self, fd: Fd, data: &[u8], at: Option<u64>) -> PortResult<usize> {
        let f = self.remote(fd)?;
        if !f.writable() {
            return Err(Errno::EBADF);
        }
        if let Some(pos) = at {
            let n = self.ns.client.write(f.fid, pos, data);
            self.invalidate(f.qid);
            return n.map(|n| n as usize).map_err(errno);
        }
        let mut pos = super::lock(&f.pos);
        if f.append() {
            *pos = self.ns.getattr(f.fid)?.size;
        }
        let n = self.ns.client.write(f.fid, *pos, data);
        self.invalidate(f.qid);
        let n = n.map_err(errno)?;
        *pos += n;
        Ok(n as usize)
    }

    /// Drops what the file cache holds of file `qid` (this backend changed it).
    pub(super) fn invalidate(&self, qid: u64) {
        if let Some(cache) = &self.cache {
            cache.invalidate(qid);
        }
    }

    /// Moves the offset (`SEEK_SET` from `start`, `SEEK_CUR` from the offset, `SEEK_END` from
    /// the size); returns the new offset.
    pub(super) fn seek_remote(&self, fd: Fd, off: i64, whence: i32) -> PortResult<i64> {
        let f = self.remote(fd)?;
        let mut pos = super::lock(&f.pos);
        let from = match whence {
            libc::SEEK_SET => 0,
            libc::SEEK_CUR => *pos as i64,
            _ => self.ns.getattr(f.fid)?.size as i64,
        };
        let to = from
            .checked_add(off)
            .filter(|&p| p >= 0)
            .ok_or(Errno::EINVAL)?;
        *pos = to as u64;
        Ok(to)
    }

    /// `Tsetattr` on `fid`, a fid of file `qid`.
    pub(super) fn setattr_fid(&self, fid: Fid, qid: u64, attr: SetAttr) -> PortResult<()> {
        let r = self.ns.client.setattr(fid, attr).map_err(errno);
        self.invalidate(qid);
        r
    }

    pub(super) fn truncate_remote(&self, fd: Fd, len: i64) -> PortResult<()> {
        let f = self.remote(fd)?;
        if !f.writable() {
            return Err(Errno::EINVAL);
        }
        let size = u64::try_from(len).map_err(|_| Errno::EINVAL)?;
        self.setattr_fid(f.fid, f.qid, size_attr(size))
    }

    pub(super) fn fsync_remote(&self, fd: Fd, metadata: bool) -> PortResult<()> {
        let f = self.remote(fd)?;
        self.ns.client.fsync(f.fid, !metadata).map_err(errno)
    }

    /// Every entry of directory `names` (with `.` and `..`).
    pub(super) fn list(&self, base: &[Vec<u8>], path: &[u8]) -> PortResult<(Names, Vec<Vec<u8>>)> {
        let found = self.ns.resolve(base, path, true)?;
        let fid = found.fid;
        let r = if found.qid.qtype & QTDIR == 0 {
            Err(Errno::ENOTDIR)
        } else {
            let opened = self.ns.client.lopen(fid, libc::O_RDONLY as u32);
            opened
                .and_then(|_| self.ns.client.readdir_all(fid))
                .map_err(errno)
        };
        self.ns.clunk(fid);
        let entries = r?.into_iter().map(|d| d.name).collect();
        Ok((found.names, entries))
    }

    pub(super) fn mkdir_at(&self, base: &[Vec<u8>], path: &[u8], mode: u32) -> PortResult<()> {
        let (names, name) = self.ns.parent(base, path)?;
        let dfid = self.ns.dir_fid(&names)?;
        let gid = crate::ids().3 as u32;
        let r = utf8(&name).and_then(|n| {
            self.ns
                .client
                .mkdir(dfid, n, mode & 0o7777, gid)
                .map_err(errno)
        });
        self.ns.clunk(dfid);
        r.map(drop)
    }

    /// Removes `path`: a directory with `AT_REMOVEDIR`, anything else without.
    pub(super) fn unlink_at(&self, base: &[Vec<u8>], path: &[u8], flags: i32) -> PortResult<()> {
        let (names, name) = self.ns.parent(base, path)?;
        let dfid = self.ns.dir_fid(&names)?;
        let wire = if flags & libc::AT_REMOVEDIR != 0 {
            msg::AT_REMOVEDIR
        } else {
            0
        };
        let r = utf8(&name).and_then(|n| self.ns.client.unlinkat(dfid, n, wire).map_err(errno));
        self.ns.clunk(dfid);
        r
    }

    pub(super) fn rename_at(
        &self,
        from: (&[Vec<u8>], &[u8]),
        to: (&[Vec<u8>], &[u8]),
    ) -> PortResult<()> {
        let (old_dir, old_name) = self.ns.parent(from.0, from.1)?;
        let (new_dir, new_name) = self.ns.parent(to.0, to.1)?;
        let ofid = self.ns.dir_fid(&old_dir)?;
        let nfid = match self.ns.dir_fid(&new_dir) {
            Ok(f) => f,
            Err(e) => {
                self.ns.clunk(ofid);
                return Err(e);
            }
        };
        let r = utf8(&old_name).and_then(|o| {
            let n = utf8(&new_name)?;
            self.ns.client.renameat(ofid, o, nfid, n).map_err(errno)
        });
        self.ns.clunk(ofid);
        self.ns.clunk(nfid);
        r
    }

    /// Hard link `new` to the file `existing` names (a link itself is not followed).
    pub(super) fn link_paths(&self, existing: &[u8], new: &[u8]) -> PortResult<()> {
        let (dir, name) = self.ns.parent(&[], new)?;
        self.with_path(&[], existing, false, |fid, _| {
            let dfid = self.ns.dir_fid(&dir)?;
            let r = utf8(&name).and_then(|n| self.ns.client.link(dfid, fid, n).map_err(errno));
            self.ns.clunk(dfid);
            r
        })
    }

    pub(super) fn symlink_path(&self, target: &[u8], link: &[u8]) -> PortResult<()> {
        let (dir, name) = self.ns.parent(&[], link)?;
        let dfid = self.ns.dir_fid(&dir)?;
        let gid = crate::ids().3 as u32;
        let r = utf8(&name).and_then(|n| {
            let t = utf8(target)?;
            self.ns
                .client
                .symlink(dfid, n, t, gid)
                .map(drop)
                .map_err(errno)
        });
        self.ns.clunk(dfid);
        r
    }

    pub(super) fn readlink_path(&self, path: &[u8]) -> PortResult<Vec<u8>> {
        self.with_path(&[], path, false, |fid, qid| {
            if qid.qtype & QTSYMLINK == 0 {
                return Err(Errno::EINVAL);
            }
            self.ns.client.readlink(fid).map_err(errno)
        })
    }

    /// `realpath`: the file must exist.
    pub(super) fn realpath_at(&self, path: &[u8]) -> PortResult<Vec<u8>> {
        let found = self.ns.resolve(&[], path, true)?;
        self.ns.clunk(found.fid);
        Ok(ns::display(&found.names))
    }

    pub(super) fn canonical(&self, path: &[u8]) -> Vec<u8> {
        ns::display(&self.ns.canonical(&[], path))
    }

    pub(super) fn statfs_path(&self, path: &[u8]) -> PortResult<FsStat> {
        self.with_path(&[], path, true, |fid, _| {
            let s = self.ns.client.statfs(fid).map_err(errno)?;
            Ok(FsStat {
                frsize: u64::from(s.bsize),
                blocks: s.blocks,
                bfree: s.bfree,
                bavail: s.bavail,
            })
        })
    }

    /// `access(2)` against the mode bits the server reports, for this process's ids.
    pub(super) fn access_path(&self, path: &[u8], mode: i32) -> PortResult<()> {
        let st = self.stat_at(&[], path, true)?;
        let want = (mode & 7) as u32;
        let (uid, _, gid, _) = crate::ids();
        let granted = if uid == 0 {
            // root may read and write anything, execute what anyone may.
            6 | u32::from(st.mode & 0o111 != 0 || st.is_dir())
        } else if u64::from(st.uid) == uid {
            (st.mode >> 6) & 7
        } else if u64::from(st.gid) == gid {
            (st.mode >> 3) & 7
        } else {
            st.mode & 7
        };
        if want & !granted != 0 {
            return Err(Errno::EACCES);
        }
        Ok(())
    }

    /// A POSIX record lock through `Tlock`; a blocking one is retried until granted (as the
    /// Linux client does), or the thread's blocking calls are cancelled.
    pub(super) fn lock_remote(
        &self,
        fd: Fd,
        blocking: bool,
        pos: i64,
        size: i64,
        shared: bool,
    ) -> PortResult<LockResult> {
        let f = self.remote(fd)?;
        let kind = if shared {
            msg::LOCK_TYPE_RDLCK
        } else {
            msg::LOCK_TYPE_WRLCK
        };
        loop {
            match self.send_lock(&f, kind, pos, size)? {
                msg::LOCK_SUCCESS => return Ok(LockResult::Locked),
                msg::LOCK_BLOCKED | msg::LOCK_GRACE if blocking => {
                    if crate::cancelled() {
                        return Ok(LockResult::Interrupted);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                msg::LOCK_BLOCKED | msg::LOCK_GRACE => return Ok(LockResult::WouldBlock),
                _ => return Err(Errno::ENOLCK),
            }
        }
    }

    pub(super) fn send_lock(
        &self,
        f: &RemoteFile,
        kind: u8,
        pos: i64,
        size: i64,
    ) -> PortResult<u8> {
        let lock = Flock {
            lock_type: kind,
            flags: 0,
            start: pos as u64,
            // Long.MAX_VALUE means "to the end, however the file grows" (0 on the wire).
            length: if size == i64::MAX { 0 } else { size as u64 },
            proc_id: std::process::id(),
            client_id: b"jxvm".to_vec(),
        };
        self.ns.client.lock(f.fid, lock).map_err(errno)
    }
}

/// A `Tsetattr` of the size only.
pub fn size_attr(size: u64) -> SetAttr {
    SetAttr {
        valid: msg::SETATTR_SIZE,
        size,
        ..SetAttr::default()
    }
}

/// A `Tsetattr` of access and modification times, in nanoseconds since the epoch.
pub fn times_attr(atime_ns: i64, mtime_ns: i64) -> SetAttr {
    let split = |ns: i64| {
        (
            ns.div_euclid(1_000_000_000) as u64,
            ns.rem_euclid(1_000_000_000) as u64,
        )
    };
    let (asec, ansec) = split(atime_ns);
    let (msec, mnsec) = split(mtime_ns);
    SetAttr {
        valid: msg::SETATTR_ATIME
            | msg::SETATTR_ATIME_SET
            | msg::SETATTR_MTIME
            | msg::SETATTR_MTIME_SET,
        atime_sec: asec,
        atime_nsec: ansec,
        mtime_sec: msec,
        mtime_nsec: mnsec,
        ..SetAttr::default()
    }
}
