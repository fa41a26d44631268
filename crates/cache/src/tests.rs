//! The cache's properties, on files in a temporary directory: round trips and counting,
//! concurrent writers, a killed writer's remains, damaged, truncated, garbage and foreign
//! files, eviction by last use, and random damage.

use super::*;
use std::sync::atomic::{AtomicU32, Ordering};

const ID: &str = "jxvm tests\njdk tests";
static NEXT: AtomicU32 = AtomicU32::new(0);

/// A fresh directory and the settings of a cache file in it.
fn fresh() -> Settings {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("jxvm-cache-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Settings::at(d.join("c.jxc"), ID)
}

fn key(i: u32) -> Key {
    Key::of(&[b"entry", &i.to_le_bytes()])
}

fn payload(i: u32) -> Vec<u8> {
    (0..(i % 97 + 1) * 13).map(|b| (b ^ i) as u8).collect()
}

fn fill(s: &Settings, range: std::ops::Range<u32>) {
    let mut c = Cache::open(s.clone()).unwrap();
    for i in range {
        if c.get(1, &key(i)).is_none() {
            c.put(1, key(i), payload(i));
        }
    }
    c.flush().unwrap();
}

fn assert_all(s: &Settings, range: std::ops::Range<u32>) {
    let mut c = Cache::open(s.clone()).unwrap();
    assert_eq!(c.warning(), None);
    for i in range {
        assert_eq!(c.get(1, &key(i)), Some(&payload(i)[..]), "entry {i}");
    }
}

fn clean(s: &Settings) {
    let _ = std::fs::remove_dir_all(s.path.parent().unwrap());
}

#[test]
fn entries_round_trip_and_uses_are_counted() {
    let s = fresh();
    fill(&s, 0..40);
    assert_all(&s, 0..40);
    let mut c = Cache::open(s.clone()).unwrap();
    assert!(c.get(2, &key(1)).is_none(), "another kind is another entry");
    c.flush().unwrap();
    let st = stats(&s).unwrap();
    assert_eq!(st.entries, 40);
    // fill: 40 misses; assert_all does not flush; the last run: one miss.
    assert_eq!(
        (st.counters.hits, st.counters.misses, st.counters.runs),
        (0, 41, 2)
    );
    let v = verify(&s).unwrap();
    assert_eq!((v.entries, v.problems.len(), v.uncommitted), (40, 0, 0));
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&s.path).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    clean(&s);
}

#[test]
fn concurrent_writers_lose_nothing_and_corrupt_nothing() {
    let s = fresh();
    std::thread::scope(|scope| {
        for t in 0..8u32 {
            let s = s.clone();
            // Overlapping ranges: every entry is added by two writers.
            scope.spawn(move || {
                for round in 0..5 {
                    fill(&s, t * 20 + round * 4..t * 20 + round * 4 + 40);
                }
            });
        }
    });
    let v = verify(&s).unwrap();
    assert!(v.problems.is_empty(), "{:?}", v.problems);
    assert_eq!(v.entries, 7 * 20 + 4 * 4 + 40, "each entry once");
    assert_all(&s, 0..196);
    clean(&s);
}

#[test]
fn a_killed_writers_uncommitted_bytes_are_ignored_then_cut_off() {
    let s = fresh();
    fill(&s, 0..10);
    // What a writer killed after writing records but before committing them leaves.
    let mut tail = format::encode_record(1, &key(99), &payload(99), 0);
    tail.truncate(tail.len() / 2);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&s.path)
        .unwrap();
    std::io::Write::write_all(&mut f, &tail).unwrap();
    assert_all(&s, 0..10);
    let mut c = Cache::open(s.clone()).unwrap();
    assert!(c.get(1, &key(99)).is_none());
    assert_eq!(verify(&s).unwrap().uncommitted, tail.len() as u64);
    fill(&s, 10..20);
    let v = verify(&s).unwrap();
    assert_eq!((v.entries, v.uncommitted, v.problems.len()), (20, 0, 0));
    assert_all(&s, 0..20);
    clean(&s);
}

/// Damages the file with `damage`, then checks that it is reported once, that no entry is
/// given wrong, and that the next flush leaves a sound cache with the entries put again.
fn damaged_then_rebuilt(damage: impl Fn(&Path)) {
    let s = fresh();
    fill(&s, 0..30);
    damage(&s.path);
    let mut c = Cache::open(s.clone()).unwrap();
    for i in 0..30 {
        match c.get(1, &key(i)) {
            Some(p) => assert_eq!(p, &payload(i)[..]),
            None => c.put(1, key(i), payload(i)),
        }
    }
    let w = c.warning().expect("the damage is reported");
    assert!(w.contains("ignored, it will be rebuilt"), "{w}");
    assert_eq!(c.warning(), None, "reported once");
    c.flush().unwrap();
    let v = verify(&s).unwrap();
    assert!(v.problems.is_empty(), "{:?}", v.problems);
    assert_all(&s, 0..30);
    clean(&s);
}

#[test]
fn a_truncated_file_is_reported_and_rebuilt() {
    damaged_then_rebuilt(|p| {
        let len = std::fs::metadata(p).unwrap().len();
        let f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
        f.set_len(len - 100).unwrap();
    });
}

#[test]
fn a_flipped_payload_bit_is_reported_and_rebuilt() {
    damaged_then_rebuilt(|p| {
        let mut b = std::fs::read(p).unwrap();
        let at = b.len() - 20;
        b[at] ^= 0x04;
        std::fs::write(p, b).unwrap();
    });
}

#[test]
fn a_flipped_header_bit_is_reported_and_rebuilt() {
    damaged_then_rebuilt(|p| {
        let mut b = std::fs::read(p).unwrap();
        b[30] ^= 0x01;
        std::fs::write(p, b).unwrap();
    });
}

#[test]
fn garbage_is_reported_and_rebuilt() {
    damaged_then_rebuilt(|p| std::fs::write(p, b"not a cache at all").unwrap());
    damaged_then_rebuilt(|p| std::fs::write(p, vec![0u8; 9000]).unwrap());
}

#[test]
fn a_cache_of_another_build_is_not_used() {
    let s = fresh();
    fill(&s, 0..5);
    let other = Settings::at(s.path.clone(), "another build\njdk tests");
    let mut c = Cache::open(other.clone()).unwrap();
    assert!(c.get(1, &key(1)).is_none());
    assert!(c.warning().unwrap().contains("another jxvm build"));
    c.put(1, key(1), b"theirs".to_vec());
    c.flush().unwrap();
    let mut c = Cache::open(other).unwrap();
    assert_eq!(c.get(1, &key(1)), Some(&b"theirs"[..]));
    assert_eq!(c.get(1, &key(2)), None);
    assert_ne!(
        file_name("a"),
        file_name("b"),
        "builds get files of their own"
    );
    clean(&s);
}

#[test]
fn a_full_cache_evicts_the_least_recently_used() {
    let mut s = fresh();
    s.max_size = MIN_MAX_SIZE;
    let big = |i: u32| vec![i as u8; 6000];
    for i in 0..8u32 {
        s.clock = Some(1_000_000 + u64::from(i) * 10_000);
        let mut c = Cache::open(s.clone()).unwrap();
        c.put(1, key(i), big(i));
        // Entry 0 stays in use.
        assert!(i == 0 || c.get(1, &key(0)).is_some());
        c.flush().unwrap();
    }
    s.clock = Some(2_000_000);
    for i in 8..14u32 {
        let mut c = Cache::open(s.clone()).unwrap();
        c.put(1, key(i), big(i));
        assert!(c.get(1, &key(0)).is_some(), "the entry in use is kept");
        c.flush().unwrap();
        assert!(std::fs::metadata(&s.path).unwrap().len() <= s.max_size);
    }
    let mut c = Cache::open(s.clone()).unwrap();
    assert!(c.get(1, &key(13)).is_some(), "the newest is kept");
    assert!(c.get(1, &key(1)).is_none(), "the oldest unused is evicted");
    assert!(verify(&s).unwrap().problems.is_empty());
    clean(&s);
}

#[test]
fn a_lowered_limit_shrinks_the_cache_at_the_next_run() {
    let mut s = fresh();
    fill(&s, 0..200);
    assert!(std::fs::metadata(&s.path).unwrap().len() > MIN_MAX_SIZE);
    s.max_size = MIN_MAX_SIZE;
    let mut c = Cache::open(s.clone()).unwrap();
    assert!(c.get(1, &key(150)).is_some());
    c.flush().unwrap();
    assert!(std::fs::metadata(&s.path).unwrap().len() <= MIN_MAX_SIZE);
    let mut c = Cache::open(s.clone()).unwrap();
    assert!(c.get(1, &key(150)).is_some(), "the entry in use is kept");
    assert!(verify(&s).unwrap().problems.is_empty());
    clean(&s);
}

#[test]
fn random_damage_never_gives_a_wrong_entry_or_panics() {
    let s = fresh();
    fill(&s, 0..20);
    let sound = std::fs::read(&s.path).unwrap();
    let mut rng = testkit::Rng(0x5eed_cace);
    for _ in 0..300 {
        let mut b = sound.clone();
        for _ in 0..=rng.below(3) {
            let at = rng.below(b.len());
            b[at] ^= 1 << rng.below(8);
        }
        if rng.below(4) == 0 {
            b.truncate(rng.below(b.len()));
        }
        std::fs::write(&s.path, &b).unwrap();
        let mut c = Cache::open(s.clone()).unwrap();
        for i in 0..20 {
            if let Some(p) = c.get(1, &key(i)) {
                assert_eq!(p, &payload(i)[..]);
            }
        }
        let _ = verify(&s);
    }
    clean(&s);
}

#[test]
fn clear_removes_the_cache_files() {
    let s = fresh();
    fill(&s, 0..3);
    assert_eq!(clear(s.path.parent().unwrap()).unwrap(), 1);
    assert!(!s.path.exists() && !s.lock_path().exists());
    clean(&s);
}
