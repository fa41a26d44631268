//! Checks that every native method of the core JDK classes the VM boots with has an
//! implementation registered, so a renamed or missed native is caught here rather than as an
//! UnsatisfiedLinkError in some program. Also prints (with --nocapture) every java.base native
//! that is still unimplemented, as a to-do list.

use std::path::Path;

const MODULES: &str = "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules";

/// Classes whose natives must all be implemented.
const COMPLETE: &[&str] = &[
    "java/lang/Object",
    "java/lang/System",
    "java/lang/Class",
    "java/lang/Thread",
    "java/lang/Throwable",
    "java/lang/String",
    "java/lang/StringUTF16",
    "java/lang/Float",
    "java/lang/Double",
    "java/lang/Runtime",
    "java/lang/Shutdown",
    "java/lang/Module",
    "java/lang/StackTraceElement",
    "java/lang/ProcessImpl",
    "java/lang/ProcessHandleImpl",
    "java/lang/ProcessHandleImpl$Info",
    "java/lang/ProcessEnvironment",
    "java/lang/ref/Reference",
    "java/lang/reflect/Array",
    "java/io/FileDescriptor",
    "java/io/FileInputStream",
    "java/io/FileOutputStream",
    "java/io/RandomAccessFile",
    "java/io/UnixFileSystem",
    "java/util/zip/CRC32",
    "java/util/zip/Adler32",
    "java/util/zip/Inflater",
    "java/util/zip/Deflater",
    "java/util/TimeZone",
    "jdk/internal/misc/VM",
    "jdk/internal/misc/CDS",
    "jdk/internal/misc/Signal",
    "jdk/internal/util/SystemProps$Raw",
    "jdk/internal/reflect/Reflection",
    "jdk/internal/loader/BootLoader",
    "jdk/internal/loader/NativeLibraries",
    "java/security/AccessController",
    "java/lang/ClassLoader",
    "java/lang/SecurityManager",
    "java/lang/StackStreamFactory",
    "java/lang/StackStreamFactory$AbstractStackWalker",
    "java/lang/reflect/Executable",
    "java/lang/reflect/Field",
    "java/io/ObjectStreamClass",
    "jdk/internal/reflect/ConstantPool",
    "jdk/internal/reflect/NativeMethodAccessorImpl",
    "jdk/internal/reflect/NativeConstructorAccessorImpl",
    "java/net/DatagramPacket",
    "java/net/NetworkInterface",
    "java/nio/MappedMemoryUtils",
    "sun/nio/ch/DatagramChannelImpl",
    "sun/nio/ch/DatagramDispatcher",
    "sun/nio/ch/EPoll",
    "sun/nio/ch/EventFD",
    "sun/nio/ch/FileChannelImpl",
    "sun/nio/ch/FileDispatcherImpl",
    "sun/nio/ch/FileKey",
    "sun/nio/ch/IOUtil",
    "sun/nio/ch/NativeSocketAddress",
    "sun/nio/ch/NativeThread",
    "sun/nio/ch/Net",
    "sun/nio/ch/SocketDispatcher",
];

/// Natives of COMPLETE classes that are deliberately left out (with the reason).
const EXEMPT: &[(&str, &str)] = &[
    ("java/lang/Thread", "stop0"), // deprecated, throws UnsupportedOperationException in Java
    ("java/lang/Thread", "suspend0"), // deprecated
    ("java/lang/Thread", "resume0"), // deprecated
    ("java/lang/Thread", "dumpThreads"), // needs stack walking of other threads (threads issue)
    ("jdk/internal/misc/CDS", "dumpClassList"),
    ("jdk/internal/misc/CDS", "dumpDynamicArchive"),
    ("jdk/internal/loader/NativeLibraries", "findEntry0"), // no native code is loaded
    ("java/util/zip/Inflater", "initIDs"),
    ("sun/nio/ch/Net", "discardOOB"), // called only by the Windows socket dispatcher
];

fn natives_of(image: &jimage::JImage, class: &str) -> Vec<(String, String)> {
    let Ok(Some((_, bytes))) = image.find_class(class) else {
        return Vec::new();
    };
    let cf = classfile::ClassFile::parse(&bytes).expect("JDK class parses");
    cf.methods
        .iter()
        .filter(|m| m.access_flags & classfile::access::ACC_NATIVE != 0)
        .filter(|m| {
            !(m.access_flags & classfile::access::ACC_VARARGS != 0
                && class.starts_with("java/lang/invoke/"))
        })
        .map(|m| (m.name.clone(), m.descriptor.clone()))
        .collect()
}

fn implemented(reg: &vm::embed::Natives, class: &str, name: &str, desc: &str) -> bool {
    matches!(name, "registerNatives" | "initIDs") || reg.implements(class, name, desc)
}

#[test]
fn core_classes_have_every_native() {
    if !Path::new(MODULES).exists() {
        eprintln!("SKIP: {MODULES} missing");
        return;
    }
    let image = jimage::JImage::open(Path::new(MODULES)).unwrap();
    let reg = vm::embed::Natives::new();
    let mut missing = Vec::new();
    for class in COMPLETE {
        let natives = natives_of(&image, class);
        assert!(
            !natives.is_empty() || *class == "java/lang/StringUTF16",
            "{class} has no natives?"
        );
        for (name, desc) in natives {
            if EXEMPT.contains(&(class, name.as_str())) {
                continue;
            }
            if !implemented(&reg, class, &name, &desc) {
                missing.push(format!("{class}.{name}{desc}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "natives without implementation:\n{}",
        missing.join("\n")
    );
}

#[test]
fn report_unimplemented_java_base_natives() {
    if !Path::new(MODULES).exists() {
        return;
    }
    let image = jimage::JImage::open(Path::new(MODULES)).unwrap();
    let reg = vm::embed::Natives::new();
    let names = image.entry_names().unwrap();
    let (mut total, mut done) = (0, 0);
    let mut todo = Vec::new();
    for n in names
        .iter()
        .filter(|n| n.starts_with("/java.base/") && n.ends_with(".class"))
    {
        let class = &n["/java.base/".len()..n.len() - ".class".len()];
        if class.starts_with("sun/nio/ch/")
            && (class.contains("Windows") || class.contains("Solaris"))
        {
            continue;
        }
        for (name, desc) in natives_of(&image, class) {
            total += 1;
            if implemented(&reg, class, &name, &desc) {
                done += 1;
            } else {
                todo.push(format!("{class}.{name}{desc}"));
            }
        }
    }
    println!("java.base natives implemented: {done}/{total}");
    for t in &todo {
        println!("  missing {t}");
    }
    assert!(done > 0);
}
