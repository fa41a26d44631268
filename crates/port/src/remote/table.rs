//! Owns a 9P backend's descriptor table: the numbers handed to Java as file descriptors, each
//! naming either an open 9P file (a fid with its offset and open flags, shared by `dup`s) or a
//! host descriptor (the standard streams, and the JDK's own files read from the host), and
//! its directory streams (a snapshot of the entries read at `opendir`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ninep::client::{Client, Fid};

use super::ns::Names;
use crate::{Errno, PortResult};

/// An open 9P file. Dropping the last descriptor that refers to it clunks its fid.
pub struct RemoteFile {
    pub client: Client,
    pub fid: Fid,
    /// Where it is in the namespace (for `openat`, `fstat`'s peers and `fdopendir`).
    pub names: Names,
    /// The Linux open flags it was opened with.
    pub flags: i32,
    pub is_dir: bool,
    /// Its identity on the server (the qid path): what the file cache keys it by.
    pub qid: u64,
    /// Where its next sequential read starts, for the file cache's read-ahead.
    pub readahead: Mutex<super::cache::ReadAhead>,
    /// The file offset (shared by `dup`s, as the kernel's open file description is).
    pub pos: Mutex<u64>,
}

impl Drop for RemoteFile {
    fn drop(&mut self) {
        let _ = self.client.clunk(self.fid);
    }
}

impl RemoteFile {
    pub fn readable(&self) -> bool {
        self.flags & libc::O_ACCMODE != libc::O_WRONLY
    }
    pub fn writable(&self) -> bool {
        self.flags & libc::O_ACCMODE != libc::O_RDONLY
    }
    pub fn append(&self) -> bool {
        self.flags & libc::O_APPEND != 0
    }
}

/// What a descriptor number refers to.
#[derive(Clone)]
pub enum Entry {
    Remote(Arc<RemoteFile>),
    /// A host descriptor, reached through the host backend.
    Host(i32),
    /// A TCP socket over the gateway's `/net`.
    Socket(Arc<super::sockets::SocketRef>),
    /// An eventfd, in this process.
    Event(Arc<super::events::EventFd>),
    /// An epoll set, in this process.
    Epoll(Arc<super::events::Epoll>),
    /// A pipe's end, in this process.
    Pipe(Arc<super::events::PipeEnd>),
    /// What `pre_close_fd` makes: reads see end of file, writes fail.
    Dead,
}

/// An open directory: its entries, read when it was opened, and the next to return.
pub struct DirList {
    pub names: Vec<Vec<u8>>,
    pub next: usize,
}

/// The descriptors and directory streams of one backend.
#[derive(Default)]
pub struct Table {
    fds: Mutex<BTreeMap<i32, Entry>>,
    dirs: Mutex<BTreeMap<u64, DirList>>,
    next_dir: Mutex<u64>,
    /// Open mount tables: the next line of [`MOUNTS`] each returns.
    mounts: Mutex<BTreeMap<u64, usize>>,
}

/// The mount table a 9P namespace shows: one file system, at its root (so that
/// `Files.getFileStore` finds the store of every file).
pub const MOUNTS: &[MountLine] = &[(b"9p", b"/", b"9p", b"rw")];

/// A mount table's line: device, directory, file system type, options.
pub type MountLine = (&'static [u8], &'static [u8], &'static [u8], &'static [u8]);

/// The highest descriptor number (the kernel's default soft limit).
pub const MAX_FDS: i32 = 1 << 16;

impl Table {
    /// A table whose 0, 1 and 2 are the host's standard streams.
    pub fn with_stdio() -> Table {
        let t = Table::default();
        {
            let mut fds = crate::remote::lock(&t.fds);
            for fd in 0..3 {
                fds.insert(fd, Entry::Host(fd));
            }
        }
        t
    }

    /// The lowest free number for `e`.
    pub fn insert(&self, e: Entry) -> PortResult<i32> {
        let mut fds = super::lock(&self.fds);
        let mut n = 0;
        for &k in fds.keys() {
            if k != n {
                break;
            }
            n += 1;
        }
        if n >= MAX_FDS {
            return Err(Errno::EMFILE);
        }
        fds.insert(n, e);
        Ok(n)
    }

    pub fn get(&self, fd: i32) -> PortResult<Entry> {
        super::lock(&self.fds).get(&fd).cloned().ok_or(Errno::EBADF)
    }

    pub fn remove(&self, fd: i32) -> PortResult<Entry> {
        super::lock(&self.fds).remove(&fd).ok_or(Errno::EBADF)
    }

    /// Makes `to` refer to what `from` does; returns what `to` referred to before.
    pub fn set(&self, to: i32, e: Entry) -> Option<Entry> {
        super::lock(&self.fds).insert(to, e)
    }

    /// Empties the table (the domain ended); returns what it held.
    pub fn drain(&self) -> Vec<Entry> {
        let fds = std::mem::take(&mut *super::lock(&self.fds));
        super::lock(&self.dirs).clear();
        fds.into_values().collect()
    }

    pub fn open_dir(&self, names: Vec<Vec<u8>>) -> u64 {
        let mut next = super::lock(&self.next_dir);
        *next += 1;
        let h = *next;
        super::lock(&self.dirs).insert(h, DirList { names, next: 0 });
        h
    }

    pub fn read_dir(&self, h: u64) -> PortResult<Option<Vec<u8>>> {
        let mut dirs = super::lock(&self.dirs);
        let d = dirs.get_mut(&h).ok_or(Errno::EBADF)?;
        let name = d.names.get(d.next).cloned();
        d.next += 1;
        Ok(name)
    }

    pub fn open_mounts(&self) -> u64 {
        let mut next = super::lock(&self.next_dir);
        *next += 1;
        super::lock(&self.mounts).insert(*next, 0);
        *next
    }

    /// Runs `f` on the next-line index of mount table `h`.
    pub fn with_mounts<T>(&self, h: u64, f: impl FnOnce(&mut usize) -> T) -> PortResult<T> {
        super::lock(&self.mounts)
            .get_mut(&h)
            .map(f)
            .ok_or(Errno::EBADF)
    }

    pub fn close_mounts(&self, h: u64) -> PortResult<()> {
        super::lock(&self.mounts)
            .remove(&h)
            .map(drop)
            .ok_or(Errno::EBADF)
    }

    pub fn close_dir(&self, h: u64) -> PortResult<()> {
        super::lock(&self.dirs)
            .remove(&h)
            .map(drop)
            .ok_or(Errno::EBADF)
    }
}
