//! Domain templates: an image of an initialized class library that new domains are copied
//! from instead of running `initPhase1`–`initPhase3` again (JX's domain creation, HotSpot's
//! archived heap in spirit).
//!
//! The template is a hidden domain booted once, on first use, with an empty class path. The
//! threads its class library starts while booting (the reference handler, the finalizer) are
//! registered but never run (`Domain::template`), so that once its boot thread has left, no
//! code runs in it: it is frozen. A full collection then compacts everything it holds into the
//! bottom of its old space, and that range is the image. A new domain copies the image into the
//! bottom of its own old space, adds the distance between the two to every reference in the
//! copy and in copies of the template's tables (class states, interned strings, modules,
//! loaders...; `roots::for_each_table_ref` lists them as the collector does), keeps identity
//! hashes and drops monitor bits (no lock is held in a frozen domain), binds the template's
//! application loader object to its own loader id, starts its own copies of the boot threads,
//! and finally points `java.class.path` and the application loader's `URLClassPath` at its
//! class path (as HotSpot does for an archived application loader).
//!
//! A template is refused (and domains boot from scratch) if its image has what a plain copy
//! would share between domains: large objects (not in the old space), native memory, loaders
//! other than the built-in ones. Owns the template and the copying; does not decide when a
//! domain is created or ends (`lifecycle`).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::{ClassPath, Domain, DomainId, HeapSize, InitState, Limits};
use crate::class::{ClassId, LoaderId};
use crate::gc::{Collection, for_each_table_ref, layouts};
use crate::heap::ObjRef;
use crate::heap::collector::{Layouts, for_each_ref_offset, object_size};
use crate::thread::JThread;
use crate::vm::Vm;

/// The template's domain id (it is in no registry).
const TEMPLATE_ID: DomainId = DomainId(u32::MAX);
/// The template's heap: its image must fit in half of the smallest domain heap.
const TEMPLATE_HEAP: usize = 64 << 20;

/// A frozen, booted class library and the range of its heap new domains copy.
pub struct Template {
    domain: Arc<Domain>,
    /// [start, end) of the template's compacted old space.
    image: (usize, usize),
    /// Its main Thread object, and the Thread objects its boot started.
    main: ObjRef,
    started: Vec<ObjRef>,
}

impl Template {
    /// Boots a template on an OS thread of its own; Err says why domains must boot from scratch.
    pub fn boot(vm: &'static Vm) -> Result<Template, String> {
        let booting = std::thread::Builder::new()
            .name("jxvm-domain-template".into())
            .stack_size(vm.thread_stack_size())
            .spawn(move || boot_template(vm))
            .map_err(|e| format!("cannot start the template's thread: {e}"))?;
        booting
            .join()
            .map_err(|_| "the template's boot failed".to_string())?
    }

    /// Bytes of heap a domain made from this template starts with.
    pub fn image_bytes(&self) -> usize {
        self.image.1 - self.image.0
    }

    /// Fills `domain` (new, with no thread yet) with a copy of the template and returns its
    /// main thread, attached to the calling OS thread. Err if its heap cannot hold the image.
    pub fn instantiate(
        &self,
        vm: &'static Vm,
        domain: &Arc<Domain>,
    ) -> Result<Box<JThread>, String> {
        let (src, end) = self.image;
        let dst = domain
            .heap
            .load_image(src, end - src)
            .ok_or("the heap is too small for the class library's image")?;
        let delta = dst.wrapping_sub(src);
        let relocate = |o: ObjRef| {
            if (src..end).contains(&o.addr()) {
                ObjRef::from_addr(o.addr().wrapping_add(delta))
            } else {
                o
            }
        };
        relocate_objects(&layouts(vm), dst, end - src, delta as u64);
        copy_tables(&self.domain, domain, vm);
        for_each_table_ref(domain, vm, &mut |o| relocate(o));
        for (from, to) in [
            (LoaderId::PLATFORM, LoaderId::PLATFORM),
            (self.domain.app_loader, domain.app_loader),
        ] {
            if let Some(obj) = self.domain.loader_object(from) {
                domain.bind_loader(to, relocate(obj));
            }
        }
        let mut t = vm.new_thread(domain.clone());
        if !t.attach() {
            t.detach();
            return Err("the domain was terminated while it was made".into());
        }
        let main = relocate(self.main);
        t.thread_obj = Some(main);
        crate::native::thread::register_thread(&t, main);
        for &th in &self.started {
            if !crate::native::thread::start_java_thread(vm, domain, relocate(th)) {
                return Err("a thread of the class library could not start".into());
            }
        }
        let class_path = domain.class_path.clone();
        if set_class_path(&mut t, &class_path).is_err() {
            return Err(crate::vm::describe_exception(&mut t));
        }
        Ok(t)
    }
}

/// The template's boot thread: boot with thread starts recorded, compact, check, freeze.
fn boot_template(vm: &'static Vm) -> Result<Template, String> {
    let (loader, first) = vm
        .classes
        .app_loader_for("", &crate::class::loader::Files::Host);
    let classes = ClassPath {
        loader,
        path: String::new(),
        first,
    };
    let heap = HeapSize {
        max: TEMPLATE_HEAP,
        initial: 8 << 20,
        nursery: None,
    };
    let mut domain = Domain::new(
        TEMPLATE_ID,
        "template",
        classes,
        heap,
        super::budget::Budget::new(None, Limits::default()),
        &port::IoSpec::Host,
    )
    .map_err(|e| format!("cannot reserve the template's heap: {e}"))?;
    domain.template = true;
    domain.gc.apply_options(&domain.heap, &vm.opts);
    let domain = Arc::new(domain);
    let mut t = crate::vm::boot_in(vm, domain.clone()).map_err(|e| e.to_string())?;
    crate::gc::collect(&mut t, Collection::Full, "domain template");
    let main = t.thread_obj.ok_or("the template has no main thread")?;
    // Its boot thread leaves: from here on nothing runs in it, so it never collects again.
    drop(t);
    let image = domain.heap.old_space();
    check_frozen(vm, &domain, image)?;
    // Only the image stays resident.
    domain.heap.release_nursery();
    let started = domain
        .threads
        .lock()
        .keys()
        .map(|&a| ObjRef::from_addr(a))
        .filter(|o| *o != main)
        .collect();
    Ok(Template {
        domain,
        image,
        main,
        started,
    })
}

/// Refuses a template a plain copy could not make private to each domain.
fn check_frozen(vm: &Vm, d: &Domain, (start, end): (usize, usize)) -> Result<(), String> {
    if d.heap.has_large_objects() || d.heap.nursery_used() != 0 {
        return Err("the class library's heap has objects outside the old space".into());
    }
    if !d.native_blocks.lock().is_empty() {
        return Err("the class library holds native memory it allocated while booting".into());
    }
    // A built-in loader may also be known by a user id it got before it was bound; only the
    // built-in ids are bound in copies.
    let loaders = d.loaders.lock();
    let builtin: Vec<ObjRef> = [LoaderId::PLATFORM, d.app_loader]
        .iter()
        .filter_map(|id| loaders.by_id.get(&id.0).copied())
        .collect();
    if let Some(o) = loaders.by_id.values().find(|o| !builtin.contains(o)) {
        return Err(format!(
            "the class library made a class loader of its own while booting ({})",
            o.class().java_name()
        ));
    }
    if !d.memory_objects.lock().is_empty()
        || !d.exported.lock().is_empty()
        || !d.portals.lock().is_empty()
    {
        return Err("the class library holds memory objects or portals".into());
    }
    let l = layouts(vm);
    let mut outside = 0usize;
    walk(
        &l,
        start,
        end - start,
        |_| {},
        |o, off| {
            let v = o.read::<u64>(off) as usize;
            if v != 0 && !(start..end).contains(&v) {
                outside += 1;
            }
        },
    );
    if outside != 0 {
        return Err(format!(
            "{outside} references leave the class library's image"
        ));
    }
    Ok(())
}

/// Calls `object` for every object of [start, start+len) (which must be contiguous), then
/// `field` for each of its reference fields (by offset).
fn walk(
    l: &Layouts,
    start: usize,
    len: usize,
    mut object: impl FnMut(ObjRef),
    mut field: impl FnMut(ObjRef, usize),
) {
    let mut at = start;
    while at < start + len {
        let o = ObjRef::from_addr(at);
        let c = o.class();
        object(o);
        for_each_ref_offset(l, o, c, false, |off| field(o, off));
        at += object_size(l, o, c);
    }
}

/// Moves every reference of the copied objects by `delta` and clears their lock bits (the
/// identity hash in the high half of the mark word stays).
fn relocate_objects(l: &Layouts, start: usize, len: usize, delta: u64) {
    let unlock = |o: ObjRef| {
        o.mark().fetch_and(!0xFFFF_FFFF, Ordering::Relaxed);
    };
    walk(l, start, len, unlock, |o, off| {
        o.relocate_slot(off, delta);
    });
}

/// Copies the template's tables into a new domain, references still pointing into the
/// template (relocated next): class states, strings, modules, call sites, preallocated
/// throwables, the pending references and the identity hash sequence. Loaders and threads
/// are bound afresh by the caller. Resolved string constants are a cache the new domain
/// fills again from its (copied) interned strings.
fn copy_tables(from: &Domain, to: &Domain, vm: &Vm) {
    for id in 0..vm.classes.class_count() {
        let Some(st) = from.existing_class_state(id) else {
            continue;
        };
        let ns = to.class_state_by_id(ClassId(id));
        to.set_mirror(ClassId(id), from.mirrors.load(id));
        to.set_initialized(ClassId(id), from.init_flags.get(id));
        *ns.init.lock() = match *st.init.lock() {
            InitState::InProgress(_) => InitState::Uninitialized,
            s => s,
        };
        *ns.init_error.lock() = *st.init_error.lock();
        *ns.protection_domain.lock() = *st.protection_domain.lock();
    }
    to.strings.lock().clone_from(&from.strings.lock());
    to.modules.lock().clone_from(&from.modules.lock());
    to.call_sites.lock().clone_from(&from.call_sites.lock());
    *to.boot_unnamed_module.lock() = *from.boot_unnamed_module.lock();
    *to.pending_refs.lock() = *from.pending_refs.lock();
    *to.oom_error.lock() = *from.oom_error.lock();
    *to.death.lock() = *from.death.lock();
    *to.main_group.lock() = *from.main_group.lock();
    to.next_hash
        .store(from.next_hash.load(Ordering::Relaxed), Ordering::Relaxed);
}

/// Points `java.class.path` and the application loader's `URLClassPath` at the domain's class
/// path (the template booted with an empty one).
pub(crate) fn set_class_path(t: &mut JThread, class_path: &str) -> crate::thread::JResult<()> {
    let key = t.new_string("java.class.path")?;
    let value = t.new_string(class_path)?;
    let sig = "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;";
    t.call_static(
        "java/lang/System",
        "setProperty",
        sig,
        &[key.slot(), value.slot()],
    )?;
    let ucp_class = t.load_boot("jdk/internal/loader/URLClassPath")?;
    let path = t.new_string(class_path)?;
    let ucp = t.construct(ucp_class, "(Ljava/lang/String;Z)V", &[path.slot(), 0])?;
    let Some(loader) = t.domain.loader_object(t.domain.app_loader) else {
        return Err(t.throw_new(
            "java/lang/InternalError",
            Some("no application class loader"),
        ));
    };
    t.call_virtual(
        loader,
        "setClassPath",
        "(Ljdk/internal/loader/URLClassPath;)V",
        &[ucp.slot()],
    )?;
    Ok(())
}
