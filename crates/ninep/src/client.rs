//! Owns the blocking 9P2000.L client: version negotiation, attach, fid allocation and
//! recycling, and one method per operation (reads and writes split to `msize`, walks split
//! to 16 names).
//!
//! Thread safety: any number of threads may call at once. Each request takes a free tag and
//! registers a waiter. There is no reader thread: a waiting caller that finds nobody reading
//! the connection reads it itself (the *leader*), handing each reply to the waiter of its tag
//! until its own comes, then wakes another waiter to lead; the others wait for their reply
//! or their turn. A lone caller thus reads its own reply, with no thread switch in between
//! (which was most of an uncached read's time), and a slow request does not hold others up.
//! When the connection fails (the server closes it or dies, or sends a frame that does not
//! decode) every pending and every later call returns [`Error::Disconnected`]; dropping the
//! last [`Client`] shuts the socket down.

use std::collections::HashMap;
use std::fmt;
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::addr::{Addr, AddrError, Stream};
use crate::errno::Errno;
use crate::lock;
use crate::msg::{self, Attr, Dirent, Flock, Getlock, Qid, Rmsg, SetAttr, Statfs, Tmsg};
use crate::wire::{
    Data, HEADER, MAXWELEM, NOFID, NOTAG, ReadError, WireError, check_size, read_frame,
};

/// How long a request waits for its reply unless told otherwise: a server that accepts but
/// never answers must not hold a program for ever, and no 9P2000.L request to a file server
/// should take this long. Requests that wait for the network by design (see
/// [`Client::patient`]) have no limit.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The `msize` a client asks for unless told otherwise.
pub const DEFAULT_MSIZE: u32 = 1 << 20;
/// Bytes kept for `Twrite`'s header before its data (`size type tag fid offset count` is 23;
/// 24 is the protocol's customary `P9_IOHDRSZ`, which servers such as diod enforce).
const IOHDRSZ: u32 = 24;
/// Bytes of `Rread`/`Rreaddir`'s header before the data.
const RHDRSZ: u32 = 4 + 1 + 2 + 4;
/// The smallest `msize` that fits a 13-byte qid walk reply and some data.
const MIN_MSIZE: u32 = 512;

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The server answered `Rlerror`.
    Remote(Errno),
    /// The connection is gone (closed, reset, or a reply did not decode); the text says why.
    Disconnected(String),
    /// The server broke the protocol in a reply (more data than asked, undecodable entries).
    Protocol(String),
    /// The server answered with the wrong message type.
    Unexpected {
        sent: &'static str,
        got: &'static str,
    },
    /// Version negotiation failed.
    Version(String),
    /// A request that cannot be encoded (a name over 65535 bytes, ...).
    Invalid(&'static str),
    /// The address does not parse.
    Addr(AddrError),
    /// Connecting failed.
    Connect(String),
    /// The caller's cancellation check (see [`Client::set_cancel`]) ended the wait; the
    /// request was flushed.
    Cancelled,
    /// No reply came within the client's timeout (see [`Client::connect_timeout`]); the
    /// connection is given up.
    TimedOut(Duration),
}

impl Error {
    /// The errno of an `Rlerror`, if that is what this is.
    pub fn errno(&self) -> Option<Errno> {
        match self {
            Error::Remote(e) => Some(*e),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Remote(e) => write!(f, "9P server: {e}"),
            Error::Disconnected(why) => write!(f, "9P connection lost: {why}"),
            Error::Protocol(what) => write!(f, "9P protocol error: {what}"),
            Error::Unexpected { sent, got } => write!(f, "9P server answered {sent} with {got}"),
            Error::Version(v) => write!(f, "9P version negotiation failed: {v}"),
            Error::Invalid(what) => write!(f, "invalid 9P request: {what}"),
            Error::Addr(e) => write!(f, "{e}"),
            Error::Connect(e) => write!(f, "cannot connect to the 9P server: {e}"),
            Error::Cancelled => f.write_str("9P request cancelled"),
            Error::TimedOut(t) => write!(f, "9P server gave no reply in {} s", t.as_secs_f64()),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// A fid of this client's connection (a number; [`Client::clunk`] releases it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fid(pub u32);

/// What wakes a waiting caller.
enum Wake {
    /// Its reply (or the connection's failure).
    Reply(Result<Rmsg>),
    /// The leader left: read the connection if nobody else does.
    Lead,
}

type Waiter = Sender<Wake>;

/// Tags in flight and the connection's fate.
#[derive(Default)]
struct Pending {
    waiters: HashMap<u16, Waiter>,
    next_tag: u16,
    /// Set once the connection failed: why.
    dead: Option<String>,
}

/// Fid numbers: the next never used, and those released.
#[derive(Default)]
struct FidPool {
    next: u32,
    free: Vec<u32>,
}

struct Inner {
    writer: Mutex<Stream>,
    /// Another handle of the socket, to shut it down without waiting for a writer.
    control: Stream,
    /// The socket's reading side, held by the leader (see the module doc).
    reader: Mutex<std::io::BufReader<Stream>>,
    pending: Mutex<Pending>,
    fids: Mutex<FidPool>,
    msize: u32,
    /// Asked, while a request waits, every [`CANCEL_POLL`]: whether to give up on it.
    cancel: std::sync::OnceLock<fn() -> bool>,
    /// How long a request waits for its reply (`None`: for ever).
    timeout: Option<Duration>,
}

/// How often a waiting request asks the cancellation check.
const CANCEL_POLL: std::time::Duration = std::time::Duration::from_millis(100);

impl Drop for Inner {
    fn drop(&mut self) {
        self.control.shutdown();
    }
}

/// A connection to a 9P2000.L server. Cloning shares the connection.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    /// Whether this handle's requests wait at most the connection's timeout.
    bounded: bool,
}

impl Client {
    /// Connects to `unix:PATH` or `tcp:HOST:PORT` and negotiates the version, with the
    /// [`DEFAULT_TIMEOUT`].
    pub fn connect(addr: &str, msize: u32) -> Result<Client> {
        Client::connect_timeout(addr, msize, Some(DEFAULT_TIMEOUT))
    }

    /// Connects as [`Client::connect`]; every request (the version negotiation included)
    /// waits at most `timeout` for its reply, after which the connection is given up and
    /// every call fails.
    pub fn connect_timeout(addr: &str, msize: u32, timeout: Option<Duration>) -> Result<Client> {
        let addr = Addr::parse(addr).map_err(Error::Addr)?;
        let stream = addr.connect().map_err(|e| Error::Connect(e.to_string()))?;
        Client::over_timeout(stream, msize, timeout)
    }

    /// Negotiates the version over a connected stream and starts the reader thread.
    pub fn over(stream: Stream, msize: u32) -> Result<Client> {
        Client::over_timeout(stream, msize, Some(DEFAULT_TIMEOUT))
    }

    /// [`Client::over`] with `timeout` (see [`Client::connect_timeout`]).
    pub fn over_timeout(
        mut stream: Stream,
        msize: u32,
        timeout: Option<Duration>,
    ) -> Result<Client> {
        let timeout = timeout.filter(|t| !t.is_zero());
        stream
            .set_read_timeout(timeout)
            .map_err(|e| Error::Connect(e.to_string()))?;
        let msize = negotiate(&mut stream, msize.max(MIN_MSIZE))?;
        stream
            .set_read_timeout(None)
            .map_err(|e| Error::Connect(e.to_string()))?;
        let clone = || {
            stream
                .try_clone()
                .map_err(|e| Error::Connect(e.to_string()))
        };
        let (reader, control) = (clone()?, clone()?);
        let inner = Arc::new(Inner {
            writer: Mutex::new(stream),
            control,
            reader: Mutex::new(std::io::BufReader::with_capacity(REPLY_BUFFER, reader)),
            pending: Mutex::new(Pending::default()),
            fids: Mutex::new(FidPool::default()),
            msize,
            cancel: std::sync::OnceLock::new(),
            timeout,
        });
        Ok(Client {
            inner,
            bounded: true,
        })
    }

    /// A handle of the same connection whose requests wait for their replies without a
    /// time limit (still cancellable): for requests that wait for the network by design, a
    /// read of a `/net` data file, opening `listen`, a `connect`.
    pub fn patient(&self) -> Client {
        Client {
            inner: self.inner.clone(),
            bounded: false,
        }
    }

    /// The negotiated `msize`.
    pub fn msize(&self) -> u32 {
        self.inner.msize
    }

    /// The most data one `Tread`/`Twrite` carries.
    pub fn max_io(&self) -> u32 {
        self.inner.msize - IOHDRSZ
    }

    /// Sets the check a waiting request asks every 100 ms (once; later calls change nothing):
    /// when it answers true, the request is flushed (`Tflush`) and fails with
    /// [`Error::Cancelled`]. Without one, a request waits for its reply or the connection's end.
    pub fn set_cancel(&self, check: fn() -> bool) {
        let _ = self.inner.cancel.set(check);
    }

    /// Sends one request and waits for its reply (an `Rlerror` becomes [`Error::Remote`]).
    pub fn rpc(&self, msg: &Tmsg) -> Result<Rmsg> {
        let start = logging().then(Instant::now);
        let (tag, rx) = self.send(msg)?;
        let reply = self.wait(tag, &rx);
        if let Some(start) = start {
            log_exchange(msg, tag, &reply, start.elapsed());
        }
        match reply? {
            Rmsg::Lerror { ecode } => Err(Error::Remote(Errno(ecode))),
            r => Ok(r),
        }
    }

    /// The reply to request `tag`, unless the cancellation check gives up first or the
    /// timeout passes (which gives the connection up). Reads the connection itself when
    /// nobody else does (see the module doc).
    fn wait(&self, tag: u16, rx: &Receiver<Wake>) -> Result<Rmsg> {
        use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
        let cancelled = self.inner.cancel.get().copied();
        let limit = self.inner.timeout.filter(|_| self.bounded);
        let deadline = limit.map(|t| Instant::now() + t);
        let checks = cancelled.is_some() || deadline.is_some();
        loop {
            let poll = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()).min(CANCEL_POLL),
                None => CANCEL_POLL,
            };
            match rx.try_recv() {
                Ok(Wake::Reply(r)) => return r,
                Ok(Wake::Lead) | Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => return Err(reader_ended()),
            }
            if let Some(mut reader) = try_lock(&self.inner.reader) {
                let got = self.lead(&mut reader, rx, checks.then_some(poll));
                drop(reader);
                self.pass_lead(tag);
                if let Some(r) = got {
                    return r;
                }
            } else {
                // Bounded even without checks: a waiter that was told to lead and gave up
                // (cancelled) leaves the others to notice within a poll.
                match rx.recv_timeout(poll) {
                    Ok(Wake::Reply(r)) => return r,
                    Ok(Wake::Lead) => continue,
                    Err(RecvTimeoutError::Disconnected) => return Err(reader_ended()),
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            if cancelled.is_some_and(|c| c()) {
                self.unregister(tag);
                // The flush's own reply goes to a waiter nobody waits on.
                let _ = self.send(&Tmsg::Flush { oldtag: tag });
                return Err(Error::Cancelled);
            }
            if let (Some(d), Some(t)) = (deadline, limit)
                && Instant::now() >= d
            {
                self.unregister(tag);
                self.fail(&Error::TimedOut(t).to_string());
                return Err(Error::TimedOut(t));
            }
        }
    }

    /// As the leader: reads replies and hands each to its waiter until this caller's own
    /// comes (returned) or `poll` passes (`None` returned, for the caller's checks).
    fn lead(
        &self,
        reader: &mut std::io::BufReader<Stream>,
        rx: &Receiver<Wake>,
        poll: Option<Duration>,
    ) -> Option<Result<Rmsg>> {
        let until = poll.map(|p| Instant::now() + p);
        loop {
            if reader.buffer().is_empty() {
                let left = until.map(|u| u.saturating_duration_since(Instant::now()));
                match crate::sys::wait_readable(reader.get_ref().as_fd(), left) {
                    Ok(true) => {}
                    Ok(false) => return None,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => fail_all(&self.inner, &e.to_string()),
                }
            }
            if lock(&self.inner.pending).dead.is_none() {
                match read_reply(reader, self.inner.msize) {
                    Ok(Some(Ok((tag, reply)))) => deliver(&self.inner, tag, reply),
                    Ok(Some(Err(why))) => fail_all(&self.inner, &why),
                    Ok(None) => fail_all(&self.inner, "server closed the connection"),
                    Err(ReadError::Io(e)) => fail_all(&self.inner, &e.to_string()),
                    Err(ReadError::Wire(e)) => fail_all(&self.inner, &e.to_string()),
                }
            }
            match rx.try_recv() {
                Ok(Wake::Reply(r)) => return Some(r),
                Ok(Wake::Lead) => {}
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    return Some(Err(reader_ended()));
                }
            }
            if lock(&self.inner.pending).dead.is_some() {
                return Some(Err(Error::Disconnected(dead_reason(&self.inner))));
            }
            if until.is_some_and(|u| Instant::now() >= u) {
                return None;
            }
        }
    }

    /// After leading: wakes another waiter to read the connection.
    fn pass_lead(&self, tag: u16) {
        let p = lock(&self.inner.pending);
        if let Some((_, w)) = p.waiters.iter().find(|(t, _)| **t != tag) {
            let _ = w.send(Wake::Lead);
        }
    }

    /// Registers a waiter under a free tag and writes the request.
    fn send(&self, msg: &Tmsg) -> Result<(u16, Receiver<Wake>)> {
        let (tx, rx) = channel();
        let tag = self.register(tx)?;
        let frame = msg.encode(tag);
        if frame.len() > self.inner.msize as usize {
            self.unregister(tag);
            return Err(Error::Invalid("request larger than msize"));
        }
        let written = lock(&self.inner.writer).write_all(&frame);
        if let Err(e) = written {
            self.fail(&format!("write: {e}"));
        }
        Ok((tag, rx))
    }

    fn register(&self, tx: Waiter) -> Result<u16> {
        let mut p = lock(&self.inner.pending);
        if let Some(why) = &p.dead {
            return Err(Error::Disconnected(why.clone()));
        }
        loop {
            let tag = p.next_tag;
            p.next_tag = p.next_tag.wrapping_add(1);
            if tag != NOTAG && !p.waiters.contains_key(&tag) {
                p.waiters.insert(tag, tx);
                return Ok(tag);
            }
        }
    }

    fn unregister(&self, tag: u16) {
        lock(&self.inner.pending).waiters.remove(&tag);
    }

    /// Marks the connection dead and fails every waiter.
    fn fail(&self, why: &str) {
        fail_all(&self.inner, why);
    }

    fn alloc_fid(&self) -> Fid {
        let mut pool = lock(&self.inner.fids);
        if let Some(f) = pool.free.pop() {
            return Fid(f);
        }
        let f = pool.next;
        pool.next += 1;
        Fid(f)
    }

    fn release_fid(&self, fid: Fid) {
        lock(&self.inner.fids).free.push(fid.0);
    }

    /// Runs a request that makes `fid` live; on failure the number is released.
    fn with_new_fid<T>(&self, f: impl FnOnce(Fid) -> Result<T>) -> Result<(Fid, T)> {
        let fid = self.alloc_fid();
        match f(fid) {
            Ok(v) => Ok((fid, v)),
            Err(e) => {
                self.release_fid(fid);
                Err(e)
            }
        }
    }

    /// Attaches to the server's tree named `aname` as `uname` (`n_uname` the numeric uid).
    pub fn attach(&self, uname: &str, aname: &str, n_uname: u32) -> Result<(Fid, Qid)> {
        self.with_new_fid(|fid| {
            let msg = Tmsg::Attach {
                fid: fid.0,
                afid: NOFID,
                uname: uname.as_bytes().to_vec(),
                aname: aname.as_bytes().to_vec(),
                n_uname,
            };
            match self.rpc(&msg)? {
                Rmsg::Attach { qid } => Ok(qid),
                r => Err(unexpected(&msg, &r)),
            }
        })
    }

    /// Walks from `fid` through `names` to a new fid (any number of names: more than 16 are
    /// walked in steps). A name that does not exist is `ENOENT`.
    pub fn walk<S: AsRef<[u8]>>(&self, fid: Fid, names: &[S]) -> Result<(Fid, Vec<Qid>)> {
        let names: Vec<Vec<u8>> = names.iter().map(|n| n.as_ref().to_vec()).collect();
        self.with_new_fid(|newfid| self.walk_into(fid, newfid, &names))
    }

    /// Walks a `/`-separated relative path (empty components skipped).
    pub fn walk_path(&self, fid: Fid, path: &str) -> Result<(Fid, Vec<Qid>)> {
        let names: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        self.walk(fid, &names)
    }

    /// A new fid for the same file as `fid`.
    pub fn clone_fid(&self, fid: Fid) -> Result<Fid> {
        self.walk::<&str>(fid, &[]).map(|(f, _)| f)
    }

    fn walk_into(&self, fid: Fid, newfid: Fid, names: &[Vec<u8>]) -> Result<Vec<Qid>> {
        let mut qids = Vec::with_capacity(names.len());
        let mut chunks = names.chunks(MAXWELEM);
        let first = chunks.next().unwrap_or(&[]);
        qids.extend(self.walk_once(fid, newfid, first)?);
        for chunk in chunks {
            match self.walk_once(newfid, newfid, chunk) {
                Ok(q) => qids.extend(q),
                Err(e) => {
                    let _ = self.rpc(&Tmsg::Clunk { fid: newfid.0 });
                    return Err(e);
                }
            }
        }
        Ok(qids)
    }

    /// One `Twalk` of at most 16 names; a partial walk is `ENOENT` (and creates no fid).
    fn walk_once(&self, fid: Fid, newfid: Fid, names: &[Vec<u8>]) -> Result<Vec<Qid>> {
        let msg = Tmsg::Walk {
            fid: fid.0,
            newfid: newfid.0,
            names: names.to_vec(),
        };
        match self.rpc(&msg)? {
            Rmsg::Walk { qids } if qids.len() == names.len() => Ok(qids),
            Rmsg::Walk { .. } => Err(Error::Remote(Errno::ENOENT)),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Releases `fid` (its number is reused even when the server answers an error).
    pub fn clunk(&self, fid: Fid) -> Result<()> {
        let r = self.rpc(&Tmsg::Clunk { fid: fid.0 });
        self.release_fid(fid);
        expect(r, |r| matches!(r, Rmsg::Clunk {}), "Tclunk")
    }

    /// Removes the file of `fid` and releases `fid`.
    pub fn remove(&self, fid: Fid) -> Result<()> {
        let r = self.rpc(&Tmsg::Remove { fid: fid.0 });
        self.release_fid(fid);
        expect(r, |r| matches!(r, Rmsg::Remove {}), "Tremove")
    }

    /// Opens `fid` with Linux open flags; returns the qid and the server's iounit.
    pub fn lopen(&self, fid: Fid, flags: u32) -> Result<(Qid, u32)> {
        let msg = Tmsg::Lopen { fid: fid.0, flags };
        match self.rpc(&msg)? {
            Rmsg::Lopen { qid, iounit } => Ok((qid, iounit)),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Creates `name` in the directory of `fid` and opens it; `fid` becomes the new file.
    pub fn lcreate(
        &self,
        fid: Fid,
        name: &str,
        flags: u32,
        mode: u32,
        gid: u32,
    ) -> Result<(Qid, u32)> {
        let msg = Tmsg::Lcreate {
            fid: fid.0,
            name: name.as_bytes().to_vec(),
            flags,
            mode,
            gid,
        };
        match self.rpc(&msg)? {
            Rmsg::Lcreate { qid, iounit } => Ok((qid, iounit)),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// One `Tread` of at most [`Client::max_io`] bytes.
    pub fn read_once(&self, fid: Fid, offset: u64, count: u32) -> Result<Vec<u8>> {
        let msg = Tmsg::Read {
            fid: fid.0,
            offset,
            count: count.min(self.inner.msize - RHDRSZ),
        };
        match self.rpc(&msg)? {
            Rmsg::Read { data } if data.0.len() <= count as usize => Ok(data.0),
            Rmsg::Read { .. } => Err(Error::Protocol("Rread longer than asked".into())),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Reads up to `count` bytes from `offset`, in as many `Tread`s as needed; fewer bytes
    /// only at end of file.
    pub fn read(&self, fid: Fid, offset: u64, count: usize) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        while out.len() < count {
            let want = (count - out.len()).min(self.max_io() as usize) as u32;
            let chunk = self.read_once(fid, offset + out.len() as u64, want)?;
            if chunk.is_empty() {
                break;
            }
            if out.is_empty() {
                out = chunk;
            } else {
                out.extend_from_slice(&chunk);
            }
        }
        Ok(out)
    }

    /// Reads from `offset` to the end of the file.
    pub fn read_to_end(&self, fid: Fid, offset: u64) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let chunk = self.read_once(fid, offset + out.len() as u64, self.max_io())?;
            if chunk.is_empty() {
                return Ok(out);
            }
            out.extend_from_slice(&chunk);
        }
    }

    /// One `Twrite`; returns the count the server wrote.
    pub fn write_once(&self, fid: Fid, offset: u64, data: &[u8]) -> Result<u32> {
        let n = data.len().min(self.max_io() as usize);
        let msg = Tmsg::Write {
            fid: fid.0,
            offset,
            data: Data(data[..n].to_vec()),
        };
        match self.rpc(&msg)? {
            Rmsg::Write { count } if count as usize <= n => Ok(count),
            Rmsg::Write { .. } => Err(Error::Protocol("Rwrite count beyond the data".into())),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Writes all of `data` at `offset` in as many `Twrite`s as needed.
    pub fn write(&self, fid: Fid, offset: u64, data: &[u8]) -> Result<u64> {
        let mut done = 0usize;
        while done < data.len() {
            let n = self.write_once(fid, offset + done as u64, &data[done..])?;
            if n == 0 {
                return Err(Error::Remote(Errno::EIO));
            }
            done += n as usize;
        }
        Ok(done as u64)
    }

    pub fn getattr(&self, fid: Fid, mask: u64) -> Result<Attr> {
        let msg = Tmsg::Getattr { fid: fid.0, mask };
        match self.rpc(&msg)? {
            Rmsg::Getattr { attr } => Ok(attr),
            r => Err(unexpected(&msg, &r)),
        }
    }

    pub fn setattr(&self, fid: Fid, attr: SetAttr) -> Result<()> {
        let r = self.rpc(&Tmsg::Setattr { fid: fid.0, attr });
        expect(r, |r| matches!(r, Rmsg::Setattr {}), "Tsetattr")
    }

    /// One `Treaddir` from `offset` (a previous entry's `offset`, or 0).
    pub fn readdir(&self, fid: Fid, offset: u64, count: u32) -> Result<Vec<Dirent>> {
        let count = count.min(self.inner.msize - RHDRSZ);
        let msg = Tmsg::Readdir {
            fid: fid.0,
            offset,
            count,
        };
        match self.rpc(&msg)? {
            Rmsg::Readdir { data } if data.0.len() <= count as usize => {
                Dirent::decode_all(&data.0).map_err(|e| Error::Protocol(format!("Rreaddir: {e}")))
            }
            Rmsg::Readdir { .. } => Err(Error::Protocol("Rreaddir longer than asked".into())),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Every entry of the opened directory `fid`.
    pub fn readdir_all(&self, fid: Fid) -> Result<Vec<Dirent>> {
        let mut out: Vec<Dirent> = Vec::new();
        let mut offset = 0;
        loop {
            let batch = self.readdir(fid, offset, self.max_io())?;
            let Some(last) = batch.last() else {
                return Ok(out);
            };
            offset = last.offset;
            out.extend(batch);
        }
    }

    pub fn mkdir(&self, dfid: Fid, name: &str, mode: u32, gid: u32) -> Result<Qid> {
        let msg = Tmsg::Mkdir {
            dfid: dfid.0,
            name: name.as_bytes().to_vec(),
            mode,
            gid,
        };
        match self.rpc(&msg)? {
            Rmsg::Mkdir { qid } => Ok(qid),
            r => Err(unexpected(&msg, &r)),
        }
    }

    pub fn mknod(
        &self,
        dfid: Fid,
        name: &str,
        mode: u32,
        dev: (u32, u32),
        gid: u32,
    ) -> Result<Qid> {
        let msg = Tmsg::Mknod {
            dfid: dfid.0,
            name: name.as_bytes().to_vec(),
            mode,
            major: dev.0,
            minor: dev.1,
            gid,
        };
        match self.rpc(&msg)? {
            Rmsg::Mknod { qid } => Ok(qid),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Removes `name` from directory `dfid` (`flags` [`msg::AT_REMOVEDIR`] for a directory).
    /// A server without `Tunlinkat` (diod answers `EOPNOTSUPP`) gets `Twalk` + `Tremove`, as
    /// the Linux client falls back.
    pub fn unlinkat(&self, dfid: Fid, name: &str, flags: u32) -> Result<()> {
        let msg = Tmsg::Unlinkat {
            dirfid: dfid.0,
            name: name.as_bytes().to_vec(),
            flags,
        };
        match self.rpc(&msg) {
            Err(Error::Remote(Errno::EOPNOTSUPP)) => {
                let (f, _) = self.walk(dfid, &[name])?;
                self.remove(f)
            }
            r => expect(r, |r| matches!(r, Rmsg::Unlinkat {}), "Tunlinkat"),
        }
    }

    /// Renames `oldname` in `olddir` to `newname` in `newdir`; a server without
    /// `Trenameat` gets `Twalk` + `Trename`.
    pub fn renameat(&self, olddir: Fid, oldname: &str, newdir: Fid, newname: &str) -> Result<()> {
        let msg = Tmsg::Renameat {
            olddirfid: olddir.0,
            oldname: oldname.as_bytes().to_vec(),
            newdirfid: newdir.0,
            newname: newname.as_bytes().to_vec(),
        };
        match self.rpc(&msg) {
            Err(Error::Remote(Errno::EOPNOTSUPP)) => {
                let (f, _) = self.walk(olddir, &[oldname])?;
                let r = self.rename(f, newdir, newname);
                let _ = self.clunk(f);
                r
            }
            r => expect(r, |r| matches!(r, Rmsg::Renameat {}), "Trenameat"),
        }
    }

    /// Renames the file of `fid` to `name` in directory `dfid`.
    pub fn rename(&self, fid: Fid, dfid: Fid, name: &str) -> Result<()> {
        let msg = Tmsg::Rename {
            fid: fid.0,
            dfid: dfid.0,
            name: name.as_bytes().to_vec(),
        };
        expect(self.rpc(&msg), |r| matches!(r, Rmsg::Rename {}), "Trename")
    }

    pub fn symlink(&self, dfid: Fid, name: &str, target: &str, gid: u32) -> Result<Qid> {
        let msg = Tmsg::Symlink {
            fid: dfid.0,
            name: name.as_bytes().to_vec(),
            target: target.as_bytes().to_vec(),
            gid,
        };
        match self.rpc(&msg)? {
            Rmsg::Symlink { qid } => Ok(qid),
            r => Err(unexpected(&msg, &r)),
        }
    }

    pub fn readlink(&self, fid: Fid) -> Result<Vec<u8>> {
        let msg = Tmsg::Readlink { fid: fid.0 };
        match self.rpc(&msg)? {
            Rmsg::Readlink { target } => Ok(target),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Makes `name` in directory `dfid` a hard link to the file of `fid`.
    pub fn link(&self, dfid: Fid, fid: Fid, name: &str) -> Result<()> {
        let msg = Tmsg::Link {
            dfid: dfid.0,
            fid: fid.0,
            name: name.as_bytes().to_vec(),
        };
        expect(self.rpc(&msg), |r| matches!(r, Rmsg::Link {}), "Tlink")
    }

    pub fn fsync(&self, fid: Fid, datasync: bool) -> Result<()> {
        let msg = Tmsg::Fsync {
            fid: fid.0,
            datasync: u32::from(datasync),
        };
        expect(self.rpc(&msg), |r| matches!(r, Rmsg::Fsync {}), "Tfsync")
    }

    pub fn statfs(&self, fid: Fid) -> Result<Statfs> {
        let msg = Tmsg::Statfs { fid: fid.0 };
        match self.rpc(&msg)? {
            Rmsg::Statfs { statfs } => Ok(statfs),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Takes or releases a POSIX byte-range lock; returns the `Rlock` status
    /// ([`msg::LOCK_SUCCESS`], [`msg::LOCK_BLOCKED`], ...).
    pub fn lock(&self, fid: Fid, lock: Flock) -> Result<u8> {
        let msg = Tmsg::Lock { fid: fid.0, lock };
        match self.rpc(&msg)? {
            Rmsg::Lock { status } => Ok(status),
            r => Err(unexpected(&msg, &r)),
        }
    }

    /// Tests for a conflicting lock (`lock_type` [`msg::LOCK_TYPE_UNLCK`] in the answer
    /// means none).
    pub fn getlock(&self, fid: Fid, lock: Getlock) -> Result<Getlock> {
        let msg = Tmsg::Getlock { fid: fid.0, lock };
        match self.rpc(&msg)? {
            Rmsg::Getlock { lock } => Ok(lock),
            r => Err(unexpected(&msg, &r)),
        }
    }
}

static LOG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes every client of the process print one line per request on stderr (`-Xlog:9p`):
/// the request's type, tag, fid and size, the reply's type and size, and the latency.
pub fn set_logging(on: bool) {
    LOG.store(on, std::sync::atomic::Ordering::Relaxed);
}

fn logging() -> bool {
    LOG.load(std::sync::atomic::Ordering::Relaxed)
}

/// One `-Xlog:9p` line.
fn log_exchange(msg: &Tmsg, tag: u16, reply: &Result<Rmsg>, took: Duration) {
    let fid = msg.fid().map_or_else(|| "-".to_string(), |f| f.to_string());
    let size = msg.encode(tag).len();
    let answer = match reply {
        Ok(r) => format!("{} size={}", msg::wire_name(r.name()), r.encode(tag).len()),
        Err(e) => format!("failed: {e}"),
    };
    let line = format!(
        "[9p] {} tag={tag} fid={fid} size={size} -> {answer} {:.3} ms\n",
        msg::wire_name(msg.name()),
        took.as_secs_f64() * 1000.0
    );
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// `Tversion`/`Rversion` on the bare stream, before the reader thread starts.
fn negotiate(stream: &mut Stream, msize: u32) -> Result<u32> {
    let msg = Tmsg::Version {
        msize,
        version: msg::VERSION.into(),
    };
    stream
        .write_all(&msg.encode(NOTAG))
        .map_err(|e| Error::Connect(e.to_string()))?;
    let frame = match read_frame(stream, msize) {
        Ok(Some(f)) => f,
        Ok(None) => return Err(Error::Version("server closed the connection".into())),
        Err(ReadError::Io(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            let waited = stream_timeout(stream);
            return Err(Error::TimedOut(waited));
        }
        Err(e) => return Err(Error::Version(e.to_string())),
    };
    match Rmsg::decode(&frame, msize) {
        Ok((_, Rmsg::Version { msize: m, version })) if version == msg::VERSION => {
            if (MIN_MSIZE..=msize).contains(&m) {
                Ok(m)
            } else {
                Err(Error::Version(format!("server msize {m}")))
            }
        }
        Ok((_, Rmsg::Version { version, .. })) => {
            Err(Error::Version(format!("server speaks {version}")))
        }
        Ok((_, r)) => Err(Error::Version(format!("answered with {}", r.name()))),
        Err(e) => Err(Error::Version(e.to_string())),
    }
}

/// The read timeout set on `stream`.
fn stream_timeout(stream: &Stream) -> Duration {
    let t = match stream {
        Stream::Unix(s) => s.read_timeout(),
        Stream::Tcp(s) => s.read_timeout(),
    };
    t.ok().flatten().unwrap_or_default()
}

/// The error of a wait whose waiter was dropped (the connection failed meanwhile).
fn reader_ended() -> Error {
    Error::Disconnected("reader ended".into())
}

/// Why the connection failed.
fn dead_reason(inner: &Inner) -> String {
    lock(&inner.pending).dead.clone().unwrap_or_default()
}

/// Takes `m` if it is free (past a poisoned lock).
fn try_lock<T>(m: &Mutex<T>) -> Option<std::sync::MutexGuard<'_, T>> {
    match m.try_lock() {
        Ok(g) => Some(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    }
}

/// A reply's tag and message, or why it does not decode.
type Reply = std::result::Result<(u16, Rmsg), String>;

/// Bytes of replies read ahead from the connection.
const REPLY_BUFFER: usize = 16 << 10;

/// The next reply: its tag and message, or why it does not decode. An `Rread`'s data is
/// read straight into the vector it is delivered in (no frame to copy it out of).
fn read_reply(r: &mut impl Read, msize: u32) -> std::result::Result<Option<Reply>, ReadError> {
    let mut head = [0u8; HEADER + 4];
    match r.read(&mut head[..1]) {
        Ok(0) => return Ok(None),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return read_reply(r, msize),
        Err(e) => return Err(ReadError::Io(e)),
    }
    r.read_exact(&mut head[1..4]).map_err(ReadError::Io)?;
    let declared = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    check_size(declared, msize).map_err(ReadError::Wire)?;
    let rread = Rmsg::Read {
        data: Data(Vec::new()),
    }
    .type_id();
    let mut start = 4;
    if declared as usize >= head.len() {
        start = head.len();
        r.read_exact(&mut head[4..]).map_err(ReadError::Io)?;
        let count = u32::from_le_bytes([head[7], head[8], head[9], head[10]]) as usize;
        if head[4] == rread && count == declared as usize - head.len() {
            let mut data = Vec::with_capacity(count);
            r.take(count as u64)
                .read_to_end(&mut data)
                .map_err(ReadError::Io)?;
            if data.len() < count {
                return Err(ReadError::Io(std::io::ErrorKind::UnexpectedEof.into()));
            }
            let tag = u16::from_le_bytes([head[5], head[6]]);
            return Ok(Some(Ok((tag, Rmsg::Read { data: Data(data) }))));
        }
    }
    let mut frame = vec![0u8; declared as usize];
    frame[..start].copy_from_slice(&head[..start]);
    r.read_exact(&mut frame[start..]).map_err(ReadError::Io)?;
    Ok(Some(
        Rmsg::decode(&frame, msize).map_err(|e| bad_reply(&frame, &e)),
    ))
}

fn bad_reply(frame: &[u8], e: &WireError) -> String {
    format!("undecodable reply ({} bytes): {e}", frame.len())
}

fn deliver(inner: &Inner, tag: u16, reply: Rmsg) {
    let waiter = lock(&inner.pending).waiters.remove(&tag);
    if let Some(w) = waiter {
        let _ = w.send(Wake::Reply(Ok(reply)));
    }
}

fn fail_all(inner: &Inner, why: &str) {
    let mut p = lock(&inner.pending);
    if p.dead.is_none() {
        p.dead = Some(why.to_string());
    }
    for (_, w) in p.waiters.drain() {
        let _ = w.send(Wake::Reply(Err(Error::Disconnected(why.to_string()))));
    }
    drop(p);
    inner.control.shutdown();
}

fn unexpected(sent: &Tmsg, got: &Rmsg) -> Error {
    Error::Unexpected {
        sent: sent.name(),
        got: got.name(),
    }
}

fn expect(r: Result<Rmsg>, ok: impl FnOnce(&Rmsg) -> bool, sent: &'static str) -> Result<()> {
    match r? {
        ref m if ok(m) => Ok(()),
        m => Err(Error::Unexpected {
            sent,
            got: m.name(),
        }),
    }
}
