//! Owns where the files of an application class path are read: the host's file system, or a
//! backend of the port (`--io=9p:...`: the class path's directories and jars are then files
//! of the 9P namespace, read through a backend of their own, which no domain's ending closes).
//! An application loader is keyed by its [`Files`] as well as its class path, so two domains
//! whose files are in different places never share one.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use port::{Fd, Host, IoSpec, OpenMode, Whence};

/// Where a class path's files are.
#[derive(Clone)]
pub enum Files {
    Host,
    /// A backend's namespace, whose working directory is `/`; the spec names it.
    Backend(Arc<dyn Host>, IoSpec),
}

impl Files {
    /// The files `spec` names: for a 9P spec, a new connection (the error is one line).
    pub fn open(spec: &IoSpec) -> Result<Files, String> {
        match spec {
            IoSpec::Host => Ok(Files::Host),
            s => {
                let host = port::remote::backend(s, port::held::Owner::SYSTEM)?;
                Ok(Files::Backend(host, s.clone()))
            }
        }
    }

    /// What distinguishes these files from others in a loader's key.
    pub fn key(&self) -> String {
        match self {
            Files::Host => String::new(),
            Files::Backend(_, s) => format!("{s}|"),
        }
    }

    /// `path` made absolute (against the host's working directory, or a backend's `/`).
    pub fn absolute(&self, path: &Path) -> PathBuf {
        match self {
            Files::Host => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
            Files::Backend(..) => Path::new("/").join(path),
        }
    }

    /// `path` canonical, when it exists.
    pub fn canonical(&self, path: &str) -> Option<String> {
        match self {
            Files::Host => std::fs::canonicalize(path)
                .ok()
                .map(|p| p.display().to_string()),
            Files::Backend(h, _) => h
                .realpath(path.as_bytes())
                .ok()
                .map(|p| String::from_utf8_lossy(&p).into_owned()),
        }
    }

    pub fn is_dir(&self, path: &Path) -> bool {
        match self {
            Files::Host => path.is_dir(),
            Files::Backend(h, _) => h.stat(bytes(path), true).is_ok_and(|s| s.is_dir()),
        }
    }

    /// A plain file, opened for reading a jar (None for anything else).
    pub fn open_file(&self, path: &Path) -> Option<JarFile> {
        match self {
            Files::Host => {
                // Without blocking (a FIFO with no writer would hang the VM).
                let f = port::fs::open_without_blocking(path).ok()?;
                f.metadata().ok()?.is_file().then_some(JarFile::Host(f))
            }
            Files::Backend(h, _) => {
                let st = h.stat(bytes(path), true).ok()?;
                if !st.is_file() {
                    return None;
                }
                let fd = h.io_open(&path.to_string_lossy(), OpenMode::Read).ok()?;
                Some(JarFile::Backend(BackendFile {
                    host: h.clone(),
                    fd,
                }))
            }
        }
    }

    /// The size of `path` if it is a plain file, 0 for another kind (a device, a FIFO), None
    /// for a directory or a missing file.
    pub fn file_size(&self, path: &Path) -> Option<u64> {
        match self {
            Files::Host => {
                let meta = std::fs::metadata(path).ok()?;
                (!meta.is_dir()).then(|| if meta.is_file() { meta.len() } else { 0 })
            }
            Files::Backend(h, _) => {
                let st = h.stat(bytes(path), true).ok()?;
                (!st.is_dir()).then(|| if st.is_file() { st.size as u64 } else { 0 })
            }
        }
    }
}

impl Files {
    /// For a backend: the first `bound(size)` bytes of file `path` (of a device or FIFO,
    /// whose size is 0, none); None for a directory or a missing file. One open, one status
    /// of the open file, the reads, one close.
    pub fn read_sized(&self, path: &Path, bound: impl FnOnce(u64) -> u64) -> Option<Vec<u8>> {
        let Files::Backend(h, _) = self else {
            return None;
        };
        let fd = h.io_open(&path.to_string_lossy(), OpenMode::Read).ok()?;
        let file = BackendFile {
            host: h.clone(),
            fd,
        };
        let st = h.fstat(fd).ok()?;
        let size = bound(if st.is_file() { st.size as u64 } else { 0 });
        let mut v = Vec::with_capacity(size as usize);
        JarFile::Backend(file).take(size).read_to_end(&mut v).ok()?;
        Some(v)
    }
}

fn bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// A jar being read: a host file, or a backend's descriptor (closed when dropped).
pub enum JarFile {
    Host(std::fs::File),
    Backend(BackendFile),
}

/// A descriptor of a backend, read as a stream.
pub struct BackendFile {
    host: Arc<dyn Host>,
    fd: Fd,
}

impl Drop for BackendFile {
    fn drop(&mut self) {
        let _ = self.host.io_close(self.fd);
    }
}

fn io_error(e: port::Errno) -> std::io::Error {
    std::io::Error::from_raw_os_error(e.raw())
}

impl Read for JarFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            JarFile::Host(f) => f.read(buf),
            JarFile::Backend(b) => b.host.io_read(b.fd, buf).map_err(io_error),
        }
    }
}

impl Seek for JarFile {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        match self {
            JarFile::Host(f) => f.seek(pos),
            JarFile::Backend(b) => b.seek(pos),
        }
    }
}

impl BackendFile {
    fn seek(&self, pos: SeekFrom) -> std::io::Result<u64> {
        let h = &self.host;
        let to = match pos {
            SeekFrom::Start(n) => i64::try_from(n).map_err(|_| io_error(port::Errno::EINVAL))?,
            SeekFrom::Current(d) => h.io_seek(self.fd, 0, Whence::Current).map_err(io_error)? + d,
            SeekFrom::End(d) => h.io_file_length(self.fd).map_err(io_error)? + d,
        };
        if to < 0 {
            return Err(io_error(port::Errno::EINVAL));
        }
        h.io_seek(self.fd, to, Whence::Start)
            .map(|n| n as u64)
            .map_err(io_error)
    }
}
