//! Portals across processes: the portal side of a `jx.ipc.Channel` end ([`Peer`]).
//!
//! - **Exports.** A portal or service in a sent graph (`native::ipc` encodes it) is exported
//!   to the peer under its service id (a service not yet exported is exported from the
//!   sender's domain first). The end counts how many times each export's token was sent and
//!   holds a reference to the service meanwhile (so it is not collected while the peer may
//!   call it); a release frame from the peer subtracts what it received, and the export is
//!   forgotten at zero. When the channel ends every export is released.
//! - **Imports.** A portal token from the peer becomes a remote service here
//!   (`domain::portal::import`, an [`Import`] per peer export, counting the tokens received)
//!   and a portal in the receiving domain, made as any portal. A call on it sends a call frame
//!   (method by name and descriptor, primitive arguments as slots, reference arguments as the
//!   roots of a graph) and waits for the reply: the result copied into the caller's domain,
//!   or the exception (with the stack trace the service's side made), or `PortalException`
//!   if the call could not be made or the channel ends before the reply (the peer closed it
//!   or died). When the last portal to an import is collected, a release frame tells the peer
//!   (posted: the collector does not block); the token sent back to its owner is the owner's
//!   own export again (`yours`), never a portal to a portal.
//! - **Serving.** A call frame runs on a pool thread of the channel (`ipc::mux`), in the
//!   service's domain on a portal activation (`domain::portal::with_service`), as a call from
//!   another domain would: only an export of this end is called, only a method of its Portal
//!   interfaces, with as many argument slots as the method takes and each received argument
//!   of its parameter's type; anything else is a failed reply (`PortalException` at the
//!   caller), never a crash. The result or exception is encoded for the peer as a sent graph.
//!
//! An end whose `Channel` object was collected unclosed stays open while portals cross it
//! (exports or imports), kept in [`ORPHANS`], and closes when the last goes.
//!
//! A callback (a portal passed in a call, called by the service during the call) runs on
//! another thread of the caller's process, not the waiting caller's: it does not re-enter the
//! caller's monitors as a call between domains does.

use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use ipc::Channel;
use ipc::frame::{CallHead, GraphFrame, KIND_CALL, KIND_REPLY, Outcome, ReplyHead};
use ipc::mux::{Handler, Mux};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::ipc::{Encoded, decode, encode};
use crate::class::{BasicType, Class, LoaderId, Method};
use crate::domain::portal::{self, Remote};
use crate::heap::{ObjRef, from_slot, to_slot};
use crate::thread::{JResult, JThread, Thrown};
use crate::vm::Vm;

/// One end of a channel, with the portals crossing it.
pub(crate) struct Peer {
    pub(super) mux: Arc<Mux>,
    vm: &'static Vm,
    /// This end's exports: service id -> how many times its token was sent.
    exports: Mutex<FxHashMap<u64, u64>>,
    /// The peer's exports this end has portals to, by the peer's id.
    imports: Mutex<FxHashMap<u64, Arc<Import>>>,
    me: Weak<Peer>,
    /// Set when its `Channel` object was collected (the end is in [`ORPHANS`]).
    orphaned: AtomicBool,
}

/// Ends whose `Channel` object was collected while portals crossed them.
static ORPHANS: Mutex<Vec<Arc<Peer>>> = Mutex::new(Vec::new());

impl Drop for Peer {
    fn drop(&mut self) {
        self.mux.end();
    }
}

/// A peer's export as a remote service here.
pub(crate) struct Import {
    peer: Weak<Peer>,
    /// The peer's id of it.
    export: u64,
    /// The remote service's id here.
    local: AtomicU64,
    /// Tokens of it received (what the release frame gives back).
    count: AtomicU64,
}

impl Peer {
    pub(super) fn new(vm: &'static Vm, c: Channel, keep_max: u64) -> Arc<Peer> {
        let mux = Mux::new(c, vm.thread_stack_size(), keep_max);
        let peer = Arc::new_cyclic(|me| Peer {
            mux: mux.clone(),
            vm,
            exports: Mutex::new(FxHashMap::default()),
            imports: Mutex::new(FxHashMap::default()),
            me: me.clone(),
            orphaned: AtomicBool::new(false),
        });
        mux.set_handler(Arc::new(Served(Arc::downgrade(&peer))));
        peer
    }

    /// Counts one sent token of each export in `ids` (a graph holding them is about to be
    /// sent), referencing the new ones; portals now cross, so the reader runs.
    pub(super) fn commit(&self, ids: &[u64]) {
        if ids.is_empty() {
            return;
        }
        let mut exports = self.exports.lock();
        for &id in ids {
            let n = exports.entry(id).or_insert(0);
            if *n == 0 {
                portal::acquire(id);
            }
            *n += 1;
        }
        drop(exports);
        self.mux.start_reader();
        if self.mux.ended() {
            self.ended();
        }
    }

    /// Drops exports made for a graph that was not sent (services nothing references).
    pub(super) fn forget(&self, ids: &[u64]) {
        for &id in ids {
            portal::acquire(id);
            portal::release(id);
        }
    }

    /// Whether service `id` is exported to the peer.
    pub(super) fn exports(&self, id: u64) -> bool {
        self.exports.lock().contains_key(&id)
    }

    /// The peer's id of remote service `local` if it is an import of this end.
    pub(super) fn export_of_import(&self, local: u64) -> Option<u64> {
        let imports = self.imports.lock();
        let imp = imports
            .values()
            .find(|i| i.local.load(Ordering::Relaxed) == local)?;
        Some(imp.export)
    }

    /// The remote service standing for the peer's export `id` (implementing `interfaces`),
    /// counting one more token of it, with a reference taken for the caller to release.
    pub(super) fn import(&self, id: u64, interfaces: Vec<String>) -> u64 {
        let mut imports = self.imports.lock();
        if let Some(imp) = imports.get(&id) {
            let local = imp.local.load(Ordering::Relaxed);
            if portal::acquire_live(local) {
                imp.count.fetch_add(1, Ordering::Relaxed);
                return local;
            }
        }
        let imp = Arc::new(Import {
            peer: self.me.clone(),
            export: id,
            local: AtomicU64::new(0),
            count: AtomicU64::new(1),
        });
        let local = portal::import(interfaces, imp.clone());
        imp.local.store(local, Ordering::Relaxed);
        portal::acquire(local);
        imports.insert(id, imp);
        local
    }

    /// Its `Channel` object was collected: the end closes now, or when no portal crosses it
    /// any more.
    pub(super) fn orphan(self: &Arc<Self>) {
        ORPHANS.lock().push(self.clone());
        self.orphaned.store(true, Ordering::SeqCst);
        self.close_if_orphan();
    }

    /// Closes an orphaned end that no portal crosses.
    fn close_if_orphan(&self) {
        if !self.orphaned.load(Ordering::SeqCst)
            || !self.exports.lock().is_empty()
            || !self.imports.lock().is_empty()
        {
            return;
        }
        self.mux.end();
        let me = {
            let mut orphans = ORPHANS.lock();
            let at = orphans.iter().position(|p| std::ptr::eq(&**p, self));
            at.map(|i| orphans.swap_remove(i))
        };
        // The last reference may be this one: dropped outside the lock.
        drop(me);
    }

    /// The peer released `count` tokens of export `id`.
    fn release_export(&self, id: u64, count: u64) {
        let mut exports = self.exports.lock();
        let Some(n) = exports.get_mut(&id) else {
            return;
        };
        *n = n.saturating_sub(count);
        if *n == 0 {
            exports.remove(&id);
            drop(exports);
            portal::release(id);
            self.close_if_orphan();
        }
    }

    /// The channel ended: every export is released; imports fail from now on.
    fn ended(&self) {
        let exports = std::mem::take(&mut *self.exports.lock());
        for id in exports.into_keys() {
            portal::release(id);
        }
        self.imports.lock().clear();
        self.close_if_orphan();
    }

    /// Calls method `m` of the peer's export `export` (see the module doc).
    fn call(
        self: &Arc<Self>,
        t: &mut JThread,
        export: u64,
        m: &'static Method,
        args: &[u64],
    ) -> JResult<u64> {
        let gone = "the channel to the service's process is closed (the peer closed it or died)";
        if self.mux.ended() {
            return Err(portal::portal_exception(t, gone));
        }
        let refs = ref_slots(m);
        let mut slots: SmallVec<[u64; 8]> = args[..arg_slots(m).min(args.len())].into();
        let roots: SmallVec<[Option<ObjRef>; 4]> = refs
            .iter()
            .map(|&i| from_slot(std::mem::take(&mut slots[i])))
            .collect();
        let encoded = if roots.is_empty() {
            Encoded::default()
        } else {
            match encode(t, self, &roots)? {
                Ok(e) => e,
                Err((_, msg)) => return Err(portal::portal_exception(t, &msg)),
            }
        };
        let call = self.mux.next_call_id();
        let prefix = CallHead {
            call,
            export,
            name: &m.name,
            descriptor: &m.descriptor,
            slots: slots.to_vec(),
        }
        .to_bytes();
        let (head, fds) = match encoded.head(KIND_CALL, &prefix) {
            Ok(h) => h,
            Err(msg) => {
                self.forget(&encoded.exports);
                return Err(portal::portal_exception(t, &msg));
            }
        };
        self.commit(&encoded.exports);
        let mux = &self.mux;
        // A terminated domain's thread stops waiting (the reply, if it comes, is dropped).
        let domain = t.domain.clone();
        let killed = || domain.safepoint.is_killed();
        let reply = t.blocking(|| mux.call(call, &[&head, &encoded.graph], &fds, &killed));
        drop(fds);
        let (_, payload, fds) = match reply {
            Ok(r) => r,
            Err(ipc::ChannelError::Interrupted) => {
                let msg = "the caller's domain was terminated during the call";
                return Err(portal::portal_exception(t, msg));
            }
            Err(_) => return Err(portal::portal_exception(t, gone)),
        };
        self.returned(t, m, &payload, &fds)
    }

    /// What the reply `payload` to a call of `m` says: the result slot, or the exception.
    fn returned(
        self: &Arc<Self>,
        t: &mut JThread,
        m: &'static Method,
        payload: &[u8],
        fds: &[OwnedFd],
    ) -> JResult<u64> {
        let bad = |t: &mut JThread, why: &str| {
            let msg = format!("the service's process sent a corrupt reply: {why}");
            Err(portal::portal_exception(t, &msg))
        };
        let (head, rest) = match ReplyHead::parse(payload) {
            Ok(r) => r,
            Err(e) => return bad(t, &e.to_string()),
        };
        let want = match head.outcome {
            Outcome::Failed => return Err(portal::portal_exception(t, head.message)),
            Outcome::Returned if m.ret != BasicType::Ref => return Ok(normalize(m.ret, head.slot)),
            Outcome::Returned => return_type(m),
            Outcome::Threw => "Ljava/lang/Throwable;",
        };
        let frame = match GraphFrame::parse(rest) {
            Ok(f) => f,
            Err(e) => return bad(t, &e.to_string()),
        };
        // Loading may run Java code: done before decoding (the roots are not handles).
        let want = type_class(t, m.class.loader, want);
        let roots = match decode(t, self, &frame, fds) {
            Ok(r) => r,
            Err(Thrown) => {
                let why = crate::vm::describe_exception(t);
                t.exception = None;
                return bad(t, &why);
            }
        };
        let [root] = roots[..] else {
            return bad(t, "not one root");
        };
        if !is_a(root, want) {
            return bad(t, "an object of another type");
        }
        if head.outcome == Outcome::Threw {
            t.exception = root;
            if root.is_none() {
                return bad(t, "a null exception");
            }
            return Err(Thrown);
        }
        Ok(to_slot(root))
    }
}

/// The channel's handler of portal frames (weak: the channel table owns the end).
struct Served(Weak<Peer>);

impl Handler for Served {
    fn call(&self, mux: &Arc<Mux>, frame: ipc::channel::Received) {
        let (_, payload, fds) = frame;
        let Ok((head, rest)) = CallHead::parse(&payload) else {
            // No call id to answer: dropped (the peer's own call waits until it ends).
            return;
        };
        let Some(peer) = self.0.upgrade() else {
            return;
        };
        let out = if !peer.exports(head.export) {
            Out::failed(format!(
                "no portal {} is exported to this process",
                head.export
            ))
        } else {
            portal::with_service(peer.vm, head.export, |t, service| {
                serve(t, &peer, &head, rest, &fds, service)
            })
            .unwrap_or_else(Out::failed)
        };
        let prefix = ReplyHead {
            call: head.call,
            outcome: out.outcome,
            slot: out.slot,
            message: &out.message,
        }
        .to_bytes();
        let sent = match out.encoded.head(KIND_REPLY, &prefix) {
            Ok((bytes, fds)) => {
                peer.commit(&out.encoded.exports);
                mux.send(&[&bytes, &out.encoded.graph], &fds)
            }
            Err(m) => {
                peer.forget(&out.encoded.exports);
                let prefix = ReplyHead {
                    call: head.call,
                    outcome: Outcome::Failed,
                    slot: 0,
                    message: &m,
                }
                .to_bytes();
                let (bytes, _) = Encoded::default()
                    .head(KIND_REPLY, &prefix)
                    .expect("no descriptors");
                mux.send(&[&bytes], &[])
            }
        };
        // A reply that cannot be sent: the channel has ended, which the peer sees.
        drop(sent);
    }

    fn release(&self, id: u64, count: u64) {
        if let Some(p) = self.0.upgrade() {
            p.release_export(id, count);
        }
    }

    fn ended(&self) {
        if let Some(p) = self.0.upgrade() {
            p.ended();
        }
    }
}

impl Remote for Import {
    fn call(&self, t: &mut JThread, m: &'static Method, args: &[u64]) -> JResult<u64> {
        match self.peer.upgrade() {
            Some(p) => p.call(t, self.export, m, args),
            None => Err(portal::portal_exception(
                t,
                "the channel to the service's process is closed",
            )),
        }
    }

    fn released(&self) {
        let Some(p) = self.peer.upgrade() else { return };
        let local = self.local.load(Ordering::Relaxed);
        {
            let mut imports = p.imports.lock();
            if imports
                .get(&self.export)
                .is_some_and(|i| i.local.load(Ordering::Relaxed) == local)
            {
                imports.remove(&self.export);
            }
        }
        let count = self.count.load(Ordering::Relaxed);
        p.mux.post(ipc::frame::release_frame(self.export, count));
        p.close_if_orphan();
    }
}

/// How a served call ended, to reply.
struct Out {
    outcome: Outcome,
    slot: u64,
    message: String,
    encoded: Encoded,
}

impl Out {
    fn failed(message: String) -> Out {
        Out {
            outcome: Outcome::Failed,
            slot: 0,
            message,
            encoded: Encoded::default(),
        }
    }
}

/// Serves call `head` (arguments graph `rest`) on `service`, in `t` (its domain).
fn serve(
    t: &mut JThread,
    peer: &Arc<Peer>,
    head: &CallHead,
    rest: &[u8],
    fds: &[OwnedFd],
    service: ObjRef,
) -> Out {
    let h = t.handle(service);
    let r = invoke(t, peer, head, rest, fds, h);
    match r {
        Ok(Ok((m, v))) if m.ret == BasicType::Ref => encoded(t, peer, Outcome::Returned, v),
        Ok(Ok((_, v))) => Out {
            outcome: Outcome::Returned,
            slot: v,
            message: String::new(),
            encoded: Encoded::default(),
        },
        Ok(Err(why)) => Out::failed(why),
        Err(Thrown) => {
            let Some(e) = t.exception.take() else {
                return Out::failed("the call failed".into());
            };
            encoded(t, peer, Outcome::Threw, to_slot(Some(e)))
        }
    }
}

/// The outcome `outcome` whose object is `slot`, encoded for the peer.
fn encoded(t: &mut JThread, peer: &Arc<Peer>, outcome: Outcome, slot: u64) -> Out {
    let o = from_slot(slot);
    let what = if outcome == Outcome::Threw {
        "the exception"
    } else {
        "the result"
    };
    match encode(t, peer, &[o]) {
        Ok(Ok(e)) => Out {
            outcome,
            slot: 0,
            message: String::new(),
            encoded: e,
        },
        Ok(Err((_, msg))) => Out::failed(format!("{what} cannot be copied: {msg}")),
        Err(Thrown) => {
            t.exception = None;
            Out::failed(format!("{what} cannot be copied"))
        }
    }
}

/// Finds the method, decodes and checks the arguments, calls the service (handle `h`): the
/// method and the result slot, Ok(Err(why)) if the call cannot be made.
fn invoke(
    t: &mut JThread,
    peer: &Arc<Peer>,
    head: &CallHead,
    rest: &[u8],
    fds: &[OwnedFd],
    h: usize,
) -> JResult<Result<(&'static Method, u64), String>> {
    let service = t.handle_get(h);
    let class = service.class();
    let interfaces = portal::portal_interfaces(class);
    let all = interfaces
        .iter()
        .flat_map(|i| i.all_interfaces.iter().copied().chain([*i]));
    let m = all.into_iter().find_map(|i: &'static Class| {
        i.methods().iter().find(|m| {
            *m.name == *head.name
                && *m.descriptor == *head.descriptor
                && !m.is_static()
                && !m.is_private()
        })
    });
    let m: Option<&'static Method> = m;
    let target = m.and_then(|m| {
        crate::class::loader::select_interface_method(class, &m.name, &m.descriptor)
            .filter(|m| !m.is_abstract())
    });
    let (Some(m), Some(target)) = (m, target) else {
        return Ok(Err(format!(
            "the service has no method {}{}",
            head.name, head.descriptor
        )));
    };
    if head.slots.len() != arg_slots(m) {
        return Ok(Err(format!(
            "{} argument slots for {}{}",
            head.slots.len(),
            head.name,
            head.descriptor
        )));
    }
    let refs = ref_slots(m);
    // Loading may run Java code: done before decoding (the roots are not handles).
    let params = classfile::descriptor::parse_method_descriptor(&m.descriptor)
        .map(|d| d.params)
        .unwrap_or_default();
    let wants: SmallVec<[Option<&'static Class>; 4]> = params
        .iter()
        .filter(|p| p.is_reference())
        .map(|p| type_class(t, m.class.loader, &p.descriptor()))
        .collect();
    let roots = if refs.is_empty() {
        crate::graph::Roots::new()
    } else {
        let frame = match GraphFrame::parse(rest) {
            Ok(f) => f,
            Err(e) => return Ok(Err(format!("corrupt arguments: {e}"))),
        };
        match decode(t, peer, &frame, fds) {
            Ok(r) => r,
            Err(Thrown) => {
                let why = crate::vm::describe_exception(t);
                t.exception = None;
                return Ok(Err(format!("the arguments cannot be received: {why}")));
            }
        }
    };
    if roots.len() != refs.len() {
        return Ok(Err("a call whose arguments are not its method's".into()));
    }
    for (&o, &want) in roots.iter().zip(&wants) {
        if !is_a(o, want) {
            return Ok(Err("an argument of another type than its parameter".into()));
        }
    }
    let mut slots: SmallVec<[u64; 8]> = SmallVec::with_capacity(head.slots.len() + 1);
    slots.push(t.handle_get(h).slot());
    slots.extend_from_slice(&head.slots);
    let mut at = 1;
    for &ty in m.param_types.iter() {
        slots[at] = normalize(ty, slots[at]);
        at += ty.slots();
    }
    for (k, &i) in refs.iter().enumerate() {
        slots[1 + i] = to_slot(roots[k]);
    }
    let r = crate::interp::exec::call(t, target, &slots)?;
    Ok(Ok((m, r)))
}

/// A primitive of type `ty` from a peer's slot `v`, as this VM keeps it in a slot (an int
/// zero-extended, a boolean 0 or 1, a byte or short sign-extended to an int, a char
/// zero-extended): whatever bits the peer sent.
fn normalize(ty: BasicType, v: u64) -> u64 {
    match ty {
        BasicType::Boolean => v & 1,
        BasicType::Byte => v as i8 as i32 as u32 as u64,
        BasicType::Short => v as i16 as i32 as u32 as u64,
        BasicType::Char => v as u16 as u64,
        BasicType::Int | BasicType::Float => v as u32 as u64,
        _ => v,
    }
}

/// The argument slots `m` takes (without the receiver).
fn arg_slots(m: &'static Method) -> usize {
    m.param_types.iter().map(|t| t.slots()).sum()
}

/// The slot indexes of `m`'s reference parameters (not counting the receiver).
fn ref_slots(m: &'static Method) -> SmallVec<[usize; 4]> {
    let mut at = 0;
    let mut out = SmallVec::new();
    for ty in m.param_types.iter() {
        if *ty == BasicType::Ref {
            out.push(at);
        }
        at += ty.slots();
    }
    out
}

/// The return type's descriptor of `m`.
fn return_type(m: &'static Method) -> &'static str {
    m.descriptor.rsplit(')').next().unwrap_or("V")
}

/// The class of field type `desc` as loader `loader` sees it (None if it cannot be loaded).
fn type_class(t: &mut JThread, loader: LoaderId, desc: &str) -> Option<&'static Class> {
    let name = match desc.strip_prefix('L') {
        Some(n) => n.strip_suffix(';').unwrap_or(n),
        None => desc,
    };
    t.vm.classes.load(loader, name).ok()
}

/// Whether `o` may be a value of a variable of class `want` (null always; nothing if the
/// class could not be loaded).
fn is_a(o: Option<ObjRef>, want: Option<&'static Class>) -> bool {
    match (o, want) {
        (None, _) => true,
        (Some(o), Some(c)) => o.class().is_subtype_of(c),
        (Some(_), None) => false,
    }
}
