//! Class metadata: what the VM knows about a loaded class, shared by every domain.
//!
//! A [`Class`] is created once per (name, defining loader), leaked (`&'static`) and immutable
//! once linked, except for lazily filled caches (`OnceLock`) that hold no heap reference. A
//! class a domain owns is freed after that domain has ended ([`unload`]); "`'static`" means
//! "until then".
//! Everything that holds heap references (mirrors, statics, interned strings) is per domain and
//! lives in `vm::domain`. Loading, layout and dispatch tables are built in [`loader`];
//! constant-pool resolution in [`resolve`].

pub mod exports;
pub use base::ids;
pub use base::ids::{ClassId, DomainId, LoaderId, MethodId, Unit};
pub mod lambda;
pub mod loader;
pub mod manifest;
pub mod metadata;
pub mod pso;
pub mod resolve;
pub mod source;
pub mod summaries;
#[allow(unsafe_code)] // frees the leaked metadata of unloaded classes
pub mod unload;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, Ordering};

use classfile::{ClassFile, MethodInfo};

use crate::code::Prepared;

/// Basic (JVM "computational" plus storage) types.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum BasicType {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Float,
    Long,
    Double,
    Ref,
    Void,
}

impl BasicType {
    pub fn from_descriptor_char(c: u8) -> BasicType {
        match c {
            b'Z' => BasicType::Boolean,
            b'B' => BasicType::Byte,
            b'C' => BasicType::Char,
            b'S' => BasicType::Short,
            b'I' => BasicType::Int,
            b'F' => BasicType::Float,
            b'J' => BasicType::Long,
            b'D' => BasicType::Double,
            b'V' => BasicType::Void,
            _ => BasicType::Ref,
        }
    }
    /// Bytes this type occupies in an object or array.
    pub fn size(self) -> usize {
        match self {
            BasicType::Boolean | BasicType::Byte => 1,
            BasicType::Char | BasicType::Short => 2,
            BasicType::Int | BasicType::Float => 4,
            BasicType::Long | BasicType::Double | BasicType::Ref => 8,
            BasicType::Void => 0,
        }
    }
    /// Frame slots a value takes (JVMS category).
    #[inline]
    pub fn slots(self) -> usize {
        match self {
            BasicType::Long | BasicType::Double => 2,
            BasicType::Void => 0,
            _ => 1,
        }
    }
    pub fn descriptor_char(self) -> char {
        match self {
            BasicType::Boolean => 'Z',
            BasicType::Byte => 'B',
            BasicType::Char => 'C',
            BasicType::Short => 'S',
            BasicType::Int => 'I',
            BasicType::Float => 'F',
            BasicType::Long => 'J',
            BasicType::Double => 'D',
            BasicType::Ref => 'L',
            BasicType::Void => 'V',
        }
    }
    pub fn java_name(self) -> &'static str {
        match self {
            BasicType::Boolean => "boolean",
            BasicType::Byte => "byte",
            BasicType::Char => "char",
            BasicType::Short => "short",
            BasicType::Int => "int",
            BasicType::Float => "float",
            BasicType::Long => "long",
            BasicType::Double => "double",
            BasicType::Ref => "object",
            BasicType::Void => "void",
        }
    }
}

impl BasicType {
    /// Whether a value of this primitive type converts to `dst` by widening (JLS §5.1.2).
    pub fn widens_to(self, dst: BasicType) -> bool {
        use BasicType::*;
        matches!(
            (self, dst),
            (Byte, Short | Int | Long | Float | Double)
                | (Short, Int | Long | Float | Double)
                | (Char, Int | Long | Float | Double)
                | (Int, Long | Float | Double)
                | (Long, Float | Double)
                | (Float, Double)
        )
    }

    /// The wrapper class of a primitive type ("java/lang/Integer"; Object for others).
    pub fn wrapper_class(self) -> &'static str {
        match self {
            BasicType::Boolean => "java/lang/Boolean",
            BasicType::Byte => "java/lang/Byte",
            BasicType::Char => "java/lang/Character",
            BasicType::Short => "java/lang/Short",
            BasicType::Int => "java/lang/Integer",
            BasicType::Float => "java/lang/Float",
            BasicType::Long => "java/lang/Long",
            BasicType::Double => "java/lang/Double",
            _ => "java/lang/Object",
        }
    }
}

/// The parameter descriptors of a method descriptor, in order, without allocating
/// ("(I[JLa/B;)V" gives "I", "[J", "La/B;"). Stops at the first malformed one.
pub struct ParamDescriptors<'a> {
    desc: &'a str,
    at: usize,
}

impl<'a> Iterator for ParamDescriptors<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let b = self.desc.as_bytes();
        let start = self.at;
        let mut i = start;
        while b.get(i) == Some(&b'[') {
            i += 1;
        }
        match b.get(i)? {
            b')' if i == start => return None,
            b'L' => i += b[i..].iter().position(|&c| c == b';')? + 1,
            _ => i += 1,
        }
        self.at = i;
        self.desc.get(start..i)
    }
}

#[inline]
pub fn param_descriptors(desc: &str) -> ParamDescriptors<'_> {
    ParamDescriptors { desc, at: 1 }
}

/// The return descriptor of a method descriptor (after the ')').
#[inline]
pub fn return_descriptor(desc: &str) -> &str {
    desc.rfind(')').map_or("", |i| &desc[i + 1..])
}

#[derive(Debug)]
pub enum ClassKind {
    Instance,
    /// An array class; `elem` is the element's basic type.
    Array {
        component: &'static Class,
        elem: BasicType,
    },
    Primitive(BasicType),
}

/// A field of a class, with its laid-out offset.
#[derive(Debug)]
pub struct Field {
    pub name: Box<str>,
    pub descriptor: Box<str>,
    pub access: u16,
    pub ty: BasicType,
    /// Byte offset in the object (instance) or in the mirror (static).
    pub offset: u32,
    pub constant_value: Option<u16>,
    /// Index of this field in the class file (for reflection's slot).
    pub index: u16,
    /// For an instance field of a PSO class: its offset in the object's container
    /// ([`pso`]); the heap slot at `offset` then only caches a reference field's target.
    pub place: Option<u32>,
}

impl Field {
    #[inline]
    pub fn is_static(&self) -> bool {
        self.access & classfile::access::ACC_STATIC != 0
    }
    #[inline]
    pub fn is_volatile(&self) -> bool {
        self.access & classfile::access::ACC_VOLATILE != 0
    }
}

/// A native method's implementation, as metadata records it: an index into the native layer's
/// table of functions (`vm::native::Registry`), whose signature names the thread type
/// this layer must not know.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NativeId(pub u32);

/// A method of a class.
/// A method's parsed form: the one in its class's class file (`Class::file`, which lives as long
/// as the class: not copied), or the VM's own for a synthetic method.
pub enum MethodSource {
    File(&'static MethodInfo),
    Synthetic(Box<MethodInfo>),
}

impl std::ops::Deref for MethodSource {
    type Target = MethodInfo;
    fn deref(&self) -> &MethodInfo {
        match self {
            MethodSource::File(m) => m,
            MethodSource::Synthetic(m) => m,
        }
    }
}

pub struct Method {
    pub class: &'static Class,
    pub name: Box<str>,
    pub descriptor: Box<str>,
    pub access: u16,
    /// Global id (index into the VM's method table), used in backtraces.
    pub id: MethodId,
    /// How many methods had this id before this one (see `ids`).
    pub generation: u16,
    /// Index in the declaring class's method list (reflection slot).
    pub index: u16,
    /// Argument slots including the receiver.
    pub arg_slots: u16,
    pub param_types: Box<[BasicType]>,
    pub ret: BasicType,
    pub vtable_index: OnceLock<u32>,
    /// This method's prepared code once compiled callers may call it without the VM (see
    /// [`Method::link_direct`]), else null: what a virtual call in compiled code reads of the
    /// method it selected (`vm::offsets`).
    pub direct: AtomicPtr<Prepared>,
    /// Its parsed form (field accesses go through `Deref`).
    pub info: MethodSource,
    /// Pre-decoded code, built on first invocation.
    pub prepared: OnceLock<Result<Prepared, String>>,
    /// Bound native implementation, looked up on first invocation (None: there is none).
    pub native: OnceLock<Option<NativeId>>,
    /// A VM primitive that replaces the method (see `intrinsics`), found when it is loaded.
    pub intrinsic: Option<crate::intrinsics::PureFn>,
    /// A code mapping that replaces this instance method of the API (see `mappings`), found
    /// when it is loaded.
    pub mapped: Option<crate::mappings::Primitive>,
}

impl std::fmt::Debug for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}{}", self.class.name, self.name, self.descriptor)
    }
}

impl Method {
    #[inline]
    pub fn is_static(&self) -> bool {
        self.access & classfile::access::ACC_STATIC != 0
    }
    #[inline]
    pub fn is_native(&self) -> bool {
        self.access & classfile::access::ACC_NATIVE != 0
    }
    #[inline]
    pub fn is_abstract(&self) -> bool {
        self.access & classfile::access::ACC_ABSTRACT != 0
    }
    #[inline]
    pub fn is_private(&self) -> bool {
        self.access & classfile::access::ACC_PRIVATE != 0
    }
    #[inline]
    pub fn is_public(&self) -> bool {
        self.access & classfile::access::ACC_PUBLIC != 0
    }
    #[inline]
    pub fn is_protected(&self) -> bool {
        self.access & classfile::access::ACC_PROTECTED != 0
    }
    #[inline]
    pub fn is_synchronized(&self) -> bool {
        self.access & classfile::access::ACC_SYNCHRONIZED != 0
    }
    #[inline]
    pub fn is_varargs(&self) -> bool {
        self.access & classfile::access::ACC_VARARGS != 0
    }
    /// Line number for bytecode index `bci`, if known.
    pub fn line_number(&self, bci: u32) -> Option<u16> {
        let code = self.info.code.as_ref()?;
        let mut line = None;
        for &(start, l) in &code.line_numbers {
            if start as u32 <= bci {
                line = Some(l);
            } else {
                break;
            }
        }
        line
    }
    /// How a stack trace shows this method at `bci` (u32::MAX for a native frame), as
    /// StackTraceElement.toString does: "Main.work(Main.java:12)", "(Native Method)",
    /// "(Unknown Source)"; `module_prefix` ("java.base@17.0.1/") goes before the place.
    pub fn frame_text(&self, bci: u32, module_prefix: &str) -> String {
        let place = match (bci == u32::MAX, self.class.source_file()) {
            (true, _) => "Native Method".to_string(),
            (false, None) => "Unknown Source".to_string(),
            (false, Some(file)) => match self.line_number(bci) {
                Some(line) => format!("{file}:{line}"),
                None => file.to_string(),
            },
        };
        format!(
            "{}.{}({module_prefix}{place})",
            self.class.java_name(),
            self.name
        )
    }
    /// Whether compiled code may call this method's code without the VM's call path, once
    /// it has proven code: it needs nothing that path does (a monitor, a native frame, a VM
    /// primitive in its place).
    pub fn runs_directly(&self) -> bool {
        !(self.is_native() || self.is_abstract() || self.is_synchronized())
            && self.intrinsic.is_none()
            && self.mapped.is_none()
    }

    /// This method's code if compiled code may call it directly (or inline it): it
    /// [`runs_directly`] and its code is proven for the interpreter (so it has run before).
    ///
    /// [`runs_directly`]: Method::runs_directly
    pub fn direct_code(&self) -> Option<&Prepared> {
        match self.prepared.get() {
            Some(Ok(p)) if self.runs_directly() && p.proven_frame_slots() > 0 => Some(p),
            _ => None,
        }
    }

    /// Publishes this method's [`direct_code`] to compiled callers that select it at run
    /// time (a virtual call through the vtable); they call it whenever its tier has code
    /// installed.
    ///
    /// [`direct_code`]: Method::direct_code
    pub fn link_direct(&self) {
        if let Some(p) = self.direct_code() {
            let p = p as *const Prepared as *mut Prepared;
            self.direct.store(p, Ordering::Release);
        }
    }

    /// The vtable slot a virtual call of this method selects its target by, or None when it
    /// runs this method itself (private or final) or has no slot.
    pub fn vtable_slot(&self) -> Option<u32> {
        let own = self.is_private() || self.access & classfile::access::ACC_FINAL != 0;
        if own {
            return None;
        }
        self.vtable_index.get().copied()
    }

    /// Whether this method is signature-polymorphic (JVMS §2.9.3).
    #[inline]
    pub fn is_signature_polymorphic(&self) -> bool {
        let c = &*self.class.name;
        (c == "java/lang/invoke/MethodHandle" || c == "java/lang/invoke/VarHandle")
            && self.is_native()
            && self.access & classfile::access::ACC_VARARGS != 0
    }
}

/// Linked dispatch tables of an instance class.
#[derive(Default)]
pub struct Dispatch {
    pub vtable: Vec<&'static Method>,
    /// Interface method selection: key is (name, descriptor) interned id.
    pub itable: rustc_hash::FxHashMap<u32, &'static Method>,
}

/// Where HotSpot's messages place a class of `module` (None: the unnamed module of its loader)
/// defined by `loader` (see [`Class::module_of_loader`]).
#[inline]
pub fn module_of_loader(loader: LoaderId, module: Option<&str>) -> String {
    let loader = loader::loader_name(loader);
    match module {
        Some(m) => format!("module {m} of loader {loader}"),
        None => format!("unnamed module of loader {loader}"),
    }
}

/// Whether instances of the class that `cf` defines, a subclass of `super_class`, need
/// finalization, as HotSpot decides it when it parses a class: a class that declares an empty
/// `finalize()V` (its code a lone `return`) does not, whatever its superclass does; otherwise one
/// does if it declares a `finalize()V` with any other body (or none: abstract, native) or its
/// superclass does. `Object.finalize` is empty, so only a real override counts.
pub fn has_finalizer(cf: &ClassFile, super_class: Option<&Class>) -> bool {
    let mut declared = None;
    for m in &cf.methods {
        if m.name == "finalize"
            && m.descriptor == "()V"
            && m.access_flags & classfile::access::ACC_STATIC == 0
        {
            let empty = m.code.as_ref().is_some_and(|c| c.code == [0xb1]);
            declared = Some(!empty);
        }
    }
    match declared {
        Some(non_empty) => non_empty,
        None => super_class.is_some_and(|s| s.finalizable),
    }
}

/// A class's metadata. `#[repr(C)]`: compiled code reads the fields `vm::offsets` names.
#[repr(C)]
pub struct Class {
    pub id: ClassId,
    /// Internal name: "java/lang/String", "[I", "[Ljava/lang/Object;", or "int" for primitives.
    pub name: Box<str>,
    pub loader: LoaderId,
    pub access: u16,
    pub kind: ClassKind,
    pub super_class: Option<&'static Class>,
    pub interfaces: Vec<&'static Class>,
    /// Every proper superclass, java/lang/Object first (so `supers.len()` is the depth).
    pub supers: Vec<&'static Class>,
    /// Every interface this class implements, transitively.
    pub all_interfaces: Vec<&'static Class>,
    /// Declared fields.
    pub fields: Vec<Field>,
    /// Size in bytes of an instance (header included).
    pub instance_size: u32,
    /// Offsets of every reference field of an instance (inherited included).
    pub ref_offsets: Vec<u32>,
    /// Offsets of reference static fields inside the mirror.
    pub static_ref_offsets: Vec<u32>,
    pub methods: OnceLock<Vec<Method>>,
    /// Set once, by [`Class::set_dispatch`].
    pub dispatch: OnceLock<Dispatch>,
    /// The first entry of `dispatch`'s vtable once it is set, else null: what compiled code
    /// loads to select a virtual call's target (`vm::offsets`).
    pub vtable_base: AtomicPtr<&'static Method>,
    /// The parsed class file (constant pool, attributes); None for arrays and primitives.
    pub file: Option<ClassFile>,
    /// Per-constant-pool-entry resolution cache.
    pub cp_cache: Box<[OnceLock<resolve::Resolved>]>,
    /// Module name for JDK classes ("java.base"), None for unnamed-module classes.
    pub module: Option<Box<str>>,
    /// Result of verification/linking, computed once.
    pub linked: OnceLock<Result<(), loader::LoadError>>,
    /// Hidden classes (lambda proxies) are not found by name.
    pub hidden: bool,
    /// The hidden class defined without `STRONG` that this class goes with (itself, or the one
    /// it is an array or a lambda proxy of): see [`Unit::Hidden`].
    pub hidden_unit: Option<ClassId>,
    /// For lambda proxy classes: the call-site binding behind it.
    pub lambda: Option<Box<lambda::LambdaShape>>,
    /// The array class whose component is this class, created on demand.
    pub array_of: OnceLock<&'static Class>,
    /// Size of this class's static fields block (inside the mirror, after the VM slot).
    pub statics_size: u32,
    /// Nesting depth of array classes (0 for non-arrays).
    pub dims: u8,
    /// Whether its instances and statics may hold capabilities (`crate::api::makes_api_class`),
    /// decided when the class is made: `Unsafe` checks it on every access.
    pub api: bool,
    /// For `jx.pso.PSO` and its subclasses: where instance fields live in a container.
    pub pso: Option<Box<pso::PsoLayout>>,
    /// Whether its instances are registered with `java.lang.ref.Finalizer` when `Object.<init>`
    /// returns (HotSpot's `has_finalizer`, see [`has_finalizer`]); never for arrays. Compiled
    /// code reads it (`vm::offsets`).
    pub finalizable: bool,
}

impl std::fmt::Debug for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Class({})", self.name)
    }
}

impl Class {
    /// A boot-loader class of java.base with no fields, methods or class file (primitive and
    /// array classes start so; tests use it for synthetic classes).
    pub fn bare(
        id: ClassId,
        name: &str,
        kind: ClassKind,
        super_class: Option<&'static Class>,
        access: u16,
    ) -> Class {
        Class {
            id,
            name: name.into(),
            loader: LoaderId::BOOT,
            access,
            kind,
            super_class,
            interfaces: Vec::new(),
            supers: Vec::new(),
            all_interfaces: Vec::new(),
            fields: Vec::new(),
            instance_size: base::layout::HEADER_SIZE as u32,
            ref_offsets: Vec::new(),
            static_ref_offsets: Vec::new(),
            statics_size: 0,
            methods: OnceLock::new(),
            dispatch: OnceLock::new(),
            vtable_base: AtomicPtr::new(std::ptr::null_mut()),
            file: None,
            cp_cache: Box::new([]),
            module: Some("java.base".into()),
            linked: OnceLock::new(),
            hidden: false,
            hidden_unit: None,
            lambda: None,
            array_of: OnceLock::new(),
            dims: 0,
            api: false,
            pso: None,
            finalizable: false,
        }
    }

    /// What this class is unloaded with in a living domain.
    #[inline]
    pub fn unit(&self) -> Unit {
        match self.hidden_unit {
            Some(h) => Unit::Hidden(h),
            None => Unit::Loader(self.loader),
        }
    }

    #[inline]
    pub fn methods(&self) -> &[Method] {
        self.methods.get().map_or(&[], |v| v.as_slice())
    }
    #[inline]
    pub fn is_interface(&self) -> bool {
        self.access & classfile::access::ACC_INTERFACE != 0
    }
    #[inline]
    pub fn is_abstract(&self) -> bool {
        self.access & classfile::access::ACC_ABSTRACT != 0
    }
    /// The enum class whose constant an instance of this class is (the class itself, or its
    /// superclass for a constant with a body); None if this is not an enum's class.
    #[inline]
    pub fn enum_type(&'static self) -> Option<&'static Class> {
        let is_enum = |k: &Class| k.super_class.is_some_and(|s| &*s.name == "java/lang/Enum");
        if is_enum(self) {
            Some(self)
        } else {
            self.super_class.filter(|s| is_enum(s))
        }
    }

    #[inline]
    pub fn is_array(&self) -> bool {
        matches!(self.kind, ClassKind::Array { .. })
    }
    #[inline]
    pub fn is_primitive(&self) -> bool {
        matches!(self.kind, ClassKind::Primitive(_))
    }
    #[inline]
    pub fn array_component(&self) -> Option<&'static Class> {
        match self.kind {
            ClassKind::Array { component, .. } => Some(component),
            _ => None,
        }
    }
    #[inline]
    pub fn array_elem(&self) -> BasicType {
        match self.kind {
            ClassKind::Array { elem, .. } => elem,
            _ => BasicType::Void,
        }
    }
    /// The name its own InnerClasses entry gives it (`Class.getSimpleBinaryName0`): a member
    /// or local class's simple name ("Address" for a local `1Address`); None for a top-level
    /// or anonymous class.
    pub fn simple_binary_name(&self) -> Option<&str> {
        let cf = self.file.as_ref()?;
        let cp = &cf.constant_pool;
        let entry = cf
            .inner_classes
            .iter()
            .find(|ic| cp.class_name(ic.inner_class_info) == Some(&*self.name))?;
        (entry.inner_name != 0)
            .then(|| cp.utf8(entry.inner_name))
            .flatten()
    }

    /// Java-visible name with dots: "java.lang.String", "[I", "[Ljava.lang.Object;".
    #[inline]
    pub fn java_name(&self) -> String {
        self.name.replace('/', ".")
    }
    /// The runtime package name (internal form, "" for the unnamed package).
    pub fn package(&self) -> &str {
        let n: &str = &self.name;
        let n = n.trim_start_matches('[');
        let n = n.strip_prefix('L').filter(|_| self.is_array()).unwrap_or(n);
        match n.rfind('/') {
            Some(i) => &n[..i],
            None => "",
        }
    }
    /// Whether this is reflection's `MagicAccessorImpl` or a subclass (the generated
    /// accessors), which HotSpot exempts from access checks.
    #[inline]
    pub fn is_magic_accessor(&self) -> bool {
        const MAGIC: &str = "jdk/internal/reflect/MagicAccessorImpl";
        *self.name == *MAGIC || self.supers.iter().any(|s| *s.name == *MAGIC)
    }

    /// Where HotSpot's messages place the class: "unnamed module of loader 'app'",
    /// "module java.base of loader 'bootstrap'".
    #[inline]
    pub fn module_of_loader(&self) -> String {
        module_of_loader(self.loader, self.module.as_deref())
    }

    /// The parenthesised part of HotSpot's linkage and cast messages about `self` and `other`
    /// (without the parentheses): "A and B are in M" when both are in one module, else
    /// "A is in M; B is in N".
    pub fn modules_of_loaders(&self, other: &Class) -> String {
        let (a, b) = (self.java_name(), other.java_name());
        if self.loader == other.loader && self.module == other.module {
            format!("{a} and {b} are in {}", self.module_of_loader())
        } else {
            format!(
                "{a} is in {}; {b} is in {}",
                self.module_of_loader(),
                other.module_of_loader()
            )
        }
    }

    /// Whether instances of `self` are assignable to `target` (JVMS checkcast rules).
    #[inline]
    pub fn is_subtype_of(&'static self, target: &'static Class) -> bool {
        if std::ptr::eq(self, target) {
            return true;
        }
        match (&self.kind, &target.kind) {
            (
                ClassKind::Array {
                    component: sc,
                    elem: se,
                },
                ClassKind::Array {
                    component: tc,
                    elem: te,
                },
            ) => {
                if *se == BasicType::Ref && *te == BasicType::Ref {
                    sc.is_subtype_of(tc)
                } else {
                    std::ptr::eq(*sc, *tc)
                }
            }
            (ClassKind::Array { .. }, ClassKind::Instance) => {
                &*target.name == "java/lang/Object"
                    || &*target.name == "java/lang/Cloneable"
                    || &*target.name == "java/io/Serializable"
            }
            (ClassKind::Instance, ClassKind::Instance) => {
                if target.is_interface() {
                    self.all_interfaces.iter().any(|i| std::ptr::eq(*i, target))
                } else {
                    self.supers
                        .get(target.supers.len())
                        .is_some_and(|s| std::ptr::eq(*s, target))
                }
            }
            _ => false,
        }
    }
    #[inline]
    pub fn field(&self, name: &str, desc: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|f| &*f.name == name && &*f.descriptor == desc)
    }
    /// Finds an instance field by name in this class or its superclasses.
    pub fn instance_field(&'static self, name: &str) -> Option<&'static Field> {
        let mut c = Some(self);
        while let Some(k) = c {
            if let Some(f) = k.fields.iter().find(|f| &*f.name == name && !f.is_static()) {
                return Some(f);
            }
            c = k.super_class;
        }
        None
    }
    #[inline]
    pub fn declared_method(&self, name: &str, desc: &str) -> Option<&Method> {
        self.methods()
            .iter()
            .find(|m| &*m.name == name && &*m.descriptor == desc)
    }
    #[inline]
    pub fn source_file(&self) -> Option<&str> {
        self.file.as_ref()?.source_file.as_deref()
    }
    /// Publishes the class's dispatch tables (once; later calls are ignored) and its vtable's
    /// address for compiled code.
    pub fn set_dispatch(&self, d: Dispatch) {
        if self.dispatch.set(d).is_ok() {
            let base = self.vtable().as_ptr() as *mut &'static Method;
            self.vtable_base.store(base, Ordering::Release);
        }
    }

    #[inline]
    pub fn vtable(&self) -> &[&'static Method] {
        self.dispatch.get().map_or(&[], |d| d.vtable.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::LoaderId;
    use super::loader::{ClassSources, ClassTable};

    #[test]
    fn finalizable_classes_are_those_hotspot_registers() {
        let home = std::env::var_os("JAVA_HOME")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "/usr/lib/jvm/java-17-openjdk-amd64".into());
        let Ok(jimage) = jimage::JImage::open(&home.join("lib/modules")) else {
            eprintln!("SKIP: no JDK image");
            return;
        };
        let classes = ClassTable::new(ClassSources {
            jimage,
            classpath: Default::default(),
        });
        let finalizable = |n: &str| {
            classes
                .load(LoaderId::BOOT, n)
                .unwrap_or_else(|e| panic!("{n}: {}", e.message()))
                .finalizable
        };
        assert!(!finalizable("java/lang/Object"), "Object.finalize is empty");
        assert!(!finalizable("java/lang/String"));
        assert!(
            finalizable("java/util/concurrent/Executors$FinalizableDelegatedExecutorService"),
            "declares a finalize that shuts its executor down"
        );
        assert!(
            !finalizable("java/util/concurrent/ThreadPoolExecutor"),
            "declares an empty finalize"
        );
        assert!(
            !finalizable("java/util/concurrent/ScheduledThreadPoolExecutor"),
            "inherits an empty finalize"
        );
    }
}
