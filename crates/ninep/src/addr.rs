//! Owns 9P transport addresses (`unix:PATH`, `tcp:HOST:PORT`), the connected [`Stream`] both
//! sides read and write, and the [`Listener`] a server accepts on.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;

/// Where a 9P server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Addr {
    /// `unix:PATH`
    Unix(PathBuf),
    /// `tcp:HOST:PORT`, kept as `HOST:PORT`.
    Tcp(String),
}

/// A malformed address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddrError(pub String);

impl fmt::Display for AddrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad 9P address `{}` (expected unix:PATH or tcp:HOST:PORT)",
            self.0
        )
    }
}

impl std::error::Error for AddrError {}

impl Addr {
    /// Parses `unix:PATH` or `tcp:HOST:PORT` (a port number is required).
    pub fn parse(s: &str) -> Result<Addr, AddrError> {
        let bad = || AddrError(s.to_string());
        if let Some(path) = s.strip_prefix("unix:") {
            return if path.is_empty() {
                Err(bad())
            } else {
                Ok(Addr::Unix(PathBuf::from(path)))
            };
        }
        let hostport = s.strip_prefix("tcp:").ok_or_else(bad)?;
        let (host, port) = hostport.rsplit_once(':').ok_or_else(bad)?;
        if host.is_empty() || port.parse::<u16>().is_err() {
            return Err(bad());
        }
        Ok(Addr::Tcp(hostport.to_string()))
    }

    /// Connects to the address.
    pub fn connect(&self) -> io::Result<Stream> {
        match self {
            Addr::Unix(p) => UnixStream::connect(p).map(Stream::Unix),
            Addr::Tcp(hp) => {
                let s = TcpStream::connect(hp.as_str())?;
                s.set_nodelay(true)?;
                Ok(Stream::Tcp(s))
            }
        }
    }

    /// Listens on the address.
    pub fn listen(&self) -> io::Result<Listener> {
        match self {
            Addr::Unix(p) => UnixListener::bind(p).map(Listener::Unix),
            Addr::Tcp(hp) => TcpListener::bind(hp.as_str()).map(Listener::Tcp),
        }
    }
}

impl fmt::Display for Addr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Addr::Unix(p) => write!(f, "unix:{}", p.display()),
            Addr::Tcp(hp) => write!(f, "tcp:{hp}"),
        }
    }
}

/// A connected byte stream.
#[derive(Debug)]
pub enum Stream {
    Unix(UnixStream),
    Tcp(TcpStream),
}

impl Stream {
    pub fn try_clone(&self) -> io::Result<Stream> {
        match self {
            Stream::Unix(s) => s.try_clone().map(Stream::Unix),
            Stream::Tcp(s) => s.try_clone().map(Stream::Tcp),
        }
    }

    /// Sets how long a read waits (`None`: for ever).
    pub fn set_read_timeout(&self, t: Option<std::time::Duration>) -> io::Result<()> {
        match self {
            Stream::Unix(s) => s.set_read_timeout(t),
            Stream::Tcp(s) => s.set_read_timeout(t),
        }
    }

    /// The stream's descriptor.
    pub fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        use std::os::fd::AsFd;
        match self {
            Stream::Unix(s) => s.as_fd(),
            Stream::Tcp(s) => s.as_fd(),
        }
    }

    /// Shuts both directions down: a thread blocked reading the stream wakes with end of
    /// stream.
    pub fn shutdown(&self) {
        let _ = match self {
            Stream::Unix(s) => s.shutdown(Shutdown::Both),
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
        };
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.read(buf),
            Stream::Tcp(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.write(buf),
            Stream::Tcp(s) => s.write(buf),
        }
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.write_vectored(bufs),
            Stream::Tcp(s) => s.write_vectored(bufs),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A listening socket.
#[derive(Debug)]
pub enum Listener {
    Unix(UnixListener),
    Tcp(TcpListener),
}

impl Listener {
    /// Waits for the next connection.
    pub fn accept(&self) -> io::Result<Stream> {
        match self {
            Listener::Unix(l) => l.accept().map(|(s, _)| Stream::Unix(s)),
            Listener::Tcp(l) => {
                let (s, _) = l.accept()?;
                s.set_nodelay(true)?;
                Ok(Stream::Tcp(s))
            }
        }
    }

    /// The bound address (for `tcp:…:0`, the port chosen).
    pub fn local_addr(&self) -> io::Result<Addr> {
        match self {
            Listener::Unix(l) => {
                let a = l.local_addr()?;
                let p = a.as_pathname().map(PathBuf::from).unwrap_or_default();
                Ok(Addr::Unix(p))
            }
            Listener::Tcp(l) => Ok(Addr::Tcp(l.local_addr()?.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_forms_and_refuses_others() {
        assert_eq!(
            Addr::parse("unix:/run/gw.sock"),
            Ok(Addr::Unix("/run/gw.sock".into()))
        );
        assert_eq!(
            Addr::parse("tcp:127.0.0.1:564"),
            Ok(Addr::Tcp("127.0.0.1:564".into()))
        );
        assert_eq!(
            Addr::parse("tcp:[::1]:5640"),
            Ok(Addr::Tcp("[::1]:5640".into()))
        );
        for bad in [
            "unix:",
            "tcp:host",
            "tcp::80",
            "tcp:h:99999",
            "/path",
            "udp:h:1",
        ] {
            assert!(Addr::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Addr::parse("unix:/a").unwrap().to_string(), "unix:/a");
    }
}
