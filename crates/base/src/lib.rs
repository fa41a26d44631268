//! The bottom layer of jxvm's runtime: what every layer above names and nothing here knows
//! about them. No class metadata, heap, thread or domain type lives here.
//!
//! - [`ids`]: the typed ids of classes, methods, loaders and domains, and the numbering of
//!   classes and methods.
//! - [`idtable`]: lock-free tables from those ids to values.
//! - [`layout`]: the object header and array layout every engine reads.
//! - [`account`]: where a resource a domain holds is counted against its limits.

// `unsafe` is denied everywhere but in the id tables, which publish pointers lock-free.
#![deny(unsafe_code)]

pub mod account;
pub mod ids;
#[allow(unsafe_code)] // lock-free tables of published pointers
pub mod idtable;
pub mod layout;
