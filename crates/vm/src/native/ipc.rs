//! Natives of `jx.ipc.Channel`: channels between jxvm processes. The channel itself (rings,
//! rendezvous, frames, the checks of a received graph) is crate `ipc`'s; this module is the
//! policy and the bridge to a domain's heap:
//!
//! - sending: the graph is encoded by the object-graph copier ([`crate::graph`]) in the
//!   sender's domain; enum constants and `Class` objects become tokens that the frame names
//!   (class and constant), every class met goes into the frame's class table with its shape;
//!   a memory object made by `Memory.allocateShared` becomes a token naming its region's
//!   descriptor (passed with the frame), its grant slot, bounds and writability: the receiver
//!   maps the same bytes, under the same grant;
//!   a portal or a service (an object implementing a `jx.portal.Portal` interface) becomes a
//!   portal token, exported to the peer (`native::remote`);
//!   what cannot mean anything in another process is refused (`IllegalArgumentException`,
//!   nothing sent): what portals refuse between domains, the API's other objects (memory
//!   objects made by `Memory.allocate`, domains), a portal from another channel, hidden
//!   classes (lambdas);
//! - receiving: each class of the frame is loaded by name by the domain's application loader
//!   and must have the sender's shape (else `InvalidClassException`, the frame dropped and the
//!   channel usable); classes are verified but not initialized (the peer does not choose which
//!   static initializers run here); tokens become the receiver's own constants and mirrors;
//!   a portal token becomes a portal to the peer's export (or this end's own service back);
//!   the graph is decoded by the copier into the domain's heap from the frame's private copy
//!   (copied out of the ring whole, never parsed in shared memory), `OutOfMemoryError` if it
//!   has no room; then checked by `ipc::check` (`StreamCorruptedException` if a hostile peer
//!   broke a type) and its Throwables given the receiver's sentinels.
//!
//! A channel is named in Java by an id into a process-wide table (never a pointer) of ends
//! ([`Peer`]: the channel multiplexed by `ipc::mux`, and its portals); the waiting is a
//! blocking operation of the domain (it may collect meanwhile). The graph encoding and
//! decoding here also carry the arguments and results of portal calls (`native::remote`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ipc::frame::{GraphFrame, TokenDesc};
use ipc::{Channel, ChannelError};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use smallvec::SmallVec;

use super::remote::Peer;
use super::{Registry, jlong, nonnull, obj};
use crate::class::{Class, LoaderId};
use crate::domain::portal;
use crate::graph::{self, CopyError, Walk};
use crate::heap::{ObjRef, from_slot, to_slot};
use crate::thread::{JResult, JThread, Thrown};
use base::layout::ARRAY_BASE;

const CHANNEL: &str = "jx/ipc/Channel";
const CLOSED: &str = "jx/ipc/ChannelClosedException";

pub fn register(r: &mut Registry) {
    r.add(CHANNEL, "listen0", "(Ljava/lang/String;J)J", listen);
    r.add(CHANNEL, "connect0", "(Ljava/lang/String;)J", connect);
    r.add(CHANNEL, "send0", "(JLjava/lang/Object;)V", send);
    r.add(CHANNEL, "receive0", "(JJ)Ljava/lang/Object;", receive);
    r.add(CHANNEL, "close0", "(J)V", |_, a| {
        let peer = CHANNELS.lock().as_mut().and_then(|m| m.remove(&a[0]));
        if let Some(p) = peer {
            p.mux.end();
        }
        Ok(0)
    });
    r.add(CHANNEL, "drop0", "(J)V", |_, a| {
        let peer = CHANNELS.lock().as_mut().and_then(|m| m.remove(&a[0]));
        if let Some(p) = peer {
            p.orphan();
        }
        Ok(0)
    });
}

/// The open channels of the process, by id.
static CHANNELS: Mutex<Option<FxHashMap<u64, Arc<Peer>>>> = Mutex::new(None);
static NEXT: AtomicU64 = AtomicU64::new(1);

fn keep(t: &JThread, c: Channel) -> u64 {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let peer = Peer::new(t.vm, c, t.domain.heap.capacity() as u64);
    CHANNELS
        .lock()
        .get_or_insert_with(FxHashMap::default)
        .insert(id, peer);
    id
}

fn channel(t: &mut JThread, id: u64) -> JResult<Arc<Peer>> {
    let c = CHANNELS.lock().as_ref().and_then(|m| m.get(&id).cloned());
    c.ok_or_else(|| t.throw_new(CLOSED, Some("the channel is closed")))
}

/// The Java exception for a channel error.
fn thrown(t: &mut JThread, e: ChannelError) -> Thrown {
    match e {
        ChannelError::Closed => t.throw_new(CLOSED, Some("the peer closed the channel or died")),
        ChannelError::Interrupted => {
            t.interrupted.store(false, Ordering::SeqCst);
            super::thread::clear_interrupt_field(t);
            t.throw_new("java/lang/InterruptedException", None)
        }
        ChannelError::Corrupt(m) => t.throw_new("java/io/StreamCorruptedException", Some(&m)),
        ChannelError::Io(e) => t.throw_new("java/io/IOException", Some(&e.to_string())),
        ChannelError::TooLarge(n) => {
            let msg = format!("Java heap space: a received graph of {n} bytes does not fit");
            t.throw_new("java/lang/OutOfMemoryError", Some(&msg))
        }
    }
}

/// Channel.listen0(String name, long timeoutMillis)
fn listen(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
    let timeout = Duration::from_millis(jlong(a[1]).max(0) as u64);
    let flag = t.interrupted.clone();
    let r = t.blocking(|| Channel::listen(&name, timeout, &|| flag.load(Ordering::SeqCst)));
    match r {
        Ok(c) => Ok(keep(t, c)),
        Err(e) => Err(thrown(t, e)),
    }
}

/// Channel.connect0(String name)
fn connect(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
    let r = t.blocking(|| Channel::connect(&name));
    match r {
        Ok(c) => Ok(keep(t, c)),
        Err(e) => Err(thrown(t, e)),
    }
}

/// What a sent graph's token stands for.
pub(super) enum Token {
    Enum(&'static Class, String),
    Class(&'static Class),
    /// A memory object of a shared region.
    Memory(crate::memory::View),
    /// A portal: this end's export (a service id), or, if `yours`, the peer's own export.
    Portal {
        id: u64,
        yours: bool,
        interfaces: Vec<String>,
    },
}

/// A graph encoded for the peer, ready to be framed.
#[derive(Default)]
pub(super) struct Encoded {
    classes: Vec<&'static Class>,
    tokens: Vec<Token>,
    pub(super) graph: Vec<u8>,
    /// The services this end exports by this graph (to count once it is sent).
    pub(super) exports: Vec<u64>,
}

impl Encoded {
    /// The frame's bytes up to its graph (of kind `kind`, its payload beginning with
    /// `prefix`), and the descriptors of the shared regions it holds, each once; Err if
    /// there are too many.
    pub(super) fn head(
        &self,
        kind: u32,
        prefix: &[u8],
    ) -> Result<(Vec<u8>, Vec<std::os::fd::BorrowedFd<'_>>), String> {
        let mut fds: Vec<std::os::fd::BorrowedFd> = Vec::new();
        let mut descs = Vec::with_capacity(self.tokens.len());
        for tok in &self.tokens {
            descs.push(match tok {
                Token::Enum(c, n) => TokenDesc::Enum {
                    class: &c.name,
                    name: n,
                },
                Token::Class(c) => TokenDesc::Class { name: &c.name },
                Token::Memory(v) => {
                    use std::os::fd::AsRawFd;
                    let s = v.shared().expect("only shared memory is a token");
                    let at = fds.iter().position(|f| f.as_raw_fd() == s.fd.as_raw_fd());
                    let fd = at.unwrap_or_else(|| {
                        fds.push(s.fd);
                        fds.len() - 1
                    });
                    TokenDesc::Memory {
                        fd: fd as u32,
                        slot: s.slot,
                        offset: s.offset,
                        len: s.len,
                        writable: s.writable,
                    }
                }
                Token::Portal {
                    id,
                    yours,
                    interfaces,
                } => TokenDesc::Portal {
                    id: *id,
                    yours: *yours,
                    interfaces: interfaces.iter().map(|s| &**s).collect(),
                },
            });
        }
        if fds.len() > ipc::frame::MAX_FDS as usize {
            return Err(format!(
                "a graph may hold at most {} shared memory regions",
                ipc::frame::MAX_FDS
            ));
        }
        let frame = GraphFrame {
            classes: self.classes.iter().map(|&c| ipc::frame::shape(c)).collect(),
            tokens: descs,
            graph: &self.graph,
        };
        let mut head = Vec::with_capacity(64 * self.classes.len() + 64 + prefix.len());
        frame.write_head_as(&mut head, kind, prefix);
        Ok((head, fds))
    }
}

/// Why a graph cannot be sent: the Java exception class and its message.
pub(super) type Refused = (&'static str, String);

/// Channel.send0(long id, Object obj)
fn send(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let peer = channel(t, a[0])?;
    let root = obj(a[2]);
    let encoded = match encode(t, &peer, &[root])? {
        Ok(e) => e,
        Err((class, msg)) => return Err(t.throw_new(class, Some(&msg))),
    };
    let (head, fds) = match encoded.head(ipc::frame::KIND_GRAPH, &[]) {
        Ok(h) => h,
        Err(m) => {
            peer.forget(&encoded.exports);
            return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&m)));
        }
    };
    peer.commit(&encoded.exports);
    let chan = peer.mux.channel();
    let r = t.blocking(|| chan.send_parts_with_fds(&[&head, &encoded.graph], &fds));
    drop(fds);
    if encoded.graph.capacity() <= KEEP_MAX {
        SEND_BUF.with(|b| *b.borrow_mut() = encoded.graph);
    }
    r.map(|()| 0).map_err(|e| thrown(t, e))
}

/// Encodes the graph reachable from `roots` (objects of `t`'s domain) for `peer`: enum
/// constants, `Class` objects, shared memory and portals become tokens, every class met goes
/// into the class table. Err(refused) (nothing exported) if the graph holds an object that
/// cannot be sent.
pub(super) fn encode(
    t: &mut JThread,
    peer: &Arc<Peer>,
    roots: &[Option<ObjRef>],
) -> JResult<Result<Encoded, Refused>> {
    let mut roots: SmallVec<[Option<ObjRef>; 4]> = roots.into();
    loop {
        let mut e = Encoded::default();
        // Throwables whose stack trace is still the VM's backtrace (method ids of this process).
        let mut traces: Vec<ObjRef> = Vec::new();
        let r = encode_once(t, peer, &roots, &mut e, &mut traces);
        if r.is_err() || !traces.is_empty() {
            peer.forget(&e.exports);
        }
        if let Err(refused) = r {
            return Ok(Err(refused));
        }
        if traces.is_empty() {
            return Ok(Ok(e));
        }
        // Their StackTraceElements are made (Java code) and sent instead: then encode again,
        // from where the roots are then (the collector may have moved them).
        let mark = t.handles.len();
        let hs: Vec<usize> = traces.iter().map(|&o| t.handle(o)).collect();
        let root_hs: SmallVec<[Option<usize>; 4]> =
            roots.iter().map(|r| r.map(|o| t.handle(o))).collect();
        let backtrace = t.vm.wk().throwable_backtrace as usize;
        for h in hs {
            let e = t.handle_get(h);
            let trace = t.call_virtual(e, "getStackTrace", "()[Ljava/lang/StackTraceElement;", &[]);
            let trace = match trace {
                Ok(tr) => tr,
                Err(x) => {
                    t.handles.truncate(mark);
                    return Err(x);
                }
            };
            let e = t.handle_get(h);
            let off = t.jdk::<crate::jdk::Throwable>(e)?.stack_trace;
            t.domain.heap.write_slot(e, off, trace);
            t.domain.heap.write_ref(e, backtrace, None);
        }
        roots = root_hs.iter().map(|h| h.map(|h| t.handle_get(h))).collect();
        t.handles.truncate(mark);
    }
}

/// One encoding pass (see [`encode`]); the Throwables still holding a VM backtrace are
/// pushed to `traces`.
fn encode_once(
    t: &mut JThread,
    peer: &Arc<Peer>,
    roots: &[Option<ObjRef>],
    e: &mut Encoded,
    traces: &mut Vec<ObjRef>,
) -> Result<(), Refused> {
    let vm = t.vm;
    let throwable = match t.vm.classes.load(LoaderId::BOOT, "java/lang/Throwable") {
        Ok(c) => c,
        Err(_) => return Err(("java/io/IOException", "no Throwable".into())),
    };
    let backtrace = t.vm.wk().throwable_backtrace as usize;
    let mut seen = rustc_hash::FxHashSet::default();
    // This thread's buffer, kept between sends (fresh large buffers cost a page fault a page).
    let mut buf = SEND_BUF.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let domain = t.domain.clone();
    // Why a portal was refused (the message), if one was.
    let mut portal: Option<&'static str> = None;
    let (tokens, classes, exports) = (&mut e.tokens, &mut e.classes, &mut e.exports);
    let encoded = graph::encode_into(
        roots,
        ipc::channel::MAX_FRAME as usize,
        |o| {
            let c = o.class();
            let is_memory = |k: &Class| &*k.name == crate::memory::VIEW_CLASS;
            if is_memory(c) || c.super_class.is_some_and(is_memory) {
                // Only memory of a shared region crosses (a token); other memory is refused.
                return match domain.memory_objects.lock().get(&o.addr()) {
                    Some(v) if v.shared().is_some() => {
                        tokens.push(Token::Memory((**v).clone()));
                        Walk::Token(tokens.len() as u64 - 1)
                    }
                    _ => Walk::Refuse,
                };
            }
            if !c.is_array() && portal::extends_portal(c) {
                return match portal_token(peer, &domain, o, exports) {
                    Ok(tok) => {
                        tokens.push(tok);
                        Walk::Token(tokens.len() as u64 - 1)
                    }
                    Err(why) => {
                        portal = Some(why);
                        Walk::Refuse
                    }
                };
            }
            if &*c.name == "java/lang/Class" {
                let k = crate::runtime::class_of_mirror(vm, o);
                if k.is_primitive() {
                    return Walk::Refuse;
                }
                tokens.push(Token::Class(k));
                return Walk::Token(tokens.len() as u64 - 1);
            }
            if let Some(en) = c.enum_type() {
                tokens.push(Token::Enum(en, enum_name(vm, o)));
                return Walk::Token(tokens.len() as u64 - 1);
            }
            if !sendable(c) {
                return Walk::Refuse;
            }
            if c.is_subtype_of(throwable) && o.read::<u64>(backtrace) != 0 {
                traces.push(o);
            }
            if seen.insert(c.id.0) {
                classes.push(c);
            }
            Walk::Copy
        },
        &mut buf,
    );
    e.graph = buf;
    match encoded {
        Ok(()) => Ok(()),
        Err(CopyError::NotCopyable(c)) => Err((
            "java/lang/IllegalArgumentException",
            match portal {
                Some(why) => format!("an object of class {c} is a portal {why}"),
                None if c.starts_with("jx.memory.") => format!(
                    "an object of class {c} cannot be sent over a channel: only memory made by Memory.allocateShared can"
                ),
                None => format!("an object of class {c} cannot be sent over a channel"),
            },
        )),
        Err(err) => Err((
            "java/io/IOException",
            format!("the graph cannot be sent: {err:?}"),
        )),
    }
}

/// The token of portal or service `o` (of `domain`) sent to `peer`: the peer's own export
/// coming back, or this end's export (made if `o` is a service not yet exported; pushed to
/// `exports`). Err(why) if it cannot cross.
fn portal_token(
    peer: &Arc<Peer>,
    domain: &Arc<crate::domain::Domain>,
    o: ObjRef,
    exports: &mut Vec<u64>,
) -> Result<Token, &'static str> {
    let id = portal::portal_service(o).or_else(|| portal::export(domain, o));
    let Some(id) = id else {
        return Err("that implements no interface extending jx.portal.Portal");
    };
    if id & portal::REMOTE != 0 {
        return match peer.export_of_import(id) {
            Some(theirs) => Ok(Token::Portal {
                id: theirs,
                yours: true,
                interfaces: Vec::new(),
            }),
            None => Err("to another process: it can only be sent back over its own channel"),
        };
    }
    let Some(interfaces) = portal::service_interfaces(id) else {
        return Err("whose service is gone");
    };
    exports.push(id);
    Ok(Token::Portal {
        id,
        yours: false,
        interfaces,
    })
}

thread_local! {
    /// The buffer this thread encodes the graphs it sends into.
    static SEND_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest send buffer a thread keeps.
const KEEP_MAX: usize = 64 << 20;

/// The name of enum constant `o`.
fn enum_name(vm: &'static crate::vm::Vm, o: ObjRef) -> String {
    let field = o
        .class()
        .supers
        .iter()
        .find(|k| &*k.name == "java/lang/Enum")
        .and_then(|e| {
            e.fields
                .iter()
                .find(|f| &*f.name == "name" && !f.is_static())
        });
    match field.and_then(|f| o.read_ref(f.offset as usize)) {
        Some(s) => String::from_utf16_lossy(&crate::runtime::string_utf16(vm, s)),
        None => String::new(),
    }
}

/// Whether objects of class `c` may cross to another process (and be received from one). Of
/// the API's classes only `jx.pso.Container` does: its fields are its memory object (which
/// crosses as a token if shared, and is refused otherwise) and plain values. PSOs and PSO
/// arrays do not: their VM words are addresses in this process (their container crosses).
fn sendable(c: &'static Class) -> bool {
    let mut k = c;
    while let Some(e) = k.array_component() {
        k = e;
    }
    let container = crate::api::in_module(k) && &*k.name == "jx/pso/Container";
    !(crate::domain::portal::refused(c)
        || k.api && !container
        || crate::api::in_module(k) && !container
        || k.hidden
        || k.is_primitive() && !c.is_array())
}

/// Channel.receive0(long id, long timeoutMillis)
fn receive(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let peer = channel(t, a[0])?;
    let millis = jlong(a[2]);
    let timeout = (millis >= 0).then(|| Duration::from_millis(millis as u64));
    let flag = t.interrupted.clone();
    // A frame larger than the heap could ever hold is dropped unread (OutOfMemoryError).
    let keep_max = t.domain.heap.capacity() as u64;
    let mux = &peer.mux;
    let r = t.blocking(|| mux.receive(timeout, &|| flag.load(Ordering::SeqCst), keep_max));
    match r {
        Ok(None) => Ok(0),
        Ok(Some((_, payload, fds))) => {
            let r = match GraphFrame::parse(&payload) {
                Ok(frame) => decode(t, &peer, &frame, &fds).and_then(|roots| {
                    if roots.len() != 1 {
                        return Err(corrupt(t, "a graph without exactly one root"));
                    }
                    Ok(to_slot(roots[0]))
                }),
                Err(e) => Err(corrupt(t, &e.to_string())),
            };
            peer.mux.channel().recycle(payload);
            r
        }
        Err(e) => Err(thrown(t, e)),
    }
}

fn invalid_class(t: &mut JThread, name: &str, why: &str) -> Thrown {
    let msg = format!("{}; {why}", name.replace('/', "."));
    t.throw_new("java/io/InvalidClassException", Some(&msg))
}

pub(super) fn corrupt(t: &mut JThread, why: &str) -> Thrown {
    t.throw_new("java/io/StreamCorruptedException", Some(why))
}

/// Rebuilds the graph of a received frame in `t`'s domain (`fds`: the descriptors that came
/// with it); its roots.
pub(super) fn decode(
    t: &mut JThread,
    peer: &Arc<Peer>,
    frame: &GraphFrame,
    fds: &[std::os::fd::OwnedFd],
) -> JResult<graph::Roots> {
    let loader = t.domain.app_loader;
    let mut classes: FxHashMap<u32, &'static Class> = FxHashMap::default();
    for cd in &frame.classes {
        let c = resolve(t, loader, cd.name)?;
        if !sendable(c) {
            return Err(invalid_class(
                t,
                cd.name,
                "objects of this class cannot be received",
            ));
        }
        if !ipc::frame::same_shape(cd, c) {
            return Err(invalid_class(
                t,
                cd.name,
                "its fields differ from the sender's class",
            ));
        }
        // Verified, not initialized: a peer does not get to run static initializers of its
        // choice (as ObjectInputStream, which loads without initializing); the class is
        // initialized when Java code first needs it.
        if !c.is_array() && t.link(c).is_err() {
            return Err(invalid_class(t, cd.name, "it cannot be linked here"));
        }
        classes.insert(cd.id, c);
    }
    // The receiver's own objects for the tokens, held as handles: finding them may run Java
    // code (class initialization, `values()`), so the collector may move them. Last, the
    // mirror of Throwable (its statics: the sentinel `fix_throwable` needs).
    let mark = t.handles.len();
    let throwable = t.load_boot("java/lang/Throwable")?;
    let r = tokens(t, peer, loader, &frame.tokens, fds).and_then(|()| {
        let m = t.mirror(throwable)?;
        t.handles.push(m.slot());
        Ok(())
    });
    if let Err(e) = r {
        t.handles.truncate(mark);
        return Err(e);
    }
    // Room first, as an allocation in Java would make it (decoding never collects).
    if let Err(e) = crate::gc::poll_alloc(t, graph::heap_bytes(frame.graph)) {
        t.handles.truncate(mark);
        return Err(e);
    }
    let mut objects: Vec<Option<ObjRef>> =
        t.handles[mark..].iter().map(|&s| from_slot(s)).collect();
    t.handles.truncate(mark);
    let throwable_mirror = objects.pop().flatten();
    let copied = match graph::decode_all(
        frame.graph,
        &t.domain.heap,
        |id| classes.get(&id).copied(),
        &objects,
    ) {
        Ok(r) => r,
        Err(CopyError::OutOfMemory) => {
            return Err(t.throw_new(
                "java/lang/OutOfMemoryError",
                Some("Java heap space: no room for a received graph"),
            ));
        }
        Err(e) => return Err(corrupt(t, &format!("a corrupt graph: {e:?}"))),
    };
    let roots = &copied.roots;
    let heap = &t.domain.heap;
    let wk = t.vm.wk();
    let sentinel = throwable_mirror.and_then(|m| {
        let f = throwable
            .fields
            .iter()
            .find(|f| f.is_static() && &*f.name == SENTINEL)?;
        m.read_ref((wk.statics_base + f.offset) as usize)
    });
    let suppressed = throwable
        .fields
        .iter()
        .find(|f| !f.is_static() && &*f.name == "suppressedExceptions")
        .map(|f| f.offset as usize);
    let checked = ipc::check::check_graph(roots, &objects, &mut |o| {
        if o.class().is_subtype_of(throwable) {
            fix_throwable(
                heap,
                wk.throwable_backtrace as usize,
                suppressed,
                sentinel,
                o,
            );
        }
    });
    if let Err(ipc::check::BadGraph(m)) = checked {
        return Err(corrupt(t, &m));
    }
    // Copies of finalizable classes are registered as `new` registers its objects.
    t.register_copies(copied)
}

/// Throwable's static field that marks "no suppressed exceptions yet" by identity.
const SENTINEL: &str = "SUPPRESSED_SENTINEL";

/// A received Throwable: its VM backtrace (method ids of the sender's process, or forged) is
/// dropped, its stack trace being the StackTraceElements the sender made; a copy of the
/// sender's "no suppressed exceptions" sentinel (an empty list compared by identity) becomes
/// the receiver's own, so that `addSuppressed` works.
fn fix_throwable(
    heap: &crate::heap::Heap,
    backtrace: usize,
    suppressed: Option<usize>,
    sentinel: Option<ObjRef>,
    o: ObjRef,
) {
    heap.write_ref(o, backtrace, None);
    if let Some(off) = suppressed
        && let Some(s) = o.read_ref(off)
        && &*s.class().name == "java/util/Collections$EmptyList"
        && sentinel.is_some()
    {
        heap.write_ref(o, off, sentinel);
    }
}

/// Class `name` as the application loader `loader` sees it, or InvalidClassException.
fn resolve(t: &mut JThread, loader: LoaderId, name: &str) -> JResult<&'static Class> {
    match t.vm.classes.load(loader, name) {
        Ok(c) => Ok(c),
        Err(_) => Err(invalid_class(t, name, "no such class here")),
    }
}

/// Pushes, for each token, the receiver's object onto `t.handles`.
fn tokens(
    t: &mut JThread,
    peer: &Arc<Peer>,
    loader: LoaderId,
    toks: &[TokenDesc],
    fds: &[std::os::fd::OwnedFd],
) -> JResult<()> {
    for tok in toks {
        let o = match *tok {
            TokenDesc::Class { name } => {
                let c = resolve(t, loader, name)?;
                Some(t.mirror(c)?)
            }
            TokenDesc::Enum { class, name } => Some(enum_constant(t, loader, class, name)?),
            TokenDesc::Memory {
                fd,
                slot,
                offset,
                len,
                writable,
            } => {
                let Some(fd) = fds.get(fd as usize).and_then(|f| f.try_clone().ok()) else {
                    return Err(corrupt(t, "a shared memory object without its descriptor"));
                };
                let v = match crate::memory::View::from_shared(fd, slot, offset, len, writable) {
                    Ok(v) => v,
                    Err(e) => return Err(corrupt(t, &format!("shared memory: {e}"))),
                };
                let class = if writable {
                    "jx/memory/Memory"
                } else {
                    crate::memory::VIEW_CLASS
                };
                let o = super::memory::new_memory_object(t, class, v)?;
                t.handles.push(o);
                continue;
            }
            TokenDesc::Portal {
                id,
                yours,
                ref interfaces,
            } => Some(received_portal(t, peer, loader, id, yours, interfaces)?),
        };
        t.handles.push(to_slot(o));
    }
    Ok(())
}

/// The portal a portal token stands for in `t`'s domain: the receiver's own export coming
/// back (the service itself in its domain), or a portal to the peer's export `id` (whose
/// interfaces must be Portal interfaces here).
fn received_portal(
    t: &mut JThread,
    peer: &Arc<Peer>,
    loader: LoaderId,
    id: u64,
    yours: bool,
    interfaces: &[&str],
) -> JResult<ObjRef> {
    if yours {
        if !peer.exports(id) {
            return Err(corrupt(t, "a portal this end never exported"));
        }
        return portal::materialize(t, id);
    }
    if interfaces.is_empty() {
        return Err(corrupt(t, "a portal without interfaces"));
    }
    for name in interfaces {
        let c = resolve(t, loader, name)?;
        if !c.is_interface() || !portal::extends_portal(c) {
            return Err(invalid_class(
                t,
                name,
                "not an interface extending jx.portal.Portal here",
            ));
        }
    }
    let names = interfaces.iter().map(|s| s.to_string()).collect();
    // The import holds a reference until the portal holds its own.
    let local = peer.import(id, names);
    let r = portal::materialize(t, local);
    portal::release(local);
    r
}

/// Constant `name` of the receiver's enum class `class`.
fn enum_constant(t: &mut JThread, loader: LoaderId, class: &str, name: &str) -> JResult<ObjRef> {
    let c = resolve(t, loader, class)?;
    if c.enum_type().is_none_or(|e| !std::ptr::eq(e, c)) {
        return Err(invalid_class(t, class, "not an enum class here"));
    }
    t.ensure_initialized(c)?;
    let desc = format!("()[L{};", c.name);
    let Some(values) = c.declared_method("values", &desc) else {
        return Err(invalid_class(t, class, "an enum without values()"));
    };
    let arr = from_slot(crate::interp::exec::call(t, values, &[])?);
    let Some(arr) = arr else {
        return Err(invalid_class(t, class, "values() returned null"));
    };
    let vm = t.vm;
    for i in 0..arr.array_len() {
        if let Some(e) = arr.read_ref(ARRAY_BASE + i * 8)
            && enum_name(vm, e) == name
        {
            return Ok(e);
        }
    }
    Err(invalid_class(
        t,
        class,
        &format!("no enum constant {name} here"),
    ))
}
