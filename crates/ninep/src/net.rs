//! Owns [`Net`]: a [`Filesystem`] serving the host's TCP as a Plan 9 style `/net` tree (after
//! Plan 9's ip(3) and ndb(8) manuals; the behaviour below is written from them), and
//! [`WithNet`], which serves it beside another tree on one connection.
//!
//! The tree (its root is what `Tattach` with aname [`NET_ANAME`] gives):
//!
//! ```text
//! cs                  write `tcp!HOST!PORT`, then read one line per address:
//!                     `/net/tcp/clone ADDR!PORT`; a name that does not resolve fails the write
//! tcp/clone           opening it makes a new conversation; the fid is then that
//!                     conversation's ctl (reading it gives the number N)
//! tcp/N/ctl           read: N. write: `connect ADDR!PORT`, `announce ADDR!PORT` (`*` or no
//!                     address: every interface; port 0: any free port), `hangup`,
//!                     `keepalive on|off`, and, beyond Plan 9, `shutdown rd|wr|rdwr` (a half
//!                     close) and `nodelay on|off` (TCP_NODELAY)
//! tcp/N/data          the byte stream: a read blocks until data comes (an empty read is the
//!                     end of the stream), a write sends all it carries
//! tcp/N/listen        opening it blocks until a call comes to the announced address; the
//!                     fid becomes the new conversation's ctl
//! tcp/N/local, remote `ADDR!PORT\n`
//! tcp/N/status        `Closed`, `Announced` or `Established`
//! ```
//!
//! A conversation lives while any of its files is open (or walked to); when the last goes,
//! its socket is closed. Offsets are ignored on `data` (a stream) and honoured on the small
//! text files.
//!
//! Why a separate aname rather than a directory `net` in an exported tree: a file tree's
//! names are the host's, and any of them (a directory called `net` included) must stay a
//! file; an attach name that is not a path (it starts with `#`, as Plan 9's kernel device
//! names do) cannot be taken for one. [`WithNet`] checks it before the file tree sees the
//! attach, so an export of a directory literally named `#net` does not hide the network.
//!
//! Must not: touch the files of an export (it has none), or resolve names anywhere but the
//! host's resolver.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::errno::Errno;
use crate::lock;
use crate::msg::{self, Attr, Dirent, Flock, Getlock, QTDIR, QTFILE, Qid, SetAttr, Statfs};
use crate::server::{Filesystem, FsResult};
use crate::wire::Wire;

/// The attach name of the network tree.
pub const NET_ANAME: &str = "#net";

/// Longest ctl message accepted.
const MAX_CTL: usize = 1024;

/// The host's TCP as a `/net` tree.
#[derive(Default)]
pub struct Net {
    inner: Arc<Registry>,
}

#[derive(Default)]
struct Registry {
    convs: Mutex<HashMap<u32, Weak<Conv>>>,
}

impl Registry {
    /// A new conversation under the lowest free number.
    fn new_conv(&self, sock: Sock) -> Arc<Conv> {
        let mut convs = lock(&self.convs);
        convs.retain(|_, c| c.strong_count() > 0);
        let id = (0..).find(|n| !convs.contains_key(n)).unwrap_or(0);
        let conv = Arc::new(Conv {
            id,
            sock: Mutex::new(sock),
            opens: AtomicUsize::new(0),
        });
        convs.insert(id, Arc::downgrade(&conv));
        conv
    }

    fn get(&self, id: u32) -> Option<Arc<Conv>> {
        lock(&self.convs).get(&id).and_then(Weak::upgrade)
    }

    fn ids(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = lock(&self.convs)
            .iter()
            .filter(|(_, c)| c.strong_count() > 0)
            .map(|(&n, _)| n)
            .collect();
        ids.sort_unstable();
        ids
    }
}

/// One conversation's socket.
#[derive(Clone, Default)]
enum Sock {
    #[default]
    Closed,
    Listener(Arc<TcpListener>),
    Stream(Arc<TcpStream>),
}

/// A conversation: `tcp/N`.
struct Conv {
    id: u32,
    sock: Mutex<Sock>,
    /// Its files open now: the socket is closed when the last is clunked.
    opens: AtomicUsize,
}

impl Conv {
    fn sock(&self) -> Sock {
        lock(&self.sock).clone()
    }

    /// Closes the socket and wakes whoever waits on it (a blocked `accept` or read).
    fn hangup(&self) {
        match std::mem::take(&mut *lock(&self.sock)) {
            Sock::Closed => {}
            Sock::Listener(l) => crate::sys::shutdown(l.as_fd()),
            Sock::Stream(s) => {
                let _ = s.shutdown(Shutdown::Both);
            }
        }
    }

    fn ctl(&self, text: &[u8]) -> FsResult<()> {
        let text = std::str::from_utf8(text).map_err(|_| Errno::EINVAL)?;
        let mut words = text.split_whitespace();
        let verb = words.next().ok_or(Errno::EINVAL)?;
        let arg = words.next();
        match (verb, arg) {
            ("connect", Some(a)) => {
                if !matches!(self.sock(), Sock::Closed) {
                    return Err(Errno(libc::EISCONN as u32));
                }
                let addr = resolve_one(a)?;
                let s = TcpStream::connect(addr).map_err(|e| Errno::from_io(&e))?;
                *lock(&self.sock) = Sock::Stream(Arc::new(s));
                Ok(())
            }
            ("announce", a) => {
                if !matches!(self.sock(), Sock::Closed) {
                    return Err(Errno(libc::EISCONN as u32));
                }
                let addr = announce_addr(a.unwrap_or("*!0"))?;
                let l = TcpListener::bind(addr).map_err(|e| Errno::from_io(&e))?;
                *lock(&self.sock) = Sock::Listener(Arc::new(l));
                Ok(())
            }
            ("hangup", None) => {
                self.hangup();
                Ok(())
            }
            ("nodelay" | "keepalive", Some(v)) => {
                let on = match v {
                    "on" | "1" => true,
                    "off" | "0" => false,
                    _ => return Err(Errno::EINVAL),
                };
                let Sock::Stream(s) = self.sock() else {
                    return Err(Errno(libc::ENOTCONN as u32));
                };
                let r = match verb {
                    "nodelay" => s.set_nodelay(on),
                    _ => crate::sys::set_keepalive(s.as_fd(), on),
                };
                r.map_err(|e| Errno::from_io(&e))
            }
            ("shutdown", Some(how)) => {
                let how = match how {
                    "rd" => Shutdown::Read,
                    "wr" => Shutdown::Write,
                    "rdwr" => Shutdown::Both,
                    _ => return Err(Errno::EINVAL),
                };
                match self.sock() {
                    Sock::Stream(s) => s.shutdown(how).map_err(|e| Errno::from_io(&e)),
                    _ => Err(Errno(libc::ENOTCONN as u32)),
                }
            }
            _ => Err(Errno::EINVAL),
        }
    }

    fn address(&self, remote: bool) -> String {
        let a = match self.sock() {
            Sock::Stream(s) if remote => s.peer_addr().ok(),
            Sock::Stream(s) => s.local_addr().ok(),
            Sock::Listener(l) if !remote => l.local_addr().ok(),
            _ => None,
        };
        match a {
            Some(a) => format!("{}!{}\n", a.ip(), a.port()),
            None => "::!0\n".to_string(),
        }
    }

    fn status(&self) -> &'static str {
        match self.sock() {
            Sock::Closed => "Closed\n",
            Sock::Listener(_) => "Announced\n",
            Sock::Stream(_) => "Established\n",
        }
    }
}

/// `HOST!PORT` split at its last `!`.
fn split_addr(a: &str) -> FsResult<(&str, u16)> {
    let (host, port) = a.rsplit_once('!').ok_or(Errno::EINVAL)?;
    let port = port.parse().map_err(|_| Errno::EINVAL)?;
    Ok((host, port))
}

fn resolve_one(a: &str) -> FsResult<SocketAddr> {
    let (host, port) = split_addr(a)?;
    (host, port)
        .to_socket_addrs()
        .map_err(|_| Errno::ENOENT)?
        .next()
        .ok_or(Errno::ENOENT)
}

/// An announce address: `*!PORT`, `PORT`, or `ADDR!PORT`.
fn announce_addr(a: &str) -> FsResult<SocketAddr> {
    if let Ok(port) = a.parse::<u16>() {
        return Ok(SocketAddr::from(([0, 0, 0, 0], port)));
    }
    match split_addr(a)? {
        ("*", port) => Ok(SocketAddr::from(([0, 0, 0, 0], port))),
        _ => resolve_one(a),
    }
}

/// The `cs` answer to `tcp!HOST!PORT`.
fn cs_query(q: &[u8]) -> FsResult<Vec<u8>> {
    let q = std::str::from_utf8(q).map_err(|_| Errno::EINVAL)?.trim();
    let (proto, rest) = q.split_once('!').ok_or(Errno::EINVAL)?;
    if proto != "tcp" && proto != "net" {
        return Err(Errno::EINVAL);
    }
    let (host, port) = split_addr(rest)?;
    let addrs = (host, port).to_socket_addrs().map_err(|_| Errno::ENOENT)?;
    let mut out = String::new();
    for a in addrs {
        out += &format!("/net/tcp/clone {}!{}\n", a.ip(), a.port());
    }
    if out.is_empty() {
        return Err(Errno::ENOENT);
    }
    Ok(out.into_bytes())
}

/// Which file of a conversation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum File {
    Ctl,
    Data,
    Listen,
    Local,
    Remote,
    Status,
}

const FILES: &[(&str, File)] = &[
    ("ctl", File::Ctl),
    ("data", File::Data),
    ("listen", File::Listen),
    ("local", File::Local),
    ("remote", File::Remote),
    ("status", File::Status),
];

#[derive(Clone)]
enum Node {
    Root,
    Cs,
    Tcp,
    Clone,
    Dir(Arc<Conv>),
    File(Arc<Conv>, File),
}

impl Node {
    fn qid(&self) -> Qid {
        let (qtype, path) = match self {
            Node::Root => (QTDIR, 1),
            Node::Cs => (QTFILE, 2),
            Node::Tcp => (QTDIR, 3),
            Node::Clone => (QTFILE, 4),
            Node::Dir(c) => (QTDIR, (u64::from(c.id) + 1) << 8),
            Node::File(c, f) => (QTFILE, ((u64::from(c.id) + 1) << 8) | (*f as u64 + 1)),
        };
        Qid {
            qtype,
            version: 0,
            path,
        }
    }

    fn name(&self) -> String {
        match self {
            Node::Root => "net".into(),
            Node::Cs => "cs".into(),
            Node::Tcp => "tcp".into(),
            Node::Clone => "clone".into(),
            Node::Dir(c) => c.id.to_string(),
            Node::File(_, f) => FILES
                .iter()
                .find(|(_, g)| g == f)
                .map_or("?", |(n, _)| n)
                .into(),
        }
    }
}

/// One fid of [`Net`].
pub struct NetFid {
    state: Mutex<FidState>,
}

struct FidState {
    node: Node,
    opened: bool,
    /// A `cs` fid's last answer.
    answer: Vec<u8>,
}

impl NetFid {
    fn new(node: Node) -> NetFid {
        NetFid {
            state: Mutex::new(FidState {
                node,
                opened: false,
                answer: Vec::new(),
            }),
        }
    }

    fn node(&self) -> Node {
        lock(&self.state).node.clone()
    }
}

fn text_at(text: &[u8], offset: u64, count: u32) -> Vec<u8> {
    let start = usize::try_from(offset)
        .unwrap_or(usize::MAX)
        .min(text.len());
    let end = start.saturating_add(count as usize).min(text.len());
    text[start..end].to_vec()
}

impl Net {
    pub fn new() -> Net {
        Net::default()
    }

    fn children(&self, node: &Node) -> FsResult<Vec<Node>> {
        Ok(match node {
            Node::Root => vec![Node::Cs, Node::Tcp],
            Node::Tcp => {
                let mut v = vec![Node::Clone];
                v.extend(
                    self.inner
                        .ids()
                        .into_iter()
                        .filter_map(|n| self.inner.get(n).map(Node::Dir)),
                );
                v
            }
            Node::Dir(c) => FILES
                .iter()
                .map(|(_, f)| Node::File(c.clone(), *f))
                .collect(),
            _ => return Err(Errno::ENOTDIR),
        })
    }

    fn step(&self, node: &Node, name: &[u8]) -> FsResult<Node> {
        let name = std::str::from_utf8(name).map_err(|_| Errno::ENOENT)?;
        Ok(match (node, name) {
            (n, ".") => n.clone(),
            (Node::Root | Node::Cs | Node::Tcp, "..") => Node::Root,
            (Node::Clone | Node::Dir(_), "..") => Node::Tcp,
            (Node::File(c, _), "..") => Node::Dir(c.clone()),
            (Node::Root, "cs") => Node::Cs,
            (Node::Root, "tcp") => Node::Tcp,
            (Node::Tcp, "clone") => Node::Clone,
            (Node::Tcp, n) => {
                let id: u32 = n.parse().map_err(|_| Errno::ENOENT)?;
                Node::Dir(self.inner.get(id).ok_or(Errno::ENOENT)?)
            }
            (Node::Dir(c), n) => {
                let f = FILES.iter().find(|(m, _)| *m == n).ok_or(Errno::ENOENT)?;
                Node::File(c.clone(), f.1)
            }
            (Node::Cs | Node::Clone | Node::File(..), _) => return Err(Errno::ENOTDIR),
            _ => return Err(Errno::ENOENT),
        })
    }
}

impl Filesystem for Net {
    type Fid = NetFid;

    fn attach(&self, _uname: &[u8], _aname: &[u8], _n_uname: u32) -> FsResult<(NetFid, Qid)> {
        Ok((NetFid::new(Node::Root), Node::Root.qid()))
    }

    fn walk(&self, fid: &NetFid, names: &[Vec<u8>]) -> FsResult<(Vec<Qid>, Option<NetFid>)> {
        let mut node = fid.node();
        let mut qids = Vec::new();
        for (i, name) in names.iter().enumerate() {
            match self.step(&node, name) {
                Ok(n) => {
                    qids.push(n.qid());
                    node = n;
                }
                Err(e) if i == 0 => return Err(e),
                Err(_) => return Ok((qids, None)),
            }
        }
        Ok((qids, Some(NetFid::new(node))))
    }

    fn getattr(&self, fid: &NetFid, _mask: u64) -> FsResult<Attr> {
        let node = fid.node();
        let qid = node.qid();
        let mode = if qid.qtype == QTDIR {
            libc::S_IFDIR | 0o555
        } else {
            libc::S_IFREG | 0o666
        };
        Ok(Attr {
            valid: msg::GETATTR_BASIC,
            qid,
            mode,
            nlink: 1,
            blksize: 4096,
            ..Attr::default()
        })
    }

    fn lopen(&self, fid: &NetFid, _flags: u32) -> FsResult<(Qid, u32)> {
        let node = fid.node();
        let node = match node {
            Node::Clone => Node::File(self.inner.new_conv(Sock::Closed), File::Ctl),
            Node::File(c, File::Listen) => {
                let Sock::Listener(l) = c.sock() else {
                    return Err(Errno::EINVAL);
                };
                // Blocks until a call comes, or the conversation is hung up.
                let (s, _) = loop {
                    match l.accept() {
                        Ok(a) => break a,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(Errno::from_io(&e)),
                    }
                };
                Node::File(self.inner.new_conv(Sock::Stream(Arc::new(s))), File::Ctl)
            }
            n => n,
        };
        let qid = node.qid();
        let mut st = lock(&fid.state);
        if st.opened {
            return Err(Errno::EBADF);
        }
        if let Node::File(c, _) = &node {
            c.opens.fetch_add(1, Ordering::SeqCst);
        }
        st.node = node;
        st.opened = true;
        Ok((qid, 0))
    }

    fn clunk(&self, fid: &NetFid) {
        let mut st = lock(&fid.state);
        if std::mem::take(&mut st.opened)
            && let Node::File(c, _) = &st.node
            && c.opens.fetch_sub(1, Ordering::SeqCst) == 1
        {
            c.hangup();
        }
    }

    fn readdir(&self, fid: &NetFid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        let node = fid.node();
        let mut entries = vec![(node.qid(), ".".to_string()), (node.qid(), "..".into())];
        entries.extend(self.children(&node)?.iter().map(|c| (c.qid(), c.name())));
        let mut out = Vec::new();
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        for (i, (qid, name)) in entries.into_iter().enumerate().skip(start) {
            let d = Dirent {
                dtype: if qid.qtype == QTDIR { 4 } else { 8 },
                qid,
                offset: i as u64 + 1,
                name: name.into_bytes(),
            };
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

    fn read(&self, fid: &NetFid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        let (node, answer) = {
            let st = lock(&fid.state);
            if !st.opened {
                return Err(Errno::EBADF);
            }
            (st.node.clone(), st.answer.clone())
        };
        match node {
            Node::Cs => Ok(text_at(&answer, offset, count)),
            Node::File(c, File::Data) => {
                let Sock::Stream(s) = c.sock() else {
                    return Err(Errno(libc::ENOTCONN as u32));
                };
                let mut buf = vec![0u8; count as usize];
                loop {
                    match (&*s).read(&mut buf) {
                        Ok(n) => {
                            buf.truncate(n);
                            return Ok(buf);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(Errno::from_io(&e)),
                    }
                }
            }
            Node::File(c, f) => {
                let text = match f {
                    File::Ctl => c.id.to_string(),
                    File::Local => c.address(false),
                    File::Remote => c.address(true),
                    File::Status => c.status().to_string(),
                    File::Data | File::Listen => return Err(Errno::EINVAL),
                };
                Ok(text_at(text.as_bytes(), offset, count))
            }
            Node::Root | Node::Tcp | Node::Dir(_) => Err(Errno::EISDIR),
            Node::Clone => Err(Errno::EBADF),
        }
    }

    fn write(&self, fid: &NetFid, _offset: u64, data: &[u8]) -> FsResult<u32> {
        let node = {
            let st = lock(&fid.state);
            if !st.opened {
                return Err(Errno::EBADF);
            }
            st.node.clone()
        };
        let n = u32::try_from(data.len()).map_err(|_| Errno::EINVAL)?;
        match node {
            Node::Cs => {
                let answer = cs_query(data.get(..MAX_CTL).unwrap_or(data))?;
                lock(&fid.state).answer = answer;
                Ok(n)
            }
            Node::File(c, File::Ctl) => {
                if data.len() > MAX_CTL {
                    return Err(Errno::EINVAL);
                }
                c.ctl(data).map(|()| n)
            }
            Node::File(c, File::Data) => {
                let Sock::Stream(s) = c.sock() else {
                    return Err(Errno(libc::ENOTCONN as u32));
                };
                (&*s).write_all(data).map_err(|e| Errno::from_io(&e))?;
                Ok(n)
            }
            Node::Root | Node::Tcp | Node::Dir(_) => Err(Errno::EISDIR),
            _ => Err(Errno::EACCES),
        }
    }

    fn statfs(&self, _fid: &NetFid) -> FsResult<Statfs> {
        Ok(Statfs {
            bsize: 4096,
            namelen: 255,
            ..Statfs::default()
        })
    }
}

impl Drop for Conv {
    fn drop(&mut self) {
        self.hangup();
    }
}

/// A file tree and, with the network on, [`Net`] under the attach name [`NET_ANAME`].
pub struct WithNet<F> {
    files: F,
    net: Option<Net>,
}

impl<F> WithNet<F> {
    /// `files`, with the network tree when `net`.
    pub fn new(files: F, net: bool) -> WithNet<F> {
        WithNet {
            files,
            net: net.then(Net::new),
        }
    }
}

/// A fid of [`WithNet`]: of one tree or the other.
pub enum EitherFid<A> {
    Files(A),
    Net(NetFid),
}

macro_rules! either {
    ($self:ident, $fid:expr, |$f:ident| $files:expr, |$n:ident, $net:ident| $netx:expr) => {
        match ($fid, &$self.net) {
            (EitherFid::Files($f), _) => $files,
            (EitherFid::Net($n), Some($net)) => $netx,
            (EitherFid::Net(_), None) => Err(Errno::EBADF),
        }
    };
}

/// Calls on two fids must be of one tree.
fn same_tree() -> Errno {
    Errno::EXDEV
}

impl<F: Filesystem> Filesystem for WithNet<F> {
    type Fid = EitherFid<F::Fid>;

    fn attach(&self, uname: &[u8], aname: &[u8], n_uname: u32) -> FsResult<(Self::Fid, Qid)> {
        if aname == NET_ANAME.as_bytes() {
            let net = self.net.as_ref().ok_or(Errno::ENOENT)?;
            let (f, q) = net.attach(uname, aname, n_uname)?;
            return Ok((EitherFid::Net(f), q));
        }
        let (f, q) = self.files.attach(uname, aname, n_uname)?;
        Ok((EitherFid::Files(f), q))
    }
    fn walk(&self, fid: &Self::Fid, names: &[Vec<u8>]) -> FsResult<(Vec<Qid>, Option<Self::Fid>)> {
        either!(
            self,
            fid,
            |f| self
                .files
                .walk(f, names)
                .map(|(q, f)| (q, f.map(EitherFid::Files))),
            |n, net| net.walk(n, names).map(|(q, f)| (q, f.map(EitherFid::Net)))
        )
    }
    fn getattr(&self, fid: &Self::Fid, mask: u64) -> FsResult<Attr> {
        either!(self, fid, |f| self.files.getattr(f, mask), |n, net| net
            .getattr(n, mask))
    }
    fn lopen(&self, fid: &Self::Fid, flags: u32) -> FsResult<(Qid, u32)> {
        either!(self, fid, |f| self.files.lopen(f, flags), |n, net| net
            .lopen(n, flags))
    }
    fn lcreate(
        &self,
        fid: &Self::Fid,
        name: &[u8],
        flags: u32,
        mode: u32,
        gid: u32,
    ) -> FsResult<(Qid, u32)> {
        either!(
            self,
            fid,
            |f| self.files.lcreate(f, name, flags, mode, gid),
            |_n, _net| Err(Errno::EACCES)
        )
    }
    fn symlink(&self, dfid: &Self::Fid, name: &[u8], target: &[u8], gid: u32) -> FsResult<Qid> {
        either!(
            self,
            dfid,
            |f| self.files.symlink(f, name, target, gid),
            |_n, _net| Err(Errno::EACCES)
        )
    }
    fn mknod(
        &self,
        dfid: &Self::Fid,
        name: &[u8],
        mode: u32,
        dev: (u32, u32),
        gid: u32,
    ) -> FsResult<Qid> {
        either!(
            self,
            dfid,
            |f| self.files.mknod(f, name, mode, dev, gid),
            |_n, _net| Err(Errno::EACCES)
        )
    }
    fn rename(&self, fid: &Self::Fid, dfid: &Self::Fid, name: &[u8]) -> FsResult<()> {
        match (fid, dfid) {
            (EitherFid::Files(a), EitherFid::Files(b)) => self.files.rename(a, b, name),
            _ => Err(same_tree()),
        }
    }
    fn readlink(&self, fid: &Self::Fid) -> FsResult<Vec<u8>> {
        either!(self, fid, |f| self.files.readlink(f), |_n, _net| Err(
            Errno::EINVAL
        ))
    }
    fn setattr(&self, fid: &Self::Fid, attr: &SetAttr) -> FsResult<()> {
        // Opening a ctl or data file for writing may truncate: nothing to do on the network.
        either!(
            self,
            fid,
            |f| self.files.setattr(f, attr),
            |_n, _net| Ok(())
        )
    }
    fn xattrwalk(&self, fid: &Self::Fid, name: &[u8]) -> FsResult<(u64, Self::Fid)> {
        either!(
            self,
            fid,
            |f| self
                .files
                .xattrwalk(f, name)
                .map(|(s, f)| (s, EitherFid::Files(f))),
            |_n, _net| Err(Errno::EOPNOTSUPP)
        )
    }
    fn xattrcreate(&self, fid: &Self::Fid, name: &[u8], size: u64, flags: u32) -> FsResult<()> {
        either!(
            self,
            fid,
            |f| self.files.xattrcreate(f, name, size, flags),
            |_n, _net| Err(Errno::EOPNOTSUPP)
        )
    }
    fn readdir(&self, fid: &Self::Fid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        either!(
            self,
            fid,
            |f| self.files.readdir(f, offset, count),
            |n, net| net.readdir(n, offset, count)
        )
    }
    fn fsync(&self, fid: &Self::Fid, datasync: bool) -> FsResult<()> {
        either!(self, fid, |f| self.files.fsync(f, datasync), |_n, _net| Ok(
            ()
        ))
    }
    fn lock(&self, fid: &Self::Fid, lock: &Flock) -> FsResult<u8> {
        either!(self, fid, |f| self.files.lock(f, lock), |_n, _net| Err(
            Errno::EOPNOTSUPP
        ))
    }
    fn getlock(&self, fid: &Self::Fid, lock: &Getlock) -> FsResult<Getlock> {
        either!(self, fid, |f| self.files.getlock(f, lock), |_n, _net| Err(
            Errno::EOPNOTSUPP
        ))
    }
    fn link(&self, dfid: &Self::Fid, fid: &Self::Fid, name: &[u8]) -> FsResult<()> {
        match (dfid, fid) {
            (EitherFid::Files(a), EitherFid::Files(b)) => self.files.link(a, b, name),
            _ => Err(same_tree()),
        }
    }
    fn mkdir(&self, dfid: &Self::Fid, name: &[u8], mode: u32, gid: u32) -> FsResult<Qid> {
        either!(
            self,
            dfid,
            |f| self.files.mkdir(f, name, mode, gid),
            |_n, _net| Err(Errno::EACCES)
        )
    }
    fn renameat(
        &self,
        olddir: &Self::Fid,
        oldname: &[u8],
        newdir: &Self::Fid,
        newname: &[u8],
    ) -> FsResult<()> {
        match (olddir, newdir) {
            (EitherFid::Files(a), EitherFid::Files(b)) => {
                self.files.renameat(a, oldname, b, newname)
            }
            _ => Err(same_tree()),
        }
    }
    fn unlinkat(&self, dir: &Self::Fid, name: &[u8], flags: u32) -> FsResult<()> {
        either!(
            self,
            dir,
            |f| self.files.unlinkat(f, name, flags),
            |_n, _net| Err(Errno::EACCES)
        )
    }
    fn statfs(&self, fid: &Self::Fid) -> FsResult<Statfs> {
        either!(self, fid, |f| self.files.statfs(f), |n, net| net.statfs(n))
    }
    fn read(&self, fid: &Self::Fid, offset: u64, count: u32) -> FsResult<Vec<u8>> {
        either!(
            self,
            fid,
            |f| self.files.read(f, offset, count),
            |n, net| net.read(n, offset, count)
        )
    }
    fn write(&self, fid: &Self::Fid, offset: u64, data: &[u8]) -> FsResult<u32> {
        either!(
            self,
            fid,
            |f| self.files.write(f, offset, data),
            |n, net| net.write(n, offset, data)
        )
    }
    fn remove(&self, fid: &Self::Fid) -> FsResult<()> {
        either!(self, fid, |f| self.files.remove(f), |_n, _net| Err(
            Errno::EACCES
        ))
    }
    fn clunk(&self, fid: &Self::Fid) {
        match (fid, &self.net) {
            (EitherFid::Files(f), _) => self.files.clunk(f),
            (EitherFid::Net(n), Some(net)) => net.clunk(n),
            (EitherFid::Net(_), None) => {}
        }
    }
    fn quick(&self, fid: &Self::Fid) -> bool {
        match fid {
            EitherFid::Files(f) => self.files.quick(f),
            EitherFid::Net(_) => false,
        }
    }
}
