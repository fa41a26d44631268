//! The VM's side of the fork server (`jxvm serve`, Tati & Voelker's skeleton process): a VM
//! booted to be forked, and a forked child taking over its client's run.
//!
//! `fork()` keeps only the calling thread. A VM booted with `Options::fork_server` therefore
//! starts no other OS thread while it boots: the Java threads the class library starts
//! (Reference Handler, Finalizer) are registered but held (`Domain::held`), and the Signal
//! Dispatcher's pipe and handlers are made but not its thread (`thread::dump`). After the
//! boot, [`quiet_server`] gives the server the host's default action for the signals the VM
//! took (so that the server itself can be interrupted and terminated) and [`check_forkable`]
//! makes sure nothing the boot cached depends on the server's process (its pid, its
//! environment). The server's one thread holds no VM lock between runs, so a fork is safe.
//!
//! In the child, [`adopt`] takes over the client's command line and environment: it refuses
//! (the client then runs the program itself) what a booted VM cannot change, and otherwise
//! replaces the launcher's class path, recomputes the system properties as a fresh boot would
//! with the client's working directory, environment and `-D` options, checks that only the
//! properties it can patch differ (`user.dir`, `java.class.path`, `sun.java.command` and the
//! program's own `-D` properties), patches them and their caches (`StaticProperty`,
//! `java.io.File`'s file system), points the application loader at the class path, and
//! releases the held threads and the Signal Dispatcher.
//!
//! Owns nothing but that sequence; the sockets, the fork itself and the protocol with the
//! client are the launcher's (`crates/cli`).

use std::sync::atomic::Ordering;

use crate::heap::{ObjRef, from_slot};
use crate::thread::{JResult, JThread};

/// What a forked child took over from its client (see `Vm::adopted`).
#[derive(Debug)]
pub struct Adopted {
    pub class_path: String,
    pub props: Vec<(String, String)>,
    pub vm_args: Vec<String>,
    pub java_command: String,
    pub assertions: crate::assertions::Assertions,
    /// When the child was forked: the program's VM start for its uptime.
    pub start_time: std::time::Instant,
}

/// The signals the VM dispatches to Java (its Terminator's) or takes for thread dumps.
const VM_SIGNALS: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// Classes whose initialization caches what a child could not correct: the environment
/// (`ProcessEnvironment`), the pid (`ProcessHandleImpl`), whether stdin/stdout are a
/// terminal (`Console`), the NIO file system's working directory.
const MUST_NOT_BE_INITIALIZED: [&str; 4] = [
    "java/lang/ProcessEnvironment",
    "java/lang/ProcessHandleImpl",
    "java/io/Console",
    "sun/nio/fs/UnixFileSystem",
];

/// Properties a fresh boot computes from the working directory or the command line that a
/// child can set after the boot.
const PATCHABLE: [&str; 3] = ["user.dir", "java.class.path", "sun.java.command"];

/// Prefixes of `-D` properties the class library may read while it boots: a client setting
/// one runs the program itself.
const BOOT_READ_PREFIXES: [&str; 10] = [
    "java.", "jdk.", "sun.", "javax.", "file.", "user.", "native.", "line.", "os.", "path.",
];

/// In the server, after the boot: the VM's signals get the host's default action again (the
/// server has no dispatcher, and must stay interruptible); a child's [`adopt`] takes them back.
pub fn quiet_server() {
    let ours = crate::thread::dump::on_signal as extern "C" fn(libc::c_int) as usize;
    for sig in VM_SIGNALS {
        if let Ok(port::SignalAction::Handler(h)) = port::signal_action(sig)
            && h == ours
        {
            TAKEN.fetch_or(1 << sig, Ordering::Relaxed);
            let _ = port::set_signal_action(sig, port::SetSignal::Default);
        }
    }
}

/// The signals of [`VM_SIGNALS`] the boot had taken (bit `1 << sig`).
static TAKEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// In the server, after the boot: Err names what the boot cached that a child could not
/// correct (a server must not serve then).
pub fn check_forkable(t: &mut JThread) -> Result<(), String> {
    if !t.vm.opts.fork_server {
        return Err("the VM was not booted to be forked".into());
    }
    for name in MUST_NOT_BE_INITIALIZED {
        if let Some(c) = t.vm.classes.find_loaded(crate::class::LoaderId::BOOT, name)
            && t.domain.is_initialized(c)
        {
            return Err(format!(
                "the class library initialized {} while it booted",
                name.replace('/', ".")
            ));
        }
    }
    Ok(())
}

/// What a child takes over from its client's command line (its working directory and
/// environment are the process's by then).
pub struct Client {
    pub class_path: String,
    pub props: Vec<(String, String)>,
    pub vm_args: Vec<String>,
    pub java_command: String,
    /// `-ea`, `-da` and their kin: taken unless they could name a class the boot initialized.
    pub assertions: crate::assertions::Assertions,
}

/// Packages of the class library: an assertion switch naming one (or `-esa`) could concern a
/// class the boot initialized with the server's switches.
const LIBRARY_PACKAGES: [&str; 5] = ["java/", "javax/", "jdk/", "sun/", "com/sun/"];

/// Why a child does not run its client's program: the client runs it itself.
#[derive(Debug)]
pub struct Refused(pub String);

/// In a child just forked from the server, on the server's (only) thread: takes over the
/// client's run (see the module's doc). Err: the client must run the program itself; the
/// child must then exit without running anything.
pub fn adopt(t: &mut JThread, client: Client) -> Result<(), Refused> {
    let vm = t.vm;
    if !vm.opts.fork_server || vm.adopted.get().is_some() {
        return Err(Refused("the VM was not booted to be forked".into()));
    }
    if let Some((k, _)) = (client.props.iter()).find(|(k, _)| {
        BOOT_READ_PREFIXES.iter().any(|p| k.starts_with(p)) && !PATCHABLE.contains(&k.as_str())
    }) {
        return Err(Refused(format!(
            "-D{k} may be read while the class library boots"
        )));
    }
    let a = &client.assertions;
    if a.system_default
        || (a.switches.iter()).any(|s| LIBRARY_PACKAGES.iter().any(|p| s.name.starts_with(p)))
    {
        return Err(Refused(
            "its assertion switches concern classes the boot initialized".into(),
        ));
    }
    let mut patch: Vec<String> = PATCHABLE.iter().map(|s| s.to_string()).collect();
    patch.extend(client.props.iter().map(|(k, _)| k.clone()));
    let files = crate::class::loader::Files::open(&vm.opts.io)
        .map_err(|e| Refused(format!("--io={}: {e}", vm.opts.io)))?;
    vm.classes
        .replace_launcher_class_path(&client.class_path, &files);
    let class_path = client.class_path.clone();
    let _ = vm.adopted.set(Adopted {
        class_path: client.class_path,
        props: client.props,
        vm_args: client.vm_args,
        java_command: client.java_command,
        assertions: client.assertions,
        start_time: std::time::Instant::now(),
    });
    let mark = t.handles.len();
    let r = patch_properties(t, &patch);
    t.handles.truncate(mark);
    match r {
        Ok(None) => {}
        Ok(Some(refusal)) => return Err(refusal),
        Err(_) => {
            return Err(Refused(format!(
                "the system properties could not be set: {}",
                t.take_exception_text()
            )));
        }
    }
    if crate::domain::image::set_class_path(t, &class_path).is_err() {
        return Err(Refused(format!(
            "the class path could not be set: {}",
            t.take_exception_text()
        )));
    }
    release(t);
    Ok(())
}

/// Recomputes the properties as a fresh boot would (`SystemProps.initProperties()`), refuses
/// if one not in `patch` differs from the boot's, and otherwise sets those in `patch` and
/// saves the new ones as the VM's (`VM.savedProps`).
fn patch_properties(t: &mut JThread, patch: &[String]) -> JResult<Option<Refused>> {
    const MAP: &str = "java/util/HashMap";
    let fresh = call_obj(t, |t| {
        t.call_static(
            "jdk/internal/util/SystemProps",
            "initProperties",
            "()Ljava/util/Map;",
            &[],
        )
    })?;
    let fresh = t.handle(fresh);
    // As `System.initPhase1` does before it saves them.
    let f = t.handle_get(fresh);
    t.call_static(
        "java/lang/VersionProps",
        "init",
        "(Ljava/util/Map;)V",
        &[f.slot()],
    )?;
    let vm_class = t.load_boot("jdk/internal/misc/VM")?;
    let saved = read_static(t, vm_class, "savedProps", "Ljava/util/Map;")?;
    let Some(saved) = saved else {
        return Ok(Some(Refused("the boot saved no properties".into())));
    };
    let saved = t.handle(saved);
    // Copies of both without the properties a child sets.
    let map_class = t.load_boot(MAP)?;
    let mut copies = [0usize; 2];
    for (i, h) in [fresh, saved].into_iter().enumerate() {
        let from = t.handle_get(h);
        let copy = t.construct(map_class, "(Ljava/util/Map;)V", &[from.slot()])?;
        copies[i] = t.handle(copy);
    }
    for k in patch {
        for &c in &copies {
            let key = t.new_string(k)?;
            let m = t.handle_get(c);
            t.call_virtual(
                m,
                "remove",
                "(Ljava/lang/Object;)Ljava/lang/Object;",
                &[key.slot()],
            )?;
        }
    }
    let (a, b) = (t.handle_get(copies[0]), t.handle_get(copies[1]));
    if t.call_virtual(a, "equals", "(Ljava/lang/Object;)Z", &[b.slot()])? == 0 {
        let differ = differing_keys(t, copies[0], copies[1])?;
        return Ok(Some(Refused(format!(
            "the environment changes system properties fixed at boot: {differ}"
        ))));
    }
    for k in patch {
        let key = t.new_string(k)?;
        let key = t.handle(key);
        let m = t.handle_get(fresh);
        let k_obj = t.handle_get(key);
        let v = t.call_virtual(
            m,
            "get",
            "(Ljava/lang/Object;)Ljava/lang/Object;",
            &[k_obj.slot()],
        )?;
        let k_obj = t.handle_get(key);
        match from_slot(v) {
            Some(v) => t.call_static(
                "java/lang/System",
                "setProperty",
                "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
                &[k_obj.slot(), v.slot()],
            )?,
            None => t.call_static(
                "java/lang/System",
                "clearProperty",
                "(Ljava/lang/String;)Ljava/lang/String;",
                &[k_obj.slot()],
            )?,
        };
    }
    let fresh_map = t.handle_get(fresh);
    write_static(
        t,
        vm_class,
        "savedProps",
        "Ljava/util/Map;",
        Some(fresh_map),
    )?;
    patch_user_dir(t)?;
    reseed(t)?;
    Ok(None)
}

/// Draws again what the boot drew at random for the whole process, so that children do not
/// share it: the iteration order of `Set.of`/`Map.of` (`ImmutableCollections.SALT32L` and
/// `REVERSE`, as its initializer computes them; only iteration reads them, never a lookup).
fn reseed(t: &mut JThread) -> JResult<()> {
    let c = t.load_boot("java/util/ImmutableCollections")?;
    if !t.domain.is_initialized(c) {
        return Ok(());
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
        ^ i64::from(std::process::id()).rotate_left(32);
    const COLOR: i64 = 0x243F_6A88_85A3_08D3;
    let salt = i64::from((COLOR.wrapping_mul(seed) >> 16) as i32) & 0xFFFF_FFFF;
    let mirror = t.mirror(c)?;
    let base = t.vm.wk().statics_base;
    if let Some(f) = c.field("SALT32L", "J").filter(|f| f.is_static()) {
        mirror.write::<i64>((base + f.offset) as usize, salt);
    }
    if let Some(f) = c.field("REVERSE", "Z").filter(|f| f.is_static()) {
        mirror.write::<u8>((base + f.offset) as usize, u8::from(salt & 1 == 0));
    }
    Ok(())
}

/// The keys whose entries differ between the maps behind handles `a` and `b`, as
/// `[k1, k2] / [k3]` (changed or only in a's / only in b's).
fn differing_keys(t: &mut JThread, a: usize, b: usize) -> JResult<String> {
    let map_class = t.load_boot("java/util/HashMap")?;
    let mut parts = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        let from = t.handle_get(x);
        let copy = t.construct(map_class, "(Ljava/util/Map;)V", &[from.slot()])?;
        let copy = t.handle(copy);
        let c = t.handle_get(copy);
        let mine = call_obj(t, |t| {
            t.call_virtual(c, "entrySet", "()Ljava/util/Set;", &[])
        })?;
        let mine = t.handle(mine);
        let other = t.handle_get(y);
        let theirs = call_obj(t, |t| {
            t.call_virtual(other, "entrySet", "()Ljava/util/Set;", &[])
        })?;
        let m = t.handle_get(mine);
        t.call_virtual(
            m,
            "removeAll",
            "(Ljava/util/Collection;)Z",
            &[theirs.slot()],
        )?;
        let c = t.handle_get(copy);
        let keys = call_obj(t, |t| t.call_virtual(c, "keySet", "()Ljava/util/Set;", &[]))?;
        let text = call_obj(t, |t| {
            t.call_virtual(keys, "toString", "()Ljava/lang/String;", &[])
        })?;
        parts.push(t.rust_string(text));
    }
    Ok(parts.join(" / "))
}

/// Points the caches of `user.dir` at its new value: `StaticProperty.USER_DIR` and the
/// working directory of `java.io.File`'s file system.
fn patch_user_dir(t: &mut JThread) -> JResult<()> {
    let key = t.new_string("user.dir")?;
    let dir = call_obj(t, |t| {
        t.call_static(
            "java/lang/System",
            "getProperty",
            "(Ljava/lang/String;)Ljava/lang/String;",
            &[key.slot()],
        )
    })?;
    let dir = t.handle(dir);
    let sp = t.load_boot("jdk/internal/util/StaticProperty")?;
    if t.domain.is_initialized(sp) {
        let d = t.handle_get(dir);
        write_static(t, sp, "USER_DIR", "Ljava/lang/String;", Some(d))?;
    }
    let file = t.load_boot("java/io/File")?;
    if t.domain.is_initialized(file)
        && let Some(fs) = read_static(t, file, "fs", "Ljava/io/FileSystem;")?
        && let Some(f) = fs.class().field("userDir", "Ljava/lang/String;")
        && !f.is_static()
    {
        let d = t.handle_get(dir);
        t.domain.heap.write_ref(fs, f.offset as usize, Some(d));
    }
    Ok(())
}

/// The object a Java call returned (NullPointerException if it returned null).
fn call_obj(t: &mut JThread, call: impl FnOnce(&mut JThread) -> JResult<u64>) -> JResult<ObjRef> {
    let v = call(t)?;
    match from_slot(v) {
        Some(o) => Ok(o),
        None => Err(t.throw_new(
            "java/lang/NullPointerException",
            Some("a boot value is null"),
        )),
    }
}

/// Static field `name` of class `c` (a reference), None if the class has no such field.
fn read_static(
    t: &mut JThread,
    c: &'static crate::class::Class,
    name: &str,
    desc: &str,
) -> JResult<Option<ObjRef>> {
    let Some(f) = c.field(name, desc).filter(|f| f.is_static()) else {
        return Ok(None);
    };
    let mirror = t.mirror(c)?;
    Ok(mirror.read_ref((t.vm.wk().statics_base + f.offset) as usize))
}

/// Sets static field `name` of class `c` (a reference; nothing if it has no such field).
fn write_static(
    t: &mut JThread,
    c: &'static crate::class::Class,
    name: &str,
    desc: &str,
    v: Option<ObjRef>,
) -> JResult<()> {
    let Some(f) = c.field(name, desc).filter(|f| f.is_static()) else {
        return Ok(());
    };
    let mirror = t.mirror(c)?;
    let at = (t.vm.wk().statics_base + f.offset) as usize;
    t.domain.heap.write_ref(mirror, at, v);
    Ok(())
}

/// Starts what the server held: the boot's Java threads, the Signal Dispatcher, the VM's
/// signal handlers.
fn release(t: &mut JThread) {
    let vm = t.vm;
    // The forked thread has an OS thread id of its own (thread dumps' nid, and the token
    // blocked calls are woken through).
    t.os_tid = port::os::gettid();
    if let Some(h) = crate::native::thread::current_handle(t) {
        h.set_os_thread();
    }
    let domain = t.domain.clone();
    domain.held.store(false, Ordering::Release);
    let main = t.thread_obj;
    let held: Vec<ObjRef> = (domain.threads.lock().keys())
        .map(|&a| ObjRef::from_addr(a))
        .filter(|o| Some(*o) != main)
        .collect();
    for th in &held {
        crate::native::thread::start_java_thread(vm, &domain, *th);
    }
    // Then the VM's handlers (the signals are still blocked in this thread), and the
    // dispatcher they wake: a signal that came meanwhile finds the class library's threads.
    let taken = TAKEN.load(Ordering::Relaxed);
    for sig in VM_SIGNALS {
        if taken & (1 << sig) != 0 {
            let _ =
                port::set_signal_action(sig, port::SetSignal::Call(crate::thread::dump::on_signal));
        }
    }
    crate::thread::dump::start_in_child();
    // Each was counted as started when the boot registered it, and again now.
    (domain.thread_stats.started).fetch_sub(held.len() as u64, Ordering::Relaxed);
}
