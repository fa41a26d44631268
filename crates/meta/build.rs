//! Compiles the jxvm Java API (`api/src`: `jx.memory`, later `jx.domain`, `jx.portal`, ...) with
//! javac and packs it into a jar that the VM embeds: its classes are served to the boot loader,
//! and `jxvm --api-jar` writes the jar out for `javac -cp`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let api = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../api/src");
    println!("cargo:rerun-if-changed={}", api.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let classes = out.join("api-classes");
    let _ = std::fs::remove_dir_all(&classes);
    std::fs::create_dir_all(&classes).expect("create the API class directory");
    let mut sources = Vec::new();
    collect(&api, "java", &mut sources);
    for s in &sources {
        println!("cargo:rerun-if-changed={}", s.display());
    }
    let status = Command::new(javac())
        .args([
            "--release",
            "17",
            "-encoding",
            "UTF-8",
            "-Xlint:all",
            "-Werror",
            "-d",
        ])
        .arg(&classes)
        .args(&sources)
        .status()
        .unwrap_or_else(|e| {
            panic!("jxvm's Java API needs javac 17 to build ({e}); run scripts/ensure-jdk.sh")
        });
    assert!(status.success(), "javac failed on api/src");
    let mut files = Vec::new();
    collect(&classes, "class", &mut files);
    files.sort();
    let jar = std::fs::File::create(out.join("jxvm-api.jar")).expect("create jxvm-api.jar");
    let mut zip = zip::ZipWriter::new(jar);
    // Fixed timestamps, so the jar is the same bytes on every build.
    let opts =
        zip::write::SimpleFileOptions::default().last_modified_time(zip::DateTime::default());
    zip.start_file("META-INF/MANIFEST.MF", opts).expect("zip");
    zip.write_all(b"Manifest-Version: 1.0\r\nCreated-By: jxvm\r\n\r\n")
        .expect("zip");
    for f in files {
        let name = f
            .strip_prefix(&classes)
            .expect("inside")
            .to_string_lossy()
            .replace('\\', "/");
        zip.start_file(name, opts).expect("zip");
        zip.write_all(&std::fs::read(&f).expect("read class"))
            .expect("zip");
    }
    zip.finish().expect("finish jxvm-api.jar");
}

fn javac() -> PathBuf {
    match std::env::var_os("JAVA_HOME") {
        Some(home) if Path::new(&home).join("bin/javac").exists() => {
            Path::new(&home).join("bin/javac")
        }
        _ => PathBuf::from("javac"),
    }
}

fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}
