//! The `/net` tree (`ninep::net`) through ninep's own client and server: a conversation's
//! life (clone, connect, data, local/remote, hangup), listening, `cs`, bad ctl messages and
//! misuse answered with errors, a client that goes away while a read and a listen are
//! blocked, and a reply timeout against a server that never answers.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use ninep::Errno;
use ninep::addr::Stream;
use ninep::client::{Client, Error, Fid};
use ninep::net::{NET_ANAME, Net};
use ninep::server::Server;

fn serve() -> (Client, Fid) {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let server = Server::new(Net::new());
    std::thread::spawn(move || server.serve_connection(Stream::Unix(theirs)));
    let c = Client::over(Stream::Unix(ours), 65536).unwrap();
    let (root, _) = c.attach("u", NET_ANAME, 0).unwrap();
    (c, root)
}

fn open(c: &Client, root: Fid, path: &str) -> Result<Fid, Error> {
    let (f, _) = c.walk_path(root, path)?;
    c.lopen(f, libc::O_RDWR as u32).map(|_| f)
}

fn text(c: &Client, fid: Fid) -> String {
    String::from_utf8(c.read(fid, 0, 256).unwrap()).unwrap()
}

fn file(c: &Client, root: Fid, path: &str) -> String {
    let f = open(c, root, path).unwrap();
    let t = text(c, f);
    c.clunk(f).unwrap();
    t
}

#[test]
fn a_conversation_connects_carries_data_and_hangs_up() {
    let (c, root) = serve();
    let host = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = host.local_addr().unwrap().port();
    let ctl = open(&c, root, "tcp/clone").unwrap();
    let n = text(&c, ctl);
    assert_eq!(file(&c, root, &format!("tcp/{n}/status")), "Closed\n");
    c.write(ctl, 0, format!("connect 127.0.0.1!{port}").as_bytes())
        .unwrap();
    let (mut peer, peer_addr) = host.accept().unwrap();
    let data = open(&c, root, &format!("tcp/{n}/data")).unwrap();
    assert_eq!(
        file(&c, root, &format!("tcp/{n}/local")),
        format!("127.0.0.1!{}\n", peer_addr.port())
    );
    assert_eq!(
        file(&c, root, &format!("tcp/{n}/remote")),
        format!("127.0.0.1!{port}\n")
    );
    assert_eq!(file(&c, root, &format!("tcp/{n}/status")), "Established\n");
    let names: Vec<_> = {
        let d = open(&c, root, "tcp").unwrap();
        let all = c.readdir_all(d).unwrap();
        c.clunk(d).unwrap();
        all.into_iter()
            .map(|e| String::from_utf8(e.name).unwrap())
            .collect()
    };
    assert_eq!(names, [".", "..", "clone", n.as_str()]);
    c.write(data, 0, b"hello").unwrap();
    let mut got = [0u8; 5];
    peer.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"hello");
    peer.write_all(b"back").unwrap();
    assert_eq!(c.read_once(data, 0, 100).unwrap(), b"back");
    // Options of the gateway's socket.
    c.write(ctl, 0, b"nodelay on").unwrap();
    c.write(ctl, 0, b"keepalive off").unwrap();
    assert_eq!(
        c.write(ctl, 0, b"nodelay maybe"),
        Err(Error::Remote(Errno::EINVAL))
    );
    // Half close, then hang up: the peer sees the end of the stream.
    c.write(ctl, 0, b"shutdown wr").unwrap();
    assert_eq!(peer.read(&mut got).unwrap(), 0);
    peer.write_all(b"more").unwrap();
    assert_eq!(c.read_once(data, 0, 100).unwrap(), b"more");
    c.write(ctl, 0, b"hangup").unwrap();
    assert!(c.read_once(data, 0, 100).is_err() || c.read_once(data, 0, 100).unwrap().is_empty());
    c.clunk(data).unwrap();
    c.clunk(ctl).unwrap();
    // The last file of the conversation is gone: so is the conversation.
    assert_eq!(
        c.walk_path(root, &format!("tcp/{n}")).map(drop),
        Err(Error::Remote(Errno::ENOENT))
    );
}

#[test]
fn listen_yields_calls_and_cs_translates_names() {
    let (c, root) = serve();
    let ctl = open(&c, root, "tcp/clone").unwrap();
    let n = text(&c, ctl);
    c.write(ctl, 0, b"announce 127.0.0.1!0").unwrap();
    let local = file(&c, root, &format!("tcp/{n}/local"));
    let port: u16 = local.trim().rsplit_once('!').unwrap().1.parse().unwrap();
    assert_eq!(file(&c, root, &format!("tcp/{n}/status")), "Announced\n");
    let caller = std::thread::spawn(move || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(b"call").unwrap();
        s
    });
    let call_ctl = open(&c, root, &format!("tcp/{n}/listen")).unwrap();
    let m = text(&c, call_ctl);
    assert_ne!(m, n);
    let data = open(&c, root, &format!("tcp/{m}/data")).unwrap();
    let mut got = Vec::new();
    while got.len() < 4 {
        got.extend(c.read_once(data, 0, 100).unwrap());
    }
    assert_eq!(got, b"call");
    drop(caller.join().unwrap());
    assert!(c.read_once(data, 0, 100).unwrap().is_empty());
    let cs = open(&c, root, "cs").unwrap();
    c.write(cs, 0, b"tcp!127.0.0.1!80").unwrap();
    assert_eq!(text(&c, cs), "/net/tcp/clone 127.0.0.1!80\n");
    assert_eq!(
        c.write(cs, 0, b"tcp!no-such-host.invalid!80"),
        Err(Error::Remote(Errno::ENOENT))
    );
}

#[test]
fn bad_ctl_messages_and_misuse_are_errors() {
    let (c, root) = serve();
    let ctl = open(&c, root, "tcp/clone").unwrap();
    let n = text(&c, ctl);
    for bad in [
        &b"connect"[..],
        b"connect 127.0.0.1",
        b"connect 127.0.0.1!99999",
        b"announce x!y!z",
        b"bogus",
        b"shutdown sideways",
        b"\xff\xfe",
        b" ",
    ] {
        assert_eq!(
            c.write(ctl, 0, bad),
            Err(Error::Remote(Errno::EINVAL)),
            "{bad:?}"
        );
    }
    assert_eq!(
        c.write(ctl, 0, &vec![b'a'; 2000]),
        Err(Error::Remote(Errno::EINVAL))
    );
    // Data of a conversation that is not connected; listen without announce.
    let data = open(&c, root, &format!("tcp/{n}/data")).unwrap();
    assert_eq!(
        c.read_once(data, 0, 10),
        Err(Error::Remote(Errno(libc::ENOTCONN as u32)))
    );
    assert_eq!(
        open(&c, root, &format!("tcp/{n}/listen")).map(drop),
        Err(Error::Remote(Errno::EINVAL))
    );
    // Names that are not there, files that cannot be made.
    assert_eq!(
        c.walk_path(root, "tcp/77").map(drop),
        Err(Error::Remote(Errno::ENOENT))
    );
    assert_eq!(
        c.walk_path(root, "udp").map(drop),
        Err(Error::Remote(Errno::ENOENT))
    );
    let (tcp, _) = c.walk_path(root, "tcp").unwrap();
    assert!(c.mkdir(tcp, "x", 0o755, 0).is_err());
    assert!(c.lcreate(tcp, "x", 0, 0o644, 0).is_err());
    // A refused connection.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    assert_eq!(
        c.write(ctl, 0, format!("connect 127.0.0.1!{port}").as_bytes()),
        Err(Error::Remote(Errno(libc::ECONNREFUSED as u32)))
    );
}

#[test]
fn a_client_that_goes_away_ends_its_blocked_reads_and_listens() {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let server = Server::new(Net::new());
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = done.clone();
    let serving = std::thread::spawn(move || {
        server.serve_connection(Stream::Unix(theirs));
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let transport = ours.try_clone().unwrap();
    let c = Client::over(Stream::Unix(ours), 65536).unwrap();
    let (root, _) = c.attach("u", NET_ANAME, 0).unwrap();
    let host = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = host.local_addr().unwrap().port();
    let ctl = open(&c, root, "tcp/clone").unwrap();
    let n = text(&c, ctl);
    c.write(ctl, 0, format!("connect 127.0.0.1!{port}").as_bytes())
        .unwrap();
    let (mut peer, _) = host.accept().unwrap();
    let data = open(&c, root, &format!("tcp/{n}/data")).unwrap();
    let lctl = open(&c, root, "tcp/clone").unwrap();
    let l = text(&c, lctl);
    c.write(lctl, 0, b"announce 127.0.0.1!0").unwrap();
    let (c2, c3) = (c.clone(), c.clone());
    let reader = std::thread::spawn(move || c2.patient().read_once(data, 0, 100));
    let listener = std::thread::spawn(move || {
        let (f, _) = c3.walk_path(root, &format!("tcp/{l}/listen")).unwrap();
        c3.patient().lopen(f, 2)
    });
    std::thread::sleep(Duration::from_millis(200));
    // The client's machine goes away: its transport is cut under the blocked requests.
    transport.shutdown(std::net::Shutdown::Both).unwrap();
    assert!(matches!(
        reader.join().unwrap(),
        Err(Error::Disconnected(_))
    ));
    assert!(matches!(
        listener.join().unwrap(),
        Err(Error::Disconnected(_))
    ));
    let end = Instant::now() + Duration::from_secs(20);
    while !done.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(Instant::now() < end, "the server waits for ever");
        std::thread::sleep(Duration::from_millis(20));
    }
    peer.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut b = [0u8; 1];
    assert_eq!(peer.read(&mut b).unwrap(), 0, "the host socket is closed");
    serving.join().unwrap();
}

#[test]
fn a_server_that_never_answers_times_out() {
    let (ours, theirs) = UnixStream::pair().unwrap();
    // Answers the version, then nothing.
    std::thread::spawn(move || {
        let mut s = theirs;
        let f = ninep::wire::read_frame(&mut s, 8192).unwrap().unwrap();
        let (tag, _) = ninep::Tmsg::decode_request(&f, 8192).unwrap();
        let v = ninep::Rmsg::Version {
            msize: 8192,
            version: "9P2000.L".into(),
        };
        s.write_all(&v.encode(tag)).unwrap();
        let mut sink = Vec::new();
        let _ = s.read_to_end(&mut sink);
    });
    let t = Duration::from_millis(300);
    let c = Client::over_timeout(Stream::Unix(ours), 8192, Some(t)).unwrap();
    let start = Instant::now();
    assert_eq!(c.attach("u", "", 0).map(drop), Err(Error::TimedOut(t)));
    assert!(start.elapsed() < Duration::from_secs(10));
    // The connection is given up: later calls fail at once.
    assert!(matches!(c.attach("u", "", 0), Err(Error::Disconnected(_))));
    // A server silent from the start: the version negotiation times out too.
    let (ours, _theirs) = UnixStream::pair().unwrap();
    assert_eq!(
        Client::over_timeout(Stream::Unix(ours), 8192, Some(t)).map(drop),
        Err(Error::TimedOut(t))
    );
}
