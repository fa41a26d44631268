//! The copying collector's core: Cheney-style evacuation of one domain's live objects from
//! the ranges a collection evacuates (the nursery for a young collection; the nursery and the
//! old semispace for a full one) into to-space, with forwarding pointers in the class word.
//!
//! This module knows object layout (sizes, where references are) and how to copy; it does not
//! know where roots come from (that is the runtime's `gc` module, a layer above) and never
//! runs Java code. It is the only code that moves objects. `java.lang.ref.Reference` objects are discovered while their
//! holders are scanned: their referent is not traced, so that the roots module can decide to
//! keep it (soft references), clear it, or update it if the referent survived anyway.

use super::ObjRef;
use base::layout::{ARRAY_BASE, ARRAY_LENGTH};
use meta::class::{BasicType, Class, LoaderId, Unit};

const FORWARDED: usize = 1;

/// What the copier needs to know about the VM's classes.
pub struct Layouts {
    /// java.lang.Class: instances are mirrors whose size depends on the class they mirror.
    pub class_class: &'static Class,
    /// Offset of a mirror's `*const Class` VM slot, and of its static fields.
    pub mirror_slot: usize,
    pub statics_base: usize,
    /// java.lang.ref.Reference and its `referent` offset (None before it is loaded).
    pub reference: Option<(&'static Class, usize)>,
}

impl Layouts {
    #[inline]
    fn is_reference(&self, c: &'static Class) -> bool {
        self.reference.is_some_and(|(r, _)| {
            c.supers
                .get(r.supers.len())
                .is_some_and(|s| std::ptr::eq(*s, r))
        })
    }
}

/// The size in bytes (8-aligned) of object `o`, given its class.
#[inline]
pub fn object_size(l: &Layouts, o: ObjRef, c: &'static Class) -> usize {
    if c.is_array() {
        let len = o.read::<u32>(ARRAY_LENGTH) as usize;
        return (ARRAY_BASE + len * c.array_elem().size()).next_multiple_of(8);
    }
    if std::ptr::eq(c, l.class_class) {
        let mirrored = o.read::<u64>(l.mirror_slot) as *const Class;
        let statics = if mirrored.is_null() {
            0
        } else {
            // SAFETY: mirrors are created only by `JThread::create_mirror`, which stores a
            // pointer to a published Class in the VM slot; a class is freed only after every
            // domain whose heap could hold its mirror has ended (`class::unload`), and an
            // ended domain's heap is never collected again.
            unsafe { (*mirrored).statics_size as usize }
        };
        return (l.statics_base + statics).next_multiple_of(8);
    }
    (c.instance_size as usize).next_multiple_of(8)
}

pub struct Copier<'a> {
    l: &'a Layouts,
    from: [(usize, usize); 2],
    to_start: usize,
    to_top: usize,
    to_end: usize,
    /// Reference objects (in to-space) whose referent was not traced.
    pub discovered: Vec<ObjRef>,
    pub copied_objects: usize,
    /// Large objects (never moved): all of them (none in a young collection, which keeps them
    /// all), those found live, those left to scan.
    large: rustc_hash::FxHashSet<usize>,
    pub large_live: rustc_hash::FxHashSet<usize>,
    large_queue: Vec<ObjRef>,
    /// Whether scanning notes the collectible units of the objects it scans (a full
    /// collection that unloads classes: an object keeps its class's loader, or its non-strong
    /// hidden class, alive).
    pub track_loaders: bool,
    /// Collectible units of objects scanned since the caller last took them (repeats left in;
    /// a run of objects of one unit is noted once).
    pub loaders_seen: Vec<Unit>,
    last_unit: Unit,
}

impl<'a> Copier<'a> {
    /// A copier evacuating `plan.from` into `plan.to`; `large` are the large objects this
    /// collection may free.
    pub fn new(
        l: &'a Layouts,
        plan: &super::Plan,
        large: rustc_hash::FxHashSet<usize>,
    ) -> Copier<'a> {
        Copier {
            l,
            from: plan.from,
            to_start: plan.to.0,
            to_top: plan.to.0,
            to_end: plan.to.1,
            discovered: Vec::new(),
            copied_objects: 0,
            large,
            large_live: rustc_hash::FxHashSet::default(),
            large_queue: Vec::new(),
            track_loaders: false,
            loaders_seen: Vec::new(),
            last_unit: Unit::Loader(LoaderId::BOOT),
        }
    }

    #[inline]
    pub fn in_from_space(&self, addr: usize) -> bool {
        self.from.iter().any(|&(s, e)| addr >= s && addr < e)
    }

    /// The end of what was copied so far (a young collection's new old-space top).
    #[inline]
    pub fn to_top(&self) -> usize {
        self.to_top
    }

    /// Bytes copied so far.
    #[inline]
    pub fn live_bytes(&self) -> usize {
        self.to_top - self.to_start
    }

    /// If `o` was evacuated or marked (or is outside the collected heap), its current address.
    #[inline]
    pub fn forwardee(&self, o: ObjRef) -> Option<ObjRef> {
        if !self.in_from_space(o.addr()) {
            if self.large.contains(&o.addr()) && !self.large_live.contains(&o.addr()) {
                return None;
            }
            return Some(o);
        }
        let w = o.raw_class_word();
        (w & FORWARDED != 0).then(|| ObjRef::from_addr(w & !FORWARDED))
    }

    /// Stores `to` in the reference slot at `offset` of `obj` without the write barrier: the
    /// collector's own update of a slot it traced (a `java.lang.ref.Reference`'s referent,
    /// forwarded or cleared, and its link on the pending list). Taking the copier proves a
    /// collection is under way, with every other thread of the domain stopped.
    #[inline]
    pub fn store_traced(&self, obj: ObjRef, offset: usize, to: Option<ObjRef>) {
        obj.write_raw::<u64>(offset, to.map_or(0, ObjRef::slot));
    }

    /// Evacuates `o` (once) and returns its new address.
    pub fn forward(&mut self, o: ObjRef) -> ObjRef {
        if !self.in_from_space(o.addr()) {
            if self.large.contains(&o.addr()) && self.large_live.insert(o.addr()) {
                self.large_queue.push(o);
            }
            return o;
        }
        if let Some(n) = self.forwardee(o) {
            return n;
        }
        let c = o.class();
        let size = object_size(self.l, o, c);
        let dst = self.to_top;
        assert!(
            dst + size <= self.to_end,
            "to-space overflow: live data exceeds a semispace"
        );
        o.copy_to(dst, size);
        self.to_top += size;
        self.copied_objects += 1;
        o.set_raw_class_word(dst | FORWARDED);
        ObjRef::from_addr(dst)
    }

    /// Forwards the reference held in a slot (0 stays 0).
    #[inline]
    pub fn forward_slot(&mut self, slot: &mut u64) {
        if let Some(o) = super::from_slot(*slot) {
            *slot = self.forward(o).slot();
        }
    }

    #[inline]
    fn forward_field(&mut self, o: ObjRef, off: usize) {
        let mut v = o.read::<u64>(off);
        if v != 0 {
            self.forward_slot(&mut v);
            o.write_raw::<u64>(off, v);
        }
    }

    /// Scans to-space from `from` (an address previously returned by `scan_position`) until
    /// every copied object's references are forwarded.
    pub fn scan(&mut self, mut at: usize) -> usize {
        loop {
            while at < self.to_top {
                let o = ObjRef::from_addr(at);
                let c = o.class();
                let size = object_size(self.l, o, c);
                self.scan_object(o, c);
                at += size;
            }
            match self.large_queue.pop() {
                Some(o) => self.scan_object(o, o.class()),
                None => return at,
            }
        }
    }

    #[inline]
    pub fn scan_start(&self) -> usize {
        self.to_start
    }

    /// Forwards the references of an object outside from-space that may refer into it (a
    /// remembered old object in a young collection).
    #[inline]
    pub fn scan_remembered(&mut self, o: ObjRef) {
        self.scan_object(o, o.class());
    }

    fn scan_object(&mut self, o: ObjRef, c: &'static Class) {
        if self.track_loaders && c.unit() != self.last_unit && c.unit().is_collectible() {
            self.last_unit = c.unit();
            self.loaders_seen.push(c.unit());
        }
        let reference = for_each_ref_offset(self.l, o, c, true, |off| self.forward_field(o, off));
        if reference {
            self.discovered.push(o);
        }
    }
}

/// Calls `f` with the offset of every reference field of object `o` of class `c`: instance
/// fields, array elements, and a mirror's static fields. With `skip_referent`, a
/// `java.lang.ref.Reference`'s referent is left out; returns whether `o` is such a Reference.
pub fn for_each_ref_offset(
    l: &Layouts,
    o: ObjRef,
    c: &'static Class,
    skip_referent: bool,
    mut f: impl FnMut(usize),
) -> bool {
    if c.is_array() {
        if c.array_elem() == BasicType::Ref {
            let len = o.read::<u32>(ARRAY_LENGTH) as usize;
            for i in 0..len {
                f(ARRAY_BASE + i * 8);
            }
        }
        return false;
    }
    let referent = if l.is_reference(c) {
        l.reference.map(|(_, off)| off)
    } else {
        None
    };
    for &off in &c.ref_offsets {
        if skip_referent && Some(off as usize) == referent {
            continue;
        }
        f(off as usize);
    }
    if std::ptr::eq(c, l.class_class) {
        let mirrored = o.read::<u64>(l.mirror_slot) as *const Class;
        if !mirrored.is_null() {
            // SAFETY: see `object_size`.
            let m: &'static Class = unsafe { &*mirrored };
            for &off in &m.static_ref_offsets {
                f(l.statics_base + off as usize);
            }
        }
    }
    referent.is_some()
}
