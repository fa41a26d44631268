//! Owns [`Errno`]: the Linux error number carried by `Rlerror`, with the constants the
//! client, the server and the export use.

use std::fmt;

/// A Linux `errno` value as 9P2000.L's `Rlerror` carries it (`ecode[4]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Errno(pub u32);

impl Errno {
    pub const EPERM: Errno = Errno(1);
    pub const ENOENT: Errno = Errno(2);
    pub const EIO: Errno = Errno(5);
    pub const EBADF: Errno = Errno(9);
    pub const EAGAIN: Errno = Errno(11);
    pub const ENOMEM: Errno = Errno(12);
    pub const EACCES: Errno = Errno(13);
    pub const EBUSY: Errno = Errno(16);
    pub const EEXIST: Errno = Errno(17);
    pub const EXDEV: Errno = Errno(18);
    pub const ENOTDIR: Errno = Errno(20);
    pub const EISDIR: Errno = Errno(21);
    pub const EINVAL: Errno = Errno(22);
    pub const ENOSPC: Errno = Errno(28);
    pub const EROFS: Errno = Errno(30);
    pub const ERANGE: Errno = Errno(34);
    pub const ENAMETOOLONG: Errno = Errno(36);
    pub const ENOSYS: Errno = Errno(38);
    pub const ENOTEMPTY: Errno = Errno(39);
    pub const ELOOP: Errno = Errno(40);
    pub const ENODATA: Errno = Errno(61);
    pub const EPROTO: Errno = Errno(71);
    pub const EOPNOTSUPP: Errno = Errno(95);

    /// The errno of a host I/O error (`EIO` when it has none).
    pub fn from_io(e: &std::io::Error) -> Errno {
        e.raw_os_error()
            .and_then(|n| u32::try_from(n).ok())
            .map_or(Errno::EIO, Errno)
    }

    /// The host I/O error with this number.
    pub fn to_io(self) -> std::io::Error {
        std::io::Error::from_raw_os_error(i32::try_from(self.0).unwrap_or(i32::MAX))
    }
}

impl From<std::io::Error> for Errno {
    fn from(e: std::io::Error) -> Errno {
        Errno::from_io(&e)
    }
}

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (errno {})", self.to_io(), self.0)
    }
}

impl std::error::Error for Errno {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_io_errors() {
        let e = std::io::Error::from_raw_os_error(2);
        assert_eq!(Errno::from_io(&e), Errno::ENOENT);
        assert_eq!(Errno::ENOENT.to_io().raw_os_error(), Some(2));
        let plain = std::io::Error::other("no number");
        assert_eq!(Errno::from_io(&plain), Errno::EIO);
        assert!(Errno::EROFS.to_string().contains("30"));
    }
}
