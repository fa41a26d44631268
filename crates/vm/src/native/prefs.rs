//! Natives of java.util.prefs.FileSystemPreferences (module java.prefs), which locks the
//! preference trees' lock files with POSIX record locks and sets their modes; as the JDK's
//! libprefs does: failures are returned as errno values, never thrown.

use super::{Registry, jint, nonnull, ret_int};
use crate::class::BasicType;
use crate::thread::{JResult, JThread};
use port::{Errno, Fd};

pub fn register(r: &mut Registry) {
    let fsp = "java/util/prefs/FileSystemPreferences";
    r.add(fsp, "lockFile0", "(Ljava/lang/String;IZ)[I", lock_file);
    r.add(fsp, "unlockFile0", "(I)I", unlock_file);
    r.add(fsp, "chmod", "(Ljava/lang/String;I)I", chmod);
}

/// The host's byte form of a path (the platform encoding, UTF-8).
fn path_bytes(t: &mut JThread, v: u64) -> JResult<Vec<u8>> {
    let s = nonnull(t, v)?;
    Ok(t.rust_string(s).into_bytes())
}

/// `lockFile0(name, mode, shared)`: opens (creating it with exactly `mode`, whatever the
/// umask) and record-locks the whole file, shared (read lock on a read-only descriptor) or
/// exclusive; returns `{descriptor, 0}`, or `{0, errno}` when opening or locking fails (a lock
/// another process holds is EAGAIN, as Linux reports it).
fn lock_file(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let path = path_bytes(t, a[0])?;
    let mode = jint(a[1]) as u32 & 0o7777;
    let shared = a[2] != 0;
    let host = t.domain.host().clone();
    let access = if shared { libc::O_RDONLY } else { libc::O_RDWR };
    let flags = access | libc::O_CLOEXEC;
    // The JDK creates the file under umask 0; created here exclusively and then given its
    // mode, so the process's umask stays untouched.
    let opened = match host.open(&path, flags | libc::O_CREAT | libc::O_EXCL, mode) {
        Ok(fd) => host.fchmod(fd, mode).map(|_| fd).inspect_err(|_| {
            let _ = host.close(fd);
        }),
        Err(Errno::EEXIST) => host.open(&path, flags, 0),
        Err(e) => Err(e),
    };
    let result = match opened {
        Err(e) => [0, e.raw()],
        Ok(fd) => match host.lock(fd, false, 0, i64::MAX, shared) {
            Ok(port::fs::LockResult::Locked) => [fd.0, 0],
            Ok(_) => {
                let _ = host.close(fd);
                [0, Errno::EAGAIN.raw()]
            }
            Err(e) => {
                let _ = host.close(fd);
                [0, e.raw()]
            }
        },
    };
    let arr = t.new_array_of(t.vm.classes.primitive(BasicType::Int), 2)?;
    arr.array_slice::<i32>().copy_from_slice(&result);
    Ok(arr.slot())
}

/// `unlockFile0(fd)`: drops the lock and closes the descriptor; 0, or the errno.
fn unlock_file(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let fd = Fd(jint(a[0]));
    let host = t.domain.host().clone();
    if let Err(e) = host.unlock(fd, 0, i64::MAX) {
        let _ = host.close(fd);
        return Ok(ret_int(e.raw()));
    }
    Ok(ret_int(host.close(fd).err().map_or(0, |e| e.raw())))
}

/// `chmod(name, mode)`: 0, or the errno.
fn chmod(t: &mut JThread, a: &[u64]) -> JResult<u64> {
    let path = path_bytes(t, a[0])?;
    let r = t.domain.host().chmod(&path, jint(a[1]) as u32);
    Ok(ret_int(r.err().map_or(0, |e| e.raw())))
}
