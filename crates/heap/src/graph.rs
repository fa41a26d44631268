//! The object-graph copier (DESIGN: one mechanism for portals, IPC channels, domain images
//! and cluster messages): [`encode`] walks the graph reachable from some roots in one heap and
//! writes it into a self-contained byte buffer — no heap address survives in it — and
//! [`decode`] rebuilds it in another heap. Cycles and sharing are kept (every object is written
//! once and referred to by its index), and so are identity hashes (hash tables keyed by
//! identity, `HashMap`s of such keys, stay valid in the copy); lock state is not (a copy is a
//! new object). A size quota bounds what one encoding may write.
//!
//! Some objects cross by reference instead (portals, memory objects): the caller's classifier
//! turns them into *external tokens*, opaque u64s the buffer records once in a token table.
//! Before decoding, the receiver reads that table ([`tokens`]), turns each token into an object
//! of its own heap (which may run Java code, so it cannot happen inside [`decode`]) and hands
//! the results to [`decode`], which puts them wherever the token was referred to.
//!
//! Hand-written because it is the VM's own substance: it walks objects by their class layout
//! and must agree with the collector on where references are.
//!
//! Buffer layout (little-endian):
//! ```text
//! magic "JXG3" | object count: u32 | root count: u32 | roots: u64 each (a reference)
//! token count: u32 | tokens: u64 each
//! per object: class id: u32 | array length: u32 (u32::MAX for an instance)
//!             | identity hash: u32 (0: none yet) | body
//! ```
//! The body is the object's bytes after its header (after the length word for an array),
//! with every reference slot replaced by a reference. A reference is 0 for null,
//! `TOKEN_BIT | k` for the k-th token of the table, and otherwise the referent's object index
//! + 1. The quota counts the whole buffer, token table included.
//!
//! Owns the format and the walk; which objects are copied, passed as tokens or refused is the
//! caller's policy (a `java.lang.Class` mirror or a Thread, say, is refused, or handled
//! before), and what a class id or a token means is the caller's.

use std::cell::RefCell;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::heap::{Heap, ObjRef, from_slot, to_slot};
use base::layout::{ARRAY_BASE, ARRAY_LENGTH, HEADER_SIZE};
use meta::class::{BasicType, Class};

const MAGIC: &[u8; 4] = b"JXG3";
const INSTANCE: u32 = u32::MAX;
/// Marks a reference to an entry of the token table (the rest is the entry's position).
pub const TOKEN_BIT: u64 = 1 << 63;

/// Why a graph could not be copied.
#[derive(Debug, PartialEq, Eq)]
pub enum CopyError {
    /// The encoding would exceed the quota (bytes).
    Quota(usize),
    /// An object of a class the policy refuses (its name).
    NotCopyable(String),
    /// The target heap has no room.
    OutOfMemory,
    /// The buffer is not a graph this module wrote (truncated, corrupt, unknown class id).
    Malformed(&'static str),
}

/// What [`encode`] does with an object it meets, as the caller's classifier decides.
#[derive(Clone, Copy)]
pub enum Walk {
    /// Copy the object and walk on through its references.
    Copy,
    /// Copy it as an object of this class (whose layout is the object's class's: the same
    /// class file defined by the receiver's loader), and walk on.
    CopyAs(&'static Class),
    /// Pass the object by reference as this external token; it is not walked.
    Token(u64),
    /// Fail the encoding with [`CopyError::NotCopyable`].
    Refuse,
}

/// Where the reference slots of an object of class `c` are, as byte offsets from its start.
fn ref_slots(c: &'static Class, o: ObjRef) -> impl Iterator<Item = usize> {
    let elements = if c.is_array() && c.array_elem() == BasicType::Ref {
        o.array_len()
    } else {
        0
    };
    let fields: &'static [u32] = if c.is_array() { &[] } else { &c.ref_offsets };
    (0..elements)
        .map(|i| ARRAY_BASE + i * 8)
        .chain(fields.iter().map(|&off| off as usize))
}

/// Where an object's body starts and ends (from its start).
fn body(c: &'static Class, o: ObjRef) -> (usize, usize) {
    if c.is_array() {
        (
            ARRAY_BASE,
            ARRAY_BASE + o.array_len() * c.array_elem().size(),
        )
    } else {
        (HEADER_SIZE, c.instance_size as usize)
    }
}

/// Bytes before the first object: magic, counts, roots and the token table.
fn prefix_len(roots: usize, tokens: usize) -> usize {
    4 + 4 + 4 + 8 * roots + 4 + 8 * tokens
}

/// Encodes the graph reachable from `roots`. `classify` is asked once per object met (roots
/// included) whether to copy it, pass it as a token or refuse it; `quota` bounds the buffer's
/// size.
pub fn encode(
    roots: &[Option<ObjRef>],
    quota: usize,
    classify: impl FnMut(ObjRef) -> Walk,
) -> Result<Vec<u8>, CopyError> {
    let mut out = Vec::new();
    encode_into(roots, quota, classify, &mut out)?;
    Ok(out)
}

/// [`encode`] into `out` (emptied first), so that a caller sending many graphs reuses one
/// buffer (a fresh large buffer costs a page fault per page); on an error `out` is empty.
pub fn encode_into(
    roots: &[Option<ObjRef>],
    quota: usize,
    classify: impl FnMut(ObjRef) -> Walk,
    out: &mut Vec<u8>,
) -> Result<(), CopyError> {
    thread_local! {
        static TABLES: RefCell<Tables> = RefCell::new(Tables::default());
    }
    out.clear();
    with_scratch(&TABLES, |t| Encoder { classify, t }.walk(roots, quota, out))
}

/// Working storage of an encoding or a decoding, kept per thread and reused, so that copying
/// a small graph allocates little more than its buffer.
trait Scratch: Default {
    /// Empties it, keeping its capacity.
    fn clear(&mut self);
    /// Whether a big graph made it too big to keep.
    fn is_big(&self) -> bool;
}

/// Runs `f` with this thread's `scratch` (or fresh storage if it is in use: an encoding
/// inside an encoding's classifier), then empties it: no object address outlives a copy.
fn with_scratch<S: Scratch, R>(
    scratch: &'static std::thread::LocalKey<RefCell<S>>,
    f: impl FnOnce(&mut S) -> R,
) -> R {
    scratch.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => {
            let r = f(&mut s);
            if s.is_big() {
                *s = S::default()
            } else {
                s.clear()
            }
            r
        }
        Err(_) => f(&mut S::default()),
    })
}

/// The tables of an encoding.
#[derive(Default)]
struct Tables {
    /// Every object met so far, by address, with the reference written for it.
    seen: FxHashMap<usize, u64>,
    /// The objects to copy, by index (grows while their slots are walked), with the class
    /// each is written as.
    order: Vec<(ObjRef, &'static Class)>,
    /// The token table, and where each token value sits in it.
    tokens: Vec<u64>,
    token_at: FxHashMap<u64, u64>,
    /// The objects written so far.
    objects: Vec<u8>,
}

impl Scratch for Tables {
    fn clear(&mut self) {
        self.seen.clear();
        self.order.clear();
        self.tokens.clear();
        self.token_at.clear();
        self.objects.clear();
    }
    fn is_big(&self) -> bool {
        self.objects.capacity() > 1 << 16 || self.order.capacity() > 1 << 13
    }
}

/// The state of one [`encode`] walk.
struct Encoder<'a, F> {
    classify: F,
    t: &'a mut Tables,
}

impl<F: FnMut(ObjRef) -> Walk> Encoder<'_, F> {
    fn walk(
        &mut self,
        roots: &[Option<ObjRef>],
        quota: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), CopyError> {
        let root_ids = roots
            .iter()
            .map(|&r| self.reference(r))
            .collect::<Result<SmallVec<[u64; 4]>, _>>()?;
        let mut objects = std::mem::take(&mut self.t.objects);
        let mut next = 0;
        let r = loop {
            let Some(&(o, class)) = self.t.order.get(next) else {
                break self.finish(&root_ids, &objects, quota, out);
            };
            next += 1;
            let (start, end) = body(o.class(), o);
            if prefix_len(root_ids.len(), self.t.tokens.len()) + objects.len() + 8 + (end - start)
                > quota
            {
                break Err(CopyError::Quota(quota));
            }
            if let Err(e) = self.write_object(o, class, &mut objects) {
                break Err(e);
            }
        };
        self.t.objects = objects;
        r
    }

    /// The reference to write for `r`, classifying it the first time it is met.
    fn reference(&mut self, r: Option<ObjRef>) -> Result<u64, CopyError> {
        let Some(o) = r else { return Ok(0) };
        if let Some(&id) = self.t.seen.get(&o.addr()) {
            return Ok(id);
        }
        let id = match (self.classify)(o) {
            Walk::Copy => {
                self.t.order.push((o, o.class()));
                self.t.order.len() as u64
            }
            Walk::CopyAs(class) => {
                self.t.order.push((o, class));
                self.t.order.len() as u64
            }
            Walk::Token(t) => TOKEN_BIT | self.token(t),
            Walk::Refuse => return Err(CopyError::NotCopyable(o.class().java_name())),
        };
        self.t.seen.insert(o.addr(), id);
        Ok(id)
    }

    /// The position of token `t` in the table, adding it the first time.
    fn token(&mut self, t: u64) -> u64 {
        let tokens = &mut self.t.tokens;
        *self.t.token_at.entry(t).or_insert_with(|| {
            tokens.push(t);
            tokens.len() as u64 - 1
        })
    }

    /// Appends `o` to `out` as an object of `class`, classifying the objects its slots refer
    /// to.
    fn write_object(
        &mut self,
        o: ObjRef,
        class: &'static Class,
        out: &mut Vec<u8>,
    ) -> Result<(), CopyError> {
        let c = o.class();
        let (start, end) = body(c, o);
        out.extend_from_slice(&class.id.0.to_le_bytes());
        out.extend_from_slice(
            &(if c.is_array() {
                o.array_len() as u32
            } else {
                INSTANCE
            })
            .to_le_bytes(),
        );
        out.extend_from_slice(&identity_hash(o).to_le_bytes());
        let at = out.len();
        o.append_bytes(start, end, out);
        for slot in ref_slots(c, o) {
            let id = self.reference(from_slot(o.read::<u64>(slot)))?;
            let p = at + slot - start;
            out[p..p + 8].copy_from_slice(&id.to_le_bytes());
        }
        Ok(())
    }

    /// The whole buffer: the prefix, then the objects already written.
    fn finish(
        &self,
        roots: &[u64],
        objects: &[u8],
        quota: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), CopyError> {
        let len = prefix_len(roots.len(), self.t.tokens.len()) + objects.len();
        let counts = (
            u32::try_from(self.t.order.len()),
            u32::try_from(roots.len()),
            u32::try_from(self.t.tokens.len()),
        );
        let (Ok(count), Ok(nroots), Ok(ntokens)) = counts else {
            return Err(CopyError::Quota(quota));
        };
        if len > quota {
            return Err(CopyError::Quota(quota));
        }
        out.reserve(len);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&nroots.to_le_bytes());
        roots
            .iter()
            .for_each(|id| out.extend_from_slice(&id.to_le_bytes()));
        out.extend_from_slice(&ntokens.to_le_bytes());
        self.t
            .tokens
            .iter()
            .for_each(|t| out.extend_from_slice(&t.to_le_bytes()));
        out.extend_from_slice(objects);
        Ok(())
    }
}

/// A little-endian reader over a buffer that reports truncation.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn u32(&mut self) -> Result<u32, CopyError> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, CopyError> {
        let b = self.bytes(8)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], CopyError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or(CopyError::Malformed("truncated"))?;
        let b = &self.buf[self.at..end];
        self.at = end;
        Ok(b)
    }
    fn remaining(&self) -> usize {
        self.buf.len() - self.at
    }
    /// `n` u64s (capacity bounded by what the buffer can hold, so a hostile count cannot
    /// reserve much).
    fn u64s(&mut self, n: u32) -> Result<SmallVec<[u64; 4]>, CopyError> {
        let mut v = SmallVec::with_capacity((n as usize).min(self.remaining() / 8));
        for _ in 0..n {
            v.push(self.u64()?);
        }
        Ok(v)
    }
}

/// Reads the magic, object count and roots; leaves `r` at the token table.
fn read_head(r: &mut Reader) -> Result<(usize, SmallVec<[u64; 4]>), CopyError> {
    if r.bytes(4)? != MAGIC {
        return Err(CopyError::Malformed("not an object graph"));
    }
    let count = r.u32()? as usize;
    let nroots = r.u32()?;
    Ok((count, r.u64s(nroots)?))
}

/// At most how many heap bytes [`decode`] allocates for `buf` (each object's record is its
/// body plus 12 bytes; in the heap, its body plus a 16-byte header, rounded up to 8).
pub fn heap_bytes(buf: &[u8]) -> usize {
    let count = buf.get(4..8).map_or(0, |b| {
        u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize
    });
    buf.len().saturating_add(count.saturating_mul(12))
}

/// The token table of a buffer written by [`encode`], in order: [`decode`] wants one object
/// (or null) for each.
pub fn tokens(buf: &[u8]) -> Result<SmallVec<[u64; 4]>, CopyError> {
    let mut r = Reader { buf, at: 0 };
    read_head(&mut r)?;
    let n = r.u32()?;
    r.u64s(n)
}

/// A checked non-null reference read from a buffer.
#[derive(Clone, Copy)]
enum Link {
    Object(usize),
    Token(usize),
}

/// Checks a reference read from a buffer against its object count and the tokens supplied.
fn link(id: u64, count: usize, tokens: usize) -> Result<Option<Link>, CopyError> {
    if id == 0 {
        return Ok(None);
    }
    let below = |i: u64, n: usize| usize::try_from(i).ok().filter(|&i| i < n);
    if id & TOKEN_BIT != 0 {
        return below(id & !TOKEN_BIT, tokens)
            .map(|k| Some(Link::Token(k)))
            .ok_or(CopyError::Malformed("token index out of range"));
    }
    below(id - 1, count)
        .map(|i| Some(Link::Object(i)))
        .ok_or(CopyError::Malformed("reference to a missing object"))
}

/// A reference slot of a decoded object still to be filled once every object exists.
struct Pending {
    holder: ObjRef,
    slot: usize,
    to: Link,
}

/// Rebuilds a graph written by [`encode`] in `heap`; returns the roots. `class_of` maps class
/// ids to classes; `tokens` holds the object each entry of the buffer's token table (see
/// [`tokens`]) stands for here. Allocation never collects, so the caller may hold the results
/// raw until it next reaches a safepoint.
///
/// Whatever the buffer holds, every reference slot of every object allocated here is null or a
/// valid reference at all times, even when decoding fails half way (the abandoned objects stay
/// in the heap until the next collection, and the heap verifier walks them).
pub fn decode(
    buf: &[u8],
    heap: &Heap,
    class_of: impl Fn(u32) -> Option<&'static Class>,
    tokens: &[Option<ObjRef>],
) -> Result<Roots, CopyError> {
    decode_all(buf, heap, class_of, tokens).map(|d| d.roots)
}

/// A graph rebuilt by [`decode_all`].
pub struct Decoded {
    pub roots: Roots,
    /// The copies of objects of finalizable classes (`Class::finalizable`), which the
    /// receiver registers for finalization as it does the objects `new` makes.
    pub finalizable: Vec<ObjRef>,
}

/// [`decode`], also returning the finalizable objects it made.
pub fn decode_all(
    buf: &[u8],
    heap: &Heap,
    class_of: impl Fn(u32) -> Option<&'static Class>,
    tokens: &[Option<ObjRef>],
) -> Result<Decoded, CopyError> {
    thread_local! {
        static LISTS: RefCell<DecodeLists> = RefCell::new(DecodeLists::default());
    }
    with_scratch(&LISTS, |l| {
        let roots = decode_with(buf, heap, class_of, tokens, &mut l.objects, &mut l.pending)?;
        let finalizable = l
            .objects
            .iter()
            .copied()
            .filter(|o| o.class().finalizable)
            .collect();
        Ok(Decoded { roots, finalizable })
    })
}

/// The lists of a decoding: the objects made, and the slots still to fill.
#[derive(Default)]
struct DecodeLists {
    objects: Vec<ObjRef>,
    pending: Vec<Pending>,
}

impl Scratch for DecodeLists {
    fn clear(&mut self) {
        self.objects.clear();
        self.pending.clear();
    }
    fn is_big(&self) -> bool {
        self.objects.capacity() > 1 << 12 || self.pending.capacity() > 1 << 12
    }
}

/// The roots of a decoded graph.
pub type Roots = SmallVec<[Option<ObjRef>; 4]>;

fn decode_with(
    buf: &[u8],
    heap: &Heap,
    class_of: impl Fn(u32) -> Option<&'static Class>,
    tokens: &[Option<ObjRef>],
    objects: &mut Vec<ObjRef>,
    pending: &mut Vec<Pending>,
) -> Result<Roots, CopyError> {
    let mut r = Reader { buf, at: 0 };
    let (count, root_ids) = read_head(&mut r)?;
    let roots = root_ids
        .iter()
        .map(|&id| link(id, count, tokens.len()))
        .collect::<Result<SmallVec<[_; 4]>, _>>()?;
    let ntokens = r.u32()? as usize;
    r.bytes(ntokens.saturating_mul(8))?;
    // First pass: allocate every object and copy its body with the reference slots left null,
    // checking the references they are to hold.
    objects.reserve(count.min(r.remaining() / 8));
    for _ in 0..count {
        let o = alloc_object(&mut r, heap, &class_of)?;
        copy_body(&mut r, o, (count, tokens.len()), pending)?;
        objects.push(o);
    }
    // Second pass, which cannot fail: fill the slots (through the write barrier: an object may
    // have landed in the old space when the nursery was full).
    let target = |to: Link| match to {
        Link::Object(i) => Some(objects[i]),
        Link::Token(k) => tokens[k],
    };
    for p in pending.iter() {
        heap.write_slot(p.holder, p.slot, to_slot(target(p.to)));
    }
    Ok(roots.into_iter().map(|l| l.and_then(target)).collect())
}

/// Reads an object's class id and length and allocates it (zeroed) in `heap`.
fn alloc_object(
    r: &mut Reader,
    heap: &Heap,
    class_of: &impl Fn(u32) -> Option<&'static Class>,
) -> Result<ObjRef, CopyError> {
    let c = class_of(r.u32()?).ok_or(CopyError::Malformed("unknown class id"))?;
    if c.is_primitive() || (!c.is_array() && (c.instance_size as usize) < HEADER_SIZE) {
        return Err(CopyError::Malformed("a class without instances"));
    }
    let len = r.u32()?;
    match (c.is_array(), len) {
        (false, INSTANCE) => heap
            .alloc(c, c.instance_size as usize)
            .map_err(|_| CopyError::OutOfMemory),
        (true, n) if n != INSTANCE && n <= i32::MAX as u32 => {
            let bytes = (n as usize)
                .checked_mul(c.array_elem().size())
                .ok_or(CopyError::Malformed("array too long"))?;
            // Checked before allocating, so a short hostile buffer cannot ask for a huge array.
            if bytes > r.remaining() {
                return Err(CopyError::Malformed("truncated"));
            }
            let a = heap
                .alloc(c, ARRAY_BASE + bytes)
                .map_err(|_| CopyError::OutOfMemory)?;
            a.write::<u32>(ARRAY_LENGTH, n);
            Ok(a)
        }
        _ => Err(CopyError::Malformed(
            "array length on an instance or none on an array",
        )),
    }
    .and_then(|o| {
        set_identity_hash(o, r.u32()?);
        Ok(o)
    })
}

/// The identity hash in `o`'s mark word (0 if none was assigned yet).
fn identity_hash(o: ObjRef) -> u32 {
    (o.mark().load(std::sync::atomic::Ordering::Relaxed) >> 32) as u32
}

/// Gives the new object `o` identity hash `h` (none for 0); its lock bits stay clear.
fn set_identity_hash(o: ObjRef, h: u32) {
    o.mark()
        .store((h as u64) << 32, std::sync::atomic::Ordering::Relaxed);
}

/// Reads `o`'s body into it, leaving its reference slots null and queueing them in `pending`
/// once every reference is checked against `limits` (object count, tokens).
fn copy_body(
    r: &mut Reader,
    o: ObjRef,
    limits: (usize, usize),
    pending: &mut Vec<Pending>,
) -> Result<(), CopyError> {
    let c = o.class();
    let (start, end) = body(c, o);
    let bytes = r.bytes(end - start)?;
    for slot in ref_slots(c, o) {
        let at = slot - start;
        let id = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        if let Some(to) = link(id, limits.0, limits.1)? {
            pending.push(Pending {
                holder: o,
                slot,
                to,
            });
        }
    }
    o.write_bytes(start, bytes);
    for slot in ref_slots(c, o) {
        o.clear_slot(slot);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use meta::class::{ClassId, ClassKind};

    /// Synthetic classes: Node { long value @16; Node next @24; Object other @32 }, long[],
    /// Object[], a class the policy refuses, and Portal { long token @16 }, passed as a token.
    struct World {
        node: &'static Class,
        longs: &'static Class,
        objects: &'static Class,
        secret: &'static Class,
        portal: &'static Class,
    }

    fn world() -> World {
        let leak = |c: Class| -> &'static Class { Box::leak(Box::new(c)) };
        let object = leak(Class::bare(
            ClassId(100),
            "java/lang/Object",
            ClassKind::Instance,
            None,
            0,
        ));
        let mut node = Class::bare(ClassId(101), "Node", ClassKind::Instance, Some(object), 0);
        node.instance_size = 40;
        node.ref_offsets = vec![24, 32];
        let prim = leak(Class::bare(
            ClassId(102),
            "long",
            ClassKind::Primitive(BasicType::Long),
            None,
            0,
        ));
        let longs = leak(Class::bare(
            ClassId(103),
            "[J",
            ClassKind::Array {
                component: prim,
                elem: BasicType::Long,
            },
            Some(object),
            0,
        ));
        let objects = leak(Class::bare(
            ClassId(104),
            "[Ljava/lang/Object;",
            ClassKind::Array {
                component: object,
                elem: BasicType::Ref,
            },
            Some(object),
            0,
        ));
        let secret = leak(Class::bare(
            ClassId(105),
            "Secret",
            ClassKind::Instance,
            Some(object),
            0,
        ));
        let mut portal = Class::bare(ClassId(106), "Portal", ClassKind::Instance, Some(object), 0);
        portal.instance_size = 24;
        World {
            node: leak(node),
            longs,
            objects,
            secret,
            portal: leak(portal),
        }
    }

    impl World {
        fn class(&self, id: u32) -> Option<&'static Class> {
            [
                self.node,
                self.longs,
                self.objects,
                self.secret,
                self.portal,
            ]
            .into_iter()
            .find(|c| c.id.0 == id)
        }
        fn node(&self, heap: &Heap, value: i64) -> ObjRef {
            let n = heap.alloc(self.node, 40).unwrap();
            n.write::<i64>(16, value);
            n
        }
        fn portal(&self, heap: &Heap, token: u64) -> ObjRef {
            let p = heap.alloc(self.portal, 24).unwrap();
            p.write_word(16, token as usize);
            p
        }
        fn array(&self, heap: &Heap, elems: &[Option<ObjRef>]) -> ObjRef {
            let a = heap
                .alloc(self.objects, ARRAY_BASE + elems.len() * 8)
                .unwrap();
            a.write::<u32>(ARRAY_LENGTH, elems.len() as u32);
            for (i, &e) in elems.iter().enumerate() {
                heap.write_ref(a, ARRAY_BASE + i * 8, e);
            }
            a
        }
        /// The policy of these tests: portals pass as their token, secrets are refused.
        fn classify(&self, o: ObjRef) -> Walk {
            match o.class() {
                c if std::ptr::eq(c, self.portal) => Walk::Token(o.read::<u64>(16)),
                c if std::ptr::eq(c, self.secret) => Walk::Refuse,
                _ => Walk::Copy,
            }
        }
        /// Every object allocated so far in the nursery and the old space of `heap`.
        fn objects_in(&self, heap: &Heap) -> Vec<ObjRef> {
            let mut out = Vec::new();
            for (start, end) in [heap.nursery(), heap.old_space()] {
                let mut at = start;
                while at < end {
                    let o = ObjRef::from_addr(at);
                    assert!(
                        self.class(o.class().id.0).is_some(),
                        "a class word at {at:#x}"
                    );
                    out.push(o);
                    at += body(o.class(), o).1.next_multiple_of(8);
                }
            }
            out
        }
    }

    fn heap() -> Heap {
        Heap::new(8 << 20, 1 << 20, 1 << 20, 1 << 20).unwrap()
    }

    fn copy_all(_: ObjRef) -> Walk {
        Walk::Copy
    }

    /// The object count a buffer declares.
    fn object_count(buf: &[u8]) -> u32 {
        u32::from_le_bytes(buf[4..8].try_into().unwrap())
    }

    #[test]
    fn cycles_sharing_and_arrays_survive_a_copy_into_another_heap() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n1 = w.node(&a, 1);
        let n2 = w.node(&a, 2);
        a.write_ref(n1, 24, Some(n2));
        a.write_ref(n2, 24, Some(n1)); // a cycle
        let longs = a.alloc(w.longs, ARRAY_BASE + 3 * 8).unwrap();
        longs.write::<u32>(ARRAY_LENGTH, 3);
        longs.write::<i64>(ARRAY_BASE + 16, -7);
        a.write_ref(n1, 32, Some(longs));
        a.write_ref(n2, 32, Some(longs)); // shared
        let arr = w.array(&a, &[Some(n2), None]);

        let buf = encode(&[Some(n1), None, Some(arr)], 1 << 20, |o| w.classify(o)).unwrap();
        assert_eq!(tokens(&buf).map(|t| t.to_vec()), Ok(vec![]));
        let roots = decode(&buf, &b, |id| w.class(id), &[]).unwrap();
        let (c1, c3) = (roots[0].unwrap(), roots[2].unwrap());
        assert!(roots[1].is_none());
        assert!(
            b.contains(c1.addr()) && !a.contains(c1.addr()),
            "the copy lives in the target heap"
        );
        let c2 = c1.read_ref(24).unwrap();
        assert_eq!((c1.read::<i64>(16), c2.read::<i64>(16)), (1, 2));
        assert_eq!(c2.read_ref(24), Some(c1), "the cycle is kept");
        let l1 = c1.read_ref(32).unwrap();
        assert_eq!(c2.read_ref(32), Some(l1), "sharing is kept");
        assert_eq!((l1.array_len(), l1.read::<i64>(ARRAY_BASE + 16)), (3, -7));
        assert_eq!(c3.read_ref(ARRAY_BASE), Some(c2), "roots share objects too");
        assert_eq!(c3.read_ref(ARRAY_BASE + 8), None);
    }

    #[test]
    fn decoding_reports_each_copy_of_a_finalizable_class_once() {
        let w = world();
        let (a, b) = (heap(), heap());
        let mut fin = Class::bare(
            ClassId(107),
            "Fin",
            ClassKind::Instance,
            w.node.super_class,
            0,
        );
        fin.instance_size = 24;
        fin.finalizable = true;
        let fin: &'static Class = Box::leak(Box::new(fin));
        let (f1, f2) = (a.alloc(fin, 24).unwrap(), a.alloc(fin, 24).unwrap());
        let n = w.node(&a, 1);
        a.write_ref(n, 32, Some(f2));
        let arr = w.array(&a, &[Some(f1), Some(n), Some(f2), Some(f1)]);
        let buf = encode(&[Some(arr)], 1 << 20, copy_all).unwrap();
        let class_of = |id| if id == 107 { Some(fin) } else { w.class(id) };
        let copied = decode_all(&buf, &b, class_of, &[]).unwrap();
        let c = copied.roots[0].unwrap();
        let (c1, c2) = (
            c.read_ref(ARRAY_BASE).unwrap(),
            c.read_ref(ARRAY_BASE + 16).unwrap(),
        );
        let mut found: Vec<usize> = copied.finalizable.iter().map(|o| o.addr()).collect();
        found.sort();
        let mut want = vec![c1.addr(), c2.addr()];
        want.sort();
        assert_eq!(found, want, "the two copies, each once, in the target heap");
        assert!(b.contains(c1.addr()) && b.contains(c2.addr()));
    }

    #[test]
    fn tokens_are_recorded_once_per_value_and_the_classifier_once_per_object() {
        let w = world();
        let (a, b) = (heap(), heap());
        let (p7, other7, p9) = (w.portal(&a, 7), w.portal(&a, 7), w.portal(&a, 9));
        let n = w.node(&a, 1);
        a.write_ref(n, 32, Some(p7));
        let arr = w.array(&a, &[Some(p7), Some(other7), Some(p9), Some(n), Some(p9)]);
        let mut asked = Vec::new();
        let buf = encode(&[Some(arr)], 1 << 20, |o| {
            asked.push(o);
            w.classify(o)
        })
        .unwrap();
        assert_eq!(
            tokens(&buf).map(|t| t.to_vec()),
            Ok(vec![7, 9]),
            "the same object twice, or two objects with one token, share an entry"
        );
        assert_eq!(asked, vec![arr, p7, other7, p9, n]);
        assert_eq!(object_count(&buf), 2, "portals are not copied");

        let (t7, t9) = (w.node(&b, 70), w.node(&b, 90));
        let c = decode(&buf, &b, |id| w.class(id), &[Some(t7), Some(t9)]).unwrap()[0].unwrap();
        let elems: Vec<_> = (0..5).map(|i| c.read_ref(ARRAY_BASE + i * 8)).collect();
        let copy = elems[3].unwrap();
        assert_eq!(
            elems,
            vec![Some(t7), Some(t7), Some(t9), Some(copy), Some(t9)]
        );
        assert_eq!((copy.read::<i64>(16), copy.read_ref(32)), (1, Some(t7)));
    }

    #[test]
    fn a_token_can_be_a_root_and_may_stand_for_null() {
        let w = world();
        let (a, b) = (heap(), heap());
        let p = w.portal(&a, 5);
        let n = w.node(&a, 1);
        a.write_ref(n, 32, Some(p));
        let buf = encode(&[Some(p), Some(n), Some(p)], 1 << 20, |o| w.classify(o)).unwrap();
        assert_eq!(tokens(&buf).map(|t| t.to_vec()), Ok(vec![5]));
        let x = w.node(&b, 50);
        let roots = decode(&buf, &b, |id| w.class(id), &[Some(x)]).unwrap();
        assert_eq!((roots[0], roots[2]), (Some(x), Some(x)));
        assert_eq!(roots[1].unwrap().read_ref(32), Some(x));
        let roots = decode(&buf, &b, |id| w.class(id), &[None]).unwrap();
        assert_eq!((roots[0], roots[1].unwrap().read_ref(32)), (None, None));
    }

    #[test]
    fn a_token_shared_by_two_slots_becomes_one_object() {
        let w = world();
        let (a, b) = (heap(), heap());
        let p = w.portal(&a, 3);
        let (n1, n2) = (w.node(&a, 1), w.node(&a, 2));
        a.write_ref(n1, 24, Some(n2));
        a.write_ref(n1, 32, Some(p));
        a.write_ref(n2, 32, Some(p));
        let buf = encode(&[Some(n1)], 1 << 20, |o| w.classify(o)).unwrap();
        assert_eq!(
            (tokens(&buf).map(|t| t.to_vec()), object_count(&buf)),
            (Ok(vec![3]), 2)
        );
        let x = w.node(&b, 30);
        let c1 = decode(&buf, &b, |id| w.class(id), &[Some(x)]).unwrap()[0].unwrap();
        let c2 = c1.read_ref(24).unwrap();
        assert_eq!((c1.read_ref(32), c2.read_ref(32)), (Some(x), Some(x)));
    }

    #[test]
    fn the_quota_and_the_policy_are_enforced() {
        let w = world();
        let a = heap();
        let mut head = w.node(&a, 0);
        for i in 1..1000 {
            let n = w.node(&a, i);
            a.write_ref(n, 24, Some(head));
            head = n;
        }
        assert_eq!(
            encode(&[Some(head)], 10_000, copy_all),
            Err(CopyError::Quota(10_000))
        );
        assert!(encode(&[Some(head)], 100_000, copy_all).is_ok());
        let s = a.alloc(w.secret, 16).unwrap();
        a.write_ref(head, 32, Some(s));
        assert_eq!(
            encode(&[Some(head)], 100_000, |o| w.classify(o)),
            Err(CopyError::NotCopyable("Secret".into()))
        );
        assert_eq!(
            encode(&[Some(s)], 100_000, |o| w.classify(o)),
            Err(CopyError::NotCopyable("Secret".into())),
            "a root too"
        );
    }

    #[test]
    fn identity_hashes_are_kept_and_lock_bits_dropped() {
        let w = world();
        let (a, b) = (heap(), heap());
        let hashed = w.node(&a, 1);
        let fresh = w.node(&a, 2);
        hashed.mark().store(
            0x1234_5678 << 32 | 0x42,
            std::sync::atomic::Ordering::Relaxed,
        );
        let buf = encode(&[Some(hashed), Some(fresh)], 1 << 20, copy_all).unwrap();
        let copies = decode(&buf, &b, |id| w.class(id), &[]).unwrap();
        let mark = |o: Option<ObjRef>| o.unwrap().mark().load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(
            mark(copies[0]),
            0x1234_5678 << 32,
            "the hash crosses, the lock bits do not"
        );
        assert_eq!(mark(copies[1]), 0, "no hash yet: none in the copy either");
    }

    #[test]
    fn encode_into_reuses_the_buffer_and_empties_it_on_errors() {
        let w = world();
        let a = heap();
        let n = w.node(&a, 3);
        a.write_ref(n, 24, Some(n));
        let mut out = vec![0xEE; 4096];
        let cap = out.capacity();
        encode_into(&[Some(n)], 1 << 20, copy_all, &mut out).unwrap();
        assert_eq!(out, encode(&[Some(n)], 1 << 20, copy_all).unwrap());
        assert_eq!(out.capacity(), cap, "the buffer's room was reused");
        let s = a.alloc(w.secret, 16).unwrap();
        assert!(encode_into(&[Some(s)], 1 << 20, |o| w.classify(o), &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn the_quota_counts_the_token_table() {
        let w = world();
        let a = heap();
        let ps: Vec<_> = (0..3).map(|t| Some(w.portal(&a, t))).collect();
        let exact = 12 + 3 * 8 + 4 + 3 * 8;
        assert_eq!(
            encode(&ps, exact - 1, |o| w.classify(o)),
            Err(CopyError::Quota(exact - 1))
        );
        assert_eq!(
            encode(&ps, exact, |o| w.classify(o)).map(|b| b.len()),
            Ok(exact)
        );
        // A token first met in the last object's slots still counts.
        let n = w.node(&a, 1);
        a.write_ref(n, 32, Some(ps[0].unwrap()));
        let exact = 12 + 8 + 4 + 8 + (12 + 24);
        assert_eq!(
            encode(&[Some(n)], exact - 1, |o| w.classify(o)),
            Err(CopyError::Quota(exact - 1))
        );
        assert_eq!(
            encode(&[Some(n)], exact, |o| w.classify(o)).map(|b| b.len()),
            Ok(exact)
        );
    }

    #[test]
    fn malformed_buffers_are_errors_not_crashes() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n = w.node(&a, 5);
        a.write_ref(n, 24, Some(n));
        let good = encode(&[Some(n)], 1 << 20, copy_all).unwrap();
        for len in 0..good.len() {
            assert!(
                decode(&good[..len], &b, |id| w.class(id), &[]).is_err(),
                "truncated at {len}"
            );
            // The token table ends at 24: `tokens` reads no further.
            assert_eq!(
                tokens(&good[..len]).is_err(),
                len < 24,
                "truncated at {len}"
            );
        }
        // magic 4 | count 4 | root count 4 | root 8 | token count 4 | class id 4 | length 4 | body
        let mut bad = good.clone();
        bad[24..28].copy_from_slice(&999u32.to_le_bytes());
        assert_eq!(
            decode(&bad, &b, |id| w.class(id), &[]),
            Err(CopyError::Malformed("unknown class id"))
        );
        let primitive = |_| w.longs.array_component(); // a class table that answers `long`
        assert_eq!(
            decode(&good, &b, primitive, &[]),
            Err(CopyError::Malformed("a class without instances"))
        );
        let mut bad = good.clone();
        let at = bad.len() - 16; // the `next` slot of the node
        bad[at..at + 8].copy_from_slice(&77u64.to_le_bytes());
        assert_eq!(
            decode(&bad, &b, |id| w.class(id), &[]),
            Err(CopyError::Malformed("reference to a missing object"))
        );
        let mut bad = good.clone();
        bad[28..32].copy_from_slice(&u32::MAX.wrapping_sub(1).to_le_bytes()); // an instance with a length
        assert!(decode(&bad, &b, |id| w.class(id), &[]).is_err());
        let mut bad = good;
        bad[0] = b'X';
        assert_eq!(
            tokens(&bad),
            Err(CopyError::Malformed("not an object graph"))
        );
    }

    #[test]
    fn a_token_index_out_of_range_is_malformed() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n = w.node(&a, 5);
        a.write_ref(n, 32, Some(w.portal(&a, 8)));
        let good = encode(&[Some(n)], 1 << 20, |o| w.classify(o)).unwrap();
        let x = Some(w.node(&b, 80));
        assert!(decode(&good, &b, |id| w.class(id), &[x]).is_ok());
        let out_of_range = Err(CopyError::Malformed("token index out of range"));
        assert_eq!(
            decode(&good, &b, |id| w.class(id), &[]),
            out_of_range,
            "fewer tokens supplied than the table holds"
        );
        let mut bad = good.clone();
        let at = bad.len() - 8; // the `other` slot of the node
        bad[at..at + 8].copy_from_slice(&(TOKEN_BIT | 1).to_le_bytes());
        assert_eq!(decode(&bad, &b, |id| w.class(id), &[x]), out_of_range);
        let mut bad = good;
        bad[12..20].copy_from_slice(&(TOKEN_BIT | 3).to_le_bytes()); // the root
        assert_eq!(decode(&bad, &b, |id| w.class(id), &[x]), out_of_range);
    }

    #[test]
    fn a_failed_decode_leaves_no_raw_ids_in_reference_slots() {
        let w = world();
        let (a, b) = (heap(), heap());
        let (n1, n2) = (w.node(&a, 1), w.node(&a, 2));
        a.write_ref(n1, 24, Some(n2));
        a.write_ref(n2, 24, Some(n1));
        let mut bad = encode(&[Some(n1)], 1 << 20, copy_all).unwrap();
        let at = bad.len() - 16; // n2's `next`, after n1 was allocated and its slots read
        bad[at..at + 8].copy_from_slice(&77u64.to_le_bytes());
        assert!(decode(&bad, &b, |id| w.class(id), &[]).is_err());
        let left = w.objects_in(&b);
        assert_eq!(left.len(), 2, "both were allocated before the failure");
        assert!(
            left.iter()
                .all(|&o| o.read::<u64>(24) == 0 && o.read::<u64>(32) == 0)
        );
    }

    #[test]
    fn a_full_target_heap_is_out_of_memory() {
        let w = world();
        let a = Heap::new(64 << 20, 1 << 20, 1 << 20, 1 << 20).unwrap();
        let big = a.alloc(w.longs, ARRAY_BASE + (3 << 20) * 8).unwrap();
        big.write::<u32>(ARRAY_LENGTH, 3 << 20);
        let buf = encode(&[Some(big)], usize::MAX, copy_all).unwrap();
        let small = Heap::new(4 << 20, 1 << 20, 1 << 20, 1 << 20).unwrap();
        assert_eq!(
            decode(&buf, &small, |id| w.class(id), &[]),
            Err(CopyError::OutOfMemory)
        );
    }

    #[test]
    fn corrupted_buffers_never_panic_nor_leave_bad_references() {
        let w = world();
        let (a, b) = (heap(), heap());
        let n1 = w.node(&a, 1);
        let arr = w.array(&a, &[None, Some(n1), Some(w.portal(&a, 4))]);
        a.write_ref(n1, 32, Some(arr));
        let good = encode(&[Some(n1)], 1 << 20, |o| w.classify(o)).unwrap();
        let x = w.node(&b, 40);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..5000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut bad = good.clone();
            let at = (seed % bad.len() as u64) as usize;
            bad[at] ^= (seed >> 32) as u8 | 1;
            let _ = tokens(&bad);
            let _ = decode(&bad, &b, |id| w.class(id), &[Some(x)]);
        }
        for o in w.objects_in(&b) {
            for slot in ref_slots(o.class(), o) {
                let v = o.read::<u64>(slot);
                assert!(
                    v == 0 || b.object_at(v as usize).is_some(),
                    "slot {slot} of {:?} holds {v:#x}",
                    o.class()
                );
            }
        }
    }

    use testkit::Rng;

    /// Applies one to four random mutations to `buf`: bit flips, bytes, u32s and u64s
    /// overwritten with boundary values or with the format's own values (`dict`: class ids,
    /// counts, references, token references), truncation, removal and duplication of a range,
    /// and splicing with `other` (another valid buffer).
    fn mutate(rng: &mut Rng, buf: &mut Vec<u8>, other: &[u8], dict: &[u64]) {
        const BOUNDARY: [u64; 10] = [
            0,
            1,
            2,
            0x7F,
            0xFFFF,
            0x7FFF_FFFF,
            0x8000_0000,
            u32::MAX as u64 - 1,
            u32::MAX as u64,
            u64::MAX,
        ];
        for _ in 0..1 + rng.below(4) {
            let len = buf.len();
            let at = rng.below(len);
            let value = if rng.below(2) == 0 {
                BOUNDARY[rng.below(BOUNDARY.len())]
            } else {
                dict[rng.below(dict.len())]
            };
            // Word writes land on a 4-byte boundary half of the time: the format's fields do.
            let word_at = |rng: &mut Rng, width: usize| {
                let at = if rng.below(2) == 0 { at & !3 } else { at };
                (at + width <= len).then_some(at)
            };
            match rng.below(8) {
                0 if len > 0 => buf[at] ^= 1 << rng.below(8),
                1 if len > 0 => buf[at] = rng.next_u64() as u8,
                2 => {
                    if let Some(at) = word_at(rng, 4) {
                        buf[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
                    }
                }
                3 => {
                    if let Some(at) = word_at(rng, 8) {
                        buf[at..at + 8].copy_from_slice(&value.to_le_bytes());
                    }
                }
                4 => buf.truncate(at),
                5 => {
                    let end = (at + rng.below(32)).min(len);
                    buf.drain(at..end);
                }
                6 => {
                    let end = (at + 1 + rng.below(48)).min(len);
                    let copy = buf[at..end].to_vec();
                    let to = rng.below(len + 1);
                    buf.splice(to..to, copy);
                }
                _ => {
                    let cut = rng.below(other.len() + 1);
                    buf.truncate(at);
                    buf.extend_from_slice(&other[cut..]);
                }
            }
        }
    }

    /// Valid buffers for the fuzzer to start from: a cycle with sharing, arrays of longs
    /// and of references (empty ones too), portals passed as tokens (twice, and as roots),
    /// an identity hash, a long chain, a null root and a graph with no roots at all.
    fn fuzz_seeds(w: &World) -> Vec<Vec<u8>> {
        let a = heap();
        let mut seeds = Vec::new();
        let (n1, n2) = (w.node(&a, 1), w.node(&a, -2));
        a.write_ref(n1, 24, Some(n2));
        a.write_ref(n2, 24, Some(n1));
        let longs = a.alloc(w.longs, ARRAY_BASE + 3 * 8).unwrap();
        longs.write::<u32>(ARRAY_LENGTH, 3);
        a.write_ref(n1, 32, Some(longs));
        a.write_ref(n2, 32, Some(longs));
        let arr = w.array(&a, &[Some(n2), None, Some(longs)]);
        seeds.push(encode(&[Some(n1), None, Some(arr)], 1 << 20, copy_all).unwrap());
        let (p7, p9) = (w.portal(&a, 7), w.portal(&a, 9));
        let empty = w.array(&a, &[]);
        let n = w.node(&a, 3);
        a.write_ref(n, 32, Some(p7));
        let arr = w.array(&a, &[Some(p7), Some(p9), Some(n), Some(empty), Some(p9)]);
        seeds.push(encode(&[Some(arr), Some(p9)], 1 << 20, |o| w.classify(o)).unwrap());
        let hashed = w.node(&a, 4);
        hashed
            .mark()
            .store(0xABCD << 32, std::sync::atomic::Ordering::Relaxed);
        let mut head = hashed;
        for i in 0..20 {
            let n = w.node(&a, i);
            a.write_ref(n, 24, Some(head));
            head = n;
        }
        seeds.push(encode(&[Some(head), None], 1 << 20, copy_all).unwrap());
        seeds.push(encode(&[], 1 << 20, copy_all).unwrap());
        seeds
    }

    /// Every object in `heap` has a class of the world, lies inside the heap, and every
    /// reference slot is null or points at an object of `heap`: a decode that wrote out of
    /// bounds or left a raw id in a slot fails this.
    fn check_heap(w: &World, heap: &Heap) {
        for o in w.objects_in(heap) {
            for slot in ref_slots(o.class(), o) {
                let v = o.read::<u64>(slot);
                assert!(
                    v == 0 || heap.object_at(v as usize).is_some(),
                    "slot {slot} of {:?} holds {v:#x}",
                    o.class()
                );
            }
        }
    }

    /// Fuzz target for the decoder: 1,000,000 mutants (250,000 from each of four seeds, xorshift
    /// seed fixed) of valid buffers, each read by [`tokens`], [`heap_bytes`] and [`decode`]
    /// (with the tokens it asks for, some null, and sometimes one token too few). Each must be
    /// `Ok` or a [`CopyError`], never a panic; a decode must allocate no more than
    /// [`heap_bytes`] promised; and the target heap must stay well formed (checked every 256
    /// inputs and before each heap is replaced).
    #[test]
    fn fuzz_decode_mutated_buffers() {
        let w = world();
        let seeds = fuzz_seeds(&w);
        let dict: Vec<u64> = (100..=106)
            .chain([INSTANCE as u64, 3, 5, 20])
            .chain((0..4).map(|k| TOKEN_BIT | k))
            .collect();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut target = heap();
        let (mut ok, mut failed) = (0, 0);
        for i in 0..1_000_000 {
            let seed = &seeds[i % seeds.len()];
            let mut buf = seed.clone();
            let other = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, &mut buf, other, &dict);
            let promised = heap_bytes(&buf);
            let Ok(wanted) = tokens(&buf) else {
                assert!(decode(&buf, &target, |id| w.class(id), &[]).is_err());
                failed += 1;
                continue;
            };
            let x = w.node(&target, 99);
            let mut supplied: Vec<_> = wanted.iter().map(|&t| (t % 3 != 0).then_some(x)).collect();
            if rng.below(16) == 0 {
                supplied.pop();
            }
            let before = target.used();
            match decode(&buf, &target, |id| w.class(id), &supplied) {
                Ok(roots) => {
                    ok += 1;
                    assert_eq!(
                        roots.len(),
                        u32::from_le_bytes(buf[8..12].try_into().unwrap()) as usize
                    );
                }
                Err(_) => failed += 1,
            }
            assert!(
                target.used() - before <= promised,
                "decode allocated {} bytes, heap_bytes promised {promised}",
                target.used() - before
            );
            if i % 256 == 0 || target.used() > 4 << 20 {
                check_heap(&w, &target);
                if target.used() > 4 << 20 {
                    target = heap();
                }
            }
        }
        check_heap(&w, &target);
        eprintln!("graph fuzz: {ok} decoded, {failed} refused");
        // The mutants must reach the decoder's deep paths, not only its first checks.
        assert!(ok > 1000 && failed > 1000, "{ok} decoded, {failed} refused");
    }
}
