//! Symbolic reference resolution (JVMS §5.4.3) into the per-class constant-pool cache.
//!
//! Resolution results that hold no heap reference (classes, field offsets, methods) are
//! shared metadata and cached in [`Class::cp_cache`]; failures are returned as
//! [`ResolveError`] naming the Java error to throw and are not cached. String constants and
//! other heap values are per domain and live in `vm::domain`.

use super::loader::{ClassTable, LoadError, maximally_specific};
use super::{BasicType, Class, Method};

/// A resolved constant-pool entry.
#[derive(Clone, Copy, Debug)]
pub enum Resolved {
    Class(&'static Class),
    Field(ResolvedField),
    /// A method (class or interface method ref) with its interned (name, descriptor) id.
    Method {
        method: &'static Method,
        sig: u32,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct ResolvedField {
    pub holder: &'static Class,
    pub offset: u32,
    pub ty: BasicType,
    pub is_static: bool,
    pub volatile: bool,
    /// The field's offset in a PSO's container (see [`super::Field::place`]).
    pub place: Option<u32>,
    /// Its index among `holder`'s declared fields.
    pub index: u16,
}

impl ResolvedField {
    /// What resolution records of field `f` declared by `holder`.
    fn of(holder: &'static Class, f: &super::Field) -> ResolvedField {
        ResolvedField {
            holder,
            offset: f.offset,
            ty: f.ty,
            is_static: f.is_static(),
            volatile: f.is_volatile(),
            place: f.place,
            index: f.index,
        }
    }
}

/// The Java error to throw for a failed resolution.
#[derive(Debug, Clone)]
pub struct ResolveError {
    pub class: &'static str,
    pub message: String,
}

impl From<LoadError> for ResolveError {
    fn from(e: LoadError) -> Self {
        let message = match &e {
            LoadError::NotFound(n) => n.clone(),
            other => other.message().to_string(),
        };
        ResolveError {
            class: e.java_class(),
            message,
        }
    }
}

fn err(class: &'static str, message: String) -> ResolveError {
    ResolveError { class, message }
}

fn cp(c: &Class) -> &classfile::ConstantPool {
    &c.file
        .as_ref()
        .expect("resolution on a class without a class file")
        .constant_pool
}

/// Loads `name` for a reference from `from`; a hidden class (not findable by name) refers to
/// itself by its class-file name.
/// A class of a JDK module whose package the module does not export to everyone is refused
/// to a class outside the JDK (`super::exports`), and a class not public to a class of
/// another run-time package (`check_class_access`).
fn load_from(
    table: &ClassTable,
    from: &'static Class,
    name: &str,
) -> Result<&'static Class, ResolveError> {
    if from.hidden && *from.name == *name {
        return Ok(from);
    }
    let c = table.load(from.loader, name)?;
    if !super::exports::may_link(&table.sources.jimage, from, c) {
        let module = c.module.as_deref().unwrap_or("?");
        let package = c.package().replace('/', ".");
        let msg = format!(
            "class {} (in unnamed module) cannot access class {} (in module {module}) because module {module} does not export {package} to unnamed module",
            from.java_name(),
            c.java_name()
        );
        return Err(err("java/lang/IllegalAccessError", msg));
    }
    check_class_access(from, c)?;
    Ok(c)
}

/// Resolves the CONSTANT_Class at `index` of `from`.
pub fn resolve_class(
    table: &ClassTable,
    from: &'static Class,
    index: u16,
) -> Result<&'static Class, ResolveError> {
    if let Some(Resolved::Class(c)) = from.cp_cache.get(index as usize).and_then(|s| s.get()) {
        return Ok(c);
    }
    let name = cp(from).class_name(index).ok_or_else(|| {
        err(
            "java/lang/VerifyError",
            format!("bad class index {index} in {}", from.name),
        )
    })?;
    let c = load_from(table, from, name)?;
    let _ = from.cp_cache[index as usize].set(Resolved::Class(c));
    Ok(c)
}

/// Resolves a field reference (JVMS §5.4.3.2).
pub fn resolve_field(
    table: &ClassTable,
    from: &'static Class,
    index: u16,
) -> Result<ResolvedField, ResolveError> {
    if let Some(Resolved::Field(f)) = from.cp_cache.get(index as usize).and_then(|s| s.get()) {
        return Ok(*f);
    }
    let r = cp(from).member_ref(index).ok_or_else(|| {
        err(
            "java/lang/VerifyError",
            format!("bad field index {index} in {}", from.name),
        )
    })?;
    let (name, desc) = (r.name, r.descriptor);
    let c = load_from(table, from, r.class_name)?;
    let (holder, f) = find_field(c, name, desc)
        .ok_or_else(|| err("java/lang/NoSuchFieldError", name.to_string()))?;
    check_access(table, from, holder, f.access, || {
        format!("field {}.{name}", holder.java_name())
    })?;
    let rf = ResolvedField::of(holder, f);
    let _ = from.cp_cache[index as usize].set(Resolved::Field(rf));
    Ok(rf)
}

/// Resolves a field reference only if that needs no class loading: the referenced class is
/// `from` itself or already loaded by `from`'s loader. `None` leaves resolution (and any
/// error) to the first execution.
pub fn resolve_field_if_loaded(
    table: &ClassTable,
    from: &'static Class,
    index: u16,
) -> Option<ResolvedField> {
    if let Some(Resolved::Field(f)) = from.cp_cache.get(index as usize).and_then(|s| s.get()) {
        return Some(*f);
    }
    let r = cp(from).member_ref(index)?;
    let c = if *from.name == *r.class_name {
        from
    } else {
        table.find_loaded(from.loader, r.class_name)?
    };
    if !super::exports::may_link(&table.sources.jimage, from, c) {
        return None;
    }
    check_class_access(from, c).ok()?;
    let (holder, f) = find_field(c, r.name, r.descriptor)?;
    check_access(table, from, holder, f.access, String::new).ok()?;
    let rf = ResolvedField::of(holder, f);
    let _ = from.cp_cache[index as usize].set(Resolved::Field(rf));
    Some(rf)
}

/// The method entry `index` of `from`'s constant pool resolved to, if it has been.
fn method_resolved(from: &Class, index: u16) -> Option<(&'static Method, u32)> {
    match from.cp_cache.get(index as usize)?.get()? {
        Resolved::Method { method, sig } => Some((method, *sig)),
        _ => None,
    }
}

/// Whether constant-pool entry `index` is an interface method reference.
fn is_interface_ref(cpool: &classfile::ConstantPool, index: u16) -> bool {
    matches!(
        cpool.get(index),
        Some(classfile::Constant::InterfaceMethodRef { .. })
    )
}

/// Resolves a method reference only if that needs no class loading (as
/// [`resolve_field_if_loaded`]) and cannot fail; signature-polymorphic methods are left to
/// the first execution too. `None` leaves resolution (and any error) to the first execution.
pub fn resolve_method_if_loaded(
    table: &ClassTable,
    from: &'static Class,
    index: u16,
) -> Option<(&'static Method, u32)> {
    if let Some(resolved) = method_resolved(from, index) {
        return Some(resolved);
    }
    let cpool = cp(from);
    let is_interface_ref = is_interface_ref(cpool, index);
    let r = cpool.member_ref(index)?;
    let c = if *from.name == *r.class_name {
        from
    } else {
        table.find_loaded(from.loader, r.class_name)?
    };
    if !super::exports::may_link(&table.sources.jimage, from, c)
        || c.is_interface() != is_interface_ref
    {
        return None;
    }
    check_class_access(from, c).ok()?;
    let m = if is_interface_ref {
        lookup_interface_method(table, c, r.name, r.descriptor)
    } else {
        lookup_method(c, r.name, r.descriptor)
    }?;
    if m.is_signature_polymorphic() {
        return None;
    }
    check_access(table, from, m.class, m.access, String::new).ok()?;
    let sig = table.sig_id(r.name, r.descriptor);
    let _ = from.cp_cache[index as usize].set(Resolved::Method { method: m, sig });
    Some((m, sig))
}

/// Access control of a resolved field or method (JVMS §5.4.4): a member declared in `holder`
/// with flags `access` must be accessible to `from`, or resolution fails with
/// IllegalAccessError. Private members are accessible within a nest (`nest_host`). The JDK's
/// own classes, hidden classes (lambda proxies, the JDK's spun classes) and reflection's
/// accessors (MagicAccessorImpl) are not checked, as HotSpot trusts the latter — except for
/// the API module's rule (`crate::api::may_access`), which binds every class.
fn check_access(
    table: &ClassTable,
    from: &'static Class,
    holder: &'static Class,
    access: u16,
    what: impl FnOnce() -> String,
) -> Result<(), ResolveError> {
    use classfile::access::{ACC_PRIVATE, ACC_PROTECTED, ACC_PUBLIC};
    // The API module's rule binds everyone, the JDK and reflection's accessors included.
    if !crate::api::may_access(Some(from), holder, access) {
        let msg = format!("class {} tried to access {}", from.java_name(), what());
        return Err(err("java/lang/IllegalAccessError", msg));
    }
    if access & ACC_PUBLIC != 0
        || std::ptr::eq(from, holder)
        || !from.loader.is_app() && !from.loader.is_user()
        || from.hidden
    {
        return Ok(());
    }
    if from.is_magic_accessor() {
        return Ok(());
    }
    let same_package = from.loader == holder.loader && from.package() == holder.package();
    let ok = if access & ACC_PRIVATE != 0 {
        std::ptr::eq(nest_host(table, from), nest_host(table, holder))
    } else if access & ACC_PROTECTED != 0 {
        same_package || from.supers.iter().any(|s| std::ptr::eq(*s, holder))
    } else {
        same_package
    };
    if ok {
        return Ok(());
    }
    let kind = if access & ACC_PRIVATE != 0 {
        "private "
    } else if access & ACC_PROTECTED != 0 {
        "protected "
    } else {
        ""
    };
    Err(err(
        "java/lang/IllegalAccessError",
        format!(
            "class {} tried to access {kind}{} ({})",
            from.java_name(),
            what(),
            from.modules_of_loaders(holder)
        ),
    ))
}

/// Access control of a referenced class (JVMS §5.4.4): a class that is not public is
/// accessible only from its own run-time package (package name and defining loader), else
/// resolution fails with IllegalAccessError; for an array class, its element class decides.
/// Exempt as in [`check_access`]: the JDK's classes, hidden classes and reflection's accessors.
fn check_class_access(from: &'static Class, c: &'static Class) -> Result<(), ResolveError> {
    let mut target = c;
    while let Some(component) = target.array_component() {
        target = component;
    }
    if target.is_primitive()
        || target.access & classfile::access::ACC_PUBLIC != 0
        || std::ptr::eq(from, target)
        || !from.loader.is_app() && !from.loader.is_user()
        || from.hidden
        || (from.loader == target.loader && from.package() == target.package())
        || from.is_magic_accessor()
    {
        return Ok(());
    }
    Err(err(
        "java/lang/IllegalAccessError",
        format!(
            "failed to access class {} from class {} ({})",
            target.java_name(),
            from.java_name(),
            target.modules_of_loaders(from)
        ),
    ))
}

/// The host of `c`'s nest (JVMS §5.4.4): the class its NestHost attribute names (class files
/// of version 55 or later) if that class loads in the same run-time package and lists `c` in
/// its NestMembers; otherwise `c` itself, as HotSpot decides it.
pub fn nest_host(table: &ClassTable, c: &'static Class) -> &'static Class {
    let Some(cf) = &c.file else { return c };
    if cf.major_version < 55 {
        return c;
    }
    let Some(name) = cf.nest_host.and_then(|i| cf.constant_pool.class_name(i)) else {
        return c;
    };
    let Ok(host) = table.load(c.loader, name) else {
        return c;
    };
    let Some(hf) = &host.file else { return c };
    let listed = hf.major_version >= 55
        && hf
            .nest_members
            .iter()
            .any(|&i| hf.constant_pool.class_name(i) == Some(&*c.name));
    if listed && host.loader == c.loader && host.package() == c.package() {
        host
    } else {
        c
    }
}

/// Field lookup: the class, its superinterfaces, then its superclass.
pub fn find_field(
    c: &'static Class,
    name: &str,
    desc: &str,
) -> Option<(&'static Class, &'static super::Field)> {
    if let Some(f) = c.field(name, desc) {
        return Some((c, f));
    }
    for i in &c.interfaces {
        if let Some(r) = find_field(i, name, desc) {
            return Some(r);
        }
    }
    c.super_class.and_then(|s| find_field(s, name, desc))
}

/// Resolves a Methodref or InterfaceMethodref (JVMS §5.4.3.3, §5.4.3.4).
pub fn resolve_method(
    table: &ClassTable,
    from: &'static Class,
    index: u16,
) -> Result<(&'static Method, u32), ResolveError> {
    if let Some(resolved) = method_resolved(from, index) {
        return Ok(resolved);
    }
    let cpool = cp(from);
    let is_interface_ref = is_interface_ref(cpool, index);
    let r = cpool.member_ref(index).ok_or_else(|| {
        err(
            "java/lang/VerifyError",
            format!("bad method index {index} in {}", from.name),
        )
    })?;
    let c = load_from(table, from, r.class_name)?;
    let m = if is_interface_ref {
        if !c.is_interface() {
            return Err(err(
                "java/lang/IncompatibleClassChangeError",
                format!("Found class {}, but interface was expected", c.java_name()),
            ));
        }
        lookup_interface_method(table, c, r.name, r.descriptor)
    } else {
        if c.is_interface() {
            return Err(err(
                "java/lang/IncompatibleClassChangeError",
                format!("Found interface {}, but class was expected", c.java_name()),
            ));
        }
        lookup_method(c, r.name, r.descriptor)
    };
    let m = m.ok_or_else(|| {
        err(
            "java/lang/NoSuchMethodError",
            format!("'{}'", pretty_method(c, r.name, r.descriptor)),
        )
    })?;
    check_access(table, from, m.class, m.access, || {
        format!(
            "method '{}'",
            pretty_method(m.class, &m.name, &m.descriptor)
        )
    })?;
    let sig = table.sig_id(r.name, r.descriptor);
    let _ = from.cp_cache[index as usize].set(Resolved::Method { method: m, sig });
    Ok((m, sig))
}

/// The method an `invokespecial` of `m` in code of class `from` runs (JVMS §6.5
/// invokespecial): `m` itself, or for a superclass's method the one a lookup from `from`'s
/// superclass finds. It depends on `from` and `m` only, so compiled code selects it once.
pub fn select_special(from: &'static Class, m: &'static Method) -> &'static Method {
    if &*m.name == "<init>"
        || m.is_private()
        || m.class.is_interface()
        || std::ptr::eq(m.class, from)
    {
        return m;
    }
    if from.is_subtype_of(m.class)
        && let Some(sup) = from.super_class
        && let Some(sel) = lookup_method(sup, &m.name, &m.descriptor)
    {
        return sel;
    }
    m
}

/// Method lookup in a class: the class and its superclasses (signature-polymorphic methods
/// match by name), then maximally-specific superinterface methods.
#[inline]
pub fn lookup_method(c: &'static Class, name: &str, desc: &str) -> Option<&'static Method> {
    let mut k = Some(c);
    while let Some(cl) = k {
        if let Some(m) = cl
            .methods()
            .iter()
            .find(|m| &*m.name == name && &*m.descriptor == desc)
        {
            return Some(m);
        }
        if let Some(m) = cl
            .methods()
            .iter()
            .find(|m| &*m.name == name && m.is_signature_polymorphic())
        {
            return Some(m);
        }
        k = cl.super_class;
    }
    maximally_specific(c, name, desc)
}

/// Interface method lookup: the interface, Object's public methods, superinterfaces.
pub fn lookup_interface_method(
    table: &ClassTable,
    c: &'static Class,
    name: &str,
    desc: &str,
) -> Option<&'static Method> {
    if let Some(m) = c.declared_method(name, desc) {
        return Some(m);
    }
    if let Ok(obj) = table.load(super::LoaderId::BOOT, "java/lang/Object")
        && let Some(m) = obj
            .declared_method(name, desc)
            .filter(|m| m.is_public() && !m.is_static())
    {
        return Some(m);
    }
    maximally_specific(c, name, desc)
}

/// "void Foo.bar(int, java.lang.String)" as HotSpot prints in NoSuchMethodError.
pub fn pretty_method(c: &Class, name: &str, desc: &str) -> String {
    let Ok(md) = classfile::descriptor::parse_method_descriptor(desc) else {
        return format!("{}.{name}{desc}", c.java_name());
    };
    let ret = md.ret.as_ref().map_or("void".to_string(), pretty_type);
    let params: Vec<String> = md.params.iter().map(pretty_type).collect();
    format!("{ret} {}.{name}({})", c.java_name(), params.join(", "))
}

fn pretty_type(t: &classfile::descriptor::FieldType) -> String {
    use classfile::descriptor::FieldType::*;
    match t {
        Byte => "byte".into(),
        Char => "char".into(),
        Double => "double".into(),
        Float => "float".into(),
        Int => "int".into(),
        Long => "long".into(),
        Short => "short".into(),
        Boolean => "boolean".into(),
        Object(n) => n.replace('/', "."),
        Array(e) => format!("{}[]", pretty_type(e)),
    }
}
