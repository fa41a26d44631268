//! Fuzz target: 9P2000.L decoding (`ninep`) must never panic; a frame that decodes must
//! encode back to the same bytes, and `read_frame` must never take more than `msize`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ninep::msg::{Dirent, Rmsg, Tmsg};

const MSIZE: u32 = 1 << 16;

fuzz_target!(|data: &[u8]| {
    if let Ok((tag, m)) = Tmsg::decode(data, MSIZE) {
        assert_eq!(m.encode(tag), data);
    }
    let _ = Tmsg::decode_request(data, MSIZE);
    if let Ok((tag, m)) = Rmsg::decode(data, MSIZE) {
        assert_eq!(m.encode(tag), data);
    }
    let _ = Dirent::decode_all(data);
    if let Ok(Some(frame)) = ninep::wire::read_frame(&mut &data[..], MSIZE) {
        assert!(frame.len() <= MSIZE as usize);
    }
});
