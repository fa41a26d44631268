//! The metadata layer of jxvm's runtime: what the VM knows about classes and their code,
//! shared by every domain and holding no heap reference. Above `base` and `port`; below the
//! heap, threads, domains and the execution engines, none of which it knows.
//!
//! - [`class`]: class metadata; loading, field layout, dispatch tables, constant-pool
//!   resolution, the ownership records that let classes be unloaded.
//! - [`code`]: a method's pre-decoded code and the analyses every engine shares (stack
//!   effects, frame-bounds proof, reference maps, NPE messages, inline caches).
//! - [`api`]: the jx API module's classes (embedded, compiled by `build.rs`) and their access
//!   rules.
//! - [`intrinsics`]: pure methods (Math and friends) an engine may run as Rust.
//! - [`mappings`]: the code mappings, the one table of method calls and field accesses an
//!   engine replaces with VM primitives (the intrinsics, PSO fields and arrays, memory objects).

// `unsafe` is denied everywhere but in the modules that allow it with their reason.
#![deny(unsafe_code)]

pub mod api;
pub mod class;
pub mod code;
pub mod intrinsics;
pub mod mappings;
