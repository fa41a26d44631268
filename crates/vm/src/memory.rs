//! Memory objects (JX §2.3): off-heap ranges shared by reference between domains, with
//! sub-ranges, read-only views and revocation. One mechanism for every later user (portals'
//! shared data, External Objects, mapped files, channel buffers).
//!
//! - A [`Region`] owns one anonymous mapping; it is unmapped when the last view of it is gone
//!   (an `Arc`), so a racing access can never touch freed memory.
//! - A shared region ([`View::allocate_shared`], [`View::from_shared`]) is a sealed memfd that
//!   other jxvm processes map too: its [`Shm`] owns the descriptor and the file's header, a
//!   table of grant slots (valid or revoked, and the parent slot) in the shared memory itself,
//!   so that revoking a range in one process is seen by every process that maps it. Each grant
//!   of a shared region owns a slot; revoking one marks its slot and, by one forward pass over
//!   the table, every slot derived from it (a child's slot always follows its parent's).
//! - A [`Grant`] is a revocable right to a range: `revoke` clears its valid flag and those of all
//!   grants derived from it (sub-ranges and read-only views), then gives the caller a fresh
//!   grant for the same range. Checking validity is one atomic load.
//! - A [`View`] is what a Java `jx.memory.ReadOnlyMemory`/`Memory` object holds (in a VM slot the
//!   Java code cannot see or forge): region, offset, length, writability and grant. Each Java
//!   object keeps its view alive through its domain's table of memory objects, which the
//!   collector re-keys and prunes (see `gc`), releasing the views of dead objects.
//!
//! Owns the raw memory and every access to it; knows nothing about Java objects beyond the
//! slot layout constant.

use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

/// The class whose instances carry a view slot (its subclass `Memory` inherits it).
pub const VIEW_CLASS: &str = "jx/memory/ReadOnlyMemory";

use base::account::Account;

/// One anonymous mapping, zeroed.
pub struct Region {
    base: usize,
    size: usize,
    /// Charged for the region's bytes; released when the region is unmapped.
    account: Option<Arc<dyn Account>>,
}

// SAFETY: the region is plain memory; concurrent access to its bytes has Java's data-race
// semantics (like array elements) and never touches Rust-managed state.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl Region {
    fn new(size: usize, account: Option<Arc<dyn Account>>) -> Option<Region> {
        if size == 0 {
            return Some(Region {
                base: 0,
                size: 0,
                account,
            });
        }
        crate::heap::map_anonymous(size).map(|base| Region {
            base,
            size,
            account,
        })
    }
}

impl Region {
    /// A region over `size` bytes at `base` that `mmap` mapped (or `base` 0 and `size` 0):
    /// unmapped when dropped like any other.
    fn from_mapping(base: usize, size: usize, account: Option<Arc<dyn Account>>) -> Region {
        Region {
            base,
            size,
            account,
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if self.size != 0 {
            // SAFETY: the mapping was created by `Region::new` and no view refers to it any more
            // (the last Arc is being dropped).
            unsafe {
                libc::munmap(self.base as *mut libc::c_void, self.size);
            }
        }
        if let Some(a) = &self.account {
            a.release(self.size as u64);
        }
    }
}

/// A revocable right to a range. Grants form a tree: revoking one revokes its descendants.
///
/// A grant holds its parent strongly and its children weakly, so every live grant stays
/// reachable from the root of its tree however many intermediate views were dropped: a view
/// derived through sub-ranges that are gone is still revoked with its ancestors.
pub struct Grant {
    valid: AtomicBool,
    children: Mutex<Vec<std::sync::Weak<Grant>>>,
    /// The grant this one was derived from (None for a whole allocation).
    parent: Option<Arc<Grant>>,
    /// For a shared region: its header and this grant's slot there (the validity every
    /// process that maps the region sees).
    shared: Option<(Arc<Shm>, u32)>,
}

impl Drop for Grant {
    /// Releases the chain of ancestors iteratively (a chain of any length must not recurse
    /// once per link).
    fn drop(&mut self) {
        let mut next = self.parent.take();
        while let Some(p) = next {
            next = match Arc::try_unwrap(p) {
                Ok(mut g) => g.parent.take(),
                Err(_) => None,
            };
        }
    }
}

/// Serializes changes to grant trees (derivation and revocation), so that a grant derived
/// while its parent is being revoked is revoked too.
static GRANTS: Mutex<()> = Mutex::new(());

impl Grant {
    fn root() -> Arc<Grant> {
        Arc::new(Grant {
            valid: AtomicBool::new(true),
            children: Mutex::new(Vec::new()),
            parent: None,
            shared: None,
        })
    }

    /// A grant of shared region `shm` whose slot is `slot` (a root in this process).
    fn root_shared(shm: Arc<Shm>, slot: u32) -> Arc<Grant> {
        Arc::new(Grant {
            valid: AtomicBool::new(true),
            children: Mutex::new(Vec::new()),
            parent: None,
            shared: Some((shm, slot)),
        })
    }

    /// A child of this grant; for a shared region its slot is a new child of this one's
    /// (`Fault::NoSlot` if the region's table is full).
    fn derive(self: &Arc<Grant>) -> Result<Arc<Grant>, Fault> {
        let shared = match &self.shared {
            Some((shm, slot)) => Some((shm.clone(), shm.new_slot(Some(*slot))?)),
            None => None,
        };
        let _g = GRANTS.lock();
        let child = Arc::new(Grant {
            valid: AtomicBool::new(self.is_valid()),
            children: Mutex::new(Vec::new()),
            parent: Some(self.clone()),
            shared,
        });
        let mut kids = self.children.lock();
        kids.retain(|k| k.strong_count() > 0);
        kids.push(Arc::downgrade(&child));
        Ok(child)
    }

    #[inline]
    fn is_valid(&self) -> bool {
        self.valid.load(Ordering::Acquire)
            && self
                .shared
                .as_ref()
                .is_none_or(|(shm, slot)| shm.slot_valid(*slot))
    }

    /// Revokes this grant and its descendants (iteratively: trees may be of any depth); for a
    /// shared region, in every process (through the region's slot table).
    fn revoke_tree(&self) {
        if let Some((shm, slot)) = &self.shared {
            shm.revoke_slot(*slot);
        }
        self.valid.store(false, Ordering::Release);
        let mut pending: Vec<Arc<Grant>> = self
            .children
            .lock()
            .drain(..)
            .filter_map(|k| k.upgrade())
            .collect();
        while let Some(g) = pending.pop() {
            g.valid.store(false, Ordering::Release);
            pending.extend(g.children.lock().drain(..).filter_map(|k| k.upgrade()));
        }
    }
}

/// Why an access failed.
#[derive(Debug, PartialEq, Eq)]
pub enum Fault {
    /// The range was revoked.
    Revoked,
    /// `offset`/`length` fall outside a view of `size` bytes.
    OutOfBounds {
        offset: i64,
        length: i64,
        size: usize,
    },
    /// A write through a read-only view (the Java API never allows one; a bug guard).
    ReadOnly,
    /// The host could not provide the memory.
    NoMemory,
    /// A shared region's table of grants is full (every view derived from it takes a slot).
    NoSlot,
}

/// A view of a region: what one Java memory object stands for. A clone is the same view
/// (the same grant: revoking one revokes the other), as a memory object passed to another
/// domain must be.
#[derive(Clone)]
pub struct View {
    region: Arc<Region>,
    offset: usize,
    len: usize,
    writable: bool,
    /// This view's right; `revoke` derives the fresh grant from its parent, so revoking an
    /// enclosing range still reaches the views re-granted inside it.
    grant: Arc<Grant>,
}

impl View {
    /// A new zeroed region of `size` bytes and a writable view of all of it.
    pub fn allocate(size: i64) -> Result<View, Fault> {
        Self::allocate_charged(size, None)
    }

    /// As [`View::allocate`], the region's bytes (already charged to `account`) released to
    /// `account` when it is unmapped — or at once if it cannot be made.
    pub fn allocate_charged(size: i64, account: Option<Arc<dyn Account>>) -> Result<View, Fault> {
        let size = usize::try_from(size).map_err(|_| Fault::OutOfBounds {
            offset: 0,
            length: size,
            size: 0,
        })?;
        let Some(region) = Region::new(size, account.clone()) else {
            if let Some(a) = account {
                a.release(size as u64);
            }
            return Err(Fault::NoMemory);
        };
        Ok(View {
            region: Arc::new(region),
            offset: 0,
            len: size,
            writable: true,
            grant: Grant::root(),
        })
    }

    /// A view of all of a shared file mapping of `len` bytes at `base` (made by
    /// `Host::map_for_memory`), whose region owns the mapping from now on and unmaps it when
    /// the last view of it is gone.
    ///
    /// # Safety
    /// `[base, base+len)` must be a whole mapping nothing else owns or unmaps.
    pub unsafe fn over_mapping(base: usize, len: usize, writable: bool) -> View {
        View {
            region: Arc::new(Region {
                base,
                size: len,
                account: None,
            }),
            offset: 0,
            len,
            writable,
            grant: Grant::root(),
        }
    }

    /// The address of `[offset, offset+length)` of this view, after checking validity and
    /// bounds. It stays mapped as long as this view (or any view of its region) lives.
    pub fn address(&self, offset: i64, length: i64) -> Result<usize, Fault> {
        self.at(offset, length)
    }

    /// The flag that says whether this view is still valid (non-zero; cleared when it is
    /// revoked): code that caches an address from [`View::address`] checks it before each
    /// access. It lives as long as this view. For a shared region it is the view's byte in the
    /// region's slot table, which another process may write (so it is a byte, not a bool).
    pub fn valid_flag(&self) -> &AtomicU8 {
        match &self.grant.shared {
            Some((shm, slot)) => shm.byte(*slot, 0),
            // SAFETY: an AtomicBool has the size, alignment and representation of a u8 holding
            // 0 or 1, and is only ever accessed atomically; it lives as long as the grant.
            None => unsafe { &*(self.grant.valid.as_ptr() as *const AtomicU8) },
        }
    }

    /// The whole mapping this view is part of (address and length), for `msync`.
    pub fn mapping(&self) -> (usize, usize) {
        (self.region.base, self.region.size)
    }

    /// A new zeroed shared region of `size` bytes (a sealed memfd that other processes can
    /// map, see [`View::shared`] and [`View::from_shared`]) and a writable view of all of it;
    /// its bytes (already charged to `account`) are released to `account` when this process
    /// unmaps it, or at once if it cannot be made.
    pub fn allocate_shared(size: i64, account: Option<Arc<dyn Account>>) -> Result<View, Fault> {
        let Ok(len) = usize::try_from(size) else {
            return Err(Fault::OutOfBounds {
                offset: 0,
                length: size,
                size: 0,
            });
        };
        let made = Shm::create(len, account.clone());
        let Ok(shm) = made else {
            if let Some(a) = account {
                a.release(len as u64);
            }
            return Err(Fault::NoMemory);
        };
        let slot = shm.new_slot(None)?;
        Ok(View {
            region: shm.data.clone(),
            offset: 0,
            len,
            writable: true,
            grant: Grant::root_shared(shm, slot),
        })
    }

    /// What another process needs to map this view, if its region is shared: the region's
    /// descriptor and the view's slot, offset, length and writability.
    pub fn shared(&self) -> Option<SharedView<'_>> {
        let (shm, slot) = self.grant.shared.as_ref()?;
        Some(SharedView {
            fd: shm.fd.as_fd(),
            slot: *slot,
            offset: self.offset as u64,
            len: self.len as u64,
            writable: self.writable,
        })
    }

    /// The view another process described with [`View::shared`], its region's descriptor
    /// received as `fd`: the same bytes and the same grant (revoking it here revokes it there).
    /// A descriptor that is not a sealed shared region, or a description outside it, is an
    /// error (a hostile peer's bytes are never trusted).
    pub fn from_shared(
        fd: OwnedFd,
        slot: u32,
        offset: u64,
        len: u64,
        writable: bool,
    ) -> Result<View, ShareError> {
        let shm = Shm::open(fd)?;
        let size = shm.data.size as u64;
        if offset.checked_add(len).is_none_or(|end| end > size) {
            return Err(ShareError(format!(
                "a shared range [{offset}, {offset} + {len}) outside its region of {size} bytes"
            )));
        }
        if slot >= SLOTS || shm.byte(slot, 1).load(Ordering::SeqCst) == 0 {
            return Err(ShareError(format!("a shared range with a bad slot {slot}")));
        }
        Ok(View {
            region: shm.data.clone(),
            offset: offset as usize,
            len: len as usize,
            writable,
            grant: Grant::root_shared(shm, slot),
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn writable(&self) -> bool {
        self.writable
    }
    pub fn is_valid(&self) -> bool {
        self.grant.is_valid()
    }

    /// The address of `[offset, offset+length)` after checking validity and bounds.
    #[inline]
    fn at(&self, offset: i64, length: i64) -> Result<usize, Fault> {
        if !self.grant.is_valid() {
            return Err(Fault::Revoked);
        }
        let in_range = offset >= 0
            && length >= 0
            && (offset as u64)
                .checked_add(length as u64)
                .is_some_and(|end| end <= self.len as u64);
        if !in_range {
            return Err(Fault::OutOfBounds {
                offset,
                length,
                size: self.len,
            });
        }
        Ok(self.region.base + self.offset + offset as usize)
    }

    /// Reads a little-endian value of `N` bytes.
    #[inline]
    pub fn read<const N: usize>(&self, offset: i64) -> Result<[u8; N], Fault> {
        let p = self.at(offset, N as i64)?;
        let mut v = [0u8; N];
        // SAFETY: `at` checked that [p, p+N) lies inside this view, hence inside the region,
        // which stays mapped while `self` holds its Arc.
        unsafe { std::ptr::copy_nonoverlapping(p as *const u8, v.as_mut_ptr(), N) };
        Ok(v)
    }

    /// Writes `bytes` at `offset`.
    #[inline]
    pub fn write(&self, offset: i64, bytes: &[u8]) -> Result<(), Fault> {
        if !self.writable {
            return Err(Fault::ReadOnly);
        }
        let p = self.at(offset, bytes.len() as i64)?;
        // SAFETY: as for `read`; the destination range was bounds-checked.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p as *mut u8, bytes.len()) };
        Ok(())
    }

    /// Copies `dst.len()` bytes at `offset` into `dst`.
    pub fn copy_out(&self, offset: i64, dst: &mut [u8]) -> Result<(), Fault> {
        let p = self.at(offset, dst.len() as i64)?;
        // SAFETY: as for `read`.
        unsafe { std::ptr::copy_nonoverlapping(p as *const u8, dst.as_mut_ptr(), dst.len()) };
        Ok(())
    }

    /// A view of `[offset, offset+length)` of this one, with the same writability.
    pub fn sub_range(&self, offset: i64, length: i64) -> Result<View, Fault> {
        let p = self.at(offset, length)?;
        Ok(View {
            region: self.region.clone(),
            offset: p - self.region.base,
            len: length as usize,
            writable: self.writable,
            grant: self.grant.derive()?,
        })
    }

    /// A read-only view of the same range.
    pub fn read_only(&self) -> Result<View, Fault> {
        let mut v = self.sub_range(0, self.len as i64)?;
        v.writable = false;
        Ok(v)
    }

    /// Revokes this view and every view derived from it; returns a fresh writable view of the
    /// same range (itself revoked if an enclosing range is revoked later).
    pub fn revoke(&self) -> Result<View, Fault> {
        if !self.writable {
            return Err(Fault::ReadOnly);
        }
        {
            let _trees = GRANTS.lock();
            if !self.grant.is_valid() {
                return Err(Fault::Revoked);
            }
            self.grant.revoke_tree();
        }
        let grant = match (&self.grant.parent, &self.grant.shared) {
            (Some(p), _) => p.derive()?,
            (None, None) => Grant::root(),
            // A shared range received from another process: the fresh slot is a sibling of
            // the revoked one in the region's table (revoking the enclosing range reaches it).
            (None, Some((shm, slot))) => {
                let fresh = shm.new_slot(shm.parent_of(*slot))?;
                Grant::root_shared(shm.clone(), fresh)
            }
        };
        Ok(View {
            region: self.region.clone(),
            offset: self.offset,
            len: self.len,
            writable: true,
            grant,
        })
    }
}

/// What a process needs to map a view of a shared region (see [`View::shared`]).
pub struct SharedView<'a> {
    pub fd: BorrowedFd<'a>,
    pub slot: u32,
    /// The view's offset in the region's data, and its length.
    pub offset: u64,
    pub len: u64,
    pub writable: bool,
}

/// Why a received description of a shared region cannot be mapped.
#[derive(Debug)]
pub struct ShareError(pub String);

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Bytes of a shared region's file before its data: the header and its table of grant slots
/// (page aligned, so that the data can be mapped on its own; only the pages used are ever
/// backed by memory).
pub const SHARED_HEADER: usize = 256 << 10;
/// The header's first word, and where the slot count and the slots are.
const SHM_MAGIC: u32 = u32::from_le_bytes(*b"JXS1");
const COUNT_AT: usize = 8;
const SLOTS_AT: usize = 64;
/// Slots of a region, 8 bytes each: a valid byte (1 valid, 0 revoked or not yet made; what
/// [`View::valid_flag`] gives), a published byte (1 once the slot is made; the file starts
/// zeroed), two spare bytes and the parent word.
const SLOTS: u32 = ((SHARED_HEADER - SLOTS_AT) / 8) as u32;
/// The parent word of a slot without one.
const NO_PARENT: u32 = u32::MAX;

/// The shared regions this process maps, by file identity (device, inode): a region received
/// again maps to the same [`Shm`].
static MAPPED: Mutex<Option<rustc_hash::FxHashMap<FileId, Weak<Shm>>>> = Mutex::new(None);

/// A file's identity: device and inode.
type FileId = (u64, u64);

/// A shared region as this process maps it: the memfd, its header (the slot table) and its
/// data. The table may be written by another process at any time, hostile or not: every word
/// is read atomically and every index checked, so the worst it can do is revoke.
pub struct Shm {
    fd: OwnedFd,
    /// The header's mapping (`SHARED_HEADER` bytes).
    header: usize,
    data: Arc<Region>,
    id: FileId,
}

// SAFETY: the header is shared memory accessed only through atomics; the rest is owned values.
unsafe impl Send for Shm {}
// SAFETY: as above.
unsafe impl Sync for Shm {}

impl Drop for Shm {
    fn drop(&mut self) {
        // SAFETY: `header` is the mapping `map` made for this Shm; no grant refers to it any
        // more (they hold the Arc being dropped).
        unsafe { libc::munmap(self.header as *mut libc::c_void, SHARED_HEADER) };
        // Its entry in MAPPED no longer upgrades; `remember` prunes such entries.
    }
}

/// Records `shm` in the table of mapped regions, dropping the entries of unmapped ones each
/// time the table reaches a power of two (from 64) entries.
fn remember(mapped: &mut Option<rustc_hash::FxHashMap<FileId, Weak<Shm>>>, shm: &Arc<Shm>) {
    let m = mapped.get_or_insert_with(Default::default);
    m.insert(shm.id, Arc::downgrade(shm));
    if m.len() >= 64 && m.len().is_power_of_two() {
        m.retain(|_, w| w.strong_count() > 0);
    }
}

fn last_error() -> ShareError {
    ShareError(std::io::Error::last_os_error().to_string())
}

/// Maps `len` bytes of `fd` at `offset`, shared, readable and writable.
fn map(fd: &OwnedFd, len: usize, offset: usize) -> Result<usize, ShareError> {
    if len == 0 {
        return Ok(0);
    }
    // SAFETY: a fresh mapping chosen by the kernel; no existing memory is affected. The file
    // is sealed against shrinking (checked by the callers), so the mapping never faults.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd.as_raw_fd(),
            offset as libc::off_t,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(last_error());
    }
    Ok(p as usize)
}

impl Shm {
    /// A new shared region of `len` zeroed bytes (its header initialized).
    fn create(len: usize, account: Option<Arc<dyn Account>>) -> Result<Arc<Shm>, ShareError> {
        let total = len
            .checked_add(SHARED_HEADER)
            .and_then(|t| libc::off_t::try_from(t).ok())
            .ok_or_else(|| ShareError("too large".into()))?;
        // SAFETY: the name is a NUL-terminated literal; the flags are valid.
        let raw = unsafe {
            libc::memfd_create(
                c"jxvm-memory".as_ptr(),
                libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
            )
        };
        if raw < 0 {
            return Err(last_error());
        }
        // SAFETY: memfd_create just returned this descriptor, owned by nobody else.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // SAFETY: plain system calls on a descriptor we own.
        if unsafe { libc::ftruncate(fd.as_raw_fd(), total) } < 0 {
            return Err(last_error());
        }
        let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
        // SAFETY: as above.
        if unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, seals) } < 0 {
            return Err(last_error());
        }
        let shm = Shm::map_file(fd, len, account)?;
        shm.word(0).store(SHM_MAGIC, Ordering::SeqCst);
        remember(&mut MAPPED.lock(), &shm);
        Ok(shm)
    }

    /// The region of descriptor `fd` (received from another process), mapped unless this
    /// process maps it already.
    fn open(fd: OwnedFd) -> Result<Arc<Shm>, ShareError> {
        // SAFETY: an all-zero stat is a valid value to be overwritten.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `st` is a valid, writable stat; `fd` is ours.
        if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } < 0 {
            return Err(last_error());
        }
        // SAFETY: plain system call on a descriptor we own.
        let seals = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GET_SEALS) };
        if seals < 0 || seals & libc::F_SEAL_SHRINK == 0 {
            return Err(ShareError(
                "a shared region that is not sealed against shrinking".into(),
            ));
        }
        let size = st.st_size as u64;
        if st.st_mode & libc::S_IFMT != libc::S_IFREG || size < SHARED_HEADER as u64 {
            return Err(ShareError("not a shared region".into()));
        }
        let id = (st.st_dev, st.st_ino);
        // Held while mapping: two threads receiving the same region map it once.
        let mut mapped = MAPPED.lock();
        if let Some(shm) = mapped.as_ref().and_then(|m| m.get(&id)?.upgrade()) {
            return Ok(shm);
        }
        let len = usize::try_from(size - SHARED_HEADER as u64)
            .map_err(|_| ShareError("too large".into()))?;
        let shm = Shm::map_file(fd, len, None)?;
        if shm.word(0).load(Ordering::SeqCst) != SHM_MAGIC {
            return Err(ShareError("not a jxvm shared region".into()));
        }
        remember(&mut mapped, &shm);
        Ok(shm)
    }

    /// Maps the header and the `len` data bytes of `fd`.
    fn map_file(
        fd: OwnedFd,
        len: usize,
        account: Option<Arc<dyn Account>>,
    ) -> Result<Arc<Shm>, ShareError> {
        // SAFETY: an all-zero stat is a valid value to be overwritten.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `st` is a valid, writable stat; `fd` is ours.
        if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } < 0 {
            return Err(last_error());
        }
        let header = map(&fd, SHARED_HEADER, 0)?;
        let base = match map(&fd, len, SHARED_HEADER) {
            Ok(b) => b,
            Err(e) => {
                // SAFETY: the header mapping was just made and nothing uses it.
                unsafe { libc::munmap(header as *mut libc::c_void, SHARED_HEADER) };
                return Err(e);
            }
        };
        Ok(Arc::new(Shm {
            fd,
            header,
            data: Arc::new(Region::from_mapping(base, len, account)),
            id: (st.st_dev, st.st_ino),
        }))
    }

    /// The header's 32-bit word at byte `at` (a multiple of 4 below `SHARED_HEADER`).
    fn word(&self, at: usize) -> &AtomicU32 {
        debug_assert!(at.is_multiple_of(4) && at < SHARED_HEADER);
        // SAFETY: `header` is a live mapping of SHARED_HEADER bytes (page aligned) for as long
        // as `self` is; `at` is aligned and inside it; another process touches it only with
        // atomics too.
        unsafe { &*((self.header + at) as *const AtomicU32) }
    }

    /// Byte `k` of slot `i` (`i` below `SLOTS`; `k` 0: valid, 1: published).
    fn byte(&self, i: u32, k: usize) -> &AtomicU8 {
        let at = SLOTS_AT + 8 * i as usize + k;
        debug_assert!(i < SLOTS && k < 4);
        // SAFETY: as for `word`: inside the live header mapping, and only touched atomically
        // (a byte access never overlaps a word access: bytes 0-3 of a slot are only ever
        // accessed as bytes, bytes 4-7 as its parent word).
        unsafe { &*((self.header + at) as *const AtomicU8) }
    }

    /// Slot `i`'s parent, if it has a valid one (an earlier slot).
    fn parent_of(&self, i: u32) -> Option<u32> {
        if i >= SLOTS {
            return None;
        }
        let p = self
            .word(SLOTS_AT + 8 * i as usize + 4)
            .load(Ordering::Relaxed);
        (p < i).then_some(p)
    }

    /// Whether slot `i` is valid.
    #[inline]
    fn slot_valid(&self, i: u32) -> bool {
        i < SLOTS && self.byte(i, 0).load(Ordering::Acquire) != 0
    }

    /// A new slot, a child of `parent` (revoked at once if `parent` is).
    fn new_slot(&self, parent: Option<u32>) -> Result<u32, Fault> {
        let i = self.word(COUNT_AT).fetch_add(1, Ordering::SeqCst);
        if i >= SLOTS {
            // Keep the count from wrapping however many attempts fail.
            self.word(COUNT_AT).store(SLOTS, Ordering::SeqCst);
            return Err(Fault::NoSlot);
        }
        self.word(SLOTS_AT + 8 * i as usize + 4)
            .store(parent.unwrap_or(NO_PARENT), Ordering::Relaxed);
        self.byte(i, 0).store(1, Ordering::SeqCst);
        self.byte(i, 1).store(1, Ordering::SeqCst);
        // Either a revoker's pass sees this slot published, or this load sees the parent
        // revoked (both sides store, then load, sequentially consistent).
        if let Some(p) = parent
            && self.byte(p, 0).load(Ordering::SeqCst) == 0
        {
            self.byte(i, 0).store(0, Ordering::SeqCst);
        }
        Ok(i)
    }

    /// Revokes slot `i` and every slot derived from it.
    fn revoke_slot(&self, i: u32) {
        if i >= SLOTS {
            return;
        }
        self.byte(i, 0).store(0, Ordering::SeqCst);
        let n = self.word(COUNT_AT).load(Ordering::SeqCst).min(SLOTS);
        for j in i + 1..n {
            if self.byte(j, 1).load(Ordering::SeqCst) != 0
                && self.byte(j, 0).load(Ordering::SeqCst) != 0
                && self
                    .parent_of(j)
                    .is_some_and(|p| self.byte(p, 0).load(Ordering::SeqCst) == 0)
            {
                self.byte(j, 0).store(0, Ordering::SeqCst);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_are_little_endian_and_bounds_checked() {
        let m = View::allocate(16).unwrap();
        m.write(3, &0x1122_3344u32.to_le_bytes()).unwrap();
        assert_eq!(u32::from_le_bytes(m.read::<4>(3).unwrap()), 0x1122_3344);
        assert_eq!(m.read::<1>(3).unwrap(), [0x44]);
        assert_eq!(
            m.read::<8>(9),
            Err(Fault::OutOfBounds {
                offset: 9,
                length: 8,
                size: 16
            })
        );
        assert_eq!(
            m.read::<1>(-1),
            Err(Fault::OutOfBounds {
                offset: -1,
                length: 1,
                size: 16
            })
        );
        assert!(m.read::<8>(i64::MAX).is_err());
        assert_eq!(m.read::<8>(8).unwrap(), [0; 8], "allocation zeroes");
        assert!(View::allocate(-1).is_err());
        assert!(View::allocate(0).unwrap().read::<1>(0).is_err());
    }

    #[test]
    fn sub_ranges_share_memory_and_read_only_views_refuse_writes() {
        let m = View::allocate(32).unwrap();
        let s = m.sub_range(8, 8).unwrap();
        s.write(0, &[7]).unwrap();
        assert_eq!(m.read::<1>(8).unwrap(), [7]);
        assert!(s.sub_range(4, 5).is_err());
        let r = m.read_only().unwrap();
        assert_eq!(r.write(0, &[1]), Err(Fault::ReadOnly));
        assert_eq!(r.read::<1>(8).unwrap(), [7]);
        assert_eq!(r.revoke().err(), Some(Fault::ReadOnly));
    }

    #[test]
    fn revoking_invalidates_every_derived_view_and_returns_a_fresh_one() {
        let m = View::allocate(32).unwrap();
        let s = m.sub_range(0, 16).unwrap();
        let ss = s.sub_range(0, 8).unwrap();
        let r = m.read_only().unwrap();
        let fresh = m.revoke().unwrap();
        for v in [&m, &s, &ss, &r] {
            assert!(!v.is_valid());
            assert_eq!(v.read::<1>(0), Err(Fault::Revoked));
        }
        assert_eq!(m.revoke().err(), Some(Fault::Revoked));
        assert!(fresh.is_valid());
        fresh.write(0, &[9]).unwrap();
        // A sub-range revoked on its own leaves its parent alone.
        let sub = fresh.sub_range(8, 8).unwrap();
        let sub2 = sub.revoke().unwrap();
        assert!(fresh.is_valid() && !sub.is_valid() && sub2.is_valid());
        let again = fresh.revoke().unwrap();
        assert!(
            !sub2.is_valid(),
            "revoking the enclosing range reaches views re-granted inside it"
        );
        assert!(again.is_valid());
    }

    #[test]
    fn revocation_reaches_views_derived_through_dropped_intermediates() {
        let m = View::allocate(64).unwrap();
        let mut v = m.sub_range(0, 64).unwrap();
        for i in 1..40i64 {
            let next = if i % 3 == 0 {
                v.read_only().unwrap()
            } else {
                v.sub_range(i % 2, v.len() as i64 - (i % 2)).unwrap()
            };
            v = next; // the previous view is dropped
        }
        let fresh = m.revoke().unwrap();
        assert_eq!(v.read::<1>(0), Err(Fault::Revoked));
        assert!(fresh.is_valid());
        // The same through re-granted ranges: revoke a sub-range, derive from the fresh one.
        let s = fresh.sub_range(0, 32).unwrap().revoke().unwrap();
        let deep = s.sub_range(0, 16).unwrap().sub_range(0, 8).unwrap();
        drop(s);
        fresh.revoke().unwrap();
        assert_eq!(deep.read::<1>(0), Err(Fault::Revoked));
    }

    #[test]
    fn a_long_chain_of_grants_is_dropped_without_recursion() {
        let m = View::allocate(8).unwrap();
        let mut v = m.sub_range(0, 8).unwrap();
        for _ in 0..1_000_000 {
            v = v.sub_range(0, 8).unwrap();
        }
        drop(m);
        drop(v);
    }

    #[test]
    fn readers_racing_with_revocation_see_data_or_revoked_never_garbage() {
        let m = Arc::new(View::allocate(1 << 16).unwrap());
        m.write(0, &[0xAB; 1 << 16]).unwrap();
        let readers: Vec<_> = (0..4)
            .map(|_| {
                let v = Arc::new(m.sub_range(0, 1 << 16).unwrap());
                std::thread::spawn(move || {
                    let mut ok = 0u64;
                    loop {
                        match v.read::<8>(1000) {
                            Ok(b) => {
                                assert_eq!(b, [0xAB; 8]);
                                ok += 1;
                            }
                            Err(Fault::Revoked) => return ok,
                            Err(e) => panic!("{e:?}"),
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let fresh = m.revoke().unwrap();
        drop(m);
        for r in readers {
            r.join().unwrap();
        }
        assert_eq!(fresh.read::<1>(5).unwrap(), [0xAB]);
    }

    /// A second mapping of a shared region through its descriptor, as another process gets
    /// it (a dup of the descriptor: the same file).
    fn peer_view(v: &View) -> View {
        let s = v.shared().expect("a shared view");
        let fd = s.fd.try_clone_to_owned().unwrap();
        View::from_shared(fd, s.slot, s.offset, s.len, s.writable).unwrap()
    }

    /// Maps the region a second time, as another process would (bypassing this process's
    /// table of mapped regions, which would give back the first mapping).
    #[test]
    fn shared_regions_are_the_same_bytes_through_a_second_mapping() {
        let m = View::allocate_shared(4096, None).unwrap();
        assert!(View::allocate(16).unwrap().shared().is_none());
        let s = m.shared().unwrap();
        let shm = Shm::map_file(s.fd.try_clone_to_owned().unwrap(), 4096, None).unwrap();
        assert_ne!(shm.data.base, m.region.base, "a second mapping");
        let p = View {
            region: shm.data.clone(),
            offset: 0,
            len: 4096,
            writable: true,
            grant: Grant::root_shared(shm, s.slot),
        };
        m.write(100, &[1, 2, 3]).unwrap();
        assert_eq!(p.read::<3>(100).unwrap(), [1, 2, 3]);
        p.write(4095, &[9]).unwrap();
        assert_eq!(m.read::<1>(4095).unwrap(), [9]);
        assert!(p.read::<1>(4096).is_err());
        let psub = p.sub_range(0, 10).unwrap();
        m.revoke().unwrap();
        assert!(
            !p.is_valid() && !psub.is_valid(),
            "revoked through the other mapping"
        );
    }

    #[test]
    fn revoking_a_shared_range_is_seen_through_every_mapping() {
        let m = View::allocate_shared(64, None).unwrap();
        let sub = m.sub_range(16, 16).unwrap();
        let ro = sub.read_only().unwrap();
        // The peer's views: of the whole, and of the read-only sub-range (bounds and
        // read-only-ness kept).
        let pm = peer_view(&m);
        let pro = peer_view(&ro);
        assert_eq!(pro.len(), 16);
        assert!(!pro.writable());
        m.write(16, &[5]).unwrap();
        assert_eq!(pro.read::<1>(0).unwrap(), [5]);
        assert_eq!(pro.write(0, &[1]), Err(Fault::ReadOnly));
        // A sub-range derived by the peer is revoked when the sender revokes the whole.
        let psub = pm.sub_range(0, 8).unwrap();
        let fresh = m.revoke().unwrap();
        for v in [&m, &sub, &ro, &pm, &pro, &psub] {
            assert!(!v.is_valid());
            assert_eq!(v.read::<1>(0), Err(Fault::Revoked));
        }
        assert!(fresh.is_valid());
        // The peer revokes its view of the fresh range: the sender's view of it goes too,
        // and the peer gets a fresh one, valid in both.
        let pfresh = peer_view(&fresh);
        let sfresh = fresh.sub_range(0, 4).unwrap();
        let pfresh2 = pfresh.revoke().unwrap();
        assert!(!fresh.is_valid() && !sfresh.is_valid() && !pfresh.is_valid());
        assert!(pfresh2.is_valid());
        let back = peer_view(&pfresh2);
        back.write(0, &[7]).unwrap();
        assert_eq!(pfresh2.read::<1>(0).unwrap(), [7]);
    }

    #[test]
    fn a_slot_derived_while_its_ancestor_is_revoked_is_revoked() {
        let m = View::allocate_shared(8, None).unwrap();
        let (shm, root) = m.grant.shared.clone().unwrap();
        let a = shm.new_slot(Some(root)).unwrap();
        let b = shm.new_slot(Some(a)).unwrap();
        shm.revoke_slot(root);
        assert!(!shm.slot_valid(a) && !shm.slot_valid(b));
        let c = shm.new_slot(Some(b)).unwrap();
        assert!(!shm.slot_valid(c), "derived from a revoked slot");
        let r2 = shm.new_slot(None).unwrap();
        assert!(shm.slot_valid(r2));
        // A forged parent word (a later slot) is no parent.
        shm.word(SLOTS_AT + 8 * r2 as usize + 4)
            .store(r2 + 5, Ordering::SeqCst);
        assert_eq!(shm.parent_of(r2), None);
        assert_eq!(shm.parent_of(SLOTS + 3), None);
        assert!(!shm.slot_valid(SLOTS + 3));
    }

    #[test]
    fn a_full_slot_table_is_a_fault_not_a_panic() {
        let m = View::allocate_shared(8, None).unwrap();
        let mut n = 0;
        let err = loop {
            match m.sub_range(0, 8) {
                Ok(_) => n += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(err, Fault::NoSlot);
        assert_eq!(n, SLOTS as usize - 1);
        assert_eq!(m.read_only().err(), Some(Fault::NoSlot));
        m.write(0, &[1]).unwrap();
    }

    #[test]
    fn bad_descriptions_of_shared_regions_are_errors() {
        let m = View::allocate_shared(32, None).unwrap();
        let s = m.shared().unwrap();
        let dup = || s.fd.try_clone_to_owned().unwrap();
        assert!(View::from_shared(dup(), s.slot, 16, 17, true).is_err());
        assert!(View::from_shared(dup(), s.slot, u64::MAX, 2, true).is_err());
        assert!(View::from_shared(dup(), SLOTS, 0, 1, true).is_err());
        assert!(
            View::from_shared(dup(), 4000, 0, 1, true).is_err(),
            "unpublished"
        );
        // Not a sealed region: a plain file.
        let f: OwnedFd = std::fs::File::open("/proc/self/exe").unwrap().into();
        assert!(View::from_shared(f, 0, 0, 1, true).is_err());
        assert!(View::allocate_shared(-1, None).is_err());
        let z = View::allocate_shared(0, None).unwrap();
        assert!(z.read::<1>(0).is_err());
        assert!(peer_view(&z).is_valid());
    }

    /// Threads deriving views through a second mapping while the first revokes: every view
    /// derived from the revoked range, before or during the revocation, ends revoked.
    #[test]
    fn derivations_racing_with_revocation_through_another_mapping_end_revoked() {
        for round in 0..20 {
            let m = View::allocate_shared(64, None).unwrap();
            let s = m.shared().unwrap();
            let shm = Shm::map_file(s.fd.try_clone_to_owned().unwrap(), 64, None).unwrap();
            let p = View {
                region: shm.data.clone(),
                offset: 0,
                len: 64,
                writable: true,
                grant: Grant::root_shared(shm, s.slot),
            };
            let derived = std::thread::scope(|sc| {
                let workers: Vec<_> = (0..2)
                    .map(|_| {
                        let p = &p;
                        sc.spawn(move || {
                            let mut got = Vec::new();
                            let mut v = p.clone();
                            while got.len() < 4000 {
                                let next = if got.len() % 3 == 2 {
                                    v.read_only()
                                } else {
                                    v.sub_range(0, v.len() as i64)
                                };
                                match next {
                                    Ok(n) => {
                                        got.push(n.clone());
                                        v = n;
                                    }
                                    Err(Fault::Revoked) => break,
                                    Err(e) => panic!("{e:?}"),
                                }
                            }
                            got
                        })
                    })
                    .collect();
                std::thread::sleep(std::time::Duration::from_micros(200 * round));
                m.revoke().unwrap();
                workers
                    .into_iter()
                    .flat_map(|w| w.join().unwrap())
                    .collect::<Vec<_>>()
            });
            for v in &derived {
                assert!(
                    !v.is_valid(),
                    "a view derived during the revocation stayed valid"
                );
            }
        }
    }
}
