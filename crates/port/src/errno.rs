//! The one error type of host calls: a Linux `errno` value.
//!
//! Every port call that can fail returns `Result<T, Errno>`. An `Errno` is exactly what
//! 9P2000.L's `Rlerror` carries (`ecode[4]`, a Linux errno), so a backend that forwards calls
//! to a 9P server passes the server's error through unchanged, and natives turn it into the
//! same Java exception (IOException with the OS's message, UnixException with the number,
//! SocketException, ...) whichever backend produced it.
//!
//! Owns the type, its constants (the numbers natives and backends test for) and its message
//! (the C library's `strerror` text, without Rust's " (os error N)" suffix).

use std::fmt;

/// A Linux error number (`errno`), such as [`Errno::ENOENT`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Errno(pub i32);

/// The result of a host call.
pub type PortResult<T> = Result<T, Errno>;

macro_rules! errno_constants {
    ($($name:ident),* $(,)?) => {
        impl Errno {
            $(
                #[doc = concat!("`", stringify!($name), "`")]
                pub const $name: Errno = Errno(libc::$name);
            )*
        }
    };
}

errno_constants!(
    EACCES,
    EADDRINUSE,
    EADDRNOTAVAIL,
    EAFNOSUPPORT,
    EAGAIN,
    EALREADY,
    EBADF,
    ECANCELED,
    ECHILD,
    ECONNABORTED,
    ECONNREFUSED,
    ECONNRESET,
    EEXIST,
    EHOSTUNREACH,
    EINPROGRESS,
    EINTR,
    EINVAL,
    EIO,
    EISCONN,
    EISDIR,
    ELOOP,
    EMFILE,
    ENAMETOOLONG,
    ENETUNREACH,
    ENODEV,
    ENOENT,
    ENOEXEC,
    ENOMEM,
    ENOPROTOOPT,
    ENOTCONN,
    ENOTDIR,
    ENOLCK,
    EOPNOTSUPP,
    EPERM,
    EPIPE,
    EPROTO,
    EPROTONOSUPPORT,
    ERANGE,
    EROFS,
    ESPIPE,
    ESRCH,
    ESTALE,
    ETIMEDOUT,
);

impl Errno {
    /// The calling thread's `errno` after a failed system call (EIO if the OS gave none).
    pub fn last() -> Errno {
        Errno::from(std::io::Error::last_os_error())
    }

    /// The number, as Java's UnixException and the 9P wire hold it.
    pub fn raw(self) -> i32 {
        self.0
    }

    /// The OS's message for it ("No such file or directory").
    pub fn message(self) -> String {
        let mut m = std::io::Error::from_raw_os_error(self.0).to_string();
        if let Some(i) = m.find(" (os error") {
            m.truncate(i);
        }
        m
    }
}

impl From<std::io::Error> for Errno {
    /// The error's OS number; an error that has none (one Rust made up) is EIO.
    fn from(e: std::io::Error) -> Errno {
        Errno(e.raw_os_error().unwrap_or(libc::EIO))
    }
}

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl fmt::Debug for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Errno({}: {})", self.0, self.message())
    }
}

impl std::error::Error for Errno {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_os_strings() {
        assert_eq!(Errno::ENOENT.message(), "No such file or directory");
        assert_eq!(Errno::ENOENT.to_string(), "No such file or directory");
        assert_eq!(
            Errno::from(std::io::Error::from_raw_os_error(libc::EACCES)),
            Errno::EACCES
        );
        assert_eq!(Errno::from(std::io::Error::other("made up")), Errno::EIO);
    }
}
