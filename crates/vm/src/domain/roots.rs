//! A domain's references outside objects and frames: what its tables hold, for the collector.
//!
//! Owns the list of the domain's tables that hold references (class states with their mirrors
//! and string constants, interned strings, modules, call sites, loaders, exported objects, the
//! preallocated errors...) and the tables keyed by object address. The collector
//! (`gc`) and a domain made from a template (`image`) go through these methods
//! instead of naming the tables, so a table added to [`Domain`] is added here only. Must not
//! collect or move anything itself.

use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::FxHashMap;

use super::{ClassState, Domain};
use crate::class::{LoaderId, Unit};
use crate::heap::{ObjRef, from_slot};

/// Replaces a reference held in an Option by `f` of it.
fn map_opt(o: &mut Option<ObjRef>, f: &mut dyn FnMut(ObjRef) -> ObjRef) {
    if let Some(x) = *o {
        *o = Some(f(x));
    }
}

/// Replaces a reference held in an atomic slot (0: none) by `f` of it.
fn map_slot(a: &AtomicU64, f: &mut dyn FnMut(ObjRef) -> ObjRef) {
    if let Some(o) = from_slot(a.load(Ordering::Relaxed)) {
        a.store(f(o).slot(), Ordering::Relaxed);
    }
}

impl ClassState {
    /// Replaces the references of this class state (its resolved string constants; its
    /// initialization error) with `f` of them.
    fn map_refs(&self, f: &mut dyn FnMut(ObjRef) -> ObjRef) {
        if let Some(consts) = self.cp_strings.get() {
            consts.iter().for_each(|c| map_slot(c, f));
        }
        map_opt(&mut self.init_error.lock(), f);
        map_opt(&mut self.protection_domain.lock(), f);
    }
}

impl Domain {
    /// Replaces the references the domain keeps for class `id`, if it has a state here (its
    /// mirror, which holds the statics, and its state's) with `f` of them.
    pub fn map_class_refs(&self, id: u32, f: &mut dyn FnMut(ObjRef) -> ObjRef) {
        if let Some(st) = self.existing_class_state(id) {
            st.map_refs(f);
            if let Some(mirror) = self.mirror_cell(id) {
                map_slot(mirror, f);
            }
        }
    }

    /// Replaces every reference the domain's tables hold, except in the address-keyed ones
    /// (threads, memory objects, portals: see [`Domain::rekey_tables`]), with `f` of it,
    /// leaving out the entries of units `waits` says are not known to be alive yet (their
    /// classes' states, call sites and loaders: a collection that unloads finds them later).
    /// `classes` is the number of class ids in use.
    pub fn map_table_refs(
        &self,
        classes: u32,
        f: &mut dyn FnMut(ObjRef) -> ObjRef,
        waits: &dyn Fn(u32) -> bool,
        unit_waits: &dyn Fn(Unit) -> bool,
    ) {
        for id in 0..classes {
            if !waits(id) {
                self.map_class_refs(id, f);
            }
        }
        let mut opt = |o: &mut Option<ObjRef>| map_opt(o, f);
        opt(&mut self.boot_unnamed_module.lock());
        opt(&mut self.pending_refs.lock());
        opt(&mut self.oom_error.lock());
        opt(&mut self.death.lock());
        opt(&mut self.main_group.lock());
        for v in self.strings.lock().values_mut() {
            *v = f(*v);
        }
        for v in self.modules.lock().values_mut() {
            *v = f(*v);
        }
        for (v, unit) in self.call_sites.lock().values_mut() {
            if !unit_waits(*unit) {
                *v = f(*v);
            }
        }
        for (&id, v) in self.loaders.lock().by_id.iter_mut() {
            if !unit_waits(Unit::Loader(LoaderId(id))) {
                *v = f(*v);
            }
        }
        for v in self.exported.lock().values_mut() {
            *v = f(*v);
        }
    }

    /// The Thread objects of the domain's live threads (roots; their table is keyed by them).
    pub fn thread_objects(&self) -> Vec<ObjRef> {
        self.threads
            .lock()
            .keys()
            .map(|&k| ObjRef::from_addr(k))
            .collect()
    }

    /// Gives the tables keyed by object address their new keys after a collection moved the
    /// objects (`moved`: the new place, None for a dead object) and drops dead objects' entries
    /// (a dead memory object's view, and with the last view its memory, is released; a dead
    /// portal releases its service). Must run before the evacuated space is reused.
    pub fn rekey_tables(&self, moved: &dyn Fn(ObjRef) -> Option<ObjRef>) {
        rekey(moved, &mut self.threads.lock());
        let dead_views = rekey(moved, &mut self.memory_objects.lock());
        // Dropped once the tables are unlocked: a dead portal releases its service, which
        // locks other tables.
        let dead_portals = rekey(moved, &mut self.portals.lock());
        drop((dead_views, dead_portals));
        let mut loaders = self.loaders.lock();
        let by_id: Vec<(u32, ObjRef)> = loaders.by_id.iter().map(|(k, v)| (*k, *v)).collect();
        loaders.by_obj.clear();
        for (id, o) in by_id {
            if id == self.define_loader.0 && self.define_loader != self.app_loader {
                continue; // found by id only (see `Domain::define_loader`)
            }
            loaders.by_obj.insert(o.addr(), LoaderId(id));
        }
    }
}

/// Re-keys a table by object address; returns the values of dead objects' entries.
fn rekey<V>(moved: &dyn Fn(ObjRef) -> Option<ObjRef>, table: &mut FxHashMap<usize, V>) -> Vec<V> {
    let mut dead = Vec::new();
    for (k, v) in std::mem::take(table) {
        match moved(ObjRef::from_addr(k)) {
            Some(n) => {
                table.insert(n.addr(), v);
            }
            None => dead.push(v),
        }
    }
    dead
}
