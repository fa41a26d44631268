//! Which packages of the JDK's modules are exported to every module, read once from their
//! module descriptors in the image (`classfile::module_exports`).
//!
//! A class outside the JDK (in an unnamed module: the class path's, a user-defined loader's)
//! may link to a class of a JDK module only if the module exports its package to everyone, as
//! HotSpot checks at resolution (JVMS §5.4.4 with the module system's readability and
//! exports). So no program reaches `jdk.internal.misc.Unsafe` or any other internal class by
//! bytecode, in any domain; reflection's own checks stop the other routes. Qualified exports
//! (to named JDK modules) are of no use to a program and count as not exported.
//!
//! Owns this table and the rule; resolution (`resolve`) applies it.

use std::sync::OnceLock;

use rustc_hash::FxHashSet;

use super::{Class, LoaderId};

/// Packages (internal names) the image's modules export to every module.
fn exported_to_all(jimage: &jimage::JImage) -> &'static FxHashSet<String> {
    static EXPORTED: OnceLock<FxHashSet<String>> = OnceLock::new();
    EXPORTED.get_or_init(|| {
        let mut set = FxHashSet::default();
        for module in jimage.modules() {
            let Ok(Some(bytes)) = jimage.find(&module, "module-info.class") else {
                continue;
            };
            if let Ok(e) = classfile::module_exports(&bytes) {
                set.extend(e.to_all);
            }
        }
        set
    })
}

/// Whether class `from` may link to class `target`: always, unless `from` is outside the JDK
/// and `target` (or its array element) is a class of a JDK module whose package that module
/// does not export to everyone. Reflection's generated accessors (subclasses of
/// `MagicAccessorImpl`, which only reflection's own loader may define: see
/// [`may_extend`]) link to anything, as in HotSpot.
pub fn may_link(jimage: &jimage::JImage, from: &Class, target: &Class) -> bool {
    in_jdk(from.module.as_deref()) || from.is_magic_accessor() || exported(jimage, target)
}

/// Whether a class of module `module` (None: an unnamed one), defined by `loader`, may have
/// `sup` as its superclass or superinterface: a JDK class of a package its module does not
/// export only if it is of the JDK too, or defined by reflection's own loader
/// (`DelegatingClassLoader`, which defines the generated accessors), as HotSpot checks.
pub fn may_extend(
    jimage: &jimage::JImage,
    module: Option<&str>,
    loader: LoaderId,
    sup: &Class,
) -> bool {
    in_jdk(module) || exported(jimage, sup) || super::loader::is_reflection_loader(loader)
}

/// Whether a class of `module` is the JDK's: of a named module other than the API's (the JDK's
/// modules trust each other, qualified exports included).
fn in_jdk(module: Option<&str>) -> bool {
    module.is_some_and(|m| m != crate::api::MODULE)
}

/// Whether `target` is not a class a JDK module keeps to itself.
fn exported(jimage: &jimage::JImage, target: &Class) -> bool {
    let mut k = target;
    while let Some(e) = k.array_component() {
        k = e;
    }
    !in_jdk(k.module.as_deref())
        || k.is_primitive()
        || exported_to_all(jimage).contains(k.package())
}

#[cfg(test)]
mod tests {
    #[test]
    fn java_base_exports_java_lang_and_not_its_internals() {
        let home = std::env::var_os("JAVA_HOME")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "/usr/lib/jvm/java-17-openjdk-amd64".into());
        let Ok(image) = jimage::JImage::open(&home.join("lib/modules")) else {
            eprintln!("SKIP: no JDK image");
            return;
        };
        let set = super::exported_to_all(&image);
        for p in [
            "java/lang",
            "java/util/concurrent",
            "sun/misc",
            "javax/net/ssl",
        ] {
            assert!(set.contains(p), "{p} is exported");
        }
        for p in ["jdk/internal/misc", "sun/nio/ch", "jdk/internal/reflect"] {
            assert!(!set.contains(p), "{p} is not exported to all");
        }
    }
}
