//! Fuzz target for the jimage reader: mutants of small valid images, each opened with
//! `JImage::from_bytes` and, when that succeeds, asked every lookup (`find`, `find_ref`,
//! `find_by_name`, `contains`, `find_class`, `module_of_package`, `modules`,
//! `packages_of_module`, `entry_names`, `has_compressed_resources`, `resource_count`). Each
//! must answer `Ok`/`Err` (or `None`), never panic, and no resource may come out bigger than
//! zlib could expand the whole image to.
//!
//! The seeds are written here (`Writer`), in both byte orders, in the format the reader
//! documents: header, a perfect-hash redirect table (with seeded buckets and direct entries),
//! location offsets and attributes, strings, and resources stored plain, `zip`-compressed,
//! `compact-cp`-compressed and both stacked, plus the `/packages` and `/modules` directories.
//! Mutations aim at each part: header words, redirect and offset entries, location attribute
//! bytes, string bytes (lost terminators), resource bytes and compression headers, and the
//! file's length. 200,000 mutants run (xorshift, fixed seed), plus every file of
//! `tests/fuzz-regress/` (inputs that once made the reader panic).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use jimage::JImage;

use testkit::Rng;

const MULTIPLIER: i32 = 0x0100_0193;

/// The image format's name hash (the reader's is private; this is the format's definition).
fn hash(bytes: &[u8], seed: i32) -> u32 {
    let h = bytes
        .iter()
        .fold(seed, |h, &b| h.wrapping_mul(MULTIPLIER) ^ i32::from(b));
    (h & 0x7FFF_FFFF) as u32
}

/// How a resource is stored.
#[derive(Clone, Copy)]
enum Stored {
    Plain,
    Zip,
    CompactCp,
    /// compact-cp, then zip over that.
    Both,
}

/// Writes a small image: entries are added with their full names and contents, the index
/// is laid out by `finish`.
struct Writer {
    big: bool,
    strings: Vec<u8>,
    string_at: HashMap<Vec<u8>, u32>,
    /// Full name, location attributes (kind, value), content bytes.
    entries: Vec<(String, Vec<(u8, u64)>)>,
    content: Vec<u8>,
}

impl Writer {
    fn new(big: bool) -> Writer {
        let mut w = Writer {
            big,
            strings: Vec::new(),
            string_at: HashMap::new(),
            entries: Vec::new(),
            content: Vec::new(),
        };
        w.string(""); // offset 0: the empty string (attributes of value 0 are absent)
        w
    }

    fn u32(&self, v: u32) -> [u8; 4] {
        if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    }

    fn string(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.string_at.get(s.as_bytes()) {
            return at;
        }
        let at = self.strings.len() as u32;
        self.strings.extend_from_slice(s.as_bytes());
        self.strings.push(0);
        self.string_at.insert(s.as_bytes().to_vec(), at);
        at
    }

    /// The 29-byte header of a compressed layer.
    fn layer(&mut self, decompressor: &str, payload: &[u8], uncompressed: usize) -> Vec<u8> {
        let name = self.string(decompressor);
        let mut out = Vec::new();
        out.extend_from_slice(&self.u32(0xCAFE_FAFA));
        let u64 = |v: u64| {
            if self.big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        };
        out.extend_from_slice(&u64(payload.len() as u64));
        out.extend_from_slice(&u64(uncompressed as u64));
        out.extend_from_slice(&self.u32(name));
        out.extend_from_slice(&self.u32(u32::MAX));
        out.push(1);
        out.extend_from_slice(payload);
        out
    }

    fn zip(&mut self, data: &[u8]) -> Vec<u8> {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(data).unwrap();
        let payload = z.finish().unwrap();
        self.layer("zip", &payload, data.len())
    }

    /// A class file whose constant pool is stored compact-cp style: one plain UTF-8 constant,
    /// one moved to the string table and one descriptor with two class names moved there.
    /// Returns (the class file, its compact-cp form).
    fn compact_cp(&mut self) -> (Vec<u8>, Vec<u8>) {
        let (shape, package, name) = (self.string("(L;I)L;"), self.string("java/lang"), {
            self.string("Object")
        });
        let moved = self.string("moved");
        let head = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 4];
        let tail = [0, 0x21, 0, 0, 0, 0];
        let mut plain = head.to_vec();
        let descriptor = b"(Ljava/lang/Object;I)Ljava/lang/Object;";
        for s in [&b"kept"[..], b"moved", descriptor] {
            plain.push(1);
            plain.extend_from_slice(&(s.len() as u16).to_be_bytes());
            plain.extend_from_slice(s);
        }
        plain.extend_from_slice(&tail);
        let mut packed = head.to_vec();
        packed.extend_from_slice(&[1, 0, 4]);
        packed.extend_from_slice(b"kept");
        // Packed indexes: the 4-byte form, and the 1SSvvvvv short forms.
        packed.push(23);
        packed.extend_from_slice(&moved.to_be_bytes());
        packed.push(25);
        packed.extend_from_slice(&shape.to_be_bytes());
        let names: Vec<u8> = [package, name, package, name]
            .iter()
            .flat_map(|&v| [0xC0 | (v >> 8) as u8 & 0x1F, v as u8])
            .collect();
        packed.push(0xA0 | names.len() as u8);
        packed.extend_from_slice(&names);
        packed.extend_from_slice(&tail);
        let packed = self.layer("compact-cp", &packed, plain.len());
        (plain, packed)
    }

    /// Adds resource `name` (`/module/parent/base.ext`) holding `data`, stored as `how`.
    fn resource(&mut self, name: &str, data: &[u8], how: Stored) -> u32 {
        let (stored, size) = match how {
            Stored::Plain => (data.to_vec(), data.len()),
            Stored::Zip => (self.zip(data), data.len()),
            Stored::CompactCp => {
                let (plain, packed) = self.compact_cp();
                (packed, plain.len())
            }
            Stored::Both => {
                let (plain, packed) = self.compact_cp();
                (self.zip(&packed), plain.len())
            }
        };
        let offset = self.content.len() as u64;
        self.content.extend_from_slice(&stored);
        let compressed = if matches!(how, Stored::Plain) {
            0
        } else {
            stored.len() as u64
        };
        // Split as the reader joins: /module/parent/base.ext.
        // A name without a module (`/packages`) is all base.
        let (module, parent, base, ext) =
            match name.strip_prefix('/').and_then(|n| n.split_once('/')) {
                Some((m, rest)) => {
                    let (parent, file) = rest.rsplit_once('/').unwrap_or(("", rest));
                    let (base, ext) = file.rsplit_once('.').unwrap_or((file, ""));
                    (m, parent, base, ext)
                }
                None => ("", "", name, ""),
            };
        let [module, parent, base, ext] = [module, parent, base, ext].map(|s| self.string(s));
        let attrs = vec![
            (1, module.into()),
            (2, parent.into()),
            (3, base.into()),
            (4, ext.into()),
            (5, offset),
            (6, compressed),
            (7, size as u64),
        ];
        self.entries.push((name.to_string(), attrs));
        self.entries.len() as u32 - 1
    }

    /// Lays out the index: locations (in entry order; offset 0 is an empty location so that
    /// no entry has offset 0), the redirect table and the offsets, then the header.
    fn finish(self) -> Vec<u8> {
        let n = self.entries.len();
        let mut locations = vec![0u8];
        let mut location_of = Vec::new();
        for (_, attrs) in &self.entries {
            location_of.push(locations.len() as u32);
            for &(kind, v) in attrs.iter().filter(|a| a.1 != 0) {
                let len = (8 - v.leading_zeros() as usize / 8).max(1);
                locations.push(kind << 3 | (len as u8 - 1));
                locations.extend_from_slice(&v.to_be_bytes()[8 - len..]);
            }
            locations.push(0);
        }
        // The perfect hash: buckets of names by their first hash; a bucket of several names
        // gets the first seed that sends them all to free slots, a single name goes straight
        // to a free slot (redirect -1 - slot).
        let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, (name, _)) in self.entries.iter().enumerate() {
            buckets[(hash(name.as_bytes(), MULTIPLIER) as usize) % n].push(i);
        }
        let mut order: Vec<usize> = (0..n).filter(|&b| !buckets[b].is_empty()).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));
        let (mut redirect, mut slot_of) = (vec![0i32; n], vec![None; n]);
        for b in order {
            let names = &buckets[b];
            if names.len() == 1 {
                let free = (0..n).find(|&s| slot_of[s].is_none()).unwrap();
                slot_of[free] = Some(names[0]);
                redirect[b] = -1 - free as i32;
                continue;
            }
            for seed in 1.. {
                let slots: Vec<usize> = names
                    .iter()
                    .map(|&i| hash(self.entries[i].0.as_bytes(), seed) as usize % n)
                    .collect();
                let mut sorted = slots.clone();
                sorted.sort();
                sorted.dedup();
                if sorted.len() == slots.len() && slots.iter().all(|&s| slot_of[s].is_none()) {
                    for (&s, &i) in slots.iter().zip(names) {
                        slot_of[s] = Some(i);
                    }
                    redirect[b] = seed;
                    break;
                }
            }
        }
        let mut out = Vec::new();
        let header = [
            0xCAFE_DADA,
            0x0001_0000,
            0,
            n as u32,
            n as u32,
            locations.len() as u32,
            self.strings.len() as u32,
        ];
        for w in header {
            out.extend_from_slice(&self.u32(w));
        }
        for r in redirect {
            out.extend_from_slice(&self.u32(r as u32));
        }
        for s in slot_of {
            out.extend_from_slice(&self.u32(location_of[s.unwrap()]));
        }
        out.extend_from_slice(&locations);
        out.extend_from_slice(&self.strings);
        out.extend_from_slice(&self.content);
        out
    }
}

/// The lookups of the fuzz test, and what a valid seed answers.
const RESOURCES: [(&str, &str); 5] = [
    ("java.base", "java/lang/Object.class"),
    ("java.base", "java/lang/String.class"),
    ("java.base", "java/util/List.class"),
    ("java.base", "java/util/Map.class"),
    ("java.logging", "java/util/logging/Logger.class"),
];

/// A valid image in the given byte order: five resources (plain, zip, compact-cp, both,
/// plain), the package directories of java.lang, java.util (in java.base, and "empty" in
/// java.logging) and java.util.logging, and the module directories.
fn seed(big: bool) -> Vec<u8> {
    let mut w = Writer::new(big);
    let hows = [
        Stored::Plain,
        Stored::Zip,
        Stored::CompactCp,
        Stored::Both,
        Stored::Plain,
    ];
    for ((module, path), how) in RESOURCES.iter().zip(hows) {
        let data = format!("\u{CA}\u{FE} bytes of {path} in {module}, {path} again");
        w.resource(&format!("/{module}/{path}"), data.as_bytes(), how);
    }
    let (base, logging) = (w.string("java.base"), w.string("java.logging"));
    let ints = |w: &Writer, v: &[u32]| -> Vec<u8> { v.iter().flat_map(|&x| w.u32(x)).collect() };
    let mut packages = Vec::new();
    for (package, owners) in [
        ("java.lang", vec![0, base]),
        ("java.util", vec![0, base, 1, logging]),
        ("java.util.logging", vec![0, logging]),
    ] {
        let content = ints(&w, &owners);
        packages.push(w.resource(&format!("/packages/{package}"), &content, Stored::Plain));
    }
    let mut modules = Vec::new();
    for module in ["java.base", "java.logging"] {
        modules.push(w.resource(&format!("/modules/{module}"), &[], Stored::Plain));
    }
    // Directories list their children's location offsets, known only once the index is laid
    // out: the locations are written in entry order, so they are computed the same way.
    let lens: Vec<u32> = w
        .entries
        .iter()
        .map(|(_, a)| {
            1 + a
                .iter()
                .filter(|x| x.1 != 0)
                .map(|x| 1 + (8 - x.1.leading_zeros() / 8).max(1))
                .sum::<u32>()
        })
        .collect();
    // The two directories come last and their own sizes do not move earlier entries.
    let offset_of = |i: u32| 1 + lens[..i as usize].iter().sum::<u32>();
    let content = ints(
        &w,
        &packages.iter().map(|&i| offset_of(i)).collect::<Vec<_>>(),
    );
    w.resource("/packages", &content, Stored::Plain);
    let content = ints(
        &w,
        &modules.iter().map(|&i| offset_of(i)).collect::<Vec<_>>(),
    );
    w.resource("/modules", &content, Stored::Plain);
    w.finish()
}

/// Runs every lookup on `bytes`; only a panic fails (through the test harness). Returns
/// whether the image opened.
fn run(bytes: &[u8]) -> bool {
    let limit = bytes.len().saturating_mul(1100);
    let Ok(img) = JImage::from_bytes(bytes.to_vec()) else {
        return false;
    };
    let _ = img.resource_count();
    let short = |r: Option<usize>| assert!(r.is_none_or(|n| n <= limit), "{r:?} bytes");
    for (module, path) in RESOURCES
        .iter()
        .chain(&[("java.base", "nothing"), ("", "")])
    {
        short(img.find(module, path).ok().flatten().map(|b| b.len()));
        short(img.find_ref(module, path).ok().flatten().map(|b| b.len()));
        short(
            img.find_by_name(&format!("/{module}/{path}"))
                .ok()
                .flatten()
                .map(|b| b.len()),
        );
        let _ = img.contains(module, path);
    }
    for package in ["java/lang", "java/util", "java/util/logging", "javax"] {
        let _ = img.module_of_package(package);
    }
    let _ = img.find_class("java/util/List");
    for module in img.modules() {
        let _ = img.packages_of_module(&module);
    }
    let _ = img.entry_names();
    let _ = img.has_compressed_resources();
    true
}

/// One to three mutations of an image: header words, index entries, location and string
/// bytes, resource bytes, truncation, or a byte anywhere.
fn mutate(rng: &mut Rng, img: &mut Vec<u8>, big: bool) {
    const WORDS: [u32; 10] = [
        0,
        1,
        2,
        3,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFE,
        u32::MAX,
        0xCAFE_FAFA,
        0x100,
    ];
    let word = |v: u32| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    };
    let read = |img: &[u8], i: usize| {
        let b: [u8; 4] = img[i * 4..i * 4 + 4].try_into().unwrap();
        if big {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        }
    };
    for _ in 0..1 + rng.below(3) {
        let len = img.len();
        if len < 28 {
            return;
        }
        // The parts, from the (unmutated or mutated) header; clamped to the file.
        let table = (read(img, 4) as usize).min((len - 28) / 8);
        let index = 28 + 8 * table;
        let strings_at = (index + read(img, 5) as usize).min(len);
        let value = if rng.below(2) == 0 {
            WORDS[rng.below(WORDS.len())]
        } else {
            rng.below(len + 16) as u32
        };
        match rng.below(8) {
            0 => {
                let i = 2 + rng.below(5);
                img[i * 4..i * 4 + 4].copy_from_slice(&word(value));
            }
            1 | 2 if table > 0 => {
                let i = 7 + rng.below(2 * table);
                img[i * 4..i * 4 + 4].copy_from_slice(&word(value));
            }
            3 if strings_at > index => {
                let at = index + rng.below(strings_at - index);
                img[at] = if rng.below(2) == 0 {
                    rng.next_u64() as u8
                } else {
                    0
                };
            }
            4 if strings_at < len => {
                let at = strings_at + rng.below(len - strings_at);
                img[at] = if rng.below(2) == 0 {
                    rng.next_u64() as u8
                } else {
                    b'/'
                };
            }
            5 => {
                let at = rng.below(len - 3);
                img[at..at + 4].copy_from_slice(&word(value));
            }
            6 => img.truncate(rng.below(len)),
            _ => {
                let at = rng.below(len);
                img[at] ^= 1 << rng.below(8);
            }
        }
    }
}

/// How many mutants the fuzz test runs (about 6.5 s in release mode on two cores).
const INPUTS: usize = 200_000;

#[test]
fn the_seeds_are_valid_images() {
    for big in [false, true] {
        let img = JImage::from_bytes(seed(big)).unwrap();
        assert_eq!(img.is_big_endian(), big);
        for (module, path) in RESOURCES {
            let bytes = img.find(module, path).unwrap().expect(path);
            assert!(img.contains(module, path).unwrap());
            if path.ends_with("List.class") || path.ends_with("Map.class") {
                let text = String::from_utf8_lossy(&bytes);
                assert!(
                    text.contains("Ljava/lang/Object;I)Ljava/lang/Object;")
                        && text.contains("moved")
                );
            } else {
                assert!(String::from_utf8(bytes).unwrap().contains(path));
            }
        }
        assert_eq!(
            img.module_of_package("java/util").as_deref(),
            Some("java.base")
        );
        assert_eq!(
            img.module_of_package("java/util/logging").as_deref(),
            Some("java.logging")
        );
        assert_eq!(img.modules(), ["java.base", "java.logging"]);
        assert_eq!(
            img.packages_of_module("java.base"),
            ["java/lang", "java/util"]
        );
        assert!(img.has_compressed_resources().unwrap());
        assert_eq!(img.entry_names().unwrap().len(), 12);
    }
}

#[test]
fn fuzz_lookups_in_mutated_images() {
    let seeds = [seed(false), seed(true)];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut opened = 0;
    for i in 0..INPUTS {
        let big = i % 2 == 1;
        let mut img = seeds[i % 2].clone();
        mutate(&mut rng, &mut img, big);
        // A panic keeps its input, to be added to tests/fuzz-regress/.
        opened += std::panic::catch_unwind(|| run(&img)).unwrap_or_else(|_| {
            let path = std::env::temp_dir().join(format!("jimage-fuzz-{i}.bin"));
            std::fs::write(&path, &img).unwrap();
            panic!("mutant {i} panicked: saved as {}", path.display())
        }) as usize;
    }
    eprintln!("jimage fuzz: {opened} of {INPUTS} mutants opened");
    assert!(opened > INPUTS / 2, "the mutants must reach the lookups");
}

/// An image whose `/packages` lists one package directory `copies` times, that directory
/// holding `pairs` (non-empty, java.base) pairs: the offsets are the fuzz test's sizes taken to
/// the extreme, with a small file and a quadratic number of package entries.
fn repeated_package_directory(copies: u32, pairs: usize) -> Vec<u8> {
    let mut w = Writer::new(false);
    let base = w.string("java.base");
    let pair = [w.u32(0), w.u32(base)].concat();
    let child = w.resource("/packages/java.lang", &pair.repeat(pairs), Stored::Plain);
    assert_eq!(child, 0);
    // The child is the first location, just after the empty one at offset 0.
    let content: Vec<u8> = (0..copies).flat_map(|_| w.u32(1)).collect();
    w.resource("/packages", &content, Stored::Plain);
    w.finish()
}

#[test]
fn a_package_directory_listed_many_times_is_not_read_many_times() {
    let sane = JImage::from_bytes(repeated_package_directory(1, 3)).unwrap();
    assert_eq!(
        sane.module_of_package("java/lang").as_deref(),
        Some("java.base")
    );
    // 80 KB of image: 10,000 references to a directory of 5,000 pairs would make 50,000,000
    // package entries (gigabytes, minutes) if each reference were read.
    let img = JImage::from_bytes(repeated_package_directory(10_000, 5_000)).unwrap();
    let start = std::time::Instant::now();
    assert!(img.packages_of_module("java.base").len() <= 1);
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn entries_sharing_a_long_name_part_are_not_all_joined() {
    // 1,000 resources under one 8 KB parent directory name: the image holds the name once
    // (a few tens of KB), their joined names would take 8 MB.
    let mut w = Writer::new(false);
    let parent = "p".repeat(8192);
    for i in 0..1000 {
        w.resource(&format!("/m/{parent}/r{i}.class"), b"x", Stored::Plain);
    }
    let img = JImage::from_bytes(w.finish()).unwrap();
    let err = img.entry_names().unwrap_err().to_string();
    assert!(err.contains("entry names take more than"), "{err}");
    // A few such entries are read as usual.
    let mut w = Writer::new(false);
    for i in 0..3 {
        w.resource(&format!("/m/{parent}/r{i}.class"), b"x", Stored::Plain);
    }
    let img = JImage::from_bytes(w.finish()).unwrap();
    assert_eq!(img.entry_names().unwrap().len(), 3);
}

#[test]
fn fuzz_regressions_do_not_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regress");
    // A missing directory holds no inputs (no regression has been found yet).
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.map(|e| e.unwrap().path()) {
        run(&std::fs::read(path).unwrap());
    }
}
