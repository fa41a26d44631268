//! A connected channel between two processes: the rendezvous by name, and frames sent and
//! received whole over the rings.
//!
//! **Rendezvous.** Names live in a directory private to the user: `$XDG_RUNTIME_DIR/jxvm-ipc`
//! if that is an existing directory, else `/tmp/jxvm-ipc-UID`; it is made mode 0700 and
//! refused unless it is ours and closed to others. `listen(NAME)` takes an exclusive `flock`
//! on `NAME.lock` (a name being listened on is taken), binds the Unix socket `NAME.sock` (mode
//! 0600) and waits for one connection, whose peer must have our user id; it then creates the
//! rings (a sealed memfd), sends them with a hello (`JXCH`, version, ring capacity) over the
//! socket and unlinks the socket: the name is free again. `connect(NAME)` connects, checks the
//! peer's user id, and maps the rings it receives after checking their size and seals.
//!
//! **Frames.** A sender holds the channel's send lock for a whole frame (several threads may
//! send: each frame arrives whole), writing it through its ring in as many pieces as the ring
//! needs; a receiver holds the receive lock for a whole frame. The socket stays open and
//! carries nothing more: when the peer closes it or dies (even by `kill -9`), the kernel ends
//! it, which is how a waiting side learns the peer is gone ([`ChannelError::Closed`]) after
//! reading what the peer had sent. A graph that holds shared memory needs the regions'
//! descriptors: the sender passes them over the socket (SCM_RIGHTS) and then writes a
//! descriptors frame (their count) and the graph frame, all under its send lock; the receiver,
//! meeting the descriptors frame, takes that many descriptors from the socket without waiting
//! (they were sent before the frame was written, so a peer that did not send them is corrupt)
//! and hands them out with the graph frame that follows. Waiting sleeps on the ring's futex in slices of
//! [`SLICE`], between which it checks the socket, the caller's interruption and its deadline.
//!
//! Owns the rendezvous, the locks and the waiting; the bytes of a frame are [`crate::frame`]'s.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::frame::{
    FrameError, HEADER_LEN, Header, KIND_CALL, KIND_FDS, KIND_GRAPH, KIND_REPLY, MAX_FDS,
};
use crate::ring::Rings;
use crate::sys;

/// Bytes of each direction's ring.
pub const RING_CAPACITY: usize = 1 << 20;
/// The largest frame a receiver takes (its payload).
pub const MAX_FRAME: u64 = 1 << 30;
/// How long a wait sleeps before checking the peer, interruption and deadline again.
pub const SLICE: Duration = Duration::from_millis(20);

/// The largest payload buffer kept for reuse.
const SPARE_MAX: usize = 64 << 20;

const HELLO_MAGIC: &[u8; 4] = b"JXCH";
const VERSION: u32 = 1;

/// Why a channel operation failed.
#[derive(Debug)]
pub enum ChannelError {
    /// The peer closed the channel or died (or this side closed it).
    Closed,
    /// The caller's stop condition (a Java interrupt) ended the wait.
    Interrupted,
    /// The peer sent bytes that are not a frame, or broke the ring; the channel is unusable.
    Corrupt(String),
    /// A frame of this many bytes was above what the receiver takes, or memory ran out for
    /// it: it was read and dropped, the channel is usable.
    TooLarge(u64),
    /// The name is not valid, is taken, or nobody is there; or a system call failed.
    Io(io::Error),
}

impl std::fmt::Display for ChannelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChannelError::Closed => write!(f, "the channel is closed"),
            ChannelError::Interrupted => write!(f, "interrupted"),
            ChannelError::Corrupt(m) => write!(f, "{m}"),
            ChannelError::TooLarge(n) => write!(f, "a frame of {n} bytes was too large to take"),
            ChannelError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<io::Error> for ChannelError {
    fn from(e: io::Error) -> Self {
        ChannelError::Io(e)
    }
}

fn corrupt_ring(_: crate::ring::Corrupt) -> ChannelError {
    ChannelError::Corrupt("the peer broke the channel's ring".into())
}

/// A received frame: its header, its payload and the descriptors that came with it.
pub type Received = (Header, Vec<u8>, Vec<OwnedFd>);

/// One end of a channel.
pub struct Channel {
    rings: Rings,
    sock: UnixStream,
    /// The ring this end writes, and the one it reads.
    out: usize,
    inp: usize,
    /// The writer's head (the send lock), the reader's tail (the receive lock).
    send: Mutex<u64>,
    recv: Mutex<u64>,
    /// A payload buffer given back by [`Channel::recycle`].
    spare: Mutex<Vec<u8>>,
    closed: AtomicBool,
    /// Set once a corrupt frame header or ring desynchronized the stream (the channel is then
    /// closed).
    broken: AtomicBool,
}

/// The directory of channel names, made if missing; refused unless private to this user.
pub fn name_dir() -> io::Result<PathBuf> {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(d) if !d.is_empty() && std::path::Path::new(&d).is_dir() => {
            PathBuf::from(d).join("jxvm-ipc")
        }
        _ => std::env::temp_dir().join(format!("jxvm-ipc-{}", sys::uid())),
    };
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let m = std::fs::symlink_metadata(&dir)?;
    if !m.is_dir() || m.uid() != sys::uid() || m.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!(
            "{} is not a directory private to this user",
            dir.display()
        )));
    }
    Ok(dir)
}

/// Checks a channel name: 1 to 100 of `[A-Za-z0-9._-]`, not starting with a dot.
fn check_name(name: &str) -> io::Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("invalid channel name {name:?} (1 to 100 of A-Z a-z 0-9 . _ -)"),
        ))
    }
}

fn check_peer(sock: &UnixStream) -> io::Result<()> {
    if sys::peer_uid(sock.as_raw_fd())? != sys::uid() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the peer runs as another user",
        ));
    }
    Ok(())
}

impl Channel {
    /// Creates channel `name` and waits up to `timeout` for one process to connect; `stop`
    /// is asked between waits (an interrupt).
    pub fn listen(
        name: &str,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<Channel, ChannelError> {
        Self::listen_in(&name_dir()?, name, timeout, stop)
    }

    /// [`Channel::listen`] with names in directory `dir` (which the caller made private).
    pub fn listen_in(
        dir: &std::path::Path,
        name: &str,
        timeout: Duration,
        stop: &dyn Fn() -> bool,
    ) -> Result<Channel, ChannelError> {
        check_name(name)?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(format!("{name}.lock")))?;
        if !sys::try_lock(lock.as_raw_fd())? {
            return Err(io::Error::new(
                io::ErrorKind::AddrInUse,
                format!("channel name {name} is taken"),
            )
            .into());
        }
        let path = dir.join(format!("{name}.sock"));
        // We hold the name's lock: a socket file left there is a dead listener's.
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path)?;
        let _unlink = Unlink(path.clone());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        let deadline = Instant::now() + timeout;
        let sock = loop {
            let ms = SLICE.min(deadline.saturating_duration_since(Instant::now()));
            let ev = sys::poll(listener.as_raw_fd(), libc::POLLIN, ms.as_millis() as i32)?;
            if ev != 0 {
                let (s, _) = listener.accept()?;
                if check_peer(&s).is_ok() {
                    break s;
                }
                continue;
            }
            if stop() {
                return Err(ChannelError::Interrupted);
            }
            if Instant::now() >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("nobody connected to channel {name} in time"),
                )
                .into());
            }
        };
        let (rings, peer_fd) = Rings::create(RING_CAPACITY)?;
        let mut hello = [0u8; 16];
        hello[..4].copy_from_slice(HELLO_MAGIC);
        hello[4..8].copy_from_slice(&VERSION.to_le_bytes());
        hello[8..].copy_from_slice(&(RING_CAPACITY as u64).to_le_bytes());
        sys::send_fd(sock.as_raw_fd(), &hello, peer_fd.as_raw_fd())?;
        Ok(Channel::new(rings, sock, 0))
    }

    /// Connects to channel `name`, which another process is listening on.
    pub fn connect(name: &str) -> Result<Channel, ChannelError> {
        Self::connect_in(&name_dir()?, name)
    }

    /// [`Channel::connect`] with names in directory `dir`.
    pub fn connect_in(dir: &std::path::Path, name: &str) -> Result<Channel, ChannelError> {
        check_name(name)?;
        let path = dir.join(format!("{name}.sock"));
        let sock = UnixStream::connect(&path).map_err(|e| {
            io::Error::new(e.kind(), format!("nobody listens on channel {name} ({e})"))
        })?;
        check_peer(&sock)?;
        sock.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut hello = [0u8; 16];
        let (n, fd) = sys::recv_fd(sock.as_raw_fd(), &mut hello)?;
        let bad =
            |what: &str| ChannelError::Io(io::Error::other(format!("channel {name}: {what}")));
        if n != hello.len() || &hello[..4] != HELLO_MAGIC {
            return Err(bad("the listener did not answer as a jxvm channel"));
        }
        if u32::from_le_bytes([hello[4], hello[5], hello[6], hello[7]]) != VERSION {
            return Err(bad("the listener speaks another channel version"));
        }
        let capacity = u64::from_le_bytes(hello[8..].try_into().expect("8 bytes"));
        let fd = fd.ok_or_else(|| bad("the listener sent no ring"))?;
        let rings = Rings::open(fd, capacity)?;
        sock.set_read_timeout(None)?;
        Ok(Channel::new(rings, sock, 1))
    }

    fn new(rings: Rings, sock: UnixStream, out: usize) -> Channel {
        Channel {
            rings,
            sock,
            out,
            inp: 1 - out,
            send: Mutex::new(0),
            recv: Mutex::new(0),
            spare: Mutex::new(Vec::new()),
            closed: AtomicBool::new(false),
            broken: AtomicBool::new(false),
        }
    }

    /// Whether the peer is gone or this end was closed.
    fn ended(&self) -> bool {
        self.closed.load(Ordering::SeqCst) || sys::peer_gone(self.sock.as_raw_fd())
    }

    /// Sends `frame` (a whole frame, header included) to the peer, waiting for room as long
    /// as the peer lives.
    pub fn send(&self, frame: &[u8]) -> Result<(), ChannelError> {
        self.send_parts(&[frame])
    }

    /// Sends one frame made of `parts` in order (a head and the graph, not copied together).
    pub fn send_parts(&self, parts: &[&[u8]]) -> Result<(), ChannelError> {
        self.send_parts_with_fds(parts, &[])
    }

    /// Sends one graph, call or reply frame made of `parts`, with descriptors `fds` (at most
    /// [`MAX_FDS`]) that the receiver gets with it ([`Channel::receive_with_fds`]).
    pub fn send_parts_with_fds(
        &self,
        parts: &[&[u8]],
        fds: &[BorrowedFd],
    ) -> Result<(), ChannelError> {
        if fds.len() > MAX_FDS as usize {
            return Err(io::Error::other(format!(
                "a frame takes at most {MAX_FDS} descriptors, not {}",
                fds.len()
            ))
            .into());
        }
        let mut head = self.send.lock();
        let mut announce = Vec::new();
        if !fds.is_empty() {
            if self.ended() {
                return Err(ChannelError::Closed);
            }
            let raw: Vec<i32> = fds.iter().map(|f| f.as_raw_fd()).collect();
            for chunk in raw.chunks(sys::FDS_PER_MESSAGE) {
                sys::send_fds(self.sock.as_raw_fd(), &[chunk.len() as u8], chunk).map_err(|e| {
                    match e.kind() {
                        io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset => {
                            ChannelError::Closed
                        }
                        _ => ChannelError::Io(e),
                    }
                })?;
            }
            announce.extend_from_slice(
                &Header {
                    kind: KIND_FDS,
                    len: 4,
                }
                .to_bytes(),
            );
            announce.extend_from_slice(&(fds.len() as u32).to_le_bytes());
        }
        for part in std::iter::once(&announce[..]).chain(parts.iter().copied()) {
            let mut sent = 0;
            while sent < part.len() {
                if self.ended() {
                    return Err(ChannelError::Closed);
                }
                let n = self
                    .rings
                    .write_some(self.out, &mut head, &part[sent..])
                    .map_err(corrupt_ring)?;
                sent += n;
                if n == 0 {
                    let h = *head;
                    self.rings.wait(self.out, SLICE, || {
                        self.rings.free(self.out, h).map_or(true, |f| f > 0)
                    });
                }
            }
        }
        Ok(())
    }

    /// Gives back a payload [`Channel::receive`] returned, for the next receive to reuse
    /// (fresh large buffers cost a page fault per page).
    pub fn recycle(&self, buf: Vec<u8>) {
        let mut spare = self.spare.lock();
        if buf.capacity() > spare.capacity() && buf.capacity() <= SPARE_MAX {
            *spare = buf;
        }
    }

    /// The payload of the next frame and its header, waiting up to `timeout` (None: for
    /// ever) for it to begin; None if none began in time. Once a frame has begun it is read
    /// to its end (or to the peer's death). `stop` is asked between waits.
    pub fn receive(
        &self,
        timeout: Option<Duration>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<(Header, Vec<u8>)>, ChannelError> {
        self.receive_at_most(timeout, stop, MAX_FRAME)
    }

    /// [`Channel::receive`], but a frame whose payload is above `keep_max` bytes (or for which
    /// no memory can be had) is read and dropped: [`ChannelError::TooLarge`], and the channel
    /// stays usable.
    pub fn receive_at_most(
        &self,
        timeout: Option<Duration>,
        stop: &dyn Fn() -> bool,
        keep_max: u64,
    ) -> Result<Option<(Header, Vec<u8>)>, ChannelError> {
        Ok(self
            .receive_with_fds(timeout, stop, keep_max)?
            .map(|(h, p, _)| (h, p)))
    }

    /// [`Channel::receive_at_most`], with the descriptors the peer sent with the frame (none
    /// for most frames; dropped with a frame that is).
    pub fn receive_with_fds(
        &self,
        timeout: Option<Duration>,
        stop: &dyn Fn() -> bool,
        keep_max: u64,
    ) -> Result<Option<Received>, ChannelError> {
        let mut tail = self.recv.lock();
        if self.broken.load(Ordering::SeqCst) {
            return Err(ChannelError::Closed);
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        // Wait for the first byte of a frame.
        loop {
            if self
                .rings
                .available(self.inp, *tail)
                .map_err(|e| self.corrupt(e))?
                > 0
            {
                break;
            }
            if self.ended() {
                // What the peer sent before it went is read first.
                if self
                    .rings
                    .available(self.inp, *tail)
                    .map_err(|e| self.corrupt(e))?
                    > 0
                {
                    break;
                }
                return Err(ChannelError::Closed);
            }
            if stop() {
                return Err(ChannelError::Interrupted);
            }
            let slice = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(None);
                    }
                    left.min(SLICE)
                }
                None => SLICE,
            };
            let t = *tail;
            self.rings.wait(self.inp, slice, || {
                self.rings.available(self.inp, t).map_or(true, |n| n > 0)
            });
        }
        let mut h = [0u8; HEADER_LEN];
        self.read_exact(&mut tail, &mut h)?;
        let mut header = Header::parse(&h, MAX_FRAME).map_err(|e| self.corrupt_frame(e))?;
        let mut fds = Vec::new();
        if header.kind == KIND_FDS {
            let mut n = [0u8; 4];
            if header.len != 4 {
                return Err(self.corrupt_frame(FrameError::Malformed("a descriptors frame")));
            }
            self.read_exact(&mut tail, &mut n)?;
            let n = u32::from_le_bytes(n);
            if n == 0 || n > MAX_FDS {
                return Err(self.corrupt_frame(FrameError::Malformed("a descriptor count")));
            }
            while fds.len() < n as usize {
                let mut b = [0u8; 1];
                match sys::recv_fds(self.sock.as_raw_fd(), &mut b, true) {
                    Ok((1, got)) if !got.is_empty() => fds.extend(got),
                    _ => {
                        return Err(self.corrupt_frame(FrameError::Malformed(
                            "descriptors announced but not sent",
                        )));
                    }
                }
            }
            if fds.len() != n as usize {
                return Err(self.corrupt_frame(FrameError::Malformed("a descriptor count")));
            }
            self.read_exact(&mut tail, &mut h)?;
            header = Header::parse(&h, MAX_FRAME).map_err(|e| self.corrupt_frame(e))?;
            if !matches!(header.kind, KIND_GRAPH | KIND_CALL | KIND_REPLY) {
                return Err(self
                    .corrupt_frame(FrameError::Malformed("descriptors not followed by a graph")));
            }
        }
        // Grown a ring's worth at a time as bytes arrive: a header claiming a huge frame
        // reserves nothing by itself.
        let len = header.len as usize;
        if header.len > keep_max {
            self.discard(&mut tail, len)?;
            return Err(ChannelError::TooLarge(header.len));
        }
        let mut payload = std::mem::take(&mut *self.spare.lock());
        payload.clear();
        while payload.len() < len {
            let at = payload.len();
            let n = (len - at).min(self.rings.capacity());
            if payload.try_reserve(n).is_err() {
                drop(payload);
                self.discard(&mut tail, len - at)?;
                return Err(ChannelError::TooLarge(header.len));
            }
            payload.resize(at + n, 0);
            self.read_exact(&mut tail, &mut payload[at..])?;
        }
        Ok(Some((header, payload, fds)))
    }

    /// Reads and drops the next `n` bytes.
    fn discard(&self, tail: &mut u64, mut n: usize) -> Result<(), ChannelError> {
        let mut scratch = vec![0u8; n.min(64 << 10)];
        while n > 0 {
            let k = n.min(scratch.len());
            self.read_exact(tail, &mut scratch[..k])?;
            n -= k;
        }
        Ok(())
    }

    /// Reads exactly `dst.len()` bytes, waiting for them while the peer lives.
    fn read_exact(&self, tail: &mut u64, dst: &mut [u8]) -> Result<(), ChannelError> {
        let mut got = 0;
        while got < dst.len() {
            let n = self
                .rings
                .read_some(self.inp, tail, &mut dst[got..])
                .map_err(|e| self.corrupt(e))?;
            got += n;
            if n == 0 {
                if self.ended() && self.rings.available(self.inp, *tail).unwrap_or(0) == 0 {
                    // The peer went in the middle of a frame (killed while sending).
                    return Err(ChannelError::Closed);
                }
                let t = *tail;
                self.rings.wait(self.inp, SLICE, || {
                    self.rings.available(self.inp, t).map_or(true, |n| n > 0)
                });
            }
        }
        Ok(())
    }

    /// The peer broke the ring: the stream cannot be trusted any more, so this end closes
    /// (the peer sees it) and later receives report [`ChannelError::Closed`].
    fn corrupt(&self, e: crate::ring::Corrupt) -> ChannelError {
        self.broken.store(true, Ordering::SeqCst);
        self.close();
        corrupt_ring(e)
    }

    /// A frame header that is not one: the stream is out of step, as for [`Self::corrupt`].
    fn corrupt_frame(&self, e: FrameError) -> ChannelError {
        self.broken.store(true, Ordering::SeqCst);
        self.close();
        ChannelError::Corrupt(e.to_string())
    }

    /// Whether this end was closed (by [`Channel::close`] or a corrupt frame).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Closes this end: the peer's waits end with [`ChannelError::Closed`] once it has read
    /// what was sent, and so do this end's.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        sys::shutdown(self.sock.as_raw_fd());
        // Wake this end's own sleepers (each ring's futex), so they see the close now.
        for ring in [self.inp, self.out] {
            self.rings.wake(ring);
        }
    }
}

/// Removes a path when dropped (the listening socket, once connected or given up).
struct Unlink(PathBuf);

impl Drop for Unlink {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::frame::{GraphFrame, KIND_GRAPH};

    /// Two ends of a fresh channel named after `name` and this process.
    pub(crate) fn pair(name: &str) -> (Channel, Channel) {
        let n = format!("{name}-{}", std::process::id());
        let n2 = n.clone();
        let l =
            std::thread::spawn(move || Channel::listen(&n2, Duration::from_secs(10), &|| false));
        let c = loop {
            match Channel::connect(&n) {
                Ok(c) => break c,
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        (l.join().unwrap().unwrap(), c)
    }

    fn frame(graph: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        GraphFrame {
            classes: vec![],
            tokens: vec![],
            graph,
        }
        .write(&mut out);
        out
    }

    fn payload_graph(p: &[u8]) -> Vec<u8> {
        GraphFrame::parse(p).unwrap().graph.to_vec()
    }

    #[test]
    fn frames_cross_both_ways_even_larger_than_the_ring() {
        let (a, b) = pair("both-ways");
        let big: Vec<u8> = (0..3 * RING_CAPACITY + 123)
            .map(|i| (i % 253) as u8)
            .collect();
        std::thread::scope(|s| {
            s.spawn(|| {
                a.send(&frame(&big)).unwrap();
                a.send(&frame(b"small")).unwrap();
            });
            s.spawn(|| b.send(&frame(b"from b")).unwrap());
            let (h, p) = b.receive(None, &|| false).unwrap().unwrap();
            assert_eq!(h.kind, KIND_GRAPH);
            assert_eq!(payload_graph(&p), big);
            let (_, p) = b.receive(None, &|| false).unwrap().unwrap();
            assert_eq!(payload_graph(&p), b"small");
            let (_, p) = a.receive(None, &|| false).unwrap().unwrap();
            assert_eq!(payload_graph(&p), b"from b");
        });
    }

    #[test]
    fn a_receive_times_out_then_sees_the_close_after_the_data() {
        let (a, b) = pair("close");
        assert!(
            b.receive(Some(Duration::from_millis(30)), &|| false)
                .unwrap()
                .is_none()
        );
        a.send(&frame(b"last")).unwrap();
        a.close();
        drop(a);
        let (_, p) = b.receive(None, &|| false).unwrap().unwrap();
        assert_eq!(payload_graph(&p), b"last");
        assert!(matches!(
            b.receive(None, &|| false),
            Err(ChannelError::Closed)
        ));
        assert!(matches!(b.send(&frame(b"x")), Err(ChannelError::Closed)));
    }

    #[test]
    fn a_frame_cut_short_by_the_peer_going_is_closed_not_a_hang() {
        let (a, b) = pair("cut");
        let f = frame(&[7u8; 5000]);
        a.send(&f[..100]).unwrap();
        drop(a);
        assert!(matches!(
            b.receive(None, &|| false),
            Err(ChannelError::Closed)
        ));
    }

    #[test]
    fn garbage_is_corrupt_then_closed() {
        let (a, b) = pair("garbage");
        a.send(b"NOTAFRAMEHEADER!").unwrap();
        assert!(matches!(
            b.receive(None, &|| false),
            Err(ChannelError::Corrupt(_))
        ));
        assert!(matches!(
            b.receive(None, &|| false),
            Err(ChannelError::Closed)
        ));
        assert!(
            matches!(a.receive(None, &|| false), Err(ChannelError::Closed)),
            "the peer of a corrupted end sees it closed"
        );
        let mut huge = Header {
            kind: KIND_GRAPH,
            len: 1 << 40,
        }
        .to_bytes()
        .to_vec();
        huge.extend_from_slice(&[0; 8]);
        let (c, d) = pair("huge");
        c.send(&huge).unwrap();
        assert!(
            matches!(d.receive(None, &|| false), Err(ChannelError::Corrupt(m)) if m.contains("above the limit"))
        );
    }

    #[test]
    fn a_frame_above_the_limit_is_dropped_and_the_channel_goes_on() {
        let (a, b) = pair("too-large");
        let big = vec![1u8; 3 * RING_CAPACITY];
        std::thread::scope(|s| {
            s.spawn(|| {
                a.send(&frame(&big)).unwrap();
                a.send(&frame(b"next")).unwrap();
            });
            let r = b.receive_at_most(None, &|| false, 1 << 20);
            assert!(matches!(r, Err(ChannelError::TooLarge(n)) if n as usize > big.len()));
            let (_, p) = b
                .receive_at_most(None, &|| false, 1 << 20)
                .unwrap()
                .unwrap();
            assert_eq!(payload_graph(&p), b"next");
        });
    }

    #[test]
    fn names_are_checked_taken_and_freed() {
        assert!(Channel::connect("../etc").is_err());
        assert!(Channel::listen("", Duration::ZERO, &|| false).is_err());
        let n = format!("taken-{}", std::process::id());
        let n2 = n.clone();
        let l =
            std::thread::spawn(move || Channel::listen(&n2, Duration::from_millis(500), &|| false));
        std::thread::sleep(Duration::from_millis(100));
        match Channel::listen(&n, Duration::ZERO, &|| false) {
            Err(ChannelError::Io(e)) => assert!(e.to_string().contains("taken"), "{e}"),
            _ => panic!("a second listener on a taken name"),
        }
        assert!(
            matches!(l.join().unwrap(), Err(ChannelError::Io(e)) if e.kind() == io::ErrorKind::TimedOut)
        );
        assert!(Channel::connect(&n).is_err(), "nobody listens any more");
        let dir = name_dir().unwrap();
        let mode = std::fs::metadata(&dir).unwrap().mode();
        assert_eq!(mode & 0o777, 0o700);
    }

    #[test]
    fn concurrent_senders_deliver_whole_frames() {
        let (a, b) = pair("senders");
        std::thread::scope(|s| {
            for k in 0..4u8 {
                let a = &a;
                s.spawn(move || {
                    for i in 0..50usize {
                        a.send(&frame(&vec![k; 1000 + i * 997])).unwrap();
                    }
                });
            }
            for _ in 0..200 {
                let (_, p) = b.receive(None, &|| false).unwrap().unwrap();
                let g = payload_graph(&p);
                assert!(g.iter().all(|&x| x == g[0]), "a frame mixed with another");
                assert_eq!((g.len() - 1000) % 997, 0);
            }
        });
    }

    #[test]
    fn descriptors_travel_with_their_frame_and_are_dropped_with_it() {
        use std::io::{Read, Seek, Write};
        use std::os::fd::AsFd;
        let (a, b) = pair("fds");
        let files: Vec<std::fs::File> = (0..20u8)
            .map(|i| {
                let mut f = std::fs::File::from(sys::sealed_memfd(64).unwrap());
                f.write_all(&[i; 8]).unwrap();
                f
            })
            .collect();
        let fds: Vec<BorrowedFd> = files.iter().map(|f| f.as_fd()).collect();
        std::thread::scope(|s| {
            s.spawn(|| {
                a.send_parts_with_fds(&[&frame(&vec![1; 3 * RING_CAPACITY])], &fds[..2])
                    .unwrap();
                a.send_parts_with_fds(&[&frame(b"twenty")], &fds).unwrap();
                a.send(&frame(b"none")).unwrap();
            });
            // The first is too large here: dropped with its descriptors.
            let r = b.receive_with_fds(None, &|| false, 1 << 20);
            assert!(matches!(r, Err(ChannelError::TooLarge(_))));
            let (_, p, got) = b
                .receive_with_fds(None, &|| false, 1 << 20)
                .unwrap()
                .unwrap();
            assert_eq!(payload_graph(&p), b"twenty");
            assert_eq!(got.len(), 20);
            for (i, fd) in got.into_iter().enumerate() {
                let mut f = std::fs::File::from(fd);
                f.seek(std::io::SeekFrom::Start(0)).unwrap();
                let mut buf = [0u8; 8];
                f.read_exact(&mut buf).unwrap();
                assert_eq!(buf, [i as u8; 8], "the descriptors in order");
            }
            let (_, p, got) = b
                .receive_with_fds(None, &|| false, 1 << 20)
                .unwrap()
                .unwrap();
            assert_eq!(payload_graph(&p), b"none");
            assert!(got.is_empty());
        });
        // Descriptors sent but not yet read do not make the peer look gone.
        a.send_parts_with_fds(&[&frame(b"x")], &fds[..1]).unwrap();
        assert!(!b.ended() && !a.ended());
        drop(a);
        let (_, p, got) = b
            .receive_with_fds(None, &|| false, 1 << 20)
            .unwrap()
            .unwrap();
        assert_eq!((payload_graph(&p).as_slice(), got.len()), (&b"x"[..], 1));
        assert!(matches!(
            b.receive(None, &|| false),
            Err(ChannelError::Closed)
        ));
    }

    #[test]
    fn descriptors_announced_but_not_sent_are_corrupt() {
        let (a, b) = pair("fds-forged");
        let mut f = Header {
            kind: KIND_FDS,
            len: 4,
        }
        .to_bytes()
        .to_vec();
        f.extend_from_slice(&3u32.to_le_bytes());
        f.extend_from_slice(&frame(b"g"));
        a.send(&f).unwrap();
        assert!(matches!(
            b.receive_with_fds(None, &|| false, 1 << 20),
            Err(ChannelError::Corrupt(m)) if m.contains("not sent")
        ));
    }
}
