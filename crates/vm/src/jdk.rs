//! The fields of JDK classes the VM reads and writes itself, resolved once (HotSpot's
//! `compute_offsets`): each class is a typed table of offsets, filled the first time it is
//! needed — at boot for the classes the VM always uses ([`resolve_at_boot`]), from the first
//! object of the class a native sees for the others — and a field missing from the JDK is a
//! Java `InternalError` (or a boot error), never a panic nor a lookup by name at each call.
//!
//! Offsets are the same in every domain (classes are shared), so each table is process-wide.
//! Owns the tables; knows classes and layouts only, not what the natives do with the fields.

use std::sync::OnceLock;

use crate::class::loader::ClassTable;
use crate::class::{Class, LoaderId};

/// A field the VM needs is missing from the JDK's class (a JDK this VM does not know).
#[derive(Debug, Clone)]
pub struct Missing(pub String);

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "jxvm: the JDK's {} is not what jxvm expects", self.0)
    }
}

/// The offsets of one JDK class's fields.
pub trait JdkClass: Sized + Send + Sync + 'static {
    /// The class, internal form.
    const NAME: &'static str;
    /// Reads the offsets from the class itself.
    fn resolve(c: &'static Class) -> Result<Self, Missing>;
    /// The class they were read from.
    fn class(&self) -> &'static Class;
    /// Where they are kept once resolved.
    fn cell() -> &'static OnceLock<Self>;

    /// The offsets for an object of class `c`, which must be the JDK's class of that name or
    /// a subclass (resolved from it the first time).
    fn of(c: &'static Class) -> Result<&'static Self, Missing> {
        let not_one = || Missing(format!("{} (an object of {})", Self::NAME, c.name));
        if let Some(v) = Self::cell().get() {
            return if c.is_subtype_of(v.class()) {
                Ok(v)
            } else {
                Err(not_one())
            };
        }
        let declaring = std::iter::successors(Some(c), |k| k.super_class)
            .find(|k| &*k.name == Self::NAME && is_jdk_loader(k.loader))
            .ok_or_else(not_one)?;
        let v = Self::resolve(declaring)?;
        Ok(Self::cell().get_or_init(|| v))
    }

    /// The offsets, loading the class through the boot loader if need be.
    fn load(classes: &ClassTable) -> Result<&'static Self, Missing> {
        if let Some(v) = Self::cell().get() {
            return Ok(v);
        }
        let c = classes
            .load(LoaderId::BOOT, Self::NAME)
            .map_err(|e| Missing(format!("{} ({})", Self::NAME, e.message())))?;
        Self::of(c)
    }

    /// The offsets of a class resolved at boot ([`resolve_at_boot`]).
    fn get() -> &'static Self {
        Self::cell()
            .get()
            .expect("the class's fields are resolved at boot")
    }
}

fn is_jdk_loader(l: LoaderId) -> bool {
    l == LoaderId::BOOT || l == LoaderId::PLATFORM
}

fn offset(c: &Class, name: &str) -> Result<usize, Missing> {
    c.fields
        .iter()
        .find(|f| !f.is_static() && &*f.name == name)
        .map(|f| f.offset as usize)
        .ok_or_else(|| Missing(format!("{}.{name}", c.name)))
}

/// Declares JDK classes' field tables: `Type = "internal/Name" { field = "javaName", ... }`.
macro_rules! jdk_classes {
    ($(
        $(#[$doc:meta])*
        $ty:ident = $class:literal { $($field:ident = $jname:literal),* $(,)? }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug)]
            pub struct $ty {
                class: &'static Class,
                $(pub $field: usize,)*
            }

            impl JdkClass for $ty {
                const NAME: &'static str = $class;
                fn resolve(c: &'static Class) -> Result<Self, Missing> {
                    Ok($ty { class: c, $($field: offset(c, $jname)?,)* })
                }
                fn class(&self) -> &'static Class {
                    self.class
                }
                fn cell() -> &'static OnceLock<Self> {
                    static CELL: OnceLock<$ty> = OnceLock::new();
                    &CELL
                }
            }
        )*

        /// Resolves every table: whether the JDK has every field the VM reads.
        #[cfg(test)]
        fn resolve_all(classes: &ClassTable) -> Result<usize, Missing> {
            let mut n = 0;
            $( $ty::load(classes)?; n += 1; )*
            Ok(n)
        }
    };
}

jdk_classes! {
    Thread = "java/lang/Thread" {
        tid = "tid",
        eetop = "eetop",
        thread_status = "threadStatus",
        interrupted = "interrupted",
        daemon = "daemon",
        priority = "priority",
        name = "name",
        park_blocker = "parkBlocker",
    }
    AbstractOwnableSynchronizer = "java/util/concurrent/locks/AbstractOwnableSynchronizer" {
        exclusive_owner_thread = "exclusiveOwnerThread",
    }
    Reference = "java/lang/ref/Reference" {
        referent = "referent",
        discovered = "discovered",
        next = "next",
    }
    ReflectField = "java/lang/reflect/Field" { clazz = "clazz", slot = "slot" }
    ReflectMethod = "java/lang/reflect/Method" { clazz = "clazz", slot = "slot" }
    ReflectConstructor = "java/lang/reflect/Constructor" { clazz = "clazz", slot = "slot" }
    StackTraceElement = "java/lang/StackTraceElement" {
        class_object = "declaringClassObject",
        loader = "classLoaderName",
        module = "moduleName",
        version = "moduleVersion",
        declaring = "declaringClass",
        method = "methodName",
        file = "fileName",
        line = "lineNumber",
    }
    ClassLoader = "java/lang/ClassLoader" {
        name = "name",
        name_and_id = "nameAndId",
        unnamed_module = "unnamedModule",
    }
    Enum = "java/lang/Enum" { ordinal = "ordinal" }
    StackFrameInfo = "java/lang/StackFrameInfo" { member_name = "memberName", bci = "bci" }
    VarHandle = "java/lang/invoke/VarHandle" { exact = "exact" }
    AccessMode = "java/lang/invoke/VarHandle$AccessMode" { at = "at" }
    JxDomain = "jx/domain/Domain" { id = "id", name = "name" }
    ConstantPool = "jdk/internal/reflect/ConstantPool" { constant_pool_oop = "constantPoolOop" }
    RecordComponent = "java/lang/reflect/RecordComponent" {
        clazz = "clazz",
        name = "name",
        type_ = "type",
        accessor = "accessor",
        signature = "signature",
        annotations = "annotations",
        type_annotations = "typeAnnotations",
    }
    Throwable = "java/lang/Throwable" {
        backtrace = "backtrace",
        depth = "depth",
        stack_trace = "stackTrace",
    }
    JString = "java/lang/String" { value = "value", coder = "coder", hash = "hash" }
    JClass = "java/lang/Class" {
        class_loader = "classLoader",
        component_type = "componentType",
        module = "module",
        name = "name",
    }
    Inflater = "java/util/zip/Inflater" {
        input_consumed = "inputConsumed",
        output_consumed = "outputConsumed",
    }
    BooleanBox = "java/lang/Boolean" { value = "value" }
    ByteBox = "java/lang/Byte" { value = "value" }
    CharacterBox = "java/lang/Character" { value = "value" }
    ShortBox = "java/lang/Short" { value = "value" }
    IntegerBox = "java/lang/Integer" { value = "value" }
    LongBox = "java/lang/Long" { value = "value" }
    FloatBox = "java/lang/Float" { value = "value" }
    DoubleBox = "java/lang/Double" { value = "value" }
    Buffer = "java/nio/Buffer" { address = "address", capacity = "capacity" }
    Module = "java/lang/Module" { name = "name", loader = "loader" }
    AssertionStatusDirectives = "java/lang/AssertionStatusDirectives" {
        classes = "classes",
        packages = "packages",
        class_enabled = "classEnabled",
        package_enabled = "packageEnabled",
        deflt = "deflt",
    }
    NativeLibraryImpl = "jdk/internal/loader/NativeLibraries$NativeLibraryImpl" {
        handle = "handle",
        jni_version = "jniVersion",
    }
    FileDescriptor = "java/io/FileDescriptor" {
        fd = "fd",
        append = "append",
    }
    FileInputStream = "java/io/FileInputStream" { fd = "fd" }
    FileOutputStream = "java/io/FileOutputStream" { fd = "fd" }
    RandomAccessFile = "java/io/RandomAccessFile" { fd = "fd" }
    File = "java/io/File" { path = "path" }
    UnixFileAttributes = "sun/nio/fs/UnixFileAttributes" {
        mode = "st_mode",
        ino = "st_ino",
        dev = "st_dev",
        rdev = "st_rdev",
        nlink = "st_nlink",
        uid = "st_uid",
        gid = "st_gid",
        size = "st_size",
        atime_sec = "st_atime_sec",
        atime_nsec = "st_atime_nsec",
        mtime_sec = "st_mtime_sec",
        mtime_nsec = "st_mtime_nsec",
        ctime_sec = "st_ctime_sec",
        ctime_nsec = "st_ctime_nsec",
        birthtime_sec = "st_birthtime_sec",
        birthtime_nsec = "st_birthtime_nsec",
    }
    UnixFileStoreAttributes = "sun/nio/fs/UnixFileStoreAttributes" {
        frsize = "f_frsize",
        blocks = "f_blocks",
        bfree = "f_bfree",
        bavail = "f_bavail",
    }
    UnixMountEntry = "sun/nio/fs/UnixMountEntry" {
        name = "name",
        dir = "dir",
        fstype = "fstype",
        opts = "opts",
    }
    FileKey = "sun/nio/ch/FileKey" { dev = "st_dev", ino = "st_ino" }
    FileChannelImpl = "sun/nio/ch/FileChannelImpl" { fd = "fd" }
    InetAddress = "java/net/InetAddress" { holder = "holder" }
    InetAddressHolder = "java/net/InetAddress$InetAddressHolder" { address = "address" }
    Inet6Address = "java/net/Inet6Address" { holder6 = "holder6" }
    Inet6AddressHolder = "java/net/Inet6Address$Inet6AddressHolder" {
        ipaddress = "ipaddress",
        scope_id = "scope_id",
        scope_ifname = "scope_ifname",
    }
    NetworkInterface = "java/net/NetworkInterface" {
        name = "name",
        display_name = "displayName",
        index = "index",
        is_virtual = "virtual",
        addrs = "addrs",
        bindings = "bindings",
        childs = "childs",
        parent = "parent",
    }
    InterfaceAddress = "java/net/InterfaceAddress" {
        address = "address",
        broadcast = "broadcast",
        mask_length = "maskLength",
    }
    ProcessInfo = "java/lang/ProcessHandleImpl$Info" {
        total_time = "totalTime",
        start_time = "startTime",
        user = "user",
        command = "command",
        arguments = "arguments",
        command_line = "commandLine",
    }
}

/// Resolves the tables of the classes the VM uses from the start (before any Java code runs,
/// so that code that has no thread to throw from can rely on them).
pub fn resolve_at_boot(classes: &ClassTable) -> Result<(), Missing> {
    Thread::load(classes)?;
    ClassLoader::load(classes)?;
    Enum::load(classes)?;
    Reference::load(classes)?;
    ReflectField::load(classes)?;
    ReflectMethod::load(classes)?;
    ReflectConstructor::load(classes)?;
    Ok(())
}

/// The offsets of `clazz` and `slot` in a reflective Field, Method or Constructor of class
/// `c` (these classes are final); None for an object of another class.
pub fn reflect_member(c: &'static Class) -> Option<(usize, usize)> {
    let is = |k: &'static Class| std::ptr::eq(c, k);
    let (f, m, k) = (
        ReflectField::get(),
        ReflectMethod::get(),
        ReflectConstructor::get(),
    );
    if is(f.class) {
        Some((f.clazz, f.slot))
    } else if is(m.class) {
        Some((m.clazz, m.slot))
    } else if is(k.class) {
        Some((k.clazz, k.slot))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_resolves_against_the_jdk() {
        let modules = "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules";
        let jimage = jimage::JImage::open(std::path::Path::new(modules)).expect("the JDK's image");
        let classes = ClassTable::new(crate::class::loader::ClassSources {
            jimage,
            classpath: Default::default(),
        });
        let n = resolve_all(&classes).unwrap_or_else(|e| panic!("{e}"));
        assert!(n > 40, "{n} tables");
        let t = Thread::get();
        assert!(t.tid != t.eetop && std::ptr::eq(t.class(), Thread::get().class()));
        let missing = FileDescriptor::of(Thread::get().class());
        assert!(missing.is_err(), "a Thread is no FileDescriptor");
    }
}
