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
//!   what cannot mean anything in another process is refused (`IllegalArgumentException`,
//!   nothing sent): what portals refuse between domains, the API's other objects (memory
//!   objects made by `Memory.allocate`, domains), portals and services (objects implementing
//!   a `jx.portal.Portal` interface: not yet across processes, refused rather than copied as
//!   plain objects), hidden classes (lambdas);
//! - receiving: each class of the frame is loaded by name by the domain's application loader
//!   and must have the sender's shape (else `InvalidClassException`, the frame dropped and the
//!   channel usable); classes are verified but not initialized (the peer does not choose which
//!   static initializers run here); tokens become the receiver's own constants and mirrors;
//!   the graph is decoded by the copier into the domain's heap from the frame's private copy
//!   (copied out of the ring whole, never parsed in shared memory), `OutOfMemoryError` if it
//!   has no room; then checked by `ipc::check` (`StreamCorruptedException` if a hostile peer
//!   broke a type) and its Throwables given the receiver's sentinels.
//!
//! A channel is named in Java by an id into a process-wide table (never a pointer); the
//! waiting is a blocking operation of the domain (it may collect meanwhile).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ipc::frame::{GraphFrame, TokenDesc};
use ipc::{Channel, ChannelError};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use super::{Registry, jlong, nonnull, obj};
use crate::class::{Class, LoaderId};
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
        if let Some(c) = CHANNELS.lock().as_mut().and_then(|m| m.remove(&a[0])) {
            c.close();
        }
        Ok(0)
    });
}

/// The open channels of the process, by id.
static CHANNELS: Mutex<Option<FxHashMap<u64, Arc<Channel>>>> = Mutex::new(None);
static NEXT: AtomicU64 = AtomicU64::new(1);

fn keep(c: Channel) -> u64 {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    CHANNELS
        .lock()
        .get_or_insert_with(FxHashMap::default)
        .insert(id, Arc::new(c));
    id
}

fn channel(t: &mut JThread, id: u64) -> JResult<Arc<Channel>> {
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
    r.map(keep).map_err(|e| thrown(t, e))
}

/// Channel.connect0(String name)
fn connect(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let name = nonnull(t, a[0]).map(|n| t.rust_string(n))?;
    let r = t.blocking(|| Channel::connect(&name));
    r.map(keep).map_err(|e| thrown(t, e))
}

/// What a sent graph's token stands for.
enum Token {
    Enum(&'static Class, String),
    Class(&'static Class),
    /// A memory object of a shared region.
    Memory(crate::memory::View),
}

/// Channel.send0(long id, Object obj)
fn send(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let chan = channel(t, a[0])?;
    let root = obj(a[2]);
    let vm = t.vm;
    let throwable = t.load_boot("java/lang/Throwable")?;
    let backtrace = t.vm.wk().throwable_backtrace as usize;
    let mut classes: Vec<&'static Class> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut tokens: Vec<Token> = Vec::new();
    // Throwables whose stack trace is still the VM's backtrace (method ids of this process).
    let mut traces: Vec<ObjRef> = Vec::new();
    // This thread's buffer, kept between sends (fresh large buffers cost a page fault a page).
    let mut buf = SEND_BUF.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let domain = t.domain.clone();
    // Set when the graph holds a portal or a service (not yet across processes).
    let mut portal = false;
    let encoded = graph::encode_into(
        &[root],
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
            if !c.is_array() && crate::domain::portal::extends_portal(c) {
                portal = true;
                return Walk::Refuse;
            }
            if &*c.name == "java/lang/Class" {
                let k = crate::runtime::class_of_mirror(vm, o);
                if k.is_primitive() {
                    return Walk::Refuse;
                }
                tokens.push(Token::Class(k));
                return Walk::Token(tokens.len() as u64 - 1);
            }
            if let Some(e) = c.enum_type() {
                tokens.push(Token::Enum(e, enum_name(vm, o)));
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
    )
    .map(|()| buf);
    if encoded.is_ok() && !traces.is_empty() {
        // Their StackTraceElements are made (Java code) and sent instead: then encode again.
        let hs: Vec<usize> = traces.iter().map(|&o| t.handle(o)).collect();
        let root_h = root.map(|r| t.handle(r));
        for h in hs {
            let e = t.handle_get(h);
            let trace =
                t.call_virtual(e, "getStackTrace", "()[Ljava/lang/StackTraceElement;", &[])?;
            let e = t.handle_get(h);
            let off = t.jdk::<crate::jdk::Throwable>(e)?.stack_trace;
            t.domain.heap.write_slot(e, off, trace);
            t.domain.heap.write_ref(e, backtrace, None);
        }
        let root = root_h.map(|h| t.handle_get(h).slot()).unwrap_or(0);
        t.handles
            .truncate(t.handles.len() - traces.len() - root_h.is_some() as usize);
        return send(t, &[a[0], a[1], root]);
    }
    let graph = match encoded {
        Ok(g) => g,
        Err(CopyError::NotCopyable(c)) => {
            let msg = if portal {
                format!(
                    "an object of class {c} is a portal or a service (it implements a jx.portal.Portal interface): portals cannot cross to another process yet"
                )
            } else if c.starts_with("jx.memory.") {
                format!(
                    "an object of class {c} cannot be sent over a channel: only memory made by Memory.allocateShared can"
                )
            } else {
                format!("an object of class {c} cannot be sent over a channel")
            };
            return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
        }
        Err(e) => {
            let msg = format!("the graph cannot be sent: {e:?}");
            return Err(t.throw_new("java/io/IOException", Some(&msg)));
        }
    };
    // The descriptors of the shared regions the graph holds, each once.
    let mut fds: Vec<std::os::fd::BorrowedFd> = Vec::new();
    let mut descs = Vec::with_capacity(tokens.len());
    for tok in &tokens {
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
        });
    }
    if fds.len() > ipc::frame::MAX_FDS as usize {
        let msg = format!(
            "a graph may hold at most {} shared memory regions",
            ipc::frame::MAX_FDS
        );
        return Err(t.throw_new("java/lang/IllegalArgumentException", Some(&msg)));
    }
    let frame = GraphFrame {
        classes: classes.iter().map(|&c| ipc::frame::shape(c)).collect(),
        tokens: descs,
        graph: &graph,
    };
    let mut head = Vec::with_capacity(64 * classes.len() + 64);
    frame.write_head(&mut head);
    let r = t.blocking(|| chan.send_parts_with_fds(&[&head, &graph], &fds));
    if graph.capacity() <= KEEP_MAX {
        SEND_BUF.with(|b| *b.borrow_mut() = graph);
    }
    r.map(|()| 0).map_err(|e| thrown(t, e))
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
    let chan = channel(t, a[0])?;
    let millis = jlong(a[2]);
    let timeout = (millis >= 0).then(|| Duration::from_millis(millis as u64));
    let flag = t.interrupted.clone();
    // A frame larger than the heap could ever hold is dropped unread (OutOfMemoryError).
    let keep_max = t.domain.heap.capacity() as u64;
    let r =
        t.blocking(|| chan.receive_with_fds(timeout, &|| flag.load(Ordering::SeqCst), keep_max));
    match r {
        Ok(None) => Ok(0),
        Ok(Some((_, payload, fds))) => {
            let r = decode(t, &payload, &fds).map(to_slot);
            chan.recycle(payload);
            r
        }
        Err(e) => Err(thrown(t, e)),
    }
}

fn invalid_class(t: &mut JThread, name: &str, why: &str) -> Thrown {
    let msg = format!("{}; {why}", name.replace('/', "."));
    t.throw_new("java/io/InvalidClassException", Some(&msg))
}

fn corrupt(t: &mut JThread, why: &str) -> Thrown {
    t.throw_new("java/io/StreamCorruptedException", Some(why))
}

/// Rebuilds the graph of a received frame's payload in `t`'s domain (`fds`: the descriptors
/// that came with it).
fn decode(
    t: &mut JThread,
    payload: &[u8],
    fds: &[std::os::fd::OwnedFd],
) -> JResult<Option<ObjRef>> {
    let frame = match GraphFrame::parse(payload) {
        Ok(f) => f,
        Err(e) => return Err(corrupt(t, &e.to_string())),
    };
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
    let r = tokens(t, loader, &frame.tokens, fds).and_then(|()| {
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
    if roots.len() != 1 {
        return Err(corrupt(t, "a graph without exactly one root"));
    }
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
    Ok(t.register_copies(copied)?[0])
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
        };
        t.handles.push(to_slot(o));
    }
    Ok(())
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
