//! Class unloading in a full collection: which collectible units of the collected domain stay
//! alive, and what the domain forgets of those that do not.
//!
//! As in HotSpot, a unit of classes (`crate::class::Unit`: a user-defined loader and its
//! classes, or a non-strong hidden class with its arrays and lambda proxies) lives as long as
//! any of these is reachable: the loader object itself, a mirror of one of its classes (a
//! mirror refers to its loader), an object of one of its classes, a frame running one of its
//! methods, or a living loader that resolved one of its classes
//! (`ClassTable::loader_dependencies`). So in a full collection the domain's tables entries
//! for such a unit (its classes' mirrors with their statics, resolved string constants and
//! initialization errors; its call sites; the loader table's entry) are not roots: they are
//! traced once the unit is found alive ([`Liveness::close`], run to a fixpoint with the
//! copier's scanning, which notes the units of the objects it scans). Units never found alive
//! are dead: [`Liveness::finish`] clears what the domain holds of them and hands their classes
//! to the unloader (`crate::domain::unloading`), which takes them out of the class table and
//! frees them after a grace period.
//!
//! Loaders with no loader object in the domain's table (none yet), and hidden classes with no
//! mirror yet, are kept. Young collections keep everything (they never unload). Owns the
//! liveness decision; the copier only notes units, and the roots' walk (`roots`) asks this
//! module which table entries are roots.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::class::{LoaderId, Unit};
use crate::domain::Domain;
use crate::heap::ObjRef;
use crate::heap::collector::Copier;
use crate::vm::Vm;

/// The collectible units of one domain during a full collection.
pub struct Liveness<'d> {
    d: &'d Domain,
    vm: &'static Vm,
    /// Each unit that may go, with the objects that prove it alive once reached (before the
    /// copy): a user-defined loader's loader object (every mirror of its classes refers to
    /// it); a hidden class's mirrors, of it, its arrays and its lambda proxies (which refer to
    /// a shared loader, proving nothing).
    objects: FxHashMap<Unit, Vec<ObjRef>>,
    /// Those found alive (what they keep has been traced).
    live: FxHashSet<Unit>,
}

impl<'d> Liveness<'d> {
    pub fn new(d: &'d Domain, vm: &'static Vm) -> Liveness<'d> {
        let mut objects: FxHashMap<Unit, Vec<ObjRef>> = d
            .loaders
            .lock()
            .by_id
            .iter()
            .filter(|&(&id, _)| LoaderId(id).is_user())
            .map(|(&id, &o)| (Unit::Loader(LoaderId(id)), vec![o]))
            .collect();
        for h in vm.classes.hidden_units_of(d.id) {
            // Without a mirror of the hidden class itself it is kept (being defined).
            if d.mirror_of(h).is_none() {
                continue;
            }
            let unit = Unit::Hidden(h);
            let mirrors = vm
                .classes
                .classes_of_unit(unit)
                .iter()
                .filter_map(|c| d.mirror_of(c.id))
                .collect();
            objects.insert(unit, mirrors);
        }
        Liveness {
            d,
            vm,
            objects,
            live: FxHashSet::default(),
        }
    }

    /// Whether the tables' entries for classes of `unit` wait for the unit to be found alive
    /// (else they are roots).
    pub fn is_weak(&self, unit: Unit) -> bool {
        self.objects.contains_key(&unit)
    }

    /// Scans from `at` and traces what every loader found alive keeps, until nothing more is
    /// found; returns where scanning ended.
    pub fn close(&mut self, cp: &mut Copier, mut at: usize) -> usize {
        loop {
            at = cp.scan(at);
            let mut found: Vec<Unit> = std::mem::take(&mut cp.loaders_seen);
            found.extend(
                self.objects
                    .iter()
                    .filter(|&(id, os)| {
                        !self.live.contains(id) && os.iter().any(|&o| cp.forwardee(o).is_some())
                    })
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

    /// Traces what live unit `id` keeps: its object, its classes' table entries, its call
    /// sites, and the loaders it depends on (pushed on `found`).
    fn keep(&self, cp: &mut Copier, id: Unit, found: &mut Vec<Unit>) {
        for &o in self.objects.get(&id).into_iter().flatten() {
            cp.forward(o);
        }
        let mut forward = |o: ObjRef| cp.forward(o);
        for c in self.vm.classes.classes_of_unit(id) {
            self.d.map_class_refs(c.id.0, &mut forward);
        }
        for (site, unit) in self.d.call_sites.lock().values_mut() {
            if *unit == id {
                *site = forward(*site);
            }
        }
        if let Unit::Loader(loader) = id {
            found.extend(
                self.vm
                    .classes
                    .loader_dependencies(loader)
                    .into_iter()
                    .map(Unit::Loader)
                    .filter(|dep| self.objects.contains_key(dep) && !self.live.contains(dep)),
            );
        }
    }

    /// After the copy: the loader table points at the live loaders' new objects; the dead
    /// units' loader entries, class states and call sites are cleared and their classes handed
    /// to the unloader.
    #[allow(unsafe_code)] // forgets the dead classes' per-domain state
    pub fn finish(self, cp: &Copier) {
        let dead: FxHashSet<Unit> = self
            .objects
            .keys()
            .filter(|id| !self.live.contains(id))
            .copied()
            .collect();
        {
            let mut loaders = self.d.loaders.lock();
            for (&unit, objects) in &self.objects {
                let (Unit::Loader(id), [o]) = (unit, objects.as_slice()) else {
                    continue;
                };
                if dead.contains(&unit) {
                    loaders.by_id.remove(&id.0);
                } else if let Some(n) = cp.forwardee(*o) {
                    loaders.by_id.insert(id.0, n);
                }
            }
        }
        if dead.is_empty() {
            return;
        }
        for &id in &dead {
            for c in self.vm.classes.classes_of_unit(id) {
                // SAFETY: the class is unreachable (no object, frame, mirror or living loader
                // of it is left, see `Liveness`), so no thread of the domain (stopped for this
                // collection) holds or will take a reference to its constants; no other domain
                // has this class's state.
                unsafe { self.d.forget_class(c.id) };
            }
        }
        self.d
            .call_sites
            .lock()
            .retain(|_, (_, unit)| !dead.contains(unit));
        crate::domain::unloading::units_died(self.vm, dead);
    }
}
