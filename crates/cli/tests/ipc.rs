//! Channels between jxvm processes (`jx.ipc.Channel`, crate `ipc`) end to end: two jxvm
//! processes running `tests/jx/ipc/IpcPeer.java` exchange graphs of every kind; a receiver
//! whose class path lacks a class or has another shape of it; concurrent senders in both
//! directions; a sender killed with SIGKILL mid-send; and a hostile peer (this test, through
//! crate `ipc`) sending mutants of a real frame. HotSpot has no jx.ipc: the programs check
//! the values themselves and print one `ok` line per check, asserted here.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{javac, jxvm, scratch};
use ipc::frame::{HEADER_LEN, Header, KIND_GRAPH};
use testkit::Rng;

/// The peer program compiled twice: `a` whole, `b` without `Lonely` and with another
/// `Shaped` (the receiver's view of classes it lacks or has in another shape). Also a
/// private directory for channel names (`XDG_RUNTIME_DIR` of both processes).
struct Peers {
    a: PathBuf,
    b: PathBuf,
    names: PathBuf,
}

fn peers(what: &str) -> Peers {
    let root = scratch(what);
    let (a, b, names) = (root.join("a"), root.join("b"), root.join("run"));
    for d in [&a, &b, &names] {
        std::fs::create_dir_all(d).unwrap();
    }
    javac(&["tests/jx/ipc/IpcPeer.java"], &a);
    for e in std::fs::read_dir(&a).unwrap().flatten() {
        let name = e.file_name();
        if name != "Lonely.class" {
            std::fs::copy(e.path(), b.join(name)).unwrap();
        }
    }
    javac(&["tests/jx/ipc/alt/Shaped.java"], &b);
    Peers { a, b, names }
}

impl Peers {
    fn start(&self, dir: &Path, args: &[&str]) -> Child {
        self.start_with(dir, args, &[])
    }

    fn start_with(&self, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
        jxvm()
            .arg("-cp")
            .arg(dir)
            .args(args)
            .envs(env.iter().copied())
            .env("XDG_RUNTIME_DIR", &self.names)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }
}

/// Waits for `child` (killing it after `limit`); its exit success, stdout and stderr.
fn finish(mut child: Child, limit: Duration) -> (bool, String, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "timed out (hang):\n{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CHECKS: &[&str] = &[
    "ok strings, Latin-1 and UTF-16",
    "ok null",
    "ok boxed values and BigInteger",
    "ok int[100000]",
    "ok byte[5 MB], larger than the ring",
    "ok double[] bit for bit",
    "ok int[][] with an empty and a null row",
    "ok an enum constant is the receiver's own",
    "ok an enum constant with a body",
    "ok EnumMap",
    "ok EnumSet",
    "ok Class objects by name",
    "ok an object whose class the receiver does not initialize (no static initializer runs there)",
    "ok a record",
    "ok ArrayList and List.of",
    "ok HashMap of 1000",
    "ok LinkedHashMap keeps its order",
    "ok TreeMap with a comparator",
    "ok HashSet",
    "ok ArrayDeque",
    "ok ConcurrentHashMap",
    "ok the receiver finds enum constants in a HashMap keyed by them",
    "ok the receiver finds Class objects in a HashMap keyed by them",
    "ok an exception arrives with its message, cause and stack trace; addSuppressed works there",
    "ok a cycle is kept",
    "ok sharing is kept",
    "ok transient fields arrive at their default",
    "ok a list of 200000 nodes",
    "ok a class the receiver lacks is InvalidClassException there",
    "ok a class of another shape is InvalidClassException there",
    "ok the channel stays usable after them",
    "ok a finalizable object crosses and comes back",
    "ok its copy in the receiver is finalized there",
    "ok the original and the copy that came back are finalized here",
    "ok a Thread is IllegalArgumentException",
    "ok a lambda is IllegalArgumentException",
    "ok nothing was sent by a refused send",
    "ok a graph too large for the receiver's heap is OutOfMemoryError there",
    "ok the receiver lives on after it",
    "ok receive with a timeout is null when nothing comes",
    "ok a waiting receive is interrupted (InterruptedException, status cleared)",
    "ok the channel is usable after it",
    "ok a channel between two threads of one process",
    "ok an end that became unreachable is closed by the collector",
    "ok a closed end refuses to send",
    "ok connect to a name nobody listens on is IOException",
    "ok listen times out with IOException",
    "ok a name that is not a plain word is IOException",
];

/// Runs `check` against `serve` (whose class path lacks Lonely and has another Shaped), both
/// with environment `env`.
fn every_kind(what: &str, env: &[(&str, &str)]) {
    let p = peers(what);
    // The receiver has a small heap: the 64 MB array is its OutOfMemoryError.
    let mut server = p.start_with(&p.b, &["-Xmx48m", "IpcPeer", "serve", what], env);
    let client = p.start_with(&p.a, &["IpcPeer", "check", what], env);
    let (ok, out, err) = finish(client, Duration::from_secs(300));
    if !ok {
        let _ = server.kill();
    }
    assert!(ok, "check failed:\n{out}\n{err}");
    let oks: Vec<&str> = out.lines().filter(|l| l.starts_with("ok ")).collect();
    assert_eq!(oks, CHECKS, "{out}");
    let (ok, out, err) = finish(server, Duration::from_secs(30));
    assert!(ok, "serve failed:\n{out}\n{err}");
    assert_eq!(
        out, "listening\nserved 36\n",
        "no static initializer ran in the receiver"
    );
}

#[test]
fn graphs_of_every_kind_cross_between_two_processes() {
    every_kind("kinds", &[]);
}

#[test]
fn graphs_cross_with_the_collector_under_stress() {
    every_kind(
        "stress",
        &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")],
    );
}

#[test]
fn four_threads_send_while_graphs_come_back() {
    let p = peers("ipc-senders");
    let collector = p.start(&p.a, &["IpcPeer", "collect", "senders"]);
    let senders = p.start(&p.a, &["IpcPeer", "senders", "senders"]);
    let (ok, out, err) = finish(senders, Duration::from_secs(120));
    assert!(ok, "senders failed:\n{out}\n{err}");
    assert!(
        out.contains("ok 100 graphs received while 4 threads send\nok the peer saw them all"),
        "{out}"
    );
    let (ok, out, err) = finish(collector, Duration::from_secs(30));
    assert!(ok, "collect failed:\n{out}\n{err}");
    assert_eq!(
        out.trim(),
        "ok 400 graphs from 4 sending threads arrive whole and in each thread's order"
    );
}

#[test]
fn a_sender_killed_mid_send_is_channel_closed_not_a_hang() {
    let p = peers("ipc-kill");
    let mut sender = p.start(&p.a, &["IpcPeer", "bigsend", "kill"]);
    let mut drain = p.start(&p.a, &["IpcPeer", "drain", "kill"]);
    let mut first = String::new();
    BufReader::new(drain.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "received 8388608\n");
    // 32 MB graphs through a 1 MB ring: the sender is in the middle of one.
    std::thread::sleep(Duration::from_millis(50));
    sender.kill().unwrap(); // SIGKILL
    sender.wait().unwrap();
    let (ok, out, err) = finish(drain, Duration::from_secs(20));
    assert!(ok, "drain failed:\n{out}\n{err}");
    assert_eq!(
        out.trim(),
        "ChannelClosedException: the peer closed the channel or died"
    );
}

#[test]
fn a_receiver_killed_while_the_sender_waits_for_room_is_channel_closed() {
    let p = peers("ipc-kill-receiver");
    let sender = p.start(&p.a, &["IpcPeer", "bigsend", "killr"]);
    let mut drain = p.start(&p.a, &["IpcPeer", "drain", "killr"]);
    let mut first = String::new();
    BufReader::new(drain.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "received 8388608\n");
    drain.kill().unwrap(); // SIGKILL: the sender is filling the ring or waiting for room
    drain.wait().unwrap();
    let (ok, out, err) = finish(sender, Duration::from_secs(20));
    assert!(ok, "bigsend failed:\n{out}\n{err}");
    assert_eq!(
        out.trim(),
        "sent one\nChannelClosedException: the peer closed the channel or died"
    );
}

/// Mutates a frame's payload: bit flips, bytes and words set to boundary values, ranges
/// removed or repeated, truncation.
fn mutate(rng: &mut Rng, b: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(3) {
        let len = b.len();
        let at = rng.below(len);
        match rng.below(6) {
            0 => b[at] ^= 1 << rng.below(8),
            1 => b[at] = rng.next_u64() as u8,
            2 if at + 4 <= len => {
                let v = [0u32, 1, 7, 0xFFFF, 0x7FFF_FFFF, u32::MAX][rng.below(6)];
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            3 => {
                let end = (at + 1 + rng.below(24)).min(len);
                b.drain(at..end);
            }
            4 => {
                let end = (at + 1 + rng.below(24)).min(len);
                let copy = b[at..end].to_vec();
                b.splice(at..at, copy);
            }
            _ => b.truncate(at.max(1)),
        }
    }
}

fn framed(payload: &[u8]) -> Vec<u8> {
    let mut f = Header {
        kind: KIND_GRAPH,
        len: payload.len() as u64,
    }
    .to_bytes()
    .to_vec();
    f.extend_from_slice(payload);
    f
}

#[test]
fn a_hostile_peer_gets_exceptions_never_a_crash_or_a_hang() {
    let p = peers("ipc-hostile");
    let mirror = p.start(&p.a, &["IpcPeer", "mirror", "hostile"]);
    let dir = p.names.join("jxvm-ipc");
    let deadline = Instant::now() + Duration::from_secs(30);
    let ch = loop {
        match ipc::Channel::connect_in(&dir, "hostile") {
            Ok(c) => break c,
            Err(e) => {
                assert!(Instant::now() < deadline, "no listener: {e}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    };
    let (h, sample) = ch.receive(None, &|| false).unwrap().unwrap();
    assert_eq!(h.kind, KIND_GRAPH);
    const MUTANTS: usize = 400;
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    for _ in 0..MUTANTS {
        let mut m = sample.clone();
        mutate(&mut rng, &mut m);
        ch.send(&framed(&m)).unwrap();
    }
    ch.send(&framed(&sample)).unwrap();
    // A frame cut short: the peer goes in its middle.
    let whole = framed(&sample);
    ch.send(&whole[..HEADER_LEN + sample.len() / 2]).unwrap();
    drop(ch);
    let (ok, out, err) = finish(mirror, Duration::from_secs(120));
    assert!(ok, "the receiver failed:\n{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    let frames: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("frame "))
        .collect();
    assert_eq!(frames.len(), MUTANTS + 1, "{out}");
    assert_eq!(
        frames[MUTANTS], "the sample intact",
        "the channel survived every mutant"
    );
    assert!(
        out.ends_with(&format!("closed after {} frames\n", MUTANTS + 1)),
        "{out}"
    );
    let count = |what: &str| frames.iter().filter(|f| **f == what).count();
    let corrupt = count("java.io.StreamCorruptedException");
    let invalid = count("java.io.InvalidClassException");
    assert!(
        corrupt > 50 && invalid > 20,
        "{corrupt} corrupt, {invalid} invalid class:\n{out}"
    );
    for f in &frames {
        assert!(
            !f.contains("Error") || *f == "java.lang.OutOfMemoryError",
            "a mutant gave {f}:\n{out}"
        );
    }
}

/// Shared memory between two processes (`tests/jx/ipc/ShmPeer.java`): the same bytes both
/// ways, bounds and read-only-ness kept, revocation seen across in both directions (with what
/// was derived from the revoked range on either side), and memory that outlives its creator
/// killed with SIGKILL.
fn shared_memory(what: &str, env: &[(&str, &str)]) {
    let p = peers(what);
    javac(&["tests/jx/ipc/ShmPeer.java"], &p.a);
    let mut owner = p.start_with(&p.a, &["ShmPeer", "owner", what], env);
    let user = p.start_with(&p.a, &["ShmPeer", "user", what], env);
    let mut owner_out = Vec::new();
    let mut lines = BufReader::new(owner.stdout.take().unwrap()).lines();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let Some(Ok(l)) = lines.next() else {
            let _ = owner.kill();
            let (_, out, err) = finish(user, Duration::from_secs(10));
            panic!("the owner ended early: {owner_out:?}\nuser:\n{out}\n{err}");
        };
        assert!(Instant::now() < deadline, "owner too slow: {owner_out:?}");
        if l == "sent keep" {
            break;
        }
        owner_out.push(l);
    }
    owner.kill().unwrap(); // SIGKILL: the creator of `keep` dies
    owner.wait().unwrap();
    let (ok, out, err) = finish(user, Duration::from_secs(120));
    assert!(ok, "user failed:\n{out}\n{err}\nowner: {owner_out:?}");
    assert_eq!(
        owner_out,
        [
            "ok memory made by allocate is IllegalArgumentException, nothing sent",
            "ok an object implementing only jx.portal.Portal is IllegalArgumentException, nothing sent",
            "ok writes in the peer are seen here",
            "ok revoking the whole in the peer revokes every view of it here",
            "ok the fresh memory the peer made by revoking arrives valid, the same bytes",
            "ok a PSO itself is IllegalArgumentException (its container crosses), nothing sent",
            "ok a PSO field written in the peer is seen here",
        ]
    );
    let oks: Vec<&str> = out.lines().collect();
    assert_eq!(
        oks,
        [
            "ok shared memory arrives with its bytes",
            "ok a memory object twice in a graph arrives as one object",
            "ok a read-only view arrives read-only, with its bounds",
            "ok a sub-range arrives with its bounds",
            "ok writes in the owner are seen here",
            "ok revoking a sub-range in the owner revokes it here, and what was derived from it here; the whole stays valid",
            "ok revoking the whole here revokes every view of it here",
            "ok the fresh memory is shared too",
            "ok a container of shared memory arrives: its PSOs are read here with no copy",
            "ok a PSO over shared memory sees the owner's revocation",
            "ok the owner is gone",
            "ok memory outlives its creator (killed): still readable and writable here",
        ],
        "{err}"
    );
}

#[test]
fn shared_memory_is_the_same_bytes_in_both_processes() {
    shared_memory("shm", &[]);
}

#[test]
fn shared_memory_crosses_with_the_collector_under_stress() {
    shared_memory(
        "shm-stress",
        &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")],
    );
}

/// A hostile peer (this test, through crate `ipc`) forging the shared memory of a real frame:
/// descriptor indexes, ranges and slots that are not there, files that are not sealed shared
/// regions, descriptors announced but not sent. Each is an IOException in the receiver (the
/// channel usable after all but the last), never a crash.
#[test]
fn a_hostile_peer_forging_shared_memory_gets_exceptions() {
    use ipc::frame::{GraphFrame, KIND_FDS, TokenDesc};
    use std::os::fd::{AsFd, OwnedFd};
    let p = peers("shm-hostile");
    javac(&["tests/jx/ipc/ShmPeer.java"], &p.a);
    let mirror = p.start(&p.a, &["ShmPeer", "mirror", "shm-hostile"]);
    let dir = p.names.join("jxvm-ipc");
    let deadline = Instant::now() + Duration::from_secs(30);
    let ch = loop {
        match ipc::Channel::connect_in(&dir, "shm-hostile") {
            Ok(c) => break c,
            Err(e) => {
                assert!(Instant::now() < deadline, "no listener: {e}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    };
    let (_, sample, fds) = ch
        .receive_with_fds(None, &|| false, 1 << 20)
        .unwrap()
        .unwrap();
    assert_eq!(fds.len(), 1, "the region's descriptor comes with the frame");
    let frame = GraphFrame::parse(&sample).unwrap();
    let TokenDesc::Memory { slot, .. } = frame.tokens[0] else {
        panic!("{:?}", frame.tokens)
    };
    let token = |fd: u32, slot: u32, offset: u64, len: u64, writable: bool| {
        let mut f = frame.clone();
        f.tokens = vec![TokenDesc::Memory {
            fd,
            slot,
            offset,
            len,
            writable,
        }];
        let mut out = Vec::new();
        f.write(&mut out);
        out
    };
    let region = fds[0].as_fd();
    let plain = p.names.join("plain-file");
    let file = std::fs::File::create(&plain).unwrap();
    file.set_len((256 << 10) + 4096).unwrap();
    let plain: OwnedFd = file.into();
    let send = |bytes: Vec<u8>, fds: &[std::os::fd::BorrowedFd]| {
        ch.send_parts_with_fds(&[&bytes], fds).unwrap()
    };
    send(token(0, slot, 0, 4096, true), &[region]);
    send(token(0, slot, 0, 4096, false), &[region]);
    send(token(3, slot, 0, 4096, true), &[region]);
    send(token(0, slot, 0, 4096, true), &[]);
    send(token(0, slot, 0, 4097, true), &[region]);
    send(token(0, slot, u64::MAX, 2, true), &[region]);
    send(token(0, 40_000, 0, 4096, true), &[region]);
    send(token(0, 1000, 0, 4096, true), &[region]);
    send(token(0, slot, 0, 4096, true), &[plain.as_fd()]);
    send(token(0, slot, 0, 4096, true), &[region]);
    // Descriptors announced but not sent: the stream is out of step, the channel closes.
    let mut forged = Header {
        kind: KIND_FDS,
        len: 4,
    }
    .to_bytes()
    .to_vec();
    forged.extend_from_slice(&1u32.to_le_bytes());
    forged.extend_from_slice(&token(0, slot, 0, 4096, true));
    ch.send(&forged).unwrap();
    let (ok, out, err) = finish(mirror, Duration::from_secs(60));
    drop(ch);
    assert!(ok, "the receiver failed:\n{out}\n{err}");
    let sce = "frame java.io.StreamCorruptedException";
    let mut want = vec![
        "frame the sample intact",
        "frame the sample intact read-only",
    ];
    want.extend([sce; 7]);
    want.extend(["frame the sample intact", sce, "closed after 11 frames"]);
    assert_eq!(out.lines().collect::<Vec<_>>(), want, "{err}");
}

const PORTAL_CHECKS: &[&str] = &[
    "ok a service arrives as a portal to the other process",
    "ok a call with arguments and a result",
    "ok an exception thrown by the service arrives with its message and stack trace",
    "ok a callback: the service calls back into this process during the call",
    "ok a portal sent back to its process is the service itself",
    "ok 8 threads call one portal at once",
    "ok a portal from the peer cannot be sent over another channel (IllegalArgumentException)",
    "ok the service is kept while this process holds a portal to it",
    "ok a portal collected here releases the service there",
    "ok a second service",
    "ok a call after the channel is closed is PortalException",
];

/// Portals between two processes (`tests/jx/ipc/PortalPeer.java`): calls with arguments and
/// results, an exception with its stack trace, a callback into the caller's process,
/// concurrent callers, the service kept while a portal to it lives and freed when it is
/// collected or the channel closes.
fn portals(what: &str, env: &[(&str, &str)]) {
    let p = peers(what);
    javac(&["tests/jx/ipc/PortalPeer.java"], &p.a);
    let server = p.start_with(&p.a, &["PortalPeer", "serve", what], env);
    let client = p.start_with(&p.a, &["PortalPeer", "check", what], env);
    let (ok, out, err) = finish(client, Duration::from_secs(300));
    let (sok, sout, serr) = finish(server, Duration::from_secs(60));
    assert!(ok, "check failed:\n{out}\n{err}\nserver:\n{sout}\n{serr}");
    assert_eq!(out.lines().collect::<Vec<_>>(), PORTAL_CHECKS, "{err}");
    assert!(sok, "serve failed:\n{sout}\n{serr}");
    assert_eq!(
        sout,
        "listening\nok the service was freed\nok the export was freed when the channel closed\n"
    );
}

#[test]
fn portals_cross_between_two_processes() {
    portals("portals", &[]);
}

#[test]
fn portals_cross_with_the_collector_under_stress() {
    portals(
        "portals-stress",
        &[("JXVM_GC_STRESS", "1"), ("JXVM_GC_VERIFY", "1")],
    );
}

#[test]
fn a_portal_call_whose_server_is_killed_is_portal_exception_not_a_hang() {
    let p = peers("portal-kill");
    javac(&["tests/jx/ipc/PortalPeer.java"], &p.a);
    let mut server = p.start(&p.a, &["PortalPeer", "serve", "portal-kill"]);
    let mut client = p.start(&p.a, &["PortalPeer", "killcall", "portal-kill"]);
    let mut lines = BufReader::new(client.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    for l in lines.by_ref() {
        let l = l.unwrap();
        seen.push(l.clone());
        if l == "calling" {
            break;
        }
    }
    assert_eq!(seen, ["ok a call", "calling"]);
    // The call (a 60 s sleep in the server) is in flight.
    std::thread::sleep(Duration::from_millis(300));
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    let rest = std::thread::spawn(move || lines.map(|l| l.unwrap()).collect::<Vec<_>>());
    let (ok, _, err) = finish(client, Duration::from_secs(30));
    assert!(ok, "killcall failed:\n{err}");
    assert_eq!(
        rest.join().unwrap(),
        [
            "ok a call in flight when the serving process is killed is PortalException",
            "ok so is a later call",
        ]
    );
}

/// A hostile peer (this test, through crate `ipc`) calling a real service: a forged export
/// id, a method the interface lacks, the wrong argument slots, arguments of the wrong type,
/// forged releases and replies, and mutants of a real call frame. Each is a failed reply or
/// ignored; a real call still works after all of them, and the server never crashes.
#[test]
fn a_hostile_peer_calling_portals_gets_failed_replies() {
    use ipc::frame::{CallHead, GraphFrame, KIND_CALL, KIND_REPLY, Outcome, ReplyHead, TokenDesc};
    let p = peers("portal-hostile");
    javac(&["tests/jx/ipc/PortalPeer.java"], &p.a);
    let server = p.start(&p.a, &["PortalPeer", "serve", "portal-hostile"]);
    let dir = p.names.join("jxvm-ipc");
    let deadline = Instant::now() + Duration::from_secs(30);
    let ch = loop {
        match ipc::Channel::connect_in(&dir, "portal-hostile") {
            Ok(c) => break c,
            Err(e) => {
                assert!(Instant::now() < deadline, "no listener: {e}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    };
    let (_, sample) = ch.receive(None, &|| false).unwrap().unwrap();
    let frame = GraphFrame::parse(&sample).unwrap();
    let export = frame
        .tokens
        .iter()
        .find_map(|t| match t {
            TokenDesc::Portal { id, interfaces, .. } => {
                assert_eq!(interfaces, &["PortalPeer$Calc"]);
                Some(*id)
            }
            _ => None,
        })
        .expect("a portal token");
    let call_frame = |call: u64, export: u64, name: &str, desc: &str, slots: &[u64]| {
        let prefix = CallHead {
            call,
            export,
            name,
            descriptor: desc,
            slots: slots.to_vec(),
        }
        .to_bytes();
        let mut out = Vec::new();
        GraphFrame {
            classes: vec![],
            tokens: vec![],
            graph: b"",
        }
        .write_head_as(&mut out, KIND_CALL, &prefix);
        out
    };
    // The reply to call `call` (replies to other calls skipped); its outcome, slot, message.
    let reply = |call: u64| loop {
        let (h, payload) = ch
            .receive(Some(Duration::from_secs(30)), &|| false)
            .unwrap()
            .expect("a reply in time");
        assert_eq!(h.kind, KIND_REPLY);
        let (r, _) = ReplyHead::parse(&payload).unwrap();
        if r.call == call {
            return (r.outcome, r.slot, r.message.to_string());
        }
    };
    let failed = |call: u64, want: &str| {
        let (outcome, _, msg) = reply(call);
        assert_eq!(outcome, Outcome::Failed, "{msg}");
        assert!(msg.contains(want), "{msg}");
    };
    ch.send(&call_frame(1, export, "add", "(II)I", &[2, 40]))
        .unwrap();
    assert_eq!(reply(1), (Outcome::Returned, 42, String::new()));
    ch.send(&call_frame(2, export + 1000, "add", "(II)I", &[2, 40]))
        .unwrap();
    failed(2, "no portal");
    ch.send(&call_frame(3, export, "exit", "(I)V", &[0]))
        .unwrap();
    failed(3, "has no method");
    ch.send(&call_frame(4, export, "hashCode", "()I", &[]))
        .unwrap();
    failed(4, "has no method");
    ch.send(&call_frame(5, export, "add", "(II)I", &[2]))
        .unwrap();
    failed(5, "argument slots");
    // A reference argument whose graph is missing, then one of the wrong type.
    ch.send(&call_frame(
        6,
        export,
        "echo",
        "(LPortalPeer$Callback;)LPortalPeer$Callback;",
        &[0],
    ))
    .unwrap();
    failed(6, "cannot be received");
    let wrong_type = {
        let g = GraphFrame::parse(&sample).unwrap();
        let prefix = CallHead {
            call: 7,
            export,
            name: "echo",
            descriptor: "(LPortalPeer$Callback;)LPortalPeer$Callback;",
            slots: vec![0],
        }
        .to_bytes();
        let mut out = Vec::new();
        g.write_head_as(&mut out, KIND_CALL, &prefix);
        out.extend_from_slice(g.graph);
        out
    };
    ch.send(&wrong_type).unwrap();
    failed(7, "another type");
    // Forged releases and a reply nobody waits for: ignored.
    ch.send(&ipc::frame::release_frame(export + 1000, 5))
        .unwrap();
    let mut stray = Vec::new();
    GraphFrame {
        classes: vec![],
        tokens: vec![],
        graph: b"",
    }
    .write_head_as(
        &mut stray,
        KIND_REPLY,
        &ReplyHead {
            call: 99,
            outcome: Outcome::Returned,
            slot: 1,
            message: "",
        }
        .to_bytes(),
    );
    ch.send(&stray).unwrap();
    const MUTANTS: u64 = 200;
    let mut rng = Rng(0x5EED_1234_ABCD_0002);
    let real = call_frame(
        0,
        export,
        "describe",
        "(LPortalPeer$Point;Ljava/util/List;DCJ)Ljava/lang/String;",
        &[0, 0, 0, 0, 0, 0, 0],
    );
    for k in 0..MUTANTS {
        let mut m = real[HEADER_LEN..].to_vec();
        mutate(&mut rng, &mut m);
        let mut f = Header {
            kind: KIND_CALL,
            len: m.len() as u64,
        }
        .to_bytes()
        .to_vec();
        f.extend_from_slice(&m);
        ch.send(&f).unwrap();
        ch.send(&call_frame(1000 + k, export, "add", "(II)I", &[k, 1]))
            .unwrap();
        assert_eq!(reply(1000 + k).1, k + 1, "after mutant {k}");
    }
    drop(ch);
    let (ok, out, err) = finish(server, Duration::from_secs(60));
    assert!(ok, "the server failed:\n{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out, "listening\nok the service was freed\n");
}

/// A portal outlives the `Channel` object it came over (collected unclosed); the channel
/// closes when the portal is collected too, while the process lives on.
#[test]
fn a_channel_collected_unclosed_lives_while_portals_cross_it() {
    let p = peers("portal-orphan");
    javac(&["tests/jx/ipc/PortalPeer.java"], &p.a);
    let server = p.start(&p.a, &["PortalPeer", "serve", "portal-orphan"]);
    let mut client = p.start(&p.a, &["PortalPeer", "orphan", "portal-orphan"]);
    let mut lines = BufReader::new(client.stdout.take().unwrap()).lines();
    let first: Vec<String> = lines.by_ref().take(2).map(|l| l.unwrap()).collect();
    assert_eq!(
        first,
        [
            "ok a portal outlives the Channel object it came over",
            "dropped"
        ]
    );
    let (ok, out, err) = finish(server, Duration::from_secs(30));
    let _ = client.kill();
    client.wait().unwrap();
    assert!(ok, "serve failed:\n{out}\n{err}");
    assert_eq!(out, "listening\nok the service was freed\n");
}

/// A portal from another process registered in Naming and called from another domain; that
/// domain terminated while its thread waits for a remote call (a 60 s sleep there) ends at
/// once.
#[test]
fn a_domain_terminated_during_a_remote_call_ends() {
    let p = peers("portal-domains");
    javac(&["tests/jx/ipc/PortalPeer.java"], &p.a);
    let mut server = p.start(&p.a, &["PortalPeer", "serve", "portal-domains"]);
    let client = p.start(&p.a, &["PortalPeer", "domains", "portal-domains"]);
    let (ok, out, err) = finish(client, Duration::from_secs(60));
    let _ = server.kill();
    server.wait().unwrap();
    assert!(ok, "domains failed:\n{out}\n{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "ok another domain calls the portal through Naming",
            "ok a domain terminated while its thread waits for a remote call ends",
            "ok the portal still works here",
        ],
        "{err}"
    );
}
