//! Fuzz target: the jimage reader (`crates/jimage`). Every input is opened with
//! `JImage::from_bytes`; when that succeeds, every lookup is asked (resources by module and
//! path and by full name, class lookup, packages, modules, the entry list) and each must
//! answer `Ok`/`Err` (or `None`), never panic, and no resource may come out bigger than zlib
//! could expand the whole image to. Besides the fixed names, the lookups use names the image
//! itself lists, so that a mutated index reaches the resource and decompression paths.
//! `crates/jimage/tests/fuzz.rs` runs a bounded, seeded round of the same checks (from
//! images it writes as seeds) inside `cargo test`.
#![no_main]

use jimage::JImage;
use libfuzzer_sys::fuzz_target;

const RESOURCES: [(&str, &str); 4] = [
    ("java.base", "java/lang/Object.class"),
    ("java.base", "java/util/List.class"),
    ("java.logging", "java/util/logging/Logger.class"),
    ("", ""),
];

fuzz_target!(|data: &[u8]| {
    // zlib expands at most about 1032 times; compact-cp adds little.
    let limit = data.len().saturating_mul(1100);
    let Ok(img) = JImage::from_bytes(data.to_vec()) else {
        return;
    };
    let short = |r: Option<usize>| assert!(r.is_none_or(|n| n <= limit), "{r:?} bytes");
    let _ = img.resource_count();
    let _ = img.is_big_endian();
    let mut names: Vec<String> = RESOURCES.iter().map(|(m, p)| format!("/{m}/{p}")).collect();
    if let Ok(listed) = img.entry_names() {
        names.extend(listed.into_iter().take(64));
    }
    for name in &names {
        short(img.find_by_name(name).ok().flatten().map(|b| b.len()));
        let (module, path) = name
            .strip_prefix('/')
            .and_then(|n| n.split_once('/'))
            .unwrap_or(("", name));
        short(img.find(module, path).ok().flatten().map(|b| b.len()));
        short(img.find_ref(module, path).ok().flatten().map(|b| b.len()));
        let _ = img.contains(module, path);
    }
    for package in ["java/lang", "java/util", "java/util/logging", ""] {
        let _ = img.module_of_package(package);
        let _ = img.module_of_package_ref(package);
    }
    let _ = img.find_class("java/util/List");
    for module in img.modules() {
        let _ = img.packages_of_module(&module);
    }
    let _ = img.has_compressed_resources();
});
