//! JVM "modified UTF-8" (JVMS 17 §4.4.7): exact decoding to UTF-16 code units, encoding back,
//! and the lossy decoding to a Rust string used for `Utf8::text`.
//!
//! Decoding rejects the byte 0x00, bytes 0xF0..=0xFF (no 4-byte forms exist), stray continuation
//! bytes and truncated sequences. Like HotSpot (and `DataInputStream.readUTF`), it accepts
//! overlong 2- and 3-byte forms (`C0 80` is the required form of NUL).

use crate::error::{ClassFormatError, Result};

fn illegal() -> ClassFormatError {
    ClassFormatError("Illegal UTF8 string in constant pool".to_owned())
}

#[inline]
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Decode JVM "modified UTF-8" into UTF-16 code units (lone surrogates kept).
pub fn decode(bytes: &[u8]) -> Result<Vec<u16>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some((&b0, tail)) = rest.split_first() {
        match b0 {
            0x01..=0x7F => {
                out.push(u16::from(b0));
                rest = tail;
            }
            0xC0..=0xDF => match tail {
                [b1, t @ ..] if is_continuation(*b1) => {
                    out.push((u16::from(b0 & 0x1F) << 6) | u16::from(b1 & 0x3F));
                    rest = t;
                }
                _ => return Err(illegal()),
            },
            0xE0..=0xEF => match tail {
                [b1, b2, t @ ..] if is_continuation(*b1) && is_continuation(*b2) => {
                    out.push(
                        (u16::from(b0 & 0x0F) << 12)
                            | (u16::from(b1 & 0x3F) << 6)
                            | u16::from(b2 & 0x3F),
                    );
                    rest = t;
                }
                _ => return Err(illegal()),
            },
            // 0x00, stray continuation bytes 0x80..=0xBF, and 0xF0..=0xFF.
            _ => return Err(illegal()),
        }
    }
    Ok(out)
}

/// Checks that `bytes` is valid modified UTF-8 without building anything.
pub fn validate(bytes: &[u8]) -> Result<()> {
    let mut rest = bytes;
    while let Some((&b0, tail)) = rest.split_first() {
        rest = match b0 {
            0x01..=0x7F => tail,
            0xC0..=0xDF => match tail {
                [b1, t @ ..] if is_continuation(*b1) => t,
                _ => return Err(illegal()),
            },
            0xE0..=0xEF => match tail {
                [b1, b2, t @ ..] if is_continuation(*b1) && is_continuation(*b2) => t,
                _ => return Err(illegal()),
            },
            _ => return Err(illegal()),
        };
    }
    Ok(())
}

/// Encode UTF-16 units as modified UTF-8 (NUL as C0 80, supplementary as surrogate pairs).
pub fn encode(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    for &u in units {
        match u {
            0x0001..=0x007F => out.push(u as u8),
            0x0000 | 0x0080..=0x07FF => {
                out.push(0xC0 | (u >> 6) as u8);
                out.push(0x80 | (u & 0x3F) as u8);
            }
            _ => {
                out.push(0xE0 | (u >> 12) as u8);
                out.push(0x80 | ((u >> 6) & 0x3F) as u8);
                out.push(0x80 | (u & 0x3F) as u8);
            }
        }
    }
    out
}

/// Encode a Rust string as modified UTF-8.
pub fn encode_str(s: &str) -> Vec<u8> {
    if s.bytes().all(|b| (0x01..=0x7F).contains(&b)) {
        return s.as_bytes().to_vec();
    }
    let units: Vec<u16> = s.encode_utf16().collect();
    encode(&units)
}

/// Decode modified UTF-8 to a Rust string; lone surrogates become U+FFFD. Errors on invalid
/// modified UTF-8.
pub fn decode_lossy(bytes: &[u8]) -> Result<String> {
    // Fastest path, most constants: ASCII without NUL is the same text in both encodings.
    if bytes.is_ascii()
        && !bytes.contains(&0)
        && let Ok(s) = std::str::from_utf8(bytes)
    {
        return Ok(s.to_owned());
    }
    // Fast path: standard UTF-8 without NUL bytes and without 4-byte forms is also valid
    // modified UTF-8 and decodes to the same characters (std rejects overlong forms and
    // encoded surrogates, which then take the slow path).
    let fast = (!bytes.iter().any(|&b| b == 0 || b >= 0xF0))
        .then(|| std::str::from_utf8(bytes).ok())
        .flatten();
    if let Some(s) = fast {
        return Ok(s.to_owned());
    }
    let units = decode(bytes)?;
    Ok(String::from_utf16_lossy(&units))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_roundtrip() {
        let units: Vec<u16> = "java/lang/Object".encode_utf16().collect();
        let bytes = encode(&units);
        assert_eq!(bytes, b"java/lang/Object");
        assert_eq!(decode(&bytes).unwrap(), units);
        assert_eq!(decode_lossy(&bytes).unwrap(), "java/lang/Object");
        assert_eq!(decode(b"").unwrap(), Vec::<u16>::new());
    }

    #[test]
    fn nul_is_two_bytes() {
        assert_eq!(encode(&[0]), vec![0xC0, 0x80]);
        assert_eq!(decode(&[0xC0, 0x80]).unwrap(), vec![0]);
        assert_eq!(decode_lossy(&[b'a', 0xC0, 0x80, b'b']).unwrap(), "a\0b");
        assert!(decode(&[0]).is_err());
        assert!(decode(&[b'a', 0, b'b']).is_err());
        assert!(decode_lossy(&[0]).is_err());
        assert_eq!(encode_str("a\0"), vec![b'a', 0xC0, 0x80]);
    }

    #[test]
    fn two_and_three_byte_forms() {
        let s = "é€"; // U+00E9, U+20AC
        let units: Vec<u16> = s.encode_utf16().collect();
        let bytes = encode(&units);
        assert_eq!(bytes, s.as_bytes()); // same as standard UTF-8 here
        assert_eq!(decode(&bytes).unwrap(), units);
        assert_eq!(decode_lossy(&bytes).unwrap(), s);
    }

    #[test]
    fn supplementary_is_six_bytes() {
        let s = "\u{1F600}";
        let units: Vec<u16> = s.encode_utf16().collect();
        assert_eq!(units, vec![0xD83D, 0xDE00]);
        let bytes = encode(&units);
        assert_eq!(bytes, vec![0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
        assert_eq!(decode(&bytes).unwrap(), units);
        assert_eq!(decode_lossy(&bytes).unwrap(), s);
        assert_eq!(encode_str(s), bytes);
        // The standard 4-byte form is not modified UTF-8.
        assert!(decode(s.as_bytes()).is_err());
    }

    #[test]
    fn lone_surrogates_are_kept() {
        let units = vec![u16::from(b'x'), 0xD800, u16::from(b'y'), 0xDC00];
        let bytes = encode(&units);
        assert_eq!(bytes.len(), 1 + 3 + 1 + 3);
        assert_eq!(decode(&bytes).unwrap(), units);
        assert_eq!(decode_lossy(&bytes).unwrap(), "x\u{FFFD}y\u{FFFD}");
    }

    #[test]
    fn rejects_invalid_sequences() {
        for bad in [
            &[0x80][..],
            &[0xBF],
            &[0xC3],
            &[0xC3, 0x41],
            &[0xE2, 0x82],
            &[0xE2, 0x41, 0x82],
            &[0xE2, 0x82, 0x41],
            &[0xF0, 0x9F, 0x98, 0x80],
            &[0xF8],
            &[0xFF],
            &[b'a', 0xFE],
        ] {
            assert!(decode(bad).is_err(), "{bad:x?}");
            assert!(validate(bad).is_err(), "{bad:x?}");
            assert!(decode_lossy(bad).is_err(), "{bad:x?}");
        }
    }

    #[test]
    fn all_units_roundtrip() {
        let units: Vec<u16> = (0..=u16::MAX).collect();
        let bytes = encode(&units);
        validate(&bytes).unwrap();
        assert_eq!(decode(&bytes).unwrap(), units);
    }

    #[test]
    fn overlong_forms_accepted_like_hotspot() {
        assert_eq!(decode(&[0xC1, 0x81]).unwrap(), vec![0x41]);
        assert_eq!(decode_lossy(&[0xC1, 0x81]).unwrap(), "A");
    }
}
