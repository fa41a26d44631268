//! The shared-memory rings of a channel: one mapping (a sealed memfd) holding two rings, one
//! per direction, each a byte ring with one writer process and one reader process.
//!
//! ```text
//! page 0:  ring 0's counters | ring 1's counters      (listener writes ring 0, connector ring 1)
//! then:    ring 0's data (capacity bytes) | ring 1's data (capacity bytes)
//! ```
//!
//! A ring's counters are `head` (bytes ever written; only its writer stores it), `tail` (bytes
//! ever read; only its reader stores it), and `seq`, a futex word both bump after moving a
//! counter, with `waiters` saying whether anyone sleeps on it. Each side keeps its own counter
//! privately and only publishes it: it never trusts what the peer left in shared memory for
//! its own counter, and the peer's counter is checked (`head - tail` at most the capacity)
//! before any byte is read, so a hostile peer can make us read garbage but never read or write
//! outside the data area. Bytes read from the ring are copied out before anything parses them.
//!
//! Owns the mapping and every access to it; knows nothing of frames or sockets.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use crate::sys;

/// Bytes before the data areas.
const COUNTERS: usize = 4096;

/// One ring's counters, in shared memory (`head` and `tail` on their own cache lines).
#[repr(C, align(64))]
struct Counters {
    head: AtomicU64,
    _pad0: [u64; 7],
    tail: AtomicU64,
    _pad1: [u64; 7],
    seq: AtomicU32,
    waiters: AtomicU32,
}

const _: () = assert!(2 * std::mem::size_of::<Counters>() <= COUNTERS);

/// The peer broke the ring's invariant (a counter beyond what the capacity allows).
#[derive(Debug)]
pub struct Corrupt;

/// A channel's mapping: two rings of `capacity` bytes each.
pub struct Rings {
    base: *mut u8,
    len: usize,
    capacity: usize,
    _fd: OwnedFd,
}

// SAFETY: the mapping is plain shared memory; every access through `Rings` is atomic (the
// counters) or a byte copy of a range the caller owns by the ring protocol.
unsafe impl Send for Rings {}
// SAFETY: as for Send; concurrent callers are serialized per ring and direction by the
// channel's locks, and the counters are atomics.
unsafe impl Sync for Rings {}

impl Drop for Rings {
    fn drop(&mut self) {
        // SAFETY: `base`/`len` is our mapping; the Rings is going away, and with it every
        // borrow of the counters.
        unsafe { sys::unmap(self.base, self.len) }
    }
}

impl Rings {
    /// Total bytes of a mapping whose rings hold `capacity` bytes each.
    pub fn size_for(capacity: usize) -> usize {
        COUNTERS + 2 * capacity
    }

    /// A new mapping (zeroed counters) and the descriptor to hand the peer.
    pub fn create(capacity: usize) -> io::Result<(Rings, OwnedFd)> {
        if !capacity.is_power_of_two() || !(4096..=1 << 30).contains(&capacity) {
            return Err(io::Error::other(
                "a ring's capacity is a power of two, 4 KB to 1 GB",
            ));
        }
        let fd = sys::sealed_memfd(Self::size_for(capacity) as u64)?;
        let peer = fd.try_clone()?;
        Ok((Self::map(fd, capacity)?, peer))
    }

    /// Maps the rings a peer created, after checking that the file is as large as the
    /// capacity claims and cannot shrink under us.
    pub fn open(fd: OwnedFd, capacity: u64) -> io::Result<Rings> {
        let bad = || io::Error::other("the peer's ring is not a valid channel mapping");
        if !capacity.is_power_of_two() || !(4096..=1 << 30).contains(&capacity) {
            return Err(bad());
        }
        let capacity = capacity as usize;
        let (size, sealed) = sys::size_and_sealed(&fd)?;
        if size != Self::size_for(capacity) as u64 || !sealed {
            return Err(bad());
        }
        Self::map(fd, capacity)
    }

    fn map(fd: OwnedFd, capacity: usize) -> io::Result<Rings> {
        let len = Self::size_for(capacity);
        let base = sys::map_shared(&fd, len)?;
        Ok(Rings {
            base,
            len,
            capacity,
            _fd: fd,
        })
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn counters(&self, ring: usize) -> &Counters {
        debug_assert!(ring < 2);
        // SAFETY: the mapping starts with two Counters (COUNTERS >= their size), page
        // aligned, and lives as long as `self`; all their fields are atomics, so the peer
        // writing them concurrently is fine.
        unsafe { &*(self.base as *const Counters).add(ring & 1) }
    }

    fn data(&self, ring: usize) -> *mut u8 {
        // SAFETY: ring 0's data starts at COUNTERS, ring 1's a capacity later; both inside
        // the mapping of COUNTERS + 2 * capacity bytes.
        unsafe { self.base.add(COUNTERS + (ring & 1) * self.capacity) }
    }

    /// Writes as much of `src` as fits into `ring`, whose head is `*head` (the writer's own
    /// count); returns how much it wrote.
    pub fn write_some(&self, ring: usize, head: &mut u64, src: &[u8]) -> Result<usize, Corrupt> {
        let c = self.counters(ring);
        let tail = c.tail.load(Ordering::Acquire);
        let used = head.wrapping_sub(tail);
        if used > self.capacity as u64 {
            return Err(Corrupt);
        }
        let n = (self.capacity - used as usize).min(src.len());
        if n == 0 {
            return Ok(0);
        }
        let at = (*head % self.capacity as u64) as usize;
        let first = n.min(self.capacity - at);
        // SAFETY: [at, at + first) and [0, n - first) lie inside this ring's data area
        // (at < capacity, first <= capacity - at, n - first <= at); by the ring protocol the
        // reader does not read these bytes before `head` moves past them. `src` is our memory.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), self.data(ring).add(at), first);
            std::ptr::copy_nonoverlapping(src.as_ptr().add(first), self.data(ring), n - first);
        }
        *head += n as u64;
        c.head.store(*head, Ordering::SeqCst);
        Self::bump(c);
        Ok(n)
    }

    /// Reads up to `dst.len()` bytes from `ring`, whose tail is `*tail` (the reader's own
    /// count); returns how many it read.
    pub fn read_some(&self, ring: usize, tail: &mut u64, dst: &mut [u8]) -> Result<usize, Corrupt> {
        let n = self.available(ring, *tail)?.min(dst.len());
        if n == 0 {
            return Ok(0);
        }
        let at = (*tail % self.capacity as u64) as usize;
        let first = n.min(self.capacity - at);
        // SAFETY: the ranges lie inside the data area (as in `write_some`); `dst` has room
        // for n bytes. The peer may be writing these bytes if it is hostile: they are copied
        // as plain bytes and parsed only from our copy.
        unsafe {
            std::ptr::copy_nonoverlapping(self.data(ring).add(at), dst.as_mut_ptr(), first);
            std::ptr::copy_nonoverlapping(self.data(ring), dst.as_mut_ptr().add(first), n - first);
        }
        *tail += n as u64;
        self.counters(ring).tail.store(*tail, Ordering::SeqCst);
        Self::bump(self.counters(ring));
        Ok(n)
    }

    /// Bytes readable from `ring` at tail `tail`.
    pub fn available(&self, ring: usize, tail: u64) -> Result<usize, Corrupt> {
        let head = self.counters(ring).head.load(Ordering::SeqCst);
        let n = head.wrapping_sub(tail);
        if n > self.capacity as u64 {
            return Err(Corrupt);
        }
        Ok(n as usize)
    }

    /// Bytes writable into `ring` at head `head`.
    pub fn free(&self, ring: usize, head: u64) -> Result<usize, Corrupt> {
        let tail = self.counters(ring).tail.load(Ordering::SeqCst);
        let used = head.wrapping_sub(tail);
        if used > self.capacity as u64 {
            return Err(Corrupt);
        }
        Ok(self.capacity - used as usize)
    }

    /// Wakes whoever sleeps on `ring`'s futex (this process's own waiters, at a close).
    pub fn wake(&self, ring: usize) {
        Self::bump(self.counters(ring));
    }

    fn bump(c: &Counters) {
        c.seq.fetch_add(1, Ordering::SeqCst);
        if c.waiters.load(Ordering::SeqCst) != 0 {
            sys::futex_wake(&c.seq);
        }
    }

    /// Sleeps until `ready` holds for `ring` or at most `slice`: `ready` is checked after
    /// announcing the wait, so a counter moved meanwhile wakes the sleep at once.
    pub fn wait(&self, ring: usize, slice: Duration, ready: impl Fn() -> bool) {
        let c = self.counters(ring);
        let seen = c.seq.load(Ordering::SeqCst);
        c.waiters.fetch_add(1, Ordering::SeqCst);
        if !ready() {
            sys::futex_wait(&c.seq, seen, slice);
        }
        c.waiters.fetch_sub(1, Ordering::SeqCst);
    }

    /// Tests only: the counters as a hostile peer would overwrite them.
    #[cfg(test)]
    pub fn poke_head(&self, ring: usize, v: u64) {
        self.counters(ring).head.store(v, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_wrap_around_the_ring_intact() {
        let (w, fd) = Rings::create(4096).unwrap();
        let r = Rings::open(fd, 4096).unwrap();
        let (mut head, mut tail) = (0u64, 0u64);
        let mut seen = Vec::new();
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut sent = 0;
        while seen.len() < data.len() {
            sent += w.write_some(0, &mut head, &data[sent..]).unwrap();
            let mut buf = [0u8; 1000];
            let n = r.read_some(0, &mut tail, &mut buf).unwrap();
            seen.extend_from_slice(&buf[..n]);
        }
        assert_eq!(seen, data);
        assert_eq!(r.available(1, 0).unwrap(), 0, "the other ring is untouched");
    }

    #[test]
    fn a_full_ring_takes_nothing_and_a_forged_head_is_corrupt() {
        let (w, fd) = Rings::create(4096).unwrap();
        let r = Rings::open(fd, 4096).unwrap();
        let mut head = 0;
        assert_eq!(w.write_some(1, &mut head, &[1; 5000]).unwrap(), 4096);
        assert_eq!(w.write_some(1, &mut head, &[1; 10]).unwrap(), 0);
        w.poke_head(1, 1 << 40);
        let mut tail = 0;
        assert!(r.read_some(1, &mut tail, &mut [0; 8]).is_err());
        assert!(r.available(1, 0).is_err());
    }

    #[test]
    fn a_mapping_of_the_wrong_size_is_refused() {
        let (_w, fd) = Rings::create(8192).unwrap();
        assert!(Rings::open(fd.try_clone().unwrap(), 4096).is_err());
        assert!(Rings::open(fd.try_clone().unwrap(), 3000).is_err());
        assert!(Rings::open(fd, 8192).is_ok());
    }
}
