//! Owns the 9P namespace a backend sees: the connection, the attached root, and path
//! resolution. Paths are resolved here, on the client, as the Linux v9fs client resolves them:
//! each symbolic link is read (`Treadlink`) and its target walked from this namespace's root
//! (absolute) or from the link's directory (relative), `..` never climbs above the root, and
//! more than [`MAX_LINKS`] links is `ELOOP`. The server is only ever asked to walk names that
//! are not links, so no link can lead outside the namespace, whatever the server would do.

use ninep::client::{Client, Error, Fid};
use ninep::msg::{Attr, GETATTR_ALL, QTDIR, QTSYMLINK, Qid};

use crate::{Errno, PortResult};

/// The most symbolic links one resolution follows (Linux's `MAXSYMLINKS`).
pub const MAX_LINKS: usize = 40;

/// A path as names from the root, none of them `.`, `..` or empty.
pub type Names = Vec<Vec<u8>>;

/// A connection attached to one tree.
pub struct Namespace {
    pub client: Client,
    pub root: Fid,
    /// Where it is connected (`unix:PATH` or `tcp:HOST:PORT`).
    pub client_addr: String,
}

/// The errno of a failed call: the server's own, or `EIO` when the connection failed or the
/// server broke the protocol (Java sees "Input/output error").
pub fn errno(e: Error) -> Errno {
    match e {
        Error::Remote(n) => Errno(i32::try_from(n.0).unwrap_or(libc::EIO)),
        Error::Invalid(_) => Errno::EINVAL,
        Error::Cancelled => Errno::EINTR,
        Error::TimedOut(_) => Errno::ETIMEDOUT,
        _ => Errno::EIO,
    }
}

/// The names of `path` taken from `base` (for an absolute path, from the root).
pub fn components(base: &[Vec<u8>], path: &[u8]) -> Vec<Vec<u8>> {
    let mut out = if path.first() == Some(&b'/') {
        Vec::new()
    } else {
        base.to_vec()
    };
    out.extend(
        path.split(|&b| b == b'/')
            .filter(|c| !c.is_empty())
            .map(<[u8]>::to_vec),
    );
    out
}

/// `/a/b` for names `[a, b]`, `/` for none.
pub fn display(names: &[Vec<u8>]) -> Vec<u8> {
    if names.is_empty() {
        return b"/".to_vec();
    }
    let mut out = Vec::new();
    for n in names {
        out.push(b'/');
        out.extend_from_slice(n);
    }
    out
}

/// A file found by [`Namespace::resolve`]: its names, a fid walked to it, and its qid.
pub struct Found {
    pub names: Names,
    pub fid: Fid,
    pub qid: Qid,
}

impl Namespace {
    /// Connects to `addr` and attaches `aname` as the process's user.
    pub fn attach(spec: &super::NinepSpec) -> Result<Namespace, String> {
        let (addr, aname) = (spec.addr.as_str(), spec.aname.as_str());
        let client = Client::connect_timeout(addr, ninep::client::DEFAULT_MSIZE, spec.timeout)
            .map_err(|e| e.to_string())?;
        // A request of a thread whose blocking calls are cancelled (its domain is being
        // terminated) stops waiting, so a server that stalls cannot hold a domain's end.
        client.set_cancel(crate::cancelled);
        let (uid, ..) = crate::ids();
        let user = std::env::var("USER").unwrap_or_else(|_| "root".into());
        let (root, _) = client
            .attach(&user, aname, uid as u32)
            .map_err(|e| format!("cannot attach to {addr}: {e}"))?;
        Ok(Namespace {
            client,
            root,
            client_addr: addr.to_string(),
        })
    }

    /// Walks `names` (which hold no link but maybe the last) from the root to a new fid.
    pub fn walk(&self, names: &[Vec<u8>]) -> PortResult<(Fid, Vec<Qid>)> {
        self.client.walk(self.root, names).map_err(errno)
    }

    pub fn clunk(&self, fid: Fid) {
        let _ = self.client.clunk(fid);
    }

    pub fn getattr(&self, fid: Fid) -> PortResult<Attr> {
        self.client.getattr(fid, GETATTR_ALL).map_err(errno)
    }

    /// Resolves `path` (relative ones from `base`) to an existing file, following a link in
    /// the last place only when `follow`.
    pub fn resolve(&self, base: &[Vec<u8>], path: &[u8], follow: bool) -> PortResult<Found> {
        if path.is_empty() {
            return Err(Errno::ENOENT);
        }
        let names = components(base, path);
        if let Some(found) = self.walk_plain(&names, follow) {
            return Ok(found);
        }
        let names = self.resolve_names(names, follow)?;
        let (fid, qids) = self.walk(&names)?;
        let qid = qids.last().cloned().unwrap_or_else(root_qid);
        Ok(Found { names, fid, qid })
    }

    /// The fast way: one walk of every name, good when none is `..` or a link (but the
    /// last, when not followed). A `.` inside the path changes nothing and is left out (the
    /// class path `.` makes every class file `./C.class`: one walk instead of two); a last
    /// `.` (which asks for a directory) takes the slow way.
    fn walk_plain(&self, names: &[Vec<u8>], follow: bool) -> Option<Found> {
        if names.iter().any(|n| n == b"..") || names.last().is_some_and(|n| n == b".") {
            return None;
        }
        let names: Names = names.iter().filter(|n| *n != b".").cloned().collect();
        let (fid, qids) = self.walk(&names).ok()?;
        let n = qids.len();
        let link_at = qids.iter().position(|q| q.qtype & QTSYMLINK != 0);
        if link_at.is_some_and(|i| i + 1 < n || follow) {
            self.clunk(fid);
            return None;
        }
        let qid = qids.last().cloned().unwrap_or_else(root_qid);
        Some(Found { names, fid, qid })
    }

    /// The names of the file `names` leads to, links resolved one name at a time.
    pub fn resolve_names(&self, names: Names, follow: bool) -> PortResult<Names> {
        let mut todo: std::collections::VecDeque<Vec<u8>> = names.into();
        let mut done: Names = Vec::new();
        let mut links = 0;
        while let Some(name) = todo.pop_front() {
            match name.as_slice() {
                b"." => continue,
                b".." => {
                    done.pop();
                    continue;
                }
                _ => {}
            }
            let last = todo.is_empty();
            done.push(name);
            let Some(target) = self.link_target(&done, !last || follow)? else {
                continue;
            };
            links += 1;
            if links > MAX_LINKS {
                return Err(Errno::ELOOP);
            }
            done.pop();
            if target.first() == Some(&b'/') {
                done.clear();
            }
            for n in components(&[], &target).into_iter().rev() {
                todo.push_front(n);
            }
        }
        Ok(done)
    }

    /// The target of `names` when it is a link to follow (`Ok(None)` when it is not a link or
    /// is not to be followed); `ENOENT`/`ENOTDIR` when it does not exist.
    fn link_target(&self, names: &[Vec<u8>], follow: bool) -> PortResult<Option<Vec<u8>>> {
        let (fid, qids) = self.walk(names)?;
        let is_link = qids.last().is_some_and(|q| q.qtype & QTSYMLINK != 0);
        let target = if is_link && follow {
            self.client.readlink(fid).map(Some).map_err(errno)
        } else {
            Ok(None)
        };
        self.clunk(fid);
        target
    }

    /// The directory `path` names a file in, resolved, and that file's name (for creating,
    /// removing or renaming it). `EEXIST`-like cases are left to the server.
    pub fn parent(&self, base: &[Vec<u8>], path: &[u8]) -> PortResult<(Names, Vec<u8>)> {
        let mut names = components(base, path);
        let last = names.pop().ok_or(Errno::ENOENT)?;
        if last == b"." || last == b".." {
            return Err(Errno::EINVAL);
        }
        Ok((self.resolve_names(names, true)?, last))
    }

    /// A fid on directory `names`.
    pub fn dir_fid(&self, names: &[Vec<u8>]) -> PortResult<Fid> {
        let (fid, qids) = self.walk(names)?;
        if qids.last().is_some_and(|q| q.qtype & QTDIR == 0) {
            self.clunk(fid);
            return Err(Errno::ENOTDIR);
        }
        Ok(fid)
    }

    /// Canonical names of `path`: links of the existing prefix resolved, the rest collapsed
    /// as written (`File.getCanonicalPath`).
    pub fn canonical(&self, base: &[Vec<u8>], path: &[u8]) -> Names {
        let names = components(base, path);
        for keep in (0..=names.len()).rev() {
            let Ok(mut done) = self.resolve_names(names[..keep].to_vec(), true) else {
                continue;
            };
            for n in &names[keep..] {
                match n.as_slice() {
                    b"." => {}
                    b".." => {
                        done.pop();
                    }
                    _ => done.push(n.clone()),
                }
            }
            return done;
        }
        Vec::new()
    }
}

fn root_qid() -> Qid {
    Qid {
        qtype: QTDIR,
        version: 0,
        path: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_start_at_the_base_or_the_root() {
        let base = vec![b"a".to_vec()];
        assert_eq!(
            components(&base, b"b//c"),
            vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]
        );
        assert_eq!(components(&base, b"/x/"), vec![b"x".to_vec()]);
        assert_eq!(display(&[]), b"/");
        assert_eq!(display(&[b"a".to_vec(), b"b".to_vec()]), b"/a/b");
    }
}
