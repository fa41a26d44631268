//! The cache file's layout: its header, its two commit slots, its statistics block and its
//! records, with their encoders and checked decoders. Nothing here touches a file.
//!
//! ```text
//! 0     header      magic, format version, header CRC, creation time, identity (build, JDK)
//! 2048  slot A      sequence number, committed length, CRC
//! 2080  slot B      the same; the valid slot with the higher sequence number is in force
//! 2112  stats       hits, misses, runs, CRC (advisory)
//! 4096  records     each: a 48-byte record header, then its payload padded to 8 bytes
//! ```
//!
//! A record header holds its magic, kind, key, payload length and payload CRC under its own
//! CRC, and a last-used time outside it (rewritten in place; a torn or flipped time only
//! changes which entry is evicted first). Bytes past the committed length are not part of
//! the cache (a writer killed while appending leaves them; the next writer cuts them off).

use crate::Key;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"JXVMCCH\x01";
/// The layout's version; a file of another version is foreign.
pub const FORMAT_VERSION: u32 = 1;
/// Where the records start.
pub const RECORDS_START: u64 = 4096;
/// The largest identity (build and JDK description) the header holds.
pub const MAX_IDENTITY: usize = 2000;
const SLOT_A: usize = 2048;
const SLOT_B: usize = 2080;
const SLOT_LEN: usize = 32;
const STATS_AT: usize = 2112;
const STATS_LEN: usize = 32;
/// A record header's length.
pub const RECORD_HEADER: usize = 48;
const RECORD_MAGIC: u32 = 0x4A58_5245;
/// Where a record header keeps its last-used time.
pub const LAST_USED_AT: u64 = 36;

/// Why a file is not a usable cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invalid {
    /// Not a cache file, or a damaged one (the reason says which check failed).
    Corrupt(String),
    /// A cache of another jxvm build, JDK or format version.
    Foreign(String),
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Invalid::Corrupt(why) => write!(f, "corrupt ({why})"),
            Invalid::Foreign(why) => write!(f, "made by {why}"),
        }
    }
}

fn corrupt(why: &str) -> Invalid {
    Invalid::Corrupt(why.to_string())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The header of a new, empty cache for `identity`, with both slots committing no record.
pub fn new_header(identity: &str, created: u64) -> Vec<u8> {
    let id = &identity.as_bytes()[..identity.len().min(MAX_IDENTITY)];
    let mut h = vec![0u8; RECORDS_START as usize];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[16..24].copy_from_slice(&created.to_le_bytes());
    h[24..28].copy_from_slice(&(id.len() as u32).to_le_bytes());
    h[28..28 + id.len()].copy_from_slice(id);
    let crc = crc32fast::hash(&h[16..SLOT_A]);
    h[12..16].copy_from_slice(&crc.to_le_bytes());
    h[SLOT_A..SLOT_A + SLOT_LEN].copy_from_slice(&slot(1, RECORDS_START));
    h[STATS_AT..STATS_AT + STATS_LEN].copy_from_slice(&stats_block(&Counters::default()));
    h
}

/// What a valid header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub created: u64,
    /// The slot in force: its sequence number and committed length.
    pub seq: u64,
    pub committed: u64,
}

/// Checks a file's first [`RECORDS_START`] bytes against `identity` and reads its commit.
pub fn read_header(h: &[u8], identity: &str) -> Result<Header, Invalid> {
    if h.len() < RECORDS_START as usize {
        return Err(corrupt("shorter than its header"));
    }
    if &h[..8] != MAGIC {
        return Err(corrupt("not a jxvm class cache"));
    }
    let version = u32_at(h, 8);
    if version != FORMAT_VERSION {
        return Err(Invalid::Foreign(format!("cache format version {version}")));
    }
    if crc32fast::hash(&h[16..SLOT_A]) != u32_at(h, 12) {
        return Err(corrupt("bad header checksum"));
    }
    let len = (u32_at(h, 24) as usize).min(MAX_IDENTITY);
    let theirs = String::from_utf8_lossy(&h[28..28 + len]);
    let ours = &identity[..identity.len().min(MAX_IDENTITY)];
    if theirs != ours {
        return Err(Invalid::Foreign(format!(
            "another jxvm build or JDK ({theirs})"
        )));
    }
    let (seq, committed) = [SLOT_A, SLOT_B]
        .iter()
        .filter_map(|&at| read_slot(&h[at..at + SLOT_LEN]))
        .max()
        .ok_or_else(|| corrupt("no valid commit"))?;
    if committed < RECORDS_START {
        return Err(corrupt("bad commit"));
    }
    Ok(Header {
        created: u64_at(h, 16),
        seq,
        committed,
    })
}

fn slot(seq: u64, committed: u64) -> [u8; SLOT_LEN] {
    let mut s = [0u8; SLOT_LEN];
    s[..8].copy_from_slice(&seq.to_le_bytes());
    s[8..16].copy_from_slice(&committed.to_le_bytes());
    let crc = crc32fast::hash(&s[..16]);
    s[16..20].copy_from_slice(&crc.to_le_bytes());
    s
}

fn read_slot(s: &[u8]) -> Option<(u64, u64)> {
    (crc32fast::hash(&s[..16]) == u32_at(s, 16) && u64_at(s, 0) != 0)
        .then(|| (u64_at(s, 0), u64_at(s, 8)))
}

/// The slot to write to commit `committed` after commit `seq`, and where it goes: the slot
/// not in force, so that a torn write leaves the previous commit standing.
pub fn next_slot(seq: u64, committed: u64) -> (u64, [u8; SLOT_LEN]) {
    let at = if (seq + 1) % 2 == 1 { SLOT_A } else { SLOT_B };
    (at as u64, slot(seq + 1, committed))
}

/// Hits, misses and runs since the cache was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    pub hits: u64,
    pub misses: u64,
    pub runs: u64,
}

/// Where the statistics block is.
pub const STATS_OFFSET: u64 = STATS_AT as u64;

/// The statistics block for `c`.
pub fn stats_block(c: &Counters) -> [u8; STATS_LEN] {
    let mut s = [0u8; STATS_LEN];
    s[..8].copy_from_slice(&c.hits.to_le_bytes());
    s[8..16].copy_from_slice(&c.misses.to_le_bytes());
    s[16..24].copy_from_slice(&c.runs.to_le_bytes());
    let crc = crc32fast::hash(&s[..24]);
    s[24..28].copy_from_slice(&crc.to_le_bytes());
    s
}

/// The counters of a statistics block; zero if it does not check (they are advisory).
pub fn read_stats(s: &[u8]) -> Counters {
    if s.len() < STATS_LEN || crc32fast::hash(&s[..24]) != u32_at(s, 24) {
        return Counters::default();
    }
    Counters {
        hits: u64_at(s, 0),
        misses: u64_at(s, 8),
        runs: u64_at(s, 16),
    }
}

/// A record's header fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordHeader {
    pub kind: u32,
    pub key: Key,
    pub len: u32,
    pub crc: u32,
    pub last_used: u64,
}

impl RecordHeader {
    /// The record's whole length in the file: header, payload, padding.
    pub fn span(&self) -> u64 {
        RECORD_HEADER as u64 + padded(self.len as u64)
    }
}

/// `n` rounded up to 8.
pub fn padded(n: u64) -> u64 {
    n.div_ceil(8) * 8
}

/// A record: its header, the payload and the padding.
pub fn encode_record(kind: u32, key: &Key, payload: &[u8], last_used: u64) -> Vec<u8> {
    let mut r = Vec::with_capacity(RECORD_HEADER + padded(payload.len() as u64) as usize);
    r.extend_from_slice(&RECORD_MAGIC.to_le_bytes());
    r.extend_from_slice(&kind.to_le_bytes());
    r.extend_from_slice(&key.0);
    r.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    r.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    let crc = crc32fast::hash(&r);
    r.extend_from_slice(&crc.to_le_bytes());
    r.extend_from_slice(&last_used.to_le_bytes());
    r.extend_from_slice(&[0; 4]);
    debug_assert_eq!(r.len(), RECORD_HEADER);
    r.extend_from_slice(payload);
    r.resize(RECORD_HEADER + padded(payload.len() as u64) as usize, 0);
    r
}

/// Decodes the record header at the start of `b` (which must hold [`RECORD_HEADER`] bytes).
pub fn decode_record_header(b: &[u8]) -> Result<RecordHeader, Invalid> {
    if b.len() < RECORD_HEADER {
        return Err(corrupt("a record cut short"));
    }
    if u32_at(b, 0) != RECORD_MAGIC || crc32fast::hash(&b[..32]) != u32_at(b, 32) {
        return Err(corrupt("bad record header"));
    }
    let mut key = [0u8; 16];
    key.copy_from_slice(&b[8..24]);
    Ok(RecordHeader {
        kind: u32_at(b, 4),
        key: Key(key),
        len: u32_at(b, 24),
        crc: u32_at(b, 28),
        last_used: u64_at(b, LAST_USED_AT as usize),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "jxvm test build\njdk 17";

    #[test]
    fn a_new_header_reads_back_with_no_records() {
        let h = new_header(ID, 77);
        let r = read_header(&h, ID).unwrap();
        assert_eq!((r.created, r.seq, r.committed), (77, 1, RECORDS_START));
    }

    #[test]
    fn another_identity_or_version_is_foreign() {
        let h = new_header(ID, 1);
        assert!(matches!(read_header(&h, "other"), Err(Invalid::Foreign(_))));
        let mut v = h.clone();
        v[8] = 9;
        assert!(matches!(read_header(&v, ID), Err(Invalid::Foreign(_))));
    }

    #[test]
    fn every_flipped_header_bit_is_caught_or_harmless() {
        let h = new_header(ID, 5);
        for bit in 0..(SLOT_A + SLOT_LEN) * 8 {
            let mut f = h.clone();
            f[bit / 8] ^= 1 << (bit % 8);
            match read_header(&f, ID) {
                Err(_) => {}
                // Bits of the unused slot B region are not in force.
                Ok(r) => assert_eq!(r, read_header(&h, ID).unwrap(), "bit {bit}"),
            }
        }
    }

    #[test]
    fn the_newer_valid_slot_is_in_force_and_a_torn_one_is_not() {
        let mut h = new_header(ID, 5);
        let (at, s) = next_slot(1, 5000);
        h[at as usize..at as usize + SLOT_LEN].copy_from_slice(&s);
        assert_eq!(read_header(&h, ID).unwrap().committed, 5000);
        h[at as usize + 9] ^= 0x40;
        assert_eq!(read_header(&h, ID).unwrap().committed, RECORDS_START);
    }

    #[test]
    fn records_round_trip_and_damage_is_caught() {
        let key = Key([7; 16]);
        let r = encode_record(3, &key, b"payload!!", 99);
        assert_eq!(r.len() as u64, RECORD_HEADER as u64 + 16);
        let h = decode_record_header(&r).unwrap();
        assert_eq!((h.kind, h.key, h.len, h.last_used), (3, key, 9, 99));
        assert_eq!(h.crc, crc32fast::hash(b"payload!!"));
        for byte in 0..32 {
            let mut f = r.clone();
            f[byte] ^= 0x10;
            assert!(decode_record_header(&f).is_err(), "byte {byte}");
        }
        assert!(decode_record_header(&r[..40]).is_err());
    }

    #[test]
    fn stats_round_trip_and_damaged_stats_read_as_zero() {
        let c = Counters {
            hits: 10,
            misses: 2,
            runs: 3,
        };
        let mut s = stats_block(&c);
        assert_eq!(read_stats(&s), c);
        s[3] ^= 1;
        assert_eq!(read_stats(&s), Counters::default());
    }
}
