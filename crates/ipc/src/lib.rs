//! Channels between jxvm processes (Tati & Voelker §4: VM-internal serialization over shared
//! memory), below the runtime: it knows class metadata (`meta`) and objects (`heap`), never
//! threads, domains or natives (`vm` drives it from `native::ipc`).
//!
//! - [`frame`]: the wire format: a frame header, a graph frame (the class table with each
//!   class's shape, the table of objects that cross by name, and the graph as the object-graph
//!   copier `heap::graph` wrote it), call, reply and release frames for portals. Owns its
//!   parser, fuzzed (`fuzz/fuzz_targets/decode_frame.rs`).
//! - [`check`]: what the receiver checks and fixes in a decoded graph before Java code sees it
//!   (every reference of the declared type, strings well formed, transient fields cleared).
//! - [`ring`]: the shared-memory rings, one per direction, and waiting on them (futexes).
//! - [`channel`]: a connected channel: rendezvous by name over a Unix socket in a directory
//!   private to the user, the ring passed as a sealed memfd, frames sent and received whole
//!   (chunked through the ring when larger), the descriptors a graph frame needs (shared
//!   memory regions) passed over the socket with it, peer death seen through the socket.
//! - [`mux`]: graphs and portal calls over one channel: a reader thread once portals cross,
//!   call frames served on a pool of threads, replies routed to their callers, the channel's
//!   end failing waiting calls.
//! - `sys`: the system calls (the only other place with `unsafe`).
//!
//! `unsafe` is allowed in [`ring`] (the shared mapping) and `sys` only.

#![deny(unsafe_code)]

pub mod channel;
pub mod check;
pub mod frame;
pub mod mux;
#[allow(unsafe_code)] // the shared mapping, read and written by another process
pub mod ring;
#[allow(unsafe_code)] // system calls: memfd, mmap, SCM_RIGHTS, futex, poll, flock
mod sys;

pub use channel::{Channel, ChannelError};
