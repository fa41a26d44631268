//! Keeping the cache private to its user: where it lives by default, its directory made 0700
//! and its files 0600, and the refusal of a directory or file that another user owns or that
//! others may write.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The directory caches go in: `$XDG_CACHE_HOME/jxvm`, else `$HOME/.cache/jxvm` (None: neither
/// is set to an absolute path).
pub fn default_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").and_then(absolute) {
        return Some(x.join("jxvm"));
    }
    std::env::var_os("HOME")
        .and_then(absolute)
        .map(|h| h.join(".cache").join("jxvm"))
}

/// The effective user id, from `/proc/self/status` (its `Uid:` line: real, effective, ...).
pub fn effective_uid() -> io::Result<u32> {
    let status = fs::read_to_string("/proc/self/status")?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| io::Error::other("no effective uid in /proc/self/status"))
}

/// Why a cache may not be used.
pub fn check_private(meta: &fs::Metadata, uid: u32, what: &Path) -> Result<(), String> {
    if meta.uid() != uid {
        return Err(format!(
            "{} is owned by user {}, not by this user ({uid})",
            what.display(),
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "{} may be written by other users (mode {:o})",
            what.display(),
            meta.mode() & 0o7777
        ));
    }
    Ok(())
}

/// Makes `dir` (0700, parents as needed) unless it exists; refuses it if it is not private.
pub fn private_dir(dir: &Path, uid: u32) -> Result<(), String> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => check_private(&m, uid, dir),
        Ok(_) => Err(format!("{} is not a directory", dir.display())),
        Err(_) => fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display())),
    }
}

/// Opens `path` to read and write, creating it 0600; never follows a symbolic link, and
/// refuses a file that is not private.
pub fn open_private(path: &Path, uid: u32, create: bool) -> Result<File, String> {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let m = f
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !m.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    check_private(&m, uid, path)?;
    Ok(f)
}

/// Creates `path` 0600, failing if it exists.
pub fn create_new_private(path: &Path) -> io::Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.set_permissions(fs::Permissions::from_mode(0o600))?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("jxvm-cache-private-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn the_directory_is_made_0700_and_files_0600() {
        let uid = effective_uid().unwrap();
        let root = temp("modes");
        let d = root.join("a").join("jxvm");
        private_dir(&d, uid).unwrap();
        assert_eq!(fs::metadata(&d).unwrap().mode() & 0o777, 0o700);
        let f = d.join("f");
        open_private(&f, uid, true).unwrap();
        assert_eq!(fs::metadata(&f).unwrap().mode() & 0o777, 0o600);
        fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn another_users_or_a_writable_cache_is_refused() {
        let uid = effective_uid().unwrap();
        let d = temp("others");
        private_dir(&d, uid).unwrap();
        assert!(
            private_dir(&d, uid + 1)
                .unwrap_err()
                .contains("owned by user")
        );
        let f = d.join("f");
        open_private(&f, uid, true).unwrap();
        assert!(open_private(&f, uid + 1, false).is_err());
        fs::set_permissions(&f, fs::Permissions::from_mode(0o666)).unwrap();
        assert!(
            open_private(&f, uid, false)
                .unwrap_err()
                .contains("other users")
        );
        let link = d.join("link");
        std::os::unix::fs::symlink(&f, &link).unwrap();
        assert!(open_private(&link, uid, false).is_err());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_default_directory_follows_xdg_then_home() {
        // Read only: the variables are the test process's own.
        if let Some(d) = default_dir() {
            assert!(d.is_absolute() && d.ends_with("jxvm"));
        }
    }
}
