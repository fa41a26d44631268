//! Runtime services on a thread: allocation, class initialization (JVMS §5.5), mirrors,
//! strings, exceptions and calls into Java by name. The interpreter and the natives use these;
//! this module owns no state of its own (the domain and the class table do).

pub mod fields;
pub mod loading;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::class::resolve::ResolveError;
use crate::class::{BasicType, Class, ClassKind, LoaderId, Method};
use crate::domain::InitState;
use crate::heap::{ObjRef, from_slot};
use crate::interp::exec;
use crate::thread::{JResult, JThread, Thrown};
use base::layout::{ARRAY_BASE, HEADER_SIZE};

/// Frames of headroom left for constructing a StackOverflowError.
const OVERFLOW_RESERVE_FRAMES: usize = 64;
const OVERFLOW_RESERVE_SLOTS: usize = 16 * 1024;

impl JThread {
    /// The offsets of JDK class `F`'s fields, resolved from object `o` (one of its instances)
    /// the first time; `InternalError` if the JDK's class lacks one.
    pub fn jdk<F: crate::jdk::JdkClass>(&mut self, o: ObjRef) -> JResult<&'static F> {
        F::of(o.class())
            .map_err(|e| self.throw_new("java/lang/InternalError", Some(&e.to_string())))
    }

    /// As [`JThread::jdk`], loading the class if need be (no instance in hand).
    pub fn jdk_class<F: crate::jdk::JdkClass>(&mut self) -> JResult<&'static F> {
        F::load(&self.vm.classes)
            .map_err(|e| self.throw_new("java/lang/InternalError", Some(&e.to_string())))
    }

    // ---- limits ----
    pub fn stack_limit(&self) -> usize {
        if self.in_overflow {
            self.stack.len()
        } else {
            self.stack.len() - OVERFLOW_RESERVE_SLOTS
        }
    }
    pub fn depth_limit(&self) -> usize {
        if self.in_overflow {
            self.max_depth + OVERFLOW_RESERVE_FRAMES
        } else {
            self.max_depth
        }
    }
    /// Throws StackOverflowError (using the reserve to build it).
    #[cold]
    pub fn stack_overflow(&mut self) -> Thrown {
        if self.in_overflow {
            // Overflow while building the error: throw a preallocated-style bare error.
            return match self.bare_exception("java/lang/StackOverflowError") {
                Ok(e) => {
                    self.exception = Some(e);
                    Thrown
                }
                Err(t) => t,
            };
        }
        self.in_overflow = true;
        let r = self.throw_new("java/lang/StackOverflowError", None);
        self.in_overflow = false;
        r
    }

    // ---- allocation ----
    /// Throws `OutOfMemoryError: Java heap space`. If building that error itself runs out of
    /// memory, throws the domain's preallocated one instead (as HotSpot does).
    #[cold]
    pub fn out_of_memory(&mut self) -> Thrown {
        if self.in_oom {
            if let Some(e) = *self.domain.oom_error.lock() {
                self.exception = Some(e);
            }
            return Thrown;
        }
        self.in_oom = true;
        let r = self.throw_new("java/lang/OutOfMemoryError", Some("Java heap space"));
        self.in_oom = false;
        r
    }

    pub fn alloc_object(&mut self, c: &'static Class) -> JResult<ObjRef> {
        match self
            .domain
            .heap
            .alloc_local(&mut self.area.tlab, c, c.instance_size as usize)
        {
            Ok(o) => Ok(o),
            Err(_) => Err(self.out_of_memory()),
        }
    }

    pub fn array_class_of(&mut self, component: &'static Class) -> JResult<&'static Class> {
        match self.vm.classes.array_of(component) {
            Ok(c) => Ok(c),
            Err(e) => Err(self.throw_resolve(e.into())),
        }
    }

    /// Allocates an array of class `ac` with `len` elements.
    pub fn alloc_array(&mut self, ac: &'static Class, len: i32) -> JResult<ObjRef> {
        let size = self.array_size(ac, len)?;
        match raw_alloc_array(&self.domain.heap, &mut self.area.tlab, ac, len, size) {
            Ok(o) => Ok(o),
            Err(_) => Err(self.out_of_memory()),
        }
    }

    /// The size in bytes of an array of class `ac` with `len` elements, or the exception a
    /// request for one throws (negative length, beyond the VM's limit).
    pub fn array_size(&mut self, ac: &'static Class, len: i32) -> JResult<usize> {
        if len < 0 {
            return Err(self.throw_new(
                "java/lang/NegativeArraySizeException",
                Some(&len.to_string()),
            ));
        }
        let esize = match ac.kind {
            ClassKind::Array { elem, .. } => elem.size(),
            _ => 8,
        };
        let Some(size) = (len as usize)
            .checked_mul(esize)
            .and_then(|s| s.checked_add(ARRAY_BASE))
        else {
            return Err(self.out_of_memory());
        };
        if len > i32::MAX - 2 {
            return Err(self.throw_new(
                "java/lang/OutOfMemoryError",
                Some("Requested array size exceeds VM limit"),
            ));
        }
        Ok(size)
    }

    /// Allocates an array whose element type is `elem` (a primitive or a class).
    pub fn new_array_of(&mut self, elem: &'static Class, len: i32) -> JResult<ObjRef> {
        let ac = self.array_class_of(elem)?;
        self.alloc_array(ac, len)
    }

    pub fn new_byte_array(&mut self, data: &[u8]) -> JResult<ObjRef> {
        let a = self.new_array_of(
            self.vm.classes.primitive(BasicType::Byte),
            data.len() as i32,
        )?;
        a.array_slice::<u8>().copy_from_slice(data);
        Ok(a)
    }

    /// `multianewarray` with dimension lengths `lens` for array class `ac`.
    pub fn multi_array(&mut self, ac: &'static Class, lens: &[i32]) -> JResult<ObjRef> {
        if let Some(&neg) = lens.iter().find(|&&l| l < 0) {
            return Err(self.throw_new(
                "java/lang/NegativeArraySizeException",
                Some(&neg.to_string()),
            ));
        }
        let a = self.alloc_array(ac, lens[0])?;
        if lens.len() > 1 {
            let comp = ac.array_component().expect("multianewarray of non-array");
            for i in 0..lens[0] as usize {
                let sub = self.multi_array(comp, &lens[1..])?;
                self.domain.heap.write_ref(a, ARRAY_BASE + i * 8, Some(sub));
            }
        }
        Ok(a)
    }

    /// Object.clone for arrays and Cloneable objects (shallow copy).
    pub fn clone_object(&mut self, o: ObjRef) -> JResult<ObjRef> {
        let c = o.class();
        let size = if c.is_array() {
            ARRAY_BASE + o.array_len() * c.array_elem().size()
        } else {
            c.instance_size as usize
        };
        let n = match self.domain.heap.alloc_local(&mut self.area.tlab, c, size) {
            Ok(n) => n,
            Err(_) => return Err(self.out_of_memory()),
        };
        o.copy_body_to(n, size.max(HEADER_SIZE));
        if c.array_elem() == BasicType::Ref || !c.ref_offsets.is_empty() {
            self.domain.heap.post_bulk_write(n);
        }
        Ok(n)
    }

    /// Registers `o`, an object of a finalizable class (`Class::finalizable`), with
    /// `java.lang.ref.Finalizer.register`, as HotSpot does when `Object.<init>` returns and
    /// when `clone` copies such an object: the collector then finds its `Finalizer` (a
    /// `FinalReference`) once `o` is unreachable and the domain's finalizer thread runs
    /// `o.finalize()` (see `crate::gc`).
    pub fn register_finalizer(&mut self, o: ObjRef) -> JResult<()> {
        let m = match self.vm.finalizer_register.get() {
            Some(m) => *m,
            None => {
                let c = self.load_boot("java/lang/ref/Finalizer")?;
                let Some(m) = c.declared_method("register", "(Ljava/lang/Object;)V") else {
                    let msg = "java.lang.ref.Finalizer.register(Object)";
                    return Err(self.throw_new("java/lang/NoSuchMethodError", Some(msg)));
                };
                *self.vm.finalizer_register.get_or_init(|| m)
            }
        };
        if !self.domain.is_initialized(m.class) {
            let args = self.initialize_keeping_args(m.class, m, &[o.slot()])?;
            return exec::call(self, m, &args).map(|_| ());
        }
        exec::call(self, m, &[o.slot()]).map(|_| ())
    }

    /// Registers the finalizable objects of a graph just copied into this thread's domain (by
    /// a portal call or an IPC channel) for finalization, as `new` would have registered them;
    /// returns the graph's roots, current (registering runs Java code, which may move them).
    pub fn register_copies(
        &mut self,
        copied: crate::heap::graph::Decoded,
    ) -> JResult<crate::heap::graph::Roots> {
        if copied.finalizable.is_empty() {
            return Ok(copied.roots);
        }
        let mark = self.handles.len();
        self.handles
            .extend(copied.roots.iter().map(|&r| crate::heap::to_slot(r)));
        let first = self.handles.len();
        self.handles
            .extend(copied.finalizable.iter().map(|o| o.slot()));
        for h in first..first + copied.finalizable.len() {
            let o = self.handle_get(h);
            if let Err(e) = self.register_finalizer(o) {
                self.handles.truncate(mark);
                return Err(e);
            }
        }
        let roots = self.handles[mark..first]
            .iter()
            .map(|&s| crate::heap::from_slot(s))
            .collect();
        self.handles.truncate(mark);
        Ok(roots)
    }

    // ---- mirrors ----

    /// The java.lang.Class mirror of `c` in this thread's domain (created on first use).
    pub fn mirror(&mut self, c: &'static Class) -> JResult<ObjRef> {
        if let Some(m) = self.domain.mirror_of(c.id) {
            return Ok(m);
        }
        self.create_mirror(c)
    }

    #[cold]
    fn create_mirror(&mut self, c: &'static Class) -> JResult<ObjRef> {
        let wk = self.vm.wk();
        let size = wk.statics_base as usize + c.statics_size as usize;
        let m = match self
            .domain
            .heap
            .alloc_local(&mut self.area.tlab, wk.class, size)
        {
            Ok(m) => m,
            Err(_) => return Err(self.out_of_memory()),
        };
        m.write_word(wk.mirror_slot as usize, c as *const Class as usize);
        if let Some(comp) = c.array_component() {
            let cm = self.mirror(comp)?;
            self.domain
                .heap
                .write_ref(m, wk.class_component_type as usize, Some(cm));
        }
        let loader = self.domain.loader_object(c.loader);
        self.domain
            .heap
            .write_ref(m, wk.class_loader as usize, loader);
        if let Some(module) = self.vm.module_object_for(&self.domain, c) {
            self.domain
                .heap
                .write_ref(m, wk.class_module as usize, Some(module));
        }
        let _g = self.domain.mirror_lock.lock();
        if let Some(existing) = self.domain.mirror_of(c.id) {
            return Ok(existing);
        }
        self.domain.set_mirror(c.id, m.slot());
        drop(_g);
        self.set_constant_statics(c, m)?;
        Ok(m)
    }

    /// Static final fields with a ConstantValue attribute get their values at preparation.
    fn set_constant_statics(&mut self, c: &'static Class, mirror: ObjRef) -> JResult<()> {
        let Some(cf) = &c.file else { return Ok(()) };
        let base = self.vm.wk().statics_base as usize;
        for f in c.fields.iter().filter(|f| f.is_static()) {
            let Some(cv) = f.constant_value else { continue };
            let off = base + f.offset as usize;
            use classfile::Constant as K;
            match cf.constant_pool.get(cv) {
                Some(K::Integer(v)) => fields::store_field(
                    &self.domain.heap,
                    mirror,
                    off,
                    f.ty,
                    false,
                    *v as u32 as u64,
                ),
                Some(K::Float(v)) => mirror.write::<u32>(off, v.to_bits()),
                Some(K::Long(v)) => mirror.write::<i64>(off, *v),
                Some(K::Double(v)) => mirror.write::<f64>(off, *v),
                Some(K::String { string_index }) => {
                    let Some(u) = cf.constant_pool.utf8_entry(*string_index) else {
                        continue;
                    };
                    let s = self.intern_utf16(&u.utf16())?;
                    self.domain.heap.write_ref(mirror, off, Some(s));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The class a mirror stands for.
    pub fn class_of_mirror(&self, mirror: ObjRef) -> &'static Class {
        class_of_mirror(self.vm, mirror)
    }

    // ---- initialization (JVMS §5.5) ----

    #[inline]
    pub fn ensure_initialized(&mut self, c: &'static Class) -> JResult<()> {
        if self.domain.is_initialized(c) {
            return Ok(());
        }
        self.initialize(c)
    }

    #[cold]
    fn initialize(&mut self, c: &'static Class) -> JResult<()> {
        if c.is_array() || c.is_primitive() {
            self.domain.set_initialized(c.id, true);
            return Ok(());
        }
        self.link(c)?;
        self.mirror(c)?;
        let domain = self.domain.clone();
        let st = domain.class_state(c);
        {
            let mut s = st.init.lock();
            loop {
                match *s {
                    InitState::InProgress(tid) if tid == self.id => return Ok(()),
                    InitState::InProgress(_) => {
                        drop(s);
                        let me = self.id;
                        self.blocking(|| {
                            let mut s = st.init.lock();
                            while matches!(*s, InitState::InProgress(other) if other != me) {
                                st.init_cond.wait(&mut s);
                            }
                        });
                        s = st.init.lock();
                    }
                    InitState::Initialized => return Ok(()),
                    InitState::Failed => {
                        drop(s);
                        return Err(self.throw_no_class_def_after_failure(c));
                    }
                    InitState::Uninitialized => {
                        *s = InitState::InProgress(self.id);
                        break;
                    }
                }
            }
        }
        let r = self.run_initializers(c);
        let mut s = st.init.lock();
        match r {
            Ok(()) => {
                *s = InitState::Initialized;
                domain.set_initialized(c.id, true);
                st.init_cond.notify_all();
                Ok(())
            }
            Err(Thrown) => {
                *s = InitState::Failed;
                st.init_cond.notify_all();
                drop(s);
                let exc = self.exception.take();
                if let Some(e) = exc {
                    let h = self.handle(e);
                    if let Ok(Some(record)) = self.initialization_error_record(e) {
                        *st.init_error.lock() = Some(record);
                    }
                    self.exception = Some(self.handle_get(h));
                    self.handles.truncate(h);
                }
                let exc = self.exception.take();
                let is_error = exc.is_some_and(|e| {
                    self.vm
                        .classes
                        .find_loaded(LoaderId::BOOT, "java/lang/Error")
                        .is_some_and(|err| e.class().is_subtype_of(err))
                });
                if is_error {
                    self.exception = exc;
                    return Err(Thrown);
                }
                self.exception = exc;
                self.wrap_in_initializer_error()
            }
        }
    }

    /// HotSpot 17's record of a failed initialization: a new ExceptionInInitializerError whose
    /// message names the original exception and thread, carrying the original's stack trace.
    fn initialization_error_record(&mut self, e: ObjRef) -> JResult<Option<ObjRef>> {
        let saved = self.exception.take();
        let saved_h = saved.map(|s| self.handle(s));
        let eh = self.handle(e);
        let r = (|| {
            let msg = self.call_virtual(e, "getMessage", "()Ljava/lang/String;", &[])?;
            let msg = self.opt_rust_string(msg);
            let thread_name = match self.thread_obj {
                Some(th) => {
                    let n = self.call_virtual(th, "getName", "()Ljava/lang/String;", &[])?;
                    self.opt_rust_string(n).unwrap_or_default()
                }
                None => "main".to_string(),
            };
            let e = self.handle_get(eh);
            let text = match msg {
                Some(m) => format!(
                    "Exception {}: {m} [in thread \"{thread_name}\"]",
                    e.class().java_name()
                ),
                None => format!(
                    "Exception {} [in thread \"{thread_name}\"]",
                    e.class().java_name()
                ),
            };
            let record =
                self.new_exception("java/lang/ExceptionInInitializerError", Some(&text))?;
            let rh = self.handle(record);
            let e = self.handle_get(eh);
            let trace =
                self.call_virtual(e, "getStackTrace", "()[Ljava/lang/StackTraceElement;", &[])?;
            let record = self.handle_get(rh);
            let off = self.jdk::<crate::jdk::Throwable>(record)?.stack_trace;
            self.domain.heap.write_slot(record, off, trace);
            self.domain
                .heap
                .write_ref(record, self.vm.wk().throwable_backtrace as usize, None);
            Ok(Some(record))
        })();
        if r.is_err() {
            self.exception = None;
        }
        self.exception = saved_h.map(|h| self.handle_get(h));
        self.handles.truncate(saved_h.unwrap_or(eh));
        r
    }

    /// NoClassDefFoundError for a class whose initialization failed earlier.
    #[cold]
    fn throw_no_class_def_after_failure(&mut self, c: &'static Class) -> Thrown {
        let msg = format!("Could not initialize class {}", c.java_name());
        let cause = *self.domain.class_state(c).init_error.lock();
        match self.new_exception("java/lang/NoClassDefFoundError", Some(&msg)) {
            Ok(e) => {
                let h = self.handle(e);
                if let Some(cause) = cause
                    && self
                        .call_virtual(
                            e,
                            "initCause",
                            "(Ljava/lang/Throwable;)Ljava/lang/Throwable;",
                            &[cause.slot()],
                        )
                        .is_err()
                {
                    self.exception = None;
                }
                self.exception = Some(self.handle_get(h));
                self.handles.truncate(h);
                Thrown
            }
            Err(t) => t,
        }
    }

    fn run_initializers(&mut self, c: &'static Class) -> JResult<()> {
        if !c.is_interface() {
            if let Some(s) = c.super_class {
                self.ensure_initialized(s)?;
            }
            for i in &c.interfaces {
                if i.methods()
                    .iter()
                    .any(|m| !m.is_static() && !m.is_abstract())
                {
                    self.ensure_initialized(i)?;
                }
            }
        }
        if let Some(clinit) = c.declared_method("<clinit>", "()V") {
            exec::call(self, clinit, &[])?;
        }
        crate::vm::after_class_init(self, c)
    }

    #[cold]
    fn wrap_in_initializer_error(&mut self) -> JResult<()> {
        let cause = self.exception.take();
        let eiie = self.load_boot("java/lang/ExceptionInInitializerError")?;
        let o = self.construct(
            eiie,
            "(Ljava/lang/Throwable;)V",
            &[crate::heap::to_slot(cause)],
        )?;
        self.exception = Some(o);
        Err(Thrown)
    }

    /// The pending exception's `toString()` (empty if it cannot be had), taking it: for
    /// errors reported as text (the launcher's, an InternalError's message).
    pub fn take_exception_text(&mut self) -> String {
        let e = self.exception.take();
        let text = e
            .and_then(|e| {
                self.call_virtual(e, "toString", "()Ljava/lang/String;", &[])
                    .ok()
            })
            .and_then(|s| self.opt_rust_string(s))
            .unwrap_or_default();
        self.exception = None;
        text
    }

    /// Verifies `c` once (application classes only), after its superclass and
    /// superinterfaces; a class of a user-defined loader first has the classes it names loaded
    /// through its loader (see [`loading`]).
    pub fn link(&mut self, c: &'static Class) -> JResult<()> {
        if c.linked.get().is_none() {
            // As HotSpot (JVMS §5.4), the superclass and the superinterfaces are linked first:
            // a class whose interface has a broken default method fails to link with its error.
            if let Some(s) = c.super_class {
                self.link(s)?;
            }
            for &i in &c.interfaces {
                self.link(i)?;
            }
        }
        self.load_references(c)?;
        let r = c.linked.get_or_init(|| crate::vm::verify(self.vm, c));
        match r {
            Ok(()) => Ok(()),
            Err(e) => {
                let (class, msg) = (e.java_class(), e.message().to_string());
                Err(self.throw_new(class, Some(&msg)))
            }
        }
    }

    // ---- class lookup ----

    pub fn load_boot(&mut self, name: &str) -> JResult<&'static Class> {
        match self.vm.classes.load(LoaderId::BOOT, name) {
            Ok(c) => Ok(c),
            Err(e) => Err(self.throw_resolve(e.into())),
        }
    }

    pub fn load_class(&mut self, loader: LoaderId, name: &str) -> JResult<&'static Class> {
        match self.vm.classes.load(loader, name) {
            Ok(c) => Ok(c),
            Err(e) => Err(self.throw_resolve(e.into())),
        }
    }

    // ---- strings ----

    /// A new java.lang.String with the given contents.
    pub fn new_string(&mut self, s: &str) -> JResult<ObjRef> {
        if s.bytes().all(|b| b < 0x80) {
            return self.new_string_latin1(s.as_bytes());
        }
        let units: Vec<u16> = s.encode_utf16().collect();
        self.new_string_utf16(&units)
    }

    pub fn new_string_latin1(&mut self, bytes: &[u8]) -> JResult<ObjRef> {
        let wk = self.vm.wk();
        let value = self.new_byte_array(bytes)?;
        let s = self.alloc_object(wk.string)?;
        self.domain
            .heap
            .write_ref(s, wk.string_value as usize, Some(value));
        s.write::<u8>(wk.string_coder as usize, 0);
        Ok(s)
    }

    pub fn new_string_utf16(&mut self, units: &[u16]) -> JResult<ObjRef> {
        if units.iter().all(|&u| u < 256) {
            let bytes: Vec<u8> = units.iter().map(|&u| u as u8).collect();
            return self.new_string_latin1(&bytes);
        }
        let wk = self.vm.wk();
        let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let value = self.new_byte_array(&bytes)?;
        let s = self.alloc_object(wk.string)?;
        self.domain
            .heap
            .write_ref(s, wk.string_value as usize, Some(value));
        s.write::<u8>(wk.string_coder as usize, 1);
        Ok(s)
    }

    /// The UTF-16 contents of a java.lang.String.
    pub fn string_utf16(&self, s: ObjRef) -> Vec<u16> {
        string_utf16(self.vm, s)
    }

    /// The contents of a java.lang.String as Rust text (lone surrogates replaced).
    pub fn rust_string(&self, s: ObjRef) -> String {
        String::from_utf16_lossy(&self.string_utf16(s))
    }

    pub fn opt_rust_string(&self, s: u64) -> Option<String> {
        from_slot(s).map(|s| self.rust_string(s))
    }

    /// The interned String with these contents.
    pub fn intern_utf16(&mut self, units: &[u16]) -> JResult<ObjRef> {
        if let Some(&s) = self.domain.strings.lock().get(units) {
            return Ok(s);
        }
        let s = self.new_string_utf16(units)?;
        let mut table = self.domain.strings.lock();
        Ok(*table.entry(units.into()).or_insert(s))
    }

    pub fn intern(&mut self, s: &str) -> JResult<ObjRef> {
        let units: Vec<u16> = s.encode_utf16().collect();
        self.intern_utf16(&units)
    }

    /// The String constant at `idx` of `c` (interned, cached per domain).
    pub fn ldc_string(&mut self, c: &'static Class, idx: u16) -> JResult<ObjRef> {
        let st = self.domain.class_state(c);
        let cache = st
            .cp_strings
            .get_or_init(|| (0..c.cp_cache.len()).map(|_| AtomicU64::new(0)).collect());
        if let Some(s) = from_slot(cache[idx as usize].load(Ordering::Acquire)) {
            return Ok(s);
        }
        let units = c
            .file
            .as_ref()
            .and_then(|f| f.constant_pool.string(idx))
            .map(|u| u.utf16())
            .unwrap_or_default();
        let s = self.intern_utf16(&units)?;
        let domain = self.domain.clone();
        let st = domain.class_state(c);
        if let Some(cache) = st.cp_strings.get() {
            cache[idx as usize].store(s.slot(), Ordering::Release);
        }
        Ok(s)
    }

    // ---- exceptions ----

    /// Allocates exception `class` and runs its (String) constructor; returns `Thrown` with it
    /// pending. If that fails, the failure is what is pending.
    #[cold]
    pub fn throw_new(&mut self, class: &str, msg: Option<&str>) -> Thrown {
        match self.new_exception(class, msg) {
            Ok(e) => {
                self.exception = Some(e);
                Thrown
            }
            Err(t) => t,
        }
    }

    /// Creates (does not throw) an exception object with a message.
    pub fn new_exception(&mut self, class: &str, msg: Option<&str>) -> JResult<ObjRef> {
        let c = self.load_boot(class)?;
        match msg {
            Some(m)
                if c.declared_method("<init>", "(Ljava/lang/String;)V")
                    .is_some() =>
            {
                let s = self.new_string(m)?;
                self.construct(c, "(Ljava/lang/String;)V", &[s.slot()])
            }
            _ => self.construct(c, "()V", &[]),
        }
    }

    /// Allocates an instance of `c` and runs its constructor `desc` with `args` (receiver not
    /// included). The object is kept in a handle while the constructor runs (it may collect).
    pub fn construct(&mut self, c: &'static Class, desc: &str, args: &[u64]) -> JResult<ObjRef> {
        let Some(ctor) = c.declared_method("<init>", desc) else {
            let msg = format!("{}.<init>{desc}", c.java_name());
            return Err(self.throw_new("java/lang/NoSuchMethodError", Some(&msg)));
        };
        // Initializing the class runs Java code: the reference arguments wait in handles.
        let mark = self.handles.len();
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(0);
        all.extend_from_slice(args);
        let mut at = 1;
        let mut ref_slots = Vec::new();
        for &ty in ctor.param_types.iter() {
            if ty == BasicType::Ref && at < all.len() {
                ref_slots.push(at);
                self.handles.push(all[at]);
            }
            at += ty.slots();
        }
        let init = self.ensure_initialized(c);
        for (k, &i) in ref_slots.iter().enumerate() {
            all[i] = self.handles[mark + k];
        }
        self.handles.truncate(mark);
        init?;
        let o = self.alloc_object(c)?;
        all[0] = o.slot();
        let h = self.handle(o);
        let r = exec::call(self, ctor, &all);
        let o = self.handle_get(h);
        self.handles.truncate(h);
        r.map(|_| o)
    }

    /// An exception object whose constructor is not run (for errors during overflow).
    fn bare_exception(&mut self, class: &str) -> JResult<ObjRef> {
        let c = self.load_boot(class)?;
        self.alloc_object(c)
    }

    /// Throws the error a failed resolution names (its message is already in Java's form).
    pub fn throw_resolve(&mut self, e: ResolveError) -> Thrown {
        self.throw_new(e.class, Some(&e.message))
    }

    /// Resolves the CONSTANT_Class at `idx` of `c`, throwing the resolution error.
    pub fn resolve_class_ref(&mut self, c: &'static Class, idx: u16) -> JResult<&'static Class> {
        crate::class::resolve::resolve_class(&self.vm.classes, c, idx)
            .map_err(|e| self.throw_resolve(e))
    }

    // ---- calls into Java by name ----

    /// Finds a method declared in `c` or its superclasses.
    pub fn find_method(
        &self,
        c: &'static Class,
        name: &str,
        desc: &str,
    ) -> Option<&'static Method> {
        crate::class::resolve::lookup_method(c, name, desc)
    }

    /// Calls a static method by class, name and descriptor (initializing the class).
    pub fn call_static(
        &mut self,
        class: &str,
        name: &str,
        desc: &str,
        args: &[u64],
    ) -> JResult<u64> {
        let c = self.load_boot(class)?;
        let Some(m) = c.declared_method(name, desc) else {
            let msg = format!("{class}.{name}{desc}");
            return Err(self.throw_new("java/lang/NoSuchMethodError", Some(&msg)));
        };
        if self.domain.is_initialized(c) {
            return exec::call(self, m, args);
        }
        let args = self.initialize_keeping_args(c, m, args)?;
        exec::call(self, m, &args)
    }

    /// Initializes `c` for a call of its static method `m` with `args`: the initializer runs
    /// Java code, which may collect, so the arguments' references are roots meanwhile. Returns
    /// the arguments as they are afterwards (moved objects at their new addresses).
    #[cold]
    fn initialize_keeping_args(
        &mut self,
        c: &'static Class,
        m: &Method,
        args: &[u64],
    ) -> JResult<Vec<u64>> {
        let mark = self.handles.len();
        let mut kept = Vec::new();
        let mut at = 0;
        for &ty in m.param_types.iter() {
            if ty == BasicType::Ref
                && let Some(o) = args.get(at).and_then(|&v| from_slot(v))
            {
                kept.push((at, self.handle(o)));
            }
            at += ty.slots();
        }
        let r = self.ensure_initialized(c);
        let mut args = args.to_vec();
        for (at, h) in kept {
            args[at] = self.handle_get(h).slot();
        }
        self.handles.truncate(mark);
        r.map(|()| args)
    }

    /// Calls an instance method virtually on `recv`.
    pub fn call_virtual(
        &mut self,
        recv: ObjRef,
        name: &str,
        desc: &str,
        args: &[u64],
    ) -> JResult<u64> {
        let Some(m) = self
            .find_method(recv.class(), name, desc)
            .or_else(|| crate::class::loader::select_interface_method(recv.class(), name, desc))
        else {
            let msg = format!("{}.{name}{desc}", recv.class().java_name());
            return Err(self.throw_new("java/lang/NoSuchMethodError", Some(&msg)));
        };
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(recv.slot());
        all.extend_from_slice(args);
        exec::call(self, m, &all)
    }
}

/// The class a mirror stands for.
#[allow(unsafe_code)]
pub fn class_of_mirror(vm: &crate::vm::Vm, mirror: ObjRef) -> &'static Class {
    let wk = vm.wk();
    assert!(
        std::ptr::eq(mirror.class(), wk.class),
        "not a mirror: an instance of {}",
        mirror.class().name
    );
    let p = mirror.read::<u64>(vm.wk().mirror_slot as usize) as *const Class;
    // SAFETY: mirrors are only created by `create_mirror`, which stores a pointer to a leaked
    // Class in the VM slot.
    unsafe { &*p }
}

/// UTF-16 contents of a java.lang.String.
pub fn string_utf16(vm: &crate::vm::Vm, s: ObjRef) -> Vec<u16> {
    let wk = vm.wk();
    let Some(value) = s.read_ref(wk.string_value as usize) else {
        return Vec::new();
    };
    let bytes = value.array_slice::<u8>();
    if s.read::<u8>(wk.string_coder as usize) == 0 {
        bytes.iter().map(|&b| b as u16).collect()
    } else {
        bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    }
}

/// HotSpot's ClassCastException message.
pub fn class_cast_message(from: &Class, to: &Class) -> String {
    format!(
        "class {} cannot be cast to class {} ({})",
        from.java_name(),
        to.java_name(),
        from.modules_of_loaders(to)
    )
}

/// Allocates an array of class `ac` and length `len` taking `size` bytes (from `array_size`).
pub fn raw_alloc_array(
    heap: &crate::heap::Heap,
    tlab: &mut crate::heap::Tlab,
    ac: &'static Class,
    len: i32,
    size: usize,
) -> Result<ObjRef, crate::heap::OutOfMemory> {
    let o = heap.alloc_local(tlab, ac, size)?;
    o.write::<u32>(base::layout::ARRAY_LENGTH, len as u32);
    Ok(o)
}
