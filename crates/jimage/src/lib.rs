//! Reader for the JDK run-time image file `lib/modules` (the "jimage" format
//! of OpenJDK 9 and later).
//!
//! This crate owns everything about that file: mapping it into memory,
//! parsing the header and the index (redirect table, location offsets,
//! location attributes, string table), looking resources up by name through
//! the perfect-hash redirect table, decompressing resources that jlink stored
//! compressed (`zip` and `compact-cp` string sharing), and interpreting the
//! synthetic `/packages/...` and `/modules/...` directory entries so the VM can
//! map a package to the module that defines it.
//!
//! It knows nothing about class files beyond what the `compact-cp`
//! decompressor needs to rebuild a constant pool, and nothing about the VM.
//!
//! Every offset and length read from the file is bounds-checked; a corrupt
//! file produces [`JImageError::Format`], never a panic.
//!
//! Layout summary (all integers in the index use the byte order of the
//! machine that wrote the image; we detect it from the magic number):
//!
//! ```text
//! header    7 x u32: magic 0xCAFEDADA, version (major<<16|minor), flags,
//!                    resource count, table length, locations size, strings size
//! redirect  table length x i32   (perfect hash: <0 → -1-index, >0 → seed, 0 → absent)
//! offsets   table length x u32   (offset of each location in the locations blob)
//! locations attribute streams: byte kind<<3|(len-1), then len big-endian bytes, 0 ends
//! strings   NUL-terminated modified UTF-8
//! content   resources; a location's OFFSET attribute is relative to the end of the index
//! ```

mod decompress;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;

/// Error from opening or reading a jimage file.
#[derive(Debug)]
pub enum JImageError {
    /// The file could not be opened or mapped.
    Io(std::io::Error),
    /// The file is not a jimage file, or it is corrupt.
    Format(String),
}

impl fmt::Display for JImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JImageError::Io(e) => write!(f, "jimage I/O error: {e}"),
            JImageError::Format(msg) => write!(f, "malformed jimage: {msg}"),
        }
    }
}

impl std::error::Error for JImageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JImageError::Io(e) => Some(e),
            JImageError::Format(_) => None,
        }
    }
}

impl From<std::io::Error> for JImageError {
    fn from(e: std::io::Error) -> Self {
        JImageError::Io(e)
    }
}

pub(crate) fn format_err<T>(msg: impl Into<String>) -> Result<T, JImageError> {
    Err(JImageError::Format(msg.into()))
}

const MAGIC: u32 = 0xCAFE_DADA;
const MAJOR_VERSION: u32 = 1;
const MINOR_VERSION: u32 = 0;
const HEADER_SIZE: usize = 7 * 4;

const HASH_MULTIPLIER: i32 = 0x0100_0193;

// Location attribute kinds.
const ATTR_END: usize = 0;
const ATTR_MODULE: usize = 1;
const ATTR_PARENT: usize = 2;
const ATTR_BASE: usize = 3;
const ATTR_EXTENSION: usize = 4;
const ATTR_OFFSET: usize = 5;
const ATTR_COMPRESSED: usize = 6;
const ATTR_UNCOMPRESSED: usize = 7;
const ATTR_COUNT: usize = 8;

/// Byte order of the integers in the image index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Little,
    Big,
}

impl Order {
    fn u32(self, b: [u8; 4]) -> u32 {
        match self {
            Order::Little => u32::from_le_bytes(b),
            Order::Big => u32::from_be_bytes(b),
        }
    }
    fn u64(self, b: [u8; 8]) -> u64 {
        match self {
            Order::Little => u64::from_le_bytes(b),
            Order::Big => u64::from_be_bytes(b),
        }
    }
}

enum Storage {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(m) => m,
            Storage::Owned(v) => v,
        }
    }
}

/// Decoded attributes of one location (one entry of the image index).
#[derive(Clone, Copy, Debug, Default)]
struct Location {
    attrs: [u64; ATTR_COUNT],
}

impl Location {
    fn get(&self, kind: usize) -> u64 {
        self.attrs[kind]
    }
}

/// Package/module tables, built from the `/packages` and `/modules` directory
/// entries on first use.
#[derive(Default)]
struct PackageIndex {
    /// package (slashes) → module, only for modules where the package has resources.
    module_of: HashMap<String, String>,
    /// module → its non-empty packages (slashes), sorted.
    packages_of: HashMap<String, Vec<String>>,
    /// All module names, sorted.
    modules: Vec<String>,
}

/// A class found in the image: its module, and its bytes (borrowed from the mapping unless
/// they had to be decompressed).
pub type ClassRef<'a> = (&'a str, Cow<'a, [u8]>);

/// An open jimage file (`lib/modules`).
///
/// Cheap lookups: a resource is found with one hash, one redirect-table probe
/// and one name verification. `JImage` is `Send + Sync`; the package index is
/// built lazily (once, thread-safely) on the first package/module query.
pub struct JImage {
    storage: Storage,
    path: Option<PathBuf>,
    order: Order,
    table_len: u32,
    redirect_off: usize,
    offsets_off: usize,
    locations_off: usize,
    locations_len: usize,
    strings_off: usize,
    strings_len: usize,
    index_size: usize,
    resource_count: u32,
    packages: OnceLock<PackageIndex>,
}

impl fmt::Debug for JImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JImage")
            .field("path", &self.path)
            .field("size", &self.data().len())
            .field("order", &self.order)
            .field("table_len", &self.table_len)
            .field("resource_count", &self.resource_count)
            .finish_non_exhaustive()
    }
}

impl JImage {
    /// The whole image as bytes (the mapping, for `NativeImageBuffer.getNativeMap`, which hands
    /// the JDK's own Java image reader a direct buffer over it).
    pub fn bytes(&self) -> &[u8] {
        self.data()
    }

    /// Open and memory-map a jimage file, validating its header and index layout.
    pub fn open(path: &Path) -> Result<JImage, JImageError> {
        let file = File::open(path)?;
        // SAFETY: the mapping is read-only and we never hand out references
        // that outlive `self`. The remaining hazard of any file mapping is
        // another process truncating or rewriting the file while it is mapped;
        // the JDK's `lib/modules` is an immutable installed file (the JDK
        // itself maps it the same way), so we accept that, as HotSpot does.
        let map = unsafe { Mmap::map(&file)? };
        let mut image = Self::parse(Storage::Mapped(map))?;
        image.path = Some(path.to_path_buf());
        Ok(image)
    }

    /// Build a reader over an in-memory copy of a jimage file.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<JImage, JImageError> {
        Self::parse(Storage::Owned(bytes))
    }

    fn parse(storage: Storage) -> Result<JImage, JImageError> {
        let data = storage.bytes();
        if data.len() < HEADER_SIZE {
            return format_err(format!(
                "file too short for a header ({} bytes)",
                data.len()
            ));
        }
        let magic_bytes: [u8; 4] = [data[0], data[1], data[2], data[3]];
        let order = if u32::from_le_bytes(magic_bytes) == MAGIC {
            Order::Little
        } else if u32::from_be_bytes(magic_bytes) == MAGIC {
            Order::Big
        } else {
            return format_err("bad magic number (not a jimage file)");
        };
        let word = |i: usize| {
            order.u32([
                data[i * 4],
                data[i * 4 + 1],
                data[i * 4 + 2],
                data[i * 4 + 3],
            ])
        };
        let version = word(1);
        let (major, minor) = (version >> 16, version & 0xFFFF);
        if major != MAJOR_VERSION || minor != MINOR_VERSION {
            return format_err(format!("unsupported jimage version {major}.{minor}"));
        }
        let resource_count = word(3);
        let table_len = word(4);
        let locations_size = word(5);
        let strings_size = word(6);
        for (what, v) in [
            ("table length", table_len),
            ("locations size", locations_size),
            ("strings size", strings_size),
        ] {
            if v > i32::MAX as u32 {
                return format_err(format!("negative {what} in header"));
            }
        }
        // All of these fit in u64 without overflow (each < 2^31).
        let table_bytes = u64::from(table_len) * 4;
        let redirect_off = HEADER_SIZE as u64;
        let offsets_off = redirect_off + table_bytes;
        let locations_off = offsets_off + table_bytes;
        let strings_off = locations_off + u64::from(locations_size);
        let index_size = strings_off + u64::from(strings_size);
        if index_size > data.len() as u64 {
            return format_err(format!(
                "index ({index_size} bytes) extends past end of file ({} bytes)",
                data.len()
            ));
        }
        // index_size <= data.len(), so every offset below fits in usize.
        Ok(JImage {
            order,
            table_len,
            redirect_off: redirect_off as usize,
            offsets_off: offsets_off as usize,
            locations_off: locations_off as usize,
            locations_len: locations_size as usize,
            strings_off: strings_off as usize,
            strings_len: strings_size as usize,
            index_size: index_size as usize,
            resource_count,
            packages: OnceLock::new(),
            path: None,
            storage,
        })
    }

    fn data(&self) -> &[u8] {
        self.storage.bytes()
    }

    /// Number of resources the header claims (includes directory entries).
    pub fn resource_count(&self) -> u32 {
        self.resource_count
    }

    /// Whether the index integers are big-endian.
    pub fn is_big_endian(&self) -> bool {
        self.order == Order::Big
    }

    // ---------------------------------------------------------------- index

    /// `i`-th u32 of a table that starts at `base` (caller guarantees `i < table_len`).
    fn table_u32(&self, base: usize, i: u32) -> u32 {
        let at = base + i as usize * 4;
        let d = self.data();
        self.order.u32([d[at], d[at + 1], d[at + 2], d[at + 3]])
    }

    /// The NUL-terminated string at `offset` in the string table (raw modified UTF-8).
    fn string_at(&self, offset: u64) -> Result<&[u8], JImageError> {
        let strings = &self.data()[self.strings_off..self.strings_off + self.strings_len];
        let Some(tail) = usize::try_from(offset).ok().and_then(|o| strings.get(o..)) else {
            return format_err(format!("string offset {offset} out of range"));
        };
        match tail.iter().position(|&b| b == 0) {
            Some(end) => Ok(&tail[..end]),
            None => format_err(format!("unterminated string at offset {offset}")),
        }
    }

    fn string_lossy(&self, offset: u64) -> Result<String, JImageError> {
        Ok(mutf8_to_string(self.string_at(offset)?))
    }

    /// Decode the attribute stream of the location at `offset` in the locations blob.
    fn location_at(&self, offset: u32) -> Result<Location, JImageError> {
        let blob = &self.data()[self.locations_off..self.locations_off + self.locations_len];
        let mut pos = offset as usize;
        if pos >= blob.len() {
            return format_err(format!("location offset {offset} out of range"));
        }
        let mut loc = Location::default();
        loop {
            let Some(&byte) = blob.get(pos) else {
                return format_err(format!("unterminated location at offset {offset}"));
            };
            pos += 1;
            let kind = usize::from(byte >> 3);
            if kind == ATTR_END {
                return Ok(loc);
            }
            if kind >= ATTR_COUNT {
                return format_err(format!(
                    "bad location attribute kind {kind} at offset {offset}"
                ));
            }
            let len = usize::from(byte & 7) + 1;
            let Some(bytes) = blob.get(pos..pos + len) else {
                return format_err(format!("truncated location attribute at offset {offset}"));
            };
            loc.attrs[kind] = bytes.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b));
            pos += len;
        }
    }

    /// Find the location whose full name is `key` (e.g. `/java.base/java/lang/Object.class`
    /// or `/packages/java.lang`), in modified UTF-8.
    fn lookup(&self, key: &[u8]) -> Result<Option<Location>, JImageError> {
        if self.table_len == 0 {
            return Ok(None);
        }
        let len = self.table_len;
        let slot = hash(key, HASH_MULTIPLIER) % len;
        let redirect = self.table_u32(self.redirect_off, slot) as i32;
        let index = match redirect {
            0 => return Ok(None),
            r if r < 0 => {
                // -1 - r, computed without overflow for r == i32::MIN.
                let i = (-(i64::from(r)) - 1) as u64;
                if i >= u64::from(len) {
                    return format_err(format!("redirect entry {slot} points past the table"));
                }
                i as u32
            }
            seed => hash(key, seed) % len,
        };
        let loc = self.location_at(self.table_u32(self.offsets_off, index))?;
        if self.location_matches(&loc, key)? {
            Ok(Some(loc))
        } else {
            Ok(None)
        }
    }

    /// Does the full name of `loc` (`/module/parent/base.ext`) equal `key`?
    fn location_matches(&self, loc: &Location, key: &[u8]) -> Result<bool, JImageError> {
        let mut rest = key;
        let mut eat = |part: &[u8]| match rest.strip_prefix(part) {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        };
        let module = loc.get(ATTR_MODULE);
        if module != 0 && !(eat(b"/") && eat(self.string_at(module)?) && eat(b"/")) {
            return Ok(false);
        }
        let parent = loc.get(ATTR_PARENT);
        if parent != 0 && !(eat(self.string_at(parent)?) && eat(b"/")) {
            return Ok(false);
        }
        if !eat(self.string_at(loc.get(ATTR_BASE))?) {
            return Ok(false);
        }
        let ext = loc.get(ATTR_EXTENSION);
        if ext != 0 && !(eat(b".") && eat(self.string_at(ext)?)) {
            return Ok(false);
        }
        Ok(rest.is_empty())
    }

    /// Full name of a location, e.g. `/java.base/java/lang/Object.class`.
    fn location_name(&self, loc: &Location) -> Result<String, JImageError> {
        let mut name = Vec::new();
        let module = loc.get(ATTR_MODULE);
        if module != 0 {
            name.push(b'/');
            name.extend_from_slice(self.string_at(module)?);
            name.push(b'/');
        }
        let parent = loc.get(ATTR_PARENT);
        if parent != 0 {
            name.extend_from_slice(self.string_at(parent)?);
            name.push(b'/');
        }
        name.extend_from_slice(self.string_at(loc.get(ATTR_BASE))?);
        let ext = loc.get(ATTR_EXTENSION);
        if ext != 0 {
            name.push(b'.');
            name.extend_from_slice(self.string_at(ext)?);
        }
        Ok(mutf8_to_string(&name))
    }

    /// `base[.ext]` of a location.
    fn location_base_ext(&self, loc: &Location) -> Result<String, JImageError> {
        let mut s = self.string_lossy(loc.get(ATTR_BASE))?;
        let ext = loc.get(ATTR_EXTENSION);
        if ext != 0 {
            s.push('.');
            s.push_str(&self.string_lossy(ext)?);
        }
        Ok(s)
    }

    /// The (decompressed) content of a location. Borrowed from the mapping
    /// when the resource is stored uncompressed.
    fn content(&self, loc: &Location) -> Result<Cow<'_, [u8]>, JImageError> {
        let compressed = loc.get(ATTR_COMPRESSED);
        let uncompressed = loc.get(ATTR_UNCOMPRESSED);
        let stored = if compressed == 0 {
            uncompressed
        } else {
            compressed
        };
        let start = (self.index_size as u64).checked_add(loc.get(ATTR_OFFSET));
        let end = start.and_then(|s| s.checked_add(stored));
        let bytes = match (start, end) {
            (Some(s), Some(e)) if e <= self.data().len() as u64 => {
                &self.data()[s as usize..e as usize]
            }
            _ => {
                return format_err(format!(
                    "resource content (offset {}, size {stored}) extends past end of file",
                    loc.get(ATTR_OFFSET)
                ));
            }
        };
        if compressed == 0 {
            Ok(Cow::Borrowed(bytes))
        } else {
            decompress::decompress(self, bytes, uncompressed).map(Cow::Owned)
        }
    }

    /// Content of a directory-like location interpreted as an array of i32 in image order.
    fn content_ints(&self, loc: &Location) -> Result<Vec<u32>, JImageError> {
        let bytes = self.content(loc)?;
        if bytes.len() % 4 != 0 {
            return format_err("directory entry size is not a multiple of 4");
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|c| self.order.u32([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    // ---------------------------------------------------------- public API

    /// Resource bytes for `/module/path`, e.g. `find("java.base", "java/lang/Object.class")`.
    /// Decompresses if needed. `Ok(None)` if there is no such resource.
    pub fn find(&self, module: &str, path: &str) -> Result<Option<Vec<u8>>, JImageError> {
        Ok(self.find_ref(module, path)?.map(Cow::into_owned))
    }

    /// Like [`find`](Self::find), but borrows the bytes straight from the
    /// mapping when the resource is not compressed.
    pub fn find_ref(&self, module: &str, path: &str) -> Result<Option<Cow<'_, [u8]>>, JImageError> {
        let key = resource_key(module, path);
        match self.lookup(&key)? {
            Some(loc) => self.content(&loc).map(Some),
            None => Ok(None),
        }
    }

    /// Resource bytes by full image name, e.g. `/java.base/java/lang/Object.class`.
    pub fn find_by_name(&self, full_name: &str) -> Result<Option<Vec<u8>>, JImageError> {
        match self.lookup(&to_mutf8(full_name))? {
            Some(loc) => self.content(&loc).map(|c| Some(c.into_owned())),
            None => Ok(None),
        }
    }

    /// Does the resource `/module/path` exist? (No content is read.)
    pub fn contains(&self, module: &str, path: &str) -> Result<bool, JImageError> {
        Ok(self.lookup(&resource_key(module, path))?.is_some())
    }

    /// The module that holds package `package` (slashes, e.g. `java/lang`).
    ///
    /// Modules that only contain sub-packages of `package` (the image marks
    /// those entries "empty") do not count.
    pub fn module_of_package(&self, package: &str) -> Option<String> {
        self.module_of_package_ref(package).map(str::to_owned)
    }

    /// Borrowing form of [`module_of_package`](Self::module_of_package).
    pub fn module_of_package_ref(&self, package: &str) -> Option<&str> {
        self.package_index()
            .module_of
            .get(package)
            .map(String::as_str)
    }

    /// Class file bytes for an internal class name such as `java/lang/String`:
    /// finds the module through the package, then the `.class` resource.
    /// `Ok(None)` for classes in the unnamed package or not in the image.
    pub fn find_class(&self, class_name: &str) -> Result<Option<(String, Vec<u8>)>, JImageError> {
        Ok(self
            .find_class_ref(class_name)?
            .map(|(module, bytes)| (module.to_owned(), bytes.into_owned())))
    }

    /// Like [`find_class`](Self::find_class), but borrows the module name, and the bytes
    /// straight from the mapping when the resource is not compressed (a class loader that
    /// only parses them, or finds their summary cached, need not copy them).
    pub fn find_class_ref(&self, class_name: &str) -> Result<Option<ClassRef<'_>>, JImageError> {
        let Some((package, _)) = class_name.rsplit_once('/') else {
            return Ok(None);
        };
        let Some(module) = self.module_of_package_ref(package) else {
            return Ok(None);
        };
        let mut path = String::with_capacity(class_name.len() + 6);
        path.push_str(class_name);
        path.push_str(".class");
        Ok(self.find_ref(module, &path)?.map(|bytes| (module, bytes)))
    }

    /// All module names in the image, sorted.
    pub fn modules(&self) -> Vec<String> {
        self.package_index().modules.clone()
    }

    /// Packages (slashes) of `module` that contain resources, sorted.
    pub fn packages_of_module(&self, module: &str) -> Vec<String> {
        self.package_index()
            .packages_of
            .get(module)
            .cloned()
            .unwrap_or_default()
    }

    /// Full names of every entry in the index (resources such as
    /// `/java.base/java/lang/Object.class` and the synthetic `/modules/...`
    /// and `/packages/...` directory entries), sorted.
    pub fn entry_names(&self) -> Result<Vec<String>, JImageError> {
        // Names are joined from parts entries share, so a corrupt image could make entries ×
        // name length bytes of names from a small file; a real image's names take a small
        // fraction of it.
        let budget = self.bytes().len().saturating_mul(4).saturating_add(1 << 20);
        let mut total = 0usize;
        let mut names = Vec::with_capacity(self.table_len as usize);
        for i in 0..self.table_len {
            let offset = self.table_u32(self.offsets_off, i);
            if offset != 0 {
                let name = self.location_name(&self.location_at(offset)?)?;
                total += name.len();
                if total > budget {
                    return format_err(format!(
                        "entry names take more than {budget} bytes in an image of {}",
                        self.bytes().len()
                    ));
                }
                names.push(name);
            }
        }
        names.sort_unstable();
        Ok(names)
    }

    /// Whether any index entry is stored compressed.
    pub fn has_compressed_resources(&self) -> Result<bool, JImageError> {
        for i in 0..self.table_len {
            let offset = self.table_u32(self.offsets_off, i);
            if offset != 0 && self.location_at(offset)?.get(ATTR_COMPRESSED) != 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    // ------------------------------------------------------ package index

    fn package_index(&self) -> &PackageIndex {
        // A corrupt directory section yields an empty (or partial) index;
        // resource lookups by module still work and report their own errors.
        self.packages
            .get_or_init(|| self.build_package_index().unwrap_or_default())
    }

    fn build_package_index(&self) -> Result<PackageIndex, JImageError> {
        let mut index = PackageIndex::default();
        // The directories of a valid image are distinct parts of it, so together they are
        // smaller than the file. A corrupt one can list one big directory over and over (an
        // 80 KB image made 50 million package entries, 2.7 GB); stopping at the file's size
        // keeps the work and the index linear in it.
        let mut budget = self.data().len();
        let mut read = |loc: &Location| -> Result<Vec<u32>, JImageError> {
            let ints = self.content_ints(loc)?;
            match budget.checked_sub(ints.len() * 4) {
                Some(left) => budget = left,
                None => return format_err("package directories larger than the image"),
            }
            Ok(ints)
        };

        // /packages: children are /packages/<pkg.with.dots>, each holding
        // pairs (is_empty, module-name string offset).
        if let Some(dir) = self.lookup(b"/packages")? {
            for child_offset in read(&dir)? {
                let child = self.location_at(child_offset)?;
                let package = self.location_base_ext(&child)?.replace('.', "/");
                let ints = read(&child)?;
                for pair in ints.chunks_exact(2) {
                    let (is_empty, module_offset) = (pair[0], pair[1]);
                    if is_empty != 0 {
                        continue;
                    }
                    let module = self.string_lossy(u64::from(module_offset))?;
                    index
                        .packages_of
                        .entry(module.clone())
                        .or_default()
                        .push(package.clone());
                    index.module_of.entry(package.clone()).or_insert(module);
                }
            }
        }
        for packages in index.packages_of.values_mut() {
            packages.sort_unstable();
            packages.dedup();
        }

        // /modules: children are /modules/<module-name>.
        let mut modules: Vec<String> = Vec::new();
        if let Some(dir) = self.lookup(b"/modules")? {
            for child_offset in read(&dir)? {
                let child = self.location_at(child_offset)?;
                modules.push(self.location_base_ext(&child)?);
            }
        }
        // Modules that own packages are modules too, even if /modules were missing.
        modules.extend(index.packages_of.keys().cloned());
        modules.sort_unstable();
        modules.dedup();
        index.modules = modules;
        Ok(index)
    }
}

// ------------------------------------------------------------- strings

/// Java's jimage hash (FNV-1a-like over modified UTF-8 bytes), masked positive.
fn hash(bytes: &[u8], seed: i32) -> u32 {
    let h = bytes
        .iter()
        .fold(seed, |h, &b| h.wrapping_mul(HASH_MULTIPLIER) ^ i32::from(b));
    (h & 0x7FFF_FFFF) as u32
}

/// `/module/path` in modified UTF-8.
fn resource_key(module: &str, path: &str) -> Vec<u8> {
    let mut key = Vec::with_capacity(module.len() + path.len() + 2);
    key.push(b'/');
    key.extend_from_slice(&to_mutf8(module));
    key.push(b'/');
    key.extend_from_slice(&to_mutf8(path));
    key
}

/// Encode as modified UTF-8 (NUL as C0 80, supplementary characters as
/// surrogate pairs). Borrows when that equals the plain UTF-8 bytes.
fn to_mutf8(s: &str) -> Cow<'_, [u8]> {
    if !s.bytes().any(|b| b == 0 || b >= 0xF0) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len() + 4);
    for c in s.chars() {
        if c == '\0' {
            out.extend_from_slice(&[0xC0, 0x80]);
        } else if (c as u32) < 0x10000 {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        } else {
            let mut units = [0u16; 2];
            for &u in c.encode_utf16(&mut units).iter() {
                out.extend_from_slice(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
    }
    Cow::Owned(out)
}

/// Decode modified UTF-8 to a Rust string, replacing malformed input with U+FFFD.
fn mutf8_to_string(bytes: &[u8]) -> String {
    if let Some(s) = std::str::from_utf8(bytes)
        .ok()
        .filter(|s| !s.contains('\0'))
    {
        return s.to_owned();
    }
    let mut units: Vec<u16> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let cont = |j: usize| {
            bytes
                .get(j)
                .copied()
                .filter(|c| c & 0xC0 == 0x80)
                .map(|c| u16::from(c & 0x3F))
        };
        if b < 0x80 {
            units.push(u16::from(b));
            i += 1;
        } else if b & 0xE0 == 0xC0 {
            match cont(i + 1) {
                Some(c1) => {
                    units.push((u16::from(b & 0x1F) << 6) | c1);
                    i += 2;
                }
                None => {
                    units.push(0xFFFD);
                    i += 1;
                }
            }
        } else if b & 0xF0 == 0xE0 {
            match (cont(i + 1), cont(i + 2)) {
                (Some(c1), Some(c2)) => {
                    units.push((u16::from(b & 0x0F) << 12) | (c1 << 6) | c2);
                    i += 3;
                }
                _ => {
                    units.push(0xFFFD);
                    i += 1;
                }
            }
        } else {
            units.push(0xFFFD);
            i += 1;
        }
    }
    String::from_utf16_lossy(&units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_sync() {
        fn check<T: Send + Sync>() {}
        check::<JImage>();
    }

    #[test]
    fn mutf8_roundtrip() {
        for s in [
            "",
            "java/lang/Object",
            "caf\u{e9}",
            "nul\0x",
            "emoji\u{1F600}!",
        ] {
            let m = to_mutf8(s);
            assert!(!m.contains(&0), "{s:?}");
            assert_eq!(mutf8_to_string(&m), s);
        }
        assert_eq!(
            &*to_mutf8("\u{1F600}"),
            &[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]
        );
    }

    #[test]
    fn hash_matches_java() {
        // Agreement with Java's ImageStringsReader.hashCode is checked end to end by
        // tests/real_image.rs (every entry of a real image is found by hash lookup).
        assert_eq!(
            hash(&resource_key("m", "p"), HASH_MULTIPLIER),
            hash(b"/m/p", HASH_MULTIPLIER)
        );
        // Value computed by hand for a one-byte string: (0x01000193 * 0x01000193) ^ 'a'.
        let expect = (HASH_MULTIPLIER.wrapping_mul(HASH_MULTIPLIER) ^ 0x61) & 0x7FFF_FFFF;
        assert_eq!(hash(b"a", HASH_MULTIPLIER), expect as u32);
    }

    #[test]
    fn garbage_is_rejected() {
        assert!(matches!(
            JImage::from_bytes(vec![]),
            Err(JImageError::Format(_))
        ));
        assert!(matches!(
            JImage::from_bytes(vec![0xAB; 100]),
            Err(JImageError::Format(_))
        ));
        // Valid magic and version but an index that runs off the end.
        let mut v = Vec::new();
        for w in [MAGIC, 0x0001_0000, 0, 10, 1000, 50, 50] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        assert!(matches!(
            JImage::from_bytes(v.clone()),
            Err(JImageError::Format(_))
        ));
        // Wrong version.
        v[4..8].copy_from_slice(&0x0002_0000u32.to_le_bytes());
        assert!(matches!(JImage::from_bytes(v), Err(JImageError::Format(_))));
    }

    #[test]
    fn empty_image_finds_nothing() {
        let mut v = Vec::new();
        for w in [MAGIC, 0x0001_0000, 0, 0, 0, 0, 0] {
            v.extend_from_slice(&w.to_be_bytes());
        }
        let img = JImage::from_bytes(v).unwrap();
        assert!(img.is_big_endian());
        assert_eq!(
            img.find("java.base", "java/lang/Object.class").unwrap(),
            None
        );
        assert_eq!(img.find_class("java/lang/Object").unwrap(), None);
        assert!(img.modules().is_empty());
        assert_eq!(img.module_of_package("java/lang"), None);
    }
}
