//! Owns the byte-level codec: 9P's little-endian integers, `s` strings (`u16` length),
//! counted data (`u32` length), the frame header (`size[4] type[1] tag[2]`), and reading one
//! frame from a stream. Decoding is strict and total: every length is checked against what
//! is left of the frame before anything is allocated, and a frame larger than the
//! negotiated `msize` is refused before its body is read.

use std::fmt;
use std::io::{self, Read};

/// Bytes of the frame header: `size[4] type[1] tag[2]`.
pub const HEADER: usize = 7;
/// The tag of `Tversion`/`Rversion`.
pub const NOTAG: u16 = 0xFFFF;
/// "No fid" (`afid` of an unauthenticated `Tattach`).
pub const NOFID: u32 = 0xFFFF_FFFF;
/// The most names one `Twalk` may carry (and qids one `Rwalk`).
pub const MAXWELEM: usize = 16;

/// A frame or field that does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// The frame ended inside a field.
    Truncated,
    /// Bytes were left after the message's last field.
    TrailingBytes(usize),
    /// The declared size is smaller than a header.
    FrameTooSmall(u32),
    /// The declared size exceeds the negotiated `msize`.
    FrameTooLarge { size: u32, msize: u32 },
    /// The declared size is not the frame's length.
    SizeMismatch { declared: u32, actual: usize },
    /// A message type this dialect does not define (or of the wrong direction).
    UnknownType(u8),
    /// More walk elements than `MAXWELEM`.
    TooManyElements(u16),
    /// A string that should be UTF-8 (the version) is not.
    BadUtf8,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Truncated => write!(f, "truncated 9P message"),
            WireError::TrailingBytes(n) => write!(f, "{n} bytes after the 9P message"),
            WireError::FrameTooSmall(n) => write!(f, "9P frame size {n} is below the header"),
            WireError::FrameTooLarge { size, msize } => {
                write!(f, "9P frame size {size} exceeds msize {msize}")
            }
            WireError::SizeMismatch { declared, actual } => {
                write!(f, "9P frame declares {declared} bytes but has {actual}")
            }
            WireError::UnknownType(t) => write!(f, "unknown 9P message type {t}"),
            WireError::TooManyElements(n) => write!(f, "{n} walk elements (at most 16)"),
            WireError::BadUtf8 => write!(f, "9P string is not UTF-8"),
        }
    }
}

impl std::error::Error for WireError {}

/// Reads fields from a message body; every read checks the bytes left.
pub struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if n > self.buf.len() {
            return Err(WireError::Truncated);
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    pub fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.array::<1>()?[0])
    }
    pub fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    pub fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    pub fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// An `s` string: `len[2]` then the bytes.
    pub fn string(&mut self) -> Result<Vec<u8>, WireError> {
        let n = self.u16()?;
        Ok(self.take(usize::from(n))?.to_vec())
    }

    /// Counted data: `count[4]` then the bytes.
    pub fn data(&mut self) -> Result<Vec<u8>, WireError> {
        let n = self.u32()?;
        let n = usize::try_from(n).map_err(|_| WireError::Truncated)?;
        Ok(self.take(n)?.to_vec())
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> Result<(), WireError> {
        match self.buf.len() {
            0 => Ok(()),
            n => Err(WireError::TrailingBytes(n)),
        }
    }
}

/// A value with a 9P wire form.
pub trait Wire: Sized {
    fn put(&self, out: &mut Vec<u8>);
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError>;
}

macro_rules! wire_int {
    ($($t:ident),*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
                r.$t()
            }
        }
    )*};
}
wire_int!(u8, u16, u32, u64);

/// Appends an `s` string. Names longer than 65535 bytes cannot exist on Linux; they are
/// cut (callers check lengths before encoding).
pub fn put_string(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len().min(usize::from(u16::MAX));
    (n as u16).put(out);
    out.extend_from_slice(&s[..n]);
}

/// Appends counted data (`count[4]`).
pub fn put_data(out: &mut Vec<u8>, d: &[u8]) {
    let n = u32::try_from(d.len()).unwrap_or(u32::MAX);
    n.put(out);
    out.extend_from_slice(&d[..n as usize]);
}

/// A byte string (file names, user names, link targets): an `s` string on the wire.
impl Wire for Vec<u8> {
    fn put(&self, out: &mut Vec<u8>) {
        put_string(out, self);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        r.string()
    }
}

/// A UTF-8 string (the protocol version).
impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        put_string(out, self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        String::from_utf8(r.string()?).map_err(|_| WireError::BadUtf8)
    }
}

/// Counted data (`count[4]` then bytes): `Tread`/`Twrite`/`Rreaddir` payloads.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Data(pub Vec<u8>);

impl fmt::Debug for Data {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Data({} bytes)", self.0.len())
    }
}

impl Wire for Data {
    fn put(&self, out: &mut Vec<u8>) {
        put_data(out, &self.0);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        r.data().map(Data)
    }
}

/// Walk names: `nwname[2]` then that many strings (at most `MAXWELEM`).
impl Wire for Vec<Vec<u8>> {
    fn put(&self, out: &mut Vec<u8>) {
        (self.len().min(usize::from(u16::MAX)) as u16).put(out);
        for s in self.iter().take(usize::from(u16::MAX)) {
            s.put(out);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        get_counted(r)
    }
}

/// `n[2]` then `n` values, `n` at most `MAXWELEM`.
pub fn get_counted<T: Wire>(r: &mut Reader<'_>) -> Result<Vec<T>, WireError> {
    let n = r.u16()?;
    if usize::from(n) > MAXWELEM {
        return Err(WireError::TooManyElements(n));
    }
    (0..n).map(|_| T::get(r)).collect()
}

/// Reads one frame (`size[4]` included) from `r`, refusing a declared size below the
/// header or above `msize` before allocating. `Ok(None)` is a clean end of stream before the
/// first byte of a frame.
pub fn read_frame<R: Read>(r: &mut R, msize: u32) -> Result<Option<Vec<u8>>, ReadError> {
    let mut size = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut size[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(ReadError::Io(io::ErrorKind::UnexpectedEof.into())),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    let declared = u32::from_le_bytes(size);
    check_size(declared, msize)?;
    let mut frame = vec![0u8; declared as usize];
    frame[..4].copy_from_slice(&size);
    r.read_exact(&mut frame[4..]).map_err(ReadError::Io)?;
    Ok(Some(frame))
}

/// Checks a declared frame size against the header and `msize`.
pub fn check_size(declared: u32, msize: u32) -> Result<(), WireError> {
    if (declared as usize) < HEADER {
        return Err(WireError::FrameTooSmall(declared));
    }
    if declared > msize {
        return Err(WireError::FrameTooLarge {
            size: declared,
            msize,
        });
    }
    Ok(())
}

/// Why a frame could not be read from a stream.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    Wire(WireError),
}

impl From<WireError> for ReadError {
    fn from(e: WireError) -> ReadError {
        ReadError::Wire(e)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Wire(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_little_endian() {
        let mut out = Vec::new();
        0x0102u16.put(&mut out);
        0x0304_0506u32.put(&mut out);
        assert_eq!(out, [2, 1, 6, 5, 4, 3]);
        let mut r = Reader::new(&out);
        assert_eq!(r.u16(), Ok(0x0102));
        assert_eq!(r.u32(), Ok(0x0304_0506));
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn lengths_beyond_the_buffer_are_truncation() {
        // A string claiming 65535 bytes with 2 present: no allocation, an error.
        let mut r = Reader::new(&[0xFF, 0xFF, b'a', b'b']);
        assert_eq!(r.string(), Err(WireError::Truncated));
        let mut r = Reader::new(&[0xFF, 0xFF, 0xFF, 0xFF, 1]);
        assert_eq!(r.data(), Err(WireError::Truncated));
        let mut r = Reader::new(&[17, 0]);
        assert_eq!(
            get_counted::<u8>(&mut r),
            Err(WireError::TooManyElements(17))
        );
    }

    #[test]
    fn read_frame_bounds_the_size_before_reading() {
        let big = 10_000u32.to_le_bytes();
        let e = read_frame(&mut &big[..], 8192).unwrap_err();
        assert!(matches!(
            e,
            ReadError::Wire(WireError::FrameTooLarge { size: 10_000, .. })
        ));
        let small = 3u32.to_le_bytes();
        assert!(matches!(
            read_frame(&mut &small[..], 8192),
            Err(ReadError::Wire(WireError::FrameTooSmall(3)))
        ));
        assert!(matches!(read_frame(&mut &[][..], 8192), Ok(None)));
        assert!(matches!(
            read_frame(&mut &[9, 0][..], 8192),
            Err(ReadError::Io(_))
        ));
        let frame = [8, 0, 0, 0, 101, 1, 0, 42];
        assert_eq!(
            read_frame(&mut &frame[..], 8192).unwrap(),
            Some(frame.to_vec())
        );
        assert!(matches!(
            read_frame(&mut &frame[..5], 8192),
            Err(ReadError::Io(_))
        ));
    }
}
