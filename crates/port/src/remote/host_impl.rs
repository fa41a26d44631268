//! Owns [`Host`] for [`NinepBackend`]: each call routed to 9P ([`super::files`]), to the host
//! backend (standard streams, the JDK's directory read-only, clock, environment), or refused
//! with an errno (what 9P cannot do; see the module doc of [`super`]).

use std::net::{IpAddr, SocketAddr};

use super::events::{self, Local};
use super::files::times_attr;
use super::sockets::{self, Socket};
use super::table::{Entry, MOUNTS};
use super::{NinepBackend, unsupported};
use crate::fs::{self, FileStat, FsStat, LockResult, MapMode, MountEntry};
use crate::host::{DirStream, Fd, Host, MountTable};
use crate::net::Interface;
use crate::process::{self, ProcStat, SpawnRequest, Spawned};
use crate::{Errno, OpenMode, PortResult, Stat, Whence};
use ninep::msg;
use std::sync::Arc;

/// A call on a descriptor: to 9P, to the host, or on a pre-closed descriptor.
enum Route {
    Remote,
    Host(Fd),
    /// A socket, eventfd or epoll set of this process.
    Local(Arc<dyn Local>),
    Dead,
}

impl NinepBackend {
    fn route(&self, fd: Fd) -> PortResult<Route> {
        Ok(match self.table.get(fd.0)? {
            Entry::Remote(_) => Route::Remote,
            Entry::Host(h) => Route::Host(Fd(h)),
            Entry::Socket(s) => Route::Local(s.0.clone()),
            Entry::Event(e) => Route::Local(e),
            Entry::Pipe(p) => Route::Local(p),
            Entry::Epoll(_) => Route::Local(Arc::new(NotStream)),
            Entry::Dead => Route::Dead,
        })
    }

    /// The epoll set of `fd`.
    fn epoll_of(&self, fd: Fd) -> PortResult<Arc<events::Epoll>> {
        match self.table.get(fd.0)? {
            Entry::Epoll(e) => Ok(e),
            _ => Err(Errno::EINVAL),
        }
    }

    /// `poll` of a descriptor of this process.
    fn poll_local(&self, l: &dyn Local, events: i16, timeout_ms: i64) -> PortResult<i16> {
        let ready = self.bell.wait_for(sockets::deadline(timeout_ms), || {
            let r = l.ready(events);
            (r != 0).then_some(r)
        })?;
        Ok(ready.unwrap_or(0))
    }

    /// The socket of `fd` (`ENOTSOCK` for anything else).
    fn socket_of(&self, fd: Fd) -> PortResult<Arc<Socket>> {
        match self.table.get(fd.0)? {
            Entry::Socket(s) => Ok(s.0.clone()),
            _ => Err(Errno(libc::ENOTSOCK)),
        }
    }

    /// A host descriptor, or the host backend's failure, made one of this table's.
    fn adopt(&self, opened: PortResult<Fd>) -> PortResult<Fd> {
        let h = opened?;
        self.table
            .insert(Entry::Host(h.0))
            .map(Fd)
            .inspect_err(|_| {
                let _ = self.host.close(h);
            })
    }

    fn read_into(&self, fd: Fd, addr: usize, len: usize, at: Option<u64>) -> PortResult<usize> {
        match self.route(fd)? {
            Route::Remote => {
                let mut off = 0;
                self.read_remote_with(fd, len, at, &mut |chunk| {
                    fs::copy_to_native(addr + off, chunk);
                    off += chunk.len();
                })
            }
            Route::Host(h) => match at {
                Some(p) => self.host.pread(h, addr, len, p as i64),
                None => self.host.read(h, addr, len),
            },
            Route::Local(_) if at.is_some() => Err(Errno::ESPIPE),
            Route::Local(s) => {
                let data = s.read(len)?;
                fs::copy_to_native(addr, &data);
                Ok(data.len())
            }
            Route::Dead => Ok(0),
        }
    }

    fn write_from(&self, fd: Fd, addr: usize, len: usize, at: Option<u64>) -> PortResult<usize> {
        match self.route(fd)? {
            Route::Remote => {
                let mut data = vec![0u8; len.min(self.ns.client.max_io() as usize)];
                fs::copy_from_native(addr, &mut data);
                self.write_remote(fd, &data, at)
            }
            Route::Host(h) => match at {
                Some(p) => self.host.pwrite(h, addr, len, p as i64),
                None => self.host.write(h, addr, len),
            },
            Route::Local(_) if at.is_some() => Err(Errno::ESPIPE),
            Route::Local(s) => {
                let mut data = vec![0u8; len.min(self.ns.client.max_io() as usize)];
                fs::copy_from_native(addr, &mut data);
                s.write(&data)
            }
            Route::Dead => Err(Errno::EPIPE),
        }
    }

    /// The `(base, len)` pairs of `count` iovecs at native address `iov`.
    fn iovecs(iov: usize, count: i32) -> Vec<(usize, usize)> {
        let word = std::mem::size_of::<usize>();
        let mut raw = vec![0u8; 2 * word * count.max(0) as usize];
        fs::copy_from_native(iov, &mut raw);
        raw.chunks_exact(2 * word)
            .map(|c| {
                let (b, l) = c.split_at(word);
                let n = |s: &[u8]| usize::from_ne_bytes(s.try_into().unwrap_or([0; 8]));
                (n(b), n(l))
            })
            .collect()
    }

    fn setattr_path(&self, path: &[u8], follow: bool, attr: msg::SetAttr) -> PortResult<()> {
        self.with_path(&[], path, follow, |fid, qid| {
            self.setattr_fid(fid, qid.path, attr)
        })
    }

    fn setattr_fd(&self, fd: Fd, attr: msg::SetAttr) -> PortResult<()> {
        let f = self.remote(fd)?;
        self.setattr_fid(f.fid, f.qid, attr)
    }

    fn open_mode(&self, path: &str, mode: OpenMode) -> PortResult<Fd> {
        let flags = match mode {
            OpenMode::Read => libc::O_RDONLY,
            OpenMode::Truncate => libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
            OpenMode::Append => libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND,
            OpenMode::ReadWrite => libc::O_RDWR | libc::O_CREAT,
        };
        let fd = self.open(path.as_bytes(), flags, 0o666)?;
        if matches!(self.table.get(fd.0), Ok(Entry::Remote(f)) if f.is_dir) {
            let _ = self.close(fd);
            return Err(Errno::EISDIR);
        }
        Ok(fd)
    }

    fn jdk_dir(&self, path: &[u8]) -> PortResult<Vec<Vec<u8>>> {
        let h = self.host.opendir(path)?;
        let mut names = Vec::new();
        while let Ok(Some(n)) = self.host.readdir(h) {
            names.push(n);
        }
        let _ = self.host.closedir(h);
        Ok(names)
    }

    fn copy_remote(&self, dst: Fd, src: Fd, cancel_addr: usize) -> PortResult<()> {
        let chunk = self.ns.client.max_io() as usize;
        loop {
            if cancel_addr != 0 && fs::read_native_i32(cancel_addr) != 0 {
                return Err(Errno::ECANCELED);
            }
            let data = self.read_remote(src, chunk, None)?;
            if data.is_empty() {
                return Ok(());
            }
            self.write_remote(dst, &data, None)?;
        }
    }
}

fn to_stat(s: &FileStat) -> Stat {
    Stat {
        size: s.size,
        mtime_ms: s.mtime_sec * 1000 + s.mtime_nsec / 1_000_000,
        is_dir: s.is_dir(),
        is_file: s.is_file(),
    }
}

fn mode_attr(mode: u32) -> msg::SetAttr {
    msg::SetAttr {
        valid: msg::SETATTR_MODE,
        mode,
        ..Default::default()
    }
}

fn owner_attr(uid: u32, gid: u32) -> msg::SetAttr {
    // -1 (as chown takes it) leaves that id as it is.
    let mut valid = 0;
    if uid != u32::MAX {
        valid |= msg::SETATTR_UID;
    }
    if gid != u32::MAX {
        valid |= msg::SETATTR_GID;
    }
    msg::SetAttr {
        valid,
        uid,
        gid,
        ..Default::default()
    }
}

impl Host for NinepBackend {
    fn give_back(&self) {
        self.unmap_all();
        for e in self.table.drain() {
            if let Entry::Host(h) = e
                && h > 2
            {
                let _ = self.host.close(Fd(h));
            }
        }
        self.host.give_back();
    }

    // ---- files, as java.io uses them ----
    fn io_open(&self, path: &str, mode: OpenMode) -> PortResult<Fd> {
        if self.in_jdk(path.as_bytes()) {
            return match mode {
                OpenMode::Read => self.adopt(self.host.io_open(path, mode)),
                _ => Err(Errno::EROFS),
            };
        }
        self.open_mode(path, mode)
    }
    fn io_close(&self, fd: Fd) -> PortResult<()> {
        self.close(fd)
    }
    fn io_write_all(&self, fd: Fd, mut data: &[u8]) -> PortResult<()> {
        while !data.is_empty() {
            let n = self.write_buf(fd, data)?;
            data = &data[n..];
        }
        Ok(())
    }
    fn io_read(&self, fd: Fd, buf: &mut [u8]) -> PortResult<usize> {
        self.read_buf(fd, buf)
    }
    fn io_read_held(
        &self,
        fd: Fd,
        len: usize,
        out: &mut dyn FnMut(&[u8]),
    ) -> Option<PortResult<usize>> {
        self.read_held(fd, len, out)
    }
    fn io_seek(&self, fd: Fd, off: i64, whence: Whence) -> PortResult<i64> {
        match self.route(fd)? {
            Route::Remote => {
                let w = match whence {
                    Whence::Start => libc::SEEK_SET,
                    Whence::Current => libc::SEEK_CUR,
                };
                self.seek_remote(fd, off, w)
            }
            Route::Host(h) => self.host.io_seek(h, off, whence),
            Route::Local(_) | Route::Dead => Err(Errno::ESPIPE),
        }
    }
    fn io_file_length(&self, fd: Fd) -> PortResult<i64> {
        self.fstat(fd).map(|s| s.size)
    }
    fn io_fsync(&self, fd: Fd) -> PortResult<()> {
        self.sync(fd, true)
    }
    fn io_set_length(&self, fd: Fd, len: i64) -> PortResult<()> {
        self.truncate(fd, len)
    }
    fn io_available(&self, fd: Fd) -> PortResult<i64> {
        match self.route(fd)? {
            Route::Remote => {
                let size = self.fstat_remote(fd)?.size;
                let pos = self.seek_remote(fd, 0, libc::SEEK_CUR)?;
                Ok((size - pos).max(0))
            }
            Route::Host(h) => self.host.io_available(h),
            Route::Local(s) => Ok(i64::from(s.available())),
            Route::Dead => Ok(0),
        }
    }
    fn io_is_append(&self, fd: Fd) -> bool {
        match self.table.get(fd.0) {
            Ok(Entry::Remote(f)) => f.append(),
            Ok(Entry::Host(h)) => self.host.io_is_append(Fd(h)),
            _ => false,
        }
    }
    fn isatty(&self, fd: Fd) -> bool {
        matches!(self.table.get(fd.0), Ok(Entry::Host(h)) if self.host.isatty(Fd(h)))
    }
    fn io_stat(&self, path: &str) -> Option<Stat> {
        self.stat(path.as_bytes(), true).ok().map(|s| to_stat(&s))
    }
    fn io_access(&self, path: &str, mode: i32) -> bool {
        self.access(path.as_bytes(), mode).is_ok()
    }
    fn io_set_permission(&self, path: &str, access: i32, enable: bool, owner_only: bool) -> bool {
        let Ok(st) = self.stat(path.as_bytes(), true) else {
            return false;
        };
        let a = access as u32;
        let bits = if owner_only {
            a << 6
        } else {
            (a << 6) | (a << 3) | a
        };
        let mode = if enable {
            st.mode | bits
        } else {
            st.mode & !bits
        };
        self.chmod(path.as_bytes(), mode & 0o7777).is_ok()
    }
    fn io_create_exclusive(&self, path: &str) -> PortResult<bool> {
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL;
        match self.open(path.as_bytes(), flags, 0o666) {
            Ok(fd) => self.close(fd).map(|_| true),
            Err(Errno::EEXIST) => Ok(false),
            Err(e) => Err(e),
        }
    }
    fn io_delete(&self, path: &str) -> bool {
        let Ok(st) = self.stat(path.as_bytes(), false) else {
            return false;
        };
        let flags = if st.is_dir() { libc::AT_REMOVEDIR } else { 0 };
        self.unlink_at(&[], path.as_bytes(), flags).is_ok()
    }
    fn io_mkdir(&self, path: &str) -> bool {
        self.mkdir(path.as_bytes(), 0o777).is_ok()
    }
    fn io_rename(&self, from: &str, to: &str) -> bool {
        self.rename(from.as_bytes(), to.as_bytes()).is_ok()
    }
    fn io_set_mtime(&self, path: &str, ms: i64) -> bool {
        let ns = ms.saturating_mul(1_000_000);
        let mut attr = times_attr(ns, ns);
        attr.valid &= !(msg::SETATTR_ATIME | msg::SETATTR_ATIME_SET);
        self.setattr_path(path.as_bytes(), true, attr).is_ok()
    }
    fn io_space(&self, path: &str, which: i32) -> i64 {
        let Ok(s) = self.statvfs(path.as_bytes()) else {
            return 0;
        };
        let n = match which {
            0 => s.blocks,
            1 => s.bfree,
            _ => s.bavail,
        };
        (n.saturating_mul(s.frsize)) as i64
    }
    fn io_list_dir(&self, path: &str) -> Option<Vec<String>> {
        let names = if self.in_jdk(path.as_bytes()) {
            self.jdk_dir(path.as_bytes()).ok()?
        } else {
            self.list(&[], path.as_bytes()).ok()?.1
        };
        let names = names.into_iter().filter(|n| n != b"." && n != b"..");
        Some(
            names
                .map(|n| String::from_utf8_lossy(&n).into_owned())
                .collect(),
        )
    }
    fn io_canonicalize(&self, path: &str) -> String {
        if self.in_jdk(path.as_bytes()) {
            return self.host.io_canonicalize(path);
        }
        String::from_utf8_lossy(&self.canonical(path.as_bytes())).into_owned()
    }

    // ---- files, as NIO uses them ----
    fn stat(&self, path: &[u8], follow: bool) -> PortResult<FileStat> {
        if self.in_jdk(path) {
            return self.host.stat(path, follow);
        }
        self.stat_at(&[], path, follow)
    }
    fn fstat(&self, fd: Fd) -> PortResult<FileStat> {
        match self.route(fd)? {
            Route::Remote => self.fstat_remote(fd),
            Route::Host(h) => self.host.fstat(h),
            Route::Local(_) => Ok(FileStat {
                mode: if self.socket_of(fd).is_ok() {
                    libc::S_IFSOCK | 0o777
                } else {
                    libc::S_IFIFO | 0o600
                },
                nlink: 1,
                ..FileStat::default()
            }),
            Route::Dead => Err(Errno::EBADF),
        }
    }
    fn fstatat(&self, dfd: Fd, path: &[u8], flags: i32) -> PortResult<FileStat> {
        let follow = flags & libc::AT_SYMLINK_NOFOLLOW == 0;
        self.stat_at(&self.base(dfd)?, path, follow)
    }
    fn birthtime_supported(&self) -> bool {
        false
    }
    fn statvfs(&self, path: &[u8]) -> PortResult<FsStat> {
        if self.in_jdk(path) {
            return self.host.statvfs(path);
        }
        self.statfs_path(path)
    }
    fn getcwd(&self) -> PortResult<Vec<u8>> {
        Ok(b"/".to_vec())
    }
    fn access(&self, path: &[u8], mode: i32) -> PortResult<()> {
        if self.in_jdk(path) {
            return match mode & libc::W_OK {
                0 => self.host.access(path, mode),
                _ => Err(Errno::EROFS),
            };
        }
        self.access_path(path, mode)
    }
    fn exists(&self, path: &[u8]) -> bool {
        self.stat(path, true).is_ok()
    }
    fn link(&self, existing: &[u8], new: &[u8]) -> PortResult<()> {
        self.link_paths(existing, new)
    }
    fn unlink(&self, path: &[u8]) -> PortResult<()> {
        self.unlink_at(&[], path, 0)
    }
    fn unlinkat(&self, dfd: Fd, path: &[u8], flags: i32) -> PortResult<()> {
        self.unlink_at(&self.base(dfd)?, path, flags)
    }
    fn mknod(&self, _path: &[u8], _mode: u32, _dev: u64) -> PortResult<()> {
        unsupported()
    }
    fn rename(&self, from: &[u8], to: &[u8]) -> PortResult<()> {
        self.rename_at((&[], from), (&[], to))
    }
    fn renameat(&self, from_dfd: Fd, from: &[u8], to_dfd: Fd, to: &[u8]) -> PortResult<()> {
        let (fb, tb) = (self.base(from_dfd)?, self.base(to_dfd)?);
        self.rename_at((&fb, from), (&tb, to))
    }
    fn mkdir(&self, path: &[u8], mode: u32) -> PortResult<()> {
        self.mkdir_at(&[], path, mode)
    }
    fn rmdir(&self, path: &[u8]) -> PortResult<()> {
        self.unlink_at(&[], path, libc::AT_REMOVEDIR)
    }
    fn readlink(&self, path: &[u8]) -> PortResult<Vec<u8>> {
        if self.in_jdk(path) {
            return self.host.readlink(path);
        }
        self.readlink_path(path)
    }
    fn realpath(&self, path: &[u8]) -> PortResult<Vec<u8>> {
        if self.in_jdk(path) {
            return self.host.realpath(path);
        }
        self.realpath_at(path)
    }
    fn symlink(&self, target: &[u8], link: &[u8]) -> PortResult<()> {
        self.symlink_path(target, link)
    }
    fn chown(&self, path: &[u8], uid: u32, gid: u32, follow: bool) -> PortResult<()> {
        self.setattr_path(path, follow, owner_attr(uid, gid))
    }
    fn fchown(&self, fd: Fd, uid: u32, gid: u32) -> PortResult<()> {
        self.setattr_fd(fd, owner_attr(uid, gid))
    }
    fn chmod(&self, path: &[u8], mode: u32) -> PortResult<()> {
        self.setattr_path(path, true, mode_attr(mode))
    }
    fn fchmod(&self, fd: Fd, mode: u32) -> PortResult<()> {
        self.setattr_fd(fd, mode_attr(mode))
    }
    fn utimes(&self, path: &[u8], atime_us: i64, mtime_us: i64, follow: bool) -> PortResult<()> {
        let attr = times_attr(atime_us.saturating_mul(1000), mtime_us.saturating_mul(1000));
        self.setattr_path(path, follow, attr)
    }
    fn futimes(&self, fd: Fd, atime_us: i64, mtime_us: i64) -> PortResult<()> {
        let attr = times_attr(atime_us.saturating_mul(1000), mtime_us.saturating_mul(1000));
        self.setattr_fd(fd, attr)
    }
    fn futimens(&self, fd: Fd, atime_ns: i64, mtime_ns: i64) -> PortResult<()> {
        self.setattr_fd(fd, times_attr(atime_ns, mtime_ns))
    }
    fn open(&self, path: &[u8], flags: i32, mode: u32) -> PortResult<Fd> {
        if self.in_jdk(path) {
            return match flags & (libc::O_ACCMODE | libc::O_CREAT | libc::O_TRUNC) {
                libc::O_RDONLY => self.adopt(self.host.open(path, flags, mode)),
                _ => Err(Errno::EROFS),
            };
        }
        self.open_at(&[], path, flags, mode)
    }
    fn openat(&self, dfd: Fd, path: &[u8], flags: i32, mode: u32) -> PortResult<Fd> {
        self.open_at(&self.base(dfd)?, path, flags, mode)
    }
    fn close(&self, fd: Fd) -> PortResult<()> {
        match self.table.remove(fd.0)? {
            Entry::Host(h) => self.host.close(Fd(h)),
            // The fid is clunked (the socket closed) when the last descriptor of it goes.
            Entry::Remote(_) | Entry::Socket(_) | Entry::Event(_) | Entry::Epoll(_) => Ok(()),
            Entry::Pipe(_) => Ok(()),
            Entry::Dead => Ok(()),
        }
    }
    fn dup(&self, fd: Fd) -> PortResult<Fd> {
        match self.table.get(fd.0)? {
            Entry::Host(h) => self.adopt(self.host.dup(Fd(h))),
            e => self.table.insert(e).map(Fd),
        }
    }
    fn dup2(&self, from: Fd, to: Fd) -> PortResult<()> {
        let e = self.table.get(from.0)?;
        self.table.get(to.0)?;
        let e = match e {
            Entry::Host(h) => Entry::Host(self.host.dup(Fd(h))?.0),
            e => e,
        };
        if let Some(Entry::Host(old)) = self.table.set(to.0, e) {
            let _ = self.host.close(Fd(old));
        }
        Ok(())
    }
    fn read(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        self.read_into(fd, addr, len, None)
    }
    fn write(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        self.write_from(fd, addr, len, None)
    }
    fn pread(&self, fd: Fd, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
        let pos = u64::try_from(pos).map_err(|_| Errno::EINVAL)?;
        self.read_into(fd, addr, len, Some(pos))
    }
    fn pwrite(&self, fd: Fd, addr: usize, len: usize, pos: i64) -> PortResult<usize> {
        let pos = u64::try_from(pos).map_err(|_| Errno::EINVAL)?;
        self.write_from(fd, addr, len, Some(pos))
    }
    fn readv(&self, fd: Fd, iov: usize, count: i32) -> PortResult<usize> {
        if let Route::Host(h) = self.route(fd)? {
            return self.host.readv(h, iov, count);
        }
        let mut total = 0;
        for (base, len) in Self::iovecs(iov, count) {
            let n = self.read_into(fd, base, len, None)?;
            total += n;
            if n < len {
                break;
            }
        }
        Ok(total)
    }
    fn writev(&self, fd: Fd, iov: usize, count: i32) -> PortResult<usize> {
        if let Route::Host(h) = self.route(fd)? {
            return self.host.writev(h, iov, count);
        }
        let mut total = 0;
        for (base, len) in Self::iovecs(iov, count) {
            let n = self.write_from(fd, base, len, None)?;
            total += n;
            if n < len {
                break;
            }
        }
        Ok(total)
    }
    fn read_buf(&self, fd: Fd, buf: &mut [u8]) -> PortResult<usize> {
        match self.route(fd)? {
            Route::Remote => {
                let mut off = 0;
                let len = buf.len();
                self.read_remote_with(fd, len, None, &mut |chunk| {
                    buf[off..off + chunk.len()].copy_from_slice(chunk);
                    off += chunk.len();
                })
            }
            Route::Host(h) => self.host.read_buf(h, buf),
            Route::Local(s) => {
                let data = s.read(buf.len())?;
                buf[..data.len()].copy_from_slice(&data);
                Ok(data.len())
            }
            Route::Dead => Ok(0),
        }
    }
    fn write_buf(&self, fd: Fd, buf: &[u8]) -> PortResult<usize> {
        match self.route(fd)? {
            Route::Remote => self.write_remote(fd, buf, None),
            Route::Host(h) => self.host.write_buf(h, buf),
            Route::Local(s) => s.write(buf),
            Route::Dead => Err(Errno::EPIPE),
        }
    }
    fn seek(&self, fd: Fd, offset: i64) -> PortResult<i64> {
        match self.route(fd)? {
            Route::Remote if offset < 0 => self.seek_remote(fd, 0, libc::SEEK_CUR),
            Route::Remote => self.seek_remote(fd, offset, libc::SEEK_SET),
            Route::Host(h) => self.host.seek(h, offset),
            Route::Local(_) | Route::Dead => Err(Errno::ESPIPE),
        }
    }
    fn sync(&self, fd: Fd, metadata: bool) -> PortResult<()> {
        match self.route(fd)? {
            Route::Remote => self.fsync_remote(fd, metadata),
            Route::Host(h) => self.host.sync(h, metadata),
            Route::Local(_) | Route::Dead => Err(Errno::EINVAL),
        }
    }
    fn truncate(&self, fd: Fd, size: i64) -> PortResult<()> {
        match self.route(fd)? {
            Route::Remote => self.truncate_remote(fd, size),
            Route::Host(h) => self.host.truncate(h, size),
            Route::Local(_) | Route::Dead => Err(Errno::EINVAL),
        }
    }
    fn lock(
        &self,
        fd: Fd,
        blocking: bool,
        pos: i64,
        size: i64,
        shared: bool,
    ) -> PortResult<LockResult> {
        self.lock_remote(fd, blocking, pos, size, shared)
    }
    fn unlock(&self, fd: Fd, pos: i64, size: i64) -> PortResult<()> {
        let f = self.remote(fd)?;
        self.send_lock(&f, msg::LOCK_TYPE_UNLCK, pos, size)
            .map(drop)
    }
    fn set_blocking(&self, fd: Fd, blocking: bool) -> PortResult<()> {
        match self.route(fd)? {
            Route::Host(h) => self.host.set_blocking(h, blocking),
            Route::Local(s) => {
                s.set_blocking(blocking);
                Ok(())
            }
            _ => Ok(()),
        }
    }
    fn set_direct(&self, _fd: Fd) -> PortResult<i64> {
        unsupported()
    }
    fn pipe(&self, blocking: bool) -> PortResult<(Fd, Fd)> {
        let (r, w) = events::pipe(self.bell.clone(), blocking);
        let r = self.table.insert(Entry::Pipe(Arc::new(r)))?;
        let w = self
            .table
            .insert(Entry::Pipe(Arc::new(w)))
            .inspect_err(|_| {
                let _ = self.table.remove(r);
            })?;
        Ok((Fd(r), Fd(w)))
    }
    fn pre_close_fd(&self) -> PortResult<Fd> {
        self.table.insert(Entry::Dead).map(Fd)
    }
    fn fd_limit(&self) -> PortResult<i32> {
        Ok(super::table::MAX_FDS)
    }
    fn sendfile(&self, _out_fd: Fd, _in_fd: Fd, _pos: i64, _count: usize) -> PortResult<i64> {
        // sendfile(2) moves data between kernel descriptors only; EINVAL is its answer for
        // descriptors it cannot serve, on which libnio's caller copies through a buffer.
        Err(Errno::EINVAL)
    }
    fn mmap(&self, fd: Fd, mode: MapMode, pos: i64, len: usize) -> PortResult<usize> {
        match self.route(fd)? {
            Route::Remote => self.map_remote(fd, mode, pos, len),
            _ => Err(Errno::ENODEV),
        }
    }
    fn map_for_memory(&self, _fd: Fd, _writable: bool, _len: usize) -> PortResult<usize> {
        // A 9P file has no pages to share: its mappings are copies (see `mapped`).
        Err(Errno::EOPNOTSUPP)
    }
    fn munmap(&self, addr: usize, len: usize) -> PortResult<()> {
        self.unmap_remote(addr, len)
    }
    fn mapping_resident(&self, addr: usize, len: usize, _pages: usize) -> PortResult<bool> {
        // A copy is all in memory.
        if self.is_mapped(addr, len) {
            Ok(true)
        } else {
            Err(Errno::ENOMEM)
        }
    }
    fn advise_mapping(&self, addr: usize, len: usize, _will_need: bool) -> PortResult<()> {
        if self.is_mapped(addr, len) {
            Ok(())
        } else {
            Err(Errno::ENOMEM)
        }
    }
    fn sync_mapping(&self, addr: usize, len: usize) -> PortResult<()> {
        self.sync_remote(addr, len)
    }
    fn copy_fd(&self, dst: Fd, src: Fd, cancel_addr: usize) -> PortResult<()> {
        match (self.route(dst)?, self.route(src)?) {
            (Route::Host(d), Route::Host(s)) => self.host.copy_fd(d, s, cancel_addr),
            _ => self.copy_remote(dst, src, cancel_addr),
        }
    }
    fn fgetxattr(&self, _fd: Fd, _name: &[u8], _addr: usize, _len: usize) -> PortResult<usize> {
        unsupported()
    }
    fn fsetxattr(&self, _fd: Fd, _name: &[u8], _addr: usize, _len: usize) -> PortResult<()> {
        unsupported()
    }
    fn fremovexattr(&self, _fd: Fd, _name: &[u8]) -> PortResult<()> {
        unsupported()
    }
    fn flistxattr(&self, _fd: Fd, _addr: usize, _len: usize) -> PortResult<usize> {
        unsupported()
    }
    fn inotify_init(&self) -> PortResult<Fd> {
        unsupported()
    }
    fn inotify_add_watch(&self, _fd: Fd, _path: &[u8], _mask: u32) -> PortResult<i32> {
        unsupported()
    }
    fn inotify_rm_watch(&self, _fd: Fd, _wd: i32) -> PortResult<()> {
        unsupported()
    }
    fn socketpair(&self) -> PortResult<(Fd, Fd)> {
        unsupported()
    }
    fn poll_readable(&self, _fd1: Fd, _fd2: Fd) -> PortResult<i32> {
        unsupported()
    }

    // ---- directories ----
    fn opendir(&self, path: &[u8]) -> PortResult<DirStream> {
        let names = if self.in_jdk(path) {
            self.jdk_dir(path)?
        } else {
            self.list(&[], path)?.1
        };
        Ok(DirStream(self.table.open_dir(names)))
    }
    fn fdopendir(&self, fd: Fd) -> PortResult<DirStream> {
        let f = self.remote(fd)?;
        if !f.is_dir {
            return Err(Errno::ENOTDIR);
        }
        let (_, names) = self.list(&f.names, b".")?;
        self.table.remove(fd.0)?;
        Ok(DirStream(self.table.open_dir(names)))
    }
    fn readdir(&self, handle: DirStream) -> PortResult<Option<Vec<u8>>> {
        self.table.read_dir(handle.0)
    }
    fn closedir(&self, handle: DirStream) -> PortResult<()> {
        self.table.close_dir(handle.0)
    }
    fn mount_table_open(&self, _path: &[u8]) -> PortResult<MountTable> {
        Ok(MountTable(self.table.open_mounts()))
    }
    fn mount_table_line_len(&self, h: MountTable) -> PortResult<Option<usize>> {
        self.table.with_mounts(h.0, |pos| {
            let (name, dir, fstype, opts) = MOUNTS.get(*pos)?;
            *pos += 1;
            // "name dir fstype opts 0 0\n"
            Some(name.len() + dir.len() + fstype.len() + opts.len() + 8)
        })
    }
    fn mount_table_rewind(&self, h: MountTable) -> PortResult<()> {
        self.table.with_mounts(h.0, |pos| *pos = 0)
    }
    fn mount_table_next(&self, h: MountTable) -> PortResult<Option<MountEntry>> {
        self.table.with_mounts(h.0, |pos| {
            let (name, dir, fstype, opts) = MOUNTS.get(*pos)?;
            *pos += 1;
            Some(MountEntry {
                name: name.to_vec(),
                dir: dir.to_vec(),
                fstype: fstype.to_vec(),
                opts: opts.to_vec(),
            })
        })
    }
    fn mount_table_close(&self, h: MountTable) -> PortResult<()> {
        self.table.close_mounts(h.0)
    }

    // ---- users and groups (the host's databases) ----
    fn user_name(&self, uid: u32) -> PortResult<Vec<u8>> {
        self.host.user_name(uid)
    }
    fn group_name(&self, gid: u32) -> PortResult<Vec<u8>> {
        self.host.group_name(gid)
    }
    fn user_id(&self, name: &[u8]) -> PortResult<Option<u32>> {
        self.host.user_id(name)
    }
    fn group_id(&self, name: &[u8]) -> PortResult<Option<u32>> {
        self.host.group_id(name)
    }

    // ---- sockets: TCP over the gateway's /net (see `super::sockets`) ----
    fn ipv6_available(&self) -> bool {
        false
    }
    fn reuse_port_available(&self) -> bool {
        false
    }
    fn socket(&self, _v6: bool, stream: bool, _reuse: bool) -> PortResult<Fd> {
        let net = self.net()?;
        if !stream {
            return Err(Errno::EPROTONOSUPPORT);
        }
        let s = sockets::SocketRef(sockets::Socket::new(net));
        self.table.insert(Entry::Socket(Arc::new(s))).map(Fd)
    }
    fn bind(&self, fd: Fd, _v6: bool, addr: SocketAddr) -> PortResult<()> {
        self.socket_of(fd)?.bind(addr)
    }
    fn listen(&self, fd: Fd, backlog: i32) -> PortResult<()> {
        self.socket_of(fd)?.listen(backlog)
    }
    fn connect(&self, fd: Fd, _v6: bool, addr: SocketAddr) -> PortResult<bool> {
        self.socket_of(fd)?.connect(addr)
    }
    fn accept(&self, fd: Fd) -> PortResult<(Fd, SocketAddr)> {
        let call = self.socket_of(fd)?.accept()?;
        let peer = call.address(true)?;
        let s = sockets::SocketRef(call);
        let fd = self.table.insert(Entry::Socket(Arc::new(s)))?;
        Ok((Fd(fd), peer))
    }
    fn shutdown(&self, fd: Fd, how: i32) -> PortResult<()> {
        self.socket_of(fd)?.shutdown(how)
    }
    fn local_address(&self, fd: Fd) -> PortResult<SocketAddr> {
        self.socket_of(fd)?.address(false)
    }
    fn remote_address(&self, fd: Fd) -> PortResult<SocketAddr> {
        self.socket_of(fd)?.address(true)
    }
    // The poll selector's array of host descriptors; the 9P backend's descriptors are its
    // own (its epoll set serves the default selector).
    fn poll_array(&self, _addr: usize, _count: i32, _timeout_ms: i32) -> PortResult<i32> {
        unsupported()
    }
    // A 9P gateway's /net carries TCP streams only: no ICMP, and no probe of a port.
    fn is_reachable(
        &self,
        _target: SocketAddr,
        _timeout_ms: i32,
        _source: Option<SocketAddr>,
        _ttl: i32,
    ) -> PortResult<bool> {
        unsupported()
    }
    // A 9P gateway's /net has no Unix domain sockets.
    fn unix_socket(&self) -> PortResult<Fd> {
        unsupported()
    }
    fn unix_bind(&self, _fd: Fd, _path: &[u8]) -> PortResult<()> {
        unsupported()
    }
    fn unix_connect(&self, _fd: Fd, _path: &[u8]) -> PortResult<bool> {
        unsupported()
    }
    fn unix_accept(&self, _fd: Fd) -> PortResult<(Fd, Vec<u8>)> {
        unsupported()
    }
    fn unix_local_address(&self, _fd: Fd) -> PortResult<Vec<u8>> {
        unsupported()
    }
    fn unix_peer_address(&self, _fd: Fd) -> PortResult<Vec<u8>> {
        unsupported()
    }
    fn peer_credentials(&self, _fd: Fd) -> PortResult<(u32, u32)> {
        unsupported()
    }
    fn get_int_option(&self, fd: Fd, level: i32, opt: i32) -> PortResult<i32> {
        self.socket_of(fd)?.get_option(level, opt)
    }
    fn set_int_option(&self, fd: Fd, level: i32, opt: i32, value: i32) -> PortResult<()> {
        self.socket_of(fd)?.set_option(level, opt, value)
    }
    fn poll(&self, fd: Fd, events: i16, timeout_ms: i64) -> PortResult<i16> {
        match self.route(fd)? {
            Route::Host(h) => self.host.poll(h, events, timeout_ms),
            Route::Local(s) => self.poll_local(&*s, events, timeout_ms),
            _ => unsupported(),
        }
    }
    fn poll_connect(&self, fd: Fd, timeout_ms: i64) -> PortResult<bool> {
        self.socket_of(fd)?.poll_connect(timeout_ms)
    }
    fn socket_available(&self, fd: Fd) -> PortResult<i32> {
        Ok(self.socket_of(fd)?.available())
    }
    fn send_oob(&self, _fd: Fd, _b: u8) -> PortResult<usize> {
        unsupported()
    }
    fn recv(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        let data = self.socket_of(fd)?.recv(len)?;
        fs::copy_to_native(addr, &data);
        Ok(data.len())
    }
    fn send(&self, fd: Fd, addr: usize, len: usize) -> PortResult<usize> {
        let s = self.socket_of(fd)?;
        let mut data = vec![0u8; len.min(self.ns.client.max_io() as usize)];
        fs::copy_from_native(addr, &mut data);
        s.send(&data)
    }
    fn recv_from(&self, _fd: Fd, _addr: usize, _len: usize, _sender: usize) -> PortResult<usize> {
        unsupported()
    }
    fn send_to(
        &self,
        _fd: Fd,
        _addr: usize,
        _len: usize,
        _target: usize,
        _target_len: usize,
    ) -> PortResult<usize> {
        unsupported()
    }
    fn disconnect(&self, _fd: Fd, _v6: bool) -> PortResult<()> {
        unsupported()
    }
    fn join_or_drop4(&self, _: Fd, _: bool, _: i32, _: i32, _: i32) -> PortResult<()> {
        unsupported()
    }
    fn block_or_unblock4(&self, _: Fd, _: bool, _: i32, _: i32, _: i32) -> PortResult<()> {
        unsupported()
    }
    fn join_or_drop6(
        &self,
        _: Fd,
        _: bool,
        _: [u8; 16],
        _: i32,
        _: Option<[u8; 16]>,
    ) -> PortResult<()> {
        unsupported()
    }
    fn block_or_unblock6(
        &self,
        _: Fd,
        _: bool,
        _: [u8; 16],
        _: i32,
        _: [u8; 16],
    ) -> PortResult<()> {
        unsupported()
    }
    fn set_interface4(&self, _fd: Fd, _interf: i32) -> PortResult<()> {
        unsupported()
    }
    fn get_interface4(&self, _fd: Fd) -> PortResult<i32> {
        unsupported()
    }
    fn set_interface6(&self, _fd: Fd, _index: i32) -> PortResult<()> {
        unsupported()
    }
    fn get_interface6(&self, _fd: Fd) -> PortResult<i32> {
        unsupported()
    }
    fn epoll_create(&self) -> PortResult<Fd> {
        let e = Arc::new(events::Epoll::default());
        self.table.insert(Entry::Epoll(e)).map(Fd)
    }
    fn epoll_ctl(&self, epfd: Fd, op: i32, fd: Fd, events: u32) -> PortResult<()> {
        let set = self.epoll_of(epfd)?;
        match self.table.get(fd.0)? {
            Entry::Socket(_) | Entry::Event(_) | Entry::Pipe(_) => set.ctl(op, fd.0, events),
            // As the kernel: files are always ready and cannot be watched.
            _ => Err(Errno::EPERM),
        }
    }
    fn epoll_wait(&self, epfd: Fd, addr: usize, count: i32, timeout: i32) -> PortResult<i32> {
        let set = self.epoll_of(epfd)?;
        let deadline = sockets::deadline(i64::from(timeout));
        let ready = self.bell.wait_for(deadline, || {
            let ready = set.scan(count.max(0) as usize, |fd, ev| match self.table.get(fd) {
                Ok(Entry::Socket(s)) => Some(Local::ready(&*s.0, ev)),
                Ok(Entry::Event(e)) => Some(e.ready(ev)),
                Ok(Entry::Pipe(p)) => Some(p.ready(ev)),
                _ => None,
            });
            (!ready.is_empty()).then_some(ready)
        })?;
        let ready = ready.unwrap_or_default();
        let (size, events_at, data_at) = crate::net::epoll_event_layout();
        for (i, (fd, ev)) in ready.iter().enumerate() {
            let at = addr + i * size;
            fs::copy_to_native(at + events_at, &ev.to_ne_bytes());
            fs::copy_to_native(at + data_at, &u64::from(*fd as u32).to_ne_bytes());
        }
        Ok(ready.len() as i32)
    }
    fn eventfd(&self) -> PortResult<Fd> {
        let e = Arc::new(events::EventFd::new(self.bell.clone()));
        self.table.insert(Entry::Event(e)).map(Fd)
    }
    fn host_name(&self) -> PortResult<String> {
        self.host.host_name()
    }
    fn lookup_host(&self, host: &str, v6: bool) -> Result<Vec<IpAddr>, String> {
        let net = self
            .net()
            .map_err(|_| "name lookup needs the gateway's /net".to_string())?;
        let mut addrs = net
            .lookup(host)
            .map_err(|_| format!("{host}: Name or service not known"))?;
        if !v6 {
            addrs.retain(IpAddr::is_ipv4);
        }
        addrs.sort_by_key(|a| a.is_ipv6());
        addrs.dedup();
        if addrs.is_empty() {
            return Err(format!("{host}: Name or service not known"));
        }
        Ok(addrs)
    }
    fn host_by_addr(&self, _ip: IpAddr) -> Option<String> {
        None
    }
    fn interface_flags(&self, _name: &str) -> PortResult<i32> {
        unsupported()
    }
    fn interface_mtu(&self, _name: &str) -> PortResult<i32> {
        unsupported()
    }
    fn interface_hardware_address(&self, _name: &str) -> PortResult<Option<[u8; 6]>> {
        unsupported()
    }
    fn interfaces(&self, _ipv6: bool) -> PortResult<Vec<Interface>> {
        Ok(Vec::new())
    }

    // ---- processes: none over 9P ----
    fn spawn(&self, _req: &SpawnRequest) -> Result<Spawned, Errno> {
        unsupported()
    }
    fn wait_for_exit(&self, _pid: i64, _reap: bool) -> i32 {
        process::NOT_A_CHILD
    }
    fn kill(&self, _pid: i64, _force: bool) -> bool {
        false
    }
    fn current_pid(&self) -> i64 {
        self.host.current_pid()
    }
    fn parent_pid(&self) -> i64 {
        self.host.parent_pid()
    }
    fn proc_stat(&self, _pid: i64) -> Option<ProcStat> {
        None
    }
    fn all_pids(&self) -> Vec<i64> {
        Vec::new()
    }
    fn proc_exe(&self, _pid: i64) -> Option<Vec<u8>> {
        None
    }
    fn proc_cmdline(&self, _pid: i64) -> Option<Vec<u8>> {
        None
    }
    fn proc_uid(&self, _pid: i64) -> Option<u32> {
        None
    }
    fn process_user_name(&self, uid: u32) -> Option<Vec<u8>> {
        self.host.process_user_name(uid)
    }

    // ---- clock and environment: the host's ----
    fn current_time_millis(&self) -> i64 {
        self.host.current_time_millis()
    }
    fn wall_clock(&self) -> (i64, i64) {
        self.host.wall_clock()
    }
    fn nano_time(&self) -> i64 {
        self.host.nano_time()
    }
    fn available_processors(&self) -> usize {
        self.host.available_processors()
    }
    fn ids(&self) -> (u64, u64, u64, u64) {
        self.host.ids()
    }
    fn groups(&self) -> Vec<u32> {
        self.host.groups()
    }
    fn environment(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        self.host.environment()
    }
    fn platform_properties(&self) -> Vec<Option<String>> {
        let mut p = self.host.platform_properties();
        // user.dir: the namespace's root.
        if let Some(cwd) = p.get_mut(36) {
            *cwd = Some("/".into());
        }
        p
    }
    fn system_time_zone(&self) -> Option<String> {
        self.host.system_time_zone()
    }
    fn gmt_offset_id(&self) -> String {
        self.host.gmt_offset_id()
    }
}

/// What reads and writes of an epoll set do.
struct NotStream;

impl Local for NotStream {
    fn read(&self, _len: usize) -> PortResult<Vec<u8>> {
        Err(Errno::EINVAL)
    }
    fn write(&self, _data: &[u8]) -> PortResult<usize> {
        Err(Errno::EINVAL)
    }
    fn set_blocking(&self, _blocking: bool) {}
    fn available(&self) -> i32 {
        0
    }
    fn ready(&self, _events: i16) -> i16 {
        0
    }
}
