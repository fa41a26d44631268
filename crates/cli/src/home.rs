//! JAVA_HOME-shaped directories that run jxvm: `jxvm --make-home DIR` makes one, and a jxvm
//! started as such a directory's `bin/java` takes that directory as its JDK (as java takes the
//! directory above its `bin`).
//!
//! Owns the directory's layout: `bin/java` is a symbolic link to this jxvm binary, the JDK's
//! other `bin` tools are links to the JDK's own (they run HotSpot), and every other top-level
//! entry of the JDK (`lib`, `conf`, `release`, `include`, `jmods`, ...) is a link to the JDK's,
//! so tools that look for `$JAVA_HOME/bin/java`, `$JAVA_HOME/release` or `lib/modules` (Maven,
//! Surefire, Gradle, JMH's forks) find them.

use std::path::{Path, PathBuf};

/// What `--make-home` writes in `bin/java`'s place: a link to this binary.
const JAVA: &str = "java";

/// Makes `dir` a JAVA_HOME whose `bin/java` is this jxvm, on the JDK at `jdk`. `dir` may be
/// missing (its parent must exist), empty, or a home made before (it is then remade).
pub fn make_home(dir: &Path, jdk: &Path) -> Result<(), String> {
    let fail = |what: &str, e: std::io::Error| {
        format!("Error: --make-home {}: {what}: {e}", dir.display())
    };
    let exe = std::env::current_exe().map_err(|e| fail("cannot find the jxvm binary", e))?;
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Ok(false) if !is_made_home(dir) => {
            return Err(format!(
                "Error: --make-home {}: the directory exists and is not a home jxvm made",
                dir.display()
            ));
        }
        Ok(_) => clear(dir).map_err(|e| fail("cannot clear the old home", e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir(dir).map_err(|e| fail("cannot create it", e))?
        }
        Err(e) => return Err(fail("cannot read it", e)),
    }
    fill(dir, jdk, &exe).map_err(|e| fail("cannot fill it", e))
}

/// Whether `dir` looks like a home `make_home` made: its `bin/java` is a link to a file.
fn is_made_home(dir: &Path) -> bool {
    let java = dir.join("bin").join(JAVA);
    java.symlink_metadata().is_ok_and(|m| m.is_symlink())
}

/// Removes what `make_home` put in `dir` (links, and the `bin` directory of links).
fn clear(dir: &Path) -> std::io::Result<()> {
    let bin = dir.join("bin");
    if bin.symlink_metadata().is_ok_and(|m| m.is_dir()) {
        for e in std::fs::read_dir(&bin)? {
            std::fs::remove_file(e?.path())?;
        }
        std::fs::remove_dir(&bin)?;
    }
    for e in std::fs::read_dir(dir)? {
        std::fs::remove_file(e?.path())?;
    }
    Ok(())
}

/// Fills `dir` with links into the JDK whose image `jdk/lib/modules` is (a made home's links
/// are followed back to the real JDK).
fn fill(dir: &Path, jdk: &Path, exe: &Path) -> std::io::Result<()> {
    let modules = std::fs::canonicalize(jdk.join("lib/modules"))?;
    let jdk = modules
        .parent()
        .and_then(Path::parent)
        .ok_or(std::io::ErrorKind::NotFound)?;
    for e in std::fs::read_dir(jdk)? {
        let name = e?.file_name();
        if name != "bin" {
            std::os::unix::fs::symlink(jdk.join(&name), dir.join(&name))?;
        }
    }
    let bin = dir.join("bin");
    std::fs::create_dir(&bin)?;
    for e in std::fs::read_dir(jdk.join("bin"))? {
        let name = e?.file_name();
        if name != JAVA {
            std::os::unix::fs::symlink(jdk.join("bin").join(&name), bin.join(&name))?;
        }
    }
    std::os::unix::fs::symlink(exe, bin.join(JAVA))
}

/// The home this process was started from, when it was started as `HOME/bin/java` (named by
/// a path, or found on PATH, or through links named `java` to it, as the alternatives system
/// makes) and `HOME` holds a JDK image.
pub fn invoked_home() -> Option<PathBuf> {
    let argv0 = PathBuf::from(std::env::args_os().next()?);
    let mut path = if argv0.components().count() > 1 {
        argv0
    } else {
        find_on_path(&argv0)?
    };
    for _ in 0..MAX_LINKS {
        if path.file_name()? != JAVA {
            return None;
        }
        let home = std::path::absolute(&path)
            .ok()?
            .parent()?
            .parent()?
            .to_path_buf();
        if home.join("lib/modules").is_file() {
            return Some(home);
        }
        let next = std::fs::read_link(&path).ok()?;
        path = path.parent()?.join(next);
    }
    None
}

/// How many links `invoked_home` follows.
const MAX_LINKS: usize = 16;

fn find_on_path(name: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}
