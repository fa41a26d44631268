//! A bounded, deterministic fuzz round of the 9P2000.L codec and server inside `cargo test`
//! (the open-ended one is `fuzz/fuzz_targets/decode_9p.rs`).
//!
//! Seeds are valid frames of every message type; mutations flip, set and insert bytes,
//! rewrite the size, type, tag and length fields, and cut or extend frames. Each mutant must
//! decode or fail with a typed error, never panic; one that decodes must encode back to the
//! same bytes. Then 3,000 mutants go to a live server (over a socket pair, exporting a
//! temporary directory): every reply must decode, the server must not panic, and after the
//! round the server must still answer a well-formed request on a new connection.

mod common;

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::time::Duration;

use ninep::addr::Stream;
use ninep::export::Export;
use ninep::msg::{self, Attr, Dirent, Flock, Getlock, Qid, Rmsg, SetAttr, Statfs, Tmsg};
use ninep::server::Server;
use ninep::wire::Data;

use testkit::Rng;

fn b(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

fn seeds() -> Vec<Vec<u8>> {
    let q = Qid {
        qtype: msg::QTDIR,
        version: 1,
        path: 2,
    };
    let mut dirents = Vec::new();
    use ninep::wire::Wire;
    Dirent {
        qid: q.clone(),
        offset: 1,
        dtype: 4,
        name: b("a"),
    }
    .put(&mut dirents);
    let lock = Flock {
        lock_type: 1,
        flags: 0,
        start: 0,
        length: 5,
        proc_id: 1,
        client_id: b("c"),
    };
    let gl = Getlock {
        lock_type: 1,
        start: 0,
        length: 5,
        proc_id: 1,
        client_id: b("c"),
    };
    let t = vec![
        Tmsg::Version {
            msize: 8192,
            version: msg::VERSION.into(),
        },
        Tmsg::Attach {
            fid: 0,
            afid: u32::MAX,
            uname: b("root"),
            aname: b(""),
            n_uname: 0,
        },
        Tmsg::Auth {
            afid: 1,
            uname: b("u"),
            aname: b(""),
            n_uname: 0,
        },
        Tmsg::Walk {
            fid: 0,
            newfid: 1,
            names: vec![b("a"), b(".."), b("b")],
        },
        Tmsg::Lopen { fid: 1, flags: 2 },
        Tmsg::Lcreate {
            fid: 1,
            name: b("f"),
            flags: 2,
            mode: 0o644,
            gid: 0,
        },
        Tmsg::Read {
            fid: 1,
            offset: 0,
            count: 100,
        },
        Tmsg::Write {
            fid: 1,
            offset: 0,
            data: Data(b("hello")),
        },
        Tmsg::Readdir {
            fid: 0,
            offset: 0,
            count: 1000,
        },
        Tmsg::Getattr {
            fid: 0,
            mask: msg::GETATTR_ALL,
        },
        Tmsg::Setattr {
            fid: 1,
            attr: SetAttr {
                valid: 8,
                size: 1,
                ..SetAttr::default()
            },
        },
        Tmsg::Mkdir {
            dfid: 0,
            name: b("d"),
            mode: 0o755,
            gid: 0,
        },
        Tmsg::Symlink {
            fid: 0,
            name: b("s"),
            target: b("/etc"),
            gid: 0,
        },
        Tmsg::Mknod {
            dfid: 0,
            name: b("p"),
            mode: 0o10644,
            major: 0,
            minor: 0,
            gid: 0,
        },
        Tmsg::Rename {
            fid: 1,
            dfid: 0,
            name: b("g"),
        },
        Tmsg::Renameat {
            olddirfid: 0,
            oldname: b("g"),
            newdirfid: 0,
            newname: b("h"),
        },
        Tmsg::Unlinkat {
            dirfid: 0,
            name: b("h"),
            flags: 0,
        },
        Tmsg::Link {
            dfid: 0,
            fid: 1,
            name: b("l"),
        },
        Tmsg::Readlink { fid: 1 },
        Tmsg::Statfs { fid: 0 },
        Tmsg::Fsync {
            fid: 1,
            datasync: 0,
        },
        Tmsg::Lock { fid: 1, lock },
        Tmsg::Getlock {
            fid: 1,
            lock: gl.clone(),
        },
        Tmsg::Xattrwalk {
            fid: 0,
            newfid: 2,
            name: b("user.x"),
        },
        Tmsg::Xattrcreate {
            fid: 0,
            name: b("user.x"),
            size: 1,
            flags: 0,
        },
        Tmsg::Flush { oldtag: 1 },
        Tmsg::Clunk { fid: 1 },
        Tmsg::Remove { fid: 1 },
    ];
    let r = [
        Rmsg::Lerror { ecode: 2 },
        Rmsg::Walk {
            qids: vec![q.clone(), q.clone()],
        },
        Rmsg::Getattr {
            attr: Attr {
                qid: q.clone(),
                ..Attr::default()
            },
        },
        Rmsg::Readdir {
            data: Data(dirents),
        },
        Rmsg::Statfs {
            statfs: Statfs::default(),
        },
        Rmsg::Getlock { lock: gl },
        Rmsg::Read {
            data: Data(b("data")),
        },
        Rmsg::Lopen { qid: q, iounit: 0 },
    ];
    let mut out: Vec<Vec<u8>> = t.iter().map(|m| m.encode(1)).collect();
    out.extend(r.iter().map(|m| m.encode(1)));
    out
}

fn set_u32(f: &mut [u8], at: usize, v: u32) {
    if f.len() >= at + 4 {
        f[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut f = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(f.len());
        match rng.below(9) {
            0 => f[at] ^= 1 << rng.below(8),
            1 => f[at] = rng.next_u64() as u8,
            2 => f[at] = [0, 0xFF, 0x7F, 0x80, 16, 17][rng.below(6)],
            3 => f.truncate(at),
            4 => f.insert(at, rng.next_u64() as u8),
            5 => set_u32(&mut f, 0, rng.next_u64() as u32 % 200),
            6 if f.len() > 4 => f[4] = rng.next_u64() as u8,
            7 if f.len() > 8 => {
                // A length field (string or count) made large.
                let at = 7 + rng.below(f.len() - 7);
                f[at] = 0xFF;
                if at + 1 < f.len() {
                    f[at + 1] = 0xFF;
                }
            }
            _ => f.extend(std::iter::repeat_n(0u8, rng.below(20))),
        }
        if f.is_empty() {
            break;
        }
    }
    // Half the mutants keep a consistent size so the body is what gets checked.
    if rng.below(2) == 0 && f.len() >= 4 {
        let n = f.len() as u32;
        set_u32(&mut f, 0, n);
    }
    f
}

fn check_decode(f: &[u8]) {
    if let Ok((tag, m)) = Tmsg::decode(f, 1 << 16) {
        assert_eq!(m.encode(tag), f, "{m:?}");
    }
    let _ = Tmsg::decode_request(f, 1 << 16);
    if let Ok((tag, m)) = Rmsg::decode(f, 1 << 16) {
        assert_eq!(m.encode(tag), f, "{m:?}");
    }
    let _ = Dirent::decode_all(f);
    if let Ok(Some(frame)) = ninep::wire::read_frame(&mut &f[..], 4096) {
        assert!(frame.len() <= 4096);
    }
}

#[test]
fn decoding_mutants_never_panics() {
    let seeds = seeds();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut decoded = 0;
    for _ in 0..200_000 {
        let pick = rng.below(seeds.len());
        let f = mutate(&mut rng, &seeds[pick]);
        check_decode(&f);
        decoded += usize::from(Tmsg::decode(&f, 1 << 16).is_ok());
    }
    // Some mutants are still valid messages (a changed fid, offset, ...).
    assert!(decoded > 1000, "{decoded}");
    for _ in 0..20_000 {
        let n = rng.below(64);
        let f: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
        check_decode(&f);
    }
}

#[test]
fn a_live_server_survives_mutated_frames() {
    let dir = common::TempDir::new("fuzz-server");
    std::fs::write(dir.path().join("a"), b"content").unwrap();
    let server = Server::new(Export::new(dir.path(), false).unwrap()).with_max_msize(8192);
    let seeds = seeds();
    let mut rng = Rng(42);
    let mut conns = 0;
    let mut sent = 0;
    while sent < 3000 {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let s = server.clone();
        let handle = std::thread::spawn(move || s.serve_connection(Stream::Unix(theirs)));
        let mut ours = ours;
        ours.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        // A valid start (version, attach), then mutants until the server hangs up.
        let start = [&seeds[0], &seeds[1]];
        for f in start {
            ours.write_all(f).unwrap();
        }
        let reader = {
            let r = ours.try_clone().unwrap();
            std::thread::spawn(move || drain_replies(r))
        };
        for _ in 0..100 {
            let pick = rng.below(28);
            let f = mutate(&mut rng, &seeds[pick]);
            sent += 1;
            if ours.write_all(&f).is_err() {
                break;
            }
        }
        ours.shutdown(std::net::Shutdown::Write).unwrap();
        handle.join().expect("the server connection panicked");
        reader.join().expect("a reply did not decode");
        conns += 1;
    }
    assert!(conns >= 30);
    // The server still serves.
    let (ours, theirs) = UnixStream::pair().unwrap();
    let s = server.clone();
    std::thread::spawn(move || s.serve_connection(Stream::Unix(theirs)));
    let c = ninep::client::Client::over(Stream::Unix(ours), 8192).unwrap();
    let (root, _) = c.attach("", "", 0).unwrap();
    c.statfs(root).unwrap();
}

/// Reads replies until the server closes; every one must decode.
fn drain_replies(mut r: UnixStream) {
    let mut msize = 8192;
    while let Ok(Some(f)) = ninep::wire::read_frame(&mut r, msize) {
        match Rmsg::decode(&f, msize) {
            Ok((_, Rmsg::Version { msize: m, .. })) => msize = msize.max(m),
            Ok(_) => {}
            Err(e) => panic!("undecodable reply {f:?}: {e}"),
        }
    }
}
