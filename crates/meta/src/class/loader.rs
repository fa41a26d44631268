//! Class loading, layout and dispatch tables (JVMS §5.3, §5.4).
//!
//! Owns the VM-wide class table (name + defining or initiating loader -> class, id -> class,
//! id -> method), finds class bytes (the JDK's `lib/modules` for the boot loader; directories
//! and jars of the class path for the application loader; user-defined loaders' classes are
//! defined from Java, see `vm::runtime::loading`), builds [`Class`] metadata: field layout,
//! method list, vtable and interface dispatch table. It does not initialize classes (that is per
//! domain, in `vm::domain`) and holds no heap reference.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use classfile::ClassFile;
use classfile::access::*;
use parking_lot::{Mutex, ReentrantMutex, RwLock};
use rustc_hash::FxHashMap;

use super::ids::{IdPool, Numbered};
use super::metadata::{self, Charge};
pub use super::source::{Files, JarFile};
use super::{
    BasicType, Class, ClassId, ClassKind, Dispatch, DomainId, Field, LoaderId, Method, MethodId,
};
use base::idtable::Slots;
use base::layout::HEADER_SIZE;

/// A hidden class being defined: the domain that owns it, and whether it lives as long as its
/// loader (`STRONG`) or goes on its own.
#[derive(Clone, Copy)]
struct Hidden {
    owner: DomainId,
    strong: bool,
}

/// Why a class could not be loaded; the caller turns it into the right Java error.
#[derive(Debug, Clone)]
pub enum LoadError {
    /// No class file with that name (NoClassDefFoundError / ClassNotFoundException).
    NotFound(String),
    /// ClassFormatError with message.
    Format(String),
    /// NoClassDefFoundError with message (e.g. wrong name).
    NoClassDef(String),
    /// IncompatibleClassChangeError with message.
    Incompatible(String),
    /// ClassCircularityError.
    Circularity(String),
    /// VerifyError (e.g. subclassing a final class).
    Verify(String),
    /// UnsupportedClassVersionError.
    Version(String),
    /// IllegalAccessError (a superclass a module does not export).
    Access(String),
    /// OutOfMemoryError: every class or method id is in use (see `ids`).
    OutOfIds,
    /// OutOfMemoryError: the owning domain's class metadata limit is reached (see `metadata`).
    OutOfMetadata,
}

impl LoadError {
    /// The Java exception class that reports this error.
    pub fn java_class(&self) -> &'static str {
        match self {
            LoadError::NotFound(_) | LoadError::NoClassDef(_) => "java/lang/NoClassDefFoundError",
            LoadError::Format(_) => "java/lang/ClassFormatError",
            LoadError::Incompatible(_) => "java/lang/IncompatibleClassChangeError",
            LoadError::Circularity(_) => "java/lang/ClassCircularityError",
            LoadError::Verify(_) => "java/lang/VerifyError",
            LoadError::Version(_) => "java/lang/UnsupportedClassVersionError",
            LoadError::Access(_) => "java/lang/IllegalAccessError",
            LoadError::OutOfIds | LoadError::OutOfMetadata => "java/lang/OutOfMemoryError",
        }
    }
    pub fn message(&self) -> &str {
        match self {
            LoadError::NotFound(m)
            | LoadError::Format(m)
            | LoadError::NoClassDef(m)
            | LoadError::Incompatible(m)
            | LoadError::Circularity(m)
            | LoadError::Verify(m)
            | LoadError::Version(m)
            | LoadError::Access(m) => m,
            LoadError::OutOfIds | LoadError::OutOfMetadata => "Metaspace",
        }
    }
}

/// A superclass or superinterface that does not exist makes the class that names it fail with
/// NoClassDefFoundError (not "not found", which would read as the class itself missing).
fn missing_is_no_class_def(e: LoadError) -> LoadError {
    match e {
        LoadError::NotFound(n) => LoadError::NoClassDef(n),
        other => other,
    }
}

/// How HotSpot's messages name each user-defined loader ("'name' @1b6d3586", the loader's
/// `nameAndId`), recorded when it first defines a class. Process-wide like loader ids'
/// use in the class table; read where no thread is at hand (ClassCastException messages).
static LOADER_NAMES: RwLock<Option<FxHashMap<u32, Box<str>>>> = RwLock::new(None);

/// User-defined loaders: ids are process-wide (the class table is shared by every domain),
/// counted from 3; each one delegates to the application loader of the domain that made it,
/// and goes with that domain (`super::unload`). Values: (application loader, domain id).
static USER_LOADERS: RwLock<Option<FxHashMap<u32, (LoaderId, DomainId)>>> = RwLock::new(None);
static NEXT_USER_LOADER: AtomicU32 = AtomicU32::new(3);

/// A fresh id for a user-defined loader of domain `domain`, whose application loader is `app`.
pub fn new_user_loader(app: LoaderId, domain: DomainId) -> LoaderId {
    let id = NEXT_USER_LOADER.fetch_add(1, Ordering::Relaxed);
    assert!(
        id & LoaderId::APP_BIT == 0,
        "user-defined loader ids exhausted"
    );
    USER_LOADERS
        .write()
        .get_or_insert_with(FxHashMap::default)
        .insert(id, (app, domain));
    LoaderId(id)
}

/// User-defined loaders that are reflection's own (`jdk.internal.reflect.DelegatingClassLoader`
/// objects): the only ones that may define subclasses of `jdk.internal.reflect` classes.
static REFLECTION_LOADERS: RwLock<Option<rustc_hash::FxHashSet<u32>>> = RwLock::new(None);

/// Records that user-defined loader `id` is reflection's own (see [`REFLECTION_LOADERS`]).
pub fn mark_reflection_loader(id: LoaderId) {
    REFLECTION_LOADERS
        .write()
        .get_or_insert_with(Default::default)
        .insert(id.0);
}

/// Whether `id` is a loader recorded by [`mark_reflection_loader`].
pub fn is_reflection_loader(id: LoaderId) -> bool {
    REFLECTION_LOADERS
        .read()
        .as_ref()
        .is_some_and(|s| s.contains(&id.0))
}

/// The application loader a user-defined loader delegates to.
fn user_loader_app(id: LoaderId) -> Option<LoaderId> {
    USER_LOADERS
        .read()
        .as_ref()
        .and_then(|m| m.get(&id.0).map(|&(app, _)| app))
}

/// The domain whose user-defined loader `id` is (None for other loaders, or one forgotten).
pub(super) fn user_loader_domain(id: LoaderId) -> Option<DomainId> {
    USER_LOADERS
        .read()
        .as_ref()
        .and_then(|m| m.get(&id.0).map(|&(_, d)| d))
}

/// Forgets the user-defined loaders `which(id, domain)` picks (their classes are being
/// unloaded) and returns their ids.
pub(super) fn forget_user_loaders(
    which: impl Fn(LoaderId, DomainId) -> bool,
) -> rustc_hash::FxHashSet<LoaderId> {
    let mut gone = rustc_hash::FxHashSet::default();
    if let Some(m) = USER_LOADERS.write().as_mut() {
        m.retain(|&id, &mut (_, d)| {
            let forget = which(LoaderId(id), d);
            if forget {
                gone.insert(LoaderId(id));
            }
            !forget
        });
    }
    if let Some(set) = REFLECTION_LOADERS.write().as_mut() {
        set.retain(|id| !gone.contains(&LoaderId(*id)));
    }
    if let Some(names) = LOADER_NAMES.write().as_mut() {
        names.retain(|id, _| !gone.contains(&LoaderId(*id)));
    }
    gone
}

/// Records the display name of user-defined loader `id` (see [`LOADER_NAMES`]).
pub fn set_loader_name(id: LoaderId, name: &str) {
    LOADER_NAMES
        .write()
        .get_or_insert_with(FxHashMap::default)
        .entry(id.0)
        .or_insert_with(|| name.into());
}

/// Whether loader `id` has a recorded display name.
pub fn has_loader_name(id: LoaderId) -> bool {
    LOADER_NAMES
        .read()
        .as_ref()
        .is_some_and(|m| m.contains_key(&id.0))
}

/// The display name of loader `id`, quoted as HotSpot quotes it.
pub fn loader_name(id: LoaderId) -> String {
    match id {
        LoaderId::BOOT => "'bootstrap'".to_string(),
        LoaderId::PLATFORM => "'platform'".to_string(),
        id if id.is_app() => "'app'".to_string(),
        _ => LOADER_NAMES
            .read()
            .as_ref()
            .and_then(|m| m.get(&id.0))
            .map_or_else(|| "'other'".to_string(), |n| n.to_string()),
    }
}

/// One entry of the application class path: a directory, or a jar, of the host or of a
/// backend's namespace (see [`Files`]).
pub enum ClassPathEntry {
    Dir(PathBuf, Files),
    Jar(Mutex<zip::ZipArchive<JarFile>>, PathBuf),
}

impl ClassPathEntry {
    /// The host's directory or jar `path`.
    pub fn open(path: &str) -> Option<ClassPathEntry> {
        ClassPathEntry::open_in(&Files::Host, path)
    }

    /// The directory or jar `path` of `files` (a backend's made absolute against its `/`).
    pub fn open_in(files: &Files, path: &str) -> Option<ClassPathEntry> {
        let p = PathBuf::from(if path.is_empty() { "." } else { path });
        let p = match files {
            Files::Host => p,
            Files::Backend(..) => files.absolute(&p),
        };
        if files.is_dir(&p) {
            return Some(ClassPathEntry::Dir(p, files.clone()));
        }
        let f = files.open_file(&p)?;
        zip::ZipArchive::new(f)
            .ok()
            .map(|z| ClassPathEntry::Jar(Mutex::new(z), p))
    }

    /// The entry as the application loader's URL names it (`file:/dir/`, `file:/a.jar`).
    pub fn url(&self) -> String {
        let (path, dir) = match self {
            ClassPathEntry::Dir(d, _) => (d, true),
            ClassPathEntry::Jar(_, j) => (j, false),
        };
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        let abs = crate::class::manifest::normalize(&abs);
        let slash = if dir { "/" } else { "" };
        format!("file:{}{slash}", abs.display())
    }

    /// Bytes of resource `path` ("a/b/C.class") in this entry, at most `MAX_CLASS_FILE` of
    /// them (see `read_sized`).
    pub fn read(&self, path: &str) -> Option<Vec<u8>> {
        match self {
            ClassPathEntry::Dir(d, files) => read_sized(files, &d.join(path)),
            ClassPathEntry::Jar(z, _) => {
                let mut z = z.lock();
                let e = z.by_name(path).ok()?;
                if e.size() > MAX_CLASS_FILE {
                    return Some(Vec::new());
                }
                let mut v = Vec::with_capacity(e.size() as usize);
                // The header's size is checked by the reader; the bound holds whatever it says.
                e.take(MAX_CLASS_FILE).read_to_end(&mut v).ok()?;
                Some(v)
            }
        }
    }
}

/// The most bytes read for one class file or resource of the class path; a larger one reads
/// as empty (a `ClassFormatError` for a class). Far above any class javac writes.
const MAX_CLASS_FILE: u64 = 1 << 30;

/// Reads a file of a class path directory as java's application loader does (`URLClassPath`'s
/// `Resource.getBytes`): as many bytes as the file's size says, taken as an `int` (so a file
/// of 2 GiB or more often reads as empty), and no more, so a device such as `/dev/zero` or a
/// FIFO (size 0) reads as empty instead of forever. Opened without blocking: a FIFO with no
/// writer does not hang the VM (it hangs java). None for a directory or a missing file.
fn read_sized(files: &Files, path: &Path) -> Option<Vec<u8>> {
    let Files::Host = files else {
        return files.read_sized(path, java_size);
    };
    let f = port::fs::open_without_blocking(path).ok()?;
    let meta = f.metadata().ok()?;
    if meta.is_dir() {
        return None;
    }
    // Devices and FIFOs have size 0.
    let size = java_size(if meta.is_file() { meta.len() } else { 0 });
    let mut v = Vec::with_capacity(size as usize);
    f.take(size).read_to_end(&mut v).ok()?;
    Some(v)
}

/// java's `(int) file.length()`, negative read as 0, and nothing past `MAX_CLASS_FILE`.
fn java_size(len: u64) -> u64 {
    let size = u64::try_from(len as u32 as i32).unwrap_or(0);
    if size > MAX_CLASS_FILE { 0 } else { size }
}

/// The entries of a class path as the application loader (`URLClassPath`) searches them: each
/// directory or jar in order, a jar followed by what its manifest's `Class-Path` names (jars,
/// and directories when the URL ends in `/`), recursively; each entry once, and entries that
/// cannot be opened left out.
pub fn open_class_path(classpath: &str) -> Vec<ClassPathEntry> {
    open_class_path_in(&Files::Host, classpath)
}

/// [`open_class_path`] for a class path of `files`.
pub fn open_class_path_in(files: &Files, classpath: &str) -> Vec<ClassPathEntry> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    for e in classpath.split(':') {
        let path = Path::new(if e.is_empty() { "." } else { e });
        add_class_path_entry(files, path, None, &mut seen, &mut out);
    }
    out
}

/// Adds `path` and what its `Class-Path` names; `dir` says whether a manifest named it as a
/// directory (None: named by the class path itself, either kind).
fn add_class_path_entry(
    files: &Files,
    path: &Path,
    dir: Option<bool>,
    seen: &mut rustc_hash::FxHashSet<PathBuf>,
    out: &mut Vec<ClassPathEntry>,
) {
    let key = crate::class::manifest::normalize(&files.absolute(path));
    if !seen.insert(key) || dir.is_some_and(|d| d != files.is_dir(path)) {
        return;
    }
    let Some(entry) = ClassPathEntry::open_in(files, &path.to_string_lossy()) else {
        return;
    };
    let class_path = match &entry {
        ClassPathEntry::Jar(..) => entry
            .read("META-INF/MANIFEST.MF")
            .and_then(|m| crate::class::manifest::Manifest::parse(&m).ok())
            .and_then(|m| m.main_attribute("Class-Path").map(str::to_string)),
        ClassPathEntry::Dir(..) => None,
    };
    out.push(entry);
    for p in class_path
        .map(|cp| crate::class::manifest::class_path_entries(path, &cp))
        .unwrap_or_default()
    {
        let is_dir = p.as_os_str().as_encoded_bytes().ends_with(b"/");
        add_class_path_entry(files, &p, Some(is_dir), seen, out);
    }
}

/// Where class bytes come from.
pub struct ClassSources {
    pub jimage: jimage::JImage,
    /// The launcher's class path (`LoaderId::APP`'s); replaced only by
    /// [`ClassTable::replace_launcher_class_path`].
    pub classpath: RwLock<Vec<ClassPathEntry>>,
}

/// A class path as a key: its entries made absolute and canonical where they exist, so that
/// two domains naming the same directories and jars share one application loader (and so
/// the classes' code and metadata).
pub fn class_path_key(files: &Files, classpath: &str) -> String {
    let entries: Vec<String> = classpath
        .split(':')
        .map(|e| {
            let e = if e.is_empty() { "." } else { e };
            files.canonical(e).unwrap_or_else(|| e.to_string())
        })
        .collect();
    files.key() + &entries.join(":")
}

impl ClassSources {
    /// Boot classes: (module, bytes), the bytes borrowed from the image's mapping.
    pub fn boot(&self, name: &str) -> Option<(&str, std::borrow::Cow<'_, [u8]>)> {
        self.jimage.find_class_ref(name).ok().flatten()
    }
    pub fn app(&self, name: &str) -> Option<Vec<u8>> {
        let path = format!("{name}.class");
        self.classpath.read().iter().find_map(|e| e.read(&path))
    }
    /// An application resource (for the main jar's manifest and the like).
    pub fn app_resource(&self, path: &str) -> Option<Vec<u8>> {
        self.classpath.read().iter().find_map(|e| e.read(path))
    }
}

/// Interned (name, descriptor) pairs (see `ClassTable::sig_id`), looked up by a borrowed
/// [`SigRef`] so that a lookup allocates nothing (linking a class looks up every method's).
type SigIds = hashbrown::HashMap<(Box<str>, Box<str>), u32, rustc_hash::FxBuildHasher>;

/// Classes by (defining or initiating loader, name), looked up by a borrowed [`NameRef`].
pub(super) type ByName =
    hashbrown::HashMap<(LoaderId, Box<str>), &'static Class, rustc_hash::FxBuildHasher>;

/// A (loader, name) pair borrowed for a [`ByName`] lookup; it hashes as the owned pair.
#[derive(Hash)]
struct NameRef<'a>(LoaderId, &'a str);

impl hashbrown::Equivalent<(LoaderId, Box<str>)> for NameRef<'_> {
    fn equivalent(&self, key: &(LoaderId, Box<str>)) -> bool {
        key.0 == self.0 && *key.1 == *self.1
    }
}

/// A (name, descriptor) pair borrowed for a [`SigIds`] lookup; it hashes as the owned pair.
#[derive(Hash)]
struct SigRef<'a>(&'a str, &'a str);

impl hashbrown::Equivalent<(Box<str>, Box<str>)> for SigRef<'_> {
    fn equivalent(&self, key: &(Box<str>, Box<str>)) -> bool {
        *key.0 == *self.0 && *key.1 == *self.1
    }
}

/// The (loader, name) pairs a thread is defining, outermost first (to detect circularity).
type DefineChain = Vec<(LoaderId, String)>;

/// How many class ids and method ids there are (the id tables' capacity).
const ID_CAPACITY: u32 = base::idtable::IdTable::<()>::CAPACITY as u32;
/// Ids a program's own definitions leave free for the VM's (see `ClassTable::room_for`).
const KEEP_FOR_VM: usize = 1 << 14;

/// How many class ids and how many method ids there are: [`ID_CAPACITY`], or fewer (at least
/// enough to boot) if `JXVM_ID_CAPACITY` says so, so that tests reach the end of them.
fn id_capacity() -> u32 {
    std::env::var("JXVM_ID_CAPACITY")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(ID_CAPACITY, |n| {
            n.clamp(4 * KEEP_FOR_VM as u32, ID_CAPACITY)
        })
}

/// The VM-wide class table.
pub struct ClassTable {
    pub(super) by_name: RwLock<ByName>,
    pub(super) by_id: Slots<Class>,
    pub(super) class_ids: IdPool,
    pub(super) methods: Slots<Method>,
    pub(super) method_ids: IdPool,
    sigs: RwLock<SigIds>,
    /// Serializes definition; the Vec is the per-thread chain of classes being loaded.
    define_lock: ReentrantMutex<std::cell::RefCell<DefineChain>>,
    primitives: OnceLock<Vec<&'static Class>>,
    /// Which built-in loader defines each JDK module (from the module system's boot layer);
    /// modules not yet known are the boot loader's.
    module_loaders: RwLock<FxHashMap<String, LoaderId>>,
    pub sources: ClassSources,
    /// Classes outside the JDK are verified when true.
    pub verify_app: bool,
    /// `-verbose:class` (or `ClassLoadingMXBean.setVerbose`): each class defined is logged,
    /// with the time since `load_log_start` (when the VM started).
    pub load_log: std::sync::atomic::AtomicBool,
    pub load_log_start: std::time::Instant,
    /// `ClassLoadingMXBean.setVerbose`'s setting, what `isVerbose` answers: as HotSpot's, true
    /// only once the bean switched the log on (HotSpot's every class+load tag set, which
    /// `-verbose:class` alone does not enable).
    pub load_log_verbose: std::sync::atomic::AtomicBool,
    /// `-Xbootclasspath/a:`: where the boot loader looks after the JDK's image.
    pub boot_append: Vec<ClassPathEntry>,
    /// Classes of user-defined loaders whose references were loaded through their loader (see
    /// `vm::runtime::loading`), by id: None when done, else the thread loading them.
    pub(super) references_loaded: Mutex<FxHashMap<u32, Option<u64>>>,
    references_cond: parking_lot::Condvar,
    /// Application loaders by class path key (`class_path_key`); `LoaderId::APP` reads
    /// `sources.classpath`, the others their entries here.
    app_loaders: Mutex<FxHashMap<String, LoaderId>>,
    app_paths: RwLock<FxHashMap<u32, std::sync::Arc<[ClassPathEntry]>>>,
    /// The classes each domain owns (unloaded when it ends).
    pub(super) owners: super::unload::Owners,
    /// What the classes domains own were charged (see `metadata`).
    pub metadata: super::metadata::Charges,
    /// Classes defined from class files and unloaded, with their estimated metadata, for
    /// the management API.
    pub stats: super::metadata::LoadStats,
    /// The class cache (`-Xshare`), when the process has one.
    pub summaries: super::summaries::Summaries,
}

/// See [`ClassTable::begin_reference_loading`].
pub enum ReferenceLoading {
    Start,
    Done,
    Busy,
}

impl ClassTable {
    pub fn new(sources: ClassSources) -> ClassTable {
        ClassTable {
            by_name: RwLock::new(ByName::default()),
            by_id: Slots::default(),
            class_ids: IdPool::new(id_capacity()),
            methods: Slots::default(),
            method_ids: IdPool::new(id_capacity()),
            sigs: RwLock::new(SigIds::default()),
            define_lock: ReentrantMutex::new(std::cell::RefCell::new(Vec::new())),
            primitives: OnceLock::new(),
            module_loaders: RwLock::new(FxHashMap::default()),
            sources,
            verify_app: true,
            load_log: std::sync::atomic::AtomicBool::new(false),
            load_log_start: std::time::Instant::now(),
            load_log_verbose: std::sync::atomic::AtomicBool::new(false),
            boot_append: Vec::new(),
            references_loaded: Mutex::new(Default::default()),
            references_cond: parking_lot::Condvar::new(),
            app_loaders: Mutex::new(FxHashMap::default()),
            app_paths: RwLock::new(FxHashMap::default()),
            owners: Default::default(),
            metadata: Default::default(),
            stats: Default::default(),
            summaries: Default::default(),
        }
    }

    /// Names `sources.classpath` (the launcher's `-cp`) as `LoaderId::APP`'s class path.
    pub fn set_launcher_class_path(&self, classpath: &str, files: &Files) {
        self.app_loaders
            .lock()
            .insert(class_path_key(files, classpath), LoaderId::APP);
    }

    /// Makes `classpath` the launcher's class path (`LoaderId::APP`'s) in place of the one the
    /// table was made with: a fork server's child takes its client's `-cp` this way, before
    /// it loads any class through that loader.
    pub fn replace_launcher_class_path(&self, classpath: &str, files: &Files) {
        let mut loaders = self.app_loaders.lock();
        loaders.retain(|_, id| *id != LoaderId::APP);
        *self.sources.classpath.write() = open_class_path_in(files, classpath);
        loaders.insert(class_path_key(files, classpath), LoaderId::APP);
    }

    /// The application loader of domains whose class path is `classpath`: one per distinct
    /// class path, so domains with the same class path share their classes' code. The flag
    /// says whether the loader is new.
    pub fn app_loader_for(&self, classpath: &str, files: &Files) -> (LoaderId, bool) {
        let key = class_path_key(files, classpath);
        let mut loaders = self.app_loaders.lock();
        if let Some(&id) = loaders.get(&key) {
            return (id, false);
        }
        let id = LoaderId(LoaderId::APP_BIT | loaders.len() as u32);
        let entries = open_class_path_in(files, classpath);
        self.app_paths.write().insert(id.0, entries.into());
        loaders.insert(key, id);
        (id, true)
    }

    /// Bytes of class `name` on the class path of application loader `app`.
    pub fn app_class_bytes(&self, app: LoaderId, name: &str) -> Option<Vec<u8>> {
        if app == LoaderId::APP {
            return self.sources.app(name);
        }
        let entries = self.app_paths.read().get(&app.0).cloned()?;
        let path = format!("{name}.class");
        entries.iter().find_map(|e| e.read(&path))
    }

    #[inline]
    pub fn class_by_id(&self, id: u32) -> Option<&'static Class> {
        self.by_id.get(id)
    }
    #[inline]
    pub fn method_by_id(&self, id: MethodId) -> Option<&'static Method> {
        self.methods.get(id.raw())
    }
    /// One more than the highest class id in use (ids below it may be free).
    #[inline]
    pub fn class_count(&self) -> u32 {
        self.class_ids.bound()
    }

    /// Refuses (`OutOfMemoryError: Metaspace`) a definition of `classes` classes with
    /// `methods` methods unless that many ids, and `keep` more, are free: definitions a
    /// program asks for keep the most back ([`KEEP_FOR_VM`]), those the VM makes for it
    /// (arrays, lambda proxies, stubs) half of that, so the VM's own never find none.
    fn room_for(&self, classes: usize, methods: usize, keep: usize) -> Result<(), LoadError> {
        if self.class_ids.room() < classes + keep || self.method_ids.room() < methods + keep {
            return Err(LoadError::OutOfIds);
        }
        Ok(())
    }

    /// Interned id of a (name, descriptor) pair, used as the interface dispatch key.
    pub fn sig_id(&self, name: &str, desc: &str) -> u32 {
        if let Some(&id) = self.sigs.read().get(&SigRef(name, desc)) {
            return id;
        }
        let mut w = self.sigs.write();
        if let Some(&id) = w.get(&SigRef(name, desc)) {
            return id;
        }
        let n = w.len() as u32;
        w.insert((name.into(), desc.into()), n);
        n
    }

    pub fn find_loaded(&self, loader: LoaderId, name: &str) -> Option<&'static Class> {
        self.by_name.read().get(&NameRef(loader, name)).copied()
    }

    /// Records `loader` as an initiating loader of `c` under `name` (its `loadClass` returned
    /// `c`), so that references resolved for classes of `loader` find it.
    pub fn record_initiated(&self, loader: LoaderId, name: &str, c: &'static Class) {
        self.record_dependency(loader, c);
        self.by_name
            .write()
            .entry((loader, Box::from(name)))
            .or_insert(c);
    }

    /// Starts loading the references of class `c` through its loader on thread `thread`:
    /// `Start` if this thread should, `Done` if they are loaded (or this thread is loading
    /// them further up its stack), `Busy` while another thread is.
    pub fn begin_reference_loading(&self, c: &Class, thread: u64) -> ReferenceLoading {
        let mut m = self.references_loaded.lock();
        match m.get(&c.id.0) {
            None => {
                m.insert(c.id.0, Some(thread));
                ReferenceLoading::Start
            }
            Some(Some(other)) if *other != thread => ReferenceLoading::Busy,
            Some(_) => ReferenceLoading::Done,
        }
    }

    /// Ends what `begin_reference_loading` started, waking threads waiting for it.
    pub fn end_reference_loading(&self, c: &Class) {
        self.references_loaded.lock().insert(c.id.0, None);
        self.references_cond.notify_all();
    }

    /// Waits until no thread is loading the references of `c` (call as a blocking operation).
    pub fn wait_reference_loading(&self, c: &Class) {
        let mut m = self.references_loaded.lock();
        while matches!(m.get(&c.id.0), Some(Some(_))) {
            self.references_cond.wait(&mut m);
        }
    }

    /// The primitive class for a basic type (`int`, ..., `void`).
    pub fn primitive(&self, t: BasicType) -> &'static Class {
        let all = self.primitives.get_or_init(|| {
            use BasicType::*;
            [
                Boolean, Byte, Char, Short, Int, Float, Long, Double, Ref, Void,
            ]
            .into_iter()
            .map(|t| {
                self.new_special(
                    t.java_name(),
                    ClassKind::Primitive(t),
                    None,
                    ACC_PUBLIC | ACC_FINAL | ACC_ABSTRACT,
                )
            })
            .collect()
        });
        all[t as usize]
    }

    /// A class id; the caller made sure there is room ([`Self::room_for`]).
    fn alloc_id(&self) -> ClassId {
        ClassId(
            self.class_ids
                .take()
                .expect("room for a class id was checked")
                .id,
        )
    }

    /// A method id and its generation; the caller made sure there is room.
    fn alloc_method_id(&self) -> Numbered {
        self.method_ids
            .take()
            .expect("room for a method id was checked")
    }

    /// Makes `c` findable by id; `owner` (if any) owns it and paid `charge` for it.
    fn publish(&self, c: Class, owner: Option<DomainId>, charge: Option<Charge>) -> &'static Class {
        let c: &'static Class = Box::leak(Box::new(c));
        self.by_id.set(c.id.0, c);
        if let Some(d) = owner {
            self.adopt(c, d);
        }
        self.metadata.record(c.id.0, charge);
        c
    }

    fn new_special(
        &self,
        name: &str,
        kind: ClassKind,
        super_class: Option<&'static Class>,
        access: u16,
    ) -> &'static Class {
        let c = self.publish(
            Class::bare(self.alloc_id(), name, kind, super_class, access),
            None,
            None,
        );
        let _ = c.methods.set(Vec::new());
        let _ = c.linked.set(Ok(()));
        c
    }

    /// The array class with the given component class.
    pub fn array_of(&self, component: &'static Class) -> Result<&'static Class, LoadError> {
        if let Some(a) = component.array_of.get() {
            return Ok(a);
        }
        let object = self.load(LoaderId::BOOT, "java/lang/Object")?;
        let cloneable = self.load(LoaderId::BOOT, "java/lang/Cloneable")?;
        let serializable = self.load(LoaderId::BOOT, "java/io/Serializable")?;
        let _g = self.define_lock.lock();
        if let Some(a) = component.array_of.get() {
            return Ok(a);
        }
        let (name, elem) = match component.kind {
            ClassKind::Primitive(t) => (format!("[{}", t.descriptor_char()), t),
            ClassKind::Array { .. } => (format!("[{}", component.name), BasicType::Ref),
            ClassKind::Instance => (format!("[L{};", component.name), BasicType::Ref),
        };
        if component.dims == u8::MAX {
            return Err(LoadError::NoClassDef(format!(
                "array class {name} has too many dimensions"
            )));
        }
        self.room_for(1, 0, KEEP_FOR_VM / 2)?;
        let owner = self.owner_of(component);
        let charge = self.metadata.reserve(owner, metadata::PER_CLASS)?;
        let access = (component.access & (ACC_PUBLIC | ACC_PRIVATE | ACC_PROTECTED))
            | ACC_FINAL
            | ACC_ABSTRACT;
        let c = Class {
            loader: component.loader,
            interfaces: vec![cloneable, serializable],
            supers: supers_of(Some(object)),
            all_interfaces: vec![cloneable, serializable],
            module: component.module.clone(),
            dims: component.dims + 1,
            hidden_unit: component.hidden_unit,
            ..Class::bare(
                self.alloc_id(),
                &name,
                ClassKind::Array { component, elem },
                Some(object),
                access,
            )
        };
        let c = self.publish(c, owner, charge);
        let _ = c.methods.set(Vec::new());
        let _ = c.linked.set(Ok(()));
        // Arrays dispatch like Object.
        c.set_dispatch(Dispatch {
            vtable: object.vtable().to_vec(),
            itable: object
                .dispatch
                .get()
                .map(|d| d.itable.clone())
                .unwrap_or_default(),
        });
        let _ = component.array_of.set(c);
        // An array of a hidden class is found by no name either.
        let mut element = component;
        while let Some(e) = element.array_component() {
            element = e;
        }
        if !element.hidden {
            self.by_name.write().insert((c.loader, name.into()), c);
        }
        Ok(c)
    }

    /// Records that JDK module `module` is defined to `loader` (from `Module.defineModule0`).
    pub fn set_module_loader(&self, module: &str, loader: LoaderId) {
        self.module_loaders
            .write()
            .insert(module.to_string(), loader);
    }

    /// The built-in loader that defines the classes of JDK module `module`.
    pub fn module_loader(&self, module: &str) -> LoaderId {
        self.module_loaders
            .read()
            .get(module)
            .copied()
            .unwrap_or(LoaderId::BOOT)
    }

    /// Loads (or finds) class `name` as seen by `loader`, with the JDK's delegation: the boot
    /// loader, then the platform loader, then the application loader's class path. Classes of
    /// the JDK image are defined by the built-in loader their module belongs to.
    /// `name` is an internal name or an array descriptor.
    pub fn load(&self, loader: LoaderId, name: &str) -> Result<&'static Class, LoadError> {
        if let Some(c) = self.find_loaded(loader, name) {
            return Ok(c);
        }
        if let Some(rest) = name.strip_prefix('[') {
            let comp = match rest.as_bytes().first() {
                Some(b'L') if rest.ends_with(';') && rest.len() > 2 => {
                    self.load(loader, &rest[1..rest.len() - 1])?
                }
                Some(b'[') => self.load(loader, rest)?,
                Some(&c) if rest.len() == 1 && !matches!(c, b'V' | b'L') => {
                    self.primitive(BasicType::from_descriptor_char(c))
                }
                _ => return Err(LoadError::NotFound(name.to_string())),
            };
            return self.array_of(comp);
        }
        for parent in [LoaderId::BOOT, LoaderId::PLATFORM] {
            if parent != loader
                && self.sees(loader, parent)
                && let Some(c) = self.find_loaded(parent, name)
            {
                return Ok(c);
            }
        }
        let module = name
            .rfind('/')
            .and_then(|i| self.sources.jimage.module_of_package_ref(&name[..i]));
        if let Some(module) = module {
            let owner = self.module_loader(module);
            if !self.sees(loader, owner) {
                return Err(LoadError::NotFound(name.to_string()));
            }
            if let Some(c) = self.find_loaded(owner, name) {
                return Ok(c);
            }
            let module = module.to_string();
            let Some((_, bytes)) = self.sources.boot(name) else {
                return Err(LoadError::NotFound(name.to_string()));
            };
            let source = super::summaries::Source::Image(name);
            let cf = self.summaries.parse(&bytes, Some(name), source)?;
            return self.define_parsed(owner, Some(name), cf, Some(&module));
        }
        if let Some(bytes) = crate::api::class_bytes(name) {
            // The jxvm API belongs to the boot loader, whichever loader asks.
            if let Some(c) = self.find_loaded(LoaderId::BOOT, name) {
                return Ok(c);
            }
            return self.define(LoaderId::BOOT, Some(name), &bytes, Some(crate::api::MODULE));
        }
        if let Some(bytes) = self.boot_appended(name) {
            if let Some(c) = self.find_loaded(LoaderId::BOOT, name) {
                return Ok(c);
            }
            return self.define(LoaderId::BOOT, Some(name), &bytes, None);
        }
        // Only the application loader reads the class path here; a user-defined loader's
        // classes come from its Java `loadClass` (see `vm::runtime::loading`), and are
        // found above once recorded.
        if !loader.is_app() {
            return Err(LoadError::NotFound(name.to_string()));
        }
        let Some(bytes) = self.app_class_bytes(loader, name) else {
            return Err(LoadError::NotFound(name.to_string()));
        };
        self.define(loader, Some(name), &bytes, None)
    }

    /// Class `name` from the boot class path's appended entries (`-Xbootclasspath/a:`).
    fn boot_appended(&self, name: &str) -> Option<Vec<u8>> {
        if self.boot_append.is_empty() {
            return None;
        }
        let path = format!("{name}.class");
        self.boot_append.iter().find_map(|e| e.read(&path))
    }

    /// Whether classes defined by `owner` are visible to `loader` through delegation.
    fn sees(&self, loader: LoaderId, owner: LoaderId) -> bool {
        owner == LoaderId::BOOT
            || owner == loader
            || (owner == LoaderId::PLATFORM && loader != LoaderId::BOOT)
            || (owner.is_app() && loader.is_user() && user_loader_app(loader) == Some(owner))
    }

    /// Defines a class from bytes (ClassLoader.defineClass, or the VM's own loading).
    pub fn define(
        &self,
        loader: LoaderId,
        expected: Option<&str>,
        bytes: &[u8],
        module: Option<&str>,
    ) -> Result<&'static Class, LoadError> {
        let source = super::summaries::Source::Bytes;
        let cf = self.summaries.parse(bytes, expected, source)?;
        self.define_parsed(loader, expected, cf, module)
    }

    /// Defines a hidden class (`Lookup.defineHiddenClass`): found by no name, owned by domain
    /// `owner` whatever its loader (nothing outside that domain can reach it); unless
    /// `strong`, it is unloaded on its own ([`super::Unit::Hidden`]).
    pub fn define_hidden(
        &self,
        loader: LoaderId,
        bytes: &[u8],
        module: Option<&str>,
        owner: DomainId,
        strong: bool,
    ) -> Result<&'static Class, LoadError> {
        let cf = Self::parse(bytes, None)?;
        let _guard = self.define_lock.lock();
        self.build(loader, cf, module, Some(Hidden { owner, strong }))
    }

    /// Parses class bytes, with the errors `define` reports.
    pub fn parse(bytes: &[u8], expected: Option<&str>) -> Result<ClassFile, LoadError> {
        ClassFile::parse_expecting(bytes, expected).map_err(|e| {
            let m = e.to_string();
            if e.is_wrong_name() {
                return LoadError::NoClassDef(m);
            }
            if e.is_not_a_class() {
                // HotSpot names the class it was asked for.
                return match expected {
                    Some(n) => LoadError::NoClassDef(classfile::ClassFormatError::not_a_class(n).0),
                    None => LoadError::NoClassDef(m),
                };
            }
            if let Some(v) = m.strip_prefix(classfile::PREVIEW_NOT_ENABLED_PREFIX) {
                LoadError::Version(format!(
                    "Preview features are not enabled for {} (class file version{v}). Try running with '--enable-preview'",
                    expected.unwrap_or("class")
                ))
            } else if m.starts_with("Unsupported major.minor") {
                LoadError::Version(format!(
                    "{} has been compiled by a more recent version of the Java Runtime ({m})",
                    expected.unwrap_or("class")
                ))
            } else if m.contains(" in class file ") || m == "Truncated class file" {
                LoadError::Format(m)
            } else {
                LoadError::Format(format!(
                    "{m} in class file {}",
                    expected.unwrap_or("<unknown>")
                ))
            }
        })
    }

    /// Defines a parsed class (see `define`).
    pub fn define_parsed(
        &self,
        loader: LoaderId,
        expected: Option<&str>,
        cf: ClassFile,
        module: Option<&str>,
    ) -> Result<&'static Class, LoadError> {
        if let Some(exp) = expected
            && cf.name != exp
        {
            return Err(LoadError::NoClassDef(format!(
                "{exp} (wrong name: {})",
                cf.name
            )));
        }
        let guard = self.define_lock.lock();
        if let Some(c) = self.find_loaded(loader, &cf.name) {
            return Ok(c);
        }
        let key = (loader, cf.name.clone());
        if guard.borrow().contains(&key) {
            return Err(LoadError::Circularity(cf.name.replace('/', ".")));
        }
        guard.borrow_mut().push(key);
        let r = self.build(loader, cf, module, None);
        guard.borrow_mut().pop();
        let c = r?;
        self.by_name.write().insert((loader, c.name.clone()), c);
        Ok(c)
    }

    /// Refuses a superclass or superinterface `sup` of class `name` (defined by `loader` in
    /// `module`) that a JDK module keeps to itself (`exports`), or that is not public and in
    /// another run-time package (JVMS §5.4.4: package name and defining loader).
    fn check_extends(
        &self,
        loader: LoaderId,
        module: Option<&str>,
        name: &str,
        sup: &Class,
    ) -> Result<(), LoadError> {
        if super::exports::may_extend(&self.sources.jimage, module, loader, sup) {
            let package = name.rfind('/').map_or("", |i| &name[..i]);
            // A subclass of reflection's MagicAccessorImpl (a generated accessor) may extend
            // what it likes, as in HotSpot.
            if sup.access & ACC_PUBLIC != 0
                || (sup.loader == loader && sup.package() == package)
                || sup.is_magic_accessor()
            {
                return Ok(());
            }
            let (this, that) = (name.replace('/', "."), sup.java_name());
            let here = super::module_of_loader(loader, module);
            let modules = if sup.loader == loader && sup.module.as_deref() == module {
                format!("{this} and {that} are in {here}")
            } else {
                format!(
                    "{this} is in {here}; {that} is in {}",
                    sup.module_of_loader()
                )
            };
            let kind = match (sup.is_interface(), sup.is_abstract()) {
                (true, _) => "superinterface",
                (false, true) => "abstract superclass",
                (false, false) => "superclass",
            };
            return Err(LoadError::Access(format!(
                "class {this} cannot access its {kind} {that} ({modules})"
            )));
        }
        let module = sup.module.as_deref().unwrap_or("?");
        Err(LoadError::Access(format!(
            "superclass access check failed: class {} (in unnamed module) cannot access class {} (in module {module}) because module {module} does not export {} to unnamed module",
            name.replace('/', "."),
            sup.java_name(),
            sup.package().replace('/', ".")
        )))
    }

    /// Builds and publishes the class of `cf`, maybe a hidden one.
    fn build(
        &self,
        loader: LoaderId,
        cf: ClassFile,
        module: Option<&str>,
        hidden: Option<Hidden>,
    ) -> Result<&'static Class, LoadError> {
        let super_class = match &cf.super_name {
            Some(s) => {
                let sc = self.load(loader, s).map_err(missing_is_no_class_def)?;
                if sc.is_interface() {
                    return Err(LoadError::Incompatible(format!(
                        "class {} has interface {} as super class",
                        cf.name.replace('/', "."),
                        sc.java_name()
                    )));
                }
                if sc.access & ACC_FINAL != 0 {
                    return Err(LoadError::Verify(format!(
                        "Cannot inherit from final class {}",
                        sc.java_name()
                    )));
                }
                self.check_extends(loader, module, &cf.name, sc)?;
                Some(sc)
            }
            None if cf.name == "java/lang/Object" => None,
            None => {
                return Err(LoadError::Format(format!(
                    "Invalid superclass index 0 in class file {}",
                    cf.name
                )));
            }
        };
        let mut interfaces = Vec::with_capacity(cf.interfaces.len());
        for i in &cf.interfaces {
            let ic = self.load(loader, i).map_err(missing_is_no_class_def)?;
            self.check_extends(loader, module, &cf.name, ic)?;
            if !ic.is_interface() {
                return Err(LoadError::Incompatible(format!(
                    "class {} can not implement {}, because it is not an interface",
                    cf.name.replace('/', "."),
                    ic.java_name()
                )));
            }
            interfaces.push(ic);
        }
        let mut all_interfaces: Vec<&'static Class> = super_class
            .map(|s| s.all_interfaces.clone())
            .unwrap_or_default();
        for i in &interfaces {
            for j in i.all_interfaces.iter().chain(std::iter::once(i)) {
                if !all_interfaces.iter().any(|k| std::ptr::eq(*k, *j)) {
                    all_interfaces.push(j);
                }
            }
        }
        let (mut fields, instance_size, ref_offsets, statics_size) =
            layout_fields(&cf, super_class);
        if module == Some(crate::api::MODULE) && super::pso::has_vm_words(&cf.name) {
            super::pso::check_api_layout(&cf.name, &fields, instance_size);
        }
        let pso = super::pso::is_pso_class(&cf.name, module, super_class).then(|| {
            let super_size = super_class
                .and_then(|s| s.pso.as_ref())
                .map_or(0, |l| l.size);
            // `PSO`'s own fields (its container and offset) live in the heap object.
            let placed = if cf.name == super::pso::PSO_CLASS {
                &mut fields[..0]
            } else {
                &mut fields[..]
            };
            Box::new(super::pso::place_fields(placed, super_size))
        });
        let static_ref_offsets = fields
            .iter()
            .filter(|f| f.is_static() && f.ty == BasicType::Ref)
            .map(|f| f.offset)
            .collect();
        // The JDK's own classes may use the ids kept back: the VM needs them to go on.
        let keep = if loader == LoaderId::BOOT || loader == LoaderId::PLATFORM {
            0
        } else {
            KEEP_FOR_VM
        };
        self.room_for(1, cf.methods.len(), keep)?;
        let owner = hidden
            .map(|h| h.owner)
            .or_else(|| user_loader_domain(loader));
        let charge = self
            .metadata
            .reserve(owner, metadata::estimate(cf.file_len))?;
        let cp_len = cf.constant_pool.len();
        let id = self.alloc_id();
        self.stats.defined(id.0, metadata::estimate(cf.file_len));
        let finalizable = super::has_finalizer(&cf, super_class);
        let c = Class {
            id,
            name: cf.name.as_str().into(),
            loader,
            access: cf.access_flags,
            kind: ClassKind::Instance,
            super_class,
            interfaces,
            supers: supers_of(super_class),
            all_interfaces,
            fields,
            instance_size,
            ref_offsets,
            static_ref_offsets,
            statics_size,
            methods: OnceLock::new(),
            dispatch: OnceLock::new(),
            vtable_base: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
            cp_cache: (0..cp_len).map(|_| OnceLock::new()).collect(),
            file: Some(cf),
            module: module.map(Into::into),
            linked: OnceLock::new(),
            hidden: hidden.is_some(),
            hidden_unit: hidden.filter(|h| !h.strong).map(|_| id),
            lambda: None,
            array_of: OnceLock::new(),
            dims: 0,
            api: crate::api::makes_api_class(module, super_class),
            pso,
            finalizable,
        };
        let c = self.publish(c, owner, charge);
        if self.load_log.load(std::sync::atomic::Ordering::Relaxed) {
            self.log_load(c, loader, module, hidden.is_some(), self.load_log_start);
        }
        self.attach_methods(c);
        self.link_dispatch(c);
        if module.is_some() || !self.verify_app {
            let _ = c.linked.set(Ok(()));
        }
        Ok(c)
    }

    /// `-verbose:class`'s line for class `c` just defined, as HotSpot's `-Xlog:class+load`
    /// (without its shared archive) prints it, with where the class came from.
    fn log_load(
        &self,
        c: &Class,
        loader: LoaderId,
        module: Option<&str>,
        hidden: bool,
        start: std::time::Instant,
    ) {
        let source = match module {
            _ if hidden => None,
            Some(m) => Some(format!("jrt:/{m}")),
            None if loader.is_app() => self.app_entry_url(loader, &c.name),
            None => Some("__JVM_DefineClass__".into()),
        };
        let source = source.unwrap_or_else(|| "__JVM_LookupDefineClass__".into());
        let t = start.elapsed().as_secs_f64();
        println!(
            "[{t:.3}s][info][class,load] {} source: {source}",
            c.java_name()
        );
    }

    /// The URL of the entry of application loader `app`'s class path that holds class `name`.
    pub fn app_entry_url(&self, app: LoaderId, name: &str) -> Option<String> {
        let path = format!("{name}.class");
        let holds = |e: &&ClassPathEntry| e.read(&path).is_some();
        if app == LoaderId::APP {
            return self
                .sources
                .classpath
                .read()
                .iter()
                .find(holds)
                .map(|e| e.url());
        }
        let entries = self.app_paths.read().get(&app.0).cloned()?;
        entries.iter().find(holds).map(|e| e.url())
    }

    /// Publishes a class built elsewhere (lambda proxies) and links it.
    /// `owner`: the domain that owns it (that of the class it was made for).
    pub fn publish_synthetic(
        &self,
        owner: Option<DomainId>,
        build: impl FnOnce(ClassId) -> Class,
        methods: impl FnOnce(&'static Class) -> Vec<Method>,
    ) -> Result<&'static Class, LoadError> {
        // Its methods come out of the ids kept back (a few, `synthetic_method`).
        self.room_for(1, 0, KEEP_FOR_VM / 2)?;
        let charge = self.metadata.reserve(owner, metadata::PER_CLASS)?;
        let c = self.publish(build(self.alloc_id()), owner, charge);
        let ms = methods(c);
        let _ = c.methods.set(ms);
        self.register_methods(c);
        self.link_dispatch(c);
        let _ = c.linked.set(Ok(()));
        Ok(c)
    }

    fn attach_methods(&self, c: &'static Class) {
        let Some(cf) = &c.file else { return };
        let mut ms = Vec::with_capacity(cf.methods.len());
        for (i, mi) in cf.methods.iter().enumerate() {
            let info = super::MethodSource::File(mi);
            ms.push(new_method(c, self.alloc_method_id(), i as u16, info));
        }
        let _ = c.methods.set(ms);
        for m in c.methods() {
            self.methods.set(m.id.raw(), m);
        }
    }

    /// An instance method of a synthetic class (a lambda proxy, a portal stub), its code or
    /// native still to be set.
    pub fn synthetic_method(
        &self,
        c: &'static Class,
        name: &str,
        desc: &str,
        access: u16,
        index: u16,
    ) -> Method {
        let (param_types, ret, slots) = parse_sig(desc);
        let numbered = self.alloc_method_id();
        Method {
            class: c,
            name: name.into(),
            descriptor: desc.into(),
            access,
            id: MethodId(numbered.id),
            generation: numbered.generation,
            index,
            arg_slots: slots + 1,
            param_types,
            ret,
            vtable_index: OnceLock::new(),
            direct: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
            info: super::MethodSource::Synthetic(Box::new(classfile::MethodInfo::new(
                access, name, desc,
            ))),
            prepared: OnceLock::new(),
            native: OnceLock::new(),
            intrinsic: None,
            mapped: None,
        }
    }

    /// Makes synthetic methods findable by id once attached to their class.
    pub fn register_methods(&self, c: &'static Class) {
        for m in c.methods() {
            self.methods.set(m.id.raw(), m);
        }
    }

    fn link_dispatch(&self, c: &'static Class) {
        let mut vtable: Vec<&'static Method> = c
            .super_class
            .map(|s| s.vtable().to_vec())
            .unwrap_or_default();
        if !c.is_interface() {
            for m in c.methods() {
                if m.is_static() || m.is_private() || &*m.name == "<init>" || &*m.name == "<clinit>"
                {
                    continue;
                }
                let slot = vtable.iter().position(|old| overrides(m, old));
                match slot {
                    Some(i) => {
                        vtable[i] = m;
                        let _ = m.vtable_index.set(i as u32);
                    }
                    None => {
                        let _ = m.vtable_index.set(vtable.len() as u32);
                        vtable.push(m);
                    }
                }
            }
        }
        let mut itable = FxHashMap::default();
        if !c.is_interface() && !c.is_array() {
            for iface in &c.all_interfaces {
                for im in iface.methods() {
                    if im.is_static() || im.is_private() || &*im.name == "<clinit>" {
                        continue;
                    }
                    let key = self.sig_id(&im.name, &im.descriptor);
                    if itable.contains_key(&key) {
                        continue;
                    }
                    if let Some(sel) = select_interface_method(c, &im.name, &im.descriptor) {
                        itable.insert(key, sel);
                    }
                }
            }
            // Object's public methods are also callable through interfaces.
            for m in &vtable {
                let key = self.sig_id(&m.name, &m.descriptor);
                itable.entry(key).or_insert(*m);
            }
        }
        // Before the dispatch is published: code assuming a method this class overrides
        // must be out of the way before any object of this class can exist.
        crate::code::deps::note_overrides(c, &vtable);
        c.set_dispatch(Dispatch { vtable, itable });
    }
}

/// The superclass chain (java/lang/Object first) of a class whose superclass is `sup`.
pub fn supers_of(sup: Option<&'static Class>) -> Vec<&'static Class> {
    match sup {
        Some(s) => {
            let mut v = s.supers.clone();
            v.push(s);
            v
        }
        None => Vec::new(),
    }
}

fn overrides(m: &Method, old: &Method) -> bool {
    if m.name != old.name || m.descriptor != old.descriptor || old.is_private() {
        return false;
    }
    if old.is_public() || old.is_protected() {
        return true;
    }
    // Package-private: only from the same runtime package.
    old.class.loader == m.class.loader && old.class.package() == m.class.package()
}

/// JVMS §5.4.6 selection for an interface method on class `c`.
pub fn select_interface_method(
    c: &'static Class,
    name: &str,
    desc: &str,
) -> Option<&'static Method> {
    let mut k = Some(c);
    while let Some(cl) = k {
        if let Some(m) = cl
            .methods()
            .iter()
            .find(|m| &*m.name == name && &*m.descriptor == desc && !m.is_static())
            && (!m.is_private() || std::ptr::eq(cl, c))
        {
            return Some(m);
        }
        k = cl.super_class;
    }
    maximally_specific(c, name, desc)
}

/// The maximally-specific superinterface method (non-abstract preferred).
pub fn maximally_specific(c: &'static Class, name: &str, desc: &str) -> Option<&'static Method> {
    let mut cands: Vec<&'static Method> = Vec::new();
    for i in &c.all_interfaces {
        if let Some(m) = i.methods().iter().find(|m| {
            &*m.name == name && &*m.descriptor == desc && !m.is_static() && !m.is_private()
        }) {
            cands.push(m);
        }
    }
    // Drop candidates whose interface is a superinterface of another candidate's interface.
    let specific: Vec<&'static Method> = cands
        .iter()
        .copied()
        .filter(|m| {
            !cands
                .iter()
                .any(|o| !std::ptr::eq(o.class, m.class) && o.class.is_subtype_of(m.class))
        })
        .collect();
    specific
        .iter()
        .copied()
        .find(|m| !m.is_abstract())
        .or_else(|| specific.first().copied())
}

fn new_method(c: &'static Class, id: Numbered, index: u16, info: super::MethodSource) -> Method {
    let (param_types, ret, arg_slots) = parse_sig(&info.descriptor);
    let is_static = info.access_flags & ACC_STATIC != 0;
    let intrinsic = if is_static {
        crate::intrinsics::pure_intrinsic(&c.name, &info.name, &info.descriptor)
    } else {
        None
    };
    // Only native instance methods are mapped, so engines look for a mapping on natives only.
    let native = info.access_flags & classfile::access::ACC_NATIVE != 0;
    let mapped = if is_static || !native {
        None
    } else {
        crate::mappings::method_primitive(
            &c.name,
            c.module.as_deref(),
            c.loader == LoaderId::BOOT,
            &info.name,
            &info.descriptor,
        )
    };
    Method {
        class: c,
        name: info.name.as_str().into(),
        descriptor: info.descriptor.as_str().into(),
        access: info.access_flags,
        id: MethodId(id.id),
        generation: id.generation,
        index,
        arg_slots: arg_slots + if is_static { 0 } else { 1 },
        param_types,
        ret,
        vtable_index: OnceLock::new(),
        direct: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
        info,
        prepared: OnceLock::new(),
        native: OnceLock::new(),
        intrinsic,
        mapped,
    }
}

/// Argument slots and return type of a method descriptor, without allocating.
pub fn sig_shape(desc: &str) -> (u16, BasicType) {
    let mut slots = 0;
    let ret = walk_sig(desc, |t| slots += t.slots() as u16);
    (slots, ret)
}

/// Calls `param` for each parameter type of `desc` and returns the return type.
fn walk_sig(desc: &str, mut param: impl FnMut(BasicType)) -> BasicType {
    let b = desc.as_bytes();
    let mut i = 1;
    while i < b.len() && b[i] != b')' {
        let start = i;
        while i < b.len() && b[i] == b'[' {
            i += 1;
        }
        if i < b.len() && b[i] == b'L' {
            while i < b.len() && b[i] != b';' {
                i += 1;
            }
        }
        i += 1;
        param(if b[start] == b'[' {
            BasicType::Ref
        } else {
            BasicType::from_descriptor_char(b[start])
        });
    }
    b.get(i + 1)
        .map_or(BasicType::Void, |&c| BasicType::from_descriptor_char(c))
}

/// Splits a (valid) method descriptor into parameter basic types, return type and slot count.
pub fn parse_sig(desc: &str) -> (Box<[BasicType]>, BasicType, u16) {
    let mut params = Vec::new();
    let mut slots = 0u16;
    let ret = walk_sig(desc, |t| {
        slots += t.slots() as u16;
        params.push(t);
    });
    (params.into(), ret, slots)
}

/// Computes instance and static field offsets. Returns (fields, instance size, instance
/// reference offsets, statics size).
fn layout_fields(
    cf: &ClassFile,
    super_class: Option<&'static Class>,
) -> (Vec<Field>, u32, Vec<u32>, u32) {
    let mut fields: Vec<Field> = cf
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| Field {
            name: f.name.as_str().into(),
            descriptor: f.descriptor.as_str().into(),
            access: f.access_flags,
            ty: BasicType::from_descriptor_char(f.descriptor.as_bytes()[0]),
            offset: 0,
            constant_value: f.constant_value,
            index: i as u16,
            place: None,
        })
        .collect();
    let mut inst_end = super_class.map_or(HEADER_SIZE as u32, |s| s.instance_size);
    let mut static_end = 0u32;
    let mut ref_offsets = super_class
        .map(|s| s.ref_offsets.clone())
        .unwrap_or_default();
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(fields[i].ty.size()));
    for i in order {
        let f = &mut fields[i];
        let size = f.ty.size() as u32;
        let end = if f.is_static() {
            &mut static_end
        } else {
            &mut inst_end
        };
        let off = end.next_multiple_of(size);
        f.offset = off;
        *end = off + size;
        if !f.is_static() && f.ty == BasicType::Ref {
            ref_offsets.push(off);
        }
    }
    let mut size = inst_end.next_multiple_of(8);
    if cf.name == "java/lang/Class" {
        // The VM slot holding the `*const Class` of a mirror follows the Java fields.
        size += 8;
    }
    if crate::api::SLOT_CLASSES.contains(&&*cf.name) {
        // The VM slot of an API capability class (a memory view, a domain, a service): see
        // `api::SLOT_CLASSES`. Classes of other loaders with these names get it too; only
        // the API's own are read (`api::vm_slot_offset`).
        size += 8;
    }
    if super::pso::has_vm_words(&cf.name) {
        // The VM words of a PSO or PSO array object: see `pso::VM_WORDS`.
        size += 8 * super::pso::VM_WORDS;
    }
    if cf.name == "java/lang/invoke/MemberName" {
        // VM slots of a resolved MemberName (vmtarget, vmindex): see native/jli.rs.
        size += 16;
    }
    (fields, size, ref_offsets, static_end.next_multiple_of(8))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sig_parsing() {
        let (p, r, s) = parse_sig("(IJ[Ljava/lang/String;DLjava/lang/Object;)V");
        assert_eq!(
            &*p,
            &[
                BasicType::Int,
                BasicType::Long,
                BasicType::Ref,
                BasicType::Double,
                BasicType::Ref
            ]
        );
        assert_eq!(r, BasicType::Void);
        assert_eq!(s, 7);
        let (p, r, s) = parse_sig("()[[I");
        assert!(p.is_empty());
        assert_eq!(r, BasicType::Ref);
        assert_eq!(s, 0);
    }

    /// A borrowed key finds what its owned pair was stored under, and only that.
    #[test]
    fn borrowed_keys_find_owned_pairs() {
        let mut sigs = SigIds::default();
        sigs.insert(("run".into(), "()V".into()), 7);
        sigs.insert(("ru".into(), "n()V".into()), 8);
        assert_eq!(sigs.get(&SigRef("run", "()V")), Some(&7));
        assert_eq!(sigs.get(&SigRef("ru", "n()V")), Some(&8));
        assert_eq!(sigs.get(&SigRef("run", "()I")), None);
        let mut names = hashbrown::HashMap::<_, u32, rustc_hash::FxBuildHasher>::default();
        names.insert((LoaderId::BOOT, Box::<str>::from("a/B")), 1);
        assert_eq!(names.get(&NameRef(LoaderId::BOOT, "a/B")), Some(&1));
        assert_eq!(names.get(&NameRef(LoaderId::PLATFORM, "a/B")), None);
    }
}

#[cfg(test)]
mod descriptor_tests {
    use crate::class::{param_descriptors, return_descriptor};
    #[test]
    fn splits_parameters_without_allocating() {
        let d = "(I[JLa/B;[[Ljava/lang/String;D)V";
        let v: Vec<&str> = param_descriptors(d).collect();
        assert_eq!(v, ["I", "[J", "La/B;", "[[Ljava/lang/String;", "D"]);
        assert_eq!(return_descriptor(d), "V");
        assert_eq!(param_descriptors("()V").count(), 0);
        assert_eq!(param_descriptors("(La/B").count(), 0);
    }
}
