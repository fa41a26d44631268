//! Portals (JX §2.2): services, the portals that reach them, and the calls between domains.
//!
//! A *service* is an object of some domain that other domains reach: it is kept in its
//! domain's `exported` table (a collector root) under a process-wide id, with a count of the
//! references to it (portals in other domains, a Naming registration). A *portal* in another
//! domain is an instance of a stub class implementing the service's Portal interfaces
//! ([`super::stub`]) that names the service id; the domain's `portals` table holds a
//! [`PortalRef`] per portal, dropped by the collector when the portal dies (releasing the
//! service). Within the service's own domain, the service object itself stands for it.
//!
//! A call never lets a thread run in two domains at once: the caller encodes the parameters
//! with the object-graph copier ([`crate::graph`]) in its own domain, then — as a blocking
//! operation of its domain — runs a *portal activation* (a `JThread` of the callee domain, kept
//! per OS thread for the next call) that decodes them into the callee's heap, calls the
//! method, and encodes the result or the exception; back in its domain the caller decodes that.
//! Primitive arguments and results go as they are, in slots; only references are encoded.
//! What crosses by reference travels as a token: portals and objects implementing a Portal
//! interface (which become services), memory objects (the view is shared, never copied), enum
//! constants (the target domain's own constant). An object of a class the target domain does
//! not share (another class path) is copied as that domain's class of the same name if its
//! loader defines it from the same class file ([`class_there`]). Classes, threads, loaders and
//! classes the target domain has no identical copy of are refused (`PortalException`), as is
//! a graph above the per-call quota.
//!
//! A service may also be *remote*: a portal exported by another jxvm process over a channel
//! (`native::ipc`), whose id has the [`REMOTE`] bit and which names its [`Remote`] (the
//! channel's side of it) instead of a domain. Portals to it are made and counted as any, and a
//! call on one goes to [`Remote::call`]; when the last is released the remote service is
//! forgotten and [`Remote::released`] tells its channel. [`with_service`] runs a call that
//! came from another process in the service's domain.
//!
//! Must never store a reference of one heap in another: everything crosses as bytes.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::{Domain, DomainId};
use crate::class::{BasicType, Class, LoaderId, Method};
use crate::graph::{self, CopyError, Walk};
use crate::heap::{ObjRef, from_slot, to_slot};
use crate::thread::{JResult, JThread, Thrown};
use crate::vm::Vm;
use base::layout::ARRAY_BASE;

/// The most bytes one call's parameters (or its result) may take once encoded.
pub const CALL_QUOTA: usize = 16 << 20;

const PORTAL_EXCEPTION: &str = "jx/portal/PortalException";
const PORTAL: &str = "jx/portal/Portal";

/// Token kinds, in the top byte of a token.
const SERVICE: u64 = 1 << 56;
const MEMORY: u64 = 2 << 56;
const ENUM: u64 = 3 << 56;
const KIND: u64 = 0xff << 56;

/// The bit of a remote service's id.
pub const REMOTE: u64 = 1 << 55;

/// A service of another process, as the channel that reaches it sees it.
pub trait Remote: Send + Sync {
    /// Calls interface method `m` with `args` (the argument slots of `t`'s domain, without the
    /// receiver); returns the result slot.
    fn call(&self, t: &mut JThread, m: &'static Method, args: &[u64]) -> JResult<u64>;
    /// The last portal to it was released (may run in the collector: must not block).
    fn released(&self);
}

struct Service {
    /// The owner domain (none for a remote service).
    domain: Weak<Domain>,
    domain_id: DomainId,
    /// Names of the Portal interfaces the service implements (what its portals implement).
    interfaces: Vec<String>,
    refs: u32,
    remote: Option<Arc<dyn Remote>>,
}

static SERVICES: Mutex<Option<FxHashMap<u64, Service>>> = Mutex::new(None);
static NEXT_SERVICE: AtomicU64 = AtomicU64::new(1);

/// One portal's reference to its service (released when dropped).
pub struct PortalRef(u64);

impl Drop for PortalRef {
    fn drop(&mut self) {
        release(self.0);
    }
}

/// Takes a reference to service `id` (a portal or a registration holds it).
pub fn acquire(id: u64) {
    if let Some(s) = SERVICES.lock().as_mut().and_then(|m| m.get_mut(&id)) {
        s.refs += 1;
    }
}

/// Drops a reference to service `id`; the last one removes the service from its domain's
/// exported table (the object may then be collected).
pub fn release(id: u64) {
    let gone = {
        let mut services = SERVICES.lock();
        let Some(map) = services.as_mut() else { return };
        let Some(s) = map.get_mut(&id) else { return };
        s.refs = s.refs.saturating_sub(1);
        if s.refs > 0 {
            return;
        }
        map.remove(&id)
    };
    let Some(gone) = gone else { return };
    if let Some(r) = gone.remote {
        r.released();
        return;
    }
    if let Some(d) = gone.domain.upgrade() {
        let mut exported = d.exported.lock();
        exported.remove(&id);
        if exported.is_empty() {
            d.exported_cond.notify_all();
        }
    }
}

/// Takes a reference to service `id` if it is still there (false if it was released).
pub fn acquire_live(id: u64) -> bool {
    match SERVICES.lock().as_mut().and_then(|m| m.get_mut(&id)) {
        Some(s) => {
            s.refs += 1;
            true
        }
        None => false,
    }
}

/// Makes a remote service implementing `interfaces` (internal names), reached through
/// `remote`, with no reference yet: the caller takes one ([`acquire`]).
pub fn import(interfaces: Vec<String>, remote: Arc<dyn Remote>) -> u64 {
    let id = REMOTE | NEXT_SERVICE.fetch_add(1, Ordering::Relaxed);
    let service = Service {
        domain: Weak::new(),
        domain_id: DomainId(u32::MAX),
        interfaces,
        refs: 0,
        remote: Some(remote),
    };
    SERVICES
        .lock()
        .get_or_insert_with(FxHashMap::default)
        .insert(id, service);
    id
}

/// The names of the Portal interfaces service `id` implements (None if it is gone).
pub fn service_interfaces(id: u64) -> Option<Vec<String>> {
    SERVICES
        .lock()
        .as_ref()?
        .get(&id)
        .map(|s| s.interfaces.clone())
}

/// The remote side of service `id`, if it is a remote service.
pub fn remote_of(id: u64) -> Option<Arc<dyn Remote>> {
    SERVICES.lock().as_ref()?.get(&id)?.remote.clone()
}

/// Removes service `id` if nothing references it (an export whose token was never used).
fn drop_if_unreferenced(id: u64) {
    acquire(id);
    release(id);
}

/// The owner domain of service `id`, if it still runs.
fn owner(id: u64) -> Option<Arc<Domain>> {
    let services = SERVICES.lock();
    let s = services.as_ref()?.get(&id)?;
    s.domain.upgrade().filter(|d| !d.safepoint.is_killed())
}

fn owner_id(id: u64) -> Option<DomainId> {
    SERVICES.lock().as_ref()?.get(&id).map(|s| s.domain_id)
}

/// The Portal interfaces `c` implements (those extending `jx.portal.Portal`).
pub fn portal_interfaces(c: &'static Class) -> Vec<&'static Class> {
    let mut out: Vec<&'static Class> = Vec::new();
    let mut k = Some(c);
    while let Some(cls) = k {
        for &i in cls.all_interfaces.iter() {
            if &*i.name != PORTAL && extends_portal(i) && !out.iter().any(|o| std::ptr::eq(*o, i)) {
                out.push(i);
            }
        }
        k = cls.super_class;
    }
    out
}

/// Whether `c` is, or implements, `jx.portal.Portal`.
pub(crate) fn extends_portal(c: &'static Class) -> bool {
    &*c.name == PORTAL || c.all_interfaces.iter().any(|i| &*i.name == PORTAL)
}

/// Exports `o` (an object of `domain` implementing Portal interfaces) as a service, reusing
/// its id if it already is one. Returns None if it implements no Portal interface.
pub fn export(domain: &Arc<Domain>, o: ObjRef) -> Option<u64> {
    let interfaces = portal_interfaces(o.class());
    if interfaces.is_empty() {
        return None;
    }
    let mut exported = domain.exported.lock();
    if let Some((&id, _)) = exported.iter().find(|(_, v)| v.addr() == o.addr()) {
        return Some(id);
    }
    let id = NEXT_SERVICE.fetch_add(1, Ordering::Relaxed);
    exported.insert(id, o);
    let service = Service {
        domain: Arc::downgrade(domain),
        domain_id: domain.id,
        interfaces: interfaces.iter().map(|i| i.name.to_string()).collect(),
        refs: 0,
        remote: None,
    };
    SERVICES
        .lock()
        .get_or_insert_with(FxHashMap::default)
        .insert(id, service);
    Some(id)
}

/// The service id a portal stands for (None if `o` is not a portal).
pub use super::stub::service_of as portal_service;

/// What stands for service `id` in `t`'s domain: the service object itself in its own
/// domain, else a new portal (a stub holding a reference to the service).
pub fn materialize(t: &mut JThread, id: u64) -> JResult<ObjRef> {
    if owner_id(id) == Some(t.domain.id)
        && let Some(&o) = t.domain.exported.lock().get(&id)
    {
        return Ok(o);
    }
    let interfaces = SERVICES
        .lock()
        .as_ref()
        .and_then(|m| m.get(&id))
        .map(|s| s.interfaces.clone());
    let Some(interfaces) = interfaces else {
        return Err(portal_exception(t, "the service is gone"));
    };
    let loader = t.domain.app_loader;
    let mut classes = Vec::new();
    for name in &interfaces {
        match t.vm.classes.load(loader, name) {
            // A remote service's names are its peer's: only Portal interfaces make a stub.
            Ok(c) if c.is_interface() && extends_portal(c) => classes.push(c),
            _ => {
                return Err(portal_exception(
                    t,
                    &format!(
                        "interface {} is not on this domain's class path",
                        name.replace('/', ".")
                    ),
                ));
            }
        }
    }
    let stub_class = super::stub::stub_class(t, loader, &classes)?;
    let stub = t.alloc_object(stub_class)?;
    super::stub::set_service(stub, id);
    acquire(id);
    t.domain.portals.lock().insert(stub.addr(), PortalRef(id));
    Ok(stub)
}

pub fn portal_exception(t: &mut JThread, msg: &str) -> Thrown {
    t.throw_new(PORTAL_EXCEPTION, Some(msg))
}

/// An encoded graph with what its tokens stand for.
#[derive(Default)]
pub struct Parcel {
    bytes: Vec<u8>,
    views: Vec<Arc<crate::memory::View>>,
}

/// Encodes `roots` (objects of `t`'s domain) for the domain whose application loader is
/// `target`.
fn encode(t: &JThread, roots: &[Option<ObjRef>], target: LoaderId) -> Result<Parcel, String> {
    if roots.iter().all(Option::is_none) {
        // No arguments, a void result: nothing to copy (and no allocation).
        return Ok(Parcel {
            bytes: Vec::new(),
            views: Vec::new(),
        });
    }
    let mut views = Vec::new();
    let mut exports = Vec::new();
    let source = t.domain.clone();
    let vm = t.vm;
    let r = graph::encode(roots, CALL_QUOTA, |o| {
        classify(vm, &source, target, o, &mut views, &mut exports)
    });
    match r {
        Ok(bytes) => Ok(Parcel { bytes, views }),
        Err(e) => {
            for id in exports {
                drop_if_unreferenced(id);
            }
            Err(match e {
                CopyError::Quota(q) => {
                    format!("the copied objects exceed the portal call quota of {q} bytes")
                }
                CopyError::NotCopyable(c) => {
                    format!("an object of class {c} cannot be passed across domains")
                }
                CopyError::OutOfMemory => "out of memory".to_string(),
                CopyError::Malformed(m) => format!("malformed parcel: {m}"),
            })
        }
    }
}

fn classify(
    vm: &'static Vm,
    source: &Arc<Domain>,
    target: LoaderId,
    o: ObjRef,
    views: &mut Vec<Arc<crate::memory::View>>,
    exports: &mut Vec<u64>,
) -> Walk {
    let c = o.class();
    if let Some(id) = portal_service(o) {
        return Walk::Token(SERVICE | id);
    }
    let is_memory = |k: &Class| &*k.name == crate::memory::VIEW_CLASS;
    if (is_memory(c) || c.super_class.is_some_and(is_memory))
        && let Some(v) = source.memory_objects.lock().get(&o.addr())
    {
        views.push(v.clone());
        return Walk::Token(MEMORY | (views.len() - 1) as u64);
    }
    if refused(c) {
        return Walk::Refuse;
    }
    if !c.is_array()
        && extends_portal(c)
        && let Some(id) = export(source, o)
    {
        exports.push(id);
        return Walk::Token(SERVICE | id);
    }
    let Some(there) = class_there(vm, c, target) else {
        return Walk::Refuse;
    };
    if let Some(e) = c.enum_type() {
        use crate::jdk::JdkClass;
        let ordinal = o.read::<i32>(crate::jdk::Enum::get().ordinal);
        if let Some(e) = class_there(vm, e, target) {
            return Walk::Token(ENUM | (e.id.0 as u64) << 24 | ordinal as u64);
        }
    }
    if std::ptr::eq(there, c) {
        Walk::Copy
    } else {
        Walk::CopyAs(there)
    }
}

/// Classes whose objects mean nothing in another domain (or carry VM state).
pub(crate) fn refused(c: &'static Class) -> bool {
    let mut k = Some(c);
    while let Some(cls) = k {
        let n = &*cls.name;
        if matches!(n, "java/lang/Class" | "java/lang/Thread" | "java/lang/ThreadGroup" | "java/lang/ClassLoader" | "java/lang/Module")
            // A direct or mapped buffer holds a raw address of its domain's native memory.
            || n == "java/nio/MappedByteBuffer"
            || n.starts_with("java/nio/Direct")
            || holds_host_resource(n)
            || n.starts_with("java/lang/invoke/")
            || n.starts_with("java/lang/reflect/")
            || n.starts_with("java/lang/ref/")
        {
            return true;
        }
        k = cls.super_class;
    }
    false
}

/// Whether objects of class `name` hold a host resource of their domain by number or address
/// (a file descriptor, a channel's or selector's descriptors, a directory stream, a zlib
/// stream, native memory): a copy would share it with another domain, and the descriptor is
/// closed (its number reused) when its holder ends. Streams, files and sockets that reach one
/// of these are refused with it.
fn holds_host_resource(name: &str) -> bool {
    matches!(name, "java/io/FileDescriptor" | "sun/nio/fs/NativeBuffer")
        || [
            "sun/nio/ch/",
            "sun/nio/fs/UnixDirectoryStream",
            "sun/nio/fs/UnixSecureDirectoryStream",
            "sun/nio/fs/LinuxWatchService",
            "java/util/zip/Inflater",
            "java/util/zip/Deflater",
            "jdk/internal/foreign/",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Whether the domain whose application loader is `target` uses the very class `c` (shared
/// code): a class of the JDK or of the API, or of the application loader both domains share
/// (the same class path) — but not a hidden class a domain made with such a loader (nor a
/// lambda proxy of one), which goes when its domain ends or it becomes unreachable there.
fn shared_with(vm: &'static Vm, c: &'static Class, target: LoaderId) -> bool {
    let mut k = c;
    while let Some(e) = k.array_component() {
        k = e;
    }
    let shared_loader =
        k.loader == LoaderId::BOOT || k.loader == LoaderId::PLATFORM || k.loader == target;
    shared_loader && !(k.hidden && vm.classes.owner_of(k).is_some())
}

/// What [`class_there`] found, by class id and target loader.
type Found = FxHashMap<(u32, LoaderId), Option<&'static Class>>;
static FOUND: Mutex<Option<Found>> = Mutex::new(None);

/// Forgets what [`class_there`] found for or as classes among `gone` (being unloaded).
pub fn forget_classes(gone: &crate::class::unload::Unloaded) {
    if let Some(found) = FOUND.lock().as_mut() {
        found.retain(|&(id, _), there| {
            !gone.contains_id(id) && !there.is_some_and(|c| gone.contains(c))
        });
    }
}

/// The class an object of class `c` is in the domain whose application loader is `target`:
/// `c` itself if that domain shares it, else the class its loader defines from the same class
/// file (a component on both class paths), whose superclasses and interfaces are in turn the
/// same as `c`'s. None if there is no such class (absent, or a different class of that name).
fn class_there(vm: &'static Vm, c: &'static Class, target: LoaderId) -> Option<&'static Class> {
    if shared_with(vm, c, target) {
        return Some(c);
    }
    if let Some(&known) = FOUND.lock().as_ref().and_then(|m| m.get(&(c.id.0, target))) {
        return known;
    }
    let found = same_class_there(vm, c, target);
    FOUND
        .lock()
        .get_or_insert_with(FxHashMap::default)
        .insert((c.id.0, target), found);
    found
}

fn same_class_there(
    vm: &'static Vm,
    c: &'static Class,
    target: LoaderId,
) -> Option<&'static Class> {
    if let Some(e) = c.array_component() {
        return vm.classes.array_of(class_there(vm, e, target)?).ok();
    }
    // A hidden class is found by no name: it has no counterpart.
    if !c.loader.is_app() || c.hidden {
        return None;
    }
    let d = vm
        .classes
        .load(target, &c.name)
        .ok()
        .filter(|d| d.loader == target)?;
    let same = |a: Option<&'static Class>, b: Option<&'static Class>| match (a, b) {
        (Some(a), Some(b)) => class_there(vm, a, target).is_some_and(|x| std::ptr::eq(x, b)),
        (a, b) => a.is_none() && b.is_none(),
    };
    let same_file = vm.classes.app_class_bytes(c.loader, &c.name)?
        == vm.classes.app_class_bytes(target, &d.name)?;
    let same_supers = same(c.super_class, d.super_class)
        && c.interfaces.len() == d.interfaces.len()
        && c.interfaces
            .iter()
            .zip(&d.interfaces)
            .all(|(&a, &b)| same(Some(a), Some(b)));
    // Implied by the above; checked because the copier relies on it.
    let same_layout = c.instance_size == d.instance_size && c.ref_offsets == d.ref_offsets;
    (same_file && same_supers && same_layout).then_some(d)
}

/// Decodes a parcel into `t`'s domain: tokens are turned into objects first (this may run
/// Java code), then the graph is rebuilt (no collection meanwhile).
fn decode(t: &mut JThread, parcel: &Parcel) -> JResult<graph::Roots> {
    if parcel.bytes.is_empty() {
        return Ok(graph::Roots::new());
    }
    // Room first, as an allocation in Java would make it: the copies must not pile up in the
    // old space of a domain that allocates nothing itself (decoding never collects).
    crate::gc::poll_alloc(t, graph::heap_bytes(&parcel.bytes))?;
    let tokens = match graph::tokens(&parcel.bytes) {
        Ok(v) => v,
        Err(_) => return Err(portal_exception(t, "malformed parcel")),
    };
    let mark = t.handles.len();
    for tok in tokens {
        let o = materialize_token(t, tok, parcel);
        match o {
            Ok(o) => {
                t.handles.push(to_slot(o));
            }
            Err(e) => {
                t.handles.truncate(mark);
                return Err(e);
            }
        }
    }
    let objects: Vec<Option<ObjRef>> = t.handles[mark..].iter().map(|&s| from_slot(s)).collect();
    t.handles.truncate(mark);
    let vm = t.vm;
    match graph::decode_all(
        &parcel.bytes,
        &t.domain.heap,
        |id| vm.classes.class_by_id(id),
        &objects,
    ) {
        Ok(copied) => t.register_copies(copied),
        Err(CopyError::OutOfMemory) => Err(t.throw_new(
            "java/lang/OutOfMemoryError",
            Some("Java heap space: no room for a portal call's objects"),
        )),
        Err(e) => Err(portal_exception(
            t,
            &format!("cannot copy the objects: {e:?}"),
        )),
    }
}

fn materialize_token(t: &mut JThread, tok: u64, parcel: &Parcel) -> JResult<Option<ObjRef>> {
    let payload = tok & !KIND;
    match tok & KIND {
        SERVICE => materialize(t, payload).map(Some),
        MEMORY => {
            let v = parcel.views.get(payload as usize).map(|v| (**v).clone());
            let Some(v) = v else {
                return Err(portal_exception(t, "malformed parcel"));
            };
            let class = if v.writable() {
                "jx/memory/Memory"
            } else {
                crate::memory::VIEW_CLASS
            };
            crate::native::memory::new_memory_object(t, class, v).map(from_slot)
        }
        ENUM => {
            let Some(c) = t.vm.classes.class_by_id((payload >> 24) as u32) else {
                return Err(portal_exception(t, "malformed parcel"));
            };
            let ordinal = (payload & 0xff_ffff) as usize;
            let desc = format!("()[L{};", c.name);
            t.ensure_initialized(c)?;
            let Some(values) = c.declared_method("values", &desc) else {
                return Err(portal_exception(t, "enum without values()"));
            };
            let arr = from_slot(crate::interp::exec::call(t, values, &[])?)
                .expect("values() returned null");
            if ordinal >= arr.array_len() {
                return Err(portal_exception(t, "malformed parcel"));
            }
            Ok(arr.read_ref(ARRAY_BASE + ordinal * 8))
        }
        _ => Err(portal_exception(t, "malformed parcel")),
    }
}

/// How a call ended in the callee.
enum Reply {
    /// The result: its slot (a primitive) or, for a reference, the encoded object.
    Returned(u64, Parcel),
    Threw(Parcel),
    /// The call could not be made (service gone, parameters not copyable, ...).
    Failed(String),
}

/// What a caller sends: the method, its argument slots (the callee replaces the reference
/// slots, which name the caller's objects), and those objects, encoded in order.
struct Request<'a> {
    service: u64,
    method: &'static Method,
    slots: &'a [u64],
    objects: Parcel,
}

thread_local! {
    /// Portal activations of this OS thread, detached between calls.
    static ACTIVATIONS: RefCell<Activations> = RefCell::new(Activations::default());
}

#[derive(Default)]
struct Activations {
    /// At most one per domain (a nested call into a domain whose activation is in use makes
    /// another, dropped after the call).
    kept: Vec<Kept>,
    /// The service called last and the id of its domain (a service never changes domain).
    last: Option<(u64, DomainId)>,
}

impl Activations {
    /// Takes the kept activation of domain `domain` out of the list.
    fn take(&mut self, domain: DomainId) -> Option<Kept> {
        let i = self.kept.iter().position(|k| k.t.domain.id == domain)?;
        Some(self.kept.swap_remove(i))
    }
}

/// A detached activation.
struct Kept {
    t: Box<JThread>,
    /// Its domain's collection count when it detached: if unchanged at the next attach, its
    /// Thread object has not moved.
    collections: u64,
}

/// The slot indexes of `m`'s reference parameters (not counting the receiver).
fn ref_slots(m: &'static Method) -> impl Iterator<Item = usize> {
    m.param_types
        .iter()
        .scan(0usize, |at, ty| {
            let here = *at;
            *at += ty.slots();
            Some((here, *ty))
        })
        .filter(|(_, ty)| *ty == BasicType::Ref)
        .map(|(at, _)| at)
}

/// Calls service `id`'s implementation of interface method `m` with `args` (the argument
/// slots of `t`'s domain, without the receiver); returns the result slot.
pub fn call(t: &mut JThread, id: u64, m: &'static Method, args: &[u64]) -> JResult<u64> {
    if id & REMOTE != 0 {
        return match remote_of(id) {
            Some(r) => r.call(t, m, args),
            None => Err(portal_exception(t, "the service is gone")),
        };
    }
    // A chain of calls between domains is one call chain: -Xss bounds it as it bounds any
    // recursion, each hop costing HOP_FRAMES of the caller's budget.
    let budget = t.depth_limit().saturating_sub(t.frames.len());
    if budget <= HOP_FRAMES {
        return Err(t.stack_overflow());
    }
    // A new activation's Java stack is what is left of the caller's: a chain of hops costs
    // one thread's stack, as a chain of calls would.
    let slots = (t.stack.len() - t.sp).clamp(32 * 1024, t.vm.java_stack_slots());
    let Some(mut activation) = take_activation(t.vm, id, slots) else {
        return Err(portal_exception(t, "the service's domain has ended"));
    };
    activation.t.max_depth = budget - HOP_FRAMES;
    let roots: SmallVec<[Option<ObjRef>; 4]> = ref_slots(m).map(|i| from_slot(args[i])).collect();
    let objects = match encode(t, &roots, activation.t.domain.app_loader) {
        Ok(p) => p,
        Err(m) => {
            keep_activation(activation);
            return Err(portal_exception(t, &m));
        }
    };
    let request = Request {
        service: id,
        method: m,
        slots: args,
        objects,
    };
    let caller = t.domain.app_loader;
    let t_domain = t.domain.id;
    let lock_id = t.lock_id.0;
    let reply = t.blocking(|| {
        with_caller(t_domain, lock_id, &mut activation, |a| {
            run_activation(a, |a| serve(a, &request, caller)).unwrap_or_else(Reply::Failed)
        })
    });
    if t.activation.is_none() {
        // This OS thread's CPU clock, which the caller's domain is measured by, ran the callee.
        t.domain.lent(
            activation
                .t
                .activation
                .as_ref()
                .map_or(0, |c| c.ticks_attached()),
        );
    }
    keep_activation(activation);
    match reply {
        Reply::Returned(_, p) if m.ret == BasicType::Ref => Ok(to_slot(first(decode(t, &p)?))),
        Reply::Returned(slot, _) => Ok(slot),
        Reply::Threw(p) => {
            t.exception = first(decode(t, &p)?);
            if t.exception.is_none() {
                return Err(portal_exception(
                    t,
                    "the service threw an exception that could not be copied",
                ));
            }
            Err(Thrown)
        }
        Reply::Failed(m) => Err(portal_exception(t, &m)),
    }
}

/// Frames one hop between domains costs against the caller's depth budget (the activation's
/// entry and the Rust frames of the call, about as much as a few Java frames).
const HOP_FRAMES: usize = 16;

thread_local! {
    /// The threads suspended in portal calls on this OS thread, innermost last: (domain id,
    /// lock id). A call that comes back into one of their domains runs as that thread as far
    /// as monitors go, so it re-enters what the thread holds, as plain Java would.
    static CALLERS: RefCell<Vec<(DomainId, u32)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on `activation` while the caller (of `domain`, lock id `lock_id`) is suspended:
/// if this OS thread is already inside a call made from the activation's domain, the
/// activation takes that thread's lock id for the duration. The two never run at once (they
/// share the OS thread), so sharing the id is sharing the thread's monitors.
fn with_caller(
    domain: DomainId,
    lock_id: u32,
    activation: &mut Kept,
    f: impl FnOnce(&mut Kept) -> Reply,
) -> Reply {
    let target = activation.t.domain.id;
    let outer = CALLERS.with(|c| {
        let mut c = c.borrow_mut();
        let outer = c.iter().rev().find(|(d, _)| *d == target).map(|&(_, l)| l);
        c.push((domain, lock_id));
        outer
    });
    let own = outer.map(|l| std::mem::replace(&mut activation.t.lock_id.0, l));
    let reply = f(activation);
    if let Some(own) = own {
        activation.t.lock_id.0 = own;
    }
    CALLERS.with(|c| c.borrow_mut().pop());
    reply
}

fn first(roots: graph::Roots) -> Option<ObjRef> {
    roots.first().copied().flatten()
}

/// This OS thread's detached activation of service `id`'s domain (made if there is none, with
/// a Java stack of `slots` slots); None if that domain has ended.
fn take_activation(vm: &'static Vm, id: u64, slots: usize) -> Option<Kept> {
    let cached = ACTIVATIONS.with(|cell| {
        let mut acts = cell.borrow_mut();
        let (_, domain) = acts.last.filter(|&(service, _)| service == id)?;
        acts.take(domain).filter(|k| !k.t.in_dead_domain())
    });
    if cached.is_some() {
        return cached;
    }
    let domain = owner(id)?;
    let found = ACTIVATIONS.with(|cell| {
        let mut acts = cell.borrow_mut();
        acts.kept.retain(|k| !k.t.in_dead_domain());
        acts.last = Some((id, domain.id));
        acts.take(domain.id)
    });
    Some(found.unwrap_or_else(|| {
        let mut t = vm.new_thread_with_stack(domain.clone(), slots);
        let clock = Arc::new(Default::default());
        domain.register_activation(&clock);
        t.activation = Some(clock);
        Kept {
            t,
            collections: u64::MAX,
        }
    }))
}

/// Keeps a detached activation for the next call (unless its domain has ended, or this OS
/// thread already keeps one for it).
fn keep_activation(k: Kept) {
    if k.t.in_dead_domain() {
        return;
    }
    ACTIVATIONS.with(|cell| {
        let mut acts = cell.borrow_mut();
        if !acts.kept.iter().any(|o| o.t.domain.id == k.t.domain.id) {
            acts.kept.push(k);
        }
    });
}

/// Runs `f` on activation `k`, attached to its domain for the duration; Err(why) if it
/// cannot enter the domain.
fn run_activation<R>(k: &mut Kept, f: impl FnOnce(&mut JThread) -> R) -> Result<R, String> {
    let t = &mut k.t;
    if !t.attach() {
        t.detach();
        return Err("the service's domain has ended".into());
    }
    if t.thread_obj.is_none() || t.domain.collections() != k.collections {
        // The Thread object may have moved while detached: the domain's thread table knows.
        t.thread_obj = t.domain.thread_object(t.id);
    }
    if t.thread_obj.is_none() {
        let name = format!("portal-{}", t.id);
        // Making the Thread object is the VM's work, not the call chain's: a thread's budget.
        let budget = std::mem::replace(&mut t.max_depth, t.vm.max_java_depth());
        let made = crate::vm::new_thread_object(t, &name);
        t.max_depth = budget;
        if made.is_err() {
            let m = crate::vm::describe_exception(t);
            t.detach();
            return Err(format!("cannot enter the service's domain: {m}"));
        }
    }
    let reply = f(t);
    t.exception = None;
    t.handles.clear();
    k.collections = t.domain.collections();
    t.detach();
    Ok(reply)
}

/// Runs `f` in the domain of (local) service `id`, on this OS thread's portal activation of
/// that domain, with the service object: a call that came from another process, which runs
/// there as a call from another domain would. Err(why) if the service or its domain is gone.
pub fn with_service<R>(
    vm: &'static Vm,
    id: u64,
    f: impl FnOnce(&mut JThread, ObjRef) -> R,
) -> Result<R, String> {
    let gone = || "the service is gone".to_string();
    if id & REMOTE != 0 {
        return Err(gone());
    }
    let mut k = take_activation(vm, id, vm.java_stack_slots()).ok_or_else(gone)?;
    k.t.max_depth = vm.max_java_depth();
    let r = run_activation(&mut k, |t| {
        let service = t.domain.exported.lock().get(&id).copied();
        service.map(|s| f(t, s))
    });
    keep_activation(k);
    r?.ok_or_else(gone)
}

/// The callee's side of a call: decode, invoke, encode the outcome for `caller`.
fn serve(t: &mut JThread, request: &Request, caller: LoaderId) -> Reply {
    let outcome = invoke(t, request);
    if t.in_dead_domain() {
        return Reply::Failed("the service's domain was terminated during the call".into());
    }
    match outcome {
        Ok(r) if request.method.ret == BasicType::Ref => match encode(t, &[from_slot(r)], caller) {
            Ok(p) => Reply::Returned(0, p),
            Err(m) => Reply::Failed(format!("the result: {m}")),
        },
        Ok(r) => Reply::Returned(r, Parcel::default()),
        Err(Thrown) => {
            let Some(e) = t.exception.take() else {
                return Reply::Failed("the call failed".into());
            };
            let h = t.handle(e);
            // Fill in the stack trace in Java objects; the VM's backtrace does not cross.
            let _ = t.call_virtual(e, "getStackTrace", "()[Ljava/lang/StackTraceElement;", &[]);
            t.exception = None;
            let e = t.handle_get(h);
            e.clear_slot(t.vm.wk().throwable_backtrace as usize);
            match encode(t, &[Some(e)], caller) {
                Ok(p) => Reply::Threw(p),
                Err(m) => Reply::Failed(format!(
                    "the service threw {}, which cannot be copied: {m}",
                    e.class().java_name()
                )),
            }
        }
    }
}

/// Decodes the arguments and calls the service object's implementation of the method.
fn invoke(t: &mut JThread, request: &Request) -> JResult<u64> {
    let m = request.method;
    // Decoding may run Java code (and collect) before it rebuilds the objects; from there
    // to the call only the VM runs, which never collects.
    let objects = decode(t, &request.objects)?;
    let Some(&service) = t.domain.exported.lock().get(&request.service) else {
        return Err(portal_exception(t, "the service is gone"));
    };
    let Some(target) =
        crate::class::loader::select_interface_method(service.class(), &m.name, &m.descriptor)
            .filter(|m| !m.is_abstract())
    else {
        return Err(portal_exception(
            t,
            &format!("the service has no method {}{}", m.name, m.descriptor),
        ));
    };
    let mut slots: SmallVec<[u64; 8]> = SmallVec::with_capacity(request.slots.len() + 1);
    slots.push(service.slot());
    slots.extend_from_slice(request.slots);
    for (k, i) in ref_slots(m).enumerate() {
        slots[1 + i] = to_slot(objects.get(k).copied().flatten());
    }
    crate::interp::exec::call(t, target, &slots)
}

/// DomainZero's name service: names to service ids (each registration holds a reference).
static NAMES: Mutex<Option<FxHashMap<String, u64>>> = Mutex::new(None);
static NAMES_CHANGED: parking_lot::Condvar = parking_lot::Condvar::new();

/// Registers service `id` under `name`, replacing (and releasing) an earlier one.
pub fn register_name(name: &str, id: u64) {
    acquire(id);
    let old = {
        let mut names = NAMES.lock();
        let old = names
            .get_or_insert_with(FxHashMap::default)
            .insert(name.to_string(), id);
        NAMES_CHANGED.notify_all();
        old
    };
    if let Some(old) = old {
        release(old);
    }
}

/// Removes the registration of `name`.
pub fn unregister_name(name: &str) {
    let old = NAMES.lock().as_mut().and_then(|m| m.remove(name));
    if let Some(old) = old {
        release(old);
    }
}

/// The service registered under `name`, waiting up to `timeout` for it (polling
/// `interrupted`). Names of services whose domain has ended are not found.
pub fn lookup_name(
    name: &str,
    timeout: std::time::Duration,
    interrupted: &dyn Fn() -> bool,
) -> Option<u64> {
    let mut names = NAMES.lock();
    crate::thread::wait_interruptibly(&NAMES_CHANGED, &mut names, timeout, interrupted, |names| {
        names
            .as_ref()
            .and_then(|m| m.get(name))
            .copied()
            .filter(|&id| id & REMOTE != 0 || owner(id).is_some())
    })
}
