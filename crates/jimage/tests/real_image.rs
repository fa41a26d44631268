//! Tests against real JDK images. Each test prints a message and passes if
//! the image it needs is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use jimage::{JImage, JImageError};

const JDK17: &str = "/usr/lib/jvm/java-17-openjdk-amd64";

fn jdk17_modules() -> Option<&'static Path> {
    let p = Path::new("/usr/lib/jvm/java-17-openjdk-amd64/lib/modules");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: {} not present", p.display());
        None
    }
}

fn image() -> Option<&'static JImage> {
    static IMG: OnceLock<Option<JImage>> = OnceLock::new();
    IMG.get_or_init(|| jdk17_modules().map(|p| JImage::open(p).expect("open real image")))
        .as_ref()
}

fn is_class_file(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xCA, 0xFE, 0xBA, 0xBE])
}

#[test]
fn object_class() {
    let Some(img) = image() else { return };
    let bytes = img
        .find("java.base", "java/lang/Object.class")
        .unwrap()
        .expect("Object.class");
    assert!(is_class_file(&bytes));
    assert!(bytes.len() > 1000);
    assert!(img.contains("java.base", "java/lang/Object.class").unwrap());
    let by_name = img
        .find_by_name("/java.base/java/lang/Object.class")
        .unwrap()
        .unwrap();
    assert_eq!(by_name, bytes);
    // Same resource under the wrong module, or a near-miss name, is absent.
    assert_eq!(
        img.find("java.logging", "java/lang/Object.class").unwrap(),
        None
    );
    assert_eq!(
        img.find("java.base", "java/lang/Object.clas").unwrap(),
        None
    );
    assert_eq!(img.find("java.base", "java/lang/Object").unwrap(), None);
    assert_eq!(img.find("", "").unwrap(), None);
}

#[test]
fn packages() {
    let Some(img) = image() else { return };
    assert_eq!(
        img.module_of_package("java/util").as_deref(),
        Some("java.base")
    );
    assert_eq!(
        img.module_of_package("java/lang").as_deref(),
        Some("java.base")
    );
    assert_eq!(
        img.module_of_package("java/util/logging").as_deref(),
        Some("java.logging")
    );
    assert_eq!(
        img.module_of_package("com/sun/tools/javac/main").as_deref(),
        Some("jdk.compiler")
    );
    // Only an intermediate directory in every module that has it.
    assert_eq!(img.module_of_package("jdk"), None);
    assert_eq!(img.module_of_package("no/such/pkg"), None);
    let base = img.packages_of_module("java.base");
    assert!(base.iter().any(|p| p == "java/lang"));
    assert!(base.iter().any(|p| p == "java/util/concurrent"));
    assert!(!base.iter().any(|p| p == "java/util/logging"));
    assert!(img.packages_of_module("no.such.module").is_empty());
    // Every package maps back to the module that lists it.
    for m in img.modules() {
        for p in img.packages_of_module(&m) {
            assert_eq!(img.module_of_package_ref(&p), Some(m.as_str()), "{p}");
        }
    }
}

#[test]
fn classes_in_several_modules() {
    let Some(img) = image() else { return };
    for (class, module) in [
        ("java/lang/String", "java.base"),
        ("java/lang/invoke/MethodHandle", "java.base"),
        ("java/util/HashMap", "java.base"),
        ("java/util/logging/Logger", "java.logging"),
        ("com/sun/tools/javac/Main", "jdk.compiler"),
        ("javax/lang/model/SourceVersion", "java.compiler"),
    ] {
        let (m, bytes) = img
            .find_class(class)
            .unwrap()
            .unwrap_or_else(|| panic!("{class}"));
        assert_eq!(m, module, "{class}");
        assert!(is_class_file(&bytes), "{class}");
    }
    assert_eq!(img.find_class("java/lang/NoSuchClassHere").unwrap(), None);
    assert_eq!(img.find_class("no/such/pkg/Foo").unwrap(), None);
    assert_eq!(img.find_class("NoPackage").unwrap(), None);
    assert_eq!(img.find_class("[Ljava/lang/String;").unwrap(), None);
    assert_eq!(img.find_class("").unwrap(), None);
}

#[test]
fn modules_list() {
    let Some(img) = image() else { return };
    let modules = img.modules();
    for m in ["java.base", "java.logging", "jdk.compiler", "java.desktop"] {
        assert!(modules.iter().any(|x| x == m), "{m}");
    }
    assert!(
        modules.windows(2).all(|w| w[0] < w[1]),
        "sorted, no duplicates"
    );
    for m in &modules {
        assert!(
            img.find(m, "module-info.class")
                .unwrap()
                .is_some_and(|b| is_class_file(&b)),
            "{m}"
        );
    }
    println!("{} modules", modules.len());
}

#[test]
fn compression_status_of_system_image() {
    let Some(img) = image() else { return };
    let compressed = img.has_compressed_resources().unwrap();
    println!("system image has compressed resources: {compressed}");
}

/// Every entry of the image is reachable by hash lookup and readable.
#[test]
fn every_entry_resolves() {
    let Some(img) = image() else { return };
    let names = img.entry_names().unwrap();
    assert!(names.len() > 20_000);
    let mut classes = 0;
    for name in &names {
        let bytes = img.find_by_name(name).unwrap();
        assert!(bytes.is_some(), "{name}");
        if name.ends_with(".class")
            && !name.starts_with("/modules/")
            && !name.starts_with("/packages/")
        {
            assert!(is_class_file(&bytes.unwrap()), "{name}");
            classes += 1;
        }
    }
    println!("{} entries, {classes} class files", names.len());
}

#[test]
fn timing_open_and_1000_lookups() {
    let Some(path) = jdk17_modules() else { return };
    // Choose 1000 class names spread over several modules.
    let all: Vec<String> = image()
        .unwrap()
        .entry_names()
        .unwrap()
        .into_iter()
        .filter(|n| n.ends_with(".class") && !n.ends_with("module-info.class"))
        .filter(|n| !n.starts_with("/modules/") && !n.starts_with("/packages/"))
        .collect();
    let step = all.len() / 1000;
    let classes: Vec<String> = all
        .iter()
        .step_by(step)
        .take(1000)
        .map(|n| {
            let rest = &n[1..];
            let (_, path) = rest.split_once('/').unwrap();
            path.strip_suffix(".class").unwrap().to_owned()
        })
        .collect();
    assert_eq!(classes.len(), 1000);

    let t0 = Instant::now();
    let img = JImage::open(path).unwrap();
    let t_open = t0.elapsed();
    let t1 = Instant::now();
    let mut bytes = 0usize;
    for c in &classes {
        let (_, b) = img.find_class(c).unwrap().unwrap_or_else(|| panic!("{c}"));
        bytes += b.len();
    }
    let t_lookup = t1.elapsed();
    // Second pass: package index built, pages warm.
    let t2 = Instant::now();
    for c in &classes {
        assert!(img.find_class(c).unwrap().is_some());
    }
    let t_warm = t2.elapsed();
    println!(
        "open: {t_open:?}; 1000 find_class (first, incl. package index build): {t_lookup:?} ({bytes} bytes); \
         1000 find_class (warm): {t_warm:?} ({:.2} us each)",
        t_warm.as_secs_f64() * 1e6 / 1000.0
    );
}

// ------------------------------------------------------------ corrupt files

fn tmp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn garbage_and_truncated_files_error() {
    assert!(matches!(
        JImage::open(Path::new("/nonexistent/modules")),
        Err(JImageError::Io(_))
    ));
    let p = tmp_file("garbage.jimage", &[0x5A; 4096]);
    assert!(matches!(JImage::open(&p), Err(JImageError::Format(_))));
    let p = tmp_file("empty.jimage", &[]);
    let err = JImage::open(&p).unwrap_err();
    assert!(matches!(err, JImageError::Format(_)));
    assert!(!err.to_string().is_empty());

    let Some(real) = jdk17_modules() else { return };
    let data = std::fs::read(real).unwrap();
    // Truncated inside the header / index: refused at open.
    for len in [10, 28, 100, 100_000, 1_000_000] {
        let p = tmp_file("trunc.jimage", &data[..len]);
        assert!(
            matches!(JImage::open(&p), Err(JImageError::Format(_))),
            "len {len}"
        );
    }
    // Truncated in the content area: opens, but content past the end errors.
    let img = JImage::from_bytes(data[..2_000_000].to_vec()).unwrap();
    let r = img.find("java.desktop", "javax/swing/JComponent.class");
    assert!(matches!(r, Err(JImageError::Format(_))), "{r:?}");
    let _ = img.find_class("java/lang/Object");
    let _ = img.modules();
}

/// Randomly corrupt the index of the real image and make sure nothing panics.
#[test]
fn corrupted_index_never_panics() {
    let Some(real) = jdk17_modules() else { return };
    let data = std::fs::read(real).unwrap();
    let clean = JImage::from_bytes(data.clone()).unwrap();
    let names: Vec<String> = clean
        .entry_names()
        .unwrap()
        .into_iter()
        .step_by(97)
        .collect();
    let index_end = 1_494_760.min(data.len()); // index size of the Debian JDK 17 image; fine if it differs
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for round in 0..40 {
        // Only the first ~2 MB matter (index + start of content); keep it small.
        let mut bytes = data[..index_end + 600_000].to_vec();
        for _ in 0..2000 {
            let at = 28 + (next() as usize) % (index_end - 28);
            bytes[at] = next() as u8;
        }
        if round % 4 == 0 {
            // Also smash some header fields.
            let at = 12 + (next() as usize % 4) * 4;
            bytes[at..at + 4].copy_from_slice(&(next() as u32).to_le_bytes());
        }
        let Ok(img) = JImage::from_bytes(bytes) else {
            continue;
        };
        for n in &names {
            let _ = img.find_by_name(n);
        }
        let _ = img.find_class("java/lang/Object");
        let _ = img.modules();
        let _ = img.packages_of_module("java.base");
        let _ = img.entry_names();
        let _ = img.has_compressed_resources();
    }
}

// ------------------------------------------------- compressed (jlink) images

/// Build (once, cached in the target dir) a small image with jlink using the
/// given `--compress` level, or `None` if jlink is unavailable.
fn jlinked(level: u32) -> Option<JImage> {
    let jlink = Path::new(JDK17).join("bin/jlink");
    if !jlink.exists() || !Path::new(JDK17).join("jmods/java.base.jmod").exists() {
        eprintln!("skipping: jlink or jmods not available");
        return None;
    }
    // Keyed by the jmods' identity: a JDK updated in place must not be compared with an
    // image linked from its previous jmods.
    let jmod = std::fs::metadata(Path::new(JDK17).join("jmods/java.base.jmod")).ok()?;
    let stamp = jmod
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("jimage-compress-{level}-{}-{stamp}", jmod.len()));
    let modules = out.join("lib/modules");
    if !modules.exists() {
        let _ = std::fs::remove_dir_all(&out);
        let status = Command::new(&jlink)
            .args([
                "--add-modules",
                "java.base,java.logging",
                &format!("--compress={level}"),
                "--output",
            ])
            .arg(&out)
            .status()
            .ok()?;
        if !status.success() {
            eprintln!("skipping: jlink failed");
            return None;
        }
    }
    Some(JImage::open(&modules).unwrap())
}

fn check_against_system(level: u32) {
    let Some(system) = image() else { return };
    let Some(small) = jlinked(level) else { return };
    assert!(
        small.has_compressed_resources().unwrap(),
        "jlink --compress={level} compressed nothing?"
    );
    let mut compared = 0;
    let mut mismatched = Vec::new();
    for name in small.entry_names().unwrap() {
        if name.starts_with("/modules/")
            || name.starts_with("/packages/")
            || !name.ends_with(".class")
        {
            continue;
        }
        if name.ends_with("module-info.class") {
            continue; // jlink rewrites module-info (module hashes, packages attribute)
        }
        let got = small.find_by_name(&name).unwrap().unwrap();
        assert!(is_class_file(&got), "{name}");
        if name.starts_with("/java.base/jdk/internal/module/SystemModules") {
            continue; // generated by jlink for the chosen module set
        }
        let want = system.find_by_name(&name).unwrap().unwrap();
        if got != want {
            mismatched.push(name);
        }
        compared += 1;
    }
    assert!(
        mismatched.is_empty(),
        "decompressed bytes differ: {mismatched:?}"
    );
    assert!(compared > 1000);
    let (m, b) = small
        .find_class("java/util/logging/Logger")
        .unwrap()
        .unwrap();
    assert_eq!(m, "java.logging");
    assert!(is_class_file(&b));
    println!("--compress={level}: {compared} class files identical after decompression");
}

#[test]
fn compact_cp_compressed_image() {
    check_against_system(1);
}

#[test]
fn zip_compressed_image() {
    check_against_system(2);
}

/// Any other JDK installed under /usr/lib/jvm should be readable too.
#[test]
fn other_installed_jdks() {
    let Ok(dirs) = std::fs::read_dir("/usr/lib/jvm") else {
        eprintln!("skipping: no /usr/lib/jvm");
        return;
    };
    for dir in dirs.flatten() {
        let path = dir.path().join("lib/modules");
        if !path.exists() || dir.path().is_symlink() {
            continue;
        }
        let img = JImage::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (m, b) = img.find_class("java/lang/Object").unwrap().unwrap();
        assert_eq!(m, "java.base");
        assert!(is_class_file(&b));
        assert_eq!(
            img.module_of_package("java/util/logging").as_deref(),
            Some("java.logging")
        );
        println!(
            "{}: {} modules, compressed: {}",
            path.display(),
            img.modules().len(),
            img.has_compressed_resources().unwrap()
        );
    }
}
