//! Natives of sun.nio.fs and sun.nio.ch (the NIO file system and file channels) on Linux,
//! following the JDK's libnio. Host calls go through [`port::fs`].
//!
//! UnixNativeDispatcher natives report failures as `sun.nio.fs.UnixException(errno)`; the
//! sun.nio.ch natives throw IOException with the OS message or return IOStatus codes. Paths
//! arrive as addresses of NUL-terminated NativeBuffers; I/O buffers as native addresses.

use super::io::fdval;
use super::{Registry, jfd, jint, jlong, nonnull, ret_bool, ret_fd, ret_int};
use crate::heap::ObjRef;
use crate::jdk;
use crate::thread::{JResult, JThread, Thrown};
use port::fs;
use port::{DirStream, Errno, Fd, MountTable, PortResult};

pub fn register(r: &mut Registry) {
    register_unix_dispatcher(r);
    register_linux_dispatcher(r);
    register_file_dispatcher(r);
    register_channels(r);
    register_inherited_channel(r);
}

// IOStatus codes.
const IOS_EOF: i64 = -1;
const IOS_UNAVAILABLE: i64 = -2;
const IOS_INTERRUPTED: i64 = -3;
const IOS_UNSUPPORTED_CASE: i64 = -6;

// UnixNativeDispatcher capability bits.
const SUPPORTS_OPENAT: i32 = 1 << 1;
const SUPPORTS_FUTIMES: i32 = 1 << 2;
const SUPPORTS_FUTIMENS: i32 = 1 << 3;
const SUPPORTS_LUTIMES: i32 = 1 << 4;
const SUPPORTS_XATTR: i32 = 1 << 5;
const SUPPORTS_BIRTHTIME: i32 = 1 << 16;

// ---- helpers ----

/// The NUL-terminated path at native address `v`.
fn path(v: u64) -> Vec<u8> {
    fs::read_cstring(v as usize)
}

fn new_unix_exception(t: &mut JThread, errno: Errno) -> JResult<ObjRef> {
    let c = t.load_boot("sun/nio/fs/UnixException")?;
    t.construct(c, "(I)V", &[ret_int(errno.raw())])
}

/// Throws `sun.nio.fs.UnixException(errno)`.
fn unix_exception(t: &mut JThread, errno: Errno) -> Thrown {
    match new_unix_exception(t, errno) {
        Ok(e) => {
            t.exception = Some(e);
            Thrown
        }
        Err(thrown) => thrown,
    }
}

/// Converts a port result, throwing UnixException on failure.
fn ux<T>(t: &mut JThread, r: PortResult<T>) -> JResult<T> {
    r.map_err(|e| unix_exception(t, e))
}

/// IOException with the OS message for `errno` (JNU_ThrowIOExceptionWithLastError).
pub(super) fn io_exception(t: &mut JThread, errno: Errno) -> Thrown {
    let msg = errno.message();
    t.throw_new("java/io/IOException", Some(&msg))
}

fn io<T>(t: &mut JThread, r: PortResult<T>) -> JResult<T> {
    r.map_err(|e| io_exception(t, e))
}

/// libnio's `handle()`: a failed call becomes IOS_INTERRUPTED on EINTR, else IOException.
fn handle(t: &mut JThread, r: PortResult<i64>) -> JResult<u64> {
    match r {
        Ok(v) => Ok(v as u64),
        Err(Errno::EINTR) => Ok(IOS_INTERRUPTED as u64),
        Err(e) => Err(io_exception(t, e)),
    }
}

/// libnio's `convertReturnVal`: maps a read/write result to a count or an IOStatus code.
fn convert(t: &mut JThread, r: PortResult<usize>, reading: bool) -> JResult<i64> {
    match r {
        Ok(0) if reading => Ok(IOS_EOF),
        Ok(n) => Ok(n as i64),
        Err(Errno::EAGAIN) => Ok(IOS_UNAVAILABLE),
        Err(Errno::EINTR) => Ok(IOS_INTERRUPTED),
        Err(e) => Err(io_exception(t, e)),
    }
}

fn ret_i64(v: i64) -> u64 {
    v as u64
}

fn byte_array(t: &mut JThread, bytes: &[u8]) -> JResult<u64> {
    Ok(t.new_byte_array(bytes)?.slot())
}

/// Fills a UnixFileAttributes object from a stat result.
fn set_attrs(t: &mut JThread, attrs: u64, s: &fs::FileStat) -> JResult<u64> {
    let a = nonnull(t, attrs)?;
    let f = t.jdk::<jdk::UnixFileAttributes>(a)?;
    let set_int = |off: usize, v: i32| a.write::<i32>(off, v);
    let set_long = |off: usize, v: i64| a.write::<i64>(off, v);
    set_int(f.mode, s.mode as i32);
    set_long(f.ino, s.ino as i64);
    set_long(f.dev, s.dev as i64);
    set_long(f.rdev, s.rdev as i64);
    set_int(f.nlink, s.nlink as i32);
    set_int(f.uid, s.uid as i32);
    set_int(f.gid, s.gid as i32);
    set_long(f.size, s.size);
    set_long(f.atime_sec, s.atime_sec);
    set_long(f.atime_nsec, s.atime_nsec);
    set_long(f.mtime_sec, s.mtime_sec);
    set_long(f.mtime_nsec, s.mtime_nsec);
    set_long(f.ctime_sec, s.ctime_sec);
    set_long(f.ctime_nsec, s.ctime_nsec);
    set_long(f.birthtime_sec, s.birthtime_sec);
    set_long(f.birthtime_nsec, s.birthtime_nsec);
    Ok(0)
}

// ---- sun.nio.fs.UnixNativeDispatcher ----

fn register_unix_dispatcher(r: &mut Registry) {
    let u = "sun/nio/fs/UnixNativeDispatcher";
    r.add(u, "init", "()I", und_init);
    r.add(u, "getcwd", "()[B", |t, _| {
        let cwd = ux(t, t.domain.host().getcwd())?;
        byte_array(t, &cwd)
    });
    r.add(u, "dup", "(I)I", |t, a| {
        ux(t, t.domain.host().dup(jfd(a[0]))).map(ret_fd)
    });
    r.add(u, "open0", "(JII)I", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .open(&path(a[0]), jint(a[2]), jint(a[3]) as u32),
        )
        .map(ret_fd)
    });
    r.add(u, "openat0", "(IJII)I", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .openat(jfd(a[0]), &path(a[1]), jint(a[3]), jint(a[4]) as u32),
        )
        .map(ret_fd)
    });
    r.add(u, "close0", "(I)V", |t, a| {
        ux(t, t.domain.host().close(jfd(a[0]))).map(|_| 0)
    });
    r.add(u, "rewind", "(J)V", |t, a| {
        ux(t, t.domain.host().mount_table_rewind(MountTable(a[0]))).map(|_| 0)
    });
    r.add(u, "getlinelen", "(J)I", |t, a| {
        let n = ux(t, t.domain.host().mount_table_line_len(MountTable(a[0])))?;
        Ok(ret_int(n.map_or(-1, |n| n.min(i32::MAX as usize) as i32)))
    });
    r.add(u, "link0", "(JJ)V", |t, a| {
        ux(t, t.domain.host().link(&path(a[0]), &path(a[2]))).map(|_| 0)
    });
    r.add(u, "unlink0", "(J)V", |t, a| {
        ux(t, t.domain.host().unlink(&path(a[0]))).map(|_| 0)
    });
    r.add(u, "unlinkat0", "(IJI)V", |t, a| {
        ux(
            t,
            t.domain.host().unlinkat(jfd(a[0]), &path(a[1]), jint(a[3])),
        )
        .map(|_| 0)
    });
    r.add(u, "mknod0", "(JIJ)V", |t, a| {
        ux(
            t,
            t.domain.host().mknod(&path(a[0]), jint(a[2]) as u32, a[3]),
        )
        .map(|_| 0)
    });
    r.add(u, "rename0", "(JJ)V", |t, a| {
        ux(t, t.domain.host().rename(&path(a[0]), &path(a[2]))).map(|_| 0)
    });
    r.add(u, "renameat0", "(IJIJ)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .renameat(jfd(a[0]), &path(a[1]), jfd(a[3]), &path(a[4])),
        )
        .map(|_| 0)
    });
    r.add(u, "mkdir0", "(JI)V", |t, a| {
        ux(t, t.domain.host().mkdir(&path(a[0]), jint(a[2]) as u32)).map(|_| 0)
    });
    r.add(u, "rmdir0", "(J)V", |t, a| {
        ux(t, t.domain.host().rmdir(&path(a[0]))).map(|_| 0)
    });
    r.add(u, "readlink0", "(J)[B", |t, a| {
        let target = ux(t, t.domain.host().readlink(&path(a[0])))?;
        byte_array(t, &target)
    });
    r.add(u, "realpath0", "(J)[B", |t, a| {
        let real = ux(t, t.domain.host().realpath(&path(a[0])))?;
        byte_array(t, &real)
    });
    r.add(u, "symlink0", "(JJ)V", |t, a| {
        ux(t, t.domain.host().symlink(&path(a[0]), &path(a[2]))).map(|_| 0)
    });
    r.add(u, "stat0", "(JLsun/nio/fs/UnixFileAttributes;)V", |t, a| {
        let s = ux(t, t.domain.host().stat(&path(a[0]), true))?;
        set_attrs(t, a[2], &s)
    });
    r.add(u, "stat1", "(J)I", |t, a| {
        Ok(ret_int(
            t.domain
                .host()
                .stat(&path(a[0]), true)
                .map_or(0, |s| s.mode as i32),
        ))
    });
    r.add(
        u,
        "lstat0",
        "(JLsun/nio/fs/UnixFileAttributes;)V",
        |t, a| {
            let s = ux(t, t.domain.host().stat(&path(a[0]), false))?;
            set_attrs(t, a[2], &s)
        },
    );
    r.add(u, "fstat", "(ILsun/nio/fs/UnixFileAttributes;)V", |t, a| {
        let s = ux(t, t.domain.host().fstat(jfd(a[0])))?;
        set_attrs(t, a[1], &s)
    });
    r.add(
        u,
        "fstatat0",
        "(IJILsun/nio/fs/UnixFileAttributes;)V",
        |t, a| {
            let s = ux(
                t,
                t.domain.host().fstatat(jfd(a[0]), &path(a[1]), jint(a[3])),
            )?;
            set_attrs(t, a[4], &s)
        },
    );
    r.add(u, "chown0", "(JII)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .chown(&path(a[0]), jint(a[2]) as u32, jint(a[3]) as u32, true),
        )
        .map(|_| 0)
    });
    r.add(u, "lchown0", "(JII)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .chown(&path(a[0]), jint(a[2]) as u32, jint(a[3]) as u32, false),
        )
        .map(|_| 0)
    });
    r.add(u, "fchown", "(III)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .fchown(jfd(a[0]), jint(a[1]) as u32, jint(a[2]) as u32),
        )
        .map(|_| 0)
    });
    r.add(u, "chmod0", "(JI)V", |t, a| {
        ux(t, t.domain.host().chmod(&path(a[0]), jint(a[2]) as u32)).map(|_| 0)
    });
    r.add(u, "fchmod", "(II)V", |t, a| {
        ux(t, t.domain.host().fchmod(jfd(a[0]), jint(a[1]) as u32)).map(|_| 0)
    });
    r.add(u, "utimes0", "(JJJ)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .utimes(&path(a[0]), jlong(a[2]), jlong(a[4]), true),
        )
        .map(|_| 0)
    });
    r.add(u, "lutimes0", "(JJJ)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .utimes(&path(a[0]), jlong(a[2]), jlong(a[4]), false),
        )
        .map(|_| 0)
    });
    r.add(u, "futimes", "(IJJ)V", |t, a| {
        ux(
            t,
            t.domain.host().futimes(jfd(a[0]), jlong(a[1]), jlong(a[3])),
        )
        .map(|_| 0)
    });
    r.add(u, "futimens", "(IJJ)V", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .futimens(jfd(a[0]), jlong(a[1]), jlong(a[3])),
        )
        .map(|_| 0)
    });
    r.add(u, "opendir0", "(J)J", |t, a| {
        ux(t, t.domain.host().opendir(&path(a[0]))).map(|d| d.0)
    });
    r.add(u, "fdopendir", "(I)J", |t, a| {
        ux(t, t.domain.host().fdopendir(jfd(a[0]))).map(|d| d.0)
    });
    r.add(u, "closedir", "(J)V", |t, a| {
        ux(t, t.domain.host().closedir(DirStream(a[0]))).map(|_| 0)
    });
    r.add(u, "readdir", "(J)[B", |t, a| {
        match ux(t, t.domain.host().readdir(DirStream(a[0])))? {
            Some(name) => byte_array(t, &name),
            None => Ok(0),
        }
    });
    // Reads and writes of native memory may wait (a FIFO): others may collect meanwhile.
    r.add(u, "read", "(IJI)I", |t, a| {
        let (fd, addr, len) = (jfd(a[0]), a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| retry_eintr(|| backend.read(fd, addr, len)));
        ux(t, r).map(|n| ret_int(n as i32))
    });
    r.add(u, "write", "(IJI)I", |t, a| {
        let (fd, addr, len) = (jfd(a[0]), a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| retry_eintr(|| backend.write(fd, addr, len)));
        ux(t, r).map(|n| ret_int(n as i32))
    });
    r.add(u, "access0", "(JI)V", |t, a| {
        ux(t, t.domain.host().access(&path(a[0]), jint(a[2]))).map(|_| 0)
    });
    r.add(u, "exists0", "(J)Z", |t, a| {
        Ok(ret_bool(t.domain.host().exists(&path(a[0]))))
    });
    r.add(u, "getpwuid", "(I)[B", |t, a| {
        let name = ux(t, t.domain.host().user_name(jint(a[0]) as u32))?;
        byte_array(t, &name)
    });
    r.add(u, "getgrgid", "(I)[B", |t, a| {
        let name = ux(t, t.domain.host().group_name(jint(a[0]) as u32))?;
        byte_array(t, &name)
    });
    r.add(u, "getpwnam0", "(J)I", |t, a| {
        ux(t, t.domain.host().user_id(&path(a[0]))).map(|id| ret_int(id.map_or(-1, |v| v as i32)))
    });
    r.add(u, "getgrnam0", "(J)I", |t, a| {
        ux(t, t.domain.host().group_id(&path(a[0]))).map(|id| ret_int(id.map_or(-1, |v| v as i32)))
    });
    r.add(
        u,
        "statvfs0",
        "(JLsun/nio/fs/UnixFileStoreAttributes;)V",
        und_statvfs,
    );
    r.add(u, "strerror", "(I)[B", |t, a| {
        let msg = Errno(jint(a[0])).message();
        byte_array(t, msg.as_bytes())
    });
    r.add(u, "fgetxattr0", "(IJJI)I", |t, a| {
        let n = ux(
            t,
            t.domain.host().fgetxattr(
                jfd(a[0]),
                &path(a[1]),
                a[3] as usize,
                jint(a[5]).max(0) as usize,
            ),
        )?;
        Ok(ret_int(n as i32))
    });
    r.add(u, "fsetxattr0", "(IJJI)V", |t, a| {
        ux(
            t,
            t.domain.host().fsetxattr(
                jfd(a[0]),
                &path(a[1]),
                a[3] as usize,
                jint(a[5]).max(0) as usize,
            ),
        )
        .map(|_| 0)
    });
    r.add(u, "fremovexattr0", "(IJ)V", |t, a| {
        ux(t, t.domain.host().fremovexattr(jfd(a[0]), &path(a[1]))).map(|_| 0)
    });
    r.add(u, "flistxattr", "(IJI)I", |t, a| {
        let n = ux(
            t,
            t.domain
                .host()
                .flistxattr(jfd(a[0]), a[1] as usize, jint(a[3]).max(0) as usize),
        )?;
        Ok(ret_int(n as i32))
    });

    // UnixCopyFile.transfer(int dst, int src, long addressToPollForCancel)
    r.add("sun/nio/fs/UnixCopyFile", "transfer", "(IIJ)V", |t, a| {
        let (dst, src, cancel) = (jfd(a[0]), jfd(a[1]), a[2] as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.copy_fd(dst, src, cancel));
        ux(t, r).map(|_| 0)
    });
}

/// RESTARTABLE(): retries a call interrupted by a signal.
fn retry_eintr<T>(mut f: impl FnMut() -> PortResult<T>) -> PortResult<T> {
    loop {
        match f() {
            Err(Errno::EINTR) => continue,
            r => return r,
        }
    }
}

/// Capabilities as libnio reports them on Linux: the *at calls, futimes, futimens, lutimes and
/// extended attributes, plus file birth times when statx works.
fn und_init(t: &mut JThread, _: &[u64]) -> JResult<u64> {
    let mut caps =
        SUPPORTS_OPENAT | SUPPORTS_FUTIMES | SUPPORTS_FUTIMENS | SUPPORTS_LUTIMES | SUPPORTS_XATTR;
    if t.domain.host().birthtime_supported() {
        caps |= SUPPORTS_BIRTHTIME;
    }
    Ok(ret_int(caps))
}

fn und_statvfs(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let s = ux(t, t.domain.host().statvfs(&path(a[0])))?;
    let o = nonnull(t, a[2])?;
    let f = t.jdk::<jdk::UnixFileStoreAttributes>(o)?;
    o.write::<i64>(f.frsize, s.frsize as i64);
    o.write::<i64>(f.blocks, s.blocks as i64);
    o.write::<i64>(f.bfree, s.bfree as i64);
    o.write::<i64>(f.bavail, s.bavail as i64);
    Ok(0)
}

// ---- sun.nio.fs.LinuxNativeDispatcher (mount tables for FileStore) ----

fn register_linux_dispatcher(r: &mut Registry) {
    let l = "sun/nio/fs/LinuxNativeDispatcher";
    r.add(l, "init", "()V", |_, _| Ok(0));
    r.add(l, "setmntent0", "(JJ)J", |t, a| {
        ux(t, t.domain.host().mount_table_open(&path(a[0]))).map(|m| m.0)
    });
    r.add(
        l,
        "getmntent0",
        "(JLsun/nio/fs/UnixMountEntry;JI)I",
        getmntent0,
    );
    r.add(l, "endmntent", "(J)V", |t, a| {
        ux(t, t.domain.host().mount_table_close(MountTable(a[0]))).map(|_| 0)
    });

    let w = "sun/nio/fs/LinuxWatchService";
    r.add(w, "eventSize", "()I", |_, _| {
        Ok(ret_int(fs::inotify_event_layout().0 as i32))
    });
    r.add(w, "eventOffsets", "()[I", |t, _| {
        let offsets = fs::inotify_event_layout().1;
        let arr = t.new_array_of(
            t.vm.classes.primitive(crate::class::BasicType::Int),
            offsets.len() as i32,
        )?;
        for (slot, off) in arr.array_slice::<i32>().iter_mut().zip(offsets) {
            *slot = off as i32;
        }
        Ok(arr.slot())
    });
    r.add(w, "inotifyInit", "()I", |t, _| {
        ux(t, t.domain.host().inotify_init()).map(ret_fd)
    });
    r.add(w, "inotifyAddWatch", "(IJI)I", |t, a| {
        ux(
            t,
            t.domain
                .host()
                .inotify_add_watch(jfd(a[0]), &path(a[1]), jint(a[3]) as u32),
        )
        .map(ret_int)
    });
    r.add(w, "inotifyRmWatch", "(II)V", |t, a| {
        ux(t, t.domain.host().inotify_rm_watch(jfd(a[0]), jint(a[1]))).map(|_| 0)
    });
    r.add(w, "configureBlocking", "(IZ)V", |t, a| {
        ux(t, t.domain.host().set_blocking(jfd(a[0]), a[1] != 0)).map(|_| 0)
    });
    r.add(w, "socketpair", "([I)V", |t, a| {
        let arr = nonnull(t, a[0])?;
        if arr.array_len() < 2 {
            return Err(t.throw_new("java/lang/ArrayIndexOutOfBoundsException", None));
        }
        let (s0, s1) = ux(t, t.domain.host().socketpair())?;
        arr.array_slice::<i32>()[..2].copy_from_slice(&[s0.0, s1.0]);
        Ok(0)
    });
    r.add(w, "poll", "(II)I", |t, a| {
        // Waits for file events indefinitely (the watch service's background thread): others
        // may collect meanwhile.
        let (fd1, fd2) = (jfd(a[0]), jfd(a[1]));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.poll_readable(fd1, fd2));
        ux(t, r).map(ret_int)
    });
}

fn getmntent0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let Some(e) = ux(t, t.domain.host().mount_table_next(MountTable(a[0])))? else {
        return Ok(ret_int(-1));
    };
    let entry = nonnull(t, a[2])?;
    let f = t.jdk::<jdk::UnixMountEntry>(entry)?;
    for (off, value) in [
        (f.name, &e.name),
        (f.dir, &e.dir),
        (f.fstype, &e.fstype),
        (f.opts, &e.opts),
    ] {
        let arr = t.new_byte_array(value)?;
        t.domain.heap.write_ref(entry, off, Some(arr));
    }
    Ok(0)
}

// ---- sun.nio.ch.FileDispatcherImpl ----

fn register_file_dispatcher(r: &mut Registry) {
    let d = "sun/nio/ch/FileDispatcherImpl";
    r.add(d, "init", "()V", |_, _| Ok(0));
    r.add(d, "read0", "(Ljava/io/FileDescriptor;JI)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (addr, len) = (a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.read(fd, addr, len));
        convert(t, r, true).map(|v| ret_int(v as i32))
    });
    r.add(d, "pread0", "(Ljava/io/FileDescriptor;JIJ)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (addr, len, pos) = (a[1] as usize, jint(a[3]).max(0) as usize, jlong(a[4]));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.pread(fd, addr, len, pos));
        convert(t, r, true).map(|v| ret_int(v as i32))
    });
    r.add(d, "readv0", "(Ljava/io/FileDescriptor;JI)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let (iov, n) = (a[1] as usize, jint(a[3]));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.readv(fd, iov, n));
        convert(t, r, true).map(ret_i64)
    });
    r.add(d, "write0", "(Ljava/io/FileDescriptor;JI)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (addr, len) = (a[1] as usize, jint(a[3]).max(0) as usize);
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.write(fd, addr, len));
        convert(t, r, false).map(|v| ret_int(v as i32))
    });
    r.add(d, "pwrite0", "(Ljava/io/FileDescriptor;JIJ)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t
            .domain
            .host()
            .pwrite(fd, a[1] as usize, jint(a[3]).max(0) as usize, jlong(a[4]));
        convert(t, r, false).map(|v| ret_int(v as i32))
    });
    r.add(d, "writev0", "(Ljava/io/FileDescriptor;JI)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let (iov, n) = (a[1] as usize, jint(a[3]));
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.writev(fd, iov, n));
        convert(t, r, false).map(ret_i64)
    });
    r.add(d, "force0", "(Ljava/io/FileDescriptor;Z)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().sync(fd, a[1] != 0).map(|_| 0);
        handle(t, r)
    });
    r.add(d, "seek0", "(Ljava/io/FileDescriptor;J)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().seek(fd, jlong(a[1]));
        handle(t, r)
    });
    r.add(d, "truncate0", "(Ljava/io/FileDescriptor;J)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().truncate(fd, jlong(a[1])).map(|_| 0);
        handle(t, r).map(|v| ret_int(v as i32))
    });
    r.add(d, "size0", "(Ljava/io/FileDescriptor;)J", |t, a| {
        let fd = fdval(t, a[0])?;
        let r = t.domain.host().fstat(fd).map(|s| s.size);
        handle(t, r)
    });
    r.add(d, "lock0", "(Ljava/io/FileDescriptor;ZJJZ)I", |t, a| {
        let fd = fdval(t, a[0])?;
        let (blocking, pos, size, shared) = (a[1] != 0, jlong(a[2]), jlong(a[4]), a[6] != 0);
        // A blocking request waits for another process's lock (woken by NativeThread.signal
        // when the channel is closed or the thread interrupted).
        let backend = t.domain.host().clone();
        let r = t.blocking(|| backend.lock(fd, blocking, pos, size, shared));
        // FileDispatcher.LOCKED / NO_LOCK / INTERRUPTED
        match io(t, r)? {
            fs::LockResult::Locked => Ok(ret_int(0)),
            fs::LockResult::WouldBlock => Ok(ret_int(-1)),
            fs::LockResult::Interrupted => Ok(ret_int(2)),
        }
    });
    r.add(d, "release0", "(Ljava/io/FileDescriptor;JJ)V", |t, a| {
        let fd = fdval(t, a[0])?;
        io(t, t.domain.host().unlock(fd, jlong(a[1]), jlong(a[3]))).map(|_| 0)
    });
    r.add(d, "close0", "(Ljava/io/FileDescriptor;)V", |t, a| {
        let fd = fdval(t, a[0])?;
        close_int_fd(t, fd)
    });
    r.add(d, "closeIntFD", "(I)V", |t, a| close_int_fd(t, jfd(a[0])));
    r.add(d, "preClose0", "(Ljava/io/FileDescriptor;)V", |t, a| {
        let fd = fdval(t, a[0])?;
        // Threads still blocked on the old file are woken by NativeThread.signal next; any
        // later call on `fd` reads end-of-file or fails.
        let dead = io(t, t.domain.host().pre_close_fd())?;
        io(t, t.domain.host().dup2(dead, fd)).map(|_| 0)
    });
    r.add(
        d,
        "dup0",
        "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;)V",
        |t, a| {
            let from = fdval(t, a[0])?;
            let to = fdval(t, a[1])?;
            io(t, t.domain.host().dup2(from, to)).map(|_| 0)
        },
    );
    r.add(d, "canTransferToFromOverlappedMap0", "()Z", |_, _| {
        Ok(ret_bool(true))
    });
    r.add(d, "setDirect0", "(Ljava/io/FileDescriptor;)I", |t, a| {
        let fd = fdval(t, a[0])?;
        io(t, t.domain.host().set_direct(fd)).map(|v| ret_int(v as i32))
    });
}

fn close_int_fd(t: &mut JThread, fd: Fd) -> JResult<u64> {
    if fd.0 != -1 {
        io(t, t.domain.host().close(fd))?;
    }
    Ok(0)
}

// ---- sun.nio.ch.IOUtil, FileChannelImpl, NativeThread, FileKey ----

fn register_channels(r: &mut Registry) {
    let io_util = "sun/nio/ch/IOUtil";
    r.add(io_util, "fdVal", "(Ljava/io/FileDescriptor;)I", |t, a| {
        fdval(t, a[0]).map(ret_fd)
    });
    r.add(
        io_util,
        "setfdVal",
        "(Ljava/io/FileDescriptor;I)V",
        |t, a| {
            let fdo = nonnull(t, a[0])?;
            super::io::set_fd(t, fdo, jfd(a[1]))?;
            Ok(0)
        },
    );
    r.add(io_util, "iovMax", "()I", |_, _| Ok(ret_int(fs::iov_max())));
    r.add(io_util, "fdLimit", "()I", |t, _| {
        io(t, t.domain.host().fd_limit()).map(ret_int)
    });
    r.add(
        io_util,
        "configureBlocking",
        "(Ljava/io/FileDescriptor;Z)V",
        |t, a| {
            let fd = fdval(t, a[0])?;
            io(t, t.domain.host().set_blocking(fd, a[1] != 0)).map(|_| 0)
        },
    );
    r.add(io_util, "makePipe", "(Z)J", |t, a| {
        let (rd, wr) = io(t, t.domain.host().pipe(a[0] != 0))?;
        Ok(((rd.0 as u32 as u64) << 32) | wr.0 as u32 as u64)
    });
    r.add(io_util, "write1", "(IB)I", |t, a| {
        let r = t.domain.host().write_buf(jfd(a[0]), &[a[1] as u8]);
        convert(t, r, false).map(|v| ret_int(v as i32))
    });
    r.add(io_util, "drain", "(I)Z", |t, a| {
        let mut buf = [0u8; 16];
        let mut any = false;
        loop {
            match t
                .domain
                .host()
                .read(jfd(a[0]), buf.as_mut_ptr() as usize, buf.len())
            {
                Ok(n) => {
                    any |= n > 0;
                    if n < buf.len() {
                        break;
                    }
                }
                Err(Errno::EINTR) => continue,
                Err(Errno::EAGAIN) => break,
                Err(e) => return Err(io_exception(t, e)),
            }
        }
        Ok(ret_bool(any))
    });
    r.add(io_util, "drain1", "(I)I", |t, a| {
        let mut b = [0u8; 1];
        match t.domain.host().read(jfd(a[0]), b.as_mut_ptr() as usize, 1) {
            Ok(n) => Ok(ret_int(n as i32)),
            Err(Errno::EAGAIN) => Ok(ret_int(0)),
            Err(Errno::EINTR) => Ok(ret_int(IOS_INTERRUPTED as i32)),
            Err(e) => Err(io_exception(t, e)),
        }
    });
    r.add(io_util, "randomBytes", "([B)Z", |t, _| {
        Err(t.throw_new("java/lang/UnsupportedOperationException", None))
    });

    let fc = "sun/nio/ch/FileChannelImpl";
    // Returns the mapping granularity. (invoke_native currently answers every static
    // initIDs with a no-op before consulting this table.)
    r.add(fc, "initIDs", "()J", |_, _| Ok(fs::page_size() as u64));
    r.add(fc, "maxDirectTransferSize0", "()I", |_, _| {
        Ok(ret_int(0x7fff_f000))
    });
    r.add(
        fc,
        "transferTo0",
        "(Ljava/io/FileDescriptor;JJLjava/io/FileDescriptor;)J",
        fc_transfer_to0,
    );
    r.add(fc, "map0", "(IJJZ)J", fc_map0);
    r.add(fc, "unmap0", "(JJ)I", |t, a| {
        io(t, t.domain.host().munmap(a[0] as usize, a[2] as usize)).map(|_| ret_int(0))
    });

    let mm = "java/nio/MappedMemoryUtils";
    r.add(mm, "isLoaded0", "(JJJ)Z", |t, a| {
        io(
            t,
            t.domain
                .host()
                .mapping_resident(a[0] as usize, a[2] as usize, a[4] as usize),
        )
        .map(ret_bool)
    });
    r.add(mm, "load0", "(JJ)V", |t, a| {
        io(
            t,
            t.domain
                .host()
                .advise_mapping(a[0] as usize, a[2] as usize, true),
        )
        .map(|_| 0)
    });
    r.add(mm, "unload0", "(JJ)V", |t, a| {
        io(
            t,
            t.domain
                .host()
                .advise_mapping(a[0] as usize, a[2] as usize, false),
        )
        .map(|_| 0)
    });
    r.add(mm, "force0", "(Ljava/io/FileDescriptor;JJ)V", |t, a| {
        io(
            t,
            t.domain.host().sync_mapping(a[1] as usize, a[3] as usize),
        )
        .map(|_| 0)
    });

    // A thread blocked in a channel operation records current(); a close or an interrupt
    // signals it, after which its call fails with EINTR (IOS_INTERRUPTED for the JDK's retry
    // loop, which then sees the channel closed).
    let nt = "sun/nio/ch/NativeThread";
    r.add(nt, "current", "()J", |_, _| {
        Ok(ret_i64(port::current_thread_token()))
    });
    r.add(nt, "signal", "(J)V", |t, a| {
        match port::wake_thread(jlong(a[0])) {
            Ok(()) => Ok(0),
            Err(e) => Err(io_exception(t, e)),
        }
    });
    r.add(
        nt,
        "init",
        "()V",
        |t, _| match port::install_wakeup_signal() {
            Ok(()) => Ok(0),
            Err(e) => Err(io_exception(t, e)),
        },
    );
    // false as libnio on Linux: FileDispatcherImpl.preClose dup2s over the descriptor first
    // and signals the threads after, so a thread that enters its call in between finds the
    // dead descriptor, and one already inside gets EINTR.
    r.add(nt, "supportPendingSignals0", "()Z", |_, _| {
        Ok(ret_bool(false))
    });

    r.add(
        "sun/nio/ch/FileKey",
        "init",
        "(Ljava/io/FileDescriptor;)V",
        |t, a| {
            let fd = fdval(t, a[1])?;
            let s = io(t, t.domain.host().fstat(fd))?;
            let key = nonnull(t, a[0])?;
            let f = t.jdk::<jdk::FileKey>(key)?;
            key.write::<i64>(f.dev, s.dev as i64);
            key.write::<i64>(f.ino, s.ino as i64);
            Ok(0)
        },
    );
}

/// `long transferTo0(FileDescriptor src, long position, long count, FileDescriptor dst)`:
/// sendfile, with libnio's mapping of errors to IOStatus codes.
fn fc_transfer_to0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let src = fdval(t, a[1])?;
    let dst = fdval(t, a[6])?;
    let (count, pos) = (jlong(a[4]), jlong(a[2]));
    // The target may be a blocking socket or pipe that waits for room.
    let backend = t.domain.host().clone();
    match t.blocking(|| backend.sendfile(dst, src, pos, count.max(0) as usize)) {
        Ok(n) => Ok(ret_i64(n)),
        Err(Errno::EAGAIN) => Ok(ret_i64(IOS_UNAVAILABLE)),
        Err(Errno::EINVAL) if count >= 0 => Ok(ret_i64(IOS_UNSUPPORTED_CASE)),
        Err(Errno::EINTR) => Ok(ret_i64(IOS_INTERRUPTED)),
        Err(e) => Err(io_exception(t, e)),
    }
}

/// `long map0(int prot, long position, long length, boolean isSync)` on the channel's fd.
fn fc_map0(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let this = nonnull(t, a[0])?;
    let fdo = this.read_ref(t.jdk::<jdk::FileChannelImpl>(this)?.fd);
    let fd = fdval(t, crate::heap::to_slot(fdo))?;
    let mode = match jint(a[1]) {
        0 => fs::MapMode::ReadOnly,
        1 => fs::MapMode::ReadWrite,
        _ => fs::MapMode::Private,
    };
    if a[6] != 0 {
        return Err(t.throw_new(
            "java/lang/UnsupportedOperationException",
            Some("MAP_SYNC is not supported"),
        ));
    }
    match t
        .domain
        .host()
        .mmap(fd, mode, jlong(a[2]), jlong(a[4]).max(0) as usize)
    {
        Ok(addr) => Ok(addr as u64),
        Err(Errno::ENOMEM) => Err(t.throw_new("java/lang/OutOfMemoryError", Some("Map failed"))),
        Err(e) => Err(io_exception(t, e)),
    }
}

// ---- sun.nio.ch.InheritedChannel (System.inheritedChannel: standard input as a socket) ----

fn register_inherited_channel(r: &mut Registry) {
    let ic = "sun/nio/ch/InheritedChannel";
    r.add(ic, "dup", "(I)I", |t, a| {
        let r = t.domain.host().dup(jfd(a[0]));
        inherited_io(t, r, "dup failed").map(ret_fd)
    });
    r.add(ic, "dup2", "(II)V", |t, a| {
        let r = t.domain.host().dup2(jfd(a[0]), jfd(a[1]));
        inherited_io(t, r, "dup2 failed").map(|_| 0)
    });
    r.add(ic, "open0", "(Ljava/lang/String;I)I", |t, a| {
        let p = nonnull(t, a[0])?;
        let path = t.rust_string(p);
        // InheritedChannel's O_RDONLY, O_WRONLY, O_RDWR are 0, 1, 2.
        let flags = match jint(a[1]) {
            0 => libc::O_RDONLY,
            1 => libc::O_WRONLY,
            2 => libc::O_RDWR,
            _ => return Err(t.throw_new("java/lang/InternalError", Some("Unrecognized file mode"))),
        };
        let r = t
            .domain
            .host()
            .open(path.as_bytes(), flags | libc::O_CLOEXEC, 0);
        inherited_io(t, r, &path).map(ret_fd)
    });
    r.add(ic, "close0", "(I)V", |t, a| {
        let r = t.domain.host().close(jfd(a[0]));
        inherited_io(t, r, "close failed").map(|_| 0)
    });
    // SOCK_STREAM 1, SOCK_DGRAM 2, else -1 (not a socket, or another type).
    r.add(ic, "soType0", "(I)I", |t, a| {
        let ty = t
            .domain
            .host()
            .get_int_option(jfd(a[0]), libc::SOL_SOCKET, libc::SO_TYPE);
        Ok(ret_int(match ty {
            Ok(libc::SOCK_STREAM) => 1,
            Ok(libc::SOCK_DGRAM) => 2,
            _ => -1,
        }))
    });
    // AF_INET 1, AF_INET6 2, AF_UNIX 3, else -1.
    r.add(ic, "addressFamily", "(I)I", |t, a| {
        let family = t
            .domain
            .host()
            .get_int_option(jfd(a[0]), libc::SOL_SOCKET, libc::SO_DOMAIN);
        Ok(ret_int(match family {
            Ok(libc::AF_INET) => 1,
            Ok(libc::AF_INET6) => 2,
            Ok(libc::AF_UNIX) => 3,
            _ => -1,
        }))
    });
    r.add(
        ic,
        "inetPeerAddress0",
        "(I)Ljava/net/InetAddress;",
        |t, a| match t.domain.host().remote_address(jfd(a[0])) {
            Ok(peer) => Ok(super::net::new_inet_address_of(t, peer)?.slot()),
            Err(_) => Ok(0),
        },
    );
    r.add(ic, "peerPort0", "(I)I", |t, a| {
        let port = t.domain.host().remote_address(jfd(a[0]));
        Ok(ret_int(port.map_or(-1, |p| p.port() as i32)))
    });
    r.add(ic, "unixPeerAddress0", "(I)[B", |t, a| {
        let r = t.domain.host().unix_peer_address(jfd(a[0]));
        let path = inherited_io(t, r, "getpeername failed")?;
        byte_array(t, &path)
    });
    r.add(ic, "isConnected", "(I)Z", |t, a| {
        let host = t.domain.host().clone();
        let fd = jfd(a[0]);
        let connected = host.remote_address(fd).is_ok() || host.unix_peer_address(fd).is_ok();
        Ok(ret_bool(connected))
    });
}

/// libnio's JNU_ThrowIOExceptionWithLastError: the OS message, else `detail`.
fn inherited_io<T>(t: &mut JThread, r: PortResult<T>, detail: &str) -> JResult<T> {
    r.map_err(|e| {
        let msg = e.message();
        let msg = if msg.is_empty() {
            detail.to_string()
        } else {
            msg
        };
        t.throw_new("java/io/IOException", Some(&msg))
    })
}
