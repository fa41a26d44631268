//! Class unloading in a full collection: which user-defined loaders of the collected domain
//! stay alive, and what the domain forgets of those that do not.
//!
//! As in HotSpot, a user-defined loader and its classes (`crate::class::unload` says which)
//! are one unit that lives as long as any of these is reachable: the loader object itself,
//! a mirror of one of its classes (a mirror refers to its loader), an object of one of its
//! classes, a frame running one of its methods, or a living loader that resolved one of its
//! classes (`ClassTable::loader_dependencies`). So in a full collection the domain's tables
//! entries for such a unit (its classes' mirrors with their statics, resolved string
//! constants and initialization errors; its call sites; the loader table's entry) are not
//! roots: they are traced once the unit is found alive ([`Liveness::close`], run to a fixpoint
//! with the copier's scanning, which notes the loaders of the objects it scans). Units never
//! found alive are dead: [`Liveness::finish`] clears what the domain holds of them and hands
//! their classes to the unloader (`crate::domain::unloading`), which takes them out of the
//! class table and frees them after a grace period.
//!
//! Loaders with no loader object in the domain's table (none yet) are kept. Young collections
//! keep everything (they never unload). Owns the liveness decision; the copier only notes
//! loaders, and the roots' walk (`roots`) asks this module which table entries are roots.

use rustc_hash::{FxHashMap, FxHashSet};

use super::ObjRef;
use super::collector::Copier;
use crate::class::LoaderId;
use crate::domain::Domain;
use crate::vm::Vm;

/// The user-defined loaders of one domain during a full collection.
pub struct Liveness<'d> {
    d: &'d Domain,
    vm: &'static Vm,
    /// Each user-defined loader with a loader object, and that object (before the copy).
    objects: FxHashMap<LoaderId, ObjRef>,
    /// Those found alive (what they keep has been traced).
    live: FxHashSet<LoaderId>,
}

impl<'d> Liveness<'d> {
    pub fn new(d: &'d Domain, vm: &'static Vm) -> Liveness<'d> {
        let objects = d
            .loaders
            .lock()
            .by_id
            .iter()
            .filter(|&(&id, _)| LoaderId(id).is_user())
            .map(|(&id, &o)| (LoaderId(id), o))
            .collect();
        Liveness {
            d,
            vm,
            objects,
            live: FxHashSet::default(),
        }
    }

    /// Whether the tables' entries for classes of `loader` wait for the loader to be found
    /// alive (else they are roots).
    pub fn is_weak(&self, loader: LoaderId) -> bool {
        self.objects.contains_key(&loader)
    }

    /// Scans from `at` and traces what every loader found alive keeps, until nothing more is
    /// found; returns where scanning ended.
    pub fn close(&mut self, cp: &mut Copier, mut at: usize) -> usize {
        loop {
            at = cp.scan(at);
            let mut found: Vec<LoaderId> = std::mem::take(&mut cp.loaders_seen);
            found.extend(
                self.objects
                    .iter()
                    .filter(|&(id, &o)| !self.live.contains(id) && cp.forwardee(o).is_some())
                    .map(|(&id, _)| id),
            );
            found.retain(|id| self.objects.contains_key(id) && !self.live.contains(id));
            if found.is_empty() {
                return at;
            }
            while let Some(id) = found.pop() {
                if self.live.insert(id) {
                    self.keep(cp, id, &mut found);
                }
            }
        }
    }

    /// Traces what live loader `id` keeps: its object, its classes' table entries, its call
    /// sites, and the loaders it depends on (pushed on `found`).
    fn keep(&self, cp: &mut Copier, id: LoaderId, found: &mut Vec<LoaderId>) {
        if let Some(&o) = self.objects.get(&id) {
            cp.forward(o);
        }
        let mut forward = |o: ObjRef| cp.forward(o);
        for c in self.vm.classes.classes_of_loader(id) {
            if let Some(st) = self.d.existing_class_state(c.id.0) {
                super::roots::map_class_state(st, &mut forward);
            }
        }
        for (site, loader) in self.d.call_sites.lock().values_mut() {
            if *loader == id {
                *site = forward(*site);
            }
        }
        found.extend(
            self.vm
                .classes
                .loader_dependencies(id)
                .into_iter()
                .filter(|dep| self.objects.contains_key(dep) && !self.live.contains(dep)),
        );
    }

    /// After the copy: the loader table points at the live loaders' new objects; the dead
    /// loaders' entries, class states and call sites are cleared and their classes handed to
    /// the unloader.
    pub fn finish(self, cp: &Copier) {
        let dead: FxHashSet<LoaderId> = self
            .objects
            .keys()
            .filter(|id| !self.live.contains(id))
            .copied()
            .collect();
        {
            let mut loaders = self.d.loaders.lock();
            for (&id, &o) in &self.objects {
                if dead.contains(&id) {
                    loaders.by_id.remove(&id.0);
                } else if let Some(n) = cp.forwardee(o) {
                    loaders.by_id.insert(id.0, n);
                }
            }
        }
        if dead.is_empty() {
            return;
        }
        for &id in &dead {
            for c in self.vm.classes.classes_of_loader(id) {
                if let Some(st) = self.d.existing_class_state(c.id.0) {
                    // SAFETY: the class is unreachable (no object, frame, mirror or living
                    // loader of it is left, see `Liveness`), so no thread of the domain
                    // (stopped for this collection) holds or will take a reference to its
                    // constants; no other domain has this class's state.
                    unsafe { st.forget() };
                }
            }
        }
        self.d
            .call_sites
            .lock()
            .retain(|_, (_, loader)| !dead.contains(loader));
        crate::domain::unloading::loaders_died(self.vm, dead);
    }
}
