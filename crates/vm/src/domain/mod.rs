//! Domains: the owners of every mutable runtime datum (JX §2).
//!
//! A domain has its own heap, its own Class mirrors and static fields (statics live inside
//! the mirror, after the `java.lang.Class` fields and the VM slot), its own class
//! initialization states, interned strings, resolved string constants, monitors and class
//! loader objects. Class metadata is shared (see [`crate::class`]). The process boots
//! DomainZero; a plain `jxvm -cp . Main` runs Main in one application domain.
//!
//! This module must never store a reference from one domain's heap into another's.
//!
//! Threat model: code in a created domain is hostile (reflection, method handles, `Unsafe`,
//! class definition, threads, portals, recursion, allocation of every kind). It must not
//! reach another domain's data, obtain a capability it was not given (`crate::api`: the API's
//! internals are closed to every route; handles and portals keep their target in VM slots),
//! escape a limit (`budget`: off-heap memory, heaps of children, CPU time nest in the
//! creator's), or crash or stall the process (`portal`: calls that come back re-enter, chains
//! of calls are bounded by -Xss). The launcher's domain and DomainZero are trusted as a java
//! process is. What is not enforced yet is listed in the README ("What a domain guarantees").

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use parking_lot::{Condvar, Mutex};
use rustc_hash::FxHashMap;

pub use crate::class::DomainId;
use crate::class::{Class, ClassId, LoaderId};
use crate::heap::{Heap, ObjRef, from_slot};
use crate::thread::monitor::Monitor;
use base::idtable::IdTable;

pub mod budget;
pub mod image;
pub mod lifecycle;
pub mod portal;
pub mod roots;
pub mod stub;
pub mod unloading;

/// DomainZero's id, and the id of the launcher's domain (the one `-cp ... Main` runs in);
/// created domains are numbered from `FIRST_CREATED`.
pub const ZERO_ID: DomainId = DomainId(0);
pub const LAUNCHER_ID: DomainId = DomainId(1);
pub const FIRST_CREATED: DomainId = DomainId(2);

/// Initialization state of one class in one domain (JVMS §5.5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InitState {
    Uninitialized,
    /// Being initialized by the thread with this id.
    InProgress(u64),
    Initialized,
    Failed,
}

/// What a domain knows about one class (its mirror is in [`Domain::mirror_of`]).
pub struct ClassState {
    pub init: Mutex<InitState>,
    pub init_cond: Condvar,
    /// Resolved String constants, indexed by constant-pool index.
    pub cp_strings: base::idtable::Clearable<Box<[AtomicU64]>>,
    /// The ExceptionInInitializerError recorded when initialization failed (JDK 17 style),
    /// used as the cause of later NoClassDefFoundErrors.
    pub init_error: Mutex<Option<ObjRef>>,
    /// The ProtectionDomain the class was defined with (`Class.getProtectionDomain`), once
    /// known: given to `ClassLoader.defineClass`, or made on first request for a class of the
    /// application class path.
    pub protection_domain: Mutex<Option<ObjRef>>,
}

impl ClassState {
    fn new() -> ClassState {
        ClassState {
            init: Mutex::new(InitState::Uninitialized),
            init_cond: Condvar::new(),
            cp_strings: Default::default(),
            init_error: Mutex::new(None),
            protection_domain: Mutex::new(None),
        }
    }
    /// Clears what the domain knows of an unloaded class (as if it had never used it) and
    /// frees its resolved constants.
    ///
    /// # Safety
    /// No thread of the domain holds or can take a reference to the class's resolved
    /// constants (nothing reaches the class any more, and the domain is stopped).
    #[allow(unsafe_code)]
    pub unsafe fn forget(&self) {
        *self.init.lock() = InitState::Uninitialized;
        // SAFETY: the caller guarantees no reference to the constants is held or taken.
        unsafe { self.cp_strings.clear() };
        *self.init_error.lock() = None;
        *self.protection_domain.lock() = None;
    }
}

pub struct Domain {
    pub id: DomainId,
    pub name: String,
    /// This domain's application loader (one per distinct class path, shared by domains
    /// with the same class path) and its class path (`java.class.path`).
    pub app_loader: LoaderId,
    pub class_path: String,
    /// The loader id classes this domain defines at run time through its application loader
    /// get (`ClassLoader.defineClass`: proxies, generated classes). The first domain of an
    /// application loader uses the loader's id; later domains sharing it get a private id
    /// that delegates to it, so that two domains generating the same name (each counts
    /// `$Proxy0` from zero) do not collide in the shared class table.
    pub define_loader: LoaderId,
    pub heap: Heap,
    classes: IdTable<ClassState>,
    /// Whether each class is initialized in this domain (JVMS §5.5), a byte per class id:
    /// read by the interpreter and, at [`Domain::init_flags_base`] + id, by compiled code.
    init_flags: base::idtable::IdFlags,
    /// The mirror (java.lang.Class instance holding the statics) of each class in this
    /// domain, 0 until created: read at [`Domain::mirrors_base`] + 8 × id by compiled code.
    mirrors: base::idtable::IdWords,
    /// Interned strings: UTF-16 contents -> String object.
    pub strings: Mutex<FxHashMap<Arc<[u16]>, ObjRef>>,
    /// Inflated monitors, by index + 1 as stored in an object's mark word (read lock-free).
    pub monitors: IdTable<Arc<Monitor>>,
    /// Serializes inflation; holds the number of monitors created so far.
    pub monitor_count: Mutex<u32>,
    /// Class loader objects by id, and ids by object address.
    pub loaders: Mutex<LoaderTable>,
    /// Mirrors by class id are in `classes`; this finds the class of a mirror quickly.
    pub next_hash: AtomicU32,
    /// Lock serializing mirror creation.
    pub mirror_lock: Mutex<()>,
    /// Named modules defined in this domain (java.lang.Module objects by name).
    pub modules: Mutex<FxHashMap<String, ObjRef>>,
    /// Linked invokedynamic call sites of user bootstrap methods (CallSite objects), by the
    /// address of the instruction's `IndySite` (each instruction is its own call site), with
    /// the unit of the class the instruction is in (the entry goes when it is unloaded).
    pub call_sites: Mutex<FxHashMap<usize, (ObjRef, crate::class::Unit)>>,
    /// The boot loader's unnamed module.
    pub boot_unnamed_module: Mutex<Option<ObjRef>>,
    /// Live Java threads of this domain, by Thread object address.
    pub threads: Mutex<FxHashMap<usize, Arc<ThreadHandle>>>,
    /// Stops this domain's threads for collections.
    pub safepoint: crate::thread::safepoint::Safepoint,
    /// An OutOfMemoryError made at boot, thrown when there is no memory left to build one.
    pub oom_error: Mutex<Option<ObjRef>>,
    /// The memory objects (jx.memory) of this domain's heap, by object address, owning the view
    /// each one stands for; the collector re-keys it and drops the entries of dead objects.
    pub memory_objects: Mutex<FxHashMap<usize, Arc<crate::memory::View>>>,
    /// Bytes of memory objects allocated since `jx.memory.Memory.allocate` last collected.
    pub memory_allocated: std::sync::atomic::AtomicU64,
    /// Cleared references waiting for the ReferenceHandler thread (linked by `discovered`).
    pub pending_refs: Mutex<Option<ObjRef>>,
    pub pending_refs_cond: Condvar,
    /// Collection statistics and options.
    pub gc: crate::gc::GcState,
    /// Count of live non-daemon threads other than main, with a condvar to wait for zero.
    pub non_daemon: Mutex<u32>,
    pub non_daemon_cond: Condvar,
    pub limits: Limits,
    /// Its limits with its creator's: what it and the domains it creates may use together.
    pub budget: Arc<budget::Budget>,
    /// Its way to the host (files, directories, sockets, processes, clock, environment): the
    /// host backend, bound to [`Domain::holder`]; natives reach the host only through it.
    host: Arc<dyn port::Host>,
    /// Which backend `host` is (`--io`); a domain it creates gets the same.
    pub io: port::IoSpec,
    /// Blocks of native memory its code allocated and has not freed (`Unsafe.allocateMemory`):
    /// address to size, charged to the budget; freed when the domain is gone. A template that
    /// holds any cannot be copied.
    pub native_blocks: Mutex<std::collections::BTreeMap<usize, usize>>,
    /// Whether its programs may use `sun.misc.Unsafe` unconfined (the launcher's domain and
    /// DomainZero, and created domains whose spec says so and whose creator is trusted); see
    /// `native::confine`.
    pub trusted: bool,
    /// A ThreadDeath made at boot: what the threads of a terminated domain unwind with.
    pub death: Mutex<Option<ObjRef>>,
    /// The CPU time of its threads (see `lifecycle`).
    pub cpu: Mutex<lifecycle::CpuAccount>,
    /// Time (`port::ticks`) its threads spent running portal activations of other domains
    /// (charged there): their CPU clocks counted it, so `cpu_nanos` takes it off. Apart from
    /// `cpu`: every call adds to it.
    pub lent_ticks: AtomicU64,
    /// How the domain ended (None while it runs), with a condvar to wait for the end.
    pub end: Mutex<Option<lifecycle::End>>,
    pub end_cond: Condvar,
    /// How it will end, decided once when it is killed (terminated, or finished); `end` takes
    /// it when the last thread has left.
    pub verdict: Mutex<Option<lifecycle::End>>,
    /// The main thread group (portal activations' Thread objects join it).
    pub main_group: Mutex<Option<ObjRef>>,
    /// Services this domain exports (objects other domains reach through portals), by id.
    pub exported: Mutex<FxHashMap<u64, ObjRef>>,
    /// Notified when `exported` becomes empty.
    pub exported_cond: Condvar,
    /// Portals held in this domain (proxy objects by address), each holding a reference to
    /// its service; the collector drops the entries of dead proxies, releasing the service.
    pub portals: Mutex<FxHashMap<usize, crate::domain::portal::PortalRef>>,
    /// Whether this is a domain template (see `image`): threads it starts are recorded, not run.
    pub template: bool,
    /// Whether threads it starts are recorded, not run, for now: a fork server's VM holds the
    /// threads its boot starts until a forked child releases them (see `crate::fork`).
    pub held: AtomicBool,
    /// Java threads the class library started at boot (not counted by `limits.max_threads`);
    /// all of them (u32::MAX) until the boot is over.
    pub system_threads: AtomicU32,
    /// Java threads started in all and the most alive at once (the management API's).
    pub thread_stats: ThreadStats,
}

/// How many Java threads a domain has had: started in all, and the most alive at once; and
/// whether its threads' contention times are measured (`thread::contention`).
#[derive(Default)]
pub struct ThreadStats {
    pub started: std::sync::atomic::AtomicU64,
    pub peak: AtomicU32,
    pub contention_monitoring: AtomicBool,
    /// Bumped each time contention monitoring is turned on (times start from zero).
    pub contention_epoch: std::sync::atomic::AtomicU64,
}

/// What a domain may use (0: no limit).
#[derive(Clone, Copy, Default, Debug)]
pub struct Limits {
    pub heap_bytes: u64,
    /// Memory objects, direct buffers and `Unsafe.allocateMemory` together.
    pub off_heap_bytes: u64,
    pub cpu_nanos: u64,
    pub max_threads: u32,
    /// Files, sockets, pipes and directory streams open at once (`port::held`).
    pub max_descriptors: u32,
    /// Native memory of the classes the domain owns (`class::metadata`).
    pub metadata_bytes: u64,
}

/// A domain's application class path and the loader id that reads it.
pub struct ClassPath {
    pub loader: LoaderId,
    pub path: String,
    /// Whether this is the first domain of `loader` (see `Domain::define_loader`).
    pub first: bool,
}

/// A domain's heap sizes in bytes (nursery: `heap::default_nursery` of `max` when None).
#[derive(Clone, Copy, Debug)]
pub struct HeapSize {
    pub max: usize,
    pub initial: usize,
    pub nursery: Option<usize>,
}

/// What other threads may know about a Java thread.
pub struct ThreadHandle {
    pub id: u64,
    pub interrupted: Arc<std::sync::atomic::AtomicBool>,
    pub alive: AtomicBool,
    /// LockSupport permit; its condvar also wakes the thread from `sleep`.
    pub permit: Mutex<bool>,
    pub permit_cond: Condvar,
    /// The monitor it waits on in `Object.wait`, for an interrupt to wake it.
    pub waiting_on: Mutex<Option<Arc<Monitor>>>,
    /// A portal activation (another domain's call visiting): not one of the domain's threads
    /// for its thread limit and statistics.
    pub activation: bool,
    /// Its OS thread (`port::current_thread_token`) and that thread's cancellation flag, once
    /// it runs there; for a portal activation (whose OS thread is the caller's) only while it
    /// is in a blocking operation. Termination cancels its blocking system calls.
    pub os_thread: Mutex<Option<(i64, Arc<AtomicBool>)>>,
    /// Whether it holds a place in its domain's budget (`budget::Budget::start_thread`),
    /// given back once, when it ends.
    pub counted: AtomicBool,
}

impl ThreadHandle {
    /// Gives the thread's place in `budget` back, if it holds one (once).
    pub fn end_counted(&self, budget: &budget::Budget) {
        if self.counted.swap(false, Ordering::AcqRel) {
            budget.end_thread();
        }
    }

    pub fn new(
        id: u64,
        interrupted: Arc<std::sync::atomic::AtomicBool>,
        activation: bool,
    ) -> ThreadHandle {
        let permit = Mutex::new(false);
        ThreadHandle {
            id,
            interrupted,
            alive: AtomicBool::new(true),
            permit,
            permit_cond: Condvar::new(),
            waiting_on: Mutex::new(None),
            activation,
            os_thread: Mutex::new(None),
            counted: AtomicBool::new(false),
        }
    }

    /// Wakes the thread from sleep, park or wait, to look at its interrupt flag (or its
    /// domain's termination) at once.
    pub fn wake(&self) {
        {
            let _permit = self.permit.lock();
            self.permit_cond.notify_all();
        }
        if let Some(m) = self.waiting_on.lock().as_ref() {
            m.wake_waiters();
        }
    }

    /// Notes the calling OS thread as this thread's (see `os_thread`).
    pub fn set_os_thread(&self) {
        *self.os_thread.lock() = Some((port::current_thread_token(), port::cancellation()));
    }

    /// A portal activation leaves its blocking operation: the OS thread goes back to its
    /// caller, not cancelled by this domain's termination any more.
    pub fn release_os_thread(&self) {
        if let Some((_, cancel)) = self.os_thread.lock().take() {
            cancel.store(false, Ordering::SeqCst);
        }
    }

    /// Stops the thread's blocking system calls for good (its domain is terminated): they
    /// fail with EINTR from now on, and the one it may be blocked in is interrupted.
    pub fn cancel_system_calls(&self) {
        // A finished thread's OS thread id may name another thread by now.
        if !self.alive.load(Ordering::SeqCst) {
            return;
        }
        if let Some((token, cancel)) = self.os_thread.lock().as_ref() {
            cancel.store(true, Ordering::SeqCst);
            let _ = port::wake_thread(*token);
        }
    }
}

#[derive(Default)]
pub struct LoaderTable {
    pub by_id: FxHashMap<u32, ObjRef>,
    pub by_obj: FxHashMap<usize, LoaderId>,
}

impl Drop for Domain {
    /// The native memory the domain's code allocated and never freed is given back with it,
    /// and the memory its tables held (freed right after this) goes back to the kernel soon
    /// (`unloading`).
    fn drop(&mut self) {
        self.release_off_heap();
        self.release_host_resources();
        unloading::domain_dropped();
    }
}

/// Who the host resources of domain `id` are held for (see [`Domain::holder`]).
fn holder(id: DomainId) -> port::held::Owner {
    if id < FIRST_CREATED {
        port::held::Owner::SYSTEM
    } else {
        port::held::Owner::domain(id.raw())
    }
}

impl Domain {
    pub fn new(
        id: DomainId,
        name: &str,
        classes: ClassPath,
        heap: HeapSize,
        budget: Arc<budget::Budget>,
        io: &port::IoSpec,
    ) -> std::io::Result<Domain> {
        let host = port::remote::backend(io, holder(id)).map_err(std::io::Error::other)?;
        let limits = budget.limits;
        // -Xmn fixes the nursery; by default it starts small and may grow (`heap`'s policy).
        let (nursery_bytes, nursery_reserve) = match heap.nursery {
            Some(n) => (n, n),
            None => (
                crate::heap::default_nursery(heap.max),
                crate::heap::max_adaptive_nursery(heap.max),
            ),
        };
        Ok(Domain {
            id,
            name: name.to_string(),
            app_loader: classes.loader,
            define_loader: if classes.first {
                classes.loader
            } else {
                crate::class::loader::new_user_loader(classes.loader, id)
            },
            class_path: classes.path,
            heap: Heap::new(heap.max, heap.initial, nursery_bytes, nursery_reserve)?,
            classes: IdTable::new(),
            init_flags: Default::default(),
            mirrors: Default::default(),
            strings: Mutex::new(FxHashMap::default()),
            monitors: IdTable::new(),
            monitor_count: Mutex::new(0),
            loaders: Mutex::new(LoaderTable::default()),
            next_hash: AtomicU32::new(0x2545_F491),
            mirror_lock: Mutex::new(()),
            modules: Mutex::new(FxHashMap::default()),
            call_sites: Mutex::new(FxHashMap::default()),
            boot_unnamed_module: Mutex::new(None),
            threads: Mutex::new(FxHashMap::default()),
            safepoint: Default::default(),
            oom_error: Mutex::new(None),
            memory_objects: Mutex::new(FxHashMap::default()),
            memory_allocated: Default::default(),
            pending_refs: Mutex::new(None),
            pending_refs_cond: Condvar::new(),
            gc: Default::default(),
            non_daemon: Mutex::new(0),
            non_daemon_cond: Condvar::new(),
            limits,
            budget,
            host,
            io: io.clone(),
            native_blocks: Mutex::new(std::collections::BTreeMap::new()),
            trusted: true,
            death: Mutex::new(None),
            cpu: Mutex::new(Default::default()),
            lent_ticks: Default::default(),
            end: Mutex::new(None),
            end_cond: Condvar::new(),
            verdict: Mutex::new(None),
            template: false,
            held: AtomicBool::new(false),
            system_threads: AtomicU32::new(u32::MAX),
            thread_stats: ThreadStats::default(),
            main_group: Mutex::new(None),
            exported: Mutex::new(FxHashMap::default()),
            exported_cond: Condvar::new(),
            portals: Mutex::new(FxHashMap::default()),
        })
    }

    #[inline]
    pub fn class_state(&self, c: &Class) -> &ClassState {
        self.class_state_by_id(c.id)
    }
    #[inline]
    pub fn class_state_by_id(&self, id: ClassId) -> &ClassState {
        match self.classes.get(id.0) {
            Some(s) => s,
            None => self.new_class_state(id),
        }
    }

    #[cold]
    fn new_class_state(&self, id: ClassId) -> &ClassState {
        self.classes.get_or_init(id.0, ClassState::new)
    }

    /// Whether class `c` is initialized in this domain.
    #[inline]
    pub fn is_initialized(&self, c: &Class) -> bool {
        self.init_flags.get(c.id.0)
    }

    /// Records that class `c` is initialized in this domain (or, for a class being forgotten
    /// or copied from a template, that it is not).
    pub fn set_initialized(&self, c: ClassId, initialized: bool) {
        self.init_flags.set(c.0, initialized);
    }

    /// The address of the initialized flags: class id `n`'s byte is at this address + `n`.
    pub fn init_flags_base(&self) -> usize {
        self.init_flags.base()
    }

    /// The mirror of the class with id `id` in this domain, if made.
    #[inline]
    pub fn mirror_of(&self, id: ClassId) -> Option<ObjRef> {
        from_slot(self.mirrors.load(id.0))
    }

    /// Sets the mirror of class `id` (a slot value: 0 for none). The class gets a state, so
    /// that the collector, which visits the mirrors of classes with one, finds it.
    pub fn set_mirror(&self, id: ClassId, mirror: u64) {
        if mirror != 0 {
            self.class_state_by_id(id);
        }
        self.mirrors.store(id.0, mirror);
    }

    /// The cell holding the mirror of class `id` (for the collector).
    pub(crate) fn mirror_cell(&self, id: u32) -> Option<&AtomicU64> {
        self.mirrors.cell(id)
    }

    /// The address of the mirrors: class id `n`'s is at this address + 8 × `n`.
    pub fn mirrors_base(&self) -> usize {
        self.mirrors.base()
    }

    /// Clears what the domain knows of unloaded class `c`: its state and its initialized flag.
    ///
    /// # Safety
    /// As [`ClassState::forget`].
    #[allow(unsafe_code)]
    pub unsafe fn forget_class(&self, c: ClassId) {
        // Array and primitive classes are initialized without a state: the flag goes anyway,
        // so that a class given this id later is not taken for initialized.
        self.set_initialized(c, false);
        self.set_mirror(c, 0);
        if let Some(st) = self.existing_class_state(c.0) {
            // SAFETY: the caller's guarantee.
            unsafe { st.forget() };
        }
    }

    /// The state of class `id` if this domain has one (never creates it).
    pub fn existing_class_state(&self, id: u32) -> Option<&ClassState> {
        self.classes.get(id)
    }

    /// The loader object of `id` in this domain (None for the boot loader).
    pub fn loader_object(&self, id: LoaderId) -> Option<ObjRef> {
        self.loaders.lock().by_id.get(&id.0).copied()
    }
    /// The loader id of a loader object, registering a new id for an unseen loader.
    pub fn loader_id(&self, obj: Option<ObjRef>) -> LoaderId {
        let Some(o) = obj else { return LoaderId::BOOT };
        let mut t = self.loaders.lock();
        if let Some(&id) = t.by_obj.get(&o.addr()) {
            return id;
        }
        let id = crate::class::loader::new_user_loader(self.app_loader, self.id);
        let c = o.class();
        if c.loader == LoaderId::BOOT && &*c.name == "jdk/internal/reflect/DelegatingClassLoader" {
            crate::class::loader::mark_reflection_loader(id);
        }
        t.by_obj.insert(o.addr(), id);
        t.by_id.insert(id.0, o);
        id
    }
    /// Binds a well-known loader id (platform, app) to its object.
    pub fn bind_loader(&self, id: LoaderId, obj: ObjRef) {
        let mut t = self.loaders.lock();
        t.by_obj.insert(obj.addr(), id);
        t.by_id.insert(id.0, obj);
        if id == self.app_loader && self.define_loader != id {
            // The private defining id stands for the same object (found by id only).
            t.by_id.insert(self.define_loader.0, obj);
        }
    }

    /// Gives back the off-heap memory the domain holds: its references to memory objects
    /// (a region goes when no domain refers to it) and the native memory its code allocated.
    /// Only for a domain that has ended (no thread of it runs again, so nothing of it can
    /// touch that memory); an ended domain's objects may live on in tables, its memory not.
    pub fn release_off_heap(&self) {
        let views = std::mem::take(&mut *self.memory_objects.lock());
        drop(views);
        let blocks = std::mem::take(&mut *self.native_blocks.lock());
        for (addr, size) in blocks {
            port::free(addr);
            self.budget.release_off_heap(size as u64);
        }
    }

    /// Closes the descriptors and directory streams the domain's code left open. Only for a
    /// domain that has ended (none of its threads runs again).
    pub fn release_host_resources(&self) {
        self.host.give_back();
    }

    /// Its host backend (see [`port::host`]).
    #[inline]
    pub fn host(&self) -> &Arc<dyn port::Host> {
        &self.host
    }

    /// DomainZero or the launcher's domain: the system itself (never terminated; an exit there
    /// ends the process).
    pub fn is_system(&self) -> bool {
        self.id < FIRST_CREATED
    }

    /// Who the host resources (descriptors, directory streams) this domain's code creates are
    /// held for: a created domain's are closed when it ends.
    pub fn holder(&self) -> port::held::Owner {
        holder(self.id)
    }

    /// Where the Thread object of VM thread `id` is now (the collector re-keys the table).
    pub fn thread_object(&self, id: u64) -> Option<ObjRef> {
        self.threads
            .lock()
            .iter()
            .find(|(_, h)| h.id == id)
            .map(|(&a, _)| ObjRef::from_addr(a))
    }

    /// The id classes defined at run time through loader `id` get in this domain.
    pub fn defining_loader(&self, id: LoaderId) -> LoaderId {
        if id == self.app_loader {
            self.define_loader
        } else {
            id
        }
    }

    /// A fresh identity hash (31 bits, never 0): xorshift over a domain counter.
    pub fn new_identity_hash(&self) -> u32 {
        loop {
            let mut x = self.next_hash.fetch_add(0x9E37_79B9, Ordering::Relaxed);
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let h = x & 0x7FFF_FFFF;
            if h != 0 {
                return h;
            }
        }
    }
}
