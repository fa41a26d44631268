//! Fuzz target: the channel frame parser (`ipc::frame`, crate `crates/ipc`). The first 16
//! bytes are read as a frame header, the rest as a graph frame's payload, and as a call's,
//! a reply's and a release's. None may panic;
//! a payload that parses must write back to a frame that parses to the same value (the
//! format has one encoding), and its tables may not hold more entries than its bytes could.
//! `crates/ipc/src/frame.rs`'s `fuzz_parse_mutated_frames` runs a bounded, seeded round of
//! the same checks inside `cargo test`, and `crates/cli/tests/ipc.rs` sends mutated real
//! frames to a running jxvm.
#![no_main]

use ipc::frame::{CallHead, GraphFrame, HEADER_LEN, Header, ReplyHead, parse_release};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(h) = data.get(..HEADER_LEN) {
        let _ = Header::parse(h.try_into().expect("16 bytes"), 1 << 30);
    }
    let payload = data.get(HEADER_LEN..).unwrap_or(data);
    if let Ok(f) = GraphFrame::parse(payload) {
        assert!(f.classes.len() <= payload.len() / 14);
        assert!(f.tokens.len() <= payload.len() / 5);
        let mut again = Vec::new();
        f.write(&mut again);
        let back = GraphFrame::parse(&again[HEADER_LEN..]).expect("a written frame parses");
        assert_eq!(back, f);
    }
    if let Ok((h, rest)) = CallHead::parse(payload) {
        assert!(h.slots.len() <= payload.len() / 8);
        assert_eq!(h.to_bytes(), payload[..payload.len() - rest.len()]);
    }
    if let Ok((h, rest)) = ReplyHead::parse(payload) {
        assert_eq!(h.to_bytes(), payload[..payload.len() - rest.len()]);
    }
    let _ = parse_release(payload);
});
