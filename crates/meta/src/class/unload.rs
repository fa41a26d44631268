//! Class unloading: which classes each domain owns, and taking them out of the class table
//! when the domain has ended, or while it lives when a unit of them (`super::Unit`: a
//! user-defined loader's classes, a non-strong hidden class with its arrays and lambda proxies)
//! became unreachable there ([`ClassTable::unload_units`]).
//!
//! A class belongs to a domain when nothing outside that domain can reach it: the classes its
//! user-defined loaders (its private defining loader included) define, the hidden classes it
//! defines with any loader, lambda proxies of its classes, arrays of its classes. Classes of
//! the boot, platform and shared application loaders are shared by every domain (their code
//! and metadata are, as HotSpot's CDS shares them between processes) and stay.
//!
//! When a domain has ended, [`ClassTable::unload_domain`] takes its classes out of this
//! layer's tables (by name, by id, methods by id, its loaders) and hands them over as an
//! [`Unloaded`] set; the layers above drop what they cached about them (inline caches,
//! VarHandle plans, portal stubs, the portal copier's class map) and, after a grace period in
//! which every running thread has passed a safepoint, free them ([`Unloaded::free`]). That
//! sequence is `vm::domain::unloading`'s; this module owns the ownership records and this
//! layer's part, and touches no cache above it.

use parking_lot::Mutex;
use rustc_hash::{FxHashMap, FxHashSet};

use super::ids::Numbered;
use super::loader::{ClassTable, forget_user_loaders};
use super::{Class, ClassId, DomainId, LoaderId, Unit};

/// Which domain owns which classes.
#[derive(Default)]
pub struct Owners {
    inner: Mutex<OwnerTables>,
}

#[derive(Default)]
struct OwnerTables {
    by_domain: FxHashMap<DomainId, Vec<&'static Class>>,
    /// Owner by class id.
    of_class: FxHashMap<u32, DomainId>,
    /// The classes of each collectible unit: a user-defined loader's (theirs, their arrays,
    /// their lambda proxies, strong hidden classes defined with it), a non-strong hidden
    /// class's (it, its arrays and lambda proxies). They go together when it is unreachable.
    by_unit: FxHashMap<Unit, Vec<&'static Class>>,
    /// Loaders whose classes resolved classes of other user-defined loaders (a `loadClass`
    /// that returned another loader's class): each keeps those loaders alive.
    depends_on: FxHashMap<LoaderId, FxHashSet<LoaderId>>,
}

impl OwnerTables {
    /// Takes `classes` out of the records.
    fn forget(&mut self, classes: &[&'static Class]) {
        let mut domains = FxHashSet::default();
        for c in classes {
            domains.extend(self.of_class.remove(&c.id.0));
        }
        let ids: FxHashSet<u32> = classes.iter().map(|c| c.id.0).collect();
        for d in domains {
            if let Some(list) = self.by_domain.get_mut(&d) {
                list.retain(|k| !ids.contains(&k.id.0));
            }
        }
    }
}

impl ClassTable {
    /// Records that domain `domain` owns class `c` (when it is published: a class of one of
    /// its user-defined loaders, a hidden class it defined, a lambda proxy or array of a class
    /// it owns). A class has one owner: the first recorded stays.
    pub(super) fn adopt(&self, c: &'static Class, domain: DomainId) {
        let mut t = self.owners.inner.lock();
        if t.of_class.contains_key(&c.id.0) {
            return;
        }
        t.of_class.insert(c.id.0, domain);
        t.by_domain.entry(domain).or_default().push(c);
        if c.unit().is_collectible() {
            t.by_unit.entry(c.unit()).or_default().push(c);
        }
    }

    /// The classes of unit `unit` (see [`OwnerTables::by_unit`]).
    pub fn classes_of_unit(&self, unit: Unit) -> Vec<&'static Class> {
        let t = self.owners.inner.lock();
        t.by_unit.get(&unit).cloned().unwrap_or_default()
    }

    /// The non-strong hidden classes domain `domain` owns (each its own unit).
    pub fn hidden_units_of(&self, domain: DomainId) -> Vec<ClassId> {
        let t = self.owners.inner.lock();
        t.by_unit
            .keys()
            .filter_map(|u| match *u {
                Unit::Hidden(h) if t.of_class.get(&h.0) == Some(&domain) => Some(h),
                _ => None,
            })
            .collect()
    }

    /// The user-defined loaders whose classes `loader`'s classes use (they stay while it does).
    pub fn loader_dependencies(&self, loader: LoaderId) -> Vec<LoaderId> {
        let t = self.owners.inner.lock();
        t.depends_on
            .get(&loader)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Records that classes of user-defined loader `from` refer to class `to` (its `loadClass`
    /// returned it): `to`'s loader must live as long as `from`.
    pub(super) fn record_dependency(&self, from: LoaderId, to: &Class) {
        if from.is_user() && to.loader.is_user() && to.loader != from {
            let mut t = self.owners.inner.lock();
            t.depends_on.entry(from).or_default().insert(to.loader);
        }
    }

    /// The domain that owns class `c` (None: shared by every domain).
    pub fn owner_of(&self, c: &Class) -> Option<DomainId> {
        self.owners.inner.lock().of_class.get(&c.id.0).copied()
    }

    /// Runs `f` on every class in the table (unloaded ones are no longer in it).
    pub fn for_each_class(&self, mut f: impl FnMut(&'static Class)) {
        for id in 0..self.class_count() {
            if let Some(c) = self.class_by_id(id) {
                f(c);
            }
        }
    }

    /// Takes the classes of ended domain `domain` out of the class table: found by no name
    /// (its loaders' initiating entries go too), id or method id any more, its loaders
    /// forgotten. The caller must not call it while any thread of the domain can run.
    pub fn unload_domain(&self, domain: DomainId) -> Unloaded {
        let loaders = forget_user_loaders(|_, d| d == domain);
        let classes = {
            let mut t = self.owners.inner.lock();
            let classes = t.by_domain.remove(&domain).unwrap_or_default();
            t.forget(&classes);
            for c in &classes {
                t.by_unit.remove(&c.unit());
            }
            for l in &loaders {
                t.depends_on.remove(l);
            }
            classes
        };
        self.take_out(Unloaded::new(classes, loaders))
    }

    /// Takes the classes of units `dead` (of a living domain, unreachable: no object, frame,
    /// mirror or loader object of theirs is left, nor a living loader depending on them) out
    /// of the class table, as `unload_domain` does for a whole domain.
    pub fn unload_units(&self, dead: &FxHashSet<Unit>) -> Unloaded {
        let loaders = forget_user_loaders(|id, _| dead.contains(&Unit::Loader(id)));
        let classes = {
            let mut t = self.owners.inner.lock();
            let mut classes = Vec::new();
            for u in dead {
                classes.extend(t.by_unit.remove(u).unwrap_or_default());
            }
            for l in &loaders {
                t.depends_on.remove(l);
            }
            t.forget(&classes);
            classes
        };
        self.take_out(Unloaded::new(classes, loaders))
    }

    /// Takes `gone` out of the tables by name, id and method id.
    fn take_out(&self, gone: Unloaded) -> Unloaded {
        if gone.is_empty() && gone.loaders.is_empty() {
            return gone;
        }
        self.by_name
            .write()
            .retain(|(loader, _), c| !gone.has_loader(*loader) && !gone.contains(c));
        crate::code::deps::forget(&gone.classes);
        let mut references = self.references_loaded.lock();
        for c in &gone.classes {
            self.by_id.clear(c.id.0);
            for m in c.methods() {
                self.methods.clear(m.id.raw());
            }
            references.remove(&c.id.0);
        }
        gone
    }
}

/// Classes taken out of the class table, waiting to be freed.
#[derive(Default)]
pub struct Unloaded {
    classes: Vec<&'static Class>,
    /// Their ids (given back only when they are freed, so until then they tell these classes
    /// from every other).
    ids: FxHashSet<u32>,
    /// The user-defined loaders that went with them.
    loaders: FxHashSet<LoaderId>,
}

impl Unloaded {
    fn new(classes: Vec<&'static Class>, loaders: FxHashSet<LoaderId>) -> Unloaded {
        Unloaded {
            ids: classes.iter().map(|c| c.id.0).collect(),
            classes,
            loaders,
        }
    }

    /// Whether `loader` is one of the user-defined loaders that went with these classes.
    pub fn has_loader(&self, loader: LoaderId) -> bool {
        self.loaders.contains(&loader)
    }

    /// Whether `c` is one of these classes.
    pub fn contains(&self, c: &Class) -> bool {
        self.ids.contains(&c.id.0)
    }

    /// Whether class id `id` was one of these classes'.
    pub fn contains_id(&self, id: u32) -> bool {
        self.ids.contains(&id)
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// The classes (to describe them: they are no longer in the class table).
    pub fn classes(&self) -> impl Iterator<Item = &'static Class> + '_ {
        self.classes.iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Adds the classes of `other` to these.
    pub fn merge(&mut self, other: Unloaded) {
        self.ids.extend(other.ids);
        self.loaders.extend(other.loaders);
        self.classes.extend(other.classes);
    }

    /// Frees the classes' metadata (methods, prepared code, constant pools, class files) and
    /// gives their class and method ids back to `table`.
    ///
    /// # Safety
    /// Nothing may refer to these classes or their methods any more: every table entry that
    /// led to them is gone (this layer's by `unload_domain`, the caches above by their own
    /// forgetting, every domain's class state under their ids cleared), no object of them
    /// exists in any heap, and every thread that could have read such an entry before it went
    /// has since passed a safepoint (so holds none of what it read). Each class must be one
    /// `ClassTable::publish` leaked, freed once.
    pub unsafe fn free(self, table: &ClassTable) {
        let mut method_ids = Vec::new();
        for c in &self.classes {
            method_ids.extend(c.methods().iter().map(|m| Numbered {
                id: m.id.raw(),
                generation: m.generation,
            }));
        }
        let class_ids: Vec<Numbered> = self
            .classes
            .iter()
            .map(|c| Numbered {
                id: c.id.0,
                generation: 0,
            })
            .collect();
        for c in self.classes {
            // SAFETY: `publish` made `c` with `Box::leak`, and the caller guarantees it is
            // freed once with no reference to it left.
            drop(unsafe { Box::from_raw(c as *const Class as *mut Class) });
        }
        table.metadata.release(self.ids.iter().copied());
        table.stats.unloaded(self.ids.iter().copied());
        table.class_ids.give_back(class_ids);
        table.method_ids.give_back(method_ids);
    }
}
