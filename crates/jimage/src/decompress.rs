//! Decompression of resources that jlink stored compressed.
//!
//! A compressed resource starts with a 29-byte header (image byte order):
//! `u32 magic 0xCAFEFAFA, u64 compressed size, u64 uncompressed size,
//! u32 decompressor-name string offset, u32 config string offset (-1 = none),
//! u8 is-terminal`, followed by the payload. Compressors may be stacked, so
//! the output is checked again for a header until none is found.
//!
//! Decompressors: `zip` (zlib stream, as written by `java.util.zip.Deflater`)
//! and `compact-cp` (constant-pool string sharing: UTF-8 constants replaced by
//! references into the image string table).

use std::borrow::Cow;
use std::io::Read;

use crate::{JImage, JImageError, format_err};

const HEADER_MAGIC: u32 = 0xCAFE_FAFA;
const HEADER_SIZE: usize = 29;
/// Bound on stacked compression layers (jlink uses at most two).
const MAX_LAYERS: usize = 8;

struct Header {
    uncompressed_size: u64,
    name_offset: u32,
}

fn read_header(image: &JImage, data: &[u8]) -> Option<Header> {
    let h = data.get(..HEADER_SIZE)?;
    let u32_at = |i: usize| image.order.u32([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    if u32_at(0) != HEADER_MAGIC {
        return None;
    }
    let mut size = [0u8; 8];
    size.copy_from_slice(&h[12..20]);
    Some(Header {
        uncompressed_size: image.order.u64(size),
        name_offset: u32_at(20),
    })
}

/// Decompress `stored` (the raw bytes of a resource whose location says it is
/// compressed); `expected` is the location's uncompressed size.
pub(crate) fn decompress(
    image: &JImage,
    stored: &[u8],
    expected: u64,
) -> Result<Vec<u8>, JImageError> {
    let mut data: Cow<'_, [u8]> = Cow::Borrowed(stored);
    let mut layers = 0;
    while let Some(header) = read_header(image, &data) {
        layers += 1;
        if layers > MAX_LAYERS {
            return format_err("too many nested compression layers");
        }
        if header.uncompressed_size > expected {
            return format_err(format!(
                "compressed layer claims {} bytes, resource is only {expected}",
                header.uncompressed_size
            ));
        }
        let payload = &data[HEADER_SIZE..];
        let out = match image.string_at(u64::from(header.name_offset))? {
            b"zip" => inflate(payload, header.uncompressed_size)?,
            b"compact-cp" => unshare_strings(image, payload, header.uncompressed_size)?,
            other => {
                return format_err(format!(
                    "unknown decompressor {:?}",
                    String::from_utf8_lossy(other)
                ));
            }
        };
        if out.len() as u64 != header.uncompressed_size {
            return format_err(format!(
                "decompressed {} bytes, header says {}",
                out.len(),
                header.uncompressed_size
            ));
        }
        data = Cow::Owned(out);
    }
    if data.len() as u64 != expected {
        return format_err(format!(
            "decompressed {} bytes, location says {expected}",
            data.len()
        ));
    }
    Ok(data.into_owned())
}

/// Inflate a zlib stream, refusing to produce more than `size` bytes.
fn inflate(payload: &[u8], size: u64) -> Result<Vec<u8>, JImageError> {
    // `size` was checked against the location's size, itself bounded by u64;
    // cap the up-front allocation anyway.
    let mut out = Vec::with_capacity(size.min(1 << 24) as usize);
    flate2::read::ZlibDecoder::new(payload)
        .take(size.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| JImageError::Format(format!("bad zip-compressed resource: {e}")))?;
    Ok(out)
}

// ------------------------------------------------------------ compact-cp

const CONSTANT_UTF8: u8 = 1;
const EXTERNALIZED_STRING: u8 = 23;
const EXTERNALIZED_STRING_DESCRIPTOR: u8 = 25;

/// Byte cursor over untrusted input; every read is bounds-checked.
struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], JImageError> {
        match self.buf.get(self.pos..self.pos.saturating_add(n)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => format_err("truncated compact-cp resource"),
        }
    }
    fn u8(&mut self) -> Result<u8, JImageError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, JImageError> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    /// A `CompressIndexes` integer: either `1SSvvvvv` + (SS-1) big-endian bytes,
    /// or a plain 4-byte big-endian value whose top bit is clear.
    fn packed_int(&mut self) -> Result<u32, JImageError> {
        let (len, value) = packed_int_at(&self.buf[self.pos..])?;
        self.pos += len;
        Ok(value)
    }
}

/// Decode one packed index at the start of `bytes`; returns (length, value).
fn packed_int_at(bytes: &[u8]) -> Result<(usize, u32), JImageError> {
    let Some(&first) = bytes.first() else {
        return format_err("truncated compact-cp index");
    };
    let (len, mut value) = if first & 0x80 != 0 {
        (usize::from((first >> 5) & 3), u32::from(first & 0x1F))
    } else {
        (4, u32::from(first))
    };
    if len == 0 {
        return format_err("zero-length compact-cp index");
    }
    let Some(rest) = bytes.get(1..len) else {
        return format_err("truncated compact-cp index");
    };
    for &b in rest {
        value = (value << 8) | u32::from(b);
    }
    Ok((len, value))
}

/// Emit a `CONSTANT_Utf8` entry with the given modified-UTF-8 bytes.
fn push_utf8(out: &mut Vec<u8>, bytes: &[u8]) -> Result<(), JImageError> {
    let Ok(len) = u16::try_from(bytes.len()) else {
        return format_err("compact-cp string longer than 65535 bytes");
    };
    out.push(CONSTANT_UTF8);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(bytes);
    Ok(())
}

/// Rebuild a class file whose constant pool had its strings moved to the
/// image string table.
/// `limit` is the size the header promises; output beyond it is an error
/// (stops a corrupt file from expanding tiny indexes into huge strings).
fn unshare_strings(image: &JImage, payload: &[u8], limit: u64) -> Result<Vec<u8>, JImageError> {
    let mut cur = Cursor {
        buf: payload,
        pos: 0,
    };
    let mut out = Vec::with_capacity(limit.min(1 << 24) as usize);
    out.extend_from_slice(cur.take(8)?); // magic, minor, major
    let count = cur.u16()?;
    out.extend_from_slice(&count.to_be_bytes());
    let mut i = 1;
    while i < count {
        let tag = cur.u8()?;
        match tag {
            CONSTANT_UTF8 => {
                let len = cur.u16()?;
                let bytes = cur.take(usize::from(len))?;
                push_utf8(&mut out, bytes)?;
            }
            EXTERNALIZED_STRING => {
                let index = cur.packed_int()?;
                push_utf8(&mut out, image.string_at(u64::from(index))?)?;
            }
            EXTERNALIZED_STRING_DESCRIPTOR => {
                let descriptor = rebuild_descriptor(image, &mut cur)?;
                push_utf8(&mut out, &descriptor)?;
            }
            _ => {
                let size = match tag {
                    7 | 8 | 16 | 19 | 20 => 2, // Class, String, MethodType, Module, Package
                    15 => 3,                   // MethodHandle
                    3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => 4, // Integer, Float, *ref, NameAndType, Dynamic, InvokeDynamic
                    5 | 6 => 8,                              // Long, Double: take two slots
                    _ => {
                        return format_err(format!(
                            "bad constant pool tag {tag} in compact-cp resource"
                        ));
                    }
                };
                out.push(tag);
                out.extend_from_slice(cur.take(size)?);
                if size == 8 {
                    i += 1;
                }
            }
        }
        if out.len() as u64 > limit {
            return format_err("compact-cp resource expands past its declared size");
        }
        i += 1;
    }
    out.extend_from_slice(&payload[cur.pos..]);
    Ok(out)
}

/// A descriptor stored as a "shape" string (class names removed after each
/// `L`) plus packed (package, simple name) string indexes to re-insert.
fn rebuild_descriptor(image: &JImage, cur: &mut Cursor<'_>) -> Result<Vec<u8>, JImageError> {
    let shape = image.string_at(u64::from(cur.packed_int()?))?;
    let packed_len = cur.packed_int()?;
    let mut packed = cur.take(packed_len as usize)?;
    let mut next_index = || -> Result<&[u8], JImageError> {
        if packed.is_empty() {
            return format_err("compact-cp descriptor has too few class names");
        }
        let (len, value) = packed_int_at(packed)?;
        packed = &packed[len..];
        image.string_at(u64::from(value))
    };
    let mut out = Vec::with_capacity(shape.len() * 4);
    for &c in shape {
        out.push(c);
        if c == b'L' {
            let package = next_index()?;
            if !package.is_empty() {
                out.extend_from_slice(package);
                out.push(b'/');
            }
            out.extend_from_slice(next_index()?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_ints() {
        assert_eq!(
            packed_int_at(&[0x00, 0x00, 0x01, 0x02]).unwrap(),
            (4, 0x102)
        );
        assert_eq!(packed_int_at(&[0xA5]).unwrap(), (1, 5)); // 1 01 00101
        assert_eq!(packed_int_at(&[0xC1, 0x23]).unwrap(), (2, 0x123)); // 1 10 00001
        assert_eq!(packed_int_at(&[0xE1, 0x23, 0x45]).unwrap(), (3, 0x12345));
        assert!(packed_int_at(&[0x81]).is_err()); // size 0
        assert!(packed_int_at(&[0xC1]).is_err()); // truncated
        assert!(packed_int_at(&[]).is_err());
    }
}
