//! Natives of java.util.zip: `CRC32`, `Adler32`, `Inflater` and `Deflater` — all that
//! `ZipFile`, `JarFile`, the zip, GZIP and inflater/deflater streams need (`CRC32C` is pure Java).
//!
//! Why a crate: HotSpot's libzip is a thin layer over the system zlib, so its compressed bytes,
//! stream Adler-32 values and `DataFormatException` messages are zlib's. `libz-sys` binds that
//! same library (found through pkg-config; where the system has none, libz-sys compiles the zlib
//! sources it ships), so jxvm produces the same bytes. The natives follow the JDK's Inflater.c
//! and Deflater.c call for call: the same zlib calls, the same packed `long` result (bytes read
//! | bytes written << 31 | finished << 62 | needs-dictionary, or params-still-pending, << 63),
//! the same exceptions.
//!
//! The `long addr` the Java side keeps is a handle into this module's table of z_streams, not
//! a pointer. Each entry is tagged with its kind and with the domain that made it, so a handle
//! that is zero, already ended, of the other kind or of another domain throws
//! NullPointerException ("Inflater has been closed", like the Java side's `ensureOpen`) and
//! touches no memory. Handles are never reused. `end()` frees the stream; the JDK's Cleaner
//! calls it for an Inflater or Deflater that becomes unreachable without it.
//!
//! Byte arrays are read and written in place, as JNI's GetPrimitiveArrayCritical does: between
//! taking an array's address and the end of the zlib call a native neither allocates nor
//! reaches a safepoint, so the moving collector cannot move the array. Direct buffers'
//! addresses come from the JDK's own code (`DirectBuffer.address()` plus a position it keeps
//! within the limit) and are trusted as Unsafe's are.

use std::ffi::{CStr, c_int};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use libz_sys as z;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use super::{Registry, jint, jlong, nonnull, ret_int};
use crate::domain::DomainId;
use crate::heap::ObjRef;
use crate::jdk;
use crate::thread::{JResult, JThread, Thrown};

pub fn register(r: &mut Registry) {
    let crc = "java/util/zip/CRC32";
    r.add(crc, "update", "(II)I", |_, a| {
        Ok(ret_int(crc32(jint(a[0]), &[a[1] as u8])))
    });
    r.add(crc, "updateBytes0", "(I[BII)I", |t, a| {
        let data = array_range(t, a[1], jint(a[2]), jint(a[3]))?;
        Ok(ret_int(crc32(jint(a[0]), data)))
    });
    r.add(crc, "updateByteBuffer0", "(IJII)I", |_, a| {
        Ok(ret_int(crc32(
            jint(a[0]),
            direct_range(jlong(a[1]), jint(a[3]), jint(a[4])),
        )))
    });

    let adler = "java/util/zip/Adler32";
    r.add(adler, "update", "(II)I", |_, a| {
        Ok(ret_int(adler32(jint(a[0]), &[a[1] as u8])))
    });
    r.add(adler, "updateBytes", "(I[BII)I", |t, a| {
        let data = array_range(t, a[1], jint(a[2]), jint(a[3]))?;
        Ok(ret_int(adler32(jint(a[0]), data)))
    });
    r.add(adler, "updateByteBuffer", "(IJII)I", |_, a| {
        Ok(ret_int(adler32(
            jint(a[0]),
            direct_range(jlong(a[1]), jint(a[3]), jint(a[4])),
        )))
    });

    // Instance natives: a[0] is the Inflater/Deflater, a[1] the handle. Static ones: a[0] is
    // the handle. Longs take two slots.
    let inf = "java/util/zip/Inflater";
    r.add(inf, "initIDs", "()V", |_, _| Ok(0));
    r.add(inf, "init", "(Z)J", |t, a| {
        match ZStream::inflater(a[0] != 0) {
            Ok(s) => Ok(insert(t, s)),
            Err((code, msg)) => Err(raise(t, init_failure(Kind::Inflater, code, msg))),
        }
    });
    r.add(inf, "setDictionary", "(J[BII)V", |t, a| {
        set_dictionary(
            t,
            Kind::Inflater,
            a[0],
            Range::Array(a[2], jint(a[3]), jint(a[4])),
        )
    });
    r.add(inf, "setDictionaryBuffer", "(JJI)V", |t, a| {
        set_dictionary(
            t,
            Kind::Inflater,
            a[0],
            Range::Direct(jlong(a[2]), jint(a[4])),
        )
    });
    r.add(inf, "inflateBytesBytes", "(J[BII[BII)J", |t, a| {
        let input = Range::Array(a[3], jint(a[4]), jint(a[5]));
        inflate(
            t,
            a[0],
            a[1],
            input,
            Range::Array(a[6], jint(a[7]), jint(a[8])),
        )
    });
    r.add(inf, "inflateBytesBuffer", "(J[BIIJI)J", |t, a| {
        let input = Range::Array(a[3], jint(a[4]), jint(a[5]));
        inflate(t, a[0], a[1], input, Range::Direct(jlong(a[6]), jint(a[8])))
    });
    r.add(inf, "inflateBufferBytes", "(JJI[BII)J", |t, a| {
        let input = Range::Direct(jlong(a[3]), jint(a[5]));
        inflate(
            t,
            a[0],
            a[1],
            input,
            Range::Array(a[6], jint(a[7]), jint(a[8])),
        )
    });
    r.add(inf, "inflateBufferBuffer", "(JJIJI)J", |t, a| {
        let input = Range::Direct(jlong(a[3]), jint(a[5]));
        inflate(t, a[0], a[1], input, Range::Direct(jlong(a[6]), jint(a[8])))
    });
    r.add(inf, "getAdler", "(J)I", |t, a| {
        get_adler(t, Kind::Inflater, a[0])
    });
    r.add(inf, "reset", "(J)V", |t, a| reset(t, Kind::Inflater, a[0]));
    r.add(inf, "end", "(J)V", |t, a| end(t, Kind::Inflater, a[0]));

    let def = "java/util/zip/Deflater";
    r.add(def, "init", "(IIZ)J", |t, a| {
        match ZStream::deflater(jint(a[0]), jint(a[1]), a[2] != 0) {
            Ok(s) => Ok(insert(t, s)),
            Err((code, msg)) => Err(raise(t, init_failure(Kind::Deflater, code, msg))),
        }
    });
    r.add(def, "setDictionary", "(J[BII)V", |t, a| {
        set_dictionary(
            t,
            Kind::Deflater,
            a[0],
            Range::Array(a[2], jint(a[3]), jint(a[4])),
        )
    });
    r.add(def, "setDictionaryBuffer", "(JJI)V", |t, a| {
        set_dictionary(
            t,
            Kind::Deflater,
            a[0],
            Range::Direct(jlong(a[2]), jint(a[4])),
        )
    });
    r.add(def, "deflateBytesBytes", "(J[BII[BIIII)J", |t, a| {
        let input = Range::Array(a[3], jint(a[4]), jint(a[5]));
        deflate(
            t,
            a[1],
            input,
            Range::Array(a[6], jint(a[7]), jint(a[8])),
            jint(a[9]),
            jint(a[10]),
        )
    });
    r.add(def, "deflateBytesBuffer", "(J[BIIJIII)J", |t, a| {
        let input = Range::Array(a[3], jint(a[4]), jint(a[5]));
        deflate(
            t,
            a[1],
            input,
            Range::Direct(jlong(a[6]), jint(a[8])),
            jint(a[9]),
            jint(a[10]),
        )
    });
    r.add(def, "deflateBufferBytes", "(JJI[BIIII)J", |t, a| {
        let input = Range::Direct(jlong(a[3]), jint(a[5]));
        deflate(
            t,
            a[1],
            input,
            Range::Array(a[6], jint(a[7]), jint(a[8])),
            jint(a[9]),
            jint(a[10]),
        )
    });
    r.add(def, "deflateBufferBuffer", "(JJIJIII)J", |t, a| {
        let input = Range::Direct(jlong(a[3]), jint(a[5]));
        deflate(
            t,
            a[1],
            input,
            Range::Direct(jlong(a[6]), jint(a[8])),
            jint(a[9]),
            jint(a[10]),
        )
    });
    r.add(def, "getAdler", "(J)I", |t, a| {
        get_adler(t, Kind::Deflater, a[0])
    });
    r.add(def, "reset", "(J)V", |t, a| reset(t, Kind::Deflater, a[0]));
    r.add(def, "end", "(J)V", |t, a| end(t, Kind::Deflater, a[0]));
}

// ---- checksums ----

/// CRC-32 (the polynomial of zlib's `crc32`), continuing from `init`.
fn crc32(init: i32, data: &[u8]) -> i32 {
    let mut h = crc32fast::Hasher::new_with_initial(init as u32);
    h.update(data);
    h.finalize() as i32
}

/// Adler-32, continuing from `init`, computed by zlib as HotSpot does.
fn adler32(init: i32, data: &[u8]) -> i32 {
    let mut sum = init as u32 as z::uLong;
    for chunk in data.chunks(1 << 30) {
        // SAFETY: `chunk` is a live slice of `chunk.len()` (< 2^32) bytes; adler32 only reads them.
        sum = unsafe { z::adler32(sum, chunk.as_ptr(), chunk.len() as z::uInt) };
    }
    sum as u32 as i32
}

/// `len` bytes at `off` of byte array `arr`, read in place: use before anything allocates.
fn array_range(t: &mut JThread, arr: u64, off: i32, len: i32) -> JResult<&'static [u8]> {
    let a = nonnull(t, arr)?;
    let data = a.array_slice::<u8>();
    if off < 0 || len < 0 || off as usize + len as usize > data.len() {
        return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
    }
    Ok(&data[off as usize..off as usize + len as usize])
}

/// The `len` bytes of a direct buffer at `addr + off` (nothing for a length of zero or less).
fn direct_range(addr: i64, off: i32, len: i32) -> &'static [u8] {
    if len <= 0 {
        return &[];
    }
    let p = (addr as usize).wrapping_add(off as isize as usize);
    // SAFETY: CRC32/Adler32.update(ByteBuffer) pass a direct buffer's address and a position
    // and remaining count within its limit (trusted like Unsafe's addresses); the buffer is
    // kept reachable by the caller for the duration of the call.
    unsafe { std::slice::from_raw_parts(p as *const u8, len as usize) }
}

// ---- z_streams and their handles ----

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Inflater,
    Deflater,
}

impl Kind {
    fn closed(self) -> &'static str {
        match self {
            Kind::Inflater => "Inflater has been closed",
            Kind::Deflater => "Deflater has been closed",
        }
    }
}

/// One zlib stream. Invariant: while `live`, `strm` was initialized by the init function of
/// `kind` and not ended.
struct ZStream {
    kind: Kind,
    live: bool,
    /// Boxed: zlib's state points back at the z_stream and checks that pointer, so the struct
    /// must not move after init.
    strm: Box<z::z_stream>,
}

// SAFETY: the z_stream's pointers are zlib's own state (allocated through `zalloc`) and
// next_in/next_out, which are null between calls; zlib has no thread affinity, and the
// table hands a stream to one thread at a time through its Mutex.
unsafe impl Send for ZStream {}

/// zlib's allocator. calloc rather than zlib's default malloc: memory zlib reads before it
/// writes (parts of the deflate window) is then zero, not whatever the heap held.
unsafe extern "C" fn zalloc(_opaque: z::voidpf, items: z::uInt, size: z::uInt) -> z::voidpf {
    // SAFETY: calloc accepts any counts and returns null on failure, which zlib reports as
    // Z_MEM_ERROR.
    unsafe { libc::calloc(items as usize, size as usize) }
}

unsafe extern "C" fn zfree(_opaque: z::voidpf, p: z::voidpf) {
    // SAFETY: zlib frees only what `zalloc` returned, once.
    unsafe { libc::free(p) }
}

/// A failed init: zlib's return code and message.
type InitError = (c_int, Option<String>);

/// Where one zlib call reads its input and writes its output: `in_len` readable bytes at
/// `input`, `out_len` writable bytes at `output` (made only by [`locate`]).
struct Io {
    input: *mut u8,
    in_len: u32,
    output: *mut u8,
    out_len: u32,
}

/// One zlib call.
#[derive(Clone, Copy)]
enum Op {
    Inflate,
    Deflate(c_int),
    /// deflateParams(level, strategy).
    Params(c_int, c_int),
}

/// What one zlib call did: its return code, the bytes it consumed and produced, its message.
#[derive(Debug, Default)]
struct Outcome {
    code: c_int,
    in_used: u32,
    out_used: u32,
    msg: Option<String>,
}

impl ZStream {
    fn blank() -> Box<z::z_stream> {
        Box::new(z::z_stream {
            next_in: std::ptr::null_mut(),
            avail_in: 0,
            total_in: 0,
            next_out: std::ptr::null_mut(),
            avail_out: 0,
            total_out: 0,
            msg: std::ptr::null_mut(),
            state: std::ptr::null_mut(),
            zalloc,
            zfree,
            opaque: std::ptr::null_mut(),
            data_type: 0,
            adler: 0,
            reserved: 0,
        })
    }

    /// inflateInit2 with zlib (or, for `nowrap`, raw deflate) framing.
    fn inflater(nowrap: bool) -> Result<ZStream, InitError> {
        let mut strm = Self::blank();
        let bits = if nowrap { -15 } else { 15 };
        // SAFETY: `strm` is a fresh z_stream with allocator functions and no state, as
        // inflateInit2_ expects; version and size describe the zlib we link. On failure zlib
        // frees whatever it allocated.
        let code = unsafe { z::inflateInit2_(&mut *strm, bits, z::zlibVersion(), STREAM_SIZE) };
        if code == z::Z_OK {
            Ok(ZStream {
                kind: Kind::Inflater,
                live: true,
                strm,
            })
        } else {
            Err((code, msg_of(&strm)))
        }
    }

    /// deflateInit2 as Deflater.c calls it (memLevel 8, 32K window).
    fn deflater(level: i32, strategy: i32, nowrap: bool) -> Result<ZStream, InitError> {
        let mut strm = Self::blank();
        let bits = if nowrap { -15 } else { 15 };
        // SAFETY: as for `inflater`; zlib rejects bad levels and strategies with Z_STREAM_ERROR.
        let code = unsafe {
            z::deflateInit2_(
                &mut *strm,
                level,
                z::Z_DEFLATED,
                bits,
                8,
                strategy,
                z::zlibVersion(),
                STREAM_SIZE,
            )
        };
        if code == z::Z_OK {
            Ok(ZStream {
                kind: Kind::Deflater,
                live: true,
                strm,
            })
        } else {
            Err((code, msg_of(&strm)))
        }
    }

    /// Runs `op` over `io`. The buffer pointers are cleared afterwards, so the stream keeps no
    /// address of a Java array between calls.
    fn run(&mut self, io: &Io, op: Op) -> Outcome {
        if !self.live {
            return Outcome {
                code: z::Z_STREAM_ERROR,
                ..Outcome::default()
            };
        }
        let s = &mut *self.strm;
        s.next_in = io.input;
        s.avail_in = io.in_len;
        s.next_out = io.output;
        s.avail_out = io.out_len;
        // SAFETY: the stream is live and of the kind `op` needs (callers look it up by kind);
        // `io`'s ranges are valid for their lengths for the whole call (see `locate`); zlib
        // rejects bad flush modes, levels and strategies with Z_STREAM_ERROR.
        let code = unsafe {
            match op {
                Op::Inflate => z::inflate(s, z::Z_PARTIAL_FLUSH),
                Op::Deflate(flush) => z::deflate(s, flush),
                Op::Params(level, strategy) => z::deflateParams(s, level, strategy),
            }
        };
        let outcome = Outcome {
            code,
            in_used: io.in_len - s.avail_in,
            out_used: io.out_len - s.avail_out,
            msg: msg_of(s),
        };
        s.next_in = std::ptr::null_mut();
        s.avail_in = 0;
        s.next_out = std::ptr::null_mut();
        s.avail_out = 0;
        outcome
    }

    /// inflateSetDictionary / deflateSetDictionary over `len` bytes at `dict`.
    fn set_dictionary(&mut self, dict: *const u8, len: u32) -> (c_int, Option<String>) {
        if !self.live {
            return (z::Z_STREAM_ERROR, None);
        }
        let s = &mut *self.strm;
        // SAFETY: the stream is live and of `kind`; `dict` is readable for `len` bytes (see
        // `locate`); zlib copies the dictionary into its window.
        let code = unsafe {
            match self.kind {
                Kind::Inflater => z::inflateSetDictionary(s, dict, len),
                Kind::Deflater => z::deflateSetDictionary(s, dict, len),
            }
        };
        (code, msg_of(s))
    }

    fn reset(&mut self) -> c_int {
        if !self.live {
            return z::Z_STREAM_ERROR;
        }
        let s = &mut *self.strm;
        // SAFETY: the stream is live and of `kind`.
        unsafe {
            match self.kind {
                Kind::Inflater => z::inflateReset(s),
                Kind::Deflater => z::deflateReset(s),
            }
        }
    }

    /// inflateEnd / deflateEnd (once; later calls do nothing).
    fn end(&mut self) -> c_int {
        if !std::mem::take(&mut self.live) {
            return z::Z_OK;
        }
        let s = &mut *self.strm;
        // SAFETY: the stream was live and of `kind`; zlib frees its state and nulls it.
        unsafe {
            match self.kind {
                Kind::Inflater => z::inflateEnd(s),
                Kind::Deflater => z::deflateEnd(s),
            }
        }
    }
}

impl Drop for ZStream {
    fn drop(&mut self) {
        self.end();
    }
}

const STREAM_SIZE: c_int = std::mem::size_of::<z::z_stream>() as c_int;

/// zlib's message, if it set one.
fn msg_of(s: &z::z_stream) -> Option<String> {
    if s.msg.is_null() {
        return None;
    }
    // SAFETY: zlib sets `msg` to null or to one of its static NUL-terminated strings.
    Some(
        unsafe { CStr::from_ptr(s.msg) }
            .to_string_lossy()
            .into_owned(),
    )
}

struct Entry {
    kind: Kind,
    domain: DomainId,
    stream: Arc<Mutex<ZStream>>,
}

/// Live streams by handle. The lock is held only to find, add or remove an entry; a call
/// works on the stream under the stream's own lock.
static STREAMS: LazyLock<Mutex<FxHashMap<u64, Entry>>> =
    LazyLock::new(|| Mutex::new(FxHashMap::default()));
static NEXT_HANDLE: AtomicU64 = AtomicU64::new(1);

fn table_insert(domain: DomainId, s: ZStream) -> u64 {
    let handle = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
    let entry = Entry {
        kind: s.kind,
        domain,
        stream: Arc::new(Mutex::new(s)),
    };
    STREAMS.lock().insert(handle, entry);
    handle
}

fn table_get(handle: u64, domain: DomainId, kind: Kind) -> Option<Arc<Mutex<ZStream>>> {
    let streams = STREAMS.lock();
    let e = streams.get(&handle)?;
    (e.kind == kind && e.domain == domain).then(|| e.stream.clone())
}

fn table_remove(handle: u64, domain: DomainId, kind: Kind) -> Option<Arc<Mutex<ZStream>>> {
    let mut streams = STREAMS.lock();
    let e = streams.get(&handle)?;
    if e.kind != kind || e.domain != domain {
        return None;
    }
    streams.remove(&handle).map(|e| e.stream)
}

fn insert(t: &mut JThread, s: ZStream) -> u64 {
    table_insert(t.domain.id, s)
}

/// The live stream of `kind` behind `handle`, or NullPointerException as `ensureOpen` throws.
fn stream(t: &mut JThread, handle: u64, kind: Kind) -> JResult<Arc<Mutex<ZStream>>> {
    match table_get(handle, t.domain.id, kind) {
        Some(s) => Ok(s),
        None => Err(t.throw_new("java/lang/NullPointerException", Some(kind.closed()))),
    }
}

// ---- argument ranges ----

/// A byte range among a native's arguments.
#[derive(Clone, Copy)]
enum Range {
    /// A byte array (slot), offset, length.
    Array(u64, i32, i32),
    /// A direct buffer's address (already advanced to its position), length.
    Direct(i64, i32),
}

/// The address and length of `r`. A null array throws NullPointerException, a range outside
/// it ArrayIndexOutOfBoundsException, a negative length IllegalArgumentException. An array's
/// address stays valid until this native next allocates (which it does only to throw).
fn locate(t: &mut JThread, r: Range) -> JResult<(*mut u8, u32)> {
    match r {
        Range::Array(arr, off, len) => {
            let a: ObjRef = nonnull(t, arr)?;
            if off < 0 || len < 0 || off as usize + len as usize > a.array_len() {
                return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
            }
            Ok((a.array_data().wrapping_add(off as usize), len as u32))
        }
        Range::Direct(_, len) if len < 0 => {
            Err(t.throw_new("java/lang/IllegalArgumentException", None))
        }
        Range::Direct(addr, len) => Ok((addr as usize as *mut u8, len as u32)),
    }
}

// ---- results and exceptions ----

/// An exception a native throws, as the JDK's C code would.
#[derive(Debug, PartialEq, Eq)]
enum Fail {
    DataFormat(Option<String>),
    OutOfMemory,
    Internal(Option<String>),
    IllegalArgument(Option<String>),
}

fn raise(t: &mut JThread, f: Fail) -> Thrown {
    let (class, msg) = match f {
        Fail::DataFormat(m) => ("java/util/zip/DataFormatException", m),
        Fail::OutOfMemory => ("java/lang/OutOfMemoryError", None),
        Fail::Internal(m) => ("java/lang/InternalError", m),
        Fail::IllegalArgument(m) => ("java/lang/IllegalArgumentException", m),
    };
    t.throw_new(class, msg.as_deref())
}

/// The `long` the Java side decodes: read | written << 31 | finished << 62 | flag << 63.
fn pack(read: u32, written: u32, finished: bool, flag: bool) -> u64 {
    (read as u64 & 0x7fff_ffff)
        | ((written as u64 & 0x7fff_ffff) << 31)
        | ((finished as u64) << 62)
        | ((flag as u64) << 63)
}

/// Inflater.c's checkInflateStatus (the flag is "needs a dictionary").
fn inflate_status(o: &Outcome) -> Result<u64, Fail> {
    match o.code {
        z::Z_STREAM_END => Ok(pack(o.in_used, o.out_used, true, false)),
        z::Z_OK => Ok(pack(o.in_used, o.out_used, false, false)),
        z::Z_NEED_DICT => Ok(pack(o.in_used, o.out_used, false, true)),
        z::Z_BUF_ERROR => Ok(0),
        z::Z_DATA_ERROR => Err(Fail::DataFormat(o.msg.clone())),
        z::Z_MEM_ERROR => Err(Fail::OutOfMemory),
        _ => Err(Fail::Internal(o.msg.clone())),
    }
}

/// Deflater.c's checkDeflateStatus (the flag is "parameters not yet applied").
fn deflate_status(o: &Outcome, set_params: bool) -> Result<u64, Fail> {
    let unknown =
        |what: &str| Fail::Internal(Some(o.msg.clone().unwrap_or_else(|| what.to_string())));
    if set_params {
        match o.code {
            z::Z_OK => Ok(pack(o.in_used, o.out_used, false, false)),
            z::Z_BUF_ERROR => Ok(pack(o.in_used, o.out_used, false, true)),
            _ => Err(unknown(
                "unknown error in checkDeflateStatus, setParams case",
            )),
        }
    } else {
        match o.code {
            z::Z_STREAM_END => Ok(pack(o.in_used, o.out_used, true, false)),
            z::Z_OK | z::Z_BUF_ERROR => Ok(pack(o.in_used, o.out_used, false, false)),
            _ => Err(unknown("unknown error in checkDeflateStatus")),
        }
    }
}

/// checkSetDictionaryResult of Inflater.c and of Deflater.c.
fn dictionary_status(kind: Kind, code: c_int, msg: Option<String>) -> Result<(), Fail> {
    match (kind, code) {
        (_, z::Z_OK) => Ok(()),
        (Kind::Inflater, z::Z_STREAM_ERROR | z::Z_DATA_ERROR) => Err(Fail::IllegalArgument(msg)),
        (Kind::Inflater, _) => Err(Fail::Internal(msg)),
        (Kind::Deflater, z::Z_STREAM_ERROR) => Err(Fail::IllegalArgument(None)),
        (Kind::Deflater, _) => {
            Err(Fail::Internal(Some(msg.unwrap_or_else(|| {
                "unknown error in checkSetDictionaryResult".into()
            }))))
        }
    }
}

/// The exception a failed init throws.
fn init_failure(kind: Kind, code: c_int, msg: Option<String>) -> Fail {
    match (kind, code) {
        (_, z::Z_MEM_ERROR) => Fail::OutOfMemory,
        (Kind::Deflater, z::Z_STREAM_ERROR) => Fail::IllegalArgument(None),
        _ => Fail::Internal(Some(msg.unwrap_or_else(|| {
            match code {
                z::Z_VERSION_ERROR => {
                    "zlib returned Z_VERSION_ERROR: compile time and runtime zlib implementations differ"
                }
                z::Z_STREAM_ERROR => "inflateInit2 returned Z_STREAM_ERROR",
                _ => "unknown error initializing zlib library",
            }
            .to_string()
        }))),
    }
}

// ---- the natives' bodies ----

fn inflate(t: &mut JThread, this: u64, handle: u64, input: Range, output: Range) -> JResult<u64> {
    let s = stream(t, handle, Kind::Inflater)?;
    let this = nonnull(t, this)?;
    let (input, in_len) = locate(t, input)?;
    let (output, out_len) = locate(t, output)?;
    let o = s.lock().run(
        &Io {
            input,
            in_len,
            output,
            out_len,
        },
        Op::Inflate,
    );
    inflate_status(&o).map_err(|f| {
        if matches!(f, Fail::DataFormat(_)) {
            // Inflater.c records what was consumed and produced before the error; the Java
            // side advances its input position and byte counts by these.
            match t.jdk::<jdk::Inflater>(this) {
                Ok(fields) => {
                    this.write::<i32>(fields.input_consumed, o.in_used as i32);
                    this.write::<i32>(fields.output_consumed, o.out_used as i32);
                }
                Err(thrown) => return thrown,
            }
        }
        raise(t, f)
    })
}

fn deflate(
    t: &mut JThread,
    handle: u64,
    input: Range,
    output: Range,
    flush: i32,
    params: i32,
) -> JResult<u64> {
    let s = stream(t, handle, Kind::Deflater)?;
    let (input, in_len) = locate(t, input)?;
    let (output, out_len) = locate(t, output)?;
    // params: bit 0 = apply, bits 1-2 = strategy, bits 3.. = level (Deflater.deflate).
    let set_params = params & 1 != 0;
    let op = if set_params {
        Op::Params(params >> 3, (params >> 1) & 3)
    } else {
        Op::Deflate(flush)
    };
    let o = s.lock().run(
        &Io {
            input,
            in_len,
            output,
            out_len,
        },
        op,
    );
    deflate_status(&o, set_params).map_err(|f| raise(t, f))
}

fn set_dictionary(t: &mut JThread, kind: Kind, handle: u64, dict: Range) -> JResult<u64> {
    let s = stream(t, handle, kind)?;
    let (p, len) = locate(t, dict)?;
    let (code, msg) = s.lock().set_dictionary(p, len);
    dictionary_status(kind, code, msg)
        .map(|()| 0)
        .map_err(|f| raise(t, f))
}

fn get_adler(t: &mut JThread, kind: Kind, handle: u64) -> JResult<u64> {
    let s = stream(t, handle, kind)?;
    let adler = s.lock().strm.adler;
    Ok(ret_int(adler as u32 as i32))
}

fn reset(t: &mut JThread, kind: Kind, handle: u64) -> JResult<u64> {
    let s = stream(t, handle, kind)?;
    let code = s.lock().reset();
    match (code, kind) {
        (z::Z_OK, _) => Ok(0),
        (_, Kind::Inflater) => Err(raise(t, Fail::Internal(None))),
        (_, Kind::Deflater) => Err(raise(t, Fail::Internal(Some("deflateReset failed".into())))),
    }
}

fn end(t: &mut JThread, kind: Kind, handle: u64) -> JResult<u64> {
    let Some(s) = table_remove(handle, t.domain.id, kind) else {
        return Err(t.throw_new("java/lang/NullPointerException", Some(kind.closed())));
    };
    let code = s.lock().end();
    match (code, kind) {
        (z::Z_STREAM_ERROR, Kind::Inflater) => Err(raise(t, Fail::Internal(None))),
        (z::Z_STREAM_ERROR, Kind::Deflater) => {
            Err(raise(t, Fail::Internal(Some("deflateEnd failed".into()))))
        }
        _ => Ok(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(code: c_int, in_used: u32, out_used: u32) -> Outcome {
        Outcome {
            code,
            in_used,
            out_used,
            msg: None,
        }
    }

    /// Decodes a packed result as Inflater.java / Deflater.java do.
    fn unpack(r: u64) -> (u32, u32, bool, bool) {
        (
            (r & 0x7fff_ffff) as u32,
            (r >> 31 & 0x7fff_ffff) as u32,
            r >> 62 & 1 != 0,
            r >> 63 & 1 != 0,
        )
    }

    fn io(input: &[u8], output: &mut [u8]) -> Io {
        Io {
            input: input.as_ptr() as *mut u8,
            in_len: input.len() as u32,
            output: output.as_mut_ptr(),
            out_len: output.len() as u32,
        }
    }

    #[test]
    fn packing_round_trips_through_the_java_decoding() {
        let max = 0x7fff_ffff;
        for (r, w, f, d) in [
            (0, 0, false, false),
            (1, 2, true, false),
            (max, max, true, true),
            (5, max, false, true),
        ] {
            assert_eq!(unpack(pack(r, w, f, d)), (r, w, f, d));
        }
    }

    #[test]
    fn inflate_status_follows_inflater_c() {
        assert_eq!(
            unpack(inflate_status(&outcome(z::Z_OK, 3, 4)).unwrap()),
            (3, 4, false, false)
        );
        assert_eq!(
            unpack(inflate_status(&outcome(z::Z_STREAM_END, 3, 4)).unwrap()),
            (3, 4, true, false)
        );
        assert_eq!(
            unpack(inflate_status(&outcome(z::Z_NEED_DICT, 2, 0)).unwrap()),
            (2, 0, false, true)
        );
        assert_eq!(inflate_status(&outcome(z::Z_BUF_ERROR, 3, 4)), Ok(0));
        let bad = Outcome {
            msg: Some("incorrect header check".into()),
            ..outcome(z::Z_DATA_ERROR, 1, 0)
        };
        assert_eq!(
            inflate_status(&bad),
            Err(Fail::DataFormat(Some("incorrect header check".into())))
        );
        assert_eq!(
            inflate_status(&outcome(z::Z_MEM_ERROR, 0, 0)),
            Err(Fail::OutOfMemory)
        );
        assert_eq!(
            inflate_status(&outcome(z::Z_STREAM_ERROR, 0, 0)),
            Err(Fail::Internal(None))
        );
    }

    #[test]
    fn deflate_status_follows_deflater_c() {
        assert_eq!(
            unpack(deflate_status(&outcome(z::Z_OK, 3, 4), false).unwrap()),
            (3, 4, false, false)
        );
        assert_eq!(
            unpack(deflate_status(&outcome(z::Z_BUF_ERROR, 0, 0), false).unwrap()),
            (0, 0, false, false)
        );
        assert_eq!(
            unpack(deflate_status(&outcome(z::Z_STREAM_END, 0, 9), false).unwrap()),
            (0, 9, true, false)
        );
        assert_eq!(
            unpack(deflate_status(&outcome(z::Z_OK, 1, 2), true).unwrap()),
            (1, 2, false, false)
        );
        assert_eq!(
            unpack(deflate_status(&outcome(z::Z_BUF_ERROR, 1, 2), true).unwrap()),
            (1, 2, false, true)
        );
        assert_eq!(
            deflate_status(&outcome(z::Z_STREAM_ERROR, 0, 0), true),
            Err(Fail::Internal(Some(
                "unknown error in checkDeflateStatus, setParams case".into()
            )))
        );
        assert_eq!(
            deflate_status(&outcome(z::Z_STREAM_ERROR, 0, 0), false),
            Err(Fail::Internal(Some(
                "unknown error in checkDeflateStatus".into()
            )))
        );
    }

    #[test]
    fn dictionary_and_init_errors_follow_the_jdk() {
        assert_eq!(
            dictionary_status(Kind::Inflater, z::Z_DATA_ERROR, None),
            Err(Fail::IllegalArgument(None))
        );
        assert_eq!(
            dictionary_status(Kind::Deflater, z::Z_STREAM_ERROR, Some("x".into())),
            Err(Fail::IllegalArgument(None))
        );
        assert_eq!(dictionary_status(Kind::Deflater, z::Z_OK, None), Ok(()));
        assert_eq!(
            init_failure(Kind::Deflater, z::Z_STREAM_ERROR, None),
            Fail::IllegalArgument(None)
        );
        assert_eq!(
            init_failure(Kind::Inflater, z::Z_MEM_ERROR, None),
            Fail::OutOfMemory
        );
        assert!(ZStream::deflater(10, 0, false).is_err_and(|(c, _)| c == z::Z_STREAM_ERROR));
    }

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(0, b"123456789") as u32, 0xCBF4_3926);
        assert_eq!(adler32(1, b"Wikipedia") as u32, 0x11E6_0398);
        assert_eq!(adler32(adler32(1, b"Wiki"), b"pedia") as u32, 0x11E6_0398);
        assert_eq!(direct_range(0, 0, 0), &[] as &[u8]);
    }

    #[test]
    fn deflate_then_inflate_with_a_dictionary() {
        let data: Vec<u8> = b"the quick brown fox jumps over the lazy dog; ".repeat(40);
        let dict = b"quick brown fox lazy dog";
        let mut d = ZStream::deflater(9, 0, false).unwrap();
        assert_eq!(
            d.set_dictionary(dict.as_ptr(), dict.len() as u32).0,
            z::Z_OK
        );
        let mut packed = vec![0u8; 4096];
        let o = d.run(&io(&data, &mut packed), Op::Deflate(z::Z_FINISH));
        let (read, n, finished, _) = unpack(deflate_status(&o, false).unwrap());
        assert!(finished && read as usize == data.len() && n > 0);
        let dict_adler = adler32(1, dict) as u32 as z::uLong;
        assert_eq!(d.strm.adler, adler32(1, &data) as u32 as z::uLong);

        let mut i = ZStream::inflater(false).unwrap();
        let mut out = vec![0u8; data.len() + 10];
        let o = i.run(&io(&packed[..n as usize], &mut out), Op::Inflate);
        let (used, _, _, need_dict) = unpack(inflate_status(&o).unwrap());
        assert!(need_dict);
        assert_eq!(i.strm.adler, dict_adler);
        assert_eq!(
            i.set_dictionary(dict.as_ptr(), dict.len() as u32).0,
            z::Z_OK
        );
        let o = i.run(
            &io(&packed[used as usize..n as usize], &mut out),
            Op::Inflate,
        );
        let (_, written, finished, _) = unpack(inflate_status(&o).unwrap());
        assert!(finished);
        assert_eq!(&out[..written as usize], &data[..]);
    }

    #[test]
    fn corrupt_input_is_a_data_format_error_with_zlibs_message() {
        let mut i = ZStream::inflater(false).unwrap();
        let mut out = [0u8; 16];
        let o = i.run(&io(b"\x00\x01garbage", &mut out), Op::Inflate);
        assert_eq!(
            inflate_status(&o),
            Err(Fail::DataFormat(Some("incorrect header check".into())))
        );
    }

    #[test]
    fn ended_streams_and_foreign_handles_are_not_found() {
        let h = table_insert(DomainId(7), ZStream::inflater(true).unwrap());
        assert!(table_get(0, DomainId(7), Kind::Inflater).is_none());
        assert!(
            table_get(h, DomainId(7), Kind::Deflater).is_none(),
            "wrong kind"
        );
        assert!(
            table_get(h, DomainId(8), Kind::Inflater).is_none(),
            "another domain's"
        );
        assert!(table_remove(h, DomainId(8), Kind::Inflater).is_none());
        let s = table_get(h, DomainId(7), Kind::Inflater).unwrap();
        let s2 = table_remove(h, DomainId(7), Kind::Inflater).unwrap();
        assert_eq!(s2.lock().end(), z::Z_OK);
        assert!(
            table_get(h, DomainId(7), Kind::Inflater).is_none()
                && table_remove(h, DomainId(7), Kind::Inflater).is_none()
        );
        // A holder of the stream from before the end gets an error, not freed memory.
        let mut out = [0u8; 4];
        assert_eq!(
            s.lock().run(&io(b"x", &mut out), Op::Inflate).code,
            z::Z_STREAM_ERROR
        );
        assert_eq!(s.lock().reset(), z::Z_STREAM_ERROR);
    }
}
