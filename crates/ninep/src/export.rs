//! Owns [`Export`]: a [`Filesystem`] serving one host directory so that no request reaches
//! outside it.
//!
//! Confinement: every fid holds an `O_PATH` descriptor of its file, reached from the export's
//! root one component at a time with `openat(O_PATH | O_NOFOLLOW)`. A name is a single
//! component (no `/`, no NUL); `..` is resolved by the server in the fid's own path (at the
//! root it stays at the root), never by the host. A symbolic link is opened as itself: walking
//! through it fails (`ENOTDIR`), opening it fails (`ELOOP`), `Treadlink` returns its text and
//! the client resolves it. Creating, renaming, linking and removing use `*at` calls relative to
//! descriptors inside the export with names of one component, so nothing crosses the
//! boundary. A file is opened for I/O by re-opening its own descriptor through
//! `/proc/self/fd` (the exact file already resolved, never a path). Device nodes cannot be
//! created. Read-only exports refuse every change with `EROFS`.
//!
//! Files are created and changed as the gateway's own user; the client's uid/gid
//! (`n_uname`, `gid`) are not applied.

use std::fs::File;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirEntryExt, FileExt, FileTypeExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::errno::Errno;
use crate::lock;
use crate::msg::{self, Attr, Dirent, Flock, Getlock, Qid, SetAttr, Statfs};
use crate::server::{Filesystem, FsResult};
use crate::sys::{self, Time};
use crate::wire::Wire;

/// A host directory served over 9P2000.L.
pub struct Export {
    root: Arc<OwnedFd>,
    /// The directory as given and canonical, for matching `aname`.
    names: Vec<Vec<u8>>,
    read_only: bool,
}

/// One fid of an [`Export`].
pub struct ExportFid {
    node: Mutex<Node>,
}

struct Node {
    /// `O_PATH` descriptor of the file.
    fd: Arc<OwnedFd>,
    /// Components from the root (empty: the root).
    path: Vec<Vec<u8>>,
    /// The file opened for I/O by `Tlopen`/`Tlcreate`.
    open: Option<Arc<File>>,
    /// The directory's entries, listed at `Treaddir` offset 0.
    listing: Option<Arc<Vec<Dirent>>>,
}

fn io(e: std::io::Error) -> Errno {
    Errno::from_io(&e)
}

/// The host open flags for 9P2000.L's: access mode, truncate, append, exclusive creation,
/// non-blocking, synchronous, no-atime, directory; the rest (creation, links, close-on-exec,
/// direct I/O, ...) is the server's business and dropped.
fn host_flags(flags: u32) -> i32 {
    use msg::open_flags as L;
    let mut out = match flags & L::ACCMODE {
        L::WRONLY => libc::O_WRONLY,
        L::RDWR => libc::O_RDWR,
        _ => libc::O_RDONLY,
    };
    for (l, h) in [
        (L::TRUNC, libc::O_TRUNC),
        (L::APPEND, libc::O_APPEND),
        (L::EXCL, libc::O_EXCL),
        (L::NONBLOCK, libc::O_NONBLOCK),
        (L::DSYNC, libc::O_DSYNC),
        (L::SYNC, libc::O_SYNC),
        (L::NOATIME, libc::O_NOATIME),
        (L::DIRECTORY, libc::O_DIRECTORY),
    ] {
        if flags & l != 0 {
            out |= h;
        }
    }
    out
}

fn file_type(mode: u32) -> u32 {
    mode & libc::S_IFMT
}

fn qid_of(st: &libc::stat) -> Qid {
    let qtype = match file_type(st.st_mode) {
        libc::S_IFDIR => msg::QTDIR,
        libc::S_IFLNK => msg::QTSYMLINK,
        _ => msg::QTFILE,
    };
    // The version changes when the file's modification time or size does.
    let v = (st.st_mtime as u64) ^ ((st.st_mtime_nsec as u64) << 20) ^ (st.st_size as u64);
    let version = if qtype == msg::QTDIR {
        0
    } else {
        (v ^ (v >> 32)) as u32
    };
    Qid {
        qtype,
        version,
        path: st.st_ino,
    }
}

/// Checks a name to create or look up in a directory: one component, not `.` or `..`.
fn check_name(name: &[u8]) -> FsResult<()> {
    if name.is_empty() || name == b"." || name == b".." || name.contains(&b'/') || name.contains(&0)
    {
        return Err(Errno::EINVAL);
    }
    if name.len() > 255 {
        return Err(Errno::ENAMETOOLONG);
    }
    Ok(())
}

impl Export {
    /// Exports `dir` (which must be a directory).
    pub fn new(dir: &Path, read_only: bool) -> std::io::Result<Export> {
        let c = sys::cstring(dir.as_os_str().as_bytes())?;
        let root = sys::open(&c, libc::O_PATH | libc::O_DIRECTORY)?;
        let mut names = vec![dir.as_os_str().as_bytes().to_vec()];
        if let Ok(canon) = dir.canonicalize() {
            names.push(canon.as_os_str().as_bytes().to_vec());
        }
        Ok(Export {
            root: Arc::new(root),
            names,
            read_only,
        })
    }

    fn writable(&self) -> FsResult<()> {
        if self.read_only {
            Err(Errno::EROFS)
        } else {
            Ok(())
        }
    }

    /// Resolves `path` from the root, one component at a time without following links.
    fn resolve(&self, path: &[Vec<u8>]) -> FsResult<Arc<OwnedFd>> {
        let mut fd = self.root.clone();
        for name in path {
            fd = Arc::new(sys::openat(fd.as_fd(), name, libc::O_PATH, 0).map_err(io)?);
        }
        Ok(fd)
    }

    /// The directory holding the file at `path` and the file's name in it.
    fn parent_of(&self, path: &[Vec<u8>]) -> FsResult<(Arc<OwnedFd>, Vec<u8>)> {
        let (name, parent) = path.split_last().ok_or(Errno::EBUSY)?;
        Ok((self.resolve(parent)?, name.clone()))
    }

    /// One walk step from `(fd, path)`.
    fn step(
        &self,
        fd: &Arc<OwnedFd>,
        path: &mut Vec<Vec<u8>>,
        name: &[u8],
    ) -> FsResult<Arc<OwnedFd>> {
        match name {
            b"." => Ok(fd.clone()),
            b".." => {
                path.pop();
                self.resolve(path)
            }
            _ => {
                if name.is_empty() || name.contains(&b'/') || name.contains(&0) {
                    return Err(Errno::ENOENT);
                }
                let next = sys::openat(fd.as_fd(), name, libc::O_PATH, 0).map_err(io)?;
                path.push(name.to_vec());
                Ok(Arc::new(next))
            }
        }
    }

    fn new_fid(fd: Arc<OwnedFd>, path: Vec<Vec<u8>>) -> ExportFid {
        ExportFid {
            node: Mutex::new(Node {
                fd,
                path,
                open: None,
                listing: None,
            }),
        }
    }

    /// The qid of `name` in directory `dir`.
    fn qid_at(dir: &OwnedFd, name: &[u8]) -> FsResult<Qid> {
        sys::fstatat(dir.as_fd(), name)
            .map(|st| qid_of(&st))
            .map_err(io)
    }

    /// Opens `fid`'s file for I/O with the client's flags.
    fn open_node(&self, node: &mut Node, flags: u32) -> FsResult<Qid> {
        let st = sys::fstat(node.fd.as_fd()).map_err(io)?;
        let flags = host_flags(flags) & !libc::O_EXCL;
        let writes = flags & libc::O_ACCMODE != libc::O_RDONLY || flags & libc::O_TRUNC != 0;
        if writes {
            self.writable()?;
        }
        match file_type(st.st_mode) {
            libc::S_IFLNK => return Err(Errno::ELOOP),
            libc::S_IFDIR if writes => return Err(Errno::EISDIR),
            libc::S_IFDIR => {
                node.listing = None;
                return Ok(qid_of(&st));
            }
            _ => {}
        }
        let file = sys::reopen(node.fd.as_fd(), flags).map_err(io)?;
        node.open = Some(Arc::new(file));
        Ok(qid_of(&st))
    }

    fn open_file(fid: &ExportFid) -> FsResult<Arc<File>> {
        lock(&fid.node).open.clone().ok_or(Errno::EBADF)
    }

    fn fd_and_path(fid: &ExportFid) -> (Arc<OwnedFd>, Vec<Vec<u8>>) {
        let n = lock(&fid.node);
        (n.fd.clone(), n.path.clone())
    }

    fn fd(fid: &ExportFid) -> Arc<OwnedFd> {
        lock(&fid.node).fd.clone()
    }

    /// The entries of directory `fd`: `.`, `..`, then the host's listing.
    fn list(fd: &OwnedFd) -> FsResult<Vec<Dirent>> {
        let st = sys::fstat(fd.as_fd()).map_err(io)?;
        if file_type(st.st_mode) != libc::S_IFDIR {
            return Err(Errno::ENOTDIR);
        }
        let own = qid_of(&st);
        let dir = PathBuf::from(sys::proc_path(fd.as_fd()).to_string_lossy().into_owned());
        let mut out = vec![
            Dirent {
                qid: own.clone(),
                offset: 1,
                dtype: libc::DT_DIR,
                name: b".".to_vec(),
            },
            Dirent {
                qid: own,
                offset: 2,
                dtype: libc::DT_DIR,
                name: b"..".to_vec(),
            },
        ];
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let ft = entry.file_type().map_err(io)?;
            let (dtype, qtype) = dirent_type(&ft);
            out.push(Dirent {
                qid: Qid {
                    qtype,
                    version: 0,
                    path: entry.ino(),
                },
                offset: out.len() as u64 + 1,
                dtype,
                name: entry.file_name().as_bytes().to_vec(),
            });
        }
        Ok(out)
    }
}

fn dirent_type(ft: &std::fs::FileType) -> (u8, u8) {
    if ft.is_dir() {
        (libc::DT_DIR, msg::QTDIR)
    } else if ft.is_symlink() {
        (libc::DT_LNK, msg::QTSYMLINK)
    } else if ft.is_file() {
        (libc::DT_REG, msg::QTFILE)
    } else if ft.is_fifo() {
        (libc::DT_FIFO, msg::QTFILE)
    } else if ft.is_socket() {
        (libc::DT_SOCK, msg::QTFILE)
    } else if ft.is_char_device() {
        (libc::DT_CHR, msg::QTFILE)
    } else if ft.is_block_device() {
        (libc::DT_BLK, msg::QTFILE)
    } else {
        (libc::DT_UNKNOWN, msg::QTFILE)
    }
}

fn attr_of(st: &libc::stat) -> Attr {
    Attr {
        valid: msg::GETATTR_BASIC,
        qid: qid_of(st),
        mode: st.st_mode,
        uid: st.st_uid,
        gid: st.st_gid,
        nlink: st.st_nlink,
        rdev: st.st_rdev,
        size: st.st_size as u64,
        blksize: st.st_blksize as u64,
        blocks: st.st_blocks as u64,
        atime_sec: st.st_atime as u64,
        atime_nsec: st.st_atime_nsec as u64,
        mtime_sec: st.st_mtime as u64,
        mtime_nsec: st.st_mtime_nsec as u64,
        ctime_sec: st.st_ctime as u64,
        ctime_nsec: st.st_ctime_nsec as u64,
        ..Attr::default()
    }
}

fn time_of(valid: u32, bit: u32, set_bit: u32, sec: u64, nsec: u64) -> Time {
    match (valid & bit != 0, valid & set_bit != 0) {
        (false, _) => Time::Omit,
        (true, false) => Time::Now,
        (true, true) => Time::At(sec, nsec),
    }
}

impl Filesystem for Export {
    type Fid = ExportFid;

    fn attach(&self, _uname: &[u8], aname: &[u8], _n_uname: u32) -> FsResult<(ExportFid, Qid)> {
        let trimmed = aname
            .strip_suffix(b"/")
            .filter(|t| !t.is_empty())
            .unwrap_or(aname);
        let known = aname.is_empty()
            || aname == b"/"
            || self
                .names
                .iter()
                .any(|n| n.as_slice() == trimmed || n.as_slice() == aname);
        if !known {
            return Err(Errno::ENOENT);
        }
        let st = sys::fstat(self.root.as_fd()).map_err(io)?;
        Ok((Self::new_fid(self.root.clone(), Vec::new()), qid_of(&st)))
    }

    fn walk(&self, fid: &ExportFid, names: &[Vec<u8>]) -> FsResult<(Vec<Qid>, Option<ExportFid>)> {
        let (mut fd, mut path) = Self::fd_and_path(fid);
        let mut qids = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            let st = sys::fstat(fd.as_fd()).map_err(io)?;
            if file_type(st.st_mode) != libc::S_IFDIR {
                if i == 0 {
                    return Err(Errno::ENOTDIR);
                }
                return Ok((qids, None));
            }
            match self.step(&fd, &mut path, name) {
                Ok(next) => fd = next,
                Err(e) if i == 0 => return Err(e),
                Err(_) => return Ok((qids, None)),
            }
            qids.push(qid_of(&sys::fstat(fd.as_fd()).map_err(io)?));
        }
        Ok((qids, Some(Self::new_fid(fd, path))))
    }

    fn lopen(&self, fid: &ExportFid, flags: u32) -> FsResult<(Qid, u32)> {
        let mut node = lock(&fid.node);
        if node.open.is_some() {
            return Err(Errno::EBADF);
        }
        Ok((self.open_node(&mut node, flags)?, 0))
    }

    fn lcreate(
        &self,
        fid: &ExportFid,
        name: &[u8],
        flags: u32,
        mode: u32,
        _gid: u32,
    ) -> FsResult<(Qid, u32)> {
        self.writable()?;
        check_name(name)?;
        let mut node = lock(&fid.node);
        let flags = (host_flags(flags) & !libc::O_DIRECTORY) | libc::O_CREAT;
        let file = sys::openat(node.fd.as_fd(), name, flags, mode & 0o7777).map_err(io)?;
        let fd = sys::openat(node.fd.as_fd(), name, libc::O_PATH, 0).map_err(io)?;
        let st = sys::fstat(fd.as_fd()).map_err(io)?;
        node.fd = Arc::new(fd);
        node.path.push(name.to_vec());
        node.open = Some(Arc::new(File::from(file)));
        Ok((qid_of(&st), 0))
    }

    fn symlink(&self, dfid: &ExportFid, name: &[u8], target: &[u8], _gid: u32) -> FsResult<Qid> {
        self.writable()?;
        check_name(name)?;
        if target.is_empty() {
            return Err(Errno::ENOENT);
        }
        let dir = Self::fd(dfid);
        sys::symlinkat(target, dir.as_fd(), name).map_err(io)?;
        Self::qid_at(&dir, name)
    }

    fn mknod(
        &self,
        dfid: &ExportFid,
        name: &[u8],
        mode: u32,
        _dev: (u32, u32),
        _gid: u32,
    ) -> FsResult<Qid> {
        self.writable()?;
        check_name(name)?;
        if !matches!(
            file_type(mode),
            libc::S_IFREG | libc::S_IFIFO | libc::S_IFSOCK
        ) {
            return Err(Errno::EPERM);
        }
        let dir = Self::fd(dfid);
        sys::mknodat(dir.as_fd(), name, mode & (libc::S_IFMT | 0o7777)).map_err(io)?;
        Self::qid_at(&dir, name)
    }

    fn rename(&self, fid: &ExportFid, dfid: &ExportFid, name: &[u8]) -> FsResult<()> {
        self.writable()?;
        check_name(name)?;
        let (_, path) = Self::fd_and_path(fid);
        let (parent, old) = self.parent_of(&path)?;
        let (dir, mut dir_path) = Self::fd_and_path(dfid);
        sys::renameat(parent.as_fd(), &old, dir.as_fd(), name).map_err(io)?;
        dir_path.push(name.to_vec());
        lock(&fid.node).path = dir_path;
        Ok(())
    }

    fn readlink(&self, fid: &ExportFid) -> FsResult<Vec<u8>> {
        sys::readlink(Self::fd(fid).as_fd()).map_err(io)
    }

    fn getattr(&self, fid: &ExportFid, _mask: u64) -> FsResult<Attr> {
        sys::fstat(Self::fd(fid).as_fd())
            .map(|st| attr_of(&st))
            .map_err(io)
    }

    fn setattr(&self, fid: &ExportFid, a: &SetAttr) -> FsResult<()> {
        self.writable()?;
        let fd = Self::fd(fid);
        let st = sys::fstat(fd.as_fd()).map_err(io)?;
        let link = file_type(st.st_mode) == libc::S_IFLNK;
        let v = a.valid;
        let touches =
            msg::SETATTR_MODE | msg::SETATTR_SIZE | msg::SETATTR_ATIME | msg::SETATTR_MTIME;
        if link && v & touches != 0 {
            return Err(Errno::EOPNOTSUPP);
        }
        if v & msg::SETATTR_MODE != 0 {
            sys::chmod(fd.as_fd(), a.mode & 0o7777).map_err(io)?;
        }
        if v & (msg::SETATTR_UID | msg::SETATTR_GID) != 0 {
            let uid = if v & msg::SETATTR_UID != 0 {
                a.uid
            } else {
                u32::MAX
            };
            let gid = if v & msg::SETATTR_GID != 0 {
                a.gid
            } else {
                u32::MAX
            };
            sys::chown(fd.as_fd(), uid, gid).map_err(io)?;
        }
        if v & msg::SETATTR_SIZE != 0 {
            if file_type(st.st_mode) != libc::S_IFREG {
                return Err(Errno::EINVAL);
            }
            sys::truncate(fd.as_fd(), a.size).map_err(io)?;
        }
        let atime = time_of(
            v,
            msg::SETATTR_ATIME,
            msg::SETATTR_ATIME_SET,
            a.atime_sec,
            a.atime_nsec,
        );
        let mtime = time_of(
            v,
            msg::SETATTR_MTIME,
            msg::SETATTR_MTIME_SET,
            a.mtime_sec,
            a.mtime_nsec,
        );
        if !matches!((atime, mtime), (Time::Omit, Time::Omit)) {
            sys::utimes(fd.as_fd(), atime, mtime).map_err(io)?;
        }
        Ok(())
    }

    fn readdir(&self, fid: &ExportFid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        let listing = {
            let mut node = lock(&fid.node);
            match (&node.listing, offset) {
                (Some(l), o) if o != 0 => l.clone(),
                _ => {
                    let l = Arc::new(Self::list(&node.fd)?);
                    node.listing = Some(l.clone());
                    l
                }
            }
        };
        let mut out = Vec::new();
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        for d in listing.iter().skip(start) {
            if out.len() + d.wire_len() > count as usize {
                if out.is_empty() {
                    return Err(Errno::EINVAL);
                }
                break;
            }
            d.put(&mut out);
        }
        Ok(out)
    }

    fn fsync(&self, fid: &ExportFid, datasync: bool) -> FsResult<()> {
        let Ok(file) = Self::open_file(fid) else {
            return Ok(()); // a directory or an unopened fid: nothing buffered here
        };
        if datasync {
            file.sync_data()
        } else {
            file.sync_all()
        }
        .map_err(io)
    }

    fn lock(&self, fid: &ExportFid, l: &Flock) -> FsResult<u8> {
        let file = Self::open_file(fid)?;
        let ltype = lock_type(l.lock_type)?;
        match sys::ofd_lock(&file, false, ltype, l.start, l.length) {
            Ok(_) => Ok(msg::LOCK_SUCCESS),
            Err(e) if matches!(e.raw_os_error(), Some(libc::EAGAIN | libc::EACCES)) => {
                Ok(msg::LOCK_BLOCKED)
            }
            Err(e) => Err(io(e)),
        }
    }

    fn getlock(&self, fid: &ExportFid, l: &Getlock) -> FsResult<Getlock> {
        let file = Self::open_file(fid)?;
        let (ltype, start, length, pid) =
            sys::ofd_lock(&file, true, lock_type(l.lock_type)?, l.start, l.length).map_err(io)?;
        let lock_type = match ltype as i32 {
            libc::F_RDLCK => msg::LOCK_TYPE_RDLCK,
            libc::F_WRLCK => msg::LOCK_TYPE_WRLCK,
            _ => msg::LOCK_TYPE_UNLCK,
        };
        let proc_id = if pid < 0 { l.proc_id } else { pid as u32 };
        Ok(Getlock {
            lock_type,
            start,
            length,
            proc_id,
            client_id: l.client_id.clone(),
        })
    }

    fn link(&self, dfid: &ExportFid, fid: &ExportFid, name: &[u8]) -> FsResult<()> {
        self.writable()?;
        check_name(name)?;
        let (file, dir) = (Self::fd(fid), Self::fd(dfid));
        sys::linkat(file.as_fd(), dir.as_fd(), name).map_err(io)
    }

    fn mkdir(&self, dfid: &ExportFid, name: &[u8], mode: u32, _gid: u32) -> FsResult<Qid> {
        self.writable()?;
        check_name(name)?;
        let dir = Self::fd(dfid);
        sys::mkdirat(dir.as_fd(), name, mode & 0o7777).map_err(io)?;
        Self::qid_at(&dir, name)
    }

    fn renameat(
        &self,
        olddir: &ExportFid,
        oldname: &[u8],
        newdir: &ExportFid,
        newname: &[u8],
    ) -> FsResult<()> {
        self.writable()?;
        check_name(oldname)?;
        check_name(newname)?;
        let (old, new) = (Self::fd(olddir), Self::fd(newdir));
        sys::renameat(old.as_fd(), oldname, new.as_fd(), newname).map_err(io)
    }

    fn unlinkat(&self, dir: &ExportFid, name: &[u8], flags: u32) -> FsResult<()> {
        self.writable()?;
        check_name(name)?;
        let flags = if flags & msg::AT_REMOVEDIR != 0 {
            libc::AT_REMOVEDIR
        } else {
            0
        };
        sys::unlinkat(Self::fd(dir).as_fd(), name, flags).map_err(io)
    }

    fn statfs(&self, fid: &ExportFid) -> FsResult<Statfs> {
        let fd = Self::fd(fid);
        let s = sys::fstatfs(fd.as_fd()).map_err(io)?;
        // libc keeps `f_fsid` opaque: the device number identifies the file system as well.
        let dev = sys::fstat(fd.as_fd()).map_err(io)?.st_dev;
        Ok(Statfs {
            fs_type: s.f_type as u32,
            bsize: s.f_bsize as u32,
            blocks: s.f_blocks,
            bfree: s.f_bfree,
            bavail: s.f_bavail,
            files: s.f_files,
            ffree: s.f_ffree,
            fsid: dev,
            namelen: s.f_namelen as u32,
        })
    }

    /// Regular files and directories (a FIFO or socket may block).
    fn quick(&self, fid: &ExportFid) -> bool {
        sys::fstat(Self::fd(fid).as_fd())
            .is_ok_and(|st| matches!(file_type(st.st_mode), libc::S_IFREG | libc::S_IFDIR))
    }

    fn read(&self, fid: &ExportFid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        let file = Self::open_file(fid)?;
        let mut buf = vec![0u8; count as usize];
        let n = file.read_at(&mut buf, offset).map_err(io)?;
        buf.truncate(n);
        Ok(buf)
    }

    fn write(&self, fid: &ExportFid, offset: u64, data: &[u8]) -> FsResult<u32> {
        self.writable()?;
        let file = Self::open_file(fid)?;
        let n = file.write_at(data, offset).map_err(io)?;
        Ok(n as u32)
    }

    fn remove(&self, fid: &ExportFid) -> FsResult<()> {
        self.writable()?;
        let (fd, path) = Self::fd_and_path(fid);
        let st = sys::fstat(fd.as_fd()).map_err(io)?;
        let (parent, name) = self.parent_of(&path)?;
        let flags = if file_type(st.st_mode) == libc::S_IFDIR {
            libc::AT_REMOVEDIR
        } else {
            0
        };
        sys::unlinkat(parent.as_fd(), &name, flags).map_err(io)
    }
}

fn lock_type(t: u8) -> FsResult<i16> {
    Ok(match t {
        msg::LOCK_TYPE_RDLCK => libc::F_RDLCK as i16,
        msg::LOCK_TYPE_WRLCK => libc::F_WRLCK as i16,
        msg::LOCK_TYPE_UNLCK => libc::F_UNLCK as i16,
        _ => return Err(Errno::EINVAL),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use msg::open_flags as L;

    #[test]
    fn protocol_open_flags_map_to_the_hosts() {
        assert_eq!(host_flags(L::RDONLY), libc::O_RDONLY);
        assert_eq!(
            host_flags(L::WRONLY | L::TRUNC),
            libc::O_WRONLY | libc::O_TRUNC
        );
        assert_eq!(
            host_flags(L::RDWR | L::APPEND | L::EXCL),
            libc::O_RDWR | libc::O_APPEND | libc::O_EXCL
        );
        assert_eq!(
            host_flags(L::DIRECTORY | L::NOATIME),
            libc::O_DIRECTORY | libc::O_NOATIME
        );
        // Creation, link following, close-on-exec and direct I/O are the server's to decide.
        assert_eq!(
            host_flags(L::CREATE | L::NOFOLLOW | L::CLOEXEC | L::DIRECT | L::LARGEFILE),
            0
        );
    }

    #[test]
    fn names_are_single_components() {
        for bad in [&b""[..], b".", b"..", b"a/b", b"/", b"a\0b"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(check_name(&[b'x'; 256]), Err(Errno::ENAMETOOLONG));
        assert_eq!(check_name(b"..."), Ok(()));
    }
}
