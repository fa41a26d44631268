//! 9P2000.L, the Linux dialect of Plan 9's file protocol, with no VM state.
//!
//! Written from the protocol's description (diod's `protocol.md`, the Linux kernel's
//! `include/net/9p/9p.h` message numbers); no code taken from other implementations.
//!
//! - [`wire`]: the byte-level codec (little-endian integers, strings, data, frames), its
//!   typed errors, and reading one frame from a stream with a bounded allocation.
//! - [`msg`]: every 9P2000.L T- and R-message as a typed enum, with the structures they
//!   carry ([`Qid`], [`Attr`], [`SetAttr`], [`Statfs`], [`Flock`], [`Getlock`], [`Dirent`]).
//! - [`errno`]: [`Errno`], the Linux error number an `Rlerror` carries.
//! - [`addr`]: `unix:PATH` and `tcp:HOST:PORT` addresses, their streams and listeners.
//! - [`client`]: a blocking, thread-safe client (tags matched by a reader thread).
//! - [`server`]: a generic server over the [`server::Filesystem`] trait (fids kept by the
//!   server), one thread per connection plus workers, flush, statistics.
//! - [`export`]: a [`server::Filesystem`] serving a host directory that nothing escapes.
//! - [`net`]: a [`server::Filesystem`] serving the host's TCP as a Plan 9 style `/net`
//!   tree, and the combination of a file tree with it.
//! - [`sys`]: the only module with `unsafe`: the raw system calls `export` needs.
#![deny(unsafe_code)]

pub mod addr;
pub mod client;
pub mod errno;
pub mod export;
pub mod msg;
pub mod net;
pub mod server;
pub mod sys;
pub mod wire;

pub use errno::Errno;
pub use msg::{Attr, Dirent, Flock, Getlock, Qid, Rmsg, SetAttr, Statfs, Tmsg};
pub use wire::WireError;

/// Locks `m`, going on when a thread panicked while holding it: a connection's or a client's
/// tables stay usable for the others (the panicking request has already failed).
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
