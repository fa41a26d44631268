//! A request to a server that never answers stops waiting when the client's cancellation
//! check says so, and the server is sent a `Tflush` for it.

use std::io::Write;
use std::os::unix::net::UnixListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ninep::client::{Client, Error};
use ninep::wire::read_frame;
use ninep::{Rmsg, Tmsg};

static GIVE_UP: AtomicBool = AtomicBool::new(false);

fn give_up() -> bool {
    GIVE_UP.load(Ordering::SeqCst)
}

#[test]
fn a_waiting_request_is_cancelled_and_flushed() {
    let dir = std::env::temp_dir().join(format!("ninep-cancel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sock = dir.join("s.sock");
    let listener = UnixListener::bind(&sock).unwrap();
    // A server that negotiates, then only reads: it reports the requests it got.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        let frame = read_frame(&mut s, 8192).unwrap().unwrap();
        let (tag, _) = Tmsg::decode_request(&frame, 8192).unwrap();
        let reply = Rmsg::Version {
            msize: 8192,
            version: "9P2000.L".into(),
        };
        s.write_all(&reply.encode(tag)).unwrap();
        while let Ok(Some(f)) = read_frame(&mut s, 8192) {
            let (_, msg) = Tmsg::decode_request(&f, 8192).unwrap();
            let _ = tx.send(msg.name());
        }
    });
    let c = Client::connect(&format!("unix:{}", sock.display()), 8192).unwrap();
    c.set_cancel(give_up);
    let waiting = std::thread::spawn(move || c.attach("u", "", 0).map(drop));
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok("Tmsg::Attach"));
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !waiting.is_finished(),
        "no reply, no cancellation: it waits"
    );
    let start = Instant::now();
    GIVE_UP.store(true, Ordering::SeqCst);
    assert_eq!(waiting.join().unwrap(), Err(Error::Cancelled));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok("Tmsg::Flush"));
}
