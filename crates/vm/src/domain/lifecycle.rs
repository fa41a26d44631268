//! The life of a domain: creation (in a thread of its own, its class library copied from the
//! template, see `image`, or booted from scratch; then its components run there), the
//! accounting of its threads and CPU time, its limits, termination and its end.
//!
//! A domain ends when it is terminated (explicitly, past its CPU-time limit, or by
//! `System.exit` in it) and its last thread has left, or when its components and non-daemon
//! threads have finished and it exports no service, or no longer does (then it terminates
//! itself, which stops its daemon threads). Its `Domain` is then dropped from the VM's
//! registry, a tombstone keeping its name and how it ended; the heap is freed with the last
//! `Arc<Domain>`.
//!
//! Termination never stops a thread from outside: it marks the domain killed (see
//! `Safepoint::kill`), wakes its blocked threads, and each thread unwinds at its next safepoint
//! poll with no exception handler of the domain running (`JThread::in_dead_domain`).
//!
//! Must not touch another domain's heap: it only reads counters of other domains.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use rustc_hash::FxHashMap;

use super::budget::{Budget, Resource};
use super::{ClassPath, Domain, HeapSize, Limits};
use crate::class::loader::Files;
use crate::class::{DomainId, LoaderId};
use crate::vm::Vm;
use port::os::CpuClock;

/// The CPU time a domain's threads have used.
#[derive(Default)]
pub struct CpuAccount {
    /// CPU time of threads that have left the domain.
    done_nanos: u64,
    /// The domain's own attached threads (by VM thread id): their CPU clocks, and each clock's
    /// reading when the thread attached.
    live: FxHashMap<u64, (CpuClock, u64)>,
    /// The clocks of the portal activations kept for this domain, attached or not (registered
    /// once, so that an attach or detach takes no lock).
    activations: Vec<Arc<ActivationClock>>,
}

/// The time a portal activation runs, blocked time excluded, on the monotonic clock. A thread's
/// CPU clock costs a system call to read, and reading it when an activation attaches and
/// detaches cost more than the rest of a null portal call; the monotonic clock is read in user
/// space. The activation runs on the caller's OS thread, so the caller's domain is credited
/// what the callee is charged.
#[derive(Default)]
pub struct ActivationClock {
    /// `port::ticks` when it last started running (0: not running).
    since: std::sync::atomic::AtomicU64,
    /// Ticks run before `since`, over the activation's life.
    run: std::sync::atomic::AtomicU64,
    /// `run` when it last attached.
    at_attach: std::sync::atomic::AtomicU64,
}

impl ActivationClock {
    /// It runs (attached, or back from a blocking operation).
    pub fn start(&self) {
        self.since.store(port::ticks().max(1), Ordering::Relaxed);
    }

    /// It stops running (detached, or blocked).
    pub fn stop(&self) {
        let running = Self::running_since(self.since.swap(0, Ordering::Relaxed));
        self.run.fetch_add(running, Ordering::Relaxed);
    }

    /// Nanoseconds run so far, over the activation's life.
    fn read(&self) -> u64 {
        port::ticks_to_nanos(
            self.run.load(Ordering::Relaxed)
                + Self::running_since(self.since.load(Ordering::Relaxed)),
        )
    }

    /// Ticks run since `since` (0: not running).
    fn running_since(since: u64) -> u64 {
        if since == 0 {
            0
        } else {
            port::ticks().saturating_sub(since)
        }
    }

    fn attach(&self) {
        self.at_attach
            .store(self.run.load(Ordering::Relaxed), Ordering::Relaxed);
        self.start();
    }

    /// Ticks run between its last attach and detach (what the caller's domain is credited).
    pub fn ticks_attached(&self) -> u64 {
        self.run.load(Ordering::Relaxed) - self.at_attach.load(Ordering::Relaxed)
    }
}

/// How a domain ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Its main class and non-daemon threads finished and it exported nothing.
    Finished,
    /// Terminated, for this reason.
    Terminated(String),
}

/// What a new domain is made of (the Java API's `DomainSpec`, or a system description's
/// entry).
#[derive(Clone, Debug, Default)]
pub struct Spec {
    pub name: String,
    pub class_path: Vec<String>,
    /// Run each in a thread of the domain: the first in its main thread, the others in
    /// threads started beside it.
    pub components: Vec<Component>,
    pub limits: Limits,
    /// The budget of the domain creating it (None: created by the VM or the launcher); its
    /// limits bound the new domain's (see `super::budget`).
    pub parent: Option<Arc<Budget>>,
    /// Whether its programs may use `sun.misc.Unsafe` unconfined (`native::confine`); only a
    /// trusted domain can make a trusted one.
    pub trusted: bool,
    /// Its backend (`--io`; a system description's `io`).
    pub io: port::IoSpec,
}

/// A main class run in a domain, with its arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Component {
    pub main_class: String,
    pub args: Vec<String>,
}

/// The smallest heap a domain can boot its class library in.
pub const MIN_HEAP: u64 = 8 << 20;
/// The heap of a domain whose spec sets no limit.
const DEFAULT_HEAP: usize = 256 << 20;

/// A domain the registry knows: running, or ended (its heap gone).
pub enum Entry {
    Live(Arc<Domain>),
    Ended {
        name: String,
        end: End,
        cpu_nanos: u64,
        collections: u64,
    },
}

/// The VM's domains by id, and the number of created domains whose main is still running
/// (the launcher waits for them, as java waits for non-daemon threads).
#[derive(Default)]
pub struct Registry {
    entries: parking_lot::Mutex<FxHashMap<DomainId, Entry>>,
    next_id: std::sync::atomic::AtomicU32,
    running_mains: parking_lot::Mutex<u32>,
    mains_cond: parking_lot::Condvar,
    /// Components of created domains whose main could not start or threw.
    failed_components: std::sync::atomic::AtomicU32,
    watchdog: std::sync::OnceLock<()>,
    /// The image new domains are copied from, booted by the first creation (None: they boot
    /// from scratch).
    template: std::sync::OnceLock<Option<super::image::Template>>,
}

impl Registry {
    pub fn new(first_free_id: DomainId) -> Registry {
        Registry {
            next_id: first_free_id.raw().into(),
            ..Default::default()
        }
    }
    pub fn insert(&self, d: &Arc<Domain>) {
        self.entries.lock().insert(d.id, Entry::Live(d.clone()));
    }
    /// The running domain `id`.
    pub fn live(&self, id: DomainId) -> Option<Arc<Domain>> {
        match self.entries.lock().get(&id) {
            Some(Entry::Live(d)) => Some(d.clone()),
            _ => None,
        }
    }
    /// Runs `f` on the entry of domain `id` (None for an unknown id).
    pub fn with_entry<R>(&self, id: DomainId, f: impl FnOnce(Option<&Entry>) -> R) -> R {
        f(self.entries.lock().get(&id))
    }
    /// The running domains, by id.
    pub fn live_domains(&self) -> Vec<Arc<Domain>> {
        let mut live: Vec<Arc<Domain>> = self
            .entries
            .lock()
            .values()
            .filter_map(|e| {
                if let Entry::Live(d) = e {
                    Some(d.clone())
                } else {
                    None
                }
            })
            .collect();
        live.sort_by_key(|d| d.id);
        live
    }
    fn bury(&self, d: &Domain, end: End) {
        let tomb = Entry::Ended {
            name: d.name.clone(),
            end,
            cpu_nanos: d.cpu_nanos(),
            collections: d.collections(),
        };
        self.entries.lock().insert(d.id, tomb);
    }
    /// The domain template, booted on first use; None (with a warning on stderr, once) if it
    /// cannot be used or `JXVM_DOMAIN_TEMPLATE=0` turns it off.
    pub fn template(&self, vm: &'static Vm) -> Option<&super::image::Template> {
        let made = self.template.get_or_init(|| {
            if std::env::var_os("JXVM_DOMAIN_TEMPLATE").is_some_and(|v| v == "0") {
                return None;
            }
            super::image::Template::boot(vm)
                .map_err(|e| eprintln!("jxvm: warning: domains boot from scratch: {e}"))
                .ok()
        });
        made.as_ref()
    }
    /// How many components of created domains could not start or ended by an exception.
    pub fn failed_components(&self) -> u32 {
        self.failed_components.load(Ordering::Relaxed)
    }
    /// Waits until no created domain's main class is still running.
    pub fn wait_for_mains(&self) {
        let mut n = self.running_mains.lock();
        while *n > 0 {
            self.mains_cond.wait(&mut n);
        }
    }
}

/// Why a domain could not be created (the Java API's `DomainException`).
#[derive(Debug)]
pub struct CreateError(pub String);

/// Creates a domain from `spec` and boots its class library in a new thread of its own, which
/// then runs the spec's main class. Returns once the class library is booted.
pub fn create(vm: &'static Vm, spec: Spec) -> Result<Arc<Domain>, CreateError> {
    let files = Files::open(&spec.io).map_err(CreateError)?;
    let class_path = check_class_path(&files, &spec.class_path)?;
    let (loader, first) = vm.classes.app_loader_for(&class_path, &files);
    for c in &spec.components {
        check_main_class(vm, loader, &c.main_class)?;
    }
    let max = spec.limits.max_threads as usize;
    if max != 0 && spec.components.len() > max {
        return Err(CreateError(format!(
            "{} components need more threads than the limit of {max}",
            spec.components.len()
        )));
    }
    let mut limits = nested_limits(&spec)?;
    let room = spec.parent.as_ref().and_then(|p| p.child_heap_room());
    let heap = heap_size(vm, &limits, room)?;
    limits.heap_bytes = heap.max as u64;
    limits.off_heap_bytes =
        limit_or_heap(&spec, heap.max as u64, "off-heap", |l| l.off_heap_bytes)?;
    limits.metadata_bytes =
        limit_or_heap(&spec, heap.max as u64, "metadata", |l| l.metadata_bytes)?;
    if let Some(p) = &spec.parent
        && !p.reserve_child_heap(limits.heap_bytes)
    {
        return Err(CreateError(format!(
            "the heap limit of {} bytes does not fit in what the creating domain has left",
            limits.heap_bytes
        )));
    }
    if limits.max_descriptors == 0 {
        limits.max_descriptors = default_descriptor_limit();
    }
    let id = DomainId(vm.domains.next_id.fetch_add(1, Ordering::Relaxed));
    let classes = ClassPath {
        loader,
        path: class_path,
        first,
    };
    let budget = Budget::new(spec.parent.clone(), limits);
    let domain = Domain::new(id, &spec.name, classes, heap, budget, &spec.io).map(|mut d| {
        d.trusted = spec.trusted;
        d
    });
    let domain = domain.map_err(|e| {
        if let Some(p) = &spec.parent {
            p.release_child_heap(limits.heap_bytes);
        }
        CreateError(format!(
            "cannot reserve the heap of domain {}: {e}",
            spec.name
        ))
    })?;
    domain.gc.apply_options(&domain.heap, &vm.opts);
    let domain = Arc::new(domain);
    vm.domains.insert(&domain);
    port::held::open_account(
        domain.holder(),
        domain.budget.account(Resource::Descriptors),
    );
    vm.classes
        .metadata
        .open(id, domain.budget.account(Resource::Metadata));
    if limits.cpu_nanos > 0 {
        vm.domains.watchdog.get_or_init(|| start_cpu_watchdog(vm));
    }
    let (booted_tx, booted_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let d = domain.clone();
    let components = spec.components;
    let spawned = std::thread::Builder::new()
        .name(format!("jxvm-domain-{id}"))
        .stack_size(vm.thread_stack_size())
        .spawn(move || run_domain_main(vm, d, components, booted_tx));
    if let Err(e) = spawned {
        terminate(vm, &domain, "its main thread could not start");
        return Err(CreateError(format!(
            "cannot start a thread for domain {}: {e}",
            spec.name
        )));
    }
    match booted_rx.recv() {
        Ok(Ok(())) => Ok(domain),
        Ok(Err(msg)) => Err(CreateError(format!(
            "domain {} failed to boot: {msg}",
            spec.name
        ))),
        Err(_) => Err(CreateError(format!("domain {} failed to boot", spec.name))),
    }
}

/// The body of a new domain's main thread: boot, report, start the components, wait for
/// the non-daemon threads, then end the domain unless it exports services.
fn run_domain_main(
    vm: &'static Vm,
    domain: Arc<Domain>,
    components: Vec<Component>,
    booted: std::sync::mpsc::Sender<Result<(), String>>,
) {
    // Counted before the creator hears of the boot, so the launcher cannot miss it.
    let running = (!components.is_empty()).then(|| MainRunning::start(vm));
    let mut t = match boot(vm, &domain) {
        Ok(t) => t,
        Err(e) => {
            let _ = booted.send(Err(e));
            terminate(vm, &domain, "its class library failed to boot");
            return;
        }
    };
    domain.system_threads.store(
        domain.alive_java_threads().saturating_sub(1),
        Ordering::Relaxed,
    );
    if !domain.budget.start_thread() {
        let _ = booted.send(Err(
            "the thread limit of a domain that created it is reached".into(),
        ));
        terminate(
            vm,
            &domain,
            "no thread left within its creators' thread limits",
        );
        return;
    }
    let _ = booted.send(Ok(()));
    let mut components = components.into_iter();
    let first = components.next();
    for (i, c) in components.enumerate() {
        start_component(vm, &domain, format!("main-{}", i + 2), c);
    }
    if let Some(c) = first {
        run_component(&mut t, &c);
    }
    crate::native::thread::exit_thread(&mut t);
    domain.budget.end_thread();
    crate::native::thread::wait_for_non_daemon(&mut t);
    // Its components are done (the launcher need not wait for it); a domain serving others
    // lives on until the last reference to its services is gone.
    drop(running);
    let d = domain.clone();
    t.blocking(|| d.await_unexported());
    // Its daemon threads stop the way a termination stops threads.
    kill(vm, &domain, End::Finished);
}

/// Gives a new domain its class library: a copy of the template if its heap can hold one,
/// else a boot from scratch. Returns its main thread, attached to the calling OS thread.
/// The template booted on the host backend, and its class library keeps what it read there
/// (`user.dir`, the file systems' working directories): a domain of another backend boots.
fn boot(vm: &'static Vm, domain: &Arc<Domain>) -> Result<Box<crate::thread::JThread>, String> {
    let template = match domain.io {
        port::IoSpec::Host => vm.domains.template(vm),
        _ => None,
    };
    match template {
        Some(tpl) if domain.heap.can_hold_image(tpl.image_bytes()) => tpl.instantiate(vm, domain),
        _ => crate::vm::boot_in(vm, domain.clone()).map_err(|e| e.to_string()),
    }
}

/// Runs a component's main in thread `t`, reporting a failure as java's launcher does.
fn run_component(t: &mut crate::thread::JThread, c: &Component) {
    let failed = crate::vm::run_main(t, &c.main_class, &c.args)
        .map_err(|e| e.report(t))
        .is_err();
    if failed && !t.in_dead_domain() {
        t.vm.domains
            .failed_components
            .fetch_add(1, Ordering::Relaxed);
    }
}

/// Starts a non-daemon thread of `domain`, named `name`, that runs component `c`.
fn start_component(vm: &'static Vm, domain: &Arc<Domain>, name: String, c: Component) {
    if !domain.budget.start_thread() {
        eprintln!(
            "jxvm: domain {}: no thread left within the thread limits for component {}",
            domain.name, c.main_class
        );
        vm.domains.failed_components.fetch_add(1, Ordering::Relaxed);
        return;
    }
    *domain.non_daemon.lock() += 1;
    let d = domain.clone();
    let body = move || {
        let mut t = vm.new_thread(d.clone());
        if t.attach() && crate::vm::new_thread_object(&mut t, &name).is_ok() {
            run_component(&mut t, &c);
            crate::native::thread::exit_thread(&mut t);
        } else if !t.in_dead_domain() {
            eprintln!(
                "jxvm: domain {}: the thread of component {} could not start",
                d.name, c.main_class
            );
            vm.domains.failed_components.fetch_add(1, Ordering::Relaxed);
        }
        drop(t);
        d.budget.end_thread();
        d.non_daemon_finished();
    };
    if std::thread::Builder::new()
        .name(format!("jxvm-domain-{}-component", domain.id))
        .stack_size(vm.thread_stack_size())
        .spawn(body)
        .is_err()
    {
        eprintln!(
            "jxvm: domain {}: cannot start a thread for a component",
            domain.name
        );
        vm.domains.failed_components.fetch_add(1, Ordering::Relaxed);
        domain.budget.end_thread();
        domain.non_daemon_finished();
    }
}

/// A created domain's main class counted as running (the launcher waits for it) while this
/// lives.
struct MainRunning(&'static Vm);

impl MainRunning {
    fn start(vm: &'static Vm) -> MainRunning {
        *vm.domains.running_mains.lock() += 1;
        MainRunning(vm)
    }
}

impl Drop for MainRunning {
    fn drop(&mut self) {
        let domains = &self.0.domains;
        *domains.running_mains.lock() -= 1;
        domains.mains_cond.notify_all();
    }
}

/// The class path as one string, every entry an existing directory or jar.
fn check_class_path(files: &Files, entries: &[String]) -> Result<String, CreateError> {
    if entries.is_empty() {
        return Err(CreateError("the domain has no class path".into()));
    }
    for e in entries {
        if crate::class::loader::ClassPathEntry::open_in(files, e).is_none() {
            return Err(CreateError(format!(
                "class path entry {e} is not a directory or a jar"
            )));
        }
    }
    Ok(entries.join(":"))
}

/// The main class must exist on the class path and have `public static void main(String[])`.
fn check_main_class(vm: &'static Vm, loader: LoaderId, name: &str) -> Result<(), CreateError> {
    let internal = name.replace('.', "/");
    let c = vm
        .classes
        .load(loader, &internal)
        .map_err(|e| CreateError(format!("main class {name} not found: {}", e.message())))?;
    match c.declared_method("main", "([Ljava/lang/String;)V") {
        Some(m) if m.is_static() && m.is_public() => Ok(()),
        _ => Err(CreateError(format!(
            "main class {name} has no public static void main(String[])"
        ))),
    }
}

/// The heap of a new domain: its limit, or by default the VM's default domain heap, at most
/// `room` (what the creating domain has left for its children's heaps, if it is limited).
fn heap_size(vm: &Vm, limits: &Limits, room: Option<u64>) -> Result<HeapSize, CreateError> {
    let room_usize = room.map_or(usize::MAX, |r| usize::try_from(r).unwrap_or(usize::MAX));
    let max = match limits.heap_bytes {
        0 => DEFAULT_HEAP
            .min(vm.opts.max_heap.max(MIN_HEAP as usize))
            .min(room_usize),
        b if b < MIN_HEAP => {
            return Err(CreateError(format!(
                "heap limit {b} is below the minimum of {MIN_HEAP} bytes"
            )));
        }
        b => usize::try_from(b).map_err(|_| CreateError(format!("heap limit {b} is too large")))?,
    };
    if max > room_usize || (max as u64) < MIN_HEAP {
        let left = room.unwrap_or(0);
        return Err(CreateError(format!(
            "heap limit {max} exceeds the {left} bytes the creating domain has left for its domains' heaps"
        )));
    }
    Ok(HeapSize {
        max,
        initial: (8 << 20).min(max),
        nursery: None,
    })
}

/// A new domain's CPU time and thread limits within its creator's: at most the tightest of the
/// creator's chain, and that one if it sets none of its own.
fn nested_limits(spec: &Spec) -> Result<Limits, CreateError> {
    let mut l = spec.limits;
    let Some(p) = &spec.parent else { return Ok(l) };
    let within = |what: &str, own: u64, theirs: u64| -> Result<u64, CreateError> {
        match (own, theirs) {
            (_, 0) => Ok(own),
            (0, _) => Ok(theirs),
            (o, t) if o > t => Err(CreateError(format!(
                "{what} limit {o} exceeds the creating domain's {t}"
            ))),
            (o, _) => Ok(o),
        }
    };
    l.cpu_nanos = within("CPU time (ns)", l.cpu_nanos, p.tightest(|l| l.cpu_nanos))?;
    l.max_threads = within(
        "thread",
        l.max_threads as u64,
        p.tightest(|l| l.max_threads as u64),
    )? as u32;
    l.max_descriptors = within(
        "descriptor",
        l.max_descriptors as u64,
        p.tightest(|l| l.max_descriptors as u64),
    )? as u32;
    Ok(l)
}

/// A domain's descriptor limit when neither its spec nor its creators set one: a quarter of
/// what the process may open, so that no one domain can use up the process's descriptors.
fn default_descriptor_limit() -> u32 {
    let process = port::fs::fd_limit().unwrap_or(1024).max(256);
    (process / 4) as u32
}

/// A new domain's off-heap or metadata limit (`kind`, read by `limit`): its own (at most the
/// tightest of its creator's chain), or by default its heap limit (then at most that tightest).
fn limit_or_heap(
    spec: &Spec,
    heap: u64,
    kind: &str,
    limit: fn(&Limits) -> u64,
) -> Result<u64, CreateError> {
    let theirs = spec.parent.as_ref().map_or(0, |p| p.tightest(limit));
    match limit(&spec.limits) {
        0 if theirs != 0 => Ok(heap.min(theirs)),
        0 => Ok(heap),
        own if theirs != 0 && own > theirs => Err(CreateError(format!(
            "{kind} limit {own} exceeds the creating domain's {theirs}"
        ))),
        own => Ok(own),
    }
}

/// Terminates `domain` (no effect if it already is): marks it killed so that each of its
/// threads unwinds at its next poll, and wakes the blocked ones. Ends it at once if no thread
/// is attached.
pub fn terminate(vm: &'static Vm, domain: &Arc<Domain>, reason: &str) {
    kill(vm, domain, End::Terminated(reason.to_string()));
}

/// Kills `domain` (see `terminate`) with the end it will report: the first verdict stands.
fn kill(vm: &'static Vm, domain: &Arc<Domain>, verdict: End) {
    {
        let mut v = domain.verdict.lock();
        if v.is_some() {
            return;
        }
        *v = Some(verdict);
    }
    let nobody_attached = domain.safepoint.kill();
    wake_threads(domain);
    if nobody_attached {
        bury(vm, domain);
    } else {
        keep_cancelling(domain);
    }
}

/// Killed domains not yet ended, whose threads' blocking system calls the reaper interrupts
/// again every 50 ms: a wake-up signal that lands just before a thread enters its call is lost.
static DYING: Mutex<Vec<Weak<Domain>>> = Mutex::new(Vec::new());
static DYING_ADDED: Condvar = Condvar::new();

/// Hands a killed domain to the reaper (one thread for the process, started the first time).
fn keep_cancelling(domain: &Arc<Domain>) {
    static REAPER: std::sync::Once = std::sync::Once::new();
    DYING.lock().push(Arc::downgrade(domain));
    DYING_ADDED.notify_one();
    REAPER.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("jxvm-reaper".into())
            .spawn(reap);
    });
}

fn reap() {
    loop {
        {
            let mut list = DYING.lock();
            while list.is_empty() {
                DYING_ADDED.wait(&mut list);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
        let dying: Vec<Arc<Domain>> = {
            let mut list = DYING.lock();
            list.retain(|d| d.upgrade().is_some_and(|d| d.end.lock().is_none()));
            list.iter().filter_map(Weak::upgrade).collect()
        };
        for d in dying {
            for h in d.threads.lock().values() {
                h.cancel_system_calls();
            }
        }
    }
}

/// Wakes every blocked thread of a killed domain: sleeping, waiting and parked threads see
/// their interrupt; threads entering a monitor give up; the reference handler sees its queue;
/// system calls are interrupted and fail from now on (`ThreadHandle::cancel_system_calls`).
fn wake_threads(domain: &Domain) {
    crate::thread::monitor::wake_entrants(domain);
    for h in domain.threads.lock().values() {
        h.interrupted.store(true, Ordering::SeqCst);
        h.wake();
        h.cancel_system_calls();
    }
    let _p = domain.pending_refs.lock();
    domain.pending_refs_cond.notify_all();
    let _n = domain.non_daemon.lock();
    domain.non_daemon_cond.notify_all();
    let _e = domain.exported.lock();
    domain.exported_cond.notify_all();
}

/// Records the end of a killed domain whose last thread has left.
#[allow(unsafe_code)]
fn bury(vm: &'static Vm, domain: &Domain) {
    let end = domain
        .verdict
        .lock()
        .clone()
        .expect("a killed domain has a verdict");
    {
        let mut e = domain.end.lock();
        if e.is_some() {
            return;
        }
        // What it holds and what it reserved from its creator are given back before anyone
        // hears of its end.
        domain.release_off_heap();
        domain.release_host_resources();
        if !domain.is_system() {
            // SAFETY: the domain has ended: none of its threads is attached (the last one to
            // leave buries it) and none can attach and run again (an activation checks first),
            // and no other domain's heap refers into this one.
            unsafe { domain.heap.discard() };
        }
        if let Some(parent) = domain.budget.parent() {
            parent.release_child_heap(domain.budget.limits.heap_bytes);
            parent.add_ended_cpu(domain.cpu_nanos());
        }
        *e = Some(end.clone());
        domain.end_cond.notify_all();
    }
    vm.domains.bury(domain, end);
    if !domain.is_system() {
        super::unloading::domain_ended(vm, domain.id);
    }
}

impl Domain {
    /// A thread attaches to this domain (on its own OS thread). A portal activation brings the
    /// clock it is measured by (see `register_activation`).
    pub fn thread_entered(&self, thread: u64, activation: Option<&Arc<ActivationClock>>) {
        match activation {
            Some(a) => a.attach(),
            None => {
                let clock = CpuClock::of_current_thread();
                let now = clock.read().unwrap_or(0);
                self.cpu.lock().live.insert(thread, (clock, now));
            }
        }
    }

    /// A thread leaves this domain (on its own OS thread); the last one to leave a killed
    /// domain (`last`, from `Safepoint::leave`) ends it.
    pub fn thread_left(
        &self,
        vm: &'static Vm,
        thread: u64,
        activation: Option<&Arc<ActivationClock>>,
        last: bool,
    ) {
        match activation {
            Some(a) => a.stop(),
            None => {
                let mut cpu = self.cpu.lock();
                let charged = cpu.live.remove(&thread).map_or(0, |(clock, start)| {
                    clock.read().unwrap_or(start).saturating_sub(start)
                });
                cpu.done_nanos += charged;
            }
        }
        if last {
            bury(vm, self);
        }
    }

    /// Counts a new portal activation's run time as this domain's, until it is dropped.
    pub fn register_activation(&self, a: &Arc<ActivationClock>) {
        self.cpu.lock().activations.push(a.clone());
    }

    /// A portal activation is dropped: its run time becomes part of what is done.
    pub fn unregister_activation(&self, a: &Arc<ActivationClock>) {
        let mut cpu = self.cpu.lock();
        if let Some(i) = cpu.activations.iter().position(|x| Arc::ptr_eq(x, a)) {
            cpu.activations.swap_remove(i);
            cpu.done_nanos += a.read();
        }
    }

    /// Takes off time (`port::ticks`) this domain's thread spent running a portal activation
    /// of another domain (which was charged it).
    pub fn lent(&self, ticks: u64) {
        self.lent_ticks.fetch_add(ticks, Ordering::Relaxed);
    }

    /// CPU time used by this domain's threads while attached to it.
    pub fn cpu_nanos(&self) -> u64 {
        let cpu = self.cpu.lock();
        let own: u64 = cpu
            .live
            .values()
            .map(|&(clock, start)| clock.read().unwrap_or(start).saturating_sub(start))
            .sum();
        let visiting: u64 = cpu.activations.iter().map(|a| a.read()).sum();
        (cpu.done_nanos + own + visiting).saturating_sub(port::ticks_to_nanos(
            self.lent_ticks.load(Ordering::Relaxed),
        ))
    }

    pub fn collections(&self) -> u64 {
        self.gc.count.load(Ordering::Relaxed) as u64
    }

    /// A non-daemon thread of this domain has finished (`wait_for_non_daemon` waits for them).
    pub fn non_daemon_finished(&self) {
        let mut n = self.non_daemon.lock();
        *n -= 1;
        self.non_daemon_cond.notify_all();
    }

    /// Java threads of this domain that are alive (portal activations, other domains' calls
    /// visiting, are not its threads).
    pub fn alive_java_threads(&self) -> u32 {
        self.threads
            .lock()
            .values()
            .filter(|h| !h.activation && h.alive.load(Ordering::SeqCst))
            .count() as u32
    }

    /// How the domain will end or has ended, once that is decided (it has been killed).
    pub fn verdict(&self) -> Option<End> {
        self.verdict.lock().clone()
    }

    /// Whether other domains hold portals to services of this domain.
    pub fn exports_services(&self) -> bool {
        !self.exported.lock().is_empty()
    }

    /// Waits until the domain exports no service (or is killed).
    fn await_unexported(&self) {
        let mut exported = self.exported.lock();
        while !exported.is_empty() && !self.safepoint.is_killed() {
            self.exported_cond.wait(&mut exported);
        }
    }

    /// How the domain ended, waiting up to `timeout` (None: it has not ended by then).
    /// `interrupted` is polled while waiting.
    pub fn await_end(&self, timeout: Duration, interrupted: &dyn Fn() -> bool) -> Option<End> {
        let mut e = self.end.lock();
        crate::thread::wait_interruptibly(&self.end_cond, &mut e, timeout, interrupted, |e| {
            e.clone()
        })
    }
}

/// Every 10 ms, terminates the domains past their CPU-time limit.
/// Terminates every domain whose subtree (it and the domains it created, in turn) used more
/// CPU time than its limit, with that subtree: a child's time comes out of its creator's.
fn enforce_cpu_limits(vm: &'static Vm) {
    let live = vm.domains.live_domains();
    let own: Vec<(Arc<Budget>, u64)> = live
        .iter()
        .map(|d| (d.budget.clone(), d.cpu_nanos()))
        .collect();
    let totals = super::budget::subtree_cpu(&own);
    for d in &live {
        let limit = d.limits.cpu_nanos;
        let used = totals
            .get(&(Arc::as_ptr(&d.budget) as usize))
            .copied()
            .unwrap_or(0);
        if limit == 0 || d.safepoint.is_killed() || used <= limit {
            continue;
        }
        let reason = format!("CPU time limit of {} ms exceeded", limit / 1_000_000);
        for inside in live
            .iter()
            .filter(|o| o.budget.chain().any(|b| std::ptr::eq(b, &*d.budget)))
        {
            terminate(vm, inside, &reason);
        }
    }
}

fn start_cpu_watchdog(vm: &'static Vm) {
    let _ = std::thread::Builder::new()
        .name("jxvm-cpu-watchdog".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(10));
                enforce_cpu_limits(vm);
            }
        });
}
