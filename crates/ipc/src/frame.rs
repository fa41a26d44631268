//! The wire format of channels. Every message is a *frame*: a 16-byte header, then its
//! payload. Owns the format, its writer and its parser; the parser is the only code that reads
//! a peer's bytes, and never panics, reads past its buffer or reserves more than the buffer
//! could hold, whatever the bytes (fuzzed by `fuzz/fuzz_targets/decode_frame.rs` and by
//! `tests::fuzz_parse_mutated_frames`).
//!
//! ```text
//! header:  magic "JXC1" | kind: u32 | payload length: u64           (little-endian)
//! graph payload (kind 1):
//!   class count: u32
//!   per class:  id: u32 | name: str | instance size: u32 | field count: u32
//!               per field: name: str | descriptor: str | offset: u32
//!   token count: u32
//!   per token:  kind: u8, then
//!               1 (enum constant): class name: str | constant name: str
//!               2 (class):         class name: str | "": str
//!               3 (shared memory): descriptor: u32 (index among the frame's descriptors) |
//!                                  slot: u32 | offset: u64 | length: u64 | writable: u8
//!               4 (portal):        id: u64 | yours: u8 | interface count: u16 |
//!                                  per interface: internal name: str
//!                                  (yours 0: a portal the sender exports under `id`, which
//!                                  implements those Portal interfaces; yours 1: the
//!                                  receiver's own export `id` coming back, no interfaces)
//!   the rest:   the graph, as `heap::graph::encode` wrote it (class ids are the sender's,
//!               mapped through the class table; token k stands for the k-th token above)
//! str: length: u16 | UTF-8 bytes
//! descriptors frame (kind 2), sent just before a graph, call or reply frame whose tokens
//! name descriptors:
//!   count: u32 (descriptors the sender passed over the channel's socket, SCM_RIGHTS, before
//!               writing this frame; they belong to the frame that follows)
//! call frame (kind 3): a call of a portal the receiver exported
//!   call id: u64 | export id: u64 | method name: str | method descriptor: str |
//!   slot count: u16 | slots: u64 each (the arguments as the caller's slots; a reference
//!   argument's slot is 0, its object being root k of the graph, k counting reference
//!   arguments) | then a graph payload as above (its roots: the reference arguments)
//! reply frame (kind 4): how call `call id` ended
//!   call id: u64 | outcome: u8 (0 returned, 1 threw, 2 failed) | result slot: u64 |
//!   message: str (why it failed) | then a graph payload (returned: the result as its one
//!   root if the method returns a reference, else no root; threw: the exception as its root;
//!   failed: no root)
//! release frame (kind 5): the sender dropped its portal to the receiver's export `id`
//!   id: u64 | count: u64 (how many times it received that portal; the receiver forgets the
//!   export once every portal token it sent is released)
//! ```
//!
//! A class's *shape* is every instance field of it and its superclasses (name, descriptor,
//! offset, superclass fields first), and its instance size; an array class has no fields and
//! size 0 (its name says its element type). The receiver takes a class only if its own class
//! of that name has the same shape ([`shape`]), so the graph's bytes mean the same there.
//!
//! Must not know how classes are found or objects made: that is the receiver's (`vm`).

use meta::class::Class;

/// The first four bytes of every frame.
pub const MAGIC: [u8; 4] = *b"JXC1";
/// Bytes in a frame header.
pub const HEADER_LEN: usize = 16;
/// The kind of a frame holding an object graph.
pub const KIND_GRAPH: u32 = 1;
/// The kind of a frame announcing the descriptors of the next graph frame.
pub const KIND_FDS: u32 = 2;
/// The kind of a frame calling a portal the receiver exported.
pub const KIND_CALL: u32 = 3;
/// The kind of a frame answering a call.
pub const KIND_REPLY: u32 = 4;
/// The kind of a frame releasing a portal the receiver exported.
pub const KIND_RELEASE: u32 = 5;
/// The most descriptors one graph frame takes.
pub const MAX_FDS: u32 = 1024;

/// Why bytes are not a frame.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum FrameError {
    /// A header without the magic.
    BadMagic,
    /// A header of a kind this version does not know.
    BadKind(u32),
    /// A payload longer than the receiver takes.
    TooLong(u64),
    /// The payload ends early.
    Truncated,
    /// The payload is inconsistent (what is wrong).
    Malformed(&'static str),
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::BadMagic => write!(f, "not a channel frame (bad magic)"),
            FrameError::BadKind(k) => write!(f, "unknown frame kind {k}"),
            FrameError::TooLong(n) => write!(f, "frame of {n} bytes is above the limit"),
            FrameError::Truncated => write!(f, "truncated frame"),
            FrameError::Malformed(m) => write!(f, "malformed frame: {m}"),
        }
    }
}

/// A frame header.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct Header {
    pub kind: u32,
    pub len: u64,
}

impl Header {
    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut b = [0; HEADER_LEN];
        b[..4].copy_from_slice(&MAGIC);
        b[4..8].copy_from_slice(&self.kind.to_le_bytes());
        b[8..].copy_from_slice(&self.len.to_le_bytes());
        b
    }

    /// Reads a header, refusing payloads above `max_len` bytes.
    pub fn parse(b: &[u8; HEADER_LEN], max_len: u64) -> Result<Header, FrameError> {
        if b[..4] != MAGIC {
            return Err(FrameError::BadMagic);
        }
        let kind = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        let len = u64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]]);
        if !(KIND_GRAPH..=KIND_RELEASE).contains(&kind) {
            return Err(FrameError::BadKind(kind));
        }
        if len > max_len {
            return Err(FrameError::TooLong(len));
        }
        Ok(Header { kind, len })
    }
}

/// One instance field of a class's shape.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct FieldDesc<'a> {
    pub name: &'a str,
    pub descriptor: &'a str,
    pub offset: u32,
}

/// A class of the graph, as the sender knows it.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct ClassDesc<'a> {
    /// The sender's class id (what the graph's object records name).
    pub id: u32,
    /// Internal name ("java/util/ArrayList", "[I", "[Ljava/lang/String;").
    pub name: &'a str,
    pub instance_size: u32,
    pub fields: Vec<FieldDesc<'a>>,
}

/// Something that crosses by name, not by copy: the receiver puts its own object there.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum TokenDesc<'a> {
    /// The constant `name` of enum class `class` (internal name).
    Enum { class: &'a str, name: &'a str },
    /// The `java.lang.Class` of class `name` (internal name or array descriptor).
    Class { name: &'a str },
    /// A view of a shared memory region: the region is descriptor `fd` of the frame's
    /// descriptors; the view is `[offset, offset+len)` of its data, with grant slot `slot`.
    Memory {
        fd: u32,
        slot: u32,
        offset: u64,
        len: u64,
        writable: bool,
    },
    /// A portal: the sender's export `id` implementing `interfaces` (internal names), or, if
    /// `yours`, the receiver's own export `id` sent back.
    Portal {
        id: u64,
        yours: bool,
        interfaces: Vec<&'a str>,
    },
}

/// A graph frame's payload.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct GraphFrame<'a> {
    pub classes: Vec<ClassDesc<'a>>,
    pub tokens: Vec<TokenDesc<'a>>,
    pub graph: &'a [u8],
}

/// The shape of class `c` (see the module doc): every instance field of it and its
/// superclasses, superclass fields first, and its instance size; nothing for an array.
pub fn shape(c: &'static Class) -> ClassDesc<'static> {
    let mut fields = Vec::new();
    if !c.is_array() {
        for k in c.supers.iter().copied().chain([c]) {
            for f in k.fields.iter().filter(|f| !f.is_static()) {
                fields.push(FieldDesc {
                    name: &f.name,
                    descriptor: &f.descriptor,
                    offset: f.offset,
                });
            }
        }
    }
    ClassDesc {
        id: c.id.0,
        name: &c.name,
        instance_size: if c.is_array() { 0 } else { c.instance_size },
        fields,
    }
}

/// Whether the receiver's class `c` has the shape `d` describes (names aside).
pub fn same_shape(d: &ClassDesc, c: &'static Class) -> bool {
    let mine = shape(c);
    mine.instance_size == d.instance_size && mine.fields == d.fields
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    // Names and descriptors of class files fit in a u16 (the constant pool's limit).
    let b = &s.as_bytes()[..s.len().min(u16::MAX as usize)];
    out.extend_from_slice(&(b.len() as u16).to_le_bytes());
    out.extend_from_slice(b);
}

impl GraphFrame<'_> {
    /// Appends the whole frame, header included, to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        self.write_head(out);
        out.extend_from_slice(self.graph);
    }

    /// Appends the frame up to its graph (header, class table, tokens) to `out`: sent before
    /// the graph's bytes, which are not copied.
    pub fn write_head(&self, out: &mut Vec<u8>) {
        self.write_head_as(out, KIND_GRAPH, &[]);
    }

    /// [`GraphFrame::write_head`] for a frame of kind `kind` whose payload begins with
    /// `prefix` (a call's or a reply's head) before the graph payload.
    pub fn write_head_as(&self, out: &mut Vec<u8>, kind: u32, prefix: &[u8]) {
        let start = out.len();
        out.extend_from_slice(&[0; HEADER_LEN]);
        out.extend_from_slice(prefix);
        out.extend_from_slice(&(self.classes.len() as u32).to_le_bytes());
        for c in &self.classes {
            out.extend_from_slice(&c.id.to_le_bytes());
            put_str(out, c.name);
            out.extend_from_slice(&c.instance_size.to_le_bytes());
            out.extend_from_slice(&(c.fields.len() as u32).to_le_bytes());
            for f in &c.fields {
                put_str(out, f.name);
                put_str(out, f.descriptor);
                out.extend_from_slice(&f.offset.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.tokens.len() as u32).to_le_bytes());
        for t in &self.tokens {
            let (kind, a, b) = match *t {
                TokenDesc::Enum { class, name } => (1u8, class, name),
                TokenDesc::Class { name } => (2u8, name, ""),
                TokenDesc::Memory {
                    fd,
                    slot,
                    offset,
                    len,
                    writable,
                } => {
                    out.push(3);
                    out.extend_from_slice(&fd.to_le_bytes());
                    out.extend_from_slice(&slot.to_le_bytes());
                    out.extend_from_slice(&offset.to_le_bytes());
                    out.extend_from_slice(&len.to_le_bytes());
                    out.push(writable as u8);
                    continue;
                }
                TokenDesc::Portal {
                    id,
                    yours,
                    ref interfaces,
                } => {
                    out.push(4);
                    out.extend_from_slice(&id.to_le_bytes());
                    out.push(yours as u8);
                    let n = interfaces.len().min(u16::MAX as usize);
                    out.extend_from_slice(&(n as u16).to_le_bytes());
                    for i in &interfaces[..n] {
                        put_str(out, i);
                    }
                    continue;
                }
            };
            out.push(kind);
            put_str(out, a);
            put_str(out, b);
        }
        let len = (out.len() - start - HEADER_LEN + self.graph.len()) as u64;
        let h = Header { kind, len };
        out[start..start + HEADER_LEN].copy_from_slice(&h.to_bytes());
    }

    /// Reads a graph frame's payload (after its header).
    pub fn parse(buf: &[u8]) -> Result<GraphFrame<'_>, FrameError> {
        let mut r = Reader { buf, at: 0 };
        let n = r.u32()? as usize;
        // A class record takes at least 14 bytes: a hostile count cannot reserve much.
        let mut classes: Vec<ClassDesc> = Vec::with_capacity(n.min(r.remaining() / 14));
        for _ in 0..n {
            let id = r.u32()?;
            let name = r.str()?;
            let instance_size = r.u32()?;
            let nf = r.u32()? as usize;
            let mut fields = Vec::with_capacity(nf.min(r.remaining() / 8));
            for _ in 0..nf {
                fields.push(FieldDesc {
                    name: r.str()?,
                    descriptor: r.str()?,
                    offset: r.u32()?,
                });
            }
            if classes.iter().any(|c| c.id == id) {
                return Err(FrameError::Malformed("a class id twice in the class table"));
            }
            classes.push(ClassDesc {
                id,
                name,
                instance_size,
                fields,
            });
        }
        let n = r.u32()? as usize;
        let mut tokens = Vec::with_capacity(n.min(r.remaining() / 5));
        for _ in 0..n {
            let kind = r.bytes(1)?[0];
            tokens.push(match kind {
                1 | 2 => {
                    let (a, b) = (r.str()?, r.str()?);
                    if kind == 1 {
                        TokenDesc::Enum { class: a, name: b }
                    } else {
                        TokenDesc::Class { name: a }
                    }
                }
                3 => TokenDesc::Memory {
                    fd: r.u32()?,
                    slot: r.u32()?,
                    offset: r.u64()?,
                    len: r.u64()?,
                    writable: match r.bytes(1)?[0] {
                        0 => false,
                        1 => true,
                        _ => return Err(FrameError::Malformed("a writable flag not 0 or 1")),
                    },
                },
                4 => {
                    let id = r.u64()?;
                    let yours = match r.bytes(1)?[0] {
                        0 => false,
                        1 => true,
                        _ => return Err(FrameError::Malformed("a yours flag not 0 or 1")),
                    };
                    let n = r.u16()? as usize;
                    let mut interfaces = Vec::with_capacity(n.min(r.remaining() / 2));
                    for _ in 0..n {
                        interfaces.push(r.str()?);
                    }
                    TokenDesc::Portal {
                        id,
                        yours,
                        interfaces,
                    }
                }
                _ => return Err(FrameError::Malformed("unknown token kind")),
            });
        }
        let graph = &buf[r.at..];
        Ok(GraphFrame {
            classes,
            tokens,
            graph,
        })
    }
}

/// The head of a call frame (its graph payload follows).
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct CallHead<'a> {
    pub call: u64,
    /// The receiver's export being called.
    pub export: u64,
    pub name: &'a str,
    pub descriptor: &'a str,
    /// The argument slots (a reference argument's is 0: it is a root of the graph).
    pub slots: Vec<u64>,
}

impl<'a> CallHead<'a> {
    /// The head's bytes (what [`GraphFrame::write_head_as`] takes as its prefix).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(40 + self.name.len() + self.descriptor.len());
        out.extend_from_slice(&self.call.to_le_bytes());
        out.extend_from_slice(&self.export.to_le_bytes());
        put_str(&mut out, self.name);
        put_str(&mut out, self.descriptor);
        // A method has at most 255 argument slots (JVMS 4.3.3).
        let n = self.slots.len().min(u16::MAX as usize);
        out.extend_from_slice(&(n as u16).to_le_bytes());
        for s in &self.slots[..n] {
            out.extend_from_slice(&s.to_le_bytes());
        }
        out
    }

    /// Reads a call frame's payload: its head and the graph payload after it.
    pub fn parse(buf: &'a [u8]) -> Result<(CallHead<'a>, &'a [u8]), FrameError> {
        let mut r = Reader { buf, at: 0 };
        let (call, export) = (r.u64()?, r.u64()?);
        let (name, descriptor) = (r.str()?, r.str()?);
        let n = r.u16()? as usize;
        let mut slots = Vec::with_capacity(n.min(r.remaining() / 8));
        for _ in 0..n {
            slots.push(r.u64()?);
        }
        let head = CallHead {
            call,
            export,
            name,
            descriptor,
            slots,
        };
        Ok((head, &buf[r.at..]))
    }
}

/// How a call ended, in a reply frame.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Outcome {
    /// The method returned (the result is the slot, or the graph's root for a reference).
    Returned,
    /// The method threw the graph's root.
    Threw,
    /// The call could not be made (the message says why).
    Failed,
}

/// The head of a reply frame (its graph payload follows).
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct ReplyHead<'a> {
    pub call: u64,
    pub outcome: Outcome,
    pub slot: u64,
    pub message: &'a str,
}

impl<'a> ReplyHead<'a> {
    /// The head's bytes (what [`GraphFrame::write_head_as`] takes as its prefix).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + self.message.len());
        out.extend_from_slice(&self.call.to_le_bytes());
        out.push(self.outcome as u8);
        out.extend_from_slice(&self.slot.to_le_bytes());
        put_str(&mut out, self.message);
        out
    }

    /// Reads a reply frame's payload: its head and the graph payload after it.
    pub fn parse(buf: &'a [u8]) -> Result<(ReplyHead<'a>, &'a [u8]), FrameError> {
        let mut r = Reader { buf, at: 0 };
        let call = r.u64()?;
        let outcome = match r.bytes(1)?[0] {
            0 => Outcome::Returned,
            1 => Outcome::Threw,
            2 => Outcome::Failed,
            _ => return Err(FrameError::Malformed("an unknown call outcome")),
        };
        let slot = r.u64()?;
        let message = r.str()?;
        let head = ReplyHead {
            call,
            outcome,
            slot,
            message,
        };
        Ok((head, &buf[r.at..]))
    }

    /// The call id a reply frame's payload answers, read alone (to route the frame).
    pub fn call_of(buf: &[u8]) -> Option<u64> {
        Some(u64::from_le_bytes(buf.get(..8)?.try_into().ok()?))
    }
}

/// A whole release frame (header included): the sender dropped its portals to export `id`,
/// received `count` times.
pub fn release_frame(id: u64, count: u64) -> Vec<u8> {
    let mut out = Header {
        kind: KIND_RELEASE,
        len: 16,
    }
    .to_bytes()
    .to_vec();
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out
}

/// Reads a release frame's payload: (export id, count).
pub fn parse_release(buf: &[u8]) -> Result<(u64, u64), FrameError> {
    let mut r = Reader { buf, at: 0 };
    let v = (r.u64()?, r.u64()?);
    if r.remaining() != 0 {
        return Err(FrameError::Malformed("a release frame of the wrong length"));
    }
    Ok(v)
}

/// A little-endian reader that reports truncation.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], FrameError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or(FrameError::Truncated)?;
        let b = &self.buf[self.at..end];
        self.at = end;
        Ok(b)
    }
    fn u32(&mut self) -> Result<u32, FrameError> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, FrameError> {
        let b = self.bytes(8)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
    fn u16(&mut self) -> Result<u16, FrameError> {
        let b = self.bytes(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn str(&mut self) -> Result<&'a str, FrameError> {
        let n = self.u16()? as usize;
        std::str::from_utf8(self.bytes(n)?).map_err(|_| FrameError::Malformed("a name not UTF-8"))
    }
    fn remaining(&self) -> usize {
        self.buf.len() - self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::Rng;

    fn sample() -> Vec<u8> {
        let f = GraphFrame {
            classes: vec![
                ClassDesc {
                    id: 7,
                    name: "Point",
                    instance_size: 24,
                    fields: vec![
                        FieldDesc {
                            name: "x",
                            descriptor: "I",
                            offset: 16,
                        },
                        FieldDesc {
                            name: "next",
                            descriptor: "LPoint;",
                            offset: 20,
                        },
                    ],
                },
                ClassDesc {
                    id: 9,
                    name: "[I",
                    instance_size: 0,
                    fields: vec![],
                },
            ],
            tokens: vec![
                TokenDesc::Enum {
                    class: "Color",
                    name: "RED",
                },
                TokenDesc::Class { name: "[J" },
                TokenDesc::Memory {
                    fd: 0,
                    slot: 3,
                    offset: 16,
                    len: 4096,
                    writable: false,
                },
                TokenDesc::Portal {
                    id: 77,
                    yours: false,
                    interfaces: vec!["Calc", "p/Other"],
                },
            ],
            graph: b"JXG3 and the rest",
        };
        let mut out = Vec::new();
        f.write(&mut out);
        out
    }

    #[test]
    fn a_frame_reads_back_as_written() {
        let bytes = sample();
        let h = Header::parse(bytes[..HEADER_LEN].try_into().unwrap(), 1 << 20).unwrap();
        assert_eq!(h.kind, KIND_GRAPH);
        assert_eq!(h.len as usize, bytes.len() - HEADER_LEN);
        let f = GraphFrame::parse(&bytes[HEADER_LEN..]).unwrap();
        assert_eq!(f.classes.len(), 2);
        assert_eq!(f.classes[0].name, "Point");
        assert_eq!(f.classes[0].fields[1].descriptor, "LPoint;");
        assert_eq!(f.classes[1].fields, vec![]);
        assert_eq!(
            f.tokens,
            vec![
                TokenDesc::Enum {
                    class: "Color",
                    name: "RED"
                },
                TokenDesc::Class { name: "[J" },
                TokenDesc::Memory {
                    fd: 0,
                    slot: 3,
                    offset: 16,
                    len: 4096,
                    writable: false
                },
                TokenDesc::Portal {
                    id: 77,
                    yours: false,
                    interfaces: vec!["Calc", "p/Other"]
                }
            ]
        );
        assert_eq!(f.graph, b"JXG3 and the rest");
    }

    #[test]
    fn bad_headers_are_refused() {
        let bytes = sample();
        let mut h: [u8; HEADER_LEN] = bytes[..HEADER_LEN].try_into().unwrap();
        assert_eq!(
            Header::parse(&h, 10),
            Err(FrameError::TooLong(bytes.len() as u64 - 16))
        );
        h[4] = 9;
        assert_eq!(Header::parse(&h, 1 << 20), Err(FrameError::BadKind(9)));
        h[4] = KIND_FDS as u8;
        assert!(Header::parse(&h, 1 << 20).is_ok());
        h[0] = b'X';
        assert_eq!(Header::parse(&h, 1 << 20), Err(FrameError::BadMagic));
    }

    #[test]
    fn every_truncation_is_an_error_or_a_shorter_graph() {
        let bytes = sample();
        let payload = &bytes[HEADER_LEN..];
        let graph_at = payload.len() - b"JXG3 and the rest".len();
        for len in 0..payload.len() {
            let r = GraphFrame::parse(&payload[..len]);
            if len < graph_at {
                assert!(r.is_err(), "truncated at {len}");
            } else {
                assert_eq!(r.unwrap().graph.len(), len - graph_at);
            }
        }
        let mut dup = payload.to_vec();
        // The second class's id (after count 4, id 4, "Point" 2+5, size 4, count 4, fields
        // 2+1+2+1+4 and 2+4+2+7+4): made the first's.
        let at = 4 + 4 + 7 + 4 + 4 + 10 + 19;
        assert_eq!(&dup[at..at + 4], &9u32.to_le_bytes());
        dup[at..at + 4].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(
            GraphFrame::parse(&dup),
            Err(FrameError::Malformed("a class id twice in the class table"))
        );
    }

    #[test]
    fn calls_replies_and_releases_read_back_as_written() {
        let call = CallHead {
            call: 5,
            export: 9,
            name: "add",
            descriptor: "(IJ)I",
            slots: vec![1, u64::MAX, 3],
        };
        let bytes = sample();
        let f = GraphFrame::parse(&bytes[HEADER_LEN..]).unwrap();
        let mut out = Vec::new();
        f.write_head_as(&mut out, KIND_CALL, &call.to_bytes());
        out.extend_from_slice(f.graph);
        let h = Header::parse(out[..HEADER_LEN].try_into().unwrap(), 1 << 20).unwrap();
        assert_eq!(
            (h.kind, h.len as usize),
            (KIND_CALL, out.len() - HEADER_LEN)
        );
        let (back, rest) = CallHead::parse(&out[HEADER_LEN..]).unwrap();
        assert_eq!(back, call);
        assert_eq!(GraphFrame::parse(rest).unwrap(), f);
        let reply = ReplyHead {
            call: 5,
            outcome: Outcome::Threw,
            slot: 0,
            message: "why",
        };
        let bytes = reply.to_bytes();
        assert_eq!(ReplyHead::call_of(&bytes), Some(5));
        assert_eq!(ReplyHead::parse(&bytes).unwrap(), (reply, &[][..]));
        let mut bad = bytes.clone();
        bad[8] = 3;
        assert!(ReplyHead::parse(&bad).is_err());
        let rel = release_frame(9, 4);
        assert_eq!(parse_release(&rel[HEADER_LEN..]), Ok((9, 4)));
        assert!(parse_release(&rel[HEADER_LEN..20]).is_err());
        for len in 0..bytes.len() {
            assert!(ReplyHead::parse(&bytes[..len]).is_err());
        }
        let c = call.to_bytes();
        for len in 0..c.len() {
            assert!(CallHead::parse(&c[..len]).is_err());
        }
    }

    /// A bounded round of the `decode_frame` fuzz target: 200,000 mutants of a valid payload
    /// (bit flips, boundary values, truncation, duplicated ranges) must parse or be refused,
    /// never panic, and never reserve more entries than the bytes could hold.
    #[test]
    fn fuzz_parse_mutated_frames() {
        let seed = sample()[HEADER_LEN..].to_vec();
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        let (mut ok, mut bad) = (0, 0);
        for _ in 0..200_000 {
            let mut b = seed.clone();
            for _ in 0..1 + rng.below(3) {
                let len = b.len();
                let at = rng.below(len.max(1));
                match rng.below(5) {
                    0 if len > 0 => b[at] ^= 1 << rng.below(8),
                    1 if at + 4 <= len => b[at..at + 4]
                        .copy_from_slice(&[0u32, 1, 0xFFFF, u32::MAX][rng.below(4)].to_le_bytes()),
                    2 => b.truncate(at),
                    3 if len > 0 => {
                        let end = (at + 1 + rng.below(16)).min(len);
                        let copy = b[at..end].to_vec();
                        b.splice(at..at, copy);
                    }
                    _ if len > 0 => b[at] = rng.next_u64() as u8,
                    _ => {}
                }
            }
            if let Ok((h, rest)) = CallHead::parse(&b) {
                assert!(h.slots.capacity() <= b.len() / 8 + h.slots.len());
                assert_eq!(h.to_bytes(), b[..b.len() - rest.len()]);
            }
            if let Ok((h, rest)) = ReplyHead::parse(&b) {
                assert_eq!(h.to_bytes(), b[..b.len() - rest.len()]);
            }
            match GraphFrame::parse(&b) {
                Ok(f) => {
                    ok += 1;
                    assert!(f.classes.capacity() <= b.len() / 14 + f.classes.len());
                    assert!(f.graph.len() <= b.len());
                }
                Err(_) => bad += 1,
            }
        }
        assert!(ok > 1000 && bad > 1000, "{ok} parsed, {bad} refused");
    }
}
