//! The VM: process-wide state (options, class table, domains) and the boot sequence.
//!
//! Boot follows HotSpot's order so that the JDK's own Java code runs for real: load the core
//! classes, initialize String/System/Class/ThreadGroup, create the system and main thread
//! groups and the main Thread, then `System.initPhase1`, `initPhase2` (the module system) and
//! `initPhase3` (security manager, system class loader). DomainZero is created first; the
//! program runs in the application domain.

use crate::jdk::{self, JdkClass};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use crate::class::loader::{ClassSources, ClassTable, LoadError, open_class_path_in};
use crate::class::{Class, LoaderId};
use crate::domain::{ClassPath, Domain, HeapSize, Limits};
use crate::heap::ObjRef;
use crate::thread::{JResult, JThread, Thrown};

/// Command-line configuration of a VM.
#[derive(Clone, Debug)]
pub struct Options {
    pub java_home: PathBuf,
    /// The application domain's backend (`--io`).
    pub io: port::IoSpec,
    pub classpath: String,
    pub props: Vec<(String, String)>,
    pub max_heap: usize,
    pub initial_heap: usize,
    /// The nursery size (-Xmn); by default `heap::default_nursery(max_heap)`.
    pub young_heap: Option<usize>,
    pub stack_size: usize,
    pub verify: bool,
    /// Raw VM arguments, as `VM.getRuntimeArguments` reports them.
    pub vm_args: Vec<String>,
    pub java_command: String,
    /// Debug mode: check reference maps of all frames every N calls (0 = off).
    pub verify_frames_every: u32,
    /// -verbose:gc / -Xlog:gc
    pub gc_log: bool,
    /// -Xlog:class+unload: a line per class unloaded (`domain::unloading`).
    pub class_unload_log: bool,
    /// `-verbose:class`: a line for every class defined.
    pub class_load_log: bool,
    /// `-Xbootclasspath/a:`: directories and jars the boot loader reads after the JDK's image.
    pub boot_append: String,
    /// Collect at every allocation poll (-Xgc:stress or JXVM_GC_STRESS=1).
    pub gc_stress: bool,
    /// Verify the heap after every collection (-Xgc:verify or JXVM_GC_VERIFY=1).
    pub gc_verify: bool,
    /// -ea, -da, -esa, -dsa.
    pub assertions: crate::assertions::Assertions,
    /// -Xrs: the VM uses no signals of its own (SIGQUIT keeps its default action; SIGTERM,
    /// SIGINT and SIGHUP are not taken for the shutdown hooks).
    pub reduce_signal_usage: bool,
    /// `-Xint`, `-Xcomp`, `-XX:CompileThreshold` and the other compiler options.
    pub jit: crate::interp::tiers::JitOptions,
    /// Boot to be forked (a fork server's VM, see `crate::fork`): the threads the boot starts
    /// are held until a forked child releases them.
    pub fork_server: bool,
    /// The class cache (`-Xshare` and its files).
    pub class_cache: crate::class_cache::CacheOptions,
}

impl Options {
    pub fn new(java_home: PathBuf) -> Options {
        Options {
            java_home,
            io: port::IoSpec::Host,
            classpath: ".".into(),
            props: Vec::new(),
            max_heap: default_max_heap(),
            initial_heap: 8 << 20,
            young_heap: None,
            stack_size: 1 << 20,
            verify: true,
            vm_args: Vec::new(),
            java_command: String::new(),
            verify_frames_every: std::env::var("JXVM_VERIFY_FRAMES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
            gc_log: false,
            class_unload_log: false,
            class_load_log: false,
            boot_append: String::new(),
            gc_stress: std::env::var_os("JXVM_GC_STRESS").is_some_and(|v| v != "0"),
            gc_verify: std::env::var_os("JXVM_GC_VERIFY").is_some_and(|v| v != "0"),
            assertions: Default::default(),
            reduce_signal_usage: false,
            jit: Default::default(),
            fork_server: false,
            class_cache: Default::default(),
        }
    }
}

/// HotSpot's default maximum heap: a quarter of physical memory.
pub fn default_max_heap() -> usize {
    port::sysinfo::total_memory().map_or(1 << 30, |m| m as usize / 4)
}

/// Classes and field offsets the VM uses directly.
pub struct WellKnown {
    pub object: &'static Class,
    pub class: &'static Class,
    pub string: &'static Class,
    pub string_value: u32,
    pub string_coder: u32,
    pub string_hash: u32,
    pub class_loader: u32,
    pub class_component_type: u32,
    pub class_module: u32,
    pub class_name: u32,
    /// Offset of the VM slot (`*const Class`) in every mirror.
    pub mirror_slot: u32,
    /// Offset where a mirror's static fields start.
    pub statics_base: u32,
    pub throwable_backtrace: u32,
    pub throwable_depth: u32,
}

pub struct Vm {
    pub opts: Options,
    pub classes: ClassTable,
    wk: OnceLock<WellKnown>,
    pub domain_zero: Arc<Domain>,
    pub app_domain: Arc<Domain>,
    /// Every domain by id (DomainZero and the app domain included).
    pub domains: crate::domain::lifecycle::Registry,
    pub next_thread_id: std::sync::atomic::AtomicU64,
    pub start_time: std::time::Instant,
    pub natives: crate::native::Registry,
    /// Properties reported by VM.getRuntimeArguments and SystemProps.
    pub launcher_props: Vec<(String, String)>,
    /// The JDK's version ("17.0.21.1"), read from its release file on first use.
    pub java_version: OnceLock<String>,
    /// The compiler (see `interp::tiers`).
    pub compiler: crate::interp::tiers::Compiler,
    /// In a fork server's child, what it took over from its client's command line (see
    /// `crate::fork`); unset in every other VM.
    pub adopted: OnceLock<crate::fork::Adopted>,
    /// `java.lang.ref.Finalizer.register(Object)`, found on the first registration.
    pub finalizer_register: OnceLock<&'static crate::class::Method>,
}

/// Errors that stop the VM before Java code can report them.
#[derive(Debug)]
pub enum BootError {
    Io(String),
    /// A Java exception escaped during boot; message describes it.
    Java(String),
    /// The application domain's backend (`--io`) could not be reached.
    Backend(String),
}

impl std::fmt::Display for BootError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BootError::Io(m) | BootError::Java(m) | BootError::Backend(m) => f.write_str(m),
        }
    }
}

impl Vm {
    #[inline(always)]
    pub fn wk(&self) -> &WellKnown {
        self.wk.get().expect("well-known classes used before boot")
    }

    /// Creates the VM: opens the class sources and creates DomainZero and the app domain.
    pub fn create(opts: Options) -> Result<&'static Vm, BootError> {
        port::map_large_allocations();
        port::remote::set_jdk_dir(&opts.java_home);
        let modules = opts.java_home.join("lib/modules");
        let jimage = jimage::JImage::open(&modules)
            .map_err(|e| BootError::Io(format!("cannot open {}: {e}", modules.display())))?;
        let files = crate::class::loader::Files::open(&opts.io)
            .map_err(|e| BootError::Backend(format!("--io={}: {e}", opts.io)))?;
        let classpath = open_class_path_in(&files, &opts.classpath);
        let mut classes = ClassTable::new(ClassSources {
            jimage,
            classpath: classpath.into(),
        });
        classes.verify_app = opts.verify;
        classes.load_log = opts.class_load_log.into();
        classes.boot_append = (opts.boot_append.split(':'))
            .filter(|e| !e.is_empty())
            .filter_map(crate::class::loader::ClassPathEntry::open)
            .collect();
        classes.set_launcher_class_path(&opts.classpath, &files);
        crate::class_cache::open(&opts.class_cache, &modules, &classes)?;
        let launcher_path = || ClassPath {
            loader: LoaderId::APP,
            path: opts.classpath.clone(),
            first: true,
        };
        let zero_heap = HeapSize {
            max: 16 << 20,
            initial: 4 << 20,
            nursery: None,
        };
        let domain_zero = Arc::new(
            Domain::new(
                crate::domain::ZERO_ID,
                "DomainZero",
                launcher_path(),
                zero_heap,
                crate::domain::budget::Budget::new(None, Limits::default()),
                &port::IoSpec::Host,
            )
            .map_err(|e| BootError::Io(e.to_string()))?,
        );
        let app_heap = HeapSize {
            max: opts.max_heap,
            initial: opts.initial_heap,
            nursery: opts.young_heap,
        };
        // Only the heap's reservation can fail (java's message).
        let reserve_failed = |_| {
            BootError::Io(format!(
                "Could not reserve enough space for {}KB object heap",
                opts.max_heap / 1024
            ))
        };
        let app_budget = crate::domain::budget::Budget::new(None, Limits::default());
        let app_domain = Arc::new(
            Domain::new(
                crate::domain::LAUNCHER_ID,
                "app",
                launcher_path(),
                app_heap,
                app_budget,
                &opts.io,
            )
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::Other => BootError::Backend(format!("--io={}: {e}", opts.io)),
                _ => reserve_failed(e),
            })?,
        );
        app_domain.gc.apply_options(&app_domain.heap, &opts);
        app_domain
            .held
            .store(opts.fork_server, std::sync::atomic::Ordering::Release);
        let compiler = crate::interp::tiers::Compiler::new(&opts.jit);
        let vm = Box::leak(Box::new(Vm {
            opts,
            classes,
            wk: OnceLock::new(),
            domains: crate::domain::lifecycle::Registry::new(crate::domain::FIRST_CREATED),
            domain_zero,
            app_domain,
            next_thread_id: std::sync::atomic::AtomicU64::new(1),
            start_time: std::time::Instant::now(),
            natives: crate::native::Registry::new(),
            launcher_props: Vec::new(),
            java_version: OnceLock::new(),
            compiler,
            adopted: OnceLock::new(),
            finalizer_register: OnceLock::new(),
        }));
        vm.domains.insert(&vm.domain_zero);
        vm.domains.insert(&vm.app_domain);
        vm.load_well_known()?;
        // Before the VM starts any thread: they inherit the SIGQUIT mask set here.
        crate::thread::dump::install(vm);
        Ok(vm)
    }

    fn load_well_known(&'static self) -> Result<(), BootError> {
        let load = |n: &str| {
            self.classes
                .load(LoaderId::BOOT, n)
                .map_err(|e| BootError::Java(format!("cannot load {n}: {}", e.message())))
        };
        let object = load("java/lang/Object")?;
        let fields = |e: jdk::Missing| BootError::Java(e.to_string());
        let string = jdk::JString::load(&self.classes).map_err(fields)?;
        let class = jdk::JClass::load(&self.classes).map_err(fields)?;
        let throwable = jdk::Throwable::load(&self.classes).map_err(fields)?;
        let wk = WellKnown {
            object,
            class: class.class(),
            string: string.class(),
            string_value: string.value as u32,
            string_coder: string.coder as u32,
            string_hash: string.hash as u32,
            class_loader: class.class_loader as u32,
            class_component_type: class.component_type as u32,
            class_module: class.module as u32,
            class_name: class.name as u32,
            mirror_slot: class.class().instance_size - 8,
            statics_base: class.class().instance_size,
            throwable_backtrace: throwable.backtrace as u32,
            throwable_depth: throwable.depth as u32,
        };
        let _ = self.wk.set(wk);
        jdk::resolve_at_boot(&self.classes).map_err(fields)
    }

    /// The VM arguments `VM.getRuntimeArguments` reports (a fork server's child: its client's).
    pub fn vm_args(&self) -> &[String] {
        self.adopted
            .get()
            .map_or(&self.opts.vm_args, |a| &a.vm_args)
    }

    /// `sun.java.command` (a fork server's child: its client's).
    pub fn java_command(&self) -> &str {
        self.adopted
            .get()
            .map_or(&self.opts.java_command, |a| &a.java_command)
    }

    /// The `-D` properties (a fork server's child: its client's).
    pub fn props(&self) -> &[(String, String)] {
        self.adopted.get().map_or(&self.opts.props, |a| &a.props)
    }

    /// Which classes run their `assert` statements (a fork server's child: its client's).
    pub fn assertions(&self) -> &crate::assertions::Assertions {
        self.adopted
            .get()
            .map_or(&self.opts.assertions, |a| &a.assertions)
    }

    /// When the VM started, for its uptime (a fork server's child: when it was forked).
    pub fn started(&self) -> std::time::Instant {
        self.adopted.get().map_or(self.start_time, |a| a.start_time)
    }

    /// A new Java thread context in `domain`; the OS thread that runs it must `attach` it.
    pub fn new_thread(&'static self, domain: Arc<Domain>) -> Box<JThread> {
        self.new_thread_with_stack(domain, self.java_stack_slots())
    }

    /// The slots of a thread's Java stack (-Xss, plus the reserve for a StackOverflowError).
    pub fn java_stack_slots(&self) -> usize {
        (self.opts.stack_size / 8).max(64 * 1024) + 16 * 1024
    }

    /// A new Java thread context (see [`Vm::new_thread`]) whose stack has `slots` slots.
    pub fn new_thread_with_stack(&'static self, domain: Arc<Domain>, slots: usize) -> Box<JThread> {
        let id = self
            .next_thread_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut t = Box::new(JThread::new(self, domain, id, slots, self.max_java_depth()));
        t.verify_frames_every = self.opts.verify_frames_every;
        t
    }

    /// The deepest Java call chain of a thread (-Xss): past it, StackOverflowError.
    pub fn max_java_depth(&self) -> usize {
        (self.opts.stack_size / 100).clamp(1000, 100_000)
    }

    /// The OS stack of a thread that runs Java code: room for deep Java recursion.
    pub fn thread_stack_size(&self) -> usize {
        self.opts
            .stack_size
            .saturating_mul(64)
            .clamp(256 << 20, 4 << 30)
    }

    /// The Module object a class's mirror should point to, if modules are set up.
    pub fn module_object_for(&self, domain: &Domain, c: &Class) -> Option<ObjRef> {
        match &c.module {
            Some(name) => domain.modules.lock().get(&**name).copied(),
            None => {
                if c.loader == LoaderId::BOOT {
                    *domain.boot_unnamed_module.lock()
                } else {
                    let loader = domain.loader_object(c.loader)?;
                    let f = jdk::ClassLoader::of(loader.class()).ok()?;
                    loader.read_ref(f.unnamed_module)
                }
            }
        }
    }
}

/// Verification of application classes (JDK classes are trusted). The error says which Java
/// error to throw: VerifyError, ClassFormatError for the format problems HotSpot's verifier
/// reports as such, or the error of a class the verifier needed and could not load.
pub fn verify(vm: &'static Vm, c: &'static Class) -> Result<(), LoadError> {
    let Some(cf) = &c.file else { return Ok(()) };
    if c.module.is_some() || !vm.classes.verify_app || cf.major_version < 50 {
        return Ok(());
    }
    let h = Hierarchy {
        vm,
        this: c,
        failure: std::cell::RefCell::new(None),
    };
    verifier::verify_class(cf, &h).map_err(|e| match e.kind {
        verifier::ErrorKind::Verify => LoadError::Verify(e.to_string()),
        verifier::ErrorKind::Format => {
            LoadError::Format(format!("{} in class file {}", e.headline(), cf.name))
        }
        verifier::ErrorKind::Hierarchy => h
            .failure
            .take()
            .unwrap_or_else(|| LoadError::Verify(e.to_string())),
    })
}

/// What the verifier learns about other classes while it verifies `this` (JVMS §4.10.1.2):
/// names are resolved through the defining loader of `this` (its own name, a hidden class's
/// too, stands for itself); superclass chains and member lookups walk the loaded classes'
/// metadata, so a superclass's superclass is the one its own defining loader resolved; run-time
/// packages are package name and defining loader.
struct Hierarchy {
    vm: &'static Vm,
    this: &'static Class,
    /// The last loading failure, thrown as it is when verification fails because of it.
    failure: std::cell::RefCell<Option<LoadError>>,
}

impl Hierarchy {
    fn load(&self, n: &str) -> Result<&'static Class, String> {
        if self.this.file.as_ref().is_some_and(|cf| cf.name == n) {
            return Ok(self.this);
        }
        self.vm.classes.load(self.this.loader, n).map_err(|e| {
            let m = e.message().to_string();
            *self.failure.borrow_mut() = Some(e);
            m
        })
    }
}

impl verifier::ClassHierarchy for Hierarchy {
    fn is_assignable(&self, from: &str, to: &str) -> Result<bool, String> {
        if from == to || to == "java/lang/Object" {
            return Ok(true);
        }
        let t = self.load(to)?;
        if t.is_interface() && !to.starts_with('[') {
            return Ok(true);
        }
        let f = self.load(from)?;
        Ok(f.is_subtype_of(t))
    }
    fn is_interface(&self, class: &str) -> Result<bool, String> {
        Ok(self.load(class)?.is_interface())
    }
    fn superclasses(&self, class: &str) -> Result<Vec<String>, String> {
        let mut chain = Vec::new();
        let mut k = self.load(class)?.super_class;
        while let Some(s) = k {
            chain.push(s.name.to_string());
            k = s.super_class;
        }
        Ok(chain)
    }
    fn protected_in_other_package(
        &self,
        current: &str,
        class: &str,
        name: &str,
        descriptor: &str,
        is_method: bool,
    ) -> Result<bool, String> {
        let current = self.load(current)?;
        let target = self.load(class)?;
        // Only a superclass's members need the check (HotSpot: is_subclass_of).
        if !current.supers.iter().any(|s| std::ptr::eq(*s, target)) {
            return Ok(false);
        }
        let found = if is_method {
            std::iter::successors(Some(target), |c| c.super_class).find_map(|c| {
                c.declared_method(name, descriptor)
                    .map(|m| (c, m.is_protected()))
            })
        } else {
            crate::class::resolve::find_field(target, name, descriptor)
                .map(|(c, f)| (c, f.access & classfile::access::ACC_PROTECTED != 0))
        };
        Ok(found.is_some_and(|(holder, protected)| {
            protected && !(holder.loader == current.loader && holder.package() == current.package())
        }))
    }
}

/// Hook run after a class's static initializer completes (VM-injected values).
pub fn after_class_init(t: &mut JThread, c: &'static Class) -> JResult<()> {
    if &*c.name == "jdk/internal/misc/UnsafeConstants" {
        let mirror = t.mirror(c)?;
        let base = t.vm.wk().statics_base as usize;
        let page = port::fs::page_size() as u32;
        for f in &c.fields {
            let off = base + f.offset as usize;
            match &*f.name {
                "ADDRESS_SIZE0" => mirror.write::<u32>(off, 8),
                "PAGE_SIZE" => mirror.write::<u32>(off, page),
                "BIG_ENDIAN" => mirror.write::<u8>(off, 0),
                "UNALIGNED_ACCESS" => mirror.write::<u8>(off, 1),
                "DATA_CACHE_LINE_FLUSH_SIZE" => mirror.write::<u32>(off, 0),
                _ => {}
            }
        }
    }
    Ok(())
}

/// Describes a pending exception for boot failures: "java.lang.Foo: message".
pub fn describe_exception(t: &mut JThread) -> String {
    let Some(e) = t.exception.take() else {
        return "unknown error".into();
    };
    let name = e.class().java_name();
    let h = t.handle(e);
    let msg = match t.call_virtual(e, "getMessage", "()Ljava/lang/String;", &[]) {
        Ok(s) => t.opt_rust_string(s),
        Err(_) => None,
    };
    let e = t.handle_get(h);
    let mut out = match msg {
        Some(m) => format!("{name}: {m}"),
        None => name,
    };
    // Append the Java frames recorded in the backtrace.
    if let Some(bt) = e.read_ref(t.vm.wk().throwable_backtrace as usize) {
        for frame in crate::native::lang::backtrace_frames(t.vm, bt)
            .iter()
            .take(12)
        {
            out.push_str(&format!("\n\tat {frame}"));
        }
    }
    out
}

/// Boots the JDK in the application domain and returns the main thread.
pub fn boot(vm: &'static Vm) -> Result<Box<JThread>, BootError> {
    boot_in(vm, vm.app_domain.clone())
}

/// Boots the JDK in `domain` on the calling OS thread and returns its main thread.
pub fn boot_in(vm: &'static Vm, domain: Arc<Domain>) -> Result<Box<JThread>, BootError> {
    let mut t = vm.new_thread(domain);
    if !t.attach() {
        t.detach();
        return Err(BootError::Io(
            "the domain was terminated while it booted".into(),
        ));
    }
    boot_java(&mut t).map_err(|_| BootError::Java(describe_exception(&mut t)))?;
    crate::class_cache::flush(&vm.classes);
    Ok(t)
}

/// Makes the Thread object of `t` (which has none yet), named `name`, in its domain's main
/// thread group, as the launcher's thread is made: allocated and registered first, so that
/// the constructor's `currentThread()` finds it.
pub fn new_thread_object(t: &mut JThread, name: &str) -> JResult<()> {
    let thread_class = init(t, "java/lang/Thread")?;
    let th = t.alloc_object(thread_class)?;
    th.write::<u32>(jdk::Thread::get().priority, 5);
    t.thread_obj = Some(th);
    crate::native::thread::register_thread(t, th);
    let ctor =
        thread_class.declared_method("<init>", "(Ljava/lang/ThreadGroup;Ljava/lang/String;)V");
    let name = t.new_string(name)?;
    let group = *t.domain.main_group.lock();
    let th = t.thread_obj.expect("Thread object");
    crate::interp::exec::call(
        t,
        ctor.expect("Thread(ThreadGroup,String)"),
        &[th.slot(), crate::heap::to_slot(group), name.slot()],
    )?;
    let th = t.thread_obj.expect("Thread object");
    crate::native::thread::set_thread_status(t, th, crate::native::thread::RUNNABLE);
    Ok(())
}

fn init(t: &mut JThread, name: &str) -> JResult<&'static Class> {
    let c = t.load_boot(name)?;
    t.ensure_initialized(c)?;
    Ok(c)
}

fn boot_java(t: &mut JThread) -> JResult<()> {
    for n in [
        "java/lang/Object",
        "java/lang/String",
        "java/lang/System",
        "java/lang/Class",
    ] {
        init(t, n)?;
    }
    let tg = init(t, "java/lang/ThreadGroup")?;
    let system_group = t.construct(tg, "()V", &[])?;
    let main_name = t.new_string("main")?;
    let main_group = t.construct(
        tg,
        "(Ljava/lang/ThreadGroup;Ljava/lang/String;)V",
        &[system_group.slot(), main_name.slot()],
    )?;
    *t.domain.main_group.lock() = Some(main_group);
    new_thread_object(t, "main")?;
    for n in [
        "java/lang/Module",
        "jdk/internal/misc/UnsafeConstants",
        "java/lang/reflect/Method",
        "java/lang/ref/Finalizer",
    ] {
        init(t, n)?;
    }
    t.call_static("java/lang/System", "initPhase1", "()V", &[])?;
    let oom = t.new_exception("java/lang/OutOfMemoryError", Some("Java heap space"))?;
    *t.domain.oom_error.lock() = Some(oom);
    let death = t.new_exception("java/lang/ThreadDeath", None)?;
    *t.domain.death.lock() = Some(death);
    for n in [
        "java/lang/OutOfMemoryError",
        "java/lang/NullPointerException",
        "java/lang/ClassCastException",
        "java/lang/ArrayStoreException",
        "java/lang/ArithmeticException",
        "java/lang/StackOverflowError",
        "java/lang/IllegalMonitorStateException",
        "java/lang/IllegalArgumentException",
    ] {
        init(t, n)?;
    }
    let status = t.call_static("java/lang/System", "initPhase2", "(ZZ)I", &[1, 1])? as i32;
    if status != 0 {
        return Err(t.throw_new("java/lang/InternalError", Some("initPhase2 failed")));
    }
    t.call_static("java/lang/System", "initPhase3", "()V", &[])?;
    bind_builtin_loaders(t)?;
    define_api_module(t)
}

/// Defines the API's named module in `t`'s domain (see [`crate::api`]): a module of the boot
/// loader that reads java.base and exports every API package to everyone, opening none. API
/// classes are bound to it as their mirrors are made (or by `Module.defineModule0`'s fix-up).
fn define_api_module(t: &mut JThread) -> JResult<()> {
    const BUILDER: &str = "Ljava/lang/module/ModuleDescriptor$Builder;";
    let mark = t.handles.len();
    let name = t.new_string(crate::api::MODULE)?;
    let builder = t.call_static(
        "java/lang/module/ModuleDescriptor",
        "newModule",
        &format!("(Ljava/lang/String;){BUILDER}"),
        &[name.slot()],
    )?;
    let builder = t.handle(crate::heap::from_slot(builder).expect("a module builder"));
    for p in crate::api::PACKAGES {
        let p = t.new_string(p)?;
        let b = t.handle_get(builder);
        t.call_virtual(
            b,
            "exports",
            &format!("(Ljava/lang/String;){BUILDER}"),
            &[p.slot()],
        )?;
    }
    let b = t.handle_get(builder);
    let descriptor = t.call_virtual(b, "build", "()Ljava/lang/module/ModuleDescriptor;", &[])?;
    let module_class = init(t, "java/lang/Module")?;
    // Module(ModuleLayer layer, ClassLoader loader, ModuleDescriptor descriptor, URI uri)
    let ctor = "(Ljava/lang/ModuleLayer;Ljava/lang/ClassLoader;Ljava/lang/module/ModuleDescriptor;Ljava/net/URI;)V";
    let module = t.construct(module_class, ctor, &[0, 0, descriptor, 0])?;
    let module = t.handle(module);
    let base = t.domain.modules.lock().get("java.base").copied();
    let m = t.handle_get(module);
    t.call_virtual(
        m,
        "implAddReads",
        "(Ljava/lang/Module;)V",
        &[crate::heap::to_slot(base)],
    )?;
    for p in crate::api::PACKAGES {
        let p = t.new_string(p)?;
        let m = t.handle_get(module);
        t.call_virtual(m, "implAddExports", "(Ljava/lang/String;)V", &[p.slot()])?;
    }
    t.handles.truncate(mark);
    Ok(())
}

/// Binds the platform and application loader ids to the JDK's built-in loader objects.
fn bind_builtin_loaders(t: &mut JThread) -> JResult<()> {
    for (id, getter) in [
        (LoaderId::PLATFORM, "getPlatformClassLoader"),
        (t.domain.app_loader, "getSystemClassLoader"),
    ] {
        let l = t.call_static(
            "java/lang/ClassLoader",
            getter,
            "()Ljava/lang/ClassLoader;",
            &[],
        )?;
        if let Some(l) = crate::heap::from_slot(l) {
            t.domain.bind_loader(id, l);
        }
    }
    Ok(())
}

/// Why the launcher could not run main.
pub enum LaunchError {
    /// Print these lines on stderr and exit 1 (java's launcher messages).
    Message(String),
    /// A Java exception escaped main (already pending in the thread).
    Uncaught,
}

impl LaunchError {
    /// Reports the failure as java's launcher does: its message on stderr, or the uncaught
    /// exception through the thread's handler.
    pub fn report(self, t: &mut JThread) {
        match self {
            LaunchError::Message(m) => eprintln!("{m}"),
            LaunchError::Uncaught => dispatch_uncaught(t),
        }
    }
}

/// Loads the main class through the application loader and runs `main(String[])` with `args`
/// (bytes, decoded as java's launcher decodes them: see `platform_string`).
pub fn run_main<A: AsRef<[u8]>>(
    t: &mut JThread,
    main_class: &str,
    args: &[A],
) -> Result<(), LaunchError> {
    // java's launcher takes `a/b/C` for `a.b.C`, and names it so.
    let main_class = &main_class.replace('/', ".");
    let internal = main_class.replace('.', "/");
    let c = match t.vm.classes.load(t.domain.app_loader, &internal) {
        Ok(c) => c,
        Err(e) => {
            use crate::class::loader::LoadError;
            let msg = match e {
                LoadError::NotFound(_) => format!(
                    "Error: Could not find or load main class {main_class}\nCaused by: java.lang.ClassNotFoundException: {main_class}"
                ),
                LoadError::NoClassDef(m) => {
                    format!(
                        "Error: Could not find or load main class {main_class}\nCaused by: java.lang.NoClassDefFoundError: {m}"
                    )
                }
                other => format!(
                    "Error: LinkageError occurred while loading main class {main_class}\n\t{}: {}",
                    other.java_class().replace('/', "."),
                    other.message()
                ),
            };
            return Err(LaunchError::Message(msg));
        }
    };
    // The launcher's Class.getMethod links (verifies) the class before the main method is
    // looked at.
    if t.link(c).is_err() {
        let text = t.take_exception_text();
        return Err(LaunchError::Message(format!(
            "Error: Unable to initialize main class {main_class}\nCaused by: {text}"
        )));
    }
    let main = find_main(c, main_class)?;
    let r: JResult<()> = (|| {
        t.ensure_initialized(c)?;
        let sc = t.load_boot("java/lang/String")?;
        // Decoding may run Java code (and collect): the strings wait in handles.
        let mark = t.handles.len();
        for a in args {
            match platform_string(t, a.as_ref()) {
                Ok(s) => t.handles.push(s.slot()),
                Err(e) => {
                    t.handles.truncate(mark);
                    return Err(e);
                }
            }
        }
        let arr = t.new_array_of(sc, args.len() as i32);
        let strings = t.handles.split_off(mark);
        let arr = arr?;
        for (i, s) in strings.into_iter().enumerate() {
            t.domain.heap.write_ref(
                arr,
                base::layout::ARRAY_BASE + i * 8,
                crate::heap::from_slot(s),
            );
        }
        crate::interp::exec::call(t, main, &[arr.slot()])?;
        Ok(())
    })();
    r.map_err(|Thrown| LaunchError::Uncaught)
}

/// The `main` java's launcher runs (LauncherHelper.validateMainClass): what
/// `Class.getMethod("main", String[].class)` finds, a public method of the class or of a
/// superclass, else an instance method of a superinterface; java's message if there is none,
/// or if it is not static or does not return void.
fn find_main(
    c: &'static Class,
    main_class: &str,
) -> Result<&'static crate::class::Method, LaunchError> {
    const HOW: &str = "   public static void main(String[] args)";
    let is_main = |m: &&crate::class::Method| {
        &*m.name == "main" && m.descriptor.starts_with("([Ljava/lang/String;)") && m.is_public()
    };
    let in_class = |k: &'static Class| {
        k.methods()
            .iter()
            .filter(is_main)
            .min_by_key(|m| !m.descriptor.ends_with('V'))
    };
    let in_interface =
        |i: &&'static Class| i.methods().iter().filter(|m| !m.is_static()).find(is_main);
    let found = std::iter::successors(Some(c), |k| k.super_class).find_map(in_class);
    let Some(main) = found.or_else(|| c.all_interfaces.iter().find_map(in_interface)) else {
        return Err(LaunchError::Message(format!(
            "Error: Main method not found in class {main_class}, please define the main method as:\n{HOW}\nor a JavaFX application class must extend javafx.application.Application"
        )));
    };
    let declarer = main.class.java_name();
    if !main.is_static() {
        return Err(LaunchError::Message(format!(
            "Error: Main method is not static in class {declarer}, please define the main method as:\n{HOW}"
        )));
    }
    if !main.descriptor.ends_with(")V") {
        return Err(LaunchError::Message(format!(
            "Error: Main method must return a value of type void in class {declarer}, please \ndefine the main method as:\n{HOW}"
        )));
    }
    Ok(main)
}

/// A command-line argument as a String, as java's launcher makes it (LauncherHelper's
/// makePlatformString): `new String(bytes, sun.jnu.encoding)`, or with the default charset
/// if that encoding is not supported. ASCII is the same in every encoding a host can have.
fn platform_string(t: &mut JThread, bytes: &[u8]) -> JResult<ObjRef> {
    if let Some(s) = std::str::from_utf8(bytes).ok().filter(|s| s.is_ascii()) {
        return t.new_string(s);
    }
    let key = t.new_string("sun.jnu.encoding")?;
    let encoding = t.call_static(
        "java/lang/System",
        "getProperty",
        "(Ljava/lang/String;)Ljava/lang/String;",
        &[key.slot()],
    )?;
    let mark = t.handles.len();
    t.handles.push(encoding);
    let array = t.new_byte_array(bytes);
    let encoding = t.handles.pop().unwrap_or(0);
    t.handles.truncate(mark);
    let array = array?;
    let string = t.load_boot("java/lang/String")?;
    if encoding != 0 {
        t.handles.push(array.slot());
        let decoded = t.construct(string, "([BLjava/lang/String;)V", &[array.slot(), encoding]);
        let array = t.handles.pop().unwrap_or(0);
        match decoded {
            Ok(s) => return Ok(s),
            Err(Thrown) => t.exception = None,
        }
        return t.construct(string, "([B)V", &[array]);
    }
    t.construct(string, "([B)V", &[array.slot()])
}

/// Reports an uncaught exception the way java.lang.Thread does (dispatchUncaughtException).
pub fn dispatch_uncaught(t: &mut JThread) {
    let Some(e) = t.exception.take() else { return };
    if t.in_dead_domain() {
        // Its threads unwind silently: the domain was terminated, no handler of it runs.
        return;
    }
    let Some(th) = t.thread_obj else { return };
    if t.call_virtual(
        th,
        "dispatchUncaughtException",
        "(Ljava/lang/Throwable;)V",
        &[e.slot()],
    )
    .is_err()
    {
        // As HotSpot reports a handler that throws.
        let thrown = t
            .exception
            .take()
            .map(|x| x.class().java_name())
            .unwrap_or_default();
        let th = t.thread_obj.unwrap_or(th);
        let name = th
            .read_ref(jdk::Thread::get().name)
            .map(|s| t.rust_string(s))
            .unwrap_or_default();
        eprintln!(
            "\nException: {thrown} thrown from the UncaughtExceptionHandler in thread \"{name}\""
        );
    }
}

/// Runs `Shutdown.shutdown()` (shutdown hooks) when main returns normally.
pub fn shutdown(t: &mut JThread) {
    if t.call_static("java/lang/Shutdown", "shutdown", "()V", &[])
        .is_err()
    {
        t.exception = None;
    }
    crate::class_cache::flush(&t.vm.classes);
    port::remote::dump::write_all();
}
