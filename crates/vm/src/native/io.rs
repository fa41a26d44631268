//! Natives of java.io: FileDescriptor, FileInputStream, FileOutputStream, RandomAccessFile,
//! UnixFileSystem, Console and ObjectStreamClass. Every host interaction goes through [`port`].

use super::{Registry, jfd, jint, nonnull, ret_bool, ret_int};
use crate::heap::ObjRef;
use crate::jdk::{self, JdkClass};
use crate::thread::{JResult, JThread, Thrown};
use base::layout::ARRAY_BASE;
use port::{self, Fd, OpenMode, PortResult};

pub fn register(r: &mut Registry) {
    let osc = "java/io/ObjectStreamClass";
    r.add(osc, "initNative", "()V", |_, _| Ok(0));
    r.add(
        osc,
        "hasStaticInitializer",
        "(Ljava/lang/Class;)Z",
        has_static_initializer,
    );
    let fd = "java/io/FileDescriptor";
    r.add(fd, "getHandle", "(I)J", |_, _| Ok(-1i64 as u64));
    r.add(fd, "getAppend", "(I)Z", |t, a| {
        Ok(ret_bool(t.domain.host().io_is_append(jfd(a[0]))))
    });
    r.add(fd, "close0", "()V", fd_close0);
    // The Cleaner's last-chance close of a stream dropped unclosed (FileCleanable): the
    // descriptor (its handle is Windows'), IOException with the OS message when that fails.
    r.add("java/io/FileCleanable", "cleanupClose0", "(IJ)V", |t, a| {
        let fd = jfd(a[0]);
        if fd.0 != -1 {
            let r = t.domain.host().io_close(fd);
            io_result(t, r)?;
        }
        Ok(0)
    });
    r.add(fd, "sync", "()V", |t, a| {
        let fdo = nonnull(t, a[0])?;
        let fd = fd_of(t, fdo)?;
        match t.domain.host().io_fsync(fd) {
            Ok(()) => Ok(0),
            Err(_) => Err(t.throw_new("java/io/SyncFailedException", Some("sync failed"))),
        }
    });

    let fos = "java/io/FileOutputStream";
    r.add(fos, "writeBytes", "([BIIZ)V", fos_write_bytes);
    r.add(fos, "write", "(IZ)V", fos_write);
    r.add(fos, "open0", "(Ljava/lang/String;Z)V", fos_open);

    let fis = "java/io/FileInputStream";
    r.add(fis, "open0", "(Ljava/lang/String;)V", fis_open);
    r.add(fis, "read0", "()I", fis_read0);
    r.add(fis, "readBytes", "([BII)I", fis_read_bytes);
    r.add(fis, "skip0", "(J)J", fis_skip);
    r.add(fis, "available0", "()I", fis_available);
    r.add(fis, "length0", "()J", |t, a| {
        let fd = stream_fd(t, a[0])?;
        io_result(t, t.domain.host().io_file_length(fd)).map(|v| v as u64)
    });
    r.add(fis, "position0", "()J", |t, a| {
        let fd = stream_fd(t, a[0])?;
        io_result(t, t.domain.host().io_seek(fd, 0, port::Whence::Current)).map(|v| v as u64)
    });

    let raf = "java/io/RandomAccessFile";
    r.add(raf, "open0", "(Ljava/lang/String;I)V", raf_open);
    r.add(raf, "read0", "()I", fis_read0);
    r.add(raf, "readBytes", "([BII)I", fis_read_bytes);
    r.add(raf, "write0", "(I)V", |t, a| fos_write(t, &[a[0], a[1], 0]));
    r.add(raf, "writeBytes", "([BII)V", |t, a| {
        fos_write_bytes(t, &[a[0], a[1], a[2], a[3], 0])
    });
    r.add(raf, "getFilePointer", "()J", |t, a| {
        let fd = stream_fd(t, a[0])?;
        io_result(t, t.domain.host().io_seek(fd, 0, port::Whence::Current)).map(|v| v as u64)
    });
    r.add(raf, "seek0", "(J)V", |t, a| {
        let fd = stream_fd(t, a[0])?;
        io_result(
            t,
            t.domain
                .host()
                .io_seek(fd, a[1] as i64, port::Whence::Start),
        )
        .map(|_| 0)
    });
    r.add(raf, "length", "()J", |t, a| {
        let fd = stream_fd(t, a[0])?;
        io_result(t, t.domain.host().io_file_length(fd)).map(|v| v as u64)
    });
    r.add(raf, "setLength", "(J)V", |t, a| {
        let fd = stream_fd(t, a[0])?;
        io_result(t, t.domain.host().io_set_length(fd, a[1] as i64)).map(|_| 0)
    });

    let ufs = "java/io/UnixFileSystem";
    r.add(
        ufs,
        "canonicalize0",
        "(Ljava/lang/String;)Ljava/lang/String;",
        ufs_canonicalize,
    );
    r.add(
        ufs,
        "getBooleanAttributes0",
        "(Ljava/io/File;)I",
        ufs_boolean_attributes,
    );
    r.add(ufs, "checkAccess", "(Ljava/io/File;I)Z", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(ret_bool(t.domain.host().io_access(&p, jint(a[2]))))
    });
    r.add(ufs, "getLastModifiedTime", "(Ljava/io/File;)J", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(t.domain.host().io_stat(&p).map_or(0, |s| s.mtime_ms) as u64)
    });
    r.add(ufs, "getLength", "(Ljava/io/File;)J", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(t.domain.host().io_stat(&p).map_or(0, |s| s.size) as u64)
    });
    r.add(ufs, "setPermission", "(Ljava/io/File;IZZ)Z", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(ret_bool(t.domain.host().io_set_permission(
            &p,
            jint(a[2]),
            a[3] != 0,
            a[4] != 0,
        )))
    });
    r.add(
        ufs,
        "createFileExclusively",
        "(Ljava/lang/String;)Z",
        |t, a| {
            let n = nonnull(t, a[1])?;
            let p = t.rust_string(n);
            match t.domain.host().io_create_exclusive(&p) {
                Ok(created) => Ok(ret_bool(created)),
                Err(e) => Err(io_exception(t, &e.message())),
            }
        },
    );
    r.add(ufs, "delete0", "(Ljava/io/File;)Z", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(ret_bool(t.domain.host().io_delete(&p)))
    });
    r.add(ufs, "list", "(Ljava/io/File;)[Ljava/lang/String;", ufs_list);
    r.add(ufs, "createDirectory", "(Ljava/io/File;)Z", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(ret_bool(t.domain.host().io_mkdir(&p)))
    });
    r.add(ufs, "rename0", "(Ljava/io/File;Ljava/io/File;)Z", |t, a| {
        let from = file_path(t, a[1])?;
        let to = file_path(t, a[2])?;
        Ok(ret_bool(t.domain.host().io_rename(&from, &to)))
    });
    r.add(ufs, "setLastModifiedTime", "(Ljava/io/File;J)Z", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(ret_bool(t.domain.host().io_set_mtime(&p, a[2] as i64)))
    });
    r.add(ufs, "setReadOnly", "(Ljava/io/File;)Z", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(ret_bool(
            t.domain.host().io_set_permission(&p, 2, false, false),
        ))
    });
    r.add(ufs, "getSpace", "(Ljava/io/File;I)J", |t, a| {
        let p = file_path(t, a[1])?;
        Ok(t.domain.host().io_space(&p, jint(a[2])) as u64)
    });
    r.add(ufs, "getNameMax0", "(Ljava/lang/String;)J", |_, _| Ok(255));

    let con = "java/io/Console";
    r.add(con, "istty", "()Z", |t, _| {
        Ok(ret_bool(
            t.domain.host().isatty(Fd(0)) && t.domain.host().isatty(Fd(1)),
        ))
    });
    // Newer 17 updates ask instead for one bit per standard stream (TTY_STDIN/STDOUT/STDERR_MASK).
    r.add(con, "ttyStatus", "()I", |t, _| {
        Ok((0..3)
            .filter(|&fd| t.domain.host().isatty(Fd(fd)))
            .fold(0u64, |bits, fd| bits | 1 << fd))
    });
    r.add(con, "encoding", "()Ljava/lang/String;", |_, _| Ok(0));
    r.add(con, "echo", "(Z)Z", |_, _| Ok(1));
}

/// The offset of the `fd` field (a FileDescriptor) of `s`, a FileInputStream,
/// FileOutputStream or RandomAccessFile (their natives share code).
fn stream_fd_field(t: &mut JThread, s: ObjRef) -> JResult<usize> {
    let c = s.class();
    let fis = t.jdk_class::<jdk::FileInputStream>()?;
    if c.is_subtype_of(fis.class()) {
        return Ok(fis.fd);
    }
    let fos = t.jdk_class::<jdk::FileOutputStream>()?;
    if c.is_subtype_of(fos.class()) {
        return Ok(fos.fd);
    }
    Ok(t.jdk::<jdk::RandomAccessFile>(s)?.fd)
}

/// The descriptor whose number a FileDescriptor holds (-1 when closed).
fn fd_of(t: &mut JThread, fdo: ObjRef) -> JResult<Fd> {
    Ok(Fd(fdo.read::<i32>(t.jdk::<jdk::FileDescriptor>(fdo)?.fd)))
}

/// The `fd` of a java.io.FileDescriptor argument (for the natives of every package).
pub(super) fn fdval(t: &mut JThread, v: u64) -> JResult<Fd> {
    let fdo = nonnull(t, v)?;
    fd_of(t, fdo)
}

/// Makes FileDescriptor `fdo` hold `fd`'s number.
pub(super) fn set_fd(t: &mut JThread, fdo: ObjRef, fd: Fd) -> JResult<()> {
    fdo.write::<i32>(t.jdk::<jdk::FileDescriptor>(fdo)?.fd, fd.0);
    Ok(())
}

/// The OS descriptor behind a stream object (its `fd` FileDescriptor field).
fn stream_fd(t: &mut JThread, this: u64) -> JResult<Fd> {
    let s = nonnull(t, this)?;
    let field = stream_fd_field(t, s)?;
    let Some(fdo) = s.read_ref(field) else {
        return Err(io_exception(t, "Stream Closed"));
    };
    let fd = fd_of(t, fdo)?;
    if fd.0 < 0 {
        return Err(io_exception(t, "Stream Closed"));
    }
    Ok(fd)
}

fn io_exception(t: &mut JThread, msg: &str) -> Thrown {
    t.throw_new("java/io/IOException", Some(msg))
}

fn io_result<T>(t: &mut JThread, r: PortResult<T>) -> JResult<T> {
    r.map_err(|e| io_exception(t, &e.message()))
}

fn fd_close0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fdo = nonnull(t, a[0])?;
    let fd = fd_of(t, fdo)?;
    if fd.0 >= 0 {
        set_fd(t, fdo, Fd(-1))?;
        // Standard streams are not closed at the OS level, like the JDK's fileDescriptorClose.
        if fd.0 > 2 {
            io_result(t, t.domain.host().io_close(fd))?;
        }
    }
    Ok(0)
}

fn byte_range(t: &mut JThread, b: u64, off: i32, len: i32) -> JResult<(ObjRef, usize, usize)> {
    let arr = nonnull(t, b)?;
    let n = arr.array_len();
    if off < 0 || len < 0 || off as usize + len as usize > n {
        return Err(t.throw_new("java/lang/IndexOutOfBoundsException", None));
    }
    Ok((arr, off as usize, len as usize))
}

fn fos_write_bytes(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = stream_fd(t, a[0])?;
    let (arr, off, len) = byte_range(t, a[1], jint(a[2]), jint(a[3]))?;
    let data = arr.array_slice::<u8>()[off..off + len].to_vec();
    // A write may wait indefinitely (a full pipe to a child process): others may collect.
    let backend = t.domain.host().clone();
    let r = t.blocking(|| backend.io_write_all(fd, &data));
    io_result(t, r)?;
    Ok(0)
}

fn fos_write(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = stream_fd(t, a[0])?;
    let backend = t.domain.host().clone();
    let r = t.blocking(|| backend.io_write_all(fd, &[a[1] as u8]));
    io_result(t, r)?;
    Ok(0)
}

fn set_stream_fd(t: &mut JThread, this: u64, fd: Fd) -> JResult<()> {
    let s = nonnull(t, this)?;
    let field = stream_fd_field(t, s)?;
    let Some(fdo) = s.read_ref(field) else {
        return Err(t.throw_new("java/lang/NullPointerException", Some("fd")));
    };
    set_fd(t, fdo, fd)
}

fn open_path(t: &mut JThread, this: u64, path: u64, mode: OpenMode) -> JResult<u64> {
    let p = nonnull(t, path)?;
    let p = t.rust_string(p);
    match t.domain.host().io_open(&p, mode) {
        Ok(fd) => {
            set_stream_fd(t, this, fd)?;
            if matches!(mode, OpenMode::Append) {
                let s = nonnull(t, this)?;
                let field = stream_fd_field(t, s)?;
                if let Some(fdo) = s.read_ref(field) {
                    fdo.write::<u8>(t.jdk::<jdk::FileDescriptor>(fdo)?.append, 1);
                }
            }
            Ok(0)
        }
        Err(e) => {
            // A path the host cannot take (a NUL inside) is EINVAL to the port.
            let msg = if p.contains('\0') {
                format!("{p} (Invalid file path)")
            } else {
                format!("{p} ({e})")
            };
            Err(t.throw_new("java/io/FileNotFoundException", Some(&msg)))
        }
    }
}

fn fos_open(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let mode = if a[2] != 0 {
        OpenMode::Append
    } else {
        OpenMode::Truncate
    };
    open_path(t, a[0], a[1], mode)
}

fn fis_open(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    open_path(t, a[0], a[1], OpenMode::Read)
}

fn raf_open(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    // RandomAccessFile modes: O_RDONLY = 1, O_RDWR = 2, O_SYNC = 4, O_DSYNC = 8
    let mode = if jint(a[2]) & 2 != 0 {
        OpenMode::ReadWrite
    } else {
        OpenMode::Read
    };
    open_path(t, a[0], a[1], mode)
}

fn fis_read0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = stream_fd(t, a[0])?;
    let mut b = [0u8; 1];
    // A read may wait indefinitely (a terminal, a pipe): other threads may collect meanwhile.
    let backend = t.domain.host().clone();
    let r = t.blocking(|| backend.io_read(fd, &mut b));
    let n = io_result(t, r)?;
    Ok(ret_int(if n == 0 { -1 } else { b[0] as i32 }))
}

fn fis_read_bytes(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = stream_fd(t, a[0])?;
    let (arr, off, len) = byte_range(t, a[1], jint(a[2]), jint(a[3]))?;
    if len == 0 {
        return Ok(0);
    }
    let backend = t.domain.host().clone();
    // What the backend holds in memory (the 9P file cache) is copied straight into the
    // array: the call never waits, so the array cannot move under it.
    let dst = &mut arr.array_slice::<u8>()[off..off + len];
    let mut filled = 0;
    let held = backend.io_read_held(fd, len, &mut |chunk| {
        dst[filled..filled + chunk.len()].copy_from_slice(chunk);
        filled += chunk.len();
    });
    if let Some(r) = held {
        let n = io_result(t, r)?;
        return Ok(ret_int(if n == 0 { -1 } else { n as i32 }));
    }
    let mut buf = vec![0u8; len];
    let r = t.blocking(|| backend.io_read(fd, &mut buf));
    let n = io_result(t, r)?;
    if n == 0 {
        return Ok(ret_int(-1));
    }
    // The array may have moved while this thread was blocked: re-read the argument.
    let arr = nonnull(t, t.arg(1))?;
    arr.array_slice::<u8>()[off..off + n].copy_from_slice(&buf[..n]);
    Ok(ret_int(n as i32))
}

fn fis_skip(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = stream_fd(t, a[0])?;
    let n = a[1] as i64;
    let cur = io_result(t, t.domain.host().io_seek(fd, 0, port::Whence::Current))?;
    let end = io_result(t, t.domain.host().io_seek(fd, n, port::Whence::Current))?;
    Ok((end - cur) as u64)
}

fn fis_available(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = stream_fd(t, a[0])?;
    let n = io_result(t, t.domain.host().io_available(fd))?;
    Ok(ret_int(n.min(i32::MAX as i64) as i32))
}

fn file_path(t: &mut JThread, file: u64) -> JResult<String> {
    let f = nonnull(t, file)?;
    let p = f.read_ref(t.jdk::<jdk::File>(f)?.path);
    Ok(p.map(|p| t.rust_string(p)).unwrap_or_default())
}

fn ufs_canonicalize(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let p = nonnull(t, a[1])?;
    let p = t.rust_string(p);
    let c = t.domain.host().io_canonicalize(&p);
    Ok(t.new_string(&c)?.slot())
}

fn ufs_boolean_attributes(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let p = file_path(t, a[1])?;
    // BA_EXISTS = 1, BA_REGULAR = 2, BA_DIRECTORY = 4
    let v = match t.domain.host().io_stat(&p) {
        Some(s) => {
            1 | if s.is_dir {
                4
            } else if s.is_file {
                2
            } else {
                0
            }
        }
        None => 0,
    };
    Ok(ret_int(v))
}

fn ufs_list(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let p = file_path(t, a[1])?;
    let Some(names) = t.domain.host().io_list_dir(&p) else {
        return Ok(0);
    };
    let string = t.vm.wk().string;
    let arr = t.new_array_of(string, names.len() as i32)?;
    for (i, n) in names.iter().enumerate() {
        let s = t.new_string(n)?;
        t.domain.heap.write_ref(arr, ARRAY_BASE + i * 8, Some(s));
    }
    Ok(arr.slot())
}

/// ObjectStreamClass.hasStaticInitializer: whether the class itself declares `<clinit>` (for
/// the default serialVersionUID). The JDK's C code looks the method up with JNI's
/// GetStaticMethodID, which initializes the class; so does this.
fn has_static_initializer(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let c = super::reflect::mirror_class(t, a[0])?;
    t.ensure_initialized(c)?;
    Ok(ret_bool(c.declared_method("<clinit>", "()V").is_some()))
}
