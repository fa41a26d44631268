//! Owns the 9P backend's file mappings. A 9P file has no pages the kernel could map, so a
//! mapping is anonymous memory filled from the file when it is made; a read-write one is
//! written back to the file by `force` (`sync_mapping`) and when it is unmapped. What another
//! reader sees in between is the file as it was: the coherence of a shared mapping with
//! `read` and `write` is not there (as with a v9fs mount without a cache).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::NinepBackend;
use super::ns::errno;
use super::table::RemoteFile;
use crate::fs::{self, MapMode};
use crate::{Errno, Fd, PortResult};

struct Mapping {
    len: usize,
    /// For a read-write mapping: the file and the offset the mapping starts at.
    write_back: Option<(Arc<RemoteFile>, u64)>,
}

/// The mappings a backend made, by address.
#[derive(Default)]
pub struct Mappings(Mutex<BTreeMap<usize, Mapping>>);

/// Fresh anonymous read-write memory of `len` bytes.
fn anonymous(len: usize) -> PortResult<usize> {
    let prot = libc::PROT_READ | libc::PROT_WRITE;
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
    // SAFETY: a fresh mapping chosen by the kernel (null hint) does not alias Rust memory.
    let p = unsafe { libc::mmap(std::ptr::null_mut(), len.max(1), prot, flags, -1, 0) };
    if p == libc::MAP_FAILED {
        return Err(Errno::last());
    }
    Ok(p as usize)
}

fn release(addr: usize, len: usize) {
    // SAFETY: [addr, addr+len) is a whole mapping `anonymous` made, taken out of the table by
    // the caller, so nothing uses it any more.
    unsafe { libc::munmap(addr as *mut libc::c_void, len.max(1)) };
}

fn read_only(addr: usize, len: usize) -> PortResult<()> {
    // SAFETY: the range is a whole mapping `anonymous` made; only its protection changes.
    let r = unsafe { libc::mprotect(addr as *mut libc::c_void, len.max(1), libc::PROT_READ) };
    if r < 0 { Err(Errno::last()) } else { Ok(()) }
}

impl NinepBackend {
    pub(super) fn map_remote(
        &self,
        fd: Fd,
        mode: MapMode,
        pos: i64,
        len: usize,
    ) -> PortResult<usize> {
        let f = self.remote(fd)?;
        let writes = matches!(mode, MapMode::ReadWrite);
        if !f.readable() || (writes && !f.writable()) {
            return Err(Errno::EACCES);
        }
        let pos = u64::try_from(pos).map_err(|_| Errno::EINVAL)?;
        let addr = anonymous(len)?;
        let filled = self.fill(&f, addr, pos, len);
        let filled = filled.and_then(|_| match mode {
            MapMode::ReadOnly => read_only(addr, len),
            _ => Ok(()),
        });
        if let Err(e) = filled {
            release(addr, len);
            return Err(e);
        }
        let write_back = writes.then(|| (f.clone(), pos));
        super::lock(&self.maps.0).insert(addr, Mapping { len, write_back });
        Ok(addr)
    }

    /// Reads the file from `pos` into the mapping (what lies past its end stays zero).
    fn fill(&self, f: &RemoteFile, addr: usize, pos: u64, len: usize) -> PortResult<()> {
        let chunk = self.ns.client.max_io() as usize;
        let mut off = 0;
        while off < len {
            let want = (len - off).min(chunk);
            let data = self
                .ns
                .client
                .read(f.fid, pos + off as u64, want)
                .map_err(errno)?;
            fs::copy_to_native(addr + off, &data);
            if data.len() < want {
                break;
            }
            off += data.len();
        }
        Ok(())
    }

    /// Writes `[addr, addr+len)` of a read-write mapping back to its file.
    fn write_back(&self, base: usize, m: &Mapping, addr: usize, len: usize) -> PortResult<()> {
        let Some((f, pos)) = &m.write_back else {
            return Ok(());
        };
        let mut data = vec![0u8; len];
        fs::copy_from_native(addr, &mut data);
        let at = pos + (addr - base) as u64;
        let r = self.ns.client.write(f.fid, at, &data);
        self.invalidate(f.qid);
        r.map(drop).map_err(errno)
    }

    pub(super) fn unmap_remote(&self, addr: usize, len: usize) -> PortResult<()> {
        let m = {
            let mut maps = super::lock(&self.maps.0);
            match maps.get(&addr) {
                Some(m) if m.len == len => maps.remove(&addr),
                _ => None,
            }
        };
        let m = m.ok_or(Errno::EINVAL)?;
        let r = self.write_back(addr, &m, addr, len);
        release(addr, len);
        r
    }

    /// `force` on `[addr, addr+len)`, which lies in one mapping.
    pub(super) fn sync_remote(&self, addr: usize, len: usize) -> PortResult<()> {
        let maps = super::lock(&self.maps.0);
        let (&base, m) = maps.range(..=addr).next_back().ok_or(Errno::EINVAL)?;
        if addr + len > base + m.len {
            return Err(Errno::ENOMEM);
        }
        self.write_back(base, m, addr, len)
    }

    /// Whether `[addr, addr+len)` lies in a mapping of this backend.
    pub(super) fn is_mapped(&self, addr: usize, len: usize) -> bool {
        let maps = super::lock(&self.maps.0);
        maps.range(..=addr)
            .next_back()
            .is_some_and(|(&base, m)| addr + len <= base + m.len)
    }

    /// Unmaps everything (the domain ended), writing read-write mappings back.
    pub(super) fn unmap_all(&self) {
        let maps = std::mem::take(&mut *super::lock(&self.maps.0));
        for (addr, m) in maps {
            let _ = self.write_back(addr, &m, addr, m.len);
            release(addr, m.len);
        }
    }
}
