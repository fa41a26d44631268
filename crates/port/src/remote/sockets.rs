//! Owns TCP sockets over the gateway's Plan 9 style `/net` tree (`ninep::net`, attached
//! under the aname `#net` on the backend's own connection, on first use): a Java socket is a
//! conversation `tcp/N` (its `ctl` kept open for the socket's life, its `data` for the
//! stream), and name lookups are questions to `cs`.
//!
//! - **Reads are posted ahead.** A connected socket has a thread that keeps one `Tread` of
//!   its `data` outstanding and queues what comes (up to [`READ_AHEAD`] bytes), so a read, a
//!   poll, `available()` and non-blocking mode are answered from that queue without a
//!   message, and a blocked Java thread waits on the socket, not on the connection.
//! - **Listening** (`bind` announces at once, so the port is known; `listen` starts accepting):
//!   a thread keeps one open of `listen` outstanding and queues the calls it yields.
//! - **Blocking waits** (read, accept, poll, connect) wake every [`SLICE`] to see whether the
//!   socket was closed by another thread (`close`, or `dup2` of the pre-closed descriptor
//!   over it, as the JDK does before it signals a blocked thread) or the thread's blocking
//!   calls were cancelled; then they fail with `EINTR`, which the JDK turns into "Socket
//!   closed" after it sees the socket closed. Timeouts (`SO_TIMEOUT`, connect timeouts) are
//!   the JDK's own: non-blocking mode and `poll`, which wait here with a deadline.
//! - **Closing** clunks the conversation's fids; the gateway closes the host socket when the
//!   last is gone, which also ends the outstanding `Tread`/listen.
//! - **Options** are kept here; `TCP_NODELAY` and `SO_KEEPALIVE` are also applied to the
//!   gateway's socket (ctl `nodelay`, `keepalive`), the others are not (`SO_ERROR` is a
//!   failed non-blocking connect's error, else 0).
//! - **Non-blocking connect** runs the `connect` on a thread; `poll(POLLOUT)` and
//!   `poll_connect` wait for it.
//! - Selectors: a socket rings the backend's [`Bell`] when its readiness changes, and the
//!   backend's epoll sets ([`super::events`]) scan the sockets' queues.
//! - Datagrams and `connect` after `bind` are not supported over 9P (`EOPNOTSUPP`).
//!
//! Must not: fall back to the host's sockets.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ninep::client::{Client, Fid};
use ninep::net::NET_ANAME;

use super::events::{Bell, Local};
use super::lock;
use super::ns::errno;
use crate::{Errno, PortResult};

/// Bytes a connected socket reads ahead of the program at most.
const READ_AHEAD: usize = 256 * 1024;
/// How often a blocked wait looks whether its socket was closed.
const SLICE: Duration = Duration::from_millis(50);

/// The `/net` tree of a backend's connection.
pub struct NetRoot {
    client: Client,
    root: Fid,
    /// Rung when a socket's readiness changes (for the backend's epoll sets).
    bell: Arc<Bell>,
}

impl Drop for NetRoot {
    fn drop(&mut self) {
        let _ = self.client.clunk(self.root);
    }
}

impl NetRoot {
    /// Attaches the gateway's `/net`; a server without one answers an error.
    pub fn attach(client: &Client, bell: Arc<Bell>) -> PortResult<NetRoot> {
        let (uid, ..) = crate::ids();
        let user = std::env::var("USER").unwrap_or_else(|_| "root".into());
        let (root, _) = client
            .attach(&user, NET_ANAME, uid as u32)
            .map_err(|_| Errno::EPERM)?;
        Ok(NetRoot {
            client: client.clone(),
            root,
            bell,
        })
    }

    fn open(&self, path: &[&str], flags: i32) -> PortResult<Fid> {
        let (fid, _) = self.client.walk(self.root, path).map_err(errno)?;
        if let Err(e) = self.client.lopen(fid, flags as u32) {
            let _ = self.client.clunk(fid);
            return Err(errno(e));
        }
        Ok(fid)
    }

    /// The text of a small file (`local`, `remote`).
    fn read_file(&self, path: &[&str]) -> PortResult<String> {
        let fid = self.open(path, libc::O_RDONLY)?;
        let r = self.client.read(fid, 0, 256).map_err(errno);
        let _ = self.client.clunk(fid);
        Ok(String::from_utf8_lossy(&r?).into_owned())
    }

    /// A new conversation: its ctl fid and number.
    fn clone_conv(&self) -> PortResult<Conv> {
        let ctl = self.open(&["tcp", "clone"], libc::O_RDWR)?;
        self.conv_of(ctl)
    }

    /// The conversation whose ctl is `ctl` (an open fid).
    fn conv_of(&self, ctl: Fid) -> PortResult<Conv> {
        let mut conv = Conv {
            client: self.client.clone(),
            ctl,
            data: None,
            n: String::new(),
        };
        let text = self.client.read(ctl, 0, 32).map_err(errno)?;
        let n = String::from_utf8_lossy(&text).trim().to_string();
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Errno::EIO);
        }
        conv.n = n;
        Ok(conv)
    }

    /// The addresses `cs` gives for `host`.
    pub fn lookup(&self, host: &str) -> PortResult<Vec<IpAddr>> {
        let fid = self.open(&["cs"], libc::O_RDWR)?;
        let q = format!("tcp!{host}!0");
        let r = self
            .client
            .write(fid, 0, q.as_bytes())
            .and_then(|_| self.client.read_to_end(fid, 0))
            .map_err(errno);
        let _ = self.client.clunk(fid);
        let text = String::from_utf8_lossy(&r?).into_owned();
        Ok(text
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .filter_map(|a| parse_addr(a).map(|s| s.ip()))
            .collect())
    }
}

/// `ADDR!PORT`.
fn parse_addr(s: &str) -> Option<SocketAddr> {
    let (ip, port) = s.trim().rsplit_once('!')?;
    Some(SocketAddr::new(ip.parse().ok()?, port.parse().ok()?))
}

fn format_addr(a: SocketAddr) -> String {
    format!("{}!{}", a.ip(), a.port())
}

/// A conversation `tcp/N`: its ctl (and data) fids, clunked when it goes.
struct Conv {
    client: Client,
    ctl: Fid,
    data: Option<Fid>,
    n: String,
}

impl Drop for Conv {
    fn drop(&mut self) {
        if let Some(d) = self.data {
            let _ = self.client.clunk(d);
        }
        let _ = self.client.clunk(self.ctl);
    }
}

impl Conv {
    fn ctl(&self, msg: &str) -> PortResult<()> {
        self.client
            .patient()
            .write(self.ctl, 0, msg.as_bytes())
            .map(drop)
            .map_err(errno)
    }
}

#[derive(Default)]
enum Phase {
    #[default]
    Fresh,
    Connecting,
    Connected,
    /// Announced by `bind`; accepting once `listen` is called.
    Announced {
        accepting: bool,
    },
}

#[derive(Default)]
struct State {
    phase: Phase,
    conv: Option<Arc<Conv>>,
    local: Option<SocketAddr>,
    remote: Option<SocketAddr>,
    /// Read ahead, not yet read by the program.
    buf: VecDeque<u8>,
    eof: bool,
    /// The stream's (or the listener's, or a pending connect's) failure.
    error: Option<Errno>,
    /// Calls accepted by the listening thread.
    calls: VecDeque<Arc<Socket>>,
    read_shut: bool,
    closed: bool,
    /// Calls queued at most, once listening.
    backlog: usize,
    options: HashMap<(i32, i32), i32>,
}

/// One socket of the program.
pub struct Socket {
    net: Arc<NetRoot>,
    state: Mutex<State>,
    cond: Condvar,
    nonblocking: std::sync::atomic::AtomicBool,
}

/// What a descriptor holds: a socket that is closed when the last descriptor of it goes.
pub struct SocketRef(pub Arc<Socket>);

impl Drop for SocketRef {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Socket {
    pub fn new(net: Arc<NetRoot>) -> Arc<Socket> {
        Arc::new(Socket {
            net,
            state: Mutex::new(State::default()),
            cond: Condvar::new(),
            nonblocking: Default::default(),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Wakes the socket's waiters and the selectors.
    fn notify(&self) {
        self.cond.notify_all();
        self.net.bell.ring();
    }

    pub fn set_blocking(&self, blocking: bool) {
        self.nonblocking
            .store(!blocking, std::sync::atomic::Ordering::SeqCst);
    }

    fn blocking(&self) -> bool {
        !self.nonblocking.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Closes the socket: wakes its waiters and lets go of the conversation.
    fn close(&self) {
        let (conv, calls) = {
            let mut st = self.state();
            st.closed = true;
            (st.conv.take(), std::mem::take(&mut st.calls))
        };
        self.notify();
        for c in calls {
            c.close();
        }
        if let Some(conv) = conv {
            // Ends the outstanding read or listen at once (their threads hold the
            // conversation until they see it).
            let _ = conv.client.write(conv.ctl, 0, b"hangup");
        }
    }

    /// Waits until `ready` says so (Some), the socket is closed or the thread cancelled
    /// (`EINTR`), or `deadline` passes (None).
    fn wait<T>(
        &self,
        deadline: Option<Instant>,
        mut ready: impl FnMut(&mut State) -> Option<T>,
    ) -> PortResult<Option<T>> {
        let mut st = self.state();
        loop {
            if st.closed || crate::cancelled() {
                return Err(Errno::EINTR);
            }
            if let Some(v) = ready(&mut st) {
                return Ok(Some(v));
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
            st = self
                .cond
                .wait_timeout(st, slice)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }

    pub fn bind(self: &Arc<Self>, addr: SocketAddr) -> PortResult<()> {
        if !matches!(self.state().phase, Phase::Fresh) {
            return Err(Errno::EINVAL);
        }
        let conv = self.net.clone_conv()?;
        conv.ctl(&format!("announce {}", format_addr(addr)))?;
        let local = self.net.read_file(&["tcp", &conv.n, "local"])?;
        let mut st = self.state();
        st.local = parse_addr(&local);
        st.conv = Some(Arc::new(conv));
        st.phase = Phase::Announced { accepting: false };
        Ok(())
    }

    /// Starts accepting calls; at most `backlog` wait to be accepted (as the kernel's
    /// queue, the gateway's own kernel queue holds the rest).
    pub fn listen(self: &Arc<Self>, backlog: i32) -> PortResult<()> {
        let conv = {
            let mut st = self.state();
            st.backlog = backlog.clamp(1, 4096) as usize;
            match st.phase {
                Phase::Announced { accepting: false } => {}
                Phase::Announced { accepting: true } => return Ok(()),
                _ => return Err(Errno::EINVAL),
            }
            st.phase = Phase::Announced { accepting: true };
            st.conv.clone().ok_or(Errno::EBADF)?
        };
        let me = self.clone();
        std::thread::Builder::new()
            .name("9p-net-listen".into())
            .spawn(move || me.accept_calls(&conv))
            .map_err(|_| Errno::EAGAIN)?;
        Ok(())
    }

    /// The listening thread: opens `listen` again and again, queueing each call.
    fn accept_calls(self: &Arc<Self>, conv: &Conv) {
        let patient = self.net.client.patient();
        loop {
            // Waits while the program has `backlog` calls to accept.
            let room = self.wait(None, |st| (st.calls.len() < st.backlog).then_some(()));
            if room.is_err() {
                return;
            }
            let got = (|| {
                let (fid, _) = patient
                    .walk(self.net.root, &["tcp", &conv.n, "listen"])
                    .map_err(errno)?;
                if let Err(e) = patient.lopen(fid, libc::O_RDWR as u32) {
                    let _ = patient.clunk(fid);
                    return Err(errno(e));
                }
                let call = self.net.conv_of(fid)?;
                Socket::connected(&self.net, call)
            })();
            let mut st = self.state();
            match got {
                Ok(s) => st.calls.push_back(s),
                Err(e) => {
                    st.error = Some(e);
                    drop(st);
                    self.notify();
                    return;
                }
            }
            drop(st);
            self.notify();
        }
    }

    /// A socket of conversation `conv`, whose stream is up: opens its data and starts reading
    /// ahead.
    fn connected(net: &Arc<NetRoot>, mut conv: Conv) -> PortResult<Arc<Socket>> {
        let data = net.open(&["tcp", &conv.n, "data"], libc::O_RDWR)?;
        conv.data = Some(data);
        let s = Socket::new(net.clone());
        s.established(conv)?;
        Ok(s)
    }

    /// Records the addresses of the connected `conv` and starts its reading thread.
    fn established(self: &Arc<Self>, conv: Conv) -> PortResult<()> {
        // Best effort: an option the gateway's socket refuses does not undo the connection.
        let _ = self.forward_options(&conv);
        let local = self.net.read_file(&["tcp", &conv.n, "local"])?;
        let remote = self.net.read_file(&["tcp", &conv.n, "remote"])?;
        let conv = Arc::new(conv);
        {
            let mut st = self.state();
            st.local = parse_addr(&local);
            st.remote = parse_addr(&remote);
            st.conv = Some(conv.clone());
            st.phase = Phase::Connected;
        }
        let me = self.clone();
        std::thread::Builder::new()
            .name("9p-net-read".into())
            .spawn(move || me.read_ahead(&conv))
            .map_err(|_| Errno::EAGAIN)?;
        self.notify();
        Ok(())
    }

    /// The reading thread: one `Tread` outstanding, what comes queued.
    fn read_ahead(&self, conv: &Conv) {
        let Some(data) = conv.data else { return };
        let patient = self.net.client.patient();
        let max = patient.max_io();
        loop {
            let got = patient.read_once(data, 0, max);
            let mut st = self.state();
            match got {
                Ok(d) if d.is_empty() => st.eof = true,
                Ok(d) => st.buf.extend(d),
                Err(e) => {
                    st.error = Some(match errno(e) {
                        Errno::EPIPE | Errno::ECONNRESET => Errno::ECONNRESET,
                        e => e,
                    })
                }
            }
            let done = st.eof || st.error.is_some() || st.closed;
            self.notify();
            if done {
                return;
            }
            // Flow control: wait while the program has enough unread.
            while st.buf.len() >= READ_AHEAD && !st.closed {
                st = self
                    .cond
                    .wait_timeout(st, SLICE)
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .0;
            }
            if st.closed {
                return;
            }
        }
    }

    pub fn connect(self: &Arc<Self>, addr: SocketAddr) -> PortResult<bool> {
        {
            let mut st = self.state();
            match st.phase {
                Phase::Fresh => {}
                Phase::Connecting => return Err(Errno::EALREADY),
                Phase::Connected => return Err(Errno::EISCONN),
                Phase::Announced { .. } => return Err(Errno::EOPNOTSUPP),
            }
            st.phase = Phase::Connecting;
        }
        if self.blocking() {
            let r = self.connect_now(addr);
            if r.is_err() {
                self.state().phase = Phase::Fresh;
            }
            return r.map(|()| true);
        }
        let me = self.clone();
        std::thread::Builder::new()
            .name("9p-net-connect".into())
            .spawn(move || {
                if let Err(e) = me.connect_now(addr) {
                    let mut st = me.state();
                    st.error = Some(e);
                    drop(st);
                    me.notify();
                }
            })
            .map_err(|_| Errno::EAGAIN)?;
        Ok(false)
    }

    fn connect_now(self: &Arc<Self>, addr: SocketAddr) -> PortResult<()> {
        let conv = self.net.clone_conv()?;
        conv.ctl(&format!("connect {}", format_addr(addr)))?;
        let mut conv = conv;
        conv.data = Some(self.net.open(&["tcp", &conv.n, "data"], libc::O_RDWR)?);
        if self.state().closed {
            return Err(Errno::EBADF);
        }
        self.established(conv)
    }

    /// Waits up to `timeout_ms` (-1: for ever) for a non-blocking connect.
    pub fn poll_connect(&self, timeout_ms: i64) -> PortResult<bool> {
        let deadline = deadline(timeout_ms);
        let r = self.wait(deadline, |st| match (&st.phase, st.error) {
            (_, Some(e)) => Some(Err(e)),
            (Phase::Connected, _) => Some(Ok(true)),
            _ => None,
        })?;
        match r {
            Some(Err(e)) => {
                let mut st = self.state();
                st.error = None;
                st.phase = Phase::Fresh;
                Err(e)
            }
            Some(Ok(done)) => Ok(done),
            None => Ok(false),
        }
    }

    pub fn accept(&self) -> PortResult<Arc<Socket>> {
        let blocking = self.blocking();
        let r = self.wait(None, |st| {
            if let Some(c) = st.calls.pop_front() {
                return Some(Ok(c));
            }
            if let Some(e) = st.error {
                return Some(Err(e));
            }
            (!blocking).then_some(Err(Errno::EAGAIN))
        })?;
        // The listening thread may wait for room in the queue.
        self.notify();
        r.unwrap_or(Err(Errno::EAGAIN))
    }

    /// Reads into `out` what is queued (waiting for some unless non-blocking).
    pub fn recv(&self, len: usize) -> PortResult<Vec<u8>> {
        let blocking = self.blocking();
        let r = self.wait(None, |st| {
            if st.read_shut {
                return Some(Ok(Vec::new()));
            }
            if !st.buf.is_empty() {
                let n = len.min(st.buf.len());
                return Some(Ok(st.buf.drain(..n).collect()));
            }
            if st.eof {
                return Some(Ok(Vec::new()));
            }
            if let Some(e) = st.error {
                return Some(Err(e));
            }
            if !matches!(st.phase, Phase::Connected) {
                return Some(Err(Errno::ENOTCONN));
            }
            (!blocking).then_some(Err(Errno::EAGAIN))
        })?;
        self.notify();
        r.unwrap_or(Err(Errno::EAGAIN))
    }

    pub fn send(&self, data: &[u8]) -> PortResult<usize> {
        let (conv, error) = {
            let st = self.state();
            if st.closed {
                return Err(Errno::EBADF);
            }
            (st.conv.clone(), st.error)
        };
        if let Some(e) = error {
            return Err(e);
        }
        let Some(conv) = conv else {
            return Err(Errno::ENOTCONN);
        };
        let data_fid = conv.data.ok_or(Errno::ENOTCONN)?;
        let n = data.len().min(self.net.client.max_io() as usize);
        match self.net.client.patient().write(data_fid, 0, &data[..n]) {
            Ok(n) => Ok(n as usize),
            Err(e) => Err(match errno(e) {
                Errno::ECONNRESET | Errno::EPIPE => Errno::EPIPE,
                e => e,
            }),
        }
    }

    pub fn shutdown(&self, how: i32) -> PortResult<()> {
        let conv = self.state().conv.clone().ok_or(Errno::ENOTCONN)?;
        let word = match how {
            libc::SHUT_RD => "rd",
            libc::SHUT_WR => "wr",
            _ => "rdwr",
        };
        conv.ctl(&format!("shutdown {word}"))?;
        if how != libc::SHUT_WR {
            self.state().read_shut = true;
            self.notify();
        }
        Ok(())
    }

    pub fn address(&self, remote: bool) -> PortResult<SocketAddr> {
        let st = self.state();
        let a = if remote { st.remote } else { st.local };
        match a {
            Some(a) => Ok(a),
            None if remote => Err(Errno::ENOTCONN),
            None => Ok(SocketAddr::from(([0, 0, 0, 0], 0))),
        }
    }

    pub fn get_option(&self, level: i32, opt: i32) -> PortResult<i32> {
        let mut st = self.state();
        if (level, opt) == (libc::SOL_SOCKET, libc::SO_ERROR) {
            // A failed non-blocking connect's error, reported once (as the kernel does).
            if matches!(st.phase, Phase::Connecting)
                && let Some(e) = st.error.take()
            {
                st.phase = Phase::Fresh;
                return Ok(e.0);
            }
            return Ok(0);
        }
        if let Some(&v) = st.options.get(&(level, opt)) {
            return Ok(v);
        }
        Ok(match (level, opt) {
            (libc::SOL_SOCKET, libc::SO_LINGER) => -1,
            (libc::SOL_SOCKET, libc::SO_RCVBUF) => READ_AHEAD as i32,
            (libc::SOL_SOCKET, libc::SO_SNDBUF) => 65536,
            (libc::SOL_SOCKET, libc::SO_ERROR) => 0,
            (libc::SOL_SOCKET, libc::SO_TYPE) => libc::SOCK_STREAM,
            (libc::SOL_SOCKET | libc::IPPROTO_TCP | libc::IPPROTO_IP | libc::IPPROTO_IPV6, _) => 0,
            _ => return Err(Errno::ENOPROTOOPT),
        })
    }

    pub fn set_option(&self, level: i32, opt: i32, value: i32) -> PortResult<()> {
        let conv = {
            let mut st = self.state();
            st.options.insert((level, opt), value);
            st.conv
                .clone()
                .filter(|_| matches!(st.phase, Phase::Connected))
        };
        if let (Some(conv), Some(word)) = (conv, forwarded(level, opt)) {
            conv.ctl(&format!("{word} {}", on_off(value)))?;
        }
        Ok(())
    }

    /// Applies the options set before the connection to its gateway socket.
    fn forward_options(&self, conv: &Conv) -> PortResult<()> {
        let options: Vec<((i32, i32), i32)> =
            self.state().options.iter().map(|(&k, &v)| (k, v)).collect();
        for ((level, opt), value) in options {
            if let Some(word) = forwarded(level, opt) {
                conv.ctl(&format!("{word} {}", on_off(value)))?;
            }
        }
        Ok(())
    }

    /// The poll events of `events` that are ready now.
    fn ready_in(st: &State, events: i16) -> i16 {
        let mut r = 0;
        let readable = !st.buf.is_empty()
            || st.eof
            || st.read_shut
            || !st.calls.is_empty()
            || st.error.is_some();
        if readable {
            r |= libc::POLLIN;
        }
        let writable = matches!(st.phase, Phase::Connected) || st.error.is_some();
        if writable {
            r |= libc::POLLOUT;
        }
        let mut out = r & events;
        if st.error.is_some() {
            out |= libc::POLLERR;
        }
        if st.eof {
            out |= libc::POLLHUP & events;
        }
        out
    }

    pub fn poll(&self, events: i16, timeout_ms: i64) -> PortResult<i16> {
        let deadline = deadline(timeout_ms);
        let r = self.wait(deadline, |st| {
            let r = Self::ready_in(st, events);
            (r != 0 || timeout_ms == 0).then_some(r)
        })?;
        Ok(r.unwrap_or(0))
    }

    pub fn available(&self) -> i32 {
        self.state().buf.len().min(i32::MAX as usize) as i32
    }
}

/// When a wait of `timeout_ms` (negative: none) ends.
pub(super) fn deadline(timeout_ms: i64) -> Option<Instant> {
    (timeout_ms >= 0).then(|| Instant::now() + Duration::from_millis(timeout_ms as u64))
}

impl Local for Socket {
    fn read(&self, len: usize) -> PortResult<Vec<u8>> {
        self.recv(len)
    }
    fn write(&self, data: &[u8]) -> PortResult<usize> {
        self.send(data)
    }
    fn set_blocking(&self, blocking: bool) {
        Socket::set_blocking(self, blocking)
    }
    fn available(&self) -> i32 {
        Socket::available(self)
    }
    fn ready(&self, events: i16) -> i16 {
        Socket::ready_in(&self.state(), events)
    }
}

/// The gateway's ctl word for a socket option it applies to its own socket.
fn forwarded(level: i32, opt: i32) -> Option<&'static str> {
    match (level, opt) {
        (libc::IPPROTO_TCP, libc::TCP_NODELAY) => Some("nodelay"),
        (libc::SOL_SOCKET, libc::SO_KEEPALIVE) => Some("keepalive"),
        _ => None,
    }
}

fn on_off(v: i32) -> &'static str {
    if v != 0 { "on" } else { "off" }
}
