//! jxvm's object memory, below the runtime: what holds objects and copies them, knowing class
//! metadata (crate `meta`) and the ids and layouts of `base`, and nothing above (no threads,
//! domains, interpreter or natives). IPC, domain images and the cluster can use it alone.
//!
//! - [`heap`] (its items are re-exported here, so `heap::ObjRef` names
//!   `heap::heap::ObjRef`): the raw object memory of one domain: the object layout, allocation
//!   and thread-local allocation buffers, the write barrier ([`barrier`]) and the copying
//!   collector's mechanics ([`collector`]); the runtime's `gc` module drives collections (it
//!   knows threads, domains and their roots).
//! - [`graph`]: the object-graph copier (portals, later channels between processes, domain
//!   images and cluster messages): encodes a graph into a self-contained buffer and decodes it
//!   into another heap.
//!
//! The runtime (`vm`) names these modules `crate::heap` and `crate::graph`, as when they were
//! its own.
//!
//! `unsafe` is allowed in [`heap`] only (raw object memory, allocation, the collector); the
//! copier is safe code over [`ObjRef`]'s accessors. Stores that bypass the write barrier are
//! visible to the `heap` module alone (`pub(in crate::heap)`), not to the copier.

// `unsafe` is denied everywhere but in the heap module.
#![deny(unsafe_code)]

#[allow(unsafe_code)] // raw object memory, allocation, the collector
pub mod heap;

pub use self::heap::*;

pub mod graph;
