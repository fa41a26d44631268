//! The class cache as class loading uses it: a class whose summary (its parsed and
//! format-checked form, `classfile::summary`) the cache holds is decoded instead of parsed and
//! checked; a class parsed here is added to the cache at the next flush.
//!
//! An entry is never stale: a JDK class's key is its name (the cache file is bound to the
//! JDK's image by its identity), any other class's key is the SHA-256 of its bytes. Both keys
//! include the summary encoding's version. Class files of preview features are never cached
//! (whether they load depends on `--enable-preview`).

use classfile::ClassFile;
use parking_lot::Mutex;

use super::loader::{ClassTable, LoadError};

/// The cache entry kind of class summaries.
pub const KIND_CLASS: u32 = 1;

/// Which class the bytes are, for its key.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// A class of the JDK's image, by name.
    Image(&'a str),
    /// Any other class, by the hash of its bytes.
    Bytes,
}

/// The process's cache, if it has one.
#[derive(Default)]
pub struct Summaries {
    cache: Mutex<Option<cache::Cache>>,
}

impl Summaries {
    /// Uses `cache` from now on.
    pub fn attach(&self, cache: cache::Cache) {
        *self.cache.lock() = Some(cache);
    }

    /// Whether a cache is in use.
    pub fn attached(&self) -> bool {
        self.cache.lock().is_some()
    }

    /// Writes what was added and counted since the last flush. Err: why it could not be; the
    /// cache is then no longer used (so that the failure is reported once).
    pub fn flush(&self) -> Result<(), String> {
        let mut guard = self.cache.lock();
        let r = guard.as_mut().map_or(Ok(()), cache::Cache::flush);
        if r.is_err() {
            *guard = None;
        }
        r
    }

    /// The class of `bytes` from the cache, or parsed (and added to it).
    pub fn parse(
        &self,
        bytes: &[u8],
        expected: Option<&str>,
        source: Source,
    ) -> Result<ClassFile, LoadError> {
        let mut guard = self.cache.lock();
        let Some(cache) = guard.as_mut() else {
            drop(guard);
            return ClassTable::parse(bytes, expected);
        };
        let key = key(bytes, source);
        let hit = cache
            .get(KIND_CLASS, &key)
            .and_then(|p| classfile::summary::decode(p).ok());
        if let Some(w) = cache.warning() {
            eprintln!("jxvm: warning: {w}");
        }
        // A summary of other bytes (its length differs) or another name is not this class's.
        let usable = |cf: &ClassFile| {
            cf.file_len == bytes.len()
                && expected.is_none_or(|e| e == cf.name)
                && cf.minor_version != PREVIEW_MINOR
        };
        if let Some(cf) = hit.filter(usable) {
            return Ok(cf);
        }
        drop(guard);
        let cf = ClassTable::parse(bytes, expected)?;
        if cf.minor_version != PREVIEW_MINOR
            && let Some(cache) = self.cache.lock().as_mut()
        {
            cache.put(KIND_CLASS, key, classfile::summary::encode(&cf));
        }
        Ok(cf)
    }
}

/// The minor version of class files that use preview features.
const PREVIEW_MINOR: u16 = 0xFFFF;

fn key(bytes: &[u8], source: Source) -> cache::Key {
    let version = classfile::summary::VERSION.to_le_bytes();
    match source {
        Source::Image(name) => cache::Key::of(&[b"image class", &version, name.as_bytes()]),
        Source::Bytes => cache::Key::of(&[b"class bytes", &version, bytes]),
    }
}

#[cfg(test)]
mod tests {
    use classfile::ClassFile;
    use classfile::summary::{decode, encode};

    fn image() -> Option<jimage::JImage> {
        let home = std::env::var_os("JAVA_HOME")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "/usr/lib/jvm/java-17-openjdk-amd64".into());
        jimage::JImage::open(&home.join("lib/modules")).ok()
    }

    /// Every class of the JDK's image decodes from its summary to what parsing gave.
    #[test]
    fn every_jdk_class_round_trips_through_its_summary() {
        let Some(image) = image() else {
            eprintln!("SKIP: no JDK image");
            return;
        };
        let mut n = 0;
        for name in image.entry_names().unwrap() {
            if !name.ends_with(".class") || name.ends_with("module-info.class") {
                continue;
            }
            let bytes = image.find_by_name(&name).unwrap().unwrap();
            let Ok(cf) = ClassFile::parse(&bytes) else {
                continue;
            };
            let back = decode(&encode(&cf)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(format!("{back:?}"), format!("{cf:?}"), "{name}");
            n += 1;
        }
        assert!(n > 20_000, "only {n} classes");
    }

    /// Damaged summaries (cut short, bits flipped) fail or decode, and never panic.
    #[test]
    fn damaged_summaries_never_panic() {
        let Some(image) = image() else {
            eprintln!("SKIP: no JDK image");
            return;
        };
        let mut rng = testkit::Rng(0x5u64 << 40 | 0x1919);
        for name in [
            "java/lang/String",
            "java/util/HashMap",
            "java/lang/invoke/MethodHandles",
        ] {
            let (_, bytes) = image.find_class(name).unwrap().unwrap();
            let s = encode(&ClassFile::parse(&bytes).unwrap());
            for cut in (0..s.len()).step_by(7) {
                assert!(decode(&s[..cut]).is_err());
            }
            for _ in 0..3000 {
                let mut d = s.clone();
                for _ in 0..=rng.below(4) {
                    let at = rng.below(d.len());
                    d[at] ^= 1 << rng.below(8);
                }
                let _ = decode(&d);
            }
        }
    }
}
