//! A thread's stack of frame records ([`FrameRec`]), in a layout compiled code can push to.
//!
//! Stack walks, the collector and the interpreter see it as a slice; compiled code calling
//! another compiled method pushes and pops records itself, through the base, length and
//! capacity at the offsets [`crate::offsets::Offsets`] gives (a `Vec`'s are unspecified).
//! Compiled code reads the base afresh at every call and pushes only below the capacity, so
//! the storage may grow (and move) whenever the VM pushes. Owns the records' storage and
//! nothing else: what a record means is the interpreter's and the stack walkers'.

use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

use super::FrameRec;

/// The frame records of one thread, oldest first.
pub type FrameStack = Records<FrameRec>;

/// A growable stack of `T` with its base, length and capacity at fixed offsets.
#[repr(C)]
pub struct Records<T: Copy> {
    /// `storage`'s first element: records `0..len` are initialized.
    base: *mut T,
    len: usize,
    /// `storage.len()`.
    cap: usize,
    storage: Vec<MaybeUninit<T>>,
}

// SAFETY: `Records` owns its records as a `Vec` would; the raw pointer only caches where
// `storage` is.
unsafe impl<T: Copy + Send> Send for Records<T> {}
// SAFETY: as above: shared access only reads the records.
unsafe impl<T: Copy + Sync> Sync for Records<T> {}

impl<T: Copy> Records<T> {
    pub fn with_capacity(cap: usize) -> Records<T> {
        let mut storage = Vec::with_capacity(cap.max(1));
        storage.resize(cap.max(1), MaybeUninit::uninit());
        Records {
            base: storage.as_mut_ptr().cast(),
            len: 0,
            cap: storage.len(),
            storage,
        }
    }

    pub fn push(&mut self, f: T) {
        if self.len == self.cap {
            self.grow();
        }
        self.storage[self.len] = MaybeUninit::new(f);
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self) {
        let cap = self.cap * 2;
        self.storage.resize(cap, MaybeUninit::uninit());
        self.base = self.storage.as_mut_ptr().cast();
        self.cap = cap;
    }

    pub fn pop(&mut self) -> Option<T> {
        let n = self.len.checked_sub(1)?;
        let f = self[n];
        self.len = n;
        Some(f)
    }

    /// Drops the records from `len` on (compiled code's frames left by an unwinding).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl<T: Copy> Deref for Records<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `base` is `storage`'s buffer (set whenever it is allocated) and records
        // `0..len` were written by `push` (or by compiled code below `cap`, then `len` set).
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }
}

impl<T: Copy> DerefMut for Records<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.base, self.len) }
    }
}

/// Where compiled code finds a [`FrameStack`]'s parts.
pub mod layout {
    use super::FrameStack;
    use std::mem::offset_of;
    pub const BASE: usize = offset_of!(FrameStack, base);
    pub const LEN: usize = offset_of!(FrameStack, len);
    pub const CAP: usize = offset_of!(FrameStack, cap);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_and_keeps_its_records() {
        let mut s = Records::<(u32, u32)>::with_capacity(2);
        for i in 0..100 {
            s.push((i, i * 2));
        }
        assert_eq!(s.len(), 100);
        assert_eq!(s[57].0, 57);
        assert_eq!(s.last().map(|f| f.1), Some(198));
        s[3].0 = 9;
        assert_eq!(s.iter().filter(|f| f.0 == 9).count(), 2);
        assert_eq!(s.pop().map(|f| f.0), Some(99));
        s.truncate(10);
        assert_eq!(s.len(), 10);
        s.truncate(20);
        assert_eq!(s.len(), 10);
    }

    #[test]
    fn compiled_code_finds_the_parts_at_the_layout_offsets() {
        let mut s = Records::<FrameRecLike>::with_capacity(4);
        s.push([1, 2]);
        s.push([3, 4]);
        let at = |off: usize| {
            // SAFETY: reads a `usize` field of `s` at an offset `layout` gives.
            unsafe {
                ((&s as *const Records<FrameRecLike> as *const u8).add(off) as *const usize).read()
            }
        };
        assert_eq!(at(layout::LEN), 2);
        assert_eq!(at(layout::CAP), 4);
        assert_eq!(at(layout::BASE), s.as_ptr() as usize);
    }

    /// A record of `FrameRec`'s size (the offsets do not depend on the record type).
    type FrameRecLike = [u64; 2];
}
