//! The jxvm Java API (`jx.memory`, ...): compiled from `api/src` by the build script and embedded
//! in the binary as a jar. Its classes belong to the boot loader, so every domain and class
//! loader sees the same API classes and the VM binds their natives; `jxvm --api-jar` writes the
//! jar out so that `javac -cp "$(jxvm --api-jar)"` can compile programs against it.
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
    ARCHIVE.get_or_init(|| Mutex::new(zip::ZipArchive::new(Cursor::new(JAR)).expect("the embedded API jar is a valid zip")))
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
    let beside_exe = std::env::current_exe()?.parent().map(|d| d.join("jxvm-api.jar"));
    let hash = JAR.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
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
}
