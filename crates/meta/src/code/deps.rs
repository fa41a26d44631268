//! What compiled code assumes of the class hierarchy, and the undoing of code whose
//! assumption a newly linked class breaks (class-hierarchy analysis; HotSpot's
//! "dependencies").
//!
//! A compile may call a virtual method directly, or inline it, when no loaded class
//! overrides it: every receiver then selects that method. The compile records the assumption
//! against the method ([`assume_not_overridden`]) in its [`Assumptions`], one per compile.
//! Linking a class whose vtable replaces an inherited method ([`note_overrides`], called by the
//! loader before the class's dispatch is published) marks the method overridden and the
//! assumptions that named it broken; the code carrying them is taken out of its method's
//! [`Tier`] (deoptimized: no new call or loop entry reaches it, and the method is interpreted
//! until compiled again).
//!
//! Compiled code already running reads its assumptions' mark ([`Assumptions::broken_addr`])
//! at each call it made on an assumption, before making it, and leaves for the interpreter
//! when it is set: its frame continues interpreted from there. The mark is set before the
//! overriding class's dispatch is published, so a thread that holds an object of that class
//! (made after the class was linked) has the mark in view when it reads it: x86-64 keeps loads
//! in order, and compiled code reads the mark after the receiver.
//!
//! Owns the overridden set and the dependents table; must not know how code is generated or
//! how the VM runs it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering};

use parking_lot::Mutex;
use rustc_hash::{FxHashMap, FxHashSet};

use super::compiled::{Compiled, Tier};
use crate::class::{Class, Method};

/// The assumptions one compile of `method` made, and whether a class broke them since.
/// Leaked when made: compiled code reads the mark by its address for as long as it runs.
#[derive(Debug)]
pub struct Assumptions {
    broken: AtomicU8,
    /// Calls of the code that missed their site's profile (a receiver of a class the site
    /// does not check for): see [`Assumptions::missed`].
    misses: AtomicU32,
    pub method: &'static Method,
    /// The tier the code carrying these assumptions is installed in.
    tier: &'static Tier,
}

impl Assumptions {
    /// Fresh assumptions for a compile of `method`, whose tier is `tier`.
    pub fn new(method: &'static Method, tier: &'static Tier) -> &'static Assumptions {
        Box::leak(Box::new(Assumptions {
            broken: AtomicU8::new(0),
            misses: AtomicU32::new(0),
            method,
            tier,
        }))
    }

    /// The address of the byte compiled code reads: non-zero once broken.
    pub fn broken_addr(&self) -> usize {
        &self.broken as *const AtomicU8 as usize
    }

    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire) != 0
    }

    /// Counts a call of the code that missed its site's profile; true when that makes
    /// [`MISSES_BEFORE_RECOMPILE`]: the profile went stale, and the code should be taken out
    /// ([`take_out_stale`]) to be compiled again from what the method sees now. A plain load
    /// and store, as the tier's counter (a lost update only delays it).
    pub fn missed(&self) -> bool {
        let now = self.misses.load(Ordering::Relaxed).saturating_add(1);
        self.misses.store(now, Ordering::Relaxed);
        now == MISSES_BEFORE_RECOMPILE
    }
}

/// How many calls that missed their site's profile take a method's code out (HotSpot
/// deoptimizes at the first, an "uncommon trap"; a few more keep a rare class from costing
/// a recompilation).
pub const MISSES_BEFORE_RECOMPILE: u32 = 1000;

#[derive(Default)]
struct Table {
    /// Methods some loaded class overrides (by address).
    overridden: FxHashSet<usize>,
    /// The assumptions that each method (by address) is not overridden.
    dependents: FxHashMap<usize, Vec<&'static Assumptions>>,
}

static TABLE: Mutex<Option<Table>> = Mutex::new(None);

/// Called for each method whose code is taken out (`-XX:+PrintCompilation`'s "made not
/// entrant"); set once by the VM.
static ON_DEOPTIMIZE: OnceLock<fn(&'static Method)> = OnceLock::new();

/// Sets what is called when a method's code is taken out.
pub fn on_deoptimize(f: fn(&'static Method)) {
    let _ = ON_DEOPTIMIZE.set(f);
}

fn with_table<R>(f: impl FnOnce(&mut Table) -> R) -> R {
    f(TABLE.lock().get_or_insert_with(Table::default))
}

/// Whether `m` may be taken as the method every receiver of its class selects: a concrete
/// class method with a vtable slot that no loaded class overrides. If so, `a` now depends on
/// it staying so.
pub fn assume_not_overridden(m: &'static Method, a: &'static Assumptions) -> bool {
    if m.is_abstract() || m.class.is_interface() || m.vtable_index.get().is_none() {
        return false;
    }
    let key = m as *const Method as usize;
    with_table(|t| {
        if t.overridden.contains(&key) {
            return false;
        }
        let list = t.dependents.entry(key).or_default();
        if !list.iter().any(|d| std::ptr::eq(*d, a)) {
            list.retain(|d| !d.is_broken());
            list.push(a);
        }
        true
    })
}

/// Records that class `c` (being linked, its vtable `vtable` not yet published) overrides
/// every method of its superclass's vtable that its own replaces, and breaks the assumptions
/// that they were not.
pub fn note_overrides(c: &Class, vtable: &[&'static Method]) {
    // Only the direct superclass's entries need comparing: a method further up that differs
    // from the superclass's entry was marked when the class replacing it was linked.
    let Some(sup) = c.super_class else { return };
    let replaced: Vec<&'static Method> = sup
        .vtable()
        .iter()
        .zip(vtable)
        .filter(|(old, mine)| !std::ptr::eq(**old, **mine))
        .map(|(old, _)| *old)
        .collect();
    if replaced.is_empty() {
        return;
    }
    let broken = with_table(|t| {
        let mut broken = Vec::new();
        for m in replaced {
            let key = m as *const Method as usize;
            if t.overridden.insert(key)
                && let Some(list) = t.dependents.remove(&key)
            {
                broken.extend(list);
            }
        }
        for a in &broken {
            a.broken.store(1, Ordering::Release);
            deoptimize(a);
        }
        broken
    });
    if let Some(f) = ON_DEOPTIMIZE.get() {
        for a in broken {
            f(a.method);
        }
    }
}

/// Takes the code carrying `a` (broken) out of its tier, if it is the installed code.
fn deoptimize(a: &'static Assumptions) -> bool {
    a.tier
        .take_out(|c| c.assumptions.is_some_and(|b| std::ptr::eq(a, b)))
}

/// Installs `code` in `tier` unless the assumptions it carries were broken while it was
/// compiled (then the method goes back to being interpreted); true if installed. Done under
/// the table's lock, so no class breaks them between the check and the installation.
pub fn install(tier: &Tier, code: Compiled) -> bool {
    let Some(a) = code.assumptions else {
        tier.install(code);
        return true;
    };
    with_table(|_| {
        if a.is_broken() {
            tier.discard();
            false
        } else {
            tier.install(code);
            true
        }
    })
}

/// Takes the code carrying `a` out of its tier if it is still the installed code (its
/// profile went stale); true if it was. Under the table's lock, as every taking out and
/// installation.
pub fn take_out_stale(a: &'static Assumptions) -> bool {
    with_table(|_| deoptimize(a))
}

/// Forgets `classes`, being unloaded: their methods, and the assumptions of their code.
pub fn forget(classes: &[&'static Class]) {
    let ids: FxHashSet<u32> = classes.iter().map(|c| c.id.0).collect();
    with_table(|t| {
        for c in classes {
            for m in c.methods() {
                let key = m as *const Method as usize;
                t.overridden.remove(&key);
                t.dependents.remove(&key);
            }
        }
        t.dependents.retain(|_, list| {
            list.retain(|a| !ids.contains(&a.method.class.id.0));
            !list.is_empty()
        });
    });
}
