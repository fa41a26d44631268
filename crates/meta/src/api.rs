//! The jxvm Java API (`jx.memory`, ...): compiled from `api/src` by the build script and embedded
//! in the binary as a jar. Its classes belong to the boot loader, so every domain and class
//! loader sees the same API classes and the VM binds their natives; `jxvm --api-jar` writes the
//! jar out so that `javac -cp "$(jxvm --api-jar)"` can compile programs against it.
//!
//! The API classes form the named module `jx` ([`MODULE`]), which exports its packages and
//! opens none: like `java.base`'s internals, the API's private fields, methods and
//! constructors are closed to deep reflection (`setAccessible` throws
//! `InaccessibleObjectException`, `privateLookupIn` is refused), and the VM refuses them to
//! every other way in (bytecode, method handles, reflection: [`may_access`]; `Unsafe`: the
//! classes [`makes_api_class`] marks, `Class::api`).
//!
//! Owns the embedded bytes and their lookup; defining the classes is the class table's job.

use std::io::{Cursor, Read};
use std::path::PathBuf;
use std::sync::OnceLock;

use parking_lot::Mutex;

/// The API jar, as built.
pub static JAR: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/jxvm-api.jar"));

fn archive() -> &'static Mutex<zip::ZipArchive<Cursor<&'static [u8]>>> {
    static ARCHIVE: OnceLock<Mutex<zip::ZipArchive<Cursor<&'static [u8]>>>> = OnceLock::new();
    ARCHIVE.get_or_init(|| {
        Mutex::new(
            zip::ZipArchive::new(Cursor::new(JAR)).expect("the embedded API jar is a valid zip"),
        )
    })
}

/// The name of the API's module.
pub const MODULE: &str = "jx";

/// The packages of the API module, all exported, none open (`jx.internal` holds code the VM
/// runs on its own threads, with nothing a program can make or call).
pub const PACKAGES: [&str; 7] = [
    "jx.domain",
    "jx.internal",
    "jx.ipc",
    "jx.memory",
    "jx.naming",
    "jx.portal",
    "jx.pso",
];

/// The API classes whose instances end with a VM slot (8 bytes after the fields, which no
/// Java code can name): a memory object's view (`jx.memory.ReadOnlyMemory`, see
/// `native::memory`), a domain handle's domain (`jx.domain.Domain`, `native::domain`), a
/// portal's service (`jx.portal.PortalStub`, `domain::stub`). What the slot holds is the
/// capability; the Java fields beside it are for display only.
pub const SLOT_CLASSES: [&str; 3] = [
    "jx/memory/ReadOnlyMemory",
    "jx/domain/Domain",
    "jx/portal/PortalStub",
];

/// The offset of the VM slot of an instance of `c` that `slot_class` (one of [`SLOT_CLASSES`])
/// adds, if `c` is that API class or a subclass of it.
pub fn vm_slot_offset(c: &crate::class::Class, slot_class: &str) -> Option<usize> {
    let is_it = |k: &crate::class::Class| in_module(k) && *k.name == *slot_class;
    let base = if is_it(c) {
        c
    } else {
        *c.supers.iter().find(|k| is_it(k))?
    };
    Some(base.instance_size as usize - 8)
}

/// Whether `c` was declared by the API (a class of the module, portal stubs included).
pub fn in_module(c: &crate::class::Class) -> bool {
    c.module.as_deref() == Some(MODULE)
}

/// Whether instances (and statics) of a class of `module` with superclass `super_class` may
/// hold capabilities, so that `Unsafe` must never touch them (`Class::api`, decided once when
/// the class is made): an API class, or a subclass of one that is not an exception (a portal
/// stub, a program's class derived from an API class, whose inherited VM slot holds a memory
/// view or a domain's or service's id). A program's subclass of an API exception holds none.
pub fn makes_api_class(module: Option<&str>, super_class: Option<&crate::class::Class>) -> bool {
    let throwable = |s: &crate::class::Class| {
        &*s.name == "java/lang/Throwable"
            || s.supers.iter().any(|k| &*k.name == "java/lang/Throwable")
    };
    module == Some(MODULE) || super_class.is_some_and(|s| s.api && !throwable(s))
}

/// Whether code of class `caller` (None: a trusted lookup) may use a member with access flags
/// `access` declared by class `holder`. Inside the API's module the JVM's rules apply; from
/// outside, only public and protected members of public API classes are reachable — whatever
/// the route (bytecode, method handles of any lookup, reflection after any `setAccessible`,
/// generated reflection accessors, which the JVM's rules exempt elsewhere). Protected members
/// are also subject to the JVM's own rule; the only one is `jx.pso.PSO`'s constructor, which
/// a program's PSO classes call and which refuses to make a PSO outside `Container`.
pub fn may_access(
    caller: Option<&crate::class::Class>,
    holder: &crate::class::Class,
    access: u16,
) -> bool {
    use classfile::access::{ACC_PROTECTED, ACC_PUBLIC};
    let open = access & (ACC_PUBLIC | ACC_PROTECTED) != 0 && holder.access & ACC_PUBLIC != 0;
    open || !in_module(holder) || caller.is_some_and(in_module)
}

/// The class file of API class `name` ("jx/memory/Memory"), if it is one.
pub fn class_bytes(name: &str) -> Option<Vec<u8>> {
    if !name.starts_with("jx/") {
        return None;
    }
    let mut z = archive().lock();
    let mut e = z.by_name(&format!("{name}.class")).ok()?;
    let mut v = Vec::with_capacity(e.size() as usize);
    e.read_to_end(&mut v).ok()?;
    Some(v)
}

/// Writes the API jar next to the jxvm executable (or, if that directory is not writable, into
/// the temporary directory) unless an identical file is already there; returns its path.
pub fn write_jar() -> std::io::Result<PathBuf> {
    let beside_exe = std::env::current_exe()?
        .parent()
        .map(|d| d.join("jxvm-api.jar"));
    let hash = JAR.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let in_tmp = std::env::temp_dir().join(format!("jxvm-api-{hash:016x}.jar"));
    let mut last = None;
    for path in beside_exe.into_iter().chain([in_tmp]) {
        if std::fs::read(&path).is_ok_and(|b| b == JAR) {
            return Ok(path);
        }
        // Write a temporary file and rename it, so a concurrent reader never sees half a jar.
        let tmp = path.with_extension(format!("jar.{}", std::process::id()));
        match std::fs::write(&tmp, JAR).and_then(|_| std::fs::rename(&tmp, &path)) {
            Ok(()) => return Ok(path),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                last = Some(e);
            }
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("nowhere to write the API jar")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_jar_holds_the_api_classes() {
        let bytes = super::class_bytes("jx/memory/Memory").expect("jx.memory.Memory");
        assert_eq!(&bytes[..4], &[0xCA, 0xFE, 0xBA, 0xBE]);
        assert!(super::class_bytes("jx/memory/Nope").is_none());
        assert!(super::class_bytes("java/lang/Object").is_none());
    }

    #[test]
    fn every_api_class_is_in_a_package_of_the_module() {
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(super::JAR)).unwrap();
        for i in 0..z.len() {
            let name = z.by_index(i).unwrap().name().to_string();
            let Some(class) = name.strip_suffix(".class") else {
                continue;
            };
            let package = class
                .rsplit_once('/')
                .map(|(p, _)| p.replace('/', "."))
                .unwrap_or_default();
            assert!(
                super::PACKAGES.contains(&package.as_str()),
                "{name} is outside the module's packages"
            );
        }
    }
}
