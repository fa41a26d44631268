//! Class loading through user-defined class loaders (JVMS §5.3.2).
//!
//! The VM loads the classes of the JDK's image and of the class path itself: the boot,
//! platform and application loaders' Java `loadClass` would find the same classes. A
//! user-defined loader's classes come from its Java `loadClass`, which only a thread can run,
//! while symbolic references are resolved without one (the class table is shared, and
//! resolution happens inside the interpreter and the verifier). So:
//! - defining a class in a user-defined loader first loads its superclass and interfaces
//!   through that loader, and rejects a second definition of a name;
//! - before a class of a user-defined loader is linked (and before reflection looks into it),
//!   every class its constant pool and member descriptors name is loaded through its loader —
//!   eager loading, which JVMS §5.4 allows. A name that fails to load is skipped: the
//!   reference fails with NoClassDefFoundError when it is resolved, as it would lazily;
//! - each class a loader's `loadClass` returns is recorded with that loader as an initiating
//!   loader, where resolution (`ClassTable::load`) finds it.
//!
//! Eager loading leaves the `java.*` names to the VM: only the boot and platform loaders may
//! define them, so a loader can but delegate. Other names, the JDK's included, are asked for:
//! a loader may define its own class in a JDK package (the JDK's `sun.reflect.misc.MethodUtil`
//! defines its `Trampoline`, which the reflection accessors it gets then call).

use crate::class::loader::{LoadError, ReferenceLoading};
use crate::class::{Class, LoaderId};
use crate::heap::from_slot;
use crate::thread::{JResult, JThread, Thrown};

impl JThread {
    /// Class `name` (internal form or array descriptor) as loader `loader` sees it: for a
    /// user-defined loader, the class its `loadClass` returns (None if it returns null or a
    /// class of another name; its exceptions propagate). Other loaders load through the VM.
    pub fn load_with_loader(
        &mut self,
        loader: LoaderId,
        name: &str,
    ) -> JResult<Option<&'static Class>> {
        if let Some(c) = self.vm.classes.find_loaded(loader, name) {
            return Ok(Some(c));
        }
        if !loader.is_user() {
            return match self.vm.classes.load(loader, name) {
                Ok(c) => Ok(Some(c)),
                Err(LoadError::NotFound(_)) => Ok(None),
                Err(e) => Err(self.throw_resolve(e.into())),
            };
        }
        if name.starts_with('[') {
            // An array class: its element class through the loader, then the array classes.
            let elem = name.trim_start_matches('[');
            let dims = name.len() - elem.len();
            let Some(inner) = elem.strip_prefix('L').and_then(|e| e.strip_suffix(';')) else {
                return Ok(self.vm.classes.load(loader, name).ok());
            };
            let Some(mut c) = self.load_with_loader(loader, inner)? else {
                return Ok(None);
            };
            for _ in 0..dims {
                c = self.array_class_of(c)?;
            }
            return Ok(Some(c));
        }
        let Some(loader_obj) = self.domain.loader_object(loader) else {
            return Ok(None);
        };
        let jname = self.new_string(&name.replace('/', "."))?;
        let r = self.call_virtual(
            loader_obj,
            "loadClass",
            "(Ljava/lang/String;)Ljava/lang/Class;",
            &[jname.slot()],
        )?;
        let Some(mirror) = from_slot(r) else {
            return Ok(None);
        };
        let c = self.class_of_mirror(mirror);
        if *c.name != *name {
            return Ok(None);
        }
        self.vm.classes.record_initiated(loader, name, c);
        Ok(Some(c))
    }

    /// Loads, through its loader, every class that class `c` of a user-defined loader names
    /// (once per class; see the module comment). Loading failures are skipped; other
    /// exceptions (out of memory, stack overflow) propagate.
    pub fn load_references(&mut self, c: &'static Class) -> JResult<()> {
        if !c.loader.is_user() || c.file.is_none() {
            return Ok(());
        }
        let table = &self.vm.classes;
        loop {
            match table.begin_reference_loading(c, self.id) {
                ReferenceLoading::Start => break,
                ReferenceLoading::Done => return Ok(()),
                ReferenceLoading::Busy => self.blocking(|| table.wait_reference_loading(c)),
            }
        }
        let r = self.load_names(c);
        table.end_reference_loading(c);
        r
    }

    fn load_names(&mut self, c: &'static Class) -> JResult<()> {
        for n in referenced_class_names(c) {
            if *n == *c.name
                || self.vm.classes.find_loaded(c.loader, &n).is_some()
                || is_java_class(&n)
            {
                continue;
            }
            self.load_skipping_failures(c.loader, &n)?;
        }
        Ok(())
    }

    /// `load_with_loader`, turning ClassNotFoundException and LinkageError into "not loaded".
    fn load_skipping_failures(
        &mut self,
        loader: LoaderId,
        name: &str,
    ) -> JResult<Option<&'static Class>> {
        match self.load_with_loader(loader, name) {
            Ok(c) => Ok(c),
            Err(Thrown) => {
                let Some(e) = self.exception else {
                    return Err(Thrown);
                };
                let skippable = ["java/lang/ClassNotFoundException", "java/lang/LinkageError"]
                    .iter()
                    .any(|k| {
                        self.vm
                            .classes
                            .find_loaded(LoaderId::BOOT, k)
                            .is_some_and(|k| e.class().is_subtype_of(k))
                    });
                if !skippable {
                    return Err(Thrown);
                }
                self.exception = None;
                Ok(None)
            }
        }
    }

    /// Defines `cf` in loader `loader` from ClassLoader.defineClass: for a user-defined loader,
    /// rejects a name it already defined or initiated (LinkageError, as HotSpot reports it)
    /// and loads the superclass and interfaces through it first.
    pub fn define_with_loader(
        &mut self,
        loader: LoaderId,
        expected: Option<&str>,
        bytes: &[u8],
    ) -> JResult<&'static Class> {
        self.define_with_loader_in(loader, expected, bytes, None)
    }

    /// As [`JThread::define_with_loader`], the class in named module `module` (the JDK's
    /// dynamic modules) if given. When class or method ids have run out, the domain is
    /// collected in full (unloading the classes of loaders nothing reaches), the unloader is
    /// given time to free their ids, and the definition is tried once more before it is
    /// `OutOfMemoryError: Metaspace`: HotSpot's "Metadata GC Threshold" collection.
    pub fn define_with_loader_in(
        &mut self,
        loader: LoaderId,
        expected: Option<&str>,
        bytes: &[u8],
        module: Option<&str>,
    ) -> JResult<&'static Class> {
        if let Ok(c) = self.define_attempt(loader, expected, bytes, module)? {
            return Ok(c);
        }
        crate::gc::collect(self, crate::gc::Collection::Full, "Metadata GC Threshold");
        self.blocking(|| crate::domain::unloading::wait_until_idle(METADATA_GC_WAIT));
        match self.define_attempt(loader, expected, bytes, module)? {
            Ok(c) => Ok(c),
            Err(OutOfIds) => {
                Err(self.throw_resolve(crate::class::loader::LoadError::OutOfIds.into()))
            }
        }
    }

    /// One try of [`Self::define_with_loader_in`]: the class, or `OutOfIds` (nothing thrown)
    /// when the class table has no ids left for it.
    fn define_attempt(
        &mut self,
        loader: LoaderId,
        expected: Option<&str>,
        bytes: &[u8],
        module: Option<&str>,
    ) -> JResult<Result<&'static Class, OutOfIds>> {
        let cf = match crate::class::loader::ClassTable::parse(bytes, expected) {
            Ok(cf) => cf,
            Err(e) => return Err(self.throw_resolve(e.into())),
        };
        // A wrong name is reported first (by define_parsed).
        let right_name = expected.is_none_or(|e| e == cf.name);
        if loader.is_user() && !crate::class::loader::has_loader_name(loader) {
            let name = self.loader_name_and_id(loader);
            crate::class::loader::set_loader_name(loader, &name);
        }
        if loader.is_user() && right_name {
            if self.vm.classes.find_loaded(loader, &cf.name).is_some() {
                let msg = format!(
                    "loader {} attempted duplicate class definition for {}.",
                    crate::class::loader::loader_name(loader),
                    cf.name.replace('/', ".")
                );
                return Err(self.throw_new("java/lang/LinkageError", Some(&msg)));
            }
            let supers: Vec<String> = cf
                .super_name
                .iter()
                .chain(cf.interfaces.iter())
                .cloned()
                .collect();
            for s in supers {
                if self.vm.classes.find_loaded(loader, &s).is_none() && !is_java_class(&s) {
                    self.load_skipping_failures(loader, &s)?;
                }
            }
        }
        match self.vm.classes.define_parsed(loader, expected, cf, module) {
            Ok(c) => Ok(Ok(c)),
            Err(crate::class::loader::LoadError::OutOfIds) => Ok(Err(OutOfIds)),
            Err(e) => Err(self.throw_resolve(e.into())),
        }
    }

    /// How HotSpot names a loader in messages: its `nameAndId` ("'app'", "'name' @1b6d3586").
    fn loader_name_and_id(&mut self, loader: LoaderId) -> String {
        let Some(l) = self.domain.loader_object(loader) else {
            return "'bootstrap'".to_string();
        };
        use crate::jdk::JdkClass;
        let nid = crate::jdk::ClassLoader::of(l.class())
            .ok()
            .and_then(|f| l.read_ref(f.name_and_id));
        match nid {
            Some(s) => self.rust_string(s),
            None => l.class().java_name(),
        }
    }
}

/// Whether `name` is in a `java.*` package (see the module comment).
fn is_java_class(name: &str) -> bool {
    name.starts_with("java/")
}

/// The classes class `c` names: its constant pool's class entries (array element types for
/// arrays) and the class types in the descriptors of its member references, method types,
/// call sites and own members.
pub fn referenced_class_names(c: &Class) -> Vec<String> {
    use classfile::Constant as K;
    let Some(cf) = &c.file else { return Vec::new() };
    let cp = &cf.constant_pool;
    let mut out: Vec<String> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut add = |n: &str| {
        // Array names and descriptors stand for their element class (none for primitives).
        let n = if n.starts_with('[') || n.ends_with(';') {
            match n
                .trim_start_matches('[')
                .strip_prefix('L')
                .and_then(|e| e.strip_suffix(';'))
            {
                Some(e) => e,
                None => return,
            }
        } else {
            n
        };
        if seen.insert(n.to_string()) {
            out.push(n.to_string());
        }
    };
    // In a descriptor, each class type runs from an 'L' (no primitive is written 'L') to ';'.
    let descriptor = |d: &str, add: &mut dyn FnMut(&str)| {
        for part in d.split(';') {
            if let Some(i) = part.find('L') {
                add(&part[i + 1..]);
            }
        }
    };
    for i in 1..cp.len() as u16 {
        match cp.get(i) {
            Some(K::Class { .. }) => {
                if let Some(n) = cp.class_name(i) {
                    add(n);
                }
            }
            Some(K::NameAndType {
                descriptor_index, ..
            })
            | Some(K::MethodType { descriptor_index }) => {
                if let Some(d) = cp.utf8(*descriptor_index) {
                    descriptor(d, &mut add);
                }
            }
            _ => {}
        }
    }
    for d in cf
        .fields
        .iter()
        .map(|f| &f.descriptor)
        .chain(cf.methods.iter().map(|m| &m.descriptor))
    {
        descriptor(d, &mut add);
    }
    out
}

/// The class table had no ids left for a definition.
struct OutOfIds;

/// How long a definition that found no ids waits for the unloader to free those of the
/// classes a collection found unreachable.
const METADATA_GC_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
