//! The sweep of the JDK's native methods (issue 17, item 8): every `native` method of every
//! module in the JDK image (`$JAVA_HOME/lib/modules`), and whether jxvm implements it (what a
//! call runs instead of throwing `UnsatisfiedLinkError`: an entry in the runtime's table of
//! natives, the no-op of a static void `registerNatives`/`initIDs`, a pure intrinsic).
//!
//! `tests/natives-missing.txt` lists what is missing, each with its reason, and the modules
//! that must be complete. The test fails when a native of such a module is missing and not
//! listed there by method, when a native of another module is missing and not listed at all
//! (by method, class or module), and when a line of the file names nothing that is missing
//! (it was implemented, or it names no native of the image): the file stays exact.
//!
//! `scripts/native-sweep.sh` runs it and prints the report (per module: natives, implemented,
//! missing; then the missing natives of the modules that must be complete, or every missing
//! native with `--all`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use classfile::Constant;
use classfile::access::{ACC_NATIVE, ACC_STATIC};

fn java_home() -> PathBuf {
    match std::env::var_os("JAVA_HOME") {
        Some(h) if Path::new(&h).join("lib/modules").is_file() => PathBuf::from(h),
        _ => PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64"),
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One native method of the image.
struct Native {
    module: String,
    class: String,
    name: String,
    desc: String,
    implemented: bool,
}

impl Native {
    fn key(&self) -> String {
        format!("{}.{}{}", self.class, self.name, self.desc)
    }
}

/// Which loader defines a module's classes, from the image's own table
/// (`jdk.internal.module.ModuleLoaderMap$Modules`, whose static initializer fills the boot
/// modules' array, then the platform modules'); other modules are the application loader's.
fn loader_map(image: &jimage::JImage) -> HashMap<String, &'static str> {
    let bytes = image
        .find(
            "java.base",
            "jdk/internal/module/ModuleLoaderMap$Modules.class",
        )
        .expect("image readable")
        .expect("ModuleLoaderMap$Modules in java.base");
    let cf = classfile::ClassFile::parse(&bytes).expect("JDK class parses");
    let clinit = cf
        .methods
        .iter()
        .find(|m| m.name == "<clinit>")
        .and_then(|m| m.code.as_ref())
        .expect("ModuleLoaderMap$Modules.<clinit>");
    let (code, mut pc, mut array) = (&clinit.code, 0usize, 0usize);
    let mut map = HashMap::new();
    while pc < code.len() {
        let len = match code[pc] {
            0x02..=0x08 | 0x59 | 0x53 | 0xb1 => 1, // iconst_n, dup, aastore, return
            0x10 | 0x12 => 2,                      // bipush, ldc
            0x11 | 0x13 | 0xb3 | 0xb8 => 3,        // sipush, ldc_w, putstatic, invokestatic
            0xbd => {
                array += 1; // anewarray: the next set's array
                3
            }
            op => panic!("ModuleLoaderMap$Modules.<clinit>: unexpected opcode {op:#x} at {pc}"),
        };
        let index = match code[pc] {
            0x12 => Some(code[pc + 1] as u16),
            0x13 => Some(u16::from_be_bytes([code[pc + 1], code[pc + 2]])),
            _ => None,
        };
        if let Some(Constant::String { string_index }) = index.and_then(|i| cf.constant_pool.get(i))
        {
            let name = cf.constant_pool.utf8(*string_index).expect("module name");
            let loader = if array == 1 { "boot" } else { "platform" };
            map.insert(name.to_string(), loader);
        }
        pc += len;
    }
    assert_eq!(map.get("java.base"), Some(&"boot"));
    assert_eq!(map.get("java.sql"), Some(&"platform"));
    map
}

/// Every native method of the image, in module and class order.
fn sweep(image: &jimage::JImage) -> Vec<Native> {
    let reg = vm::embed::Natives::new();
    let loaders = loader_map(image);
    let mut out = Vec::new();
    let mut names = image.entry_names().expect("image index");
    names.sort();
    for entry in &names {
        let Some(rest) = entry.strip_prefix('/') else {
            continue;
        };
        let Some((module, path)) = rest.split_once('/') else {
            continue;
        };
        let Some(class) = path.strip_suffix(".class") else {
            continue;
        };
        if class == "module-info" || module == "packages" || module == "modules" {
            continue;
        }
        let bytes = image
            .find(module, path)
            .expect("image readable")
            .expect("entry");
        let cf = classfile::ClassFile::parse(&bytes).expect("JDK class parses");
        // The table binds only classes of the boot and platform loaders.
        let bindable = loaders.contains_key(module);
        for m in cf
            .methods
            .iter()
            .filter(|m| m.access_flags & ACC_NATIVE != 0)
        {
            let is_static = m.access_flags & ACC_STATIC != 0;
            out.push(Native {
                module: module.to_string(),
                class: class.to_string(),
                name: m.name.clone(),
                desc: m.descriptor.clone(),
                implemented: bindable && reg.implements(class, &m.name, &m.descriptor, is_static),
            });
        }
    }
    out
}

/// `tests/natives-missing.txt`: `complete MODULE...` lines, and `KEY REASON` lines whose key is
/// a method (`pkg/Class.name` or `pkg/Class.name(desc)ret`), a class (`pkg/Class`) or a module
/// (`java.desktop`).
struct Listed {
    complete: Vec<String>,
    /// (line number, key, reason)
    entries: Vec<(usize, String, String)>,
}

fn read_listed(path: &Path) -> Listed {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut listed = Listed {
        complete: Vec::new(),
        entries: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if key == "complete" {
            listed
                .complete
                .extend(reason.split_whitespace().map(String::from));
            continue;
        }
        assert!(
            !reason.trim().is_empty(),
            "{}:{}: `{key}` has no reason",
            path.display(),
            i + 1
        );
        listed
            .entries
            .push((i + 1, key.to_string(), reason.trim().to_string()));
    }
    listed
}

/// The key of `listed` that covers `n`, most specific first.
fn covering<'a>(n: &Native, keys: &'a HashMap<&str, (usize, &'a str)>) -> Option<&'a str> {
    let with_desc = n.key();
    let by_name = format!("{}.{}", n.class, n.name);
    [with_desc.as_str(), by_name.as_str(), &n.class, &n.module]
        .into_iter()
        .find_map(|k| keys.get(k).map(|(_, reason)| *reason))
}

#[test]
fn native_sweep() {
    let modules = java_home().join("lib/modules");
    if !modules.is_file() {
        eprintln!("SKIP: {} missing", modules.display());
        return;
    }
    let image = jimage::JImage::open(&modules).expect("JDK image");
    let natives = sweep(&image);
    let listed_path = repo_root().join("tests/natives-missing.txt");
    let listed = read_listed(&listed_path);
    let keys: HashMap<&str, (usize, &str)> = listed
        .entries
        .iter()
        .map(|(line, key, reason)| (key.as_str(), (*line, reason.as_str())))
        .collect();
    let complete: HashSet<&str> = listed.complete.iter().map(String::as_str).collect();

    let mut per_module: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut used: HashSet<usize> = HashSet::new();
    let mut report = String::new();
    let mut missing_lines = Vec::new();
    for n in &natives {
        let e = per_module.entry(&n.module).or_default();
        e.0 += 1;
        if n.implemented {
            e.1 += 1;
            continue;
        }
        let with_desc = n.key();
        let by_name = format!("{}.{}", n.class, n.name);
        let method_key = [with_desc.as_str(), by_name.as_str()]
            .into_iter()
            .find(|k| keys.contains_key(k));
        let any_key = [with_desc.as_str(), &by_name, &n.class, &n.module]
            .into_iter()
            .find(|k| keys.contains_key(k));
        if let Some((line, _)) = any_key.and_then(|k| keys.get(k)) {
            used.insert(*line);
        }
        let is_complete = complete.contains(n.module.as_str());
        let reason = covering(n, &keys);
        if is_complete && method_key.is_none() {
            errors.push(format!(
                "{} {with_desc}: missing in a module that must be complete, not listed by method",
                n.module
            ));
        } else if reason.is_none() {
            errors.push(format!("{} {with_desc}: missing and not listed", n.module));
        }
        missing_lines.push((
            is_complete,
            format!(
                "  {:<18} {with_desc}  -- {}",
                n.module,
                reason.unwrap_or("NOT LISTED")
            ),
        ));
    }
    for (line, key, _) in &listed.entries {
        if !used.contains(line) {
            errors.push(format!(
                "tests/natives-missing.txt:{line}: `{key}` names no missing native of the image \
                 (implemented now? remove the line)"
            ));
        }
    }
    for m in &listed.complete {
        if image.packages_of_module(m).is_empty() {
            errors.push(format!("complete module {m} is not in the image"));
        }
        per_module.entry(m).or_default(); // listed even without natives (jdk.zipfs)
    }

    let all = std::env::var("NATIVE_SWEEP").is_ok_and(|v| v == "all");
    let (mut total, mut done) = (0, 0);
    writeln!(
        report,
        "{:<28} {:>7} {:>11} {:>7}",
        "module", "natives", "implemented", "missing"
    )
    .unwrap();
    for (module, (n, d)) in &per_module {
        total += n;
        done += d;
        let mark = if complete.contains(module) { " *" } else { "" };
        writeln!(report, "{module:<28} {n:>7} {d:>11} {:>7}{mark}", n - d).unwrap();
    }
    writeln!(
        report,
        "{:<28} {total:>7} {done:>11} {:>7}",
        "total",
        total - done
    )
    .unwrap();
    writeln!(
        report,
        "(* must be complete: every missing native listed with its reason)"
    )
    .unwrap();
    let shown: Vec<&String> = missing_lines
        .iter()
        .filter(|(c, _)| all || *c)
        .map(|(_, l)| l)
        .collect();
    writeln!(
        report,
        "missing natives{} ({}):",
        if all {
            ""
        } else {
            " of the modules that must be complete"
        },
        shown.len()
    )
    .unwrap();
    for l in shown {
        writeln!(report, "{l}").unwrap();
    }
    println!("{report}");
    assert!(
        errors.is_empty(),
        "native sweep: {} problem(s):\n{}",
        errors.len(),
        errors.join("\n")
    );
}
