//! Code memory: where compiled functions live, executable and never writable at once.
//!
//! Owns the mappings and the code cache's budget (`-XX:ReservedCodeCacheSize`). Each function
//! gets pages of its own: they are mapped writable, filled, then made read-and-execute before
//! any thread can call into them, so no page is ever writable and executable (W^X) and no
//! running code shares a page being written. Compiled code is never freed yet: methods live
//! as long as their classes, and unloading compiled code comes with class unloading's
//! support for it. Hand-written (a few `mmap`/`mprotect` calls) because `cranelift-jit`'s
//! memory manager also owns symbol linking and assumes code it can free in bulk.

use std::ptr::NonNull;

/// Why code could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryError {
    /// The code cache's budget is spent.
    Full,
    /// The system refused a mapping (its errno).
    Map(i32),
}

/// The code cache: mappings handed out so far and the budget left.
#[derive(Debug)]
pub struct CodeMemory {
    used: usize,
    limit: usize,
    page: usize,
}

impl CodeMemory {
    /// A code cache of at most `limit` bytes (whole pages).
    pub fn new(limit: usize) -> CodeMemory {
        // SAFETY: sysconf has no memory-safety preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        CodeMemory {
            used: 0,
            limit,
            page: if page > 0 { page as usize } else { 4096 },
        }
    }

    /// Bytes of pages in use.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Copies `code` into fresh executable pages and returns its address.
    pub fn place(&mut self, code: &[u8]) -> Result<NonNull<u8>, MemoryError> {
        let len = code.len().max(1).div_ceil(self.page) * self.page;
        if self.used + len > self.limit {
            return Err(MemoryError::Full);
        }
        // SAFETY: an anonymous private mapping at an address the kernel chooses touches no
        // existing memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(MemoryError::Map(errno()));
        }
        // SAFETY: `p` is a fresh writable mapping of `len >= code.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(code.as_ptr(), p as *mut u8, code.len()) };
        // SAFETY: `p..p+len` is the mapping made above, owned here and not yet shared.
        if unsafe { libc::mprotect(p, len, libc::PROT_READ | libc::PROT_EXEC) } != 0 {
            let e = errno();
            // SAFETY: unmapping the mapping made above, which nothing else knows.
            unsafe { libc::munmap(p, len) };
            return Err(MemoryError::Map(e));
        }
        self.used += len;
        NonNull::new(p as *mut u8).ok_or(MemoryError::Map(0))
    }
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_whole_pages_and_enforced() {
        let mut m = CodeMemory::new(2 * 4096);
        if m.page != 4096 {
            return;
        }
        m.place(&[0xc3]).unwrap();
        assert_eq!(m.used(), 4096);
        m.place(&[0xc3; 10]).unwrap();
        assert_eq!(m.place(&[0xc3]), Err(MemoryError::Full));
    }
}
