//! Shared by the integration tests: temporary directories, free ports, and one suite of
//! client operations run against every server (jxvm's own export, diod).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use ninep::Errno;
use ninep::client::{Client, Fid};
use ninep::msg::{self, SetAttr};

/// A directory under the system's temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("ninep-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A TCP port free on the loopback interface right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub const O_RDONLY: u32 = 0;
pub const O_WRONLY: u32 = 1;
pub const O_RDWR: u32 = 2;
pub const O_TRUNC: u32 = 0o1000;
pub const O_EXCL: u32 = 0o200;
pub const O_APPEND: u32 = 0o2000;

fn names(c: &Client, dir: Fid) -> Vec<String> {
    let (d, _) = c.walk::<&str>(dir, &[]).unwrap();
    c.lopen(d, O_RDONLY).unwrap();
    let mut v: Vec<String> = c
        .readdir_all(d)
        .unwrap()
        .into_iter()
        .map(|e| String::from_utf8(e.name).unwrap())
        .collect();
    c.clunk(d).unwrap();
    v.sort();
    v
}

/// Every operation the client offers against a server exporting `host` (an empty
/// directory), each checked on the host side too. The root fid stays open.
pub fn exercise(c: &Client, root: Fid, host: &Path) {
    // create, write, read back
    let (f, _) = c.walk::<&str>(root, &[]).unwrap();
    let (qid, _) = c.lcreate(f, "hello.txt", O_RDWR, 0o644, 0).unwrap();
    assert_eq!(qid.qtype, msg::QTFILE);
    let big: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    assert_eq!(c.write(f, 0, &big).unwrap(), big.len() as u64);
    assert_eq!(c.read(f, 0, big.len() + 10).unwrap(), big);
    assert_eq!(c.read(f, 299_990, 100).unwrap(), &big[299_990..]);
    c.fsync(f, false).unwrap();
    c.clunk(f).unwrap();
    assert_eq!(std::fs::read(host.join("hello.txt")).unwrap(), big);
    // exclusive creation of an existing name fails; append writes at the end
    let (g, _) = c.walk::<&str>(root, &[]).unwrap();
    let e = c
        .lcreate(g, "hello.txt", O_RDWR | O_EXCL, 0o644, 0)
        .unwrap_err();
    assert_eq!(e.errno(), Some(Errno::EEXIST));
    c.lcreate(g, "log", O_WRONLY | O_APPEND, 0o644, 0).unwrap();
    c.write(g, 0, b"one ").unwrap();
    c.write(g, 0, b"two").unwrap();
    c.clunk(g).unwrap();
    assert_eq!(std::fs::read(host.join("log")).unwrap(), b"one two");

    // getattr, setattr (truncate, mode)
    let (f, qids) = c.walk(root, &["hello.txt"]).unwrap();
    assert_eq!(qids.len(), 1);
    let a = c.getattr(f, msg::GETATTR_ALL).unwrap();
    assert_eq!(a.size, big.len() as u64);
    assert_eq!(a.mode & libc_s_ifmt(), 0o100000);
    let trunc = SetAttr {
        valid: msg::SETATTR_SIZE | msg::SETATTR_MODE,
        size: 10,
        mode: 0o600,
        ..SetAttr::default()
    };
    c.setattr(f, trunc).unwrap();
    let a = c.getattr(f, msg::GETATTR_ALL).unwrap();
    assert_eq!((a.size, a.mode & 0o7777), (10, 0o600));
    c.lopen(f, O_RDONLY).unwrap();
    assert_eq!(c.read_to_end(f, 0).unwrap(), &big[..10]);
    c.clunk(f).unwrap();

    // mkdir, nested files, readdir
    c.mkdir(root, "dir", 0o755, 0).unwrap();
    let (d, _) = c.walk(root, &["dir"]).unwrap();
    for i in 0..40 {
        let (g, _) = c.walk::<&str>(d, &[]).unwrap();
        c.lcreate(
            g,
            &format!("entry-{i:02}-with-a-longer-name"),
            O_WRONLY,
            0o644,
            0,
        )
        .unwrap();
        c.write(g, 0, format!("{i}").as_bytes()).unwrap();
        c.clunk(g).unwrap();
    }
    let listed = names(c, d);
    assert_eq!(listed.len(), 42, "{listed:?}"); // . and .. too
    assert!(listed.contains(&"entry-39-with-a-longer-name".to_string()));
    // small readdir counts page through every entry
    let (dd, _) = c.walk::<&str>(d, &[]).unwrap();
    c.lopen(dd, O_RDONLY).unwrap();
    let (mut offset, mut seen) = (0, 0);
    loop {
        let batch = c.readdir(dd, offset, 100).unwrap();
        let Some(last) = batch.last() else { break };
        offset = last.offset;
        seen += batch.len();
    }
    assert_eq!(seen, 42);
    c.clunk(dd).unwrap();

    // renameat and rename
    c.renameat(d, "entry-00-with-a-longer-name", root, "moved")
        .unwrap();
    assert!(host.join("moved").is_file());
    let (m, _) = c.walk(root, &["moved"]).unwrap();
    c.rename(m, d, "back").unwrap();
    c.clunk(m).unwrap();
    assert_eq!(std::fs::read(host.join("dir/back")).unwrap(), b"0");

    // symlink and readlink (the link is served as a link, not followed)
    c.symlink(root, "link", "dir/back", 0).unwrap();
    let (l, q) = c.walk(root, &["link"]).unwrap();
    assert_eq!(q[0].qtype, msg::QTSYMLINK);
    assert_eq!(c.readlink(l).unwrap(), b"dir/back");
    c.clunk(l).unwrap();

    // hard link
    let (h, _) = c.walk(root, &["dir", "back"]).unwrap();
    c.link(root, h, "hard").unwrap();
    c.clunk(h).unwrap();
    assert_eq!(std::fs::read(host.join("hard")).unwrap(), b"0");

    // unlinkat of a file, of a non-empty directory (refused), and remove
    c.unlinkat(root, "hard", 0).unwrap();
    assert!(!host.join("hard").exists());
    let e = c.unlinkat(root, "dir", msg::AT_REMOVEDIR).unwrap_err();
    assert_eq!(e.errno(), Some(Errno::ENOTEMPTY));
    let (r, _) = c.walk(root, &["dir", "back"]).unwrap();
    c.remove(r).unwrap();
    assert!(!host.join("dir/back").exists());
    c.clunk(d).unwrap();

    // missing names
    assert_eq!(
        c.walk(root, &["nope"]).unwrap_err().errno(),
        Some(Errno::ENOENT)
    );
    assert_eq!(
        c.walk(root, &["dir", "nope"]).unwrap_err().errno(),
        Some(Errno::ENOENT)
    );

    // deep paths (more than 16 names in one walk)
    let (mut cur, _) = c.walk::<&str>(root, &[]).unwrap();
    for _ in 0..20 {
        c.mkdir(cur, "d", 0o755, 0).unwrap();
        let (next, _) = c.walk(cur, &["d"]).unwrap();
        c.clunk(cur).unwrap();
        cur = next;
    }
    c.clunk(cur).unwrap();
    let deep = vec!["d"; 20];
    let (deepest, qids) = c.walk(root, &deep).unwrap();
    assert_eq!(qids.len(), 20);
    c.clunk(deepest).unwrap();

    // statfs
    let s = c.statfs(root).unwrap();
    assert!(s.bsize > 0 && s.blocks > 0, "{s:?}");
    let a = c.getattr(root, msg::GETATTR_BASIC).unwrap();
    assert_eq!(a.qid.qtype, msg::QTDIR);
}

/// POSIX locks: a write lock taken through one fid is seen by a test through another.
pub fn exercise_locks(c: &Client, root: Fid) {
    let (f, _) = c.walk::<&str>(root, &[]).unwrap();
    c.lcreate(f, "locked", O_RDWR, 0o644, 0).unwrap();
    let lock = msg::Flock {
        lock_type: msg::LOCK_TYPE_WRLCK,
        flags: 0,
        start: 0,
        length: 10,
        proc_id: 1,
        client_id: b"t".to_vec(),
    };
    assert_eq!(c.lock(f, lock.clone()).unwrap(), msg::LOCK_SUCCESS);
    let query = msg::Getlock {
        lock_type: msg::LOCK_TYPE_WRLCK,
        start: 0,
        length: 10,
        proc_id: 2,
        client_id: b"t".to_vec(),
    };
    let same = c.getlock(f, query.clone()).unwrap();
    assert_eq!(
        same.lock_type,
        msg::LOCK_TYPE_UNLCK,
        "own lock does not conflict"
    );
    let unlock = msg::Flock {
        lock_type: msg::LOCK_TYPE_UNLCK,
        ..lock
    };
    assert_eq!(c.lock(f, unlock).unwrap(), msg::LOCK_SUCCESS);
    c.clunk(f).unwrap();
}

/// Reads and writes from several threads at once on one connection.
pub fn exercise_threads(c: &Client, root: Fid) {
    std::thread::scope(|s| {
        for t in 0..6 {
            s.spawn(move || {
                let name = format!("thread-{t}");
                let (f, _) = c.walk::<&str>(root, &[]).unwrap();
                c.lcreate(f, &name, O_RDWR, 0o644, 0).unwrap();
                let data = vec![t as u8; 50_000 + t * 1000];
                for round in 0..20u64 {
                    c.write(f, round, &data).unwrap();
                    assert_eq!(c.read(f, round, data.len()).unwrap(), data);
                    let a = c.getattr(f, msg::GETATTR_BASIC).unwrap();
                    assert_eq!(a.size, round + data.len() as u64);
                }
                c.clunk(f).unwrap();
            });
        }
    });
}

fn libc_s_ifmt() -> u32 {
    0o170000
}
