//! The embedding API: everything a program that runs jxvm (the `jxvm` launcher in
//! `crates/cli`) needs, and nothing more. It is the crate's only public module; the rest is
//! the runtime's own (`pub(crate)`). Besides the launcher's needs it lists the natives the
//! runtime implements ([`Natives`], for the test of their coverage of the JDK's).
//!
//! A launcher
//! 1. builds an [`Options`] from its command line ([`Options::new`], then its fields;
//!    [`Assertions`] parses `-ea` and friends),
//! 2. boots a VM with [`Launcher::boot`], which creates the process-wide VM, boots the JDK in
//!    the launcher's domain on the calling OS thread and keeps that thread as the launcher's,
//! 3. runs a main class with [`Launcher::run_main`] (a jar's main class is read with
//!    [`jar_manifest`] and [`Manifest`]), or creates the domains of a system description with
//!    [`Launcher::create_domain`] ([`Spec`], [`Component`], [`Limits`]),
//! 4. waits for the program with [`Launcher::wait_for_program`] and runs the shutdown hooks
//!    with [`Launcher::shut_down`].
//!
//! A fork server (`jxvm serve`) boots with `Options::fork_server`, calls
//! [`Launcher::prepare_to_serve`], and forks; each child calls [`Launcher::adopt`] with its
//! client's command line ([`ForkClient`]) and then runs main as above.
//!
//! Exit codes are the launcher's to choose: this API says what happened (a [`LaunchError`],
//! a domain's [`Created::terminated`] reason, [`Launcher::failed_components`]); `System.exit`
//! and the shutdown signals end the process from inside the VM with the program's code.
//!
//! Owns no state of its own: a [`Launcher`] is the launcher's Java thread.

use std::path::PathBuf;
use std::sync::Arc;

use crate::domain::Domain;
use crate::domain::lifecycle::{self, End};
use crate::thread::JThread;

pub use crate::assertions::Assertions;
pub use crate::class::manifest::{Manifest, launcher_accepts};
pub use crate::class_cache::{CacheOptions, Share};
pub use crate::domain::Limits;
pub use crate::domain::lifecycle::{Component, Spec};
pub use crate::fork::Client as ForkClient;
pub use crate::interp::tiers::{JitOptions, Mode};
pub use crate::vm::{BootError, LaunchError, Options};

/// The class cache file `opts` names for the JDK at `java_home` (None: no home directory), for
/// `jxvm cache`.
pub fn class_cache_settings(
    opts: &CacheOptions,
    java_home: &std::path::Path,
) -> Option<cache::Settings> {
    crate::class_cache::settings(opts, &java_home.join("lib/modules"))
}

/// Writes the jx API jar (the `jx.*` classes built into the binary, for javac's class path)
/// The code mappings, one line each (`jxvm --print-mappings`): every method call and field
/// access the engines replace with a VM primitive (`meta::mappings`).
pub fn mapping_rows() -> Vec<String> {
    meta::mappings::rows()
}

/// and returns its path.
pub fn write_api_jar() -> std::io::Result<PathBuf> {
    crate::api::write_jar()
}

/// The manifest of `jar` (None: unreadable), a file of the host or of the `--io` namespace.
pub fn jar_manifest(jar: &str, io: &port::IoSpec) -> Result<Option<Vec<u8>>, String> {
    use crate::class::loader::{ClassPathEntry, Files};
    let unable = || format!("Error: Unable to access jarfile {jar}");
    const MANIFEST: &str = "META-INF/MANIFEST.MF";
    if let port::IoSpec::Host = io {
        // Opened without blocking: a FIFO with no writer must not hang the launcher (it hangs
        // java).
        let opened = port::fs::open_without_blocking(std::path::Path::new(jar));
        if opened.is_err() || std::path::Path::new(jar).is_dir() {
            return Err(unable());
        }
        return Ok(ClassPathEntry::open(jar).and_then(|e| e.read(MANIFEST)));
    }
    let files = Files::open(io).map_err(|e| format!("Error: --io={io}: {e}"))?;
    let path = files.absolute(std::path::Path::new(jar));
    if files.file_size(&path).is_none() {
        return Err(unable());
    }
    Ok(ClassPathEntry::open_in(&files, jar).and_then(|e| e.read(MANIFEST)))
}

/// A booted VM and the launcher's Java thread, attached to the launcher's domain (the one
/// `-cp ... Main` runs in). Its methods must be called on the OS thread that booted it.
pub struct Launcher {
    t: Box<JThread>,
}

/// A domain created by [`Launcher::create_domain`].
pub struct Created(Arc<Domain>);

impl Created {
    /// The domain's name (from its spec).
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// Why the domain was terminated, if it was (None while it runs or after it finished).
    pub fn terminated(&self) -> Option<String> {
        match self.0.verdict() {
            Some(End::Terminated(reason)) => Some(reason),
            _ => None,
        }
    }
}

/// The class `sun.launcher.LauncherHelper`, which does what java's launcher asks of Java.
const HELPER: &str = "sun/launcher/LauncherHelper";

impl Launcher {
    /// Creates the process's VM from `opts` and boots the JDK in the launcher's domain on the
    /// calling OS thread. One VM per process: call it once.
    pub fn boot(opts: Options) -> Result<Launcher, BootError> {
        let t = crate::vm::Vm::create(opts).and_then(crate::vm::boot)?;
        Ok(Launcher { t })
    }

    /// In a fork server, after the boot: makes the process ready to be forked (the VM's
    /// signals get their default action in the server). Err: the boot cached something a
    /// forked child could not correct, or the VM was not booted with `Options::fork_server`.
    pub fn prepare_to_serve(&mut self) -> Result<(), String> {
        crate::fork::check_forkable(&mut self.t)?;
        crate::fork::quiet_server();
        Ok(())
    }

    /// In a child forked from a fork server, before anything else: takes over the client's
    /// command line (the process's working directory and environment must be the client's
    /// already) and starts the threads the server held. Err: why the child cannot run the
    /// client's program as a plain run would (the client must run it itself).
    pub fn adopt(&mut self, client: ForkClient) -> Result<(), String> {
        crate::fork::adopt(&mut self.t, client).map_err(|r| r.0)
    }

    /// Loads `main_class` (`a.b.C` or `a/b/C`) through the application loader and runs its
    /// `main(String[])` with `args` (bytes, decoded as java's launcher decodes them).
    pub fn run_main<A: AsRef<[u8]>>(
        &mut self,
        main_class: &str,
        args: &[A],
    ) -> Result<(), LaunchError> {
        crate::vm::run_main(&mut self.t, main_class, args)
    }

    /// Reports `e` as java's launcher does: its message on stderr, or the uncaught exception
    /// through the thread's uncaught-exception handler.
    pub fn report(&mut self, e: LaunchError) {
        e.report(&mut self.t)
    }

    /// `--list-modules`: LauncherHelper lists the image's modules on stdout. Err: the text of
    /// the exception it threw.
    pub fn list_modules(&mut self) -> Result<(), String> {
        self.helper(|t| t.call_static(HELPER, "listModules", "()V", &[]))
    }

    /// `--describe-module NAME`: LauncherHelper describes module `name` on stdout.
    pub fn describe_module(&mut self, name: &str) -> Result<(), String> {
        self.helper(|t| {
            let s = t.new_string(name)?;
            t.call_static(
                HELPER,
                "describeModule",
                "(Ljava/lang/String;)V",
                &[s.slot()],
            )
        })
    }

    /// `--dry-run`: LauncherHelper loads and checks main class `main` as java does before it
    /// would run it (its message, if it cannot, is the error).
    pub fn dry_run(&mut self, main: &str) -> Result<(), String> {
        /// LauncherHelper's mode for a main class named on the command line.
        const LM_CLASS: u64 = 1;
        self.helper(|t| {
            let what = t.new_string(main)?;
            t.call_static(
                HELPER,
                "checkAndLoadMain",
                "(ZILjava/lang/String;)Ljava/lang/Class;",
                &[1, LM_CLASS, what.slot()],
            )
        })
    }

    /// `-XshowSettings:flag`: LauncherHelper prints the settings on stderr, given the heap's
    /// initial and maximum sizes and the thread stack size in bytes.
    pub fn show_settings(
        &mut self,
        flag: &str,
        initial_heap: u64,
        max_heap: u64,
        stack: u64,
    ) -> Result<(), String> {
        self.helper(|t| {
            let flag = t.new_string(flag)?;
            t.call_static(
                HELPER,
                "showSettings",
                "(ZLjava/lang/String;JJJ)V",
                // A long takes two slots.
                &[1, flag.slot(), initial_heap, 0, max_heap, 0, stack, 0],
            )
        })
    }

    /// Runs `call`; an exception it throws becomes its text.
    fn helper<R>(
        &mut self,
        call: impl FnOnce(&mut JThread) -> crate::thread::JResult<R>,
    ) -> Result<(), String> {
        match call(&mut self.t) {
            Ok(_) => Ok(()),
            Err(_) => Err(self.t.take_exception_text()),
        }
    }

    /// Creates a domain from `spec` (its limits nest in nothing: the launcher creates it) and
    /// starts its components; returns once its class library is booted. Err: why it could
    /// not be created (java's `DomainException` message).
    pub fn create_domain(&mut self, spec: Spec) -> Result<Created, String> {
        let vm = self.t.vm;
        self.t
            .blocking(|| lifecycle::create(vm, spec))
            .map(Created)
            .map_err(|e| e.0)
    }

    /// Terminates domain `d` for `reason` (no effect if it already ended).
    pub fn terminate(&self, d: &Created, reason: &str) {
        lifecycle::terminate(self.t.vm, &d.0, reason);
    }

    /// The launcher's end (HotSpot's DestroyJavaVM): the launcher thread exits as a Java
    /// thread, then this waits for the launcher domain's non-daemon threads and for the main
    /// classes of created domains.
    pub fn wait_for_program(&mut self) {
        crate::native::thread::exit_thread(&mut self.t);
        crate::native::thread::wait_for_non_daemon(&mut self.t);
        let domains = &self.t.vm.domains;
        self.t.blocking(|| domains.wait_for_mains());
    }

    /// How many components of created domains could not start or ended by an exception.
    pub fn failed_components(&self) -> u32 {
        self.t.vm.domains.failed_components()
    }

    /// Runs the shutdown hooks (`Shutdown.shutdown()`), as java does when main returns.
    pub fn shut_down(&mut self) {
        crate::vm::shutdown(&mut self.t);
    }

    /// How many classes are defined (all domains).
    pub fn class_count(&self) -> u32 {
        self.t.vm.classes.class_count()
    }

    /// Bytes in use in the launcher domain's heap.
    pub fn heap_used(&self) -> usize {
        self.t.domain.heap.used()
    }

    /// How methods run (`-Xint`, `-Xmixed`, `-Xcomp`).
    pub fn mode(&self) -> Mode {
        self.t.vm.opts.jit.mode
    }
}

/// The native methods the runtime implements (for checks of its coverage of the JDK's).
pub struct Natives(crate::native::Registry);

impl Natives {
    /// The table every domain binds native methods from.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Natives {
        Natives(crate::native::Registry::new())
    }

    /// Whether native method `name` `desc` of class `class` (internal names), a static method
    /// if `is_static`, has an implementation when its class is defined by the boot or the
    /// platform loader (the only classes the table binds): an entry in the table, the no-op
    /// of a static void `registerNatives` or `initIDs`, or a pure intrinsic (which runs
    /// instead of the method) — what a call of the method runs instead of throwing
    /// `UnsatisfiedLinkError`.
    pub fn implements(&self, class: &str, name: &str, desc: &str, is_static: bool) -> bool {
        let static_void = is_static && desc.ends_with(")V");
        self.0.binding(class, name, desc, static_void).is_some()
            || (is_static && meta::intrinsics::pure_intrinsic(class, name, desc).is_some())
    }
}
