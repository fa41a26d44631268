//! Owns the generic 9P2000.L server: the [`Filesystem`] trait (one method per operation,
//! with no protocol state), the fid table of each connection, version negotiation, flush,
//! and per-message-type statistics ([`Stats`]).
//!
//! Each connection has its own thread reading requests; requests are handled by a few worker
//! threads of that connection, so a slow request does not hold up the others; reads, writes,
//! walks, opens, `Tgetattr` and clunks of files the filesystem calls quick
//! ([`Filesystem::quick`]) are handled on the connection's thread, which saves two thread
//! switches per request (the bulk of an uncached read's cost). `Tflush` of a
//! request still running is answered right after that request's reply; of one already
//! answered, at once. A frame whose size is impossible (below the header, above `msize`)
//! closes the connection; a frame that is well sized but does not decode gets `Rlerror`
//! (`EPROTO`, or `EOPNOTSUPP` for a type 9P2000.L does not define) and the connection goes on.

use std::collections::HashMap;
use std::io::{IoSlice, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;

use crate::addr::{Listener, Stream};
use crate::errno::Errno;
use crate::lock;
use crate::msg::{self, Attr, Flock, Getlock, Qid, Rmsg, SetAttr, Statfs, Tmsg};
use crate::wire::{Data, HEADER, ReadError, WireError, read_frame};

/// What a [`Filesystem`] operation returns.
pub type FsResult<T> = Result<T, Errno>;

/// A file tree served over 9P2000.L. The server keeps the fid table: each fid is a
/// `Self::Fid` value the methods get by reference (state that changes, such as an opened
/// file, lives inside it behind the implementation's own lock). Names are single path
/// components as the client sent them; checking them is the implementation's job.
///
/// Only `attach`, `walk` and `getattr` are required: every other operation answers
/// `EOPNOTSUPP` unless implemented, so a small synthetic tree implements what it has.
#[allow(unused_variables)]
pub trait Filesystem: Send + Sync + 'static {
    type Fid: Send + Sync + 'static;

    /// The root of the tree named `aname`.
    fn attach(&self, uname: &[u8], aname: &[u8], n_uname: u32) -> FsResult<(Self::Fid, Qid)>;
    /// Walks `names` from `fid`: the qids of the names walked, and the fid reached if every
    /// name was walked (no names: a copy of `fid`). Failing on the first name is an error.
    fn walk(&self, fid: &Self::Fid, names: &[Vec<u8>]) -> FsResult<(Vec<Qid>, Option<Self::Fid>)>;
    fn getattr(&self, fid: &Self::Fid, mask: u64) -> FsResult<Attr>;
    /// Opens `fid` for I/O with 9P2000.L open flags ([`msg::open_flags`]).
    fn lopen(&self, fid: &Self::Fid, flags: u32) -> FsResult<(Qid, u32)> {
        Err(Errno::EOPNOTSUPP)
    }
    /// Creates and opens `name` in directory `fid`, which becomes the new file.
    fn lcreate(
        &self,
        fid: &Self::Fid,
        name: &[u8],
        flags: u32,
        mode: u32,
        gid: u32,
    ) -> FsResult<(Qid, u32)> {
        Err(Errno::EOPNOTSUPP)
    }
    fn symlink(&self, dfid: &Self::Fid, name: &[u8], target: &[u8], gid: u32) -> FsResult<Qid> {
        Err(Errno::EOPNOTSUPP)
    }
    fn mknod(
        &self,
        dfid: &Self::Fid,
        name: &[u8],
        mode: u32,
        dev: (u32, u32),
        gid: u32,
    ) -> FsResult<Qid> {
        Err(Errno::EOPNOTSUPP)
    }
    fn rename(&self, fid: &Self::Fid, dfid: &Self::Fid, name: &[u8]) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    fn readlink(&self, fid: &Self::Fid) -> FsResult<Vec<u8>> {
        Err(Errno::EOPNOTSUPP)
    }
    fn setattr(&self, fid: &Self::Fid, attr: &SetAttr) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    fn xattrwalk(&self, fid: &Self::Fid, name: &[u8]) -> FsResult<(u64, Self::Fid)> {
        Err(Errno::EOPNOTSUPP)
    }
    fn xattrcreate(&self, fid: &Self::Fid, name: &[u8], size: u64, flags: u32) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    /// Encoded [`msg::Dirent`]s of the opened directory `fid` from `offset`, at most `count`
    /// bytes.
    fn readdir(&self, fid: &Self::Fid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        Err(Errno::EOPNOTSUPP)
    }
    fn fsync(&self, fid: &Self::Fid, datasync: bool) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    fn lock(&self, fid: &Self::Fid, lock: &Flock) -> FsResult<u8> {
        Err(Errno::EOPNOTSUPP)
    }
    fn getlock(&self, fid: &Self::Fid, lock: &Getlock) -> FsResult<Getlock> {
        Err(Errno::EOPNOTSUPP)
    }
    fn link(&self, dfid: &Self::Fid, fid: &Self::Fid, name: &[u8]) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    fn mkdir(&self, dfid: &Self::Fid, name: &[u8], mode: u32, gid: u32) -> FsResult<Qid> {
        Err(Errno::EOPNOTSUPP)
    }
    fn renameat(
        &self,
        olddir: &Self::Fid,
        oldname: &[u8],
        newdir: &Self::Fid,
        newname: &[u8],
    ) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    fn unlinkat(&self, dir: &Self::Fid, name: &[u8], flags: u32) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    fn statfs(&self, fid: &Self::Fid) -> FsResult<Statfs> {
        Err(Errno::EOPNOTSUPP)
    }
    fn read(&self, fid: &Self::Fid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        Err(Errno::EOPNOTSUPP)
    }
    fn write(&self, fid: &Self::Fid, offset: u64, data: &[u8]) -> FsResult<u32> {
        Err(Errno::EOPNOTSUPP)
    }
    /// Removes the file of `fid` (the server forgets the fid whatever the outcome).
    fn remove(&self, fid: &Self::Fid) -> FsResult<()> {
        Err(Errno::EOPNOTSUPP)
    }
    /// The client let go of `fid` (`Tclunk`, `Tremove`, a new `Tversion`, or the end of the
    /// connection), even if a request on it is still running; for state that must end then
    /// rather than when the last reference to the fid's value goes.
    fn clunk(&self, fid: &Self::Fid) {}
    /// Whether a read, write, walk, open, `Tgetattr` or clunk of `fid` finishes without
    /// waiting for anything but the local machine (a regular file or directory, not a network
    /// read or a FIFO). The server then handles those requests on the connection's own
    /// thread instead of handing them to a worker, which saves two thread switches per
    /// request; a request that may block must answer false, or it holds up the connection.
    fn quick(&self, fid: &Self::Fid) -> bool {
        false
    }
}

/// Counts and bytes per message type, requests and replies.
pub struct Stats {
    count: [AtomicU64; 256],
    bytes: [AtomicU64; 256],
}

/// One line of [`Stats::snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatLine {
    pub name: &'static str,
    pub count: u64,
    pub bytes: u64,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            count: std::array::from_fn(|_| AtomicU64::new(0)),
            bytes: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl Stats {
    fn record(&self, ty: u8, bytes: usize) {
        self.count[usize::from(ty)].fetch_add(1, Ordering::Relaxed);
        self.bytes[usize::from(ty)].fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// The message types seen, in type order (frames of unknown types under `unknown`).
    pub fn snapshot(&self) -> Vec<StatLine> {
        (0..=255u8)
            .filter_map(|ty| {
                let count = self.count[usize::from(ty)].load(Ordering::Relaxed);
                let bytes = self.bytes[usize::from(ty)].load(Ordering::Relaxed);
                let name = Tmsg::name_of(ty).or(Rmsg::name_of(ty)).unwrap_or("unknown");
                (count > 0).then_some(StatLine { name, count, bytes })
            })
            .collect()
    }

    /// The snapshot as a table, one message type a line.
    pub fn report(&self) -> String {
        let mut s = format!("{:<18} {:>10} {:>14}\n", "message", "count", "bytes");
        for l in self.snapshot() {
            let name = msg::wire_name(l.name);
            s += &format!("{:<18} {:>10} {:>14}\n", name, l.count, l.bytes);
        }
        s
    }
}

/// The largest `msize` the server grants unless configured otherwise.
pub const DEFAULT_MAX_MSIZE: u32 = 1 << 20;
/// Bytes of requests read ahead from a connection.
const REQUEST_BUFFER: usize = 16 << 10;

/// Worker threads handling the requests of one connection.
const WORKERS: usize = 4;

/// A 9P2000.L server of one [`Filesystem`].
pub struct Server<F: Filesystem> {
    fs: Arc<F>,
    max_msize: u32,
    stats: Arc<Stats>,
}

impl<F: Filesystem> Clone for Server<F> {
    fn clone(&self) -> Self {
        Server {
            fs: self.fs.clone(),
            max_msize: self.max_msize,
            stats: self.stats.clone(),
        }
    }
}

impl<F: Filesystem> Server<F> {
    pub fn new(fs: F) -> Server<F> {
        Server {
            fs: Arc::new(fs),
            max_msize: DEFAULT_MAX_MSIZE,
            stats: Arc::default(),
        }
    }

    /// Grants at most `msize` (at least 4096).
    pub fn with_max_msize(mut self, msize: u32) -> Server<F> {
        self.max_msize = msize.max(4096);
        self
    }

    pub fn stats(&self) -> Arc<Stats> {
        self.stats.clone()
    }

    /// Accepts connections forever, each served on its own thread. Returns only when
    /// accepting fails.
    pub fn serve(&self, listener: &Listener) -> std::io::Result<()> {
        loop {
            let stream = match listener.accept() {
                Ok(s) => s,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if e.raw_os_error() == Some(24) => {
                    // EMFILE: wait for connections to end rather than give up.
                    thread::sleep(std::time::Duration::from_millis(50));
                    continue;
                }
                Err(e) => return Err(e),
            };
            let server = self.clone();
            thread::Builder::new()
                .name("9p-conn".into())
                .spawn(move || server.serve_connection(stream))?;
        }
    }

    /// Serves one connection until the client closes it or breaks the protocol.
    pub fn serve_connection(&self, stream: Stream) {
        let Ok(writer) = stream.try_clone() else {
            return;
        };
        let conn = Arc::new(Conn {
            fs: self.fs.clone(),
            stats: self.stats.clone(),
            writer: Mutex::new(writer),
            fids: Mutex::new(HashMap::new()),
            inflight: Mutex::new(HashMap::new()),
            msize: Mutex::new(self.max_msize),
        });
        // Bounded: a client that sends without reading replies is held up, not buffered.
        let (tx, rx) = sync_channel::<(u16, Tmsg)>(WORKERS * 8);
        let mut pool = Pool {
            rx: Arc::new(Mutex::new(rx)),
            idle: Arc::new(AtomicUsize::new(0)),
            handles: Vec::new(),
        };
        for _ in 0..WORKERS {
            pool.spawn(&conn);
        }
        if !pool.handles.is_empty() {
            conn.read_requests(stream, self.max_msize, &tx, &mut pool);
        }
        drop(tx);
        // Before waiting for the workers: a request blocked on a fid (a network read) ends
        // when the filesystem lets go of it.
        conn.clunk_all();
        for w in pool.handles {
            let _ = w.join();
        }
        conn.writer_lock().shutdown();
    }
}

type FidTable<T> = HashMap<u32, Arc<T>>;

/// One connection's state.
struct Conn<F: Filesystem> {
    fs: Arc<F>,
    stats: Arc<Stats>,
    writer: Mutex<Stream>,
    fids: Mutex<FidTable<F::Fid>>,
    /// Tags being handled, each with the tags of the flushes waiting for it.
    inflight: Mutex<HashMap<u16, Vec<u16>>>,
    msize: Mutex<u32>,
}

/// A connection's worker threads: [`WORKERS`] at first, one more whenever a request comes
/// while none is idle (requests that block, such as a network read or `listen`, must not
/// hold up the rest), up to [`MAX_WORKERS`].
struct Pool {
    rx: Arc<Mutex<Receiver<(u16, Tmsg)>>>,
    idle: Arc<AtomicUsize>,
    handles: Vec<thread::JoinHandle<()>>,
}

/// The most worker threads of one connection.
const MAX_WORKERS: usize = 1024;

impl Pool {
    fn spawn<F: Filesystem>(&mut self, conn: &Arc<Conn<F>>) {
        let (conn, rx, idle) = (conn.clone(), self.rx.clone(), self.idle.clone());
        if let Ok(h) = thread::Builder::new()
            .name("9p-worker".into())
            .spawn(move || work(&conn, &rx, &idle))
        {
            self.handles.push(h);
        }
    }

    /// Makes sure a worker will take the next request soon.
    fn ensure_idle<F: Filesystem>(&mut self, conn: &Arc<Conn<F>>) {
        if self.idle.load(Ordering::SeqCst) == 0 && self.handles.len() < MAX_WORKERS {
            self.spawn(conn);
        }
    }
}

fn work<F: Filesystem>(conn: &Conn<F>, rx: &Mutex<Receiver<(u16, Tmsg)>>, idle: &AtomicUsize) {
    loop {
        idle.fetch_add(1, Ordering::SeqCst);
        let next = lock(rx).recv();
        idle.fetch_sub(1, Ordering::SeqCst);
        let Ok((tag, msg)) = next else {
            return;
        };
        let reply = conn
            .handle(msg)
            .unwrap_or_else(|e| Rmsg::Lerror { ecode: e.0 });
        conn.reply_and_release(tag, &reply);
    }
}

impl<F: Filesystem> Conn<F> {
    fn writer_lock(&self) -> MutexGuard<'_, Stream> {
        lock(&self.writer)
    }

    /// Reads frames until the stream ends or a frame's size is impossible.
    fn read_requests(
        self: &Arc<Self>,
        stream: Stream,
        max_msize: u32,
        tx: &SyncSender<(u16, Tmsg)>,
        pool: &mut Pool,
    ) {
        // Small requests that arrive together are read in one system call.
        let mut stream = std::io::BufReader::with_capacity(REQUEST_BUFFER, stream);
        loop {
            let msize = *lock(&self.msize);
            let frame = match read_frame(&mut stream, msize) {
                Ok(Some(f)) => f,
                Ok(None) | Err(ReadError::Io(_)) | Err(ReadError::Wire(_)) => return,
            };
            self.stats.record(frame[4], frame.len());
            let (tag, msg) = match Tmsg::decode_request(&frame, msize) {
                Ok(m) => m,
                Err(e) => {
                    self.refuse(&frame, &e);
                    continue;
                }
            };
            match msg {
                Tmsg::Version { msize: m, version } => {
                    self.version(tag, m.min(max_msize), &version)
                }
                Tmsg::Flush { oldtag } => self.flush(tag, oldtag),
                msg if self.is_quick(&msg) => {
                    let reply = self
                        .handle(msg)
                        .unwrap_or_else(|e| Rmsg::Lerror { ecode: e.0 });
                    self.send(tag, &reply);
                }
                msg => {
                    lock(&self.inflight).entry(tag).or_default();
                    pool.ensure_idle(self);
                    if tx.send((tag, msg)).is_err() {
                        return;
                    }
                }
            }
        }
    }

    /// Whether `msg` is handled on the connection's thread (see [`Filesystem::quick`]).
    fn is_quick(&self, msg: &Tmsg) -> bool {
        let fid = match msg {
            Tmsg::Read { fid, .. }
            | Tmsg::Write { fid, .. }
            | Tmsg::Walk { fid, .. }
            | Tmsg::Lopen { fid, .. }
            | Tmsg::Getattr { fid, .. }
            | Tmsg::Clunk { fid } => *fid,
            _ => return false,
        };
        self.fid(fid).is_ok_and(|f| self.fs.quick(&f))
    }

    /// Answers a well-sized frame that does not decode.
    fn refuse(&self, frame: &[u8], e: &WireError) {
        let tag = u16::from_le_bytes([frame[5], frame[6]]);
        let ecode = match e {
            WireError::UnknownType(_) => Errno::EOPNOTSUPP,
            _ => Errno::EPROTO,
        };
        self.send(tag, &Rmsg::Lerror { ecode: ecode.0 });
    }

    /// `Tversion`: a new session (every fid forgotten); an unknown version is answered
    /// `unknown`.
    fn version(&self, tag: u16, msize: u32, version: &str) {
        self.clunk_all();
        let (msize, version) = if version.starts_with(msg::VERSION) && msize >= HEADER as u32 + 64 {
            (msize, msg::VERSION.to_string())
        } else {
            (msize.max(HEADER as u32 + 64), "unknown".to_string())
        };
        self.send(tag, &Rmsg::Version { msize, version });
        *lock(&self.msize) = msize;
    }

    fn flush(&self, tag: u16, oldtag: u16) {
        let mut inflight = lock(&self.inflight);
        if let Some(waiting) = inflight.get_mut(&oldtag) {
            waiting.push(tag);
            return;
        }
        drop(inflight);
        self.send(tag, &Rmsg::Flush {});
    }

    fn send(&self, tag: u16, reply: &Rmsg) {
        if let Rmsg::Read { data } = reply {
            return self.send_read(tag, &data.0);
        }
        let frame = reply.encode(tag);
        self.stats.record(reply.type_id(), frame.len());
        let _ = self.writer_lock().write_all(&frame);
    }

    /// `Rread` written as its header and the data in one `writev`, without copying the data
    /// into a frame.
    fn send_read(&self, tag: u16, data: &[u8]) {
        let header = Rmsg::Read {
            data: Data(Vec::new()),
        }
        .encode(tag);
        let size = header.len() + data.len();
        let Ok(declared) = u32::try_from(size) else {
            return;
        };
        let mut header = header;
        header[..4].copy_from_slice(&declared.to_le_bytes());
        header[HEADER..HEADER + 4].copy_from_slice(&(data.len() as u32).to_le_bytes());
        self.stats.record(header[4], size);
        let _ = write_all_vectored(&mut *self.writer_lock(), &header, data);
    }

    /// Sends the reply of `tag`, then the flushes that waited for it.
    fn reply_and_release(&self, tag: u16, reply: &Rmsg) {
        let mut inflight = lock(&self.inflight);
        let flushes = inflight.remove(&tag).unwrap_or_default();
        // Under the in-flight lock so a flush cannot slip between the reply and its Rflush.
        self.send(tag, reply);
        for f in flushes {
            self.send(f, &Rmsg::Flush {});
        }
        drop(inflight);
    }

    /// Forgets every fid, telling the filesystem.
    fn clunk_all(&self) {
        let fids = std::mem::take(&mut *lock(&self.fids));
        for f in fids.values() {
            self.fs.clunk(f);
        }
    }

    fn fid(&self, fid: u32) -> Result<Arc<F::Fid>, Errno> {
        lock(&self.fids).get(&fid).cloned().ok_or(Errno::EBADF)
    }

    /// Adds `fid`, which must be new.
    fn add_fid(&self, fid: u32, value: F::Fid) -> Result<(), Errno> {
        let mut fids = lock(&self.fids);
        if fids.contains_key(&fid) {
            return Err(Errno::EBADF);
        }
        fids.insert(fid, Arc::new(value));
        Ok(())
    }

    fn new_fid_free(&self, fid: u32) -> Result<(), Errno> {
        match lock(&self.fids).contains_key(&fid) {
            true => Err(Errno::EBADF),
            false => Ok(()),
        }
    }

    fn max_data(&self, count: u32) -> u32 {
        count.min(lock(&self.msize).saturating_sub(HEADER as u32 + 4))
    }

    /// Runs one request against the filesystem.
    fn handle(&self, msg: Tmsg) -> Result<Rmsg, Errno> {
        let fs = &*self.fs;
        Ok(match msg {
            Tmsg::Attach {
                fid,
                uname,
                aname,
                n_uname,
                ..
            } => {
                self.new_fid_free(fid)?;
                let (root, qid) = fs.attach(&uname, &aname, n_uname)?;
                self.add_fid(fid, root)?;
                Rmsg::Attach { qid }
            }
            // No authentication: `ENOENT` is how diod's server and clients say so.
            Tmsg::Auth { .. } => return Err(Errno::ENOENT),
            Tmsg::Walk { fid, newfid, names } => self.walk(fid, newfid, &names)?,
            Tmsg::Clunk { fid } => {
                let f = lock(&self.fids).remove(&fid).ok_or(Errno::EBADF)?;
                fs.clunk(&f);
                Rmsg::Clunk {}
            }
            Tmsg::Remove { fid } => {
                let f = lock(&self.fids).remove(&fid).ok_or(Errno::EBADF)?;
                let r = fs.remove(&f);
                fs.clunk(&f);
                r?;
                Rmsg::Remove {}
            }
            Tmsg::Lopen { fid, flags } => {
                let (qid, iounit) = fs.lopen(&*self.fid(fid)?, flags)?;
                Rmsg::Lopen { qid, iounit }
            }
            Tmsg::Lcreate {
                fid,
                name,
                flags,
                mode,
                gid,
            } => {
                let (qid, iounit) = fs.lcreate(&*self.fid(fid)?, &name, flags, mode, gid)?;
                Rmsg::Lcreate { qid, iounit }
            }
            Tmsg::Read { fid, offset, count } => {
                let data = fs.read(&*self.fid(fid)?, offset, self.max_data(count))?;
                Rmsg::Read { data: Data(data) }
            }
            Tmsg::Write { fid, offset, data } => Rmsg::Write {
                count: fs.write(&*self.fid(fid)?, offset, &data.0)?,
            },
            Tmsg::Readdir { fid, offset, count } => {
                let data = fs.readdir(&*self.fid(fid)?, offset, self.max_data(count))?;
                Rmsg::Readdir { data: Data(data) }
            }
            Tmsg::Xattrwalk { fid, newfid, name } => {
                self.new_fid_free(newfid)?;
                let (size, xfid) = fs.xattrwalk(&*self.fid(fid)?, &name)?;
                self.add_fid(newfid, xfid)?;
                Rmsg::Xattrwalk { size }
            }
            msg => self.handle_metadata(msg)?,
        })
    }

    /// The requests that name files and directories but move no file data.
    fn handle_metadata(&self, msg: Tmsg) -> Result<Rmsg, Errno> {
        let fs = &*self.fs;
        Ok(match msg {
            Tmsg::Getattr { fid, mask } => Rmsg::Getattr {
                attr: fs.getattr(&*self.fid(fid)?, mask)?,
            },
            Tmsg::Setattr { fid, attr } => {
                fs.setattr(&*self.fid(fid)?, &attr)?;
                Rmsg::Setattr {}
            }
            Tmsg::Statfs { fid } => Rmsg::Statfs {
                statfs: fs.statfs(&*self.fid(fid)?)?,
            },
            Tmsg::Readlink { fid } => Rmsg::Readlink {
                target: fs.readlink(&*self.fid(fid)?)?,
            },
            Tmsg::Symlink {
                fid,
                name,
                target,
                gid,
            } => Rmsg::Symlink {
                qid: fs.symlink(&*self.fid(fid)?, &name, &target, gid)?,
            },
            Tmsg::Mknod {
                dfid,
                name,
                mode,
                major,
                minor,
                gid,
            } => Rmsg::Mknod {
                qid: fs.mknod(&*self.fid(dfid)?, &name, mode, (major, minor), gid)?,
            },
            Tmsg::Mkdir {
                dfid,
                name,
                mode,
                gid,
            } => Rmsg::Mkdir {
                qid: fs.mkdir(&*self.fid(dfid)?, &name, mode, gid)?,
            },
            Tmsg::Rename { fid, dfid, name } => {
                fs.rename(&*self.fid(fid)?, &*self.fid(dfid)?, &name)?;
                Rmsg::Rename {}
            }
            Tmsg::Renameat {
                olddirfid,
                oldname,
                newdirfid,
                newname,
            } => {
                let (old, new) = (self.fid(olddirfid)?, self.fid(newdirfid)?);
                fs.renameat(&old, &oldname, &new, &newname)?;
                Rmsg::Renameat {}
            }
            Tmsg::Unlinkat {
                dirfid,
                name,
                flags,
            } => {
                fs.unlinkat(&*self.fid(dirfid)?, &name, flags)?;
                Rmsg::Unlinkat {}
            }
            Tmsg::Link { dfid, fid, name } => {
                fs.link(&*self.fid(dfid)?, &*self.fid(fid)?, &name)?;
                Rmsg::Link {}
            }
            Tmsg::Fsync { fid, datasync } => {
                fs.fsync(&*self.fid(fid)?, datasync != 0)?;
                Rmsg::Fsync {}
            }
            Tmsg::Lock { fid, lock } => Rmsg::Lock {
                status: fs.lock(&*self.fid(fid)?, &lock)?,
            },
            Tmsg::Getlock { fid, lock } => Rmsg::Getlock {
                lock: fs.getlock(&*self.fid(fid)?, &lock)?,
            },
            Tmsg::Xattrcreate {
                fid,
                name,
                size,
                flags,
            } => {
                fs.xattrcreate(&*self.fid(fid)?, &name, size, flags)?;
                Rmsg::Xattrcreate {}
            }
            // Version and flush are answered by the reader; the rest by `handle`.
            _ => return Err(Errno::EPROTO),
        })
    }

    fn walk(&self, fid: u32, newfid: u32, names: &[Vec<u8>]) -> Result<Rmsg, Errno> {
        let from = self.fid(fid)?;
        if newfid != fid {
            self.new_fid_free(newfid)?;
        }
        let (qids, reached) = self.fs.walk(&from, names)?;
        if let Some(f) = reached.filter(|_| qids.len() == names.len()) {
            let mut fids = lock(&self.fids);
            if newfid != fid && fids.contains_key(&newfid) {
                return Err(Errno::EBADF);
            }
            if let Some(old) = fids.insert(newfid, Arc::new(f)) {
                self.fs.clunk(&old);
            }
        }
        Ok(Rmsg::Walk { qids })
    }
}

/// Writes `head` then `tail`, in as few system calls as the stream takes.
fn write_all_vectored(w: &mut impl Write, head: &[u8], tail: &[u8]) -> std::io::Result<()> {
    let mut done = 0;
    let total = head.len() + tail.len();
    while done < total {
        let n = if done < head.len() {
            let bufs = [IoSlice::new(&head[done..]), IoSlice::new(tail)];
            w.write_vectored(&bufs)
        } else {
            w.write(&tail[done - head.len()..])
        };
        match n {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Serves one connection on the calling thread (a convenience for tests and tools).
pub fn serve_one<F: Filesystem>(fs: F, stream: Stream) {
    Server::new(fs).serve_connection(stream);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;
    use std::sync::mpsc::{Sender, channel};
    use std::time::Duration;

    /// A one-file tree whose reads wait for a signal.
    struct Slow {
        gate: Mutex<Receiver<()>>,
    }

    impl Filesystem for Slow {
        type Fid = ();
        fn attach(&self, _: &[u8], _: &[u8], _: u32) -> FsResult<((), Qid)> {
            Ok(((), Qid::default()))
        }
        fn walk(&self, _: &(), names: &[Vec<u8>]) -> FsResult<(Vec<Qid>, Option<()>)> {
            match names.is_empty() {
                true => Ok((Vec::new(), Some(()))),
                false => Err(Errno::ENOENT),
            }
        }
        fn getattr(&self, _: &(), _: u64) -> FsResult<Attr> {
            Ok(Attr {
                size: 4,
                ..Attr::default()
            })
        }
        fn read(&self, _: &(), _: u64, _: u32) -> FsResult<Vec<u8>> {
            let _ = lock(&self.gate).recv_timeout(Duration::from_secs(20));
            Ok(b"slow".to_vec())
        }
    }

    fn start() -> (UnixStream, Sender<()>) {
        let (tx, rx) = channel();
        let (ours, theirs) = UnixStream::pair().unwrap();
        let server = Server::new(Slow {
            gate: Mutex::new(rx),
        });
        thread::spawn(move || server.serve_connection(Stream::Unix(theirs)));
        ours.set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        (ours, tx)
    }

    fn call(s: &mut UnixStream, tag: u16, m: Tmsg) -> (u16, Rmsg) {
        s.write_all(&m.encode(tag)).unwrap();
        reply(s)
    }

    fn reply(s: &mut UnixStream) -> (u16, Rmsg) {
        let f = read_frame(s, 1 << 20).unwrap().unwrap();
        Rmsg::decode(&f, 1 << 20).unwrap()
    }

    fn session(s: &mut UnixStream) {
        let v = Tmsg::Version {
            msize: 8192,
            version: "9P2000.L".into(),
        };
        assert!(matches!(
            call(s, 0xFFFF, v),
            (0xFFFF, Rmsg::Version { msize: 8192, .. })
        ));
        let a = Tmsg::Attach {
            fid: 0,
            afid: !0,
            uname: vec![],
            aname: vec![],
            n_uname: 0,
        };
        assert!(matches!(call(s, 1, a), (1, Rmsg::Attach { .. })));
    }

    #[test]
    fn a_slow_request_does_not_hold_others_and_flush_follows_its_reply() {
        let (mut s, gate) = start();
        session(&mut s);
        s.write_all(
            &Tmsg::Read {
                fid: 0,
                offset: 0,
                count: 10,
            }
            .encode(1),
        )
        .unwrap();
        s.write_all(&Tmsg::Flush { oldtag: 1 }.encode(2)).unwrap();
        // Answered while the read waits.
        let got = call(
            &mut s,
            3,
            Tmsg::Getattr {
                fid: 0,
                mask: msg::GETATTR_ALL,
            },
        );
        assert!(matches!(got, (3, Rmsg::Getattr { .. })), "{got:?}");
        // A flush of a tag not in flight: at once.
        assert_eq!(
            call(&mut s, 4, Tmsg::Flush { oldtag: 77 }),
            (4, Rmsg::Flush {})
        );
        gate.send(()).unwrap();
        assert_eq!(
            reply(&mut s),
            (
                1,
                Rmsg::Read {
                    data: Data(b"slow".to_vec())
                }
            )
        );
        assert_eq!(reply(&mut s), (2, Rmsg::Flush {}));
    }

    #[test]
    fn fids_are_checked_and_version_starts_a_new_session() {
        let (mut s, _gate) = start();
        session(&mut s);
        let again = Tmsg::Attach {
            fid: 0,
            afid: !0,
            uname: vec![],
            aname: vec![],
            n_uname: 0,
        };
        assert_eq!(
            call(&mut s, 2, again),
            (
                2,
                Rmsg::Lerror {
                    ecode: Errno::EBADF.0
                }
            )
        );
        let walk = Tmsg::Walk {
            fid: 0,
            newfid: 5,
            names: vec![],
        };
        assert_eq!(call(&mut s, 3, walk), (3, Rmsg::Walk { qids: vec![] }));
        // Operations the tree does not implement.
        let mkdir = Tmsg::Mkdir {
            dfid: 5,
            name: b"d".to_vec(),
            mode: 0o755,
            gid: 0,
        };
        assert_eq!(
            call(&mut s, 4, mkdir),
            (
                4,
                Rmsg::Lerror {
                    ecode: Errno::EOPNOTSUPP.0
                }
            )
        );
        assert_eq!(call(&mut s, 5, Tmsg::Clunk { fid: 5 }), (5, Rmsg::Clunk {}));
        assert_eq!(
            call(&mut s, 6, Tmsg::Clunk { fid: 5 }),
            (
                6,
                Rmsg::Lerror {
                    ecode: Errno::EBADF.0
                }
            )
        );
        let auth = Tmsg::Auth {
            afid: 9,
            uname: vec![],
            aname: vec![],
            n_uname: 0,
        };
        assert_eq!(
            call(&mut s, 7, auth),
            (
                7,
                Rmsg::Lerror {
                    ecode: Errno::ENOENT.0
                }
            )
        );
        // A new version forgets every fid; an unknown version is answered `unknown`.
        let v = Tmsg::Version {
            msize: 4096,
            version: "9P2000.L".into(),
        };
        assert!(matches!(
            call(&mut s, 0xFFFF, v),
            (_, Rmsg::Version { msize: 4096, .. })
        ));
        let g = Tmsg::Getattr { fid: 0, mask: 1 };
        assert_eq!(
            call(&mut s, 8, g),
            (
                8,
                Rmsg::Lerror {
                    ecode: Errno::EBADF.0
                }
            )
        );
        let v = Tmsg::Version {
            msize: 4096,
            version: "9P2000".into(),
        };
        let (_, r) = call(&mut s, 0xFFFF, v);
        assert!(
            matches!(r, Rmsg::Version { ref version, .. } if version == "unknown"),
            "{r:?}"
        );
    }

    #[test]
    fn stats_count_requests_and_replies() {
        let stats = Stats::default();
        stats.record(110, 20);
        stats.record(110, 30);
        stats.record(7, 11);
        let lines = stats.snapshot();
        assert_eq!(
            lines[0],
            StatLine {
                name: "Rmsg::Lerror",
                count: 1,
                bytes: 11
            }
        );
        assert_eq!(
            lines[1],
            StatLine {
                name: "Tmsg::Walk",
                count: 2,
                bytes: 50
            }
        );
        let report = stats.report();
        assert!(
            report.contains("Twalk") && report.contains("Rlerror"),
            "{report}"
        );
    }
}
