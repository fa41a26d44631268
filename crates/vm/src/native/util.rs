//! Natives of java.util: TimeZone, the atomics' capability query, and java.util.zip
//! (CRC32, Adler32, Inflater, Deflater over the flate2 crate's streams).
//!
//! Inflater/Deflater "addresses" are ids into a process-wide table of flate2 streams; the
//! JDK only passes them back to these natives. Deflater strategies other than the default
//! are accepted but not applied (the backend has no strategy setting), and preset
//! dictionaries throw UnsupportedOperationException.

use std::sync::atomic::{AtomicU64, Ordering};

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use super::{Registry, jint, nonnull, ret_int};
use crate::heap::raw;
use crate::thread::{JResult, JThread};

pub fn register(r: &mut Registry) {
    r.add("java/util/concurrent/atomic/AtomicLong", "VMSupportsCS8", "()Z", |_, _| Ok(1));
    r.add("java/util/TimeZone", "getSystemTimeZoneID", "(Ljava/lang/String;)Ljava/lang/String;", |t, _| {
        match crate::port::system_time_zone() {
            Some(z) => Ok(t.new_string(&z)?.slot()),
            None => Ok(0),
        }
    });
    r.add("java/util/TimeZone", "getSystemGMTOffsetID", "()Ljava/lang/String;", |t, _| {
        let s = crate::port::gmt_offset_id();
        Ok(t.new_string(&s)?.slot())
    });
    let crc = "java/util/zip/CRC32";
    r.add(crc, "update", "(II)I", |_, a| Ok(ret_int(crc32(jint(a[0]), &[a[1] as u8]))));
    r.add(crc, "updateBytes0", "(I[BII)I", |t, a| {
        let data = byte_slice(t, a[1], jint(a[2]), jint(a[3]))?;
        Ok(ret_int(crc32(jint(a[0]), &data)))
    });
    r.add(crc, "updateByteBuffer0", "(IJII)I", |_, a| {
        let data = native_bytes(a[1] as i64 + jint(a[3]) as i64, jint(a[4]));
        Ok(ret_int(crc32(jint(a[0]), &data)))
    });
    let adler = "java/util/zip/Adler32";
    r.add(adler, "update", "(II)I", |_, a| Ok(ret_int(adler32(jint(a[0]), &[a[1] as u8]))));
    r.add(adler, "updateBytes", "(I[BII)I", |t, a| {
        let data = byte_slice(t, a[1], jint(a[2]), jint(a[3]))?;
        Ok(ret_int(adler32(jint(a[0]), &data)))
    });
    r.add(adler, "updateByteBuffer", "(IJII)I", |_, a| {
        let data = native_bytes(a[1] as i64 + jint(a[3]) as i64, jint(a[4]));
        Ok(ret_int(adler32(jint(a[0]), &data)))
    });
    let inf = "java/util/zip/Inflater";
    r.add(inf, "init", "(Z)J", |_, a| Ok(new_stream(Stream::Inflate(Decompress::new(a[0] == 0)))));
    r.add(inf, "setDictionary", "(J[BII)V", unsupported_dictionary);
    r.add(inf, "setDictionaryBuffer", "(JJI)V", unsupported_dictionary);
    r.add(inf, "inflateBytesBytes", "(J[BII[BII)J", |t, a| {
        let input = byte_slice(t, a[3], jint(a[4]), jint(a[5]))?;
        inflate_into_array(t, a[1], &input, a[6], jint(a[7]), jint(a[8]))
    });
    r.add(inf, "inflateBufferBytes", "(JJI[BII)J", |t, a| {
        let input = native_bytes(a[3] as i64, jint(a[5]));
        inflate_into_array(t, a[1], &input, a[6], jint(a[7]), jint(a[8]))
    });
    r.add(inf, "inflateBytesBuffer", "(J[BIIJI)J", |t, a| {
        let input = byte_slice(t, a[3], jint(a[4]), jint(a[5]))?;
        Ok(inflate_into_native(a[1], &input, a[6] as i64, jint(a[8])))
    });
    r.add(inf, "inflateBufferBuffer", "(JJIJI)J", |_, a| {
        let input = native_bytes(a[3] as i64, jint(a[5]));
        Ok(inflate_into_native(a[1], &input, a[6] as i64, jint(a[8])))
    });
    r.add(inf, "getAdler", "(J)I", |_, _| Ok(1));
    r.add(inf, "reset", "(J)V", |_, a| {
        with_stream(a[0], |s| {
            if let Stream::Inflate(d) = s {
                d.reset(true);
            }
        });
        Ok(0)
    });
    r.add(inf, "end", "(J)V", |_, a| {
        STREAMS.lock().remove(&a[0]);
        Ok(0)
    });
    let def = "java/util/zip/Deflater";
    r.add(def, "init", "(IIZ)J", |_, a| {
        let level = level_of(jint(a[0]));
        Ok(new_stream(Stream::Deflate(Compress::new(level, a[2] == 0), a[2] == 0)))
    });
    r.add(def, "setDictionary", "(J[BII)V", unsupported_dictionary);
    r.add(def, "setDictionaryBuffer", "(JJI)V", unsupported_dictionary);
    r.add(def, "deflateBytesBytes", "(J[BII[BIIII)J", |t, a| {
        let input = byte_slice(t, a[3], jint(a[4]), jint(a[5]))?;
        deflate_into_array(t, a[1], &input, a[6], jint(a[7]), jint(a[8]), jint(a[9]), jint(a[10]))
    });
    r.add(def, "deflateBufferBytes", "(JJI[BIIII)J", |t, a| {
        let input = native_bytes(a[3] as i64, jint(a[5]));
        deflate_into_array(t, a[1], &input, a[6], jint(a[7]), jint(a[8]), jint(a[9]), jint(a[10]))
    });
    r.add(def, "getAdler", "(J)I", |_, _| Ok(1));
    r.add(def, "reset", "(J)V", |_, a| {
        with_stream(a[0], |s| {
            if let Stream::Deflate(c, _) = s {
                c.reset();
            }
        });
        Ok(0)
    });
    r.add(def, "end", "(J)V", |_, a| {
        STREAMS.lock().remove(&a[0]);
        Ok(0)
    });
}

fn crc32(init: i32, data: &[u8]) -> i32 {
    let mut h = crc32fast::Hasher::new_with_initial(init as u32);
    h.update(data);
    h.finalize() as i32
}

/// Adler-32 (RFC 1950 §8.2), continuing from `init`.
fn adler32(init: i32, data: &[u8]) -> i32 {
    const MOD: u32 = 65521;
    let (mut a, mut b) = ((init as u32) & 0xffff, (init as u32) >> 16);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += x as u32;
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    ((b << 16) | a) as i32
}

fn byte_slice(t: &mut JThread, arr: u64, off: i32, len: i32) -> JResult<Vec<u8>> {
    super::bytes_of(t, arr, off, len)
}

fn native_bytes(addr: i64, len: i32) -> Vec<u8> {
    let mut v = vec![0u8; len.max(0) as usize];
    raw::copy(addr as usize, v.as_mut_ptr() as usize, v.len());
    v
}

enum Stream {
    Inflate(Decompress),
    /// The stream and whether it writes a zlib header.
    Deflate(Compress, bool),
}

static STREAMS: Mutex<Option<FxHashMap<u64, Stream>>> = Mutex::new(None);
static NEXT_STREAM: AtomicU64 = AtomicU64::new(1);

trait StreamTable {
    fn remove(&mut self, id: &u64);
}
impl StreamTable for Option<FxHashMap<u64, Stream>> {
    fn remove(&mut self, id: &u64) {
        if let Some(m) = self {
            m.remove(id);
        }
    }
}

fn new_stream(s: Stream) -> u64 {
    let id = NEXT_STREAM.fetch_add(1, Ordering::Relaxed);
    STREAMS.lock().get_or_insert_with(FxHashMap::default).insert(id, s);
    id
}

fn with_stream<R>(id: u64, f: impl FnOnce(&mut Stream) -> R) -> Option<R> {
    let mut g = STREAMS.lock();
    g.as_mut()?.get_mut(&id).map(f)
}

fn unsupported_dictionary(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    Err(t.throw_new("java/lang/UnsupportedOperationException", Some("jxvm: preset zlib dictionaries are not supported")))
}

fn level_of(level: i32) -> Compression {
    if (0..=9).contains(&level) { Compression::new(level as u32) } else { Compression::default() }
}

/// Packs (read, written, finished, flag63) as the JDK expects.
fn pack(read: u64, written: u64, finished: bool, flag63: bool) -> u64 {
    (read & 0x7fff_ffff) | ((written & 0x7fff_ffff) << 31) | ((finished as u64) << 62) | ((flag63 as u64) << 63)
}

fn inflate(id: u64, input: &[u8], out: &mut [u8]) -> Result<u64, String> {
    with_stream(id, |s| {
        let Stream::Inflate(d) = s else { return Err("not an inflater".to_string()) };
        let (in0, out0) = (d.total_in(), d.total_out());
        match d.decompress(input, out, FlushDecompress::None) {
            Ok(st) => Ok(pack(d.total_in() - in0, d.total_out() - out0, st == Status::StreamEnd, false)),
            Err(e) if e.needs_dictionary().is_some() => Ok(pack(d.total_in() - in0, 0, false, true)),
            Err(e) => Err(e.to_string()),
        }
    })
    .unwrap_or_else(|| Err("Inflater has been closed".into()))
}

fn inflate_into_array(t: &mut JThread, id: u64, input: &[u8], out: u64, off: i32, len: i32) -> JResult<u64> {
    let out = nonnull(t, out)?;
    let data = out.array_slice::<u8>();
    if off < 0 || len < 0 || off as usize + len as usize > data.len() {
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
    }
    let mut buf = vec![0u8; len as usize];
    match inflate(id, input, &mut buf) {
        Ok(r) => {
            let written = ((r >> 31) & 0x7fff_ffff) as usize;
            data[off as usize..off as usize + written].copy_from_slice(&buf[..written]);
            Ok(r)
        }
        Err(msg) => Err(t.throw_new("java/util/zip/DataFormatException", Some(&msg))),
    }
}

fn inflate_into_native(id: u64, input: &[u8], addr: i64, len: i32) -> u64 {
    let mut buf = vec![0u8; len.max(0) as usize];
    match inflate(id, input, &mut buf) {
        Ok(r) => {
            let written = ((r >> 31) & 0x7fff_ffff) as usize;
            raw::copy(buf.as_ptr() as usize, addr as usize, written);
            r
        }
        Err(_) => 0,
    }
}

#[allow(clippy::too_many_arguments)]
fn deflate_into_array(t: &mut JThread, id: u64, input: &[u8], out: u64, off: i32, len: i32, flush: i32, params: i32) -> JResult<u64> {
    let out = nonnull(t, out)?;
    let data = out.array_slice::<u8>();
    if off < 0 || len < 0 || off as usize + len as usize > data.len() {
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
    }
    let mut buf = vec![0u8; len as usize];
    let r = with_stream(id, |s| {
        let Stream::Deflate(c, header) = s else { return None };
        // A level change applies only before any input was consumed (the backend cannot
        // change the level of a running stream).
        if params & 1 != 0 && c.total_in() == 0 {
            *c = Compress::new(level_of(params >> 3), *header);
        }
        let mode = match flush {
            2 => FlushCompress::Sync,
            3 => FlushCompress::Full,
            4 => FlushCompress::Finish,
            _ => FlushCompress::None,
        };
        let (in0, out0) = (c.total_in(), c.total_out());
        let st = c.compress(input, &mut buf, mode).ok()?;
        Some(pack(c.total_in() - in0, c.total_out() - out0, st == Status::StreamEnd, false))
    })
    .flatten();
    match r {
        Some(r) => {
            let written = ((r >> 31) & 0x7fff_ffff) as usize;
            data[off as usize..off as usize + written].copy_from_slice(&buf[..written]);
            Ok(r)
        }
        None => Err(t.throw_new("java/lang/InternalError", Some("deflate failed"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn adler_matches_known_value() {
        // Adler-32 of "Wikipedia" is 0x11E60398.
        assert_eq!(adler32(1, b"Wikipedia") as u32, 0x11E6_0398);
    }
    #[test]
    fn crc_matches_known_value() {
        assert_eq!(crc32(0, b"123456789") as u32, 0xCBF4_3926);
    }
    #[test]
    fn inflate_roundtrip() {
        let d = new_stream(Stream::Deflate(Compress::new(Compression::default(), true), true));
        let mut out = vec![0u8; 256];
        let data = b"hello hello hello hello";
        let r = with_stream(d, |s| match s {
            Stream::Deflate(c, _) => {
                c.compress(data, &mut out, FlushCompress::Finish).unwrap();
                c.total_out() as usize
            }
            _ => 0,
        })
        .unwrap();
        let i = new_stream(Stream::Inflate(Decompress::new(true)));
        let mut back = vec![0u8; 64];
        let res = inflate(i, &out[..r], &mut back).unwrap();
        let written = ((res >> 31) & 0x7fff_ffff) as usize;
        assert_eq!(&back[..written], data);
        assert!(res >> 62 & 1 == 1);
    }
}
