//! Several conversations over one channel: the graphs user threads receive, in order, and the
//! portal calls between the two processes (call, reply and release frames, see
//! [`crate::frame`]).
//!
//! Until this end exports a portal, a receiving thread reads the channel itself, as a plain
//! channel does, and so does a thread waiting for the reply to its call (each hands on what
//! is not its own). Once it exports one ([`Mux::start_reader`]: calls may come at any time),
//! a *reader*, a thread of the channel's pool, reads every frame as it comes: a graph
//! frame is queued for [`Mux::receive`]; a reply frame goes to the thread waiting for it
//! ([`Mux::call`]), by call id (a reply nobody waits for is dropped); a release frame goes to
//! the [`Handler`] at once; for a call frame the reader hands its role to another pool thread
//! and runs the handler itself (the runtime's: it calls the exported portal and sends the
//! reply), so that a call costs no wake-up between reading it and serving it. A receiving thread that happens to read a
//! non-graph frame itself hands it on the same way. When the channel ends (closed here, the
//! peer gone, a corrupt frame), every waiting call fails with [`ChannelError::Closed`] and the
//! handler hears of it once ([`Handler::ended`]).
//!
//! Frames the runtime must send without blocking (releases, sent from the collector) are
//! posted ([`Mux::post`]) and sent by a pool thread.
//!
//! Owns the routing, the pending calls and the pool; what frames mean is the handler's.

use std::collections::VecDeque;
use std::os::fd::BorrowedFd;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use rustc_hash::FxHashMap;

use crate::channel::{Channel, ChannelError, Received, SLICE};
use crate::frame::{KIND_CALL, KIND_GRAPH, KIND_RELEASE, KIND_REPLY, ReplyHead, parse_release};

/// How long an idle pool thread waits for work before it ends.
const IDLE: Duration = Duration::from_secs(10);

/// What the runtime does with the portal frames of a channel.
pub trait Handler: Send + Sync {
    /// A call frame arrived; runs on a pool thread, may block, and answers with a reply
    /// frame sent through `mux` (whatever the frame holds: it is the peer's).
    fn call(&self, mux: &Arc<Mux>, frame: Received);
    /// A release frame arrived (export `id`, `count` tokens); must not block.
    fn release(&self, id: u64, count: u64);
    /// The channel ended; called once.
    fn ended(&self);
}

/// A channel shared by graphs and portal calls.
pub struct Mux {
    chan: Channel,
    state: Mutex<State>,
    /// Signalled when a graph is queued, a reply arrives, or the channel ends.
    cond: Condvar,
    handler: OnceLock<Arc<dyn Handler>>,
    next_call: AtomicU64,
    pool: Arc<Pool>,
    /// The largest frame the reader keeps (the receiving domain's heap).
    keep_max: AtomicU64,
}

#[derive(Default)]
struct State {
    /// Graph frames read by the reader (or errors to report to a receiving thread).
    graphs: VecDeque<Result<Received, ChannelError>>,
    /// Calls waiting for their reply, by call id.
    replies: FxHashMap<u64, Option<Received>>,
    reader: bool,
    ended: bool,
    /// Frames posted, and whether a pool thread is sending them.
    outbox: Vec<Vec<u8>>,
    flushing: bool,
}

impl Mux {
    /// Wraps a connected channel; pool threads get `stack` bytes of stack.
    pub fn new(chan: Channel, stack: usize, keep_max: u64) -> Arc<Mux> {
        Arc::new(Mux {
            chan,
            state: Mutex::new(State::default()),
            cond: Condvar::new(),
            handler: OnceLock::new(),
            next_call: AtomicU64::new(1),
            pool: Arc::new(Pool {
                state: Mutex::new(PoolState::default()),
                cond: Condvar::new(),
                stack,
            }),
            keep_max: AtomicU64::new(keep_max),
        })
    }

    /// The channel underneath (for sending graphs, and recycling buffers).
    pub fn channel(&self) -> &Channel {
        &self.chan
    }

    /// Sets the handler of portal frames (once; later calls are ignored).
    pub fn set_handler(&self, h: Arc<dyn Handler>) {
        let _ = self.handler.set(h);
    }

    /// Whether the channel has ended (closed, peer gone or corrupt).
    pub fn ended(&self) -> bool {
        self.state.lock().ended || self.chan.is_closed()
    }

    /// Starts the reader thread, if it is not running (portals now cross this channel).
    pub fn start_reader(self: &Arc<Self>) {
        {
            let mut s = self.state.lock();
            if s.reader || s.ended {
                return;
            }
            s.reader = true;
        }
        self.hand_reading_on();
    }

    /// Gives the reader's role to a pool thread.
    fn hand_reading_on(self: &Arc<Self>) {
        let mux = self.clone();
        self.pool.run(Box::new(move || mux.read_loop()));
    }

    /// The reader's role (see the module doc): until the channel ends, or until it reads a
    /// call, which it serves after handing the role on.
    fn read_loop(self: Arc<Self>) {
        loop {
            let keep_max = self.keep_max.load(Ordering::Relaxed);
            match self.chan.receive_with_fds(Some(SLICE), &|| false, keep_max) {
                Ok(Some(f)) if f.0.kind == KIND_CALL => {
                    self.hand_reading_on();
                    if let Some(h) = self.handler.get().cloned() {
                        h.call(&self, f);
                    }
                    return;
                }
                Ok(Some(f)) => self.dispatch(f),
                Ok(None) => {}
                Err(ChannelError::Closed) => break,
                Err(e @ ChannelError::Corrupt(_)) => {
                    self.queue(Err(e));
                    break;
                }
                Err(e) => self.queue(Err(e)),
            }
            if self.state.lock().ended {
                break;
            }
        }
        self.end();
    }

    fn queue(&self, item: Result<Received, ChannelError>) {
        self.state.lock().graphs.push_back(item);
        self.cond.notify_all();
    }

    /// Routes a frame that is not for a receiving thread (see the module doc).
    fn dispatch(self: &Arc<Self>, f: Received) {
        match f.0.kind {
            KIND_GRAPH => self.queue(Ok(f)),
            KIND_REPLY => {
                let Some(id) = ReplyHead::call_of(&f.1) else {
                    return;
                };
                let mut s = self.state.lock();
                if let Some(slot @ None) = s.replies.get_mut(&id) {
                    *slot = Some(f);
                    drop(s);
                    self.cond.notify_all();
                }
            }
            KIND_CALL => {
                if let Some(h) = self.handler.get().cloned() {
                    let mux = self.clone();
                    self.pool.run(Box::new(move || h.call(&mux, f)));
                }
            }
            KIND_RELEASE => {
                if let (Ok((id, n)), Some(h)) = (parse_release(&f.1), self.handler.get()) {
                    h.release(id, n);
                }
            }
            _ => {}
        }
    }

    /// Ends the channel: closes it, fails the waiting calls, tells the handler (once).
    pub fn end(&self) {
        {
            let mut s = self.state.lock();
            if s.ended {
                return;
            }
            s.ended = true;
        }
        self.chan.close();
        self.cond.notify_all();
        if let Some(h) = self.handler.get() {
            h.ended();
        }
    }

    /// The next graph frame, as [`Channel::receive_with_fds`] (None if none began within
    /// `timeout`); other frames met on the way are handed on.
    pub fn receive(
        self: &Arc<Self>,
        timeout: Option<Duration>,
        stop: &dyn Fn() -> bool,
        keep_max: u64,
    ) -> Result<Option<Received>, ChannelError> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let slice = || match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()).min(SLICE),
            None => SLICE,
        };
        loop {
            {
                let mut s = self.state.lock();
                if let Some(item) = s.graphs.pop_front() {
                    return item.map(Some);
                }
                if s.ended {
                    return Err(ChannelError::Closed);
                }
                if s.reader {
                    let left = slice();
                    if left.is_zero() {
                        return Ok(None);
                    }
                    self.cond.wait_for(&mut s, left);
                    drop(s);
                    if stop() {
                        return Err(ChannelError::Interrupted);
                    }
                    continue;
                }
            }
            match self.chan.receive_with_fds(Some(slice()), stop, keep_max) {
                Ok(Some(f)) if f.0.kind == KIND_GRAPH => return Ok(Some(f)),
                Ok(Some(f)) => self.dispatch(f),
                Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => return Ok(None),
                Ok(None) => {}
                Err(e @ (ChannelError::Closed | ChannelError::Corrupt(_))) => {
                    self.end();
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// A fresh call id.
    pub fn next_call_id(&self) -> u64 {
        self.next_call.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends call frame `parts` (whose call id is `id`, with descriptors `fds`) and waits for
    /// its reply frame; [`ChannelError::Closed`] if the channel ends first,
    /// [`ChannelError::Interrupted`] if `stop` says so between waits (the reply, if it comes,
    /// is dropped). Without a reader
    /// (this end exports nothing), the caller reads the channel itself while it waits, so
    /// its reply costs no wake-up of another thread; frames for others are handed on.
    pub fn call(
        self: &Arc<Self>,
        id: u64,
        parts: &[&[u8]],
        fds: &[BorrowedFd],
        stop: &dyn Fn() -> bool,
    ) -> Result<Received, ChannelError> {
        {
            let mut s = self.state.lock();
            if s.ended {
                return Err(ChannelError::Closed);
            }
            s.replies.insert(id, None);
        }
        if let Err(e) = self.chan.send_parts_with_fds(parts, fds) {
            self.state.lock().replies.remove(&id);
            return Err(e);
        }
        let answered = || {
            let s = self.state.lock();
            s.ended || s.replies.get(&id).is_some_and(Option::is_some)
        };
        let mut s = self.state.lock();
        loop {
            if let Some(Some(_)) = s.replies.get(&id) {
                let reply = s.replies.remove(&id).flatten().expect("a reply");
                return Ok(reply);
            }
            if s.ended {
                s.replies.remove(&id);
                return Err(ChannelError::Closed);
            }
            if stop() {
                s.replies.remove(&id);
                return Err(ChannelError::Interrupted);
            }
            if s.reader {
                self.cond.wait_for(&mut s, SLICE);
                continue;
            }
            drop(s);
            let keep_max = self.keep_max.load(Ordering::Relaxed);
            match self.chan.receive_with_fds(Some(SLICE), &answered, keep_max) {
                Ok(Some(f)) => self.dispatch(f),
                Err(ChannelError::Closed | ChannelError::Corrupt(_)) => self.end(),
                // Nothing came, or the reply came through another thread; a frame too large
                // (a hostile peer's) was dropped.
                _ => {}
            }
            s = self.state.lock();
        }
    }

    /// Sends a frame (a reply) now, waiting for room.
    pub fn send(&self, parts: &[&[u8]], fds: &[BorrowedFd]) -> Result<(), ChannelError> {
        self.chan.send_parts_with_fds(parts, fds)
    }

    /// Sends `frame` soon, from a pool thread: for callers that must not block (the
    /// collector). Dropped if the channel has ended.
    pub fn post(self: &Arc<Self>, frame: Vec<u8>) {
        let mut s = self.state.lock();
        if s.ended {
            return;
        }
        s.outbox.push(frame);
        if !s.flushing {
            s.flushing = true;
            let mux = self.clone();
            self.pool.run(Box::new(move || mux.flush()));
        }
    }

    fn flush(&self) {
        loop {
            let batch = {
                let mut s = self.state.lock();
                if s.outbox.is_empty() || s.ended {
                    s.outbox.clear();
                    s.flushing = false;
                    return;
                }
                std::mem::take(&mut s.outbox)
            };
            for f in batch {
                let _ = self.chan.send(&f);
            }
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// Threads that read, run calls and send posted frames: one per job running at once, kept
/// while there is work, each ending after [`IDLE`] without any.
struct Pool {
    state: Mutex<PoolState>,
    cond: Condvar,
    stack: usize,
}

#[derive(Default)]
struct PoolState {
    jobs: VecDeque<Job>,
    idle: usize,
}

impl Pool {
    fn run(self: &Arc<Self>, job: Job) {
        let mut s = self.state.lock();
        s.jobs.push_back(job);
        if s.jobs.len() <= s.idle {
            self.cond.notify_one();
            return;
        }
        drop(s);
        let pool = self.clone();
        let spawned = std::thread::Builder::new()
            .name("jxvm-channel".into())
            .stack_size(self.stack)
            .spawn(move || pool.work());
        if spawned.is_err() {
            // No thread now: an idle one (or the next spawn) takes the job.
            self.cond.notify_one();
        }
    }

    fn work(&self) {
        let mut s = self.state.lock();
        loop {
            if let Some(job) = s.jobs.pop_front() {
                drop(s);
                job();
                s = self.state.lock();
                continue;
            }
            s.idle += 1;
            let timed_out = self.cond.wait_for(&mut s, IDLE).timed_out();
            s.idle -= 1;
            if timed_out && s.jobs.is_empty() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{GraphFrame, Header, release_frame};

    fn pair(name: &str) -> (Arc<Mux>, Arc<Mux>) {
        let (l, c) = crate::channel::tests::pair(&format!("mux-{name}"));
        (Mux::new(l, 1 << 20, 1 << 30), Mux::new(c, 1 << 20, 1 << 30))
    }

    fn frame(kind: u32, payload: &[u8]) -> Vec<u8> {
        let mut f = Header {
            kind,
            len: payload.len() as u64,
        }
        .to_bytes()
        .to_vec();
        f.extend_from_slice(payload);
        f
    }

    fn graph(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        GraphFrame {
            classes: vec![],
            tokens: vec![],
            graph: bytes,
        }
        .write(&mut out);
        out
    }

    /// Answers each call (whose payload is its id and a number) with the number doubled,
    /// after `delay` if the number is 0; counts releases; notes the end.
    #[derive(Default)]
    struct Doubler {
        released: AtomicU64,
        ended: std::sync::atomic::AtomicBool,
    }

    impl Handler for Doubler {
        fn call(&self, mux: &Arc<Mux>, f: Received) {
            let id = u64::from_le_bytes(f.1[..8].try_into().unwrap());
            let n = u64::from_le_bytes(f.1[8..16].try_into().unwrap());
            if n == 0 {
                std::thread::sleep(Duration::from_secs(60));
            }
            let mut p = id.to_le_bytes().to_vec();
            p.extend_from_slice(&(2 * n).to_le_bytes());
            mux.send(&[&frame(KIND_REPLY, &p)], &[]).unwrap();
        }
        fn release(&self, _: u64, count: u64) {
            self.released.fetch_add(count, Ordering::SeqCst);
        }
        fn ended(&self) {
            self.ended.store(true, Ordering::SeqCst);
        }
    }

    fn call(m: &Arc<Mux>, n: u64) -> Result<u64, ChannelError> {
        let id = m.next_call_id();
        let mut p = id.to_le_bytes().to_vec();
        p.extend_from_slice(&n.to_le_bytes());
        let (_, r, _) = m.call(id, &[&frame(KIND_CALL, &p)], &[], &|| false)?;
        Ok(u64::from_le_bytes(r[8..16].try_into().unwrap()))
    }

    #[test]
    fn calls_from_many_threads_get_their_own_replies_while_graphs_keep_their_order() {
        let (a, b) = pair("calls");
        let served = Arc::new(Doubler::default());
        b.set_handler(served.clone());
        b.start_reader();
        std::thread::scope(|s| {
            for k in 0..4u64 {
                let a = &a;
                s.spawn(move || {
                    for i in 1..=100 {
                        assert_eq!(call(a, k * 1000 + i).unwrap(), 2 * (k * 1000 + i));
                    }
                });
            }
            for i in 0..50u8 {
                a.channel().send(&graph(&[i; 3])).unwrap();
            }
            for i in 0..50u8 {
                let (h, p, _) = b.receive(None, &|| false, 1 << 20).unwrap().unwrap();
                assert_eq!(h.kind, KIND_GRAPH);
                assert_eq!(GraphFrame::parse(&p).unwrap().graph, [i; 3]);
            }
        });
        a.post(release_frame(7, 3));
        let deadline = Instant::now() + Duration::from_secs(10);
        while served.released.load(Ordering::SeqCst) != 3 {
            assert!(Instant::now() < deadline, "the release did not arrive");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            b.receive(Some(Duration::from_millis(30)), &|| false, 1 << 20)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn a_pending_call_fails_when_the_channel_ends() {
        let (a, b) = pair("end");
        let served = Arc::new(Doubler::default());
        b.set_handler(served.clone());
        b.start_reader();
        std::thread::scope(|s| {
            let waiting = s.spawn(|| call(&a, 0));
            std::thread::sleep(Duration::from_millis(100));
            b.end();
            assert!(matches!(waiting.join().unwrap(), Err(ChannelError::Closed)));
        });
        assert!(served.ended.load(Ordering::SeqCst));
        assert!(matches!(call(&a, 1), Err(ChannelError::Closed)));
        assert!(matches!(
            a.receive(None, &|| false, 1 << 20),
            Err(ChannelError::Closed)
        ));
    }
}
